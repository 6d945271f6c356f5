/*
 * dots_capture.h — the capture rules of Dots-and-Boxes: which moves need
 * looking at in a position where some box has three sides, and the value
 * of such a position from the values of the positions without one.
 *
 * A position is *quiet* when no box has exactly three sides drawn. In any
 * other position the player to move need only take, or decline, what is
 * offered (dots_solver.c gives the argument and its tests), so the value
 * of every position follows from the values of quiet ones: the search
 * stops there, and a database of quiet positions (dots_quiet_db.h) stores
 * nothing else.
 */
#ifndef RDB_DOTS_CAPTURE_H
#define RDB_DOTS_CAPTURE_H

#include <stdint.h>

#include "dots/dots_board.h"
#include "dots/loony_endgame.h" /* dots_box_graph */

/* A run of boxes that may be declined: the lines that take it whole, and
 * the double-dealing line that leaves its boxes to the opponent. */
typedef struct {
    uint64_t take;
    uint64_t decline;
} dots_capture_run;

enum {
    DOTS_CAPTURE_QUIET = 0,  /* no box has three sides */
    DOTS_CAPTURE_FORCED = 1, /* one capture is optimal: *line, completing *boxes */
    DOTS_CAPTURE_RUNS = 2,   /* every three-sided box starts a run that may be declined */
    DOTS_CAPTURE_SEARCH = 3  /* runs touch (end against a box of another, or the same box):
                                runs[] hold the moves to search, each a capture (take, one
                                line) and, where the run may be declined, its decline line */
};

/* What the capture rules leave in `drawn`, whose boxes with three sides
 * are the set bits of `three`: one of DOTS_CAPTURE_*. With
 * DOTS_CAPTURE_RUNS, runs[0..*nruns-1] (at most g->nboxes) hold the runs,
 * each once. */
int dots_capture_scan(const dots_box_graph *g, uint64_t drawn, uint64_t three, int *line,
                      int *boxes, dots_capture_run *runs, int *nruns);

/* The boxes of `drawn` with exactly three sides, as a set of box numbers,
 * from four words of sides (top, bottom, left, right of every box) at
 * once. */
uint64_t dots_capture_three(const dots_box_graph *g, uint64_t drawn);

/* The boxes of `drawn` with exactly two sides, the same way. */
uint64_t dots_capture_two(const dots_box_graph *g, uint64_t drawn);

/* The same, and the open lines that join two of them: bit x of *right
 * when box x and the box right of it both have two sides and the line
 * between them is open, of *down the same for the box below x. */
uint64_t dots_capture_two_links(const dots_box_graph *g, uint64_t drawn, uint64_t *right,
                                uint64_t *down);

/* The box graph of board b in the caller's arrays: box_mask[x] the lines
 * of box x, across[l] the boxes on either side of line l (-1 for the
 * edge), and g pointing at them. */
void dots_box_graph_fill(const dots_board *b, uint64_t *box_mask, int8_t (*across)[2],
                         dots_box_graph *g);

/* Boxes complete in `drawn`. */
int dots_capture_boxes_complete(const dots_box_graph *g, uint64_t drawn);

/* The value of a quiet position, from whatever holds it: 0 and *value, or
 * a non-zero status that dots_capture_value passes on. */
typedef int (*dots_quiet_value_fn)(void *ctx, uint64_t drawn, int *value);

/* The value, for the player to move, of any position `drawn` of the board
 * whose lines are `all`: the full board is worth full_value, a quiet
 * position what quiet_value says, any other the best of the options the
 * capture rules leave. Returns 0, or the first non-zero status of
 * quiet_value. */
int dots_capture_value(const dots_box_graph *g, uint64_t all, int full_value, uint64_t drawn,
                       dots_quiet_value_fn quiet_value, void *ctx, int *value);

/* Values the caller remembers for dots_capture_value_memo: known gives 1
 * and *value when the position `drawn` is remembered, 0 otherwise;
 * remember keeps a value (or not: a memo may forget). Both get the ctx
 * given to dots_capture_value_memo. */
typedef struct {
    int (*known)(void *ctx, uint64_t drawn, int *value);
    void (*remember)(void *ctx, uint64_t drawn, int value);
} dots_capture_memo;

/* dots_capture_value, asking memo first for each position it meets and
 * telling it each value it finds. The search meets one position by many
 * orders of captures (runs that touch are taken a box at a time, in
 * every order: without a memo a position of two runs of a and b boxes is
 * met C(a+b, a) times), and the lines of one knot lead to the same
 * captures. */
int dots_capture_value_memo(const dots_box_graph *g, uint64_t all, int full_value,
                            uint64_t drawn, dots_quiet_value_fn quiet_value,
                            const dots_capture_memo *memo, void *ctx, int *value);

#endif
