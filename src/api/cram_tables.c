/*
 * cram_tables.c — nimber tables for the Cram solver, through the public
 * probe API (retrodb/probe.h); see cram_tables.h.
 */
#include "api/cram_tables.h"

#include <string.h>

#include "retrodb/probe.h"

/* Most bytes of values a table may hold in memory (a 5x6 table takes
 * 260 MB, a 6x6 one 8.6 GB). */
#define CRAM_TABLE_MEMORY (4ULL << 30)

static rdb_status table_value(void *probe, uint64_t covered, int *nimber, rdb_error *err)
{
    return rdb_probe_value(probe, covered, nimber, err);
}

static void table_close(void *probe)
{
    rdb_probe_close(probe);
}

rdb_status cram_table_open(const char *dir, cram_table_source *out, rdb_error *err)
{
    memset(out, 0, sizeof *out);
    rdb_probe *probe;
    rdb_status st = rdb_probe_open(dir, &probe, err);
    if (st != RDB_OK)
        return st;
    const char *game = rdb_probe_game(probe);
    if (strcmp(game, "cram") != 0) {
        st = rdb_fail(err, RDB_E_INPUT, "'%s' holds a %s database, not a cram table", dir, game);
        rdb_probe_close(probe);
        return st;
    }
    uint64_t start;
    rdb_probe_board(probe, &out->rows, &out->cols, &start);
    /* The search probes millions of times: hold the table in memory when it
     * fits, else probe its files (slower, same answers). */
    rdb_error ignored;
    out->in_memory = rdb_probe_preload(probe, CRAM_TABLE_MEMORY, &ignored) == RDB_OK;
    out->value = table_value;
    out->close = table_close;
    out->ctx = probe;
    return RDB_OK;
}
