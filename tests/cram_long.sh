#!/bin/bash
# The long Cram check (`make check-long`, not part of `make check`): the
# published empty-board nimbers of 3x12, 4x9 and 5x7 with every solver
# method, and the same boards again probing a 4x6 nimber table; 3x17 and
# 3x18 with two threads, and the largest published boards of minutes, 7x7
# (1) and 6x7 (5, six trials), with two threads. Minutes per method on 2
# cores; prints one line per run and "N passed, N failed".
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-cram-long.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

# report LABEL WANT OUTPUT: one line for a solve's JSON output
report() {
    local got sec
    got=$(printf '%s' "$3" | sed -n 's/.*"nimber":\([0-9]*\).*/\1/p')
    sec=$(printf '%s' "$3" | sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p')
    if [ "$got" = "$2" ]; then
        pass=$((pass + 1))
        echo "ok   $1 nimber $got in ${sec}s"
    else
        fail=$((fail + 1))
        echo "FAIL $1: want $2, got: $3" >&2
    fi
}
"$RETRODB" build cram 4x6 --dir "$T/t46" --quiet || { echo "cannot build the 4x6 table" >&2; exit 1; }
# board:nimber, from data/known-values.md
for spec in 3x12:1 4x9:1 5x7:1; do
    board=${spec%:*} want=${spec#*:}
    for method in plain simple-cuts set-cuts etc aspiration; do
        for tables in "" "--db $T/t46"; do
            out=$("$RETRODB" solve cram "$board" --method "$method" --json --quiet $tables 2>&1)
            report "$board $method ${tables:+(table)}" "$want" "$out"
        done
    done
done
# two threads on boards of a few seconds, of a minute and of a few minutes
for spec in 3x17:0 3x18:1 7x7:1 6x7:5; do
    board=${spec%:*} want=${spec#*:}
    out=$("$RETRODB" solve cram "$board" --threads 2 --json --quiet 2>&1)
    report "$board aspiration, 2 threads" "$want" "$out"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
