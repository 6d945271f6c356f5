#!/bin/bash
# quiet_half.sh — half quiet databases (build dots --store quiet-half) from
# the command line: every answer of `query --batch --json` equals the full
# database's (every position of 2x2 and Swedish 3x3, random positions of
# 3x3, Icelandic 3x3, 3x4 and 2x5 with a penalty); the finished database
# holds the kept class alone (no file of a dropped part is left, the
# manifest says every level's was dropped) and takes less than 60% of the
# quiet database's disk; export writes what the quiet database's export
# writes; verify and verify --full; a build killed at any moment, or
# stopped with SIGINT, resumes to the same checksums; a damaged kept slice
# is found and redone; --plan's disk is below the quiet build's; a level
# cut into more slices than a layout's group has lines is read back whole.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-half.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"

# stopped DIR WHEN ARGS...: a 3x4 half build with ARGS, one thread,
# stopped by SIGINT (exit 130: within a slice, finished levels kept): 1.5 s
# in, or (WHEN dropped:L) once its manifest records the other class of
# level L or lower deleted, a point in the build however fast the machine
stopped() {
    local dir=$1 when=$2 pid rc
    shift 2
    "$RETRODB" build dots 3x4 --store quiet-half "$@" --dir "$dir" --quiet --threads 1 &
    pid=$!
    if [ "${when%%:*}" = dropped ]; then
        until awk -v l="${when#*:}" '$1 == "dropped" && $2 <= l {f = 1} END {exit !f}' "$dir/MANIFEST" 2> /dev/null ||
            ! kill -0 "$pid" 2> /dev/null; do
            sleep 0.02
        done
    else
        sleep "$when"
    fi
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    [ "$rc" -eq 130 ] && ok || bad "3x4 half $* stopped by SIGINT: exit $rc (finished before it?)"
}

# board NAME ARGS...: the full and the half database of a board
board() { full_and quiet-half "$@"; }

# only_kept DIR: no file of a dropped part left, every level's dropped
only_kept() {
    local levels files
    levels=$(awk '$1 == "dropped" {print $2}' "$1/MANIFEST" | sort -n | uniq | wc -l)
    files=$(awk '$1 == "slice"' "$1/MANIFEST" | wc -l)
    [ "$levels" -eq "$(($2 + 1))" ] && [ "$(find "$1" -name '*.zst' | wc -l)" -lt "$files" ] && ok ||
        bad "$1: $levels levels dropped of $(($2 + 1)), $(find "$1" -name '*.zst' | wc -l) files for $files slices"
}

board 2x2 2x2
same_answers "2x2, every position" "$T/2x2-full" "$T/2x2" 12 0 0
only_kept "$T/2x2" 12
same_boards quiet-half
only_kept "$T/34" 31

# the disk: less than 60% of the quiet database's
"$RETRODB" build dots 3x4 --store quiet --dir "$T/34-quiet" --quiet || bad "3x4: quiet build"
half=$(du -sb "$T/34" | cut -f1) quiet=$(du -sb "$T/34-quiet" | cut -f1)
[ "$((half * 100))" -lt "$((quiet * 60))" ] && ok || bad "3x4: the half database takes $half bytes, the quiet one $quiet"

# export: what the quiet database's export writes
"$RETRODB" build dots 3x3 --store quiet --dir "$T/33-quiet" --quiet || bad "3x3: quiet build"
"$RETRODB" export --dir "$T/33" --quiet --output "$T/half.csv" || bad "3x3: export"
"$RETRODB" export --dir "$T/33-quiet" --quiet --output "$T/quiet.csv" || bad "3x3: quiet export"
cmp -s "$T/half.csv" "$T/quiet.csv" && ok || bad "3x3: the half database's export differs"

# the start's value, the store named, the plan's disk below the quiet one's
expect 0 "value -3" -- "$RETRODB" build dots 3x3 --store quiet-half --dir "$T/33"
expect 0 "quiet-half" -- "$RETRODB" info --dir "$T/33"
expect 2 "all, quiet or quiet-half" -- "$RETRODB" build dots 3x3 --store half --dir "$T/r1"
peak() { "$RETRODB" build dots 4x4 --store "$1" --plan --json --dir "$T/plan44" | python3 -c 'import json,sys; print(json.load(sys.stdin)["peak_disk_bytes"])'; }
[ "$(peak quiet-half)" -lt "$(peak quiet)" ] && ok || bad "--plan: the half build's peak is not below the quiet one's"
expect 2 "other parameters" -- "$RETRODB" build dots 3x4 --store quiet --dir "$T/34"

# verify, and verify --full recomputing every kept level
expect 0 "0 bad" -- "$RETRODB" verify --dir "$T/34"
expect 0 "0 disagree" -- "$RETRODB" verify --dir "$T/34" --full

# killed and resumed (kill -9 at any moment, a level's dropped part maybe
# half removed): the same level checksums as the build in one go
checksums() { "$RETRODB" info --dir "$1" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}'; }
for delay in 0.3 0.9 1.8 3; do
    rm -rf "$T/k34"
    "$RETRODB" build dots 3x4 --store quiet-half --dir "$T/k34" --quiet --threads 1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    "$RETRODB" build dots 3x4 --store quiet-half --dir "$T/k34" --quiet || bad "resume after kill at $delay s"
    [ "$(checksums "$T/k34")" = "$(checksums "$T/34")" ] && ok ||
        bad "killed at $delay s and resumed: checksums differ"
done
only_kept "$T/k34" 31

# SIGINT: stopped within its slice, resumed to the same checksums
rm -rf "$T/s34"
"$RETRODB" build dots 3x4 --store quiet-half --dir "$T/s34" --quiet --threads 1 2> "$T/s34.err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] && grep -q "run the same command to resume" "$T/s34.err" && ok ||
    bad "SIGINT: exit $rc: $(cat "$T/s34.err")"
"$RETRODB" build dots 3x4 --store quiet-half --dir "$T/s34" --quiet || bad "resume after SIGINT"
[ "$(checksums "$T/s34")" = "$(checksums "$T/34")" ] && ok || bad "stopped and resumed: checksums differ"

# --window: any width, and a build resumed with another, gives the same
# checksums (what is gone is the manifest's to say); a wider window
# holds more disk at the peak; a width that is not one, or a store
# without dropped parts, is a usage error
for w in 1 6; do
    rm -rf "$T/w34"
    "$RETRODB" build dots 3x4 --store quiet-half --window "$w" --dir "$T/w34" --quiet || bad "--window $w"
    [ "$(checksums "$T/w34")" = "$(checksums "$T/34")" ] && ok || bad "--window $w: checksums differ"
done
rm -rf "$T/w34"
stopped "$T/w34" 1.5 --window 6
"$RETRODB" build dots 3x4 --store quiet-half --window 1 --dir "$T/w34" --quiet || bad "resumed with --window 1"
[ "$(checksums "$T/w34")" = "$(checksums "$T/34")" ] && ok || bad "window 6 then 1: checksums differ"
only_kept "$T/w34" 31
# a build stopped, then resumed with a wider window or with --disk,
# computes again the other classes it keeps now (the nearest levels'
# within the window; with room for all, every one the first run
# deleted, those with positions named: 3x4's levels 28 to 30 have none of
# the other class), before the rest: the same checksums, and every part
# gone at the end
rm -rf "$T/w34" "$T/w34d"
stopped "$T/w34" dropped:22 --window 1
cp -r "$T/w34" "$T/w34d"
gone=$(grep -c '^dropped' "$T/w34/MANIFEST")
"$RETRODB" build dots 3x4 --store quiet-half --window 3 --dir "$T/w34" 2> "$T/w34.log" || bad "resumed with --window 3"
again=$(grep -c 'computed again.*--window keeps it' "$T/w34.log")
[ "$again" -ge 1 ] && [ "$again" -le 2 ] && ! grep -q -- '--disk keeps' "$T/w34.log" && ok ||
    bad "resumed with --window 3 after 1: $again parts computed again: $(grep -m3 'computed again' "$T/w34.log")"
[ "$(checksums "$T/w34")" = "$(checksums "$T/34")" ] && ok || bad "window 1 then 3: checksums differ"
only_kept "$T/w34" 31
"$RETRODB" build dots 3x4 --store quiet-half --window 1 --disk 1 --dir "$T/w34d" 2> "$T/w34d.log" ||
    bad "resumed with --disk 1"
[ "$gone" -ge 3 ] && [ "$(grep -c 'computed again' "$T/w34d.log")" -ge $((gone - 3)) ] &&
    [ "$(grep -c 'computed again' "$T/w34d.log")" -le "$gone" ] && ok ||
    bad "resumed with --disk 1: $(grep -c 'computed again' "$T/w34d.log") parts of $gone computed again"
[ "$(checksums "$T/w34d")" = "$(checksums "$T/34")" ] && ok || bad "window 1 then --disk 1: checksums differ"
only_kept "$T/w34d" 31

# A level in many slices (4x5's have up to 37): a record of slice 17 or
# later was once read back as no record, so such slices were built again
# at every resume, and a finished database taken for an unfinished one.
# Slices of a few frame states each, the highest of a level past 17: info
# sees every level done, the same command again builds nothing (it reads
# the manifest back as a resumed build does), and the answers are the
# full database's.
many() { "$RETRODB" build dots 3x3 --store quiet-half --slice-positions 40 --dir "$T/many" --quiet "$@"; }
rm -rf "$T/many"
many || bad "3x3 in slices of 40 positions"
most=$(awk '$1 == "slice" {split($3, c, ","); if (c[1] + 0 > m) m = c[1] + 0} END {print m + 0}' "$T/many/MANIFEST")
[ "$most" -ge 17 ] && ok || bad "3x3 in slices of 40 positions: a level's highest slice is $most"
"$RETRODB" info --dir "$T/many" | awk '$1 ~ /^[0-9]+$/ && $2 != $3 {b = 1} END {exit b}' && ok ||
    bad "info: a level of many slices not all done: $("$RETRODB" info --dir "$T/many" | awk '$1 ~ /^[0-9]+$/ && $2 != $3' | head -2)"
records=$(grep -c '^slice' "$T/many/MANIFEST")
many || bad "3x3 in slices of 40 positions, again"
[ "$(grep -c '^slice' "$T/many/MANIFEST")" -eq "$records" ] && ok || bad "the finished build of many slices built some again"
same_answers "3x3 in slices of 40 positions" "$T/33-full" "$T/many" 24 0 2000
wpeak() { "$RETRODB" build dots 4x4 --store quiet-half --window "$1" --plan --json --dir "$T/plan44" | python3 -c 'import json,sys; print(json.load(sys.stdin)["peak_disk_bytes"])'; }
[ "$(wpeak 2)" -lt "$(wpeak 3)" ] && [ "$(wpeak 3)" -lt "$(wpeak 5)" ] && [ "$(wpeak 3)" = "$(peak quiet-half)" ] && ok ||
    bad "--plan: the peak does not grow with the window (2: $(wpeak 2), 3: $(wpeak 3), 5: $(wpeak 5))"
# --disk: the other class kept beyond the window while the disk allows,
# the farthest level's deleted first when it would not; the same values
# whatever goes when, and at the end every dropped part gone
rm -rf "$T/d1" "$T/d2"
"$RETRODB" build dots 3x4 --store quiet-half --window 1 --disk 0.0015 --dir "$T/d1" 2> "$T/d1.log" ||
    bad "--disk 0.0015: the build failed: $(tail -2 "$T/d1.log")"
[ "$(checksums "$T/d1")" = "$(checksums "$T/34")" ] && ok || bad "--disk: checksums differ"
# each deletion is of a level beyond the window (n + 1), none while the
# budget is met: within 1.5 MB some go, the farthest first
awk '/deleted to stay within --disk/ { n = $2 + 0; l = $8 + 0; if (l <= n + 1 || (last && l > last && n == ln)) bad = 1; last = l; ln = n; seen++ }
     END { exit !(seen > 0 && !bad) }' "$T/d1.log" && ok ||
    bad "--disk: a deletion within the window or not farthest first: $(grep -m3 'deleted to stay' "$T/d1.log")"
"$RETRODB" build dots 3x4 --store quiet-half --window 1 --disk 1 --dir "$T/d2" 2> "$T/d2.log" || bad "--disk 1"
! grep -q 'deleted to stay' "$T/d2.log" && [ "$(checksums "$T/d2")" = "$(checksums "$T/34")" ] && ok ||
    bad "--disk 1 (room for all): a part deleted before the end, or checksums differ"
[ "$(grep -c '^dropped' "$T/d2/MANIFEST")" = "$(grep -c '^dropped' "$T/34/MANIFEST")" ] && ok ||
    bad "--disk 1: not every dropped part gone at the end"
# the plan holds the peak to --disk, between the window's and all kept
dpeak() { "$RETRODB" build dots 4x4 --store quiet-half --window 3 --disk "$1" --plan --json --dir "$T/plan44" | python3 -c 'import json,sys; print(json.load(sys.stdin)["peak_disk_bytes"])'; }
mid=$(python3 -c "print(($(wpeak 3) + $(wpeak 64)) / 2e9)")
[ "$(dpeak "$mid")" -le "$(python3 -c "print(int($mid * 1e9))")" ] && [ "$(dpeak "$mid")" -gt "$(wpeak 3)" ] &&
    [ "$(dpeak 1000)" = "$(wpeak 64)" ] && ok ||
    bad "--plan with --disk: peak $(dpeak "$mid") for --disk $mid GB (window 3: $(wpeak 3), all kept: $(wpeak 64))"
expect 0 "other class kept while the folder fits in 1.0 GB" -- "$RETRODB" build dots 3x4 --store quiet-half --disk 1 --plan --dir "$T/plan34"
expect 0 "other class kept while the 2 levels below it" -- "$RETRODB" build dots 3x4 --store quiet-half --window 2 --plan --dir "$T/plan34"
expect 2 "1..64 levels" -- "$RETRODB" build dots 3x4 --store quiet-half --window 0 --dir "$T/wbad"
expect 2 "for --store quiet-half" -- "$RETRODB" build dots 3x4 --store quiet --window 4 --dir "$T/wbad"
[ ! -e "$T/wbad" ] && ok || bad "a refused --window left a folder"

# a damaged kept slice: verify says so (exit 1), the build redoes it (from
# levels whose dropped parts are gone: valued from their moves)
cp -r "$T/34" "$T/d34"
f=$(find "$T/d34/12" -name '*.zst' | head -1)
size=$(stat -c %s "$f")
printf '\xff\xff\xff\xff' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
expect 1 "damaged" -- "$RETRODB" verify --dir "$T/d34"
expect 0 "" -- "$RETRODB" build dots 3x4 --store quiet-half --dir "$T/d34" --quiet
expect 0 "0 bad" -- "$RETRODB" verify --dir "$T/d34"
[ "$(checksums "$T/d34")" = "$(checksums "$T/34")" ] && ok || bad "damaged slice redone: checksums differ"
same_answers "3x4, a damaged slice redone" "$T/34-full" "$T/d34" 31 0 1000

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
