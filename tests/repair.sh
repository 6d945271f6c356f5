#!/bin/bash
# repair.sh — what verify and a lookup find damaged, the next build
# redoes: a byte flipped inside a slice file's frame of a complete
# database (found by verify), the same found by a query, a slice whose
# level above was deleted (--keep-lines: the build computes the deleted
# levels again, redoes the slice, deletes them again), and a Cram table;
# after each repair verify finds nothing and every level's checksum is
# data/checksums' again. A DAMAGED file of junk asks for nothing.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
SUMS=$(dirname "$0")/../data/checksums
T=$(mktemp -d /tmp/retrodb-repair.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"

checksums() { "$RETRODB" info --dir "$1" | awk '$1 ~ /^[0-9]+$/ && $1 <= '"${2:-99}"' {print $1, $2, $4, $6}'; }
# flip FILE: four bytes in the middle of a frame
flip() {
    size=$(stat -c %s "$1")
    printf '\xff\xff\xff\xff' | dd of="$1" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
}

# a complete 3x3: verify finds it, the next build redoes it
"$RETRODB" build dots 3x3 --dir "$T/33" --threads 1 --quiet || bad "3x3: build"
flip "$T/33/12/8.zst"
expect 1 "redoes every damaged slice" -- "$RETRODB" verify --dir "$T/33"
[ -s "$T/33/DAMAGED" ] && ok || bad "verify recorded nothing in DAMAGED"
expect 0 "redoing a slice found damaged: '$T/33/12/8.zst'" -- "$RETRODB" build dots 3x3 --dir "$T/33" --threads 1
expect 0 "0 bad" -- "$RETRODB" verify --dir "$T/33"
[ "$(checksums "$T/33")" = "$(cat "$SUMS/3x3.txt")" ] && ok || bad "3x3 repaired: checksums differ"
[ ! -e "$T/33/DAMAGED" ] && ok || bad "DAMAGED left after the repair"

# the same damage met by a query instead
flip "$T/33/13/8.zst"
printf '%s\n' 111111111111100000000000 111111100000111111000000 101010101010101010101000 > "$T/pos"
expect 1 "running the same build command again redoes it" -- "$RETRODB" query --dir "$T/33" --batch "$T/pos"
# every lookup of it reports it, but DAMAGED names it once (a server meets
# it thousands of times a second)
for i in 1 2 3 4 5; do "$RETRODB" query --dir "$T/33" --batch "$T/pos" > /dev/null 2>&1; done
[ "$(grep -c '^slice' "$T/33/DAMAGED")" = 1 ] && ok || bad "a slice recorded $(grep -c '^slice' "$T/33/DAMAGED") times in DAMAGED"
# a record never stops the repair: 2 MB of other lines before it
cp "$T/33/DAMAGED" "$T/record"
awk 'BEGIN { for (i = 0; i < 80000; i++) print "slice 99 " i ",1 not ours" }' > "$T/33/DAMAGED"
head -c 300000 /dev/zero | tr '\0' x >> "$T/33/DAMAGED"
cat "$T/record" >> "$T/33/DAMAGED"
[ "$(stat -c %s "$T/33/DAMAGED")" -gt 2000000 ] && ok || bad "DAMAGED not made long"
expect 0 "redoing a slice found damaged" -- "$RETRODB" build dots 3x3 --dir "$T/33" --threads 1
expect 0 "0 bad" -- "$RETRODB" verify --dir "$T/33"
[ "$(checksums "$T/33")" = "$(cat "$SUMS/3x3.txt")" ] && ok || bad "3x3 repaired after a query: checksums differ"

# a kept level computed from a deleted one: verify names the levels, the
# build computes them again and deletes them again
"$RETRODB" build dots 3x3 --dir "$T/k33" --keep-lines 8 --threads 1 --quiet || bad "3x3 --keep-lines 8: build"
flip "$T/k33/8/6.zst"
expect 1 "levels 9 to 24, which --keep-lines deleted" -- "$RETRODB" verify --dir "$T/k33"
expect 0 "computing levels 9 to 24 again" -- "$RETRODB" build dots 3x3 --dir "$T/k33" --keep-lines 8 --threads 1
expect 0 "0 bad" -- "$RETRODB" verify --dir "$T/k33"
[ "$(checksums "$T/k33" 8)" = "$(awk '$1 <= 8' "$SUMS/3x3.txt")" ] && ok ||
    bad "3x3 --keep-lines 8 repaired: checksums differ"
[ ! -e "$T/k33/9" ] && [ ! -e "$T/k33/24" ] && ok || bad "the levels computed again were not deleted again"

# a Cram table
"$RETRODB" build cram 4x5 --dir "$T/c45" --threads 1 --quiet || bad "cram 4x5: build"
f=$(ls -S "$T"/c45/10/*.zst | head -1)
flip "$f"
expect 1 "redoes every damaged slice" -- "$RETRODB" verify --dir "$T/c45"
expect 0 "redoing a slice found damaged" -- "$RETRODB" build cram 4x5 --dir "$T/c45" --threads 1
expect 0 "0 bad" -- "$RETRODB" verify --dir "$T/c45"
[ "$(checksums "$T/c45")" = "$(cat "$SUMS/cram-4x5.txt")" ] && ok || bad "cram 4x5 repaired: checksums differ"

# junk in DAMAGED: no slice redone, no failure
printf 'slice 99 1,2\nslice x\n\xff\xfe\nslice 3 40,40\n' > "$T/33/DAMAGED"
out=$("$RETRODB" build dots 3x3 --dir "$T/33" --threads 1 2>&1)
[ $? -eq 0 ] && ! printf '%s' "$out" | grep -q "redoing" && ok || bad "junk in DAMAGED: $out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
