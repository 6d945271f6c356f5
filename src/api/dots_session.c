/*
 * dots_session.c — a Dots-and-Boxes search as `solve dots` runs it. See
 * dots_session.h.
 */
#include "api/dots_session.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "common/job.h"
#include "dots/dots_board.h"
#include "dots/dots_ledger.h"
#include "dots/dots_tt_file.h"
#include "retrodb/probe.h"

void rdb_dots_session_defaults(rdb_dots_session *o)
{
    memset(o, 0, sizeof *o);
    o->solver = (dots_solver_options){.tt_min_open = 6,
                                      .etc_min_open = DOTS_ETC_MIN_OPEN,
                                      .tt_bytes = (uint64_t)1024 << 20,
                                      .threads = 1,
                                      .rules = DOTS_RULES_FULL};
    o->db_memory_mb = 4096;
    o->proof = (dots_proof_options){.depth = 2, .nparts = 1};
}

/* ---- the database the search asks ---- */

/* The database the search asks for the positions it holds. A level the
 * database does not hold (not built yet, or deleted) answers RDB_E_MISSING
 * once and is not asked again. */
typedef struct {
    rdb_probe *probe;
    uint64_t start;
    int start_lines;
    int missing[65];    /* levels the database does not hold */
    int failed;         /* a lookup failed otherwise: the message, once */
    rdb_status status;
    rdb_error err;
} held_db;

static int held_value(void *ctx, uint64_t lines, int *value)
{
    held_db *h = ctx;
    const int level = __builtin_popcountll(lines) - h->start_lines;
    if ((lines & h->start) != h->start || __atomic_load_n(&h->missing[level], __ATOMIC_RELAXED))
        return 0;
    rdb_error err;
    rdb_status st = rdb_probe_value(h->probe, lines, value, &err);
    if (st == RDB_OK)
        return 1;
    if (st == RDB_E_MISSING) {
        __atomic_store_n(&h->missing[level], 1, __ATOMIC_RELAXED);
    } else if (!__atomic_exchange_n(&h->failed, 1, __ATOMIC_RELAXED)) {
        h->err = err;
        h->status = st;
        rdb_stop_requested = SIGTERM; /* the search stops; the message says why */
    }
    return 0;
}

/* Open the database and check that it is a Dots-and-Boxes database of
 * this board, penalty and a start the position holds. */
static rdb_status open_held(const char *dir, long memory_mb, const rdb_problem *pr, held_db *h,
                            rdb_error *err)
{
    memset(h, 0, sizeof *h);
    rdb_status st = rdb_probe_open(dir, &h->probe, err);
    if (st != RDB_OK)
        return st;
    rdb_db_info info;
    rdb_probe_info(h->probe, &info);
    const int rows = pr->diagram.rows, cols = pr->diagram.cols;
    const int full_value = pr->has_value ? pr->full_value : 0;
    if (strcmp(info.game, "dots") != 0 || info.rows != rows || info.cols != cols)
        st = rdb_fail(err, RDB_E_INPUT, "--db '%s' is a %s %dx%d database, not dots %dx%d", dir,
                      info.game, info.rows, info.cols, rows, cols);
    else if (info.full_value != full_value)
        st = rdb_fail(err, RDB_E_INPUT, "--db '%s' has the full board worth %d, not %d", dir,
                      info.full_value, full_value);
    else if ((pr->diagram.drawn & info.start) != info.start)
        st = rdb_fail(err, RDB_E_INPUT,
                      "--db '%s' starts from lines the position does not have drawn", dir);
    else if (info.loony || info.chains)
        st = rdb_fail(err, RDB_E_INPUT,
                      "--db '%s' holds loony marks or chain pseudo-lines: give a plain database",
                      dir);
    if (st != RDB_OK) {
        rdb_probe_close(h->probe);
        h->probe = NULL;
        return st;
    }
    h->start = info.start;
    h->start_lines = __builtin_popcountll(info.start);
    /* The search asks for positions all over the levels: a database that
     * fits is read into memory once (a lookup in a file decodes a frame of
     * 128 K values); a bigger one is read frame by frame. */
    rdb_error ignored;
    (void)rdb_probe_preload(h->probe, (uint64_t)memory_mb << 20, &ignored);
    return RDB_OK;
}

/* ---- the table file ---- */

/* Saving the table while the search runs (dots_solver_set_hook). */
typedef struct {
    const dots_board *b;
    int full_value, quiet;
    const char *path;
} table_saver;

static rdb_status save_table_now(dots_solver *s, const table_saver *t, rdb_error *err)
{
    double t0 = rdb_now();
    rdb_status st = dots_tt_save(s, t->b, t->full_value, t->path, err);
    if (st == RDB_OK && !t->quiet)
        fprintf(stderr, "solve: table saved in '%s' (%.1f s)\n", t->path, rdb_now() - t0);
    return st;
}

/* The periodic save: a failure is reported and the search goes on. */
static void save_table(dots_solver *s, void *ctx)
{
    rdb_error err;
    if (save_table_now(s, ctx, &err) != RDB_OK)
        fprintf(stderr, "retrodb: %s (the search goes on)\n", err.msg);
}

/* ---- the search ---- */

/* The value and best moves, or every move's value. */
static rdb_status solve(const rdb_dots_session *o, const dots_board *b, const rdb_problem *pr,
                        dots_solver *s, rdb_dots_session_result *r, rdb_error *err)
{
    const uint64_t lines = pr->diagram.drawn;
    if (!o->first_moves) {
        rdb_status st = dots_solver_value(s, lines, &r->value, err);
        if (st == RDB_OK && !o->value_only)
            st = dots_solver_best_moves(s, lines, r->value, &r->best, err);
        return st;
    }
    rdb_status st = dots_solver_move_values(s, lines, r->move_value, err);
    if (st != RDB_OK)
        return st;
    r->value = lines == dots_all_lines(b) ? (pr->has_value ? pr->full_value : 0) : INT32_MIN;
    for (int l = 0; l < b->nlines; l++)
        if (!(lines >> l & 1) && r->move_value[l] > r->value)
            r->value = r->move_value[l];
    for (int l = 0; l < b->nlines; l++)
        if (!(lines >> l & 1) && r->move_value[l] == r->value)
            r->best |= 1ULL << l;
    return RDB_OK;
}

static rdb_status prove(const rdb_dots_session *o, const rdb_problem *pr, dots_solver *s,
                        dots_ledger *ledger, rdb_dots_session_result *r, rdb_error *err)
{
    dots_proof_options po = o->proof;
    po.verbose = !o->quiet;
    const double t0 = rdb_now();
    rdb_status st = dots_prove(s, ledger, pr->diagram.drawn, o->prove, &po, &r->proof, err);
    r->proof_seconds = rdb_now() - t0;
    return st;
}

rdb_status rdb_dots_session_run(const rdb_dots_session *o, const rdb_problem *pr,
                                rdb_dots_session_result *r, rdb_error *err)
{
    memset(r, 0, sizeof *r);
    dots_board b;
    rdb_status st = dots_board_init(&b, pr->diagram.rows, pr->diagram.cols, err);
    if (st != RDB_OK)
        return st;
    const int full_value = pr->has_value ? pr->full_value : 0;
    dots_solver_options opt = o->solver;
    held_db held = {0};
    if (o->db) {
        st = open_held(o->db, o->db_memory_mb, pr, &held, err);
        if (st != RDB_OK)
            return st;
        opt.stored = held_value;
        opt.stored_ctx = &held;
    }
    dots_solver *s = NULL;
    st = dots_solver_new(&b, full_value, &opt, &s, err);
    const table_saver saver = {&b, full_value, o->quiet, o->tt_file};
    /* the table file is this search's alone: two searches saving one
     * file would each write it over the other's */
    int lock_fd = -1;
    if (st == RDB_OK && o->tt_file) {
        uint64_t loaded = 0;
        st = dots_tt_file_claim(o->tt_file, &lock_fd, err);
        if (st == RDB_OK)
            st = dots_tt_load(s, &b, full_value, o->tt_file, &loaded, err);
        if (st == RDB_E_MISSING)
            st = RDB_OK;
        else if (st == RDB_OK && !o->quiet)
            fprintf(stderr, "solve: %llu table entries loaded from '%s'\n", (unsigned long long)loaded,
                    o->tt_file);
        if (st == RDB_OK)
            dots_solver_set_hook(s, 60.0 * (o->save_minutes ? o->save_minutes : 30), save_table,
                                 (void *)&saver);
    }
    dots_ledger ledger = {0};
    if (st == RDB_OK && o->ledger) {
        st = dots_ledger_open(&ledger, o->ledger, &b, full_value, err);
        if (st == RDB_OK)
            st = dots_proof_use_ledger(s, &ledger, err);
    }
    if (st == RDB_OK) {
        st = o->has_prove ? prove(o, pr, s, &ledger, r, err) : solve(o, &b, pr, s, r, err);
        /* a finished or stopped search holds only true entries */
        if (o->tt_file && (st == RDB_OK || st == RDB_E_STOPPED)) {
            rdb_error save_err;
            const rdb_status saved = save_table_now(s, &saver, &save_err);
            if (saved != RDB_OK && st == RDB_OK)
                st = saved, *err = save_err;
            else if (saved != RDB_OK)
                fprintf(stderr, "retrodb: %s\n", save_err.msg);
        }
        dots_solver_stats_get(s, &r->stats);
    }
    dots_ledger_close(&ledger);
    dots_tt_file_release(lock_fd);
    if (s)
        dots_solver_free(s);
    if (held.probe) {
        if (held.failed) { /* the search was stopped for it */
            st = held.status;
            *err = held.err;
        }
        rdb_probe_close(held.probe);
    }
    return st;
}
