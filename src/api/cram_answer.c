/*
 * cram_answer.c — a Cram position's answer: its nimber and every move's,
 * winning moves first, from a table of its board or of any board it fits
 * in; and its perfect game. See answer.h.
 */
#include "api/answer.h"

#include <stdlib.h>
#include <string.h>

/* How the position's board sits in the table's: cell (r, c) of the
 * position is cell (r, c) of the table, or (c, r) when turned. */
typedef struct {
    int rows, cols;      /* the table's board */
    int turned;
} placement;

static int place_cell(const placement *pl, int pos_cols, int cell)
{
    int r = cell / pos_cols, c = cell % pos_cols;
    return pl->turned ? c * pl->cols + r : r * pl->cols + c;
}

static void unplace_cell(const placement *pl, int cell, int *r, int *c)
{
    int tr = cell / pl->cols, tc = cell % pl->cols;
    *r = pl->turned ? tc : tr;
    *c = pl->turned ? tr : tc;
}

/* Whether move i's cells come before move j's in the board's own order:
 * horizontal dominoes first, then by their first cell, row-major. */
static int move_before(const rdb_cram_ranked *r, int i, int j)
{
    int hi = r->cell[i][0][0] == r->cell[i][1][0], hj = r->cell[j][0][0] == r->cell[j][1][0];
    if (hi != hj)
        return hi;
    if (r->cell[i][0][0] != r->cell[j][0][0])
        return r->cell[i][0][0] < r->cell[j][0][0];
    return r->cell[i][0][1] < r->cell[j][0][1];
}

rdb_status rdb_answer_cram(rdb_probe *p, const rdb_form_cram *pos, rdb_cram_ranked *r,
                           rdb_error *err)
{
    memset(r, 0, sizeof *r);
    r->pos = *pos;
    placement pl;
    uint64_t start;
    rdb_probe_board(p, &pl.rows, &pl.cols, &start);
    if (pos->rows <= pl.rows && pos->cols <= pl.cols)
        pl.turned = 0;
    else if (pos->rows <= pl.cols && pos->cols <= pl.rows)
        pl.turned = 1;
    else
        return rdb_fail(err, RDB_E_INPUT,
                        "the position is a %dx%d board; the table is %dx%d, which answers boards that fit in it",
                        pos->rows, pos->cols, pl.rows, pl.cols);
    /* every cell of the table outside the position is covered */
    uint64_t all = pl.rows * pl.cols == 64 ? ~0ULL : (1ULL << (pl.rows * pl.cols)) - 1;
    uint64_t inside = 0, covered = 0;
    for (int cell = 0; cell < pos->rows * pos->cols; cell++) {
        uint64_t bit = 1ULL << place_cell(&pl, pos->cols, cell);
        inside |= bit;
        if (pos->covered >> cell & 1)
            covered |= bit;
    }
    covered |= all & ~inside;

    rdb_cram_answer *a = malloc(sizeof *a);
    if (!a)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    rdb_status st = rdb_probe_cram_moves(p, covered, a, err);
    if (st == RDB_OK) {
        r->nimber = a->nimber;
        r->nmoves = a->nmoves;
        for (int i = 0; i < a->nmoves; i++) {
            r->move_nimber[i] = a->move_nimber[i];
            for (int k = 0; k < 2; k++) {
                int cell = a->cell[i][k][0] * pl.cols + a->cell[i][k][1];
                unplace_cell(&pl, cell, &r->cell[i][k][0], &r->cell[i][k][1]);
            }
            /* the smaller cell first, as the board's own list has it */
            if (r->cell[i][1][0] * pos->cols + r->cell[i][1][1] <
                r->cell[i][0][0] * pos->cols + r->cell[i][0][1]) {
                int t0 = r->cell[i][0][0], t1 = r->cell[i][0][1];
                r->cell[i][0][0] = r->cell[i][1][0];
                r->cell[i][0][1] = r->cell[i][1][1];
                r->cell[i][1][0] = t0;
                r->cell[i][1][1] = t1;
            }
        }
    }
    free(a);
    if (st != RDB_OK)
        return st;
    /* the board's own order (a turned table lists them otherwise), then
     * the winning moves first, each part in that order */
    int byboard[RDB_MAX_MOVES];
    for (int i = 0; i < r->nmoves; i++) {
        int j = i;
        while (j > 0 && move_before(r, i, byboard[j - 1])) {
            byboard[j] = byboard[j - 1];
            j--;
        }
        byboard[j] = i;
    }
    int n = 0;
    for (int k = 0; k < r->nmoves; k++)
        if (r->move_nimber[byboard[k]] == 0)
            r->order[n++] = byboard[k];
    r->nwinning = n;
    for (int k = 0; k < r->nmoves; k++)
        if (r->move_nimber[byboard[k]] != 0)
            r->order[n++] = byboard[k];
    return RDB_OK;
}

rdb_status rdb_answer_cram_perfect_game(rdb_probe *p, const rdb_form_cram *pos,
                                        rdb_cram_perfect_game *g, rdb_error *err)
{
    memset(g, 0, sizeof *g);
    rdb_cram_ranked *r = malloc(sizeof *r);
    if (!r)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    rdb_form_cram now = *pos;
    char player = 'A';
    rdb_status st;
    for (;;) {
        st = rdb_answer_cram(p, &now, r, err);
        if (st != RDB_OK || r->nmoves == 0)
            break;
        const int i = r->order[0];
        rdb_cram_turn *t = &g->turn[g->nturns++];
        t->player = player;
        memcpy(t->cell, r->cell[i], sizeof t->cell);
        t->nimber = r->move_nimber[i];
        for (int k = 0; k < 2; k++)
            now.covered |= 1ULL << (r->cell[i][k][0] * now.cols + r->cell[i][k][1]);
        player = player == 'A' ? 'B' : 'A';
    }
    /* the player to move with no move left loses */
    g->winner = player == 'A' ? 'B' : 'A';
    free(r);
    return st;
}
