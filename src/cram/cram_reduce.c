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
#include <pthread.h>

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

/* The cells of x with a free neighbour to their right, left, below and
 * above: what both reductions below read. */
typedef struct {
    uint64_t r, l, d, u;
} free_sides;

static inline free_sides sides_of(const cram_geom *g, uint64_t x)
{
    return (free_sides){with_right(g, x), with_left(g, x), with_down(g, x), with_up(g, x)};
}

/* x without its surplus dead ends, from x's sides; the bridges (see below)
 * in *bridges. */
static inline uint64_t drop_stars_from(const cram_geom *g, uint64_t x, free_sides f, uint64_t *bridges)
{
    const int s = g->stride;
    const uint64_t r = f.r, l = f.l, d = f.d, u = f.u;
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
    *bridges = plain & ~cram_neighbours(g, plain);
    return out;
}

uint64_t cram_reduce_stars(const cram_geom *g, uint64_t x)
{
    uint64_t bridges, out = drop_stars_from(g, x, sides_of(g, x), &bridges);
    return out & ~bridges;
}

/* cram_twin_edges of a set whose sides are f */
static inline uint64_t twin_edges_from(const cram_geom *g, free_sides f)
{
    const int s = g->stride;
    const uint64_t r = f.r, l = f.l, d = f.d, u = f.u;
    /* a square's corners: top left, top right, bottom left, bottom right,
     * each with its two neighbours in the square and no other */
    uint64_t tl = r & d & ~l & ~u, tr = l & d & ~r & ~u;
    uint64_t bl = r & u & ~l & ~d, br = l & u & ~r & ~d;
    /* the square's top left cell, for either pair of twins */
    uint64_t square = (tl & (br >> (s + 1))) | ((tr >> 1) & (bl >> s));
    return square | square << s;
}

uint64_t cram_twin_edges(const cram_geom *g, uint64_t x)
{
    return twin_edges_from(g, sides_of(g, x));
}

/* The cells reached from c in one step inside x, without crossing an edge
 * whose left cell is in `cut`. */
static inline uint64_t step(const cram_geom *g, uint64_t c, uint64_t cut)
{
    uint64_t right = (c & ~cut & g->not_last_col) << 1;
    uint64_t left = (c >> 1) & ~cut & g->not_last_col;
    return c | right | left | (c << g->stride) | (c >> g->stride);
}

/* Two sets of cells, grown a step at a time side by side: the vector
 * units take both sets' step() at once (4x9 and 5x7: 1.3% fewer
 * instructions in all) */
typedef uint64_t cell_pair __attribute__((vector_size(16)));

static inline cell_pair step_pair(const cram_geom *g, cell_pair c)
{
    const cell_pair not_last = {g->not_last_col, g->not_last_col};
    return c | (c & not_last) << 1 | ((c >> 1) & not_last) | c << g->stride | c >> g->stride;
}

/* The cells of x joined to the cells of seed (in x) without crossing an
 * edge whose left cell is in `cut`. */
static inline uint64_t flood(const cram_geom *g, uint64_t seed, uint64_t x, uint64_t cut)
{
    uint64_t c = seed, prev;
    do {
        prev = c;
        c = step(g, c, cut) & x;
    } while (c != prev);
    return c;
}

/* cram_split_reduced of a part whose reduction y (stars and bridges gone)
 * and y's twin edges `cut` are known already. */
static int split_from(const cram_geom *g, uint64_t y, uint64_t cut, uint64_t *comp)
{
    /* Parts still to reduce, and parts done: all disjoint, of two cells or
     * more (a twin edge never leaves a cell alone: each corner keeps its
     * vertical neighbour), so together at most CRAM_MAX_COMPONENTS. A part
     * marked final is already what its reduction would give. */
    uint64_t todo[CRAM_MAX_COMPONENTS];
    uint8_t final[CRAM_MAX_COMPONENTS];
    int ntodo = 0, n = 0;
    for (;;) {
        const uint64_t whole = y;
        while (y) {
            uint64_t c = flood(g, y & -y, y, cut);
            y &= ~c;
            assert(n + ntodo < CRAM_MAX_COMPONENTS);
            if (c == whole || !cut) {
                comp[n++] = c;
            } else {
                /* A part that fell apart may reduce further. One that
                 * loses no cell and gains no twin edge would only be
                 * found whole again by the same flood fill: it stays as
                 * it is, in its turn. */
                const free_sides f = sides_of(g, c);
                uint64_t bridges, reduced = drop_stars_from(g, c, f, &bridges) & ~bridges;
                todo[ntodo] = c;
                final[ntodo++] = reduced == c && !(twin_edges_from(g, f) & ~cut);
            }
        }
        /* the next part to reduce, the final ones on the way done */
        for (;;) {
            if (!ntodo)
                return n;
            ntodo--;
            if (!final[ntodo])
                break;
            comp[n++] = todo[ntodo];
        }
        y = cram_reduce_stars(g, todo[ntodo]);
        cut = cram_twin_edges(g, y);
    }
}

int cram_split_reduced(const cram_geom *g, uint64_t x, uint64_t *comp)
{
    const uint64_t y = cram_reduce_stars(g, x);
    return split_from(g, y, cram_twin_edges(g, y), comp);
}

/* ---- the split of a child ---- */

/* The ten cells around a domino, with the domino, make a box: 3 rows of 4
 * for a horizontal domino (v = 0, at box cells 5 and 6), 4 rows of 3 for a
 * vertical one (v = 1, at box cells 4 and 7); bit i of a box pattern is box
 * cell i, row by row. ring_groups[v][box] lists the free cells next to the
 * domino that are joined inside the box, a group at a time, as the lowest
 * box cell of each group in a nibble, the groups in increasing order, 0xf
 * after the last when there are fewer than four. (A domino has six
 * neighbours, two pairs of them next to each other: four groups at most.) */
#define NO_GROUP 0xfu
static uint16_t ring_groups[2][4096];

/* The cells of a box next to the cells of `set`. */
static unsigned box_neighbours(unsigned set, int bw)
{
    unsigned n = 0;
    for (int i = 0; i < 12; i++)
        if (set >> i & 1) {
            int col = i % bw;
            n |= (col > 0 ? 1u << (i - 1) : 0) | (col < bw - 1 ? 1u << (i + 1) : 0) |
                 (i >= bw ? 1u << (i - bw) : 0) | (i + bw < 12 ? 1u << (i + bw) : 0);
        }
    return n & 0xfffu;
}

/* The table is made the first time a child is split, not as the program
 * starts: making it takes 0.3 ms, a quarter of the start-up of a program
 * that may never split a Cram child (a query, a Dots search). */
static pthread_once_t ring_groups_once = PTHREAD_ONCE_INIT;
static int ring_groups_ready;

static void init_ring_groups(void)
{
    for (int v = 0; v < 2; v++) {
        const int bw = v ? 3 : 4;
        const unsigned domino = v ? (1u << 4 | 1u << 7) : (1u << 5 | 1u << 6);
        for (unsigned box = 0; box < 4096; box++) {
            unsigned ring = box & ~domino, touching = box_neighbours(domino, bw) & ring;
            unsigned groups = 0xffffu;
            int k = 0;
            while (touching) {
                unsigned c = touching & -touching, prev;
                do {
                    prev = c;
                    c = (c | box_neighbours(c, bw)) & ring;
                } while (c != prev);
                assert(k < 4);
                groups = (uint16_t)((groups & ~(0xfu << 4 * k)) | (unsigned)__builtin_ctz(touching) << 4 * k);
                k++;
                touching &= ~c;
            }
            ring_groups[v][box] = (uint16_t)groups;
        }
    }
    __atomic_store_n(&ring_groups_ready, 1, __ATOMIC_RELEASE);
}

unsigned cram_ring_groups(int vertical, unsigned box)
{
    if (__builtin_expect(!__atomic_load_n(&ring_groups_ready, __ATOMIC_ACQUIRE), 0))
        pthread_once(&ring_groups_once, init_ring_groups);
    return ring_groups[vertical][box];
}

/* The box of rows r-1 .. r-2+rows and columns c-1 .. c-2+width of x, as
 * a box pattern (0 off the board). The box's rows are read from one word,
 * x moved so that the box's first cell is bit 0: a box over the board's
 * top edge is x moved up, zeros coming in; past its last row x has no
 * cell. The columns off the board's sides, which read the row before or
 * after, are masked off. So no row needs a test (4x9: 1.1% fewer
 * instructions than reading each row on its own). */
static inline unsigned box_of(const cram_geom *g, uint64_t x, int r, int c, int width, int rows)
{
    const int s = g->stride;
    const int first = (r - 1) * s + c - 1; /* the box's first cell: -s-1 or more */
    /* both shifts defined whatever first is, so that the choice is a
     * conditional move, not a branch the edges would mispredict */
    const uint64_t down = x >> (first & 63), up = x << (-first & 63);
    const uint64_t w = first >= 0 ? down : up;
    const unsigned on_board = ((1u << width) - 1) & ~(c == 0 ? 1u : 0u) & ((1u << (s - c + 1)) - 1);
    unsigned box = ((unsigned)w & on_board) | ((unsigned)(w >> s) & on_board) << width |
                   ((unsigned)(w >> 2 * s) & on_board) << 2 * width;
    if (rows == 4)
        box |= ((unsigned)(w >> 3 * s) & on_board) << 3 * width;
    return box;
}

int cram_split_child(const cram_geom *g, uint64_t x, int cell, int vertical, uint64_t *comp)
{
    const int s = g->stride, r = g->row_of[cell], c = g->col_of[cell];
    uint64_t y;
    unsigned box;
    if (vertical) {
        y = x & ~(1ULL << cell | 1ULL << (cell + s));
        box = box_of(g, y, r, c, 3, 4);
    } else {
        y = x & ~(3ULL << cell);
        box = box_of(g, y, r, c, 4, 3);
    }
    /* With no bridge and no twin edge, the parts are the components of y
     * of two cells or more, less their surplus dead ends (dropping a dead
     * end leaves its component connected, with one dead end on its cell
     * still). Otherwise the reductions may cut further: the general split. */
    const free_sides sides = sides_of(g, y);
    uint64_t bridges, z = drop_stars_from(g, y, sides, &bridges);
    const int bridged = (bridges & cram_neighbours(g, y)) != 0;
    /* With no dead end dropped and no bridge, the reduction drops only
     * cells with no free neighbour, which are no cell's free side: z has
     * y's sides, and its twin edges are y's. */
    const uint64_t cut = z == y && !bridged ? twin_edges_from(g, sides) : cram_twin_edges(g, z & ~bridges);
    /* y's reduction (cram_reduce_stars): with no bridge, what goes is the
     * cells with no free neighbour, which are dead */
    z &= ~bridges;
    if (bridged || cut) /* the general split, from the reduction made here */
        return split_from(g, z, cut, comp);
    /* x is connected, so every cell of y joins, inside y, one of the
     * domino's neighbours (a path of x from it to the domino enters the
     * domino from one), and neighbours joined inside the box are joined in
     * y: a component per group at most. The groups grow together, a step
     * at a time; two that meet are one, one that stops growing is a whole
     * component, and the last left is the rest of y. So a move that cuts a
     * small part off a long component costs the small part's flood fill,
     * not the whole component's. */
    unsigned groups = cram_ring_groups(vertical, box);
    uint64_t part[4], done[4];
    int growing = 0, ndone = 0;
    for (int k = 0; k < 4 && (groups & NO_GROUP) != NO_GROUP; k++, groups >>= 4) {
        part[growing++] = 1ULL << (cell + cram_ring_offset(vertical, (int)(groups & NO_GROUP), s));
    }
    if (growing == 1) {
        /* y is connected */
        comp[0] = z;
        return z != 0;
    }
    if (growing == 2) {
        /* the common split, in two: two flood fills side by side, one
         * step of both at once */
        const cell_pair inside = {y, y};
        cell_pair ab = {part[0], part[1]};
        uint64_t a, b;
        for (;;) {
            const cell_pair next = step_pair(g, ab) & inside;
            if (next[0] & next[1]) {
                comp[0] = z;
                return z != 0;
            }
            if (next[0] == ab[0]) {
                a = ab[0];
                b = y & ~a;
                break;
            }
            if (next[1] == ab[1]) {
                b = ab[1];
                a = y & ~b;
                break;
            }
            ab = next;
        }
        a &= z;
        b &= z;
        if (!a || !b) {
            comp[0] = a | b;
            return (a | b) != 0;
        }
        /* in the order of their lowest cells, as cram_split_reduced gives */
        int a_first = (a & -a) < (b & -b);
        comp[0] = a_first ? a : b;
        comp[1] = a_first ? b : a;
        return 2;
    }
    while (growing > 1) {
        int grew[4];
        for (int i = 0; i < growing; i++) {
            uint64_t next = step(g, part[i], 0) & y;
            grew[i] = next != part[i];
            part[i] = next;
        }
        for (int i = 0; i < growing; i++)
            for (int j = i + 1; j < growing; j++)
                if (part[i] & part[j]) {
                    grew[i] |= (part[j] & ~part[i]) != 0;
                    part[i] |= part[j];
                    part[j] = part[--growing];
                    grew[j] = grew[growing];
                    j--;
                }
        for (int i = 0; i < growing; i++)
            if (!grew[i]) {
                done[ndone++] = part[i];
                part[i] = part[--growing];
                grew[i] = grew[growing];
                i--;
            }
    }
    if (growing) {
        uint64_t rest = y;
        for (int i = 0; i < ndone; i++)
            rest &= ~done[i];
        done[ndone++] = rest;
    }
    int n = 0;
    for (int i = 0; i < ndone; i++) {
        uint64_t p = done[i] & z;
        if (!p)
            continue;
        /* in the order of their lowest cells, as cram_split_reduced gives */
        int j = n++;
        for (; j > 0 && (comp[j - 1] & -comp[j - 1]) > (p & -p); j--)
            comp[j] = comp[j - 1];
        comp[j] = p;
    }
    return n;
}
