# cli_lib.sh — what the command-line test scripts share (sourced, not run):
# pass/fail counting, `expect`, `json_ok`, and the positions two databases are compared
# on (`positions`, `same_answers`). The sourcing script sets RETRODB and T.
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# A check that names a command or function that does not exist fails,
# instead of printing "command not found" and counting nothing.
command_not_found_handle() {
    bad "no such command: $1"
    return 127
}

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

# json_ok FILTER -- command...: the command's stdout is one JSON object
# for which the jq FILTER is true
json_ok() {
    local filter=$1
    shift 2
    local out
    out=$("$@" 2>/dev/null)
    if [ "$(printf '%s\n' "$out" | wc -l)" -ne 1 ]; then
        bad "$* -> not one line: $out"
    elif printf '%s' "$out" | jq -e "$filter" > /dev/null 2>&1; then
        ok
    else
        bad "$* -> JSON fails '$filter': $out"
    fi
}

# positions LINES START_HEX COUNT: DBN strings holding the start, every one
# (COUNT 0) or COUNT random ones of every level
positions() {
    python3 - "$@" <<'PY'
import random, sys
lines, start, count = int(sys.argv[1]), int(sys.argv[2], 16), int(sys.argv[3])
open_ = [l for l in range(lines) if not start >> l & 1]
def dbn(p):
    return ''.join('1' if p >> l & 1 else '0' for l in range(lines))
if count == 0:
    for m in range(1 << len(open_)):
        p = start
        for i, l in enumerate(open_):
            if m >> i & 1:
                p |= 1 << l
        print(dbn(p))
else:
    rng = random.Random(lines * 1000 + count)
    for _ in range(count):
        k = rng.randint(0, len(open_))
        p = start
        for l in rng.sample(open_, k):
            p |= 1 << l
        print(dbn(p))
PY
}

# same_answers NAME FULL OTHER LINES START COUNT: every answer of `query
# --batch --json` of the database in OTHER equals the one in FULL, on the
# positions `positions LINES START COUNT` gives
same_answers() {
    positions "$4" "$5" "$6" > "$T/pos"
    "$RETRODB" query --dir "$2" --batch --json "$T/pos" > "$T/full.json" 2>&1
    "$RETRODB" query --dir "$3" --batch --json "$T/pos" > "$T/other.json" 2>&1
    n=$(wc -l < "$T/pos")
    if [ "$n" -gt 0 ] && [ "$(wc -l < "$T/full.json")" -eq "$n" ] && cmp -s "$T/full.json" "$T/other.json"; then
        ok
    else
        bad "$1: the database answers differently ($(diff "$T/full.json" "$T/other.json" | head -3))"
    fi
}

# full_and STORE NAME ARGS...: a board's full database ($T/NAME-full) and
# the one that stores STORE ($T/NAME), for same_answers
full_and() {
    local store=$1 name=$2
    shift 2
    "$RETRODB" build dots "$@" --dir "$T/$name-full" --quiet || bad "$name: full build"
    "$RETRODB" build dots "$@" --store "$store" --dir "$T/$name" --quiet || bad "$name: $store build"
}

# same_boards STORE: the database that stores STORE answers as the full one
# on every position of Swedish 3x3 and on random positions of 3x3,
# Icelandic 3x3, 3x4 and a 2x5 with a penalty of 2 (built in $T/s33, 33,
# i33, 34 and p25, each beside its -full)
same_boards() {
    local store=$1
    full_and "$store" s33 3x3 --variant swedish
    same_answers "Swedish 3x3, every position" "$T/s33-full" "$T/s33" 24 "$(printf '%x' $(( (1<<3)-1 | ((1<<3)-1)<<9 | 1<<12 | 1<<15 | 1<<16 | 1<<19 | 1<<20 | 1<<23 )))" 0
    full_and "$store" 33 3x3
    same_answers "3x3, random positions" "$T/33-full" "$T/33" 24 0 4000
    full_and "$store" i33 3x3 --variant icelandic
    same_answers "Icelandic 3x3, random positions" "$T/i33-full" "$T/i33" 24 \
        "$(printf '%x' $(( ((1<<3)-1)<<9 | 1<<12 | 1<<16 | 1<<20 )))" 4000
    full_and "$store" 34 3x4
    same_answers "3x4, random positions" "$T/34-full" "$T/34" 31 0 4000
    printf -- '-2\nA\n+ + + + + +\n\n+ + + + + +\n\n+ + + + + +\n' > "$T/p25.txt"
    "$RETRODB" build dots --problem "$T/p25.txt" --dir "$T/p25-full" --quiet || bad "2x5 penalty: full build"
    "$RETRODB" build dots --problem "$T/p25.txt" --store "$store" --dir "$T/p25" --quiet ||
        bad "2x5 penalty: $store build"
    same_answers "2x5 with a penalty of 2, random positions" "$T/p25-full" "$T/p25" 27 0 3000
}
