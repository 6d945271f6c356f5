/*
 * loony_endgame.h — the exact value of a simple loony endgame, without
 * search.
 *
 * A position is a simple loony endgame when every box not yet taken has
 * exactly two sides drawn. Its open lines then fall into chains (runs of
 * boxes whose two ends reach the edge of the board) and loops (closed
 * rings of boxes), every move hands boxes over, and the game is decided by
 * the order in which the components are opened and by the replies to each
 * opening (take everything, or take all but the last two boxes of a chain,
 * all but four of a loop, and hand those over with the double-dealing
 * move). Those choices depend only on the multiset of components, so the
 * value comes from a small table over sub-multisets instead of a search of
 * the lines (loony_endgame.c gives the recurrence and why it is exact).
 */
#ifndef RDB_LOONY_ENDGAME_H
#define RDB_LOONY_ENDGAME_H

#include <stdint.h>

/* The boxes of a board as the solver sees them: the lines of each box and
 * the boxes on either side of each line (-1 for the edge); and, for
 * dots_capture_three, the board's shape (dots_box_graph_fill sets it). */
typedef struct {
    int nboxes;
    const uint64_t *box_mask;
    const int8_t (*across)[2];
    int cols, hlines;  /* boxes in a row; horizontal lines, numbered first */
    uint64_t vleft;    /* the vertical lines left of a box, from the first */
    uint64_t has_left, has_right; /* the boxes with a box left (right) of them */
} dots_box_graph;

/* Whether `drawn`, whose boxes have cnt[] sides drawn, is a simple loony
 * endgame that this evaluates; if so, *value gets the net number of boxes
 * the player to move takes from here on, plus full_value (the value of the
 * full board to whoever takes the last box). Returns 0 for any other
 * position, and for the rare multisets too varied for its table. */
int dots_simple_endgame(const dots_box_graph *g, uint64_t drawn, const int8_t *cnt,
                        int full_value, int *value);

/* The open lines of `drawn` (no box with three sides) that need not be
 * searched because another line opens the same component to the same
 * effect. A chain whose ends both reach the edge, or a loop, every one of
 * whose boxes has two sides drawn, is independent of the rest of the
 * board: whichever line of it is drawn, the opponent's replies (take it
 * all, or all but two or four) end in the same positions once the boxes
 * are taken, so one line stands for all; of a chain of two, the middle
 * line, since drawn at an end it gives the opponent the further option of
 * declining both boxes. */
uint64_t dots_redundant_openings(const dots_box_graph *g, uint64_t drawn, const int8_t *cnt);

#endif
