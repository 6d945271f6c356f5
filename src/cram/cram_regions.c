/*
 * cram_regions.c — a position solved board by board and nim-summed; see
 * cram_regions.h.
 */
#include "cram/cram_regions.h"

#include <stdlib.h>
#include <string.h>

#include "cram/cram_board.h"

/* The free dominoes of a board's position (both cells free). */
static int free_dominoes(const cram_window *w, cram_wset free_cells)
{
    int count = 0, cell[2];
    for (int d = 0; cram_domino_cells(w->height, w->width, d, cell); d++)
        count += (free_cells >> cell[0] & 1) && (free_cells >> cell[1] & 1);
    return count;
}

rdb_status cram_regions_new(cram_regions *r, int rows, int cols, cram_wset free_cells, int by_region,
                            const cram_solver_options *opt, int listing_moves, rdb_error *err)
{
    memset(r, 0, sizeof *r);
    r->n = cram_window_split(rows, cols, free_cells, by_region, r->win, r->free);
    rdb_status st = RDB_OK;
    int moves = 0;
    for (int i = 0; st == RDB_OK && i < r->n; i++) {
        st = cram_solver_new(r->win[i].height, r->win[i].width, opt, &r->solver[i], err);
        /* one board is checked for its moves as the solver counts them
         * (the mirror rule's parts too); several, each for its search and
         * their moves together */
        if (st == RDB_OK)
            st = cram_solver_check_position(r->solver[i], r->free[i], listing_moves && r->n == 1, err);
        moves += free_dominoes(&r->win[i], r->free[i]);
    }
    if (st == RDB_OK && listing_moves && r->n > 1 && moves > 127)
        st = rdb_fail(err, RDB_E_INPUT, "the position has %d free dominoes; the nimbers of at most %d moves are listed",
                      moves, 127);
    if (st != RDB_OK)
        cram_regions_free(r);
    return st;
}

void cram_regions_free(cram_regions *r)
{
    for (int i = 0; i < CRAM_WINDOW_MAX_REGIONS; i++) {
        if (r->solver[i])
            cram_solver_free(r->solver[i]);
        free(r->certificate[i]);
    }
    memset(r, 0, sizeof *r);
}

rdb_status cram_regions_solve(cram_regions *r, int *nimber, rdb_error *err)
{
    *nimber = 0;
    for (int i = 0; i < r->n; i++) {
        rdb_status st = cram_solver_solve_wide(r->solver[i], r->free[i], &r->nimber[i], err);
        if (st != RDB_OK)
            return st;
        *nimber ^= r->nimber[i];
    }
    return RDB_OK;
}

/* Region i's certificate, found when first asked. */
static rdb_status region_certificate(cram_regions *r, int i, rdb_error *err)
{
    if (r->certificate[i])
        return RDB_OK;
    r->certificate[i] = malloc((size_t)(r->nimber[i] ? r->nimber[i] : 1) * sizeof *r->certificate[i]);
    if (!r->certificate[i])
        return rdb_fail(err, RDB_E_NOMEM, "no memory for a certificate");
    rdb_status st = cram_solver_certificate(r->solver[i], r->free[i], r->nimber[i], r->certificate[i], err);
    if (st != RDB_OK) {
        free(r->certificate[i]);
        r->certificate[i] = NULL;
    }
    return st;
}

rdb_status cram_regions_certificate(cram_regions *r, int nimber, int cells[][2], rdb_error *err)
{
    for (int k = 0; k < nimber; k++) {
        int i = 0;
        while (i < r->n && (r->nimber[i] ^ nimber ^ k) >= r->nimber[i])
            i++;
        if (i == r->n) /* `nimber` is not the regions' nim-sum */
            return rdb_fail(err, RDB_E_CORRUPT, "no region's nimber allows a move to nimber %d of %d", k,
                            nimber);
        rdb_status st = region_certificate(r, i, err);
        if (st != RDB_OK)
            return st;
        const int *move = r->certificate[i][r->nimber[i] ^ nimber ^ k];
        for (int j = 0; j < 2; j++)
            cells[k][j] = cram_window_board_cell(&r->win[i], move[j]);
    }
    return RDB_OK;
}

rdb_status cram_regions_move_nimbers(cram_regions *r, int domino[127], int nimber[127], int *n,
                                     rdb_error *err)
{
    int sum = 0;
    for (int i = 0; i < r->n; i++)
        sum ^= r->nimber[i];
    *n = 0;
    for (int i = 0; i < r->n; i++) {
        int d[127], g[127], m;
        rdb_status st = cram_solver_move_nimbers(r->solver[i], r->free[i], d, g, &m, err);
        if (st != RDB_OK)
            return st;
        /* cram_regions_new kept the moves in all to 127 */
        for (int j = 0; j < m; j++) {
            domino[*n] = cram_window_board_domino(&r->win[i], d[j]);
            nimber[(*n)++] = sum ^ r->nimber[i] ^ g[j];
        }
    }
    /* in the board's order, the regions' moves interleaved (few: a sort
     * by insertion) */
    for (int j = 1; j < *n; j++)
        for (int k = j; k > 0 && domino[k - 1] > domino[k]; k--) {
            const int d = domino[k], g = nimber[k];
            domino[k] = domino[k - 1], nimber[k] = nimber[k - 1];
            domino[k - 1] = d, nimber[k - 1] = g;
        }
    return RDB_OK;
}

void cram_regions_stats(const cram_regions *r, cram_stats *st)
{
    if (r->n == 1) {
        cram_solver_stats(r->solver[0], st);
        return;
    }
    memset(st, 0, sizeof *st);
    double filled = 0, wide_filled = 0;
    for (int i = 0; i < r->n; i++) {
        cram_stats s;
        cram_solver_stats(r->solver[i], &s);
        st->nodes += s.nodes;
        st->expanded += s.expanded;
        st->tt_hits += s.tt_hits;
        st->db_hits += s.db_hits;
        st->cuts += s.cuts;
        st->mirror_zero += s.mirror_zero;
        st->wide_expanded += s.wide_expanded;
        st->unreduced += s.unreduced;
        st->helped += s.helped;
        st->helper_first += s.helper_first;
        st->twins += s.twins;
        st->from_ledger += s.from_ledger;
        st->to_ledger += s.to_ledger;
        st->tt_entries += s.tt_entries;
        st->tt_replaced += s.tt_replaced;
        st->tt_loaded += s.tt_loaded;
        st->tt_bytes += s.tt_bytes;
        st->wide_tt_bytes += s.wide_tt_bytes;
        st->tt_conflicts += s.tt_conflicts;
        st->tt_held |= s.tt_held;
        st->seconds += s.seconds;
        filled += s.tt_fill * (double)s.tt_bytes;
        wide_filled += s.wide_tt_fill * (double)s.wide_tt_bytes;
    }
    st->tt_fill = st->tt_bytes ? filled / (double)st->tt_bytes : 0;
    st->wide_tt_fill = st->wide_tt_bytes ? wide_filled / (double)st->wide_tt_bytes : 0;
}
