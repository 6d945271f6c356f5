#!/bin/bash
# How good the time left is: builds BOARD (default 3x5) while asking
# `status --json` every second, then prints, at 10%, 50% and 90% of the
# positions done, the time left status gave against the time the build
# then really took.
#
# usage: scripts/bench_eta.sh [BOARD [build options...]]
#        RETRODB=path (default bin/retrodb), BENCH_DIR=folder (default a
#        temporary one; the database is removed at the end)
set -eu
cd "$(dirname "$0")/.."
R=${RETRODB:-bin/retrodb}
board=${1:-3x5}
[ $# -gt 0 ] && shift
T=$(mktemp -d "${BENCH_DIR:-/tmp}/retrodb-eta.XXXXXX")
trap 'rm -rf "$T"' EXIT
t0=$(date +%s.%N)
"$R" build dots "$board" --dir "$T/db" --quiet "$@" > /dev/null &
pid=$!
: > "$T/samples"
while kill -0 "$pid" 2> /dev/null; do
    sleep 1
    s=$("$R" status --dir "$T/db" --json 2> /dev/null) || continue
    now=$(date +%s.%N)
    printf '%s\n' "$s" | jq -r --arg t "$(awk -v a="$t0" -v b="$now" 'BEGIN { print b - a }')" \
        'select(.positions != null) | "\($t) \(.positions_done / .positions) \(.seconds_left // "none")"' \
        >> "$T/samples" || true
done
wait "$pid"
end=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
printf 'build dots %s %s: %.1f s in all\n' "$board" "$*" "$end"
printf '%8s %10s %14s %14s\n' done at_s estimated_left true_left
for want in 0.10 0.50 0.90; do
    awk -v w="$want" -v end="$end" '$2 >= w { 
        est = $3 == "none" ? "estimating" : sprintf("%.0f s", $3)
        printf "%7.0f%% %10.1f %14s %12.0f s\n", $2 * 100, $1, est, end - $1; exit }' "$T/samples"
done
