/*
 * query_picture.c — `retrodb query --svg FILE`: the answer to a query,
 * values and best moves, drawn as an SVG picture (picture.c) into a file.
 * Kept apart from the queries' printing so that any of them can draw the
 * picture with one call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "picture.h"
#include "query_picture.h"

/* Write the picture to path with draw(): 0, or 1 after a message naming
 * the file (an exit status: the file, not the query, failed). */
static int write_picture(const char *path, int (*draw)(FILE *, const void *), const void *picture)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "retrodb: cannot write '%s': %s\n", path, strerror(errno));
        return 1;
    }
    int failed = draw(f, picture) != 0;
    int saved = errno;
    if (fclose(f) != 0 && !failed) {
        failed = 1;
        saved = errno;
    }
    if (failed) {
        fprintf(stderr, "retrodb: cannot write '%s': %s\n", path, strerror(saved));
        return 1;
    }
    return 0;
}

static int draw_dots(FILE *f, const void *p)
{
    return rdb_picture_dots_svg(f, p);
}

static int draw_cram(FILE *f, const void *p)
{
    return rdb_picture_cram_svg(f, p);
}

int rdb_query_dots_svg(const char *path, int rows, int cols, uint64_t drawn, const char *owner,
                       const rdb_dots_answer *a, const char *mark, char position_mark,
                       const char *caption)
{
    int value[64] = {0};
    uint64_t best = 0;
    for (int i = 0; i < a->nmoves; i++) {
        value[a->line[i]] = a->move_value[i];
        /* the value of a position is that of its best moves */
        if (a->move_value[i] == a->value)
            best |= 1ull << a->line[i];
    }
    char words[64], text[128];
    if (!caption) {
        snprintf(text, sizeof text, "%s (value %+d%s)",
                 rdb_tool_dots_outcome(a->value, "the player to move", words, sizeof words),
                 a->value, (char[]){position_mark, '\0'});
        caption = text;
    }
    const rdb_dots_picture p = {rows, cols, drawn, owner, value, best, mark, caption};
    return write_picture(path, draw_dots, &p);
}

int rdb_query_cram_svg(const char *path, int rows, int cols, uint64_t covered,
                       const rdb_cram_answer *a, const char *caption)
{
    char words[64], text[128];
    if (!caption) {
        snprintf(text, sizeof text, "%s (nimber %d)",
                 rdb_tool_cram_outcome(a->nimber, "the player to move", words, sizeof words),
                 a->nimber);
        caption = text;
    }
    /* the picture colours the moves to nimber 0, which win; a position of
     * nimber 0 has none, so nothing is coloured there */
    const rdb_cram_picture p = {rows, cols, covered, a->nmoves,
                                (const int(*)[2][2])a->cell, a->move_nimber, caption};
    return write_picture(path, draw_cram, &p);
}
