/*
 * naive_bench.c — times the naive full-table solver of tests/naive_dots.c
 * on one board, as the baseline scripts/bench.sh compares the builder with.
 *
 * usage: naive_bench R C [empty|swedish|icelandic]
 * prints: "<seconds> <value of the start position>", then one line
 * "<line id> <value>" for every move from the start (the value of drawing
 * that line, for the player who draws it), so that the opening moves can
 * be held against a database's too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "naive_dots.h"

int main(int argc, char **argv)
{
    if (argc < 3)
        return fprintf(stderr, "usage: naive_bench R C [empty|swedish|icelandic]\n"), 2;
    int rows = atoi(argv[1]), cols = atoi(argv[2]);
    const char *variant = argc > 3 ? argv[3] : "empty";
    uint64_t start = 0;
    int swedish = strcmp(variant, "swedish") == 0, icelandic = strcmp(variant, "icelandic") == 0;
    for (int j = 0; j < cols; j++) {
        if (swedish)
            start |= 1ULL << naive_hline(rows, cols, 0, j);
        if (swedish || icelandic)
            start |= 1ULL << naive_hline(rows, cols, rows, j);
    }
    for (int i = 0; i < rows; i++) {
        if (swedish || icelandic)
            start |= 1ULL << naive_vline(rows, cols, i, 0);
        if (swedish)
            start |= 1ULL << naive_vline(rows, cols, i, cols);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    naive_dots t;
    if (naive_solve(&t, rows, cols, start, 0) != 0)
        return fprintf(stderr, "naive_bench: %dx%d does not fit the naive table\n", rows, cols), 1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.2f %d\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
           naive_value(&t, start));
    for (int l = 0; l < t.board.nlines; l++) {
        if (start >> l & 1)
            continue;
        int boxes = naive_boxes(&t.board, start, l);
        int child = naive_value(&t, start | 1ULL << l);
        printf("%d %d\n", l, boxes ? boxes + child : -child);
    }
    naive_free(&t);
    return 0;
}
