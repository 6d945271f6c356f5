/*
 * cram_board.h — the geometry of a Cram board of R x C cells, and its ASCII
 * diagrams.
 *
 * Cell (r, c) is bit r*C + c of a uint64_t, so a board has at most 64 cells.
 * A position is a set of cells: the Cram table builder and the solver speak
 * of the covered cells or of the free cells, as each function says. A move
 * covers the two cells of one domino (two orthogonally adjacent cells).
 *
 * Dominoes are listed once per board: the horizontal ones first, in
 * row-major order of their left cell, then the vertical ones in row-major
 * order of their top cell. The board's symmetries (4 for a rectangle, 8 for
 * a square) are permutations of cells, transform 0 being the identity.
 * Everything here is computed once per board; nothing is on a hot path.
 *
 * A diagram is R lines of C characters, '.' for a free cell and '#' for a
 * covered one.
 */
#ifndef RDB_CRAM_BOARD_H
#define RDB_CRAM_BOARD_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "cram/cram_wide.h"

#define CRAM_MAX_CELLS 64
#define CRAM_MAX_DOMINOES 112
#define CRAM_MAX_TRANSFORMS 8

typedef struct {
    int rows, cols, ncells;          /* cell (r,c) is bit r*cols + c */
    int ndominoes;
    uint64_t domino[CRAM_MAX_DOMINOES];   /* the two cells' bits; horizontal
                                             dominoes first in row-major order
                                             of their left cell, then vertical
                                             ones in row-major order of their
                                             top cell */
    uint8_t domino_cell[CRAM_MAX_DOMINOES][2]; /* the two cells, smaller first */
    int ntransforms;                 /* 4 for a rectangle, 8 for a square;
                                        transform 0 = identity */
    uint8_t transform[CRAM_MAX_TRANSFORMS][CRAM_MAX_CELLS]; /* cell -> cell;
                                        each maps the board onto itself */
} cram_board;

/* Set up the R x C board: rows, cols >= 1 and rows*cols <= 64, else
 * RDB_E_INPUT ("cram board 9x8 has 72 cells; at most 64 fit"). */
rdb_status cram_board_init(cram_board *b, int rows, int cols, rdb_error *err);

/* Image of a set of cells under transform t (0 <= t < b->ntransforms). */
uint64_t cram_board_transform(const cram_board *b, int t, uint64_t cells);

/* Parse a diagram: R lines of C characters, '.' a free cell, '#' a covered
 * one. Blank lines before and after and trailing whitespace (spaces, tabs,
 * CR) are ignored; every row must have the same length and the board at
 * most 64 cells. On success stores the shape and the set of covered cells;
 * anything else is RDB_E_INPUT with a message "<source>: line L, column C:
 * ..." naming where the input went wrong. */
rdb_status cram_diagram_parse(const char *text, const char *source, int *rows, int *cols,
                              uint64_t *covered, rdb_error *err);

/* Print the diagram of a position (one line per row, newline-terminated). */
void cram_diagram_print(FILE *f, int rows, int cols, uint64_t covered);

/* The same for boards of up to 128 cells (the solver's, cram_wide.h). */
rdb_status cram_diagram_parse_wide(const char *text, const char *source, int *rows, int *cols,
                                   cram_wset *covered, rdb_error *err);
void cram_diagram_print_wide(FILE *f, int rows, int cols, cram_wset covered);

/* The two cells (r * cols + c, smaller first) of domino d of the rows x
 * cols board, numbered as above, on boards of up to 128 cells; returns 0
 * when the board has no domino d. */
int cram_domino_cells(int rows, int cols, int d, int cell[2]);

#endif
