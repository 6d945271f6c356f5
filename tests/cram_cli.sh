#!/bin/bash
# Command-line tests of `retrodb solve cram`: exit status 2 and a message
# for bad input with nothing written, the JSON shape, published nimbers of
# empty boards, positions from a file and from standard input, a nimber
# table probed with --db, a transposition table file saved and reused, a
# ledger of the root's answers (and scripts/cram-ledger-status.sh), the
# table file's lock, every move's nimber (--first-moves) against a nimber
# table, and scripts/cram-two-routes.sh.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-cram-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"

S="$RETRODB solve cram"
tt="$T/tt"

# bad input: status 2, a message, no table file written
expect 2 'the position has 144 free dominoes to search' -- $S 9x9 --tt-file "$tt"
expect 2 'sides 1..128' -- $S 1x129 --tt-file "$tt"
expect 2 '230 free dominoes to search' -- sh -c "{ echo '#...............'; for i in 1 2 3 4 5 6 7; do echo '................'; done; } | $S --position - --tt-file '$tt'"
# strips up to 1x128 are Dawson's Kayles (the octal game 0.07): its
# nimbers by their definition, against the search
dk=$(python3 -c '
g = [0, 0]
for n in range(2, 129):
    seen = {g[a] ^ g[n - 2 - a] for a in range(n - 1)}
    g.append(min(set(range(n + 1)) - seen))
print(g[65], g[100], g[127], g[128])')
got=$(for n in 65 100 127 128; do $S 1x$n --json --quiet | sed -n 's/.*"nimber":\([0-9]*\),.*/\1/p'; done | tr '\n' ' ')
[ "$got" = "$dk " ] && ok || bad "strips 1x65, 1x100, 1x127, 1x128: '$got', Dawson's Kayles '$dk'"
expect 2 'at most 128 fit' -- $S 12x11 --tt-file "$tt"
expect 2 'bad board' -- $S 5by7 --tt-file "$tt"
expect 2 'unknown method' -- $S 3x4 --method fastest --tt-file "$tt"
expect 2 'bad --tt-mb' -- $S 3x4 --tt-mb -3 --tt-file "$tt"
expect 2 'bad --tt-mb' -- $S 3x4 --tt-mb lots
expect 2 'not both' -- $S 3x4 --position "$T/p"
expect 2 'give a board' -- $S --json
expect 2 'unknown game .go. (dots or cram)' -- $RETRODB solve go 3x3
expect 2 "unknown option '--fast'" -- $S 3x4 --fast
printf '...\n.x.\n' > "$T/bad1"
expect 2 'line 2, column 2: unknown character' -- $S --position "$T/bad1" --tt-file "$tt"
printf '...\n..\n' > "$T/bad2"
expect 2 'line 2, column 3: row has 2 cells' -- $S --position "$T/bad2"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo '...........'; done > "$T/bad3"
expect 2 'at most 128 fit' -- $S --position "$T/bad3"
expect 2 'cannot open' -- $S --position "$T/missing"
[ -e "$tt" ] && bad "a table file was written for bad input" || ok
# 3x4 (nimber 1) and 3x6 (4) in opposite corners of 11x11: searched region
# by region, or, with a table file (which belongs to one board), in the
# box of both, 11 across; 5 either way
python3 -c '
for r in range(11):
    print("".join("." if (r < 3 and c < 4) or (r > 7 and c > 4) else "#" for c in range(11)))' > "$T/corners"
expect 0 '"nimber":5,' -- $S --position "$T/corners" --json --tt-mb 16
expect 0 '"nimber":5,' -- $S --position "$T/corners" --json --tt-mb 16 --tt-file "$T/corners.tt"
[ -s "$T/corners.tt" ] && ok || bad "no table file of the 11x11 box"
expect 0 '"nimber":5,.*"tt_loaded":[1-9]' -- $S --position "$T/corners" --json --tt-mb 16 --tt-file "$T/corners.tt"

# published nimbers and the JSON shape
expect 0 '^{"game":"cram","rows":3,"cols":7,"nimber":1,"method":"aspiration","nodes":[0-9]*,"expanded":[0-9]*,"tt_hits":[0-9]*,"db_hits":0,"cuts":[0-9]*,"twins":[1-9][0-9]*,"mirror_zero":[0-9]*,"helped":0,"helper_first":0,"tt_entries":[0-9]*,"tt_loaded":0,"tt_mb":[0-9]*,"tt_fill":[0-9.]*,"seconds":[0-9.]*}$' -- $S 3x7 --json --tt-mb 16
expect 2 'tt-save-minutes goes with --tt-file or --tt-digest' -- $S 3x7 --tt-save-minutes 5
expect 2 'bad --threads' -- $S 3x7 --threads 0
expect 2 'aspiration method only' -- $S 3x7 --threads 2 --method etc
expect 0 '"nimber":1,' -- $S 3x7 --threads 2 --tt-mb 16 --json
expect 0 '"nimber":3,.*"certificate":\[{"nimber":0,"cells":\[\[[0-9],[0-9]\],\[[0-9],[0-9]\]\]},{"nimber":1,"cells":.*},{"nimber":2,"cells":\[\[[0-9],[0-9]\],\[[0-9],[0-9]\]\]}\]}$' -- $S 4x7 --certificate --json --tt-mb 16
# more than 64 cells: 2x33 is 1 (2xn is n mod 2); the certificate asks the
# moves nearest the centre first: the middle domino, which leaves two 2x16
# (0: each move answered by its mirror image)
expect 0 '^{"game":"cram","rows":2,"cols":33,"nimber":1,.*"wide_expanded":[1-9][0-9]*,"wide_tt_mb":16,"wide_tt_fill":0\.[0-9]*,"certificate":\[{"nimber":0,"cells":\[\[0,16\],\[1,16\]\]}\]}$' -- $S 2x33 --certificate --json --tt-mb 16
# the wide parts' table: an eighth of --tt-mb (at least 16 MB), or its own size
expect 0 '"wide_tt_mb":256,' -- $S 2x33 --json --tt-mb 2048
expect 0 '"wide_tt_mb":64,' -- $S 2x33 --json --tt-mb 16 --tt-wide-mb 64
expect 0 "tt [0-9]* MB [0-9]*% full, wide parts' tt 64 MB [0-9]*% full$" -- $S 2x33 --tt-mb 16 --tt-wide-mb 64
expect 2 'bad --tt-wide-mb' -- $S 2x33 --tt-wide-mb 0
# a 22x3 position whose free cells fit 22x2: the same nimber on both boards
{ echo '#.#'; for i in $(seq 21); do echo '..#'; done; } > "$T/wide22x3"
{ echo '#.'; for i in $(seq 21); do echo '..'; done; } > "$T/narrow22x2"
wide=$($S --position "$T/wide22x3" --json --tt-mb 16 2>&1 | sed -n 's/.*"nimber":\([0-9]*\),.*/\1/p')
narrow=$($S --position "$T/narrow22x2" --json --tt-mb 16 2>&1 | sed -n 's/.*"nimber":\([0-9]*\),.*/\1/p')
[ -n "$wide" ] && [ "$wide" = "$narrow" ] && ok || bad "22x3 position: nimber '$wide', on 22x2 '$narrow'"
expect 0 '^#\.#$' -- $S --position "$T/wide22x3" --tt-mb 16
expect 0 'to nimber 2: cover' -- $S 4x7 --certificate --tt-mb 16
# --first-moves as text: the board with each domino's nimber between its
# cells; 4x5's winning moves are the five across its middle
expect 0 'winning moves: (1,0)-(2,0) (1,1)-(2,1) (1,2)-(2,2) (1,3)-(2,3) (1,4)-(2,4)$' -- $S 4x5 --first-moves --tt-mb 16
expect 0 '^\. 3 \. 1 \. 1 \. 3 \.$' -- $S 4x5 --first-moves --tt-mb 16
expect 0 '^0   0   0   0   0$' -- $S 4x5 --first-moves --tt-mb 16
printf '.#\n#.\n' > "$T/nomove"
expect 0 'no move$' -- $S --position "$T/nomove" --first-moves --tt-mb 1
expect 0 '"nimber":0,.*"moves":\[\]}$' -- $S --position "$T/nomove" --first-moves --json --tt-mb 1
# The progress line of a search after the position's (the certificate's
# "is it 0?") counts the seconds of every search, as its nodes: it said
# "0 s, 15.5 M nodes (1e9 M/s)". 5x8 in board order takes 5 s and more,
# so the certificate's search ends with a progress line.
$S 5x8 --board-order --certificate --progress --tt-mb 64 2> "$T/cert-progress" > /dev/null
last=$(tail -1 "$T/cert-progress")
wrong=$(awk -F'[ ,(]+' '/^cram 5x8: / && ($3 < 5 || $8 >= 100)' "$T/cert-progress")
case $last in
*"trying nimber 0") [ -z "$wrong" ] && ok || bad "progress lines with wrong seconds or rate: $wrong" ;;
*) bad "no progress line at the certificate's end: $last" ;;
esac
# A ledger and the position's own moves. --first-moves: the solve's lines
# as a plain solve writes them, then one "is" line a move with the nimber
# the JSON gives where the solve's gave none (the children's solves write
# no lines of their own); a run
# again takes every move from the ledger, in one node, the same moves.
$S 4x7 --ledger "$T/fm-l1" --quiet --tt-mb 16 > /dev/null
$S 4x7 --ledger "$T/fm-l2" --first-moves --json --tt-mb 16 > "$T/fm-1.json"
n1=$(wc -l < "$T/fm-l1")
# (lines compared without their seconds, which a busy machine moves)
same_lines() { cmp -s <(sed 's/ seconds=[0-9.]*//' "$1") <(sed 's/ seconds=[0-9.]*//' "$2"); }
head -n "$n1" "$T/fm-l2" > "$T/fm-l2-head"
same_lines "$T/fm-l2-head" "$T/fm-l1" && ok || bad "--first-moves changed the solve's ledger lines"
want=$(jq -r '.moves[] | "(\(.cells[0][0]),\(.cells[0][1]))-(\(.cells[1][0]),\(.cells[1][1])) is \(.nimber)"' "$T/fm-1.json" | sort)
got=$(sed -n 's/.* move=\([^ ]*\) \(is [0-9]*\) .*/\1 \2/p' "$T/fm-l2" | sort -u)
[ "$(jq '.moves | length' "$T/fm-1.json")" = 45 ] && [ "$got" = "$want" ] && ok ||
    bad "--first-moves ledger lines: $(printf '%s' "$got" | head -3), want $(printf '%s' "$want" | head -3)"
cp "$T/fm-l2" "$T/fm-l2.before"
$S 4x7 --ledger "$T/fm-l2" --first-moves --json --tt-mb 16 > "$T/fm-2.json"
[ "$(jq -c .moves "$T/fm-2.json")" = "$(jq -c .moves "$T/fm-1.json")" ] && [ "$(jq .nodes "$T/fm-2.json")" = 1 ] &&
    [ "$(jq .from_ledger "$T/fm-2.json")" -ge 45 ] && cmp -s "$T/fm-l2" "$T/fm-l2.before" && ok ||
    bad "--first-moves from the ledger: $(jq -c '[.nodes,.from_ledger,.to_ledger]' "$T/fm-2.json")"
# The certificate: its answers go to the ledger, and a run again takes it
# from there in one node. Each move it gives is checked by solving the
# position after it, without the ledger: 3x14 = 3 (its moves to 0, 1, 2).
cert_checked() { # board json: every certificate move leads to its nimber
    local rows=${1%x*} cols=${1#*x} k cells
    for k in $(jq '.certificate[].nimber' "$2"); do
        cells=$(jq -r --argjson k "$k" '.certificate[$k].cells[] | "\(.[0]) \(.[1])"' "$2")
        printf '%s\n' "$cells" | awk -v rows="$rows" -v cols="$cols" '
            { covered[$1 "," $2] = 1 }
            END { for (r = 0; r < rows; r++) { line = ""
                      for (c = 0; c < cols; c++) line = line ((r "," c) in covered ? "#" : ".")
                      print line } }' > "$T/cert-pos"
        [ "$($S --position "$T/cert-pos" --json --tt-mb 16 | jq .nimber)" = "$k" ] || return 1
    done
}
$S 3x14 --ledger "$T/c-l" --certificate --json --tt-mb 16 > "$T/c-1.json"
cp "$T/c-l" "$T/c-l.before"
$S 3x14 --ledger "$T/c-l" --certificate --json --tt-mb 16 > "$T/c-2.json"
[ "$(jq .nimber "$T/c-2.json")" = 3 ] && [ "$(jq .nodes "$T/c-2.json")" = 1 ] &&
    [ "$(jq -c .certificate "$T/c-2.json")" = "$(jq -c .certificate "$T/c-1.json")" ] &&
    cmp -s "$T/c-l" "$T/c-l.before" && ok || bad "3x14's certificate from its ledger: $(cat "$T/c-2.json")"
cert_checked 3x14 "$T/c-2.json" && ok || bad "3x14's certificate from the ledger: a move does not lead where it says"
# A ledger whose "is" lines are taken out (the solve's trials wrote the
# certificate's moves there): the certificate is searched, the moves the
# ledger says do not reach k unasked, and its answers ("is" and "not")
# are appended; a run again takes it from the ledger in one node.
$S 3x14 --ledger "$T/c-l1" --json --tt-mb 16 > /dev/null
grep -v ' is ' "$T/c-l1" > "$T/c-l2"
n1=$(wc -l < "$T/c-l2")
$S 3x14 --ledger "$T/c-l2" --certificate --json --tt-mb 16 > "$T/c-3.json"
$S 3x14 --ledger "$T/c-l2" --certificate --json --tt-mb 16 > "$T/c-4.json"
[ "$(wc -l < "$T/c-l2")" -gt "$n1" ] && [ "$(jq .nodes "$T/c-3.json")" -gt 1 ] && [ "$(jq .nodes "$T/c-4.json")" = 1 ] &&
    [ "$(jq -c .certificate "$T/c-4.json")" = "$(jq -c .certificate "$T/c-3.json")" ] && ok ||
    bad "3x14's certificate searched beside a ledger: $(jq -c '[.nodes,.from_ledger,.to_ledger]' "$T/c-3.json" "$T/c-4.json")"
cert_checked 3x14 "$T/c-4.json" && ok || bad "3x14's certificate searched beside a ledger: a move does not lead where it says"
# a position whose lines name the cells of another form (4x7 with (0,0)
# covered: its canonical form has the last cell covered) keeps its ledger
# to the solve's lines: the certificate and the moves as without one
printf '#......\n.......\n.......\n.......\n' > "$T/turned"
$S --position "$T/turned" --ledger "$T/t-l1" --json --tt-mb 16 > /dev/null
$S --position "$T/turned" --ledger "$T/t-l2" --certificate --first-moves --json --tt-mb 16 > "$T/t-2.json"
$S --position "$T/turned" --certificate --first-moves --json --tt-mb 16 > "$T/t-3.json"
[ "$(jq -c '[.certificate,.moves]' "$T/t-2.json")" = "$(jq -c '[.certificate,.moves]' "$T/t-3.json")" ] &&
    same_lines "$T/t-l1" "$T/t-l2" && ok || bad "a turned position's ledger, certificate or moves differ from a plain solve's"
# a board the mirror rule values 0 at once (4x6): its moves' nimbers go
# to the ledger and come back from it
$S 4x6 --ledger "$T/z-l" --first-moves --json --tt-mb 16 > "$T/z-1.json"
$S 4x6 --ledger "$T/z-l" --first-moves --json --tt-mb 16 > "$T/z-2.json"
[ "$(jq -c .moves "$T/z-2.json")" = "$(jq -c .moves "$T/z-1.json")" ] && [ "$(jq .to_ledger "$T/z-1.json")" = 38 ] &&
    [ "$(jq .from_ledger "$T/z-2.json")" = 38 ] && [ "$(jq .nodes "$T/z-2.json")" = 0 ] && ok ||
    bad "4x6's moves through the ledger: $(jq -c '[.nodes,.from_ledger,.to_ledger]' "$T/z-1.json" "$T/z-2.json")"
# more than 64 cells: 2x33's moves, through the ledger and back
$S 2x33 --ledger "$T/w-l" --first-moves --json --tt-mb 16 > "$T/w-1.json"
$S 2x33 --ledger "$T/w-l" --first-moves --certificate --json --tt-mb 16 > "$T/w-2.json"
[ "$(jq -c .moves "$T/w-2.json")" = "$(jq -c .moves "$T/w-1.json")" ] && [ "$(jq .nodes "$T/w-2.json")" = 1 ] &&
    [ "$(jq '.moves | length' "$T/w-1.json")" = 97 ] && ok ||
    bad "2x33's moves from its ledger: $(jq -c '[.nodes,.from_ledger,(.moves|length)]' "$T/w-2.json")"
expect 2 'bad --tt-save-minutes' -- $S 3x7 --tt-save-minutes 0 --tt-file "$tt"
for m in plain simple-cuts set-cuts etc aspiration; do
    expect 0 '"nimber":2,' -- $S 4x5 --json --method $m --tt-mb 16
done
expect 0 '"nimber":4,' -- $S 3x6 --json --tt-mb 16
expect 0 '"nimber":1,' -- $S 1x2 --json --tt-mb 1
expect 0 '"nimber":0,' -- $S 1x1 --json --tt-mb 1
out=$($S 4x5 --json --tt-mb 16 2>/dev/null | wc -l)
[ "$out" = 1 ] && ok || bad "--json printed $out lines"
expect 0 'nimber 2: the player to move wins' -- $S 4x5 --tt-mb 16 --quiet

# positions: a file and standard input; the two 2x2 corners of this 2x5
# are split by a covered column: 0 xor 0 = 0; one covered cell leaves an L
printf '\n..#..\n..#..  \n\n' > "$T/p1"
expect 0 '"rows":2,"cols":5,"nimber":0,' -- $S --position "$T/p1" --json --tt-mb 1
expect 0 '"nimber":1,' -- sh -c "printf '.#\n..\n' | $S --position - --json --tt-mb 1"

# a transposition table file: written at the end, loaded the next time
# (4x6 searched: the mirror rule would value it 0 at once)
expect 0 '"tt_loaded":0,' -- $S 4x6 --json --tt-mb 16 --tt-file "$tt" --no-mirror
[ -s "$tt" ] && ok || bad "no table file after a solve"
expect 0 '"nimber":0,"method":"aspiration","nodes":0,.*"tt_loaded":[1-9]' -- $S 4x6 --json --tt-mb 16 --tt-file "$tt" --no-mirror
# the mirror rule: an even x even board is 0 without a node
expect 0 '"nimber":0,"method":"aspiration","nodes":0,.*"mirror_zero":1,' -- $S 8x8 --json --tt-mb 16
expect 2 'not 5' -- $S 5x5 --json --tt-mb 16 --tt-file "$tt"
printf 'garbage' > "$T/tt2"
expect 1 'not a cram transposition table' -- $S 4x6 --tt-file "$T/tt2"
# the table file is one run's: a second run on it is refused while the
# first goes on; what a killed save left (F.<pid>.tmp, F.wide.<pid>.tmp)
# goes at the start; a folder that cannot take the file is refused at the
# start, not at the first save
$S 3x17 --tt-mb 16 --tt-file "$T/busy" --tt-digest "$T/busy-digest" --quiet > /dev/null 2>&1 &
busy=$!
for _ in $(seq 50); do [ -s "$T/busy-digest.lock" ] && break; sleep 0.1; done
expect 1 "another run (pid $busy) is working on '$T/busy'" -- $S 3x7 --tt-file "$T/busy"
expect 2 "name one file, '$T/same'" -- $S 3x7 --tt-file "$T/same" --tt-digest "$T/same"
# and so is its digest, beside another table file
expect 1 "another run (pid $busy) is working on '$T/busy-digest'" -- $S 3x7 --tt-file "$T/other" --tt-digest "$T/busy-digest"
kill "$busy" 2> /dev/null
wait "$busy" 2> /dev/null
touch "$tt.4242.tmp" "$tt.wide.4243.tmp" "$tt.x.tmp"
expect 0 '"nimber":0,' -- $S 4x6 --json --tt-mb 16 --tt-file "$tt" --no-mirror
[ ! -e "$tt.4242.tmp" ] && [ ! -e "$tt.wide.4243.tmp" ] && [ -e "$tt.x.tmp" ] && ok ||
    bad "a killed save's temporary files not removed, or another file removed: $(ls "$T")"
expect 1 "cannot open '$T/no/tt.lock'" -- $S 3x7 --tt-file "$T/no/tt"
# A digest and a table file that disagree on a position (one record of
# the digest given another nimber, its checksum made right again) are
# refused at the start, exit 1, and neither file is written
$S 4x7 --tt-mb 16 --tt-file "$T/agree" --tt-digest "$T/agree-d" --tt-digest-log2 1 --quiet > /dev/null
python3 - "$T/agree-d" << 'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
for i in range((len(d) - 32) // 12):
    r = 24 + 12 * i
    if bin(struct.unpack_from('<Q', d, r)[0]).count('1') > 16 and d[r + 8] <= 3:
        d[r + 8] ^= 1
        break
h = 0xcbf29ce484222325
for x in d[:-8]:
    h = ((h ^ x) * 0x100000001b3) & 0xffffffffffffffff
struct.pack_into('<Q', d, len(d) - 8, h)
open(sys.argv[1], 'wb').write(d)
EOF
sums=$(cksum "$T/agree" "$T/agree-d")
expect 1 "'$T/agree' disagrees on 1 position with what was loaded before it" -- $S 4x7 --tt-mb 16 --tt-file "$T/agree" --tt-digest "$T/agree-d"
[ "$(cksum "$T/agree" "$T/agree-d")" = "$sums" ] && ok || bad "files that disagree were written"
# a table file of a wide board without its F.wide: loaded, and said
$S 2x33 --tt-mb 16 --tt-file "$T/tt33" --quiet > /dev/null 2>&1
rm -f "$T/tt33.wide"
expect 0 "no '$T/tt33.wide' beside it" -- $S 2x33 --tt-mb 16 --tt-file "$T/tt33"

# a ledger: the root's answers appended as found; a new run with no table
# takes them from it and searches nothing again; another method refuses
# it (2), a line not of the form is refused with its number (1)
led="$T/ledger47"
expect 0 '"nimber":3,.*"from_ledger":0,"to_ledger":[1-9]' -- $S 4x7 --json --tt-mb 16 --ledger "$led"
n=$(grep -c . "$led")
[ "$(grep -c '^4x7 root=[0-9a-f]\{32\} move=([0-9],[0-9])-([0-9],[0-9]) \(is\|not\) [0-9]* nodes=[0-9]* seconds=[0-9.]*$' "$led")" = "$n" ] &&
    ok || bad "ledger lines not of the form: $(head -2 "$led")"
expect 0 '"nimber":3,"method":"aspiration","nodes":1,.*"from_ledger":[1-9][0-9]*,"to_ledger":0}' -- $S 4x7 --json --tt-mb 16 --ledger "$led"
expect 0 'root answers from the ledger [1-9][0-9]*, added to it 0' -- $S 4x7 --tt-mb 16 --ledger "$led" --quiet
head -n 4 "$led" > "$T/ledger47-part"
expect 0 '"nimber":3,.*"from_ledger":[1-9][0-9]*,"to_ledger":[1-9]' -- $S 4x7 --json --tt-mb 16 --ledger "$T/ledger47-part" --threads 2
# the status counts moves up to the root's symmetries (4x7: 45 moves, 14
# up to its four), and says the nimber when every one is answered; a
# ledger cut short names the moves not answered
expect 0 '^4x7 root=0*fffffff: [0-9]* moves answered; they reach 0, 1, 2 (so the nimber is at least 3); of 3, 14 of the root.s 14 moves up to symmetry are known to reach something else (so the nimber is 3)$' -- scripts/cram-ledger-status.sh "$led"
head -n 4 "$led" > "$T/ledger47-cut"
expect 0 'of 3, [0-9] of the root.s 14 moves up to symmetry are known to reach something else; not answered: ([0-9],[0-9])-' -- scripts/cram-ledger-status.sh "$T/ledger47-cut"
# a square board has eight symmetries (5x5: 40 moves, 6 up to them), and
# a position's root the symmetries of its own cells (two cells covered
# in mirror image: 2 of them)
$S 5x5 --tt-mb 16 --ledger "$T/ledger55" --quiet > /dev/null
expect 0 'of 0, 6 of the root.s 6 moves up to symmetry are known to reach something else (so the nimber is 0)$' -- scripts/cram-ledger-status.sh "$T/ledger55"
printf '.......\n.#...#.\n.......\n.......\n' > "$T/pos47"
expect 0 '^nimber 0' -- $S --position "$T/pos47" --tt-mb 16 --ledger "$T/ledger47p" --quiet
expect 0 'of 0, 20 of the root.s 20 moves up to symmetry are known to reach something else (so the nimber is 0)$' -- scripts/cram-ledger-status.sh "$T/ledger47p"
# five rows and more: moves from the lower rows are told apart (5x5 with
# (0,1) covered: 37 moves, no symmetry), in a ledger cut short too
printf '.#...\n.....\n.....\n.....\n.....\n' > "$T/pos55"
$S --position "$T/pos55" --tt-mb 16 --ledger "$T/ledger55p" --quiet > /dev/null
head -n 5 "$T/ledger55p" > "$T/ledger55c"
expect 0 'of 1, 37 of the root.s 37 moves up to symmetry are known to reach something else (so the nimber is 1)$' -- scripts/cram-ledger-status.sh "$T/ledger55p"
expect 0 'of 1, [0-9] of the root.s 37 moves up to symmetry are known to reach something else; not answered' -- scripts/cram-ledger-status.sh "$T/ledger55c"
# Random positions: whenever the status names the root's nimber, it is
# the one the solver gives the root (drawn from the ledger's key: its
# cells in the layout, the longer side along its rows)
claims=0
for seed in $(seq 1 24); do
    awk -v seed="$seed" 'BEGIN { srand(seed); split("4x5 5x5 3x7 4x4 6x3 2x9 5x4", b, " ");
        split(b[1 + int(rand() * 7)], d, "x"); k = seed % 4
        for (i = 0; i < k; i++) cov[int(rand() * d[1]), int(rand() * d[2])] = 1
        for (r = 0; r < d[1]; r++) { s = ""; for (c = 0; c < d[2]; c++) s = s ((r, c) in cov ? "#" : "."); print s } }' > "$T/rpos"
    rm -f "$T/rled"
    $S --position "$T/rpos" --tt-mb 16 --ledger "$T/rled" --quiet > /dev/null 2>&1
    [ -s "$T/rled" ] || continue
    awk 'NR == 1 { split($1, d, "x"); hex = substr($2, 6); tr = d[2] > d[1]; st = tr ? d[1] : d[2]
        for (i = 0; i < d[1] * d[2]; i++) { v = index("0123456789abcdef", substr(hex, 32 - int(i / 4), 1)) - 1
            r = tr ? i % st : int(i / st); c = tr ? int(i / st) : i % st; f[r, c] = int(v / 2 ^ (i % 4)) % 2 }
        for (r = 0; r < d[1]; r++) { s = ""; for (c = 0; c < d[2]; c++) s = s (f[r, c] ? "." : "#"); print s } }' "$T/rled" > "$T/rroot"
    said=$(scripts/cram-ledger-status.sh "$T/rled" | sed -n 's/.*(so the nimber is \([0-9]*\))$/\1/p')
    [ -n "$said" ] || continue
    claims=$((claims + 1))
    want=$($S --position "$T/rroot" --tt-mb 16 --json --quiet | sed 's/.*"nimber":\([0-9]*\).*/\1/')
    [ "$said" = "$want" ] && ok || bad "ledger status of $(tr '\n' / < "$T/rpos") says its root is $said, the solver $want"
done
[ "$claims" -ge 12 ] && ok || bad "only $claims random positions gave the status a nimber to name"
expect 1 'cannot read' -- scripts/cram-ledger-status.sh "$T/no-ledger"
expect 2 'usage' -- scripts/cram-ledger-status.sh
expect 2 'aspiration method only' -- $S 4x7 --method etc --ledger "$led"
printf '# notes\n4x7 root=xyz\n' > "$T/badledger"
expect 1 'badledger:2: not a ledger line' -- $S 4x7 --ledger "$T/badledger"
printf '4x7 \0\n' > "$T/nulledger"
expect 1 'not a ledger: it holds a NUL byte' -- $S 4x7 --ledger "$T/nulledger"
ln -s "$led" "$T/ledger-link"
expect 1 "cannot open '$T/ledger-link' to append to it" -- $S 4x7 --ledger "$T/ledger-link"
expect 1 "cannot open '$T/no/ledger'" -- $S 4x7 --ledger "$T/no/ledger"

# a table's digest: only its dear entries (here of 2^10 nodes or more),
# loaded by the next run, on a board of more than 64 cells too (F.wide)
expect 0 '"nimber":1,.*"tt_loaded":0,' -- $S 3x12 --json --tt-mb 16 --tt-digest "$T/digest" --tt-digest-log2 10
expect 0 '"nimber":1,.*"tt_loaded":[1-9]' -- $S 3x12 --json --tt-mb 16 --tt-digest "$T/digest" --tt-save-minutes 5
expect 0 '"nimber":1,' -- $S 2x33 --json --tt-mb 16 --tt-digest "$T/digest33" --tt-digest-log2 4
[ -s "$T/digest33" ] && [ -s "$T/digest33.wide" ] && ok || bad "no digest of 2x33 and its wide parts"
expect 0 '"nimber":1,"method":"aspiration","nodes":0,.*"tt_loaded":[1-9]' -- $S 2x33 --json --tt-mb 16 --tt-digest "$T/digest33"
expect 2 'bad --tt-digest-log2' -- $S 3x12 --tt-digest "$T/digest" --tt-digest-log2 0
# both: the digest read first, then the table file, each reported
$S 3x12 --tt-mb 16 --tt-file "$T/tt12" --tt-digest "$T/digest12" --quiet >/dev/null 2>&1
out=$($S 3x12 --tt-mb 16 --tt-file "$T/tt12" --tt-digest "$T/digest12" 2>&1)
n=$(printf '%s\n' "$out" | sed -n "s|^solve: \([0-9]*\) entries read from '$T/tt12' (.*); the table holds \([0-9]*\)$|\1 \2|p")
printf '%s\n' "$out" | grep -q "^solve: [0-9]* entries read from '$T/digest12'" && [ -n "$n" ] &&
    [ "${n% *}" -gt 0 ] && [ "${n#* }" -ge "${n% *}" ] && ok || bad "loads not reported as wanted: $out"

# a nimber table probed for every component that fits
if "$RETRODB" build cram 3x4 --dir "$T/c34" --quiet >/dev/null 2>&1; then
    expect 0 '"nimber":0,.*"db_hits":[1-9]' -- $S 4x6 --json --tt-mb 16 --db "$T/c34" --no-mirror
    expect 0 '"nimber":1,.*"db_hits":[1-9]' -- $S 3x9 --json --tt-mb 16 --db "$T/c34"
    expect 0 '"nimber":3,' -- $S 4x7 --json --tt-mb 16 --db "$T/c34" --method plain
    # a board of more than 64 cells probes the table for the parts that fit
    # it: a path of 22 cells through a 4x3 block, the same nimber without
    { echo '.##'; for i in $(seq 21); do case $i in 5|6|7|8) echo '...';; *) echo '.##';; esac; done; } > "$T/path22x3"
    plain=$($S --position "$T/path22x3" --json --tt-mb 16 2>&1 | sed -n 's/.*"nimber":\([0-9]*\),.*/\1/p')
    expect 0 "\"nimber\":$plain,.*\"db_hits\":[1-9]" -- $S --position "$T/path22x3" --json --tt-mb 16 --db "$T/c34"
    # --first-moves: every move's nimber by search equals the 3x4 table's
    # (query), on random positions of 3x4 and on the same positions as a
    # window of a 3x22 board (cells 18-21 of each row, across cell 64),
    # everything else covered
    python3 - "$RETRODB" "$T/c34" "$T" << 'EOF' > "$T/first-moves.out"
import json, random, subprocess, sys
retrodb, table, tmp = sys.argv[1:]
rng = random.Random(8)
def run(*args):
    p = subprocess.run([retrodb, *args], capture_output=True, text=True)
    return p.returncode, p.stdout
def moves(out, dr=0, dc=0):
    return sorted((tuple(tuple((r - dr, c - dc)) for r, c in m["cells"]), m["nimber"])
                  for m in json.loads(out)["moves"])
checked = 0
while checked < 10:
    covered = set(rng.sample(range(12), rng.randint(0, 7)))
    small = "\n".join("".join("#" if r * 4 + c in covered else "." for c in range(4)) for r in range(3))
    open(f"{tmp}/fm34", "w").write(small + "\n")
    rc, table_out = run("query", "--dir", table, "--json", f"{tmp}/fm34")
    if rc != 0:
        continue  # covered cells no sequence of dominoes leaves
    want = moves(table_out)
    rc, out = run("solve", "cram", "--position", f"{tmp}/fm34", "--first-moves", "--json", "--quiet")
    print("ok" if rc == 0 and moves(out) == want else f"bad 3x4 {small!r}: {out}")
    wide = "\n".join("#" * 18 + row for row in small.split("\n"))
    open(f"{tmp}/fm322", "w").write(wide + "\n")
    rc, out = run("solve", "cram", "--position", f"{tmp}/fm322", "--first-moves", "--json", "--quiet")
    print("ok" if rc == 0 and moves(out, 0, 18) == want and
          json.loads(out)["nimber"] == json.loads(table_out)["nimber"] else f"bad 3x22 {wide!r}: {out}")
    # a corner of boards the search takes only in part: 11x11 (wider than
    # its layout both ways: the box of the free dominoes is searched) and
    # 8x16 (232 dominoes, more than a search takes), moves on the board
    for rows, cols, top, left in ((11, 11, 8, 7), (8, 16, 5, 12)):
        big = [["#"] * cols for _ in range(rows)]
        for r, line in enumerate(small.split("\n")):
            big[top + r][left:left + 4] = list(line)
        open(f"{tmp}/fmbig", "w").write("\n".join("".join(row) for row in big) + "\n")
        rc, out = run("solve", "cram", "--position", f"{tmp}/fmbig", "--first-moves", "--json", "--quiet")
        print("ok" if rc == 0 and moves(out, top, left) == want and
              json.loads(out)["nimber"] == json.loads(table_out)["nimber"] else f"bad {rows}x{cols}: {out}")
    # two opposite corners of 11x11, this position and the last one: no
    # box of the free dominoes fits the layout, so each region is searched
    # in its own; the nimber is the nim-sum of the table's two, every
    # move's nimber its region's, nim-summed with the other's, and the
    # certificate's move to k one the table says leads there
    if checked:
        a, b = (small, json.loads(table_out)), prev
        big = [["#"] * 11 for _ in range(11)]
        for (pos, _), top, left in ((a, 0, 0), (b, 8, 7)):
            for r, line in enumerate(pos.split("\n")):
                big[top + r][left:left + 4] = list(line)
        open(f"{tmp}/fmtwo", "w").write("\n".join("".join(row) for row in big) + "\n")
        rc, out = run("solve", "cram", "--position", f"{tmp}/fmtwo", "--first-moves", "--certificate",
                      "--json", "--quiet")
        na, nb = a[1]["nimber"], b[1]["nimber"]
        both = sorted([(m, g ^ nb) for m, g in moves(json.dumps(a[1]))] +
                      [(m, g ^ na) for m, g in moves(json.dumps(b[1]), -8, -7)])
        got = json.loads(out) if rc == 0 else {}
        reach = dict(both)
        cert = got.get("certificate", [])
        print("ok" if rc == 0 and got["nimber"] == na ^ nb and moves(out) == both and
              len(cert) == na ^ nb and
              all(reach.get(tuple(tuple(c) for c in e["cells"])) == e["nimber"] == k
                  for k, e in enumerate(cert)) else f"bad two corners {big!r}: {out}")
    prev = (small, json.loads(table_out))
    checked += 1
EOF
    n=$(grep -c '^ok$' "$T/first-moves.out")
    [ "$n" = 49 ] && ok || bad "--first-moves against the table: $n of 49 agree: $(grep -v '^ok$' "$T/first-moves.out" | head -3)"
    # scripts/cram-two-routes.sh: both routes, the published 3x12 = 1 with
    # a certificate; a second run makes neither run again; a lost result
    # is made again alone; a folder of another board is refused
    expect 0 '3x12: nimber 1, the two routes agree' -- env RETRODB="$RETRODB" scripts/cram-two-routes.sh 3x12 "$T/two" "$T/c34" 16
    grep -q '"certificate":\[{"nimber":0,"cells"' "$T/two/route2.json" && ok || bad "cram-two-routes: no certificate in route 2"
    [ -s "$T/two/cram-3x12-route1.txt" ] && [ -s "$T/two/cram-3x12-route2.txt" ] && ok || bad "cram-two-routes: no ledgers"
    [ -s "$T/two/cram-3x12-route1.tt" ] && [ -s "$T/two/cram-3x12-route2.tt" ] && ok || bad "cram-two-routes: no digests"
    # TT_DIGEST_LOG2: a lower bound keeps more entries in the digests
    expect 0 '3x12: nimber 1, the two routes agree' -- env RETRODB="$RETRODB" TT_DIGEST_LOG2=1 scripts/cram-two-routes.sh 3x12 "$T/two-k1" "$T/c34" 16
    grep -q -- '--tt-digest-log2 1 ' "$T/two-k1/route1.log" &&
        [ "$(stat -c %s "$T/two-k1/cram-3x12-route1.tt")" -gt "$(stat -c %s "$T/two/cram-3x12-route1.tt")" ] && ok ||
        bad "cram-two-routes: TT_DIGEST_LOG2=1 kept no more entries than the default"
    expect 2 'refused its command line' -- env RETRODB="$RETRODB" TT_DIGEST_LOG2=x scripts/cram-two-routes.sh 3x12 "$T/two-kx" "$T/c34" 16
    # with LEDGERS elsewhere, each route's result is kept beside its ledger too
    expect 0 '3x12: nimber 1, the two routes agree' -- env RETRODB="$RETRODB" LEDGERS="$T/two-ledgers" scripts/cram-two-routes.sh 3x12 "$T/two6" "$T/c34" 16
    cmp -s "$T/two6/route1.json" "$T/two-ledgers/cram-3x12-route1.json" &&
        cmp -s "$T/two6/route2.json" "$T/two-ledgers/cram-3x12-route2.json" && ok ||
        bad "cram-two-routes: the results not kept beside the ledgers"
    rm "$T/two-ledgers/cram-3x12-route2.json"
    expect 0 '3x12: nimber 1, the two routes agree' -- env RETRODB="$RETRODB" LEDGERS="$T/two-ledgers" scripts/cram-two-routes.sh 3x12 "$T/two6" "$T/c34" 16
    cmp -s "$T/two6/route2.json" "$T/two-ledgers/cram-3x12-route2.json" && ok ||
        bad "cram-two-routes: a result answered before not kept beside its ledger"
    # each run's end and time in its log, and the routes' totals over their runs
    grep -q '^--- route 1: exit 0 after [0-9]* s$' "$T/two/route1.log" && ok || bad "cram-two-routes: route 1's end not logged"
    expect 0 'route 1: nimber 1; 1 run, [0-9]* s, [0-9.e+]* nodes in all' -- env RETRODB="$RETRODB" scripts/cram-two-routes.sh 3x12 "$T/two" "$T/c34" 16
    [ "$(grep -c '^=== route' "$T/two/route1.log")" = 1 ] && ok || bad "cram-two-routes: route 1 made again"
    rm "$T/two/route2.json"
    expect 0 'route 2: nimber 1; 2 runs, [0-9]* s, [0-9.e+]* nodes in all' -- env RETRODB="$RETRODB" scripts/cram-two-routes.sh 3x12 "$T/two" "$T/c34" 16
    [ "$(grep -c '^=== route' "$T/two/route1.log") $(grep -c '^=== route' "$T/two/route2.log")" = "1 2" ] && ok ||
        bad "cram-two-routes: a lost route 2 was not made again alone"
    expect 2 'holds the runs of 3x12, not 3x13' -- env RETRODB="$RETRODB" scripts/cram-two-routes.sh 3x13 "$T/two" "$T/c34"
    expect 2 'not a board' -- env RETRODB="$RETRODB" scripts/cram-two-routes.sh 3x1z "$T/two2" "$T/c34"
    expect 2 'refused its command line' -- env RETRODB="$RETRODB" scripts/cram-two-routes.sh 12x11 "$T/two3" "$T/c34"
    # A route whose search answered but whose last table save failed exits
    # 1 with its answer (tests/io_faults.sh, "endsave"): the answer is kept
    # as the route's result. One that exits 1 with no answer is not: the
    # same command runs it again. (A stand-in for retrodb: the real one,
    # its exit 0 turned into 1, or its answer dropped.)
    printf '#!/bin/bash\n"%s" "$@"; rc=$?; [ "$rc" = 0 ] && exit 1; exit "$rc"\n' "$RETRODB" > "$T/unsaved"
    printf '#!/bin/bash\n"%s" "$@" > /dev/null; exit 1\n' "$RETRODB" > "$T/noanswer"
    chmod +x "$T/unsaved" "$T/noanswer"
    expect 0 'route 1 finished, but its table was not saved at the end' -- env RETRODB="$T/unsaved" scripts/cram-two-routes.sh 3x12 "$T/two4" "$T/c34" 16
    grep -q '"nimber":1,' "$T/two4/route1.json" && grep -q '"nimber":1,' "$T/two4/route2.json" && ok ||
        bad "cram-two-routes: an answer whose table was not saved not kept"
    expect 1 'route 1 stopped (exit 1' -- env RETRODB="$T/noanswer" scripts/cram-two-routes.sh 3x12 "$T/two5" "$T/c34" 16
    [ ! -e "$T/two5/route1.json" ] && [ ! -e "$T/two5/route1.json.part" ] && ok ||
        bad "cram-two-routes: a route that stopped without an answer left a result"
    # TT_WIDE_MB sizes each run's table of the wide parts
    expect 0 '2x33: nimber 1, the two routes agree' -- env RETRODB="$RETRODB" TT_WIDE_MB=32 scripts/cram-two-routes.sh 2x33 "$T/two8" "$T/c34" 16
    grep -q '"wide_tt_mb":32,' "$T/two8/route1.json" && grep -q '"wide_tt_mb":32,' "$T/two8/route2.json" && ok ||
        bad "cram-two-routes: TT_WIDE_MB not given to the runs"
    # A run of days must not follow edits made to the script meanwhile:
    # a stand-in for retrodb rewrites a copy of the script in place (the
    # same file, a line longer at the top) before it runs the search.
    cp scripts/cram-two-routes.sh "$T/ctr.sh"
    printf '#!/bin/bash\n{ echo "echo EDITED; exit 3"; cat "%s"; } > "%s.new" && cat "%s.new" > "%s"\nexec "%s" "$@"\n' \
        "$T/ctr.sh" "$T/ctr.sh" "$T/ctr.sh" "$T/ctr.sh" "$RETRODB" > "$T/editing"
    chmod +x "$T/editing"
    expect 0 '3x12: nimber 1, the two routes agree' -- env RETRODB="$T/editing" bash "$T/ctr.sh" 3x12 "$T/two7" "$T/c34" 16
    printf "%s" "$out" | grep -q EDITED && bad "cram-two-routes: a run followed an edit of its script" || ok
else
    bad "build cram 3x4 failed"
fi
"$RETRODB" build dots 1x1 --dir "$T/d11" --quiet >/dev/null 2>&1
expect 2 'not a cram table' -- $S 3x4 --db "$T/d11"
expect 1 '' -- $S 3x4 --db "$T/nothing"

# A table that would outgrow the memory left stops growing there, says so,
# and the search goes on to the same nimber (RDB_MEMORY_AVAILABLE_MB stands
# for a machine with 40 MB left: not even a first doubling fits; 5x8
# outgrows the first 4 MB)
expect 0 '"nimber":1,.*"tt_mb":4,.*"tt_held":true' -- env RDB_MEMORY_AVAILABLE_MB=40 $S 5x8 --tt-mb 1024 --json
out=$($S 4x11 --tt-mb 1024 --json 2>&1)
printf '%s' "$out" | grep -q '"tt_mb":64,' && ! printf '%s' "$out" | grep -q tt_held && ok ||
    bad "4x11 with the memory there is: $out"
expect 0 "tt 4 MB (held there: memory was short)" -- env RDB_MEMORY_AVAILABLE_MB=40 $S 5x8 --tt-mb 1024 --quiet
# With 530 MB left (a margin of 512 beside the table) the table doubles
# where it lies to 8 MB, 16, then to 32 (only the new half must fit, 16
# MB), and stops there, short of the 64 MB 4x11 grows to, on one thread
# and on two
for th in 1 2; do
    expect 0 '"nimber":1,.*"tt_mb":32,.*"tt_held":true' -- env RDB_MEMORY_AVAILABLE_MB=530 $S 4x11 --tt-mb 1024 --json --threads $th
done

# Start-up: a search on one thread does not restart the program for the
# passive OpenMP wait (cli.c), one with threads does, whatever the spelling
if command -v strace > /dev/null && strace -f -e trace=execve true > /dev/null 2>&1; then
    execs() { strace -f -e trace=execve "$@" 2>&1 >/dev/null | grep -c 'execve('; }
    for args in "" "--threads 1" "--threads=1" "-t 1" "-t1"; do
        n=$(execs $S 4x5 $args)
        [ "$n" = 1 ] && ok || bad "solve cram 4x5 $args: $n starts, not 1"
    done
    for args in "--threads 2" "--threads=2" "--thr 2" "-t 2" "-t2" "-qt2"; do
        n=$(execs $S 4x5 $args)
        [ "$n" = 2 ] && ok || bad "solve cram 4x5 $args: $n starts, not 2"
    done
    n=$(OMP_WAIT_POLICY=active execs $S 4x5 --threads 2)
    [ "$n" = 1 ] && ok || bad "a policy the user chose: $n starts, not 1"
else
    echo "skipped: start-up exec counts (strace cannot trace here)" >&2
fi

echo "cram cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
