#!/bin/bash
# cram-two-routes.sh — the nimber of a Cram board by two independent runs
# of `retrodb solve cram`, the way data/known-values.md records a new
# value (3x21's two runs):
#
#   route 1: two threads sharing the root's trials, its own table DIR/T1;
#   route 2: one thread (the serial root loop: another order of search), a
#            fresh table DIR/T2, the values of small components read from a
#            nimber table built by the retrograde engine (--db TABLE), and a
#            certificate (a move to each smaller nimber).
#
# usage: scripts/cram-two-routes.sh BOARD DIR TABLE [TT_MB]
#        scripts/cram-two-routes.sh -h|--help
#
#   BOARD  the board, such as 3x22
#   DIR    a folder for one board's runs: the tables, the logs (route1.log,
#          route2.log) and the results (route1.json, route2.json); made if
#          missing
#   TABLE  a Cram nimber table (`retrodb build cram 3x10 --dir TABLE`)
#   TT_MB  each run's table, in megabytes (default 8192: its growth from 8 to
#          16 GB would hold both, 24 GB, and the table stops growing when
#          the memory left is short of that)
#
# Each run saves its table every SAVE_MINUTES minutes and when stopped by
# SIGINT or SIGTERM, with its digest (the entries of 2^24 nodes or more,
# LEDGERS/cram-BOARD-routeN.tt, `solve cram --tt-digest`), and appends every
# answer of its root's trials to its ledger (LEDGERS/cram-BOARD-routeN.txt,
# `solve cram --ledger`) as it comes. So running the same command again
# after a stop (a kill, a reboot) goes on from the saved table, and on
# another machine, where the table is gone, from the ledger and the digest:
# keep LEDGERS somewhere that survives (a repository). A
# finished run's JSON is kept (DIR/routeN.json, and a copy beside its
# ledger, LEDGERS/cram-BOARD-routeN.json) and that run is not made again. The runs go
# one after the other, niced (NICE). Each route has a ledger of its own:
# the second route takes nothing from the first.
#
# Each run's end, exit status and wall time go into its route's log after
# the "=== route" line that began it. Prints each route's nimber, its runs,
# their time and nodes in all (a run stopped by a signal writes no JSON:
# its nodes are those of its last progress line), and the certificate;
# exits 0 when both routes are finished and agree, 1 when they disagree or
# a run failed (its log says why; run the command again to go on), 2 on a
# wrong command line.
#
# Environment (defaults): RETRODB (bin/retrodb beside this script),
# SAVE_MINUTES (15), NICE (10), LEDGERS (DIR), TT_WIDE_MB (each run's
# table of the parts of more than 64 cells, `solve cram --tt-wide-mb`;
# unset: an eighth of TT_MB, at least 16), TT_DIGEST_LOG2 (the digest
# keeps the entries of 2^K nodes or more, `solve cram --tt-digest-log2`;
# unset: 24). A lower K keeps more of a run's work for a new machine in
# a bigger digest: a 5x9 solve stopped halfway and resumed from its
# digest alone redid 63% of what it had done with K = 13, 54% with 11,
# 52% with 9, 25% with 5 (and none from its whole table); see
# data/ledgers/README.md.
set -u

# bash reads a script as it runs it, a command at a time: a run of days
# would go on with whatever the file says by then, were it edited. So
# the whole script is one group, which bash reads before it runs any of it.
{

usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; }
case ${1:-} in
-h | --help)
    usage
    exit 0
    ;;
esac
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    usage >&2
    exit 2
fi
board=$1 dir=$2 table=$3 mb=${4:-8192}
RETRODB=${RETRODB:-$(dirname "$0")/../bin/retrodb}
SAVE_MINUTES=${SAVE_MINUTES:-15}
NICE=${NICE:-10}
LEDGERS=${LEDGERS:-$dir}
if ! [[ $board =~ ^[0-9]+x[0-9]+$ ]]; then
    echo "cram-two-routes: '$board' is not a board such as 3x22" >&2
    exit 2
fi
[ -d "$table" ] || {
    echo "cram-two-routes: no nimber table at '$table' (retrodb build cram 3x10 --dir $table)" >&2
    exit 2
}
mkdir -p "$dir" "$LEDGERS" || exit 1
# a folder holds one board's runs: its tables and results are that board's
if [ -s "$dir/BOARD" ] && [ "$(cat "$dir/BOARD")" != "$board" ]; then
    echo "cram-two-routes: '$dir' holds the runs of $(cat "$dir/BOARD"), not $board" >&2
    exit 2
fi
echo "$board" > "$dir/BOARD" || exit 1

# jq reads the routes' answers: without it, an answered route would look
# unanswered and be run again
command -v jq > /dev/null || {
    echo "cram-two-routes: jq is needed (scripts/install-deps.sh installs it)" >&2
    exit 1
}

# answered FILE: FILE holds a solve's JSON with its nimber (a run stopped
# early leaves it empty, and jq finds no fault in an empty file)
answered() { [ -s "$1" ] && jq -e '.nimber | numbers' "$1" > /dev/null 2>&1; }

# keep_result N: route N's result beside its ledger too, where it is kept
# (a repository)
keep_result() {
    local copy=$LEDGERS/cram-$board-route$1.json
    [ "$LEDGERS" -ef "$dir" ] || cmp -s "$dir/route$1.json" "$copy" || cp "$dir/route$1.json" "$copy" || exit 1
}

# run_route N OPTION...: route N unless its answer is there already
run_route() {
    local n=$1
    shift
    answered "$dir/route$n.json" && return 0
    local start
    start=$(date +%s)
    local ledger=$LEDGERS/cram-$board-route$n.txt digest=$LEDGERS/cram-$board-route$n.tt
    [ -z "${TT_WIDE_MB:-}" ] || set -- "$@" --tt-wide-mb "$TT_WIDE_MB"
    [ -z "${TT_DIGEST_LOG2:-}" ] || set -- "$@" --tt-digest-log2 "$TT_DIGEST_LOG2"
    echo "=== route $n: $(date -u '+%F %T') solve cram $board $* --tt-mb $mb --tt-file $dir/T$n --ledger $ledger --tt-digest $digest" >> "$dir/route$n.log"
    nice -n "$NICE" "$RETRODB" solve cram "$board" "$@" --tt-mb "$mb" --tt-file "$dir/T$n" \
        --tt-save-minutes "$SAVE_MINUTES" --ledger "$ledger" --tt-digest "$digest" --json --progress \
        > "$dir/route$n.json.part" 2>> "$dir/route$n.log"
    local rc=$?
    echo "--- route $n: exit $rc after $(($(date +%s) - start)) s" >> "$dir/route$n.log"
    # a search that ended but could not save its table at the end still
    # gives its answer (exit 1): the answer stands, the table is the last
    # one saved
    if [ "$rc" -eq 1 ] && answered "$dir/route$n.json.part"; then
        echo "cram-two-routes: route $n finished, but its table was not saved at the end ($dir/route$n.log says why)" >&2
        rc=0
    fi
    if [ "$rc" -ne 0 ]; then
        rm -f "$dir/route$n.json.part"
        if [ "$rc" -eq 2 ]; then
            echo "cram-two-routes: route $n refused its command line or a file it was given, such as a table file that needs a bigger TT_MB or TT_WIDE_MB ($dir/route$n.log says why)" >&2
            exit 2
        fi
        echo "cram-two-routes: route $n stopped (exit $rc; $dir/route$n.log says why): the same command goes on from its table" >&2
        exit 1
    fi
    if ! answered "$dir/route$n.json.part"; then
        echo "cram-two-routes: route $n exited 0 with no nimber ($dir/route$n.json.part, $dir/route$n.log)" >&2
        exit 1
    fi
    mv "$dir/route$n.json.part" "$dir/route$n.json"
}

run_route 1 --threads 2
keep_result 1
run_route 2 --threads 1 --db "$table" --certificate
keep_result 2

field() { jq -r "$2" "$dir/route$1.json"; }
# route_total N: route N over all its runs (a stopped run writes no JSON):
# how many, their wall time (each run's "--- route" line), and their nodes
# (each earlier run's last progress line, the last run's JSON)
route_total() {
    awk -v last="$(field "$1" .nodes)" '
        /^=== route/ { runs++ }
        /^--- route/ { secs += $(NF - 1); ended++ }
        /^cram [0-9]+x[0-9]+: [0-9]+ s, [0-9.]+ M nodes/ { nodes[runs] = $5 * 1e6 }
        END {
            total = last
            for (r = 1; r < runs; r++) total += nodes[r]
            printf "%d run%s", runs, runs == 1 ? "" : "s"
            if (ended == runs) printf ", %d s", secs
            else if (ended > 0) printf ", %d s in the %d timed", secs, ended
            printf ", %.3g nodes", total
        }' "$dir/route$1.log"
}
n1=$(field 1 .nimber) n2=$(field 2 .nimber)
for n in 1 2; do
    echo "route $n: nimber $(field $n .nimber); $(route_total $n) in all ($dir/route$n.log)"
done
echo "certificate: $(jq -c '.certificate' "$dir/route2.json")"
if [ "$n1" = "$n2" ]; then
    echo "$board: nimber $n1, the two routes agree"
    exit 0
fi
echo "$board: the routes disagree ($n1 and $n2)" >&2
exit 1
}
