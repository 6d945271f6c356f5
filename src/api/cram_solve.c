/*
 * cram_solve.c — rdb_solve_cram and rdb_solve_cram_wide
 * (retrodb/solve.h): the search solver (cram_solver.h) behind the public
 * API, with the method and rules the command line uses by default. Both
 * go through one solve; the wide one takes boards of up to 128 cells
 * (positions with at most 127 free dominoes) and can give the nimber of
 * every move too.
 */
#include "retrodb/solve.h"

#include <string.h>

#include "cram/cram_regions.h"

/* The nimber of the position with `covered` cells and, with moves, of each
 * child (cram_solver_move_nimbers: the same solver, so the children start
 * from what the position's search left in the table). */
static rdb_status solve(int rows, int cols, cram_wset covered, int threads, long tt_mb,
                        int with_moves, rdb_cram_wide_solution *out, rdb_error *err)
{
    const int ncells = rows * cols; /* at most 128: the callers check */
    const cram_wset all = ncells == CRAM_WIDE_MAX_CELLS ? ~(cram_wset)0 : cram_wbit(ncells) - 1;
    if (covered & ~all)
        return rdb_fail(err, RDB_E_INPUT, "cells covered off the %dx%d board", rows, cols);
    if (tt_mb < 1 || threads < 1)
        return rdb_fail(err, RDB_E_INPUT, "tt_mb and threads must be at least 1 (%ld, %d)", tt_mb,
                        threads);
    /* a board more than 8 cells across both ways: the box of the free
     * dominoes, or each of their regions in its own (cram_window.h), its
     * moves given back on the board */
    cram_solver_options opt = {.method = CRAM_DEFAULT_METHOD, .tt_mb = tt_mb, .threads = threads};
    cram_regions regions;
    rdb_status st = cram_regions_new(&regions, rows, cols, all & ~covered, 1, &opt, with_moves, err);
    if (st != RDB_OK)
        return st;
    st = cram_regions_solve(&regions, &out->nimber, err);
    if (st == RDB_OK && with_moves)
        st = cram_regions_move_nimbers(&regions, out->domino, out->move_nimber, &out->nmoves, err);
    cram_stats stats;
    cram_regions_stats(&regions, &stats);
    out->nodes = stats.nodes;
    out->seconds = stats.seconds;
    cram_regions_free(&regions);
    if (st != RDB_OK)
        out->nmoves = 0;
    return st;
}

rdb_status rdb_solve_cram(int rows, int cols, uint64_t covered, int threads, long tt_mb,
                          rdb_cram_solution *out, rdb_error *err)
{
    memset(out, 0, sizeof *out);
    if (rows < 1 || cols < 1 || (long)rows * cols > 64)
        return rdb_fail(err, RDB_E_INPUT, "no %dx%d Cram board: 1 to 64 cells", rows, cols);
    rdb_cram_wide_solution wide = {0};
    rdb_status st = solve(rows, cols, covered, threads, tt_mb, 0, &wide, err);
    out->nimber = wide.nimber;
    out->nodes = wide.nodes;
    out->seconds = wide.seconds;
    return st;
}

rdb_status rdb_solve_cram_wide(int rows, int cols, const uint64_t covered[2], int threads,
                               long tt_mb, int with_moves, rdb_cram_wide_solution *out,
                               rdb_error *err)
{
    memset(out, 0, sizeof *out);
    if (rows < 1 || cols < 1 || (long)rows * cols > CRAM_WIDE_MAX_CELLS)
        return rdb_fail(err, RDB_E_INPUT, "no %dx%d Cram board: 1 to %d cells", rows, cols,
                        CRAM_WIDE_MAX_CELLS);
    if (!covered)
        return rdb_fail(err, RDB_E_INPUT, "no covered cells given (NULL)");
    return solve(rows, cols, (cram_wset)covered[1] << 64 | covered[0], threads, tt_mb, with_moves,
                 out, err);
}
