/*
 * dots_board.h — the geometry of a Dots-and-Boxes board of R x C boxes.
 *
 * Lines are numbered once and for all: the horizontal lines first, row by
 * row (h<i>,<j> is line i*C + j, i = 0..R dot rows from the top, j = 0..C-1
 * box columns), then the vertical lines (v<i>,<j> is line (R+1)*C +
 * i*(C+1) + j, i = 0..R-1 box rows, j = 0..C dot columns). A set of lines is
 * a uint64_t with bit <line id> set for each line drawn, so a board may have
 * at most 64 lines (2RC + R + C <= 64).
 *
 * The board's symmetries (4 for a rectangle, 8 for a square) are given as
 * permutations of line ids. Everything here is computed once per board; no
 * function is on a hot path.
 */
#ifndef RDB_DOTS_BOARD_H
#define RDB_DOTS_BOARD_H

#include <stdint.h>

#include "common/error.h"

#define DOTS_MAX_LINES 64
#define DOTS_MAX_BOXES 32
#define DOTS_MAX_TRANSFORMS 8

typedef struct {
    int rows, cols;                         /* boxes */
    int nlines, nboxes;
    int box_line[DOTS_MAX_BOXES][4];        /* top, bottom, left, right */
    int line_nboxes[DOTS_MAX_LINES];        /* 1 on the border, else 2 */
    int line_box[DOTS_MAX_LINES][2];        /* boxes the line touches */
    int ntransforms;                        /* 4 or 8; entry 0 is identity */
    uint8_t transform[DOTS_MAX_TRANSFORMS][DOTS_MAX_LINES]; /* line -> line */
} dots_board;

/* Set up the R x C board. Fails (RDB_E_INPUT) when it has over 64 lines. */
rdb_status dots_board_init(dots_board *b, int rows, int cols, rdb_error *err);

/* Line id of h<i>,<j> and v<i>,<j>. */
int dots_hline(const dots_board *b, int i, int j);
int dots_vline(const dots_board *b, int i, int j);

/* Write the line's name ("h0,1", "v2,3") into buf (at least 32 bytes). */
void dots_line_name(const dots_board *b, int line, char *buf);

/* Parse a line name; returns the line id or -1. */
int dots_parse_line_name(const dots_board *b, const char *name);

/* The set of all lines, of the border lines, and of the left and bottom
 * border lines (the Icelandic start). */
uint64_t dots_all_lines(const dots_board *b);
uint64_t dots_border_lines(const dots_board *b);
uint64_t dots_icelandic_lines(const dots_board *b);

/* The start lines of a named variant ("empty", "swedish", "icelandic") in
 * *lines: 0, or -1 for a name that is none of them. */
int dots_variant_lines(const dots_board *b, const char *variant, uint64_t *lines);

/* Apply transform t to a set of lines. */
uint64_t dots_transform_lines(const dots_board *b, int t, uint64_t lines);

/* Number of boxes that drawing `line` completes in position `drawn` (which
 * must not contain it): 0, 1 or 2. */
int dots_boxes_completed(const dots_board *b, uint64_t drawn, int line);

#endif
