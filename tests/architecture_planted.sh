#!/bin/bash
# tests/architecture.sh must fail on each kind of include it forbids: one
# violation planted at a time in a copy of the sources, and the check run
# on the copy.
set -u
cd "$(dirname "$0")/.."
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
pass=0
fail=0

# plant FILE LINE: the clean tree with LINE added at FILE's top must fail
plant() {
    rm -rf "$root/tree"
    mkdir -p "$root/tree"
    cp -r src include tools "$root/tree/"
    sed -i "1i $2" "$root/tree/$1"
    if bash tests/architecture.sh "$root/tree" > /dev/null; then
        fail=$((fail + 1))
        echo "FAIL: $1 including '$2' passed the check"
    else
        pass=$((pass + 1))
    fi
}

plant src/dots/dots.c '#include "retrodb/probe.h"'
plant tools/inspect.c '#include "store/manifest.h"'
plant tools/query.c '#include "cram/cram.h"'
plant tools/play.c '#include "dots/dots_diagram.h"'
plant tools/solve_cram.c '#include "cram/cram_solver.h"'
plant tools/solve_dots.c '#include "dots/dots_solver.h"'
plant tools/export.c '#include "engine/sweep.h"'
plant tools/query.c '#include "layout/layout.h"'
plant tools/answer_print.h '#include "cram/cram_board.h"'
plant src/cram/cram_search.c '#include "retrodb/probe.h"'
plant src/cram/cram_solver.c '#include "api/cram_tables.h"'
plant src/dots/dots_board.c '#include "engine/db.h"'
plant src/cram/cram.c '#include "dots/dots.h"'
plant src/engine/builder.c '#include "dots/dots_quiet_db.h"'
plant src/engine/kernel.c '#include "api/cram_tables.h"'
plant src/store/writer.c '#include "engine/db.h"'
plant src/common/error.c '#include "store/lock.h"'
plant src/layout/layout.c '#include "game.h"'
plant src/search/table_file.c '#include "dots/dots_solver.h"'
plant include/retrodb/probe.h '#include "common/error.h"'
plant tools/cli.h '#include "commands.h"'

# and the clean copy passes
rm -rf "$root/tree"
mkdir -p "$root/tree"
cp -r src include tools "$root/tree/"
if bash tests/architecture.sh "$root/tree" > /dev/null; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: the clean copy fails the check"
fi
echo "architecture_planted: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
