#!/bin/bash
# The MPI overhead benchmark: one board built by retrodb alone, then by
# retrodb-mpi with 1, 2 and 4 ranks of one thread each, each from an empty
# folder; the wall time of each, and per rank the seconds it was busy and
# the bytes of slice files it read and wrote (the job's own report). Every
# build must end with the checksums of the first. On a machine of fewer
# cores than ranks (--oversubscribe) this measures what sharing costs —
# the exchanges at each level's end, neighbours read from files instead of
# memory, the waits of an uneven share — not a speed-up.
#
#   scripts/bench_mpi.sh                 3x4
#   BOARD=3x5 KEEP=15 BASELINE=0 scripts/bench_mpi.sh
#                                        3x5 --keep-lines 15 (half an hour on
#                                        2 cores), against data/checksums/
#   RANKS="1 2 4 8" MEMORY=1024 SHARE=count scripts/bench_mpi.sh
# SHARE=count deals the slices out by count instead of by size, to compare;
# BASELINE=0 skips the build by retrodb alone, and compares the checksums
# with data/checksums/BOARD[-keepK].txt instead.
set -eu
cd "$(dirname "$0")/.."
RETRODB=${RETRODB:-bin/retrodb}
RETRODB_MPI=${RETRODB_MPI:-bin/retrodb-mpi}
BOARD=${BOARD:-3x4}
RANKS=${RANKS:-1 2 4}
MEMORY=${MEMORY:-1024}
KEEP=${KEEP:-}
BASELINE=${BASELINE:-1}
opts=(--threads 1 --memory "$MEMORY")
[ -n "$KEEP" ] && opts+=(--keep-lines "$KEEP")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -n "${SHARE:-}" ] && export RETRODB_MPI_SHARE=$SHARE
T=$(mktemp -d "${TMPDIR:-/tmp}/retrodb-bench-mpi.XXXXXX")
trap 'rm -rf "$T"' EXIT

checksums() { "$RETRODB" info --dir "$1" | awk '$1 ~ /^[0-9]+$/ {print $1, $2, $4, $6}'; }
now() { date +%s.%N; }

echo "board $BOARD${KEEP:+ --keep-lines $KEEP}, one thread a rank, --memory $MEMORY per rank, $(nproc) cores"
if [ "$BASELINE" = 0 ]; then
    cp "data/checksums/$BOARD${KEEP:+-keep$KEEP}.txt" "$T/ref.sums"
else
    t0=$(now)
    "$RETRODB" build dots "$BOARD" --dir "$T/ref" "${opts[@]}" --quiet > /dev/null
    t1=$(now)
    checksums "$T/ref" > "$T/ref.sums"
    printf '%-12s %8.2f s\n' "retrodb" "$(awk "BEGIN {print $t1 - $t0}")"
    rm -rf "$T/ref"
fi

for n in $RANKS; do
    t0=$(now)
    mpirun --oversubscribe -np "$n" "$RETRODB_MPI" build dots "$BOARD" --dir "$T/np$n" \
        "${opts[@]}" > /dev/null 2> "$T/np$n.log"
    t1=$(now)
    same=$(checksums "$T/np$n" | cmp -s - "$T/ref.sums" && echo "same checksums" || echo "CHECKSUMS DIFFER")
    printf '%-12s %8.2f s  %s\n' "$n rank(s)" "$(awk "BEGIN {print $t1 - $t0}")" "$same"
    # the job's per-rank report, and how uneven the levels were
    sed -n '/^rank  host/,$p' "$T/np$n.log" | grep -v '^database in'
    awk '/ranks busy/ {split($4, b, "\\.\\."); lo += b[1]; hi += b[2]} END {if (hi > 0)
        printf "  levels: the busiest rank %.2f s summed over levels, the least busy %.2f s\n", hi, lo}' \
        "$T/np$n.log"
    rm -rf "$T/np$n"
done
