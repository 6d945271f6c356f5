#!/bin/bash
# The include rules that keep the folders an architecture (docs/internals.md, "How the
# code is laid out"): data flows down, tools -> api -> engine -> game.h -> games ->
# search, layout, store -> common, and never back up.
#   - the public API's entry points (src/api/) sit above everything else of
#     the library: nothing under src/ but them includes them;
#   - the engine includes no game's header, only game.h;
#   - a game includes no engine header and no other game's, and not the
#     public API (include/retrodb/): what a game needs of a database comes
#     through a hook, and the API is built on the games in src/api/;
#   - the search runtime (src/search/: what both solvers share, below the
#     games), layout, store and common include nothing from above them;
#   - the program (tools/) includes no header of the store: what a database
#     folder holds comes through the engine (engine/report.h), durable file
#     writes through common/fsutil.h; nor a game's entry in the table of
#     games (dots.h, cram.h): the games' ids are game.h's; nor any game's
#     header: a position's forms, its answer, its perfect game, its
#     diagram, a build's start and a search's session are the library's
#     (src/api/position_forms.h, answer.h, dots_start.h, dots_session.h,
#     cram_session.h), which tools/ calls and prints;
#   - the program's subcommand files include the shared helpers (cli.h),
#     never the dispatcher, and no header of tools/ includes a tools/ file
#     that includes it back.
# Run on another tree (tests/architecture_planted.sh plants violations in
# a copy) by naming its root.
set -u
cd "${1:-$(dirname "$0")/..}"
pass=0
fail=0

# includes FILES... -> "file: included" lines for the quoted includes
includes() {
    grep -H '^#include "' "$@" 2>/dev/null | sed 's/:#include "\([^"]*\)".*/: \1/'
}

# verdict NAME BAD: a pass when BAD (the offending includes) is empty
verdict() {
    if [ -z "$2" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $1:"
        echo "$2" | sed 's/^/  /'
    fi
}

# rule NAME PATTERN FILES...: no include of FILES may match PATTERN
rule() {
    local name=$1 pattern=$2
    shift 2
    verdict "$name" "$(includes "$@" | grep -E ": ($pattern)$")"
}

# only NAME ALLOWED FILES...: every include of FILES must match ALLOWED
only() {
    local name=$1 allowed=$2
    shift 2
    verdict "$name" "$(includes "$@" | grep -v -E ": ($allowed)$")"
}

rule "the engine includes a game's own header or the entry points" 'dots/.*|cram/.*|api/.*' src/engine/*
rule "dots includes the engine, cram, the entry points or the public API" 'engine/.*|cram/.*|api/.*|retrodb/.*' src/dots/*
rule "cram includes the engine, dots, the entry points or the public API" 'engine/.*|dots/.*|api/.*|retrodb/.*' src/cram/*
rule "the search runtime includes a game, the engine or the entry points" 'engine/.*|dots/.*|cram/.*|api/.*|game\.h|retrodb/.*' src/search/*
rule "layout includes from above it" 'engine/.*|dots/.*|cram/.*|api/.*|store/.*|game\.h' src/layout/*
rule "store includes from above it" 'engine/.*|dots/.*|cram/.*|api/.*|game\.h' src/store/*
rule "common includes from above it" 'engine/.*|dots/.*|cram/.*|api/.*|store/.*|layout/.*|game\.h' src/common/*
rule "game.h includes a game, the engine or the entry points" 'engine/.*|dots/.*|cram/.*|api/.*' src/game.h
rule "a public header includes an internal one" '(common|layout|store|engine|dots|cram)/.*|game\.h' include/retrodb/*.h
rule "the program includes the store's internals (the library answers what they hold: engine/report.h)" 'store/.*' tools/*.[ch] tools/mpi/*.[ch]
rule "the program includes a game's table entry (the games' ids are game.h's)" 'dots/dots\.h|cram/cram\.h' tools/*.[ch] tools/mpi/*.[ch]
rule "the program includes a game's header (the library answers: src/api/)" 'dots/.*|cram/.*' tools/*.[ch] tools/mpi/*.[ch]
# What the program may include at all: the public API, the library's
# internal API (src/api/: positions, answers, a build's start, the
# searches' sessions; the engine's front: a build and its plan, what a
# folder says of itself, verify and its lists of level checksums, export,
# the parameters; the MPI ranks' distribution), the games' ids (game.h),
# the common helpers, and its own headers. Nothing of the layout, the
# store, the search runtime or a game's internals.
only "the program includes a header beyond the public and internal API" \
    'retrodb/[a-z_]+\.h|api/[a-z_]+\.h|engine/(builder|plan|report|verify|level_checksums|export|db|distribution)\.h|game\.h|common/[a-z_]+\.h|[a-z_]+\.h' \
    tools/*.[ch] tools/mpi/*.[ch]
rule "a tools header includes another tools header" 'cli\.h|commands\.h' tools/*.h
rule "the shared helpers include a subcommand's entry points" 'commands\.h' tools/cli.c

# MPI belongs to bin/retrodb-mpi alone: only tools/mpi/ includes mpi.h, so
# that the library and bin/retrodb build on a machine without an MPI, and
# only tools/mpi/ includes tools/mpi/'s headers.
bad=$(grep -l -r -E '^#include [<"]mpi\.h[>"]' src include tools | grep -v '^tools/mpi/')
bad+=$(includes src/*.[ch] src/*/*.[ch] tools/*.[ch] include/retrodb/*.h | grep -E ': (mpi/.*|mpi_.*)$')
if [ -z "$bad" ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: MPI outside tools/mpi/:"
    echo "$bad" | sed 's/^/  /'
fi

echo "architecture: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
