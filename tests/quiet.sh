#!/bin/bash
# quiet.sh — databases of quiet positions (build dots --store quiet) from
# the command line: every answer of `query --batch --json` (the value and
# every move's value) equals the full database's, on every position of
# 2x2, 2x3 and Swedish 3x3 and on random positions of 3x3, Icelandic 3x3,
# 3x4 and 2x5 with a penalty; the refusals (--loony, --chains,
# --keep-lines, a folder of another build, too little --memory); --plan;
# export (the full database's output); a killed build resumed to the same
# checksums; SIGINT honoured within a
# level; a damaged level found by
# query and verify and redone by the same build command; a damaged level
# above met by a resumed build and redone on the way; verify --full;
# hostile files (a bad PARAMS, a level's file in another's place, a
# missing level); levels cut into slices (--slice-positions): the same
# answers, verify --full, a damaged slice redone and computed again by
# scripts/bench_quiet_part.sh.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-quiet.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"

# board NAME ARGS...: the full and the quiet database of a board
board() { full_and quiet "$@"; }

board 2x2 2x2
same_answers "2x2, every position" "$T/2x2-full" "$T/2x2" 12 0 0
board 2x3 2x3
same_answers "2x3, every position" "$T/2x3-full" "$T/2x3" 17 0 0
same_boards quiet

# levels cut into slices (--slice-positions): the same answers, verify
# --full agrees, a damaged slice is found and redone alone
"$RETRODB" build dots 3x4 --store quiet --slice-positions 200000 --dir "$T/p34" --quiet ||
    bad "3x4 in slices: build"
[ "$(ls "$T/p34/11" | wc -l)" -eq 7 ] && ok || bad "3x4 in slices: level 11 is not in 7 slices"
same_answers "3x4 in slices of 200,000, random positions" "$T/34-full" "$T/p34" 31 0 4000
expect 0 "0 disagree" -- "$RETRODB" verify --dir "$T/p34" --full
f="$T/p34/11/quiet-3.zst"
size=$(stat -c %s "$f")
printf '\xff\xff\xff\xff' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
expect 1 "quiet-3.zst' is damaged" -- "$RETRODB" verify --dir "$T/p34"
expect 0 "redoing a slice found damaged: '$T/p34/11/quiet-3.zst'" -- "$RETRODB" build dots 3x4 --store quiet --dir "$T/p34"
expect 0 "0 bad" -- "$RETRODB" verify --dir "$T/p34"
same_answers "3x4 in slices, a damaged slice redone" "$T/34-full" "$T/p34" 31 0 1000
# the benchmark on a real level's part (scripts/bench_quiet_part.sh)
# computes level 11's slice 3 again from the files and finds every value
# as stored (with the program's own library: not under the sanitizers)
if [ "$RETRODB" = bin/retrodb ]; then
    expect 0 "every value as stored" -- env LEVEL=11 SLICE=3 SKIP=0 COUNT=100000 PAIRS=1 RUNS=1 \
        bash scripts/bench_quiet_part.sh "$T/p34"
fi
expect 2 "positions a slice" -- "$RETRODB" build dots 3x4 --store quiet --slice-positions 300000 --dir "$T/p34"
expect 2 "for --store quiet" -- "$RETRODB" build dots 3x4 --slice-positions 300000 --dir "$T/r5"
expect 2 "bad --slice-positions" -- "$RETRODB" build dots 3x4 --store quiet --slice-positions 0 --dir "$T/r5"

# the start's value and the opening lines, as build prints them
expect 0 "value -3" -- "$RETRODB" build dots 3x3 --store quiet --dir "$T/33"
expect 0 "87,463 quiet positions" -- "$RETRODB" build dots 3x3 --store quiet --plan --dir "$T/plan33"
[ ! -e "$T/plan33" ] && ok || bad "--plan made the folder"
# its time from a sample of the board's own positions, timed here
expect 0 "measured here" -- "$RETRODB" build dots 3x4 --store quiet --plan --dir "$T/plan34"
"$RETRODB" build dots 3x4 --store quiet --plan --json --threads 2 --dir "$T/plan34" > "$T/plan34.json" &&
    jq -e '.sample_positions > 10000 and .sample_ns_per_position > 0 and
           (.estimated_seconds - .positions * .sample_ns_per_position * 1e-9 / 2 | fabs) < 1' \
        "$T/plan34.json" > /dev/null && ok || bad "--plan --json: no sample, or a time not from it"

# refusals: exit 2, the folder left as it was
expect 2 "loony" -- "$RETRODB" build dots 3x3 --store quiet --loony --dir "$T/r1"
expect 2 "keep-lines" -- "$RETRODB" build dots 3x3 --store quiet --keep-lines 6 --dir "$T/r2"
expect 2 "bad --store" -- "$RETRODB" build dots 3x3 --store some --dir "$T/r3"
expect 2 "other parameters" -- "$RETRODB" build dots 3x3 --store quiet --dir "$T/33-full"
expect 2 "other parameters" -- "$RETRODB" build dots 3x3 --dir "$T/33"
expect 2 "raise --memory" -- "$RETRODB" build dots 3x4 --store quiet --memory 5 --dir "$T/r4"
[ ! -e "$T/r1" ] && [ ! -e "$T/r2" ] && [ ! -e "$T/r4" ] && ok || bad "a refused build left a folder"

# export: every canonical position, and every position with the best moves,
# written exactly as from the full database
for opts in "" "--format jsonl --best --all-images"; do
    # shellcheck disable=SC2086
    a=$("$RETRODB" export --dir "$T/33-full" --quiet $opts | cksum)
    # shellcheck disable=SC2086
    b=$("$RETRODB" export --dir "$T/33" --quiet $opts | cksum)
    [ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "export $opts of the quiet 3x3 differs from the full one's"
done
expect 0 "valued from the 87,463 quiet ones stored" -- "$RETRODB" export --dir "$T/33" --output "$T/33.csv"

# verify, and verify --full recomputing every level
expect 0 "0 bad" -- "$RETRODB" verify --dir "$T/34"
expect 0 "0 disagree" -- "$RETRODB" verify --dir "$T/34" --full

# killed and resumed: the same level checksums as the build in one go
checksums() { "$RETRODB" info --dir "$1" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}'; }
for delay in 0.3 0.9 1.8; do
    rm -rf "$T/k34"
    "$RETRODB" build dots 3x4 --store quiet --dir "$T/k34" --quiet --threads 1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    "$RETRODB" build dots 3x4 --store quiet --dir "$T/k34" --quiet || bad "resume after kill at $delay s"
    [ "$(checksums "$T/k34")" = "$(checksums "$T/34")" ] && ok ||
        bad "killed at $delay s and resumed: checksums differ"
done

# SIGINT stops a quiet build within its slice (a slice can be a whole
# level, so between slices would be minutes on a big board), and it resumes
rm -rf "$T/s34"
"$RETRODB" build dots 3x4 --store quiet --dir "$T/s34" --quiet --threads 1 2> "$T/s34.err" &
pid=$!
sleep 2
kill -INT "$pid"
t0=$(date +%s%N)
wait "$pid"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$rc" -eq 130 ] && [ "$ms" -lt 2000 ] && grep -q "run the same command to resume" "$T/s34.err" && ok ||
    bad "SIGINT: exit $rc after $ms ms: $(cat "$T/s34.err")"
# --plan on the stopped build sets what it did so far beside its own time
expect 0 "^so far      " -- "$RETRODB" build dots 3x4 --store quiet --dir "$T/s34" --plan --threads 1
"$RETRODB" build dots 3x4 --store quiet --dir "$T/s34" --plan --json --threads 1 > "$T/s34.plan" &&
    jq -e '.resumes and .done_positions > 0 and .done_positions < .positions and
           .timed_positions > 0 and .timed_seconds > 0 and
           (.build_rate * .timed_seconds - .timed_positions | fabs) < .timed_positions * 0.05 and
           (.plan_rate * .sample_ns_per_position * 1e-9 - 1 | fabs) < 0.01 and
           (.left_seconds_plan_rate - (.positions - .done_positions) / .plan_rate | fabs) < 1' \
        "$T/s34.plan" > /dev/null && ok || bad "--plan on a stopped build: $(cat "$T/s34.plan")"
"$RETRODB" build dots 3x4 --store quiet --dir "$T/s34" --quiet || bad "resume after SIGINT"
[ "$(checksums "$T/s34")" = "$(checksums "$T/34")" ] && ok || bad "stopped and resumed: checksums differ"

# a damaged level: query and verify say so (exit 1), the build redoes it
cp -r "$T/34" "$T/d34"
f="$T/d34/12/quiet.zst"
size=$(stat -c %s "$f")
printf '\xff\xff\xff\xff' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
expect 1 "damaged" -- "$RETRODB" verify --dir "$T/d34"
positions 31 0 300 > "$T/pos"
expect 1 "damaged" -- "$RETRODB" query --dir "$T/d34" --batch "$T/pos"
expect 0 "" -- "$RETRODB" build dots 3x4 --store quiet --dir "$T/d34" --quiet
expect 0 "0 bad" -- "$RETRODB" verify --dir "$T/d34"
[ "$(checksums "$T/d34")" = "$(checksums "$T/34")" ] && ok || bad "damaged level redone: checksums differ"

# a resumed build that reads a damaged level above: a resume decodes no
# frame, but every frame read is checked, and the slice holding the damage
# is redone on the way (levels 11..0 forgotten, so that the build computes
# level 11 from level 12, damaged in its middle)
cp -r "$T/34" "$T/r34"
awk '$1 != "slice" || $2 > 11' "$T/34/MANIFEST" > "$T/r34/MANIFEST"
for level in $(seq 0 11); do rm -r "$T/r34/$level"; done
f="$T/r34/12/quiet.zst"
size=$(stat -c %s "$f")
printf '\xff\xff\xff\xff' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
expect 0 "redoing a damaged slice: '$T/r34/12/quiet.zst' is damaged: frame" -- \
    "$RETRODB" build dots 3x4 --store quiet --dir "$T/r34"
expect 0 "0 bad" -- "$RETRODB" verify --dir "$T/r34"
[ "$(checksums "$T/r34")" = "$(checksums "$T/34")" ] && ok || bad "a damaged level above, read by a resume: checksums differ"

# hostile files: a PARAMS whose store is neither all nor quiet, a level's
# file put in another level's place, a missing level
cp -r "$T/34" "$T/h34"
sed -i 's/^store quiet$/store maybe/' "$T/h34/PARAMS"
expect 1 "PARAMS' is damaged" -- "$RETRODB" query --dir "$T/h34" --moves ''
rm -rf "$T/h34" && cp -r "$T/34" "$T/h34"
cp "$T/h34/13/quiet.zst" "$T/h34/12/quiet.zst"
expect 1 "" -- "$RETRODB" verify --dir "$T/h34"
positions 31 0 300 > "$T/pos"
expect 1 "" -- "$RETRODB" query --dir "$T/h34" --batch "$T/pos"
rm -rf "$T/h34" && cp -r "$T/34" "$T/h34"
rm "$T/h34/20/quiet.zst"
expect 1 "missing" -- "$RETRODB" query --dir "$T/h34" --batch "$T/pos"
expect 0 "" -- "$RETRODB" build dots 3x4 --store quiet --dir "$T/h34" --quiet
[ "$(checksums "$T/h34")" = "$(checksums "$T/34")" ] && ok || bad "a missing level redone: checksums differ"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
