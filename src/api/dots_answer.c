/*
 * dots_answer.c — a Dots-and-Boxes position's answer: its moves sorted
 * best first, and its perfect game in turns. See answer.h.
 *
 * The perfect game's moves are rdb_probe_perfect_game's, which Python's pv
 * plays too; here they are cut into turns. The boxes each turn takes add
 * up to the position's value, which the tests check.
 */
#include "api/answer.h"

#include <string.h>

#include "dots/dots_board.h"

int rdb_answer_dots_mover_known(const rdb_forms_db *db, const rdb_problem *pos)
{
    return pos->has_to_move || db->has_problem;
}

rdb_status rdb_answer_dots(rdb_probe *p, const rdb_forms_db *db, const rdb_problem *pos,
                           rdb_dots_ranked *r, rdb_error *err)
{
    memset(r, 0, sizeof *r);
    if (pos->diagram.rows != db->rows || pos->diagram.cols != db->cols)
        return rdb_fail(err, RDB_E_INPUT, "the position is a %dx%d board; the database is %dx%d",
                        pos->diagram.rows, pos->diagram.cols, db->rows, db->cols);
    rdb_status st = rdb_probe_moves(p, pos->diagram.drawn, &r->a, err);
    if (st != RDB_OK)
        return st;
    r->loony = rdb_probe_loony(p);
    dots_board b;
    st = dots_board_init(&b, db->rows, db->cols, err);
    if (st != RDB_OK)
        return st;
    /* best first; among equal values a capture first (the natural way to
     * play it), then line-id order; insertion sort keeps it stable */
    int capture[64];
    for (int i = 0; i < r->a.nmoves; i++) {
        capture[i] = dots_boxes_completed(&b, pos->diagram.drawn, r->a.line[i]) > 0;
        int j = i;
        while (j > 0) {
            int k = r->order[j - 1];
            int better = r->a.move_value[i] > r->a.move_value[k] ||
                         (r->a.move_value[i] == r->a.move_value[k] && capture[i] > capture[k]);
            if (!better)
                break;
            r->order[j] = k;
            j--;
        }
        r->order[j] = i;
        if (r->a.move_value[i] == r->a.value) {
            r->nbest++;
            r->best |= 1ULL << r->a.line[i];
        }
    }
    return RDB_OK;
}

rdb_status rdb_answer_dots_perfect_game(rdb_probe *p, const rdb_forms_db *db,
                                        const rdb_problem *pos, rdb_dots_perfect_game *g,
                                        rdb_error *err)
{
    memset(g, 0, sizeof *g);
    rdb_db_info info;
    rdb_probe_info(p, &info);
    if (info.chains)
        return rdb_fail(err, RDB_E_INPUT,
                        "a database built with --chains has no perfect game to show move by "
                        "move: a move into a chain is a little game of its own (docs/building.md, "
                        "\"Chain pseudo-lines\")");
    dots_board b;
    rdb_status st = dots_board_init(&b, db->rows, db->cols, err);
    if (st != RDB_OK)
        return st;
    int line[DOTS_MAX_LINES], nlines = 0;
    st = rdb_probe_perfect_game(p, pos->diagram.drawn, line, NULL, DOTS_MAX_LINES, &nlines, err);
    if (st != RDB_OK)
        return st;
    /* the running score: the boxes taken so far when every one has its
     * letter, else the boxes taken from here on */
    g->scores_known = !pos->unmarked;
    g->end = *pos;
    if (!g->scores_known)
        g->end.taken_a = g->end.taken_b = 0;
    rdb_dots_turn *t = &g->turn[0];
    for (int i = 0; i < nlines; i++) {
        t->player = g->end.to_move;
        t->line[t->nmoves++] = line[i];
        const int took = rdb_form_dots_play(&g->end, line[i]);
        t->boxes += took;
        if (took && g->end.diagram.drawn != dots_all_lines(&b))
            continue; /* the turn goes on */
        t->score_a = g->end.taken_a;
        t->score_b = g->end.taken_b;
        t = &g->turn[++g->nturns];
    }
    return RDB_OK;
}
