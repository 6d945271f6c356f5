/*
 * test_cram_wide.c — the Cram solver on boards of more than 64 cells
 * (src/cram/cram_wide.c, cram_wide_tt.c and the wide parts of
 * cram_search.c and cram_root.c): the 128-bit split and canonical form against the 64-bit
 * ones; the wide search, forced onto small boards (narrow_rows), against
 * the naive reference with every method, one and two threads, with and
 * without the mirror rule; and positions of 3x22, 3x23, 8x9 and 4x17
 * against the 64-bit solver on the board their free cells fit (a column or
 * a row of the big board covered whole), the wide search then working on
 * components too tall for 64 bits.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cram/cram_component.h"
#include "cram/cram_solver.h"
#include "cram/cram_wide.h"
#include "cram/cram_wide_tt.h"
#include "naive_cram.h"
#include "test_util.h"

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static cram_solver *new_solver(int rows, int cols, const cram_solver_options *opt)
{
    cram_solver *s = NULL;
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = cram_solver_new(rows, cols, opt, &s, &err);
    TU_ASSERT_MSG(st == RDB_OK, "cram_solver_new %dx%d: %s", rows, cols, err.msg);
    return s;
}

static int solve_wide(cram_solver *s, cram_wset free_cells)
{
    int v = -1;
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = cram_solver_solve_wide(s, free_cells, &v, &err);
    TU_ASSERT_MSG(st == RDB_OK, "solve: %s", err.msg);
    return v;
}

/* ---- the 128-bit sets against the 64-bit ones ---- */

/* Split and canonical form of random sets of a 4x16 layout (64 cells, so
 * both kinds take them) agree. The 64-bit canonical form also tries the
 * transposed images when the box is no taller than the layout is wide;
 * only taller boxes are compared there. */
START_TEST(test_wide_geometry)
{
    cram_geom g;
    cram_wide_geom wg;
    cram_geom_init(&g, 16, 4);
    cram_wide_geom_init(&wg, 16, 4);
    uint64_t seed = 0xabcdef12345ULL;
    int compared = 0;
    for (int i = 0; i < 3000; i++) {
        uint64_t x = rng_next(&seed) & rng_next(&seed) ? rng_next(&seed) | rng_next(&seed) : rng_next(&seed);
        uint64_t comp[CRAM_MAX_COMPONENTS];
        cram_wset wcomp[64];
        int n = cram_split(&g, x, comp), wn = cram_wide_split(&wg, x, wcomp, 64);
        TU_ASSERT_EQ(n, wn);
        for (int k = 0; k < n; k++) {
            TU_ASSERT(wcomp[k] == comp[k]);
            int h, w, wh, ww, zero, wzero;
            uint64_t can = cram_canonical_zero(&g, comp[k], &h, &w, &zero);
            cram_wset wcan = cram_wide_canonical(&wg, comp[k], &wh, &ww, &wzero);
            TU_ASSERT_EQ(h, wh);
            TU_ASSERT_EQ(w, ww);
            TU_ASSERT_EQ(zero, wzero);
            TU_ASSERT_EQ(cram_wide_rows(&wg, comp[k]), h);
            if (h > 4) {
                TU_ASSERT_MSG(wcan == can, "canonical of %llx", (unsigned long long)comp[k]);
                compared++;
            }
            TU_ASSERT(cram_wide_canonical(&wg, wcan, NULL, NULL, NULL) == wcan);
            /* moved up to row 0 */
            TU_ASSERT(cram_wide_to_narrow(&wg, comp[k]) == comp[k] >> (__builtin_ctzll(comp[k]) / 4 * 4));
        }
    }
    TU_ASSERT_MSG(compared > 500, "%d compared", compared);

    /* sets above bit 63: a component on rows 15..20 of a 3x30 layout */
    cram_wide_geom_init(&wg, 30, 3);
    cram_wset snake = 0;
    for (int r = 15; r <= 20; r++)
        snake |= cram_wbit(r * 3 + (r & 1 ? 2 : 0)) | cram_wbit(r * 3 + 1);
    cram_wset comp[4];
    TU_ASSERT_EQ(cram_wide_split(&wg, snake | cram_wbit(3 * 29 + 2), comp, 4), 1);
    TU_ASSERT(comp[0] == snake);
    int h, w;
    cram_wset can = cram_wide_canonical(&wg, snake, &h, &w, NULL);
    TU_ASSERT_EQ(h, 6);
    TU_ASSERT_EQ(w, 3);
    TU_ASSERT((can & ~(cram_wbit(18) - 1)) == 0);
    TU_ASSERT_EQ(cram_wpopcount(can), 12);
    TU_ASSERT_EQ(cram_wide_rows(&wg, snake), 6);
    TU_ASSERT(cram_wide_to_narrow(&wg, snake) == (uint64_t)(snake >> 45));
    TU_ASSERT_EQ(cram_wlowest(cram_wbit(100)), 100);
    TU_ASSERT_EQ(cram_whighest(cram_wbit(100) | 1), 100);
}
END_TEST

/* A child's split (cram_wide_split_child, which skips the flood fill
 * when the domino's neighbours are joined around it, and grows two
 * groups side by side) gives the plain
 * split of the part less the domino: every domino of random connected
 * parts of 5x13 and 3x30 layouts, dense and sparse, on both sides of bit
 * 64. */
START_TEST(test_wide_split_child)
{
    static const int shapes[][2] = {{13, 5}, {30, 3}, {16, 8}};
    uint64_t seed = 0x5eed13ULL;
    long whole = 0, children = 0;
    for (int sh = 0; sh < 3; sh++) {
        cram_wide_geom wg;
        const int height = shapes[sh][0], stride = shapes[sh][1];
        cram_wide_geom_init(&wg, height, stride);
        for (int i = 0; i < 400; i++) {
            cram_wset x = 0;
            for (int k = 0; k < height * stride; k++)
                if (rng_next(&seed) % 100 < (uint64_t)(i % 2 ? 85 : 60))
                    x |= cram_wbit(k);
            cram_wset comp[64];
            const int n = cram_wide_split(&wg, x, comp, 64);
            for (int c = 0; c < n; c++) {
                const cram_wset part = comp[c];
                for (int v = 0; v < 2; v++)
                    for (cram_wset m = v ? cram_wide_vmoves(&wg, part) : cram_wide_hmoves(&wg, part); m;
                         m &= m - 1) {
                        const int cell = cram_wlowest(m);
                        const cram_wset d = cram_wbit(cell) | cram_wbit(cell + (v ? stride : 1));
                        cram_wset want[64], got[64];
                        const int wn = cram_wide_split(&wg, part & ~d, want, 64);
                        const int gn = cram_wide_split_child(&wg, part, cell, v, got, 64);
                        TU_ASSERT_EQ(gn, wn);
                        /* the same sets in the same order (by their lowest cells) */
                        for (int k = 0; k < gn; k++)
                            TU_ASSERT_MSG(got[k] == want[k], "part %d of a child", k);
                        whole += gn == 1;
                        children++;
                    }
            }
        }
    }
    TU_ASSERT_MSG(children > 20000 && whole > children / 2, "%ld children, %ld whole", children, whole);
}
END_TEST

/* ---- the wide search forced onto small boards ---- */

typedef struct {
    int rows, cols, max_free, narrow_rows;
} shape;

static const shape forced[] = {{3, 8, 20, 3}, {4, 6, 20, 4}, {2, 12, 20, 2}, {5, 5, 20, 5},
                               {6, 4, 20, 4}, {1, 20, 20, 1}, {3, 10, 22, 4}, {5, 7, 22, 5}};

/* Every component taller than narrow_rows is searched by the wide code:
 * random positions against the naive solver, for method m (loop index),
 * with and without the mirror rule, with two threads for aspiration. */
START_TEST(test_forced_wide_vs_naive)
{
    cram_method m = (cram_method)_i;
    uint64_t seed = 0x5151ULL + (uint64_t)m;
    uint64_t wide_expanded = 0;
    for (size_t k = 0; k < sizeof forced / sizeof forced[0]; k++) {
        const shape *sh = &forced[k];
        naive_cram *nv = naive_cram_new(sh->rows, sh->cols);
        TU_ASSERT(nv != NULL);
        for (int mirror = 0; mirror < 2; mirror++) {
            cram_solver_options opt = {.method = m, .tt_mb = 4, .narrow_rows = sh->narrow_rows,
                                       .no_mirror = !mirror,
                                       .threads = m == CRAM_ASPIRATION ? 2 : 1};
            cram_solver *s = new_solver(sh->rows, sh->cols, &opt);
            int n = sh->rows * sh->cols;
            for (int i = 0; i < 40; i++) {
                uint64_t x = (1ULL << n) - 1;
                int target = sh->max_free / 2 + (int)(rng_next(&seed) % (uint64_t)(sh->max_free / 2 + 1));
                while (__builtin_popcountll(x) > target)
                    x &= ~(1ULL << (rng_next(&seed) % (uint64_t)n));
                int want = naive_cram_nimber(nv, x);
                int got = solve_wide(s, x);
                TU_ASSERT_MSG(got == want, "%s %dx%d (wide above %d rows, mirror %d) free %llx: %d, naive %d",
                              cram_method_name(m), sh->rows, sh->cols, sh->narrow_rows, mirror,
                              (unsigned long long)x, got, want);
                if (i % 8 == 0) {
                    int is = -1;
                    rdb_error err;
                    TU_ASSERT_EQ(cram_solver_test_wide(s, x, want, &is, &err), RDB_OK);
                    TU_ASSERT_EQ(is, 1);
                    TU_ASSERT_EQ(cram_solver_test_wide(s, x, want + 1, &is, &err), RDB_OK);
                    TU_ASSERT_EQ(is, 0);
                }
            }
            cram_stats st;
            cram_solver_stats(s, &st);
            wide_expanded += st.wide_expanded;
            cram_solver_free(s);
        }
        naive_cram_free(nv);
    }
    TU_ASSERT_MSG(wide_expanded > 1000, "%llu wide positions expanded", (unsigned long long)wide_expanded);
}
END_TEST

/* ---- positions of boards of more than 64 cells ---- */

typedef struct {
    int rows, cols;       /* the big board */
    int small_rows, small_cols; /* the part of it left free: its top left */
    int keep;             /* free cells to keep (the rest covered at random) */
} big_case;

static const big_case big[] = {{3, 22, 2, 22, 34}, {3, 23, 2, 23, 36}, {22, 3, 22, 2, 34},
                               {9, 8, 8, 3, 22}, {4, 17, 3, 17, 36}, {3, 22, 3, 21, 40}};

/* Positions of a big board whose free cells all lie in its top left
 * small_rows x small_cols cells (at most 64): the wide search on the big
 * board against the 64-bit search on the small one. The free cells are
 * thinned at random along long paths, so that many components stay taller
 * than the 64-bit layout. */
START_TEST(test_big_boards)
{
    const big_case *c = &big[_i];
    uint64_t seed = 0x77ULL + (uint64_t)_i;
    cram_solver_options opt = {.method = CRAM_ASPIRATION, .tt_mb = 32, .threads = _i % 2 + 1};
    cram_solver *wide = new_solver(c->rows, c->cols, &opt);
    cram_solver_options small_opt = {.method = CRAM_ASPIRATION, .tt_mb = 32};
    cram_solver *small = new_solver(c->small_rows, c->small_cols, &small_opt);
    int n = c->small_rows * c->small_cols;
    for (int i = 0; i < 12; i++) {
        uint64_t x = n == 64 ? ~0ULL : (1ULL << n) - 1;
        while (__builtin_popcountll(x) > c->keep)
            x &= ~(1ULL << (rng_next(&seed) % (uint64_t)n));
        cram_wset big_x = 0;
        for (int cell = 0; cell < n; cell++)
            if (x >> cell & 1)
                big_x |= cram_wbit(cell / c->small_cols * c->cols + cell % c->small_cols);
        int want = -1;
        rdb_error err;
        TU_ASSERT_EQ(cram_solver_solve(small, x, &want, &err), RDB_OK);
        int got = solve_wide(wide, big_x);
        TU_ASSERT_MSG(got == want, "%dx%d, free cells in %dx%d %llx: %d, the %dx%d board says %d", c->rows,
                      c->cols, c->small_rows, c->small_cols, (unsigned long long)x, got, c->small_rows,
                      c->small_cols, want);
    }
    cram_stats st;
    cram_solver_stats(wide, &st);
    TU_ASSERT_MSG(st.wide_expanded > 0 || c->small_rows * c->small_cols <= 63,
                  "%llu wide positions expanded", (unsigned long long)st.wide_expanded);
    cram_solver_free(small);
    cram_solver_free(wide);
}
END_TEST

/* A position of 22x3 (38 free cells, one component as tall as the board)
 * whose move by the vertical domino at cell 50 leaves two components that
 * the reductions cut into seven parts of more than three cells: more than
 * a child holds (CHILD_PARTS, six), so the search keeps a component of
 * such children whole (3x22's search once stopped on the assertion that
 * guards the places). Its nimber, by every method, against the mex over
 * its moves of the xor of each move's components, each solved apart (on a
 * 21x3 board by the 64-bit search when it fits one). */
START_TEST(test_child_parts_overflow)
{
    const cram_wset x = (cram_wset)0x2 << 64 | 0x793fb372da593da4ULL;
    cram_solver_options opt = {.method = CRAM_ASPIRATION, .tt_mb = 16};
    cram_solver *alone = new_solver(22, 3, &opt);
    cram_solver *narrow = new_solver(21, 3, &opt);
    cram_wide_geom wg;
    cram_wide_geom_init(&wg, 22, 3);
    TU_ASSERT_EQ(cram_wpopcount(x), 38);
    TU_ASSERT_EQ(cram_wide_rows(&wg, x), 22);
    uint64_t nimbers = 0;
    for (int v = 0; v < 2; v++)
        for (cram_wset m = v ? cram_wide_vmoves(&wg, x) : cram_wide_hmoves(&wg, x); m; m &= m - 1) {
            const int cell = cram_wlowest(m);
            const cram_wset d = cram_wbit(cell) | cram_wbit(v ? cell + 3 : cell + 1);
            cram_wset comp[8];
            const int n = cram_wide_split(&wg, x & ~d, comp, 8);
            int nimber = 0;
            for (int i = 0; i < n; i++) {
                int part = -1;
                rdb_error err;
                if (cram_wide_rows(&wg, comp[i]) <= 21)
                    TU_ASSERT_EQ(cram_solver_solve(narrow, cram_wide_to_narrow(&wg, comp[i]), &part, &err),
                                 RDB_OK);
                else
                    part = solve_wide(alone, comp[i]);
                nimber ^= part;
            }
            nimbers |= 1ULL << nimber;
        }
    const int want = __builtin_ctzll(~nimbers);
    uint64_t unreduced = 0;
    for (int m = 0; m < CRAM_NMETHODS; m++) {
        cram_solver_options mopt = {.method = (cram_method)m, .tt_mb = 16};
        cram_solver *wide = new_solver(22, 3, &mopt);
        TU_ASSERT_MSG(solve_wide(wide, x) == want, "%s", cram_method_name((cram_method)m));
        cram_stats st;
        cram_solver_stats(wide, &st);
        unreduced += st.unreduced;
        cram_solver_free(wide);
    }
    TU_ASSERT_MSG(unreduced > 0, "no child kept a component whole");
    cram_solver_free(narrow);
    cram_solver_free(alone);
}
END_TEST

/* The wide parts' table saved beside the 64-bit one (F.wide) and loaded
 * again: the same nimber from far fewer nodes; a file with an entry that
 * is no wide part of the board, or a damaged one, is refused. */
START_TEST(test_wide_tt_file)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32], wpath[TU_DIR_MAX + 40];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/tt", dir);
    snprintf(wpath, sizeof wpath, "%s/tt.wide", dir);
    cram_solver_options opt = {.method = CRAM_ASPIRATION, .tt_mb = 16};
    /* 22x3 with the last column and a corner covered: components of 22 rows */
    cram_wset x = 0;
    for (int r = 0; r < 22; r++)
        x |= cram_wbit(3 * r) | cram_wbit(3 * r + 1);
    x &= ~cram_wbit(0);
    cram_solver *s = new_solver(22, 3, &opt);
    int want = solve_wide(s, x);
    cram_stats first;
    cram_solver_stats(s, &first);
    TU_ASSERT(first.wide_expanded > 0);
    rdb_error err;
    TU_ASSERT_EQ(cram_solver_save_tt(s, path, &err), RDB_OK);
    cram_solver_free(s);
    FILE *f = fopen(wpath, "rb");
    TU_ASSERT(f != NULL);
    fclose(f);

    s = new_solver(22, 3, &opt);
    TU_ASSERT_EQ(cram_solver_load_tt(s, path, &err), RDB_OK);
    TU_ASSERT_EQ(solve_wide(s, x), want);
    cram_stats again;
    cram_solver_stats(s, &again);
    TU_ASSERT(again.tt_loaded > 0);
    TU_ASSERT_MSG(again.nodes * 10 < first.nodes, "%llu nodes again, %llu first",
                  (unsigned long long)again.nodes, (unsigned long long)first.nodes);
    cram_solver_free(s);

    /* one byte of a key flipped: refused (the key or the checksum) */
    f = fopen(wpath, "r+b");
    TU_ASSERT(f != NULL);
    TU_ASSERT(fseek(f, 24 + 3, SEEK_SET) == 0);
    int c = fgetc(f);
    TU_ASSERT(fseek(f, 24 + 3, SEEK_SET) == 0);
    fputc(c ^ 0x10, f);
    fclose(f);
    s = new_solver(22, 3, &opt);
    err.msg[0] = '\0';
    TU_ASSERT_EQ(cram_solver_load_tt(s, path, &err), RDB_E_CORRUPT);
    TU_ASSERT_MSG(strstr(err.msg, "tt.wide") != NULL, "%s", err.msg);
    cram_solver_free(s);
    /* a file saved without wide parts (no F.wide) loads */
    TU_ASSERT_EQ(remove(wpath), 0);
    s = new_solver(22, 3, &opt);
    TU_ASSERT_EQ(cram_solver_load_tt(s, path, &err), RDB_OK);
    TU_ASSERT_EQ(solve_wide(s, x), want);
    cram_solver_free(s);
}
END_TEST

static int any_wide_entry(void *ctx, cram_wset key, int nimber, unsigned excluded)
{
    (void)ctx, (void)key, (void)nimber, (void)excluded;
    return 1;
}

/* The wide table has the size --tt-wide-mb (or --tt-mb) gives it: a file of more entries
 * than it holds is refused, lest the part it kept be saved over the
 * whole; one that fits loads whole. */
START_TEST(test_wide_tt_too_small)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/tt.wide", dir);
    rdb_error err;
    cram_wide_tt *big, *small;
    TU_ASSERT_EQ(cram_wide_tt_new(64, &big, &err), RDB_OK);
    uint64_t seed = 5;
    for (int k = 0; k < 1000000; k++) {
        cram_wset key = (cram_wset)rng_next(&seed) << 64 | rng_next(&seed) | 1;
        cram_wide_tt_put(big, key, k % 5, 10);
    }
    TU_ASSERT_EQ(cram_wide_tt_save(big, path, 3, 0, &err), RDB_OK);
    const uint64_t n = cram_wide_tt_entries(big);
    uint64_t loaded = 0;
    TU_ASSERT_EQ(cram_wide_tt_new(16, &small, &err), RDB_OK);
    TU_ASSERT_EQ(cram_wide_tt_load(small, path, 3, any_wide_entry, NULL, &loaded, &err), RDB_E_INPUT);
    /* the size it was saved from, as the option that sizes this table */
    TU_ASSERT_MSG(strstr(err.msg, "give --tt-wide-mb 64, the size it was saved with") != NULL, "%s", err.msg);
    cram_wide_tt_free(small);
    TU_ASSERT_EQ(cram_wide_tt_new(64, &small, &err), RDB_OK);
    TU_ASSERT_EQ(cram_wide_tt_load(small, path, 3, any_wide_entry, NULL, &loaded, &err), RDB_OK);
    TU_ASSERT_EQ(loaded, n);
    TU_ASSERT_EQ(cram_wide_tt_entries(small), n);
    cram_wide_tt_free(small);
    cram_wide_tt_free(big);
    tu_rmrf(dir);
}
END_TEST

/* Sixteen bytes an entry: a table of 16 MB holds 2^20 entries (under
 * half of them used here, so that few buckets overflow), every key is
 * read back exactly, through the table and through its file (which
 * undoes the key's hash: a key that came back wrong would miss), and keys
 * that differ in one bit, or only in their top or bottom half, are kept
 * apart. */
START_TEST(test_wide_tt_exact)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/tt.wide", dir);
    rdb_error err;
    cram_wide_tt *t, *back;
    TU_ASSERT_EQ(cram_wide_tt_new(16, &t, &err), RDB_OK);
    TU_ASSERT_EQ(cram_wide_tt_bytes(t), 16u << 20);
    enum { N = 150000 };
    uint64_t seed = 11;
    for (int k = 0; k < N; k++) {
        cram_wset key = (cram_wset)rng_next(&seed) << 64 | rng_next(&seed);
        cram_wide_tt_put(t, key, k % 7, 10);
        cram_wide_tt_put(t, key ^ 1, 7 + k % 3, 10);         /* a bit apart */
        cram_wide_tt_put(t, key ^ (cram_wset)1 << 127, 3, 10); /* the top bit */
    }
    const double used = (double)cram_wide_tt_entries(t);
    TU_ASSERT_MSG(used > 3 * N * 0.95, "%.0f entries", used);
    TU_ASSERT_MSG(cram_wide_tt_fill(t) * (1 << 20) > used - 0.5 && cram_wide_tt_fill(t) * (1 << 20) < used + 0.5,
                  "%.4f full with %.0f entries", cram_wide_tt_fill(t), used);
    TU_ASSERT_EQ(cram_wide_tt_save(t, path, 3, 0, &err), RDB_OK);
    TU_ASSERT_EQ(cram_wide_tt_new(64, &back, &err), RDB_OK);
    uint64_t loaded = 0;
    TU_ASSERT_EQ(cram_wide_tt_load(back, path, 3, any_wide_entry, NULL, &loaded, &err), RDB_OK);
    TU_ASSERT_EQ(loaded, cram_wide_tt_entries(t));
    seed = 11;
    int kept = 0;
    for (int k = 0; k < N; k++) {
        cram_wset key = (cram_wset)rng_next(&seed) << 64 | rng_next(&seed);
        const int v = cram_wide_tt_get(t, key);
        /* evicted (-1) or exact; the file holds what the table held */
        TU_ASSERT_MSG(v == -1 || v == k % 7, "key %d: %d", k, v);
        TU_ASSERT_EQ(cram_wide_tt_get(back, key), v);
        const int near = cram_wide_tt_get(t, key ^ 1);
        TU_ASSERT(near == -1 || near == 7 + k % 3);
        TU_ASSERT_EQ(cram_wide_tt_get(back, key ^ 1), near);
        TU_ASSERT_EQ(cram_wide_tt_get(back, key ^ (cram_wset)1 << 127), cram_wide_tt_get(t, key ^ (cram_wset)1 << 127));
        TU_ASSERT_EQ(cram_wide_tt_get(back, key ^ 2), -1);
        kept += v >= 0;
    }
    TU_ASSERT_MSG(kept > N * 95 / 100, "%d of %d kept", kept, N);
    /* keys equal in one half */
    cram_wide_tt_put(back, (cram_wset)5 << 64 | 9, 1, 10);
    TU_ASSERT_EQ(cram_wide_tt_get(back, (cram_wset)6 << 64 | 9), -1);
    TU_ASSERT_EQ(cram_wide_tt_get(back, (cram_wset)5 << 64 | 8), -1);
    TU_ASSERT_EQ(cram_wide_tt_get(back, (cram_wset)5 << 64 | 9), 1);
    cram_wide_tt_free(back);
    cram_wide_tt_free(t);
    tu_rmrf(dir);
}
END_TEST

/* The wide table counts conflicts as the 64-bit one does
 * (test_cram_solver.c test_tt_conflicts): two nimbers of one key, or a
 * nimber and an exclusion of it; the first result kept. */
START_TEST(test_wide_tt_conflicts)
{
    rdb_error err;
    cram_wide_tt *t;
    TU_ASSERT_EQ(cram_wide_tt_new(1, &t, &err), RDB_OK);
    const cram_wset a = (cram_wset)7 << 70 | 5, b = (cram_wset)3 << 90 | 9;
    cram_wide_tt_put(t, a, 2, 1);
    cram_wide_tt_put(t, a, 2, 4);
    cram_wide_tt_exclude(t, a, 1u << 0 | 1u << 1, 1);
    TU_ASSERT_EQ(cram_wide_tt_conflicts(t), 0);
    cram_wide_tt_exclude(t, a, 1u << 2, 1);
    cram_wide_tt_put(t, a, 5, 1);
    TU_ASSERT_EQ(cram_wide_tt_conflicts(t), 2);
    TU_ASSERT_EQ(cram_wide_tt_get(t, a), 2);
    cram_wide_tt_exclude(t, b, 1u << 4, 1);
    cram_wide_tt_put(t, b, 4, 1);
    TU_ASSERT_EQ(cram_wide_tt_conflicts(t), 3);
    TU_ASSERT_EQ(cram_wide_tt_get(t, b), -1);
    cram_wide_tt_put(t, b, 3, 1);
    TU_ASSERT_EQ(cram_wide_tt_conflicts(t), 3);
    TU_ASSERT_EQ(cram_wide_tt_get(t, b), 3);
    cram_wide_tt_free(t);
}
END_TEST

/* The limits: 128 cells (so 11 across the shorter side), 127 free dominoes
 * to search in a position (the board may have more); the empty boards
 * that the mirror rule values at once. */
START_TEST(test_wide_limits)
{
    cram_solver_options opt = {.method = CRAM_ASPIRATION, .tt_mb = 16};
    cram_solver *s;
    rdb_error err;
    err.msg[0] = '\0';
    /* 9x9 and 11x11 are laid out 9 and 11 cells across */
    TU_ASSERT_EQ(cram_solver_new(9, 9, &opt, &s, &err), RDB_OK);
    cram_solver_free(s);
    TU_ASSERT_EQ(cram_solver_new(11, 11, &opt, &s, &err), RDB_OK);
    cram_solver_free(s);
    TU_ASSERT_EQ(cram_solver_new(12, 11, &opt, &s, &err), RDB_E_INPUT);
    TU_ASSERT(strstr(err.msg, "132 cells") != NULL);
    /* 8x16: 128 cells, 232 dominoes. Empty, the mirror rule makes it 0;
     * a corner covered leaves 230 to search, refused; a position of
     * fewer is solved (two rows of it: 0, as 2xn is n mod 2) */
    s = new_solver(8, 16, &opt);
    TU_ASSERT_EQ(solve_wide(s, ~(cram_wset)0), 0);
    int got;
    err.msg[0] = '\0';
    TU_ASSERT_EQ(cram_solver_solve_wide(s, ~(cram_wset)0 << 1, &got, &err), RDB_E_INPUT);
    TU_ASSERT_MSG(strstr(err.msg, "230 free dominoes to search") != NULL, "%s", err.msg);
    TU_ASSERT_EQ(solve_wide(s, ((cram_wset)1 << 32) - 1), 0);
    cram_solver_free(s);
    /* 4x18 (72 cells): even x even, 0 with no search */
    s = new_solver(4, 18, &opt);
    TU_ASSERT_EQ(solve_wide(s, cram_wbit(72) - 1), 0);
    cram_stats st;
    cram_solver_stats(s, &st);
    TU_ASSERT_EQ(st.nodes, 0);
    int v;
    TU_ASSERT_EQ(cram_solver_solve_wide(s, cram_wbit(72), &v, &err), RDB_E_INPUT);
    cram_solver_free(s);
    /* 2x33 (66 cells): 2xn is n mod 2 (the centre domino, then copying) */
    s = new_solver(2, 33, &opt);
    TU_ASSERT_EQ(solve_wide(s, cram_wbit(66) - 1), 1);
    cram_solver_free(s);
    s = new_solver(2, 34, &opt);
    TU_ASSERT_EQ(solve_wide(s, cram_wbit(68) - 1), 0);
    cram_solver_free(s);
}
END_TEST

Suite *cram_wide_suite(void)
{
    Suite *s = suite_create("cram_wide");
    TCase *tc = tcase_create("sets");
    tcase_add_test(tc, test_wide_geometry);
    tcase_add_test(tc, test_wide_split_child);
    tcase_add_test(tc, test_wide_limits);
    tcase_add_test(tc, test_wide_tt_file);
    tcase_add_test(tc, test_wide_tt_too_small);
    tcase_add_test(tc, test_wide_tt_exact);
    tcase_add_test(tc, test_wide_tt_conflicts);
    suite_add_tcase(s, tc);

    tc = tcase_create("search");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_forced_wide_vs_naive, 0, CRAM_NMETHODS);
    tcase_add_loop_test(tc, test_big_boards, 0, (int)(sizeof big / sizeof big[0]));
    tcase_add_test(tc, test_child_parts_overflow);
    suite_add_tcase(s, tc);
    return s;
}
