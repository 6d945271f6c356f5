/*
 * cram_reduce.c — the reductions of cram_reduce.h, and why each keeps the
 * nimber.
 *
 * Throughout, a position is a graph G (free cells, adjacency), nim(G) its
 * nimber, and "G - v" the graph without cell v. Two positions whose sets of
 * children's nimbers are equal have the same nimber (it is the mex of that
 * set); the proofs below show that, by induction on the number of cells.
 *
 * Stars. Let t1 and t2 be dead ends on the same cell c (each has c as its
 * only neighbour). Then nim(G) = nim(G - t2). The moves of G - t2 are moves
 * of G. G has one more, (t2,c), and it leaves the same position as (t1,c)
 * up to the dead cell left behind (t1 there, t2 here), which no move can
 * use: the same nimber. Every other child of G is the matching child of
 * G - t2 plus t2, where t2 is still a second dead end on c (or, when c was
 * taken, a dead cell): equal by induction.
 *
 * Bridges. Let x be a cell, not a dead end, each of whose neighbours n_i
 * carries a dead end t_i (its only neighbour being n_i; t_i is not x, as x
 * is no dead end on n_i). Then nim(G) = nim(G - x). A move (x,n_i) leaves
 * the same position as the move (t_i,n_i) of G - x, up to a dead cell (t_i
 * in one, x in the other: x's other neighbours keep their dead ends, but x
 * is gone). Every other move of G is a move of G - x, and leaves x with
 * fewer neighbours that all still carry their dead ends (or none at all):
 * equal by induction.
 *
 * Twins. Let a, b, c, d be a 2x2 square, a and d opposite corners, whose
 * only neighbours are b and c (each). Let E be the square's two edges (a,c)
 * and (b,d) (in the layout: the horizontal ones). Then for every set S of
 * cells holding a, b, c, d, nim(G[S]) = nim((G - E)[S]). Swapping a and d
 * maps G[S] onto itself, so (a,c) leaves a position of the same nimber as
 * (d,c), and (b,d) one as (b,a): dropping E drops no nimber from the set of
 * children's nimbers. The other moves are in both graphs; a move touching
 * none of the four leads to a smaller S of the same kind (induction). The
 * moves (a,b) and (c,d) leave graphs in which E has no edge left, so the
 * two graphs are the same. A move (b,e) with e outside the square leaves a
 * and d dead ends on c in G, while in G - E a is left with no neighbour:
 * by the star reduction both equal the graph without a, where E has no
 * edge left. The same for (c,e). The lemma applies again to every other
 * twin square once E is gone, since two twin squares share at most their
 * middle cell and E touches no corner of another square; so all twin edges
 * go at once. A component K of G - E then has nim((G - E)[K]) =
 * nim(G[K]): a twin square wholly in K keeps its corners' neighbourhoods in
 * G[K], and an edge of E between two components is in neither.
 */
#include "cram/cram_reduce.h"

#include <assert.h>

/* Cells of x whose right (left, lower, upper) neighbour is free. */
static inline uint64_t with_right(const cram_geom *g, uint64_t x)
{
    return x & (x >> 1) & g->not_last_col;
}
static inline uint64_t with_left(const cram_geom *g, uint64_t x)
{
    return x & (x << 1) & g->not_first_col;
}
static inline uint64_t with_down(const cram_geom *g, uint64_t x)
{
    return x & (x >> g->stride);
}
static inline uint64_t with_up(const cram_geom *g, uint64_t x)
{
    return x & (x << g->stride);
}

uint64_t cram_reduce_stars(const cram_geom *g, uint64_t x)
{
    const int s = g->stride;
    uint64_t r = with_right(g, x), l = with_left(g, x), d = with_down(g, x), u = with_up(g, x);
    /* exactly one free neighbour */
    uint64_t any = r | l | d | u, two = (r & l) | (d & u) | ((r | l) & (d | u));
    uint64_t tuft = any & ~two;
    /* The dead ends, one direction at a time, and the cells they hang on;
     * a dead end on a cell that already has one goes. */
    uint64_t t, centre, star = 0, out = x;
    t = tuft & r; /* hangs on its right neighbour */
    centre = t << 1;
    out &= ~((centre & star) >> 1);
    star |= centre;
    t = tuft & l;
    centre = t >> 1;
    out &= ~((centre & star) << 1);
    star |= centre;
    t = tuft & d;
    centre = t << s;
    out &= ~((centre & star) >> s);
    star |= centre;
    t = tuft & u;
    centre = t >> s;
    out &= ~((centre & star) << s);
    star |= centre;
    /* Bridges: no dead end nor carrying one, and no neighbour of that kind
     * either (a neighbour that is a dead end would make it a carrier). The
     * same test drops cells with no free neighbour, which are dead. */
    uint64_t plain = x & ~(tuft | star);
    uint64_t bridge = plain & ~cram_neighbours(g, plain);
    return out & ~bridge;
}

uint64_t cram_twin_edges(const cram_geom *g, uint64_t x)
{
    const int s = g->stride;
    uint64_t r = with_right(g, x), l = with_left(g, x), d = with_down(g, x), u = with_up(g, x);
    /* a square's corners: top left, top right, bottom left, bottom right,
     * each with its two neighbours in the square and no other */
    uint64_t tl = r & d & ~l & ~u, tr = l & d & ~r & ~u;
    uint64_t bl = r & u & ~l & ~d, br = l & u & ~r & ~d;
    /* the square's top left cell, for either pair of twins */
    uint64_t square = (tl & (br >> (s + 1))) | ((tr >> 1) & (bl >> s));
    return square | square << s;
}

/* The cells reached from c in one step inside x, without crossing an edge
 * whose left cell is in `cut`. */
static inline uint64_t step(const cram_geom *g, uint64_t c, uint64_t cut)
{
    uint64_t right = (c & ~cut & g->not_last_col) << 1;
    uint64_t left = (c >> 1) & ~cut & g->not_last_col;
    return c | right | left | (c << g->stride) | (c >> g->stride);
}

int cram_split_reduced(const cram_geom *g, uint64_t x, uint64_t *comp)
{
    /* Parts still to reduce, and parts done: all disjoint, of two cells or
     * more (a twin edge never leaves a cell alone: each corner keeps its
     * vertical neighbour), so together at most CRAM_MAX_COMPONENTS. */
    uint64_t todo[CRAM_MAX_COMPONENTS];
    int ntodo = 0, n = 0;
    todo[ntodo++] = x;
    while (ntodo) {
        uint64_t y = cram_reduce_stars(g, todo[--ntodo]);
        uint64_t cut = cram_twin_edges(g, y);
        uint64_t whole = y;
        while (y) {
            uint64_t c = y & -y, prev;
            do {
                prev = c;
                c = step(g, c, cut) & y;
            } while (c != prev);
            y &= ~c;
            if (c == whole || !cut) {
                assert(n + ntodo < CRAM_MAX_COMPONENTS);
                comp[n++] = c;
            } else {
                /* a part that fell apart may reduce further */
                assert(n + ntodo < CRAM_MAX_COMPONENTS);
                todo[ntodo++] = c;
            }
        }
    }
    return n;
}
