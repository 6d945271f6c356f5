/*
 * query_cram.c — `retrodb query` on a Cram table: the nimber of a position
 * and of every legal move, as a picture or as one JSON object.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"
#include "query_picture.h"

#include "cram/cram_board.h"
#include "retrodb/probe.h"

int rdb_query_cram(const char *dir, const char *text, const char *source, int json,
                   const char *svg)
{
    rdb_error err;
    int rows, cols;
    uint64_t covered;
    rdb_status st = cram_diagram_parse(text, source, &rows, &cols, &covered, &err);
    if (st != RDB_OK) {
        fprintf(stderr, "retrodb: %s\nretrodb: '%s' holds a Cram table: a position is R lines of C cells\n",
                err.msg, dir);
        return rdb_tool_exit_code(st);
    }
    rdb_probe *p;
    st = rdb_probe_open(dir, &p, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    int trows, tcols;
    uint64_t start;
    rdb_probe_board(p, &trows, &tcols, &start);
    if (rows != trows || cols != tcols) {
        fprintf(stderr, "retrodb: the position is a %dx%d board; the table in '%s' is %dx%d\n",
                rows, cols, dir, trows, tcols);
        rdb_probe_close(p);
        return 2;
    }
    rdb_cram_answer *a = malloc(sizeof *a);
    if (!a) {
        rdb_probe_close(p);
        return fprintf(stderr, "retrodb: out of memory\n"), 1;
    }
    st = rdb_probe_cram_moves(p, covered, a, &err);
    rdb_probe_close(p);
    if (st != RDB_OK) {
        free(a);
        return rdb_tool_report(st, &err);
    }
    if (json) {
        printf("{\"game\":\"cram\",\"rows\":%d,\"cols\":%d,\"nimber\":%d,\"moves\":[", rows, cols,
               a->nimber);
        for (int i = 0; i < a->nmoves; i++)
            printf("%s{\"cells\":[[%d,%d],[%d,%d]],\"nimber\":%d}", i ? "," : "",
                   a->cell[i][0][0], a->cell[i][0][1], a->cell[i][1][0], a->cell[i][1][1],
                   a->move_nimber[i]);
        printf("]}\n");
    } else {
        cram_diagram_print(stdout, rows, cols, covered);
        char words[64];
        printf("nimber %d: %s\n", a->nimber,
               rdb_tool_cram_outcome(a->nimber, "the player to move", words, sizeof words));
        for (int i = 0; i < a->nmoves; i++)
            printf("  (%d,%d)-(%d,%d)  nimber %d%s\n", a->cell[i][0][0], a->cell[i][0][1],
                   a->cell[i][1][0], a->cell[i][1][1], a->move_nimber[i],
                   a->move_nimber[i] == 0 ? "  wins" : "");
    }
    int rc = svg ? rdb_query_cram_svg(svg, rows, cols, covered, a, NULL) : 0;
    free(a);
    return rc;
}
