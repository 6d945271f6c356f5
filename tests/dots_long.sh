#!/bin/bash
# dots_long.sh — the Dots-and-Boxes search against the databases and the
# published values on boards too big for `make check` (make check-long;
# about 15 minutes on 2 cores): the variants' databases are built and
# their start values held against `solve dots`, then the empty 3x5 and 4x4
# boards are solved and held against Wilson's values.
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-dots-long.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
value_of() { sed -n 's/^{"game":"dots","rows":[0-9]*,"cols":[0-9]*,"value":\([-0-9]*\),.*/\1/p'; }

# variants: the database's start value against the search's
for spec in "3x4 swedish" "3x5 swedish" "4x4 swedish" "3x4 icelandic" "3x5 icelandic"; do
    set -- $spec
    "$RETRODB" build dots "$1" --variant "$2" --dir "$T/$1-$2" --quiet || { bad "build $spec"; continue; }
    start=$("$RETRODB" solve dots "$1" --variant "$2" --value-only --json --quiet | value_of)
    db=$("$RETRODB" query --dir "$T/$1-$2" --json < <("$RETRODB" solve dots "$1" --variant "$2" \
        --value-only --quiet | sed '/^value/,$d') | value_of)
    [ -n "$start" ] && [ "$start" = "$db" ] && ok || bad "$spec: search $start, database $db"
    echo "$spec: search $start, database $db"
    rm -rf "${T:?}/$1-$2"
done

# empty boards: published values (data/known-values.md)
for spec in "3x5 -1" "4x4 0"; do
    set -- $spec
    got=$("$RETRODB" solve dots "$1" --value-only --json --quiet --tt-mb 6000 | value_of)
    [ "$got" = "$2" ] && ok || bad "empty $1: search $got, published $2"
    echo "empty $1: search $got, published $2"
done

echo "dots long: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
