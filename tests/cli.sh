#!/bin/bash
# Command-line tests of bin/retrodb: exit codes and messages for bad input
# and damaged databases, JSON shape, and values checked against published
# results. Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"

empty22='+ + +

+ + +

+ + +'
"$RETRODB" build dots 2x2 --dir "$T/d22" --quiet || bad "build 2x2"
"$RETRODB" build dots 3x3 --dir "$T/d33" --quiet || bad "build 3x3"
"$RETRODB" build dots 2x2 --variant swedish --dir "$T/s22" --quiet || bad "build swedish 2x2"

# published values: 2x2 is +2 for the first player, 3x3 is -3 (Wilson)
expect 0 '"value":2,' -- sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/d22' --json"
expect 0 '"value":-3,' -- sh -c "printf '+ + + +\n\n+ + + +\n\n+ + + +\n\n+ + + +\n' | '$RETRODB' query --dir '$T/d33' --json"

# JSON: exactly one object with one entry per open line
json=$(printf '+-+ +\n|    \n+ + +\n\n+ + +\n' | "$RETRODB" query --dir "$T/d22" --json)
n=$(printf '%s' "$json" | grep -o '"line"' | wc -l)
[ "$n" -eq 10 ] && ok || bad "json moves: want 10 entries, got $n: $json"
printf '%s' "$json" | grep -q '^{"game":"dots","rows":2,"cols":2,"value":-\?[0-9]*,"words":"[^"]*","best":\[[^]]*\],"moves":\[{"line":"[hv][0-9],[0-9]","value":-\?[0-9]*,"best":true}' && ok || bad "json shape: $json"
[ "$(printf '%s\n' "$json" | wc -l)" -eq 1 ] && ok || bad "json is one line"

# picture output names the value
expect 0 'value for the player to move: +2' -- sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/d22'"
# a query from a file argument
printf '%s\n' "$empty22" > "$T/pos.txt"
expect 0 '"value":2,' -- "$RETRODB" query --dir "$T/d22" --json "$T/pos.txt"

# malformed diagrams: exit 2, message names line and column
expect 2 'line 1, column 2: unknown character' -- sh -c "printf '+x+ +\n\n+ + +\n\n+ + +\n' | '$RETRODB' query --dir '$T/d22'"
expect 2 'line 3, column 3: missing dot' -- sh -c "printf '+ + +\n\n+ - +\n\n+ + +\n' | '$RETRODB' query --dir '$T/d22'"
expect 2 'odd number of lines' -- sh -c "printf '+ + +\n\n+ + +\n\n' | '$RETRODB' query --dir '$T/d22'; printf '+ + +\n\n' | '$RETRODB' query --dir '$T/d22'"
expect 2 'longer than the first dot row' -- sh -c "printf '+ + +\n|     |\n+ + +\n' | '$RETRODB' query --dir '$T/d22'"
expect 2 'no diagram' -- sh -c "printf '\n\n' | '$RETRODB' query --dir '$T/d22'"
# another board size
expect 2 'is a 3x3 board' -- sh -c "printf '+ + + +\n\n+ + + +\n\n+ + + +\n\n+ + + +\n' | '$RETRODB' query --dir '$T/d22'"
# a position lacking lines of the swedish start
expect 2 'lacks line' -- sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/s22'"
# a board over 64 lines
expect 2 'at most 64' -- "$RETRODB" build dots 6x6 --dir "$T/x"
expect 2 'bad board' -- "$RETRODB" build dots 3by3 --dir "$T/x"
expect 2 'unknown variant' -- "$RETRODB" build dots 2x2 --variant french --dir "$T/x"

# missing and damaged databases: clear message, exit 1, never a value
expect 1 'not a retrodb database' -- sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/nothing'"
cp -r "$T/d22" "$T/trunc"
f=$(find "$T/trunc" -name '*.zst' -path '*/0/*' | head -1)
head -c 20 "$f" > "$f.cut" && mv "$f.cut" "$f"
expect 1 'damaged' -- sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/trunc'"
cp -r "$T/d22" "$T/gone"
rm -f "$(find "$T/gone" -name '*.zst' -path '*/0/*' | head -1)"
expect 1 'is missing .*redoes it' -- sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/gone'"
# PARAMS without groups belongs only to a database of the full position:
# anywhere else the layout would be chosen anew, so it is damage
cp -r "$T/d22" "$T/nogroups"
sed -i 's/^groups .*/groups 0/' "$T/nogroups/PARAMS"
expect 1 'damaged: bad group count' -- "$RETRODB" info --dir "$T/nogroups"
# a chain build whose start has no chain still says so
"$RETRODB" build dots 2x2 --chains --dir "$T/chains0" --quiet || bad "build 2x2 --chains"
expect 0 'chains      0 (' -- "$RETRODB" info --dir "$T/chains0"
# a chain database's moves into a chain are little games of their own:
# verify --against: every finished level against a published list
# (data/checksums/): the list's own database agrees; a checksum changed,
# a level of another board, are exit 1 naming the level; a list that is
# not one, or a path mistyped, exit 2
C33=$(dirname "$0")/../data/checksums/3x3.txt
expect 0 '25 levels agree (24..0), 0 differ' -- "$RETRODB" verify --dir "$T/d33" --against "$C33" --quiet
awk '$1 == 7 { c = substr($4, 16, 1); $4 = substr($4, 1, 15) (c == "0" ? "1" : "0") } 1' "$C33" > "$T/sums-bad.txt"
cmp -s "$C33" "$T/sums-bad.txt" && bad "the tampered list is the list" || ok
expect 1 'level 7 differs' -- "$RETRODB" verify --dir "$T/d33" --against "$T/sums-bad.txt" --quiet
expect 1 '"differing":\[7\]' -- "$RETRODB" verify --dir "$T/d33" --against "$T/sums-bad.txt" --quiet --json
{ cat "$C33"; echo "60 1 1 0000000000000000"; } > "$T/sums-beyond.txt"
expect 1 'names level 60' -- "$RETRODB" verify --dir "$T/d33" --against "$T/sums-beyond.txt" --quiet
head -3 "$C33" > "$T/sums-part.txt"
expect 0 '22 finished but not listed (21..0)' -- "$RETRODB" verify --dir "$T/d33" --against "$T/sums-part.txt" --quiet
printf '# a comment\n\n3 1 x 0\n' > "$T/sums-mal.txt"
expect 2 'sums-mal.txt, line 3: not a level' -- "$RETRODB" verify --dir "$T/d33" --against "$T/sums-mal.txt"
{ head -2 "$C33"; head -1 "$C33"; } > "$T/sums-twice.txt"
expect 2 'line 3: level 24 is listed twice' -- "$RETRODB" verify --dir "$T/d33" --against "$T/sums-twice.txt"
expect 2 'cannot open' -- "$RETRODB" verify --dir "$T/d33" --against "$T/no-such-list.txt"
# --list-only: the comparison alone, no slice file read: a copy with a
# slice file spoilt still agrees with the list (the files' own check,
# without it, finds the damage); it needs a list and excludes --full
cp -r "$T/d33" "$T/d33-spoilt"
spoilt=$(find "$T/d33-spoilt" -name '*.zst' -size +100c | sort | head -1)
printf 'XXXX' | dd of="$spoilt" bs=1 seek=60 conv=notrunc 2>/dev/null
expect 0 '25 levels agree (24..0), 0 differ' -- "$RETRODB" verify --dir "$T/d33-spoilt" --against "$C33" --list-only
out=$("$RETRODB" verify --dir "$T/d33-spoilt" --against "$C33" --list-only 2>&1)
case $out in *verify:*) bad "--list-only read the files: $out" ;; *) ok ;; esac
expect 1 '1 bad' -- "$RETRODB" verify --dir "$T/d33-spoilt" --against "$C33" --quiet
expect 1 '"list_only":true,"ok":false' -- "$RETRODB" verify --dir "$T/d33-spoilt" --against "$T/sums-bad.txt" --list-only --json
expect 2 'which one? (--against FILE)' -- "$RETRODB" verify --dir "$T/d33" --list-only
expect 2 'one or the other' -- "$RETRODB" verify --dir "$T/d33" --against "$C33" --list-only --full
for line in '3 1 18446744073709551616 0000000000000000' '65 1 1 0000000000000000' \
    '3 1 1 00000000000000000' '3 1 1 000000000000000g' '-3 1 1 0000000000000000'; do
    printf '%s\n' "$line" > "$T/sums-odd.txt"
    expect 2 'line 1: not a level' -- "$RETRODB" verify --dir "$T/d33" --against "$T/sums-odd.txt"
done
head -c 3000 /dev/urandom > "$T/sums-binary.txt"
printf '\0' >> "$T/sums-binary.txt"
expect 2 'NUL byte' -- "$RETRODB" verify --dir "$T/d33" --against "$T/sums-binary.txt"

# no perfect game move by move (it once printed a wrong one)
printf '+-+-+ +\n|   | |\n+ + + +\n|   | |\n+-+-+-+\n' > "$T/chains.txt"
"$RETRODB" build dots --start "$T/chains.txt" --chains --dir "$T/chains2" --quiet || bad "build chains"
expect 2 'no perfect game to show' -- "$RETRODB" query --dir "$T/chains2" --moves '' --pv
for level in 0 1; do
    cp -r "$T/d33" "$T/flip$level"
    for f in $(find "$T/flip$level/$level" -name '*.zst'); do
        size=$(wc -c < "$f")
        printf 'Z' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
    done
    expect 1 'damaged' -- sh -c "printf '+ + + +\n\n+ + + +\n\n+ + + +\n\n+ + + +\n' | '$RETRODB' query --dir '$T/flip$level'"
done

# problem files (data/problems): the build keeps a copy as PROBLEM; the
# query adds the player to move, the boxes taken and the final scores of A
# and B; bad problem files and other problems in the same folder exit 2
P=$(cd "$(dirname "$0")/../data/problems" && pwd)
R=$(cd "$(dirname "$RETRODB")" && pwd)/$(basename "$RETRODB")
"$R" build dots --problem "$P/middle-3x3.txt" --dir "$T/pm" --quiet || bad "build middle-3x3"
cmp -s "$P/middle-3x3.txt" "$T/pm/PROBLEM" && ok || bad "PROBLEM is not a copy of the problem file"
expect 0 'B to move; boxes taken: A 1, B 1' -- "$R" query --dir "$T/pm" "$P/middle-3x3.txt"
expect 0 'final score for A: +1, for B: -1' -- "$R" query --dir "$T/pm" "$P/middle-3x3.txt"
expect 0 'value for the player to move: -1' -- "$R" query --dir "$T/pm" "$P/middle-3x3.txt"
json=$("$R" query --dir "$T/pm" --json "$P/middle-3x3.txt")
printf '%s' "$json" | grep -q '^{"game":"dots","rows":3,"cols":3,"value":-1,"to_move":"B","taken":{"A":1,"B":1,"unmarked":0},"score_a":1,"score_b":-1,"words":"B to move loses by 1[^"]*","best":\["h1,1"\],"moves":\[{"line":"h1,1","value":-1,"score_a":1,"score_b":-1,"best":true},' && ok || bad "problem json shape: $json"
n=$(printf '%s' "$json" | grep -o '"score_a"' | wc -l)
[ "$n" -eq 12 ] && ok || bad "problem json: want 11 moves and the position, got $n scores: $json"
# the same board without letters takes them from the problem; an A line says A moves
nolet=$(grep '^[+|]' "$P/middle-3x3.txt" | tr AB '  ')
expect 0 'final score for A: +1, for B: -1' -- sh -c "printf '%s\n' '$nolet' | '$R' query --dir '$T/pm'"
expect 0 'A to move; boxes taken: A 1, B 1' -- sh -c "printf 'A\n%s\n' '$nolet' | '$R' query --dir '$T/pm'"
# a box completed since the start and not marked: raw values only, scores null
later=$(printf '%s\n' "$nolet" | sed '3s/.*/+-+-+-+/')
expect 0 '1 complete box without a letter' -- sh -c "printf '%s\n' '$later' | '$R' query --dir '$T/pm'"
expect 0 '"unmarked":1},"score_a":null' -- sh -c "printf '%s\n' '$later' | '$R' query --dir '$T/pm' --json"
expect 2 'differs from the database' -- sh -c "printf -- '-1\n%s\n' '$nolet' | '$R' query --dir '$T/pm'"
# resuming with another player to move is refused; other budgets are not
sed 's/^B$/A/' "$P/middle-3x3.txt" > "$T/other.txt"
expect 2 'holds a build of another problem (player to move B differs from A)' -- "$R" build dots --problem "$T/other.txt" --dir "$T/pm" --quiet
sed 's/^0$/0\n64/' "$P/middle-3x3.txt" > "$T/budget.txt"
expect 0 '' -- "$R" build dots --problem "$T/budget.txt" --dir "$T/pm" --quiet
# a last-move penalty of 1, in the default folder db/<file name>
(cd "$T" && "$R" build dots --problem "$P/penalty-3x3.txt" --quiet) || bad "build penalty-3x3"
grep -q '^full-value -1$' "$T/db/penalty-3x3/PARAMS" && ok || bad "penalty-3x3: full value -1"
expect 0 '"value":1,"to_move":"A","taken":{"A":0,"B":1,"unmarked":0},"score_a":0,"score_b":0,' -- "$R" query --dir "$T/db/penalty-3x3" --json "$P/penalty-3x3.txt"
"$R" build dots --problem "$P/swedish-3x5.txt" --dir "$T/ps35" --quiet || bad "build swedish-3x5"
expect 0 'A to move; boxes taken: A 0, B 0' -- "$R" query --dir "$T/ps35" "$P/swedish-3x5.txt"
# the Icelandic 3x5 problem parses (its build is refused by a tiny --disk)
expect 2 'needs about' -- "$R" build dots --problem "$P/icelandic-3x5.txt" --dir "$T/pi35" --disk 0.001
# bad problem files
printf -- '-0.5\n+ +\n\n+ +\n' > "$T/frac.txt"
expect 2 'frac.txt: line 1: .-0.5.: the value of the full position must be an integer' -- "$R" build dots --problem "$T/frac.txt" --dir "$T/x"
printf '0\nB\n+-+\n|A\n+ +\n' > "$T/open.txt"
expect 2 'open.txt: line 4, column 2: box marked A is not complete' -- "$R" build dots --problem "$T/open.txt" --dir "$T/x"
expect 2 'no value of the full position' -- "$R" build dots --problem "$T/pos.txt" --dir "$T/x"
expect 2 'excludes --start and --variant' -- "$R" build dots --problem "$P/middle-3x3.txt" --variant swedish --dir "$T/x"

# the values of the databases the tests build match the recorded checksums
RETRODB="$RETRODB" bash "$(dirname "$0")/../scripts/checksums.sh" && ok || bad "checksums differ from data/checksums"

# --- Cram tables: published nimbers, JSON shape, bad input ---
"$RETRODB" build cram 3x4 --dir "$T/c34" --quiet || bad "build cram 3x4"
expect 0 '^{"game":"cram","rows":3,"cols":4,"nimber":1,"words":"the player to move wins","moves":\[{"cells":\[\[[0-9],[0-9]\],\[[0-9],[0-9]\]\],"nimber":0,"best":true}' -- \
    sh -c "printf '....\n....\n....\n' | '$RETRODB' query --dir '$T/c34' --json"
n=$(printf '....\n....\n....\n' | "$RETRODB" query --dir "$T/c34" --json | grep -o '"cells"' | wc -l)
[ "$n" -eq 17 ] && ok || bad "empty 3x4 has 17 moves, JSON lists $n"
expect 0 'nimber 3: the player to move wins' -- sh -c "printf '##..\n....\n....\n' | '$RETRODB' query --dir '$T/c34'"
expect 2 'line 2' -- sh -c "printf '....\n..x.\n....\n' | '$RETRODB' query --dir '$T/c34'"
expect 2 '3x5 board' -- sh -c "printf '.....\n.....\n.....\n' | '$RETRODB' query --dir '$T/c34'"
expect 2 'not a Dots-and-Boxes\|cram\|Cram' -- sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/c34'"
expect 2 '64' -- "$RETRODB" build cram 9x8 --dir "$T/c98"
[ -e "$T/c98" ] && bad "a refused cram build wrote '$T/c98'" || ok
expect 2 'board' -- "$RETRODB" build cram 3by4 --dir "$T/cbad"
expect 0 'game        cram' -- "$RETRODB" info --dir "$T/c34"
expect 0 '0 bad' -- "$RETRODB" verify --dir "$T/c34" --full

# --- loony analysis: marks in the output, refused with other parameters ---
"$RETRODB" build dots 2x2 --loony --dir "$T/l22" --quiet || bad "build 2x2 --loony"
expect 0 '^{"game":"dots","rows":2,"cols":2,"value":2,"words":"[^"]*","loony":"[v^]*","best":\[[^]]*\],"moves":\[{"line":"[hv][0-9],[0-9]","value":[-0-9]*,"best":true,"loony":' -- \
    sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/l22' --json"
expect 0 'next loony move' -- sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/l22'"
expect 2 'loony analysis' -- "$RETRODB" build dots 2x2 --dir "$T/l22" --quiet
expect 0 '0 disagree' -- "$RETRODB" verify --dir "$T/l22" --full

# --- solve dots: the search agrees with the databases; bad input is exit 2 ---
expect 0 '^{"game":"dots","rows":3,"cols":3,"value":-3,"best":\["h0,0",' -- "$RETRODB" solve dots 3x3 --json --quiet
sv=$("$RETRODB" solve dots 2x2 --variant swedish --json --quiet | sed 's/.*"value":\([-0-9]*\).*/\1/')
qv=$(printf '+-+-+\n|   |\n+ + +\n|   |\n+-+-+\n' | "$RETRODB" query --dir "$T/s22" --json | sed 's/^{[^}]*"value":\([-0-9]*\),.*/\1/')
[ -n "$sv" ] && [ "$sv" = "$qv" ] && ok || bad "solve swedish 2x2 gives '$sv', the database '$qv'"
pos33='+-+ + +\n|      \n+ +-+ +\n    |  \n+ + + +\n|      \n+-+ +-+\n'
sv=$(printf "$pos33" | "$RETRODB" solve dots --position - --first-moves --json --quiet)
qv=$(printf "$pos33" | "$RETRODB" query --dir "$T/d33" --json)
[ "$(printf '%s' "$sv" | grep -o '{"line":"[^"]*","value":[-0-9]*' | sort)" = \
  "$(printf '%s' "$qv" | grep -o '{"line":"[^"]*","value":[-0-9]*' | sort)" ] && ok ||
    bad "solve --first-moves and query differ on a 3x3 position: $sv / $qv"
"$RETRODB" build dots --problem data/problems/penalty-3x3.txt --dir "$T/p33" --quiet || bad "build penalty-3x3"
qs=$("$RETRODB" query --dir "$T/p33" data/problems/penalty-3x3.txt | grep '^final score')
expect 0 "${qs#final score }" -- "$RETRODB" solve dots --problem data/problems/penalty-3x3.txt --quiet
# an unmarked diagram lacking the problem's lines: blamed on the lines, not on a mark
expect 2 'lacks line h0,0 of the database' -- sh -c "printf '+ + + +\n\n+ + + +\n\n+ + + +\n\n+ + + +\n' | '$RETRODB' query --dir '$T/p33'"
# a table that would outgrow the memory left stays as it is, and says so
expect 0 'the table stays at 16 MB: memory is short' -- env RDB_MEMORY_AVAILABLE_MB=530 "$RETRODB" solve dots 3x4 --tt-mb 1024 --progress
expect 0 'the value for the player to move is -3' -- "$RETRODB" solve dots 3x3 --prove -3 --ledger "$T/ledger33" --quiet
expect 0 '"at_least":0,"at_most":1,"searched":0' -- "$RETRODB" solve dots 3x3 --prove -2 --ledger "$T/ledger33" --json --quiet
printf '3x3 0 >= 1 nodes=1 seconds=1 lines: h7,7\n' > "$T/badledger"
expect 1 'badledger:1: not a ledger line' -- "$RETRODB" solve dots 3x3 --prove -3 --ledger "$T/badledger"
# bounds that leave a position no value, or one no position can have
printf '2x3 0 >= 2 nodes=1 seconds=0.1 lines: -\n2x3 0 <= -2 nodes=1 seconds=0.1 lines: -\n' > "$T/contra"
expect 1 'contra: line 1 and line 2 contradict each other' -- "$RETRODB" solve dots 2x3 --ledger "$T/contra"
expect 1 'contra: line 1 and line 2 contradict each other' -- "$RETRODB" solve dots 2x3 --prove -2 --ledger "$T/contra"
printf '# a mirror image\n2x3 0 >= 3 nodes=1 seconds=0.1 lines: h0,0\n2x3 0 <= 1 nodes=1 seconds=0.1 lines: h0,2\n' > "$T/contra"
expect 1 'line 2 and line 3 contradict each other' -- "$RETRODB" solve dots 2x3 --ledger "$T/contra"
printf '2x3 0 >= 7 nodes=1 seconds=0.1 lines: -\n' > "$T/contra"
expect 1 'contra:1: no position with these lines is worth >= 7' -- "$RETRODB" solve dots 2x3 --ledger "$T/contra"
printf '2x3 0 <= -6 nodes=1 seconds=0.1 lines: h0,0 h1,0 v0,0 v0,1\n' > "$T/contra"
expect 1 'contra:1: no position with these lines is worth <= -6 (at most 5' -- "$RETRODB" solve dots 2x3 --ledger "$T/contra"
expect 2 'needs a --ledger' -- "$RETRODB" solve dots 3x3 --prove -3
expect 2 'bad --part' -- "$RETRODB" solve dots 3x3 --prove -3 --ledger "$T/ledger33" --part 2/2
"$RETRODB" solve dots 3x3 --value-only --tt-file "$T/t33.tt" --quiet > /dev/null || bad "solve with a new --tt-file"
expect 0 '"value":-3,"best":\[\],"rules":"full","threads":1,"nodes":[0-9],' -- "$RETRODB" solve dots 3x3 --value-only --tt-file "$T/t33.tt" --json --quiet
expect 1 'another board' -- "$RETRODB" solve dots 2x2 --tt-file "$T/t33.tt" --quiet
# the table file is one search's: a second on it is refused while the
# first goes on; a killed save's temporary file goes at the start
"$RETRODB" solve dots 4x4 --value-only --threads 1 --tt-file "$T/busy.tt" --quiet > /dev/null 2>&1 &
busy=$!
for _ in $(seq 50); do [ -s "$T/busy.tt.lock" ] && break; sleep 0.1; done
expect 1 "another run (pid $busy) is working on '$T/busy.tt'" -- "$RETRODB" solve dots 3x3 --tt-file "$T/busy.tt"
kill "$busy" 2> /dev/null
wait "$busy" 2> /dev/null
touch "$T/t33.tt.4242.tmp"
expect 0 '"value":-3,' -- "$RETRODB" solve dots 3x3 --value-only --tt-file "$T/t33.tt" --json --quiet
[ ! -e "$T/t33.tt.4242.tmp" ] && ok || bad "solve dots: a killed save's temporary file not removed"
mkfifo "$T/fifo.tt"
printf '1x2 0 >= 0 nodes=1 seconds=0 lines: h0,0 h0,1 h1,0 h1,1 v0,0 v0,1 v0,2\n' > "$T/full-ledger"
"$RETRODB" solve dots 1x2 --ledger "$T/full-ledger" --tt-file "$T/t12.tt" --quiet > /dev/null || bad "a ledger line of the full board"
expect 0 'value for the player to move' -- "$RETRODB" solve dots 1x2 --tt-file "$T/t12.tt" --quiet
printf '+-+-+-+\n|   |\n+-+-+ +\n' > "$T/p13"
"$RETRODB" solve dots --position "$T/p13" --prove -200 --ledger "$T/ledger13" --quiet > /dev/null || bad "prove -200"
expect 0 'is not -200' -- "$RETRODB" solve dots --position "$T/p13" --prove -200 --ledger "$T/ledger13" --quiet
expect 2 'go with --prove' -- "$RETRODB" solve dots 3x3 --split-depth 1
expect 2 'goes with --tt-file' -- "$RETRODB" solve dots 3x3 --tt-save-minutes 5
# solve --db: a database's levels answer the search; a build still going
# (levels 0..9 not built yet) gives the same values as the search alone,
# full or quiet; other boards and games are refused
"$RETRODB" build dots 3x3 --dir "$T/sdb33" --quiet
"$RETRODB" build dots 3x3 --store quiet --dir "$T/sdbq33" --quiet
want=$("$RETRODB" solve dots 3x3 --first-moves --json --quiet | jq -c '[.value, .moves]')
for d in sdb33 sdbq33; do
    cp -r "$T/$d" "$T/$d-part"
    awk '$1 != "slice" || $2 >= 10' "$T/$d/MANIFEST" > "$T/$d-part/MANIFEST"
    for l in 0 1 2 3 4 5 6 7 8 9; do rm -rf "$T/$d-part/$l"; done
    for db in "$d" "$d-part"; do
        got=$("$RETRODB" solve dots 3x3 --first-moves --json --quiet --db "$T/$db")
        [ "$(printf '%s' "$got" | jq -c '[.value, .moves]')" = "$want" ] &&
            [ "$(printf '%s' "$got" | jq .db_hits)" -gt 0 ] && ok || bad "solve --db $db: $got"
    done
done
expect 2 'is a dots 3x3 database, not dots 2x2' -- "$RETRODB" solve dots 2x2 --db "$T/sdb33"
# a damaged file met by the search: exit 1 naming it, recorded for the build
for f in "$T"/sdb33-part/10/*.zst; do # every file of the first level the search meets
    size=$(stat -c %s "$f")
    printf '\xff\xff\xff\xff' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2> /dev/null
done
expect 1 "is damaged.*running the same build command again redoes it" -- \
    "$RETRODB" solve dots 3x3 --db "$T/sdb33-part" --quiet
[ -s "$T/sdb33-part/DAMAGED" ] && ok || bad "solve --db did not record the damaged slice"
expect 2 'goes with --db' -- "$RETRODB" solve dots 3x3 --db-memory 10
expect 1 'not a retrodb database' -- "$RETRODB" solve dots 3x3 --db "$T/nothing"
expect 1 'not a regular file' -- "$RETRODB" solve dots 2x2 --tt-file "$T/fifo.tt" --quiet
# problem files (B to move, boxes taken, a last-move penalty): the same
# final scores as their databases
for prob in middle-3x3 penalty-3x3; do
    "$RETRODB" build dots --problem "data/problems/$prob.txt" --dir "$T/prob-$prob" --quiet || bad "build $prob"
    qs=$("$RETRODB" query --dir "$T/prob-$prob" "data/problems/$prob.txt" | grep '^final score for A:' | sed 's/^final score //')
    ss=$("$RETRODB" solve dots --problem "data/problems/$prob.txt" --quiet | grep '^final score for A:' | sed 's/^final score //; s/ ([AB] to move)$//')
    [ -n "$qs" ] && [ "$qs" = "$ss" ] && ok || bad "$prob: query says '$qs', solve '$ss'"
done
expect 2 'bad board' -- "$RETRODB" solve dots 3by3
expect 2 '180 lines' -- "$RETRODB" solve dots 9x9
expect 2 'unknown --rules' -- "$RETRODB" solve dots 3x3 --rules fast
expect 2 'bad --etc-min-open' -- "$RETRODB" solve dots 3x3 --etc-min-open 99
# --first-moves --progress says each move's value as it comes (up to symmetry)
out=$("$RETRODB" solve dots 2x3 --first-moves --progress 2>&1 >/dev/null)
[ "$(printf '%s\n' "$out" | grep -c 'is worth -2')" = 5 ] && ok || bad "first-moves progress: $out"
# a board with a file: the size its diagram must have (the problem's
# answer as without it), another size refused naming both
expect 0 'is not -200' -- "$RETRODB" solve dots 1x3 --position "$T/p13" --prove -200 --ledger "$T/ledger13" --quiet
expect 2 'the board is 3x3 but the diagram in .*p13 is 1x3' -- "$RETRODB" solve dots 3x3 --position "$T/p13"
a=$("$RETRODB" solve dots --problem data/problems/penalty-3x3.txt --value-only --quiet | grep -v '^search:')
b=$("$RETRODB" solve dots 3x3 --problem data/problems/penalty-3x3.txt --value-only --quiet | grep -v '^search:')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "solve dots 3x3 --problem answers '$b', without the board '$a'"
expect 2 'the board is 2x3 but the diagram' -- "$RETRODB" solve dots 2x3 --problem data/problems/penalty-3x3.txt
expect 2 'give a board RxC, --position FILE or --problem FILE' -- "$RETRODB" solve dots --position - --problem data/problems/penalty-3x3.txt
expect 2 'give a board RxC' -- "$RETRODB" solve dots --quiet
expect 2 'goes with a board' -- "$RETRODB" solve dots --problem data/problems/penalty-3x3.txt --variant swedish
expect 2 'goes with a board RxC alone' -- "$RETRODB" solve dots 3x3 --problem data/problems/penalty-3x3.txt --variant swedish
expect 2 'unknown variant' -- "$RETRODB" solve dots 3x3 --variant dutch
expect 2 'unknown game' -- "$RETRODB" solve chess 3x3

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
