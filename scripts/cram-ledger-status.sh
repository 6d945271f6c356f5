#!/bin/bash
# cram-ledger-status.sh — what the ledger of a Cram solve (`solve cram
# --ledger`) has established so far, for each root it holds: the nimbers
# some root move is known to reach (so the root's nimber is none of them,
# and at least the least nimber not among them), and for that least
# nimber, the trial under way, how many of the root's moves up to symmetry
# are known to reach another, and which are not answered yet.
#
# usage: scripts/cram-ledger-status.sh LEDGER
#
# For example, while 3x23 runs:
#   3x23 root=000000000000001fffffffffffffffff: 34 moves answered; they reach 0, 1
#   (so the nimber is at least 2); of 2, 30 of the root's 34 moves up to
#   symmetry are known to reach something else; not answered: (0,1)-(1,1)
#   (0,2)-(0,3) (1,0)-(1,1) (1,1)-(1,2)
#
# (one line, at most 8 moves not answered named). Moves are counted up to
# the symmetries that map the root onto itself (a mirror image reaches the
# same nimber); when every one is known to reach another, the trial's
# nimber is the root's, and the line says so. The root is the part of the
# position the solve asks the trials of: the position itself, unless it
# falls into parts. A search also skips a move that leads to the position
# another move leads to (other than by a symmetry of the root) and writes
# it down only when the table knew it at the start, so such a move can
# stay "not answered" after the solve ends; and a trial the solve skips (0
# on an empty board with an even number of cells, one side odd: a
# first-player win) leaves no line.
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
    # The free cells of a root, in free[root, r, c]: the ledger keys a
    # root by its cells in the solver'"'"'s layout (32 hex digits, the lowest
    # cell last), whose rows run along the board'"'"'s longer side, the short
    # side (stride) across, and names moves by board cells. The root may
    # be a part moved to a corner, so its symmetries are those of the box
    # around its cells, top..bottom and left..right.
    function read_root(root, board, hex,    i, d, r, c, stride, tr) {
        split(board, dim, "x")
        tr = dim[2] + 0 > dim[1] + 0
        stride = tr ? dim[1] + 0 : dim[2] + 0
        top[root] = left[root] = 1000; bottom[root] = right[root] = -1
        for (i = 0; i < dim[1] * dim[2]; i++) {
            d = index("0123456789abcdef", tolower(substr(hex, 32 - int(i / 4), 1))) - 1
            if (int(d / 2 ^ (i % 4)) % 2 == 0) continue
            r = tr ? i % stride : int(i / stride)
            c = tr ? int(i / stride) : i % stride
            free[root, r, c] = 1
            if (r < top[root]) top[root] = r
            if (r > bottom[root]) bottom[root] = r
            if (c < left[root]) left[root] = c
            if (c > right[root]) right[root] = c
        }
    }
    # cell (r,c) under symmetry g of the root'"'"'s box (bit 0: rows
    # reversed, bit 1: columns, bit 2: transposed, a square box only), in
    # img_r, img_c
    function map(root, r, c, g,    t) {
        if (g % 2) r = top[root] + bottom[root] - r
        if (int(g / 2) % 2) c = left[root] + right[root] - c
        if (g >= 4) { t = r - top[root]; r = top[root] + c - left[root]; c = left[root] + t }
        img_r = r; img_c = c
    }
    # a move (r1,c1)-(r2,c2) under g, as a number: its cells (r * 128 + c),
    # the first the lower, a * 16384 + b: below 2^31, since mawk writes a
    # bigger number used as a key in six digits and so merges moves
    function image(root, r1, c1, r2, c2, g,    a, b) {
        map(root, r1, c1, g); a = img_r * 128 + img_c
        map(root, r2, c2, g); b = img_r * 128 + img_c
        return a < b ? a * 16384 + b : b * 16384 + a
    }
    # a move as the ledger writes it
    function name(m,    a, b) {
        a = int(m / 16384); b = m % 16384
        return "(" int(a / 128) "," a % 128 ")-(" int(b / 128) "," b % 128 ")"
    }
    # whether g maps the root onto itself
    function fixes(root, g,    r, c) {
        if (g >= 4 && bottom[root] - top[root] != right[root] - left[root]) return 0
        for (r = top[root]; r <= bottom[root]; r++)
            for (c = left[root]; c <= right[root]; c++) {
                map(root, r, c, g)
                if (((root, r, c) in free) != ((root, img_r, img_c) in free)) return 0
            }
        return 1
    }
    # the root moves up to its symmetries: class[root, move] names each
    # move by the least of its images, classes[root] counts them
    function classify(root,    g, r, c, d, least, im) {
        for (g = 0; g < 8; g++) sym[g] = fixes(root, g)
        for (r = top[root]; r <= bottom[root]; r++)
            for (c = left[root]; c <= right[root]; c++)
                for (d = 0; d < 2; d++) {
                    if (!((root, r, c) in free) || !((root, r + 1 - d, c + d) in free)) continue
                    least = image(root, r, c, r + 1 - d, c + d, 0)
                    for (g = 1; g < 8; g++)
                        if (sym[g] && (im = image(root, r, c, r + 1 - d, c + d, g)) < least) least = im
                    class[root, name(image(root, r, c, r + 1 - d, c + d, 0))] = least
                    if (!((root, least) in named)) { named[root, least] = 1; order[root, ++classes[root]] = least }
                }
    }
    /^[ \t]*(#|$)/ { next }
    {
        root = $1 " " $2
        if (!(root in known)) {
            known[root] = 1; roots[++nroots] = root
            read_root(root, $1, substr($2, 6))
            classify(root)
        }
        m = substr($3, 6)
        if (!((root, m) in move)) { move[root, m] = 1; moves[root]++ }
        c = (root, m) in class ? class[root, m] : m
        if ($4 == "is") { value[root, c] = $5; reached[root, $5] = 1 }
        else not[root, c, $5] = 1
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
            # trial k: the classes of moves known to reach a nimber other than k
            n = 0; rest = ""; nleft = 0
            for (j = 1; j <= classes[root]; j++) {
                c = order[root, j]
                if ((root, c, k) in not || ((root, c) in value && value[root, c] != k)) n++
                else if (++nleft <= 8) rest = rest " " name(c)
            }
            printf "; of %d, %d of the root'"'"'s %d moves up to symmetry are known to reach something else", k, n, classes[root]
            if (nleft == 0) printf " (so the nimber is %d)", k
            else printf "; not answered:%s%s", rest, (nleft > 8 ? " ..." : "")
            printf "\n"
        }
    }
' "$1"
