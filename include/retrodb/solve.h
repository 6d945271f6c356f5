/*
 * retrodb/solve.h — the value of a position by search, where no database
 * holds it: the solvers `retrodb solve dots` and `retrodb solve cram` run,
 * for programs (the Python package's solve_dots and solve_cram).
 *
 * Positions are as in retrodb/probe.h: Dots-and-Boxes lines drawn (bit l
 * set = line l drawn, at most 64 lines), Cram cells covered (bit r*C + c,
 * at most 64 cells; rdb_solve_cram_wide takes two words, up to 128). Each
 * call makes a solver with its own transposition table, which starts
 * small and grows up to tt_mb megabytes, solves, and lets it go; calls
 * from different threads do not share anything. A search may take from
 * microseconds (small boards, late positions) to days (4x5 from empty,
 * 3x23): the caller chooses what to ask.
 * Errors: RDB_E_INPUT for a board with no box (cell) or more than 64
 * lines (cells), a position with lines (cells) off the board, a tt_mb
 * below 1, or threads below 1; RDB_E_NOMEM when the table cannot be
 * had; RDB_E_STOPPED when the process's stop flag was raised (the
 * command-line tool raises it on SIGINT and SIGTERM).
 */
#ifndef RETRODB_SOLVE_H
#define RETRODB_SOLVE_H

#include <stdint.h>

#include "retrodb/api.h"
#include "retrodb/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int value;            /* for the player to move: the best net score of
                             the boxes still to take, plus full_value at
                             the end */
    int nmoves;           /* with moves: every open line, in line-id order */
    int line[64];
    int move_value[64];   /* its value for the player who draws it */
    uint64_t nodes;       /* positions searched */
    double seconds;
} rdb_dots_solution;

/* Solve the Dots-and-Boxes position `lines` of the rows x cols board
 * (boxes), whose full board is worth full_value (0, or minus a last-move
 * penalty), with `threads` searchers sharing a table of at most tt_mb
 * megabytes; with_moves also values every open line (slower: a search a
 * line, up to symmetry). */
RDB_API rdb_status rdb_solve_dots(int rows, int cols, uint64_t lines, int full_value,
                                  int threads, long tt_mb, int with_moves,
                                  rdb_dots_solution *out, rdb_error *err);

typedef struct {
    int nimber;           /* 0: the player to move loses */
    uint64_t nodes;       /* components searched */
    double seconds;
} rdb_cram_solution;

/* The nimber of the Cram position with `covered` cells of the rows x cols
 * board, with `threads` threads and a table of at most tt_mb megabytes. */
RDB_API rdb_status rdb_solve_cram(int rows, int cols, uint64_t covered, int threads, long tt_mb,
                                  rdb_cram_solution *out, rdb_error *err);

typedef struct {
    int nimber;           /* 0: the player to move loses */
    int nmoves;           /* with moves: every domino whose two cells are
                             free, in domino order (retrodb/probe.h) */
    int domino[127];
    int move_nimber[127]; /* the nimber of the position after it: 0 for a
                             winning move */
    uint64_t nodes;       /* components searched, the moves' searches too */
    double seconds;
} rdb_cram_wide_solution;

/* The same on boards of up to 128 cells (3x22, 5x13, 8x16, 11x11, 1x128:
 * those `retrodb solve cram` takes): cell i is covered when bit i % 64 of
 * covered[i / 64] is set. The position may have at most 127 free
 * dominoes, beyond those of parts valued 0 by symmetry (on a board more
 * than 8 cells across both ways, 127 in each region of them, cells
 * joined by free dominoes, solved one by one and nim-summed). with_moves also gives the nimber of every move, each
 * searched with the table the position's search filled (the position
 * then has at most 127 free dominoes in all). Errors as rdb_solve_cram's,
 * and RDB_E_INPUT for a position beyond those limits. */
RDB_API rdb_status rdb_solve_cram_wide(int rows, int cols, const uint64_t covered[2], int threads,
                                       long tt_mb, int with_moves, rdb_cram_wide_solution *out,
                                       rdb_error *err);

#ifdef __cplusplus
}
#endif

#endif
