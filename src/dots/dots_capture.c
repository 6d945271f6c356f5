/*
 * dots_capture.c — the capture rules; see dots_capture.h.
 *
 * Follow the run from a box X with three sides: through its open line
 * into the next box, and on while that box has exactly two sides drawn
 * (the run is a corridor), until the ground, a box with fewer sides, or
 * another box with three sides (the run is then open at both ends, as an
 * opened loop is).
 *
 *  - If the run is not one of the two kinds below, taking X is optimal and
 *    nothing else need be looked at. For a run of one box this is the rule
 *    that a box whose capture gives no new box a third side is simply
 *    taken (taking it leaves every option open: the classical argument
 *    that a player gains nothing by leaving a box to the opponent, who can
 *    take it at any later turn). For a longer run the decision to decline,
 *    which only the last two boxes (four of a run open at both ends) can
 *    make, is still ahead: taking X keeps it.
 *  - A run of exactly two boxes open at one end, or of four open at both,
 *    can be declined: the double-dealing move (the far line of the second
 *    box, or the middle line of the four) leaves the boxes to the opponent
 *    and passes the turn. Such a run is either taken whole or declined.
 *  - With several such runs, every run but one is taken whole and the
 *    last one is taken or declined; which run goes last is branched over.
 *    (Declining one run while leaving another capturable hands the
 *    opponent boxes for nothing.) The last run is looked at again after
 *    the others are taken: two runs may end at the same box, so taking
 *    one can lengthen the other, and its double-dealing line can change
 *    or become a capture.
 *
 * Every other line is never better than these (Berlekamp's "all but two"
 * argument).
 */
#include "dots/dots_capture.h"

#include <limits.h>
#include <stddef.h>

#include "common/bits.h"

static inline int other_box(const dots_box_graph *g, int line, int box)
{
    return g->across[line][0] == box ? g->across[line][1] : g->across[line][0];
}

void dots_box_graph_fill(const dots_board *b, uint64_t *box_mask, int8_t (*across)[2],
                         dots_box_graph *g)
{
    for (int x = 0; x < b->nboxes; x++) {
        box_mask[x] = 0;
        for (int s = 0; s < 4; s++)
            box_mask[x] |= 1ULL << b->box_line[x][s];
    }
    for (int l = 0; l < b->nlines; l++) {
        across[l][0] = (int8_t)b->line_box[l][0];
        across[l][1] = (int8_t)(b->line_nboxes[l] == 2 ? b->line_box[l][1] : -1);
    }
    const int hlines = (b->rows + 1) * b->cols;
    uint64_t vleft = 0;
    for (int i = 0; i < b->rows; i++)
        for (int j = 0; j < b->cols; j++)
            vleft |= 1ULL << (dots_vline(b, i, j) - hlines);
    uint64_t has_left = 0, has_right = 0;
    for (int x = 0; x < b->nboxes; x++) {
        has_left |= (uint64_t)(x % b->cols > 0) << x;
        has_right |= (uint64_t)(x % b->cols < b->cols - 1) << x;
    }
    *g = (dots_box_graph){b->nboxes, box_mask, (const int8_t(*)[2])across, b->cols, hlines, vleft,
                          has_left, has_right};
}

/* Box x = row i, column j is numbered i x cols + j, as its top line is:
 * the tops of all boxes are the first nboxes lines, the bottoms the same
 * shifted by a row, and the left and right sides are the vertical lines
 * with the last (first) of each row left out. */
/* The four sides of every box at once, a bit a box. */
typedef struct {
    uint64_t top, bottom, left, right;
} box_sides;

static inline box_sides sides_of(const dots_box_graph *g, uint64_t drawn)
{
    const uint64_t boxes = g->nboxes == 64 ? ~0ULL : (1ULL << g->nboxes) - 1;
    const uint64_t vertical = drawn >> g->hlines;
    return (box_sides){drawn & boxes, drawn >> g->cols & boxes, rdb_pext(vertical, g->vleft),
                       rdb_pext(vertical >> 1, g->vleft)};
}

uint64_t dots_capture_three(const dots_box_graph *g, uint64_t drawn)
{
    const box_sides s = sides_of(g, drawn);
    const uint64_t one_of_tb = s.top ^ s.bottom, both_tb = s.top & s.bottom;
    const uint64_t one_of_lr = s.left ^ s.right, both_lr = s.left & s.right;
    return (both_tb & one_of_lr) | (one_of_tb & both_lr);
}

/* The boxes with exactly two sides, from their sides: two of top and
 * bottom and neither of left and right, or the other way round, or one
 * of each. */
static inline uint64_t two_of(box_sides s)
{
    const uint64_t one_of_tb = s.top ^ s.bottom, both_tb = s.top & s.bottom;
    const uint64_t one_of_lr = s.left ^ s.right, both_lr = s.left & s.right;
    const uint64_t none_lr = ~(s.left | s.right), none_tb = ~(s.top | s.bottom);
    return (both_tb & none_lr) | (both_lr & none_tb) | (one_of_tb & one_of_lr);
}

uint64_t dots_capture_two(const dots_box_graph *g, uint64_t drawn)
{
    return two_of(sides_of(g, drawn));
}

uint64_t dots_capture_two_links(const dots_box_graph *g, uint64_t drawn, uint64_t *right,
                                uint64_t *down)
{
    const box_sides s = sides_of(g, drawn);
    const uint64_t two = two_of(s);
    /* box x's neighbours: x + 1 right (in its row) and x + cols below; the
     * line between two boxes is open for both or neither */
    *right = two & g->has_right & ~s.right & two >> 1;
    *down = two & ~s.bottom & two >> g->cols;
    return two;
}

int dots_capture_boxes_complete(const dots_box_graph *g, uint64_t drawn)
{
    const box_sides s = sides_of(g, drawn);
    return __builtin_popcountll(s.top & s.bottom & s.left & s.right);
}

static inline int sides(const dots_box_graph *g, uint64_t drawn, int box)
{
    return __builtin_popcountll(drawn & g->box_mask[box]);
}

int dots_capture_scan(const dots_box_graph *g, uint64_t drawn, uint64_t three, int *line,
                      int *boxes, dots_capture_run *runs, int *nruns)
{
    /* Every three-sided box's run first, and which runs touch. */
    struct {
        uint64_t take, decline;
        uint64_t area; /* the run's boxes and the box it ends against */
        int first, len, declinable, touches;
    } run[64];
    int n = 0, touching = 0;
    for (uint64_t left = three; left; left &= left - 1) {
        const int x = __builtin_ctzll(left);
        int first = __builtin_ctzll(g->box_mask[x] & ~drawn);
        uint64_t take = 1ULL << first, decline = 0, area = 1ULL << x;
        int len = 1, both_ends = 0, prev = first, cur = other_box(g, first, x);
        while (cur >= 0 && len <= 4) {
            area |= 1ULL << cur;
            const int k = sides(g, drawn, cur);
            if (k == 3) {
                both_ends = 1;
                len++;
                break;
            }
            if (k != 2)
                break;
            len++;
            int next = __builtin_ctzll(g->box_mask[cur] & ~drawn & ~(1ULL << prev));
            if (len == 2)
                decline = 1ULL << next;
            take |= 1ULL << next;
            prev = next;
            cur = other_box(g, next, cur);
        }
        int touches = 0;
        for (int r = 0; r < n; r++)
            if (run[r].area != area && run[r].area & area) /* (equal: one run, both ends) */
                touches = run[r].touches = 1;
        touching |= touches;
        const int declinable = (len == 2 && !both_ends) || (len == 4 && both_ends);
        run[n++] = (typeof(run[0])){take, decline, area, first, len, declinable, touches};
    }
    *nruns = 0;
    if (n == 0)
        return DOTS_CAPTURE_QUIET;
    /* A run that cannot be declined: take its first box. That changes no
     * box outside the run when the run is two boxes or more (the line
     * lies between two of its boxes) or the first box's line joins two
     * three-sided boxes; a run of one box changes the box it ends against,
     * which is safe only when no other run touches it. */
    for (int r = 0; r < n; r++) {
        if (run[r].declinable || (run[r].len == 1 && run[r].touches))
            continue;
        *line = run[r].first;
        const int a = g->across[*line][0], c = g->across[*line][1];
        *boxes = (three >> a & 1) + (c >= 0 && three >> c & 1);
        return DOTS_CAPTURE_FORCED;
    }
    if (touching) {
        /* Taking a run whole, or a box of one, changes the box another run
         * ends against: the rules for runs below (which take runs whole)
         * do not hold. Every capture and every double-dealing line is a
         * move to search, each once. */
        uint64_t seen = 0;
        for (int r = 0; r < n; r++) {
            const uint64_t t = 1ULL << run[r].first, d = run[r].declinable ? run[r].decline : 0;
            if (!((t | d) & ~seen))
                continue;
            runs[(*nruns)++] = (dots_capture_run){t & ~seen, d & ~seen & ~t};
            seen |= t | d;
        }
        return DOTS_CAPTURE_SEARCH;
    }
    for (int r = 0; r < n; r++) {
        int seen = 0;
        for (int q = 0; q < *nruns; q++)
            seen |= runs[q].take == run[r].take;
        if (!seen)
            runs[(*nruns)++] = (dots_capture_run){run[r].take, run[r].decline};
    }
    return DOTS_CAPTURE_RUNS;
}

static int capture_value(const dots_box_graph *g, uint64_t all, int full_value, uint64_t drawn,
                         dots_quiet_value_fn quiet_value, const dots_capture_memo *memo, void *ctx,
                         int *value);

/* The value of `drawn` as the rules search it (dots_capture_value), its
 * options' values through capture_value, which remembers them. */
static int capture_value_searched(const dots_box_graph *g, uint64_t all, int full_value,
                                  uint64_t drawn, dots_quiet_value_fn quiet_value,
                                  const dots_capture_memo *memo, void *ctx, int *value)
{
    int gain = 0;
    for (;;) {
        if (drawn == all) {
            *value = gain + full_value;
            return 0;
        }
        dots_capture_run runs[64];
        int line, boxes, nruns, v, st;
        switch (dots_capture_scan(g, drawn, dots_capture_three(g, drawn), &line, &boxes, runs,
                                  &nruns)) {
        case DOTS_CAPTURE_QUIET:
            st = quiet_value(ctx, drawn, &v);
            *value = gain + v;
            return st;
        case DOTS_CAPTURE_FORCED:
            drawn |= 1ULL << line;
            gain += boxes;
            continue;
        case DOTS_CAPTURE_SEARCH: {
            /* each move in turn: a capture keeps the turn, a decline passes it */
            int best = INT_MIN;
            for (int r = 0; r < nruns; r++)
                for (uint64_t m = runs[r].take | runs[r].decline; m; m &= m - 1) {
                    const int l = __builtin_ctzll(m);
                    const uint64_t child = drawn | 1ULL << l;
                    const int b = dots_capture_boxes_complete(g, child) -
                                  dots_capture_boxes_complete(g, drawn);
                    st = capture_value(g, all, full_value, child, quiet_value, memo, ctx, &v);
                    if (st)
                        return st;
                    v = b > 0 ? b + v : -v;
                    if (v > best)
                        best = v;
                }
            *value = gain + best;
            return 0;
        }
        default:
            break;
        }
        /* Runs that may be declined: with one, take it or decline it; with
         * several, each in turn is the one left for last, the others taken
         * (dots_solver.c's search_runs, without bounds). */
        int before = dots_capture_boxes_complete(g, drawn), best = INT_MIN;
        for (int k = 0; k < (nruns == 1 ? 2 : nruns); k++) {
            if (nruns == 1 && k == 1) {
                st = capture_value(g, all, full_value, drawn | runs[0].decline, quiet_value,
                                   memo, ctx, &v);
                v = -v;
            } else {
                uint64_t child = drawn;
                for (int r = 0; r < nruns; r++)
                    if (nruns == 1 || r != k)
                        child |= runs[r].take;
                st = capture_value(g, all, full_value, child, quiet_value, memo, ctx, &v);
                v += dots_capture_boxes_complete(g, child) - before;
            }
            if (st)
                return st;
            if (v > best)
                best = v;
        }
        *value = gain + best;
        return 0;
    }
}

static int capture_value(const dots_box_graph *g, uint64_t all, int full_value, uint64_t drawn,
                         dots_quiet_value_fn quiet_value, const dots_capture_memo *memo, void *ctx,
                         int *value)
{
    if (memo && memo->known(ctx, drawn, value))
        return 0;
    const int st = capture_value_searched(g, all, full_value, drawn, quiet_value, memo, ctx, value);
    if (memo && !st)
        memo->remember(ctx, drawn, *value);
    return st;
}

int dots_capture_value(const dots_box_graph *g, uint64_t all, int full_value, uint64_t drawn,
                       dots_quiet_value_fn quiet_value, void *ctx, int *value)
{
    return capture_value(g, all, full_value, drawn, quiet_value, NULL, ctx, value);
}

int dots_capture_value_memo(const dots_box_graph *g, uint64_t all, int full_value,
                            uint64_t drawn, dots_quiet_value_fn quiet_value,
                            const dots_capture_memo *memo, void *ctx, int *value)
{
    return capture_value(g, all, full_value, drawn, quiet_value, memo, ctx, value);
}
