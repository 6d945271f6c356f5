/*
 * fuzz_params.c — fuzz target `params`: a database's PARAMS file, read by
 * every command that opens a database (rdb_params_read), and, for boards
 * small enough to set up in well under a millisecond, the whole opening of
 * a database from it (rdb_db_open: the game, its variant or start, the
 * layout and the groups PARAMS names).
 *
 * The input is written as PARAMS in the harness's temporary folder. A set
 * of parameters read back must equal itself (rdb_params_diff).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/db.h"
#include "fuzz_util.h"

/* Boards of more cells are read but not opened: the layout's rank tables
 * grow with the board, and the harness must stay fast. Boards with a zero
 * or negative side are opened, since refusing them is what is tested. */
#define MAX_OPEN_CELLS 12

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_temp_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/PARAMS", dir);
    fuzz_write_file(path, data, size);

    rdb_params p;
    rdb_error err;
    if (rdb_params_read(dir, &p, &err) == RDB_OK) {
        char buf[256];
        if (rdb_params_diff(&p, &p, buf, sizeof buf) != 0) {
            fprintf(stderr, "parameters differ from themselves: %s\n", buf);
            abort();
        }
        if ((long)p.rows * p.cols <= MAX_OPEN_CELLS) {
            rdb_db db;
            if (rdb_db_open(&db, dir, &err) == RDB_OK)
                rdb_db_free(&db);
        }
    }
    unlink(path);
    return 0;
}
