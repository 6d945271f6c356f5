#!/bin/sh
# prove-parts.sh — runs a long `retrodb solve dots --prove` as N processes
# sharing one ledger (--part K/N), each in the background with its own log,
# restarted when it dies (a kill, a crash, the machine's reboot and this
# script run again), until its part is done. A configuration error (exit 2)
# is not retried. When every part has finished, run the same solve command
# once more without --part: it combines the parts from the ledger.
#
#   scripts/prove-parts.sh N LOGDIR -- solve dots 4x5 --prove 0 --ledger L [options]
#
# An argument holding {part} gets the part's number in its place, so that
# each part can keep its own table: --tt-file 4x5-{part}.tt
#
# RETRODB names the program (default bin/retrodb).
set -u
if [ $# -lt 4 ] || [ "$3" != "--" ]; then
    echo "usage: $0 N LOGDIR -- solve dots ... --prove V --ledger FILE [options]" >&2
    exit 2
fi
n=$1 logdir=$2
shift 3
RETRODB=${RETRODB:-bin/retrodb}
mkdir -p "$logdir" || exit 1
k=0
while [ "$k" -lt "$n" ]; do
    log="$logdir/part-$k-of-$n.log"
    (
        # the arguments again, with {part} replaced by k
        count=$#
        for arg in "$@"; do
            set -- "$@" "$(printf '%s' "$arg" | sed "s/{part}/$k/g")"
        done
        shift "$count"
        while :; do
            echo "$(date -u +%FT%TZ) start part $k/$n: $RETRODB $* --part $k/$n" >> "$log"
            "$RETRODB" "$@" --part "$k/$n" >> "$log" 2>&1
            rc=$?
            echo "$(date -u +%FT%TZ) exit $rc" >> "$log"
            [ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] && break
            sleep 10
        done
    ) &
    echo "part $k/$n: pid $!, log $log"
    k=$((k + 1))
done
