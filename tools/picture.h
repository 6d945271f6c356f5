/*
 * picture.h — pictures of positions as SVG, written by hand (no graphics
 * library): a Dots-and-Boxes board with the value of every open line
 * written on it, a Cram board with the nimber of every legal domino. For
 * `retrodb query --svg`, and for anything else that wants a picture.
 *
 * The pictures are deterministic (the same input gives the same bytes),
 * carry a viewBox, a width and a height in pixels (1 unit = 1 pixel, so
 * that they scale and render the same everywhere), and draw their own
 * white background. The best moves are drawn in one colour, green
 * (RDB_PICTURE_BEST below); every other colour is in picture.c.
 */
#ifndef RDB_TOOLS_PICTURE_H
#define RDB_TOOLS_PICTURE_H

#include <stdint.h>
#include <stdio.h>

/* The colour of the best moves and of Cram's winning moves, and of a
 * drawn line, as the tests look for them in a rendered picture. */
#define RDB_PICTURE_BEST "#1a7f37"
#define RDB_PICTURE_INK "#1f2328"

/* A Dots-and-Boxes position. Line ids are retrodb's (retrodb/position.h):
 * h<i>,<j> is i*cols + j, v<i>,<j> is (rows+1)*cols + i*(cols+1) + j. */
typedef struct {
    int rows, cols;       /* boxes; 2*rows*cols + rows + cols <= 64 */
    uint64_t drawn;       /* the lines drawn */
    const char *owner;    /* a letter per box (r*cols + c): 'A', 'B', another
                             letter, or ' ' for none; NULL: no letters */
    const int *value;     /* the value of each line id, read for the open
                             lines only; NULL: no values written */
    uint64_t best;        /* open lines drawn in the best colour; the others
                             are tinted red by how much less they are worth
                             than the best of these */
    const char *mark;     /* a loony mark per line id, 'v', '^' or '\0',
                             written after the value; NULL: none */
    const char *caption;  /* one line of text under the board, or NULL */
} rdb_dots_picture;

/* Write the SVG picture of p to f. 0, or -1 when a write failed (errno
 * says why; f is then in error). The caller closes f, and must check that
 * close too. */
int rdb_picture_dots_svg(FILE *f, const rdb_dots_picture *p);

/* A Cram position and its legal dominoes. */
typedef struct {
    int rows, cols;            /* cells; rows * cols <= 64 */
    uint64_t covered;          /* bit r*cols + c for each covered cell */
    int nmoves;                /* legal dominoes */
    const int (*cell)[2][2];   /* each move's two cells, [row, column] */
    const int *nimber;         /* the nimber after each move, written on the
                                  edge between its two cells; NULL: none.
                                  A move to nimber 0 wins and is drawn in
                                  the best colour (a position of nimber 0
                                  has no such move) */
    const char *caption;       /* one line of text under the board, or NULL */
} rdb_cram_picture;

/* Write the SVG picture of p to f: as rdb_picture_dots_svg. */
int rdb_picture_cram_svg(FILE *f, const rdb_cram_picture *p);

/* Write s (UTF-8) to f as XML character data: '&', '<', '>', '"' and '\''
 * as entities, the control characters XML 1.0 forbids as '?'. */
void rdb_picture_xml_text(FILE *f, const char *s);

#endif
