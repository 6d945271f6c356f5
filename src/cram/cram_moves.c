/*
 * cram_moves.c — a Cram position's own moves (cram_solver.h): a
 * certificate of its nimber (a move to each smaller one) and the nimber
 * of every move, each a solve of the root (cram_root.c) with the table
 * the position's solve filled, read from and written to the ledger.
 */
#define _GNU_SOURCE
#include "cram/cram_solver_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cram/cram_board.h"
#include "common/job.h"

/* ---- a position's own moves: a certificate, every move's nimber ---- */

/* The ledger's root for the position free_cells when its lines' cells are
 * the board's own: the position is one part, in the layout as it is (not
 * turned, reflected, reduced or moved), so that a root move's cells on the
 * board are the ones the solve wrote (board_cell). 1 and its key in *root,
 * else 0: the position's lines, if any, name the cells of another form,
 * and are left to the solve. A part the mirror rule values 0 has its key
 * all the same (the solve writes no lines for it, but its moves' nimbers
 * are worth keeping), so a whole empty board is always its own. */
static int own_root(cram_solver *s, cram_wset free_cells, cram_wset *root)
{
    uint64_t comp[ROOT_PARTS], zeros = 0;
    cram_wset layout;
    rdb_error err;
    const int no_mirror = s->opt.no_mirror;
    s->opt.no_mirror = 1; /* the same keys, no part left out */
    const int n = cram_root_parts(s, free_cells, comp, &zeros, &layout, &err);
    s->opt.no_mirror = no_mirror;
    if (n != 1)
        return 0;
    const cram_wset key = is_wide(s, comp[0]) ? wide_key(comp[0]) : (cram_wset)comp[0];
    if (key != layout)
        return 0;
    *root = key;
    return 1;
}

/* A move's two board cells (r * cols + c) as (row, column), as the
 * ledger writes them. */
static void move_rc(int cols, const int cells[2], uint8_t rc[2][2])
{
    for (int i = 0; i < 2; i++)
        rc[i][0] = (uint8_t)(cells[i] / cols), rc[i][1] = (uint8_t)(cells[i] % cols);
}

/* A ledger line of root for the move covering the board cells cells[0]
 * and cells[1]: of kind is (1: "is", 0: "not"), of value v (any when
 * v < 0); NULL when there is none. */
static const cram_ledger_entry *ledger_line(const cram_ledger *l, int cols, cram_wset root, const int cells[2],
                                            int is, int v)
{
    uint8_t rc[2][2];
    move_rc(cols, cells, rc);
    for (int j = 0; j < l->n; j++) {
        const cram_ledger_entry *e = &l->entry[j];
        if (e->root != root || e->is != is || (v >= 0 && e->value != v))
            continue;
        if ((memcmp(rc[0], e->cell[0], 2) == 0 && memcmp(rc[1], e->cell[1], 2) == 0) ||
            (memcmp(rc[0], e->cell[1], 2) == 0 && memcmp(rc[1], e->cell[0], 2) == 0))
            return e;
    }
    return NULL;
}

/* Append to ledger l that root's child by the move `cells` has nimber v
 * (is) or not (!is), found in nodes and seconds, unless it says so
 * already. */
static rdb_status ledger_note(cram_solver *s, cram_ledger *l, cram_wset root, const int cells[2], int is, int v,
                              uint64_t nodes, double seconds, rdb_error *err)
{
    if (ledger_line(l, s->cols, root, cells, is, v))
        return RDB_OK;
    cram_ledger_entry e = {.root = root, .is = is, .value = v, .nodes = nodes, .seconds = seconds};
    move_rc(s->cols, cells, e.cell);
    rdb_status st = cram_ledger_add(l, &e, err);
    if (st == RDB_OK)
        s->workers[0].stats.to_ledger++;
    return st;
}

/* Nodes searched so far by all workers. */
static uint64_t nodes_so_far(const cram_solver *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->nworkers; i++)
        n += s->workers[i].stats.nodes;
    return n;
}

/* The board's dominoes (cram_domino_cells' numbers) nearest its centre
 * first, as the search asks the root's moves, so that a certificate asks
 * first the children the solve settled and its table knows. Returns how
 * many. */
static int dominoes_by_centre(int rows, int cols, int *order)
{
    int n = 0, dist[2 * 128], cell[2];
    for (int d = 0; cram_domino_cells(rows, cols, d, cell); d++) {
        /* twice the Manhattan distance from the domino's centre to the board's */
        const int r2 = cell[0] / cols + cell[1] / cols, c2 = cell[0] % cols + cell[1] % cols;
        const int dd = abs(r2 - (rows - 1)) + abs(c2 - (cols - 1));
        int j = n++;
        for (; j > 0 && dist[j - 1] > dd; j--) { /* stable: board order among equals */
            dist[j] = dist[j - 1];
            order[j] = order[j - 1];
        }
        dist[j] = dd;
        order[j] = d;
    }
    return n;
}

rdb_status cram_solver_certificate(cram_solver *s, cram_wset free_cells, int nimber, int cells[][2],
                                   rdb_error *err)
{
    int order[2 * 128];
    const int ndominoes = dominoes_by_centre(s->rows, s->cols, order);
    cram_wset root = 0;
    cram_ledger *const l = s->ledger && own_root(s, free_cells, &root) ? s->ledger : NULL;
    for (int k = 0; k < nimber; k++) {
        int found = 0, *const c = cells[k];
        /* a move the ledger knows to reach k, wherever it is in the order */
        for (int j = 0; l && !found && j < ndominoes; j++) {
            cram_domino_cells(s->rows, s->cols, order[j], c);
            const cram_wset domino = cram_wbit(c[0]) | cram_wbit(c[1]);
            found = (free_cells & domino) == domino && ledger_line(l, s->cols, root, c, 1, k);
        }
        if (found)
            s->workers[0].stats.from_ledger++;
        /* else the moves in order, each asked "is it k?" unless the ledger
         * says no (a line "is" another nimber, or "not k"), each answer
         * written down */
        for (int j = 0; !found && j < ndominoes; j++) {
            cram_domino_cells(s->rows, s->cols, order[j], c);
            const cram_wset domino = cram_wbit(c[0]) | cram_wbit(c[1]);
            if ((free_cells & domino) != domino)
                continue;
            if (l && (ledger_line(l, s->cols, root, c, 1, -1) || ledger_line(l, s->cols, root, c, 0, k))) {
                s->workers[0].stats.from_ledger++;
                continue;
            }
            const uint64_t nodes = nodes_so_far(s);
            const double t0 = rdb_now();
            int is;
            rdb_status st = cram_solver_test_wide(s, free_cells & ~domino, k, &is, err);
            if (st == RDB_OK && l)
                st = ledger_note(s, l, root, c, is, k, nodes_so_far(s) - nodes, rdb_now() - t0, err);
            if (st != RDB_OK)
                return st;
            found = is;
        }
        if (!found)
            return rdb_fail(err, RDB_E_CORRUPT,
                            "no move reaches nimber %d, below the nimber %d found: the search is wrong%s", k,
                            nimber, l ? ", or a line of the ledger" : "");
    }
    return RDB_OK;
}

rdb_status cram_solver_check_position(cram_solver *s, cram_wset free_cells, int listing_moves,
                                      rdb_error *err)
{
    uint64_t comp[ROOT_PARTS], zeros = 0;
    cram_wset layout;
    if (cram_root_parts(s, free_cells, comp, &zeros, &layout, err) < 0)
        return RDB_E_INPUT;
    /* every move is listed, those of parts the mirror rule values too */
    if (listing_moves && cram_root_dominoes(s, layout) > MAX_BOARD_MOVES)
        return rdb_fail(err, RDB_E_INPUT, "the position has %d free dominoes; the nimbers of at most %d moves are listed",
                        cram_root_dominoes(s, layout), MAX_BOARD_MOVES);
    return RDB_OK;
}

rdb_status cram_solver_move_nimbers(cram_solver *s, cram_wset free_cells, int domino[127], int nimber[127],
                                    int *n, rdb_error *err)
{
    *n = 0;
    rdb_status st = cram_solver_check_position(s, free_cells, 1, err);
    if (st != RDB_OK)
        return st;
    cram_wset root = 0;
    cram_ledger *const l = s->ledger && own_root(s, free_cells, &root) ? s->ledger : NULL;
    /* each child is a solve of its own: its ledger lines would be of
     * another root, so the ledger is set aside and its lines for this
     * position's moves read and written here */
    cram_ledger *const ledger = s->ledger;
    s->ledger = NULL;
    int cell[2];
    for (int d = 0; st == RDB_OK && cram_domino_cells(s->rows, s->cols, d, cell); d++) {
        const cram_wset move = cram_wbit(cell[0]) | cram_wbit(cell[1]);
        if ((free_cells & move) != move)
            continue;
        const cram_ledger_entry *said = l ? ledger_line(l, s->cols, root, cell, 1, -1) : NULL;
        if (said) {
            s->workers[0].stats.from_ledger++;
            nimber[*n] = said->value;
        } else {
            const uint64_t nodes = nodes_so_far(s);
            const double t0 = rdb_now();
            st = cram_solver_solve_wide(s, free_cells & ~move, &nimber[*n], err);
            if (st == RDB_OK && l)
                st = ledger_note(s, l, root, cell, 1, nimber[*n], nodes_so_far(s) - nodes, rdb_now() - t0, err);
        }
        if (st == RDB_OK)
            domino[(*n)++] = d;
    }
    s->ledger = ledger;
    return st;
}

