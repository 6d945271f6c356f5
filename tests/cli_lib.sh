# cli_lib.sh — what the command-line test scripts share (sourced, not run):
# pass/fail counting and `expect`. The sourcing script sets RETRODB and T.
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
