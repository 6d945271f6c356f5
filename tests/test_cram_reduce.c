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

Suite *cram_reduce_suite(void)
{
    Suite *s = suite_create("cram_reduce");
    TCase *tc = tcase_create("reduce");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_stars_and_bridges);
    tcase_add_test(tc, test_twins);
    tcase_add_test(tc, test_random_vs_naive);
    suite_add_tcase(s, tc);
    return s;
}
