/*
 * dots_corridors.h — the capture moves of a quiet position, a corridor at
 * a time, in closed form.
 *
 * In a quiet position (no box with three sides) a line gives a box its
 * third side exactly when the box has two sides drawn, and then the line
 * is one of that box's two open lines. The boxes with two sides drawn
 * link up through their open lines into *corridors*: a path of L boxes
 * b1..bL with lines e0..eL, e0 and eL leading to its ends (the edge, or a
 * box with at most one side drawn), or a cycle of L boxes and L lines.
 * Every capture move of the position is a line of one corridor.
 *
 * The capture rules (dots_capture.h) value every line of a corridor
 * alike, from the value v of X, the position with every line the capture
 * of the corridor draws (the boxes of the corridor taken, each end box one
 * side more): for the player who draws the line,
 *
 *   path, L = 1:      -(1 + v)
 *   path, L = 2:      -(2 + v) for the middle line, -|2 + v| for the two
 *                     end lines (never better)
 *   path, L >= 3:     -(L - 2) - |2 + v|, whichever line
 *   cycle:            -(L - 4) - |4 + v|, whichever line
 *   knot:             -(N - 2) - |2 + v|, whichever line, N = L + 1 + M
 *                     (below)
 *
 * Why, following dots_capture_value line by line (the opponent moves in
 * the position after the line; -value is the mover's):
 *  - Path, drawn at an end (e0, say): b1 has three sides and its run goes
 *    b1, b2, .. up to the far end, which is the edge or a box with at most
 *    one side, even after e0 gave the near end's box one more: so either
 *    the ends differ or they are one box with no side drawn. (A *knot*,
 *    both ends at one box with one side, is the last case.) A run of three boxes or more open at one end cannot
 *    be declined: its first box is taken (one box, the turn kept), L - 2
 *    times, until two are left. Those two are taken (2 + v, every line of
 *    the corridor drawn: X) or declined by drawing the far line, after
 *    which the player takes both, the only option left for a run of two
 *    three-sided boxes (-(2 + v)). Hence (L - 2) + |2 + v| for L >= 2; for
 *    L = 1 the run is the box alone and is taken: 1 + v.
 *  - Path, drawn at e_i inside: b_i and b_i+1 have three sides, two runs
 *    towards the two ends, of i and L - i boxes. Runs of one box and runs
 *    of three or more are taken a box at a time as above; with L >= 3 some
 *    run is two boxes at least, so L - 2 boxes are taken and one run of two
 *    is left (or two, each in turn left last, the other taken: the same
 *    options): (L - 2) + |2 + v| again. With L = 2 both runs are single
 *    boxes: 2 + v. When both runs end against one box (with no side: L is
 *    3 at least on a grid) they touch, and the rules search every capture
 *    and double-dealing line of both in every order instead; but taking
 *    one run changes the other only by that box's one side, which leaves
 *    it an end, so every order ends in the same options and the same
 *    value.
 *  - Cycle: drawing any line gives its two boxes three sides and one run
 *    round the cycle, ending against a box with three sides at both ends;
 *    it cannot be declined until four boxes are left, and four are taken
 *    or declined by the middle line (the player then takes both pairs):
 *    (L - 4) + |4 + v|.
 *  - Knot: both end lines lead to one box K with one side drawn (L is 3
 *    at least: a grid's boxes share one line at most, and round K they
 *    close a cycle). K's third open line f leads to the edge, to a box
 *    with at most one side, or to a box with two: then f is an end line
 *    of another corridor C, a path (its other end is not K, whose open
 *    lines are e0, eL and f), of M boxes (M = 0 without one). Once K has
 *    three sides, the run goes on through f into C to C's far end. Drawn
 *    at e0 (or eL), K gets its second side and b1 its third: the run b1 ..
 *    bL, K (eL its third side), C's boxes, N = L + 1 + M boxes open at
 *    one end, as a path's: (N - 2) + |2 + v|, X with the lines of the
 *    knot, f and C's all drawn. Drawn inside, at e_i: the runs b_i .. b1
 *    and b_i+1 .. bL both end against K; whichever is taken first gives K
 *    its second side, the other its third, and the run goes on through K
 *    and C: N boxes and the same X whatever the order, the last two of
 *    them taken or declined, (N - 2) + |2 + v|. Declining earlier (the
 *    last two boxes of one run, by its line into K) hands the opponent
 *    those two, K and C's M boxes, 3 + M in all, where the last two
 *    handed give N - 4 - v: never better.
 * In each case X is quiet: the corridor's boxes are complete and an end
 * box had at most one side drawn and gets one more.
 *
 * So a position's capture moves need one value each corridor, X's,
 * instead of following each line's captures. tests/test_corridors.c
 * checks the closed forms against dots_capture_value with arbitrary
 * values for the quiet positions, knots among them.
 */
#ifndef RDB_DOTS_CORRIDORS_H
#define RDB_DOTS_CORRIDORS_H

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "dots/loony_endgame.h" /* dots_box_graph */

enum {
    DOTS_CORRIDOR_PATH = 0,  /* ends at the edge, at two boxes, or twice at one box with no
                                side drawn */
    DOTS_CORRIDOR_CYCLE = 1, /* every box of it has two sides, round */
    DOTS_CORRIDOR_KNOT = 2   /* both ends at one box with one side */
};

typedef struct {
    uint64_t lines; /* its open lines: L + 1 (path, knot) or L (cycle) */
    uint64_t ends;  /* path, knot: e0 and eL, the lines to its ends */
    uint64_t taken; /* the lines its capture draws, X's less the position's: its lines, and
                       a knot's f and the lines of the corridor beyond f */
    int boxes;      /* L */
    int run;        /* the boxes its capture takes: L, a knot's N = L + 1 + M */
    int kind;       /* DOTS_CORRIDOR_* */
} dots_corridor;

/* The corridors of the quiet position `drawn` into out[] (room for
 * g->nboxes); returns how many. */
int dots_corridors(const dots_box_graph *g, uint64_t drawn, dots_corridor *out);

/* The best value of drawing a line of corridor c, for the player who
 * draws it, given the value v of X (the position with c->taken drawn
 * too): from its kind and run alone. */
static inline int dots_corridor_best(const dots_corridor *c, int v)
{
    if (c->kind == DOTS_CORRIDOR_CYCLE)
        return -(c->run - 4) - abs(4 + v);
    if (c->run <= 2)
        return -(c->run + v);
    return -(c->run - 2) - abs(2 + v);
}

/* The most that drawing a line of c can give its player, whatever X's
 * value v: a path of three boxes or more, or a knot, at most 2 - run
 * (its value is that less |2 + v|), a cycle at most 4 - run (that less
 * |4 + v|); a path of one or two boxes, -(run + v), as much as X allows,
 * so INT_MAX here. A position whose best move so far is worth this much
 * needs no value of X for the corridor: it cannot do better. */
static inline int dots_corridor_most(const dots_corridor *c)
{
    if (c->kind == DOTS_CORRIDOR_CYCLE)
        return 4 - c->run;
    return c->run <= 2 ? INT_MAX : 2 - c->run;
}

/* The same for line `line` of c: differs from the best only for the end
 * lines of a path of two boxes. */
static inline int dots_corridor_line(const dots_corridor *c, int line, int v)
{
    if (c->kind == DOTS_CORRIDOR_PATH && c->boxes == 2 && c->ends >> line & 1)
        return -abs(2 + v);
    return dots_corridor_best(c, v);
}

#endif
