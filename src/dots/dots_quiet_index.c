/*
 * dots_quiet_index.c — ranking the quiet positions; see dots_quiet_index.h.
 *
 * The transfer matrix. Seen along its shorter side the board has rows of
 * W boxes; the lines are decided in *steps*: first the top line of each
 * box of row 0, then for each row r the left line of its first box and,
 * for each box c of the row, the pair (line on the box's right, line below
 * it). After the pair of box c the box has all four sides decided, which
 * is when quietness is checked. The state between steps is W bits (the
 * top side of each box of the current row, replaced by the bottom side as
 * the row is scanned) and one bit (the left side of the next box): it is
 * all the steps to come need to know of the steps gone.
 *
 * For a frame state, each line of a step is drawn, empty, or free (an
 * inside line); count[u][s][k] is the number of ways to decide steps u..
 * with k free lines drawn, from state s, leaving every box quiet. A
 * position's rank among the completions of its frame with as many lines is
 * then the sum, over the steps, of the completions that choose less at
 * that step (a pair's choice is 2 x right + below) and the same before.
 *
 * Step u's rows of a frame's table depend only on the frame lines that
 * steps u.. decide, so frame states that agree on those share them. On
 * 4x5 the 21,024 frame states have 21,024 tables of step 0, 3,136 of the
 * second box row's steps, 54 of the fourth row's, one of the last step:
 * the index takes 1.8 GB instead of 8.1 (3x5's 175 MB instead of 597), and
 * the rows a rank reads in another frame state's table are more often in
 * the cache.
 */
#include "dots/dots_quiet_index.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "common/bits.h"
#include "common/invariant.h"
#include "common/memory.h"

#define MAX_STEPS DOTS_QUIET_MAX_STEPS
#define MAX_FRAME_BITS 24

typedef struct {
    int pair;      /* 0: one line, which sets bit `bit` of the state */
    int col;       /* pair: the box's column */
    int bit;       /* single: TOP (col) or LEFT (W) */
    int line[2];   /* pair: right, below */
    uint8_t free[4]; /* inside lines drawn by each choice */
    uint64_t add[4]; /* and which */
} step;


struct dots_quiet_index {
    dots_board b;
    uint64_t start, all, open;
    uint64_t frame, inside;
    int nframe, ninside;
    uint8_t frame_line[MAX_FRAME_BITS];
    uint8_t frame_weight[MAX_FRAME_BITS]; /* frame_order_key's bit for each frame line */
    int nclasses;
    uint64_t class_mask[DOTS_MAX_LINES];
    int ntransforms;
    uint8_t transform[DOTS_MAX_TRANSFORMS][DOTS_MAX_LINES];
    uint8_t *canon_t;       /* normalised frame state -> transform to canonical */
    int32_t *frame_of;      /* frame state -> its number if canonical, else -1 */
    int nframes;
    uint32_t *frame_state;  /* number -> canonical frame state, increasing */
    int W, nsteps, nstates;
    step steps[MAX_STEPS];
    /* Split by class (dots_quiet_class): the state has one bit more, the
     * parity of the boxes completed in the steps still to come that the
     * completion must make (bit W + 1; a completion ends with it 0). */
    int split;
    int nslots;             /* nframes, or 2 x nframes split: class 0's, then 1's */
    uint64_t box_mask[DOTS_MAX_BOXES];
    uint64_t side_lines[4];  /* each box's top (bottom, left, right) line, */
    int sides_in_order;      /* in the boxes' order: a box's bit by one pext each */
    uint32_t boxes_after[MAX_STEPS];    /* boxes whose four sides steps u.. complete */
    uint32_t parity_stride[MAX_STEPS];  /* how far apart in less the rows of a state
                                           with and without the parity bit lie */
    /* The tables, in blocks of one step's rows ([state][k 0..rem[u]]), a
     * block for each set of frame lines the steps u.. decide: */
    uint64_t *counts;       /* the completions from each entry */
    uint32_t *less;         /* four to an entry: the completions of the
                               choices below each choice */
    uint32_t *block_at;     /* [frame][step 0..nsteps]: where the frame's block
                               of step u starts, in words of less (the counts
                               entry is this / 4) */
    int *block_frame;       /* a frame state of each block, step by step */
    int block_first[MAX_STEPS + 1], block_count[MAX_STEPS + 1]; /* step u's, in it */
    uint64_t step_base[MAX_STEPS + 1]; /* the entry step u's blocks start at */
    uint64_t entries;       /* entries of all the blocks */
    /* Prepared for lookups (dots_quiet_index_prepare_lookups): the tables
     * are mapped whole but made a frame state at a time, when a rank
     * first needs them, and committed only where written. */
    int lazy;
    uint8_t *block_made;    /* [block, all steps' in turn] */
    uint8_t *frame_made;    /* [frame]: every block of its steps made */
    uint64_t *start_counts; /* per frame: its completions with k inside lines */
    uint8_t *allowed;       /* per frame and step: the choices its fixed lines allow */
    /* What a rank reads of step u, straight from the position's lines, so
     * that no step waits for the one before: the lines that hold the state
     * before the step and the lines it decides, gathered (pext) into an
     * index of rows[rank_row[u]...], which gives where their entry of a
     * frame's less table is for no inside line left to place; and the
     * inside lines of steps u.. (how many are drawn picks the entry). */
    uint64_t rank_lines[MAX_STEPS], rank_later[MAX_STEPS];
    uint32_t rank_row[MAX_STEPS];
    uint32_t *rows;
    /* For each line, the step that decides it, and the last step whose
     * entry reads it (the line is held in the state until then). */
    uint8_t line_step[DOTS_MAX_LINES], last_read[DOTS_MAX_LINES];
    /* The lines a position of a frame state may differ in whose step is
     * before u (and every line but the inside ones): two positions of one
     * slot that differ in none of them have the same entries before u;
     * its inside lines are also those a walk's tail from step u finds
     * decided before it (walk_tail) */
    uint64_t differ_before[MAX_STEPS + 1];
    /* dots_quiet_rank_memo: its cut (0: none), the end of the first half
     * of the rows, and the inside lines of the steps before it (the key) */
    int memo_cut;
    uint64_t memo_lines;
    /* The entries of a child by one inside line, from the position's:
     * at the line's step, one row on (one more line to place) and the
     * choice that draws it (chosen_delta); at the steps after, up to its
     * last read, the row of the state with its bit set (held_bit). And
     * the inside lines whose last read is each step. */
    uint8_t chosen_delta[DOTS_MAX_LINES], held_bit[DOTS_MAX_LINES];
    uint64_t last_read_at[MAX_STEPS];
    uint64_t decided_at[MAX_STEPS]; /* the inside lines each step decides (one or two) */
    uint64_t beside[DOTS_MAX_LINES][2]; /* the sides of the boxes a line touches (0: none) */
    uint8_t *trans;         /* [step][state][choice]: the next state, | 0x80 when the
                               choice leaves a box with three sides (any frame) */
    uint32_t pack_byte[8][256];  /* byte b of a position -> its frame lines, packed */
    uint64_t unpack_byte[3][256]; /* byte b of a packed frame state -> its lines */
    uint64_t image_byte[DOTS_MAX_TRANSFORMS][8][256]; /* byte b of a position -> image */
    uint32_t *norm_frame;   /* packed frame state -> its classes normalised */
    size_t counts_per_frame;
    int rem[MAX_STEPS + 1];        /* inside lines of steps u.. : a row's last k */
    size_t row_off[MAX_STEPS + 2]; /* where step u's rows start in a frame's table
                                      of its own (counted for a plan) */
    uint64_t **first;       /* [level][slot 0..nslots] */
    uint64_t total;
};

/* ---- frame states ---- */

static uint32_t frame_pack_slow(const dots_quiet_index *q, uint64_t lines)
{
    uint32_t x = 0;
    for (int i = 0; i < q->nframe; i++)
        x |= (uint32_t)(lines >> q->frame_line[i] & 1) << i;
    return x;
}

static uint64_t frame_unpack_slow(const dots_quiet_index *q, uint32_t x)
{
    uint64_t lines = 0;
    for (int i = 0; i < q->nframe; i++)
        lines |= (uint64_t)(x >> i & 1) << q->frame_line[i];
    return lines;
}

/* A frame state is the frame's lines in increasing order: one pext (and
 * pdep back) where the machine has them, byte tables elsewhere. */
static inline uint32_t frame_pack(const dots_quiet_index *q, uint64_t lines)
{
#ifdef __BMI2__
    return (uint32_t)rdb_pext(lines, q->frame);
#else
    uint32_t x = 0;
    for (int b = 0; b < 8; b++)
        x |= q->pack_byte[b][lines >> 8 * b & 255];
    return x;
#endif
}

static inline uint64_t frame_unpack(const dots_quiet_index *q, uint32_t x)
{
#ifdef __BMI2__
    return rdb_pdep(x, q->frame);
#else
    return q->unpack_byte[0][x & 255] | q->unpack_byte[1][x >> 8 & 255] |
           q->unpack_byte[2][x >> 16 & 255];
#endif
}

/* Each class of interchangeable lines with its drawn lines made its
 * lowest. */
static uint64_t normalise(const dots_quiet_index *q, uint64_t lines)
{
    for (int c = 0; c < q->nclasses; c++) {
        uint64_t m = q->class_mask[c], low = 0, rest = m;
        for (int k = __builtin_popcountll(lines & m); k > 0; k--) {
            low |= rest & -rest;
            rest &= rest - 1;
        }
        lines = (lines & ~m) | low;
    }
    return lines;
}

static uint64_t apply_slow(const dots_quiet_index *q, int t, uint64_t lines)
{
    uint64_t out = 0;
    for (uint64_t m = lines & q->all; m; m &= m - 1) /* no board has the others */
        out |= 1ULL << q->transform[t][__builtin_ctzll(m)];
    return out;
}

static inline uint64_t apply(const dots_quiet_index *q, int t, uint64_t lines)
{
    uint64_t out = 0;
    for (int b = 0; b < 8; b++)
        out |= q->image_byte[t][b][lines >> 8 * b & 255];
    return out;
}

/* The classes of interchangeable lines (all in the frame) normalised. */
static inline uint64_t normalise_fast(const dots_quiet_index *q, uint64_t lines, uint32_t *packed)
{
    *packed = q->norm_frame[frame_pack(q, lines)];
    return (lines & ~q->frame) | frame_unpack(q, *packed);
}

uint64_t dots_quiet_canonical(const dots_quiet_index *q, uint64_t lines)
{
    uint32_t x;
    lines = normalise_fast(q, lines, &x);
    int t = q->canon_t[x];
    return t ? normalise_fast(q, apply(q, t, lines), &x) : lines;
}

int dots_quiet_transform(const dots_quiet_index *q, uint64_t lines)
{
    uint32_t x;
    normalise_fast(q, lines, &x);
    return q->canon_t[x];
}

uint64_t dots_quiet_twin_moves(const dots_quiet_index *q, uint64_t lines)
{
    /* Interchangeable lines touch the same boxes and no other: the
     * position with one of them drawn and the position with another
     * drawn instead are the same up to the swap of the two, which maps
     * the game onto itself (and normalise makes them one). */
    uint64_t twins = 0;
    for (int c = 0; c < q->nclasses; c++) {
        const uint64_t open = q->class_mask[c] & ~lines;
        twins |= open & (open - 1);
    }
    return twins;
}

uint64_t dots_quiet_image(const dots_quiet_index *q, int t, uint64_t lines)
{
    return t ? apply(q, t, lines) : lines;
}

int dots_quiet_is_quiet(const dots_quiet_index *q, uint64_t lines)
{
    for (int x = 0; x < q->b.nboxes; x++) {
        uint64_t m = 0;
        for (int s = 0; s < 4; s++)
            m |= 1ULL << q->b.box_line[x][s];
        if (__builtin_popcountll(lines & m) == 3)
            return 0;
    }
    return 1;
}

/* ---- the transfer matrix ---- */

static inline uint64_t *row_in(const dots_quiet_index *q, uint64_t *base, int u, int s)
{
    return base + q->row_off[u] + (size_t)s * (size_t)(q->rem[u] + 1);
}

/* Entries of one step's rows. */
static inline size_t step_entries(const dots_quiet_index *q, int u)
{
    return (size_t)q->nstates * (size_t)(q->rem[u] + 1);
}

/* Where frame f's block of step u starts, in words of less. */
static inline uint32_t block_at(const dots_quiet_index *q, int f, int u)
{
    return q->block_at[(size_t)f * (size_t)(q->nsteps + 1) + (size_t)u];
}

/* The values a line may take in frame state `fl` (frame lines drawn):
 * bit 0 set if empty is allowed, bit 1 if drawn. */
static inline int line_options(const dots_quiet_index *q, uint64_t fl, int line)
{
    uint64_t bit = 1ULL << line;
    if (q->start & bit)
        return 2;
    if (q->frame & bit)
        return fl & bit ? 2 : 1;
    return 3;
}

/* Whether choice ch (a pair: 2 x right + below; else the line) of step u
 * is allowed in state s, and the state after it. */
static inline int step_next(const dots_quiet_index *q, const step *st, int s, int ch, int *next)
{
    if (!st->pair) {
        *next = (s & ~(1 << st->bit)) | ch << st->bit;
        return 1;
    }
    int right = ch >> 1, below = ch & 1;
    int sides = (s >> st->col & 1) + (s >> q->W & 1) + right + below;
    *next = (s & ~(1 << st->col) & ~(1 << q->W)) | below << st->col | right << q->W;
    if (sides == 4 && q->split)
        *next ^= 1 << (q->W + 1); /* a box completed: one fewer to come */
    return sides != 3;
}

/* Free lines drawn by choice ch of step st. */
static inline int step_free(const step *st, int ch)
{
    return st->free[ch];
}

/* Whether choice ch of step st agrees with the fixed lines of frame
 * state fl. */
static inline int step_allowed(const dots_quiet_index *q, const step *st, uint64_t fl, int ch)
{
    if (!st->pair)
        return line_options(q, fl, st->line[0]) >> ch & 1;
    return (line_options(q, fl, st->line[0]) >> (ch >> 1) & 1) &&
           (line_options(q, fl, st->line[1]) >> (ch & 1) & 1);
}

static inline int step_choices(const step *st)
{
    return st->pair ? 4 : 2;
}

/* The choices that step u allows in frame state fl. */
static uint8_t step_allows(const dots_quiet_index *q, uint64_t fl, int u)
{
    uint8_t allowed = 0;
    for (int ch = 0; ch < step_choices(&q->steps[u]); ch++)
        allowed |= (uint8_t)(step_allowed(q, &q->steps[u], fl, ch) << ch);
    return allowed;
}

/* Step u's rows of counts (out) from step u + 1's (next), its choices
 * limited to `allowed`. */
static void count_step(const dots_quiet_index *q, int u, uint8_t allowed, uint64_t *out,
                       const uint64_t *next)
{
    const step *st = &q->steps[u];
    memset(out, 0, step_entries(q, u) * sizeof *out);
    for (int s = 0; s < q->nstates; s++) {
        uint64_t *row = out + (size_t)s * (size_t)(q->rem[u] + 1);
        for (int ch = 0; ch < step_choices(st); ch++) {
            const uint8_t t = q->trans[((size_t)u * q->nstates + (size_t)s) * 4 + (size_t)ch];
            if (!(allowed >> ch & 1) || t & 0x80)
                continue;
            const int d = step_free(st, ch);
            const uint64_t *in = next + (size_t)(t & 0x7f) * (size_t)(q->rem[u + 1] + 1);
            const int last = q->rem[u] < q->rem[u + 1] + d ? q->rem[u] : q->rem[u + 1] + d;
            for (int k = d; k <= last; k++)
                row[k] += in[k - d];
        }
    }
}

/* The rows after the last step: one completion, the empty one. */
static void count_end(const dots_quiet_index *q, uint64_t *out)
{
    for (int s = 0; s < q->nstates; s++) /* rem[nsteps] is 0: one entry a state */
        out[s] = !(s >> (q->W + 1) & 1); /* split: no box owed (else the bit is never set) */
}

/* Frame state f's table into base, laid out as a table of its own
 * (row_off): what a plan counts, before any block is made. Only its
 * steps up to `top` are counted: base holds the steps after for another
 * frame state that agrees with f on their frame lines (top = nsteps - 1:
 * every step, the table's last rows made first). */
static void count_frame(const dots_quiet_index *q, int f, int top, uint64_t *base)
{
    uint64_t fl = frame_unpack(q, q->frame_state[f]);
    if (top == q->nsteps - 1)
        count_end(q, row_in(q, base, q->nsteps, 0));
    for (int u = top; u >= 0; u--)
        count_step(q, u, step_allows(q, fl, u), row_in(q, base, u, 0), row_in(q, base, u + 1, 0));
}

/* A frame state's table of step u depends only on its frame lines of
 * steps u and after. Ordered by this key, in which the lines of later
 * steps weigh more, the frame states that agree on the lines of the last
 * steps come together, so that a table differs from the one before's in
 * few steps, the first ones (count_frames). */
static uint32_t frame_order_key(const dots_quiet_index *q, uint32_t state)
{
    uint32_t key = 0;
    for (int i = 0; i < q->nframe; i++)
        key |= (state >> i & 1) << q->frame_weight[i];
    return key;
}

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Each frame state's completions with k inside lines from its start
 * state (of each class when split) into start_counts: its table counted
 * as count_frame counts it, in frame_order_key's order, each frame state
 * from the table of the one before but for the steps up to the last that
 * decides a line where the two differ. On 4x5 (21,024 frame states)
 * `info` takes 0.37 s of CPU, 1.4 s when every table was counted whole. */
static int count_frames(dots_quiet_index *q)
{
    uint64_t *order = malloc((size_t)q->nframes * sizeof *order);
    if (!order)
        return -1;
    for (int f = 0; f < q->nframes; f++)
        order[f] = (uint64_t)frame_order_key(q, q->frame_state[f]) << 32 | (uint32_t)f;
    qsort(order, (size_t)q->nframes, sizeof *order, by_value);
    /* stretches of the order, each counted from its first table whole */
    enum { STRETCHES = 64 };
    int failed = 0;
#pragma omp parallel reduction(| : failed)
    {
        uint64_t *scratch = malloc(q->counts_per_frame * sizeof(uint64_t));
        failed = !scratch;
#pragma omp for schedule(dynamic, 1)
        for (int c = 0; c < STRETCHES; c++) {
            const int i0 = (int)((int64_t)q->nframes * c / STRETCHES);
            const int i1 = (int)((int64_t)q->nframes * (c + 1) / STRETCHES);
            uint32_t before = 0;
            for (int i = i0; i < i1 && scratch; i++) {
                const int f = (int)(uint32_t)order[i];
                int top = q->nsteps - 1;
                if (i > i0) { /* the last step that decides a line where the two differ */
                    top = 0;
                    for (uint64_t d = frame_unpack(q, q->frame_state[f] ^ before); d; d &= d - 1)
                        if (q->line_step[__builtin_ctzll(d)] > top)
                            top = q->line_step[__builtin_ctzll(d)];
                }
                count_frame(q, f, top, scratch);
                before = q->frame_state[f];
                for (int class = 0; class <= q->split; class++) /* the start state owes `class` */
                    memcpy(q->start_counts + (size_t)(f + class * q->nframes) * (size_t)(q->ninside + 1),
                           row_in(q, scratch, 0, class << (q->W + 1)),
                           (size_t)(q->ninside + 1) * sizeof(uint64_t));
            }
        }
        free(scratch);
    }
    free(order);
    return failed ? -1 : 0;
}

/* less[s][k][ch] of step u: what the choices below ch, from state s with
 * k inside lines to place, count; a rank adds one per step. Returns
 * whether an entry overflowed. */
static int less_step(const dots_quiet_index *q, int u, uint8_t allowed, uint32_t *out,
                     const uint64_t *next)
{
    int overflow = 0;
    const step *st = &q->steps[u];
    for (int s = 0; s < q->nstates; s++)
        for (int k = 0; k <= q->rem[u]; k++, out += 4) {
            uint64_t sum = 0;
            for (int ch = 0; ch < 4; ch++) {
                out[ch] = (uint32_t)sum;
                overflow |= sum > UINT32_MAX;
                if (ch >= step_choices(st))
                    continue;
                const int d = st->free[ch];
                const uint8_t t = q->trans[((size_t)u * q->nstates + (size_t)s) * 4 + (size_t)ch];
                if ((allowed >> ch & 1) && !(t & 0x80) && d <= k && k - d <= q->rem[u + 1])
                    sum += next[(size_t)(t & 0x7f) * (size_t)(q->rem[u + 1] + 1) + (size_t)(k - d)];
            }
        }
    return overflow;
}

/* One table entry a step, each found from the position alone: the loads
 * of a rank go out together instead of one after another. */
/* The boxes a position has completed (split indexes only: 0 otherwise,
 * which adds nothing below). */
static inline uint32_t boxes_done(const dots_quiet_index *q, uint64_t lines)
{
    if (q->sides_in_order)
        return (uint32_t)(rdb_pext(lines, q->side_lines[0]) & rdb_pext(lines, q->side_lines[1]) &
                          rdb_pext(lines, q->side_lines[2]) & rdb_pext(lines, q->side_lines[3]));
    uint32_t done = 0;
    for (int x = 0; x < q->b.nboxes; x++)
        done |= (uint32_t)((lines & q->box_mask[x]) == q->box_mask[x]) << x;
    return done;
}

static inline uint32_t completed_boxes(const dots_quiet_index *q, uint64_t lines)
{
    return q->split ? boxes_done(q, lines) : 0;
}

/* Step u's entry for `lines`, of which `done` are the completed boxes. */
static inline uint32_t entry_at(const dots_quiet_index *q, int u, uint64_t lines, uint32_t done)
{
    return q->rows[q->rank_row[u] + rdb_pext(lines, q->rank_lines[u])] +
           (uint32_t)__builtin_popcountll(lines & q->rank_later[u]) * 4 +
           (uint32_t)(__builtin_popcount(done & q->boxes_after[u]) & 1) * q->parity_stride[u];
}

/* The slot of a canonical position: its frame state's number, after the
 * class 0 ones when it is of class 1 in a split index. */
static inline int slot_of(const dots_quiet_index *q, uint64_t canonical, uint32_t done)
{
    return q->frame_of[frame_pack(q, canonical)] + (__builtin_popcount(done) & 1) * q->nframes;
}

/* A slot's frame state (no division: ranks are the hot path). */
static inline int slot_frame(const dots_quiet_index *q, int slot)
{
    return slot >= q->nframes ? slot - q->nframes : slot;
}

static void make_frame(const dots_quiet_index *q, int f);

uint64_t dots_quiet_rank(const dots_quiet_index *q, uint64_t canonical)
{
    const uint32_t done = completed_boxes(q, canonical);
    const int slot = slot_of(q, canonical, done), f = slot_frame(q, slot);
    if (q->lazy)
        make_frame(q, f);
    const int level = __builtin_popcountll(canonical & q->open);
    uint64_t r = q->first[level][slot];
    const uint32_t *at = q->block_at + (size_t)f * (size_t)(q->nsteps + 1);
    for (int u = 0; u < q->nsteps; u++)
        r += q->less[at[u] + entry_at(q, u, canonical, done)];
    return r;
}

void dots_quiet_ranker_init(dots_quiet_ranker *rk)
{
    rk->lines = 0;
    rk->frame = rk->level = -1;
    rk->known = 0;
    rk->stale = 0;
}

/* rk made ready for a position of another slot or level: nothing known. */
static inline void ranker_reset(const dots_quiet_index *q, dots_quiet_ranker *rk, int slot,
                                int level)
{
    rk->frame = slot;
    rk->level = level;
    rk->first = q->first[level][slot];
    rk->known = 0;
    rk->stale = 0;
    rk->sum[0] = 0;
}

/* The steps whose entries differ between two positions of one slot and
 * level, which differ in the inside lines `d`: from..last (from > last
 * when d is empty). */
static inline void differing_steps(const dots_quiet_index *q, uint64_t d, int *from, int *last)
{
    for (; d; d &= d - 1) {
        const int line = __builtin_ctzll(d);
        *from = q->line_step[line] < *from ? q->line_step[line] : *from;
        *last = q->last_read[line] > *last ? q->last_read[line] : *last;
    }
}

/* rk's entries of the steps lo..hi - 1 read for `canonical`, whose
 * completed boxes are `boxes`, of rk's slot. */
static inline void read_entries(const dots_quiet_index *q, dots_quiet_ranker *rk,
                                uint64_t canonical, uint32_t boxes, int lo, int hi)
{
    const uint32_t *at = q->block_at + (size_t)slot_frame(q, rk->frame) * (size_t)(q->nsteps + 1);
    for (int u = lo; u < hi; u++)
        rk->entry[u] = q->less[at[u] + entry_at(q, u, canonical, boxes)];
}

/* Make rk's entries those of `canonical`, of slot `slot` and level
 * `level`, for the steps before `to` (at least): the steps where it
 * differs from the position ranked last, and those not known yet. `done`
 * is its completed boxes, or -1 when not counted yet: they are counted
 * only when a step is read. */
static inline void ranker_steps(const dots_quiet_index *q, dots_quiet_ranker *rk,
                                uint64_t canonical, int to, int slot, int level, int64_t done)
{
    /* split: step u's entry reads the parity owed before it, the class's
     * less the boxes steps < u complete; within one slot (one class) it
     * depends on the lines of steps up to u and the inside lines of the
     * steps after, as above (another class is another slot, ranked from
     * the start) */
    int from = q->nsteps, last = -1; /* the steps that differ: from..last */
    if (slot != rk->frame || level != rk->level || !rk->lines) {
        ranker_reset(q, rk, slot, level);
    } else if (!rk->stale && rk->known >= to && !((canonical ^ rk->lines) & q->differ_before[to])) {
        /* the two differ in no line of the steps before `to`: the
         * entries and sums known before it stand, with no need to find
         * which steps differ (half of the ranks with a cut on 3x5: the
         * children by one frame line of a batch's positions, and the
         * leaves that hold their position, differ in their last rows) */
        if (canonical != rk->lines)
            rk->known = to;
        rk->lines = canonical;
        return;
    } else {
        /* one frame state: the two differ in inside lines only */
        differing_steps(q, canonical ^ rk->lines, &from, &last);
        if (rk->stale) {
            /* the memo gave the first rows' sum alone: read their entries
             * as if they differed */
            from = 0;
            last = last < q->memo_cut - 1 ? q->memo_cut - 1 : last;
            rk->stale = 0;
        }
    }
    rk->lines = canonical;
    /* the steps read: [lo, hi) and [lo2, hi2) */
    int lo, hi, lo2 = 0, hi2 = 0, known = rk->known;
    const int changed = from < known ? from : known; /* the first entry changed */
    if (last >= to) {
        /* the stretch runs on past `to`: the entries beyond are stale */
        lo = changed;
        hi = to;
        known = to;
    } else {
        /* the stretch that differs, where known; then the steps not known */
        lo = from;
        hi = last < known ? last + 1 : known;
        lo2 = known;
        hi2 = to;
        if (to > known)
            known = to;
    }
    if (lo < hi || lo2 < hi2) {
        const uint32_t boxes = done < 0 ? completed_boxes(q, canonical) : (uint32_t)done;
        read_entries(q, rk, canonical, boxes, lo, hi);
        read_entries(q, rk, canonical, boxes, lo2, hi2);
    }
    rk->known = known;
    /* the sums after the first entry changed (additions: no table read) */
    for (int u = changed; u < known; u++)
        rk->sum[u + 1] = rk->sum[u] + rk->entry[u];
}

/* The same for a position whose slot is not known. */
static void ranker_update(const dots_quiet_index *q, dots_quiet_ranker *rk, uint64_t canonical,
                          int to)
{
    const uint32_t done = completed_boxes(q, canonical);
    ranker_steps(q, rk, canonical, to, slot_of(q, canonical, done),
                 __builtin_popcountll(canonical & q->open), done);
}

uint64_t dots_quiet_rank_next(const dots_quiet_index *q, dots_quiet_ranker *rk, uint64_t canonical)
{
    ranker_update(q, rk, canonical, q->nsteps);
    const uint64_t r = rk->first + rk->sum[q->nsteps];
    RDB_INVARIANT(r == dots_quiet_rank(q, canonical), "a ranker ranks as a rank from the position");
    return r;
}

int dots_quiet_cut(const dots_quiet_index *q, uint64_t added)
{
    int last = -1;
    for (; added; added &= added - 1)
        if (q->last_read[__builtin_ctzll(added)] > last)
            last = q->last_read[__builtin_ctzll(added)];
    return last + 1;
}

uint64_t dots_quiet_rank_head(const dots_quiet_index *q, dots_quiet_ranker *rk, uint64_t canonical,
                              int cut, uint64_t tail)
{
    ranker_update(q, rk, canonical, cut);
    const uint64_t r = rk->first + rk->sum[cut] + tail;
    RDB_INVARIANT(r == dots_quiet_rank(q, canonical),
                  "a rank from the tail of a position it holds is its rank");
    return r;
}

int dots_quiet_frame_slot(const dots_quiet_index *q, uint64_t canonical, int class)
{
    return q->frame_of[frame_pack(q, canonical)] + (q->split ? class * q->nframes : 0);
}

uint64_t dots_quiet_rank_at(const dots_quiet_index *q, dots_quiet_ranker *rk, uint64_t canonical,
                            int cut, uint64_t tail, int slot, int level)
{
    RDB_INVARIANT(slot == slot_of(q, canonical, completed_boxes(q, canonical)) &&
                      level == __builtin_popcountll(canonical & q->open),
                  "a position ranked in the slot and level the caller says is of them");
    if (cut < 0) { /* ranked whole: every step is the ranker's */
        cut = q->nsteps;
        tail = 0;
    }
    ranker_steps(q, rk, canonical, cut, slot, level, -1);
    const uint64_t r = rk->first + rk->sum[cut] + tail;
    RDB_INVARIANT(r == dots_quiet_rank(q, canonical), "a ranker ranks as a rank from the position");
    return r;
}

void dots_quiet_memo_init(dots_quiet_memo *memo)
{
    memset(memo, 0, sizeof *memo);
}

/* What the sum of the steps before the memo's cut depends on: the slot
 * (its frame lines and class), the level (how many inside lines the
 * steps after hold), and the inside lines of those steps. Never 0. */
static inline uint64_t memo_key(const dots_quiet_index *q, uint64_t canonical, int slot, int level)
{
    return 1ULL << 63 | (uint64_t)slot << 32 | (uint64_t)level << 24 |
           rdb_pext(canonical, q->memo_lines);
}

static inline dots_quiet_memo_entry *memo_entry(dots_quiet_memo *memo, uint64_t key)
{
    return &memo->entry[(key * 0x9E3779B97F4A7C15ULL) >> (64 - DOTS_QUIET_MEMO_LOG2)];
}

/* dots_quiet_rank_memo of a position whose completed boxes are `done`
 * (-1: not counted yet). */
static uint64_t rank_memo(const dots_quiet_index *q, dots_quiet_ranker *rk, dots_quiet_memo *memo,
                          uint64_t canonical, int slot, int level, int64_t done)
{
    const int n = q->nsteps, cut = q->memo_cut;
    if (!cut || slot != rk->frame || level != rk->level || !rk->lines || rk->known < n) {
        /* nothing to start from: ranked whole, its first rows' sum kept */
        ranker_steps(q, rk, canonical, n, slot, level, done);
        if (cut) {
            const uint64_t key = memo_key(q, canonical, slot, level);
            *memo_entry(memo, key) = (dots_quiet_memo_entry){key, rk->sum[cut]};
        }
        RDB_INVARIANT(rk->first + rk->sum[n] == dots_quiet_rank(q, canonical),
                      "a ranker ranks as a rank from the position");
        return rk->first + rk->sum[n];
    }
    int from = n, last = -1;
    differing_steps(q, canonical ^ rk->lines, &from, &last);
    rk->lines = canonical;
    /* the entries read, lo..hi - 1, and the sums made again from `sums` */
    int lo = from, hi = last + 1, sums = from;
    dots_quiet_memo_entry *e = NULL;
    uint64_t key = 0;
    if (from < cut) {
        key = memo_key(q, canonical, slot, level);
        e = memo_entry(memo, key);
        if (e->key == key) {
            /* the first rows' sum remembered: their entries go unread */
            rk->sum[cut] = e->sum;
            rk->stale = 1;
            lo = sums = cut;
            e = NULL;
        } else {
            /* the steps that differ read, and all the first rows' when
             * their entries are not known */
            if (rk->stale) {
                lo = sums = 0;
                hi = hi < cut ? cut : hi;
                rk->stale = 0;
            }
        }
    }
    if (lo < hi)
        read_entries(q, rk, canonical, done < 0 ? completed_boxes(q, canonical) : (uint32_t)done,
                     lo, hi);
    for (int u = sums; u < n; u++)
        rk->sum[u + 1] = rk->sum[u] + rk->entry[u];
    if (e)
        *e = (dots_quiet_memo_entry){key, rk->sum[cut]};
    RDB_INVARIANT(rk->first + rk->sum[n] == dots_quiet_rank(q, canonical),
                  "a ranker with a memo ranks as a rank from the position");
    return rk->first + rk->sum[n];
}

uint64_t dots_quiet_rank_memo(const dots_quiet_index *q, dots_quiet_ranker *rk,
                              dots_quiet_memo *memo, uint64_t canonical, int slot, int level)
{
    RDB_INVARIANT(slot == slot_of(q, canonical, completed_boxes(q, canonical)) &&
                      level == __builtin_popcountll(canonical & q->open),
                  "a position ranked in the slot and level the caller says is of them");
    return rank_memo(q, rk, memo, canonical, slot, level, -1);
}

uint64_t dots_quiet_rank_next_memo(const dots_quiet_index *q, dots_quiet_ranker *rk,
                                   dots_quiet_memo *memo, uint64_t canonical)
{
    const uint32_t done = completed_boxes(q, canonical);
    return rank_memo(q, rk, memo, canonical, slot_of(q, canonical, done),
                     __builtin_popcountll(canonical & q->open), done);
}

/* ---- enumeration ---- */

struct dots_quiet_path {
    int slot, frame, level;
    uint64_t sum[MAX_STEPS + 1];      /* the position's entries of steps < u, summed */
    uint64_t sum_more[MAX_STEPS + 1]; /* the same with one inside line more to place */
    uint32_t entry[MAX_STEPS];        /* where the position's entry of step u is in less */
    uint8_t parity[MAX_STEPS];        /* the parity bit of its state before step u: the
                                         same entry with it flipped is parity_stride away */
    int changed;                      /* the first step whose entry differs from the
                                         position visited before's (0 for the first) */
    /* For each open inside line, the entries of its child from the
     * line's step to its last read, summed: made when the walk decides
     * that last step, and so shared by every position below it */
    uint64_t middle[DOTS_MAX_LINES];
};

typedef struct {
    const dots_quiet_index *q;
    uint64_t index;
    dots_quiet_visit_fn visit;
    void *ctx;
    dots_quiet_path path;
    /* Step u's tables for this walk's frame state, found once a walk
     * rather than at every step of every position: its block of less
     * (a state's rows 4 x (rem[u] + 1) words apart), its transitions
     * and its last choice */
    const uint32_t *block[MAX_STEPS];
    const uint8_t *trans[MAX_STEPS];
    uint32_t state_words[MAX_STEPS];
    int last_choice[MAX_STEPS];
    /* The forced steps (see walk_tail), [step][state], filled as met */
    struct forced_step *forced;
} walk;

/* Once a position has no inside line left to place, each step after has
 * one choice only (a choice that draws none: the frame's lines are fixed
 * and a step's other lines are inside ones), so the walk's last steps
 * from state s at step u are the same for every position that reaches
 * them with nothing left to place; on 4x5 half of a position's steps
 * are so. What such a step gives the path is kept the first time, for
 * the walk's frame state. */
struct forced_step {
    uint32_t entry;     /* the path's entry (where in less) */
    uint32_t less;      /* less[entry], added to the sum */
    uint32_t less_more; /* the same with one inside line more to place */
    uint8_t next;       /* the state after it */
    uint8_t known;      /* 1: the above made; 2: its middles too */
    /* The middles of the one or two inside lines the step decides (the
     * lowest first), open in every position that comes here with nothing
     * left to place, and made of the forced steps from here to their
     * last read alone: the same for all such positions */
    uint64_t middle[2];
};

/* The middles (dots_quiet_path) of the open inside lines whose last read
 * is step u, the lines of steps <= u decided. A child by such a line
 * has the position's lines and one more: at the line's step one more
 * line to place and the choice that draws it; at the steps after, the
 * same lines to place (the line is placed) and the same state but the
 * line's bit, which the position has not (the parity of the boxes to
 * complete is the same: the child is quiet, the line completes none). */
static inline void inside_middles(const dots_quiet_index *q, dots_quiet_path *p, int u,
                                  uint64_t lines, uint64_t among)
{
    for (uint64_t m = q->last_read_at[u] & ~lines & among; m; m &= m - 1) {
        const int line = __builtin_ctzll(m), from = q->line_step[line];
        /* the sides of the line's boxes are all decided by its last
         * read: a child with a box of three sides is not stored, and
         * never asked for */
        if (__builtin_popcountll(lines & q->beside[line][0]) == 2 ||
            __builtin_popcountll(lines & q->beside[line][1]) == 2)
            continue;
        uint64_t sum = q->less[(size_t)p->entry[from] + q->chosen_delta[line]];
        for (int v = from + 1; v <= u; v++)
            sum += q->less[(size_t)p->entry[v] + ((size_t)(q->rem[v] + 1) * 4 << q->held_bit[line])];
        p->middle[line] = sum;
    }
}

/* The step u from state s with no inside line left to place, as the
 * general loop of walk_steps takes it (the one choice through which the
 * single completion goes), without its middles. */
static void force_step(const walk *w, int u, int s, struct forced_step *f)
{
    const uint32_t *less = w->block[u] + (size_t)s * w->state_words[u];
    const int last = w->last_choice[u];
    int ch = 0;
    while (ch < last && less[ch + 1] == less[ch]) /* none through ch */
        ch++;
    assert((ch < last ? less[ch + 1] : 1) - less[ch] == 1 && w->q->steps[u].free[ch] == 0);
    *f = (struct forced_step){.entry = (uint32_t)(less + ch - w->q->less),
                              .less = less[ch],
                              .less_more = w->q->rem[u] > 0 ? less[4 + ch] : 0,
                              .next = w->trans[u][(size_t)s * 4 + (size_t)ch] & 0x7f,
                              .known = 1};
}

/* The forced step u from state s, made the first time it is met, with
 * its middles (inside_middles' sums, from the forced steps after it). */
static const struct forced_step *forced_at(const walk *w, int u, int s)
{
    const dots_quiet_index *q = w->q;
    struct forced_step *f = &w->forced[(size_t)u * (size_t)q->nstates + (size_t)s];
    if (__builtin_expect(f->known == 2, 1))
        return f;
    if (!f->known)
        force_step(w, u, s, f);
    f->known = 2;
    int j = 0;
    for (uint64_t m = q->decided_at[u]; m; m &= m - 1, j++) {
        const int line = __builtin_ctzll(m);
        uint64_t sum = q->less[(size_t)f->entry + q->chosen_delta[line]];
        int t = f->next;
        for (int v = u + 1; v <= q->last_read[line]; v++) {
            struct forced_step *g = &w->forced[(size_t)v * (size_t)q->nstates + (size_t)t];
            if (!g->known)
                force_step(w, v, t, g); /* its middles when it is met itself */
            sum += q->less[(size_t)g->entry + ((size_t)(q->rem[v] + 1) * 4 << q->held_bit[line])];
            t = g->next;
        }
        f->middle[j] = sum;
    }
    return f;
}

/* The rest of the walk from state s at step u with no inside line left
 * to place: one position, its steps' entries from the forced steps. The
 * middles of the lines those steps decide come with them; those of the
 * lines decided before, still open, are summed as the general loop does. */
static void walk_tail(walk *w, int u, int s, uint64_t lines)
{
    const dots_quiet_index *q = w->q;
    dots_quiet_path *p = &w->path;
    const uint64_t before = q->differ_before[u] & q->inside;
    if (u < p->changed)
        p->changed = u;
    for (; u < q->nsteps; u++) {
        const struct forced_step *f = forced_at(w, u, s);
        p->parity[u] = (uint8_t)(s >> (q->W + 1));
        p->entry[u] = f->entry;
        p->sum[u + 1] = p->sum[u] + f->less;
        p->sum_more[u + 1] = p->sum_more[u] + f->less_more;
        int j = 0;
        for (uint64_t m = q->decided_at[u]; m; m &= m - 1)
            p->middle[__builtin_ctzll(m)] = f->middle[j++];
        if (q->last_read_at[u] & before)
            inside_middles(q, p, u, lines, before);
        s = f->next;
    }
    w->visit(w->ctx, w->index++, lines, p);
    p->changed = q->nsteps;
}

/* The completions of state s from step u with k inside lines to place,
 * each choice's entries summed along the way (the rank the walk's order
 * gives needs none of them: the inside children's ranks do). */
static void walk_steps(walk *w, int u, int s, int k, uint64_t lines, uint64_t completions)
{
    const dots_quiet_index *q = w->q;
    dots_quiet_path *p = &w->path;
    /* A step whose completions all go through one choice (on 4x5 five
     * steps of a position's in six: the inside lines placed, the steps
     * after choose none) is taken in this loop, not by a call deeper */
    for (;;) {
        if (k == 0 && w->forced) {
            assert(completions == 1); /* one choice a step */
            walk_tail(w, u, s, lines);
            return;
        }
        if (u == q->nsteps) {
            w->visit(w->ctx, w->index++, lines, p);
            p->changed = q->nsteps;
            return;
        }
        const step *st = &q->steps[u];
        const uint8_t *trans = w->trans[u] + (size_t)s * 4;
        const uint32_t *less = w->block[u] + (size_t)s * w->state_words[u] + (size_t)k * 4;
        const int more = k < q->rem[u]; /* else no inside line of steps u.. is open */
        p->parity[u] = (uint8_t)(s >> (q->W + 1)); /* the state's top bit */
        const int last = w->last_choice[u];
        int only = -1;
        for (int ch = 0; ch <= last; ch++) {
            /* the completions through choice ch: the entries count those
             * through the choices below it (none through a choice the
             * frame forbids, that leaves a box with three sides, or that
             * draws more inside lines than are left) */
            const uint64_t through = (ch < last ? less[ch + 1] : completions) - less[ch];
            if (!through)
                continue;
            p->sum[u + 1] = p->sum[u] + less[ch];
            if (more) /* else never read: the children by inside lines of steps
                       * u.. are what it counts, and there are none */
                p->sum_more[u + 1] = p->sum_more[u] + less[4 + ch];
            p->entry[u] = (uint32_t)(less + ch - q->less);
            if (u < p->changed)
                p->changed = u;
            inside_middles(q, p, u, lines | st->add[ch], ~0ULL);
            if (through == completions) { /* the others have none */
                only = ch;
                break;
            }
            walk_steps(w, u + 1, trans[ch] & 0x7f, k - st->free[ch], lines | st->add[ch], through);
        }
        if (only < 0)
            return;
        lines |= st->add[only];
        k -= st->free[only];
        s = trans[only] & 0x7f;
        u++;
    }
}

void dots_quiet_each(const dots_quiet_index *q, int level, int slot, dots_quiet_visit_fn visit,
                     void *ctx)
{
    const int f = slot_frame(q, slot), class = slot >= q->nframes;
    if (q->lazy)
        make_frame(q, f);
    uint64_t fl = frame_unpack(q, q->frame_state[f]);
    int k = level - __builtin_popcountll(fl);
    if (k < 0 || k > q->ninside)
        return;
    walk w = {.q = q, .index = q->first[level][slot], .visit = visit, .ctx = ctx,
              .path = {.slot = slot, .frame = f, .level = level}};
    w.path.changed = 0;
    for (int u = 0; u < q->nsteps; u++) {
        w.block[u] = q->less + block_at(q, f, u);
        w.trans[u] = q->trans + (size_t)u * (size_t)q->nstates * 4;
        w.state_words[u] = (uint32_t)(q->rem[u] + 1) * 4;
        w.last_choice[u] = step_choices(&q->steps[u]) - 1;
    }
    /* The forced steps' table, for a frame state with positions enough to
     * pay for clearing it (else, or without the memory, the general loop
     * takes those steps) */
    const uint64_t count = q->first[level][slot + 1] - q->first[level][slot];
    const size_t cells = (size_t)q->nsteps * (size_t)q->nstates;
    w.forced = count >= cells / 4 ? calloc(cells, sizeof *w.forced) : NULL;
    walk_steps(&w, 0, class << (q->W + 1), k, q->start | fl, count);
    free(w.forced);
}

uint64_t dots_quiet_path_tail(const dots_quiet_index *q, const dots_quiet_path *path, int cut)
{
    return path->sum[q->nsteps] - path->sum[cut];
}

void dots_quiet_path_tails(const dots_quiet_index *q, const dots_quiet_path *path, const int *cut,
                           int n, uint64_t *tail)
{
    for (int c = 0; c < n; c++)
        tail[c] = path->sum[q->nsteps] - path->sum[cut[c]];
}

int dots_quiet_path_entries(const dots_quiet_index *q, const dots_quiet_path *path,
                            uint32_t *entry)
{
    memcpy(entry, path->entry, (size_t)q->nsteps * sizeof *entry);
    return path->changed;
}

int dots_quiet_frame_child_steps(const dots_quiet_index *q, int slot, int child_slot, int line,
                                 dots_quiet_frame_child *fc)
{
    const int f = slot_frame(q, slot), g = slot_frame(q, child_slot);
    const int from = q->line_step[line], last = q->last_read[line];
    if (q->lazy) /* the child's tables made before a rank reads them */
        make_frame(q, g);
    fc->last = last;
    fc->child_slot = child_slot;
    fc->frame_part = frame_unpack(q, q->frame_state[g]) | q->start;
    for (int u = 0; u <= last; u++) {
        /* the same place in the child's block of the step (the state
         * before the line's step and the inside lines to place are the
         * position's) */
        fc->off[u] = (int64_t)block_at(q, g, u) - (int64_t)block_at(q, f, u);
        if (u == from) /* the choice that draws the line, no more inside lines to place */
            fc->off[u] += q->chosen_delta[line] - 4;
        else if (u > from) /* the state holds the line */
            fc->off[u] += (int64_t)((size_t)(q->rem[u] + 1) * 4 << q->held_bit[line]);
    }
    return last;
}

void dots_quiet_frame_children_rank(const dots_quiet_index *q, const dots_quiet_frame_child *fc,
                                    int level, uint64_t *sum, int n, const int16_t *who,
                                    const int8_t *from,
                                    const uint32_t (*entry)[DOTS_QUIET_MAX_STEPS],
                                    const uint64_t *lines, const uint64_t *tail, uint64_t *rank)
{
    const uint64_t first = q->first[level][fc->child_slot];
    const int last = fc->last;
    for (int k = 0; k < n; k++) {
        const uint32_t *e = entry[who[k]];
        for (int u = from[k]; u <= last; u++)
            sum[u + 1] = sum[u] + q->less[(int64_t)e[u] + fc->off[u]];
        rank[k] = first + sum[last + 1] + tail[k];
        RDB_INVARIANT(rank[k] == dots_quiet_rank(q, fc->frame_part | (lines[who[k]] & q->inside)) &&
                          fc->child_slot ==
                              slot_of(q, fc->frame_part | (lines[who[k]] & q->inside),
                                      completed_boxes(q, fc->frame_part | (lines[who[k]] & q->inside))),
                      "a frame child's rank from its position's entries is its rank");
    }
    (void)lines;
}

/* The rank of the quiet child by open inside line `line` of the position
 * at p: its entries all summed by the walk (the position's after the
 * line's last read, those with one line more to place before its step,
 * its middle in between); a quiet child completes no box, so it keeps the
 * slot. */
static inline uint64_t child_by_inside_line(const dots_quiet_index *q, const dots_quiet_path *p,
                                            int line)
{
    return q->first[p->level + 1][p->slot] + p->sum[q->nsteps] - p->sum[q->last_read[line] + 1] +
           p->sum_more[q->line_step[line]] + p->middle[line];
}

uint64_t dots_quiet_inside_child(const dots_quiet_index *q, const dots_quiet_path *p,
                                 uint64_t lines, int line)
{
    const uint64_t r = child_by_inside_line(q, p, line);
    RDB_INVARIANT(r == dots_quiet_rank(q, lines | 1ULL << line) &&
                      p->slot == slot_of(q, lines | 1ULL << line,
                                         completed_boxes(q, lines | 1ULL << line)),
                  "the rank of a quiet child by an inside line from the enumeration's path");
    return r;
}

uint64_t dots_quiet_inside_rank(const dots_quiet_index *q, const dots_quiet_path *p,
                                uint64_t lines, uint64_t added, int *slot)
{
    /* Before the first step that decides an added line, the entries are
     * the position's with as many more inside lines to place, and the
     * parity of the boxes still to complete flipped if the lines complete
     * an odd number (all of them are completed at that step or after:
     * their last sides are added lines); from it on, its own until the
     * last step that reads an added line (it holds every completed box's
     * last side); after that, the position's. */
    const uint64_t child = lines | added;
    const uint32_t done = completed_boxes(q, lines), child_done = completed_boxes(q, child);
    const int flipped = __builtin_popcount(done ^ child_done) & 1;
    int from = q->nsteps, to = 0;
    for (uint64_t m = added; m; m &= m - 1) {
        const int line = __builtin_ctzll(m);
        from = q->line_step[line] < from ? q->line_step[line] : from;
        to = q->last_read[line] > to ? q->last_read[line] : to;
    }
    const int more = __builtin_popcountll(added);
    *slot = flipped ? (p->slot < q->nframes ? p->slot + q->nframes : p->slot - q->nframes) : p->slot;
    uint64_t r;
    if (more == 1 && !flipped) { /* a quiet child by one line */
        r = child_by_inside_line(q, p, __builtin_ctzll(added));
    } else {
        r = q->first[p->level + more][*slot] + p->sum[q->nsteps] - p->sum[to + 1];
        for (int u = 0; u < from; u++)
            r += q->less[(int64_t)p->entry[u] + more * 4 +
                         (!flipped         ? 0
                          : p->parity[u] ? -(int64_t)q->parity_stride[u]
                                           : (int64_t)q->parity_stride[u])];
        const uint32_t *at = q->block_at + (size_t)p->frame * (size_t)(q->nsteps + 1);
        for (int u = from; u <= to; u++)
            r += q->less[at[u] + entry_at(q, u, child, child_done)];
    }
    RDB_INVARIANT(r == dots_quiet_rank(q, child) && *slot == slot_of(q, child, child_done),
                  "a rank from the enumeration's path is the position's rank and slot");
    return r;
}

/* ---- set-up ---- */

/* How far a line lies from the border: its row of dots (a horizontal
 * line) or column (a vertical one), counted from the nearer side. */
static int line_depth(const dots_board *b, int line)
{
    int nh = (b->rows + 1) * b->cols;
    if (line < nh) {
        int i = line / b->cols;
        return i < b->rows - i ? i : b->rows - i;
    }
    int j = (line - nh) % (b->cols + 1);
    return j < b->cols - j ? j : b->cols - j;
}

static void find_classes(dots_quiet_index *q)
{
    uint64_t seen = 0;
    for (int l = 0; l < q->b.nlines; l++) {
        if (!(q->open >> l & 1) || seen >> l & 1)
            continue;
        uint64_t m = 1ULL << l;
        for (int k = l + 1; k < q->b.nlines; k++) {
            if (!(q->open >> k & 1) || q->b.line_nboxes[k] != q->b.line_nboxes[l])
                continue;
            int same = q->b.line_box[k][0] == q->b.line_box[l][0] &&
                       (q->b.line_nboxes[l] == 1 || q->b.line_box[k][1] == q->b.line_box[l][1]);
            if (same)
                m |= 1ULL << k;
        }
        seen |= m;
        if (__builtin_popcountll(m) > 1)
            q->class_mask[q->nclasses++] = m;
    }
}

/* The steps of the transfer matrix, along the board's shorter side. */
static void make_steps(dots_quiet_index *q)
{
    const dots_board *b = &q->b;
    int across = b->cols > b->rows; /* scan the columns as rows */
    int R = across ? b->cols : b->rows;
    q->W = across ? b->rows : b->cols;
#define H(i, j) (across ? dots_vline(b, (j), (i)) : dots_hline(b, (i), (j)))
#define V(i, j) (across ? dots_hline(b, (j), (i)) : dots_vline(b, (i), (j)))
    q->nsteps = 0;
    for (int c = 0; c < q->W; c++)
        q->steps[q->nsteps++] = (step){.bit = c, .line = {H(0, c), -1}};
    for (int r = 0; r < R; r++) {
        q->steps[q->nsteps++] = (step){.bit = q->W, .line = {V(r, 0), -1}};
        for (int c = 0; c < q->W; c++)
            q->steps[q->nsteps++] = (step){.pair = 1, .col = c, .line = {V(r, c + 1), H(r + 1, c)}};
    }
#undef H
#undef V
    q->nstates = 1 << (q->W + 1 + q->split);
}

/* What a rank reads of each step: the lines that hold each bit of the
 * state before the step, found by playing the steps through, and, for
 * every value of them and of the step's own lines, where the entry is.
 * Bits not yet set by any step are 0 in every state met. */
static int make_rank_steps(dots_quiet_index *q)
{
    int holder[MAX_STEPS + 1];
    size_t nrows = (size_t)q->nsteps * (size_t)q->nstates * 4;
    q->rows = malloc(nrows * sizeof *q->rows);
    if (!q->rows)
        return -1;
    for (int bit = 0; bit <= q->W; bit++)
        holder[bit] = -1;
    uint32_t at = 0;
    for (int u = 0; u < q->nsteps; u++) {
        const step *st = &q->steps[u];
        uint64_t state = 0, later = 0;
        for (int bit = 0; bit <= q->W; bit++)
            if (holder[bit] >= 0)
                state |= 1ULL << holder[bit];
        for (int v = u; v < q->nsteps; v++)
            for (int i = 0; i < 1 + q->steps[v].pair; i++)
                later |= 1ULL << q->steps[v].line[i] & q->inside;
        /* A pair's choice is 2 x right (line[0]) + below (line[1]). */
        uint64_t own = 1ULL << st->line[0] | (st->pair ? 1ULL << st->line[1] : 0);
        q->rank_lines[u] = state | own;
        q->rank_later[u] = later;
        q->rank_row[u] = at;
        for (uint64_t m = q->rank_lines[u]; m; m &= m - 1)
            q->last_read[__builtin_ctzll(m)] = (uint8_t)u; /* u increases: the last */
        q->parity_stride[u] = ((uint32_t)q->split << (q->W + 1)) * (uint32_t)(q->rem[u] + 1) * 4;
        const int n = __builtin_popcountll(q->rank_lines[u]);
        for (uint32_t x = 0; x < 1u << n; x++) {
            int s = 0, ch = 0, j = 0;
            for (uint64_t m = q->rank_lines[u]; m; m &= m - 1, j++) {
                const int line = __builtin_ctzll(m), set = (int)(x >> j & 1);
                for (int bit = 0; bit <= q->W; bit++)
                    if (state >> line & 1 && holder[bit] == line)
                        s |= set << bit;
                if (line == st->line[0])
                    ch |= set << st->pair;
                else if (st->pair && line == st->line[1])
                    ch |= set;
            }
            q->rows[at + x] =
                (uint32_t)((size_t)s * (size_t)(q->rem[u] + 1) * 4 + (size_t)ch);
        }
        at += 1u << n;
        if (own >> st->line[0] & 1)
            q->line_step[st->line[0]] = (uint8_t)u;
        if (st->pair)
            q->line_step[st->line[1]] = (uint8_t)u;
        /* a pair's choice is 2 x right + below; right sets the state's
         * left bit, below the column's */
        q->chosen_delta[st->line[0]] = (uint8_t)(4 + (st->pair ? 2 : 1));
        q->held_bit[st->line[0]] = (uint8_t)(st->pair ? q->W : st->bit);
        if (st->pair) {
            q->chosen_delta[st->line[1]] = 4 + 1;
            q->held_bit[st->line[1]] = (uint8_t)st->col;
        }
        if (st->pair) {
            holder[st->col] = st->line[1];
            holder[q->W] = st->line[0];
        } else {
            holder[st->bit] = st->line[0];
        }
    }
    /* the memo's cut: after the first half of the rows (rows of W + 1
     * steps after the W steps of the top lines), nearer the top while
     * its key would pass 24 bits */
    const int rows = (q->nsteps - q->W) / (q->W + 1);
    for (int half = rows / 2; half >= 1; half--) {
        q->memo_cut = q->W + half * (q->W + 1);
        q->memo_lines = 0;
        for (uint64_t m = q->inside; m; m &= m - 1)
            if (q->line_step[__builtin_ctzll(m)] < q->memo_cut)
                q->memo_lines |= m & -m;
        if (__builtin_popcountll(q->memo_lines) <= 24)
            break;
        q->memo_cut = 0;
    }
    for (int u = 0; u <= q->nsteps; u++) {
        q->differ_before[u] = ~q->inside;
        for (uint64_t m = q->inside; m; m &= m - 1)
            if (q->line_step[__builtin_ctzll(m)] < u)
                q->differ_before[u] |= m & -m;
    }
    for (int u = 0; u < q->nsteps; u++)
        q->last_read_at[u] = q->decided_at[u] = 0;
    for (uint64_t m = q->inside; m; m &= m - 1) {
        q->last_read_at[q->last_read[__builtin_ctzll(m)]] |= m & -m;
        q->decided_at[q->line_step[__builtin_ctzll(m)]] |= m & -m;
    }
    for (int u = 0; u < q->nsteps; u++) /* a step decides one line or two */
        assert(__builtin_popcountll(q->decided_at[u]) <= 2);
    return 0;
}

/* The blocks of each step: frame states that agree on the frame lines
 * of steps u.. share step u's, numbered as they are first met. */
static int share_blocks(dots_quiet_index *q)
{
    const size_t per_frame = (size_t)q->nsteps + 1;
    int32_t *block_of = malloc(((size_t)1 << q->nframe) * sizeof *block_of);
    q->block_at = malloc((size_t)q->nframes * per_frame * sizeof *q->block_at);
    q->block_frame = malloc((size_t)q->nframes * per_frame * sizeof *q->block_frame);
    if (!block_of || !q->block_at || !q->block_frame) {
        free(block_of);
        return -1;
    }
    memset(block_of, -1, ((size_t)1 << q->nframe) * sizeof *block_of);
    uint64_t later = 0; /* frame lines of steps u.. */
    int nblocks = 0;
    q->entries = 0;
    for (int u = q->nsteps; u >= 0; u--) {
        if (u < q->nsteps)
            for (int i = 0; i < 1 + q->steps[u].pair; i++)
                later |= 1ULL << q->steps[u].line[i] & q->frame;
        const uint32_t key_mask = frame_pack(q, later);
        const int first = nblocks;
        for (int f = 0; f < q->nframes; f++) {
            const uint32_t key = q->frame_state[f] & key_mask;
            if (block_of[key] < 0) {
                block_of[key] = nblocks - first;
                q->block_frame[nblocks++] = f;
            }
            /* 32-bit words: what prepare refuses beyond does not matter */
            q->block_at[(size_t)f * per_frame + (size_t)u] =
                (uint32_t)((q->entries + (uint64_t)block_of[key] * step_entries(q, u)) * 4);
        }
        for (int b = first; b < nblocks; b++)
            block_of[q->frame_state[q->block_frame[b]] & key_mask] = -1;
        q->block_first[u] = first;
        q->block_count[u] = nblocks - first;
        q->step_base[u] = q->entries;
        q->entries += (uint64_t)(nblocks - first) * step_entries(q, u);
    }
    free(block_of);
    return 0;
}

/* Which boxes each pair step completes, and so the boxes of steps u.. */
static void find_step_boxes(dots_quiet_index *q)
{
    const dots_board *b = &q->b;
    for (int x = 0; x < b->nboxes; x++)
        for (int s = 0; s < 4; s++)
            q->box_mask[x] |= 1ULL << b->box_line[x][s];
    for (int line = 0; line < b->nlines; line++)
        for (int i = 0; i < b->line_nboxes[line]; i++)
            q->beside[line][i] = q->box_mask[b->line_box[line][i]];
    /* a side's lines numbered in the boxes' order (as dots_board numbers
     * them): the completed boxes are four pexts anded */
    q->sides_in_order = 1;
    for (int s = 0; s < 4; s++)
        for (int x = 0; x < b->nboxes; x++) {
            q->side_lines[s] |= 1ULL << b->box_line[x][s];
            if (x > 0 && b->box_line[x][s] <= b->box_line[x - 1][s])
                q->sides_in_order = 0;
        }
    uint32_t after = 0;
    for (int u = q->nsteps - 1; u >= 0; u--) {
        const step *st = &q->steps[u];
        for (int x = 0; st->pair && x < b->nboxes; x++)
            if (q->box_mask[x] >> st->line[0] & 1 && q->box_mask[x] >> st->line[1] & 1)
                after |= 1u << x; /* the box on the line's left, above the other */
        q->boxes_after[u] = after;
    }
}

rdb_status dots_quiet_index_new(const dots_board *b, uint64_t start, int split,
                                dots_quiet_index **out, rdb_error *err)
{
    dots_quiet_index *q = calloc(1, sizeof *q);
    if (!q)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the quiet index");
    q->b = *b;
    q->start = start;
    q->split = split != 0;
    q->all = dots_all_lines(b);
    q->open = q->all & ~start;
    for (int t = 0; t < b->ntransforms; t++)
        if (dots_transform_lines(b, t, start) == start)
            memcpy(q->transform[q->ntransforms++], b->transform[t], sizeof b->transform[t]);
    find_classes(q);
    /* The frame: the open lines nearest the border, out to the first depth
     * that has some (a Swedish start has drawn the border). */
    int open_lines = __builtin_popcountll(q->open);
    for (int depth = 0; q->frame == 0 && open_lines > 0; depth++)
        for (int l = 0; l < b->nlines; l++)
            if (q->open >> l & 1 && line_depth(b, l) == depth)
                q->frame |= 1ULL << l;
    for (int c = 0; c < q->nclasses; c++)
        q->frame |= q->class_mask[c]; /* already there on any board we know */
    q->nframe = __builtin_popcountll(q->frame);
    if (q->nframe > MAX_FRAME_BITS) {
        free(q);
        return rdb_fail(err, RDB_E_INPUT, "the quiet index takes boards whose frame has at most %d lines",
                        MAX_FRAME_BITS);
    }
    for (int l = 0, i = 0; l < b->nlines; l++)
        if (q->frame >> l & 1)
            q->frame_line[i++] = (uint8_t)l;
    q->inside = q->open & ~q->frame;
    q->ninside = __builtin_popcountll(q->inside);
    make_steps(q);
    find_step_boxes(q);
    for (int u = 0; u < q->nsteps; u++) {
        step *st = &q->steps[u];
        int a = (int)(q->inside >> st->line[0] & 1), b2 = st->pair && (q->inside >> st->line[1] & 1);
        st->free[0] = 0;
        st->free[1] = (uint8_t)(st->pair ? b2 : a);
        st->free[2] = (uint8_t)a;
        st->free[3] = (uint8_t)(a + b2);
        for (int ch = 0; ch < step_choices(st); ch++) {
            const uint64_t add = st->pair ? (uint64_t)(ch >> 1) << st->line[0] |
                                                (uint64_t)(ch & 1) << st->line[1]
                                          : (uint64_t)ch << st->line[0];
            st->add[ch] = add & q->inside;
        }
    }

    size_t nx = (size_t)1 << q->nframe;
    q->canon_t = calloc(nx, 1);
    q->frame_of = malloc(nx * sizeof *q->frame_of);
    q->norm_frame = malloc(nx * sizeof *q->norm_frame);
    q->trans = calloc((size_t)q->nsteps * q->nstates * 4, 1);
    if (!q->canon_t || !q->frame_of || !q->norm_frame || !q->trans)
        goto nomem;
    for (int b = 0; b < 8; b++)
        for (int v = 0; v < 256; v++) {
            q->pack_byte[b][v] = frame_pack_slow(q, (uint64_t)v << 8 * b);
            for (int t = 0; t < q->ntransforms; t++)
                q->image_byte[t][b][v] = apply_slow(q, t, (uint64_t)v << 8 * b);
            if (b < 3)
                q->unpack_byte[b][v] = frame_unpack_slow(q, (uint32_t)v << 8 * b);
        }
    for (size_t x = 0; x < nx; x++)
        q->norm_frame[x] = frame_pack(q, normalise(q, frame_unpack(q, (uint32_t)x)));
    for (int u = 0; u < q->nsteps; u++)
        for (int st = 0; st < q->nstates; st++)
            for (int ch = 0; ch < step_choices(&q->steps[u]); ch++) {
                int next, quiet = step_next(q, &q->steps[u], st, ch, &next);
                q->trans[((size_t)u * q->nstates + (size_t)st) * 4 + (size_t)ch] =
                    (uint8_t)(next | (quiet ? 0 : 0x80));
            }
    for (size_t x = 0; x < nx; x++) {
        uint64_t fl = frame_unpack(q, (uint32_t)x);
        q->frame_of[x] = -1;
        if (normalise(q, fl) != fl)
            continue;
        uint32_t best = (uint32_t)x;
        for (int t = 1; t < q->ntransforms; t++) {
            uint32_t y = frame_pack(q, normalise(q, apply(q, t, fl)));
            if (y < best) {
                best = y;
                q->canon_t[x] = (uint8_t)t;
            }
        }
        if (best == x)
            q->frame_of[x] = q->nframes++;
    }
    q->frame_state = malloc((size_t)q->nframes * sizeof *q->frame_state);
    q->rem[q->nsteps] = 0;
    for (int u = q->nsteps - 1; u >= 0; u--)
        q->rem[u] = q->rem[u + 1] + q->steps[u].free[3 - !q->steps[u].pair * 2];
    q->row_off[0] = 0;
    for (int u = 0; u <= q->nsteps; u++)
        q->row_off[u + 1] = q->row_off[u] + (size_t)q->nstates * (size_t)(q->rem[u] + 1);
    q->counts_per_frame = q->row_off[q->nsteps + 1];
    if (make_rank_steps(q) != 0)
        goto nomem;
    /* frame_order_key: a frame line weighs more than those decided before it */
    for (int i = 0; i < q->nframe; i++)
        for (int j = 0; j < q->nframe; j++) {
            const int si = q->line_step[q->frame_line[i]], sj = q->line_step[q->frame_line[j]];
            q->frame_weight[i] += sj < si || (sj == si && j < i);
        }
    q->nslots = q->nframes << q->split;
    q->start_counts = malloc((size_t)q->nslots * (size_t)(q->ninside + 1) * sizeof(uint64_t));
    q->first = calloc((size_t)open_lines + 1, sizeof *q->first);
    if (!q->frame_state || !q->start_counts || !q->first)
        goto nomem;
    for (size_t x = 0; x < nx; x++)
        if (q->frame_of[x] >= 0)
            q->frame_state[q->frame_of[x]] = (uint32_t)x;
    if (share_blocks(q) != 0)
        goto nomem;
    /* Only the completions of whole frame states are kept here: the
     * tables a rank reads are made by dots_quiet_index_prepare. */
    if (count_frames(q) != 0)
        goto nomem;
    for (int level = 0; level <= open_lines; level++) {
        uint64_t *first = malloc(((size_t)q->nslots + 1) * sizeof *first);
        if (!first)
            goto nomem;
        q->first[level] = first;
        first[0] = 0;
        for (int slot = 0; slot < q->nslots; slot++) {
            int k = level - __builtin_popcount(q->frame_state[slot % q->nframes]);
            first[slot + 1] = first[slot] + (k >= 0 && k <= q->ninside
                                                 ? q->start_counts[(size_t)slot * (size_t)(q->ninside + 1) + (size_t)k]
                                                 : 0);
        }
        q->total += first[q->nslots];
    }
    *out = q;
    return RDB_OK;
nomem:
    dots_quiet_index_free(q);
    return rdb_fail(err, RDB_E_NOMEM, "out of memory for the quiet index");
}

static void drop_tables(dots_quiet_index *q)
{
    rdb_huge_free(q->counts, q->entries * sizeof *q->counts);
    rdb_huge_free(q->less, q->entries * 4 * sizeof *q->less);
    free(q->allowed);
    free(q->block_made);
    free(q->frame_made);
    q->counts = NULL;
    q->less = NULL;
    q->allowed = NULL;
    q->block_made = q->frame_made = NULL;
}

/* Frame state f's block of step u, from its block of the step after.
 * Returns whether an entry overflowed. */
static int make_block(const dots_quiet_index *q, int f, int u)
{
    uint64_t *out = q->counts + block_at(q, f, u) / 4;
    if (u == q->nsteps) {
        count_end(q, out);
        return 0;
    }
    const uint8_t allowed = q->allowed[(size_t)f * q->nsteps + (size_t)u];
    const uint64_t *next = q->counts + block_at(q, f, u + 1) / 4;
    count_step(q, u, allowed, out, next);
    return less_step(q, u, allowed, q->less + block_at(q, f, u), next);
}

/* A lazily prepared index's blocks of frame state f, those not made yet
 * (for another frame state that shares them) from the last step back.
 * No entry overflows: the database was built, and its build made every
 * block (dots_quiet_index_prepare refuses a board where one overflows). */
static void make_frame(const dots_quiet_index *q, int f)
{
    if (q->frame_made[f])
        return;
    for (int u = q->nsteps; u >= 0; u--) {
        const size_t b = (size_t)q->block_first[u] +
                         (size_t)((block_at(q, f, u) / 4 - q->step_base[u]) / step_entries(q, u));
        if (!q->block_made[b]) {
            make_block(q, f, u);
            q->block_made[b] = 1;
        }
    }
    q->frame_made[f] = 1;
}

static rdb_status prepare(dots_quiet_index *q, int lazy, rdb_error *err)
{
    /* Tables of 32-bit entries and offsets take every board up to 4x5 (at
     * most C(31, 15) completions from any step); bigger ones are counted
     * (a plan) but not built. */
    static const char too_big[] = "this board has too many quiet positions to a frame state for "
                                  "the quiet index's tables (boards up to 4x5 are built)";
    if (q->counts) {
        if (q->lazy && !lazy) { /* made for lookups, now wanted whole */
            for (int f = 0; f < q->nframes; f++)
                make_frame(q, f);
            q->lazy = 0;
        }
        return RDB_OK;
    }
    if (q->entries > UINT32_MAX / 4)
        return rdb_fail(err, RDB_E_INPUT, "%s", too_big);
    /* lazily made tables are touched in a few places: on small pages,
     * where a huge page would commit 2 MB for each block */
    void *(*alloc)(size_t) = lazy ? rdb_lazy_alloc : rdb_huge_alloc;
    q->counts = alloc(q->entries * sizeof *q->counts);
    q->less = alloc(q->entries * 4 * sizeof *q->less);
    q->allowed = malloc((size_t)q->nframes * q->nsteps);
    if (lazy) {
        int nblocks = 0;
        for (int u = 0; u <= q->nsteps; u++)
            nblocks += q->block_count[u];
        q->block_made = calloc((size_t)nblocks, 1);
        q->frame_made = calloc((size_t)q->nframes, 1);
    }
    if (!q->counts || !q->less || !q->allowed || (lazy && (!q->block_made || !q->frame_made))) {
        drop_tables(q);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the quiet index's tables (%llu MB)",
                        (unsigned long long)(dots_quiet_index_bytes(q) >> 20));
    }
#pragma omp parallel for schedule(dynamic, 64)
    for (int f = 0; f < q->nframes; f++)
        for (int u = 0; u < q->nsteps; u++)
            q->allowed[(size_t)f * q->nsteps + (size_t)u] =
                step_allows(q, frame_unpack(q, q->frame_state[f]), u);
    q->lazy = lazy;
    if (lazy)
        return RDB_OK;
    /* Each block from the block of the step after it of the same frame
     * state (any of those that share it: they agree on the steps after). */
    int overflow = 0;
    for (int u = q->nsteps; u >= 0; u--) {
#pragma omp parallel for schedule(dynamic, 16) reduction(| : overflow)
        for (int b = 0; b < q->block_count[u]; b++)
            overflow |= make_block(q, q->block_frame[q->block_first[u] + b], u);
    }
    if (overflow) {
        drop_tables(q);
        return rdb_fail(err, RDB_E_INPUT, "%s", too_big);
    }
    return RDB_OK;
}

rdb_status dots_quiet_index_prepare(dots_quiet_index *q, rdb_error *err)
{
    return prepare(q, 0, err);
}

rdb_status dots_quiet_index_prepare_lookups(dots_quiet_index *q, rdb_error *err)
{
    return prepare(q, 1, err);
}

void dots_quiet_index_free(dots_quiet_index *q)
{
    if (!q)
        return;
    if (q->first)
        for (int level = 0; level <= __builtin_popcountll(q->open); level++)
            free(q->first[level]);
    free(q->first);
    drop_tables(q);
    free(q->start_counts);
    free(q->block_at);
    free(q->block_frame);
    free(q->rows);
    free(q->trans);
    free(q->norm_frame);
    free(q->frame_state);
    free(q->frame_of);
    free(q->canon_t);
    free(q);
}

int dots_quiet_open_lines(const dots_quiet_index *q)
{
    return __builtin_popcountll(q->open);
}

uint64_t dots_quiet_level_size(const dots_quiet_index *q, int level)
{
    return level < 0 || level > dots_quiet_open_lines(q) ? 0 : q->first[level][q->nslots];
}

uint64_t dots_quiet_inside_lines(const dots_quiet_index *q)
{
    return q->inside;
}

uint64_t dots_quiet_total(const dots_quiet_index *q)
{
    return q->total;
}

int dots_quiet_frames(const dots_quiet_index *q)
{
    return q->nslots;
}

int dots_quiet_split(const dots_quiet_index *q)
{
    return q->split;
}

int dots_quiet_class(const dots_quiet_index *q, uint64_t lines)
{
    return __builtin_popcount(boxes_done(q, lines)) & 1;
}

int dots_quiet_slot_class(const dots_quiet_index *q, int slot)
{
    return slot >= q->nframes;
}

uint64_t dots_quiet_first(const dots_quiet_index *q, int level, int frame)
{
    return q->first[level][frame];
}

int dots_quiet_frame_from(const dots_quiet_index *q, int level, uint64_t index)
{
    const uint64_t *first = q->first[level];
    int lo = 0, hi = q->nslots; /* first[hi] >= index always */
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (first[mid] >= index)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

uint64_t dots_quiet_part_end(const dots_quiet_index *q, int level, uint64_t from, uint64_t most)
{
    const uint64_t *first = q->first[level];
    int f = dots_quiet_frame_from(q, level, from);
    /* whole frame states, at least one that holds positions, all of one
     * class (a part is a slice: a class's slices are kept or dropped
     * together) */
    while (f < q->nslots && first[f + 1] == from)
        f++;
    const int end = f < q->nframes ? q->nframes : q->nslots;
    if (f < end)
        f++;
    while (f < end && first[f + 1] - from <= most)
        f++;
    return first[f];
}

uint64_t dots_quiet_index_bytes(const dots_quiet_index *q)
{
    size_t nx = (size_t)1 << q->nframe;
    return nx * (1 + 2 * sizeof(int32_t)) + q->entries * 24 +
           (uint64_t)q->nframes * (uint64_t)(q->nsteps + 1) * 8 +
           (uint64_t)(dots_quiet_open_lines(q) + 1) * (q->nslots + 1) * 8;
}
