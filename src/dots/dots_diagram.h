/*
 * dots_diagram.h — reading and writing Dots-and-Boxes positions as ASCII
 * diagrams.
 *
 * A diagram of an R x C board is 2R+1 lines of 2C+1 characters: '+' at the
 * dots (even row, even column); '-' for a drawn or ' ' for an open
 * horizontal line (even row, odd column); '|' or ' ' for a vertical line
 * (odd row, even column); a box interior (odd, odd) is ' ' or a letter (A or
 * B mark a box already taken; letters are kept for display only). Trailing
 * spaces may be missing; blank lines before and after the diagram are
 * ignored.
 */
#ifndef RDB_DOTS_DIAGRAM_H
#define RDB_DOTS_DIAGRAM_H

#include <stdint.h>
#include <stdio.h>

#include "dots/dots_board.h"

typedef struct {
    int rows, cols;
    uint64_t drawn;                   /* set of line ids */
    char owner[DOTS_MAX_BOXES];       /* letter in each box, or ' ' */
} dots_diagram;

/* Parse text (NUL-terminated). `source` names the input in messages. On a
 * malformed diagram returns RDB_E_INPUT with the line and column. */
rdb_status dots_diagram_parse(const char *text, const char *source,
                              dots_diagram *out, rdb_error *err);

/* Write the plain diagram of a position. */
void dots_diagram_print(FILE *f, const dots_board *b, uint64_t drawn,
                        const char *owner);

/* Write the board with a value written on every open line, as Wilson's
 * viewer did: value[line] is printed for each line not in `drawn`. */
void dots_diagram_print_values(FILE *f, const dots_board *b, uint64_t drawn,
                               const char *owner, const int *value);

/* The same, each value followed by suffix[line] when suffix is not NULL
 * and that character is not '\0' (the loony marks 'v' and '^'). */
void dots_diagram_print_scores(FILE *f, const dots_board *b, uint64_t drawn,
                               const char *owner, const int *value, const char *suffix);

/* The longest label dots_diagram_print_labels lays out, terminator
 * included: a value and two marks ("-12*v"). */
#define DOTS_LABEL_MAX 8

/* The board with a label on every open line (label[line], at most 5
 * characters shown): a value with marks for best moves and loony moves. */
void dots_diagram_print_labels(FILE *f, const dots_board *b, uint64_t drawn,
                               const char *owner, const char (*label)[DOTS_LABEL_MAX]);

#endif
