/*
 * cram_component.h — the bit tricks the Cram solver runs at every node:
 * splitting a set of free cells into connected components and putting a
 * component in canonical form.
 *
 * The solver works in a layout of its own: a board of `height` rows of
 * `stride` columns with stride <= height (a board wider than tall is
 * transposed once on the way in), cell (r, c) at bit r*stride + c. So the
 * stride is at most 8 on every board with a side of 8 or fewer, and at
 * most 11 (CRAM_MAX_STRIDE) on the others of 128 cells or fewer (9x9 to
 * 11x11), which keeps mirrors and transposes to a handful of shifts and
 * table lookups. (A board of more than 64 cells has a layout of 63 /
 * stride rows for its components that fit, cram_wide.h: 7 rows of 8 on
 * 8x9, 7 of 9 on 9x9, 5 of 11 on 11x11.)
 *
 * A component's canonical form is its least image, as a uint64_t, among
 * the shapes it takes under the symmetries of the rectangle that still fit
 * the layout, each moved to the top left corner. Since every image is the
 * same shape, two components are equal up to symmetry exactly when their
 * canonical forms are equal, which makes the canonical form a key for the
 * transposition table.
 */
#ifndef RDB_CRAM_COMPONENT_H
#define RDB_CRAM_COMPONENT_H

#include <stdint.h>

/* A split gives at most this many components: a move's two cells touch at
 * most six others; a whole board of isolated dominoes gives 32. */
#define CRAM_MAX_COMPONENTS 32

/* A row of the layout: at most this many cells. Every board of 128 cells
 * or fewer has a side of 11 or fewer (12x12 is 144), and the solver lays
 * a board out with its shorter side across. */
#define CRAM_MAX_STRIDE 11

typedef struct {
    int height, stride;
    uint64_t all;                 /* every cell of the layout */
    uint64_t not_first_col, not_last_col;
    uint64_t row0;                /* the cells of row 0 */
    uint64_t col[CRAM_MAX_STRIDE]; /* the cells of column j */
    uint64_t spread[256];         /* the bits of one row turned into a column:
                                     bit j -> bit j*stride; a transposed box
                                     is no wider than the layout is tall,
                                     which with a stride over 8 (more than 64
                                     cells, 63 / stride rows) is 7 or fewer */
    uint8_t row_of[64], col_of[64]; /* cell i is (row_of[i], col_of[i]): a
                                     division by the stride at every move is
                                     dear */
} cram_geom;

/* Set up the layout of height x stride cells (1 <= stride <= CRAM_MAX_STRIDE,
 * stride*height <= 64; stride <= height but on a board of more than 64
 * cells, whose 64-bit layout keeps 63 / stride rows). */
void cram_geom_init(cram_geom *g, int height, int stride);

/* Free cells next to a cell of x (inside the layout, x itself excluded
 * only where it has no neighbour in x). */
static inline uint64_t cram_neighbours(const cram_geom *g, uint64_t x)
{
    return (((x << 1) & g->not_first_col) | ((x >> 1) & g->not_last_col) | (x << g->stride) |
            (x >> g->stride)) &
           g->all;
}

/* Horizontal and vertical moves of x: bit i set when the domino whose left
 * (top) cell is i has both cells in x. */
static inline uint64_t cram_hmoves(const cram_geom *g, uint64_t x)
{
    return x & (x >> 1) & g->not_last_col;
}
static inline uint64_t cram_vmoves(const cram_geom *g, uint64_t x)
{
    return x & (x >> g->stride);
}

/* Split x into its connected components of two cells or more (a free cell
 * with no free neighbour can never be covered, so it is dropped); stores
 * them in comp (CRAM_MAX_COMPONENTS entries) in no particular form and
 * returns how many. */
int cram_split(const cram_geom *g, uint64_t x, uint64_t *comp);

/* Canonical form of a nonempty component (see above); stores its bounding
 * box in *h x *w when those are not NULL. */
uint64_t cram_canonical(const cram_geom *g, uint64_t x, int *h, int *w);

/* The same, and in *zero whether the mirror rule makes the component's
 * nimber 0: the half turn of its box maps it onto itself, and no domino
 * of it meets its own image (none is its own image, and the centre cell
 * of an odd x odd box is not free). The second player then answers each
 * move with its image, which is still free (the position was symmetric
 * and the move does not meet its image) and makes the position symmetric
 * again, so the first player runs out of moves first.
 *
 * No reflection can do the same for a component. A connected set that a
 * reflection maps onto itself has cells on both sides of the axis, and a
 * path between them crosses the axis: through a cell on it (an odd-width
 * axis, or the diagonal of a transpose), which lies in a domino with the
 * next cell of the path, a domino that meets its image in that cell; or
 * between the two cells next to an even-width axis, a domino that is its
 * own image. Positions made of components that a reflection swaps are
 * sums of equal parts, which cancel already. */
uint64_t cram_canonical_zero(const cram_geom *g, uint64_t x, int *h, int *w, int *zero);

#endif
