#!/bin/bash
# Command-line tests of what surrounds the engine: every subcommand's
# --help and usage errors, --version, the JSON of every command (parsed
# with jq), build --plan and refused builds (the folder left as found),
# and the start position's value in build, info and status.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
T=$(mktemp -d /tmp/retrodb-help.XXXXXX)
trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/cli_lib.sh"
R=$RETRODB

# --- help: every subcommand, three ways; exit 0, the usage on stdout ---
for cmd in "build dots" "build cram" query info status verify export "solve dots" "solve cram"; do
    # shellcheck disable=SC2086
    for form in "$cmd --help" "$cmd -h" "help $cmd"; do
        out=$($R $form 2>/dev/null)
        rc=$?
        if [ $rc -ne 0 ] || ! printf '%s' "$out" | grep -q "^usage: retrodb $cmd" ||
            ! printf '%s' "$out" | grep -q -- '-h, --help'; then
            bad "retrodb $form -> exit $rc: $out"
        else
            ok
        fi
    done
    # an unknown option names itself, shows the usage, exits 2
    # shellcheck disable=SC2086
    expect 2 "unknown option '--no-such-option'" -- $R $cmd --no-such-option
    # shellcheck disable=SC2086
    expect 2 "usage: retrodb $cmd" -- $R $cmd --no-such-option
    # shellcheck disable=SC2086
    expect 2 "unknown option '-Z'" -- $R $cmd -Z
done
expect 0 'usage: retrodb build dots' -- $R build --help
[ "$($R build --help | grep -B1 '^usage: retrodb build cram' | head -1)" = "" ] && ok ||
    bad "build --help: the two games' usage run together"
expect 0 'usage: retrodb solve cram' -- $R solve --help
expect 0 'commands:' -- $R --help
expect 0 'commands:' -- $R -h
expect 0 'commands:' -- $R help
expect 2 'commands:' -- $R
expect 2 "unknown command 'frobnicate'" -- $R frobnicate
expect 2 "unknown game 'chess'" -- $R build chess 3x3
expect 2 "which game" -- $R solve
expect 2 "needs a value" -- $R build dots 2x2 --memory
expect 2 "needs a value" -- $R query -d
expect 2 "unexpected argument 'extra'" -- $R build dots 2x2 extra
expect 2 "unexpected argument 'extra'" -- $R info --dir "$T" extra
version=$(sed -n 's/#define RETRODB_VERSION "\(.*\)"/\1/p' include/retrodb/version.h)
expect 0 "^retrodb $version\$" -- $R --version
expect 0 "^retrodb $version\$" -- $R -V

# --- build --plan: the figures, and nothing written ---
expect 0 'layout      2 groups, 692,388 positions' -- $R build dots 3x3 --plan --dir "$T/plan"
[ ! -e "$T/plan" ] && ok || bad "build --plan created its folder"
json_ok '.positions == 692388 and .resumes == false and .memory_mb >= 1 and .peak_disk_bytes > 0' \
    -- $R build dots 3x3 --plan --json --dir "$T/plan"
json_ok '.game == "cram" and .positions > 0' -- $R build cram 3x4 --plan --json --dir "$T/plan"
# the free space where the folder would go, and what a build there holds
expect 0 'free there: it fits$' -- $R build dots 3x3 --plan --dir "$T/plan/not/yet"
json_ok '.free_disk_bytes > 0 and .held_disk_bytes == 0' -- $R build dots 3x3 --plan --json --dir "$T/plan"
$R build dots 2x2 --dir "$T/held" --quiet > /dev/null || bad "build 2x2"
json_ok '.resumes and .held_disk_bytes > 0' -- $R build dots 2x2 --plan --json --dir "$T/held"
[ ! -e "$T/plan" ] && ok || bad "build --plan --json created its folder"
# a build that cannot fit its disk (4x5's full database: 11.8 TB) is
# refused before it starts, saying by how much and what would fit; --plan
# says so; --disk allows what it says (and refuses beyond)
expect 2 "GB short) (--keep-lines K keeps fewer levels; --store quiet" -- $R build dots 4x5 --dir "$T/big"
[ ! -e "$T/big" ] && ok || bad "a build refused for its disk created its folder"
expect 0 "the build refuses to start" -- $R build dots 4x5 --plan --dir "$T/big"
expect 2 "--disk is 100.0 GB" -- $R build dots 4x5 --disk 100 --dir "$T/big"

# --- refused builds leave the folder as they found it ---
# a budget no split of 4x4 fits: exit 2, the budget that would do, no folder
expect 2 'raise --memory to [0-9]' -- $R build dots 4x4 --memory 1 --dir "$T/small"
[ ! -e "$T/small" ] && ok || bad "a build refused for --memory left $(ls -A "$T/small")"
# the figure it names is enough
need=$($R build dots 4x4 --memory 1 --dir "$T/small" 2>&1 | sed -n 's/.*raise --memory to \([0-9]*\).*/\1/p')
json_ok '.memory_mb >= 1' -- $R build dots 4x4 --memory "$need" --plan --json --dir "$T/small"
# a folder holding another board's build: refused, untouched
$R build dots 2x2 --dir "$T/d22" --quiet > /dev/null || bad "build 2x2"
before=$(cd "$T/d22" && ls -lR --time-style=+%s.%N | md5sum)
expect 2 'other parameters' -- $R build dots 2x3 --dir "$T/d22" --quiet
after=$(cd "$T/d22" && ls -lR --time-style=+%s.%N | md5sum)
[ "$before" = "$after" ] && ok || bad "a refused build changed the folder"
# the disk budget
expect 2 'of disk at its peak' -- $R build dots 3x3 --disk 0.0001 --dir "$T/disk"
[ ! -e "$T/disk" ] && ok || bad "a build refused for --disk left its folder"

# --- the start position's value, in every report (2x2 is +2, 3x3 is -3: Wilson) ---
expect 0 '2x2 dots: value +2: the first player wins by 2' -- \
    $R build dots 2x2 --dir "$T/d22" --quiet
json_ok '.value == -3 and .game == "dots" and .rows == 3' -- $R build dots 3x3 --dir "$T/d33" --quiet --json
expect 0 'value       -3: the first player loses by 3' -- $R info --dir "$T/d33"
expect 0 'value       -3: the first player' -- $R status --dir "$T/d33"
expect 0 'nimber 0: the first player loses' -- $R build cram 2x2 --dir "$T/c22" --quiet
expect 0 'nimber 0: the first player loses' -- $R info --dir "$T/c22"

# --- JSON of info, status and verify ---
json_ok '.value == -3 and .penalty == 0 and .loony == false and (.levels | length) == 25 and .levels[0].level == 24' \
    -- $R info --dir "$T/d33" --json
json_ok '.complete == true and .levels_done == 25 and .builder_pid == null and .value == -3' \
    -- $R status --dir "$T/d33" --json
json_ok '.ok == true and .files > 0 and .bad_files == 0 and .full == true and .recomputed == 692388' \
    -- $R verify --dir "$T/d33" --full --json
# status's time left at the rate of the last slices too (a build resumed
# with a newer program, or moved to a quieter machine, runs at another rate
# than all its slices did): levels 24..10 done, level 10's nine slices
# 3 s each and every other slice 1 s, so the last slices' rate is slower
mkdir -p "$T/d33part"
cp -r "$T/d33/." "$T/d33part/"
awk '$1 == "slice" && $2 < 10 { next } $1 == "slice" { $7 = ($2 == 10 ? "3.000" : "1.000") } { print }' \
    "$T/d33/MANIFEST" > "$T/d33part/MANIFEST"
json_ok '.complete == false and .recent_slices == 9 and .seconds_left > 0 and .seconds_left_recent > .seconds_left' \
    -- $R status --dir "$T/d33part" --json
expect 0 "left at the last 9 slices' " -- $R status --dir "$T/d33part"
json_ok '.seconds_left_recent == null and .recent_slices == 0' -- $R status --dir "$T/d33" --json
json_ok '.nimber == 0 and .game == "cram"' -- $R info --dir "$T/c22" --json
# a folder name that needs escaping stays valid JSON
mkdir -p "$T/we\"ird"
$R build dots 1x1 --dir "$T/we\"ird/db" --quiet > /dev/null || bad "build in a folder with a quote"
json_ok '.dir | endswith("we\"ird/db")' -- $R status --dir "$T/we\"ird/db" --json
# verify --json of a damaged database: ok false, exit 1, findings on stderr
cp -r "$T/d33" "$T/bad33"
victim=$(find "$T/bad33" -name '*.zst' | sort | sed -n 5p)
printf 'x' | dd of="$victim" bs=1 seek=40 conv=notrunc 2> /dev/null
out=$($R verify --dir "$T/bad33" --json 2> "$T/verify.err")
rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | jq -e '.ok == false and .bad_files == 1' > /dev/null &&
    grep -q 'bad:' "$T/verify.err" && ok || bad "verify --json of a damaged database: exit $rc, $out"
expect 1 'running the same build command again' -- $R verify --dir "$T/bad33"
# query and the solvers
json_ok '.value == -3' -- sh -c "printf '+ + + +\n\n+ + + +\n\n+ + + +\n\n+ + + +\n' | '$R' query -d '$T/d33' -j"
json_ok '.nimber == 2' -- $R solve cram 4x5 --quiet --json --tt-mb 16
json_ok '.value == 2' -- $R solve dots 2x2 --quiet --json --tt-mb 16

# --- messages in the words of a build: levels, progress, what to run ---
empty33='+ + + +\n\n+ + + +\n\n+ + + +\n\n+ + + +\n'
cp -r "$T/d33" "$T/unfinished"
grep -v '^slice 0 ' "$T/unfinished/MANIFEST" > "$T/m" && cat "$T/m" > "$T/unfinished/MANIFEST"
rm -f "$T/unfinished/0/"*.zst
expect 1 'level 0 (0 lines drawn beyond the start) .* is not built yet: the build is 100% done; run the same build command' -- \
    sh -c "printf '$empty33' | '$R' query -d '$T/unfinished'"
cp -r "$T/d33" "$T/lost"
rm -f "$T/lost/0/"*.zst
expect 1 'a file of level 0 of the finished database .* running the same build command again redoes it' -- \
    sh -c "printf '$empty33' | '$R' query -d '$T/lost'"
cp -r "$T/d33" "$T/dmg"
printf 'xxxx' | dd of="$T/dmg/0/0.zst" bs=1 seek=60 conv=notrunc 2> /dev/null
expect 1 'running the same build command again redoes it' -- \
    sh -c "printf '$empty33' | '$R' query -d '$T/dmg'"

# --- query --moves: the same answer as the diagram of the same position ---
diagram='+-+ + +
    |
+ + + +

+ + + +

+ + + +'
# (the move list says who is to move and the score too, the diagram does not)
want=$(printf '%s\n' "$diagram" | $R query -d "$T/d33" --json | jq -c '{value, best, moves}')
got=$($R query -d "$T/d33" --moves 'v0,2  h0,0' --json | jq -c '{value, best, moves}')
[ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "query --moves gave $got, the diagram $want"
got=$($R query -d "$T/d33" --moves '' --json | jq -c .value)
[ "$got" = -3 ] && ok || bad "query --moves '' (the start) gave $got, want -3"
expect 2 'move 2, h0,0: the line is drawn already' -- $R query -d "$T/d33" --moves 'h0,0 h0,0'
expect 2 "'x9' is neither a line name" -- $R query -d "$T/d33" --moves 'x9'
expect 2 'one way' -- $R query -d "$T/d33" --moves 'h0,0' "$T/some-file"
expect 2 'a domino is two cells of the 2x2 board' -- $R query -d "$T/c22" --moves 'h0,0'
$R build dots 2x2 --variant swedish --dir "$T/s22" --quiet > /dev/null || bad "build swedish 2x2"
expect 2 'h0,0: the line is drawn already (in the database.s start)' -- $R query -d "$T/s22" --moves 'h0,0'
json_ok '.moves | length == 3' -- $R query -d "$T/s22" --moves 'v0,1' --json

# --- OpenMP threads wait passively unless the user chose a policy ---
# (a command that may run several threads restarts for it; the version and
# a search on one thread need no threads and do not)
spin=$(OMP_DISPLAY_ENV=verbose $R info -d "$T/d33" 2>&1 | sed -n "s/.*GOMP_SPINCOUNT = '\([0-9]*\)'.*/\1/p" | tail -1)
[ "$spin" = 0 ] && ok || bad "OMP_WAIT_POLICY not made passive: spin count '$spin'"
spin=$(OMP_DISPLAY_ENV=verbose $R solve cram 3x4 --threads 2 2>&1 | sed -n "s/.*GOMP_SPINCOUNT = '\([0-9]*\)'.*/\1/p" | tail -1)
[ "$spin" = 0 ] && ok || bad "solve --threads 2: OMP_WAIT_POLICY not made passive: spin count '$spin'"
spin=$(OMP_WAIT_POLICY=active OMP_DISPLAY_ENV=verbose $R --version 2>&1 | sed -n "s/.*GOMP_SPINCOUNT = '\([0-9]*\)'.*/\1/p" | tail -1)
[ "$spin" != 0 ] && [ -n "$spin" ] && ok || bad "the user's OMP_WAIT_POLICY=active was overridden: spin count '$spin'"

# --- human output ---
expect 0 'positions   692,388 of 692,388 done' -- $R status --dir "$T/d33"
expect 0 'level 0: 1 slice, 1 position' -- $R build dots 2x2 --dir "$T/d22b"

# --memory beyond what the machine has free: --plan and the build say so
expect 0 "more than the 100 MB this machine has free" -- env RDB_MEMORY_AVAILABLE_MB=100 $R build dots 2x2 --memory 200 --plan --dir "$T/mem"
expect 0 "warning: --memory 200 MB is more" -- env RDB_MEMORY_AVAILABLE_MB=100 $R build dots 2x2 --memory 200 --dir "$T/mem"
out=$(env RDB_MEMORY_AVAILABLE_MB=1000 $R build dots 2x2 --memory 200 --plan --dir "$T/mem2")
printf '%s' "$out" | grep -q "more than" && bad "--plan warned of memory the machine has" || ok

# query at a terminal with no position says what it waits for
said=$(python3 - "$R" "$T/d33" <<'PY'
import os, pty, select, signal, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "query", "--dir", sys.argv[2]])
out, deadline = b"", time.time() + 20
while time.time() < deadline and b"Ctrl-D" not in out:
    if select.select([fd], [], [], 0.5)[0]:
        try:
            out += os.read(fd, 4096)
        except OSError:
            break
os.kill(pid, signal.SIGTERM)
os.waitpid(pid, 0)
print("said" if b"reading a position from the terminal" in out else out.decode(errors="replace"))
PY
)
[ "$said" = said ] && ok || bad "query at a terminal: $said"

# a Cram diagram given to a Dots-and-Boxes database is named as such
printf '...\n.#.\n' > "$T/cram.txt"
expect 2 "this is a Cram diagram" -- $R query --dir "$T/d33" "$T/cram.txt"

# the command list gives each command's first clause whole, never a line
# cut short with "..."
$R --help | sed -n '/^commands:/,/^$/p' | grep -q '\.\.\.$' && bad "retrodb --help cuts a description short" || ok

# a mistyped command: the nearest one suggested (none when far off)
expect 2 "unknown command 'qeury'; did you mean 'query'?" -- $R qeury
expect 2 "unknown command 'bulid'; did you mean 'build'?" -- $R bulid
out=$($R xyzzy 2>&1)
printf '%s' "$out" | grep -q "did you mean" && bad "xyzzy: a suggestion for a word far from every command" || ok
# solve's statistics with separators, as build's
expect 0 "9,224 nodes" -- $R solve dots 2x3

# a running build is named after its program in ps and pgrep (it starts
# itself again to sleep its waiting threads: by its path, not
# /proc/self/exe, which would name it "exe")
$R build dots 3x4 --store quiet --dir "$T/named" --quiet --threads 1 > /dev/null &
pid=$!
sleep 1
name=$(ps -o comm= -p "$pid")
kill "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
want=$(basename "$R")
[ "$name" = "${want:0:15}" ] && ok || bad "a running build is named '$name' in ps, not '$want'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
