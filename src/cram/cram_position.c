/*
 * cram_position.c — the Cram half of the public position API
 * (retrodb/position.h): diagrams for programs that link the library, on
 * top of the parser the tool uses, for the tables' boards (64 cells) and
 * the solver's (128).
 */
#include "retrodb/position.h"

#include "common/error.h"
#include "cram/cram_board.h"

rdb_status rdb_cram_parse_diagram(const char *text, const char *source, int *rows, int *cols,
                                  uint64_t *covered, rdb_error *err)
{
    *rows = *cols = 0;
    *covered = 0;
    if (!text)
        return rdb_fail(err, RDB_E_INPUT, "no diagram (NULL text)");
    int r, c;
    uint64_t cov;
    rdb_status st = cram_diagram_parse(text, source ? source : "diagram", &r, &c, &cov, err);
    if (st != RDB_OK)
        return st;
    *rows = r;
    *cols = c;
    *covered = cov;
    return RDB_OK;
}

rdb_status rdb_cram_parse_diagram_wide(const char *text, const char *source, int *rows, int *cols,
                                       uint64_t covered[2], rdb_error *err)
{
    *rows = *cols = 0;
    covered[0] = covered[1] = 0;
    if (!text)
        return rdb_fail(err, RDB_E_INPUT, "no diagram (NULL text)");
    int r, c;
    cram_wset cov;
    rdb_status st = cram_diagram_parse_wide(text, source ? source : "diagram", &r, &c, &cov, err);
    if (st != RDB_OK)
        return st;
    *rows = r;
    *cols = c;
    covered[0] = (uint64_t)cov;
    covered[1] = (uint64_t)(cov >> 64);
    return RDB_OK;
}
