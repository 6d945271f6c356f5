/*
 * dots_solver.c — alpha-beta search for Dots-and-Boxes; see dots_solver.h.
 *
 * A node is a set of drawn lines; its value is the best net number of
 * future boxes for the player to move. The search is negamax, fail-soft:
 * a line that completes b > 0 boxes is worth b + v(child) (the same player
 * moves again), any other line -v(child). The root is solved by a sequence
 * of zero-window tests (MTD(f)), each answered by one or more searchers
 * sharing the transposition table.
 *
 * Capture rules (DOTS_RULES_FULL, dots_capture.c). When some box has
 * three sides drawn, the player to move need not look at every line: a
 * capture is forced, or runs that may be declined are each taken or
 * declined. The rules are tested against the databases and the naive
 * solver on positions with penalties too; DOTS_RULES_NONE searches every
 * line, as a reference.
 *
 * Loony endgames (DOTS_RULES_FULL, loony_endgame.c): a quiet node whose
 * boxes left all have two sides drawn is valued without search, and of
 * the lines opening one independent chain or loop only one is searched.
 *
 * Positions without a three-sided box (quiet nodes) are stored in the
 * table: canonical form = the least image under the board's symmetries,
 * after the two outer lines of each corner box are normalised (each
 * touches only that box, so which one is drawn does not matter). Moves
 * are tried best-known first, then lines that give no box a third side
 * from the centre of the board outwards, then sacrifices. Before any is
 * searched, a node with enough open lines looks its quiet children up in
 * the table (enhanced transposition cutoff).
 *
 * Several searchers (threads) run the same zero-window test on the shared
 * table, each trying its moves in a slightly different order; the first
 * to finish answers and the others stop. Table entries are written
 * without locks: the key is stored xor the data, so that a torn entry
 * reads as a miss, never as a wrong bound.
 */
#define _GNU_SOURCE
#include "dots/dots_solver.h"

#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/job.h"
#include "common/memory.h"
#include "dots/dots_capture.h"
#include "dots/loony_endgame.h"
#include "search/search_clock.h"
#include "search/table_growth.h"

#define MAX_RUNS DOTS_MAX_BOXES
#define NO_MOVE 255
#define VALUE_INF 10000
#define STOP_POLL 1023          /* nodes between looks at the stop flags */

/* One table slot: key ^ data and data, written and read as two relaxed
 * 64-bit atomics. data: lower bound (16 bits, offset), upper bound (16),
 * best move (8), open lines at the position (8: replacement keeps the
 * entries that cost most to recompute). */
typedef struct {
    uint64_t check;
    uint64_t data;
} tt_slot;

#define BUCKET 4
#define BOUND_OFFSET 32768
#define TT_START_BUCKETS (1ULL << 18) /* 16 MB */
#define TT_GROWTH 4                   /* each growth quadruples the table */

typedef struct dots_worker {
    dots_solver *s;
    int id;
    int aborted;
    uint64_t nodes, tt_hits, tt_new; /* tt_new: empty slots this searcher filled */
    uint64_t endgames;               /* simple loony endgames valued without search */
    uint64_t etc_cuts;               /* nodes ended by a child's table entry */
    uint64_t db_hits;                /* positions the database answered */
} dots_worker;

struct dots_solver {
    dots_board board;
    int full_value, full_bound;    /* |full_value| widens every bound */
    dots_solver_options opt;
    int nlines, nboxes;
    uint64_t all;                  /* every line */
    uint64_t box_mask[DOTS_MAX_BOXES];
    int8_t across[DOTS_MAX_LINES][2]; /* line -> its boxes, -1 for the ground */
    dots_box_graph graph;          /* the two above, for loony_endgame.c */
    uint8_t order[DOTS_MAX_LINES];  /* lines, centre first */
    int ntransforms, nbytes;
    int tt_min_open;               /* positions with fewer open lines skip the table */
    int etc_min_open;              /* nodes with this many open lines or more look up
                                      their children in the table first */
    uint64_t (*byte_image)[8][256]; /* [transform][byte][value] -> lines */
    uint8_t inverse[DOTS_MAX_TRANSFORMS][DOTS_MAX_LINES];
    int ncorners;
    uint64_t corner_pair[4], corner_keep[4]; /* the two outer lines; the one kept */
    tt_slot *tt;
    uint64_t tt_mask;              /* buckets - 1 */
    uint64_t tt_most;              /* the buckets the table may grow to */
    dots_worker *workers;
    volatile int test_done;        /* a searcher answered the current test */
    volatile int grow_wanted;      /* the table is a quarter full: grow it */
    rdb_table_growth growth;       /* how the searchers grow it (search/table_growth.h) */
    tt_slot *grow_from;            /* the table being grown from, while it is */
    uint64_t tests;
    double seconds, started;
    rdb_search_clock clock;        /* progress lines and the hook */
    void (*hook)(dots_solver *, void *);
    void *hook_ctx;
    int report_lower, report_upper;
};

/* ---- positions ---- */

static inline int sides(const dots_solver *s, uint64_t drawn, int box)
{
    return __builtin_popcountll(drawn & s->box_mask[box]);
}

static inline uint64_t transform(const dots_solver *s, int t, uint64_t x)
{
    uint64_t y = 0;
    for (int k = 0; k < s->nbytes; k++)
        y |= s->byte_image[t][k][(x >> (8 * k)) & 0xff];
    return y;
}

/* Of each corner box's two outer lines, drawing one or the other is the
 * same: keep the drawn one in a fixed place. Returns the corners swapped. */
static inline uint64_t normalise_corners(const dots_solver *s, uint64_t *x)
{
    uint64_t swapped = 0;
    for (int c = 0; c < s->ncorners; c++) {
        uint64_t pair = s->corner_pair[c], drop = pair & ~s->corner_keep[c];
        if ((*x & pair) == drop) {
            *x ^= pair;
            swapped |= pair;
        }
    }
    return swapped;
}

/* The canonical form of the position whose images under the board's
 * transforms are image[]; *which is the transform that gives it. */
static uint64_t least_image(const dots_solver *s, const uint64_t *image, int *which)
{
    uint64_t best = UINT64_MAX;
    for (int t = 0; t < s->ntransforms; t++) {
        uint64_t y = image[t];
        normalise_corners(s, &y);
        if (y < best) {
            best = y;
            *which = t;
        }
    }
    return best;
}

/* The canonical form of x; *which is the transform that gives it. */
static uint64_t canonical(const dots_solver *s, uint64_t x, int *which)
{
    uint64_t image[DOTS_MAX_TRANSFORMS];
    for (int t = 0; t < s->ntransforms; t++)
        image[t] = transform(s, t, x);
    return least_image(s, image, which);
}

/* The line paired with `line` when its corner was swapped, else itself. */
static int unswap(const dots_solver *s, uint64_t swapped, int line)
{
    if (!(swapped >> line & 1))
        return line;
    for (int c = 0; c < s->ncorners; c++)
        if (s->corner_pair[c] >> line & 1)
            return __builtin_ctzll(s->corner_pair[c] & ~(1ULL << line));
    return line;
}

/* A move of x as the same move of its canonical form under transform t
 * (to_canonical), or a move of the canonical form as a move of x. */
static int map_move(const dots_solver *s, uint64_t x, int t, int line, int to_canonical)
{
    uint64_t y = transform(s, t, x);
    uint64_t swapped = normalise_corners(s, &y);
    if (to_canonical)
        return unswap(s, swapped, s->board.transform[t][line]);
    return s->inverse[t][unswap(s, swapped, line)];
}

/* ---- the transposition table ---- */

static inline uint64_t slot_hash(uint64_t key)
{
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 32;
    return key;
}

static inline uint64_t pack(int lower, int upper, int best, int open)
{
    return (uint64_t)(lower + BOUND_OFFSET) | (uint64_t)(upper + BOUND_OFFSET) << 16 |
           (uint64_t)best << 32 | (uint64_t)open << 40;
}

static inline int data_lower(uint64_t d) { return (int)(d & 0xffff) - BOUND_OFFSET; }
static inline int data_upper(uint64_t d) { return (int)(d >> 16 & 0xffff) - BOUND_OFFSET; }
static inline int data_best(uint64_t d) { return (int)(d >> 32 & 0xff); }
static inline int data_open(uint64_t d) { return (int)(d >> 40 & 0xff); }

static inline void slot_read(const tt_slot *e, uint64_t *check, uint64_t *data)
{
    *check = __atomic_load_n(&e->check, __ATOMIC_RELAXED);
    *data = __atomic_load_n(&e->data, __ATOMIC_RELAXED);
}

static inline void slot_write(tt_slot *e, uint64_t key, uint64_t data)
{
    __atomic_store_n(&e->check, key ^ data, __ATOMIC_RELAXED);
    __atomic_store_n(&e->data, data, __ATOMIC_RELAXED);
}

/* The entry of key: its data, or 0 (no entry has data 0: bounds are
 * stored with an offset). */
static uint64_t tt_probe(const dots_solver *s, uint64_t key)
{
    const tt_slot *b = s->tt + (slot_hash(key) & s->tt_mask) * BUCKET;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t check, data;
        slot_read(&b[i], &check, &data);
        if (data && (check ^ data) == key)
            return data;
    }
    return 0;
}

/* Store bounds for key, merged with what the table knows of it (every
 * bound ever stored is true, so they narrow each other). A new key takes
 * the slot whose position had the fewest open lines. */
static void tt_store(dots_solver *s, dots_worker *w, uint64_t key, int lower, int upper,
                     int best, int open)
{
    tt_slot *b = s->tt + (slot_hash(key) & s->tt_mask) * BUCKET;
    int victim = 0, victim_open = INT_MAX;
    for (int i = 0; i < BUCKET; i++) {
        uint64_t check, data;
        slot_read(&b[i], &check, &data);
        if (data && (check ^ data) == key) {
            if (data_lower(data) > lower)
                lower = data_lower(data);
            if (data_upper(data) < upper)
                upper = data_upper(data);
            if (best == NO_MOVE)
                best = data_best(data);
            victim = i;
            break;
        }
        int o = data ? data_open(data) : -1;
        if (o < victim_open) {
            victim_open = o;
            victim = i;
        }
    }
    if (lower > upper) /* cannot happen with true bounds */
        return;
    w->tt_new += victim_open < 0;
    slot_write(&b[victim], key, pack(lower, upper, best, open));
}

static int tt_half_full(const dots_solver *s);

/* The table grows by the search runtime's protocol (search/table_growth.h:
 * every searcher parks at its next poll and moves a part of the old
 * table, and the search goes on where it was); these are its three steps,
 * each made by one searcher while the others wait. The table grows
 * TT_GROWTH times (up to tt_most); the searchers' counts of filled slots
 * become the entries moved. Measured against the protocol it replaces
 * (stop every searcher, move alone, start the test again): Icelandic 3x5
 * on two threads, the table grown from 16 to 256 MB, searched as many
 * nodes (21.8 M against 21.9 M), as the entries moved over make the test
 * started again reach its point at once; what the stop cost was the move
 * by one thread. */
static uint64_t growth_begin(void *ctx)
{
    dots_solver *s = ctx;
    if (!tt_half_full(s)) /* grown already, by a searcher just before */
        return 0;
    uint64_t buckets = (s->tt_mask + 1) * TT_GROWTH;
    if (buckets > s->tt_most)
        buckets = s->tt_most;
    const uint64_t old_buckets = s->tt_mask + 1;
    /* the new table beside the old one must fit in what the machine has
     * left (the kernel promises pages it may not have, and its
     * out-of-memory killer then ends the run as the move fills them):
     * smaller steps when the whole one does not */
    while (buckets > old_buckets && !rdb_memory_allows(buckets * BUCKET * sizeof(tt_slot)))
        buckets /= 2;
    tt_slot *tt = buckets > old_buckets ? rdb_huge_alloc(buckets * BUCKET * sizeof(tt_slot)) : NULL;
    if (!tt) { /* keep searching in the table there is */
        s->tt_most = old_buckets;
        if (s->opt.progress)
            fprintf(stderr, "solve: the table stays at %.0f MB: memory is short\n",
                    old_buckets * BUCKET * sizeof(tt_slot) / 1048576.0);
        return 0;
    }
    s->grow_from = s->tt;
    s->tt = tt;
    s->tt_mask = buckets - 1;
    for (int i = 0; i < s->opt.threads; i++)
        s->workers[i].tt_new = 0;
    return old_buckets;
}

/* Move buckets [from, to) of the old table; each searcher counts the
 * slots it fills. */
static void growth_move(void *ctx, uint64_t from, uint64_t to)
{
    dots_solver *s = ctx;
    dots_worker *w = &s->workers[omp_in_parallel() ? omp_get_thread_num() : 0];
    const tt_slot *old = s->grow_from;
    const uint64_t old_buckets = s->growth.units;
    for (uint64_t i = from * BUCKET; i < to * BUCKET; i++) {
        const uint64_t data = old[i].data, key = old[i].check ^ data;
        /* a slot written half by two searchers at once reads as a key of
         * another bucket: no entry */
        if (data && (slot_hash(key) & (old_buckets - 1)) == i / BUCKET)
            tt_store(s, w, key, data_lower(data), data_upper(data), data_best(data),
                     data_open(data));
    }
}

static void growth_end(void *ctx, int moved)
{
    dots_solver *s = ctx;
    if (moved) {
        rdb_huge_free(s->grow_from, s->growth.units * BUCKET * sizeof(tt_slot));
        s->grow_from = NULL;
    }
    __atomic_store_n(&s->grow_wanted, 0, __ATOMIC_RELAXED);
}

static void growth_init(dots_solver *s)
{
    const rdb_growth_ops ops = {growth_begin, growth_move, growth_end, s};
    rdb_table_growth_init(&s->growth, &ops);
}

/* The table grown now, outside a search (a table file read into it). */
static void tt_grow(dots_solver *s)
{
    growth_init(s);
    rdb_table_growth_run(&s->growth);
}

/* ---- the search ---- */

static int search(dots_worker *w, uint64_t drawn, int alpha, int beta);

/* Slots the searchers have filled (each counts its own; a rough sum is
 * enough to decide when to grow). */
static uint64_t tt_filled(const dots_solver *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->opt.threads; i++)
        n += __atomic_load_n(&s->workers[i].tt_new, __ATOMIC_RELAXED);
    return n;
}

static int tt_half_full(const dots_solver *s)
{
    return s->tt_mask + 1 < s->tt_most && tt_filled(s) * 4 > (s->tt_mask + 1) * BUCKET;
}

static int stop_now(dots_worker *w)
{
    dots_solver *s = w->s;
    if (w->id == 0 && !s->grow_wanted && tt_half_full(s))
        __atomic_store_n(&s->grow_wanted, 1, __ATOMIC_RELAXED);
    /* here the searcher holds nothing of the table: it may grow */
    if (__atomic_load_n(&s->grow_wanted, __ATOMIC_RELAXED))
        rdb_table_growth_run(&s->growth);
    if (rdb_stop_requested || s->test_done) {
        w->aborted = 1;
        return 1;
    }
    const unsigned due = w->id == 0 ? rdb_search_clock_due(&s->clock) : 0;
    if (due & RDB_DUE_HOOK)
        s->hook(s, s->hook_ctx);
    if (due & RDB_DUE_REPORT) {
        const double now = rdb_now();
        uint64_t nodes = 0;
        for (int i = 0; i < s->opt.threads; i++)
            nodes += s->workers[i].nodes;
        fprintf(stderr, "solve: %.0f s, %llu nodes (%.2f M/s), value in [%d, %d]\n",
                now - s->started, (unsigned long long)nodes, nodes / (now - s->started) / 1e6,
                s->report_lower, s->report_upper);
    }
    if (due)
        rdb_search_clock_done(&s->clock, due);
    return 0;
}

static int boxes_complete(const dots_solver *s, uint64_t drawn)
{
    return dots_capture_boxes_complete(&s->graph, drawn);
}

/* A node whose three-sided boxes all start runs that may be declined.
 * With one run: take it whole (the player moves again), or decline it
 * with the double-dealing line (the turn passes). With several: for each
 * run, take every other run whole and search on with the same player to
 * move, who then faces that run alone. Taking a run can change another
 * (two runs may end at the same box), which is why the last run is not
 * declined here with the line it had before: the search looks at it again
 * once the others are gone. */
static int search_runs(dots_worker *w, uint64_t drawn, const dots_capture_run *runs, int nruns,
                       int alpha, int beta)
{
    const dots_solver *s = w->s;
    int before = boxes_complete(s, drawn);
    int best = -VALUE_INF;
    for (int k = 0; k < (nruns == 1 ? 2 : nruns) && !w->aborted; k++) {
        int v;
        if (nruns == 1 && k == 1) {
            v = -search(w, drawn | runs[0].decline, -beta, -alpha);
        } else {
            uint64_t child = drawn;
            for (int r = 0; r < nruns; r++)
                if (nruns == 1 || r != k)
                    child |= runs[r].take;
            int gain = boxes_complete(s, child) - before;
            v = gain + search(w, child, alpha - gain, beta - gain);
        }
        if (v > best) {
            best = v;
            if (best > alpha)
                alpha = best;
            if (alpha >= beta)
                break;
        }
    }
    return best;
}

/* Runs that touch (dots_capture.h, DOTS_CAPTURE_SEARCH): every capture and
 * every double-dealing line the scan gave, searched as moves. */
static int search_touching(dots_worker *w, uint64_t drawn, const dots_capture_run *runs,
                           int nruns, int alpha, int beta)
{
    const dots_solver *s = w->s;
    int best = -VALUE_INF;
    for (int r = 0; r < nruns && !w->aborted; r++)
        for (uint64_t m = runs[r].take | runs[r].decline; m && !w->aborted; m &= m - 1) {
            const int l = __builtin_ctzll(m);
            const int b = dots_boxes_completed(&s->board, drawn, l);
            const uint64_t child = drawn | 1ULL << l;
            const int v = b > 0 ? b + search(w, child, alpha - b, beta - b)
                                : -search(w, child, -beta, -alpha);
            if (v > best) {
                best = v;
                if (best > alpha)
                    alpha = best;
                if (alpha >= beta)
                    return best;
            }
        }
    return best;
}

/* The moves of a quiet node in the order they are tried; the sacrifices
 * (lines that give a box its third side) from moves[*sacrifices] on. */
static int order_moves(const dots_worker *w, uint64_t drawn, const int8_t *cnt, int first,
                       uint8_t *moves, int *sacrifices)
{
    const dots_solver *s = w->s;
    uint8_t safe[DOTS_MAX_LINES], risky[DOTS_MAX_LINES];
    int nsafe = 0, nrisky = 0, n = 0;
    if (first != NO_MOVE)
        moves[n++] = (uint8_t)first;
    for (int k = 0; k < s->nlines; k++) {
        int l = s->order[k];
        if (drawn >> l & 1 || l == first)
            continue;
        int a = s->across[l][0], b = s->across[l][1];
        int worst = cnt[a] > (b >= 0 ? cnt[b] : 0) ? cnt[a] : (b >= 0 ? cnt[b] : 0);
        if (worst >= 2)
            risky[nrisky++] = (uint8_t)l;
        else
            safe[nsafe++] = (uint8_t)l;
    }
    /* Searchers after the first start their safe moves further along, so
     * that they explore different subtrees first and fill the table for
     * each other. */
    int shift = nsafe ? w->id % nsafe : 0;
    for (int i = 0; i < nsafe; i++)
        moves[n++] = safe[(i + shift) % nsafe];
    *sacrifices = n;
    for (int i = 0; i < nrisky; i++)
        moves[n++] = risky[i];
    return n;
}

/* A node without a three-sided box (or any node without the rules). */
static int search_quiet(dots_worker *w, uint64_t drawn, const int8_t *cnt, int alpha, int beta)
{
    dots_solver *s = w->s;
    int endgame;
    if (s->opt.rules == DOTS_RULES_FULL &&
        dots_simple_endgame(&s->graph, drawn, cnt, s->full_value, &endgame)) {
        w->endgames++;
        return endgame;
    }
    int left = 0;
    for (int b = 0; b < s->nboxes; b++)
        left += cnt[b] < 4;
    int bound = left + s->full_bound;
    if (bound <= alpha)
        return bound;
    if (-bound >= beta)
        return -bound;

    int t = 0, open = s->nlines - __builtin_popcountll(drawn);
    int use_table = open >= s->tt_min_open;
    /* the position's images, for its key and its children's */
    uint64_t image[DOTS_MAX_TRANSFORMS];
    if (use_table)
        for (int k = 0; k < s->ntransforms; k++)
            image[k] = transform(s, k, drawn);
    uint64_t key = use_table ? least_image(s, image, &t) : 0;
    uint64_t data = use_table ? tt_probe(s, key) : 0;
    int first = NO_MOVE, lower = -bound, upper = bound;
    if (data) {
        lower = data_lower(data);
        upper = data_upper(data);
        if (lower >= beta || upper <= alpha || lower == upper) {
            w->tt_hits++;
            return lower >= beta ? lower : upper <= alpha ? upper : lower;
        }
        if (data_best(data) != NO_MOVE) {
            int m = map_move(s, drawn, t, data_best(data), 0);
            if (!(drawn >> m & 1))
                first = m;
        }
    }
    /* A position a database holds: its value, kept in the table as exact,
     * where the enhanced transposition cutoff of its parents finds it. */
    int held;
    if (s->opt.stored && s->opt.stored(s->opt.stored_ctx, drawn, &held)) {
        w->db_hits++;
        if (use_table)
            tt_store(s, w, key, held, held, NO_MOVE, open);
        return held;
    }
    int alpha0 = alpha > lower ? alpha : lower, beta0 = beta < upper ? beta : upper;
    alpha = alpha0;
    beta = beta0;

    uint8_t moves[DOTS_MAX_LINES];
    int sacrifices = DOTS_MAX_LINES;
    int n = s->opt.row_order ? 0 : order_moves(w, drawn, cnt, first, moves, &sacrifices);
    if (s->opt.row_order)
        for (int l = 0; l < s->nlines; l++)
            if (!(drawn >> l & 1))
                moves[n++] = (uint8_t)l;

    /* Enhanced transposition cutoff: a quiet child the table already
     * knows to be bad enough for the opponent ends the node before any
     * search. The children's buckets are fetched all at once first. */
    if (use_table && open >= s->etc_min_open) {
        uint64_t ckey[DOTS_MAX_LINES];
        int nq = 0;
        uint8_t qmove[DOTS_MAX_LINES];
        for (int i = 0; i < n; i++) {
            int l = moves[i], a = s->across[l][0], o = s->across[l][1];
            if (cnt[a] >= 2 || (o >= 0 && cnt[o] >= 2))
                continue;
            /* the child's images: the position's, and the line's */
            uint64_t child[DOTS_MAX_TRANSFORMS];
            for (int k = 0; k < s->ntransforms; k++)
                child[k] = image[k] | 1ULL << s->board.transform[k][l];
            int tc;
            ckey[nq] = least_image(s, child, &tc);
            __builtin_prefetch(s->tt + (slot_hash(ckey[nq]) & s->tt_mask) * BUCKET);
            qmove[nq++] = (uint8_t)l;
        }
        for (int i = 0; i < nq; i++) {
            uint64_t d = tt_probe(s, ckey[i]);
            if (d && -data_upper(d) >= beta) {
                int v = -data_upper(d);
                w->etc_cuts++;
                tt_store(s, w, key, v > lower ? v : lower, upper, map_move(s, drawn, t, qmove[i], 1),
                         open);
                return v;
            }
        }
    }

    int best = -VALUE_INF, best_move = NO_MOVE;
    uint64_t skip = 0;
    for (int i = 0; i < n; i++) {
        int l = moves[i];
        /* A line that opens an independent chain or loop which another
         * line opens to the same effect is not searched; found only when
         * the search gets this far, as a cutoff often comes before. */
        if (i == sacrifices && s->opt.rules == DOTS_RULES_FULL)
            skip = dots_redundant_openings(&s->graph, drawn, cnt);
        if (skip >> l & 1)
            continue;
        uint64_t child = drawn | 1ULL << l;
        int a = s->across[l][0], o = s->across[l][1];
        int b = (cnt[a] == 3) + (o >= 0 && cnt[o] == 3);
        int v = b ? b + search(w, child, alpha - b, beta - b) : -search(w, child, -beta, -alpha);
        if (w->aborted)
            return 0;
        if (v > best) {
            best = v;
            best_move = l;
            if (best > alpha)
                alpha = best;
            if (alpha >= beta)
                break;
        }
    }
    /* Fail-soft bounds: below the window, best is an upper bound; above,
     * a lower bound; inside, exact. */
    int lo = best >= beta0 ? best : -bound, hi = best <= alpha0 ? best : bound;
    if (best > alpha0 && best < beta0)
        lo = hi = best;
    /* After a fail-low every move failed: none is worth remembering. */
    if (use_table)
        tt_store(s, w, key, lo > lower ? lo : lower, hi < upper ? hi : upper,
                 best_move == NO_MOVE || best <= alpha0 ? NO_MOVE
                                                        : map_move(s, drawn, t, best_move, 1),
                 open);
    return best;
}

static int search(dots_worker *w, uint64_t drawn, int alpha, int beta)
{
    dots_solver *s = w->s;
    if ((++w->nodes & STOP_POLL) == 0 && stop_now(w))
        return 0;
    if (w->aborted)
        return 0;
    int gain = 0;
    for (;;) {
        if (drawn == s->all)
            return gain + s->full_value;
        int8_t cnt[DOTS_MAX_BOXES];
        for (int b = 0; b < s->nboxes; b++)
            cnt[b] = (int8_t)sides(s, drawn, b);
        if (s->opt.rules == DOTS_RULES_NONE)
            return gain + search_quiet(w, drawn, cnt, alpha - gain, beta - gain);
        dots_capture_run runs[MAX_RUNS];
        int line, boxes, nruns;
        switch (dots_capture_scan(&s->graph, drawn, dots_capture_three(&s->graph, drawn), &line,
                                  &boxes, runs, &nruns)) {
        case DOTS_CAPTURE_QUIET:
            return gain + search_quiet(w, drawn, cnt, alpha - gain, beta - gain);
        case DOTS_CAPTURE_FORCED:
            drawn |= 1ULL << line;
            gain += boxes;
            w->nodes++;
            continue;
        case DOTS_CAPTURE_SEARCH:
            return gain + search_touching(w, drawn, runs, nruns, alpha - gain, beta - gain);
        default:
            return gain + search_runs(w, drawn, runs, nruns, alpha - gain, beta - gain);
        }
    }
}

/* ---- zero-window tests and the driver ---- */

/* Whether value(lines) >= bound, by every searcher at once; the first to
 * finish answers. Returns the fail-soft value of that search. */

static rdb_status run_test(dots_solver *s, uint64_t lines, int bound, int *result,
                           rdb_error *err)
{
    s->tests++;
    int answered = 0, answer = 0;
    s->test_done = 0;
    growth_init(s);
#pragma omp parallel num_threads(s->opt.threads)
    {
        dots_worker *w = &s->workers[omp_get_thread_num()];
        w->aborted = 0;
        rdb_table_growth_join(&s->growth);
        int v = search(w, lines, bound - 1, bound);
        if (!w->aborted) {
#pragma omp critical(dots_solver_answer)
            {
                if (!answered) {
                    answered = 1;
                    answer = v;
                }
            }
            __atomic_store_n(&s->test_done, 1, __ATOMIC_RELAXED);
        }
        rdb_table_growth_leave(&s->growth);
    }
    if (!answered)
        return rdb_fail(err, RDB_E_STOPPED, "the search was stopped");
    *result = answer;
    return RDB_OK;
}

static rdb_status check_position(const dots_solver *s, uint64_t lines, rdb_error *err)
{
    if (lines & ~s->all)
        return rdb_fail(err, RDB_E_INPUT, "the position has lines outside the %dx%d board",
                        s->board.rows, s->board.cols);
    return RDB_OK;
}

rdb_status dots_solver_test(dots_solver *s, uint64_t lines, int bound, int *at_least,
                            rdb_error *err)
{
    rdb_status st = check_position(s, lines, err);
    if (st != RDB_OK)
        return st;
    double t0 = rdb_now();
    int v = 0;
    st = run_test(s, lines, bound, &v, err);
    s->seconds += rdb_now() - t0;
    if (st == RDB_OK)
        *at_least = v >= bound;
    return st;
}

/* MTD(f): zero-window tests that move a guess until the bounds meet. */
static rdb_status mtdf(dots_solver *s, uint64_t lines, int guess, int *value, rdb_error *err)
{
    int lower = -VALUE_INF, upper = VALUE_INF, g = guess;
    while (lower < upper) {
        int beta = g == lower ? g + 1 : g;
        s->report_lower = lower;
        s->report_upper = upper;
        rdb_status st = run_test(s, lines, beta, &g, err);
        if (st != RDB_OK)
            return st;
        if (g < beta)
            upper = g;
        else
            lower = g;
    }
    *value = g;
    return RDB_OK;
}

/* The start of a public call: the progress report counts from now, with
 * the value not bounded yet. Returns the time, for s->seconds. */
static double start_call(dots_solver *s)
{
    double t0 = rdb_now();
    s->started = t0;
    rdb_search_clock_start(&s->clock, s->opt.progress);
    s->report_lower = -VALUE_INF;
    s->report_upper = VALUE_INF;
    return t0;
}

rdb_status dots_solver_value(dots_solver *s, uint64_t lines, int *value, rdb_error *err)
{
    rdb_status st = check_position(s, lines, err);
    if (st != RDB_OK)
        return st;
    double t0 = start_call(s);
    st = mtdf(s, lines, 0, value, err);
    s->seconds += rdb_now() - t0;
    return st;
}

/* Where key is among the first n keys, or -1: the children of a root that
 * a symmetry maps onto each other are solved once. */
static int index_of(const uint64_t *keys, int n, uint64_t key)
{
    for (int i = 0; i < n; i++)
        if (keys[i] == key)
            return i;
    return -1;
}

/* What a root function asks of one child: *result for the move into it
 * (the child's boxes b completed by the move). */
typedef rdb_status (*child_fn)(dots_solver *s, uint64_t child, int b, void *ctx, int *result,
                               rdb_error *err);

/* The value of a move, by MTD(f) from the previous move's value. */
static rdb_status move_value_of(dots_solver *s, uint64_t child, int b, void *ctx, int *result,
                                rdb_error *err)
{
    int *guess = ctx, v = 0;
    rdb_status st = mtdf(s, child, b ? *guess - b : -*guess, &v, err);
    if (st == RDB_OK)
        *guess = *result = b ? b + v : -v;
    return st;
}

/* fn once per child of `lines` up to symmetry, in the search's order;
 * result[line] for every open line (children a symmetry maps onto each
 * other get the same), INT8_MIN for drawn lines. */
static rdb_status each_move(dots_solver *s, uint64_t lines, child_fn fn, void *ctx,
                            int result[DOTS_MAX_LINES], rdb_error *err)
{
    rdb_status st = check_position(s, lines, err);
    if (st != RDB_OK)
        return st;
    double t0 = start_call(s);
    uint64_t done_key[DOTS_MAX_LINES];
    int done_result[DOTS_MAX_LINES], ndone = 0;
    for (int l = 0; l < DOTS_MAX_LINES; l++)
        result[l] = INT8_MIN;
    for (int k = 0; k < s->nlines && st == RDB_OK; k++) {
        int l = s->order[k], t;
        if (lines >> l & 1)
            continue;
        uint64_t child = lines | 1ULL << l;
        uint64_t key = canonical(s, child, &t);
        int found = index_of(done_key, ndone, key);
        if (found >= 0) {
            result[l] = done_result[found];
            continue;
        }
        st = fn(s, child, dots_boxes_completed(&s->board, lines, l), ctx, &result[l], err);
        done_key[ndone] = key;
        done_result[ndone++] = result[l];
        if (st == RDB_OK && s->opt.progress && fn == move_value_of) {
            /* a long run of many moves says each value as it comes */
            char name[32];
            dots_line_name(&s->board, l, name);
            fprintf(stderr, "solve: %.0f s, move %s is worth %+d (%d moves done)\n",
                    rdb_now() - t0, name, result[l], ndone);
        }
    }
    s->seconds += rdb_now() - t0;
    return st;
}


rdb_status dots_solver_move_values(dots_solver *s, uint64_t lines, int move_value[DOTS_MAX_LINES],
                                   rdb_error *err)
{
    int guess = 0;
    return each_move(s, lines, move_value_of, &guess, move_value, err);
}

/* Whether a move is worth the position's value: one zero-window test. A
 * capture is best when v(child) >= value - b; any other line when
 * -v(child) >= value, i.e. v(child) < 1 - value. */
static rdb_status is_best_move(dots_solver *s, uint64_t child, int b, void *ctx, int *result,
                               rdb_error *err)
{
    int value = *(const int *)ctx, v = 0;
    rdb_status st = run_test(s, child, b ? value - b : 1 - value, &v, err);
    *result = st == RDB_OK && (b ? v >= value - b : v < 1 - value);
    return st;
}

rdb_status dots_solver_best_moves(dots_solver *s, uint64_t lines, int value, uint64_t *best,
                                  rdb_error *err)
{
    int is_best[DOTS_MAX_LINES];
    *best = 0;
    rdb_status st = each_move(s, lines, is_best_move, &value, is_best, err);
    for (int l = 0; l < s->nlines && st == RDB_OK; l++)
        if (!(lines >> l & 1) && is_best[l] > 0)
            *best |= 1ULL << l;
    return st;
}

uint64_t dots_solver_canonical(const dots_solver *s, uint64_t lines)
{
    int t;
    return canonical(s, lines, &t);
}

int dots_solver_move_order(const dots_solver *s, uint64_t lines, uint8_t moves[DOTS_MAX_LINES])
{
    int8_t cnt[DOTS_MAX_BOXES];
    for (int b = 0; b < s->nboxes; b++)
        cnt[b] = (int8_t)sides(s, lines, b);
    int sacrifices;
    return order_moves(&s->workers[0], lines, cnt, NO_MOVE, moves, &sacrifices);
}

void dots_solver_add_bound(dots_solver *s, uint64_t lines, int lower, int upper)
{
    if ((lines & ~s->all) || lines == s->all) /* the full position is never looked up */
        return;
    int t, left = s->nboxes - boxes_complete(s, lines), bound = left + s->full_bound;
    lower = lower < -bound ? -bound : lower;
    upper = upper > bound ? bound : upper;
    if (lower <= upper)
        tt_store(s, &s->workers[0], canonical(s, lines, &t), lower, upper, NO_MOVE, 255);
}

rdb_status dots_solver_probe(dots_solver *s, uint64_t lines, int bound, int *g, uint64_t *nodes,
                             rdb_error *err)
{
    rdb_status st = check_position(s, lines, err);
    if (st != RDB_OK)
        return st;
    uint64_t before = 0, after = 0;
    for (int i = 0; i < s->opt.threads; i++)
        before += s->workers[i].nodes;
    double t0 = start_call(s);
    st = run_test(s, lines, bound, g, err);
    s->seconds += rdb_now() - t0;
    for (int i = 0; i < s->opt.threads; i++)
        after += s->workers[i].nodes;
    *nodes = after - before;
    return st;
}

void dots_solver_set_hook(dots_solver *s, double every, void (*hook)(dots_solver *, void *),
                          void *ctx)
{
    s->hook = hook;
    s->hook_ctx = ctx;
    rdb_search_clock_set_hook(&s->clock, hook != NULL, every);
}

uint64_t dots_solver_table_export(const dots_solver *s, dots_tt_entry *out, uint64_t cap,
                                  uint64_t *cursor)
{
    uint64_t n = 0, slots = (s->tt_mask + 1) * BUCKET;
    for (; *cursor < slots && n < cap; (*cursor)++) {
        uint64_t check, data, again;
        slot_read(&s->tt[*cursor], &check, &data);
        again = __atomic_load_n(&s->tt[*cursor].check, __ATOMIC_RELAXED);
        if (!data || again != check)
            continue;
        uint64_t key = check ^ data;
        /* a slot written while it was read is, almost surely, no entry of
         * its own bucket (and skipped) */
        if ((slot_hash(key) & s->tt_mask) != *cursor / BUCKET)
            continue;
        out[n++] = (dots_tt_entry){key, data_lower(data), data_upper(data), data_best(data),
                                   data_open(data)};
    }
    return n;
}

rdb_status dots_solver_table_check(const dots_solver *s, const dots_tt_entry *e, rdb_error *err)
{
    int t, open = s->nlines - __builtin_popcountll(e->key);
    if ((e->key & ~s->all) || e->key == s->all || canonical(s, e->key, &t) != e->key)
        return rdb_fail(err, RDB_E_CORRUPT, "an entry is no canonical position of the board");
    int bound = s->nboxes - boxes_complete(s, e->key) + s->full_bound;
    if (e->lower < -bound || e->upper > bound || e->lower > e->upper)
        return rdb_fail(err, RDB_E_CORRUPT, "an entry has impossible bounds [%d, %d]", e->lower,
                        e->upper);
    if (e->open != open && e->open != 255)
        return rdb_fail(err, RDB_E_CORRUPT, "an entry's open-line count %d is not its own (%d)",
                        e->open, open);
    if (e->best != NO_MOVE && (e->best < 0 || e->best >= s->nlines || (e->key >> e->best & 1)))
        return rdb_fail(err, RDB_E_CORRUPT, "an entry's best move %d is no open line", e->best);
    return RDB_OK;
}

rdb_status dots_solver_table_import(dots_solver *s, const dots_tt_entry *e, rdb_error *err)
{
    rdb_status st = dots_solver_table_check(s, e, err);
    if (st == RDB_OK && tt_half_full(s))
        tt_grow(s);
    if (st == RDB_OK)
        tt_store(s, &s->workers[0], e->key, e->lower, e->upper, e->best, e->open);
    return st;
}

void dots_solver_stats_get(const dots_solver *s, dots_solver_stats *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < s->opt.threads; i++) {
        out->nodes += s->workers[i].nodes;
        out->tt_hits += s->workers[i].tt_hits;
        out->endgames += s->workers[i].endgames;
        out->etc_cuts += s->workers[i].etc_cuts;
        out->db_hits += s->workers[i].db_hits;
    }
    for (int i = 0; i < s->opt.threads; i++)
        out->tt_entries += s->workers[i].tt_new;
    out->tt_bytes = (s->tt_mask + 1) * BUCKET * sizeof(tt_slot);
    out->tests = s->tests;
    out->seconds = s->seconds;
}

/* ---- set-up ---- */

/* Lines sorted by the distance of their middle from the board's centre
 * (ties by line id): central lines first. */
static void centre_order(dots_solver *s)
{
    const dots_board *b = &s->board;
    int dist[DOTS_MAX_LINES];
    int nh = (b->rows + 1) * b->cols;
    for (int l = 0; l < s->nlines; l++) {
        int y2, x2; /* doubled coordinates of the line's middle */
        if (l < nh) {
            y2 = 2 * (l / b->cols);
            x2 = 2 * (l % b->cols) + 1;
        } else {
            y2 = 2 * ((l - nh) / (b->cols + 1)) + 1;
            x2 = 2 * ((l - nh) % (b->cols + 1));
        }
        int dy = 2 * y2 - 2 * b->rows, dx = 2 * x2 - 2 * b->cols;
        dist[l] = dy * dy + dx * dx;
        s->order[l] = (uint8_t)l;
    }
    for (int i = 1; i < s->nlines; i++)
        for (int j = i; j > 0 && dist[s->order[j]] < dist[s->order[j - 1]]; j--) {
            uint8_t tmp = s->order[j];
            s->order[j] = s->order[j - 1];
            s->order[j - 1] = tmp;
        }
}

/* The two outer lines of each corner box (a 1-row or 1-column board has
 * corner boxes with three outer lines; only true corners of a board with
 * two rows and two columns or more are paired). */
static void find_corners(dots_solver *s)
{
    const dots_board *b = &s->board;
    s->ncorners = 0;
    if (b->rows < 2 || b->cols < 2)
        return;
    int corner_box[4] = {0, b->cols - 1, (b->rows - 1) * b->cols, b->rows * b->cols - 1};
    for (int c = 0; c < 4; c++) {
        uint64_t outer = 0;
        for (int k = 0; k < 4; k++) {
            int l = b->box_line[corner_box[c]][k];
            if (b->line_nboxes[l] == 1)
                outer |= 1ULL << l;
        }
        s->corner_pair[s->ncorners] = outer;
        s->corner_keep[s->ncorners] = outer & -outer;
        s->ncorners++;
    }
}

rdb_status dots_solver_new(const dots_board *b, int full_value, const dots_solver_options *opt,
                           dots_solver **out, rdb_error *err)
{
    *out = NULL;
    if (opt->tt_bytes < BUCKET * sizeof(tt_slot) || opt->threads < 1 || opt->threads > 256)
        return rdb_fail(err, RDB_E_INPUT, "bad solver options (table of %llu bytes, %d threads)",
                        (unsigned long long)opt->tt_bytes, opt->threads);
    if (full_value < -100 || full_value > 100)
        return rdb_fail(err, RDB_E_INPUT, "the full position's value %d is not in -100..100",
                        full_value);
    dots_solver *s = calloc(1, sizeof *s);
    if (!s)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    s->board = *b;
    s->opt = *opt;
    s->full_value = full_value;
    s->full_bound = full_value < 0 ? -full_value : full_value;
    s->nlines = b->nlines;
    s->nboxes = b->nboxes;
    s->all = dots_all_lines(b);
    dots_box_graph_fill(b, s->box_mask, s->across, &s->graph);
    centre_order(s);
    find_corners(s);
    s->tt_min_open = opt->tt_min_open;
    s->etc_min_open = opt->etc_min_open;

    s->ntransforms = b->ntransforms;
    s->nbytes = (b->nlines + 7) / 8;
    s->byte_image = calloc((size_t)b->ntransforms, sizeof *s->byte_image);
    s->workers = calloc((size_t)opt->threads, sizeof *s->workers);
    /* No more buckets than a 2048th of the positions: a small board does
     * not pay for a big table it cannot fill (3x4 fills 0.73 M entries and
     * took 0.9-1.1 s with 128 MB, 1.7-3.7 s with 1 GB, the difference
     * spent by the kernel finding and clearing pages; 2x6 takes 26.57 M
     * nodes with 128 MB against 26.53 M with 256 MB, and less time, as a
     * sixth of its time went to clearing pages). Without the rules the
     * search visits far more positions: a 64th (3x3 then takes 3.7 M
     * nodes; with a 1024th, 458 M). */
    const int shift = opt->rules == DOTS_RULES_NONE ? 6 : 11;
    uint64_t buckets = 1, most = 1ULL << (b->nlines > 40 + shift ? 40
                                          : b->nlines <= shift ? 1
                                                              : b->nlines - shift);
    while (buckets * 2 * BUCKET * sizeof(tt_slot) <= opt->tt_bytes && buckets < most)
        buckets *= 2;
    /* --tt-mb is a ceiling: the table starts at 16 MB and grows (tt_grow)
     * as the search fills it, so that a small search does not pay the
     * kernel for clearing pages it scatters a few entries over. */
    s->tt_most = buckets;
    uint64_t start = TT_START_BUCKETS;
    if (opt->tt_start_bytes) {
        start = 1;
        while (start * 2 * BUCKET * sizeof(tt_slot) <= opt->tt_start_bytes)
            start *= 2;
    }
    if (buckets > start)
        buckets = start;
    /* zeroed pages from the kernel, on huge pages where it gives them (the
     * table is touched at random, so small pages cost a fault each, most
     * of the time of a short solve) */
    s->tt = rdb_huge_alloc(buckets * BUCKET * sizeof(tt_slot));
    s->tt_mask = buckets - 1;
    if (!s->byte_image || !s->workers || !s->tt) {
        dots_solver_free(s);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for a table of %llu MB",
                        (unsigned long long)(opt->tt_bytes >> 20));
    }
    for (int t = 0; t < b->ntransforms; t++) {
        for (int l = 0; l < b->nlines; l++) {
            s->inverse[t][b->transform[t][l]] = (uint8_t)l;
            for (int v = 0; v < 256; v++)
                if (v >> (l % 8) & 1)
                    s->byte_image[t][l / 8][v] |= 1ULL << b->transform[t][l];
        }
    }
    for (int i = 0; i < opt->threads; i++) {
        s->workers[i].s = s;
        s->workers[i].id = i;
    }
    *out = s;
    return RDB_OK;
}

void dots_solver_free(dots_solver *s)
{
    if (!s)
        return;
    free(s->byte_image);
    free(s->workers);
    if (s->tt)
        rdb_huge_free(s->tt, (s->tt_mask + 1) * BUCKET * sizeof(tt_slot));
    free(s);
}
