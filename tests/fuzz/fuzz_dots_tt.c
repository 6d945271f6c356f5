/*
 * fuzz_dots_tt.c — fuzz target `dots_tt`: the Dots-and-Boxes search's
 * table files (dots_tt_load, on the search runtime's table file), and
 * what a search does with what they hold, on the 2x2 board.
 *
 * The input is a table file; the harness first recomputes its checksum
 * (the FNV-1a of everything before the last 8 bytes, placed after the
 * records the head counts) so that mutations of entries reach the
 * checks instead of stopping at the checksum. It then loads the file into
 * a fresh solver and values every position of 2x2 with at most
 * DOTS_TT_VERIFY_OPEN open lines: the loader solves such entries again
 * and refuses a file whose entry contradicts the search, so whatever a
 * file holds, those values must be the naive reference solver's
 * (tests/naive_dots.c). Bigger positions are valued too, for the
 * sanitizers: a bound of a bigger position cannot be checked short of
 * solving it (dots_tt_file.h), so their values are not compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dots/dots_board.h"
#include "dots/dots_solver.h"
#include "dots/dots_tt_file.h"
#include "fuzz_util.h"
#include "naive_dots.h"

#define ROWS 2
#define COLS 2
#define HEAD 28 /* magic, rows, columns, full value, count */
#define RECORD 14

static naive_dots reference;

static void find_reference(void)
{
    static int done;
    if (done)
        return;
    if (naive_solve(&reference, ROWS, COLS, 0, 0) != 0)
        abort();
    done = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    find_reference();
    char path[512];
    fuzz_write_sealed_table(path, sizeof path, "dots.tt", data, size, HEAD, RECORD);

    rdb_error err;
    dots_board b;
    if (dots_board_init(&b, ROWS, COLS, &err) != RDB_OK)
        abort();
    dots_solver_options opt = {.tt_bytes = 1 << 20, .threads = 1};
    dots_solver *s;
    if (dots_solver_new(&b, 0, &opt, &s, &err) != RDB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        abort();
    }
    uint64_t loaded;
    if (dots_tt_load(s, &b, 0, path, &loaded, &err) == RDB_OK) {
        for (uint64_t lines = 0; lines < 1ULL << b.nlines; lines++) {
            int v;
            if (dots_solver_value(s, lines, &v, &err) != RDB_OK) {
                fprintf(stderr, "the value of %#llx failed: %s\n", (unsigned long long)lines, err.msg);
                abort();
            }
            const int open = b.nlines - __builtin_popcountll(lines);
            if (open <= DOTS_TT_VERIFY_OPEN && v != naive_value(&reference, lines)) {
                fprintf(stderr, "with this table, the 2x2 position %#llx is worth %d, not %d\n",
                        (unsigned long long)lines, v, naive_value(&reference, lines));
                abort();
            }
        }
    }
    dots_solver_free(s);
    unlink(path);
    return 0;
}
