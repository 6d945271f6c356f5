/*
 * cram_wide.c — components and canonical forms on 128-bit sets; see
 * cram_wide.h. The same steps as cram_component.c, on two words.
 */
#include "cram/cram_wide.h"

#include <assert.h>

#include "common/bits.h"
#include "cram/cram_reduce.h"

void cram_wide_geom_init(cram_wide_geom *g, int height, int stride)
{
    assert(stride >= 1 && stride <= CRAM_MAX_STRIDE && stride <= height && height * stride <= CRAM_WIDE_MAX_CELLS);
    g->height = height;
    g->stride = stride;
    int n = height * stride;
    g->all = n == 128 ? ~(cram_wset)0 : cram_wbit(n) - 1;
    for (int j = 0; j < CRAM_MAX_STRIDE; j++) {
        g->col[j] = 0;
        if (j < stride)
            for (int i = 0; i < height; i++)
                g->col[j] |= cram_wbit(i * stride + j);
    }
    g->not_first_col = g->all & ~g->col[0];
    g->not_last_col = g->all & ~g->col[stride - 1];
}

int cram_wide_split(const cram_wide_geom *g, cram_wset x, cram_wset *comp, int max)
{
    x &= cram_wide_neighbours(g, x);
    int n = 0;
    while (x) {
        cram_wset c = x & -x, prev;
        do {
            prev = c;
            c = (c | cram_wide_neighbours(g, c)) & x;
        } while (c != prev);
        if (n < max)
            comp[n] = c;
        n++;
        x &= ~c;
    }
    return n;
}

/* Cells c-1 .. c-1+width of row r of x as the low bits (0 off the board). */
static inline unsigned box_row(const cram_wide_geom *g, cram_wset x, int r, int c, unsigned width_mask)
{
    if (r < 0 || r >= g->height)
        return 0;
    const unsigned row = (unsigned)(x >> (r * g->stride)) & ((1u << g->stride) - 1);
    return (row << 1 >> c) & width_mask;
}

int cram_wide_split_child(const cram_wide_geom *g, cram_wset x, int cell, int vertical, cram_wset *comp,
                          int max)
{
    const int s = g->stride, r = cell / s, c = cell % s;
    cram_wset y;
    unsigned box;
    if (vertical) {
        y = x & ~(cram_wbit(cell) | cram_wbit(cell + s));
        box = box_row(g, y, r - 1, c, 7) | box_row(g, y, r, c, 7) << 3 | box_row(g, y, r + 1, c, 7) << 6 |
              box_row(g, y, r + 2, c, 7) << 9;
    } else {
        y = x & ~(cram_wbit(cell) | cram_wbit(cell + 1));
        box = box_row(g, y, r - 1, c, 15) | box_row(g, y, r, c, 15) << 4 | box_row(g, y, r + 1, c, 15) << 8;
    }
    /* x is connected, so every cell of y joins, inside y, one of the
     * domino's free neighbours (a path of x from it to the domino enters
     * the domino by one), and neighbours joined inside the box are joined
     * in y: a component per group at most (cram_ring_groups). One group:
     * y is connected. Two: they grow side by side, a step at a time, and
     * are one when they meet, or two when one stops first (the rest of y
     * is then the other), so a move that cuts a small part off a long one
     * costs the small part's flood fill. A component of one cell has no
     * move and is dropped. */
    unsigned groups = cram_ring_groups(vertical, box);
    cram_wset part[4];
    int growing = 0;
    for (; growing < 4 && (groups & 0xf) != 0xf; groups >>= 4)
        part[growing++] = cram_wbit(cell + cram_ring_offset(vertical, (int)(groups & 0xf), s));
    if (growing > 2)
        return cram_wide_split(g, y, comp, max);
    cram_wset a = y, b = 0;
    if (growing == 2) {
        a = part[0];
        b = part[1];
        for (;;) {
            const cram_wset next_a = (a | cram_wide_neighbours(g, a)) & y;
            const cram_wset next_b = (b | cram_wide_neighbours(g, b)) & y;
            if (next_a & next_b) {
                a = y;
                b = 0;
                break;
            }
            if (next_a == a) {
                b = y & ~a;
                break;
            }
            if (next_b == b) {
                a = y & ~b;
                break;
            }
            a = next_a;
            b = next_b;
        }
    }
    /* in the order of their lowest cells, as cram_wide_split gives them */
    if (b && (!a || (b & -b) < (a & -a))) {
        const cram_wset t = a;
        a = b;
        b = t;
    }
    int n = 0;
    if (cram_wpopcount(a) >= 2 && n++ < max)
        comp[0] = a;
    if (cram_wpopcount(b) >= 2 && n++ < max)
        comp[n - 1] = b;
    return n;
}

int cram_wide_rows(const cram_wide_geom *g, cram_wset x)
{
    return cram_whighest(x) / g->stride - cram_wlowest(x) / g->stride + 1;
}

uint64_t cram_wide_to_narrow(const cram_wide_geom *g, cram_wset x)
{
    assert(cram_wide_rows(g, x) * g->stride <= 64);
    return (uint64_t)(x >> (cram_wlowest(x) / g->stride * g->stride));
}

static inline cram_wset wmin(cram_wset a, cram_wset b)
{
    return a < b ? a : b;
}

/* Bit b to bit 127 - b. */
static inline cram_wset reverse128(cram_wset x)
{
    return (cram_wset)rdb_reverse64((uint64_t)x) << 64 | rdb_reverse64((uint64_t)(x >> 64));
}

/* Columns of a box w wide in the corner mirrored (column j to w-1-j). */
static inline cram_wset mirror_columns(const cram_wide_geom *g, cram_wset x, int w)
{
    cram_wset m = w & 1 ? x & g->col[w / 2] : 0;
    for (int j = 0, k = w - 1; j < k; j++, k--)
        m |= (x & g->col[j]) << (k - j) | (x & g->col[k]) >> (k - j);
    return m;
}

cram_wset cram_wide_canonical(const cram_wide_geom *g, cram_wset x, int *hp, int *wp, int *zero)
{
    assert(x != 0 && (x & ~g->all) == 0);
    const int s = g->stride;
    x >>= cram_wlowest(x) / s * s;
    int left = 0;
    while (!(x & g->col[left]))
        left++;
    x >>= left;
    int w = s - left;
    while (!(x & g->col[w - 1]))
        w--;
    int h = cram_whighest(x) / s + 1;
    if (hp)
        *hp = h;
    if (wp)
        *wp = w;
    /* the half turn: cell (i, j) to (h-1-i, w-1-j), as in cram_component.c */
    cram_wset half = reverse128(x) >> (128 - (h - 1) * s - w);
    if (zero) {
        /* the rule of cram_component.c's half_turn_zero */
        const int r = h / 2, c = w / 2;
        if (half != x)
            *zero = 0;
        else if (h & 1 && w & 1)
            *zero = !(int)(x >> (r * s + c) & 1);
        else if (h & 1)
            *zero = (int)(x >> (r * s + c - 1) & 3) != 3;
        else if (w & 1)
            *zero = !((int)(x >> ((r - 1) * s + c) & 1) && (int)(x >> (r * s + c) & 1));
        else
            *zero = 1;
    }
    return wmin(wmin(x, mirror_columns(g, x, w)), wmin(half, mirror_columns(g, half, w)));
}
