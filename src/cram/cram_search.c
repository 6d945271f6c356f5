/*
 * cram_search.c — the search of one component, behind cram_solver.h
 * (the root's trials are in cram_root.c).
 *
 * Sets of nimbers are 128-bit masks (bit v = nimber v): a board has at
 * most 127 free dominoes in a position searched (board_components, in
 * cram_root.c, refuses more), so every nimber of its positions is below
 * 128, and so is any xor of such nimbers.
 *
 * Every search call works on one connected component in canonical form
 * that the transposition table and the nimber tables do not know. Its
 * children are listed once, each as the xor of the parts already known
 * plus the canonical parts still unknown, in a buffer per ply. A child
 * made of several unknown parts is valued by searching all parts but the
 * largest exactly and asking the largest only for the wanted nimbers xored
 * with the others' sum: that is the only part whose search can be cut.
 *
 * The cut methods follow the pseudo-code of Beling & Rogalski: P starts as
 * {0..n} for n moves, and each child removes one element (its nimber when
 * that is in P, else the largest). R is the set of nimbers the caller
 * wants; the search returns the exact nimber whenever it is in R, and
 * otherwise may return -1 ("not in R"). A child is asked for P minus its
 * largest element, since only those values change P differently; with
 * set-cuts that set is also capped at max(R), and a result computed with a
 * capped child is exact only up to max(R), so only then is it stored.
 *
 * A search runs in workers (cram_worker): each has its own ply buffers and
 * counters, and all share the table. With one worker everything runs in
 * the caller's thread; with several, only the root's trials are shared
 * (ask_children, in cram_root.c), and a worker unwinds (STOPPED) when
 * another has decided the trial. Nothing a worker stores is ever false,
 * so a search given up half-way leaves only true entries behind.
 */
#define _GNU_SOURCE
#include "cram/cram_solver_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cram/cram_reduce.h"
#include "common/invariant.h"
#include "common/job.h"

#include <omp.h>

/* ---- looking components up ---- */

/* Nimber of a canonical component from the nimber tables, or -1 when none
 * holds it; h x w is its bounding box in the corner of the layout. */
static int table_value(cram_worker *w, uint64_t x, int h, int width)
{
    cram_solver *s = w->s;
    for (int i = 0; i < s->ntables; i++) {
        const table_ref *t = &s->tables[i];
        int turn;
        if (h <= t->rows && width <= t->cols)
            turn = 0;
        else if (width <= t->rows && h <= t->cols)
            turn = 1;
        else
            continue;
        uint64_t free_cells = 0;
        for (uint64_t y = x; y; y &= y - 1) {
            int cell = __builtin_ctzll(y);
            int r = cell / s->g.stride, c = cell % s->g.stride;
            free_cells |= 1ULL << (turn ? c * t->cols + r : r * t->cols + c);
        }
        int n = t->rows * t->cols;
        uint64_t all = n == 64 ? ~0ULL : (1ULL << n) - 1;
        int v;
        rdb_status st;
        /* a table's probe keeps state of its own: one thread at a time */
#pragma omp critical(cram_table_probe)
        st = t->value(t->ctx, all & ~free_cells, &v, &w->err);
        if (st != RDB_OK) {
            w->fail = st;
            w->stopped = 1;
            return -1;
        }
        if (v < 0 || v > 127) {
            w->fail = rdb_fail(&w->err, RDB_E_CORRUPT, "a cram table gave nimber %d", v);
            w->stopped = 1;
            return -1;
        }
        return v;
    }
    return -1;
}

/* Nimber of a canonical component if the tables know it, else -1. */
static inline int known(cram_worker *w, uint64_t x)
{
    cram_solver *s = w->s;
    if (is_wide(s, x)) {
        int v = cram_wide_tt_get(s->wtt, wide_key(x));
        w->stats.tt_hits += v >= 0;
        return v;
    }
    int v = cram_tt_get(&s->tt, x);
    if (v >= 0) {
        w->stats.tt_hits++;
        return v;
    }
    if (s->ntables && __builtin_popcountll(x) >= s->table_min_cells) {
        int h = s->g.row_of[63 - __builtin_clzll(x)] + 1, width = 0;
        for (int j = 0; j < s->g.stride; j++)
            if (x & s->g.col[j])
                width = j + 1;
        v = table_value(w, x, h, width);
        if (v >= 0) {
            w->stats.db_hits++;
            cram_tt_put(&s->tt, x, v, 0);
            return v;
        }
    }
    return -1;
}

/* Look up the unknown parts of a child again: searches of its siblings may
 * have found them meanwhile. */
static void resolve(cram_worker *w, cram_child *c)
{
    int k = 0, size = 0;
    for (int j = 0; j < c->nparts; j++) {
        int v = known(w, c->part[j]);
        if (v >= 0) {
            c->known ^= (uint8_t)v;
        } else {
            c->part[k++] = c->part[j];
            int n = part_cells(w->s, c->part[j]);
            if (n > size)
                size = n;
        }
    }
    c->nparts = (uint8_t)k;
    c->size = (uint8_t)size;
}

/* ---- children ---- */

/* How many of the n components need a place in a child: those of more
 * than three cells (add_part values the others on the spot). */
static inline int parts_to_search(const uint64_t *comp, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += __builtin_popcountll(comp[i]) > 3;
    return k;
}

/* Add a connected set of g, one component of a child, to the child c
 * (which has room: CHILD_PARTS at most). */
static inline void add_part(cram_worker *w, cram_child *c, uint64_t comp)
{
    const cram_solver *s = w->s;
    /* Two or three connected cells leave one move whatever is played. */
    if (__builtin_popcountll(comp) <= 3) {
        c->known ^= 1;
        return;
    }
    part_memo_entry *memo =
        &w->part_memo[(comp * 0x9e3779b97f4a7c15ULL) >> (64 - PART_MEMO_LOG2)];
    uint64_t key;
    if (memo->cells == comp) {
        key = memo->key;
    } else {
        c->new_parts++;
        int zero = 0;
        key = s->opt.no_mirror ? cram_canonical(&s->g, comp, NULL, NULL)
                               : cram_canonical_zero(&s->g, comp, NULL, NULL, &zero);
        if (zero)
            key = 0;
        memo->cells = comp;
        memo->key = key;
    }
    /* A part the half turn maps onto itself, no domino meeting its
     * image, is 0: the second player copies (cram_component.h). */
    if (!key) {
        w->stats.mirror_zero++;
        return;
    }
    /* Two equal parts cancel: their nimbers xor to 0. */
    int twin = -1;
    for (int j = 0; j < c->nparts; j++)
        if (c->part[j] == key)
            twin = j;
    if (twin >= 0) {
        c->part[twin] = c->part[--c->nparts];
        return;
    }
    assert(c->nparts < CHILD_PARTS);
    /* the lookup comes soon: start fetching the bucket now (without
     * this, 4x11 takes 1.33 times as long: the table is far bigger than
     * the caches, and the bucket this fetch brings is the one the part's
     * own search reads and writes if it comes to be searched; a second,
     * small table of the exact nimbers alone for the cutoff's lookups
     * made 4x11 1.13 times slower for that reason) */
    __builtin_prefetch(cram_tt_bucket_of(&s->tt, key));
    c->part[c->nparts++] = key;
}

/* c->size: the cells of the child's largest part. */
static inline void set_size(const cram_solver *s, cram_child *c)
{
    int size = 0;
    for (int j = 0; j < c->nparts; j++) {
        int cells = part_cells(s, c->part[j]);
        if (cells > size)
            size = cells;
    }
    c->size = (uint8_t)size;
}

/* The child of the connected component x left by the domino whose top
 * left cell is `cell`. */
static void make_child(cram_worker *w, uint64_t x, int cell, int vertical, cram_child *c)
{
    const cram_solver *s = w->s;
    uint64_t comp[CRAM_MAX_COMPONENTS];
    int n = cram_split_child(&s->g, x, cell, vertical, comp);
    if (n > CHILD_PARTS && parts_to_search(comp, n) > CHILD_PARTS) {
        /* The reductions cut more parts than a child holds: its components
         * unreduced instead, at most six (each holds a cell next to the
         * domino), each with the nimber of its reduced parts' xor. */
        const uint64_t domino = vertical ? 1ULL << cell | 1ULL << (cell + s->g.stride) : 3ULL << cell;
        n = cram_split(&s->g, x & ~domino, comp);
        w->stats.unreduced++;
    }
    c->nparts = 0;
    c->known = 0;
    c->done = 0;
    c->new_parts = 0;
    for (int i = 0; i < n; i++)
        add_part(w, c, comp[i]);
    set_size(s, c);
}

/* The same for a wide part x (its canonical form) without the domino
 * whose top left cell is `cell`;
 * keys (CHILD_PARTS of them) receives the forms of the child's wide
 * parts. A component that fits g goes there, reduced (cram_reduce.h);
 * the wide ones are not reduced, which keeps their nimber all the same. */
static void make_wide_child(cram_worker *w, cram_wset x, int cell, int vertical, cram_child *c,
                            cram_wset *keys)
{
    const cram_solver *s = w->s;
    cram_wset comp[CHILD_PARTS];
    /* a domino's two cells touch at most six others */
    int n = cram_wide_split_child(&s->wg, x, cell, vertical, comp, CHILD_PARTS), nkeys = 0;
    assert(n <= CHILD_PARTS);
    c->nparts = 0;
    c->known = 0;
    c->done = 0;
    c->new_parts = 0;
    for (int i = 0; i < n; i++) {
        if (cram_wpopcount(comp[i]) <= 3) {
            c->known ^= 1;
            continue;
        }
        if (cram_wide_rows(&s->wg, comp[i]) <= s->g.height) {
            uint64_t y = cram_wide_to_narrow(&s->wg, comp[i]), sub[CRAM_MAX_COMPONENTS];
            int m = cram_split_reduced(&s->g, y, sub);
            /* Its reduced parts only when they leave a place for each
             * component after it; else it goes whole, unreduced: so no
             * child holds more than CHILD_PARTS (n of them at most). */
            if (c->nparts + parts_to_search(sub, m) + (n - 1 - i) > CHILD_PARTS) {
                add_part(w, c, y);
                w->stats.unreduced++;
            } else
                for (int j = 0; j < m; j++)
                    add_part(w, c, sub[j]);
            continue;
        }
        int zero = 0;
        cram_wset key = cram_wide_canonical(&s->wg, comp[i], NULL, NULL, s->opt.no_mirror ? NULL : &zero);
        if (zero) {
            w->stats.mirror_zero++;
            continue;
        }
        int twin = -1;
        for (int j = 0; j < c->nparts; j++)
            if (is_wide(s, c->part[j]) && wide_key(c->part[j]) == key)
                twin = j;
        if (twin >= 0) {
            c->part[twin] = c->part[--c->nparts];
            continue;
        }
        assert(c->nparts < CHILD_PARTS && nkeys < CHILD_PARTS);
        /* its lookup comes ETC_LAG children later: start fetching the
         * bucket now, as add_part does for the others */
        cram_wide_tt_prefetch(s->wtt, key);
        keys[nkeys] = key;
        c->part[c->nparts++] = wide_part(&keys[nkeys++]);
    }
    set_size(s, c);
}

/* Twice the Manhattan distance between a domino whose centre is
 * (r2/2, c2/2) and the centre of the h x w box in the corner. (Weighting
 * the long axis more, as igsolve does, was measured no better: 5x8 2.10 M
 * nodes with weights 2:1, 2.08 M with 1:1.) */
static inline int centre_dist(int r2, int c2, int h, int w)
{
    int dr = r2 - (h - 1), dc = c2 - (w - 1);
    return (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
}

/* order[0..n-1]: the indices 0..n-1 by increasing dist, a counting sort
 * (stable: the cells' order among equals). */
static void order_by_dist(const uint8_t *dist, int n, uint8_t *order)
{
    int start[256] = {0};
    for (int i = 0; i < n; i++)
        start[dist[i]]++;
    for (int d = 0, sum = 0; d < 256; d++) {
        const int k = start[d];
        start[d] = sum;
        sum += k;
    }
    for (int i = 0; i < n; i++)
        order[start[dist[i]]++] = (uint8_t)i;
}

void cram_make_box_moves(const cram_geom *g, int h, int w, box_moves *b)
{
    /* every domino of the box in the cells' order, then ordered by distance */
    uint8_t cell[MAX_BOX_MOVES], vertical[MAX_BOX_MOVES], dist[MAX_BOX_MOVES], order[MAX_BOX_MOVES];
    int n = 0;
    for (int v = 0; v < 2; v++)
        for (int r = 0; r + v < h; r++)
            for (int c = 0; c + 1 - v < w; c++) {
                assert(n < MAX_BOX_MOVES);
                int d = v ? centre_dist(2 * r + 1, 2 * c, h, w) : centre_dist(2 * r, 2 * c + 1, h, w);
                cell[n] = (uint8_t)(r * g->stride + c);
                vertical[n] = (uint8_t)v;
                dist[n++] = (uint8_t)(d > 255 ? 255 : d);
            }
    order_by_dist(dist, n, order);
    b->n = (uint8_t)n;
    memset(b->rank, 0, sizeof b->rank);
    for (int j = 0; j < n; j++) {
        b->cell[j] = cell[order[j]];
        b->vertical[j] = vertical[order[j]];
        b->dist[j] = dist[order[j]];
        b->rank[b->vertical[j]][b->cell[j]] = (uint8_t)j;
    }
}

/* The enhanced transposition cutoff, child by child: with want set
 * (nonzero), each child is looked up as soon as it is made, and a child
 * whose parts are all known is done and removes its nimber from *p (the
 * largest element when its nimber is not in *p). Once *p holds nothing
 * wanted the node is cut, and the children not made yet never are: that
 * is the same cut the whole list would give (*p only shrinks), made
 * before most of the listing in most cut nodes, where the listing (split
 * and canonical form of every child) is most of a node's cost. */
static inline int etc_cuts(cram_worker *w, cram_child *c, nimset want, nimset *p)
{
    resolve(w, c);
    if (c->nparts)
        return 0;
    c->done = 1;
    int v = c->known;
    w->etc_seen |= ns_bit(v);
    *p &= ns_has(*p, v) ? ~ns_bit(v) : ~ns_bit(ns_max(*p));
    return !(*p & want);
}

/* The cutoff looks a child up ETC_LAG children after making it, so that
 * the table's bucket, fetched when the child's parts were made
 * (add_part), has arrived: looked up at once, two loads in three of the
 * search waited on memory. The lag costs the children made after the one
 * that ends a node (on 4x11, 52.7 M children made in 5.0 M nodes, 10.5 a
 * node, 7.4 in the nodes the cutoff ends); one child behind made 8% fewer
 * but took 5% more time, the bucket not there yet. So a child whose
 * buckets are most likely in the caches already is looked up at once
 * (likely_cached), and only the others wait: 4x11 7% less time, 5x8 and
 * 3x14 8%, the same nodes (`farm-bench --vs`, one thread, the median of
 * 5 pairs: 0.927, 0.918, 0.922); the others one behind, 7% slower than
 * two; three behind, no better. */
#define ETC_LAG 2

/* A child whose parts have at most this many cells each is looked up at
 * once. */
#define ETC_AT_ONCE_CELLS 12

/* Whether the buckets of the child c's parts are most likely in the
 * processor's caches: its parts are all small (they are few, and the
 * search meets them all the time), or all were met lately (the part memo
 * held their forms: their buckets were read then). On 4x11, against the
 * lag for every child: the small parts alone 0.948 of the time, the memo
 * alone 0.969, both 0.935; parts up to 8 cells or up to 15 instead of
 * 12, 3% slower; up to 24, 1.16 times the time (a big part's bucket is
 * seldom in the caches). */
static inline int likely_cached(const cram_child *c)
{
    return c->size <= ETC_AT_ONCE_CELLS || c->new_parts == 0;
}

/* The children the cutoff has yet to look up, in the order made:
 * slot[first..last). */
typedef struct {
    uint8_t slot[MAX_MOVES];
    int first, last;
} etc_queue;

/* The cutoff for the child just made at ch[slot]: looked up at once when
 * at_once, else queued and looked up ETC_LAG queued children later.
 * Returns 1 when the cutoff ended the node. */
static inline int etc_made(cram_worker *w, cram_child *ch, etc_queue *q, int slot, int at_once, nimset want,
                           nimset *p)
{
    if (at_once)
        return etc_cuts(w, &ch[slot], want, p);
    q->slot[q->last++] = (uint8_t)slot;
    return q->last - q->first > ETC_LAG && etc_cuts(w, &ch[q->slot[q->first++]], want, p);
}

/* The cutoff for the children still queued; 1 when it ended the node. */
static inline int etc_flush(cram_worker *w, cram_child *ch, etc_queue *q, nimset want, nimset *p)
{
    while (q->first < q->last)
        if (etc_cuts(w, &ch[q->slot[q->first++]], want, p))
            return 1;
    return 0;
}

/* The children of the wide part x (its canonical form) in ch, their wide
 * parts' forms in keys; returns how many, or -1 when the cutoff (want
 * nonzero: see etc_cuts) ended the node. *p is set to {0..moves}. Made
 * nearest the centre first, as children() makes a part's (no box table
 * here: wide parts are few), each at its place in the cells' order. */
static int wide_children(cram_worker *w, cram_wset x, cram_child *ch, cram_wset (*keys)[CHILD_PARTS],
                         nimset want, nimset *p)
{
    const cram_solver *s = w->s;
    w->stats.wide_expanded++;
    const int st = s->wg.stride;
    int h = cram_whighest(x) / st + 1, width = 0;
    for (int j = 0; j < st; j++)
        if (x & s->wg.col[j])
            width = j + 1;
    const cram_wset hm = cram_wide_hmoves(&s->wg, x), vm = cram_wide_vmoves(&s->wg, x);
    const int nh = cram_wpopcount(hm), n = nh + cram_wpopcount(vm);
    *p = ns_upto(n);
    /* each move's cell and distance at its slot, then the slots ordered
     * by distance */
    uint8_t cell[MAX_MOVES], dist[MAX_MOVES], order[MAX_MOVES];
    int k = 0;
    for (int v = 0; v < 2; v++)
        for (cram_wset m = v ? vm : hm; m; m &= m - 1) {
            const int i = cram_wlowest(m);
            const int d = v ? centre_dist(2 * (i / st) + 1, 2 * (i % st), h, width)
                            : centre_dist(2 * (i / st), 2 * (i % st) + 1, h, width);
            cell[k] = (uint8_t)i;
            dist[k++] = (uint8_t)(d > 255 ? 255 : d);
        }
    order_by_dist(dist, n, order);
    etc_queue q = {.first = 0, .last = 0};
    for (k = 0; k < n; k++) {
        const int slot = order[k], i = cell[slot];
        make_wide_child(w, x, i, slot >= nh, &ch[slot], keys[slot]);
        ch[slot].dist = dist[slot];
        if (want && etc_made(w, ch, &q, slot, 0, want, p))
            return -1;
    }
    return want && etc_flush(w, ch, &q, want, p) ? -1 : n;
}

/* List the children of x in ch (one of the worker's plies); returns how
 * many, or -1 when the cutoff (want nonzero: see etc_cuts) ended the
 * node. *p is set to {0..moves}, less what the cutoff removed. */
static int children(cram_worker *w, uint64_t x, cram_child *ch, nimset want, nimset *p)
{
    const cram_solver *s = w->s;
    w->stats.expanded++;
    if (is_wide(s, x))
        return wide_children(w, wide_key(x), ch, w->wide_key[(ch - w->ply[0]) / MAX_MOVES], want, p);
    const int st = s->g.stride;
    int h = s->g.row_of[63 - __builtin_clzll(x)] + 1, width = 0;
    for (int j = 0; j < st; j++)
        if (x & s->g.col[j])
            width = j + 1;
    uint64_t hm = cram_hmoves(&s->g, x), vm = cram_vmoves(&s->g, x);
    const int nh = __builtin_popcountll(hm), n = nh + __builtin_popcountll(vm);
    *p = ns_upto(n);
    /* made in the box's order (box_moves), each at its place in the
     * order of the cells: the horizontal dominoes, then the vertical. The
     * moves of x are marked by their places in the box's order and the
     * marks read back in order: walking the box's whole list instead,
     * testing each domino, mispredicted a branch on many of them (this
     * way 5x8 is 3.5% faster, 4x11 about 1%, with the same nodes). */
    const box_moves *b = &s->boxes[(h - 1) * st + (width - 1)];
    uint64_t there[2] = {0, 0}; /* bit j of the 128: the box's j-th move is a move of x */
    for (int v = 0; v < 2; v++)
        for (uint64_t m = v ? vm : hm; m; m &= m - 1) {
            const int j = b->rank[v][__builtin_ctzll(m)];
            there[j >> 6] |= 1ULL << (j & 63);
        }
    etc_queue q = {.first = 0, .last = 0};
    int k = 0;
    for (int half = 0; half < 2; half++)
        for (uint64_t m = there[half]; m; m &= m - 1) {
            const int j = half * 64 + __builtin_ctzll(m);
            assert(j < b->n);
            const int v = b->vertical[j];
            const uint64_t bit = 1ULL << b->cell[j], below = bit - 1;
            assert((v ? vm : hm) & bit);
            const int slot = v ? nh + __builtin_popcountll(vm & below) : __builtin_popcountll(hm & below);
            make_child(w, x, b->cell[j], v, &ch[slot]);
            ch[slot].dist = b->dist[j];
            k++;
            if (want && etc_made(w, ch, &q, slot, likely_cached(&ch[slot]), want, p))
                return -1;
        }
    assert(k == n);
    return want && etc_flush(w, ch, &q, want, p) ? -1 : n;
}

/* ---- progress and stopping ---- */

/* The nodes of every worker (read while they run: a report may be a few
 * nodes behind). */
static uint64_t all_nodes(const cram_solver *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->nworkers; i++)
        n += __atomic_load_n(&s->workers[i].stats.nodes, __ATOMIC_RELAXED);
    return n;
}

/* The progress line; t is the seconds of every solve of this solver so
 * far, as the nodes are theirs (a certificate's or the moves' searches
 * come after the position's). */
void cram_search_report_progress(cram_solver *s, double t)
{
    uint64_t nodes = all_nodes(s);
    fprintf(stderr, "cram %dx%d: %.0f s, %.1f M nodes (%.2f M/s), tt %.0f MB%s %.0f%% full", s->rows,
            s->cols, t, nodes / 1e6, t > 0 ? nodes / t / 1e6 : 0.0, s->tt.bytes / 1048576.0,
            s->tt.held ? " (held there: memory is short)" : "", 100.0 * cram_tt_fill(&s->tt));
    if (s->wtt)
        fprintf(stderr, ", wide parts' tt %.0f MB %.0f%% full", cram_wide_tt_bytes(s->wtt) / 1048576.0,
                100.0 * cram_wide_tt_fill(s->wtt));
    if (s->opt.method == CRAM_ASPIRATION)
        fprintf(stderr, ", trying nimber %d", s->trial);
    if (s->root_moves) {
        fprintf(stderr, ", root move%s", s->nworkers > 1 ? "s" : "");
        for (int i = 0; i < s->nworkers; i++)
            fprintf(stderr, "%s%d", i ? ", " : " ",
                    __atomic_load_n(&s->workers[i].root_move, __ATOMIC_RELAXED));
        fprintf(stderr, " of %d", s->root_moves);
    }
    fputc('\n', stderr);
}


/* Called every few thousand nodes of a worker. The progress line and the
 * hook run in one worker at a time. */
static void poll(cram_worker *w)
{
    cram_solver *s = w->s;
    /* a search that goes on from a false entry spends hours on nothing;
     * and a signal must not hide it (the table would be saved) */
    if (cram_solver_tt_conflicts(s)) {
        cram_search_contradiction(w);
        return;
    }
    if (rdb_stop_requested) {
        w->stopped = 1;
        w->fail = rdb_fail(&w->err, RDB_E_STOPPED, "stopped by a signal");
        return;
    }
    const unsigned due = rdb_search_clock_due(&s->clock);
    if (due & RDB_DUE_REPORT)
        cram_search_report_progress(s, s->stats.seconds + (rdb_now() - s->start));
    if (due & RDB_DUE_HOOK)
        s->hook(s, s->hook_ctx);
    if (due)
        rdb_search_clock_done(&s->clock, due);
}

void cram_solver_set_hook(cram_solver *s, double every, void (*hook)(cram_solver *, void *), void *ctx)
{
    s->hook = hook;
    s->hook_ctx = ctx;
    rdb_search_clock_set_hook(&s->clock, hook != NULL, every);
}

/* The shared table grows by the runtime's protocol
 * (search/table_growth.h): these are its three steps for the Cram table
 * (cram_tt.h), the first and the last made by one worker while the others
 * wait, the middle one shared by them all. */
static uint64_t growth_begin(void *ctx)
{
    cram_solver *s = ctx;
    if (!__atomic_load_n(&s->tt.want_grow, __ATOMIC_ACQUIRE)) /* grown already, just before */
        return 0;
    return cram_tt_grow_begin(&s->tt, &s->grow_from);
}

static void growth_move(void *ctx, uint64_t from, uint64_t to)
{
    cram_solver *s = ctx;
    cram_tt_grow_move(&s->tt, &s->grow_from, from, to);
}

static void growth_end(void *ctx, int moved)
{
    cram_solver *s = ctx;
    if (moved)
        cram_tt_grow_end(&s->tt, &s->grow_from);
    RDB_INVARIANT(cram_tt_consistent(&s->tt), "a table grown by the workers holds every entry it held");
    __atomic_store_n(&s->tt.want_grow, 0, __ATOMIC_RELEASE);
}

void cram_search_growth_init(cram_solver *s)
{
    const rdb_growth_ops ops = {growth_begin, growth_move, growth_end, s};
    rdb_table_growth_init(&s->growth, &ops);
}

/* Counts a node; 0 when the worker must unwind: stopped, its trial at the
 * root already decided by another worker, or its root child answered by
 * another worker. */
static inline int count_node(cram_worker *w)
{
    if (__atomic_load_n(&w->s->tt.want_grow, __ATOMIC_RELAXED))
        rdb_table_growth_run(&w->s->growth);
    if ((++w->stats.nodes & POLL_MASK) == 0)
        poll(w);
    return !w->stopped && !__atomic_load_n(&w->s->trial_over, __ATOMIC_RELAXED) &&
           !(w->quit && __atomic_load_n(w->quit, __ATOMIC_RELAXED));
}

/* ---- plain: mex from the definition ---- */

static int plain(cram_worker *w, uint64_t x, int ply)
{
    cram_solver *s = w->s;
    if (!count_node(w))
        return STOPPED;
    uint64_t before = w->stats.nodes;
    cram_child *ch = w->ply[ply];
    nimset all;
    int n = children(w, x, ch, 0, &all);
    nimset seen = 0;
    for (int i = 0; i < n; i++) {
        int v = ch[i].known;
        for (int j = 0; j < ch[i].nparts; j++) {
            int p = known(w, ch[i].part[j]);
            if (p < 0)
                p = plain(w, ch[i].part[j], ply + 1);
            if (p == STOPPED)
                return STOPPED;
            v ^= p;
        }
        seen |= ns_bit(v);
    }
    int result = ns_min(~seen);
    tt_put(s, x, result, work_since(w, before));
    return result;
}

/* The table holds a result that is not true, which only what the run read
 * can bring in: a table file (its entries are checked for form when
 * loaded, not solved again) above all, or a wrong line of the ledger or a
 * damaged nimber table that a search built on. A search asked for every
 * nimber found none, or a result of the search disagreed with an entry.
 * Stop with an error rather than answer. The ledger's lines may rest on
 * the wrong entry too. */
int cram_search_contradiction(cram_worker *w)
{
    w->fail = rdb_fail(&w->err, RDB_E_CORRUPT,
                       "the transposition table contradicts itself: a --tt-file or --tt-digest holds a wrong entry "
                       "(or a --ledger line, or a --db table, is wrong); solve without them, and with a new "
                       "--ledger (its lines may rest on the wrong entry)");
    w->stopped = 1;
    return STOPPED;
}

/* ---- the cut methods ---- */

static int cut(cram_worker *w, uint64_t x, nimset want, int ply);

/* Nimber of a child if it is in `want`; otherwise the nimber or -1. */
static int child_value(cram_worker *w, cram_child *c, nimset want, int ply)
{
    resolve(w, c);
    int x = c->known;
    if (c->nparts == 0)
        return x;
    /* the largest part last: it alone is searched with a wanted set */
    for (int i = 1; i < c->nparts; i++)
        for (int j = i; j > 0 && part_cells(w->s, c->part[j]) < part_cells(w->s, c->part[j - 1]); j--) {
            uint64_t t = c->part[j];
            c->part[j] = c->part[j - 1];
            c->part[j - 1] = t;
        }
    int last = c->nparts - 1;
    for (int j = 0; j < last; j++) {
        int v = known(w, c->part[j]);
        if (v < 0)
            v = cut(w, c->part[j], ALL_NIMBERS, ply);
        if (v == STOPPED)
            return STOPPED;
        if (v < 0)
            return cram_search_contradiction(w);
        x ^= v;
    }
    int v = known(w, c->part[last]);
    if (v < 0)
        v = cut(w, c->part[last], ns_xor(want, x), ply);
    return v < 0 ? v : v ^ x;
}

/* The order in which a node's children are searched: the cheaper first,
 * since a cheap child that removes a wanted nimber from P may end the
 * node before the dear ones are looked at. Cheap is a small largest part
 * (its search is what a child costs) and a move near the centre (its
 * parts tend to be balanced and often equal, so that their values
 * cancel), weighed together: the largest part's cells plus the move's
 * distance from the centre in cells (dist is twice that), the smaller
 * part first among equals, then the nearer move, then the cells' order.
 * Ordering by the largest part alone, the distance only breaking ties,
 * took 5x8 1,711,311 nodes (1,131,859 expanded) against 1,212,837
 * (812,779) so; 4x9 238,915 against 178,988, 5x7 341,525 against
 * 292,103, 3x14 1,103,302 against 981,248, 5x9 18.8 M against 15.6 M,
 * 4x11 7.91 M against 7.79 M (3x13 4% more: 273,853 against 262,682).
 * Other weights, W x cells + 2 x dist for W = 1, 2, 3, 5, 6 and 8 (this
 * one is W = 4), did no better over those boards, 1 and 8 worse. (The
 * distance alone breaking ties took 5x8 from 9.0 M nodes to 2.1 M.)
 *
 * Each child not done is one word, those four keys from the high bits
 * down, and the words are sorted as numbers: a comparison is one
 * instruction rather than three reads of two children (the same order:
 * the same nodes; 4x11 2.6% less time, 5x8 5%, `farm-bench --vs`, one
 * thread, the median of 5 pairs). */
static void order_children(const cram_child *ch, int n, uint8_t *order)
{
    uint64_t key[MAX_MOVES];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!ch[i].done) {
            const uint64_t cost = 2u * ch[i].size + ch[i].dist;
            key[k++] = cost << 32 | (uint64_t)ch[i].size << 16 | (uint64_t)ch[i].dist << 8 | (uint64_t)i;
        }
    for (int i = 1; i < k; i++) {
        const uint64_t t = key[i];
        int j = i;
        for (; j > 0 && t < key[j - 1]; j--)
            key[j] = key[j - 1];
        key[j] = t;
    }
    for (int i = 0; i < k; i++)
        order[i] = (uint8_t)(key[i] & 0xff);
}

/* Remember that x's nimber is in none of `excluded` (the table keeps the
 * nimbers below CRAM_TT_EXCLUDED_BITS). A search cut short excludes the
 * nimbers it was asked for and also every nimber of a child it met: a
 * nimber is the mex of its children's, so it is none of them. That
 * second part answers later questions about the node without listing its
 * children again: on 4x11, 27% of the nodes listed (1.35 M of 5.00 M) had
 * been listed before, cut short, and were asked about other nimbers; with
 * the children's nimbers kept, 4.44 M nodes are listed, 11% fewer (5x8
 * 0.81 M -> 0.74 M, 3x14 0.67 M -> 0.59 M), in about as many nodes, and
 * 4x11 takes 0.962 of the time, 5x8 0.963, 3x14 0.931 (`farm-bench --vs`,
 * one thread, the median of 3, 5 and 5 pairs). The complement of P (see
 * cut) would exclude a few more (0.05% fewer listed): not worth the
 * subtler proof. */
static void exclude(cram_worker *w, uint64_t x, nimset excluded, uint64_t nodes_before)
{
    cram_solver *s = w->s;
    unsigned low = (unsigned)(uint64_t)excluded & ((1u << CRAM_TT_EXCLUDED_BITS) - 1);
    if (low)
        tt_exclude(s, x, low, work_since(w, nodes_before));
}

static int cut(cram_worker *w, uint64_t x, nimset want, int ply)
{
    cram_solver *s = w->s;
    if (!count_node(w))
        return STOPPED;
    /* Nimbers an earlier search has ruled out need no asking again. */
    unsigned ruled_out = tt_excluded(s, x);
    if (ruled_out) {
        want &= ~(nimset)ruled_out;
        if (!want) {
            w->stats.tt_hits++;
            return -1;
        }
    }
    const cram_method m = s->opt.method;
    const int capped = m >= CRAM_SET_CUTS;
    uint64_t before = w->stats.nodes;
    cram_child *ch = w->ply[ply];
    nimset p;
    w->etc_seen = 0;
    int n = children(w, x, ch, m >= CRAM_ETC ? want : 0, &p);
    /* the children's nimbers met, none of them x's (exclude) */
    nimset seen = w->etc_seen;
    if (n < 0) {
        w->stats.cuts++;
        exclude(w, x, want | seen, before);
        return -1;
    }
    int exact = 1, want_max = ns_max(want);
    nimset cap = ns_upto(want_max);
    if (ply == 0)
        s->root_moves = n;

    uint8_t order[MAX_MOVES];
    int k = 0;
    if (s->opt.board_order) {
        for (int i = 0; i < n; i++)
            if (!ch[i].done)
                order[k++] = (uint8_t)i;
    } else {
        order_children(ch, n, order);
        for (int i = 0; i < n; i++)
            k += !ch[i].done;
    }
    /* A helper searches the root child's moves from the other end, so that
     * the two searches of one child meet in the middle (and fill the table
     * for each other) rather than repeat each other. */
    if (ply == 1 && w->helper)
        for (int i = 0, j = k - 1; i < j; i++, j--) {
            uint8_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    for (int o = 0; o < k; o++) {
        if (!(p & want)) {
            w->stats.cuts++;
            exclude(w, x, want | seen, before);
            return -1;
        }
        if (ply == 0)
            w->root_move = o + 1;
        int top = ns_max(p);
        nimset child_want = p & ~ns_bit(top);
        if (capped)
            child_want &= cap;
        int v = child_value(w, &ch[order[o]], child_want, ply + 1);
        if (v == STOPPED)
            return STOPPED;
        if (v >= 0)
            seen |= ns_bit(v); /* exact whenever it is not -1 */
        if (v >= 0 && ns_has(p, v)) {
            p &= ~ns_bit(v);
        } else {
            p &= ~ns_bit(top);
            if (v < 0 && capped)
                exact = 0;
        }
    }
    assert(p != 0 && (p & (p - 1)) == 0);
    int result = ns_min(p);
    if (exact || result <= want_max) {
        tt_put(s, x, result, work_since(w, before));
        return result;
    }
    /* P is right up to max(R) and holds nothing there: the nimber is
     * larger than anything wanted. */
    exclude(w, x, cap | seen, before);
    return -1;
}

/* ---- the root ---- */

/* Nimber of a sum of canonical components if it is in want (else the
 * nimber or -1), the largest component searched last with the set. */
int cram_search_sum_value(cram_worker *w, const uint64_t *comp, int n, nimset want)
{
    const cram_solver *s = w->s;
    cram_child c;
    int x = 0, k = 0;
    for (int i = 0; i < n; i++) {
        if (part_cells(s, comp[i]) <= 3) {
            x ^= 1;
            continue;
        }
        if (k == CHILD_PARTS) {
            /* More parts than a child holds: value the extra ones now. */
            int v = known(w, comp[i]);
            if (v < 0)
                v = s->opt.method == CRAM_PLAIN ? plain(w, comp[i], 0) : cut(w, comp[i], ALL_NIMBERS, 0);
            if (v == STOPPED)
                return STOPPED;
            x ^= v;
            continue;
        }
        c.part[k++] = comp[i];
    }
    c.nparts = (uint8_t)k;
    c.known = (uint8_t)x;
    c.done = 0;
    if (s->opt.method == CRAM_PLAIN) {
        for (int j = 0; j < k; j++) {
            int v = known(w, c.part[j]);
            if (v < 0)
                v = plain(w, c.part[j], 0);
            if (v == STOPPED)
                return STOPPED;
            x ^= v;
        }
        return x;
    }
    return child_value(w, &c, want, 0);
}

/* ---- for the root (cram_root.c) ----
 * The search's own calls stay static, so that the compiler may inline
 * them on the hot path; the root calls these. */

int cram_search_known(cram_worker *w, uint64_t x)
{
    return known(w, x);
}

int cram_search_children(cram_worker *w, uint64_t x, cram_child *ch, nimset want, nimset *p)
{
    return children(w, x, ch, want, p);
}

void cram_search_resolve(cram_worker *w, cram_child *c)
{
    resolve(w, c);
}

int cram_search_child_value(cram_worker *w, cram_child *c, nimset want, int ply)
{
    return child_value(w, c, want, ply);
}

void cram_search_order_children(const cram_child *ch, int n, uint8_t *order)
{
    order_children(ch, n, order);
}

int cram_search_count_node(cram_worker *w)
{
    return count_node(w);
}
