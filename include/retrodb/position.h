/*
 * retrodb/position.h — positions as people write them, turned into the
 * sets of lines and cells that retrodb/probe.h looks up, and back.
 *
 * Dots-and-Boxes: a position of an R x C board (boxes) is a set of line
 * ids, bit l set when line l is drawn. h<i>,<j> is the horizontal line in
 * dot row i (0..R, top to bottom) over box column j (0..C-1), line id
 * i*C + j; v<i>,<j> is the vertical line in box row i (0..R-1) at dot
 * column j (0..C, left to right), line id (R+1)*C + i*(C+1) + j. A board
 * has at most 64 lines (2RC + R + C <= 64).
 *
 * A Dots-and-Boxes diagram is the text `retrodb query` reads: 2R+1 lines
 * of 2C+1 characters, '+' at the dots, '-' for a drawn and ' ' for an open
 * horizontal line, '|' or ' ' for a vertical line, ' ' or a letter in a
 * box (a letter marks a box already taken and is ignored here). Trailing
 * spaces may be missing; blank lines before and after are ignored:
 *
 *     +-+ +
 *         |
 *     + + +
 *
 * is the 1x2 board with h0,0 and v0,2 drawn.
 *
 * Cram: a position of an R x C board is the set of covered cells, cell
 * (r, c) being bit r*C + c (at most 64 cells). A Cram diagram is R lines
 * of C characters, '.' for a free cell and '#' for a covered one.
 *
 * Errors: a malformed input is RDB_E_INPUT, with a message that says what
 * is wrong and where ("position.txt: line 3, column 2: missing dot '+'
 * (found '-')"); the out-parameters are then 0. Nothing here touches a
 * file or a global: every function may be called from any thread.
 */
#ifndef RETRODB_POSITION_H
#define RETRODB_POSITION_H

#include <stddef.h>
#include <stdint.h>

#include "retrodb/api.h"
#include "retrodb/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enough bytes for the name of any line of any board, terminator
 * included ("h21,0"). */
#define RDB_LINE_NAME_MAX 16

/* Parse a Dots-and-Boxes diagram (NUL-terminated text) into its board and
 * the set of lines drawn. source names the text in messages (a file name;
 * NULL for "diagram").
 * Errors: RDB_E_INPUT when the text is no diagram (naming the line and
 * column) or its board has more than 64 lines. */
RDB_API rdb_status rdb_dots_parse_diagram(const char *text, const char *source, int *rows,
                                          int *cols, uint64_t *lines, rdb_error *err);

/* Parse a list of line names of the rows x cols board, separated by white
 * space ("h0,0 v1,2"), into the set of those lines. An empty list is the
 * empty set.
 * Errors: RDB_E_INPUT for a board with no box or more than 64 lines, a
 * name that is no line of the board (the message names it and the lines
 * the board has), or a line named twice. */
RDB_API rdb_status rdb_dots_parse_lines(int rows, int cols, const char *names, uint64_t *lines,
                                        rdb_error *err);

/* The line id of one line name ("v1,2") of the rows x cols board.
 * Errors: RDB_E_INPUT for a bad board or a name that is no line of it;
 * *line is then -1. */
RDB_API rdb_status rdb_dots_line_id(int rows, int cols, const char *name, int *line,
                                    rdb_error *err);

/* Write the name of line `line` of the rows x cols board ("h0,1") into buf
 * (size bytes; RDB_LINE_NAME_MAX always suffice).
 * Errors: RDB_E_INPUT for a bad board, a line id outside 0 .. lines-1, or
 * a buffer too small; buf then holds "" (when size > 0). */
RDB_API rdb_status rdb_dots_line_name(int rows, int cols, int line, char *buf, size_t size,
                                      rdb_error *err);

/* Parse a Cram diagram (NUL-terminated text) into its board and the set of
 * covered cells. source names the text in messages (NULL for "diagram").
 * Errors: RDB_E_INPUT when the text is no diagram (naming the line and
 * column), its rows differ in length, or the board has more than 64
 * cells. */
RDB_API rdb_status rdb_cram_parse_diagram(const char *text, const char *source, int *rows,
                                          int *cols, uint64_t *covered, rdb_error *err);

/* The same for boards of up to 128 cells (the Cram solver's,
 * retrodb/solve.h): cell i is covered when bit i % 64 of covered[i / 64]
 * is set. */
RDB_API rdb_status rdb_cram_parse_diagram_wide(const char *text, const char *source, int *rows,
                                               int *cols, uint64_t covered[2], rdb_error *err);

/* How a position was written (rdb_position_read). */
typedef enum {
    RDB_WRITTEN_DIAGRAM = 0, /* a diagram: the whole position */
    RDB_WRITTEN_SET = 1,     /* the whole set: a DBN string (Dots), covered cells (Cram) */
    RDB_WRITTEN_MOVES = 2,   /* moves played from the start */
} rdb_written_form;

/* A position in any form `retrodb query` reads, on the rows x cols board
 * of game "dots" or "cram" whose start has the lines `start` drawn (0 for
 * Cram), told apart by their look:
 *   Dots-and-Boxes: a diagram (it holds dots '+'); a DBN string, one '0'
 *     or '1' a line in id order (open_spiel's DbnString); else moves from
 *     the start, each a line name or an open_spiel action number (a line
 *     id): "h0,0 v1,2", "0 13", "0, 13", "[0, 13]".
 *   Cram: a diagram ('.' and '#'); dominoes played in order from the empty
 *     board, "0,0-0,1 2,1-2,2" (parentheses allowed); the covered cells,
 *     "0,0 0,1", or one '0'/'1' a cell in row-major order. Boards of over
 *     64 cells take diagrams only.
 * set gets the lines drawn, the start's included (set[1] = 0), or the
 * cells covered (cell i: bit i % 64 of set[i / 64]); *form how it was
 * written (form may be NULL). A diagram's board must be rows x cols. This
 * is where the command line, the server and the Python package read
 * positions, so that the three read a text alike.
 * Errors: RDB_E_INPUT for an unknown game, a bad board, or a text that is
 * no position of it: a line or cell that is none of the board's, a move
 * onto a drawn line or covered cell, two cells not side by side, a DBN
 * string of another length, a diagram of another board (the message says
 * which); set is then 0. */
RDB_API rdb_status rdb_position_read(const char *game, int rows, int cols, uint64_t start,
                                     const char *text, uint64_t set[2], rdb_written_form *form,
                                     rdb_error *err);

#ifdef __cplusplus
}
#endif

#endif
