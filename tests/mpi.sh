#!/bin/bash
# Tests of bin/retrodb-mpi, a build shared among MPI ranks on one machine
# (--oversubscribe: more ranks than cores is fine for correctness): with 2
# and 3 ranks, 3x4, Icelandic 3x3 and the Cram 4x5 table end with the
# checksums of data/checksums/ and the very files of `retrodb build`; a
# job's database damaged and found by verify is repaired by the next job;
# a quiet database in slices built by 2 and 3 ranks as by one process;
# options reach every rank; damaged files are redone; a job killed at random moments (SIGKILL to one
# rank, or to mpirun) and resumed with another number of ranks, or by
# retrodb alone, ends with the same checksums; the lock keeps a second
# builder off while a job runs, and status reads the job's progress.
# Prints "mpi: N passed, N failed" and exits non-zero on any failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
RETRODB_MPI=${RETRODB_MPI:-bin/retrodb-mpi}
KILLS=${KILLS:-6}
DATA=$(cd "$(dirname "$0")/../data/checksums" && pwd)
# Open MPI refuses root unless told; containers and CI run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T=$(mktemp -d /tmp/retrodb-mpi.XXXXXX)
# Only this shell removes it: a subshell forked here (the watchdog below)
# inherits the trap, and bash can run it there if a signal comes before the
# subshell has reset its traps.
trap '[ "$BASHPID" = "$$" ] && rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# mpi N args...: retrodb-mpi as N ranks, one thread each (two cores)
mpi() {
    local n=$1
    shift
    timeout 300 mpirun --oversubscribe -np "$n" "$RETRODB_MPI" "$@" --threads 1
}
checksums() { "$RETRODB" info --dir "$1" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}'; }
# same_files DIR REF: the same slice files, byte for byte (the manifest
# differs in its timings and order, LOCK in its pid)
same_files() {
    diff -r -q -x MANIFEST -x LOCK "$1" "$2" > /dev/null
}
# build_spec N SPEC DIR: SPEC as scripts/checksums.sh names it
build_spec() {
    local n=$1 spec=$2 dir=$3
    case $spec in
    cram:*) mpi "$n" build cram "${spec#cram:}" --dir "$dir" --quiet ;;
    *:*) mpi "$n" build dots "${spec%%:*}" --variant "${spec#*:}" --dir "$dir" --quiet ;;
    *) mpi "$n" build dots "$spec" --dir "$dir" --quiet ;;
    esac
}
name_of() { case $1 in cram:*) echo "cram-${1#cram:}" ;; *:*) echo "${1%%:*}-${1#*:}" ;; *) echo "$1" ;; esac; }

# --- the recorded checksums, and the files of one process, with 2 and 3 ranks ---
for spec in 3x4 3x3:icelandic cram:4x5; do
    name=$(name_of "$spec")
    case $spec in
    cram:*) "$RETRODB" build cram "${spec#cram:}" --dir "$T/ref-$name" --quiet > /dev/null ;;
    *:*) "$RETRODB" build dots "${spec%%:*}" --variant "${spec#*:}" --dir "$T/ref-$name" --quiet > /dev/null ;;
    *) "$RETRODB" build dots "$spec" --dir "$T/ref-$name" --quiet > /dev/null ;;
    esac
    for n in 2 3; do
        dir=$T/$name-np$n
        if ! out=$(build_spec "$n" "$spec" "$dir" 2>&1); then
            bad "$name with $n ranks: $out"
            continue
        fi
        checksums "$dir" | diff -q - "$DATA/$name.txt" > /dev/null && ok ||
            bad "$name with $n ranks: checksums differ from data/checksums/$name.txt"
        same_files "$dir" "$T/ref-$name" && ok || bad "$name with $n ranks: files differ from retrodb build's"
        "$RETRODB" verify --dir "$dir" > /dev/null && ok || bad "$name with $n ranks: verify"
        ls "$dir"/MANIFEST.* > /dev/null 2>&1 && bad "$name with $n ranks: manifest parts left" || ok
        rm -rf "$dir"
    done
done

# --- the result line and the per-rank report come from rank 0 alone ---
out=$(mpi 2 build dots 3x3 --dir "$T/talk" 2>&1)
[ "$(printf '%s\n' "$out" | grep -c '^3x3 dots: value -3')" = 1 ] && ok || bad "one result line: $out"
printf '%s\n' "$out" | grep -q '^   1  ' && ok || bad "per-rank report lacks rank 1: $out"
printf '%s\n' "$out" | grep -q 'ranks busy' && ok || bad "levels lack the ranks' times: $out"

# --- options reach every rank: the same databases as retrodb build ---
"$RETRODB" build dots 3x4 --keep-lines 6 --dir "$T/keep-ref" --quiet > /dev/null
mpi 3 build dots 3x4 --keep-lines 6 --dir "$T/keep" --quiet > /dev/null || bad "--keep-lines with 3 ranks"
[ "$(checksums "$T/keep")" = "$(checksums "$T/keep-ref")" ] && same_files "$T/keep" "$T/keep-ref" && ok ||
    bad "--keep-lines 6 with 3 ranks differs from retrodb build"
"$RETRODB" build dots 3x3 --loony --groups 3 --zstd-level 3 --dir "$T/loony-ref" --quiet > /dev/null
mpi 2 build dots 3x3 --loony --groups 3 --zstd-level 3 --dir "$T/loony" --quiet > /dev/null ||
    bad "--loony with 2 ranks"
same_files "$T/loony" "$T/loony-ref" && ok || bad "--loony --groups 3 with 2 ranks differs from retrodb build"
printf '+ + + +\n|\n+ + + +\n\n+-+ + +\n\n+ + + +\n' > "$T/start.txt"
"$RETRODB" build dots --start "$T/start.txt" --dir "$T/start-ref" --quiet > /dev/null
mpi 2 build dots --start "$T/start.txt" --dir "$T/start" --quiet > /dev/null || bad "--start with 2 ranks"
same_files "$T/start" "$T/start-ref" && ok || bad "--start with 2 ranks differs from retrodb build"
P=$(cd "$(dirname "$0")/../data/problems" && pwd)
"$RETRODB" build dots --problem "$P/middle-3x3.txt" --dir "$T/problem-ref" --quiet > /dev/null
mpi 3 build dots --problem "$P/middle-3x3.txt" --dir "$T/problem" --quiet > /dev/null || bad "--problem with 3 ranks"
same_files "$T/problem" "$T/problem-ref" && ok || bad "--problem with 3 ranks differs from retrodb build (PROBLEM included)"
"$RETRODB" build dots --problem "$P/middle-3x3.txt" --chains --dir "$T/chains-ref" --quiet > /dev/null
mpi 3 build dots --problem "$P/middle-3x3.txt" --chains --dir "$T/chains" --quiet > /dev/null || bad "--chains with 3 ranks"
same_files "$T/chains" "$T/chains-ref" && ok || bad "--chains with 3 ranks differs from retrodb build"

# --- refusals: every rank stops with the root's message and exit code ---
out=$(mpi 2 build dots 3x3 --variant swedish --dir "$T/talk" 2>&1)
rc=$?
[ "$rc" = 2 ] && printf '%s' "$out" | grep -q "other parameters" && ok ||
    bad "other parameters: exit $rc, want 2: $out"
out=$(mpi 2 build dots 3x3 --variant nosuch --dir "$T/x" 2>&1)
[ $? = 2 ] && ok || bad "unknown variant: want exit 2: $out"

# --- parts a killed job left are read by status and folded in by a resume ---
dir=$T/loony
grep '^slice' "$dir/MANIFEST" | tail -n 7 > "$dir/MANIFEST.7"
grep -v -F -x -f "$dir/MANIFEST.7" "$dir/MANIFEST" > "$dir/MANIFEST.new" && mv "$dir/MANIFEST.new" "$dir/MANIFEST"
"$RETRODB" status --dir "$dir" | grep -q 'complete' && ok || bad "status does not read a part"
out=$("$RETRODB" build dots 3x3 --loony --groups 3 --zstd-level 3 --dir "$dir" 2>&1)
printf '%s' "$out" | grep -q 'computed\|positions/s' && bad "a resume redid recorded slices: $out" || ok
[ ! -e "$dir/MANIFEST.7" ] && [ "$(grep -c '^slice' "$dir/MANIFEST")" = "$(checksums "$dir" | awk '{s += $2} END {print s}')" ] &&
    ok || bad "a resume did not fold the part into the manifest"

# --- damaged files found by a job: redone, whichever rank reads them ---
# Level 0 is forgotten, so that the job reads level 1 again as neighbours.
"$RETRODB" build dots 3x3 --dir "$T/ref33" --quiet > /dev/null
for kind in truncate flip delete; do
    rm -rf "$T/d"
    cp -r "$T/ref33" "$T/d"
    grep -v '^slice 0 ' "$T/ref33/MANIFEST" > "$T/d/MANIFEST"
    victim=$(find "$T/d/1" -name '*.zst' | sort | tail -1)
    case $kind in
    truncate) truncate -s $(($(wc -c < "$victim") / 2)) "$victim" ;;
    flip) printf 'Z' | dd of="$victim" bs=1 seek=$(($(wc -c < "$victim") / 2)) conv=notrunc 2>/dev/null ;;
    delete) rm -f "$victim" ;;
    esac
    out=$(mpi 3 build dots 3x3 --dir "$T/d" 2>&1)
    printf '%s' "$out" | grep -q "redoing a damaged slice" && ok || bad "a job after $kind did not redo: $out"
    [ "$(checksums "$T/d")" = "$(checksums "$T/ref33")" ] && same_files "$T/d" "$T/ref33" && ok ||
        bad "3x3 after $kind and a job: differs from retrodb build"
done

# a byte changed inside a frame of a big slice passes the check at start and
# is found by the rank that reads it as a neighbour: every rank goes back up
rm -rf "$T/d"
cp -r "$T/ref-3x4" "$T/d"
awk '!($1 == "slice" && $2 <= 9)' "$T/ref-3x4/MANIFEST" > "$T/d/MANIFEST"
victim=$(ls -S $(find "$T/d/10" -name '*.zst') | head -1)
printf 'Z' | dd of="$victim" bs=1 seek=$(($(wc -c < "$victim") / 2)) conv=notrunc 2>/dev/null
out=$(mpi 3 build dots 3x4 --dir "$T/d" 2>&1)
printf '%s' "$out" | grep -q "redoing a damaged slice: .*frame" && ok || bad "a job did not redo a damaged frame: $out"
[ "$(checksums "$T/d")" = "$(checksums "$T/ref-3x4")" ] && same_files "$T/d" "$T/ref-3x4" && ok ||
    bad "3x4 after a damaged frame and a job: differs from retrodb build"

# a quiet database cut into slices, built by jobs of 2 and 3 ranks: the
# checksums of one process's build
"$RETRODB" build dots 3x4 --store quiet --slice-positions 200000 --dir "$T/q34-ref" --quiet > /dev/null
for n in 2 3; do
    rm -rf "$T/q34-$n"
    mpi "$n" build dots 3x4 --store quiet --slice-positions 200000 --dir "$T/q34-$n" --quiet > /dev/null 2>&1 ||
        bad "quiet 3x4 with $n ranks: the job failed"
    [ "$(checksums "$T/q34-$n")" = "$(checksums "$T/q34-ref")" ] && ok ||
        bad "quiet 3x4 with $n ranks: checksums differ from one process's"
done

# a complete database built by a job: what verify finds damaged, the next
# job redoes (DAMAGED), to the same files as retrodb build makes
rm -rf "$T/d"
mpi 2 build dots 3x3 --dir "$T/d" --quiet > /dev/null 2>&1
victim=$(ls -S $(find "$T/d/12" -name '*.zst') | head -1)
printf 'ZZZZ' | dd of="$victim" bs=1 seek=$(($(wc -c < "$victim") / 2)) conv=notrunc 2>/dev/null
"$RETRODB" verify --dir "$T/d" > /dev/null 2>&1
[ $? -eq 1 ] && [ -s "$T/d/DAMAGED" ] && ok || bad "verify of a job's database did not record the damage"
out=$(mpi 2 build dots 3x3 --dir "$T/d" 2>&1)
printf '%s' "$out" | grep -q "redoing a slice found damaged" && ok || bad "a job did not redo what verify found: $out"
[ "$(checksums "$T/d")" = "$(checksums "$T/ref33")" ] && [ ! -e "$T/d/DAMAGED" ] && ok ||
    bad "3x3 repaired by a job: differs from retrodb build"

# --- the lock: a second builder is refused while a job runs; status reads it ---
mpi 2 build dots 3x4 --dir "$T/locked" --quiet > /dev/null 2>&1 &
job=$!
for _ in $(seq 50); do
    "$RETRODB" status --dir "$T/locked" 2>/dev/null | grep -q 'running' && break
    sleep 0.1
done
out=$("$RETRODB" status --dir "$T/locked" 2>&1)
printf '%s' "$out" | grep -q 'builder     running' && ok || bad "status during a job: $out"
out=$("$RETRODB" build dots 3x4 --dir "$T/locked" --quiet 2>&1)
rc=$?
[ "$rc" = 1 ] && printf '%s' "$out" | grep -q "another builder" && ok ||
    bad "retrodb build beside a job: exit $rc: $out"
out=$(mpi 2 build dots 3x4 --dir "$T/locked" --quiet 2>&1)
rc=$?
[ "$rc" = 1 ] && printf '%s' "$out" | grep -q "another builder" && ok ||
    bad "a second job beside a job: exit $rc: $out"
wait "$job" && ok || bad "the job beside which others were refused"
checksums "$T/locked" | diff -q - "$DATA/3x4.txt" > /dev/null && ok || bad "3x4 after refusals"

# --- SIGKILL at random moments, resumed with another number of ranks ---
# Each run resumes the same folder with 1, 2 or 3 ranks, or retrodb alone;
# a kill goes to one rank (which takes the job down) or to mpirun. A run
# that finishes before its kill ends the chain, which is then checked, and
# a new chain starts.
RANDOM=4242
kills=0 attempts=0 chains=0
rm -rf "$T/killed"
while [ "$kills" -lt "$KILLS" ] && [ "$attempts" -lt $((3 * KILLS)) ]; do
    attempts=$((attempts + 1))
    n=$((1 + attempts % 3))
    mpirun --oversubscribe -np "$n" "$RETRODB_MPI" build dots 3x4 --dir "$T/killed" --quiet \
        --threads 1 > /dev/null 2>&1 &
    job=$!
    sleep "$((RANDOM % 3)).$(printf '%03d' $((RANDOM % 1000)))"
    ranks=$(pgrep -P "$job")
    if [ -z "$ranks" ]; then
        # the job ended before its kill: check the chain, start a new one
        wait "$job"
        chains=$((chains + 1))
        checksums "$T/killed" | diff -q - "$DATA/3x4.txt" > /dev/null && ok ||
            bad "3x4 chain $chains, finished after kills: checksums"
        rm -rf "$T/killed"
        continue
    fi
    if [ $((attempts % 3)) = 0 ]; then
        kill -9 "$job" 2>/dev/null && kills=$((kills + 1))
    else
        victim=$(printf '%s\n' $ranks | shuf -n 1 --random-source=<(yes "$RANDOM"))
        kill -9 "$victim" 2>/dev/null && kills=$((kills + 1))
    fi
    # mpirun itself can hang once a rank is killed (seen under load: every
    # rank gone, mpirun not reaping them), which is Open MPI's, not ours:
    # a watchdog ends it after 30 s. The watchdog is ended by SIGKILL: a
    # SIGTERM that reached it just after the fork ran the EXIT trap there,
    # which removed this test's folder under it.
    ( sleep 30; kill -9 "$job" 2>/dev/null ) &
    watchdog=$!
    wait "$job" 2>/dev/null
    kill -9 "$watchdog" 2>/dev/null
    wait "$watchdog" 2>/dev/null
    # no rank outlives its job (they hold no lock, but would keep writing)
    for _ in $(seq 50); do
        alive=0
        for p in $ranks; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    [ "$alive" = 0 ] && ok || { bad "ranks outlived their killed job"; kill -9 $ranks 2>/dev/null; }
    # every other resume is by retrodb alone, of a folder an MPI job left
    if [ $((kills % 2)) = 0 ]; then
        "$RETRODB" build dots 3x4 --dir "$T/killed" --quiet --threads 1 > /dev/null 2>&1 &
        job=$!
        sleep "0.$(printf '%03d' $((RANDOM % 1000)))"
        kill -9 "$job" 2>/dev/null
        wait "$job" 2>/dev/null
    fi
done
[ "$kills" -ge "$KILLS" ] && ok || bad "only $kills of $KILLS jobs were still running when killed"
mpi 2 build dots 3x4 --dir "$T/killed" --quiet > /dev/null || bad "resume after $kills kills"
checksums "$T/killed" | diff -q - "$DATA/3x4.txt" > /dev/null && ok || bad "3x4 killed $kills times: checksums"
same_files "$T/killed" "$T/ref-3x4" && ok || bad "3x4 killed $kills times: files differ"
ls "$T"/killed/MANIFEST.* "$T"/killed/*/*/*.tmp > /dev/null 2>&1 && bad "parts or temporary files left" || ok
echo "mpi kills: $kills kills over $attempts runs, $chains chains finished in between" >&2

# --- a quiet database of one slice a level: with 2 ranks (one idle at each
# level) and with 1, data/checksums' values ---
mpi 2 build dots 3x3 --store quiet --dir "$T/quiet-np2" --quiet > /dev/null 2>&1 || bad "a quiet build with 2 ranks"
checksums "$T/quiet-np2" | diff -q - "$DATA/3x3-quiet.txt" > /dev/null && ok ||
    bad "a quiet build with 2 ranks: checksums differ from data/checksums/3x3-quiet.txt"
mpi 1 build dots 3x3 --store quiet --dir "$T/quiet-np1" --quiet > /dev/null 2>&1 || bad "a quiet build with 1 rank"
checksums "$T/quiet-np1" | diff -q - "$DATA/3x3-quiet.txt" > /dev/null && ok ||
    bad "a quiet build with 1 rank: checksums differ from data/checksums/3x3-quiet.txt"

echo "mpi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
