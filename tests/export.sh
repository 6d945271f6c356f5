#!/bin/bash
# Command-line tests of `retrodb export`: a 2x3 Dots-and-Boxes database, a
# 2x2 one with loony analysis, a Swedish 3x3, a start with chain
# pseudo-lines and a 3x4 Cram table exported whole, every
# record held against the probe by tests/export/check.c (value, loony
# mark, best moves, the '0'/'1' string against the line names); the counts
# against `info`; every image of every position exactly once; a sample
# against `query --json`; the JSON lines parsed by jq and equal to the CSV;
# a --keep-lines database exporting only its kept levels; the level
# filters; and the failures: no database, an unfinished one, a damaged
# slice, bad options, an output that cannot be written, a kill while
# writing (never a half file under the name).
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
CHECK=${EXPORT_CHECK:-build/export_check}
T=$(mktemp -d /tmp/retrodb-export.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"
R=$RETRODB

$R build dots 2x3 --dir "$T/d23" --quiet > /dev/null || bad "build 2x3"
$R build dots 2x2 --loony --dir "$T/d22l" --quiet > /dev/null || bad "build 2x2 --loony"
$R build dots 2x3 --keep-lines 6 --dir "$T/d23k" --quiet > /dev/null || bad "build 2x3 --keep-lines 6"
$R build cram 3x4 --dir "$T/c34" --quiet > /dev/null || bad "build cram 3x4"

# check_all NAME DIR FILE: every record of the CSV FILE agrees with the probe
check_all() {
    local out
    if out=$("$CHECK" "$2" < "$3" 2>&1); then
        ok
    else
        bad "$1: $out"
    fi
}

# equal NAME GOT WANT
equal() {
    [ "$2" = "$3" ] && ok || bad "$1: got '$2', want '$3'"
}

stored() { $R info --dir "$1" --json | jq '[.levels[] | select(.deleted | not) | .positions] | add'; }

# --- a whole 2x3 database: canonical positions, then every image ---
$R export --dir "$T/d23" --best --quiet > "$T/d23.csv" || bad "export 2x3"
equal "csv header" "$(head -1 "$T/d23.csv")" "lines,drawn,value,best"
check_all "2x3 --best" "$T/d23" "$T/d23.csv"
equal "2x3 records = stored positions" "$(($(wc -l < "$T/d23.csv") - 1))" "$(stored "$T/d23")"
equal "2x3 no position twice" "$(tail -n +2 "$T/d23.csv" | cut -d, -f1 | sort -u | wc -l)" \
    "$(stored "$T/d23")"
$R export --dir "$T/d23" --best --all-images --quiet > "$T/d23all.csv" || bad "export --all-images"
check_all "2x3 --all-images --best" "$T/d23" "$T/d23all.csv"
# every one of the 2^17 positions of the 17 lines, each once
equal "2x3 images" "$(tail -n +2 "$T/d23all.csv" | cut -d, -f1 | sort -u | wc -l)" 131072
equal "2x3 images, no repeat" "$(($(wc -l < "$T/d23all.csv") - 1))" 131072

# JSON lines: parsed by jq, and the same records as the CSV
$R export --dir "$T/d23" --best --format jsonl --quiet > "$T/d23.jsonl" || bad "export jsonl"
equal "jsonl fields" "$(jq -c 'select(has("lines") and has("drawn") and has("value") and has("best"))' \
    "$T/d23.jsonl" | wc -l)" "$(stored "$T/d23")"
jq -r '[.lines, (.drawn | join(" ")), .value, (.best | join(" "))] | @tsv' "$T/d23.jsonl" > "$T/a"
tail -n +2 "$T/d23.csv" | sed 's/^\([01]*\),"\([^"]*\)",\(-*[0-9]*\),"\([^"]*\)"$/\1\t\2\t\3\t\4/' > "$T/b"
cmp -s "$T/a" "$T/b" && ok || bad "the JSON lines and the CSV differ: $(diff "$T/a" "$T/b" | head -3)"

# a sample against `query --json`: the value, and the best moves as the
# moves whose value is the position's
n=0
while IFS=, read -r bits rest; do
    drawn=$(printf '%s' "$rest" | sed 's/^"\([^"]*\)",.*/\1/')
    value=$(printf '%s' "$rest" | sed 's/^"[^"]*",\(-*[0-9]*\),.*/\1/')
    best=$(printf '%s' "$rest" | sed 's/.*,"\([^"]*\)"$/\1/' | tr ' ' '\n' | sort | tr '\n' ' ')
    q=$($R query --dir "$T/d23" --json --moves "$drawn" < /dev/null)
    qbest=$(printf '%s' "$q" | jq -r '.value as $v | .moves[] | select(.value == $v) | .line' |
        sort | tr '\n' ' ')
    equal "query value of '$drawn'" "$(printf '%s' "$q" | jq .value)" "$value"
    equal "query best of '$drawn'" "$qbest" "$best"
    n=$((n + 1))
done < <(tail -n +2 "$T/d23.csv" | awk 'NR % 400 == 1')
[ "$n" -ge 25 ] && ok || bad "only $n positions sampled"

# --- loony marks ---
$R export --dir "$T/d22l" --best --all-images --quiet > "$T/d22l.csv" || bad "export loony"
equal "loony header" "$(head -1 "$T/d22l.csv")" "lines,drawn,value,loony,best"
check_all "2x2 --loony" "$T/d22l" "$T/d22l.csv"
grep -q ',\^,' "$T/d22l.csv" && grep -q ',v,' "$T/d22l.csv" && ok || bad "no loony mark exported"
equal "loony jsonl" "$($R export --dir "$T/d22l" --format jsonl --quiet |
    jq -c 'select(.loony | test("^[v^]?$"))' | wc -l)" "$(stored "$T/d22l")"

# --- a start with lines drawn (Swedish: 12 open lines), and chain pseudo-lines ---
$R build dots 3x3 --variant swedish --dir "$T/s33" --quiet > /dev/null || bad "build swedish"
$R export --dir "$T/s33" --best --all-images --quiet > "$T/s33.csv" || bad "export swedish"
check_all "swedish 3x3 --all-images" "$T/s33" "$T/s33.csv"
equal "swedish images" "$(tail -n +2 "$T/s33.csv" | cut -d, -f1 | sort -u | wc -l)" 4096
printf '+-+-+ +\n|   | |\n+ + + +\n|   | |\n+-+-+-+\n' > "$T/chains.txt"
$R build dots --start "$T/chains.txt" --chains --dir "$T/ch" --quiet > /dev/null || bad "build chains"
$R export --dir "$T/ch" --best --all-images --quiet > "$T/ch.csv" || bad "export chains"
check_all "chains --all-images" "$T/ch" "$T/ch.csv"
equal "chains: two pseudo-lines" "$(($(wc -l < "$T/ch.csv") - 1))" 4

# --- a Cram table ---
$R export --dir "$T/c34" --best --quiet > "$T/c34.csv" || bad "export cram"
equal "cram header" "$(head -1 "$T/c34.csv")" "cells,nimber,best"
check_all "cram 3x4 --best" "$T/c34" "$T/c34.csv"
equal "cram records = stored" "$(($(wc -l < "$T/c34.csv") - 1))" "$(stored "$T/c34")"
$R export --dir "$T/c34" --best --all-images --quiet > "$T/c34all.csv" || bad "export cram images"
check_all "cram 3x4 --all-images" "$T/c34" "$T/c34all.csv"
equal "cram images" "$(tail -n +2 "$T/c34all.csv" | cut -d, -f1 | sort -u | wc -l)" 4096
$R export --dir "$T/c34" --best --format jsonl --quiet > "$T/c34.jsonl"
equal "cram jsonl" "$(jq -c 'select(.nimber >= 0 and (.cells | length) == 12 and (.best | type) == "array")' \
    "$T/c34.jsonl" | wc -l)" "$(stored "$T/c34")"
# a few against query: the cells as a diagram
for k in 3 500 1000; do
    line=$(sed -n "$((k + 1))p" "$T/c34.csv")
    cells=${line%%,*}
    nimber=$(printf '%s' "$line" | cut -d, -f2)
    diagram=$(printf '%s' "$cells" | tr 01 '.#' | fold -w 4)
    equal "cram query $cells" "$(printf '%s\n' "$diagram" | $R query --dir "$T/c34" --json | jq .nimber)" \
        "$nimber"
done

# --- a --keep-lines database: only the kept levels ---
$R export --dir "$T/d23k" --best > "$T/d23k.csv" 2> "$T/d23k.err" || bad "export --keep-lines"
grep -q 'levels 0-6 .*not kept: 7-17' "$T/d23k.err" && ok || bad "kept levels not said: $(cat "$T/d23k.err")"
check_all "keep-lines --best" "$T/d23k" "$T/d23k.csv"
equal "keep-lines records" "$(($(wc -l < "$T/d23k.csv") - 1))" "$(stored "$T/d23k")"
equal "keep-lines most lines" "$(tail -n +2 "$T/d23k.csv" | cut -d, -f1 | tr -d 0 |
    awk '{ if (length > m) m = length } END { print m }')" 6
# the best moves of level 6 lead into level 7, not kept: unknown, and only there
equal "keep-lines unknown best" "$(grep -c ',?$' "$T/d23k.csv")" \
    "$($R info --dir "$T/d23k" --json | jq '.levels[] | select(.level == 6) | .positions')"
equal "keep-lines unknown best, level 6 only" "$(grep ',?$' "$T/d23k.csv" | cut -d, -f1 | tr -d 0 |
    awk '{ print length }' | sort -u)" 6
equal "keep-lines null best" "$($R export --dir "$T/d23k" --best --format jsonl --quiet |
    jq -c 'select(.best == null) | .drawn | length' | sort -u)" 6

# --- the level filters: 17 lines, so open = 17 - level ---
level_count() { $R info --dir "$T/d23" --json | jq "[.levels[] | select(.level >= $1 and .level <= $2) | .positions] | add"; }
equal "--max-open 5" "$($R export --dir "$T/d23" --max-open 5 -q | tail -n +2 | wc -l)" "$(level_count 12 17)"
equal "--min-open 14" "$($R export --dir "$T/d23" --min-open 14 -q | tail -n +2 | wc -l)" "$(level_count 0 3)"
equal "--levels 4-6" "$($R export --dir "$T/d23" --levels 4-6 -q | tail -n +2 | wc -l)" "$(level_count 4 6)"
equal "--levels 5" "$($R export --dir "$T/d23" --levels 5 --min-open 12 --max-open 12 -q |
    tail -n +2 | cut -d, -f1 | tr -d 0 | awk '{ print length }' | sort -u)" 5
equal "an empty range" "$($R export --dir "$T/d23" --levels 3 --max-open 2 -q | wc -l)" 1

# --- the output file, and failures ---
expect 0 'positions written' -- $R export --dir "$T/d23" --output "$T/out.csv"
$R export --dir "$T/d23" --quiet > "$T/stdout.csv"
cmp -s "$T/out.csv" "$T/stdout.csv" && ok || bad "--output and standard output differ"
check_all "2x3 without --best" "$T/d23" "$T/out.csv"
expect 1 "cannot open '$T/no/such/out.csv': No such file or directory" -- \
    $R export --dir "$T/d23" --output "$T/no/such/out.csv"
expect 1 "cannot write '/dev/full': No space left on device" -- $R export --dir "$T/d23" -o /dev/full
expect 1 "is not a retrodb database" -- $R export --dir "$T/none"
cp -r "$T/d23" "$T/unfinished"
grep -v '^slice 0 ' "$T/d23/MANIFEST" > "$T/unfinished/MANIFEST"
expect 1 "the build in '$T/unfinished' is not finished" -- $R export --dir "$T/unfinished"
# a damaged frame: the probe's message, and no half file left
cp -r "$T/d23" "$T/damaged"
printf '\125' | dd of="$T/damaged/0/0.zst" bs=1 seek=100 conv=notrunc 2> /dev/null
want=$($R query --dir "$T/damaged" --moves '' 2>&1 < /dev/null)
expect 1 "$want" -- $R export --dir "$T/damaged" -o "$T/damaged.csv"
[ -e "$T/damaged.csv" ] && bad "a failed export left its output" || ok
# killed while it writes: nothing under the name (the temporary file the
# kill leaves says whose it was)
"$R" build dots 3x3 --dir "$T/d33" --quiet > /dev/null
"$R" export --dir "$T/d33" --all-images --best -q -o "$T/killed.csv" &
pid=$!
sleep 1
kill -9 "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
[ ! -e "$T/killed.csv" ] && [ -s "$T/killed.csv.$pid.tmp" ] && ok ||
    bad "a killed export: $(ls "$T" | grep killed)"
# a finished one replaces the file there at once
echo old > "$T/replaced.csv"
expect 0 'positions written' -- $R export --dir "$T/d23" --output "$T/replaced.csv"
cmp -s "$T/replaced.csv" "$T/stdout.csv" && ok || bad "an export over an old file differs"
expect 2 "unknown format 'xml'" -- $R export --dir "$T/d23" --format xml
expect 2 "bad --levels '5-2'" -- $R export --dir "$T/d23" --levels 5-2
expect 2 "bad --levels 'x'" -- $R export --dir "$T/d23" --levels x
expect 2 "bad --max-open '-1'" -- $R export --dir "$T/d23" --max-open -1
expect 2 "--min-open 9 is more than --max-open 3" -- $R export --dir "$T/d23" --min-open 9 --max-open 3
expect 2 "which database" -- $R export
expect 2 "unexpected argument 'extra'" -- $R export --dir "$T/d23" extra

echo "export: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
