/*
 * loony_offers.c — see loony_offers.h.
 */
#include "dots/loony_offers.h"

#include <stdlib.h>
#include <string.h>

/* Sides of the two boxes of a line, other than the line: 6. */
#define PAIR_SIDES 6

typedef struct {
    int bit;            /* the line (layout bit) */
    uint64_t outer;     /* its boxes' other open sides in the outer groups */
    int inner_line;     /* the line is in the inner group */
    int need;           /* drawn sides wanted among the open ones: 5 - drawn at start */
} interior_line;

struct loony_offers {
    const rdb_layout *lay;
    int nlines;
    interior_line line[RDB_MAX_BITS];
    /* set[k][j * (PAIR_SIDES + 1) + n]: bitset over the ranks of the inner
     * states of count k in which line j's boxes have n of their other open
     * sides drawn (and line j itself, if inner, is open) */
    uint64_t *set[RDB_MAX_GROUP_BITS + 1];
    size_t words[RDB_MAX_GROUP_BITS + 1];
};

loony_offers *loony_offers_new(const rdb_layout *lay, const dots_rules *r)
{
    const int I = lay->ngroups - 1, off = lay->off[I], n = lay->size[I];
    loony_offers *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->lay = lay;
    uint64_t inner_mask[RDB_MAX_BITS];
    for (int m = 0; m < r->nbits; m++) {
        if (r->nbox[m] != 2)
            continue;
        uint64_t pair = r->box_mask[m][0] | r->box_mask[m][1];
        interior_line *l = &t->line[t->nlines];
        l->bit = m;
        l->outer = off ? pair & ((1ULL << off) - 1) : 0;
        l->inner_line = m >= off;
        l->need = 5 - (PAIR_SIDES - __builtin_popcountll(pair));
        inner_mask[t->nlines] = pair >> off;
        t->nlines++;
    }
    for (int k = 0; k <= n; k++) {
        const uint32_t count = lay->count[I][k];
        const size_t words = (count + 63) / 64;
        t->words[k] = words;
        t->set[k] = calloc(words * (size_t)t->nlines * (PAIR_SIDES + 1) + 1, sizeof(uint64_t));
        if (!t->set[k]) {
            loony_offers_free(t);
            return NULL;
        }
        for (int j = 0; j < t->nlines; j++) {
            const interior_line *l = &t->line[j];
            uint64_t *base = t->set[k] + (size_t)j * (PAIR_SIDES + 1) * words;
            for (uint32_t i = 0; i < count; i++) {
                unsigned st = lay->states[I][k][i];
                if (l->inner_line && (st >> (l->bit - off) & 1))
                    continue;
                int drawn = __builtin_popcountll(st & inner_mask[j]);
                base[(size_t)drawn * words + i / 64] |= 1ULL << (i % 64);
            }
        }
    }
    return t;
}

void loony_offers_free(loony_offers *t)
{
    if (!t)
        return;
    for (int k = 0; k <= RDB_MAX_GROUP_BITS; k++)
        free(t->set[k]);
    free(t);
}

void loony_offers_mark(const loony_offers *t, const rdb_slice *s, int8_t *best)
{
    const rdb_layout *lay = t->lay;
    const int G = lay->ngroups, I = G - 1, k = s->counts[I];
    uint32_t radix[RDB_MAX_GROUPS];
    for (int h = 0; h < G; h++)
        radix[h] = lay->count[h][s->counts[h]];
    const uint32_t m_inner = radix[I];
    const size_t words = t->words[k];
    const uint64_t rows = s->size / m_inner;
#pragma omp parallel for schedule(dynamic, 64)
    for (uint64_t o = 0; o < rows; o++) {
        uint64_t x = o, outer_pos = 0;
        for (int h = I - 1; h >= 0; h--) {
            outer_pos |= (uint64_t)lay->states[h][s->counts[h]][x % radix[h]] << lay->off[h];
            x /= radix[h];
        }
        uint64_t acc[(12870 + 63) / 64];
        memset(acc, 0, words * sizeof *acc);
        for (int j = 0; j < t->nlines; j++) {
            const interior_line *l = &t->line[j];
            if (!l->inner_line && (outer_pos >> l->bit & 1))
                continue;
            int n = l->need - __builtin_popcountll(outer_pos & l->outer);
            if (n < 0 || n > PAIR_SIDES)
                continue;
            const uint64_t *set = t->set[k] + ((size_t)j * (PAIR_SIDES + 1) + (size_t)n) * words;
            for (size_t w = 0; w < words; w++)
                acc[w] |= set[w];
        }
        int8_t *brow = best + o * m_inner;
        for (size_t w = 0; w < words; w++)
            for (uint64_t bits = acc[w]; bits; bits &= bits - 1) {
                size_t i = w * 64 + (size_t)__builtin_ctzll(bits);
                brow[i] = (int8_t)((brow[i] & ~3) | LOONY_MARK_OPPONENT);
            }
    }
}
