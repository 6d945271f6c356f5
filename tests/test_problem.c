/*
 * test_problem.c — the problem-file parser and the scores of players A and
 * B (src/dots/problem.c): a full header (value, memory, disk, player to move,
 * comments) and the bare minimum; every refusal of a malformed header or a
 * bad box letter, with the file name and the line in the message; line
 * numbers of diagram errors counted from the top of the file; queried
 * positions with optional headers, complete boxes without letters counted,
 * letters inherited from the problem; the first difference between two
 * problems; and the final margins of A and B.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dots/problem.h"
#include "test_util.h"

static void parse_ok(const char *text, rdb_problem *pr)
{
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = rdb_problem_parse(text, "test", pr, &err);
    TU_ASSERT_MSG(st == RDB_OK, "parse failed (%d): %s\n%s", (int)st, err.msg, text);
}

/* Parsing must fail with RDB_E_INPUT and a message holding the file name
 * and `want`. */
static void parse_bad(const char *text, const char *want)
{
    rdb_error err;
    rdb_problem pr;
    err.msg[0] = '\0';
    rdb_status st = rdb_problem_parse(text, "p.txt", &pr, &err);
    TU_ASSERT_MSG(st == RDB_E_INPUT, "status %d for\n%s", (int)st, text);
    TU_ASSERT_MSG(strstr(err.msg, want) != NULL, "message '%s' lacks '%s'", err.msg, want);
    TU_ASSERT_MSG(strstr(err.msg, "p.txt") != NULL, "message '%s' lacks the file name", err.msg);
}

/* 2x2 board, the top left box complete and taken by B, h0,1 drawn too */
#define BOARD_2X2_B "+-+-+\n|B| \n+-+ +\n\n+ + +\n"

START_TEST(test_full_header)
{
    rdb_problem pr;
    parse_ok("# a comment\n\n  -3  \n512\n2.5\n# who moves\nB\n" BOARD_2X2_B, &pr);
    TU_ASSERT(pr.has_value);
    TU_ASSERT_EQ(pr.full_value, -3);
    TU_ASSERT_EQ(pr.memory_mb, 512);
    TU_ASSERT(pr.disk_gb == 2.5);
    TU_ASSERT(pr.has_to_move);
    TU_ASSERT_EQ(pr.to_move, 'B');
    TU_ASSERT_EQ(pr.diagram_line, 8);
    TU_ASSERT_EQ(pr.diagram.rows, 2);
    TU_ASSERT_EQ(pr.diagram.cols, 2);
    /* h0,0 h0,1 h1,0 v0,0 v0,1: lines 0, 1, 2, 6, 7 */
    TU_ASSERT_EQ(pr.diagram.drawn, 1ULL << 0 | 1ULL << 1 | 1ULL << 2 | 1ULL << 6 | 1ULL << 7);
    TU_ASSERT_EQ(pr.taken_a, 0);
    TU_ASSERT_EQ(pr.taken_b, 1);
    TU_ASSERT_EQ(pr.unmarked, 0);
}
END_TEST

START_TEST(test_minimal)
{
    rdb_problem pr;
    parse_ok("0\n+ +\n\n+ +\n", &pr);
    TU_ASSERT_EQ(pr.full_value, 0);
    TU_ASSERT_EQ(pr.memory_mb, 0);
    TU_ASSERT(pr.disk_gb == 0);
    TU_ASSERT(!pr.has_to_move);
    TU_ASSERT_EQ(pr.to_move, 'A');
    TU_ASSERT_EQ(pr.diagram.drawn, 0);
    /* memory alone, and a last-move bonus */
    parse_ok("5\n100\n+ +\n\n+ +\n", &pr);
    TU_ASSERT_EQ(pr.full_value, 5);
    TU_ASSERT_EQ(pr.memory_mb, 100);
    TU_ASSERT(pr.disk_gb == 0);
    parse_ok("-100\nA\n+ +\n\n+ +\n", &pr);
    TU_ASSERT_EQ(pr.full_value, -100);
    TU_ASSERT_EQ(pr.to_move, 'A');
}
END_TEST

START_TEST(test_header_errors)
{
    parse_bad("", "no value of the full position");
    parse_bad("+ +\n\n+ +\n", "no value of the full position");
    parse_bad("A\n+ +\n\n+ +\n", "line 1: expected the value of the full position");
    parse_bad("\n# c\nzero\n+ +\n\n+ +\n", "line 3: expected the value");
    parse_bad("-0.5\n+ +\n\n+ +\n", "line 1: '-0.5': the value of the full position must be an integer");
    parse_bad("-1/2\n+ +\n\n+ +\n", "must be an integer");
    parse_bad("-1x\n+ +\n\n+ +\n", "is not a value of the full position");
    parse_bad("-101\n+ +\n\n+ +\n", "out of range");
    parse_bad("101\n+ +\n\n+ +\n", "out of range");
    parse_bad("0\n0\n+ +\n\n+ +\n", "line 2: bad memory budget '0'");
    parse_bad("0\n12.5\n+ +\n\n+ +\n", "bad memory budget");
    parse_bad("0\n100\n-1\n+ +\n\n+ +\n", "line 3: bad free disk '-1'");
    parse_bad("0\n100\n0\n+ +\n\n+ +\n", "bad free disk");
    parse_bad("0\n100\n1\n2\n+ +\n\n+ +\n", "line 4: '2': at most three numbers");
    parse_bad("0\nA\n100\n+ +\n\n+ +\n", "line 3: '100': the numbers come before");
    parse_bad("0\nA\nB\n+ +\n\n+ +\n", "line 3: the player to move is given twice");
    parse_bad("0\nC\n+ +\n\n+ +\n", "line 2: expected a number, 'A' or 'B'");
    parse_bad("0\nA\nx\n+ +\n\n+ +\n", "line 3: expected the diagram");
    parse_bad("0\n", "no diagram found");
}
END_TEST

START_TEST(test_box_errors)
{
    /* line numbers count from the top of the file, header included */
    parse_bad("0\nB\n+ +\n x\n+ +\n", "line 4, column 2: box letter 'x'");
    parse_bad("0\n+-+-+\n|A  |\n+ + +\n\n+ + +\n", "line 3, column 2: box marked A is not complete");
    parse_bad("0\n+-+-+\n| |B|\n+-+-+\n\n+ + +\n", "line 3, column 2: complete box without a letter");
    parse_bad("0\n\n+ + +\n\n+ - +\n\n+ + +\n", "line 5, column 3: missing dot");
}
END_TEST

static void position_ok(const char *text, rdb_problem *pr)
{
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = rdb_problem_parse_position(text, "q", pr, &err);
    TU_ASSERT_MSG(st == RDB_OK, "parse failed (%d): %s\n%s", (int)st, err.msg, text);
}

START_TEST(test_positions)
{
    rdb_problem pos, base;
    position_ok("+-+-+\n| | |\n+-+-+\n\n+ + +\n", &pos);
    TU_ASSERT(!pos.has_value);
    TU_ASSERT(!pos.has_to_move);
    TU_ASSERT_EQ(pos.unmarked, 2);
    position_ok("B\n+-+-+\n|A| |\n+-+-+\n\n+ + +\n", &pos);
    TU_ASSERT(pos.has_to_move);
    TU_ASSERT_EQ(pos.to_move, 'B');
    TU_ASSERT_EQ(pos.taken_a, 1);
    TU_ASSERT_EQ(pos.unmarked, 1);
    position_ok("-2\n100\nA\n+ +\n\n+ +\n", &pos);
    TU_ASSERT(pos.has_value);
    TU_ASSERT_EQ(pos.full_value, -2);

    /* letters of the problem's start carry over to a later position */
    parse_ok("0\n" BOARD_2X2_B, &base);
    position_ok("+-+-+\n| |A|\n+-+-+\n\n+ + +\n", &pos);
    rdb_error err;
    TU_ASSERT_EQ(rdb_problem_inherit_owners(&pos, &base, "q", &err), RDB_OK);
    TU_ASSERT_EQ(pos.diagram.owner[0], 'B');
    TU_ASSERT_EQ(pos.taken_a, 1);
    TU_ASSERT_EQ(pos.taken_b, 1);
    TU_ASSERT_EQ(pos.unmarked, 0);
    /* ... and may not be contradicted */
    position_ok("\n+-+-+\n|A| |\n+-+-+\n\n+ + +\n", &pos);
    err.msg[0] = '\0';
    TU_ASSERT_EQ(rdb_problem_inherit_owners(&pos, &base, "q", &err), RDB_E_INPUT);
    TU_ASSERT_MSG(strstr(err.msg, "q: line 3, column 2: box marked A here was taken by B") != NULL,
                  "message '%s'", err.msg);
}
END_TEST

START_TEST(test_diff_and_margin)
{
    rdb_problem a, b;
    char why[256];
    parse_ok("0\n" BOARD_2X2_B, &a);
    parse_ok("# same game, other budgets\n0\n4000\n9\nA\n" BOARD_2X2_B, &b);
    TU_ASSERT_EQ(rdb_problem_diff(&a, &b, why, sizeof why), 0);
    parse_ok("0\nB\n" BOARD_2X2_B, &b);
    TU_ASSERT_EQ(rdb_problem_diff(&a, &b, why, sizeof why), 1);
    TU_ASSERT_MSG(strstr(why, "player to move A differs from B") != NULL, "'%s'", why);
    parse_ok("0\n+-+-+\n|A| \n+-+ +\n\n+ + +\n", &b);
    TU_ASSERT_EQ(rdb_problem_diff(&a, &b, why, sizeof why), 1);
    TU_ASSERT_MSG(strstr(why, "row 1, column 1") != NULL, "'%s'", why);

    /* B has one box; A to move with 2 net future boxes ends 1 ahead */
    TU_ASSERT_EQ(rdb_problem_margin(&a, 2, 'A'), 1);
    TU_ASSERT_EQ(rdb_problem_margin(&a, 2, 'B'), -1);
    TU_ASSERT_EQ(rdb_problem_margin(&a, -3, 'A'), -4);
    /* B to move: the value is B's */
    parse_ok("0\nB\n" BOARD_2X2_B, &b);
    TU_ASSERT_EQ(rdb_problem_margin(&b, 2, 'B'), 3);
    TU_ASSERT_EQ(rdb_problem_margin(&b, 2, 'A'), -3);
}
END_TEST

Suite *problem_suite(void)
{
    Suite *s = suite_create("problem");
    TCase *tc = tcase_create("problem");
    tcase_add_test(tc, test_full_header);
    tcase_add_test(tc, test_minimal);
    tcase_add_test(tc, test_header_errors);
    tcase_add_test(tc, test_box_errors);
    tcase_add_test(tc, test_positions);
    tcase_add_test(tc, test_diff_and_margin);
    suite_add_tcase(s, tc);
    return s;
}
