#!/bin/sh
# fuzz.sh — runs the libFuzzer builds of the fuzz harnesses (`make fuzz`,
# `make fuzz-smoke`): each target named on the command line for
# FUZZ_SECONDS on its seed corpus, then a summary of which targets found
# something.
#
# New corpus entries go to $FUZZ_BUILD/corpus/<target>/ (kept between runs,
# outside the tree: `-merge=1` into tests/fuzz/corpus/ by hand when they
# are worth keeping); what crashes, leaks, hangs or runs out of memory goes
# to tests/fuzz/crashes/<target>/, where `make test` replays it. Exits 1
# when some target found something.

set -u
: "${FUZZ_BUILD:=build-fuzz}" "${FUZZ_SECONDS:=60}" "${FUZZ_FLAGS:=}"

# The harnesses that read files write one per input: memory is faster.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
    TMPDIR=/dev/shm
    export TMPDIR
fi

found=""
for t in "$@"; do
    bin="$FUZZ_BUILD/fuzz_$t"
    seeds="tests/fuzz/corpus/$t"
    scratch="$FUZZ_BUILD/corpus/$t"
    crashes="tests/fuzz/crashes/$t"
    log="$FUZZ_BUILD/fuzz_$t.log"
    mkdir -p "$scratch" "$crashes" "$seeds"
    before=$(ls "$crashes" | wc -l)
    echo "fuzz: $t for ${FUZZ_SECONDS}s (log: $log)"
    # One thread: the slice reader runs OpenMP loops, and more threads
    # would make runs slower and less repeatable, not find more.
    # shellcheck disable=SC2086
    OMP_NUM_THREADS=1 "$bin" -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$crashes/" $FUZZ_FLAGS \
        "$scratch" "$seeds" >"$log" 2>&1
    rc=$?
    after=$(ls "$crashes" | wc -l)
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb):' "$log" |
        sed "s/^/fuzz: $t /"
    if [ "$rc" -ne 0 ] || [ "$after" -ne "$before" ]; then
        grep -m1 -E '^==[0-9]+==ERROR|runtime error|^[a-z ]*: .*abort|deadly signal|out-of-memory|timeout' "$log" |
            sed "s/^/fuzz: $t /"
        found="$found $t"
    fi
done
# Only the folders something went into are worth keeping.
rmdir tests/fuzz/crashes/* 2>/dev/null
rmdir tests/fuzz/crashes 2>/dev/null

if [ -n "$found" ]; then
    echo "fuzz: found something in:$found (inputs in tests/fuzz/crashes/, logs in $FUZZ_BUILD/)"
    exit 1
fi
echo "fuzz: nothing found in $*"
exit 0
