/*
 * cram_wide.h — the bit tricks of cram_component.h for boards of more
 * than 64 cells (up to 128), on 128-bit sets.
 *
 * The solver works on such a board in the same kind of layout: `height`
 * rows of `stride` columns, stride <= height, cell (r, c) at bit
 * r*stride + c, only the word is twice as long. Most of a search on such
 * a board never needs it: a component no taller than the 64-bit layout of
 * the same stride is moved there (cram_wide_to_narrow) and searched by the
 * 64-bit code, and only components taller than that, one or two percent
 * of the positions expanded on 3x17 and 3x18 counted as if they were that
 * tall, stay here. So these are plain and unhurried, and a component's
 * canonical form is the least of its four mirror images (the transposed
 * images, which a box no wider than tall rarely fits, are left out: a
 * shape and its transpose then get two keys, each with the right
 * nimber).
 */
#ifndef RDB_CRAM_WIDE_H
#define RDB_CRAM_WIDE_H

#include <stdint.h>

#include "cram/cram_component.h"

typedef unsigned __int128 cram_wset;

#define CRAM_WIDE_MAX_CELLS 128

typedef struct {
    int height, stride;
    cram_wset all;
    cram_wset not_first_col, not_last_col;
    cram_wset col[CRAM_MAX_STRIDE]; /* the cells of column j */
} cram_wide_geom;

static inline cram_wset cram_wbit(int i)
{
    return (cram_wset)1 << i;
}

static inline int cram_wpopcount(cram_wset x)
{
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

/* Lowest set bit of a nonempty set. */
static inline int cram_wlowest(cram_wset x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* Highest set bit of a nonempty set. */
static inline int cram_whighest(cram_wset x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)x);
}

/* Set up the layout of height x stride cells (1 <= stride <= CRAM_MAX_STRIDE,
 * stride <= height, height*stride <= 128). */
void cram_wide_geom_init(cram_wide_geom *g, int height, int stride);

static inline cram_wset cram_wide_neighbours(const cram_wide_geom *g, cram_wset x)
{
    return (((x << 1) & g->not_first_col) | ((x >> 1) & g->not_last_col) | (x << g->stride) |
            (x >> g->stride)) &
           g->all;
}

/* Moves of x: bit i set when the domino whose left (top) cell is i has
 * both cells in x. */
static inline cram_wset cram_wide_hmoves(const cram_wide_geom *g, cram_wset x)
{
    return x & (x >> 1) & g->not_last_col;
}

static inline cram_wset cram_wide_vmoves(const cram_wide_geom *g, cram_wset x)
{
    return x & (x >> g->stride);
}

/* Split x into its connected components of two cells or more (see
 * cram_split); at most `max` of them are stored in comp. Returns how many
 * there are. */
int cram_wide_split(const cram_wide_geom *g, cram_wset x, cram_wset *comp, int max);

/* The same for the child of a connected x left by the domino whose top
 * left cell is `cell`: x less the domino, found whole without a flood
 * fill when the domino's free neighbours are joined around it (as
 * cram_split_child). */
int cram_wide_split_child(const cram_wide_geom *g, cram_wset x, int cell, int vertical, cram_wset *comp,
                          int max);

/* Rows of a nonempty set from its top row to its bottom row. */
int cram_wide_rows(const cram_wide_geom *g, cram_wset x);

/* A component of at most 64 / stride rows moved to the top of the layout,
 * where it is a set of the 64-bit layout of the same stride. */
uint64_t cram_wide_to_narrow(const cram_wide_geom *g, cram_wset x);

/* Canonical form of a nonempty component (its least mirror image in the
 * top left corner), its bounding box in *h x *w, and in *zero whether the
 * mirror rule makes it 0 (see cram_canonical_zero). */
cram_wset cram_wide_canonical(const cram_wide_geom *g, cram_wset x, int *h, int *w, int *zero);

#endif
