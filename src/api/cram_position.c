/*
 * cram_position.c — the Cram half of the public position API
 * (retrodb/position.h): diagrams for programs that link the library, on
 * top of the parser the tool uses, for the tables' boards (64 cells) and
 * the solver's (128).
 */
#include "retrodb/position.h"

#include "common/error.h"
#include "cram/cram_board.h"

/* A diagram of up to 64 cells, or with `wide` up to 128: the board and
 * the covered cells, all zero when the text is no such diagram. */
static rdb_status parse(const char *text, const char *source, int wide, int *rows, int *cols,
                        cram_wset *covered, rdb_error *err)
{
    *rows = *cols = 0;
    *covered = 0;
    if (!text)
        return rdb_fail(err, RDB_E_INPUT, "no diagram (NULL text)");
    source = source ? source : "diagram";
    int r, c;
    cram_wset cov = 0;
    uint64_t narrow = 0;
    rdb_status st = wide ? cram_diagram_parse_wide(text, source, &r, &c, &cov, err)
                         : cram_diagram_parse(text, source, &r, &c, &narrow, err);
    if (st != RDB_OK)
        return st;
    *rows = r;
    *cols = c;
    *covered = wide ? cov : narrow;
    return RDB_OK;
}

rdb_status rdb_cram_parse_diagram(const char *text, const char *source, int *rows, int *cols,
                                  uint64_t *covered, rdb_error *err)
{
    cram_wset cov;
    rdb_status st = parse(text, source, 0, rows, cols, &cov, err);
    *covered = (uint64_t)cov;
    return st;
}

rdb_status rdb_cram_parse_diagram_wide(const char *text, const char *source, int *rows, int *cols,
                                       uint64_t covered[2], rdb_error *err)
{
    cram_wset cov;
    rdb_status st = parse(text, source, 1, rows, cols, &cov, err);
    covered[0] = (uint64_t)cov;
    covered[1] = (uint64_t)(cov >> 64);
    return st;
}
