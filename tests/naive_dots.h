/*
 * naive_dots.h — a naive reference solver for Dots-and-Boxes, written
 * independently of the library (only the line numbering documented in
 * src/dots/dots_board.h is shared).
 *
 * It stores one value per subset of the L lines of an R x C board (no
 * symmetry, no groups, no compression) and fills the table by plain
 * backward induction, so it is slow and memory-hungry (2^open bytes for the lines open at the start, at most 31: 2 GB)
 * but obviously right. The tests hold every value of the database against
 * it.
 *
 * Value rule: the full position is worth full_value; any other position is
 * worth the max over its open lines l of  b + v(pos|l)  when drawing l
 * completes b > 0 boxes (the mover moves again), else  -v(pos|l).
 */
#ifndef NAIVE_DOTS_H
#define NAIVE_DOTS_H

#include <stdint.h>

#define NAIVE_MAX_LINES 31

typedef struct {
    int rows, cols, nlines, nboxes;
    uint64_t box_mask[32];       /* the 4 lines of each box */
    int line_nbox[64];           /* boxes a line is a side of (1 or 2) */
    int line_box[64][2];
} naive_board;

typedef struct {
    naive_board board;
    uint64_t start;              /* only positions containing it are valid */
    int full_value;
    uint64_t free_lines;         /* lines open at the start */
    int8_t *value;               /* 2^(open lines) entries; use naive_value */
    int8_t *who;                 /* loony analysis only: NAIVE_LOONY_* per entry */
} naive_dots;

/* Who must make the next loony move, from the point of view of the player
 * to move. */
enum { NAIVE_LOONY_MOVER, NAIVE_LOONY_NONE, NAIVE_LOONY_OPPONENT };

/* Gather the bits of pos at the set bits of mask into the low bits (like
 * pext), and spread the low bits of k over the set bits of mask (like
 * pdep): table index of a position, and back. */
uint64_t naive_extract(uint64_t pos, uint64_t mask);
uint64_t naive_deposit(uint64_t k, uint64_t mask);

/* Line ids, computed from the documented formula. */
int naive_hline(int rows, int cols, int i, int j);
int naive_vline(int rows, int cols, int i, int j);

/* Set up the geometry of an R x C board (any size up to 64 lines). */
void naive_board_init(naive_board *b, int rows, int cols);

/* Boxes completed by drawing `line` (not in pos) in position pos. */
int naive_boxes(const naive_board *b, uint64_t pos, int line);

/* Solve every position containing `start`. Returns 0, or -1 when the board
 * has too many lines or memory runs out. */
int naive_solve(naive_dots *t, int rows, int cols, uint64_t start, int full_value);
void naive_free(naive_dots *t);

/* The same with Wilson's loony-move analysis, spelled out on (score, who)
 * pairs: a position where the player to move can capture a box with a line
 * whose other box has exactly two other sides drawn follows a loony move
 * of the opponent (who = opponent); otherwise who comes from the best
 * move: a capture keeps the child's, a non-capture swaps mover and
 * opponent; a player picks the best score, and among equal scores the move
 * that leaves the opponent the next loony move, then neither, then
 * himself. */
int naive_solve_loony(naive_dots *t, int rows, int cols, uint64_t start, int full_value);

/* Score and who of a position, and of drawing `line` in it. */
void naive_loony_value(const naive_dots *t, uint64_t pos, int *score, int *who);
void naive_loony_move(const naive_dots *t, uint64_t pos, int line, int *score, int *who);

/* Value of position pos (a set of lines containing the start). */
int naive_value(const naive_dots *t, uint64_t pos);

/* Value of drawing open `line` in pos, for the player to move. */
int naive_move_value(const naive_dots *t, uint64_t pos, int line);

/* A tiny xorshift generator (state must be non-zero), and a random
 * position containing start: a uniformly chosen number k of extra lines,
 * then k distinct open lines chosen uniformly. */
uint64_t naive_rand(uint64_t *state);
uint64_t naive_random_position(uint64_t *state, int nlines, uint64_t start);

/* The geometric symmetries of the board (4 for a rectangle, 8 for a
 * square; entry 0 the identity) as line permutations, found by moving the
 * two end dots of every line. Returns their number. */
int naive_symmetries(int rows, int cols, uint8_t perm[8][64]);

#endif
