/*
 * perfect_game.c — the perfect game from a position (a principal
 * variation): each player in turn plays a best move the database names,
 * until the game ends. See answer.h.
 *
 * The moves are the library's (rdb_probe_perfect_game), which Python's pv
 * plays too. Dots-and-Boxes: a capture first among the best moves, so that
 * a run of captures reads as one turn; a turn ends with the move that
 * completes no box. The boxes each turn takes add up to
 * the position's value, which the tests check. Cram: the player who can
 * moves to nimber 0; the other plays the first move in board order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "dots/dots_board.h"
#include "cli.h"

/* One turn: its player, its moves, the boxes it took, the score after. */
typedef struct {
    char player;
    int nmoves;
    int line[DOTS_MAX_LINES];
    int boxes;
    int score_a, score_b;
} turn;

static void print_turn_text(FILE *out, const rdb_forms_db *db, const turn *t, int scores_known)
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

static void print_turn_json(FILE *out, const rdb_forms_db *db, const turn *t, int first)
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
    dots_board b;
    rdb_status st = dots_board_init(&b, db->rows, db->cols, err);
    if (st != RDB_OK)
        return st;
    rdb_problem cur = *pos;
    /* the running score: the boxes taken so far when every one has its
     * letter, else the boxes taken from here on */
    const int scores_known = !pos->unmarked;
    if (!scores_known)
        cur.taken_a = cur.taken_b = 0;
    /* a move into a chain pseudo-line is a little game of its own, whose
     * boxes may go to either player: no turn by turn score to show */
    rdb_db_info info;
    rdb_probe_info(p, &info);
    if (info.chains)
        return rdb_fail(err, RDB_E_INPUT,
                        "a database built with --chains has no perfect game to show move by "
                        "move: a move into a chain is a little game of its own (docs/building.md, "
                        "\"Chain pseudo-lines\")");
    int line[DOTS_MAX_LINES], nlines = 0;
    st = rdb_probe_perfect_game(p, pos->diagram.drawn, line, NULL, DOTS_MAX_LINES, &nlines, err);
    if (st != RDB_OK)
        return st;
    if (json)
        fprintf(out, ",\"pv\":[");
    else
        fprintf(out, "perfect game%s:\n",
               rdb_tool_dots_mover_known(db, pos) ? "" : " (A: the player to move)");
    turn t = {.player = cur.to_move};
    int first = 1;
    for (int i = 0; i < nlines; i++) {
        t.player = cur.to_move;
        t.line[t.nmoves++] = line[i];
        int took = rdb_form_dots_play(&b, &cur, line[i]);
        t.boxes += took;
        if (took && cur.diagram.drawn != dots_all_lines(&b))
            continue; /* the turn goes on */
        t.score_a = cur.taken_a;
        t.score_b = cur.taken_b;
        if (json)
            print_turn_json(out, db, &t, first);
        else
            print_turn_text(out, db, &t, scores_known);
        first = 0;
        t = (turn){.player = cur.to_move};
    }
    if (json) {
        fprintf(out, "]");
        return RDB_OK;
    }
    /* the full position's value (a last-move penalty or bonus) goes to
     * the player who would move there: the one who drew the last line */
    int margin = cur.taken_a - cur.taken_b;
    char extra[96] = "";
    if (db->full_value) {
        margin += cur.to_move == 'A' ? db->full_value : -db->full_value;
        snprintf(extra, sizeof extra, ", and %+d to %c for the last line", db->full_value,
                 cur.to_move);
    }
    if (!scores_known)
        fprintf(out, "end: A %d, B %d from here%s\n", cur.taken_a, cur.taken_b, extra);
    else if (margin)
        fprintf(out, "end: A %d, B %d%s: %c wins by %d\n", cur.taken_a, cur.taken_b, extra,
               margin > 0 ? 'A' : 'B', abs(margin));
    else
        fprintf(out, "end: A %d, B %d%s: a draw\n", cur.taken_a, cur.taken_b, extra);
    return RDB_OK;
}

rdb_status rdb_tool_cram_perfect_game(FILE *out, rdb_probe *p, const rdb_tool_cram_result *start, int json,
                                      rdb_error *err)
{
    rdb_tool_cram_result *r = malloc(sizeof *r);
    if (!r)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    rdb_form_cram pos = start->pos;
    char player = 'A';
    rdb_status st;
    if (json)
        fprintf(out, ",\"pv\":[");
    else
        fprintf(out, "perfect game (A: the player to move):\n");
    for (int n = 0;; n++) {
        st = rdb_tool_cram_lookup(p, &pos, r, err);
        if (st != RDB_OK)
            break;
        if (r->nmoves == 0) {
            if (!json)
                fprintf(out, "%c cannot move: %c wins\n", player, player == 'A' ? 'B' : 'A');
            break;
        }
        int i = r->order[0];
        if (json)
            fprintf(out, "%s{\"player\":\"%c\",\"cells\":[[%d,%d],[%d,%d]],\"nimber\":%d}", n ? "," : "",
                   player, r->cell[i][0][0], r->cell[i][0][1], r->cell[i][1][0], r->cell[i][1][1],
                   r->move_nimber[i]);
        else
            fprintf(out, "  %c  (%d,%d)-(%d,%d)  nimber after: %d\n", player, r->cell[i][0][0],
                   r->cell[i][0][1], r->cell[i][1][0], r->cell[i][1][1], r->move_nimber[i]);
        for (int k = 0; k < 2; k++)
            pos.covered |= 1ULL << (r->cell[i][k][0] * pos.cols + r->cell[i][k][1]);
        player = player == 'A' ? 'B' : 'A';
    }
    free(r);
    if (st == RDB_OK && json)
        fprintf(out, "]");
    return st;
}
