/*
 * fuzz_position.c — fuzz target `position`: rdb_position_read, the reader
 * of every text form of a position that `query`, `play`, `serve` and the
 * Python package share (api/position_forms.c under it).
 *
 * The first byte picks the game, the board and the start; the rest is the
 * text. A position read must lie on the board, hold the start's lines
 * when given as moves, and read back the same from its own DBN string (a
 * '0' or '1' a line or cell), which every board of at most 64 lines or
 * cells takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "retrodb/position.h"

static const struct {
    const char *game;
    int rows, cols, nbits;
    uint64_t start;
} boards[] = {
    {"dots", 3, 3, 24, 0},
    {"dots", 2, 2, 12, 0x9},
    {"dots", 1, 5, 16, 0},
    {"dots", 4, 5, 49, 0},
    {"cram", 3, 3, 9, 0},
    {"cram", 4, 5, 20, 0},
    {"cram", 8, 8, 64, 0},
    {"cram", 9, 9, 81, 0},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int k = data[0] % (int)(sizeof boards / sizeof boards[0]);
    char *text = fuzz_text(data + 1, size - 1);
    if (!text)
        return 0;
    uint64_t set[2];
    rdb_written_form form;
    rdb_error err;
    rdb_status st = rdb_position_read(boards[k].game, boards[k].rows, boards[k].cols,
                                      boards[k].start, text, set, &form, &err);
    free(text);
    if (st != RDB_OK) {
        if (set[0] || set[1]) {
            fprintf(stderr, "a refused position left its set: %s\n", err.msg);
            abort();
        }
        return 0;
    }
    const int n = boards[k].nbits;
    if ((n < 64 && set[0] >> n) || (n <= 64 && set[1]) || (n > 64 && set[1] >> (n - 64))) {
        fprintf(stderr, "a position read outside the %dx%d board\n", boards[k].rows,
                boards[k].cols);
        abort();
    }
    if (form == RDB_WRITTEN_MOVES && (set[0] & boards[k].start) != boards[k].start) {
        fprintf(stderr, "moves read without the start's lines\n");
        abort();
    }
    if (n > 64)
        return 0; /* diagrams only: no DBN string to read back */
    char bits[65];
    for (int i = 0; i < n; i++)
        bits[i] = (char)('0' + (set[0] >> i & 1));
    bits[n] = '\0';
    uint64_t again[2];
    if (rdb_position_read(boards[k].game, boards[k].rows, boards[k].cols, boards[k].start, bits,
                          again, &form, &err) != RDB_OK ||
        again[0] != set[0] || form != RDB_WRITTEN_SET) {
        fprintf(stderr, "a position's own DBN string reads differently: %s\n", bits);
        abort();
    }
    return 0;
}
