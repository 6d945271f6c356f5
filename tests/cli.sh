#!/bin/bash
# Command-line tests of bin/retrodb: exit codes and messages for bad input
# and damaged databases, JSON shape, and values checked against published
# results. Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# expect STATUS PATTERN -- command...: exit status and a stderr/stdout match
expect() {
    want=$1 pattern=$2
    shift 3
    out=$("$@" 2>&1)
    got=$?
    if [ "$got" -ne "$want" ]; then
        bad "$* -> exit $got, want $want: $out"
    elif [ -n "$pattern" ] && ! printf '%s' "$out" | grep -q -- "$pattern"; then
        bad "$* -> output lacks '$pattern': $out"
    else
        ok
    fi
}

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
printf '%s' "$json" | grep -q '^{"game":"dots","rows":2,"cols":2,"value":-\?[0-9]*,"moves":\[{"line":"h0,1","value":-\?[0-9]*}' && ok || bad "json shape: $json"
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
expect 1 'no slice file' -- sh -c "printf '%s\n' '$empty22' | '$RETRODB' query --dir '$T/gone'"
for level in 0 1; do
    cp -r "$T/d33" "$T/flip$level"
    for f in $(find "$T/flip$level/$level" -name '*.zst'); do
        size=$(wc -c < "$f")
        printf 'Z' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
    done
    expect 1 'damaged' -- sh -c "printf '+ + + +\n\n+ + + +\n\n+ + + +\n\n+ + + +\n' | '$RETRODB' query --dir '$T/flip$level'"
done

# the values of the databases the tests build match the recorded checksums
RETRODB="$RETRODB" bash "$(dirname "$0")/../scripts/checksums.sh" && ok || bad "checksums differ from data/checksums"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
