/*
 * test_loony.c — databases built with loony-move analysis, held against
 * the naive reference (tests/naive_dots.c, naive_solve_loony) on every
 * position of small boards: the score and who must make the next loony
 * move, for the position and for every move; and the scores against the
 * plain analysis, which loony analysis must not change.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/builder.h"
#include "engine/db.h"
#include "naive_dots.h"
#include "retrodb/probe.h"
#include "test_util.h"

static rdb_status build_loony(const char *dir, int rows, int cols, uint64_t start, int full_value,
                              int ngroups, rdb_error *err)
{
    rdb_build_options opt;
    tu_build_options(&opt, dir, RDB_GAME_DOTS, rows, cols);
    opt.params.start = start;
    opt.params.full_value = full_value;
    opt.params.ngroups = ngroups;
    opt.params.loony = 1;
    return rdb_build(&opt, err);
}

/* Probe codes and the reference's agree by definition; spelled out so a
 * change of either shows. */
static int probe_who(int naive_who)
{
    return naive_who == NAIVE_LOONY_MOVER ? RDB_LOONY_MOVER
         : naive_who == NAIVE_LOONY_OPPONENT ? RDB_LOONY_OPPONENT : RDB_LOONY_NONE;
}

static void check_position(rdb_probe *p, const naive_dots *nv, const naive_dots *plain,
                           uint64_t pos)
{
    rdb_dots_answer a;
    rdb_error err;
    rdb_status st = rdb_probe_moves(p, pos, &a, &err);
    TU_ASSERT_MSG(st == RDB_OK, "position 0x%llx: %s", (unsigned long long)pos, err.msg);
    int score, who;
    naive_loony_value(nv, pos, &score, &who);
    TU_ASSERT_MSG(a.value == score && a.next_loony == probe_who(who),
                  "%dx%d position 0x%llx: (%d, %d), naive (%d, %d)", nv->board.rows,
                  nv->board.cols, (unsigned long long)pos, a.value, a.next_loony, score,
                  probe_who(who));
    TU_ASSERT_MSG(a.value == naive_value(plain, pos),
                  "position 0x%llx: loony score %d, plain value %d", (unsigned long long)pos,
                  a.value, naive_value(plain, pos));
    for (int i = 0; i < a.nmoves; i++) {
        naive_loony_move(nv, pos, a.line[i], &score, &who);
        TU_ASSERT_MSG(a.move_value[i] == score && a.move_next_loony[i] == probe_who(who),
                      "%dx%d position 0x%llx line %d: (%d, %d), naive (%d, %d)",
                      nv->board.rows, nv->board.cols, (unsigned long long)pos, a.line[i],
                      a.move_value[i], a.move_next_loony[i], score, probe_who(who));
    }
}

static void build_and_compare(int rows, int cols, uint64_t start, int full_value, int ngroups)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    ck_assert_msg(build_loony(dir, rows, cols, start, full_value, ngroups, &err) == RDB_OK, "%s",
                  err.msg);
    naive_dots nv, plain;
    ck_assert_int_eq(naive_solve_loony(&nv, rows, cols, start, full_value), 0);
    ck_assert_int_eq(naive_solve(&plain, rows, cols, start, full_value), 0);
    rdb_probe *p;
    ck_assert_msg(rdb_probe_open(dir, &p, &err) == RDB_OK, "%s", err.msg);
    ck_assert(rdb_probe_loony(p));
    uint64_t sub = 0, free_lines = nv.free_lines;
    do {
        check_position(p, &nv, &plain, start | sub);
        sub = (sub - free_lines) & free_lines;
    } while (sub != 0);
    rdb_probe_close(p);
    naive_free(&nv);
    naive_free(&plain);
    tu_rmrf(dir);
}

START_TEST(test_loony_small_boards)
{
    build_and_compare(1, 1, 0, 0, 0);
    build_and_compare(1, 3, 0, 0, 0);
    build_and_compare(2, 2, 0, 0, 0);
    build_and_compare(2, 3, 0, 0, 0);
    build_and_compare(3, 2, 0, 0, 0);
    build_and_compare(1, 5, 0, 0, 0);
}
END_TEST

START_TEST(test_loony_variants)
{
    build_and_compare(3, 3, tu_border(3, 3), 0, 0);
    build_and_compare(2, 3, tu_icelandic(2, 3), 0, 0);
    build_and_compare(2, 4, tu_border(2, 4), 0, 0);
}
END_TEST

START_TEST(test_loony_groups_and_penalty)
{
    build_and_compare(2, 2, 0, 0, 1);
    build_and_compare(2, 2, 0, 0, 2);
    build_and_compare(2, 3, 0, 0, 2);
    build_and_compare(2, 3, 0, 0, 3);
    build_and_compare(2, 2, 0, -1, 0);
    build_and_compare(2, 3, 0, -2, 2);
}
END_TEST

START_TEST(test_loony_refuses_big_scores)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    /* 5x5 has 25 boxes: with a penalty of 7 a score could reach 32 */
    ck_assert_int_eq(build_loony(dir, 5, 5, 0, -7, 0, &err), RDB_E_INPUT);
    ck_assert_msg(strstr(err.msg, "31") != NULL, "%s", err.msg);
    tu_rmrf(dir);
}
END_TEST

Suite *loony_suite(void)
{
    Suite *s = suite_create("loony");
    TCase *tc = tcase_create("loony");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_loony_small_boards);
    tcase_add_test(tc, test_loony_variants);
    tcase_add_test(tc, test_loony_groups_and_penalty);
    tcase_add_test(tc, test_loony_refuses_big_scores);
    suite_add_tcase(s, tc);
    return s;
}
