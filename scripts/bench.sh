#!/bin/bash
# Speed and memory benchmark of the Dots-and-Boxes builder.
#
# For each board: wall time, threads, positions stored (and their ratio to
# the ideal count after symmetry and interchangeable lines), positions per
# second, peak memory against the --memory budget, compressed bytes per
# stored position, and the time of the naive full table (tests/naive_dots.c,
# no symmetry, no groups, one thread) on the same board in the same run,
# where it fits in memory. Then the speed-up of 2 threads over 1 (3x4 and
# Icelandic 3x5) and the cost of loony-move analysis (3x4).
#
# usage: scripts/bench.sh [--no-naive] [BOARD ...]   (BOARD like 3x4 or 3x5:icelandic)
set -eu
cd "$(dirname "$0")/.."
naive=1
if [ "${1:-}" = "--no-naive" ]; then naive=0; shift; fi
boards=("$@")
[ ${#boards[@]} -gt 0 ] || boards=(3x3 2x5 3x4 3x5:icelandic)
MEMORY=${MEMORY:-2048}
THREADS=${THREADS:-$(nproc)}
command -v /usr/bin/time >/dev/null || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }

make -s all
mkdir -p build
gcc -O3 -march=native -Itests -Isrc scripts/naive_bench.c tests/naive_dots.c -o build/naive_bench

T=$(mktemp -d /tmp/retrodb-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT

build() { # board variant dir threads -> "seconds peakKB"
    /usr/bin/time -f "%e %M" -o "$T/time" bin/retrodb build dots "$1" --variant "$2" --dir "$3" \
        --threads "$4" --memory "$MEMORY" --quiet
    cat "$T/time"
}

printf '%-14s %7s %4s %12s %7s %9s %9s %9s %8s %9s %8s\n' board seconds thr stored vs-ideal "Mpos/s" "peak MB" "budget" "B/pos" "naive s" "speedup"
for spec in "${boards[@]}"; do
    board=${spec%%:*}
    variant=empty
    [ "$spec" != "$board" ] && variant=${spec#*:}
    dir="$T/$board-$variant"
    read -r secs kb < <(build "$board" "$variant" "$dir" "$THREADS")
    info=$(bin/retrodb info --dir "$dir")
    stored=$(printf '%s\n' "$info" | awk '/^positions/ {print $2}')
    ratio=$(printf '%s\n' "$info" | sed -n 's/.*stored\/ideal \([0-9.]*\)).*/\1/p')
    bytes=$(printf '%s\n' "$info" | awk '$1 ~ /^[0-9]+$/ && NF >= 6 {s += $5} END {print s}')
    nsecs=-
    rows=${board%x*} cols=${board#*x}
    lines=$((2 * rows * cols + rows + cols))
    case $variant in # open lines: the naive table has 2^open entries
    swedish) lines=$((lines - 2 * rows - 2 * cols)) ;;
    icelandic) lines=$((lines - rows - cols)) ;;
    esac
    if [ "$naive" -eq 1 ] && [ "$lines" -le 31 ]; then
        read -r nsecs _ < <(build/naive_bench "$rows" "$cols" "$variant")
    fi
    speed=-
    [ "$nsecs" != - ] && speed=$(awk -v a="$nsecs" -v b="$secs" 'BEGIN {printf "%.1fx", a / b}')
    awk -v b="$spec" -v s="$secs" -v t="$THREADS" -v n="$stored" -v r="$ratio" -v kb="$kb" \
        -v m="$MEMORY" -v by="$bytes" -v ns="$nsecs" -v sp="$speed" 'BEGIN {
        printf "%-14s %7.2f %4d %12d %7s %9.1f %9.1f %9d %8.3f %9s %8s\n",
               b, s, t, n, r, n / s / 1e6, kb / 1024, m, by / n, ns, sp }'
    rm -rf "$dir"
done

echo
# level, slices, positions and values checksum of every level (info's
# other columns are timings)
sums() { bin/retrodb info --dir "$1" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}'; }

for spec in 3x4:empty 3x5:icelandic; do
    board=${spec%%:*} variant=${spec#*:}
    read -r s1 _ < <(build "$board" "$variant" "$T/t1" 1)
    read -r s2 _ < <(build "$board" "$variant" "$T/t2" 2)
    [ "$(sums "$T/t1")" = "$(sums "$T/t2")" ] && same=identical || same=DIFFERENT
    awk -v w="$spec" -v a="$s1" -v b="$s2" -v same="$same" 'BEGIN {
        printf "thread scaling (%s): 1 thread %.2f s, 2 threads %.2f s, speed-up %.2fx, checksums %s\n", w, a, b, a / b, same }'
    rm -rf "$T/t1" "$T/t2"
done

# the cost of loony-move analysis, same board, same run
read -r plain _ < <(build 3x4 empty "$T/plain" "$THREADS")
/usr/bin/time -f "%e %M" -o "$T/time" bin/retrodb build dots 3x4 --loony --dir "$T/loony" \
    --threads "$THREADS" --memory "$MEMORY" --quiet
read -r loony _ < "$T/time"
awk -v a="$plain" -v b="$loony" 'BEGIN {
    printf "loony analysis (3x4): without %.2f s, with --loony %.2f s, ratio %.2f\n", a, b, b / a }'
