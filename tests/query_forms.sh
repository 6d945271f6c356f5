#!/bin/bash
# query_forms.sh — `retrodb query` on positions in every form (diagrams,
# move lists, open_spiel action numbers, DBN strings, Cram dominoes and
# cells), in batches, with the perfect game, and Cram tables answering
# smaller boards: every route must give the diagram route's answer.
# Random positions come from awk with fixed seeds, so a failure repeats.
set -u
RETRODB=${RETRODB:-bin/retrodb}
R=$RETRODB
T=$(mktemp -d "${TMPDIR:-/tmp}/retrodb-forms.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"

command -v jq > /dev/null || { echo "query_forms: jq is needed (scripts/install-deps.sh)"; exit 1; }

$R build dots 3x3 --dir "$T/d33" --quiet || bad "build 3x3"
$R build dots 3x3 --problem data/problems/middle-3x3.txt --dir "$T/pm" --quiet || bad "build problem"

# awk helpers: a 3x3 diagram from a DBN string, and random DBN strings
diagrams='
function diagram(s, R, C,   out, i, j, row) {
    out = ""
    for (i = 0; i <= R; i++) {
        row = ""
        for (j = 0; j < C; j++) row = row "+" (substr(s, i*C + j + 1, 1) == "1" ? "-" : " ")
        out = out row "+\n"
        if (i == R) break
        row = ""
        for (j = 0; j <= C; j++) {
            row = row (substr(s, (R+1)*C + i*(C+1) + j + 1, 1) == "1" ? "|" : " ")
            if (j < C) row = row " "
        }
        out = out row "\n"
    }
    return out
}'
random_dbn() { # N LINES SEED: N random positions of every density
    awk -v N="$1" -v L="$2" -v seed="$3" 'BEGIN { srand(seed)
        for (n = 0; n < N; n++) { k = rand() * L; s = ""
            for (j = 0; j < L; j++) s = s (rand() * L < k ? "1" : "0"); print s } }'
}

# --- DBN strings and diagrams: one batch of each, the same answers ---
random_dbn 400 24 7 > "$T/dbn.txt"
awk "$diagrams"' { printf "%s---\n", diagram($0, 3, 3) }' "$T/dbn.txt" > "$T/diagrams.txt"
$R query -d "$T/d33" --batch --json "$T/dbn.txt" | jq -c 'del(.n, .input)' > "$T/a.json"
$R query -d "$T/d33" --batch --json < "$T/diagrams.txt" | jq -c 'del(.n, .input)' > "$T/b.json"
[ "$(wc -l < "$T/a.json")" -eq 400 ] && cmp -s "$T/a.json" "$T/b.json" && ok ||
    bad "a batch of DBN strings and a batch of the same diagrams differ: $(diff "$T/a.json" "$T/b.json" | head -4)"
# ... and a sample of them asked one at a time, as a diagram on stdin
for n in 1 17 101 233 399; do
    d=$(sed -n "${n}p" "$T/dbn.txt")
    one=$(awk "$diagrams"' { printf "%s", diagram($0, 3, 3) }' <<< "$d" | $R query -d "$T/d33" --json | jq -c .)
    [ "$one" = "$(sed -n "${n}p" "$T/a.json")" ] && ok || bad "position $n ($d): alone $one, in a batch $(sed -n "${n}p" "$T/a.json")"
    [ "$($R query -d "$T/d33" --dbn "$d" --json | jq -c .)" = "$one" ] && ok || bad "--dbn $d differs from its diagram"
done
# every answer: the moves sorted best first, the best ones exactly those
# of the position's value, in that order and flagged
jq -s -e 'all(.[]; . as $o
    | ([$o.moves[].value] == ([$o.moves[].value] | sort | reverse))
    and ([$o.moves[] | select(.value == $o.value) | .line] == $o.best)
    and ($o.moves | all(.best == (.value == $o.value)))
    and ($o.moves | length == 0 or .[0].value == $o.value))' "$T/a.json" > /dev/null &&
    ok || bad "a batch answer breaks the best-first order or the best flags"

# --- move lists: line names and action numbers, the same as the lines drawn ---
awk -v seed=11 'BEGIN { srand(seed)
    for (g = 0; g < 40; g++) {
        for (i = 0; i < 24; i++) p[i] = i
        for (i = 23; i > 0; i--) { j = int(rand() * (i + 1)); t = p[i]; p[i] = p[j]; p[j] = t }
        k = 1 + int(rand() * 23); names = ""; acts = ""; dbn = ""
        for (i = 0; i < 24; i++) d[i] = "0"
        for (i = 0; i < k; i++) {
            l = p[i]; d[l] = "1"
            if (l < 12) nm = "h" int(l / 3) "," (l % 3); else nm = "v" int((l - 12) / 4) "," ((l - 12) % 4)
            names = names (i ? " " : "") nm; acts = acts (i ? ", " : "") l
        }
        for (i = 0; i < 24; i++) dbn = dbn d[i]
        print names "|" acts "|" dbn
    } }' > "$T/games.txt"
while IFS='|' read -r names acts dbn; do
    a=$($R query -d "$T/d33" --moves "$names" --json | jq -c '{value, best, moves}')
    b=$($R query -d "$T/d33" --moves "$acts" --json | jq -c '{value, best, moves}')
    c=$($R query -d "$T/d33" --dbn "$dbn" --json | jq -c '{value, best, moves}')
    [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$c" ] && ok || bad "'$names' / '$acts' / $dbn answer differently"
done < "$T/games.txt"

# who is to move and the score after a move list: drawing the last line of
# a game either takes b boxes and keeps the turn (its value b + V) or takes
# none and passes it (its value -V), as the position before it says
while IFS='|' read -r names acts dbn; do
    before=${names% *}
    last=${names##* }
    [ "$before" = "$names" ] && continue
    $R query -d "$T/d33" --moves "$before" --json > "$T/p.json"
    $R query -d "$T/d33" --moves "$names" --json > "$T/c.json"
    jq -e -n --slurpfile p "$T/p.json" --slurpfile c "$T/c.json" --arg last "$last" '
        $p[0] as $p | $c[0] as $c
        | ([$p.moves[] | select(.line == $last) | .value][0]) as $mv
        | ($c.taken[$p.to_move] - $p.taken[$p.to_move]) as $took
        | if $c.to_move == $p.to_move then $took > 0 and $mv == $took + $c.value
          else $took == 0 and $mv == -$c.value end' > /dev/null &&
        ok || bad "after '$names': the turn or score does not follow from '$before'"
done < <(head -15 "$T/games.txt")

# --- the perfect game: its boxes add up to the value; JSON and text agree ---
for n in 3 50 120 300; do
    d=$(sed -n "${n}p" "$T/dbn.txt")
    $R query -d "$T/d33" --dbn "$d" --pv --json > "$T/pv.json"
    jq -e '(.pv | map(if .player == "A" then .boxes else -.boxes end) | add // 0) == .value
           and (.pv | map(.moves | length) | add // 0) == (.moves | length)' "$T/pv.json" > /dev/null &&
        ok || bad "the perfect game from $d does not add up to its value: $(cat "$T/pv.json")"
    turns=$($R query -d "$T/d33" --dbn "$d" --pv | grep -c '^  [AB]  ')
    [ "$turns" -eq "$(jq '.pv | length' "$T/pv.json")" ] && ok || bad "text and JSON perfect games differ in length for $d"
done
# from the problem, the game ends with the final score query predicts
expect 0 'end: A 5, B 4: A wins by 1' -- $R query -d "$T/pm" data/problems/middle-3x3.txt --pv
expect 0 'B to move loses by 1' -- $R query -d "$T/pm" data/problems/middle-3x3.txt
# with a last-move penalty the perfect game ends as the final scores say
$R build dots --problem data/problems/penalty-3x3.txt --dir "$T/pen" --quiet || bad "build penalty"
want=$($R query -d "$T/pen" data/problems/penalty-3x3.txt --json | jq -r 'if .score_a > 0 then "A wins by \(.score_a)" elif .score_a < 0 then "B wins by \(-.score_a)" else "a draw" end')
expect 0 "^end: .*: $want\$" -- $R query -d "$T/pen" data/problems/penalty-3x3.txt --pv
# a problem's board is shown once, its final scores; --raw adds net future boxes
[ "$($R query -d "$T/pm" data/problems/middle-3x3.txt | grep -c '^+')" -eq 4 ] && ok || bad "a problem query shows one board"
[ "$($R query -d "$T/pm" data/problems/middle-3x3.txt --raw | grep -c '^+')" -eq 8 ] && ok || bad "--raw shows two boards"
# move lists on a problem's database start from the problem, letters and all
json_ok '.to_move == "A" and .taken == {"A":1,"B":2,"unmarked":0}' -- \
    $R query -d "$T/pm" --moves 'h1,1 v2,2' --json

# --- a batch: one answer a line, a bad line reported, the rest answered ---
printf 'h0,0\n\nnonsense\n0 13\n' > "$T/mixed.txt"
out=$($R query -d "$T/d33" --batch --json "$T/mixed.txt")
st=$?
[ "$st" -eq 2 ] && ok || bad "a batch with a bad line: exit $st, want 2"
[ "$(printf '%s\n' "$out" | jq -c '[.n, .error != null]' | tr -d '\n')" = '[1,false][2,true][3,false]' ] &&
    ok || bad "a batch with a bad line: $out"
expect 2 'h0,0: value +3: B to move wins by 3; best:' -- $R query -d "$T/d33" --batch "$T/mixed.txt"
# a line that is not UTF-8 (a lone byte, an overlong form, a surrogate) is
# still answered in valid JSON, the bad bytes as U+FFFD
printf 'h0,0 \377\nh0,0 \300\257\nh0,0 \355\240\200\nh0,0 caf\303\251\n' > "$T/bytes.txt"
out=$($R query -d "$T/d33" --batch --json "$T/bytes.txt")
printf '%s\n' "$out" | iconv -f UTF-8 -t UTF-8 > /dev/null 2>&1 &&
    [ "$(printf '%s\n' "$out" | jq -r '.input[5:]' | tr '\n' ,)" = \
      "$(printf '\357\277\275,\357\277\275\357\277\275,\357\277\275\357\277\275\357\277\275,caf\303\251,')" ] &&
    ok || bad "a batch of lines that are not UTF-8: $out"
expect 2 'reads its positions from FILE' -- $R query -d "$T/d33" --batch --moves h0,0
expect 2 'no diagram' -- sh -c "printf '\n' | $R query -d '$T/d33'"
expect 2 'DBN string of the 3x3 board is 24' -- $R query -d "$T/d33" --dbn 0101
# in a batch too, where a word of 0s and 1s longer than an action number is
# a DBN string of another board, not a move; open_spiel's "[0, 13]" is moves
expect 2 'DBN string of the 3x3 board is 24 characters, not 40' -- \
    sh -c "printf '%040d\n' 0 | $R query -d '$T/d33' --batch"
expect 0 "$($R query -d "$T/d33" --moves '0 13' | tail -1)" -- $R query -d "$T/d33" --moves '[0, 13]'

# --- Cram: dominoes and cells; a table answers every board that fits ---
$R build cram 3x4 --dir "$T/c34" --quiet || bad "build cram 3x4"
for b in 2x3 3x3 4x3 2x4; do
    $R build cram "$b" --dir "$T/c$b" --quiet || bad "build cram $b"
done
for b in 2x3 3x3 4x3 2x4; do
    rows=${b%x*} cols=${b#*x}
    random_dbn 150 $((rows * cols)) 5 > "$T/cells-$b.txt"
    $R query -d "$T/c$b" --batch --json --board "$b" < "$T/cells-$b.txt" 2>/dev/null | jq -c 'del(.n)' > "$T/own.json"
    # the 3x4 table, asked with --board for the 0/1 strings
    while read -r cells; do
        $R query -d "$T/c34" --board "$b" --cells "$cells" --json
    done < <(head -40 "$T/cells-$b.txt") | jq -c . > "$T/big.json"
    head -40 "$T/own.json" | jq -c 'del(.input)' > "$T/own40.json"
    [ -s "$T/big.json" ] && cmp -s "$T/own40.json" "$T/big.json" && ok ||
        bad "cram $b: the 3x4 table and the $b table disagree: $(diff "$T/own40.json" "$T/big.json" | head -3)"
done
# a diagram of a smaller board needs no --board
expect 0 'nimber' -- sh -c "printf '...\n...\n' | $R query -d '$T/c34'"
[ "$(printf '...\n...\n...\n' | $R query -d "$T/c34" --json | jq -c .)" = \
  "$(printf '...\n...\n...\n' | $R query -d "$T/c3x3" --json | jq -c .)" ] && ok || bad "3x3 on the 3x4 table"
expect 2 'fit' -- sh -c "printf '.....\n.....\n' | $R query -d '$T/c34'"
# dominoes played in order = the cells they cover = the diagram
a=$($R query -d "$T/c34" --moves '0,0-0,1 (1,1)-(2,1)' --json | jq -c .)
b=$($R query -d "$T/c34" --cells '0,0 0,1 1,1 2,1' --json | jq -c .)
c=$(printf '##..\n.#..\n.#..\n' | $R query -d "$T/c34" --json | jq -c .)
[ "$a" = "$b" ] && [ "$a" = "$c" ] && ok || bad "cram move list, cells and diagram differ: $a / $b / $c"
expect 2 'not side by side' -- $R query -d "$T/c34" --moves '0,0-1,1'
expect 2 'is no domino' -- $R query -d "$T/c34" --moves "0,0-0,$(printf '0%.0s' $(seq 60))1"
expect 2 'at most 64' -- $R query -d "$T/c34" --board 9x9 --cells '8,8'
expect 2 'covered already' -- $R query -d "$T/c34" --moves '0,0-0,1 0,1-0,2'
# the perfect game: the player with a nimber > 0 makes the last move
for cells in 000000000000 110000000000 100001000010; do
    $R query -d "$T/c34" --cells "$cells" --pv --json > "$T/cpv.json"
    jq -e '(.pv | length) % 2 == (if .nimber > 0 then 1 else 0 end)
           and (.pv | all(.nimber >= 0))' "$T/cpv.json" > /dev/null && ok || bad "cram perfect game from $cells: $(cat "$T/cpv.json")"
done

echo "query forms: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
