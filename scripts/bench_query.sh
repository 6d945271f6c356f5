#!/bin/bash
# Speed of `retrodb query --batch`: 10,000 random positions of every
# density answered by one process, as text and as JSON lines, with the
# database in memory (the default) and read from its files (--memory 0),
# against one process a position (a sample of 200, measured in the same
# run), on a
# Dots-and-Boxes database (3x4 by default) and a Cram table (4x5).
#
# usage: scripts/bench_query.sh [BOARD]     (RETRODB=path, default bin/retrodb)
set -eu
cd "$(dirname "$0")/.."
R=${RETRODB:-bin/retrodb}
board=${1:-3x4}
N=10000
T=$(mktemp -d /tmp/retrodb-bench-query.XXXXXX)
trap 'rm -rf "$T"' EXIT
rows=${board%x*} cols=${board#*x}
lines=$((2 * rows * cols + rows + cols))

random_bits() { # N LENGTH SEED
    awk -v N="$1" -v L="$2" -v seed="$3" 'BEGIN { srand(seed)
        for (n = 0; n < N; n++) { k = rand() * L; s = ""
            for (j = 0; j < L; j++) s = s (rand() * L < k ? "1" : "0"); print s } }'
}
now() { date +%s.%N; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%9.0f", n / (b - a) }'; }

"$R" build dots "$board" --dir "$T/dots" --quiet > /dev/null
"$R" build cram 4x5 --dir "$T/cram" --quiet > /dev/null
random_bits $N $lines 1 > "$T/dots.txt"
random_bits $N 20 2 > "$T/cram.txt"

printf '%-12s %-26s %10s %10s\n' database how positions "per second"
for db in dots cram; do
    name=$board; [ $db = cram ] && name="cram 4x5"
    t0=$(now); "$R" query --dir "$T/$db" --batch < "$T/$db.txt" > "$T/out.txt"; t1=$(now)
    [ "$(wc -l < "$T/out.txt")" -eq $N ] || { echo "bench: $db batch answered $(wc -l < "$T/out.txt") of $N" >&2; exit 1; }
    printf '%-12s %-26s %10d %10s\n' "$name" "--batch" $N "$(rate $N "$t0" "$t1")"
    t0=$(now); "$R" query --dir "$T/$db" --batch --json < "$T/$db.txt" > "$T/out.json"; t1=$(now)
    printf '%-12s %-26s %10d %10s\n' "$name" "--batch --json" $N "$(rate $N "$t0" "$t1")"
    t0=$(now); "$R" query --dir "$T/$db" --batch --memory 0 < "$T/$db.txt" > "$T/out.txt"; t1=$(now)
    printf '%-12s %-26s %10d %10s\n' "$name" "--batch --memory 0 (files)" $N "$(rate $N "$t0" "$t1")"
    opt=--dbn; [ $db = cram ] && opt=--cells
    t0=$(now)
    head -200 "$T/$db.txt" | while read -r p; do "$R" query --dir "$T/$db" $opt "$p" --json > /dev/null; done
    t1=$(now)
    printf '%-12s %-26s %10d %10s\n' "$name" "one process a position" 200 "$(rate 200 "$t0" "$t1")"
done
