#!/bin/bash
# How true `build --plan` is for quiet builds: for each board, the plan's
# time (from its sample: one thread's CPU time a stored position, times
# the positions, over the threads) and then the build itself with the
# same options, one after the other; the table gives the plan's
# nanoseconds a position against the build's CPU nanoseconds a position
# (user and system time over the positions stored: the index and the
# writes included, as in a real build) and the plan's seconds against the
# build's wall seconds, with their ratios (plan / build: 1 is exact; the
# issue it answers asks for 0.75 to 1.25).
#
# usage: scripts/bench_plan.sh [SPEC ...]
#   SPEC  BOARD[:STORE]@THREADS (default: 3x4@1 3x4:quiet-half@1 3x5:quiet-half@1
#         4x4:quiet-half@2); STORE is quiet (the default) or quiet-half
#   env: RETRODB (default bin/retrodb), MEMORY (default 8000)
set -eu
cd "$(dirname "$0")/.."
R=${RETRODB:-bin/retrodb}
MEMORY=${MEMORY:-8000}
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(3x4@1 3x4:quiet-half@1 3x5:quiet-half@1 4x4:quiet-half@2)
command -v /usr/bin/time >/dev/null || { echo "bench_plan: needs GNU time (apt-get install time)" >&2; exit 1; }
command -v jq >/dev/null || { echo "bench_plan: needs jq (apt-get install jq)" >&2; exit 1; }
[ -x "$R" ] || make -s bin/retrodb
T=$(mktemp -d /var/tmp/retrodb-bench-plan.XXXXXX)
trap 'rm -rf "$T"' EXIT

printf '%-8s %-10s %3s %13s %9s %9s %6s %9s %9s %6s\n' board store thr positions \
    plan-ns cpu-ns ratio plan-s wall-s ratio
for spec in "${specs[@]}"; do
    threads=${spec##*@}
    spec=${spec%@*}
    board=${spec%%:*}
    store=quiet
    [ "$spec" != "$board" ] && store=${spec#*:}
    opts=(--store "$store" --threads "$threads" --memory "$MEMORY")
    "$R" build dots "$board" "${opts[@]}" --dir "$T/db" --plan --json > "$T/plan.json"
    read -r positions plan_ns plan_s < <(jq -r \
        '"\(.positions) \(.sample_ns_per_position) \(.estimated_seconds)"' "$T/plan.json")
    rm -rf "$T/db"
    /usr/bin/time -f "%e %U %S" -o "$T/time" "$R" build dots "$board" "${opts[@]}" \
        --dir "$T/db" --quiet > /dev/null
    read -r wall cpu < <(awk '{ print $1, $2 + $3 }' "$T/time")
    rm -rf "$T/db"
    awk -v b="$board" -v s="$store" -v t="$threads" -v n="$positions" -v pn="$plan_ns" \
        -v ps="$plan_s" -v w="$wall" -v c="$cpu" 'BEGIN {
        cn = c * 1e9 / n
        printf "%-8s %-10s %3d %13d %9.1f %9.1f %6.2f %9.1f %9.1f %6.2f\n",
               b, s, t, n, pn, cn, pn / cn, ps, w, ps / w }'
done
