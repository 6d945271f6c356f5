#!/bin/bash
# cram-ledger-status.sh — what the ledger of a Cram solve (`solve cram
# --ledger`) has established so far, for each root it holds: the nimbers
# some root move is known to reach (so the root's nimber is none of them,
# and at least the least nimber not among them), and for that least
# nimber, the trial under way, how many root moves are known to reach
# another.
#
# usage: scripts/cram-ledger-status.sh LEDGER
#
# For example, while 3x23 runs:
#   3x23 root=000000000000001fffffffffffffffff: 24 moves answered; they reach 0, 1
#   (so the nimber is at least 2); of 2, 20 moves are known to reach something else
#
# (one line). A move the solve leaves out as the twin of another (its
# mirror image) appears only when the table knew it at the start, so the
# count of moves answered may stop short of the board's moves; and a trial
# the solve skips (0 on an empty board with an even number of cells, one
# side odd: a first-player win) leaves no line.
# Exits 1 when the file cannot be read, 2 on a wrong command line.
set -u
if [ $# -ne 1 ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
    sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0" >&2
    [ $# -eq 1 ] && exit 0
    exit 2
fi
[ -r "$1" ] || {
    echo "cram-ledger-status: cannot read '$1'" >&2
    exit 1
}
awk '
    /^[ \t]*(#|$)/ { next }
    {
        root = $1 " " $2
        if (!(root in known)) { known[root] = 1; roots[++nroots] = root }
        if (!((root, $3) in move)) { move[root, $3] = 1; moves[root]++ }
        if ($4 == "is") { value[root, $3] = $5; reached[root, $5] = 1 }
        else not[root, $3, $5] = 1
    }
    END {
        for (i = 1; i <= nroots; i++) {
            root = roots[i]
            found = ""
            for (v = 0; v < 128; v++)
                if ((root, v) in reached) found = found (found == "" ? "" : ", ") v
            for (k = 0; (root, k) in reached; k++) ;
            printf "%s: %d moves answered; ", root, moves[root]
            if (found == "") printf "no nimber reached yet"
            else if (k > 0) printf "they reach %s (so the nimber is at least %d)", found, k
            else printf "they reach %s (so the nimber is none of these)", found
            # trial k: the moves known to reach a nimber other than k
            n = 0
            for (key in move) {
                split(key, part, SUBSEP)
                if (part[1] != root) continue
                if ((root, part[2], k) in not || ((root, part[2]) in value && value[root, part[2]] != k)) n++
            }
            printf "; of %d, %d moves are known to reach something else\n", k, n
        }
    }
' "$1"
