/*
 * cram_session.c — a Cram search as `solve cram` runs it. See
 * cram_session.h.
 */
#define _GNU_SOURCE
#include "api/cram_session.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "api/cram_tables.h"
#include "common/job.h"
#include "cram/cram_tt.h"
#include "cram/cram_regions.h"

void rdb_cram_session_defaults(rdb_cram_session *o)
{
    memset(o, 0, sizeof *o);
    o->solver.method = CRAM_DEFAULT_METHOD;
    o->solver.tt_mb = 1024;
    o->digest_log2 = RDB_CRAM_DIGEST_LOG2;
}

/* Save the table and its digest (either may be absent); RDB_OK, or the
 * first failure. */
static rdb_status save_both(cram_solver *s, const rdb_cram_session *o, rdb_error *err)
{
    rdb_status st = o->tt_file ? cram_solver_save_tt(s, o->tt_file, err) : RDB_OK;
    if (st == RDB_OK && o->digest)
        st = cram_solver_save_dear(s, o->digest, o->digest_log2, err);
    return st;
}

/* Saving the table while the search runs (cram_solver_set_hook). */
static void save_table(cram_solver *s, void *ctx)
{
    const rdb_cram_session *o = ctx;
    double t0 = rdb_now();
    rdb_error err;
    if (save_both(s, o, &err) != RDB_OK)
        fprintf(stderr, "retrodb: %s (the search goes on)\n", err.msg);
    else if (!o->quiet)
        fprintf(stderr, "solve: table saved in '%s' (%.1f s)\n", o->tt_file ? o->tt_file : o->digest,
                rdb_now() - t0);
}

/* Load the digest, then the table file (which holds all of the digest),
 * each when it exists. */
static rdb_status load_tables(cram_solver *s, const rdb_cram_session *o, const cram_window *win,
                              rdb_error *err)
{
    const char *const load[2] = {o->digest, o->tt_file};
    for (int i = 0; i < 2; i++) {
        if (!load[i])
            continue;
        double t0 = rdb_now();
        cram_stats before;
        cram_solver_stats(s, &before);
        rdb_status st = cram_solver_load_tt(s, load[i], err);
        if (st == RDB_E_MISSING)
            continue;
        if (st != RDB_OK)
            return st;
        if (o->quiet)
            continue;
        /* what a resumed run starts from, where an operator sees it */
        cram_stats after;
        cram_solver_stats(s, &after);
        fprintf(stderr, "solve: %llu entries read from '%s' (%.1f s); the table holds %llu\n",
                (unsigned long long)(after.tt_loaded - before.tt_loaded), load[i], rdb_now() - t0,
                (unsigned long long)after.tt_entries);
        /* the parts of more than 64 cells are in F.wide: a copy of F
         * alone loads, and those parts, the dearest, start again */
        char wide[PATH_MAX];
        if (win->height * win->width > 64 &&
            snprintf(wide, sizeof wide, "%s.wide", load[i]) < (int)sizeof wide && access(wide, F_OK) != 0)
            fprintf(stderr, "solve: no '%s' beside it: the parts of more than 64 cells start from nothing\n",
                    wide);
    }
    return RDB_OK;
}

/* The search itself, its tables ready: the nimber, then what was asked
 * after it, moves given back on the board. */
static rdb_status search(cram_regions *regions, const rdb_cram_session *o, rdb_cram_session_result *r,
                         rdb_error *err)
{
    rdb_status st = cram_regions_solve(regions, &r->nimber, err);
    if (st == RDB_OK && o->certificate) {
        r->ncertificate = r->nimber;
        st = cram_regions_certificate(regions, r->nimber, r->certificate, err);
    }
    if (st == RDB_OK && o->first_moves)
        st = cram_regions_move_nimbers(regions, r->domino, r->move_nimber, &r->nmoves, err);
    return st;
}

rdb_status rdb_cram_session_run(const rdb_cram_session *o, int rows, int cols, cram_wset covered,
                                rdb_cram_session_result *r, rdb_error *err)
{
    memset(r, 0, sizeof *r);
    const int ncells = rows * cols;
    if (rows < 1 || cols < 1 || ncells > CRAM_WIDE_MAX_CELLS)
        return rdb_fail(err, RDB_E_INPUT, "cram board %dx%d has %d cells; at most %d fit", rows, cols,
                        ncells, CRAM_WIDE_MAX_CELLS);
    const cram_wset all = ncells == CRAM_WIDE_MAX_CELLS ? ~(cram_wset)0 : cram_wbit(ncells) - 1;
    /* the solver's board: this one, or on a board more than 8 cells
     * across both ways the box of the position's free dominoes, or each
     * of their regions in its own box, but for a run whose files (a table
     * file, a digest, a ledger) belong to one board; moves are given back
     * on this board. A position the search refuses is refused before any
     * file is touched. */
    cram_regions regions;
    const int by_region = !o->tt_file && !o->digest && !o->ledger;
    rdb_status st =
        cram_regions_new(&regions, rows, cols, all & ~covered, by_region, &o->solver, o->first_moves, err);
    if (st != RDB_OK)
        return st;
    cram_solver *const s = regions.solver[0];
    for (int k = 0; k < regions.n; k++)
        for (int i = 0; i < o->ntables && st == RDB_OK; i++) {
            cram_table_source table;
            if ((st = cram_table_open(o->table[i], &table, err)) == RDB_OK)
                st = cram_solver_add_table(regions.solver[k], &table, err);
        }
    /* the files saved every few minutes, the table file and the digest,
     * are this run's alone: two runs with their own tables and one digest
     * would each write it over the other's */
    int lock_fd[2] = {-1, -1};
    if (st == RDB_OK && o->tt_file)
        st = cram_tt_file_claim(o->tt_file, &lock_fd[0], err);
    if (st == RDB_OK && o->digest)
        st = cram_tt_file_claim(o->digest, &lock_fd[1], err);
    cram_ledger ledger = {0};
    if (st == RDB_OK && o->ledger) {
        st = cram_ledger_open(&ledger, o->ledger, regions.win[0].height, regions.win[0].width, err);
        cram_solver_set_ledger(s, &ledger);
    }
    if (st == RDB_OK)
        st = load_tables(s, o, &regions.win[0], err);
    const int saving = o->tt_file || o->digest;
    if (st == RDB_OK && saving)
        cram_solver_set_hook(s, 60.0 * (o->save_minutes ? o->save_minutes : 30), save_table,
                             (void *)o);
    if (st == RDB_OK) {
        st = search(&regions, o, r, err);
        /* Every entry of the table is true (cram_search.c), so it is
         * saved whatever ended the search (a signal, a ledger that could
         * not be appended to or grown in memory, a nimber table that could
         * not be read), except something false read: a damaged nimber
         * table, a contradiction in the table or the ledger
         * (RDB_E_CORRUPT). */
        if (saving && st != RDB_E_CORRUPT) {
            r->saved = save_both(s, o, &r->save_err);
            if (r->saved == RDB_OK && st != RDB_OK && !o->quiet)
                fprintf(stderr, "retrodb: transposition table saved in '%s'; run the same command to resume%s\n",
                        o->tt_file ? o->tt_file : o->digest,
                        st == RDB_E_STOPPED ? "" : " once the error below is mended");
        }
        cram_regions_stats(&regions, &r->stats);
    }
    cram_regions_free(&regions);
    cram_ledger_close(&ledger);
    cram_tt_file_release(lock_fd[0]);
    cram_tt_file_release(lock_fd[1]);
    return st;
}
