#!/bin/bash
# The quiet database against the full one, in the same run on the same
# machine: for each board, both builds with the same threads, their
# positions stored, wall and CPU seconds, peak memory and disk, and the
# ratios; the start's value and every opening line's value must agree
# (query --json of the start, compared), or the script fails.
#
# usage: scripts/bench_quiet.sh [BOARD[:VARIANT] ...]   (default 3x3 3x4 3x5:icelandic)
#        THREADS=N (default 2), RETRODB=path (default bin/retrodb),
#        BENCH_DIR=folder for the databases (default a temporary one)
# The full 3x5 and 4x4 builds take 5-15 minutes each and 5-11 GB of disk.
set -eu
cd "$(dirname "$0")/.."
R=${RETRODB:-bin/retrodb}
THREADS=${THREADS:-2}
[ $# -gt 0 ] || set -- 3x3 3x4 3x5:icelandic
if [ -n "${BENCH_DIR:-}" ]; then
    T=$BENCH_DIR
    mkdir -p "$T"
else
    T=$(mktemp -d /tmp/retrodb-bench-quiet.XXXXXX)
    trap 'rm -rf "$T"' EXIT
fi
TIME=/usr/bin/time
[ -x "$TIME" ] || TIME=""

# run NAME ARGS...: build into $T/NAME, print "wall cpu peak_kb"
run() {
    local name=$1
    shift
    rm -rf "${T:?}/$name"
    local t0 t1
    t0=$(date +%s.%N)
    if [ -n "$TIME" ]; then
        $TIME -f "%U %S %M" -o "$T/$name.time" "$R" build dots "$@" --dir "$T/$name" --quiet \
            --threads "$THREADS" > /dev/null
    else
        "$R" build dots "$@" --dir "$T/$name" --quiet --threads "$THREADS" > /dev/null
        echo "0 0 0" > "$T/$name.time"
    fi
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" '{ printf "%.2f %.2f %d\n", b - a, $1 + $2, $3 }' "$T/$name.time"
}
stored() { "$R" info --dir "$1" --json | jq .positions; }
disk() { du -sk "$1" | awk '{ print $1 * 1024 }'; }

printf '%-14s %-6s %15s %9s %9s %9s %10s %10s\n' board store positions wall_s cpu_s peak_MB disk_MB "Mpos/s"
for spec in "$@"; do
    board=${spec%%:*} variant=empty
    [ "$spec" != "$board" ] && variant=${spec#*:}
    args=("$board" --variant "$variant")
    read -r fw fc fm < <(run full "${args[@]}")
    read -r qw qc qm < <(run quiet "${args[@]}" --store quiet --memory 20000)
    fp=$(stored "$T/full") qp=$(stored "$T/quiet")
    for kind in full quiet; do
        if [ $kind = full ]; then w=$fw c=$fc m=$fm p=$fp; else w=$qw c=$qc m=$qm p=$qp; fi
        printf '%-14s %-6s %15d %9.2f %9.2f %9.0f %10.1f %10.2f\n' "$spec" $kind "$p" "$w" "$c" \
            "$(awk -v m="$m" 'BEGIN { print m / 1024 }')" \
            "$(awk -v d="$(disk "$T/$kind")" 'BEGIN { print d / 1048576 }')" \
            "$(awk -v p="$p" -v w="$w" 'BEGIN { print p / w / 1e6 }')"
    done
    awk -v fp="$fp" -v qp="$qp" -v fw="$fw" -v qw="$qw" -v b="$spec" 'BEGIN {
        printf "%-14s ratio  %14.1fx fewer positions, quiet build %.2fx the full build'"'"'s wall time\n",
               b, fp / qp, qw / fw }'
    "$R" query --dir "$T/quiet" --moves '' --json > "$T/quiet.json"
    "$R" query --dir "$T/full" --moves '' --json > "$T/full.json"
    if ! cmp -s "$T/full.json" "$T/quiet.json"; then
        echo "bench: $spec: the start's answers differ between the full and the quiet database" >&2
        exit 1
    fi
    echo "$spec: the start's value and every opening line's value agree"
done
