#!/bin/bash
# The quiet build timed on a real database's own level: a part of a
# finished slice computed again from the levels above, read from the
# database's files (scripts/quiet_part_bench.c), every value checked
# against the stored one. With a base commit, that commit's build and
# this one's take turns on the same part, PAIRS times, and the table
# gives each one's nanoseconds a position (wall time over positions, all
# threads together: the fastest of RUNS computations of the part, in
# each turn after one that warms the cache) and the ratio pair by pair (new /
# base: below 1 is faster), with the median; both must give the stored
# values.
#
# On a big board this is the measure to trust: `build --plan`'s sample
# reads zeros and takes small frame states, while a 4x5 level's frame
# states hold a million positions and its lookups spread over gigabytes
# of chunks. It runs beside a build of the same folder (it only reads).
#
# With CEILING=1 (and no base) it measures instead how near two threads
# come to the machine's ceiling: each round runs two one-thread
# computations of the part at once (what the machine gives two
# independent threads: their positions a second added up), then one
# two-thread computation, and prints the ratio of the two rates (1: two
# threads lose nothing to sharing a level's work), with the median.
# Each process holds the index and its cache: mind the memory beside a
# build.
#
# usage: scripts/bench_quiet_part.sh DIR [BASE-REV]
#   env: LEVEL (default: the lowest level with a finished slice), SLICE
#        (default 1), SKIP (positions into the slice, default 300000000,
#        or the slice's middle when it is smaller), COUNT (default
#        20000000), THREADS (default 2), PAIRS (default 3), RUNS (timed
#        computations a program's turn, default 3), CACHE_MB (the chunk
#        cache, default 2048; each turn also loads the board's index)
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/bench_quiet_part.sh DIR [BASE-REV]" >&2; exit 2; }
dir=$1 base=${2:-}
[ -f "$dir/MANIFEST" ] || { echo "bench_quiet_part: $dir holds no database" >&2; exit 2; }
SLICE=${SLICE:-1} COUNT=${COUNT:-20000000} THREADS=${THREADS:-2} PAIRS=${PAIRS:-3} RUNS=${RUNS:-3}
CACHE_MB=${CACHE_MB:-2048}
if [ -z "${LEVEL:-}" ]; then
    LEVEL=$(awk '$1 == "slice" { print $2 }' "$dir/MANIFEST" | sort -n | head -1)
fi
SKIP=${SKIP:-300000000}

T=$(mktemp -d /var/tmp/retrodb-bench-quiet-part.XXXXXX)
cleanup() { [ -n "$base" ] && git worktree remove --force "$T/base" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
harness() { # tree out: the harness linked with that tree's library
    make -s -C "$1" build/libretrodb.a
    gcc -std=gnu11 -O3 -march=native -fopenmp -I"$1/include" -I"$1/src" scripts/quiet_part_bench.c \
        "$1/build/libretrodb.a" $(pkg-config --libs libzstd) -fopenmp -o "$2"
}
harness . "$T/new"
programs=(new)
if [ -n "$base" ]; then
    git worktree add -q --detach "$T/base" "$base"
    harness "$T/base" "$T/old"
    programs=(old new)
    echo "comparing $(git rev-parse --short HEAD) (new) with $(git -C "$T/base" rev-parse --short HEAD) (base)"
fi
threads="$THREADS threads"
[ "${CEILING:-0}" = 1 ] && threads="1 and 2 threads"
echo "level $LEVEL, slice $SLICE, $COUNT positions from $SKIP on, $threads, the fastest of $RUNS runs a turn, warm cache of $CACHE_MB MB"
run() { # program -> "positions seconds ns hash"
    OMP_NUM_THREADS=$THREADS "$T/$1" "$dir" "$LEVEL" "$SLICE" "$SKIP" "$COUNT" "$RUNS" "$CACHE_MB"
}
if [ "${CEILING:-0}" = 1 ]; then
    [ -z "$base" ] || { echo "bench_quiet_part: CEILING=1 times one build: no BASE-REV" >&2; exit 2; }
    echo "two one-thread computations at once against one two-thread computation"
    printf '%-5s %-14s %12s %9s %9s  %s\n' round run positions seconds "M pos/s" values
    ratios=()
    for i in $(seq "$PAIRS"); do
        THREADS=1 run new > "$T/one-a" & a=$!
        THREADS=1 run new > "$T/one-b" & b=$!
        wait $a && wait $b || { echo "bench_quiet_part: a one-thread computation failed" >&2; exit 1; }
        THREADS=2 run new > "$T/two" || { echo "bench_quiet_part: the two-thread computation failed" >&2; exit 1; }
        read -r n1 s1 x1 h1 < "$T/one-a"; read -r n2 s2 x2 h2 < "$T/one-b"; read -r n s x h < "$T/two"
        [ "$h1" = "$h" ] && [ "$h2" = "$h" ] || { echo "bench_quiet_part: the computations differ" >&2; exit 1; }
        for r in "one thread a:$n1:$s1:$h1" "one thread b:$n2:$s2:$h2" "two threads:$n:$s:$h"; do
            IFS=: read -r name rn rs rh <<< "$r"
            printf '%-5s %-14s %12d %9.3f %9.2f  %s\n' "$i" "$name" "$rn" "$rs" \
                "$(awk -v n="$rn" -v s="$rs" 'BEGIN { print n / s / 1e6 }')" "$rh"
        done
        ratios+=("$(awk -v n="$n" -v s="$s" -v n1="$n1" -v s1="$s1" -v n2="$n2" -v s2="$s2" \
            'BEGIN { printf "%.3f", (n / s) / (n1 / s1 + n2 / s2) }')")
        echo "      two threads / ceiling ${ratios[-1]}"
    done
    printf '%s\n' "${ratios[@]}" | sort -n |
        awk '{ r[NR] = $1 } END { m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2;
              printf "median two threads / ceiling: %.3f over %d rounds (every value as stored)\n", m, NR }'
    exit 0
fi
printf '%-5s %-5s %12s %9s %9s  %s\n' pair prog positions seconds ns/pos values
ratios=()
for i in $(seq "$PAIRS"); do
    hashes=() ns=()
    for p in "${programs[@]}"; do
        read -r n s x h < <(run "$p") || { echo "bench_quiet_part: the $p build failed" >&2; exit 1; }
        printf '%-5s %-5s %12d %9.3f %9.1f  %s\n' "$i" "$p" "$n" "$s" "$x" "$h"
        hashes+=("$h") ns+=("$x")
    done
    if [ -n "$base" ]; then
        [ "${hashes[0]}" = "${hashes[1]}" ] || { echo "bench_quiet_part: the two builds differ" >&2; exit 1; }
        ratios+=("$(awk -v a="${ns[0]}" -v b="${ns[1]}" 'BEGIN { printf "%.3f", b / a }')")
        echo "      new / base ${ratios[-1]}"
    fi
done
if [ -n "$base" ]; then
    printf '%s\n' "${ratios[@]}" | sort -n |
        awk '{ r[NR] = $1 } END { m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2;
              printf "median new / base: %.3f over %d pairs (every value as stored)\n", m, NR }'
else
    echo "every value as stored"
fi
