/*
 * test_cram_table.c — Cram nimber tables built by the slice engine, held
 * against the naive reference (tests/naive_cram.c): every position of small
 * boards with the nimber of every move, every forced group count, the
 * published empty-board nimbers, and identical results for 1 and 2
 * threads.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/builder.h"
#include "engine/db.h"
#include "store/manifest.h"
#include "naive_cram.h"
#include "retrodb/probe.h"
#include "test_util.h"

static rdb_status build_table(const char *dir, int rows, int cols, int ngroups, int threads,
                              rdb_error *err)
{
    rdb_build_options opt;
    tu_build_options(&opt, dir, RDB_GAME_CRAM, rows, cols);
    opt.params.ngroups = ngroups;
    snprintf(opt.params.variant, sizeof opt.params.variant, "all");
    opt.threads = threads;
    return rdb_build(&opt, err);
}

/* The table's nimber of the position and of every legal move against the
 * reference; covered is the set of covered cells. */
static void check_position(rdb_probe *p, naive_cram *nv, int rows, int cols, uint64_t covered)
{
    const uint64_t all = rows * cols == 64 ? ~0ULL : (1ULL << (rows * cols)) - 1;
    rdb_cram_answer a;
    rdb_error err;
    rdb_status st = rdb_probe_cram_moves(p, covered, &a, &err);
    TU_ASSERT_MSG(st == RDB_OK, "%dx%d covered 0x%llx: %s", rows, cols,
                  (unsigned long long)covered, err.msg);
    int want = naive_cram_nimber(nv, all & ~covered);
    TU_ASSERT_MSG(a.nimber == want, "%dx%d covered 0x%llx: nimber %d, naive %d", rows, cols,
                  (unsigned long long)covered, a.nimber, want);
    int k = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            for (int dir = 0; dir < 2; dir++) {
                int r2 = r + dir, c2 = c + !dir;
                if (r2 >= rows || c2 >= cols)
                    continue;
                uint64_t d = 1ULL << (r * cols + c) | 1ULL << (r2 * cols + c2);
                if (covered & d)
                    continue;
                int found = -1;
                for (int i = 0; i < a.nmoves; i++)
                    if (a.cell[i][0][0] == r && a.cell[i][0][1] == c && a.cell[i][1][0] == r2 &&
                        a.cell[i][1][1] == c2)
                        found = i;
                TU_ASSERT_MSG(found >= 0, "%dx%d covered 0x%llx: move (%d,%d)-(%d,%d) missing",
                              rows, cols, (unsigned long long)covered, r, c, r2, c2);
                int mv = naive_cram_nimber(nv, all & ~(covered | d));
                TU_ASSERT_MSG(a.move_nimber[found] == mv,
                              "%dx%d covered 0x%llx move (%d,%d)-(%d,%d): %d, naive %d", rows,
                              cols, (unsigned long long)covered, r, c, r2, c2,
                              a.move_nimber[found], mv);
                k++;
            }
    TU_ASSERT_MSG(a.nmoves == k, "%dx%d covered 0x%llx: %d moves, want %d", rows, cols,
                  (unsigned long long)covered, a.nmoves, k);
}

/* Build the rows x cols table with ngroups groups (0: the planner's
 * choice) and compare every position with the reference. */
static void build_and_compare(int rows, int cols, int ngroups)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    ck_assert_msg(build_table(dir, rows, cols, ngroups, 0, &err) == RDB_OK, "%s", err.msg);
    rdb_probe *p;
    ck_assert_msg(rdb_probe_open(dir, &p, &err) == RDB_OK, "%s", err.msg);
    ck_assert_str_eq(rdb_probe_game(p), "cram");
    naive_cram *nv = naive_cram_new(rows, cols);
    ck_assert(nv);
    for (uint64_t covered = 0; covered < 1ULL << (rows * cols); covered++)
        check_position(p, nv, rows, cols, covered);
    naive_cram_free(nv);
    rdb_probe_close(p);
    tu_rmrf(dir);
}

START_TEST(test_every_position_2x3) { build_and_compare(2, 3, 0); }
END_TEST
START_TEST(test_every_position_3x3) { build_and_compare(3, 3, 0); }
END_TEST
START_TEST(test_every_position_3x4) { build_and_compare(3, 4, 0); }
END_TEST
START_TEST(test_every_position_1x7) { build_and_compare(1, 7, 0); }
END_TEST

START_TEST(test_forced_groups)
{
    /* one group (the generic path), and 2 and 3 groups, where dominoes
     * cross group boundaries in every way */
    for (int g = 1; g <= 3; g++) {
        build_and_compare(3, 3, g);
        build_and_compare(3, 4, g);
    }
    build_and_compare(4, 4, 3);
}
END_TEST

static int empty_board_nimber(int rows, int cols)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    ck_assert_msg(build_table(dir, rows, cols, 0, 0, &err) == RDB_OK, "%s", err.msg);
    rdb_probe *p;
    ck_assert_msg(rdb_probe_open(dir, &p, &err) == RDB_OK, "%s", err.msg);
    int v = -1;
    ck_assert_msg(rdb_probe_value(p, 0, &v, &err) == RDB_OK, "%s", err.msg);
    rdb_probe_close(p);
    tu_rmrf(dir);
    return v;
}

START_TEST(test_published_nimbers)
{
    /* ../shared/data/known-values.md: 1 x n is Dawson's Kayles */
    static const int one_by[21] = {0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3};
    for (int n = 1; n <= 20; n++)
        ck_assert_msg(empty_board_nimber(1, n) == one_by[n], "1x%d", n);
    for (int n = 2; n <= 10; n++)
        ck_assert_int_eq(empty_board_nimber(2, n), n % 2);
    static const int three_by[9] = {0, 0, 0, 0, 1, 1, 4, 1, 3}; /* 3x3 .. 3x8 */
    for (int n = 3; n <= 8; n++)
        ck_assert_msg(empty_board_nimber(3, n) == three_by[n], "3x%d", n);
}
END_TEST

/* The larger tables apart, so that each test has its own time limit on a
 * loaded machine. */
START_TEST(test_published_nimbers_4x4_to_5x5)
{
    ck_assert_int_eq(empty_board_nimber(4, 5), 2);
    ck_assert_int_eq(empty_board_nimber(5, 4), 2);
    ck_assert_int_eq(empty_board_nimber(4, 4), 0);
    ck_assert_int_eq(empty_board_nimber(5, 5), 0);
}
END_TEST

/* Same slices with the same value checksums in both databases. */
static void assert_same_tables(const char *d1, const char *d2)
{
    rdb_db db;
    rdb_error err;
    ck_assert_msg(rdb_db_open(&db, d1, &err) == RDB_OK, "%s", err.msg);
    rdb_manifest m1, m2;
    ck_assert(rdb_manifest_load(&m1, d1, db.lay.ngroups, db.lay.nbits, &err) == RDB_OK);
    ck_assert(rdb_manifest_load(&m2, d2, db.lay.ngroups, db.lay.nbits, &err) == RDB_OK);
    ck_assert_int_eq(m1.n, m2.n);
    ck_assert_int_gt(m1.n, 20);
    for (size_t i = 0; i < m1.n; i++) {
        ck_assert_int_eq(m1.e[i].level, m2.e[i].level);
        ck_assert(memcmp(m1.e[i].counts, m2.e[i].counts, sizeof m1.e[i].counts) == 0);
        ck_assert_msg(m1.e[i].checksum == m2.e[i].checksum, "level %d differs", m1.e[i].level);
        ck_assert(m1.e[i].bytes == m2.e[i].bytes);
    }
    rdb_manifest_free(&m1);
    rdb_manifest_free(&m2);
    rdb_db_free(&db);
}

START_TEST(test_threads_identical)
{
    char d1[TU_DIR_MAX], d2[TU_DIR_MAX];
    tu_mkdtemp(d1);
    tu_mkdtemp(d2);
    rdb_error err;
    ck_assert_msg(build_table(d1, 4, 5, 0, 1, &err) == RDB_OK, "%s", err.msg);
    ck_assert_msg(build_table(d2, 4, 5, 0, 2, &err) == RDB_OK, "%s", err.msg);
    assert_same_tables(d1, d2);
    tu_rmrf(d1);
    tu_rmrf(d2);
}
END_TEST

START_TEST(test_sampled_4x5)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    ck_assert_msg(build_table(dir, 4, 5, 0, 0, &err) == RDB_OK, "%s", err.msg);
    rdb_probe *p;
    ck_assert_msg(rdb_probe_open(dir, &p, &err) == RDB_OK, "%s", err.msg);
    naive_cram *nv = naive_cram_new(4, 5);
    ck_assert(nv);
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 3000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        /* cover about a quarter of the cells, so that positions stay big */
        uint64_t covered = x & (x >> 20) & ((1ULL << 20) - 1);
        check_position(p, nv, 4, 5, covered);
    }
    check_position(p, nv, 4, 5, 0);
    naive_cram_free(nv);
    rdb_probe_close(p);
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_refuses_other_game)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    ck_assert_msg(build_table(dir, 2, 3, 0, 0, &err) == RDB_OK, "%s", err.msg);
    /* a Dots-and-Boxes build in a Cram table's folder is refused */
    rdb_status st = tu_build(dir, 2, 3, 0, 0, 0, "empty", 0, &err);
    ck_assert_int_eq(st, RDB_E_INPUT);
    ck_assert_msg(strstr(err.msg, "game") != NULL, "%s", err.msg);
    /* and the table is intact */
    rdb_probe *p;
    ck_assert_msg(rdb_probe_open(dir, &p, &err) == RDB_OK, "%s", err.msg);
    rdb_dots_answer a;
    ck_assert_int_eq(rdb_probe_moves(p, 0, &a, &err), RDB_E_INPUT);
    int v;
    ck_assert_int_eq(rdb_probe_value(p, 0, &v, &err), RDB_OK);
    ck_assert_int_eq(v, 1);
    ck_assert_int_eq(rdb_probe_value(p, 1ULL << 6, &v, &err), RDB_E_INPUT);
    rdb_probe_close(p);
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_preload_same_answers)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    ck_assert_msg(build_table(dir, 3, 4, 2, 0, &err) == RDB_OK, "%s", err.msg);
    rdb_probe *files, *memory;
    ck_assert(rdb_probe_open(dir, &files, &err) == RDB_OK);
    ck_assert(rdb_probe_open(dir, &memory, &err) == RDB_OK);
    ck_assert_int_eq(rdb_probe_preload(memory, 1000, &err), RDB_E_NOMEM);
    ck_assert_msg(rdb_probe_preload(memory, 1 << 20, &err) == RDB_OK, "%s", err.msg);
    for (uint64_t covered = 0; covered < 1ULL << 12; covered++) {
        int a = -1, b = -2;
        TU_ASSERT(rdb_probe_value(files, covered, &a, &err) == RDB_OK);
        TU_ASSERT(rdb_probe_value(memory, covered, &b, &err) == RDB_OK);
        TU_ASSERT_EQ(a, b);
    }
    rdb_probe_close(files);
    rdb_probe_close(memory);
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_board_too_big)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    ck_assert_int_eq(build_table(dir, 9, 8, 0, 0, &err), RDB_E_INPUT);
    ck_assert_msg(strstr(err.msg, "64") != NULL, "%s", err.msg);
    tu_rmrf(dir);
}
END_TEST

Suite *cram_table_suite(void)
{
    Suite *s = suite_create("cram_table");
    TCase *tc = tcase_create("cram_table");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_every_position_2x3);
    tcase_add_test(tc, test_every_position_3x3);
    tcase_add_test(tc, test_every_position_3x4);
    tcase_add_test(tc, test_every_position_1x7);
    tcase_add_test(tc, test_forced_groups);
    tcase_add_test(tc, test_published_nimbers);
    tcase_add_test(tc, test_published_nimbers_4x4_to_5x5);
    tcase_add_test(tc, test_threads_identical);
    tcase_add_test(tc, test_sampled_4x5);
    tcase_add_test(tc, test_refuses_other_game);
    tcase_add_test(tc, test_preload_same_answers);
    tcase_add_test(tc, test_board_too_big);
    suite_add_tcase(s, tc);
    return s;
}
