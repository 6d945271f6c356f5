#!/bin/bash
# The Cram solver benchmark: for each board and method, the seconds, nodes,
# nodes per second and peak memory (resident KB, from /usr/bin/time) of
# `retrodb solve cram`, with and without nimber tables.
#
#   RETRODB=bin/retrodb bash scripts/bench_cram.sh
#   BIG=1         also 4x11 and 5x8 (minutes each)
#   METHODS="..." the methods to run (default: all five; the exact-value
#                 methods take minutes on the bigger boards)
#   TT_MB=N       transposition table size (default 1024)
#   TABLES="DIR..." nimber tables to probe in the "with tables" rows; by
#                 default the 4x6 and 5x6 tables, built (and timed) first
#   LIMIT=S       give up on a run after S seconds (default 600)
set -u
RETRODB=${RETRODB:-bin/retrodb}
TT_MB=${TT_MB:-1024}
LIMIT=${LIMIT:-600}
METHODS=${METHODS:-"plain simple-cuts set-cuts etc aspiration"}
BOARDS="5x7 4x9 6x6"
[ -n "${BIG:-}" ] && BOARDS="$BOARDS 4x11 5x8"

T=$(mktemp -d /tmp/retrodb-bench-cram.XXXXXX)
trap 'rm -rf "$T"' EXIT

# Nimber tables: the rows "with tables" use these. By default the 4x6 and
# 5x6 tables are built here first, and the builds are timed (the 5x6 target
# is 60 s or less); TABLES="" runs without tables.
if [ -z "${TABLES+x}" ]; then
    TABLES=""
    printf '%-5s %9s %12s %10s\n' table seconds positions peak_KB
    for board in 4x6 5x6; do
        /usr/bin/time -f '%e %M' -o "$T/tmem" "$RETRODB" build cram "$board" --dir "$T/cram-$board" --quiet
        read -r sec mem < "$T/tmem"
        pos=$("$RETRODB" info --dir "$T/cram-$board" | sed -n 's/^positions *\([0-9]*\) stored.*/\1/p')
        printf '%-5s %9.2f %12d %10d\n' "$board" "$sec" "$pos" "$mem"
        TABLES="$TABLES $T/cram-$board"
    done
fi
db_args=""
for d in $TABLES; do db_args="$db_args --db $d"; done

field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" "$2"; }

run() { # board method tables-label extra-args...
    local board=$1 method=$2 label=$3
    shift 3
    if ! /usr/bin/time -f '%M' -o "$T/mem" timeout "$LIMIT" "$RETRODB" solve cram "$board" \
            --method "$method" --tt-mb "$TT_MB" --json --quiet "$@" > "$T/out" 2> "$T/err"; then
        printf '%-5s %-12s %-7s %s\n' "$board" "$method" "$label" "gave up or failed: $(head -c 200 "$T/err")"
        return
    fi
    local nim sec nodes
    nim=$(field nimber "$T/out")
    sec=$(field seconds "$T/out")
    nodes=$(field nodes "$T/out")
    awk -v b="$board" -v m="$method" -v l="$label" -v n="$nim" -v s="$sec" -v k="$nodes" \
        -v mem="$(tail -1 "$T/mem")" 'BEGIN {
        printf "%-5s %-12s %-7s %6d %9.2f %12d %12.0f %10d\n", b, m, l, n, s, k,
               (s > 0 ? k / s : 0), mem }'
}

echo "retrodb solve cram: $(nproc) cores, tt $TT_MB MB, tables: ${TABLES:-none}"
printf '%-5s %-12s %-7s %6s %9s %12s %12s %10s\n' board method tables nimber seconds nodes nodes/s peak_KB
for board in $BOARDS; do
    for method in $METHODS; do
        run "$board" "$method" none
        [ -n "$db_args" ] && run "$board" "$method" tables $db_args
    done
done
