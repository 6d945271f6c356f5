/*
 * cram_root.c — the root of a Cram solve (cram_solver.h): the board's
 * free cells as parts, the aspiration method's trials ("is it r?" for
 * r = 0, 1, ...), the threads that share a trial's children, and the
 * ledger that keeps the root's answers across runs.
 */
#define _GNU_SOURCE
#include "cram/cram_solver_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cram/cram_reduce.h"
#include "cram/cram_window.h"
#include "common/job.h"

#include <omp.h>
#include <sched.h>

/* ---- the ledger: the root's answers, kept across runs ---- */

/* The board cell (row, column) of the layout's cell i. */
static void board_cell(const cram_solver *s, int i, uint8_t *rc)
{
    const int r = i / s->g.stride, c = i % s->g.stride;
    rc[0] = (uint8_t)(s->transposed ? c : r);
    rc[1] = (uint8_t)(s->transposed ? r : c);
}

/* The moves of the root x's n children, at their slots (cram_search_children()'s
 * order: the dominoes along the layout's rows by cell, then the others),
 * as board cells in s->root_cell; x as the ledger keys it in
 * s->ledger_root. */
static void root_moves(cram_solver *s, uint64_t x, int n)
{
    const int wide = is_wide(s, x);
    const cram_wset key = wide ? wide_key(x) : x;
    const cram_wset hm = wide ? cram_wide_hmoves(&s->wg, key) : cram_hmoves(&s->g, x);
    const cram_wset vm = wide ? cram_wide_vmoves(&s->wg, key) : cram_vmoves(&s->g, x);
    int slot = 0;
    for (int v = 0; v < 2; v++)
        for (cram_wset m = v ? vm : hm; m; m &= m - 1) {
            const int i = cram_wlowest(m);
            assert(slot < n);
            board_cell(s, i, s->root_cell[slot][0]);
            board_cell(s, v ? i + s->g.stride : i + 1, s->root_cell[slot][1]);
            slot++;
        }
    assert(slot == n);
    s->ledger_root = key;
}

/* The slot of the root's child whose move covers the cells of e, or -1. */
static int ledger_slot(const cram_solver *s, const cram_ledger_entry *e, int n)
{
    for (int i = 0; i < n; i++) {
        const uint8_t(*c)[2] = s->root_cell[i];
        const int same = memcmp(c[0], e->cell[0], 2) == 0 && memcmp(c[1], e->cell[1], 2) == 0;
        const int swapped = memcmp(c[0], e->cell[1], 2) == 0 && memcmp(c[1], e->cell[0], 2) == 0;
        if (same || swapped)
            return i;
    }
    return -1;
}

static int ledger_fails(cram_worker *w, const cram_ledger_entry *e, const char *why)
{
    if (e->lineno == 0) /* a line this process added */
        w->fail = rdb_fail(&w->err, RDB_E_CORRUPT, "%s, a line added by this run: %s", w->s->ledger->path, why);
    else
        w->fail = rdb_fail(&w->err, RDB_E_CORRUPT, "%s:%d: %s", w->s->ledger->path, e->lineno, why);
    w->stopped = 1;
    return -1;
}

static void to_ledger(cram_worker *w, int slot, int r, int v, uint64_t nodes, double seconds);

/* What the ledger knows of the n children of the root x: a child of known
 * nimber is done (that nimber goes into *seen), and not[slot] gets the
 * nimbers a child is known not to have; a child the table knows and the
 * ledger does not is added to it. Returns 0, or -1 (the worker stopped
 * with the error) when a line names a move the root does not have or
 * contradicts another line or the search, or the ledger cannot be
 * appended to. */
static int from_ledger(cram_worker *w, uint64_t x, cram_child *ch, int n, nimset *seen, nimset *not)
{
    cram_solver *s = w->s;
    int exact[MAX_MOVES];
    const cram_ledger_entry *said[MAX_MOVES] = {0};
    for (int i = 0; i < n; i++)
        exact[i] = -1, not[i] = 0;
    if (!s->ledger)
        return 0;
    root_moves(s, x, n);
    for (int j = 0; j < s->ledger->n; j++) {
        const cram_ledger_entry *e = &s->ledger->entry[j];
        if (e->root != s->ledger_root)
            continue;
        const int i = ledger_slot(s, e, n);
        if (i < 0)
            return ledger_fails(w, e, "the root has no such move");
        if (!e->is)
            not[i] |= ns_bit(e->value);
        else if (exact[i] >= 0 && exact[i] != e->value)
            return ledger_fails(w, e, "another line gives this move another nimber");
        else
            exact[i] = e->value, said[i] = e;
    }
    for (int i = 0; i < n; i++) {
        if (exact[i] < 0) {
            /* A child the table knew at once is not asked, so no trial
             * writes its nimber down: do it here, since a run on another
             * machine may have to search it. */
            if (ch[i].done && ch[i].nparts == 0)
                to_ledger(w, i, ch[i].known, ch[i].known, 0, 0.0);
            continue;
        }
        if (ns_has(not[i], exact[i]) || (ch[i].done && ch[i].nparts == 0 && ch[i].known != exact[i]))
            return ledger_fails(w, said[i], "this nimber contradicts another line or the search");
        if (!ch[i].done) {
            ch[i].done = 1;
            *seen |= ns_bit(exact[i]);
            w->stats.from_ledger++;
        }
    }
    return w->stopped ? -1 : 0;
}

/* Append to the ledger the answer v (the child's nimber, or -1: not r) of
 * the root's child at slot to "is it r?", found in nodes and seconds; no
 * answer (STOPPED), nothing. A failed append stops the search: what it
 * proves from there on would not survive it. */
static void to_ledger(cram_worker *w, int slot, int r, int v, uint64_t nodes, double seconds)
{
    cram_solver *s = w->s;
    if (!s->ledger || v == STOPPED)
        return;
    cram_ledger_entry e = {.root = s->ledger_root, .is = v >= 0, .value = v >= 0 ? v : r,
                           .nodes = nodes, .seconds = seconds};
    memcpy(e.cell, s->root_cell[slot], sizeof e.cell);
    rdb_status st = cram_ledger_add(s->ledger, &e, &w->err);
    if (st != RDB_OK) {
        w->fail = st;
        w->stopped = 1;
    } else {
        w->stats.to_ledger++;
    }
}

void cram_solver_set_ledger(cram_solver *s, cram_ledger *l)
{
    s->ledger = l;
}

/* ---- aspiration: the root asks "is it r?" for r = 0, 1, ... ---- */

/* The answers of the children order[0..k) of the root to "is it r?", in
 * res (STOPPED where no answer came), asked in order by one worker until
 * one has nimber r. */
static void ask_in_order(cram_worker *w, cram_child *ch, const uint8_t *order, int k, int r, int *res)
{
    for (int o = 0; o < k; o++)
        res[o] = STOPPED;
    for (int o = 0; o < k; o++) {
        w->root_move = o + 1;
        const uint64_t nodes = w->stats.nodes;
        const double t0 = rdb_now();
        res[o] = cram_search_child_value(w, &ch[order[o]], ns_bit(r), 1);
        to_ledger(w, order[o], r, res[o], w->stats.nodes - nodes, rdb_now() - t0);
        if (res[o] == r || w->stopped)
            return;
    }
}

/* The same, the children shared out between the workers: the even ones
 * take the next child from the front of the order, the odd ones from the
 * back, and when one finds a child of nimber r the others give up their
 * child, whose answer no longer matters (what their searches stored is
 * true all the same). Neighbours in the order share most of their
 * positions, so two workers on neighbours do the same work twice
 * (measured: 1.8 times the nodes, no faster), while the two ends share
 * little and each fills the table for the other: 3x17 took 2.99 M
 * positions expanded with two workers against 4.14 M with one.
 *
 * A worker that finds no child left to take helps with a child another
 * worker is still searching (the one with the fewest searchers), asking
 * it the same question with the child's moves in the opposite order; the
 * first answer counts and the other searchers of that child give up.
 * Without it, a trial's last, dearest child kept one core idle for as
 * long as it took. Every worker searches a copy of the child, since the
 * search rewrites the parts it resolves. */
static void ask_children(cram_solver *s, const cram_child *ch, const uint8_t *order, int k, int r,
                         int *res)
{
    int lo = 0, hi = k - 1;
    int searchers[MAX_MOVES] = {0}, answered[MAX_MOVES] = {0};
    for (int o = 0; o < k; o++)
        res[o] = STOPPED;
    s->trial_over = 0;
#pragma omp parallel num_threads(s->nworkers)
    {
        int id = omp_get_thread_num();
        cram_worker *w = &s->workers[id];
        rdb_table_growth_join(&s->growth);
        for (;;) {
            int o = -1, helper = 0;
#pragma omp critical(cram_root_claim)
            {
                if (lo <= hi) {
                    o = id % 2 ? hi-- : lo++;
                } else {
                    for (int i = 0; i < k; i++)
                        if (searchers[i] && !answered[i] && (o < 0 || searchers[i] < searchers[o]))
                            o = i;
                    if (o >= 0)
                        helper = searchers[o];
                }
                if (o >= 0)
                    searchers[o]++;
            }
            if (o < 0 || __atomic_load_n(&s->trial_over, __ATOMIC_RELAXED))
                break;
            w->stats.helped += helper > 0;
            __atomic_store_n(&w->root_move, o + 1, __ATOMIC_RELAXED);
            cram_child c = ch[order[o]];
            w->quit = &answered[o];
            w->helper = helper;
            const uint64_t nodes = w->stats.nodes;
            const double t0 = rdb_now();
            int v = cram_search_child_value(w, &c, ns_bit(r), 1);
            w->quit = NULL;
            w->helper = 0;
#pragma omp critical(cram_root_claim)
            {
                searchers[o]--;
                if (v != STOPPED && !answered[o]) {
                    res[o] = v;
                    w->stats.helper_first += helper > 0;
                    __atomic_store_n(&answered[o], 1, __ATOMIC_RELAXED);
                    to_ledger(w, order[o], r, v, w->stats.nodes - nodes, rdb_now() - t0);
                }
            }
            if (v == r || w->stopped)
                __atomic_store_n(&s->trial_over, 1, __ATOMIC_RELAXED);
        }
        rdb_table_growth_leave(&s->growth);
    }
    s->trial_over = 0;
}

/* The parts of c (their canonical forms: a wide part has a cell where no
 * part of g has one) in increasing order, in sorted (c->nparts of them). */
static void sorted_parts(const cram_solver *s, const cram_child *c, cram_wset *sorted)
{
    for (int i = 0; i < c->nparts; i++) {
        cram_wset key = is_wide(s, c->part[i]) ? wide_key(c->part[i]) : c->part[i];
        int j = i;
        for (; j > 0 && sorted[j - 1] > key; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = key;
    }
}

/* Mark done every child of the root that is the same sum as an earlier
 * one (the same known nimber and the same canonical parts): the mirror
 * images of a move, mostly, which a symmetric board has two or four of.
 * The nimber is the mex of the set of the children's nimbers, so a twin
 * adds nothing; asked anyway, it is answered by the table, but two workers
 * that take twins at the same time would search the same position twice
 * (twins are neighbours in the order: same size, same distance from the
 * centre). */
static void drop_twins(cram_worker *w, cram_child *ch, int n)
{
    cram_wset key[MAX_MOVES][CHILD_PARTS];
    for (int i = 0; i < n; i++) {
        if (ch[i].done)
            continue;
        sorted_parts(w->s, &ch[i], key[i]);
        for (int j = 0; j < i; j++)
            if (!ch[j].done && ch[j].known == ch[i].known && ch[j].nparts == ch[i].nparts &&
                memcmp(key[j], key[i], ch[i].nparts * sizeof key[i][0]) == 0) {
                ch[i].done = 1;
                w->stats.twins++;
                break;
            }
    }
}

/* Nimber of the canonical component x, searched as the root: its
 * children are listed once, and for each candidate r in turn every child
 * still unvalued is asked only whether its nimber is r. The first r no
 * child has is the nimber (every smaller one was found in a child). A
 * child that answers with its exact nimber leaves the list, and that
 * nimber needs no trial of its own. With skip_zero the trial of 0 is left
 * out (the empty board of a first-player win). One worker asks the
 * children in order and stops at the first of nimber r (ask_in_order);
 * several share them out (ask_children). */
static int aspire(cram_worker *w, uint64_t x, int skip_zero)
{
    cram_solver *s = w->s;
    int v = cram_search_known(w, x);
    if (v >= 0)
        return v;
    if (!cram_search_count_node(w))
        return STOPPED;
    uint64_t before = w->stats.nodes;
    cram_child *ch = w->ply[0];
    nimset all;
    int n = cram_search_children(w, x, ch, 0, &all);
    nimset seen = 0; /* nimbers some child has */
    for (int i = 0; i < n; i++) {
        cram_search_resolve(w, &ch[i]);
        if (ch[i].nparts == 0) {
            ch[i].done = 1;
            seen |= ns_bit(ch[i].known);
        }
    }
    drop_twins(w, ch, n);
    /* after drop_twins, which compares only children not done yet: the
     * ledger's answers would leave their twins in */
    nimset not[MAX_MOVES]; /* nimbers the ledger rules out, by slot */
    if (from_ledger(w, x, ch, n, &seen, not) < 0)
        return STOPPED;
    uint8_t order[MAX_MOVES];
    int res[MAX_MOVES];
    cram_search_order_children(ch, n, order);
    int k = 0;
    for (int i = 0; i < n; i++)
        k += !ch[i].done;
    for (int r = skip_zero; r <= n; r++) {
        s->trial = r;
        if (ns_has(seen, r))
            continue;
        /* the children the ledger says are not r go unasked */
        uint8_t ask[MAX_MOVES];
        int at[MAX_MOVES], got[MAX_MOVES], m = 0;
        for (int o = 0; o < k; o++) {
            if (ns_has(not[order[o]], r)) {
                res[o] = -1;
                w->stats.from_ledger++;
            } else {
                ask[m] = order[o];
                at[m++] = o;
            }
        }
        /* the progress line's "root move i of m": of those this trial asks */
        s->root_moves = m;
        if (s->nworkers > 1)
            ask_children(s, ch, ask, m, r, got);
        else
            ask_in_order(w, ch, ask, m, r, got);
        for (int j = 0; j < m; j++)
            res[at[j]] = got[j];
        for (int i = 0; i < s->nworkers; i++)
            if (s->workers[i].stopped)
                return STOPPED;
        /* drop the children that answered, keeping the order */
        int found = 0, kept = 0;
        for (int o = 0; o < k; o++) {
            if (res[o] >= 0) {
                seen |= ns_bit(res[o]);
                found |= res[o] == r;
            } else {
                order[kept++] = order[o];
            }
        }
        k = kept;
        if (!found) {
            tt_put(s, x, r, work_since(w, before));
            return r;
        }
    }
    /* n children cannot hold all of 0..n */
    return cram_search_contradiction(w);
}

/* Nimber of a sum of canonical components, each searched by aspire. */
static int aspire_sum(cram_worker *w, const uint64_t *comp, int n, int skip_zero)
{
    int x = 0;
    for (int i = 0; i < n; i++) {
        int v = part_cells(w->s, comp[i]) <= 3 ? 1 : aspire(w, comp[i], skip_zero && n == 1);
        if (v == STOPPED)
            return STOPPED;
        x ^= v;
    }
    return x;
}

/* The parts of the free cells in the layout that fits the board:
 * canonical components, reduced when they fit g; *zeros counts the parts
 * the mirror rule leaves out. */
static int wide_board_parts(cram_solver *s, cram_wset x, uint64_t *comp, uint64_t *zeros)
{
    cram_wset whole[ROOT_PARTS];
    int n = cram_wide_split(&s->wg, x, whole, ROOT_PARTS), k = 0, nkeys = 0;
    for (int i = 0; i < n; i++) {
        int zero = 0;
        if (cram_wide_rows(&s->wg, whole[i]) > s->g.height) {
            cram_wset key = cram_wide_canonical(&s->wg, whole[i], NULL, NULL, s->opt.no_mirror ? NULL : &zero);
            if (zero) {
                (*zeros)++;
            } else {
                s->root_key[nkeys] = key;
                comp[k++] = wide_part(&s->root_key[nkeys++]);
            }
            continue;
        }
        uint64_t sub[CRAM_MAX_COMPONENTS];
        int m = cram_split_reduced(&s->g, cram_wide_to_narrow(&s->wg, whole[i]), sub);
        for (int j = 0; j < m; j++) {
            comp[k] = s->opt.no_mirror ? cram_canonical(&s->g, sub[j], NULL, NULL)
                                       : cram_canonical_zero(&s->g, sub[j], NULL, NULL, &zero);
            if (zero)
                (*zeros)++;
            else
                k++;
        }
    }
    return k;
}

/* The board cell (r * cols + c) in the layout: the same, or transposed
 * when the layout runs the board's long side down. */
static int layout_cell(const cram_solver *s, int cell)
{
    return s->transposed ? (cell % s->cols) * s->rows + cell / s->cols : cell;
}

/* Dominoes free in a part. */
static int part_dominoes(const cram_solver *s, uint64_t p)
{
    return is_wide(s, p) ? wide_dominoes(s, wide_key(p)) : narrow_dominoes(s, p);
}

/* Dominoes free in a set of the layout. */
int cram_root_dominoes(const cram_solver *s, cram_wset x)
{
    return s->wide ? wide_dominoes(s, x) : narrow_dominoes(s, (uint64_t)x);
}

/* The free cells of the board as canonical components of the layout, in
 * comp (ROOT_PARTS entries); returns how many, or -1 (with err) when
 * cells lie off the board or the parts left to search have more than
 * MAX_BOARD_MOVES dominoes (the root's moves and the nimber sets hold no
 * more: the board itself may have more, 8x16 has 232). *zeros counts the
 * parts the mirror rule leaves out. The layout's set of the free cells
 * goes to *layout. */
int cram_root_parts(cram_solver *s, cram_wset free_cells, uint64_t *comp, uint64_t *zeros,
                            cram_wset *layout, rdb_error *err)
{
    int ncells = s->rows * s->cols;
    cram_wset board = ncells == 128 ? ~(cram_wset)0 : cram_wbit(ncells) - 1;
    if (free_cells & ~board) {
        rdb_fail(err, RDB_E_INPUT, "free cells outside the %dx%d board", s->rows, s->cols);
        return -1;
    }
    cram_wset x = 0;
    for (cram_wset y = free_cells; y; y &= y - 1)
        x |= cram_wbit(layout_cell(s, cram_wlowest(y)));
    *layout = x;
    int k = 0;
    if (s->wide) {
        k = wide_board_parts(s, x, comp, zeros);
    } else {
        const int n = cram_split_reduced(&s->g, (uint64_t)x, comp);
        for (int i = 0; i < n; i++) {
            int zero = 0;
            comp[k] = s->opt.no_mirror ? cram_canonical(&s->g, comp[i], NULL, NULL)
                                       : cram_canonical_zero(&s->g, comp[i], NULL, NULL, &zero);
            if (zero)
                (*zeros)++; /* the mirror rule: 0, left out */
            else
                k++;
        }
    }
    int dominoes = 0;
    for (int i = 0; i < k; i++)
        dominoes += part_dominoes(s, comp[i]);
    if (dominoes > MAX_BOARD_MOVES) {
        rdb_fail(err, RDB_E_INPUT,
                 "the position has %d free dominoes to search (%d in all); the solver takes at most %d",
                 dominoes, cram_root_dominoes(s, x), MAX_BOARD_MOVES);
        return -1;
    }
    return k;
}

static void start_solve(cram_solver *s)
{
    for (int i = 0; i < s->nworkers; i++) {
        s->workers[i].stopped = 0;
        s->workers[i].fail = RDB_OK;
        s->workers[i].root_move = 0;
    }
    s->trial_over = 0;
    cram_search_growth_init(s);
    s->start = rdb_now();
    rdb_search_clock_start(&s->clock, s->opt.progress);
    s->root_moves = 0;
    s->trial = 0;
}

/* The end of a solve that found v: RDB_OK, or why it stopped. */
static rdb_status end_solve(cram_solver *s, int v, rdb_error *err)
{
    s->stats.seconds += rdb_now() - s->start;
    if (s->opt.progress && s->stats.seconds >= RDB_PROGRESS_SECONDS)
        cram_search_report_progress(s, s->stats.seconds);
    /* a false entry first: whatever else stopped the search, the table
     * must not be saved over the files it came from */
    if (cram_solver_tt_conflicts(s)) {
        cram_search_contradiction(&s->workers[0]);
        *err = s->workers[0].err;
        return s->workers[0].fail;
    }
    /* the first worker that failed says why */
    for (int i = 0; i < s->nworkers; i++)
        if (s->workers[i].stopped) {
            *err = s->workers[i].err;
            return s->workers[i].fail != RDB_OK ? s->workers[i].fail
                                                : rdb_fail(err, RDB_E_STOPPED, "stopped");
        }
    if (v >= 0 && v < 128)
        return RDB_OK;
    cram_search_contradiction(&s->workers[0]);
    *err = s->workers[0].err;
    return s->workers[0].fail;
}

rdb_status cram_solver_solve(cram_solver *s, uint64_t free_cells, int *nimber, rdb_error *err)
{
    return cram_solver_solve_wide(s, free_cells, nimber, err);
}

rdb_status cram_solver_solve_wide(cram_solver *s, cram_wset free_cells, int *nimber, rdb_error *err)
{
    uint64_t comp[ROOT_PARTS];
    cram_wset layout;
    int n = cram_root_parts(s, free_cells, comp, &s->workers[0].stats.mirror_zero, &layout, err);
    if (n < 0)
        return RDB_E_INPUT;
    start_solve(s);
    cram_worker *w = &s->workers[0];
    int v;
    if (s->opt.method == CRAM_ASPIRATION) {
        /* An empty board with an even number of cells, one side odd, is a
         * first-player win (the nimber is not 0): that much of the answer
         * may be skipped, the nimber itself is still searched. */
        int ncells = s->rows * s->cols;
        cram_wset board = ncells == 128 ? ~(cram_wset)0 : cram_wbit(ncells) - 1;
        int first = free_cells == board && ncells % 2 == 0 && (s->rows % 2 || s->cols % 2);
        v = aspire_sum(w, comp, n, first);
    } else {
        v = cram_search_sum_value(w, comp, n, ALL_NIMBERS);
    }
    rdb_status st = end_solve(s, v, err);
    if (st == RDB_OK)
        *nimber = v;
    return st;
}

rdb_status cram_solver_test(cram_solver *s, uint64_t free_cells, int k, int *is, rdb_error *err)
{
    return cram_solver_test_wide(s, free_cells, k, is, err);
}

rdb_status cram_solver_test_wide(cram_solver *s, cram_wset free_cells, int k, int *is, rdb_error *err)
{
    if (k < 0 || k > 127)
        return rdb_fail(err, RDB_E_INPUT, "no nimber %d to test", k);
    uint64_t comp[ROOT_PARTS];
    cram_wset layout;
    int n = cram_root_parts(s, free_cells, comp, &s->workers[0].stats.mirror_zero, &layout, err);
    if (n < 0)
        return RDB_E_INPUT;
    start_solve(s);
    /* One worker: only the aspiration root shares work. Plain search
     * ignores the wanted set, so a plain solver asks with simple cuts. */
    cram_solver_options keep = s->opt;
    if (s->opt.method == CRAM_PLAIN)
        s->opt.method = CRAM_SIMPLE_CUTS;
    int v = cram_search_sum_value(&s->workers[0], comp, n, ns_bit(k));
    s->opt = keep;
    rdb_status st = end_solve(s, v == -1 ? 0 : v, err);
    if (st == RDB_OK)
        *is = v == k;
    return st;
}

