/*
 * cram_solve_api.c — rdb_solve_cram (retrodb/solve.h): the search solver
 * (cram_solver.h) behind the public API, with the method and rules the
 * command line uses by default.
 */
#include "retrodb/solve.h"

#include <string.h>

#include "cram/cram_solver.h"

rdb_status rdb_solve_cram(int rows, int cols, uint64_t covered, int threads, long tt_mb,
                          rdb_cram_solution *out, rdb_error *err)
{
    memset(out, 0, sizeof *out);
    if (rows < 1 || cols < 1 || rows * cols > 64)
        return rdb_fail(err, RDB_E_INPUT, "no %dx%d Cram board: 1 to 64 cells", rows, cols);
    const int ncells = rows * cols;
    const uint64_t all = ncells == 64 ? ~0ULL : (1ULL << ncells) - 1;
    if (covered & ~all)
        return rdb_fail(err, RDB_E_INPUT, "cells covered off the %dx%d board", rows, cols);
    if (tt_mb < 1 || threads < 1)
        return rdb_fail(err, RDB_E_INPUT, "tt_mb and threads must be at least 1 (%ld, %d)", tt_mb,
                        threads);
    cram_solver_options opt = {.method = CRAM_DEFAULT_METHOD, .tt_mb = tt_mb, .threads = threads};
    cram_solver *s;
    rdb_status st = cram_solver_new(rows, cols, &opt, &s, err);
    if (st != RDB_OK)
        return st;
    st = cram_solver_solve(s, all & ~covered, &out->nimber, err);
    cram_stats stats;
    cram_solver_stats(s, &stats);
    out->nodes = stats.nodes;
    out->seconds = stats.seconds;
    cram_solver_free(s);
    return st;
}
