/*
 * dots_proof.c — a proof split into ledger-recorded sub-proofs; see
 * dots_proof.h.
 *
 * A claim is "value(x) >= t" or "value(x) <= t". Split over the moves r of
 * x, with b the boxes r completes and y = x + r:
 *   value(x) >= t  iff some r has  b + value(y) >= t  (b > 0)  or
 *                                   -value(y) >= t, i.e. value(y) <= -t;
 *   value(x) <= t  iff every r has  value(y) <= t - b  (b > 0)  or
 *                                    value(y) >= -t.
 * Moves whose positions are the same up to symmetry are claimed once. A
 * claim is 1 (proved), 0 (disproved) or -1 (undecided: a leaf left to
 * another part, or stopped).
 */
#include "dots/dots_proof.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/job.h"

typedef struct {
    dots_solver *s;
    dots_ledger *l;
    const dots_proof_options *opt;
    const dots_board *b;
    uint64_t all;
    int full_value;
    dots_proof_result *out;
} prover;

/* What the ledger says of the claim: 1, 0, or -1 when it does not decide
 * it. */
static int from_ledger(const prover *p, uint64_t key, int at_least, int t)
{
    for (int i = 0; i < p->l->n; i++) {
        const dots_ledger_entry *e = &p->l->entry[i];
        if (dots_solver_canonical(p->s, e->lines) != key)
            continue;
        if (e->at_least && e->bound >= t && at_least)
            return 1;            /* value >= bound >= t */
        if (!e->at_least && e->bound <= t && !at_least)
            return 1;            /* value <= bound <= t */
        if (e->at_least && e->bound > t && !at_least)
            return 0;            /* value >= bound > t */
        if (!e->at_least && e->bound < t && at_least)
            return 0;            /* value <= bound < t */
    }
    return -1;
}

static rdb_status record(prover *p, uint64_t x, int at_least, int bound, uint64_t nodes,
                         double seconds, rdb_error *err)
{
    dots_ledger_entry e = {x, at_least, bound, nodes, seconds, 0};
    rdb_status st = dots_ledger_add(p->l, &e, err);
    if (st == RDB_OK)
        dots_solver_add_bound(p->s, x, at_least ? bound : -1000, at_least ? 1000 : bound);
    return st;
}

static void describe(const prover *p, uint64_t x, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int line = 0; line < p->b->nlines && n + 40 < size; line++)
        if (x >> line & 1) {
            char name[32];
            dots_line_name(p->b, line, name);
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "," : "", name);
        }
    if (n == 0)
        snprintf(buf, size, "-");
}

/* Whether this part is the one that searches under the claim on key. */
static int mine(const prover *p, uint64_t key)
{
    return p->opt->nparts <= 1 || (int)(key % 0x9E3779B1u % (uint64_t)p->opt->nparts) == p->opt->part;
}

static rdb_status leaf(prover *p, uint64_t x, uint64_t key, int at_least, int t, int owned,
                       int *result, rdb_error *err)
{
    *result = -1;
    if (!owned && !mine(p, key)) {
        p->out->skipped++;
        return RDB_OK;
    }
    /* Other parts may have proved it meanwhile (or given bounds that help). */
    int added;
    rdb_status st = dots_ledger_refresh(p->l, &added, err);
    if (st != RDB_OK)
        return st;
    if (added) {
        /* the new lines may sit anywhere between ours: give them all again
         * (bounds of one position merge) */
        if ((st = dots_proof_use_ledger(p->s, p->l, err)) != RDB_OK)
            return st;
        int known = from_ledger(p, key, at_least, t);
        if (known >= 0) {
            p->out->from_ledger++;
            *result = known;
            return RDB_OK;
        }
    }
    char name[1024];
    describe(p, x, name, sizeof name);
    if (p->opt->verbose)
        fprintf(stderr, "proof: searching %s %s %d\n", name, at_least ? ">=" : "<=", t);
    int bound = at_least ? t : t + 1, g;
    uint64_t nodes;
    double t0 = rdb_now();
    st = dots_solver_probe(p->s, x, bound, &g, &nodes, err);
    if (st != RDB_OK)
        return st;
    double seconds = rdb_now() - t0;
    p->out->searched++;
    p->out->nodes += nodes;
    st = record(p, x, g >= bound, g, nodes, seconds, err);
    *result = (g >= bound) == at_least;
    if (p->opt->verbose)
        fprintf(stderr, "proof: %s %s %d: %s (value %s %d; %llu nodes, %.1f s)\n", name,
                at_least ? ">=" : "<=", t, *result ? "proved" : "disproved",
                g >= bound ? ">=" : "<=", g, (unsigned long long)nodes, seconds);
    return st;
}

/* owned: a part took this claim whole (see below). */
static rdb_status claim(prover *p, uint64_t x, int at_least, int t, int depth, int owned,
                        int *result, rdb_error *err)
{
    if (rdb_stop_requested)
        return rdb_fail(err, RDB_E_STOPPED, "the proof was stopped");
    if (x == p->all) {
        *result = at_least ? p->full_value >= t : p->full_value <= t;
        return RDB_OK;
    }
    uint64_t key = dots_solver_canonical(p->s, x);
    int known = from_ledger(p, key, at_least, t);
    if (known >= 0) {
        p->out->from_ledger++;
        *result = known;
        return RDB_OK;
    }
    if (depth == 0)
        return leaf(p, x, key, at_least, t, owned, result, err);
    /* The moves of an "at least" claim are tried one after the other until
     * one succeeds, and which ones are tried depends on the results: the
     * claim just above the searches goes whole to one part. The searches
     * of an "at most" claim are all needed and shared out one by one. */
    if (depth == 1 && at_least && !owned) {
        if (!mine(p, key)) {
            p->out->skipped++;
            *result = -1;
            return RDB_OK;
        }
        owned = 1;
    }

    uint8_t moves[DOTS_MAX_LINES];
    uint64_t seen[DOTS_MAX_LINES];
    int n = dots_solver_move_order(p->s, x, moves), nseen = 0;
    /* An "at least" claim needs one move (any success decides it), an
     * "at most" claim every move (any failure decides it). */
    int decided_by = at_least ? 1 : 0, undecided = 0;
    *result = !decided_by;
    uint64_t nodes_before = p->out->nodes;
    double t0 = rdb_now();
    for (int i = 0; i < n; i++) {
        uint64_t y = x | 1ULL << moves[i];
        uint64_t ykey = dots_solver_canonical(p->s, y);
        int dup = 0;
        for (int k = 0; k < nseen; k++)
            dup |= seen[k] == ykey;
        if (dup)
            continue;
        seen[nseen++] = ykey;
        int b = dots_boxes_completed(p->b, x, moves[i]), r;
        /* the claim on y that the claim on x needs of this move */
        int y_at_least = b ? at_least : !at_least, yt = b ? t - b : -t;
        rdb_status st = claim(p, y, y_at_least, yt, depth - 1, owned, &r, err);
        if (st != RDB_OK)
            return st;
        if (r == decided_by) {
            *result = decided_by;
            undecided = 0;
            break;
        }
        undecided |= r < 0;
        /* An "at least" claim waiting on another part for this move does
         * not go on to the next move: if this one succeeds, searching the
         * next would be wasted. A later run (or the run that combines the
         * parts) goes on when it has failed. */
        if (r < 0 && at_least)
            break;
    }
    if (undecided) {
        *result = -1;
        return RDB_OK;
    }
    /* Decided: worth a line of its own, so a resumed proof stops here. */
    int holds = *result;
    int bound = holds ? t : (at_least ? t - 1 : t + 1);
    return record(p, x, holds ? at_least : !at_least, bound, p->out->nodes - nodes_before,
                  rdb_now() - t0, err);
}

/* Where a ledger entry is, for a message. */
static void entry_place(const dots_ledger_entry *e, char *out, size_t size)
{
    if (e->lineno)
        snprintf(out, size, "line %d", e->lineno);
    else
        snprintf(out, size, "a line added by this run");
}

typedef struct {
    uint64_t key;
    int i;
} keyed_entry;

static int by_key(const void *a, const void *b)
{
    const keyed_entry *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key ? 1 : x->i - y->i;
}

/* The ledger's bounds of each position (its lines made canonical: a
 * mirror image is the same position) must leave it some value: a bound
 * >= a beside <= b with a > b is a contradiction, which no proof may
 * build on. */
static rdb_status check_bounds(const dots_solver *s, const dots_ledger *l, rdb_error *err)
{
    if (l->n == 0)
        return RDB_OK;
    keyed_entry *k = malloc((size_t)l->n * sizeof *k);
    if (!k)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory checking the ledger '%s'", l->path);
    for (int i = 0; i < l->n; i++)
        k[i] = (keyed_entry){dots_solver_canonical(s, l->entry[i].lines), i};
    qsort(k, (size_t)l->n, sizeof *k, by_key);
    rdb_status st = RDB_OK;
    for (int a = 0, b; a < l->n && st == RDB_OK; a = b) {
        int low = -1, high = -1; /* the entries of the highest >= and the lowest <= */
        for (b = a; b < l->n && k[b].key == k[a].key; b++) {
            const dots_ledger_entry *e = &l->entry[k[b].i];
            if (e->at_least && (low < 0 || e->bound > l->entry[low].bound))
                low = k[b].i;
            if (!e->at_least && (high < 0 || e->bound < l->entry[high].bound))
                high = k[b].i;
        }
        if (low >= 0 && high >= 0 && l->entry[low].bound > l->entry[high].bound) {
            char p1[48], p2[48];
            entry_place(&l->entry[low], p1, sizeof p1);
            entry_place(&l->entry[high], p2, sizeof p2);
            st = rdb_fail(err, RDB_E_CORRUPT,
                          "%s: %s and %s contradict each other: one position (or its mirror "
                          "image) worth >= %d and <= %d",
                          l->path, p1, p2, l->entry[low].bound, l->entry[high].bound);
        }
    }
    free(k);
    return st;
}

rdb_status dots_proof_use_ledger(dots_solver *s, const dots_ledger *l, rdb_error *err)
{
    rdb_status st = check_bounds(s, l, err);
    if (st != RDB_OK)
        return st;
    for (int i = 0; i < l->n; i++) {
        const dots_ledger_entry *e = &l->entry[i];
        dots_solver_add_bound(s, e->lines, e->at_least ? e->bound : -1000,
                              e->at_least ? 1000 : e->bound);
    }
    return RDB_OK;
}

rdb_status dots_prove(dots_solver *s, dots_ledger *l, uint64_t lines, int value,
                      const dots_proof_options *opt, dots_proof_result *out, rdb_error *err)
{
    *out = (dots_proof_result){.at_least = -1, .at_most = -1};
    prover p = {s, l, opt, &l->board, dots_all_lines(&l->board), l->full_value, out};
    rdb_status st = dots_proof_use_ledger(s, l, err);
    if (st == RDB_OK)
        st = claim(&p, lines, 1, value, opt->depth, 0, &out->at_least, err);
    if (st == RDB_OK)
        st = claim(&p, lines, 0, value, opt->depth, 0, &out->at_most, err);
    return st;
}
