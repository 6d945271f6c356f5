/*
 * cram_window.h — the box of a Cram board that a position's play can
 * reach, so that the solver takes a position on a board more than 8
 * cells across both ways (9x9 to 11x11) in its quickest layout, at most 8
 * cells across (cram_component.h), whenever the position allows.
 *
 * A position's nimber depends only on the dominoes it has free, so the
 * cells of no free domino are as good as covered, and the smallest box
 * holding every free domino is a board of its own with the same nimber
 * and the same moves. When that box is too wide as well (two corners of
 * a 9x9 board left free, say), the free dominoes often fall apart into
 * regions of their own, each a position in a box of its own, narrower: a
 * sum of games, whose nimber is the nim-sum of the regions'. A region (or
 * box) still more than 8 cells across both ways is laid out up to 11
 * across (CRAM_MAX_STRIDE), components of its taller parts as 128-bit
 * sets. Cells and
 * dominoes of a box map back to the board's (cram_board.h's numbers: cell
 * r * cols + c, horizontal dominoes first), so that a move found in the
 * box is printed on the board.
 */
#ifndef RDB_CRAM_WINDOW_H
#define RDB_CRAM_WINDOW_H

#include "common/error.h"
#include "cram/cram_wide.h"

/* The layout the solver is quickest in: a board's shorter side at most
 * this many cells (it takes up to CRAM_MAX_STRIDE). */
#define CRAM_WINDOW_MAX_ACROSS 8

typedef struct {
    int rows, cols;    /* the board */
    int top, left;     /* the box's first row and column on the board */
    int height, width; /* the box (1 x 1 when no domino is free) */
} cram_window;

/* The box of the free dominoes of the position whose free cells are
 * free_cells on the rows x cols board (at most 128 cells). */
void cram_window_of(int rows, int cols, cram_wset free_cells, cram_window *w);

/* Whether a board is worth cutting to its window before the solver takes
 * it: both sides longer than CRAM_WINDOW_MAX_ACROSS. */
int cram_window_needed(int rows, int cols);

/* At most this many regions: each has two cells or more. */
#define CRAM_WINDOW_MAX_REGIONS 64

/* The boards the solver is to take for a position, as many as it returns,
 * each in w[i] with the position's free cells there in box_free[i]: one,
 * the board itself, when a side is CRAM_WINDOW_MAX_ACROSS or shorter;
 * else one, the box of the free dominoes, when that is so narrow, or when
 * not by_region; else the regions of the free dominoes (cells joined by
 * free dominoes: positions that no move of one touches the other, so that
 * the nimber is the nim-sum of theirs), each in its own box. */
int cram_window_split(int rows, int cols, cram_wset free_cells, int by_region,
                      cram_window w[CRAM_WINDOW_MAX_REGIONS], cram_wset box_free[CRAM_WINDOW_MAX_REGIONS]);

/* The free dominoes' cells of a board's set, as cells of the box. */
cram_wset cram_window_cells(const cram_window *w, cram_wset board_cells);

/* A cell of the box (r * width + c) as a cell of the board. */
int cram_window_board_cell(const cram_window *w, int cell);

/* A domino of the box (cram_domino_cells' numbers on height x width) as
 * the board's number of the same domino. */
int cram_window_board_domino(const cram_window *w, int domino);

#endif
