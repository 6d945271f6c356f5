/*
 * fuzz_cram_tt.c — fuzz target `cram_tt`: the Cram solver's transposition
 * table files (cram_tt_load, through cram_solver_load_tt), and what a
 * solve does with what they hold (cram_solver_solve on the 3x4 board).
 *
 * The input is a table file; the harness first recomputes its checksum
 * (the FNV-1a of everything before the last 8 bytes, placed after the
 * records the header counts) so that mutations of entries reach the
 * solver instead of stopping at the checksum. It then loads the file into
 * a fresh solver for each search method and solves a few positions of the
 * 3x4 board whose nimbers the naive reference solver (tests/naive_cram.c)
 * gave. A solve that returns a nimber other than the reference one
 * aborts: whatever a table file holds, the solver must not answer wrongly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cram/cram_solver.h"
#include "fuzz_util.h"
#include "naive_cram.h"

#define ROWS 3
#define COLS 4
#define HEAD 24
#define RECORD 12

/* Free cells of the positions solved after each load: the empty board, one
 * with a corner and one with a middle cell covered, and two that split
 * into several components. */
static const uint64_t positions[] = {0xfff, 0xffe, 0xfdf, 0xf6f, 0x9f9};
#define NPOSITIONS (sizeof positions / sizeof positions[0])

static int reference[NPOSITIONS];

static void find_reference(void)
{
    static int done;
    if (done)
        return;
    naive_cram *n = naive_cram_new(ROWS, COLS);
    if (!n)
        abort();
    for (size_t i = 0; i < NPOSITIONS; i++)
        reference[i] = naive_cram_nimber(n, positions[i]);
    naive_cram_free(n);
    done = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    find_reference();
    char path[512];
    fuzz_write_sealed_table(path, sizeof path, "cram.tt", data, size, HEAD, RECORD);

    for (int m = 0; m < CRAM_NMETHODS; m++) {
        cram_solver_options opt = {.method = (cram_method)m, .tt_mb = 1};
        cram_solver *s;
        rdb_error err;
        if (cram_solver_new(ROWS, COLS, &opt, &s, &err) != RDB_OK) {
            fprintf(stderr, "%s\n", err.msg);
            abort();
        }
        if (cram_solver_load_tt(s, path, &err) == RDB_OK) {
            for (size_t i = 0; i < NPOSITIONS; i++) {
                int nimber = -1;
                if (cram_solver_solve(s, positions[i], &nimber, &err) != RDB_OK) {
                    fprintf(stderr, "solve of %#llx failed: %s\n",
                            (unsigned long long)positions[i], err.msg);
                    abort();
                }
                if (nimber != reference[i]) {
                    fprintf(stderr,
                            "with this table, %s says the 3x4 position %#llx has nimber %d, not %d\n",
                            cram_method_name((cram_method)m), (unsigned long long)positions[i],
                            nimber, reference[i]);
                    abort();
                }
            }
        }
        cram_solver_free(s);
    }
    unlink(path);
    return 0;
}
