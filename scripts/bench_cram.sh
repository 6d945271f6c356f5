#!/bin/bash
# The Cram solver benchmark, in two parts.
#
# Targets: the empty boards of the speed targets, solved with the default
# method, with seconds, nodes, positions expanded, peak memory (resident
# KB, from /usr/bin/time) and, when BASE names a commit, the same boards
# solved in the same run by that commit's solver (built in a temporary
# folder) and the ratios between the two.
#
# Methods: for each board and method, the seconds, nodes, nodes per second
# and peak memory, with and without nimber tables.
#
#   RETRODB=bin/retrodb bash scripts/bench_cram.sh
#   BASE=<commit> compare the targets with that commit's solver
#   TARGETS="..." the target boards (default 5x8 4x11; BIG=1 adds 3x19 3x20
#                 4x13 5x11, hours in all)
#   BIG=1         also 4x11 and 5x8 in the methods part (minutes each)
#   METHODS="..." the methods to run (default: all five; the exact-value
#                 methods take minutes on the bigger boards; "" skips the
#                 methods part)
#   TT_MB=N       transposition table size (default 1024)
#   TARGET_TT_MB=N  the same for the targets (default 4096; the table grows
#                 to it only as it fills, or takes it all with threads)
#   THREADS=N     threads for the targets (default 1; the baseline commit
#                 is run with one)
#   TABLES="DIR..." nimber tables to probe in the "with tables" rows; by
#                 default the 4x6 and 5x6 tables, built (and timed) first
#   LIMIT=S       give up on a run after S seconds (default 600; targets
#                 7200)
#   IGSOLVE=PATH  also solve each target with igsolve (P. Beling's solver,
#                 github beling/impartial-games; docs/cram.md says how to
#                 build it offline), one thread, with each of its tables in
#                 IGSOLVE_TT, and print the better wall time beside
#                 retrodb's and the ratio (retrodb's wall time, the whole
#                 process, over igsolve's: below 1, retrodb is ahead)
#   IGSOLVE_TT="..." igsolve's tables to try (default "default hash-map";
#                 "default" is the one it picks, a succinct table of 8 GB
#                 above 40 cells: leave it out where 8 GB is not free)
set -u
RETRODB=${RETRODB:-bin/retrodb}
TT_MB=${TT_MB:-1024}
LIMIT=${LIMIT:-600}
METHODS=${METHODS-"plain simple-cuts set-cuts etc aspiration"}
BOARDS="5x7 4x9 6x6"
[ -n "${BIG:-}" ] && BOARDS="$BOARDS 4x11 5x8"

T=$(mktemp -d /tmp/retrodb-bench-cram.XXXXXX)
trap 'rm -rf "$T"' EXIT

field() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p" "$2"; }

# ---- targets ----
TARGETS=${TARGETS:-"5x8 4x11"}
[ -n "${BIG:-}" ] && TARGETS="$TARGETS 3x19 3x20 4x13 5x11"
base_bin=""
if [ -n "${BASE:-}" ]; then
    repo=$(cd "$(dirname "$0")/.." && pwd)
    mkdir -p "$T/base"
    if git -C "$repo" archive "$BASE" | tar -x -C "$T/base" &&
        make -C "$T/base" -j2 bin/retrodb > "$T/base.log" 2>&1; then
        base_bin="$T/base/bin/retrodb"
    else
        echo "cannot build $BASE: $(tail -3 "$T/base.log" 2>/dev/null)"
    fi
fi

# target BINARY BOARD [ARGS]: one solve; prints "nimber seconds nodes expanded
# peak_KB wall_seconds" (seconds: the solve, from its JSON; wall: the whole
# process)
target() {
    local bin=$1 board=$2
    shift 2
    if ! /usr/bin/time -f '%M %e' -o "$T/tmem" timeout "${LIMIT:-7200}" "$bin" solve cram "$board" \
            --tt-mb "${TARGET_TT_MB:-4096}" --json --quiet "$@" > "$T/tout" 2> "$T/terr"; then
        echo "- - - - - -"
        return
    fi
    local exp
    exp=$(field expanded "$T/tout")
    echo "$(field nimber "$T/tout") $(field seconds "$T/tout") $(field nodes "$T/tout") ${exp:--} $(tail -1 "$T/tmem")"
}

# igsolve_wall BOARD [IGSOLVE OPTIONS]: igsolve on the board; prints "nimber
# wall_seconds" ("- -" when it fails or runs out of time)
igsolve_wall() {
    local rows=${1%x*} cols=${1#*x}
    shift
    if ! /usr/bin/time -f '%e' -o "$T/igtime" timeout "${LIMIT:-7200}" "$IGSOLVE" "$@" cram "$rows" "$cols" \
            > "$T/igout" 2> "$T/igerr"; then
        echo "- -"
        return
    fi
    local nim
    nim=$(sed -n 's/^Nimber of initial position: *\([0-9]*\).*/\1/p' "$T/igout")
    echo "${nim:--} $(tail -1 "$T/igtime")"
}

echo "targets: $(nproc) cores, ${THREADS:-1} thread(s), tt up to ${TARGET_TT_MB:-4096} MB${base_bin:+, against $BASE}"
printf '%-5s %6s %9s %12s %12s %10s %7s' board nimber seconds nodes expanded peak_KB wall_s
[ -n "$base_bin" ] && printf ' | %9s %12s %10s %7s %7s' base_s base_nodes base_KB speedup fewer
IGSOLVE_TT=${IGSOLVE_TT:-default hash-map}
if [ -n "${IGSOLVE:-}" ]; then
    printf ' |'
    for tt in $IGSOLVE_TT; do printf ' %9s' "ig_${tt}_s"; done
    printf ' %7s' ratio
fi
printf '\n'
for board in $TARGETS; do
    read -r nim sec nodes exp mem wall <<< "$(target "$RETRODB" "$board" --threads "${THREADS:-1}")"
    printf '%-5s %6s %9s %12s %12s %10s %7s' "$board" "$nim" "$sec" "$nodes" "$exp" "$mem" "$wall"
    if [ -n "$base_bin" ]; then
        read -r bnim bsec bnodes _ bmem _ <<< "$(target "$base_bin" "$board")"
        [ "$bnim" != - ] && [ "$nim" != - ] && [ "$bnim" != "$nim" ] && echo " NIMBERS DIFFER"
        # the old solver counted expanded positions as nodes
        awk -v s="$sec" -v e="$exp" -v bs="$bsec" -v bn="$bnodes" -v bm="$bmem" 'BEGIN {
            printf " | %9s %12s %10s", bs, bn, bm
            if (s > 0 && bs > 0) printf " %6.1fx %6.1fx", bs / s, bn / e; else printf " %7s %7s", "-", "-" }'
    fi
    if [ -n "${IGSOLVE:-}" ]; then
        best=- walls=""
        for tt in $IGSOLVE_TT; do
            if [ "$tt" = default ]; then
                read -r inim iwall <<< "$(igsolve_wall "$board")"
            else
                read -r inim iwall <<< "$(igsolve_wall "$board" --tt "$tt")"
            fi
            [ "$inim" != - ] && [ "$nim" != - ] && [ "$inim" != "$nim" ] && printf ' NIMBERS DIFFER (igsolve %s)' "$inim"
            walls="$walls $iwall"
            if [ "$iwall" != - ] && { [ "$best" = - ] || awk -v a="$iwall" -v b="$best" 'BEGIN { exit !(a < b) }'; }; then
                best=$iwall
            fi
        done
        awk -v w="$wall" -v best="$best" -v walls="$walls" 'BEGIN {
            printf " |"; n = split(walls, a, " "); for (i = 1; i <= n; i++) printf " %9s", a[i]
            if (best != "-" && best > 0 && w != "-") printf " %7.2f", w / best; else printf " %7s", "-" }'
    fi
    printf '\n'
done
[ -z "$METHODS" ] && exit 0

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
