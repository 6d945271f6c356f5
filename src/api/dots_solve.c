/*
 * dots_solve.c — rdb_solve_dots (retrodb/solve.h): the search solver
 * (dots_solver.h) behind the public API, with the options the command
 * line uses by default.
 */
#include "retrodb/solve.h"

#include <string.h>

#include "dots/dots_board.h"
#include "dots/dots_solver.h"

rdb_status rdb_solve_dots(int rows, int cols, uint64_t lines, int full_value, int threads,
                          long tt_mb, int with_moves, rdb_dots_solution *out, rdb_error *err)
{
    memset(out, 0, sizeof *out);
    dots_board b;
    rdb_status st = dots_board_init(&b, rows, cols, err);
    if (st != RDB_OK)
        return st;
    const uint64_t all = dots_all_lines(&b);
    if (lines & ~all)
        return rdb_fail(err, RDB_E_INPUT, "lines drawn off the %dx%d board", rows, cols);
    if (tt_mb < 1 || threads < 1)
        return rdb_fail(err, RDB_E_INPUT, "tt_mb and threads must be at least 1 (%ld, %d)", tt_mb,
                        threads);
    dots_solver_options opt = {.tt_bytes = (uint64_t)tt_mb << 20,
                               .threads = threads,
                               .etc_min_open = DOTS_ETC_MIN_OPEN,
                               .rules = DOTS_RULES_FULL};
    dots_solver *s;
    st = dots_solver_new(&b, full_value, &opt, &s, err);
    if (st != RDB_OK)
        return st;
    if (lines == all) {
        out->value = full_value;
    } else if (with_moves) {
        int move_value[DOTS_MAX_LINES];
        st = dots_solver_move_values(s, lines, move_value, err);
        out->value = INT32_MIN;
        for (int l = 0; st == RDB_OK && l < b.nlines; l++)
            if (!(lines >> l & 1)) {
                out->line[out->nmoves] = l;
                out->move_value[out->nmoves++] = move_value[l];
                if (move_value[l] > out->value)
                    out->value = move_value[l];
            }
    } else {
        st = dots_solver_value(s, lines, &out->value, err);
    }
    dots_solver_stats stats;
    dots_solver_stats_get(s, &stats);
    out->nodes = stats.nodes;
    out->seconds = stats.seconds;
    dots_solver_free(s);
    return st;
}
