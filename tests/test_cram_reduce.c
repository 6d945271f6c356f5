/*
 * test_cram_reduce.c — the nimber-keeping reductions of Cram positions
 * (src/cram/cram_reduce.c): hand-drawn positions with the cells each
 * reduction must drop or cut, and thousands of random irregular positions
 * whose nimber, by the naive reference (tests/naive_cram.c), must equal the
 * xor of the nimbers of the reduced parts. The random suite counts how
 * often each reduction fired, so that it cannot pass without testing them.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "cram/cram_component.h"
#include "cram/cram_reduce.h"
#include "naive_cram.h"
#include "test_util.h"

/* The free cells of a picture: rows separated by '|', '.' free, '#' not. */
static uint64_t cells(const cram_geom *g, const char *pic)
{
    uint64_t x = 0;
    int r = 0, c = 0;
    for (const char *p = pic; *p; p++) {
        if (*p == '|') {
            r++;
            c = 0;
            continue;
        }
        TU_ASSERT(c < g->stride && r < g->height);
        if (*p == '.')
            x |= 1ULL << (r * g->stride + c);
        c++;
    }
    return x;
}

static uint64_t xor_of_parts(naive_cram *nv, const cram_geom *g, uint64_t x, int *nparts)
{
    uint64_t comp[CRAM_MAX_COMPONENTS];
    int n = cram_split_reduced(g, x, comp);
    int v = 0;
    uint64_t seen = 0;
    for (int i = 0; i < n; i++) {
        TU_ASSERT_MSG((comp[i] & ~x) == 0 && (comp[i] & seen) == 0 && __builtin_popcountll(comp[i]) >= 2,
                      "part %d of %llx: %llx", i, (unsigned long long)x, (unsigned long long)comp[i]);
        seen |= comp[i];
        v ^= naive_cram_nimber(nv, comp[i]);
    }
    if (nparts)
        *nparts = n;
    return (uint64_t)v;
}

START_TEST(test_stars_and_bridges)
{
    cram_geom g;
    cram_geom_init(&g, 4, 4);
    /* a plus: four dead ends on the centre, one is kept */
    uint64_t plus = cells(&g, "#.##|...#|#.##");
    uint64_t r = cram_reduce_stars(&g, plus);
    TU_ASSERT_EQ(__builtin_popcountll(r), 2);
    TU_ASSERT(r & cells(&g, "####|#.##"));
    /* a row of three: one end goes */
    TU_ASSERT_EQ(__builtin_popcountll(cram_reduce_stars(&g, cells(&g, "...#"))), 2);
    /* a bridge: the middle of the top row joins two cells that carry dead
     * ends, and goes */
    TU_ASSERT(cram_reduce_stars(&g, cells(&g, "...#|.#.#")) == cells(&g, ".#.#|.#.#"));
    /* a ring has no dead end: nothing goes */
    uint64_t ring = cells(&g, "...#|.#.#|...#");
    TU_ASSERT(cram_reduce_stars(&g, ring) == ring);
    /* a cell with no free neighbour is dead and goes */
    TU_ASSERT(cram_reduce_stars(&g, cells(&g, "..#.")) == cells(&g, "..##"));
    /* a domino stays */
    TU_ASSERT(cram_reduce_stars(&g, cells(&g, "..##")) == cells(&g, "..##"));
}
END_TEST

START_TEST(test_twins)
{
    cram_geom g;
    cram_geom_init(&g, 4, 4);
    /* a lone 2x2 square: both horizontal edges go, two dominoes are left,
     * and its nimber 0 is 1 xor 1 */
    uint64_t sq = cells(&g, "..##|..##");
    TU_ASSERT(cram_twin_edges(&g, sq) == cells(&g, ".###|.###"));
    uint64_t comp[CRAM_MAX_COMPONENTS];
    TU_ASSERT_EQ(cram_split_reduced(&g, sq, comp), 2);
    /* corners (1,1) and (2,2) have (1,2) and (2,1) as only neighbours: the
     * square's horizontal edges go and the component falls in two */
    uint64_t square_at_11 = cells(&g, "####|#.##|#.##|####");
    uint64_t x = cells(&g, "##..|#...|...#|#.##");
    TU_ASSERT((cram_twin_edges(&g, x) & square_at_11) == square_at_11);
    /* the other diagonal: corners (1,2) and (2,1) */
    uint64_t y = cells(&g, "..##|...#|#...|##..");
    TU_ASSERT((cram_twin_edges(&g, y) & square_at_11) == square_at_11);
    naive_cram *nv = naive_cram_new(4, 4);
    TU_ASSERT(nv != NULL);
    int n;
    TU_ASSERT_EQ(xor_of_parts(nv, &g, x, &n), (uint64_t)naive_cram_nimber(nv, x));
    TU_ASSERT(n >= 2);
    TU_ASSERT_EQ(xor_of_parts(nv, &g, y, &n), (uint64_t)naive_cram_nimber(nv, y));
    TU_ASSERT(n >= 2);
    /* a corner with a third neighbour is no twin: (1,1) gets (0,1) */
    TU_ASSERT((cram_twin_edges(&g, cells(&g, "#...|#...|...#|..##")) & square_at_11) == 0);
    naive_cram_free(nv);
}
END_TEST

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Boards as the solver lays them out (no wider than tall), thinned at
 * random to at most max_free cells. */
static const struct {
    int height, stride, max_free;
} shapes[] = {{4, 4, 16}, {5, 5, 20}, {6, 4, 20}, {6, 6, 22}, {8, 3, 20}, {8, 8, 22}, {12, 2, 20}, {7, 5, 22}};

START_TEST(test_random_vs_naive)
{
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    int stars = 0, twins = 0, splits = 0, total = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        cram_geom g;
        cram_geom_init(&g, shapes[k].height, shapes[k].stride);
        naive_cram *nv = naive_cram_new(shapes[k].height, shapes[k].stride);
        TU_ASSERT(nv != NULL);
        int n = shapes[k].height * shapes[k].stride, max_free = shapes[k].max_free;
        for (int i = 0; i < 600; i++) {
            uint64_t x = g.all;
            int target = max_free / 2 + (int)(rng_next(&seed) % (uint64_t)(max_free / 2 + 1));
            while (__builtin_popcountll(x) > target)
                x &= ~(1ULL << (rng_next(&seed) % (uint64_t)n));
            int want = naive_cram_nimber(nv, x);
            uint64_t reduced = cram_reduce_stars(&g, x);
            TU_ASSERT_MSG(naive_cram_nimber(nv, reduced) == want, "stars of %llx: %llx",
                          (unsigned long long)x, (unsigned long long)reduced);
            stars += reduced != x;
            uint64_t cut = cram_twin_edges(&g, reduced);
            twins += cut != 0;
            uint64_t plain[CRAM_MAX_COMPONENTS];
            int before = cram_split(&g, reduced, plain), after;
            TU_ASSERT_MSG(xor_of_parts(nv, &g, x, &after) == (uint64_t)want, "split of %llx",
                          (unsigned long long)x);
            splits += cut && after > before;
            total++;
        }
        naive_cram_free(nv);
    }
    /* each reduction must have been put to the test */
    TU_ASSERT_MSG(stars > total / 4 && twins > 100 && splits > 50, "of %d positions: %d star, %d twin, %d split",
                  total, stars, twins, splits);
}
END_TEST

/* The split of cram_reduce.h as its header defines it, one step of flood
 * fill at a time: reduce, cut the twin edges, take the components, and
 * start again on every part that fell apart. */
static int reference_split(const cram_geom *g, uint64_t x, uint64_t *comp)
{
    uint64_t todo[CRAM_MAX_COMPONENTS];
    int ntodo = 0, n = 0;
    todo[ntodo++] = x;
    while (ntodo) {
        uint64_t y = cram_reduce_stars(g, todo[--ntodo]), whole = y;
        uint64_t cut = cram_twin_edges(g, y);
        while (y) {
            uint64_t c = y & -y, prev;
            do {
                prev = c;
                for (int cell = 0; cell < g->height * g->stride; cell++) {
                    if (!(prev >> cell & 1))
                        continue;
                    int col = cell % g->stride;
                    if (col + 1 < g->stride && !(cut >> cell & 1))
                        c |= 1ULL << (cell + 1);
                    if (col > 0 && !(cut >> (cell - 1) & 1))
                        c |= 1ULL << (cell - 1);
                    if (cell + g->stride < 64)
                        c |= 1ULL << (cell + g->stride);
                    if (cell >= g->stride)
                        c |= 1ULL << (cell - g->stride);
                }
                c &= y;
            } while (c != prev);
            y &= ~c;
            if (c == whole || !cut)
                comp[n++] = c;
            else
                todo[ntodo++] = c;
        }
    }
    return n;
}

/* Every move of random connected components, in layouts from 1 to 8
 * columns and up to 64 rows: cram_split_child and cram_split_reduced give
 * the reference's parts, in the reference's order (the search's node
 * counts depend on it). */
START_TEST(test_split_child)
{
    uint64_t seed = 0x2545f4914f6cdd1dULL;
    long moves = 0, by_parts[4] = {0};
    for (int k = 0; k < 3000; k++) {
        int w = 1 + (int)(rng_next(&seed) % 8);
        int h = w + (int)(rng_next(&seed) % (uint64_t)(64 / w - w + 1));
        cram_geom g;
        cram_geom_init(&g, h, w);
        /* dense, half full, and sparse sets of free cells */
        uint64_t a = rng_next(&seed), b = rng_next(&seed);
        uint64_t cells = (k % 3 == 0 ? a | b : k % 3 == 1 ? a : a | (b & rng_next(&seed))) & g.all;
        uint64_t comp[CRAM_MAX_COMPONENTS];
        int ncomp = cram_split(&g, cells, comp);
        for (int i = 0; i < ncomp; i++) {
            uint64_t x = comp[i];
            for (int vertical = 0; vertical < 2; vertical++)
                for (uint64_t m = vertical ? cram_vmoves(&g, x) : cram_hmoves(&g, x); m; m &= m - 1) {
                    int cell = __builtin_ctzll(m);
                    uint64_t y = x & ~(1ULL << cell | 1ULL << (cell + (vertical ? w : 1)));
                    uint64_t want[CRAM_MAX_COMPONENTS], got[CRAM_MAX_COMPONENTS], again[CRAM_MAX_COMPONENTS];
                    int n = reference_split(&g, y, want);
                    int n_child = cram_split_child(&g, x, cell, vertical, got);
                    int n_reduced = cram_split_reduced(&g, y, again);
                    TU_ASSERT_MSG(n_child == n && n_reduced == n, "%dx%d: %llx less the %s domino at %d: %d parts, want %d (%d)",
                                  h, w, (unsigned long long)x, vertical ? "vertical" : "horizontal", cell, n_child, n,
                                  n_reduced);
                    for (int j = 0; j < n; j++)
                        TU_ASSERT_MSG(got[j] == want[j] && again[j] == want[j], "%dx%d: %llx less %d: part %d is %llx, want %llx",
                                      h, w, (unsigned long long)x, cell, j, (unsigned long long)got[j],
                                      (unsigned long long)want[j]);
                    by_parts[n < 3 ? n : 3]++;
                    moves++;
                }
        }
    }
    /* no part, one, two, and more: every way of the split was taken */
    TU_ASSERT_MSG(by_parts[0] > 100 && by_parts[1] > 10000 && by_parts[2] > 10000 && by_parts[3] > 1000,
                  "%ld moves: %ld, %ld, %ld, %ld with 0, 1, 2, more parts", moves, by_parts[0], by_parts[1],
                  by_parts[2], by_parts[3]);
}
END_TEST

Suite *cram_reduce_suite(void)
{
    Suite *s = suite_create("cram_reduce");
    TCase *tc = tcase_create("reduce");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_stars_and_bridges);
    tcase_add_test(tc, test_twins);
    tcase_add_test(tc, test_random_vs_naive);
    tcase_add_test(tc, test_split_child);
    suite_add_tcase(s, tc);
    return s;
}
