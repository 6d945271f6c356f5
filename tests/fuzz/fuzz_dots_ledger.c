/*
 * fuzz_dots_ledger.c — fuzz target `dots_ledger`: a proof ledger (`solve
 * dots --ledger`), read for the 3x3 board. A ledger read back must hold
 * only lines of the board and bounds a position can meet, and writing its
 * entries to a new ledger and reading that must give the same entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dots/dots_ledger.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_temp_dir();
    char path[512], copy[512];
    snprintf(path, sizeof path, "%s/ledger", dir);
    snprintf(copy, sizeof copy, "%s/ledger-copy", dir);
    fuzz_write_file(path, data, size);

    rdb_error err;
    dots_board b;
    if (dots_board_init(&b, 3, 3, &err) != RDB_OK)
        abort();
    dots_ledger l, again, back;
    if (dots_ledger_open(&l, path, &b, 0, &err) == RDB_OK) {
        unlink(copy);
        if (dots_ledger_open(&again, copy, &b, 0, &err) != RDB_OK)
            abort();
        for (int i = 0; i < l.n; i++) {
            if (l.entry[i].lines & ~dots_all_lines(&b))
                abort();
            /* no position of 3x3 (full value 0) is worth more than 9 */
            if (l.entry[i].at_least ? l.entry[i].bound > 9 : l.entry[i].bound < -9)
                abort();
            if (dots_ledger_add(&again, &l.entry[i], &err) != RDB_OK)
                abort();
        }
        if (dots_ledger_open(&back, copy, &b, 0, &err) != RDB_OK || back.n != l.n)
            abort();
        for (int i = 0; i < l.n; i++)
            if (back.entry[i].lines != l.entry[i].lines ||
                back.entry[i].at_least != l.entry[i].at_least ||
                back.entry[i].bound != l.entry[i].bound || back.entry[i].nodes != l.entry[i].nodes)
                abort();
        dots_ledger_close(&back);
        dots_ledger_close(&again);
        dots_ledger_close(&l);
    }
    unlink(path);
    unlink(copy);
    return 0;
}
