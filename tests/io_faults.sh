#!/bin/bash
# I/O fault injection of bin/retrodb, with the LD_PRELOAD library of
# tests/faultinject/shim.c: one file-system call at a time fails (the Nth
# open, read, write, fsync, close, rename, mkdir, ... on the database
# folder), and what the program does with it is checked:
#   - a build hit by a fault exits 1 with one error line that names the
#     file and the reason (never 0, 2 or a signal), leaves every slice it
#     recorded intact, and the same command run again without the fault
#     finishes with the published checksums (data/checksums/), passes
#     `verify --full` and leaves no stray file in the folder;
#   - a full disk (every write from the Nth on fails with ENOSPC) stops the
#     build with "the disk is full" and how to resume;
#   - a read-only folder (EROFS or EACCES on everything that would change
#     it) is refused with a clear error and left exactly as it was, and
#     query and verify still read it;
#   - a fault while `query` or `verify --full` reads a finished database
#     exits 1 with a message, never a value printed with exit 0.
# A failed close of a descriptor that holds no unsynced data (or of LOCK,
# whose pid is a hint) loses nothing, so exit 0 is accepted there when the
# database is then complete and correct.
#
# Which Nth calls: a clean run counts the calls of each kind (RDB_FAULT_COUNT),
# about 2,200 for a 3x3 build, too many to try each. The build makes the
# same calls for every slice, so every call site of its write path (LOCK,
# PARAMS, a level's folder, a slice's temporary file, its rename and the
# fsync of its folder, the first and later MANIFEST appends) is met within
# the first slices: every N up to EVERY (default 12) is tried, which spans
# the start and at least the first two slices for every kind, then SPREAD
# (default 6) more spread evenly over the rest, then the last LAST (default
# 3), which meet the closing of MANIFEST and LOCK. Coarser sweeps: a resumed
# build (its reads: the recorded slices, then the neighbours of the first
# slice it computes), a build with --keep-lines (removing levels), the Cram
# 4x5 build, the quiet 3x3 build and a query of it, query and verify --full,
# a Cram solve's ledger (`solve cram --ledger`, read and appended: a fault
# mid-search saves the table and says how to resume; a failed last save
# of the table still gives the answer); and a
# full disk from N = 1..16 and 8 more. Cases run JOBS (default 2) at a time.
#
# Known defects are listed in KNOWN_FAILURES: a case that fails and matches
# one is counted as known, not failed, and each defect is reported once.
# Prints one summary line; exits non-zero on any other failure.
set -u
RETRODB=${RETRODB:-bin/retrodb}
SHIM=${SHIM:-build/faultinject.so}
case $RETRODB in /*) ;; *) RETRODB=$PWD/$RETRODB ;; esac
# Under the sanitizers (make sanitize) a run is several times slower; a
# thinner sweep of the build still meets its start and first slice.
every=12 spread=6
ldd "$RETRODB" 2> /dev/null | grep -q libasan && every=4 spread=3
EVERY=${EVERY:-$every}
SPREAD=${SPREAD:-$spread}
LAST=${LAST:-3}
JOBS=${JOBS:-2}
case $SHIM in /*) ;; *) SHIM=$PWD/$SHIM ;; esac
SUMS=$(cd "$(dirname "$0")/.." && pwd)/data/checksums
# One thread: libgomp's idle threads make small runs much slower on a busy
# machine, and files are the same for any thread count. The writer thread
# still runs beside the builder.
export OMP_NUM_THREADS=1
# Under AddressSanitizer the preloaded library comes before its runtime.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

# Cases that fail because of a known defect: "CASE|CALL|diagnosis", where
# CASE is a glob on "scenario op N" and CALL a glob on the first failed
# call as the log has it ("kind function n errno state path").
KNOWN_FAILURES=(
)

empty33='+ + + +

+ + + +

+ + + +

+ + + +'

# ---------------------------------------------------------------- one case

# The checksums `info` prints, as scripts/checksums.sh keeps them.
checksums() { "$RETRODB" info --dir "$1" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}'; }

# Files in a database folder that are not PARAMS, MANIFEST, LOCK, PROBLEM
# or a slice file (<level>/<k0>/.../<k>.zst or <level>/all.zst).
strays() {
    (cd "$1" && find . -mindepth 1 \( -type d -o -print \) | sed 's|^\./||' |
        grep -vE '^(PARAMS|MANIFEST|LOCK|PROBLEM)$|^[0-9]+(/[0-9]+)*\.zst$|^[0-9]+/(all|quiet)\.zst$')
    (cd "$1" && find . -mindepth 1 -type d | sed 's|^\./||' | grep -vE '^[0-9]+(/[0-9]+)*$')
}

strerror_of() {
    case $1 in
    EIO) echo "Input/output error" ;;
    ENOSPC) echo "No space left on device" ;;
    EDQUOT) echo "Disk quota exceeded" ;;
    EROFS) echo "Read-only file system" ;;
    EACCES) echo "Permission denied" ;;
    esac
}

# Run retrodb under the fault: faulty DIR LOG OPS N ERRNO STICKY -- ARGS...
faulty() {
    local dir=$1 log=$2 ops=$3 n=$4 errno=$5 sticky=$6
    shift 7
    RDB_FAULT_DIR=$dir RDB_FAULT_OP=$ops RDB_FAULT_N=$n RDB_FAULT_ERRNO=$errno \
        RDB_FAULT_STICKY=$sticky RDB_FAULT_LOG=$log LD_PRELOAD=$SHIM "$RETRODB" "$@"
}

# A failed call that loses nothing: close of a descriptor without unsynced
# data, or of LOCK.
harmless() { # log
    awk '!($1 == "close" && ($5 == "clean" || $6 ~ /\/LOCK$/)) {bad = 1} END {exit bad}' "$1"
}

# The error output names the file of a failed call and says why.
names_file() { # errfile log errno
    local why path
    why=$(strerror_of "$3")
    [ "$(wc -l < "$1")" -eq 1 ] && grep -q '^retrodb: ' "$1" || return 1
    [ -z "$why" ] || grep -qF "$why" "$1" || return 1
    while read -r _ _ _ _ _ path; do
        grep -qF "'$path'" "$1" && return 0
    done < "$2"
    return 1
}

# One case of a build hit by a fault: run_build SCENARIO OPS N ERRNO STICKY
run_build() {
    local scenario=$1 ops=$2 n=$3 errno=$4 sticky=$5
    local label=$ops
    [[ $ops == *,* ]] && label=many
    local id="$scenario $ops $n" c="$T/case.$scenario.$label.$n"
    local d="$c/db" args sums rc hit=0 runs=0
    mkdir -p "$c"
    case $scenario in
    build33 | full33 | resume33) args=(build dots 3x3 --dir "$d" --quiet); sums=$SUMS/3x3.txt ;;
    keep33) args=(build dots 3x3 --dir "$d" --keep-lines 8 --quiet); sums=$SUMS/3x3.txt ;;
    buildcram) args=(build cram 4x5 --dir "$d" --quiet); sums=$SUMS/cram-4x5.txt ;;
    quiet33) args=(build dots 3x3 --store quiet --dir "$d" --quiet); sums=$SUMS/3x3-quiet.txt ;;
    esac
    [ "$scenario" = resume33 ] && cp -r "$T/half33" "$d"
    faulty "$d" "$c/log" "$ops" "$n" "$errno" "$sticky" -- "${args[@]}" > "$c/out" 2> "$c/err"
    rc=$?
    runs=$((runs + 1))
    [ -s "$c/log" ] && hit=$(wc -l < "$c/log")
    local why=""
    if [ "$hit" -eq 0 ]; then
        [ "$rc" -eq 0 ] || why="no fault injected, yet exit $rc: $(head -c 300 "$c/err")"
    elif [ "$rc" -eq 0 ]; then
        harmless "$c/log" || why="exit 0 after a failed $(head -1 "$c/log")"
    elif [ "$rc" -ne 1 ]; then
        why="exit $rc (want 1) after a failed $(head -1 "$c/log"): $(head -c 300 "$c/err")"
    elif ! names_file "$c/err" "$c/log" "$errno"; then
        why="the error does not name the file and the reason of $(head -1 "$c/log"): $(head -c 300 "$c/err")"
    elif [ "$errno" = ENOSPC ] && ! grep -q "the disk is full.*resume" "$c/err"; then
        why="a full disk not reported as one ($(head -1 "$c/log")): $(head -c 300 "$c/err")"
    fi
    # whatever the fault left, every slice it recorded must be intact
    if [ -z "$why" ] && [ -f "$d/PARAMS" ] && ! "$RETRODB" verify --dir "$d" > "$c/v" 2>&1; then
        why="a recorded slice is damaged after a failed $(head -1 "$c/log"): $(grep -v '^verify:' "$c/v" | head -c 300)"
    fi
    if [ -z "$why" ]; then
        "$RETRODB" "${args[@]}" > "$c/out2" 2> "$c/err2"
        rc=$?
        runs=$((runs + 1))
        if [ "$rc" -ne 0 ]; then
            why="resume after $(head -1 "$c/log") exits $rc: $(head -c 300 "$c/err2")"
        elif [ "$(checksums "$d")" != "$(cat "$sums")" ]; then
            why="checksums after resume differ from $sums (fault $(head -1 "$c/log"))"
        elif ! "$RETRODB" verify --dir "$d" --full > "$c/v" 2>&1; then
            why="verify --full fails after resume: $(head -c 300 "$c/v")"
        elif [ -n "$(strays "$d")" ]; then
            why="stray files after resume: $(strays "$d" | head -5 | tr '\n' ' ')"
        fi
        runs=$((runs + 2))
    fi
    report "$id" "$(kinds_hit "$c/log")" "$runs" "$why" "$c"
}

# A fault while reading a finished database: run_read SCENARIO OPS N
run_read() {
    local scenario=$1 ops=$2 n=$3
    local id="$scenario $ops $n" c="$T/case.$scenario.$ops.$n" rc why=""
    local -a args
    read_args "$scenario"
    local d=${args[2]}
    mkdir -p "$c"
    faulty "$d" "$c/log" "$ops" "$n" EIO 0 -- "${args[@]}" > "$c/out" 2> "$c/err"
    rc=$?
    local first
    first=$(head -1 "$c/log" 2> /dev/null)
    if [ -z "$first" ] || { [ "$rc" -eq 0 ] && harmless "$c/log"; }; then
        [ "$rc" -eq 0 ] && cmp -s "$c/out" "$T/$scenario.out" ||
            why="exit $rc or another answer without a harmful fault: $(head -c 300 "$c/out" "$c/err")"
    elif [ "$rc" -ne 1 ]; then
        why="exit $rc (want 1) after a failed $first: $(head -c 300 "$c/out" "$c/err")"
    elif [ "$scenario" != verify33 ] && [ -s "$c/out" ]; then
        why="exit 1 yet an answer printed after a failed $first: $(head -c 300 "$c/out")"
    elif [ "$scenario" != verify33 ] && ! names_file "$c/err" "$c/log" EIO; then
        why="the error does not name the file and the reason of $first: $(head -c 300 "$c/err")"
    elif [ "$scenario" = verify33 ] && ! cat "$c/out" "$c/err" | grep -qF "'${first##* }'"; then
        why="verify does not name the file of $first: $(head -c 300 "$c/out" "$c/err")"
    fi
    report "$id" "$(kinds_hit "$c/log")" 1 "$why" "$c"
}

# A fault while `solve cram --ledger` reads or appends its ledger:
# run_ledger N OPS. Exit 1 naming the ledger and the reason, no answer
# printed; a fault that stopped the search saves the table and says to run
# the same command once the error is mended; then the same command without
# the fault answers as a clean run does, reading whatever the first run
# appended (a malformed line would be refused) and the table.
run_ledger() {
    local ops=$1 n=$2
    local id="ledger $ops $n" c="$T/case.ledger.$ops.$n" rc why="" runs=1
    local d="$c/d"
    mkdir -p "$d"
    local -a args=(solve cram 4x7 --ledger "$d/ledger" --tt-mb 16 --tt-file "$c/tt" --json)
    faulty "$d" "$c/log" "$ops" "$n" EIO 0 -- "${args[@]}" > "$c/out" 2> "$c/err"
    rc=$?
    local first
    first=$(head -1 "$c/log" 2> /dev/null)
    if [ -z "$first" ] || { [ "$rc" -eq 0 ] && harmless "$c/log"; }; then
        [ "$rc" -eq 0 ] && grep -q '"nimber":3,' "$c/out" ||
            why="exit $rc or another answer without a harmful fault: $(head -c 300 "$c/out" "$c/err")"
    elif [ "$rc" -ne 1 ]; then
        why="exit $rc (want 1) after a failed $first: $(head -c 300 "$c/out" "$c/err")"
    elif [ -s "$c/out" ]; then
        why="exit 1 yet an answer printed after a failed $first: $(head -c 300 "$c/out")"
    elif ! grep -v "^retrodb: transposition table saved" "$c/err" > "$c/err1" ||
        ! names_file "$c/err1" "$c/log" EIO; then
        why="the error does not name the file and the reason of $first: $(head -c 300 "$c/err")"
    elif grep -q "transposition table saved" "$c/err" &&
        ! head -1 "$c/err" | grep -q "saved in '$c/tt'; run the same command to resume once the error below is mended"; then
        why="the table saved without the advice, above the error, to mend it: $(head -c 300 "$c/err")"
    else
        grep -q "once the error below is mended" "$c/err" && [ -s "$c/tt" ] && touch "$T/ledger-advised"
        runs=2
        "$RETRODB" "${args[@]}" > "$c/out2" 2> "$c/err2" && grep -q '"nimber":3,' "$c/out2" ||
            why="the run after a failed $first: $(head -c 300 "$c/out2" "$c/err2")"
    fi
    report "$id" "$(kinds_hit "$c/log")" "$runs" "$why" "$c"
}

# The command of a read scenario, in args.
read_args() {
    case $1 in
    query33) args=(query --dir "$T/ref33" --json "$T/empty33.txt") ;;
    queryprob) args=(query --dir "$T/refprob" --json "$T/prob.txt") ;;
    querycram) args=(query --dir "$T/refcram" --json "$T/emptycram.txt") ;;
    verify33) args=(verify --dir "$T/ref33" --full) ;;
    queryquiet) args=(query --dir "$T/refquiet" --json "$T/empty33.txt") ;;
    esac
}

# The kinds of the calls that failed, one word per failed call.
kinds_hit() { [ -f "$1" ] && awk '{printf "%s ", $1}' "$1"; }

# report ID KINDS RUNS WHY CASEDIR: one result line; a passing case's
# folder is removed.
report() {
    local result=PASS entry
    local call case_glob call_glob
    if [ -n "$4" ]; then
        result=FAIL
        call=$(head -1 "$5/log" 2> /dev/null)
        for entry in "${KNOWN_FAILURES[@]}"; do
            case_glob=${entry%%|*}
            call_glob=${entry#*|}
            call_glob=${call_glob%%|*}
            # shellcheck disable=SC2053
            if [[ "$1" == $case_glob && "$call" == $call_glob ]]; then
                result=KNOWN
                set -- "$1" "$2" "$3" "${entry##*|} (here: $4)" "$5"
                break
            fi
        done
    else
        rm -rf "$5"
    fi
    # one write per line, so that lines of parallel cases never mix
    printf '%s\n' "$result|$1|$2|$3|$(printf '%s' "$4" | tr '\n|' ' /')"
}

if [ "${1:-}" = --case ]; then
    shift
    T=$1
    shift
    case $1 in
    query* | verify33) run_read "$@" ;;
    ledger) shift; run_ledger "$@" ;;
    *) run_build "$@" ;;
    esac
    exit 0
fi

# ------------------------------------------------------------- the sweeps

# Thousands of fsyncs: on a memory file system they cost nothing, and the
# disk is not what is tested here.
tmp=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && tmp=/dev/shm
T=$(mktemp -d "$tmp/retrodb-io-faults.XXXXXX")
trap 'rm -rf "$T"' EXIT
start=$SECONDS
[ -f "$SHIM" ] || { echo "no fault-injection library at $SHIM" >&2; exit 1; }

# count DIR OUT -- ARGS...: the calls of each kind of one clean run
count() {
    local dir=$1 out=$2
    shift 3
    RDB_FAULT_DIR=$dir RDB_FAULT_COUNT=$out LD_PRELOAD=$SHIM "$RETRODB" "$@" > /dev/null
}
calls_of() { awk -v k="$2" '$1 == k {print $2}' "$1"; }
in_list() { # word words...
    local w=$1
    shift
    [[ " $* " == *" $w "* ]]
}

# The N to try out of COUNT calls: 1..every, spread more, the last few.
pick() { # count every spread last
    local count=$1 every=$2 spread=$3 last=$4 i
    {
        for ((i = 1; i <= count && i <= every; i++)); do echo "$i"; done
        if [ "$count" -gt "$every" ]; then
            for ((i = 1; i <= spread; i++)); do echo $((every + i * (count - every) / (spread + 1))); done
        fi
        for ((i = count - last + 1; i <= count; i++)); do [ "$i" -ge 1 ] && echo "$i"; done
    } | sort -nu
}

# The finished databases the read sweeps fault, and their right answers.
printf '%s\n' "$empty33" > "$T/empty33.txt"
printf '.....\n.....\n.....\n.....\n' > "$T/emptycram.txt"
# the problem's diagram alone: the scores come from the database's PROBLEM
tail -7 "$SUMS/../problems/penalty-3x3.txt" > "$T/prob.txt"
if ! "$RETRODB" build dots 3x3 --dir "$T/ref33" --quiet ||
    ! "$RETRODB" build dots --problem "$SUMS/../problems/penalty-3x3.txt" --dir "$T/refprob" --quiet ||
    ! "$RETRODB" build cram 4x5 --dir "$T/refcram" --quiet ||
    ! "$RETRODB" build dots 3x3 --store quiet --dir "$T/refquiet" --quiet; then
    echo "reference builds failed" >&2
    exit 1
fi
for scenario in query33 queryprob querycram verify33 queryquiet; do
    read_args "$scenario"
    "$RETRODB" "${args[@]}" > "$T/$scenario.out"
    count "${args[2]}" "$T/$scenario.count" -- "${args[@]}"
done
# A half-built 3x3 (the build stopped at the 60th slice) that the resume
# sweep starts from: it reads the recorded slices and then the neighbours
# of the first slice it computes from disk.
# It holds a temporary file, as a build killed while writing leaves one,
# which the resume removes first.
faulty "$T/half33" "$T/half.log" rename 61 EIO 0 -- build dots 3x3 --dir "$T/half33" --quiet 2> /dev/null
rm -f "$T/half33/LOCK"
cp "$T/ref33/16/12.zst" "$T/half33/16/12.zst.12345.tmp"

count "$T/c1" "$T/build33.count" -- build dots 3x3 --dir "$T/c1" --quiet
cp -r "$T/half33" "$T/c2"
count "$T/c2" "$T/resume33.count" -- build dots 3x3 --dir "$T/c2" --quiet
count "$T/c3" "$T/buildcram.count" -- build cram 4x5 --dir "$T/c3" --quiet
count "$T/c4" "$T/keep33.count" -- build dots 3x3 --dir "$T/c4" --keep-lines 8 --quiet
count "$T/c5" "$T/quiet33.count" -- build dots 3x3 --store quiet --dir "$T/c5" --quiet
mkdir -p "$T/c6"
count "$T/c6" "$T/ledger.count" -- solve cram 4x7 --ledger "$T/c6/ledger" --tt-mb 16 --tt-file "$T/c6.tt" --quiet
rm -rf "$T/c1" "$T/c2" "$T/c3" "$T/c4" "$T/c5" "$T/c6"

kinds="open read write fsync close rename unlink mkdir rmdir truncate flock seek stat walk"
{
    for k in $kinds; do
        for n in $(pick "$(calls_of "$T/build33.count" "$k")" "$EVERY" "$SPREAD" "$LAST"); do
            echo "build33 $k $n EIO 0"
        done
        # the resume's writes are the build's; its reads are its own
        if in_list "$k" open read stat close seek walk unlink; then
            for n in $(pick "$(calls_of "$T/resume33.count" "$k")" 8 4 1); do
                echo "resume33 $k $n EIO 0"
            done
        fi
        # what removing a level does, beyond what every build does
        if in_list "$k" unlink rmdir stat walk; then
            for n in $(pick "$(calls_of "$T/keep33.count" "$k")" 4 4 1); do
                echo "keep33 $k $n EIO 0"
            done
        fi
        for n in $(pick "$(calls_of "$T/buildcram.count" "$k")" 2 2 1); do
            echo "buildcram $k $n EIO 0"
        done
        for n in $(pick "$(calls_of "$T/quiet33.count" "$k")" 4 3 1); do
            echo "quiet33 $k $n EIO 0"
        done
        for scenario in query33 queryprob querycram queryquiet; do
            for n in $(pick "$(calls_of "$T/$scenario.count" "$k")" 8 4 1); do
                echo "$scenario $k $n"
            done
        done
        for n in $(pick "$(calls_of "$T/verify33.count" "$k")" 6 4 1); do
            echo "verify33 $k $n"
        done
        for n in $(pick "$(calls_of "$T/ledger.count" "$k")" 4 3 1); do
            echo "ledger $k $n"
        done
    done
    # a full disk: every write of any kind from the Nth on fails
    fullops=write,openw,mkdir,fsync,rename,truncate
    total=0
    for k in write openw mkdir fsync rename truncate; do
        total=$((total + $(calls_of "$T/build33.count" "$k")))
    done
    for n in $(pick "$total" 16 8 1); do
        echo "full33 $fullops $n ENOSPC 1"
    done
} > "$T/cases"

xargs -P "$JOBS" -L 1 bash "$0" --case "$T" < "$T/cases" > "$T/results"
# some ledger case failed mid-search, and its advice was checked above
if [ -f "$T/ledger-advised" ]; then
    echo "PASS|ledger advice|-|0|" >> "$T/results"
else
    echo "FAIL|ledger advice|-|0|no ledger fault stopped a search with its table saved and the advice" >> "$T/results"
fi

# A finished Cram solve whose table cannot be saved at the end (its rename
# fails) still prints its answer, says so, and exits 1.
mkdir -p "$T/endsave"
faulty "$T/endsave" "$T/endsave.log" rename 1 EIO 0 -- solve cram 4x7 --tt-mb 16 --tt-file "$T/endsave/tt" --json \
    > "$T/endsave.out" 2> "$T/endsave.err"
rc=$?
why=""
if [ "$rc" -ne 1 ] || ! grep -q '"nimber":3,' "$T/endsave.out" ||
    ! grep -q "the answer is complete; only the table could not be saved" "$T/endsave.err"; then
    why="exit $rc: $(head -c 300 "$T/endsave.out" "$T/endsave.err")"
fi
echo "$([ -z "$why" ] && echo PASS || echo FAIL)|endsave rename 1|$(kinds_hit "$T/endsave.log")|1|$why" >> "$T/results"

# ------------------------------------------------ a read-only folder, serially

ro_ops=openw,mkdir,rename,unlink,rmdir,truncate
ro() { # errno dir -- args...: the run, its output in $T/ro.*
    local errno=$1 dir=$2
    shift 3
    rm -f "$T/ro.log"
    faulty "$dir" "$T/ro.log" "$ro_ops" 1 "$errno" 1 -- "$@" > "$T/ro.out" 2> "$T/ro.err"
}
ro_result() { # id runs why
    local result=PASS
    [ -n "$3" ] && result=FAIL
    printf '%s\n' "$result|$1|$(kinds_hit "$T/ro.log")|$2|$(printf '%s' "$3" | tr '\n|' ' /')" >> "$T/results"
}
tree_sum() { (cd "$1" && find . -type f | sort | xargs md5sum); }
for errno in EROFS EACCES; do
    why=""
    # a folder that cannot be created
    ro "$errno" "$T/ro-new" -- build dots 3x3 --dir "$T/ro-new" --quiet
    rc=$?
    if [ "$rc" -ne 1 ] || ! names_file "$T/ro.err" "$T/ro.log" "$errno"; then
        why="a build into a folder that cannot be created: exit $rc: $(head -c 300 "$T/ro.err")"
    elif [ -e "$T/ro-new" ]; then
        why="a build into a folder that cannot be created left $(ls "$T/ro-new")"
    fi
    ro_result "readonly-new $errno" 1 "$why"
    # a finished database and a half-built one: refused, left as they were
    for src in ref33 half33; do
        why=""
        rm -rf "$T/ro"
        cp -r "$T/$src" "$T/ro"
        before=$(tree_sum "$T/ro")
        ro "$errno" "$T/ro" -- build dots 3x3 --dir "$T/ro" --quiet
        rc=$?
        if [ "$rc" -ne 1 ] || ! names_file "$T/ro.err" "$T/ro.log" "$errno"; then
            why="a build in a read-only folder ($src): exit $rc: $(head -c 300 "$T/ro.err")"
        elif [ "$(tree_sum "$T/ro")" != "$before" ]; then
            why="a build in a read-only folder ($src) changed it"
        fi
        ro_result "readonly-$src $errno" 1 "$why"
    done
    # query and verify write nothing: a read-only database answers
    why=""
    rm -rf "$T/ro" && cp -r "$T/ref33" "$T/ro"
    ro "$errno" "$T/ro" -- query --dir "$T/ro" --json "$T/empty33.txt"
    if ! cmp -s "$T/ro.out" "$T/query33.out" || [ -s "$T/ro.log" ]; then
        why="query of a read-only database: $(head -c 300 "$T/ro.err")"
    fi
    if ! ro "$errno" "$T/ro" -- verify --dir "$T/ro" --full || [ -s "$T/ro.log" ]; then
        why="$why verify --full of a read-only database: $(head -c 300 "$T/ro.out" "$T/ro.err")"
    fi
    ro_result "readonly-read $errno" 2 "$why"
done

# ---------------------------------------------------------------- summary

pass=0 fail=0 known=0 runs=0 injected=0 missed=0
declare -A per_op known_cases known_first
while IFS='|' read -r result id hit nruns why; do
    runs=$((runs + nruns))
    [ -z "$hit" ] && [[ $id != readonly-read* ]] && missed=$((missed + 1))
    for op in $hit; do
        injected=$((injected + 1))
        per_op[$op]=$((${per_op[$op]:-0} + 1))
    done
    case $result in
    PASS) pass=$((pass + 1)) ;;
    KNOWN)
        known=$((known + 1))
        diag=${why% (here: *}
        [ -z "${known_cases[$diag]:-}" ] && known_first[$diag]=$id
        known_cases[$diag]=$((${known_cases[$diag]:-0} + 1))
        ;;
    FAIL)
        fail=$((fail + 1))
        echo "FAIL: $id: $why" >&2
        ;;
    esac
done < "$T/results"
# one line per known defect, with its first case
for diag in "${!known_cases[@]}"; do
    echo "known defect (${known_cases[$diag]} cases, first: ${known_first[$diag]}): $diag" >&2
done
ops=""
for op in $(printf '%s\n' "${!per_op[@]}" | sort); do ops="$ops $op ${per_op[$op]}"; done
echo "io faults: $((pass + fail + known)) cases, $runs runs, $injected faults injected (${ops# }), $missed cases whose Nth call never came; $pass passed, $known known, $fail failed; $((SECONDS - start)) s"
[ "$fail" -eq 0 ]
