/*
 * fuzz_cram_ledger.c — fuzz target `cram_ledger`: the ledger of a Cram
 * solve (`solve cram --ledger`), read for the 3x23 board. A ledger read
 * back must hold only dominoes of the board and nimbers below 128, and
 * writing its entries to a new ledger and reading that must give the same
 * entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cram/cram_ledger.h"
#include "fuzz_util.h"

static int is_domino(const cram_ledger_entry *e)
{
    const int dr = e->cell[0][0] - e->cell[1][0], dc = e->cell[0][1] - e->cell[1][1];
    return e->cell[0][0] < 3 && e->cell[1][0] < 3 && e->cell[0][1] < 23 && e->cell[1][1] < 23 &&
           abs(dr) + abs(dc) == 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_temp_dir();
    char path[512], copy[512];
    snprintf(path, sizeof path, "%s/ledger", dir);
    snprintf(copy, sizeof copy, "%s/ledger-copy", dir);
    fuzz_write_file(path, data, size);

    rdb_error err;
    cram_ledger l, again, back;
    if (cram_ledger_open(&l, path, 3, 23, &err) == RDB_OK) {
        unlink(copy);
        if (cram_ledger_open(&again, copy, 3, 23, &err) != RDB_OK)
            abort();
        for (int i = 0; i < l.n; i++) {
            if (!is_domino(&l.entry[i]) || l.entry[i].value < 0 || l.entry[i].value > 127)
                abort();
            if (cram_ledger_add(&again, &l.entry[i], &err) != RDB_OK)
                abort();
        }
        if (cram_ledger_open(&back, copy, 3, 23, &err) != RDB_OK || back.n != l.n)
            abort();
        for (int i = 0; i < l.n; i++) {
            const cram_ledger_entry *a = &back.entry[i], *b = &l.entry[i];
            if (a->root != b->root || memcmp(a->cell, b->cell, sizeof a->cell) != 0 || a->is != b->is ||
                a->value != b->value || a->nodes != b->nodes)
                abort();
        }
        cram_ledger_close(&back);
        cram_ledger_close(&again);
        cram_ledger_close(&l);
    }
    unlink(path);
    unlink(copy);
    return 0;
}
