/*
 * dots_start.c — a Dots-and-Boxes build's or search's start from a
 * variant, a diagram or a problem file, and the problem a database folder
 * keeps. See dots_start.h.
 */
#include "api/dots_start.h"

#include <stdlib.h>
#include <string.h>

#include "common/fsutil.h"
#include "common/path.h"
#include "common/text_input.h"
#include "dots/dots_board.h"
#include "dots/dots_diagram.h"
#include "engine/report.h"

int rdb_dots_variant_named(const char *variant)
{
    dots_board b;
    rdb_error ignored;
    uint64_t start;
    return dots_board_init(&b, 1, 1, &ignored) == RDB_OK && dots_variant_lines(&b, variant, &start) == 0;
}

rdb_status rdb_dots_start_variant(int rows, int cols, const char *variant, uint64_t *start,
                                  rdb_error *err)
{
    dots_board b;
    rdb_status st = dots_board_init(&b, rows, cols, err);
    if (st != RDB_OK)
        return st;
    if (dots_variant_lines(&b, variant, start) != 0)
        return rdb_fail(err, RDB_E_INPUT, "unknown variant '%s' (empty, swedish, icelandic)",
                        variant);
    return RDB_OK;
}

rdb_status rdb_dots_start_diagram(const char *text, const char *source, int *rows, int *cols,
                                  uint64_t *start, rdb_error *err)
{
    dots_diagram d;
    rdb_status st = dots_diagram_parse(text, source, &d, err);
    if (st != RDB_OK)
        return st;
    *rows = d.rows;
    *cols = d.cols;
    *start = d.drawn;
    return RDB_OK;
}

rdb_status rdb_dots_start_problem(const char *text, const char *source, rdb_problem *prob,
                                  rdb_error *err)
{
    return rdb_problem_parse(text, source, prob, err);
}

rdb_status rdb_dots_start_position(const char *text, const char *source, rdb_problem *pos,
                                   rdb_error *err)
{
    return rdb_problem_parse_position(text, source, pos, err);
}

rdb_status rdb_dots_problem_keep(const char *dir, const rdb_params *params, const char *text,
                                 const rdb_problem *prob, rdb_error *err)
{
    char path[RDB_PATH_MAX];
    rdb_status st = rdb_check_dir_name(dir, err);
    if (st == RDB_OK)
        st = rdb_path_format(path, sizeof path, err, "%s/%s", dir, RDB_PROBLEM_FILE);
    if (st == RDB_OK)
        st = rdb_mkdirs(dir, err);
    if (st != RDB_OK)
        return st;
    if (rdb_report_builder(dir) != 0)
        return RDB_OK;
    rdb_params old;
    char why[256];
    st = rdb_params_read(dir, &old, err);
    if (st != RDB_OK && st != RDB_E_MISSING)
        return st;
    if (st == RDB_OK && rdb_params_diff(&old, params, why, sizeof why))
        return RDB_OK;
    char *old_text;
    rdb_error ignored;
    if (st == RDB_OK && rdb_read_file(path, &old_text, &ignored) == RDB_OK) {
        rdb_problem old_prob;
        /* a PROBLEM that no longer parses is replaced */
        int differs = rdb_problem_parse(old_text, path, &old_prob, &ignored) == RDB_OK &&
                      rdb_problem_diff(&old_prob, prob, why, sizeof why);
        free(old_text);
        if (differs)
            return rdb_fail(err, RDB_E_INPUT,
                            "'%s' holds a build of another problem (%s); use another --dir", dir,
                            why);
    }
    return rdb_write_file_atomic(path, text, strlen(text), err);
}
