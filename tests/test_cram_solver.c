/*
 * test_cram_solver.c — the Cram search solver (src/cram/cram_solver.c,
 * cram_search.c, cram_root.c, cram_moves.c and the
 * component and table modules under it): component splits; canonical forms
 * against the least image found by trying the eight symmetries of the
 * plane cell by cell; random irregular positions of boards up to 35 cells
 * (up to ~24 free cells) solved with every method, in both move orders and
 * with a table small enough to evict, against the naive reference
 * (tests/naive_cram.c); the mirror rule on random positions that a half
 * turn maps onto themselves, against the naive solver and the search
 * without it; the published empty-board nimbers; saving,
 * reloading and rejecting transposition table files; and a solve stopped
 * by a signal that resumes.
 */
#define _GNU_SOURCE
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/builder.h"
#include "cram/cram_component.h"
#include "cram/cram_solver.h"
#include "cram/cram_tt.h"
#include "naive_cram.h"
#include "test_util.h"

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int solver_threads = 1; /* for the tests run again with two threads */
/* for the tests that need an even x even board searched, not valued 0 at
 * once by the mirror rule */
static int solver_no_mirror = 0;

static cram_solver *new_solver(int rows, int cols, cram_method m, long tt_mb, int board_order)
{
    cram_solver_options opt = {.method = m, .tt_mb = tt_mb, .board_order = board_order,
                               .threads = m == CRAM_ASPIRATION ? solver_threads : 1,
                               .no_mirror = solver_no_mirror};
    cram_solver *s = NULL;
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = cram_solver_new(rows, cols, &opt, &s, &err);
    TU_ASSERT_MSG(st == RDB_OK, "cram_solver_new %dx%d: %s", rows, cols, err.msg);
    return s;
}

static int solve(cram_solver *s, uint64_t free_cells)
{
    int v = -1;
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = cram_solver_solve(s, free_cells, &v, &err);
    TU_ASSERT_MSG(st == RDB_OK, "solve %llx: %s", (unsigned long long)free_cells, err.msg);
    return v;
}

/* ---- components and canonical forms ---- */

START_TEST(test_split)
{
    cram_geom g;
    cram_geom_init(&g, 4, 4);
    uint64_t comp[CRAM_MAX_COMPONENTS];
    /* ##.#     cell 3 has no free neighbour and is dropped;
     * ....     three components: the top pair and two columns
     * .#.#
     * .#.# */
    uint64_t x = 1ULL << 0 | 1ULL << 1 | 1ULL << 3 | 1ULL << 9 | 1ULL << 11 | 1ULL << 13 | 1ULL << 15;
    int n = cram_split(&g, x, comp);
    TU_ASSERT_EQ(n, 3);
    TU_ASSERT(comp[0] == (1ULL << 0 | 1ULL << 1));
    TU_ASSERT(comp[1] == (1ULL << 9 | 1ULL << 13));
    TU_ASSERT(comp[2] == (1ULL << 11 | 1ULL << 15));
    /* no wrap-around between the end of one row and the next */
    TU_ASSERT_EQ(cram_split(&g, 1ULL << 3 | 1ULL << 4, comp), 0);
    TU_ASSERT_EQ(cram_split(&g, 0, comp), 0);
    TU_ASSERT_EQ(cram_split(&g, g.all, comp), 1);
    /* 12 separate dominoes on 8x8: rows 0, 2, 4, 6, columns 0-1, 3-4, 6-7 */
    cram_geom_init(&g, 8, 8);
    x = 0;
    for (int r = 0; r < 8; r += 2)
        for (int c = 0; c < 8; c += 3)
            x |= 3ULL << (r * 8 + c);
    TU_ASSERT_EQ(cram_split(&g, x, comp), 12);

    /* random sets: the components partition the cells that have a free
     * neighbour, each is connected, and no two touch */
    uint64_t seed = 77;
    for (int k = 0; k < 2000; k++) {
        int h = 1 + (int)(rng_next(&seed) % 8);
        int w = 1 + (int)(rng_next(&seed) % 8);
        if (w > h || h * w > 64)
            continue;
        cram_geom_init(&g, h, w);
        x = rng_next(&seed) & rng_next(&seed) & g.all;
        if (k & 1)
            x |= rng_next(&seed) & g.all;
        n = cram_split(&g, x, comp);
        uint64_t seen = 0;
        for (int i = 0; i < n; i++) {
            TU_ASSERT((comp[i] & seen) == 0);
            TU_ASSERT((comp[i] & ~x) == 0);
            TU_ASSERT(__builtin_popcountll(comp[i]) >= 2);
            TU_ASSERT((cram_neighbours(&g, comp[i]) & x & ~comp[i]) == 0);
            seen |= comp[i];
        }
        TU_ASSERT(seen == (x & cram_neighbours(&g, x)));
    }
}
END_TEST

/* The least image of x among the eight symmetries of the plane that fit a
 * layout of h rows and w columns, each moved to the corner, computed cell
 * by cell. */
static uint64_t brute_canonical(int height, int stride, uint64_t x)
{
    int r[64], c[64], n = 0;
    for (int cell = 0; cell < height * stride; cell++)
        if (x >> cell & 1) {
            r[n] = cell / stride;
            c[n] = cell % stride;
            n++;
        }
    uint64_t best = ~0ULL;
    for (int t = 0; t < 8; t++) {
        int y[64], z[64], miny = 999, minz = 999, maxy = -999, maxz = -999;
        for (int i = 0; i < n; i++) {
            int a = t & 1 ? -c[i] : c[i];
            int b = t & 2 ? -r[i] : r[i];
            if (t & 4) {
                int s = a;
                a = b;
                b = s;
            }
            y[i] = b;
            z[i] = a;
            miny = y[i] < miny ? y[i] : miny;
            minz = z[i] < minz ? z[i] : minz;
            maxy = y[i] > maxy ? y[i] : maxy;
            maxz = z[i] > maxz ? z[i] : maxz;
        }
        if (maxy - miny >= height || maxz - minz >= stride)
            continue;
        uint64_t img = 0;
        for (int i = 0; i < n; i++)
            img |= 1ULL << ((y[i] - miny) * stride + z[i] - minz);
        if (img < best)
            best = img;
    }
    return best;
}

START_TEST(test_canonical)
{
    uint64_t seed = 12345;
    cram_geom g;
    uint64_t comp[CRAM_MAX_COMPONENTS];
    long checked = 0;
    for (int k = 0; k < 8000; k++) {
        /* layouts up to 64 rows: the long boards' boxes are tall */
        int w = 1 + (int)(rng_next(&seed) % 8);
        int h = w + (int)(rng_next(&seed) % (64 / w - w + 1));
        cram_geom_init(&g, h, w);
        uint64_t x = rng_next(&seed) & g.all;
        if (k & 1)
            x |= rng_next(&seed) & g.all;
        int n = cram_split(&g, x, comp);
        for (int i = 0; i < n; i++) {
            int bh, bw;
            uint64_t can = cram_canonical(&g, comp[i], &bh, &bw);
            uint64_t want = brute_canonical(h, w, comp[i]);
            TU_ASSERT_MSG(can == want, "%dx%d: canonical of %llx is %llx, want %llx", h, w,
                          (unsigned long long)comp[i], (unsigned long long)can,
                          (unsigned long long)want);
            TU_ASSERT(cram_canonical(&g, can, NULL, NULL) == can);
            TU_ASSERT(bh >= 1 && bh <= h && bw >= 1 && bw <= w);
            checked++;
        }
    }
    TU_ASSERT(checked > 1000);

    /* the same L in its eight orientations on 3x3 has one form */
    cram_geom_init(&g, 3, 3);
    uint64_t l = 1ULL << 0 | 1ULL << 3 | 1ULL << 6 | 1ULL << 7; /* #.. / #.. / ##. */
    uint64_t first = cram_canonical(&g, l, NULL, NULL);
    uint64_t imgs[] = {1ULL << 2 | 1ULL << 5 | 1ULL << 8 | 1ULL << 7,  /* mirrored */
                       1ULL << 0 | 1ULL << 1 | 1ULL << 4 | 1ULL << 7,  /* ## / .# / .# */
                       1ULL << 6 | 1ULL << 7 | 1ULL << 8 | 1ULL << 5}; /* rotated, shifted */
    for (int i = 0; i < 3; i++)
        TU_ASSERT(cram_canonical(&g, imgs[i], NULL, NULL) == first);
}
END_TEST

/* ---- against the naive reference ---- */

typedef struct {
    int rows, cols, max_free;
} shape;

static const shape random_shapes[] = {{4, 6, 20}, {5, 5, 20}, {3, 8, 20}, {6, 4, 20},
                                      {2, 12, 20}, {5, 7, 22}, {7, 4, 20}, {1, 20, 20},
                                      {4, 4, 16}, {6, 6, 22}};

/* Random positions: the whole board thinned to at most max_free cells. */
static uint64_t random_position(uint64_t *seed, int rows, int cols, int max_free)
{
    int n = rows * cols;
    uint64_t x = n == 64 ? ~0ULL : (1ULL << n) - 1;
    int target = max_free / 2 + (int)(rng_next(seed) % (uint64_t)(max_free / 2 + 1));
    while (__builtin_popcountll(x) > target) {
        int cell = (int)(rng_next(seed) % (uint64_t)n);
        x &= ~(1ULL << cell);
    }
    return x;
}

static void check_random(cram_method m, int board_order, long tt_mb, int per_shape)
{
    uint64_t seed = 0x1234567ULL + (uint64_t)m * 1000 + (uint64_t)board_order;
    for (size_t k = 0; k < sizeof random_shapes / sizeof random_shapes[0]; k++) {
        const shape *sh = &random_shapes[k];
        naive_cram *nv = naive_cram_new(sh->rows, sh->cols);
        TU_ASSERT(nv != NULL);
        cram_solver *s = new_solver(sh->rows, sh->cols, m, tt_mb, board_order);
        for (int i = 0; i < per_shape; i++) {
            uint64_t x = random_position(&seed, sh->rows, sh->cols, sh->max_free);
            int want = naive_cram_nimber(nv, x);
            int got = solve(s, x);
            TU_ASSERT_MSG(got == want, "%s %dx%d free %llx: nimber %d, naive %d", cram_method_name(m),
                          sh->rows, sh->cols, (unsigned long long)x, got, want);
        }
        cram_solver_free(s);
        naive_cram_free(nv);
    }
}

/* RDB_CRAM_STRESS=N runs N times as many random positions (make
 * check-long: thousands a method). */
static int stress(void)
{
    const char *e = getenv("RDB_CRAM_STRESS");
    int n = e ? atoi(e) : 1;
    return n > 0 ? n : 1;
}

/* Random positions symmetric under the left-right mirror, whose root
 * moves come in mirror pairs that the aspiration root keeps once: with 1,
 * 2 and 4 threads, against the naive solver. With 4 threads and a few
 * root moves, threads find no move left at once and join one another's. */
START_TEST(test_symmetric_positions)
{
    static const shape shapes[] = {{4, 6, 20}, {5, 5, 19}, {6, 6, 22}, {3, 8, 20}};
    static const int threads[] = {1, 2, 4};
    uint64_t seed = 0x5eed5eedULL + (uint64_t)_i;
    cram_stats st = {0};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const shape *sh = &shapes[k];
        naive_cram *nv = naive_cram_new(sh->rows, sh->cols);
        TU_ASSERT(nv != NULL);
        solver_threads = threads[_i];
        cram_solver *s = new_solver(sh->rows, sh->cols, CRAM_ASPIRATION, 64, 0);
        solver_threads = 1;
        for (int i = 0; i < 20 * stress(); i++) {
            uint64_t x = random_position(&seed, sh->rows, sh->cols, sh->max_free), y = 0;
            /* keep the left half (and the middle column) and mirror it */
            for (int r = 0; r < sh->rows; r++)
                for (int c = 0; c < (sh->cols + 1) / 2; c++)
                    if (x >> (r * sh->cols + c) & 1)
                        y |= 1ULL << (r * sh->cols + c) | 1ULL << (r * sh->cols + sh->cols - 1 - c);
            int want = naive_cram_nimber(nv, y);
            int got = solve(s, y);
            TU_ASSERT_MSG(got == want, "%dx%d free %llx: nimber %d, naive %d", sh->rows, sh->cols,
                          (unsigned long long)y, got, want);
        }
        cram_stats one;
        cram_solver_stats(s, &one);
        st.twins += one.twins;
        st.helped += one.helped;
        st.helper_first += one.helper_first;
        cram_solver_free(s);
        naive_cram_free(nv);
    }
    /* the mirror pairs were found and left out */
    TU_ASSERT_MSG(st.twins > 200, "%llu twins", (unsigned long long)st.twins);
    /* threads ran out of root moves and joined others' (on these small
     * positions the first searcher answers first: the joining thread's
     * answer is taken on the long boards, e.g. 3x19) */
    if (threads[_i] == 4) {
        /* whether a thread is idle when another still searches depends on
         * the scheduler: on a busy machine, more positions until one is,
         * larger and larger (a longer search leaves more time to join:
         * from 19 free cells up to the whole board), each with a table of
         * its own so that none is answered from an earlier one's */
        naive_cram *nv = naive_cram_new(5, 5);
        for (int i = 0; i < 1500 && st.helped == 0; i++) {
            solver_threads = 4;
            cram_solver *s = new_solver(5, 5, CRAM_ASPIRATION, 4, 0);
            solver_threads = 1;
            int most = 19 + i / 25 < 25 ? 19 + i / 25 : 25;
            int target = most - (int)(rng_next(&seed) % 3);
            uint64_t x = (1ULL << 25) - 1;
            while (__builtin_popcountll(x) > target)
                x &= ~(1ULL << (rng_next(&seed) % 25));
            TU_ASSERT_EQ(solve(s, x), naive_cram_nimber(nv, x));
            cram_stats one;
            cram_solver_stats(s, &one);
            st.helped = one.helped;
            cram_solver_free(s);
        }
        naive_cram_free(nv);
        TU_ASSERT_MSG(st.helped > 0, "joined %llu times", (unsigned long long)st.helped);
    }
}
END_TEST

/* The half turn of an R x C board: cell (r, c) to (R-1-r, C-1-c). */
static uint64_t half_turn(uint64_t x, int rows, int cols)
{
    uint64_t y = 0;
    for (uint64_t m = x; m; m &= m - 1) {
        int cell = __builtin_ctzll(m), r = cell / cols, c = cell % cols;
        y |= 1ULL << ((rows - 1 - r) * cols + cols - 1 - c);
    }
    return y;
}

/* The mirror rule (cram_canonical_zero): random positions the half turn
 * maps onto themselves, the centre cell or the two middle cells taken
 * where the board has them, are 0 by the naive solver, and so by the
 * solver with the rule and without it; the rule values some parts 0
 * without search; positions that the rule does not cover (the middle
 * kept free) agree with the naive solver either way. Even x even boards
 * from empty are 0 without a node searched. */
START_TEST(test_mirror_rule)
{
    static const shape shapes[] = {{4, 4, 16}, {4, 5, 20}, {5, 5, 21}, {3, 6, 18}, {5, 4, 20},
                                   {6, 4, 22}, {3, 7, 21}};
    uint64_t seed = 0x4a1f7e11ULL;
    uint64_t ruled = 0;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const shape *sh = &shapes[k];
        const int R = sh->rows, C = sh->cols;
        naive_cram *nv = naive_cram_new(R, C);
        TU_ASSERT(nv != NULL);
        cram_solver *with = new_solver(R, C, CRAM_ASPIRATION, 16, 0);
        cram_solver_options o = {.method = CRAM_ASPIRATION, .tt_mb = 16, .no_mirror = 1};
        cram_solver *without;
        rdb_error err;
        ck_assert_int_eq(cram_solver_new(R, C, &o, &without, &err), RDB_OK);
        /* the middle: a cell, two cells side by side, or none */
        uint64_t middle = 0;
        if (R % 2 && C % 2)
            middle = 1ULL << (R / 2 * C + C / 2);
        else if (R % 2)
            middle = 3ULL << (R / 2 * C + C / 2 - 1);
        else if (C % 2)
            middle = 1ULL << ((R / 2 - 1) * C + C / 2) | 1ULL << (R / 2 * C + C / 2);
        for (int i = 0; i < 30 * stress(); i++) {
            uint64_t x = random_position(&seed, R, C, sh->max_free);
            uint64_t y = (x | half_turn(x, R, C));
            /* every other time the middle stays as it falls: the rule
             * then does not apply to the part holding it */
            if (i % 2 == 0)
                y &= ~middle;
            while (__builtin_popcountll(y) > sh->max_free + 4) {
                uint64_t cell = 1ULL << (rng_next(&seed) % (uint64_t)(R * C));
                y &= ~(cell | half_turn(cell, R, C));
            }
            const int want = naive_cram_nimber(nv, y);
            if (i % 2 == 0)
                TU_ASSERT_MSG(want == 0, "%dx%d free %llx: symmetric, naive nimber %d", R, C,
                              (unsigned long long)y, want);
            TU_ASSERT_MSG(solve(with, y) == want && solve(without, y) == want,
                          "%dx%d free %llx: naive %d", R, C, (unsigned long long)y, want);
        }
        cram_stats st;
        cram_solver_stats(with, &st);
        ruled += st.mirror_zero;
        cram_solver_stats(without, &st);
        TU_ASSERT_EQ(st.mirror_zero, 0);
        cram_solver_free(with);
        cram_solver_free(without);
        naive_cram_free(nv);
    }
    TU_ASSERT_MSG(ruled > 50, "the rule valued %llu parts", (unsigned long long)ruled);

    for (int n = 4; n <= 8; n += 2) {
        cram_solver *s = new_solver(n, n, CRAM_ASPIRATION, 16, 0);
        TU_ASSERT_EQ(solve(s, n * n == 64 ? ~0ULL : (1ULL << (n * n)) - 1), 0);
        cram_stats st;
        cram_solver_stats(s, &st);
        TU_ASSERT_MSG(st.nodes == 0 && st.mirror_zero == 1, "%dx%d: %llu nodes", n, n,
                      (unsigned long long)st.nodes);
        cram_solver_free(s);
    }
}
END_TEST

START_TEST(test_random_vs_naive)
{
    check_random((cram_method)_i, 0, 64, 16 * stress());
}
END_TEST

START_TEST(test_random_board_order_small_tt)
{
    /* 1 MB holds 16384 buckets: the big positions evict entries */
    check_random((cram_method)_i, 1, 1, 10);
}
END_TEST

/* ---- published nimbers of empty boards ---- */

static const int dawson[21] = {0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3};
static const int three_by[21] = {0, 0, 0, 0, 1, 1, 4, 1, 3, 1, 2, 0, 1, 2, 3, 1, 4, 0, 1, 0, 2};

typedef struct {
    int rows, cols, nimber;
} known_value;

/* Every method, including plain, solves these in a few seconds in all. */
static const known_value small_known[] = {{4, 5, 2}, {4, 7, 3}, {5, 5, 0}, {4, 4, 0},
                                          {3, 10, 2}, {4, 6, 0}};
/* Bigger boards, with aspiration only (a few seconds in all): the other
 * methods search for the exact nimber at every node and take 5 to 20 times
 * longer here (scripts/bench_cram.sh compares them). */
static const known_value big_known[] = {{5, 6, 2}, {3, 12, 1}, {4, 9, 1}, {5, 7, 1},
                                        {6, 6, 0}, {5, 8, 1}, {3, 14, 3}, {3, 15, 1}};

static void check_known(cram_method m, const known_value *kv, int n)
{
    for (int i = 0; i < n; i++) {
        cram_solver *s = new_solver(kv[i].rows, kv[i].cols, m, 256, 0);
        int cells = kv[i].rows * kv[i].cols;
        int got = solve(s, (1ULL << cells) - 1);
        TU_ASSERT_MSG(got == kv[i].nimber, "%s: %dx%d is %d, published %d", cram_method_name(m),
                      kv[i].rows, kv[i].cols, got, kv[i].nimber);
        cram_solver_free(s);
    }
}

START_TEST(test_known_small)
{
    cram_method m = (cram_method)_i;
    for (int len = 1; len <= 20; len++) {
        cram_solver *s = new_solver(1, len, m, 16, 0);
        TU_ASSERT_MSG(solve(s, (1ULL << len) - 1) == dawson[len], "%s 1x%d", cram_method_name(m), len);
        cram_solver_free(s);
        s = new_solver(2, len, m, 16, 0);
        TU_ASSERT_MSG(solve(s, (1ULL << (2 * len)) - 1) == len % 2, "%s 2x%d", cram_method_name(m), len);
        cram_solver_free(s);
    }
    for (int len = 3; len <= 9; len++) {
        cram_solver *s = new_solver(len, 3, m, 64, 0); /* 3xn turned a quarter */
        TU_ASSERT_MSG(solve(s, (1ULL << (3 * len)) - 1) == three_by[len], "%s %dx3", cram_method_name(m),
                      len);
        cram_solver_free(s);
    }
    check_known(m, small_known, (int)(sizeof small_known / sizeof small_known[0]));
}
END_TEST

/* cram_solver_test ("is the nimber k?") against the naive nimber, for
 * every k up to 4, with every method. */
START_TEST(test_nimber_test)
{
    cram_method m = (cram_method)_i;
    uint64_t seed = 0xfeedULL + (uint64_t)m;
    naive_cram *nv = naive_cram_new(5, 5);
    TU_ASSERT(nv != NULL);
    cram_solver *s = new_solver(5, 5, m, 16, 0);
    int yes = 0;
    for (int i = 0; i < 60; i++) {
        uint64_t x = random_position(&seed, 5, 5, 20);
        int want = naive_cram_nimber(nv, x);
        for (int k = 0; k <= 4; k++) {
            int is = -1;
            rdb_error err;
            TU_ASSERT_EQ(cram_solver_test(s, x, k, &is, &err), RDB_OK);
            TU_ASSERT_MSG(is == (want == k), "%s free %llx: 'is it %d?' said %d, naive nimber %d",
                          cram_method_name(m), (unsigned long long)x, k, is, want);
            yes += is;
        }
    }
    TU_ASSERT(yes > 30);
    cram_solver_free(s);
    naive_cram_free(nv);
}
END_TEST

/* Two threads share the root's trials: the same nimbers, on random
 * positions against the naive solver and on the published boards. */
START_TEST(test_two_threads)
{
    solver_threads = 2;
    check_random(CRAM_ASPIRATION, 0, 64, 40 * stress());
    check_known(CRAM_ASPIRATION, small_known, (int)(sizeof small_known / sizeof small_known[0]));
    /* 5x8 stores about 650,000 entries: the shared table grows from its
     * first 4 MB while both threads search */
    cram_solver *s = new_solver(5, 8, CRAM_ASPIRATION, 256, 0);
    solver_threads = 1;
    TU_ASSERT_EQ(solve(s, (1ULL << 40) - 1), 1);
    cram_stats st;
    cram_solver_stats(s, &st);
    TU_ASSERT_MSG(st.tt_bytes > (4u << 20), "table of %llu bytes", (unsigned long long)st.tt_bytes);
    cram_solver_free(s);
}
END_TEST

START_TEST(test_known_big)
{
    cram_method m = CRAM_ASPIRATION;
    check_known(m, big_known, (int)(sizeof big_known / sizeof big_known[0]));
}
END_TEST

/* ---- the transposition table file ---- */

/* A new temporary folder in dir, and the path of a table file in it. */
static void temp_tt_file(char *dir, char *path, size_t size)
{
    tu_mkdtemp(dir);
    snprintf(path, size, "%s/tt", dir);
}

/* The same, and the path of a second file `name` beside it. */
static void temp_tt_files(char *dir, char *path, char *second, const char *name, size_t size)
{
    temp_tt_file(dir, path, size);
    snprintf(second, size, "%s/%s", dir, name);
}

START_TEST(test_tt_file)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    temp_tt_file(dir, path, sizeof path);
    rdb_error err;

    cram_solver *s = new_solver(4, 6, CRAM_SET_CUTS, 8, 0);
    uint64_t all = (1ULL << 24) - 1;
    naive_cram *nv = naive_cram_new(4, 6);
    TU_ASSERT(nv != NULL);
    int want = naive_cram_nimber(nv, all & ~1ULL);
    naive_cram_free(nv);
    TU_ASSERT_EQ(solve(s, all & ~1ULL), want);
    cram_stats a;
    cram_solver_stats(s, &a);
    TU_ASSERT(a.tt_entries > 100);
    TU_ASSERT_EQ(cram_solver_save_tt(s, path, &err), RDB_OK);

    /* reloaded: the same entries, and the root is answered without search */
    cram_solver *t = new_solver(4, 6, CRAM_PLAIN, 8, 0);
    TU_ASSERT_EQ(cram_solver_load_tt(t, path, &err), RDB_OK);
    cram_stats b;
    cram_solver_stats(t, &b);
    TU_ASSERT_EQ(b.tt_loaded, a.tt_entries);
    TU_ASSERT_EQ(b.tt_entries, a.tt_entries);
    TU_ASSERT_EQ(solve(t, all & ~1ULL), want);
    cram_solver_stats(t, &b);
    TU_ASSERT_EQ(b.nodes, 0);
    cram_solver_free(t);

    /* a 6x4 board has the same layout (4 cells across) */
    t = new_solver(6, 4, CRAM_ETC, 8, 0);
    TU_ASSERT_EQ(cram_solver_load_tt(t, path, &err), RDB_OK);
    cram_solver_free(t);

    /* another short side, a missing file, damaged files */
    t = new_solver(5, 5, CRAM_ETC, 8, 0);
    err.msg[0] = '\0';
    TU_ASSERT_EQ(cram_solver_load_tt(t, path, &err), RDB_E_INPUT);
    TU_ASSERT_MSG(strstr(err.msg, "not 5") != NULL, "message '%s'", err.msg);
    cram_solver_free(t);
    t = new_solver(4, 6, CRAM_ETC, 8, 0);
    char missing[TU_DIR_MAX + 32];
    snprintf(missing, sizeof missing, "%s/none", dir);
    TU_ASSERT_EQ(cram_solver_load_tt(t, missing, &err), RDB_E_MISSING);

    size_t len;
    unsigned char *data = tu_read_file(path, &len);
    TU_ASSERT(data != NULL && len > 40);
    data[len / 2] ^= 0x10;
    TU_ASSERT_EQ(tu_write_file(path, data, len), 0);
    TU_ASSERT_EQ(cram_solver_load_tt(t, path, &err), RDB_E_CORRUPT);
    data[len / 2] ^= 0x10;
    TU_ASSERT_EQ(tu_write_file(path, data, len - 5), 0);
    TU_ASSERT_EQ(cram_solver_load_tt(t, path, &err), RDB_E_CORRUPT);
    TU_ASSERT_EQ(tu_write_file(path, "hello", 5), 0);
    TU_ASSERT_EQ(cram_solver_load_tt(t, path, &err), RDB_E_CORRUPT);
    cram_stats c;
    cram_solver_stats(t, &c);
    TU_ASSERT_EQ(c.tt_entries, 0);
    cram_solver_free(t);
    cram_solver_free(s);
    free(data);
    tu_rmrf(dir);
}
END_TEST

/* Seal a transposition-table file's records with a right checksum (the
 * format of cram_tt.h: 24 bytes of head, 12 per record, FNV-1a last), as
 * someone crafting one would. */
static void seal_tt(unsigned char *data, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i + 8 < len; i++) {
        h ^= data[i];
        h *= 0x100000001b3ULL;
    }
    for (int i = 0; i < 8; i++)
        data[len - 8 + i] = (unsigned char)(h >> (8 * i));
}

/* A file with a valid checksum is still input: an entry that is no
 * position of the board, or a small one with a wrong nimber, is refused
 * when loaded; an entry too big to solve again that excludes its true
 * nimber stops the solve with an error, never an assertion or a wrong
 * nimber. */
START_TEST(test_tt_file_crafted)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    temp_tt_file(dir, path, sizeof path);
    rdb_error err;
    /* 6x4: the layout is the board (4 cells across), so a key is a
     * position of the board too */
    uint64_t all = (1ULL << 24) - 1;
    solver_no_mirror = 1; /* a table with entries to craft */
    cram_solver *s = new_solver(6, 4, CRAM_PLAIN, 8, 0);
    TU_ASSERT(solve(s, all) >= 0);
    TU_ASSERT_EQ(cram_solver_save_tt(s, path, &err), RDB_OK);
    cram_solver *clean = new_solver(6, 4, CRAM_PLAIN, 8, 0);
    size_t len;
    unsigned char *data = tu_read_file(path, &len);
    TU_ASSERT(data != NULL && len > 24 + 8);
    size_t count = (len - 32) / 12;
    int wrong_small = 0, odd_key = 0, big_excluded = 0, conflicts_seen = 0;
    for (size_t i = 0; i < count; i++) {
        unsigned char *rec = data + 24 + 12 * i;
        unsigned char saved[12];
        memcpy(saved, rec, 12);
        uint64_t key = 0;
        for (int b = 0; b < 8; b++)
            key |= (uint64_t)rec[b] << (8 * b);
        int cells = __builtin_popcountll(key);
        rdb_status expect = RDB_E_CORRUPT;
        if (cells <= 16 && rec[8] != 255 && wrong_small < 40) {
            rec[8] = rec[8] > 0 ? rec[8] - 1 : 1; /* a wrong nimber */
            wrong_small++;
        } else if (odd_key < 40 && (key >> 40) == 0) {
            key = key << 1 | 1ULL << 40; /* two pieces: no component */
            for (int b = 0; b < 8; b++)
                rec[b] = (unsigned char)(key >> (8 * b));
            odd_key++;
        } else if (cells > 16 && big_excluded < 20) {
            rec[8] = 255; /* "every nimber below 16 ruled out" */
            rec[10] = rec[11] = 0xff;
            big_excluded++;
            expect = RDB_OK; /* too big to solve again when loaded */
        } else {
            continue;
        }
        seal_tt(data, len);
        TU_ASSERT_EQ(tu_write_file(path, data, len), 0);
        cram_solver *t = new_solver(6, 4, CRAM_ASPIRATION, 8, 0);
        err.msg[0] = '\0';
        rdb_status st = cram_solver_load_tt(t, path, &err);
        TU_ASSERT_MSG(st == expect, "entry %zu: load gave %d (%s)", i, (int)st, err.msg);
        if (st == RDB_OK) {
            /* the crafted component itself, whose entry the search meets
             * first: it excludes the true nimber, which the search finds
             * below it (a conflict) or does not (a contradiction) */
            int v = -1, want = solve(clean, key);
            st = cram_solver_solve(t, key, &v, &err);
            TU_ASSERT_MSG(st == RDB_E_CORRUPT, "entry %zu: solve gave %d, nimber %d (want an error; nimber %d)", i,
                          (int)st, v, want);
            TU_ASSERT_MSG(strstr(err.msg, "contradicts itself") != NULL, "%s", err.msg);
            /* once the table holds a conflict, every later solve with it
             * fails, one a signal stops too: the caller must not save it */
            cram_stats got;
            cram_solver_stats(t, &got);
            if (got.tt_conflicts > 0) {
                conflicts_seen++;
                rdb_stop_requested = SIGINT;
                st = cram_solver_solve(t, key, &v, &err);
                rdb_stop_requested = 0;
                TU_ASSERT_MSG(st == RDB_E_CORRUPT, "entry %zu: a stop after a conflict gave %d", i, (int)st);
            }
        } else {
            TU_ASSERT_MSG(strstr(err.msg, path) != NULL, "message '%s' names no file", err.msg);
        }
        cram_solver_free(t);
        memcpy(rec, saved, 12);
    }
    TU_ASSERT(wrong_small > 10 && odd_key > 10 && big_excluded > 5 && conflicts_seen > 0);
    cram_solver_free(clean);
    cram_solver_free(s);
    free(data);
    tu_rmrf(dir);
}
END_TEST

/* Two results of one position that cannot both be true (two nimbers, or
 * a nimber and an exclusion of it) are a conflict: counted, the first
 * kept. Results that agree, or add exclusions, are not. */
START_TEST(test_tt_conflicts)
{
    rdb_error err;
    cram_tt t;
    TU_ASSERT_EQ(cram_tt_init(&t, 1, 0, &err), RDB_OK);
    const uint64_t a = 0x1234567ULL, b = 0x7654321ULL, c = 0xabcdefULL;
    cram_tt_put(&t, a, 3, 1);
    cram_tt_put(&t, a, 3, 5);
    cram_tt_exclude(&t, a, 1u << 2 | 1u << 4, 1);
    TU_ASSERT_EQ(t.conflicts, 0);
    cram_tt_exclude(&t, a, 1u << 3, 1); /* "not 3" of a 3 */
    TU_ASSERT_EQ(t.conflicts, 1);
    cram_tt_put(&t, a, 4, 9); /* another nimber */
    TU_ASSERT_EQ(t.conflicts, 2);
    TU_ASSERT_EQ(cram_tt_get(&t, a), 3);
    cram_tt_exclude(&t, b, 1u << 0 | 1u << 5, 1);
    cram_tt_exclude(&t, b, 1u << 1, 1);
    cram_tt_put(&t, b, 2, 1); /* not excluded: now known */
    TU_ASSERT_EQ(t.conflicts, 2);
    TU_ASSERT_EQ(cram_tt_get(&t, b), 2);
    cram_tt_exclude(&t, c, 1u << 1, 1);
    cram_tt_put(&t, c, 1, 1); /* a nimber excluded */
    TU_ASSERT_EQ(t.conflicts, 3);
    TU_ASSERT_EQ(cram_tt_get(&t, c), -1);
    TU_ASSERT_EQ(cram_tt_excluded(&t, c), 1u << 1);
    cram_tt_free(&t);
}
END_TEST

/* Write to `to` the table file `from` with one known nimber of a
 * component too big to be solved again at load changed, its checksum
 * made right: a file that disagrees with `from` on one position. */
static void write_other_nimber(const char *from, const char *to)
{
    size_t len;
    unsigned char *data = tu_read_file(from, &len);
    TU_ASSERT(data != NULL && len > 24 + 8);
    int changed = 0;
    for (size_t i = 0; i < (len - 32) / 12 && !changed; i++) {
        unsigned char *rec = data + 24 + 12 * i;
        uint64_t key = 0;
        for (int k = 0; k < 8; k++)
            key |= (uint64_t)rec[k] << (8 * k);
        if (__builtin_popcountll(key) > 16 && rec[8] != 255 && rec[8] <= 3) {
            rec[8] ^= 1;
            changed = 1;
        }
    }
    TU_ASSERT(changed);
    seal_tt(data, len);
    TU_ASSERT_EQ(tu_write_file(to, data, len), 0);
    free(data);
}

/* A table file that says of a position something other than a file loaded
 * before it (a digest, then the table file) is refused, naming it: one of
 * the two is false, and a run that went on from both could answer from
 * either. The same file twice is no conflict. */
START_TEST(test_tt_files_disagree)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32], other[TU_DIR_MAX + 32];
    temp_tt_files(dir, path, other, "other", sizeof path);
    rdb_error err;
    uint64_t all = (1ULL << 24) - 1;
    solver_no_mirror = 1;
    cram_solver *s = new_solver(6, 4, CRAM_PLAIN, 8, 0);
    TU_ASSERT(solve(s, all) >= 0);
    TU_ASSERT_EQ(cram_solver_save_tt(s, path, &err), RDB_OK);
    cram_solver_free(s);
    write_other_nimber(path, other);

    s = new_solver(6, 4, CRAM_ASPIRATION, 8, 0);
    TU_ASSERT_EQ(cram_solver_load_tt(s, path, &err), RDB_OK);
    TU_ASSERT_EQ(cram_solver_load_tt(s, path, &err), RDB_OK);
    err.msg[0] = '\0';
    TU_ASSERT_EQ(cram_solver_load_tt(s, other, &err), RDB_E_CORRUPT);
    TU_ASSERT_MSG(strstr(err.msg, other) != NULL && strstr(err.msg, "disagrees on 1 position") != NULL, "%s",
                  err.msg);
    cram_solver_free(s);
    /* either order */
    s = new_solver(6, 4, CRAM_ASPIRATION, 8, 0);
    TU_ASSERT_EQ(cram_solver_load_tt(s, other, &err), RDB_OK);
    err.msg[0] = '\0';
    TU_ASSERT_EQ(cram_solver_load_tt(s, path, &err), RDB_E_CORRUPT);
    TU_ASSERT_MSG(strstr(err.msg, path) != NULL, "%s", err.msg);
    cram_solver_free(s);
    solver_no_mirror = 0;
    tu_rmrf(dir);
}
END_TEST

/* A table that holds a conflict gives no answer, and a signal does not
 * hide the conflict (a stop would have the table saved over the files
 * it came from): 3x14, searched long enough to be polled, with the
 * entries of two 3x8 files (the same stride) that disagree on one. */
START_TEST(test_conflict_outranks_stop)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32], other[TU_DIR_MAX + 32];
    temp_tt_files(dir, path, other, "other", sizeof path);
    rdb_error err;
    cram_solver *s = new_solver(3, 8, CRAM_ASPIRATION, 8, 0);
    TU_ASSERT(solve(s, (1ULL << 24) - 1) >= 0);
    TU_ASSERT_EQ(cram_solver_save_tt(s, path, &err), RDB_OK);
    cram_solver_free(s);
    write_other_nimber(path, other);
    s = new_solver(3, 14, CRAM_ASPIRATION, 64, 0);
    TU_ASSERT_EQ(cram_solver_load_tt(s, path, &err), RDB_OK);
    TU_ASSERT_EQ(cram_solver_load_tt(s, other, &err), RDB_E_CORRUPT);
    int v = -1;
    rdb_stop_requested = SIGINT;
    rdb_status st = cram_solver_solve(s, (1ULL << 42) - 1, &v, &err);
    rdb_stop_requested = 0;
    TU_ASSERT_MSG(st == RDB_E_CORRUPT && strstr(err.msg, "contradicts itself"), "solve gave %d: %s", (int)st,
                  err.msg);
    cram_stats after;
    cram_solver_stats(s, &after);
    TU_ASSERT_MSG(after.nodes > 0x3fff, "%llu nodes: never polled", (unsigned long long)after.nodes);
    TU_ASSERT_EQ(after.tt_conflicts, 1);
    cram_solver_free(s);
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_tt_replacement)
{
    rdb_error err;
    cram_tt t;
    TU_ASSERT_EQ(cram_tt_init(&t, 1, 0, &err), RDB_OK);
    /* fill far beyond the table: every key stays findable until evicted,
     * the dearest entries survive, and counts add up */
    uint64_t seed = 99;
    const uint64_t n = 2000000; /* four times the smallest table's slots */
    for (uint64_t k = 1; k <= n; k++) {
        uint64_t key = rng_next(&seed) | 1;
        cram_tt_put(&t, key, (int)(key % 100), k % 1000 == 0 ? 200 : 1);
        TU_ASSERT_EQ(cram_tt_get(&t, key), (int)(key % 100));
    }
    TU_ASSERT(t.entries <= t.nbuckets * CRAM_TT_WAYS);
    TU_ASSERT(t.replaced > 0);
    TU_ASSERT_EQ(t.entries + t.replaced, n);
    seed = 99;
    int kept = 0;
    for (uint64_t k = 1; k <= n; k++) {
        uint64_t key = rng_next(&seed) | 1;
        if (k % 1000 == 0)
            kept += cram_tt_get(&t, key) == (int)(key % 100);
    }
    TU_ASSERT_EQ(kept, (int)(n / 1000));
    cram_tt_free(&t);
}
END_TEST

START_TEST(test_stop_and_resume)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    temp_tt_file(dir, path, sizeof path);
    rdb_error err;
    solver_no_mirror = 1; /* a search to stop */
    cram_solver *s = new_solver(4, 8, CRAM_ASPIRATION, 64, 0);
    rdb_stop_requested = SIGINT;
    int v = -1;
    TU_ASSERT_EQ(cram_solver_solve(s, (1ULL << 32) - 1, &v, &err), RDB_E_STOPPED);
    TU_ASSERT_EQ(v, -1);
    rdb_stop_requested = 0;
    TU_ASSERT_EQ(cram_solver_save_tt(s, path, &err), RDB_OK);
    cram_solver_free(s);
    s = new_solver(4, 8, CRAM_ASPIRATION, 64, 0);
    TU_ASSERT_EQ(cram_solver_load_tt(s, path, &err), RDB_OK);
    TU_ASSERT_EQ(solve(s, (1ULL << 32) - 1), 0);
    cram_solver_free(s);
    tu_rmrf(dir);
}
END_TEST

/* The periodic hook: a 5x7 solve calls it, the table it saves mid-search
 * loads into a new solver, which then needs far fewer nodes. */
typedef struct {
    const char *path;
    int calls, failed;
} hook_state;

static void save_hook(cram_solver *s, void *ctx)
{
    hook_state *h = ctx;
    rdb_error err;
    h->calls++;
    h->failed += cram_solver_save_tt(s, h->path, &err) != RDB_OK;
}

/* _i = 1: one thread; 2: two, one of them saving while the other stores
 * (a save then counts its entries as it writes them). */
START_TEST(test_periodic_save)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    temp_tt_file(dir, path, sizeof path);
    rdb_error err;
    solver_threads = _i;
    cram_solver *s = new_solver(5, 7, CRAM_ASPIRATION, 64, 0);
    solver_threads = 1;
    hook_state h = {path, 0, 0};
    cram_solver_set_hook(s, 0.0, save_hook, &h);
    TU_ASSERT_EQ(solve(s, (1ULL << 35) - 1), 1);
    TU_ASSERT_MSG(h.calls >= 3 && h.failed == 0, "%d calls, %d failed", h.calls, h.failed);
    cram_stats first;
    cram_solver_stats(s, &first);
    cram_solver_free(s);
    s = new_solver(5, 7, CRAM_ASPIRATION, 64, 0);
    TU_ASSERT_EQ(cram_solver_load_tt(s, path, &err), RDB_OK);
    TU_ASSERT_EQ(solve(s, (1ULL << 35) - 1), 1);
    cram_stats again;
    cram_solver_stats(s, &again);
    TU_ASSERT(again.tt_loaded > 0 && again.nodes < first.nodes);
    cram_solver_free(s);
    tu_rmrf(dir);
}
END_TEST

/* The dear entries alone (cram_solver_save_dear): a solve stopped
 * half-way saves the entries of 2^10 nodes or more, far fewer than the
 * whole table, each of that cost in the file; a new solver given only
 * them finds the same nimber in fewer nodes than from nothing. */
START_TEST(test_dear_entries)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32], whole[TU_DIR_MAX + 32];
    temp_tt_files(dir, path, whole, "whole", sizeof path);
    rdb_error err;
    const uint64_t board = (1ULL << 42) - 1; /* 3x14, nimber 3 */
    cram_solver *s = new_solver(3, 14, CRAM_ASPIRATION, 64, 0);
    TU_ASSERT_EQ(solve(s, board), 3);
    cram_stats fresh;
    cram_solver_stats(s, &fresh);
    cram_solver_free(s);

    s = new_solver(3, 14, CRAM_ASPIRATION, 64, 0);
    int calls_left = 40, v = -1;
    cram_solver_set_hook(s, 0.0, tu_stop_at_call, &calls_left);
    TU_ASSERT_EQ(cram_solver_solve(s, board, &v, &err), RDB_E_STOPPED);
    rdb_stop_requested = 0;
    TU_ASSERT_EQ(cram_solver_save_dear(s, path, 10, &err), RDB_OK);
    TU_ASSERT_EQ(cram_solver_save_tt(s, whole, &err), RDB_OK);
    cram_solver_free(s);

    /* the file: a 24-byte head, 12-byte records (key, nimber, work, u16), a checksum */
    size_t len, whole_len;
    unsigned char *f = tu_read_file(path, &len);
    free(tu_read_file(whole, &whole_len));
    TU_ASSERT(f != NULL && len >= 32 && (len - 32) % 12 == 0);
    const size_t n = (len - 32) / 12;
    TU_ASSERT_MSG(n > 0 && n * 20 < (whole_len - 32) / 12, "%zu dear entries of %zu", n,
                  (whole_len - 32) / 12);
    for (size_t i = 0; i < n; i++)
        TU_ASSERT_MSG(f[24 + 12 * i + 9] >= 10, "entry %zu of work %d", i, f[24 + 12 * i + 9]);
    free(f);

    s = new_solver(3, 14, CRAM_ASPIRATION, 64, 0);
    TU_ASSERT_EQ(cram_solver_load_tt(s, path, &err), RDB_OK);
    TU_ASSERT_EQ(solve(s, board), 3);
    cram_stats again;
    cram_solver_stats(s, &again);
    TU_ASSERT_MSG(again.tt_loaded == n && again.nodes < fresh.nodes, "%llu loaded, %llu nodes of %llu",
                  (unsigned long long)again.tt_loaded, (unsigned long long)again.nodes,
                  (unsigned long long)fresh.nodes);
    cram_solver_free(s);
    tu_rmrf(dir);
}
END_TEST

static int any_entry(void *ctx, uint64_t key, int nimber, unsigned excluded)
{
    (void)ctx, (void)key, (void)nimber, (void)excluded;
    return 1;
}

/* A table file loads whole into a table that threads will share (which in
 * a search only asks to grow): near 3 M entries, more than its first 4 MB hold;
 * also when the table holds entries already (a digest loaded first). A
 * table that cannot grow to hold it is refused. */
START_TEST(test_tt_load_shared)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    temp_tt_file(dir, path, sizeof path);
    rdb_error err;
    cram_tt t, back;
    TU_ASSERT_EQ(cram_tt_init(&t, 256, 0, &err), RDB_OK);
    uint64_t seed = 11;
    for (int k = 0; k < 3000000; k++)
        cram_tt_put(&t, rng_next(&seed) | 1, k % 7, 20);
    /* (a few of them evicted: it doubles when three quarters full) */
    TU_ASSERT_MSG(t.entries > 2700000, "%llu entries", (unsigned long long)t.entries);
    TU_ASSERT_EQ(cram_tt_save(&t, path, 5, 0, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_init(&back, 256, 1, &err), RDB_OK);
    uint64_t loaded = 0;
    TU_ASSERT_EQ(cram_tt_load(&back, path, 5, any_entry, NULL, &loaded, &err), RDB_OK);
    TU_ASSERT_EQ(loaded, t.entries);
    TU_ASSERT(back.entries >= t.entries - t.entries / 1000);
    TU_ASSERT(back.shared && !back.want_grow);

    /* a few entries first (their own file), then the whole table */
    char few_path[TU_DIR_MAX + 32];
    snprintf(few_path, sizeof few_path, "%s/few", dir);
    cram_tt few, both;
    TU_ASSERT_EQ(cram_tt_init(&few, 256, 0, &err), RDB_OK);
    seed = 11;
    for (int k = 0; k < 1000; k++)
        cram_tt_put(&few, rng_next(&seed) | 1, k % 7, 20);
    TU_ASSERT_EQ(cram_tt_save(&few, few_path, 5, 0, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_init(&both, 256, 1, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_load(&both, few_path, 5, any_entry, NULL, &loaded, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_load(&both, path, 5, any_entry, NULL, &loaded, &err), RDB_OK);
    TU_ASSERT_MSG(both.entries >= t.entries - t.entries / 1000, "%llu of %llu entries kept",
                  (unsigned long long)both.entries, (unsigned long long)t.entries);
    TU_ASSERT(both.shared && !both.want_grow);

    /* a table that cannot hold the file is refused (the next save would
     * put what it kept in the file's place): too small a --tt-mb, and too
     * little memory to grow */
    cram_tt small;
    TU_ASSERT_EQ(cram_tt_init(&small, 16, 1, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_load(&small, path, 5, any_entry, NULL, &loaded, &err), RDB_E_INPUT);
    char want[64];
    snprintf(want, sizeof want, "give --tt-mb %llu, the size it was saved with", (unsigned long long)(t.bytes >> 20));
    TU_ASSERT_MSG(strstr(err.msg, "a table of 16 MB keeps") && strstr(err.msg, want), "%s", err.msg);
    cram_tt_free(&small);
    /* and that size holds it */
    TU_ASSERT_EQ(cram_tt_init(&small, (long)(t.bytes >> 20), 1, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_load(&small, path, 5, any_entry, NULL, &loaded, &err), RDB_OK);
    TU_ASSERT(small.entries >= t.entries - t.entries / 1000);
    cram_tt_free(&small);
    /* a file that does not record its table's size (saved by an older
     * retrodb): the size that holds it at most half full */
    size_t len;
    unsigned char *data = tu_read_file(path, &len);
    TU_ASSERT(data != NULL && len > 32);
    memset(data + 12, 0, 4);
    seal_tt(data, len);
    TU_ASSERT_EQ(tu_write_file(path, data, len), 0);
    free(data);
    TU_ASSERT_EQ(cram_tt_init(&small, 16, 1, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_load(&small, path, 5, any_entry, NULL, &loaded, &err), RDB_E_INPUT);
    TU_ASSERT_MSG(strstr(err.msg, "a table of 16 MB keeps") && strstr(err.msg, "give --tt-mb 64") &&
                      !strstr(err.msg, "saved with"),
                  "%s", err.msg);
    cram_tt_free(&small);
    setenv("RDB_MEMORY_AVAILABLE_MB", "40", 1);
    TU_ASSERT_EQ(cram_tt_init(&small, 256, 1, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_load(&small, path, 5, any_entry, NULL, &loaded, &err), RDB_E_NOMEM);
    unsetenv("RDB_MEMORY_AVAILABLE_MB");
    TU_ASSERT_MSG(strstr(err.msg, "free memory") != NULL, "%s", err.msg);
    cram_tt_free(&small);
    cram_tt_free(&few);
    cram_tt_free(&both);
    cram_tt_free(&t);
    cram_tt_free(&back);
    tu_rmrf(dir);
}
END_TEST

/* A file saved from a table it filled a quarter to three eighths (an
 * older retrodb's, which doubled at half full) loads into the size it was
 * saved from, not into half of it three quarters full, where two of its
 * buckets share one and overflow: every entry kept, and no refusal naming
 * a size the user gave. A digest of a few entries of a big table stays
 * small. */
START_TEST(test_tt_load_saved_size)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    temp_tt_file(dir, path, sizeof path);
    rdb_error err;
    cram_tt t, back;
    TU_ASSERT_EQ(cram_tt_init(&t, 256, 0, &err), RDB_OK);
    while (t.bytes < 32ULL << 20)
        cram_tt_grow(&t);
    uint64_t seed = 29;
    for (int k = 0; k < 1400000; k++) /* a third of 32 MB's 4 M slots */
        cram_tt_put(&t, rng_next(&seed) | 1, k % 7, 20);
    TU_ASSERT_EQ(t.bytes, 32ULL << 20);
    TU_ASSERT_EQ(cram_tt_save(&t, path, 5, 0, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_init(&back, 256, 1, &err), RDB_OK);
    uint64_t loaded = 0;
    TU_ASSERT_MSG(cram_tt_load(&back, path, 5, any_entry, NULL, &loaded, &err) == RDB_OK, "%s", err.msg);
    TU_ASSERT_EQ(loaded, t.entries);
    TU_ASSERT_EQ(back.bytes, 32ULL << 20);
    TU_ASSERT_EQ(back.entries, t.entries);
    cram_tt_free(&back);

    /* a few entries saved from that table: the table stays at its first size */
    cram_tt few;
    TU_ASSERT_EQ(cram_tt_init(&few, 256, 0, &err), RDB_OK);
    while (few.bytes < 32ULL << 20)
        cram_tt_grow(&few);
    for (int k = 0; k < 1000; k++)
        cram_tt_put(&few, rng_next(&seed) | 1, k % 7, 20);
    TU_ASSERT_EQ(cram_tt_save(&few, path, 5, 0, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_init(&back, 256, 1, &err), RDB_OK);
    TU_ASSERT_EQ(cram_tt_load(&back, path, 5, any_entry, NULL, &loaded, &err), RDB_OK);
    TU_ASSERT_EQ(back.entries, 1000);
    TU_ASSERT_EQ(back.bytes, (uint64_t)CRAM_TT_MIN_BUCKETS * sizeof(cram_tt_bucket));
    cram_tt_free(&back);
    cram_tt_free(&few);
    cram_tt_free(&t);
    tu_rmrf(dir);
}
END_TEST

/* An entry stores only part of its key's hash: saving gives back the whole
 * key (the hash undone), for tables of every size, and excluded nimbers
 * and known ones survive the round trip. */
START_TEST(test_tt_keys_round_trip)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    temp_tt_file(dir, path, sizeof path);
    rdb_error err;
    const long sizes[] = {4, 64};
    for (int z = 0; z < 2; z++) {
        cram_tt t, back;
        TU_ASSERT_EQ(cram_tt_init(&t, sizes[z], 0, &err), RDB_OK);
        uint64_t seed = 7 + (uint64_t)z;
        const int n = 20000;
        for (int k = 0; k < n; k++) {
            uint64_t key = rng_next(&seed) | 1;
            if (k % 3)
                cram_tt_put(&t, key, k % 13, k % 40);
            else
                cram_tt_exclude(&t, key, (unsigned)(k % 2047) + 1, 3);
        }
        TU_ASSERT_EQ(cram_tt_save(&t, path, 5, 0, &err), RDB_OK);
        TU_ASSERT_EQ(cram_tt_init(&back, sizes[z], 0, &err), RDB_OK);
        uint64_t loaded = 0;
        TU_ASSERT_EQ(cram_tt_load(&back, path, 5, any_entry, NULL, &loaded, &err), RDB_OK);
        TU_ASSERT_EQ(loaded, t.entries);
        seed = 7 + (uint64_t)z;
        for (int k = 0; k < n; k++) {
            uint64_t key = rng_next(&seed) | 1;
            unsigned v1 = 0, e1 = 0, v2 = 0, e2 = 0;
            int in1 = cram_tt_read(&t, key, &v1, &e1), in2 = cram_tt_read(&back, key, &v2, &e2);
            TU_ASSERT_EQ(in1, in2);
            if (!in1)
                continue;
            TU_ASSERT_EQ(v1, v2);
            TU_ASSERT_EQ(e1, e2);
            if (k % 3)
                TU_ASSERT_EQ(v1, (unsigned)(k % 13));
            else
                TU_ASSERT_EQ(e1, ((unsigned)(k % 2047) + 1) & ((1u << CRAM_TT_EXCLUDED_BITS) - 1));
        }
        cram_tt_free(&t);
        cram_tt_free(&back);
    }
    tu_rmrf(dir);
}
END_TEST

/* Every entry of a table found again, with its value. */
static uint64_t entries_found(const cram_tt *t, int n)
{
    uint64_t kept = 0;
    for (int k = 1; k <= n; k++)
        kept += cram_tt_get((cram_tt *)t, (uint64_t)k * 0x9e3779b97f4a7c15ULL | 1) == k % 7;
    return kept;
}

/* The table starts small and doubles as it fills, losing nothing, also
 * when the doubling is done in steps over ranges of buckets. */
START_TEST(test_tt_growth)
{
    cram_tt t;
    rdb_error err;
    TU_ASSERT_EQ(cram_tt_init(&t, 256, 0, &err), RDB_OK);
    uint64_t start = t.nbuckets;
    TU_ASSERT(start * sizeof(cram_tt_bucket) <= (16u << 20));
    const int n = 3000000;
    for (int k = 1; k <= n; k++)
        cram_tt_put(&t, (uint64_t)k * 0x9e3779b97f4a7c15ULL | 1, k % 7, 1);
    TU_ASSERT(t.nbuckets > start && t.nbuckets <= t.max_buckets);
    /* It doubles when three quarters full, so a bucket may fill before:
     * with keys this even, about one in twelve goes (the cheapest, in a
     * search), and the table is never fuller than that. */
    TU_ASSERT_MSG(t.replaced < (uint64_t)n / 10, "%llu replaced", (unsigned long long)t.replaced);
    TU_ASSERT(t.entries < t.grow_at);
    TU_ASSERT_EQ(t.entries + t.replaced, (uint64_t)n);
    TU_ASSERT_EQ(entries_found(&t, n), t.entries);

    /* grown in steps, as threads share it: the old buckets moved in
     * ranges, in no particular order, then the rest */
    uint64_t entries = t.entries, before = t.nbuckets;
    cram_tt old;
    const uint64_t top = cram_tt_grow_begin(&t, &old);
    TU_ASSERT_EQ(top, before / 2);
    TU_ASSERT_EQ(t.nbuckets, 2 * before);
    const uint64_t parts = 7;
    for (uint64_t p = 0; p < parts; p++) {
        uint64_t q = (p * 3) % parts; /* 0, 3, 6, 2, 5, 1, 4 */
        cram_tt_grow_move(&t, &old, top * q / parts, top * (q + 1) / parts);
    }
    cram_tt_grow_end(&t, &old);
    TU_ASSERT_EQ(t.entries, entries);
    TU_ASSERT(cram_tt_consistent(&t));
    TU_ASSERT_EQ(entries_found(&t, n), entries);
    /* at its full size it cannot grow, and stays as it is */
    while (t.nbuckets < t.max_buckets)
        cram_tt_grow(&t);
    before = t.nbuckets;
    TU_ASSERT_EQ(cram_tt_grow_begin(&t, &old), 0);
    TU_ASSERT_EQ(t.nbuckets, before);
    TU_ASSERT_EQ(entries_found(&t, n), entries);
    cram_tt_free(&t);
}
END_TEST

/* A table doubles where it lies, so the memory for its new half is all it
 * needs; with less it stays as it is, every entry kept. */
START_TEST(test_tt_grow_in_place)
{
    cram_tt t;
    rdb_error err;
    const int n = 2000000;
    TU_ASSERT_EQ(cram_tt_init(&t, 1024, 0, &err), RDB_OK);
    for (int k = 1; k <= n; k++)
        cram_tt_put(&t, (uint64_t)k * 0x9e3779b97f4a7c15ULL | 1, k % 7, 1 + k % 5);
    const uint64_t bytes = t.bytes, entries = t.entries;
    TU_ASSERT_EQ(entries_found(&t, n), entries);
    /* memory for the new half and the margin */
    char mb[32];
    snprintf(mb, sizeof mb, "%llu", (unsigned long long)(bytes >> 20) + 512);
    setenv("RDB_MEMORY_AVAILABLE_MB", mb, 1);
    cram_tt_grow(&t);
    TU_ASSERT_EQ(t.bytes, 2 * bytes);
    TU_ASSERT(!t.held);
    TU_ASSERT_EQ(t.entries, entries);
    TU_ASSERT(cram_tt_consistent(&t));
    TU_ASSERT_EQ(entries_found(&t, n), entries);
    /* a megabyte short of the next new half: held */
    snprintf(mb, sizeof mb, "%llu", (unsigned long long)(2 * bytes >> 20) + 511);
    setenv("RDB_MEMORY_AVAILABLE_MB", mb, 1);
    cram_tt old;
    TU_ASSERT_EQ(cram_tt_grow_begin(&t, &old), 0);
    unsetenv("RDB_MEMORY_AVAILABLE_MB");
    TU_ASSERT_EQ(t.bytes, 2 * bytes);
    TU_ASSERT(t.held);
    TU_ASSERT_EQ(entries_found(&t, n), entries);
    cram_tt_free(&t);

    /* memory another table of the process may still take (the wide
     * parts') is left to it: the room for a new half then does not do */
    TU_ASSERT_EQ(cram_tt_init(&t, 1024, 0, &err), RDB_OK);
    snprintf(mb, sizeof mb, "%llu", (unsigned long long)(t.bytes >> 20) + 512);
    setenv("RDB_MEMORY_AVAILABLE_MB", mb, 1);
    t.reserve = t.bytes;
    TU_ASSERT_EQ(cram_tt_grow_begin(&t, &old), 0);
    t.max_buckets *= 2;
    t.reserve = 0;
    const uint64_t top = cram_tt_grow_begin(&t, &old);
    unsetenv("RDB_MEMORY_AVAILABLE_MB");
    TU_ASSERT(top > 0);
    cram_tt_grow_move(&t, &old, 0, top);
    cram_tt_grow_end(&t, &old);
    TU_ASSERT(cram_tt_consistent(&t));
    cram_tt_free(&t);
}
END_TEST

START_TEST(test_bad_input)
{
    cram_solver_options opt = {.method = CRAM_ETC, .tt_mb = 1};
    cram_solver *s;
    rdb_error err;
    err.msg[0] = '\0';
    TU_ASSERT_EQ(cram_solver_new(12, 11, &opt, &s, &err), RDB_E_INPUT);
    TU_ASSERT(strstr(err.msg, "132 cells") != NULL);
    cram_solver_options threads_plain = {.method = CRAM_PLAIN, .tt_mb = 1, .threads = 2};
    TU_ASSERT_EQ(cram_solver_new(3, 3, &threads_plain, &s, &err), RDB_E_INPUT);
    TU_ASSERT(strstr(err.msg, "aspiration") != NULL);
    TU_ASSERT_EQ(cram_method_from_name("nope"), -1);
    for (int m = 0; m < CRAM_NMETHODS; m++)
        TU_ASSERT_EQ(cram_method_from_name(cram_method_name((cram_method)m)), m);
    s = new_solver(2, 3, CRAM_ETC, 1, 0);
    int v;
    TU_ASSERT_EQ(cram_solver_solve(s, 1ULL << 6, &v, &err), RDB_E_INPUT);
    TU_ASSERT_EQ(solve(s, 0), 0);
    cram_solver_free(s);
}
END_TEST

Suite *cram_solver_suite(void)
{
    Suite *s = suite_create("cram_solver");
    TCase *tc = tcase_create("components");
    tcase_add_test(tc, test_split);
    tcase_add_test(tc, test_canonical);
    suite_add_tcase(s, tc);

    tc = tcase_create("naive");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_random_vs_naive, 0, CRAM_NMETHODS);
    tcase_add_loop_test(tc, test_random_board_order_small_tt, 0, CRAM_NMETHODS);
    tcase_add_loop_test(tc, test_nimber_test, 0, CRAM_NMETHODS);
    suite_add_tcase(s, tc);

    tc = tcase_create("known");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_known_small, 0, CRAM_NMETHODS);
    tcase_add_test(tc, test_known_big);
    tcase_add_test(tc, test_two_threads);
    tcase_add_loop_test(tc, test_symmetric_positions, 0, 3);
    tcase_add_test(tc, test_mirror_rule);
    suite_add_tcase(s, tc);

    tc = tcase_create("files");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_tt_file);
    tcase_add_test(tc, test_tt_file_crafted);
    tcase_add_test(tc, test_tt_replacement);
    tcase_add_test(tc, test_tt_conflicts);
    tcase_add_test(tc, test_tt_files_disagree);
    tcase_add_test(tc, test_conflict_outranks_stop);
    tcase_add_test(tc, test_stop_and_resume);
    tcase_add_loop_test(tc, test_periodic_save, 1, 3);
    tcase_add_test(tc, test_dear_entries);
    tcase_add_test(tc, test_tt_growth);
    tcase_add_test(tc, test_tt_grow_in_place);
    tcase_add_test(tc, test_tt_keys_round_trip);
    tcase_add_test(tc, test_tt_load_shared);
    tcase_add_test(tc, test_tt_load_saved_size);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
