/*
 * cram_tables.c — nimber tables for the Cram solver, through the public
 * probe API (retrodb/probe.h); see cram_tables.h.
 */
#include "cram/cram_tables.h"

#include <stdlib.h>
#include <string.h>

#include "retrodb/probe.h"

/* Most bytes of values a table may hold in memory (a 5x6 table takes
 * 260 MB, a 6x6 one 8.6 GB). */
#define CRAM_TABLE_MEMORY (4ULL << 30)

struct cram_table {
    rdb_probe *probe;
    int rows, cols;
    int in_memory;      /* every value held in memory: probes are cheap */
};

rdb_status cram_table_open(const char *dir, cram_table **out, rdb_error *err)
{
    *out = NULL;
    cram_table *t = calloc(1, sizeof *t);
    if (!t)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory opening '%s'", dir);
    rdb_status st = rdb_probe_open(dir, &t->probe, err);
    if (st != RDB_OK) {
        free(t);
        return st;
    }
    const char *game = rdb_probe_game(t->probe);
    if (strcmp(game, "cram") != 0) {
        rdb_probe_close(t->probe);
        free(t);
        return rdb_fail(err, RDB_E_INPUT, "'%s' holds a %s database, not a cram table", dir, game);
    }
    uint64_t start;
    rdb_probe_board(t->probe, &t->rows, &t->cols, &start);
    /* The search probes millions of times: hold the table in memory when it
     * fits, else probe its files (slower, same answers). */
    rdb_error ignored;
    t->in_memory = rdb_probe_preload(t->probe, CRAM_TABLE_MEMORY, &ignored) == RDB_OK;
    *out = t;
    return RDB_OK;
}

void cram_table_close(cram_table *t)
{
    if (!t)
        return;
    rdb_probe_close(t->probe);
    free(t);
}

int cram_table_in_memory(const cram_table *t)
{
    return t->in_memory;
}

void cram_table_shape(const cram_table *t, int *rows, int *cols)
{
    *rows = t->rows;
    *cols = t->cols;
}

rdb_status cram_table_value(cram_table *t, uint64_t covered, int *nimber, rdb_error *err)
{
    return rdb_probe_value(t->probe, covered, nimber, err);
}
