/*
 * cram_component.c — component split and canonical form; see
 * cram_component.h.
 *
 * Mirrors work on the box of the component once it sits in the corner:
 * mirroring the columns moves each column j of the box to w-1-j, mirroring
 * the rows moves row i to h-1-i, and the transpose turns each row into a
 * column through the `spread` table. The half turn is a reversal of the
 * word's bits, and the mirrors take a pass over the columns, so the cost
 * does not grow with the box's height (up to 21 rows on 3x21). A transpose
 * fits the layout when the component is no taller than the stride.
 *
 * The flood fill grows a component by one step in all four directions per
 * round. Filling whole runs per round (Kogge-Stone shifts) was measured
 * slower, on the small boards and on 3x17 too (17.1 s against 14.0 s):
 * the search's components take few steps, and the solver's split of a
 * child (cram_split_child) avoids most flood fills over long ones.
 */
#include "cram/cram_component.h"

#include <assert.h>
#include <stddef.h>

#include "common/bits.h"

void cram_geom_init(cram_geom *g, int height, int stride)
{
    assert(stride >= 1 && stride <= CRAM_MAX_STRIDE && height >= 1 && height * stride <= 64);
    g->height = height;
    g->stride = stride;
    int n = height * stride;
    g->all = n == 64 ? ~0ULL : (1ULL << n) - 1;
    g->row0 = (1ULL << stride) - 1;
    for (int i = 0; i < 64; i++) {
        g->row_of[i] = (uint8_t)(i / stride);
        g->col_of[i] = (uint8_t)(i % stride);
    }
    for (int j = 0; j < CRAM_MAX_STRIDE; j++) {
        g->col[j] = 0;
        if (j < stride)
            for (int i = 0; i < height; i++)
                g->col[j] |= 1ULL << (i * stride + j);
    }
    g->not_first_col = g->all & ~g->col[0];
    g->not_last_col = g->all & ~g->col[stride - 1];
    for (int v = 0; v < 256; v++) {
        g->spread[v] = 0;
        for (int j = 0; j < stride && j < 8 && j * stride < 64; j++) /* the bits a transpose uses */
            if (v >> j & 1)
                g->spread[v] |= 1ULL << (j * stride);
    }
}

int cram_split(const cram_geom *g, uint64_t x, uint64_t *comp)
{
    x &= cram_neighbours(g, x);
    int n = 0;
    while (x) {
        uint64_t c = x & -x, prev;
        do {
            prev = c;
            c = (c | cram_neighbours(g, c)) & x;
        } while (c != prev);
        assert(n < CRAM_MAX_COMPONENTS);
        comp[n++] = c;
        x &= ~c;
    }
    return n;
}

static inline uint64_t min2(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* x, whose box is w columns wide in the corner, with its columns mirrored
 * (column j to w-1-j): a pass over the columns, at most CRAM_MAX_STRIDE. */
static inline uint64_t mirror_columns(const cram_geom *g, uint64_t x, int w)
{
    uint64_t m = w & 1 ? x & g->col[w / 2] : 0;
    for (int j = 0, k = w - 1; j < k; j++, k--)
        m |= (x & g->col[j]) << (k - j) | (x & g->col[k]) >> (k - j);
    return m;
}

/* The least of the four mirror images of x, whose box is h x w in the
 * corner. The half turn is the bit reversal of the whole word, shifted
 * back into the corner (cell (i, j) at bit i*s + j goes to 63 - i*s - j,
 * and (h-1-i)*s + (w-1-j) is that less 64 - (h-1)*s - w); the row mirror
 * is the half turn with its columns mirrored back. So the cost grows with
 * the box's width, at most CRAM_MAX_STRIDE, not with its height, up to 64 on the long
 * boards. */
static inline uint64_t least_mirror(const cram_geom *g, uint64_t x, int h, int w)
{
    uint64_t mrc = rdb_reverse64(x) >> (64 - (h - 1) * g->stride - w);
    uint64_t mc = mirror_columns(g, x, w), mr = mirror_columns(g, mrc, w);
    return min2(min2(x, mc), min2(mr, mrc));
}

/* Whether x, in the corner with an h x w box, is its own image under the
 * half turn and no domino of it meets its own image: a second-player win
 * by copying (see cram_component.h). A domino meets its image when it
 * holds the centre cell (h and w odd) or is the pair the half turn swaps:
 * cells (r, c) and (h-1-r, w-1-c) are next to each other only when one of
 * h-1-2r and w-1-2c is 0 and the other is +-1, i.e. the two middle cells
 * of the middle row (h odd, w even) or of the middle column (h even, w
 * odd). An even x even box has neither. */
static inline int half_turn_zero(const cram_geom *g, uint64_t x, uint64_t half_turn, int h, int w)
{
    if (half_turn != x)
        return 0;
    const int s = g->stride, r = h / 2, c = w / 2;
    if (h & 1 && w & 1)
        return !(x >> (r * s + c) & 1);
    if (h & 1)
        return (x >> (r * s + c - 1) & 3) != 3;
    if (w & 1)
        return !(x >> ((r - 1) * s + c) & 1 && x >> (r * s + c) & 1);
    return 1;
}

uint64_t cram_canonical(const cram_geom *g, uint64_t x, int *hp, int *wp)
{
    return cram_canonical_zero(g, x, hp, wp, NULL);
}

uint64_t cram_canonical_zero(const cram_geom *g, uint64_t x, int *hp, int *wp, int *zero)
{
    assert(x != 0 && (x & ~g->all) == 0);
    const int s = g->stride;
    x >>= g->row_of[__builtin_ctzll(x)] * s;
    int left = 0;
    while (!(x & g->col[left]))
        left++;
    x >>= left;
    int w = s - left;
    while (!(x & g->col[w - 1]))
        w--;
    int h = g->row_of[63 - __builtin_clzll(x)] + 1;
    if (hp)
        *hp = h;
    if (wp)
        *wp = w;

    if (zero)
        *zero = half_turn_zero(g, x, rdb_reverse64(x) >> (64 - (h - 1) * s - w), h, w);
    uint64_t best = least_mirror(g, x, h, w);
    /* the transposed box, w x h, fits when h <= s (and w <= height, which
     * only the layout of a wide board with stride 8, 7 rows, can fail) */
    if (h <= s && w <= g->height) {
        uint64_t t = 0;
        for (int i = 0; i < h; i++)
            t |= g->spread[(x >> (i * s)) & g->row0] << i;
        best = min2(best, least_mirror(g, t, w, h));
    }
    return best;
}
