#!/bin/bash
# Tests of scripts/long-build.sh, the supervisor of long builds: a bad
# option stops it at once (exit 2, one run, the error in its log); a small
# build finishes with the builder's progress lines and "finished"; a build
# killed with SIGKILL is restarted, the log says how far it had got, and it
# ends with the values of an uninterrupted build; a crash loop, a stopped
# build and a too-small --memory are not retried; a quiet log gets status
# lines; the database folder is found without --dir.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-long-build.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"

ROOT=$(cd "$(dirname "$0")/.." && pwd)
LB=$ROOT/scripts/long-build.sh
R=$(cd "$(dirname "$RETRODB")" && pwd)/$(basename "$RETRODB")
export RETRODB=$R RESTART_DELAY=0.1
# has LOG a line matching PATTERN? (what: the test's name)
logged() { grep -q -- "$2" "$1" && ok || { bad "$3: no '$2' in $1:"; sed 's/^/    /' "$1" >&2; }; }
nlogged() { ! grep -q -- "$2" "$1" && ok || { bad "$3: '$2' in $1:"; sed 's/^/    /' "$1" >&2; }; }
runs() { grep -c '^=== .* run [0-9]* started' "$1"; }

expect 0 'usage: scripts/long-build.sh' -- "$LB" --help
expect 0 'MAX_RESTARTS' -- "$LB" -h
expect 2 'usage:' -- "$LB" "$T/x.log" build dots 2x2

# a bad option: the script itself exits 2 at once, having run the builder once
start=$(date +%s)
expect 2 "unknown .*'--bogus'" -- "$LB" "$T/bad.log" -- build dots 2x2 --bogus --dir "$T/bad"
[ $(($(date +%s) - start)) -lt 3 ] && ok || bad "a bad option took $(($(date +%s) - start)) s to stop"
logged "$T/bad.log" "unknown .*'--bogus'" "bad option"
logged "$T/bad.log" 'not restarting: exit 2' "bad option"
[ "$(runs "$T/bad.log")" -eq 1 ] && ok || bad "bad option: $(runs "$T/bad.log") runs, want 1"

# a small build: the builder's progress lines, the status before it, finished
expect 0 '' -- "$LB" --foreground "$T/ok.log" -- build dots 2x3 --threads 1 --dir "$T/d23"
logged "$T/ok.log" '^level 0: ' "2x3"
logged "$T/ok.log" 'before run 1: no status of' "2x3"
logged "$T/ok.log" '^=== .* finished after 0 restarts' "2x3"
nlogged "$T/ok.log" 'quiet' "2x3"

# a builder silent for longer than QUIET_LOG gets one-line status lines
# (run beside the next test, as it only waits)
printf '#!/bin/sh\n[ "$1" = build ] && { sleep 3; exit 0; }\nexec "%s" "$@"\n' "$R" > "$T/silent"
chmod +x "$T/silent"
RETRODB="$T/silent" QUIET_LOG=1 "$LB" -f "$T/quiet.log" -- build dots 2x3 --dir "$T/d23" &
quiet=$!

# killed: wait for level 20 of 31 in the log, kill -9 the builder (the pid
# its LOCK holds); the supervisor restarts it, logs how far it had got, and
# the finished database has the published checksums
"$LB" --foreground "$T/kill.log" -- build dots 3x4 --threads 1 --dir "$T/d34" &
sup=$!
for _ in $(seq 600); do
    grep -q '^level 20:' "$T/kill.log" 2> /dev/null && break
    sleep 0.05
done
victim=$(cat "$T/d34/LOCK" 2> /dev/null)
if [ -n "$victim" ] && kill -9 "$victim" 2> /dev/null; then ok; else bad "3x4: no builder to kill"; fi
wait "$sup" && ok || bad "3x4: the supervisor failed after the kill"
logged "$T/kill.log" 'run 1 (pid [0-9]*) exited with 137 (killed by SIGKILL)' "kill"
logged "$T/kill.log" 'before run 2: retrodb status' "kill"
logged "$T/kill.log" '^    levels *1[2-9] of 32 done' "kill"
logged "$T/kill.log" '^=== .* finished after 1 restart$' "kill"
[ "$(runs "$T/kill.log")" -eq 2 ] && ok || bad "kill: $(runs "$T/kill.log") runs, want 2"
"$R" verify --dir "$T/d34" > /dev/null && ok || bad "kill: verify fails"
"$R" info --dir "$T/d34" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}' |
    diff -q - "$ROOT/data/checksums/3x4.txt" > /dev/null && ok || bad "kill: checksums differ from data/checksums/3x4.txt"

wait "$quiet" && ok || bad "quiet log: the supervisor failed"
logged "$T/quiet.log" 'run 1 running for 0:00:0[0-9] (pid [0-9]*): levels 18 of 18 done' "quiet log"

# a builder that fails at once twice in a row the same way: a crash loop
printf '#!/bin/sh\necho "retrodb: something broke" >&2\nexit 1\n' > "$T/fail"
chmod +x "$T/fail"
expect 1 '' -- env RETRODB="$T/fail" "$LB" -f "$T/loop.log" -- build dots 2x2 --dir "$T/loop"
logged "$T/loop.log" 'not restarting: runs 1 and 2 both failed with exit 1' "crash loop"
[ "$(runs "$T/loop.log")" -eq 2 ] && ok || bad "crash loop: $(runs "$T/loop.log") runs, want 2"
# failures slower than FAST_FAIL are retried, up to MAX_RESTARTS
expect 1 '' -- env RETRODB="$T/fail" FAST_FAIL=0 MAX_RESTARTS=2 "$LB" -f "$T/slow.log" -- build dots 2x2 --dir "$T/slow"
[ "$(runs "$T/slow.log")" -eq 3 ] && ok || bad "slow failures: $(runs "$T/slow.log") runs, want 3"
logged "$T/slow.log" 'giving up after 2 restarts' "slow failures"
# a build stopped on purpose is not restarted
printf '#!/bin/sh\nexit 143\n' > "$T/stopped"
chmod +x "$T/stopped"
expect 143 '' -- env RETRODB="$T/stopped" "$LB" -f "$T/stop.log" -- build dots 2x2 --dir "$T/stop"
logged "$T/stop.log" 'stopped on purpose' "stopped"
# too little --memory: an error in the command, never retried 100 times
"$LB" -f "$T/mem.log" -- build dots 4x4 --memory 1 --dir "$T/mem" > /dev/null 2>&1
logged "$T/mem.log" 'raise --memory' "--memory 1"
[ "$(runs "$T/mem.log")" -le 2 ] && ok || bad "--memory 1: $(runs "$T/mem.log") runs, want at most 2"


# no --dir: the builder's default folder db/2x2, under the current folder
mkdir "$T/cwd"
(cd "$T/cwd" && "$LB" -f "$T/def.log" -- build dots 2x2 --threads 1 && "$LB" -f "$T/def.log" -- build dots 2x2 --threads 1) ||
    bad "2x2 without --dir"
logged "$T/def.log" 'before run 1: retrodb status --dir db/2x2' "no --dir"
logged "$T/def.log" '^    levels *13 of 13 done' "no --dir"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
