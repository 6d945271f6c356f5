/*
 * dots_kernel.c — the Dots-and-Boxes slice kernel (game.h's slice_begin,
 * slice_relax and slice_finish); see dots_kernel.h.
 *
 * Tuned for this access pattern: a move in an outer group maps a whole
 * parent row to a whole child row of the neighbour slice (in the same order,
 * or permuted by a small table when the move changes group 0 and the child
 * must be put in canonical form), so the work per child is one load and one
 * max over contiguous rows, which the compiler vectorises. Box completion is
 * decided once per row for the sides outside the inner group. Moves inside
 * the inner group go through a flat list of (child rank, bit, box flags)
 * per state (dots_kernel), the same number of entries for every state of a
 * row, so the loop has no data-dependent branch. Rows are independent, so
 * OpenMP splits them between threads and the result does not depend on
 * the thread count.
 */
#include "dots/dots_kernel.h"

#include <stdlib.h>
#include <string.h>

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#include <immintrin.h>
#define DOTS_KERNEL_AVX512 1
#endif

#include "dots/loony_offers.h"

#define NO_VALUE INT8_MIN
/* A padding move: its "box count" makes a candidate (-1000 + v) that
 * loses to every real move (a real candidate is a byte). */
#define RDB_KPAD 255
#define RDB_KPAD_BOXES (-1000)
/* Largest row: the most states of a 16-bit group with one popcount. */
#define RDB_MAX_ROW 12870

/* For each count k of the inner group: the moves of every state of that
 * count, `inner_moves[k]` per state (padded), each packed as
 *   (bit << 2 | flags) << 16 | rank of the child state,
 * where flags bit x says that all inner sides of the move's box x other than
 * the move itself are drawn. */
struct dots_kernel {
    const rdb_layout *lay;
    const dots_rules *rules;
    uint32_t *inner[RDB_MAX_GROUP_BITS + 1];
    int inner_moves[RDB_MAX_GROUP_BITS + 1];
#ifdef DOTS_KERNEL_AVX512
    /* the same lists by blocks of 16 states, move j of the 16 states side
     * by side (the block's entries j*16 .. j*16+15), the last block padded
     * with padding moves: one vector load gives move j of 16 parents */
    uint32_t *inner16[RDB_MAX_GROUP_BITS + 1];
#endif
    loony_offers *loony;     /* loony analysis, or NULL */
};

static inline int8_t max8(int8_t a, int b) { return b > a ? (int8_t)b : a; }

/* best[i] = max(best[i], candidate of child value v) over a row, where the
 * move completes `fixed` boxes plus one for each inner mask fully present in
 * the parent's inner state: scale*boxes + v for a capture, flip - v
 * otherwise (dots_rules.h). child is indexed through perm when not NULL. */
static void relax_row(int8_t *restrict best, const int8_t *restrict child,
                      const uint16_t *restrict perm, const uint16_t *restrict inner,
                      uint32_t m, int fixed, int ninner, const unsigned *mask, int scale,
                      int flip)
{
    if (ninner == 0 && !perm) {
        if (fixed == 0)
            for (uint32_t i = 0; i < m; i++)
                best[i] = max8(best[i], flip - child[i]);
        else
            for (uint32_t i = 0; i < m; i++)
                best[i] = max8(best[i], fixed * scale + child[i]);
        return;
    }
    if (ninner == 0) {
        if (fixed == 0)
            for (uint32_t i = 0; i < m; i++)
                best[i] = max8(best[i], flip - child[perm[i]]);
        else
            for (uint32_t i = 0; i < m; i++)
                best[i] = max8(best[i], fixed * scale + child[perm[i]]);
        return;
    }
    unsigned m0 = mask[0], m1 = ninner > 1 ? mask[1] : 0;
    for (uint32_t i = 0; i < m; i++) {
        int v = perm ? child[perm[i]] : child[i];
        unsigned s = inner[i];
        int n = fixed + ((s & m0) == m0) + (ninner > 1 && (s & m1) == m1);
        best[i] = max8(best[i], n ? n * scale + v : flip - v);
    }
}

/* A chain's move in an outer group over a row: best[i] = max(best[i],
 * chain rule of the parent and child value), the parent being outer_pos
 * with inner state inner[i]. */
static void relax_row_chain(int8_t *restrict best, const int8_t *restrict child,
                            const uint16_t *restrict perm, const uint16_t *restrict inner,
                            uint32_t m, const dots_chain_rule *rule, uint64_t outer_pos,
                            int off_inner)
{
    for (uint32_t i = 0; i < m; i++) {
        int v = perm ? child[perm[i]] : child[i];
        uint64_t pos = outer_pos | (uint64_t)inner[i] << off_inner;
        best[i] = max8(best[i], dots_chain_value(rule, pos, v));
    }
}

#ifdef DOTS_KERNEL_AVX512
/* relax_inner's loop over 16 parents at a time: move j of the 16 parents
 * is one vector of packed entries; their children's values are one gather
 * from the row, their box counts one lookup in the row's boxes table (a
 * permute over its 64 used entries: bits 0..15, 4 flag values), and the
 * best candidate a masked max that skips the padding moves. The result is
 * the scalar loop's, byte for byte. */
static void relax_inner16(const uint32_t *restrict mv16, int per, uint32_t m,
                          const int16_t *boxes, const int8_t *row, int8_t *restrict brow,
                          int flip)
{
    /* boxes[0..63] as 32-bit lanes, 4 vectors of 16 */
    const __m512i t0 = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const void *)boxes));
    const __m512i t1 = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const void *)(boxes + 16)));
    const __m512i t2 = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const void *)(boxes + 32)));
    const __m512i t3 = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const void *)(boxes + 48)));
    const __m512i low16 = _mm512_set1_epi32(0xFFFF), pad = _mm512_set1_epi32(RDB_KPAD);
    const __m512i vflip = _mm512_set1_epi32(flip), zero = _mm512_setzero_si512();
    for (uint32_t i = 0; i < m; i += 16) {
        const __mmask16 live = m - i >= 16 ? 0xFFFF : (__mmask16)((1u << (m - i)) - 1);
        __m512i best = _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(live, brow + i));
        const uint32_t *e = mv16 + (size_t)(i / 16) * per * 16;
        for (int j = 0; j < per; j++, e += 16) {
            const __m512i ent = _mm512_loadu_si512(e);
            const __m512i idx = _mm512_and_si512(ent, low16);
            __m512i v = _mm512_i32gather_epi32(idx, (const void *)row, 1);
            v = _mm512_srai_epi32(_mm512_slli_epi32(v, 24), 24);
            const __m512i key = _mm512_srli_epi32(ent, 16);
            const __mmask16 real = _mm512_cmpneq_epi32_mask(key, pad);
            /* key < 64 for every real move: pick from the 4 table vectors */
            const __m512i lo = _mm512_permutex2var_epi32(t0, key, t1);
            const __m512i hi = _mm512_permutex2var_epi32(t2, key, t3);
            const __mmask16 upper = _mm512_test_epi32_mask(key, _mm512_set1_epi32(32));
            const __m512i n = _mm512_mask_blend_epi32(upper, lo, hi);
            const __mmask16 cap = _mm512_cmpneq_epi32_mask(n, zero);
            const __m512i c = _mm512_mask_blend_epi32(cap, _mm512_sub_epi32(vflip, v),
                                                      _mm512_add_epi32(n, v));
            best = _mm512_mask_max_epi32(best, real, best, c);
        }
        _mm_mask_storeu_epi8(brow + i, live, _mm512_cvtepi32_epi8(best));
    }
}
#endif

/* Moves in the inner group for one row. Every state of a row has the same
 * number of moves (padded where interchangeable lines make it vary), so
 * one loop over a flat move list visits each move once, with no branch on
 * how many there are. Box completion per move is a lookup in a per-row
 * table indexed by the move's bit and its inner box flags. */
static void relax_inner(const dots_kernel *kern, const rdb_slice *s, int8_t *restrict brow,
                        const int8_t *crow, uint64_t outer_pos)
{
    const rdb_layout *lay = kern->lay;
    const dots_rules *r = kern->rules;
    const int I = lay->ngroups - 1, k = s->counts[I], off = lay->off[I];
    const uint32_t m = lay->count[I][k];
    const int per = kern->inner_moves[k];
    const uint32_t *restrict mv = kern->inner[k];
    const uint64_t outer_bits = (1ULL << off) - 1;

    /* boxes[(bit << 2) | flags]: boxes completed by that move in this row,
     * times the rules' scale */
    int16_t boxes[256];
    memset(boxes, 0, sizeof boxes);
    for (int b = 0; b < lay->size[I]; b++) {
        int ubit = off + b;
        unsigned outer_ok = 0;
        for (int j = 0; j < r->nbox[ubit]; j++) {
            uint64_t part = r->box_mask[ubit][j] & outer_bits;
            if ((outer_pos & part) == part)
                outer_ok |= 1u << j;
        }
        for (unsigned f = 0; f < 4; f++)
            boxes[b << 2 | f] = (int16_t)(__builtin_popcount(f & outer_ok) * r->scale);
    }
    boxes[RDB_KPAD] = RDB_KPAD_BOXES;

    /* The reads below are scattered over the child row; copying it first
     * streams it into L1 instead of paying a miss per scattered read. (The
     * vector path reads 4 bytes at each child's index: 3 spare bytes.) */
    int8_t row[RDB_MAX_ROW + 3];
    memcpy(row, crow, lay->count[I][k + 1]);
    memset(row + lay->count[I][k + 1], 0, 3);
    const int flip = r->flip;
#ifdef DOTS_KERNEL_AVX512
    (void)mv;
    relax_inner16(kern->inner16[k], per, m, boxes, row, brow, flip);
#else
    for (uint32_t i = 0; i < m; i++) {
        int best = brow[i];
        const uint32_t *e = mv + (size_t)i * per;
        for (int j = 0; j < per; j++) {
            int v = row[e[j] & 0xFFFF];
            int n = boxes[e[j] >> 16];
            int c = n ? n + v : flip - v;
            best = c > best ? c : best;
        }
        brow[i] = (int8_t)best;
    }
#endif

    /* chains in the inner group: not in the move lists, scored here */
    const unsigned inner_chains = (unsigned)(r->chain_bits >> off) & ((1u << lay->size[I]) - 1);
    if (!inner_chains)
        return;
    const uint16_t *st = lay->states[I][k];
    for (uint32_t i = 0; i < m; i++) {
        unsigned free_chains = inner_chains & ~(unsigned)st[i];
        uint64_t pos = outer_pos | (uint64_t)st[i] << off;
        for (; free_chains; free_chains &= free_chains - 1) {
            int b = __builtin_ctz(free_chains);
            int v = row[lay->rank[I][st[i] | 1u << b]];
            brow[i] = max8(brow[i], dots_chain_value(&r->chain[r->chain_of[off + b]], pos, v));
        }
    }
}

/* Moves in group g of every position of slice s, children in nb. */
static void relax_group(const dots_kernel *kern, const rdb_slice *s, int8_t *best, int g,
                        const int8_t *nb)
{
    const rdb_layout *lay = kern->lay;
    const dots_rules *r = kern->rules;
    const int G = lay->ngroups, I = G - 1;
    uint32_t radix[RDB_MAX_GROUPS], nradix[RDB_MAX_GROUPS];
    for (int h = 0; h < G; h++)
        radix[h] = nradix[h] = lay->count[h][s->counts[h]];
    nradix[g] = lay->count[g][s->counts[g] + 1];

    if (G == 1) {
        /* one group, which is group 0: every child is made canonical */
        const uint16_t *st = lay->states[0][s->counts[0]];
        const uint16_t *mv = lay->moves[0];
#pragma omp parallel for schedule(static)
        for (uint32_t i = 0; i < radix[0]; i++) {
            unsigned p = st[i];
            int8_t b = best[i];
            for (unsigned m = mv[p]; m; m &= m - 1) {
                int bit = __builtin_ctz(m);
                unsigned c = p | 1u << bit;
                if (lay->ntransforms > 1)
                    c = lay->perm[lay->canon_t[c]][0][c];
                int v = nb[lay->rank[0][c]];
                b = max8(b, dots_rules_move(r, p, bit, v));
            }
            best[i] = b;
        }
        return;
    }

    const uint32_t m_inner = radix[I], nm_inner = nradix[I];
    const int k_inner = s->counts[I], off_inner = lay->off[I];
    const uint16_t *inner_states = lay->states[I][k_inner];
    const uint64_t outer_bits = (1ULL << off_inner) - 1;
    const uint64_t rows = s->size / m_inner;

#pragma omp parallel for schedule(dynamic, 64)
    for (uint64_t o = 0; o < rows; o++) {
        uint32_t rk[RDB_MAX_GROUPS];
        unsigned st[RDB_MAX_GROUPS];
        uint64_t x = o, outer_pos = 0;
        for (int h = I - 1; h >= 0; h--) {
            rk[h] = (uint32_t)(x % radix[h]);
            x /= radix[h];
        }
        for (int h = 0; h < I; h++) {
            st[h] = lay->states[h][s->counts[h]][rk[h]];
            outer_pos |= (uint64_t)st[h] << lay->off[h];
        }
        int8_t *brow = best + o * m_inner;

        if (g == I) {
            relax_inner(kern, s, brow, nb + o * nm_inner, outer_pos);
            continue;
        }

        for (unsigned m = lay->moves[g][st[g]]; m; m &= m - 1) {
            int bit = __builtin_ctz(m);
            unsigned c = st[g] | 1u << bit;
            int t = 0;
            if (g == 0 && lay->ntransforms > 1) {
                t = lay->canon_t[c];
                c = lay->perm[t][0][c];
            }
            uint64_t co = 0;
            for (int h = 0; h < I; h++) {
                unsigned sh = h == g ? c : t ? lay->perm[t][h][st[h]] : st[h];
                co = co * nradix[h] + lay->rank[h][sh];
            }
            const int8_t *crow = nb + co * m_inner;
            const uint16_t *perm = t ? lay->permrank[t][k_inner] : NULL;

            int ubit = lay->off[g] + bit, fixed = 0, ninner = 0;
            if (r->chain_of[ubit] >= 0) {
                relax_row_chain(brow, crow, perm, inner_states, m_inner,
                                &r->chain[r->chain_of[ubit]], outer_pos, off_inner);
                continue;
            }
            unsigned mask[2];
            for (int k = 0; k < r->nbox[ubit]; k++) {
                uint64_t bm = r->box_mask[ubit][k];
                uint64_t outer_part = bm & outer_bits;
                if ((outer_pos & outer_part) != outer_part)
                    continue;
                unsigned inner_part = (unsigned)(bm >> off_inner);
                if (inner_part == 0)
                    fixed++;
                else
                    mask[ninner++] = inner_part;
            }
            relax_row(brow, crow, perm, inner_states, m_inner, fixed, ninner, mask, r->scale,
                      r->flip);
        }
    }
}

void dots_slice_begin(void *kernel, const rdb_slice *s, int8_t *best)
{
    const dots_kernel *kern = kernel;
    if (s->level == kern->lay->nbits)
        best[0] = kern->rules->full_value;
    else
        memset(best, NO_VALUE, s->size);
}

void dots_slice_relax(void *kernel, const rdb_slice *s, const rdb_slice *n,
                      const int8_t *nvalues, int8_t *best)
{
    const dots_kernel *kern = kernel;
    int g = 0;
    while (n->counts[g] == s->counts[g])
        g++;
    relax_group(kern, s, best, g, nvalues);
}

rdb_status dots_slice_finish(void *kernel, const rdb_slice *s, int8_t *best, rdb_error *err)
{
    const dots_kernel *kern = kernel;
    if (s->level == kern->lay->nbits)
        return RDB_OK;
    /* every position below the full board has a move: a gap is a bug */
    uint64_t gaps = 0;
#pragma omp parallel for reduction(+ : gaps) schedule(static)
    for (uint64_t i = 0; i < s->size; i++)
        gaps += best[i] == NO_VALUE;
    if (gaps)
        return rdb_fail(err, RDB_E_CORRUPT, "internal error: %llu positions of level %d got no value",
                        (unsigned long long)gaps, s->level);
    if (kern->loony)
        loony_offers_mark(kern->loony, s, best);
    return RDB_OK;
}

rdb_status dots_kernel_new(const dots_rules *r, const rdb_layout *lay, dots_kernel **out,
                           rdb_error *err)
{
    dots_kernel *kern = *out = calloc(1, sizeof *kern);
    if (!kern)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for kernel tables");
    kern->lay = lay;
    kern->rules = r;
    if (r->loony && !(kern->loony = loony_offers_new(lay, r))) {
        dots_kernel_free(kern);
        *out = NULL;
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for loony tables");
    }
    if (lay->ngroups < 2)
        return RDB_OK; /* one group: relax_group's generic path */
    const int I = lay->ngroups - 1, off = lay->off[I], n = lay->size[I];
    for (int k = 0; k < n; k++) {
        uint32_t m = lay->count[I][k];
        int per = 0;
        /* chain pseudo-lines stay out of the lists (relax_inner) */
        const unsigned lines_only = ~(unsigned)(r->chain_bits >> off);
        for (uint32_t i = 0; i < m; i++) {
            int c = __builtin_popcount(lay->moves[I][lay->states[I][k][i]] & lines_only);
            per = c > per ? c : per;
        }
        uint32_t *mv = kern->inner[k] = calloc((size_t)m * (size_t)per + 1, sizeof *mv);
        if (!mv) {
            dots_kernel_free(kern);
            *out = NULL;
            return rdb_fail(err, RDB_E_NOMEM, "out of memory for kernel tables");
        }
        kern->inner_moves[k] = per;
        for (uint32_t i = 0; i < m; i++) {
            unsigned st = lay->states[I][k][i];
            int j = 0;
            for (unsigned bits = lay->moves[I][st] & lines_only; bits; bits &= bits - 1, j++) {
                int b = __builtin_ctz(bits);
                unsigned f = 0;
                for (int x = 0; x < r->nbox[off + b]; x++) {
                    unsigned inner = (unsigned)(r->box_mask[off + b][x] >> off) & ((1u << n) - 1);
                    if ((st & inner) == inner)
                        f |= 1u << x;
                }
                mv[(size_t)i * per + j] = (uint32_t)(b << 2 | f) << 16 | lay->rank[I][st | 1u << b];
            }
            for (; j < per; j++)
                mv[(size_t)i * per + j] = (uint32_t)RDB_KPAD << 16;
        }
#ifdef DOTS_KERNEL_AVX512
        const uint32_t blocks = (m + 15) / 16;
        uint32_t *t = kern->inner16[k] = malloc(((size_t)blocks * 16 * (size_t)per + 1) * sizeof *t);
        if (!t) {
            dots_kernel_free(kern);
            *out = NULL;
            return rdb_fail(err, RDB_E_NOMEM, "out of memory for kernel tables");
        }
        for (uint32_t i = 0; i < blocks * 16; i++)
            for (int j = 0; j < per; j++)
                t[(size_t)(i / 16) * per * 16 + (size_t)j * 16 + i % 16] =
                    i < m ? mv[(size_t)i * per + j] : (uint32_t)RDB_KPAD << 16;
        /* the vector loop reads only the transposed lists */
        free(mv);
        kern->inner[k] = NULL;
#endif
    }
    return RDB_OK;
}

void dots_kernel_free(dots_kernel *kern)
{
    if (!kern)
        return;
    loony_offers_free(kern->loony);
    for (int k = 0; k <= RDB_MAX_GROUP_BITS; k++) {
        free(kern->inner[k]);
#ifdef DOTS_KERNEL_AVX512
        free(kern->inner16[k]);
#endif
    }
    free(kern);
}
