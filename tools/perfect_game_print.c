/*
 * perfect_game_print.c — the perfect game from a position (a principal
 * variation) as query prints it: the library's walk (api/answer.h: each
 * player in turn plays a best move the database names, until the game
 * ends), one turn a line with the running score, or as a JSON array. See
 * answer_print.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer_print.h"
#include "cli.h"

static void print_turn_text(FILE *out, const rdb_forms_db *db, const rdb_dots_turn *t,
                            int scores_known)
{
    char moves[64 * 8] = "";
    for (int i = 0; i < t->nmoves; i++) {
        char name[RDB_LINE_NAME_MAX];
        rdb_error err;
        rdb_dots_line_name(db->rows, db->cols, t->line[i], name, sizeof name, &err);
        strcat(moves, i ? " " : "");
        strcat(moves, name);
    }
    char took[32] = "";
    if (t->boxes)
        snprintf(took, sizeof took, "takes %d", t->boxes);
    fprintf(out, "  %c  %-28s %-9s %s A %d, B %d\n", t->player, moves, took,
           scores_known ? "score" : "from here", t->score_a, t->score_b);
}

static void print_turn_json(FILE *out, const rdb_forms_db *db, const rdb_dots_turn *t, int first)
{
    fprintf(out, "%s{\"player\":\"%c\",\"moves\":[", first ? "" : ",", t->player);
    for (int i = 0; i < t->nmoves; i++) {
        char name[RDB_LINE_NAME_MAX];
        rdb_error err;
        rdb_dots_line_name(db->rows, db->cols, t->line[i], name, sizeof name, &err);
        fprintf(out, "%s\"%s\"", i ? "," : "", name);
    }
    fprintf(out, "],\"boxes\":%d,\"score\":{\"A\":%d,\"B\":%d}}", t->boxes, t->score_a, t->score_b);
}

rdb_status rdb_tool_dots_perfect_game(FILE *out, rdb_probe *p, const rdb_forms_db *db,
                                      const rdb_problem *pos, int json, rdb_error *err)
{
    rdb_dots_perfect_game *g = malloc(sizeof *g);
    if (!g)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    rdb_status st = rdb_answer_dots_perfect_game(p, db, pos, g, err);
    if (st != RDB_OK) {
        free(g);
        return st;
    }
    if (json)
        fprintf(out, ",\"pv\":[");
    else
        fprintf(out, "perfect game%s:\n",
               rdb_answer_dots_mover_known(db, pos) ? "" : " (A: the player to move)");
    for (int i = 0; i < g->nturns; i++) {
        if (json)
            print_turn_json(out, db, &g->turn[i], i == 0);
        else
            print_turn_text(out, db, &g->turn[i], g->scores_known);
    }
    if (json) {
        fprintf(out, "]");
        free(g);
        return RDB_OK;
    }
    /* the full position's value (a last-move penalty or bonus) goes to
     * the player who would move there: the one who drew the last line */
    const rdb_problem *end = &g->end;
    int margin = end->taken_a - end->taken_b;
    char extra[96] = "";
    if (db->full_value) {
        margin += end->to_move == 'A' ? db->full_value : -db->full_value;
        snprintf(extra, sizeof extra, ", and %+d to %c for the last line", db->full_value,
                 end->to_move);
    }
    if (!g->scores_known)
        fprintf(out, "end: A %d, B %d from here%s\n", end->taken_a, end->taken_b, extra);
    else if (margin)
        fprintf(out, "end: A %d, B %d%s: %c wins by %d\n", end->taken_a, end->taken_b, extra,
               margin > 0 ? 'A' : 'B', abs(margin));
    else
        fprintf(out, "end: A %d, B %d%s: a draw\n", end->taken_a, end->taken_b, extra);
    free(g);
    return RDB_OK;
}

rdb_status rdb_tool_cram_perfect_game(FILE *out, rdb_probe *p, const rdb_cram_ranked *start,
                                      int json, rdb_error *err)
{
    rdb_cram_perfect_game *g = malloc(sizeof *g);
    if (!g)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    rdb_status st = rdb_answer_cram_perfect_game(p, &start->pos, g, err);
    if (st == RDB_OK) {
        if (json)
            fprintf(out, ",\"pv\":[");
        else
            fprintf(out, "perfect game (A: the player to move):\n");
        for (int n = 0; n < g->nturns; n++) {
            const rdb_cram_turn *t = &g->turn[n];
            if (json)
                fprintf(out, "%s{\"player\":\"%c\",\"cells\":[[%d,%d],[%d,%d]],\"nimber\":%d}",
                        n ? "," : "", t->player, t->cell[0][0], t->cell[0][1], t->cell[1][0],
                        t->cell[1][1], t->nimber);
            else
                fprintf(out, "  %c  (%d,%d)-(%d,%d)  nimber after: %d\n", t->player,
                        t->cell[0][0], t->cell[0][1], t->cell[1][0], t->cell[1][1], t->nimber);
        }
        if (json)
            fprintf(out, "]");
        else
            fprintf(out, "%c cannot move: %c wins\n", g->winner == 'A' ? 'B' : 'A', g->winner);
    }
    free(g);
    return st;
}
