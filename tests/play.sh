#!/bin/bash
# play.sh — `retrodb play` driven from a pipe, as a script plays a game:
# moves, undo, redo, reset, best moves, the perfect game and saving, for
# Dots-and-Boxes and Cram; every value shown must be the one query gives.
set -u
RETRODB=${RETRODB:-bin/retrodb}
R=$RETRODB
T=$(mktemp -d "${TMPDIR:-/tmp}/retrodb-play.XXXXXX")
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"

$R build dots 3x3 --dir "$T/d33" --quiet || bad "build 3x3"
$R build cram 3x4 --dir "$T/c34" --quiet || bad "build cram 3x4"

# the answer after the command numbered N (0: the first board) of a transcript
after() { awk -v n="$1" '/^play> /{k++} k==n' "$2"; }

# --- Dots-and-Boxes ---
printf '%s\n' h0,0 v0,1 undo redo best '<' '!' h1,1 13 pv \
    "save moves $T/m.txt" "save diagram $T/d.txt" "save problem $T/p.txt" nonsense quit h2,2 \
    | $R play --dir "$T/d33" > "$T/game.txt" 2>&1
st=$?
[ "$st" -eq 0 ] && ok || bad "play exit $st: $(tail -3 "$T/game.txt")"
# the opening board, then after h0,0 B is to move and wins by 3 (3x3 is -3)
after 0 "$T/game.txt" | grep -q '^A to move loses by 3$' && ok || bad "first board: $(after 0 "$T/game.txt")"
after 1 "$T/game.txt" | grep -q '^B to move wins by 3$' && ok || bad "after h0,0: $(after 1 "$T/game.txt")"
# every board play shows says what query says of the same moves
for k in 1 2 3 4 5; do
    moves=$(after "$k" "$T/game.txt" | sed -n 's/^moves played: //p')
    want=$($R query -d "$T/d33" --moves "$moves" | grep 'to move.*by\|draws')
    got=$(after "$k" "$T/game.txt" | grep 'to move.*by\|draws')
    [ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "command $k ('$moves'): play says '$got', query '$want'"
done
# undo takes v0,1 back, redo plays it again, reset goes back to the start
[ "$(after 3 "$T/game.txt" | sed -n 's/^moves played: //p')" = "h0,0" ] && ok || bad "undo"
[ "$(after 4 "$T/game.txt" | sed -n 's/^moves played: //p')" = "h0,0 v0,1" ] && ok || bad "redo"
after 7 "$T/game.txt" | grep -q 'moves played' && bad "reset kept moves" || ok
after 7 "$T/game.txt" | grep -q '^A to move loses by 3$' && ok || bad "reset: $(after 7 "$T/game.txt")"
# 'best' plays a move of the value shown before it
best=$(after 5 "$T/game.txt" | sed -n 's/^moves played: h0,0 v0,1 //p')
after 4 "$T/game.txt" | grep -q "^best moves\?:.* $best\b\|^best moves: all" && ok || bad "best played $best, not a best move"
# 13 is open_spiel's action for v0,1; the perfect game ends as the value says
[ "$(after 9 "$T/game.txt" | sed -n 's/^moves played: //p')" = "h1,1 v0,1" ] && ok || bad "action 13"
v=$($R query -d "$T/d33" --moves 'h1,1 v0,1' --json | jq .value)
who=$($R query -d "$T/d33" --moves 'h1,1 v0,1' --json | jq -r .to_move)
end=$(after 10 "$T/game.txt" | grep '^end: ')
a=$(printf '%s' "$end" | sed 's/^end: A \([0-9]*\), B \([0-9]*\).*/\1/')
b=$(printf '%s' "$end" | sed 's/^end: A \([0-9]*\), B \([0-9]*\).*/\2/')
[ "$who" = A ] && net=$((a - b)) || net=$((b - a))
[ -n "$end" ] && [ "$net" -eq "$v" ] && ok || bad "perfect game '$end' for $who, value $v"
# what was saved reads back as the same position
[ "$(cat "$T/m.txt")" = "h1,1 v0,1" ] && ok || bad "saved moves: $(cat "$T/m.txt")"
[ "$($R query -d "$T/d33" "$T/d.txt" --json | jq -c '{value, best, to_move}')" = \
  "$($R query -d "$T/d33" --moves 'h1,1 v0,1' --json | jq -c '{value, best, to_move}')" ] && ok || bad "saved diagram"
[ "$($R query -d "$T/d33" "$T/p.txt" --json | jq -c '{value, best}')" = \
  "$($R query -d "$T/d33" --moves 'h1,1 v0,1' --json | jq -c '{value, best}')" ] && ok || bad "saved problem"
# a wrong command is answered, not fatal; quit stops before h2,2
grep -q "'nonsense' is neither a line name" "$T/game.txt" && ok || bad "a wrong command"
grep -q 'play> h2,2' "$T/game.txt" && bad "quit did not stop" || ok

# play's picture is query's picture of the same position
printf 'h1,1\nv0,1\nsvg %s\n' "$T/play.svg" | $R play --dir "$T/d33" > /dev/null
$R query -d "$T/d33" --moves 'h1,1 v0,1' --svg "$T/query.svg" > /dev/null
[ -s "$T/play.svg" ] && cmp -s "$T/play.svg" "$T/query.svg" && ok || bad "play's svg differs from query's"

# beginning from a position, and bad beginnings
printf 'show\n' | $R play --dir "$T/d33" --moves 'h0,0 h0,1' > "$T/g2.txt"
grep -q '^A to move' "$T/g2.txt" && ok || bad "--moves: $(cat "$T/g2.txt")"
printf 'undo\n' | $R play --dir "$T/d33" --dbn 100000000000010000000000 > "$T/g3.txt"
grep -q 'nothing to undo' "$T/g3.txt" && ok || bad "--dbn begins with nothing to undo"
printf 'save moves %s\n' "$T/x.txt" | $R play --dir "$T/d33" --dbn 100000000000010000000000 | grep -q 'save diagram' && ok || bad "save moves without a move list"
expect 2 'begin one way' -- $R play --dir "$T/d33" --moves h0,0 --dbn 100000000000010000000000
expect 2 'drawn already' -- $R play --dir "$T/d33" --moves 'h0,0 h0,0'
# a line the player drew, drawn again: not blamed on the database's start
out=$(printf 'h0,0\nh0,0\nquit\n' | $R play --dir "$T/d33" 2>&1)
printf '%s' "$out" | grep -q 'drawn already' && ! printf '%s' "$out" | grep -q "database's start" && ok ||
    bad "play: a line drawn twice: $(printf '%s' "$out" | grep drawn)"
expect 1 'no database\|not a retrodb database\|No such' -- $R play --dir "$T/nothing"
# a beginning the database cannot answer stops play at once
printf '+ + +\n\n+ + +\n' > "$T/small.txt"
expect 2 'is a 1x2 board' -- sh -c "printf 'h0,0\nquit\n' | $R play --dir '$T/d33' --position '$T/small.txt'"

# --- Cram ---
printf '%s\n' 0,0-0,1 best undo '!' '*' pv "save moves $T/cm.txt" quit | $R play --dir "$T/c34" > "$T/cram.txt" 2>&1
[ $? -eq 0 ] && ok || bad "cram play: $(tail -3 "$T/cram.txt")"
after 0 "$T/cram.txt" | grep -q '^nimber 1: the player to move wins' && ok || bad "cram 3x4: $(after 0 "$T/cram.txt")"
want=$($R query -d "$T/c34" --moves 0,0-0,1 | grep '^nimber')
[ "$(after 1 "$T/cram.txt" | grep '^nimber')" = "$want" ] && ok || bad "cram after 0,0-0,1"
# after a move list, B is to move
printf 'quit\n' | $R play --dir "$T/c34" --moves 0,0-0,1 | head -1 | grep -q '^(B to move)$' && ok || bad "cram play --moves: who is to move"
# after a reset, best from the empty board is a winning move: the nimber
# after it is 0
[ "$(after 4 "$T/cram.txt" | grep -c 'moves played')" -eq 0 ] && ok || bad "cram reset"
after 5 "$T/cram.txt" | grep -q '^nimber 0' && ok || bad "cram best: $(after 5 "$T/cram.txt")"
# from there the player to move, A of the perfect game, loses
after 6 "$T/cram.txt" | grep -q 'A cannot move: B wins' && ok || bad "cram perfect game from a loss: $(after 6 "$T/cram.txt")"
[ "$(cat "$T/cm.txt")" = "$(after 5 "$T/cram.txt" | sed -n 's/^moves played: //p')" ] && ok || bad "cram saved moves: $(cat "$T/cm.txt")"

echo "play: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
