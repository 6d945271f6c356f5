/*
 * test_dots_tt_file.c — the search's table on disk (src/dots/dots_tt_file.h):
 * a saved table loads back and answers without searching, and crafted
 * files with valid checksums (no canonical position, impossible bounds, a
 * wrong value of a small position) are refused with the file's name.
 */
#include <stdio.h>
#include <string.h>

#include "dots/dots_tt_file.h"
#include "test_util.h"

static dots_solver *solver(const dots_board *b)
{
    rdb_error err;
    dots_solver_options opt = {.tt_bytes = 16 << 20, .threads = 1};
    dots_solver *s;
    ck_assert_int_eq(dots_solver_new(b, 0, &opt, &s, &err), RDB_OK);
    return s;
}

START_TEST(test_round_trip)
{
    rdb_error err;
    dots_board b;
    dots_board_init(&b, 3, 3, &err);
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 16];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/t.tt", dir);
    dots_solver *s = solver(&b);
    int v;
    ck_assert_int_eq(dots_solver_value(s, 0, &v, &err), RDB_OK);
    ck_assert_int_eq(v, -3);
    ck_assert_int_eq(dots_tt_save(s, &b, 0, path, &err), RDB_OK);
    dots_solver_free(s);

    s = solver(&b);
    uint64_t loaded;
    ck_assert_int_eq(dots_tt_load(s, &b, 0, path, &loaded, &err), RDB_OK);
    ck_assert_int_gt(loaded, 1000);
    ck_assert_int_eq(dots_solver_value(s, 0, &v, &err), RDB_OK);
    ck_assert_int_eq(v, -3);
    dots_solver_stats st;
    dots_solver_stats_get(s, &st);
    ck_assert_int_lt(st.nodes, 100); /* answered by the loaded bounds */
    dots_solver_free(s);

    /* another full value, another board: refused */
    s = solver(&b);
    ck_assert_int_eq(dots_tt_load(s, &b, -1, path, &loaded, &err), RDB_E_CORRUPT);
    ck_assert_ptr_nonnull(strstr(err.msg, path));
    dots_solver_free(s);
    snprintf(path, sizeof path, "%s/none.tt", dir);
    s = solver(&b);
    ck_assert_int_eq(dots_tt_load(s, &b, 0, path, &loaded, &err), RDB_E_MISSING);
    dots_solver_free(s);
    tu_rmrf(dir);
}
END_TEST

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static void put(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* A one-entry table file for 3x3 with a valid checksum. */
static void write_one(const char *path, uint64_t key, int lower, int upper, int best, int open)
{
    unsigned char f[28 + 14 + 8];
    memcpy(f, "RDBDOTT1", 8);
    put(f + 8, 3, 4);
    put(f + 12, 3, 4);
    put(f + 16, 0, 4);
    put(f + 20, 1, 8);
    put(f + 28, key, 8);
    put(f + 36, (uint16_t)lower, 2);
    put(f + 38, (uint16_t)upper, 2);
    f[40] = (unsigned char)best;
    f[41] = (unsigned char)open;
    put(f + 42, fnv(0xcbf29ce484222325ULL, f, 42), 8);
    ck_assert_int_eq(tu_write_file(path, f, sizeof f), 0);
}

START_TEST(test_crafted_entries)
{
    rdb_error err;
    dots_board b;
    dots_board_init(&b, 3, 3, &err);
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 16];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/c.tt", dir);
    dots_solver *s = solver(&b);
    uint64_t all = dots_all_lines(&b), loaded;
    /* the full board minus four lines: 4 open lines, few enough to verify */
    uint64_t small = dots_solver_canonical(s, all & ~0xfULL);
    int v;
    ck_assert_int_eq(dots_solver_value(s, small, &v, &err), RDB_OK);
    dots_solver_free(s);
    int wrong = v > 0 ? v - 1 : v + 1; /* inside the bounds, but not the value */

    struct { uint64_t key; int lower, upper, best, open; const char *why; } bad[] = {
        {1ULL << 40, 0, 0, 255, 23, "canonical"},          /* a line the board lacks */
        {1ULL << 23, 0, 0, 255, 23, "canonical"},          /* not the least image */
        {small, wrong, wrong, 255, 4, "contradicts"},      /* a wrong value */
        {small, 5, -5, 255, 4, "bounds"},                  /* lower above upper */
        {small, -90, 90, 255, 4, "bounds"},                /* beyond the boxes left */
        {small, v, v, 255, 7, "open-line count"},
        {small, v, v, 63, 4, "best move"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_one(path, bad[i].key, bad[i].lower, bad[i].upper, bad[i].best, bad[i].open);
        s = solver(&b);
        ck_assert_int_eq(dots_tt_load(s, &b, 0, path, &loaded, &err), RDB_E_CORRUPT);
        ck_assert_msg(strstr(err.msg, bad[i].why) && strstr(err.msg, path), "case %zu: %s", i,
                      err.msg);
        dots_solver_free(s);
    }
    write_one(path, small, v, v, 255, 4);
    s = solver(&b);
    ck_assert_int_eq(dots_tt_load(s, &b, 0, path, &loaded, &err), RDB_OK);
    ck_assert_int_eq(loaded, 1);
    dots_solver_free(s);
    tu_rmrf(dir);
}
END_TEST

Suite *dots_tt_file_suite(void)
{
    Suite *s = suite_create("dots_tt_file");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_crafted_entries);
    suite_add_tcase(s, tc);
    return s;
}
