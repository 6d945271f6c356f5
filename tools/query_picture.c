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

int rdb_query_dots_svg(const char *path, const rdb_forms_db *db, const rdb_problem *pos,
                       const rdb_dots_ranked *r)
{
    int value[64] = {0};
    for (int i = 0; i < r->a.nmoves; i++)
        value[r->a.line[i]] = r->a.move_value[i];
    char mark[64] = {0}, position_mark = '\0';
    if (r->loony)
        rdb_tool_dots_marks(r, pos->to_move, mark, &position_mark);
    char words[160], caption[200];
    snprintf(caption, sizeof caption, "%s (value %s%s)",
             rdb_tool_dots_words(db, pos, r->a.value, words, sizeof words),
             rdb_tool_signed(r->a.value, (char[RDB_TOOL_SIGNED_MAX]){0}),
             (char[]){position_mark, '\0'});
    const rdb_dots_picture p = {db->rows,  db->cols, pos->diagram.drawn, pos->diagram.owner,
                                value,     r->best,  r->loony ? mark : NULL,
                                caption};
    return write_picture(path, draw_dots, &p);
}

int rdb_query_cram_svg(const char *path, const rdb_cram_ranked *r)
{
    char words[64], caption[128];
    snprintf(caption, sizeof caption, "%s (nimber %d)",
             rdb_tool_cram_outcome(r->nimber, "the player to move", words, sizeof words),
             r->nimber);
    /* the picture colours the moves to nimber 0, which win; a position of
     * nimber 0 has none, so nothing is coloured there */
    const rdb_cram_picture p = {r->pos.rows, r->pos.cols, r->pos.covered, r->nmoves,
                                (const int(*)[2][2])r->cell, r->move_nimber, caption};
    return write_picture(path, draw_cram, &p);
}
