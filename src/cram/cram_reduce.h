/*
 * cram_reduce.h — smaller Cram positions with the same nimber, found by
 * bit tricks before a position is split into components.
 *
 * Cram on a set of free cells is Cram on a graph: the cells are vertices,
 * and a move takes two adjacent ones. Two kinds of cells and two kinds of
 * edges can go without changing the nimber (cram_reduce.c proves each):
 *
 *   stars    of several dead ends (cells with one free neighbour) hanging
 *            on one cell, all but one;
 *   bridges  a cell, no dead end itself, every one of whose neighbours
 *            carries a dead end;
 *   twins    in a 2x2 square whose two opposite corners have the square's
 *            other two cells as their only neighbours, the square's two
 *            horizontal edges: each of their moves is the mirror image of a
 *            vertical one. Without those edges a component may fall apart.
 *
 * The split below applies all three and returns the components, so that
 * every search node and every table key works on the reduced form.
 */
#ifndef RDB_CRAM_REDUCE_H
#define RDB_CRAM_REDUCE_H

#include <stdint.h>

#include "cram/cram_component.h"

/* x without its surplus dead ends and its bridges. */
uint64_t cram_reduce_stars(const cram_geom *g, uint64_t x);

/* The left cells of the horizontal dominoes of x that twin squares make
 * redundant (see above). */
uint64_t cram_twin_edges(const cram_geom *g, uint64_t x);

/* Split x into the components of its reduced graph (star and bridge
 * reductions, twin edges dropped, again on every part that fell apart),
 * each of two cells or more, in no particular form; stores them in comp
 * (CRAM_MAX_COMPONENTS entries) and returns how many. The xor of their
 * nimbers is the nimber of x. */
int cram_split_reduced(const cram_geom *g, uint64_t x, uint64_t *comp);

/* cram_split_reduced of x without the domino whose top left cell is
 * `cell` (vertical or not), for x connected: the same parts in the same
 * order, found faster. The ten cells around the domino tell whether the
 * move can split x at all, and into how many parts at most; a part cut off
 * costs a flood fill of its own cells, not of the whole component. Moves
 * that leave a bridge or a twin edge go through cram_split_reduced. */
int cram_split_child(const cram_geom *g, uint64_t x, int cell, int vertical, uint64_t *comp);

/* The free cells next to a domino that are joined inside the box of the
 * ten cells around it (3 rows of 4 about a horizontal domino, its cells
 * box cells 5 and 6; 4 rows of 3 about a vertical one, cells 4 and 7),
 * `box` the box's free cells, bit i box cell i row by row: the lowest box
 * cell of each group in a nibble, in increasing order, 0xf after the last
 * when there are fewer than four. */
unsigned cram_ring_groups(int vertical, unsigned box);

/* How far box cell b (of cram_ring_groups' box) lies from the domino's
 * top left cell, in a layout `stride` cells across. */
static inline int cram_ring_offset(int vertical, int b, int stride)
{
    const int box_r = vertical ? b / 3 : b >> 2, box_c = vertical ? b % 3 : b & 3;
    return (box_r - 1) * stride + box_c - 1;
}

#endif
