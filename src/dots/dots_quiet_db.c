/*
 * dots_quiet_db.c — valuing positions from quiet ones; see dots_quiet_db.h.
 *
 * A stored position's value is the best over its open lines of the edge
 * rule (b + v(child) when the line completes b > 0 boxes, else
 * -v(child)), where v(child) comes through the capture rules from quiet
 * positions of higher levels, all of them already built. Positions of a
 * level are computed frame state by frame state, shared between threads.
 */
#include "dots/dots_quiet_db.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/job.h"
#include "dots/dots_capture.h"
#include "dots/dots_corridors.h"

struct dots_quiet_rules {
    dots_board b;
    uint64_t start, all, open;
    int full_value;
    int half, start_lines; /* a half database (dots_quiet_db.h) */
    dots_quiet_index *index;
    uint64_t box_mask[DOTS_MAX_BOXES];
    int8_t across[DOTS_MAX_LINES][2];
    dots_box_graph graph;
};

rdb_status dots_quiet_rules_new(const dots_board *b, uint64_t start, int full_value, int half,
                                dots_quiet_rules **out, rdb_error *err)
{
    dots_quiet_rules *r = calloc(1, sizeof *r);
    if (!r)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the quiet database");
    r->b = *b;
    r->start = start;
    r->all = dots_all_lines(b);
    r->open = r->all & ~start;
    r->full_value = full_value;
    r->half = half != 0;
    r->start_lines = __builtin_popcountll(start);
    dots_box_graph_fill(b, r->box_mask, r->across, &r->graph);
    rdb_status st = dots_quiet_index_new(b, start, r->half, &r->index, err);
    if (st != RDB_OK) {
        free(r);
        return st;
    }
    *out = r;
    return RDB_OK;
}

void dots_quiet_rules_free(dots_quiet_rules *r)
{
    if (!r)
        return;
    dots_quiet_index_free(r->index);
    free(r);
}

rdb_status dots_quiet_rules_prepare(dots_quiet_rules *r, int lookups, rdb_error *err)
{
    return lookups ? dots_quiet_index_prepare_lookups(r->index, err)
                   : dots_quiet_index_prepare(r->index, err);
}

const dots_quiet_index *dots_quiet_rules_index(const dots_quiet_rules *r)
{
    return r->index;
}

int dots_quiet_rules_half(const dots_quiet_rules *r)
{
    return r->half;
}

/* ---- a half database's bytes ---- */

/* The class a half database keeps at a level: the one whose positions
 * have an even number of lines and completed boxes together. */
static inline int kept_class(const dots_quiet_rules *r, int level)
{
    return (level + r->start_lines) & 1;
}

int dots_quiet_kept_class(const dots_quiet_rules *r, int level)
{
    return kept_class(r, level);
}

/* A value's parity is fixed by its position's class: it is the parity of
 * the boxes left (the net score of n boxes is n less twice the loser's)
 * and of the full board's value. A half database stores each value
 * halved, that parity taken off first: the same information in half the
 * range, which compresses better (a class a slice, so the parity is the
 * slice's own). */
static inline int value_parity(const dots_quiet_rules *r, int class)
{
    return (r->b.nboxes - class + r->full_value) & 1;
}

static inline int stored_byte(const dots_quiet_rules *r, int class, int value)
{
    return r->half ? (value - value_parity(r, class)) / 2 : value;
}

static inline int byte_value(const dots_quiet_rules *r, int class, int byte)
{
    return r->half ? 2 * byte + value_parity(r, class) : byte;
}

/* What one lookup (dots_quiet_value) has met of the capture rules'
 * positions, remembered in a small direct-mapped table: the rules take
 * touching runs a box at a time in every order, and a position with many
 * boxes of three sides took seconds without it (a random 4x4 position of
 * 24 lines: 1.7 s). */
#define LOOKUP_MEMO_LOG2 10

typedef struct {
    uint64_t lines[1 << LOOKUP_MEMO_LOG2];
    int8_t value[1 << LOOKUP_MEMO_LOG2]; /* INT8_MIN: empty (any lines may be asked,
                                            the empty board's 0 too) */
} lookup_memo;

/* dots_capture_value's view of a fetch: canonical form, level, index. */
typedef struct {
    const dots_quiet_rules *r;
    dots_quiet_fetch_fn fetch;
    void *ctx;
    lookup_memo *memo;
} fetch_quiet;

/* A position's lines times an odd constant: a one-to-one map of 64-bit
 * words whose top bits make a slot of a direct-mapped table (the
 * lookup's memo here, a build's leaf table below, which keeps the other
 * bits to give the lines back). */
#define LEAF_HASH 0x9e3779b97f4a7c15ULL

/* A position's slot in a direct-mapped table of 2^log2 entries. */
static inline unsigned memo_slot(uint64_t lines, int log2)
{
    return (unsigned)((lines * LEAF_HASH) >> (64 - log2));
}

static int lookup_known(void *ctx, uint64_t lines, int *value)
{
    const lookup_memo *m = ((const fetch_quiet *)ctx)->memo;
    if (!m)
        return 0;
    const unsigned slot = memo_slot(lines, LOOKUP_MEMO_LOG2);
    *value = m->value[slot];
    return m->lines[slot] == lines && *value != INT8_MIN;
}

static void lookup_remember(void *ctx, uint64_t lines, int value)
{
    lookup_memo *m = ((fetch_quiet *)ctx)->memo;
    const unsigned slot = memo_slot(lines, LOOKUP_MEMO_LOG2);
    if (m && value > INT8_MIN && value <= INT8_MAX) {
        m->lines[slot] = lines;
        m->value[slot] = (int8_t)value;
    }
}

static const dots_capture_memo one_lookup_memo = {lookup_known, lookup_remember};

static int quiet_value(void *ctx, uint64_t lines, int *value);

/* The value of a quiet position from its moves: none completes a box
 * (none has three sides), so each is worth minus its child's value, the
 * child valued through the capture rules. */
static int value_by_moves(const dots_quiet_rules *r, uint64_t lines, dots_quiet_value_fn child_value,
                          void *ctx, int *value)
{
    if (lines == r->all) {
        *value = r->full_value;
        return 0;
    }
    int best = INT_MIN;
    for (uint64_t m = r->all & ~lines; m; m &= m - 1) {
        int v, st = dots_capture_value_memo(&r->graph, r->all, r->full_value, lines | (m & -m),
                                            child_value, &one_lookup_memo, ctx, &v);
        if (st)
            return st;
        if (-v > best)
            best = -v;
    }
    *value = best;
    return 0;
}

/* A quiet position's value: stored, or in a half database, of the class
 * it does not keep, from the position's moves (their children are of the
 * kept class but for cycles and knots: see dots_quiet_class). */
static int quiet_value(void *ctx, uint64_t lines, int *value)
{
    const fetch_quiet *f = ctx;
    const dots_quiet_rules *r = f->r;
    uint64_t c = dots_quiet_canonical(r->index, lines);
    const int level = __builtin_popcountll(c & r->open);
    const int class = r->half ? dots_quiet_class(r->index, c) : 0;
    if (r->half && class != kept_class(r, level))
        return value_by_moves(r, c, quiet_value, ctx, value);
    int byte = 0, st = f->fetch(f->ctx, level, dots_quiet_rank(r->index, c), &byte);
    *value = byte_value(r, class, byte);
    return st;
}

int dots_quiet_value(const dots_quiet_rules *r, uint64_t lines, dots_quiet_fetch_fn fetch,
                     void *ctx, int *value)
{
    lookup_memo *memo = malloc(sizeof *memo);
    if (!memo) /* the rules without a memo: slower, the same value */
        return dots_capture_value(&r->graph, r->all, r->full_value, lines, quiet_value,
                                  &(fetch_quiet){r, fetch, ctx, NULL}, value);
    memset(memo->value, INT8_MIN, sizeof memo->value);
    fetch_quiet f = {r, fetch, ctx, memo};
    const int st = dots_capture_value_memo(&r->graph, r->all, r->full_value, lines, quiet_value,
                                           &one_lookup_memo, &f, value);
    free(memo);
    return st;
}

/* ---- a level from the levels above ---- */

static int fetch_above(void *ctx, int level, uint64_t index, int *value)
{
    const int8_t *const *above = ctx;
    *value = above[level][index];
    return 0;
}

/* The quiet positions that capture runs end in (a corridor's lines all
 * drawn, or a knot's captures followed), remembered by each thread in a
 * table of 2^LEAF_SLOTS_LOG2 direct-mapped entries: they meet often, within a
 * stored position (the two open lines of a box with two sides lead, once
 * it is taken, to the same position) and across the positions of a frame
 * state, which differ in a few lines (on 4x4, half of the lookups of
 * corridors' positions hit a table of 2^16 entries; 2^12, 2^14 and 2^16
 * build it equally fast; on 4x5's level 21, whose frame states are
 * bigger, 2^16 takes 2% less time than 2^14 and 2^18 3% more than 2^16).
 * A stored value never changes once its level is built, so an entry
 * stays right for the whole level; the table lives as long as the
 * level's computation. */
#define LEAF_SLOTS_LOG2 16

/* Rankers (dots_quiet_rank_next) for the lookups in other frame states:
 * one for each line, for the children by that line of a frame state's
 * positions, which come in order; and some for the leaves, picked by
 * level and frame state. A ranker reads the steps where a position
 * differs from the one it ranked last, all of them when that one was of
 * another frame state: with 16 rankers, the leaves of a batch's few
 * frame states shared them and 4x5's level 20 read 6.9 steps a leaf;
 * with 64, 4.3 (256, 4.3). With the one-word entries below, the level
 * took 4% less time (scripts/bench_quiet_part.sh against 4e8b330: the
 * median of 7 pairs, 0.93 to 1.05). */
#define LEAF_RANKERS 64

/* A leaf table entry is one word, so that a lookup reads one cache line
 * (two arrays, lines and values, took two): the leaf's lines times an
 * odd constant (a one-to-one map of 64-bit words), whose top bits are
 * its slot and whose other bits are kept, so that slot and entry give
 * the lines back exactly; then its value, and a bit set when the entry
 * is used. */
#define LEAF_HASH_BITS 48
#define LEAF_LOW ((1ULL << LEAF_HASH_BITS) - 1)
#define LEAF_USED (1ULL << 63)
_Static_assert(64 - LEAF_SLOTS_LOG2 <= LEAF_HASH_BITS, "a slot and an entry's bits hold the lines");

typedef struct {
    uint64_t entry[1 << LEAF_SLOTS_LOG2];
    dots_quiet_ranker by_line[DOTS_MAX_LINES];
    dots_quiet_ranker for_leaves[LEAF_RANKERS];
    dots_quiet_ranker for_moves; /* a half database's positions valued from their moves */
    /* the first rows' sums (dots_quiet_rank_memo) of the children by
     * frame lines of another symmetry, and of the leaves ranked whole:
     * two memos, since the leaves' keys would push out the children's
     * (measured: one memo for both gained nothing) */
    dots_quiet_memo memo, leaf_memo;
} leaf_table;

/* Positions whose quiet children are looked up together: each line's
 * children of a batch in turn, so that the tables of the frame state and
 * the part of the level those children lie in stay in the cache (on 4x5,
 * whose index is 1.8 GB, a lookup costs mostly the misses of its reads). */
#define CHILD_BATCH 256
#define LEAF_BATCH (4 * CHILD_BATCH)

/* The leaves a batch ranks before it reads their values (flush_children) */
#define LEAVES_AHEAD 8

/* The children by frame lines that hold every line of their position
 * (dots_quiet_rank_head) share a few cuts: the tails of the batch's
 * positions are kept for at most this many (a frame state's frame lines
 * are fewer on every board the index takes). */
#define FRAME_CUTS 24

typedef struct {
    uint64_t lines, canonical; /* the leaf */
    uint64_t tail;             /* its position's entries from cut on */
    int16_t at;                /* the position's place in the batch */
    int8_t kind, run;          /* its corridor (dots_corridor_best) */
    uint8_t group;             /* the leaf ranker (for_leaves) */
    int8_t cut;                /* -1: ranked whole */
} pending_leaf;

/* Positions whose quiet children are still to be looked up, line by line
 * for a batch of them (see flush_children), with the lookups of their
 * corridors' ends: a thread's, on the heap (90 KB, more than a thread's
 * stack should hold where a program's threads may have small ones). */
typedef struct {
    uint64_t lines[CHILD_BATCH], index[CHILD_BATCH], quiet[CHILD_BATCH];
    int best[CHILD_BATCH];
    uint64_t tail[CHILD_BATCH][FRAME_CUTS]; /* each position's entries from each cut on */
    uint32_t entry[CHILD_BATCH][DOTS_QUIET_MAX_STEPS]; /* and its entries (dots_quiet_path_entries) */
    int8_t changed[CHILD_BATCH]; /* the first of them that differs from the position before's */
    /* For each frame line whose child is canonical as it is, what the
     * children by it of the frame state's positions share
     * (dots_quiet_frame_child_steps) */
    dots_quiet_frame_child direct[DOTS_MAX_LINES];
    /* The batch's corridors whose leaf was not in the leaf table, looked
     * up a ranker's group at a time */
    pending_leaf pending[LEAF_BATCH];
    /* flush_children's: the positions with a child by the line at hand,
     * and each child's rank (or, when its level is not read, the child) */
    int16_t child[CHILD_BATCH];
    uint64_t found[CHILD_BATCH];
    /* and for children ranked from their position's entries, the first
     * step changed since the child before and the tail */
    int8_t from[CHILD_BATCH];
    uint64_t child_tail[CHILD_BATCH];
} child_batch;

typedef struct {
    const dots_quiet_rules *r;
    rdb_chunk_view *above;
    uint64_t dropped;   /* a half database: levels whose other class is gone (bit = level) */
    int class;          /* the positions' class (a half database's: it stores them halved) */
    int8_t *out;        /* the values of positions base.. */
    uint64_t base;
    int overflow;
    leaf_table *leaves;
    uint64_t position;  /* the stored position being computed */
    const dots_quiet_path *path; /* and where the enumeration stands at it */
    int nbatch, npending; /* in the batch below */
    child_batch *batch;
    uint64_t computed;  /* positions computed (a sample counts them) */
    /* The canonical form of the children by each open frame line of the
     * frame state's positions, in two parts (dots_quiet_transform):
     * made at its first position. */
    int frame_ready;
    uint64_t frame_part[DOTS_MAX_LINES];
    int8_t transform[DOTS_MAX_LINES];
    int child_slot[DOTS_MAX_LINES]; /* and its slot */
    /* For a line whose child keeps the inside lines as they are, the
     * number of its cut among the frame state's (-1: ranked whole) */
    int8_t cut_of[DOTS_MAX_LINES];
    /* For a line whose child is canonical as it is (the identity, the
     * position's frame lines and the line), its last read: the child is
     * ranked from the position's entries (dots_quiet_frame_children_rank);
     * -1: by the line's ranker */
    int8_t direct_last[DOTS_MAX_LINES];
    int ndirect;
    int ncuts;
    int cut[FRAME_CUTS];
    /* Moves that lead where a lower line of their class leads
     * (dots_quiet_twin_moves), the same for every position of the frame
     * state: skipped (on 4x5, 2.4% of the quiet children) */
    uint64_t twins;
    /* What the rules and `dropped` fix for every lookup, made once
     * (level_work_ready): read from the rules at each lookup, they were
     * read again after each value written, which may be any byte of
     * them as far as the compiler knows (2% of 3x5's instructions) */
    uint64_t inside;            /* the index's inside lines */
    int nframes;                /* frame states: a slot of this number or more is of
                                   class 1 (dots_quiet_slot_class) */
    uint64_t stored_levels[2];  /* bit L: stored_above(L, class) */
    int value_mul, value_add[2]; /* byte_value: value = byte x mul + add[class] */
} level_work;

static int value_from_moves(level_work *w, uint64_t canonical);

/* The fields of w that follow from its rules and `dropped`. */
static void level_work_ready(level_work *w)
{
    const dots_quiet_rules *r = w->r;
    w->inside = dots_quiet_inside_lines(r->index);
    /* dots_quiet_frames counts slots: twice the frame states when split */
    w->nframes = dots_quiet_frames(r->index) >> dots_quiet_split(r->index);
    w->value_mul = r->half ? 2 : 1;
    for (int class = 0; class < 2; class++) {
        w->value_add[class] = byte_value(r, class, 0);
        /* not in a half database once a level's other class is gone */
        w->stored_levels[class] = 0;
        for (int level = 0; level < 64; level++)
            if (!r->half || class == kept_class(r, level) || !(w->dropped >> level & 1))
                w->stored_levels[class] |= 1ULL << level;
    }
}

/* Whether the values of a class at a level above are read from it. */
static inline int stored_above(const level_work *w, int level, int class)
{
    return level >= 64 || (w->stored_levels[class] >> level & 1);
}

/* byte_value with w's fields. */
static inline int value_of_byte(const level_work *w, int class, int byte)
{
    return byte * w->value_mul + w->value_add[class];
}

/* dots_quiet_slot_class without the call into the index. */
static inline int slot_class(const level_work *w, int slot)
{
    return slot >= w->nframes;
}

/* The value of canonical position `index` of a level above, of a class;
 * in a half database, a position of the class a level keeps not, once
 * that level's are gone, from its moves. */
static inline int value_above(level_work *w, int level, int class, uint64_t index,
                              uint64_t canonical)
{
    if (!stored_above(w, level, class))
        return value_from_moves(w, canonical);
    return value_of_byte(w, class, rdb_chunk_value(w->above, level, index));
}

/* The rank of a canonical position of a level above by rk:
 * from `tail`, the entries of the steps from `cut` on that it shares
 * with the position it holds every line of (dots_quiet_rank_head), or
 * whole when cut < 0. */
static inline uint64_t rank_above(level_work *w, dots_quiet_ranker *rk, uint64_t canonical, int cut,
                                  uint64_t tail)
{
    const dots_quiet_index *q = w->r->index;
    return cut < 0 ? dots_quiet_rank_next_memo(q, rk, &w->leaves->leaf_memo, canonical)
                   : dots_quiet_rank_head(q, rk, canonical, cut, tail);
}

/* The same with its value. */
static inline int lookup_ranked(level_work *w, dots_quiet_ranker *rk, uint64_t canonical, int cut,
                                uint64_t tail)
{
    const uint64_t index = rank_above(w, rk, canonical, cut, tail);
    /* the ranker's slot tells the class */
    return value_above(w, __builtin_popcountll(canonical & w->r->open), slot_class(w, rk->frame),
                       index, canonical);
}

/* The cut and the tail a canonical position shares with the position
 * being computed, when it holds all its lines; -1 otherwise (or after
 * the walk, its path gone). */
static inline int shared_tail(const level_work *w, uint64_t canonical, uint64_t *tail)
{
    const dots_quiet_index *q = w->r->index;
    *tail = 0;
    if (!w->path || (canonical & w->position) != w->position)
        return -1;
    const int cut = dots_quiet_cut(q, canonical & ~w->position);
    *tail = dots_quiet_path_tail(q, w->path, cut);
    return cut;
}

/* The same at once, from the position being computed when it can. */
static inline int lookup_above(level_work *w, dots_quiet_ranker *rk, uint64_t canonical)
{
    uint64_t tail;
    const int cut = shared_tail(w, canonical, &tail);
    return lookup_ranked(w, rk, canonical, cut, tail);
}

/* Whether quiet position `lines` is the position being computed with
 * some inside lines more: then it keeps the frame state (it is canonical
 * as it is) and is ranked from the enumeration's path. */
static inline int inside_descendant(const level_work *w, uint64_t lines)
{
    return w->path && (lines & w->position) == w->position &&
           !(lines & ~w->position & ~w->inside);
}

static inline int inside_value(level_work *w, uint64_t lines)
{
    const dots_quiet_rules *r = w->r;
    int slot;
    const uint64_t at =
        dots_quiet_inside_rank(r->index, w->path, w->position, lines & ~w->position, &slot);
    return value_above(w, __builtin_popcountll(lines & r->open), slot_class(w, slot),
                       at, lines);
}

/* Whether leaf `lines` is in the leaf table, and its value. */
static inline int leaf_remembered(const level_work *w, uint64_t lines, int *value)
{
    const uint64_t h = lines * LEAF_HASH;
    const uint64_t e = w->leaves->entry[h >> (64 - LEAF_SLOTS_LOG2)];
    *value = (int8_t)(e >> LEAF_HASH_BITS);
    return (e & (LEAF_LOW | LEAF_USED)) == ((h & LEAF_LOW) | LEAF_USED);
}

/* Asks the processor for leaf `lines`'s entry, to be read a little later. */
static inline void leaf_prefetch(const level_work *w, uint64_t lines)
{
    __builtin_prefetch(&w->leaves->entry[(lines * LEAF_HASH) >> (64 - LEAF_SLOTS_LOG2)]);
}

static inline void leaf_remember(level_work *w, uint64_t lines, int value)
{
    const uint64_t h = lines * LEAF_HASH;
    w->leaves->entry[h >> (64 - LEAF_SLOTS_LOG2)] =
        (h & LEAF_LOW) | (uint64_t)(uint8_t)value << LEAF_HASH_BITS | LEAF_USED;
}

/* The canonical form of a leaf of the stored position w->position, and
 * the leaf ranker for it: one picked by level and frame state, so that
 * leaves ranked by one ranker share their frame state's tables. */
static inline uint64_t leaf_canonical(const level_work *w, uint64_t lines, unsigned *group)
{
    /* drawn inside lines keep the frame state and so the symmetry that
     * makes the stored position canonical: canonical as it is */
    const uint64_t inside = w->inside;
    const uint64_t canonical =
        (lines & ~w->position & ~inside) ? dots_quiet_canonical(w->r->index, lines) : lines;
    const uint64_t key = (canonical & ~inside) * 0x9e3779b97f4a7c15ULL;
    *group = (unsigned)((key >> 40) ^ (uint64_t)__builtin_popcountll(canonical)) % LEAF_RANKERS;
    return canonical;
}

/* Any position's quiet value in a level's computation (a child of a
 * position valued from its moves: not a superset of w->position once
 * made canonical, so canonical here), remembered in the leaf table. */
static int fetch_any(void *ctx, uint64_t lines, int *value)
{
    level_work *w = ctx;
    if (leaf_remembered(w, lines, value))
        return 0;
    *value = inside_descendant(w, lines)
                 ? inside_value(w, lines)
                 : lookup_above(w, &w->leaves->for_moves, dots_quiet_canonical(w->r->index, lines));
    leaf_remember(w, lines, *value);
    return 0;
}

/* A position of a dropped class, from its moves (rare: the children and
 * leaves of a stored position are of the other class but for cycles and
 * knots, and those of the levels just above are kept while they are
 * read most): as compute_one values a stored position, a corridor at a
 * time and the long ones only when they can beat the best move met, but
 * each lookup at once. */
static int value_from_moves(level_work *w, uint64_t canonical)
{
    const dots_quiet_rules *r = w->r;
    int v;
    if (leaf_remembered(w, canonical, &v))
        return v;
    dots_corridor corridor[DOTS_MAX_BOXES];
    const int ncorridors = dots_corridors(&r->graph, canonical, corridor);
    uint64_t by_corridor = 0;
    for (int i = 0; i < ncorridors; i++)
        by_corridor |= corridor[i].lines;
    int best = INT_MIN;
    for (uint64_t m = r->all & ~canonical & ~by_corridor; m; m &= m - 1) {
        /* a quiet child: it does not fill the board */
        fetch_any(w, canonical | (m & -m), &v);
        if (-v > best)
            best = -v;
    }
    /* then the corridors, but for those that cannot beat the best move
     * met (dots_corridor_most) */
    for (int i = 0; i < ncorridors; i++) {
        if (dots_corridor_most(&corridor[i]) <= best)
            continue;
        const uint64_t taken = canonical | corridor[i].taken;
        if (taken == r->all)
            v = r->full_value;
        else
            fetch_any(w, taken, &v);
        v = dots_corridor_best(&corridor[i], v);
        if (v > best)
            best = v;
    }
    leaf_remember(w, canonical, best);
    return best;
}

/* The lookups the batch's positions left: first their quiet children,
 * a line at a time, each ranked by its line's ranker from the same line's
 * child of the position before; then the positions their corridors lead
 * to, a leaf ranker at a time, but for corridors that cannot beat the
 * best move found (dots_corridor_most); then the batch's values. */
static void flush_children(level_work *w)
{
    const dots_quiet_rules *r = w->r;
    const uint64_t inside = w->inside;
    uint64_t lines_met = 0;
    for (int i = 0; i < w->nbatch; i++)
        lines_met |= w->batch->quiet[i];
    /* the batch's positions are of one frame state and level: so are
     * their children by one frame line */
    const int level = w->nbatch ? __builtin_popcountll(w->batch->lines[0] & r->open) + 1 : 0;
    /* and of its class, whose values are read unless a half database
     * has dropped them at that level */
    const int stored = stored_above(w, level, w->class);
    for (; lines_met; lines_met &= lines_met - 1) {
        const int line = __builtin_ctzll(lines_met), c = w->cut_of[line];
        const int direct = w->direct_last[line];
        dots_quiet_ranker *rk = &w->leaves->by_line[line];
        /* the line's children come in order (under the identity) and
         * mostly in one chunk: read from it while they are (4x5's level
         * 20: 3% less time, scripts/bench_quiet_part.sh, the median of 5
         * pairs, 0.90 to 1.05; reading none of these values at all would
         * save 8%) */
        uint64_t held = UINT64_MAX;
        const int8_t *data = NULL;
        /* every child's rank first, its byte asked of the processor as
         * soon as it is known; then the bytes, by then in the cache: a
         * line's children are a chunk's bytes far apart, so each read
         * was a miss the ranks after it now hide */
        child_batch *b = w->batch;
        int n = 0;
        const int from_entries = direct >= 0 && stored;
        if (from_entries) {
            /* canonical as they are: ranked from their positions' entries,
             * the line's at once, each child's from the first step changed
             * since the child before (b->from) */
            int from = 0;
            for (int i = 0; i < w->nbatch; i++) {
                if (b->changed[i] < from)
                    from = b->changed[i];
                if (!(b->quiet[i] >> line & 1))
                    continue;
                b->child[n] = (int16_t)i;
                b->from[n] = (int8_t)from;
                b->child_tail[n++] = b->tail[i][c];
                from = direct + 1;
            }
            uint64_t sum[DOTS_QUIET_MAX_STEPS + 1];
            sum[0] = 0;
            dots_quiet_frame_children_rank(r->index, &b->direct[line], level, sum, n, b->child,
                                           b->from, (const uint32_t(*)[DOTS_QUIET_MAX_STEPS])b->entry,
                                           b->lines, b->child_tail, b->found);
            for (int k = 0; k < n; k++)
                rdb_chunk_prefetch(w->above, level, b->found[k]);
        }
        /* the others by the line's ranker (or not ranked: a level not read) */
        for (int i = 0; i < w->nbatch && !from_entries; i++) {
            if (!(b->quiet[i] >> line & 1))
                continue;
            /* (the identity's image, the commonest, without a call) */
            const uint64_t canonical =
                w->frame_part[line] |
                (w->transform[line] ? dots_quiet_image(r->index, w->transform[line],
                                                       b->lines[i] & inside)
                                    : b->lines[i] & inside);
            b->child[n] = (int16_t)i;
            if (!stored) {
                b->found[n++] = canonical;
                continue;
            }
            /* of another symmetry than the identity, the rows may be
             * reversed: the first rows' sums from the memo */
            const uint64_t at =
                w->transform[line] != 0
                    ? dots_quiet_rank_memo(r->index, rk, &w->leaves->memo, canonical,
                                           w->child_slot[line], level)
                    : dots_quiet_rank_at(r->index, rk, canonical, c < 0 ? -1 : w->cut[c],
                                         c < 0 ? 0 : b->tail[i][c], w->child_slot[line], level);
            rdb_chunk_prefetch(w->above, level, at);
            b->found[n++] = at;
        }
        for (int k = 0; k < n; k++) {
            int v;
            if (stored) {
                const uint64_t at = b->found[k];
                if (at >> RDB_CHUNK_SHIFT != held) {
                    held = at >> RDB_CHUNK_SHIFT;
                    data = rdb_chunk_data(w->above, level, held);
                }
                const int byte = data ? data[at & (RDB_CHUNK_ENTRIES - 1)] : 0;
                v = -value_of_byte(w, w->class, byte);
            } else {
                v = -value_from_moves(w, b->found[k]);
            }
            if (v > b->best[b->child[k]])
                b->best[b->child[k]] = v;
        }
    }
    /* the leaves, in order of their rankers (a counting sort) */
    int start[LEAF_RANKERS + 1] = {0};
    int16_t order[LEAF_BATCH];
    for (int i = 0; i < w->npending; i++)
        start[w->batch->pending[i].group + 1]++;
    for (int g = 0; g < LEAF_RANKERS; g++)
        start[g + 1] += start[g];
    for (int i = 0; i < w->npending; i++)
        order[start[w->batch->pending[i].group]++] = (int16_t)i;
    /* LEAVES_AHEAD at a time: their ranks, each byte asked of the
     * processor as it is known, then their values (a leaf whose corridor
     * cannot beat its position's best move is skipped, and the best moves
     * grow as values come: the more at a time, the fewer skipped) */
    for (int k0 = 0; k0 < w->npending; k0 += LEAVES_AHEAD) {
        const int k1 = k0 + LEAVES_AHEAD < w->npending ? k0 + LEAVES_AHEAD : w->npending;
        struct {
            uint64_t index;
            int16_t leaf;
            int8_t level, class;
        } ranked[LEAVES_AHEAD];
        int n = 0;
        for (int k = k0; k < k1; k++) {
            const pending_leaf *p = &w->batch->pending[order[k]];
            const dots_corridor c = {.run = p->run, .kind = p->kind};
            if (dots_corridor_most(&c) <= w->batch->best[p->at])
                continue;
            dots_quiet_ranker *rk = &w->leaves->for_leaves[p->group];
            const int level = __builtin_popcountll(p->canonical & r->open);
            const uint64_t index = rank_above(w, rk, p->canonical, p->cut, p->tail);
            /* the ranker's slot tells the class */
            const int class = slot_class(w, rk->frame);
            if (stored_above(w, level, class))
                rdb_chunk_prefetch(w->above, level, index);
            ranked[n++] = (typeof(ranked[0])){index, order[k], (int8_t)level, (int8_t)class};
        }
        for (int j = 0; j < n; j++) {
            const pending_leaf *p = &w->batch->pending[ranked[j].leaf];
            const dots_corridor c = {.run = p->run, .kind = p->kind};
            const int v =
                value_above(w, ranked[j].level, ranked[j].class, ranked[j].index, p->canonical);
            leaf_remember(w, p->lines, v);
            const int candidate = dots_corridor_best(&c, v);
            if (candidate > w->batch->best[p->at])
                w->batch->best[p->at] = candidate;
        }
    }
    w->npending = 0;
    for (int i = 0; i < w->nbatch; i++) {
        const int byte = stored_byte(r, w->class, w->batch->best[i]);
        w->overflow |= byte < INT8_MIN || byte > INT8_MAX;
        w->out[w->batch->index[i] - w->base] = (int8_t)byte;
    }
    w->nbatch = 0;
}

/* The canonical form of the children by each open frame line of the
 * positions of a frame state (of which `lines` is one), in two parts
 * (dots_quiet_transform); and the cuts of those that hold all their
 * position's lines (the identity's image, with the line drawn or another
 * of its class: dots_quiet_rank_head). */
static void frame_children_ready(level_work *w, uint64_t lines)
{
    const dots_quiet_rules *r = w->r;
    const uint64_t inside = w->inside, frame = lines & ~inside;
    w->ncuts = w->ndirect = 0;
    w->twins = dots_quiet_twin_moves(r->index, lines);
    const int slot = dots_quiet_frame_slot(r->index, lines, w->class);
    for (uint64_t m = r->all & ~inside & ~lines; m; m &= m - 1) {
        const int line = __builtin_ctzll(m);
        const uint64_t child = frame | (m & -m);
        w->frame_part[line] = dots_quiet_canonical(r->index, child);
        w->transform[line] = (int8_t)dots_quiet_transform(r->index, child);
        /* a quiet child completes no box: the position's class */
        w->child_slot[line] = dots_quiet_frame_slot(r->index, w->frame_part[line], w->class);
        w->cut_of[line] = w->direct_last[line] = -1;
        /* the identity's image keeps the inside lines as they are */
        if (w->transform[line] != 0 || (w->frame_part[line] & frame) != frame)
            continue;
        const int cut = dots_quiet_cut(r->index, w->frame_part[line] & ~frame);
        int c = 0;
        while (c < w->ncuts && w->cut[c] != cut)
            c++;
        if (c == FRAME_CUTS)
            continue;
        if (c == w->ncuts)
            w->cut[w->ncuts++] = cut;
        w->cut_of[line] = (int8_t)c;
        if (w->frame_part[line] == child) {
            w->direct_last[line] = (int8_t)dots_quiet_frame_child_steps(
                r->index, slot, w->child_slot[line], line, &w->batch->direct[line]);
            w->ndirect++;
        }
    }
    w->frame_ready = 1;
}

/* The best move of a stored position. A line that gives none of its
 * boxes a third side leads to a quiet child: by an inside line, ranked
 * from the enumeration's path at once; by a frame line, in another frame
 * state, looked up with the batch's (flush_children). The others open
 * corridors (dots_corridors.h), each valued from the position its
 * capture leads to: at once when that keeps the frame state or is in
 * the leaf table, else with the batch's; not at all when the corridor
 * cannot beat the best move met (dots_corridor_most). */
static void compute_one(void *ctx, uint64_t index, uint64_t lines, const dots_quiet_path *path)
{
    level_work *w = ctx;
    const dots_quiet_rules *r = w->r;
    const uint64_t inside = w->inside;
    w->computed++;
    if (lines == r->all) {
        w->out[index - w->base] = (int8_t)stored_byte(r, w->class, r->full_value);
        return;
    }
    w->position = lines;
    w->path = path;
    if (w->npending + DOTS_MAX_BOXES > LEAF_BATCH)
        flush_children(w);
    if (!w->frame_ready)
        frame_children_ready(w, lines);
    dots_corridor corridor[DOTS_MAX_BOXES];
    const int ncorridors = dots_corridors(&r->graph, lines, corridor);
    uint64_t by_corridor = 0;
    for (int i = 0; i < ncorridors; i++) {
        by_corridor |= corridor[i].lines;
        /* read after the inside children's lookups, which hide the miss */
        leaf_prefetch(w, lines | corridor[i].taken);
    }
    /* every other line gives no box a third side (and so completes none,
     * and does not fill the board): a quiet child of the position's class
     * (its slot's); those by inside lines first, ranked from the path at
     * once, so that the corridors below meet a best move already */
    const uint64_t quiet = r->all & ~lines & ~by_corridor & ~w->twins;
    const int child_level = __builtin_popcountll(lines & r->open) + 1;
    int best = INT_MIN;
    for (uint64_t m = quiet & inside; m; m &= m - 1) {
        const uint64_t at = dots_quiet_inside_child(r->index, path, lines, __builtin_ctzll(m));
        const int v = -value_above(w, child_level, w->class, at, lines | (m & -m));
        if (v > best)
            best = v;
    }
    /* The capture moves a corridor at a time (dots_corridors.h): one
     * lookup for all the lines of each, none for a long one that cannot
     * beat the best move met (dots_corridor_most). */
    for (int i = 0; i < ncorridors; i++) {
        if (dots_corridor_most(&corridor[i]) <= best)
            continue;
        const uint64_t taken = lines | corridor[i].taken;
        int v = r->full_value;
        if (taken != r->all && !leaf_remembered(w, taken, &v)) {
            if (corridor[i].taken & ~inside) {
                /* in another frame state: looked up with the batch's
                 * (flush_children) */
                unsigned group;
                uint64_t tail;
                const uint64_t canonical = leaf_canonical(w, taken, &group);
                const int cut = shared_tail(w, canonical, &tail);
                w->batch->pending[w->npending++] = (pending_leaf){
                    taken, canonical, tail, (int16_t)w->nbatch, (int8_t)corridor[i].kind,
                    (int8_t)corridor[i].run, (uint8_t)group, (int8_t)cut};
                continue;
            }
            /* in the position's frame state: ranked from the path at once */
            v = inside_value(w, taken);
            leaf_remember(w, taken, v);
        }
        v = dots_corridor_best(&corridor[i], v);
        if (v > best)
            best = v;
    }
    const int i = w->nbatch++;
    dots_quiet_path_tails(r->index, path, w->cut, w->ncuts, w->batch->tail[i]);
    if (w->ndirect)
        w->batch->changed[i] = (int8_t)dots_quiet_path_entries(r->index, path, w->batch->entry[i]);
    w->batch->lines[i] = lines;
    w->batch->index[i] = index;
    w->batch->quiet[i] = quiet & ~inside;
    w->batch->best[i] = best;
    if (w->nbatch == CHILD_BATCH)
        flush_children(w);
}

/* An empty leaf table, its rankers ready. */
static leaf_table *leaf_table_new(void)
{
    leaf_table *leaves = calloc(1, sizeof *leaves);
    for (int i = 0; leaves && i < DOTS_MAX_LINES; i++)
        dots_quiet_ranker_init(&leaves->by_line[i]);
    for (int i = 0; leaves && i < LEAF_RANKERS; i++)
        dots_quiet_ranker_init(&leaves->for_leaves[i]);
    if (leaves) {
        dots_quiet_ranker_init(&leaves->for_moves);
        dots_quiet_memo_init(&leaves->memo);
        dots_quiet_memo_init(&leaves->leaf_memo);
    }
    return leaves;
}

uint64_t dots_quiet_dropped_above(int level, int window)
{
    const int first = level + window + 1;
    return first >= 64 ? 0 : ~0ULL << first;
}

rdb_status dots_quiet_level(const dots_quiet_rules *r, int level, uint64_t from, uint64_t to,
                            rdb_chunk_cache *above, uint64_t dropped, int8_t *values,
                            rdb_error *err)
{
    const int f0 = dots_quiet_frame_from(r->index, level, from);
    const int f1 = dots_quiet_frame_from(r->index, level, to);
    int overflow = 0, stopped = 0, nomem = 0;
    rdb_status failed = RDB_OK;
    /* A level is one slice of the engine's, minutes long on big boards: a
     * stop request is honoured between frame states, the level then left
     * undone. So is a level above that cannot be read. */
#pragma omp parallel reduction(| : overflow, stopped, nomem)
    {
        rdb_chunk_view view;
        rdb_chunk_view_init(&view, above);
        leaf_table *leaves = leaf_table_new();
        child_batch *batch = malloc(sizeof *batch);
        if (!leaves || !batch)
            nomem = 1;
        /* what every frame state of the level shares, made once a thread */
        level_work shared = {.r = r, .above = &view, .dropped = dropped, .out = values,
                             .base = from, .leaves = leaves, .batch = batch};
        level_work_ready(&shared);
#pragma omp for schedule(dynamic, 1)
        for (int f = f0; f < f1; f++) {
            if (rdb_stop_requested)
                stopped = 1;
            if (stopped || view.failed || !leaves || !batch)
                continue;
            level_work w = shared;
            w.class = slot_class(&w, f);
            dots_quiet_each(r->index, level, f, compute_one, &w);
            w.path = NULL; /* the walk's, gone with it */
            flush_children(&w);
            overflow |= w.overflow;
        }
        if (view.failed) {
#pragma omp critical(dots_quiet_level_failure)
            if (failed == RDB_OK) {
                failed = view.status;
                if (err)
                    *err = view.err;
            }
        }
        rdb_chunk_view_release(&view);
        free(leaves);
        free(batch);
    }
    if (failed != RDB_OK)
        return failed;
    if (nomem)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the leaf tables of level %d", level);
    if (stopped)
        return rdb_fail(err, RDB_E_STOPPED, "stopped at level %d", level);
    if (overflow)
        return rdb_fail(err, RDB_E_INPUT, "a value at level %d does not fit a byte", level);
    return RDB_OK;
}

/* ---- a sample's time ---- */

/* A chunk of zeros (ctx: the levels' sizes; a level's last chunk is
 * shorter). */
static rdb_status load_zeros(void *ctx, int level, uint32_t chunk, int8_t *out, rdb_error *err)
{
    (void)err;
    const uint64_t n = ((const uint64_t *)ctx)[level] - ((uint64_t)chunk << RDB_CHUNK_SHIFT);
    memset(out, 0, n < RDB_CHUNK_ENTRIES ? n : RDB_CHUNK_ENTRIES);
    return RDB_OK;
}

/* The sample times stretches of consecutive frame states of one level,
 * as a slice of the build computes them, and not single frame states
 * scattered over the board: a frame state's first positions are slower
 * than the rest (the rankers start cold), and so is a frame state after
 * one of another level (the index's tables it reads are out of the
 * processor's caches), where the build's frame states follow one another
 * for minutes. Timed one by one, 32 frame states of a few thousand
 * positions each took twice the build's time a position on 3x4, 3x5 and
 * 4x5 (844, 727 and 752 to 982 ns against about 420, 450 and 460); in
 * stretches, each after a frame state left untimed, 385 to 410, 450 to
 * 520 and 490 to 550 ns. */
enum { SAMPLE_STRETCHES = 16, SAMPLE_FRAMES_TRIED = 4096 };

/* The time of one stretch, from frame state f of a level on: frame
 * states of at most `per` positions (each is computed whole) until `per`
 * are timed, the first left untimed. */
static double sample_stretch(level_work *base, int level, int f, uint64_t per,
                             uint64_t *positions)
{
    const dots_quiet_index *q = base->r->index;
    double seconds = 0;
    uint64_t timed = 0;
    int computed = 0;
    for (int g = f; g < dots_quiet_frames(q) && g < f + SAMPLE_FRAMES_TRIED && timed < per; g++) {
        const uint64_t first = dots_quiet_first(q, level, g);
        const uint64_t n = dots_quiet_first(q, level, g + 1) - first;
        if (n == 0 || n > per)
            continue;
        level_work w = *base;
        w.class = slot_class(&w, g);
        w.base = first;
        struct timespec t0, t1;
        /* the thread's own time, not the clock's: a plan made beside
         * other work (a running build, say) would otherwise count the
         * time its core spent on that work as the build's; what sharing
         * the caches costs it still counts */
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        dots_quiet_each(q, level, g, compute_one, &w);
        w.path = NULL; /* the walk's, gone with it */
        flush_children(&w);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
        if (computed++ == 0)
            continue; /* the caches warmed */
        seconds += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
        timed += w.computed;
    }
    *positions += timed;
    return seconds;
}

rdb_status dots_quiet_sample(const dots_quiet_rules *r, uint64_t most, const uint64_t *dropped_at,
                             int threads, uint64_t *positions, double *seconds, rdb_error *err)
{
    const dots_quiet_index *q = r->index;
    const int top = dots_quiet_open_lines(q);
    uint64_t sizes[DOTS_MAX_LINES + 1], total = 0;
    for (int level = 0; level <= top; level++)
        total += sizes[level] = dots_quiet_level_size(q, level);
    const uint64_t per = most / SAMPLE_STRETCHES + 1;
    threads = threads < 1 ? 1 : threads > SAMPLE_STRETCHES ? SAMPLE_STRETCHES : threads;
    rdb_chunk_cache *cache = NULL;
    rdb_status st = rdb_chunk_cache_new(rdb_chunk_cache_least_budget(threads), top + 1, sizes,
                                        load_zeros, sizes, &cache, err);
    if (st != RDB_OK)
        return st;
    uint64_t timed = 0;
    double spent = 0;
    int nomem = 0;
    /* As many threads as the build's, each with its stretches: what two
     * threads cost each other (the caches and the memory they share)
     * counts as in the build, where two made 4x5's level 24 1.86 times as
     * fast as one, not twice. */
#pragma omp parallel num_threads(threads) reduction(+ : timed, spent) reduction(| : nomem)
    {
        rdb_chunk_view view;
        rdb_chunk_view_init(&view, cache);
        leaf_table *leaves = leaf_table_new();
        child_batch *batch = malloc(sizeof *batch);
        int8_t *out = malloc(per);
        nomem = !leaves || !batch || !out;
#pragma omp for schedule(static, 1)
        for (int i = 0; i < SAMPLE_STRETCHES; i++) {
            if (nomem)
                continue;
            /* from the position (2i + 1) / 32 of the way through all of them */
            const uint64_t at = (uint64_t)((double)total * (2 * i + 1) / (2 * SAMPLE_STRETCHES));
            uint64_t below = 0;
            int level = 0;
            while (level < top && below + sizes[level] <= at)
                below += sizes[level++];
            const int f = dots_quiet_frame_from(q, level, at - below + 1) - 1;
            /* a half database's dropped parts gone as in the build: the
             * positions valued from their moves are timed */
            level_work w = {.r = r, .above = &view, .dropped = dropped_at[level], .out = out,
                            .leaves = leaves, .batch = batch};
            level_work_ready(&w);
            spent += sample_stretch(&w, level, f < 0 ? 0 : f, per, &timed);
        }
        rdb_chunk_view_release(&view);
        free(out);
        free(batch);
        free(leaves);
    }
    rdb_chunk_cache_free(cache);
    if (nomem)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for a sample of the build");
    *positions = timed;
    *seconds = spent;
    return RDB_OK;
}

/* ---- a whole database in memory ---- */

struct dots_quiet_db {
    dots_quiet_rules *r;
    int8_t *values[DOTS_MAX_LINES + 1]; /* [level] */
};

/* The cache's chunks, copied from the levels built. */
static rdb_status load_from_memory(void *ctx, int level, uint32_t chunk, int8_t *out,
                                   rdb_error *err)
{
    (void)err;
    const dots_quiet_db *db = ctx;
    const uint64_t lo = (uint64_t)chunk << RDB_CHUNK_SHIFT;
    const uint64_t n = dots_quiet_level_size(db->r->index, level) - lo;
    memcpy(out, db->values[level] + lo, n < RDB_CHUNK_ENTRIES ? n : RDB_CHUNK_ENTRIES);
    return RDB_OK;
}

/* A half database's level loses the class it does not keep, as the
 * engine deletes it: here overwritten with a value no position has, so
 * that reading it would show. */
#define DROPPED_BYTE 0x3f

static void drop_other_class(dots_quiet_db *db, int level)
{
    const dots_quiet_index *q = db->r->index;
    const uint64_t split = dots_quiet_first(q, level, dots_quiet_frames(q) / 2);
    const uint64_t size = dots_quiet_level_size(q, level);
    if (kept_class(db->r, level) == 0)
        memset(db->values[level] + split, DROPPED_BYTE, size - split);
    else
        memset(db->values[level], DROPPED_BYTE, split);
}

rdb_status dots_quiet_db_build(const dots_board *b, uint64_t start, int full_value, int half,
                               int threads, uint64_t cache_bytes, dots_quiet_db **out,
                               rdb_error *err)
{
    dots_quiet_db *db = calloc(1, sizeof *db);
    if (!db)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the quiet database");
    rdb_status st = dots_quiet_rules_new(b, start, full_value, half, &db->r, err);
    if (st == RDB_OK)
        st = dots_quiet_rules_prepare(db->r, 0, err);
    if (st != RDB_OK) {
        dots_quiet_rules_free(db->r);
        free(db);
        return st;
    }
#ifdef _OPENMP
    if (threads > 0)
        omp_set_num_threads(threads);
#else
    (void)threads;
#endif
    const dots_quiet_index *q = db->r->index;
    const int top = dots_quiet_open_lines(q);
    uint64_t sizes[DOTS_MAX_LINES + 1], total = 0;
    for (int level = 0; level <= top; level++)
        total += sizes[level] = dots_quiet_level_size(q, level);
    rdb_chunk_cache *cache = NULL;
    st = rdb_chunk_cache_new(cache_bytes ? cache_bytes : total, top + 1, sizes, load_from_memory, db,
                             &cache, err);
    for (int level = top; level >= 0 && st == RDB_OK; level--) {
        if (!(db->values[level] = malloc(sizes[level] ? sizes[level] : 1)))
            st = rdb_fail(err, RDB_E_NOMEM, "out of memory for level %d of the quiet database", level);
        else
            st = dots_quiet_level(db->r, level, 0, sizes[level], cache,
                                  half ? dots_quiet_dropped_above(level, DOTS_QUIET_WINDOW) : 0, db->values[level],
                                  err);
        /* what the level after needs no more */
        const int gone = level + DOTS_QUIET_WINDOW;
        if (st == RDB_OK && half && gone <= top) {
            drop_other_class(db, gone);
            rdb_chunk_cache_drop_level(cache, gone);
        }
    }
    for (int level = 0; st == RDB_OK && half && level < DOTS_QUIET_WINDOW && level <= top; level++)
        drop_other_class(db, level);
    rdb_chunk_cache_free(cache);
    if (st != RDB_OK) {
        dots_quiet_db_free(db);
        return st;
    }
    *out = db;
    return RDB_OK;
}

void dots_quiet_db_free(dots_quiet_db *db)
{
    if (!db)
        return;
    for (int level = 0; level <= DOTS_MAX_LINES; level++)
        free(db->values[level]);
    dots_quiet_rules_free(db->r);
    free(db);
}

const int8_t *dots_quiet_db_level(const dots_quiet_db *db, int level)
{
    return db->values[level];
}

const dots_quiet_index *dots_quiet_db_index(const dots_quiet_db *db)
{
    return db->r->index;
}

int dots_quiet_db_value(const dots_quiet_db *db, uint64_t lines)
{
    int v = 0;
    dots_quiet_value(db->r, lines, fetch_above, (void *)db->values, &v);
    return v;
}

int dots_quiet_db_move_value(const dots_quiet_db *db, uint64_t lines, int line)
{
    int b = dots_boxes_completed(&db->r->b, lines, line);
    int v = dots_quiet_db_value(db, lines | 1ULL << line);
    return b > 0 ? b + v : -v;
}
