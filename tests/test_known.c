/*
 * test_known.c — known values of empty boards (the first player's net
 * score under best play): the values built for 1x1..1x6 and 2x2..2x4 must
 * equal the naive solver's value of the empty board, and, as checks that
 * depend on no code of this project, the published values 2x2 = +2 and
 * 3x3 = -3 (David Wilson's analysis: on 3x3 boxes the second player wins
 * by 3) must come out of both the database and the naive solver; so must
 * the values of the small Swedish and Icelandic boards of data/variants.md.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "retrodb/probe.h"
#include "test_util.h"

/* Value of the empty board in a freshly built database. */
static int built_value(int rows, int cols)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    rdb_status st = tu_build(dir, rows, cols, 0, 0, 0, "empty", 2, &err);
    ck_assert_msg(st == RDB_OK, "build %dx%d: %s", rows, cols, err.msg);
    rdb_probe *p;
    ck_assert_msg(rdb_probe_open(dir, &p, &err) == RDB_OK, "%s", err.msg);
    int v = -100;
    ck_assert_msg(rdb_probe_value(p, 0, &v, &err) == RDB_OK, "%s", err.msg);
    rdb_probe_close(p);
    tu_rmrf(dir);
    return v;
}

static int naive_empty_value(int rows, int cols)
{
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, rows, cols, 0, 0), 0);
    int v = naive_value(&nv, 0);
    naive_free(&nv);
    return v;
}

static const int boards[][2] = {{1, 1}, {1, 2}, {1, 3}, {1, 4}, {1, 5}, {1, 6},
                                {2, 2}, {2, 3}, {2, 4}};

START_TEST(test_empty_boards)
{
    int R = boards[_i][0], C = boards[_i][1];
    int built = built_value(R, C), naive = naive_empty_value(R, C);
    ck_assert_msg(built == naive, "%dx%d: database %d, naive %d", R, C, built, naive);
}
END_TEST

START_TEST(test_published_2x2)
{
    ck_assert_int_eq(naive_empty_value(2, 2), 2);
    ck_assert_int_eq(built_value(2, 2), 2);
}
END_TEST

START_TEST(test_published_3x3)
{
    ck_assert_int_eq(built_value(3, 3), -3);
    ck_assert_int_eq(naive_empty_value(3, 3), -3);
}
END_TEST

START_TEST(test_one_box)
{
    /* 1x1: four lines; whoever draws the fourth takes the box, and that is
     * the second player: -1 for the first. */
    ck_assert_int_eq(built_value(1, 1), -1);
    ck_assert_int_eq(naive_empty_value(1, 1), -1);
}
END_TEST

/* The boards of data/variants.md with at most 20 open lines (the larger
 * ones take the naive table seconds each), and the values published there:
 * the builder, the naive table and the table must say the same. */
static const struct {
    const char *variant;
    int rows, cols, value;
} variants[] = {
    {"swedish", 2, 2, -4},   {"swedish", 2, 3, 6},    {"swedish", 2, 4, 0},
    {"swedish", 2, 5, 2},    {"swedish", 2, 6, -4},   {"swedish", 2, 7, 4},
    {"swedish", 3, 3, 7},    {"swedish", 3, 4, 4},    {"icelandic", 2, 2, 2},
    {"icelandic", 2, 3, 4},  {"icelandic", 2, 4, 4},  {"icelandic", 2, 5, 2},
    {"icelandic", 3, 3, -1},
};

START_TEST(test_variant_boards)
{
    const int R = variants[_i].rows, C = variants[_i].cols;
    const int swedish = variants[_i].variant[0] == 's';
    const uint64_t start = swedish ? tu_border(R, C) : tu_icelandic(R, C);
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    rdb_status st = tu_build(dir, R, C, start, 0, 0, variants[_i].variant, 1, &err);
    ck_assert_msg(st == RDB_OK, "build %s %dx%d: %s", variants[_i].variant, R, C, err.msg);
    rdb_probe *p;
    ck_assert_msg(rdb_probe_open(dir, &p, &err) == RDB_OK, "%s", err.msg);
    int built = -100;
    ck_assert_msg(rdb_probe_value(p, start, &built, &err) == RDB_OK, "%s", err.msg);
    rdb_probe_close(p);
    tu_rmrf(dir);
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, R, C, start, 0), 0);
    const int naive = naive_value(&nv, start);
    naive_free(&nv);
    ck_assert_msg(built == naive && naive == variants[_i].value,
                  "%s %dx%d: database %d, naive %d, data/variants.md %d", variants[_i].variant, R,
                  C, built, naive, variants[_i].value);
}
END_TEST

Suite *known_suite(void)
{
    Suite *s = suite_create("known");
    TCase *tc = tcase_create("known");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_empty_boards, 0, (int)(sizeof boards / sizeof boards[0]));
    tcase_add_test(tc, test_published_2x2);
    tcase_add_test(tc, test_published_3x3);
    tcase_add_test(tc, test_one_box);
    tcase_add_loop_test(tc, test_variant_boards, 0, (int)(sizeof variants / sizeof variants[0]));
    suite_add_tcase(s, tc);
    return s;
}
