#!/bin/bash
# The Dots-and-Boxes solver benchmark: the value of each empty board by
# `retrodb solve dots --value-only`, with the seconds, nodes, nodes per
# second and peak memory (resident KB, from /usr/bin/time); then, in the
# same run, what each part of the search is worth in nodes (the capture
# rules against none, the endgame rules and the transposition cutoff
# against the capture rules alone, centre-first against line order) and
# the speed-up of two searchers against one.
#
#   RETRODB=bin/retrodb bash scripts/bench_dots_solver.sh
#   BIG=1     also 3x5 and 4x4 (long: see the table in docs/solving.md)
#   TT_MB=N   transposition table size (default 2048)
set -u
RETRODB=${RETRODB:-bin/retrodb}
TT_MB=${TT_MB:-2048}
BOARDS="3x3 2x5 2x6 3x4"
[ -n "${BIG:-}" ] && BOARDS="$BOARDS 3x5 4x4"
T=$(mktemp -d /tmp/retrodb-bench-dots.XXXXXX)
trap 'rm -rf "$T"' EXIT

field() { sed -n "s/.*\"$1\":\\([-0-9.]*\\).*/\\1/p" "$T/out"; }

# run LABEL ARGS...: one solve, one table row
run() {
    label=$1
    shift
    /usr/bin/time -f '%M' -o "$T/mem" "$RETRODB" solve dots "$@" --value-only --json --quiet \
        --tt-mb "$TT_MB" > "$T/out" || { echo "$label: failed"; return; }
    nodes=$(field nodes)
    sec=$(field seconds)
    printf '%-28s %6s %12s %9s %10s %9s\n' "$label" "$(field value)" "$nodes" "$sec" \
        "$(awk -v n="$nodes" -v s="$sec" 'BEGIN { printf "%.2f", (s > 0 ? n / s / 1e6 : 0) }')" \
        "$(cat "$T/mem")"
}

printf '%-28s %6s %12s %9s %10s %9s\n' run value nodes seconds Mnodes/s peak_KB
for b in $BOARDS; do
    run "$b" "$b" --threads 1
done
run "3x4, 2 threads" 3x4 --threads 2
run "2x6, 2 threads" 2x6 --threads 2
run "3x3, rules none" 3x3 --rules none
run "2x5, rules none" 2x5 --rules none
run "3x4, rules captures" 3x4 --rules captures
run "2x6, rules captures" 2x6 --rules captures
run "3x4, no cutoff" 3x4 --etc-min-open 65
run "2x6, no cutoff" 2x6 --etc-min-open 65
run "3x4, line order" 3x4 --row-order
run "Swedish 3x3" 3x3 --variant swedish
run "Icelandic 3x3" 3x3 --variant icelandic
