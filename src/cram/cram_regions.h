/*
 * cram_regions.h — a Cram position of any board of up to 128 cells solved
 * as the boards cram_window_split gives it: the board itself or the box of
 * its free dominoes (one solver, the usual case), or, when that box is more
 * than 8 cells across both ways, each region of its free dominoes in its
 * own box, a solver each.
 *
 * The regions are a sum of games: no move in one touches another, so the
 * position's nimber n is the nim-sum of theirs (g_i), a move in region i
 * to a position of nimber g' leads to n ^ g_i ^ g', and a move to a
 * position of nimber k < n is a move in a region where t = g_i ^ n ^ k is
 * below g_i (the one whose nimber has the highest bit of n ^ k set: one
 * always does) to a position of nimber t, which that region's own
 * certificate gives. Every move comes back on the board.
 *
 * The command's session (api/cram_session.c) and the library's solve
 * (api/cram_solve.c) both go through here.
 */
#ifndef RDB_CRAM_REGIONS_H
#define RDB_CRAM_REGIONS_H

#include "cram/cram_solver.h"
#include "cram/cram_window.h"

typedef struct {
    int n;                                      /* boards: 1, or the regions */
    cram_window win[CRAM_WINDOW_MAX_REGIONS];   /* each board on the whole one */
    cram_wset free[CRAM_WINDOW_MAX_REGIONS];    /* its free cells, in its box */
    cram_solver *solver[CRAM_WINDOW_MAX_REGIONS];
    int nimber[CRAM_WINDOW_MAX_REGIONS];        /* once solved */
    int (*certificate[CRAM_WINDOW_MAX_REGIONS])[2]; /* each region's, once asked */
} cram_regions;

/* The boards of the position whose free cells are free_cells on the rows
 * x cols board (at most 128 cells), by region when by_region (else the
 * box of all its free dominoes), a solver each with the options opt,
 * the position checked as each solver takes it (cram_solver_check_position;
 * with listing_moves, at most 127 moves in all). On failure nothing is
 * left to free. */
rdb_status cram_regions_new(cram_regions *r, int rows, int cols, cram_wset free_cells, int by_region,
                            const cram_solver_options *opt, int listing_moves, rdb_error *err);
void cram_regions_free(cram_regions *r);

/* The position's nimber: each board's, nim-summed. */
rdb_status cram_regions_solve(cram_regions *r, int *nimber, rdb_error *err);

/* After the solve, for each k below the nimber, the two cells (the
 * board's) of a move to a position of nimber k. */
rdb_status cram_regions_certificate(cram_regions *r, int nimber, int cells[][2], rdb_error *err);

/* After the solve, every move (the board's domino numbers, in increasing
 * order) and the nimber of the position it leads to. */
rdb_status cram_regions_move_nimbers(cram_regions *r, int domino[127], int nimber[127], int *n,
                                     rdb_error *err);

/* The boards' statistics added up (the tables' sizes too; the fill
 * weighted by size; held when any was). */
void cram_regions_stats(const cram_regions *r, cram_stats *st);

#endif
