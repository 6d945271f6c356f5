/*
 * test_cram_board.c — the Cram board module (src/cram/cram_board.c): domino
 * counts and order, the symmetries (permutations of the cells that map
 * dominoes to dominoes, all distinct, closed under composition), the size
 * limits, and diagrams: parsing with blank lines, trailing whitespace and
 * CRLF, the errors naming source, line and column, and print-then-parse
 * round trips of random positions on boards of every shape.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cram/cram_board.h"
#include "test_util.h"

START_TEST(test_dominoes)
{
    cram_board b;
    rdb_error err;
    TU_ASSERT_EQ(cram_board_init(&b, 3, 4, &err), RDB_OK);
    TU_ASSERT_EQ(b.ncells, 12);
    TU_ASSERT_EQ(b.ndominoes, 3 * 3 + 2 * 4);
    /* horizontal first, row-major by left cell */
    TU_ASSERT(b.domino[0] == (1ULL << 0 | 1ULL << 1));
    TU_ASSERT(b.domino[2] == (1ULL << 2 | 1ULL << 3));
    TU_ASSERT(b.domino[3] == (1ULL << 4 | 1ULL << 5));
    /* then vertical, row-major by top cell */
    TU_ASSERT(b.domino[9] == (1ULL << 0 | 1ULL << 4));
    TU_ASSERT(b.domino[16] == (1ULL << 7 | 1ULL << 11));
    for (int rows = 1; rows <= 8; rows++)
        for (int cols = 1; rows * cols <= 64; cols++) {
            TU_ASSERT_EQ(cram_board_init(&b, rows, cols, &err), RDB_OK);
            TU_ASSERT_EQ(b.ndominoes, rows * (cols - 1) + (rows - 1) * cols);
            for (int d = 0; d < b.ndominoes; d++) {
                int a = b.domino_cell[d][0], c = b.domino_cell[d][1];
                TU_ASSERT(a < c);
                TU_ASSERT(b.domino[d] == (1ULL << a | 1ULL << c));
                TU_ASSERT(d < rows * (cols - 1) ? c - a == 1 && a / cols == c / cols : c - a == cols);
                if (d > 0)
                    TU_ASSERT(d == rows * (cols - 1) || b.domino_cell[d][0] > b.domino_cell[d - 1][0]);
            }
        }
}
END_TEST

static int is_domino(const cram_board *b, uint64_t cells)
{
    for (int d = 0; d < b->ndominoes; d++)
        if (b->domino[d] == cells)
            return 1;
    return 0;
}

START_TEST(test_transforms)
{
    cram_board b;
    rdb_error err;
    for (int rows = 1; rows <= 8; rows++)
        for (int cols = 1; rows * cols <= 64; cols++) {
            TU_ASSERT_EQ(cram_board_init(&b, rows, cols, &err), RDB_OK);
            TU_ASSERT_EQ(b.ntransforms, rows == cols ? 8 : 4);
            uint64_t all = b.ncells == 64 ? ~0ULL : (1ULL << b.ncells) - 1;
            for (int t = 0; t < b.ntransforms; t++) {
                TU_ASSERT(cram_board_transform(&b, t, all) == all);
                for (int d = 0; d < b.ndominoes; d++)
                    TU_ASSERT(is_domino(&b, cram_board_transform(&b, t, b.domino[d])));
                for (int u = 0; u < b.ntransforms; u++) {
                    if (u != t && b.ncells > 1 && !(rows == 1 || cols == 1)) {
                        int same = 1;
                        for (int c = 0; c < b.ncells; c++)
                            same &= b.transform[t][c] == b.transform[u][c];
                        TU_ASSERT_MSG(!same, "%dx%d: transforms %d and %d are equal", rows, cols, t, u);
                    }
                    /* closed under composition */
                    int found = 0;
                    for (int v = 0; v < b.ntransforms && !found; v++) {
                        int same = 1;
                        for (int c = 0; c < b.ncells; c++)
                            same &= b.transform[u][b.transform[t][c]] == b.transform[v][c];
                        found = same;
                    }
                    TU_ASSERT(found);
                }
            }
            for (int c = 0; c < b.ncells; c++)
                TU_ASSERT_EQ(b.transform[0][c], c);
        }
    /* 2x3: mirroring the columns sends cell 0 to 2, the rows 0 to 3 */
    TU_ASSERT_EQ(cram_board_init(&b, 2, 3, &err), RDB_OK);
    TU_ASSERT(cram_board_transform(&b, 1, 1ULL) == 1ULL << 2);
    TU_ASSERT(cram_board_transform(&b, 2, 1ULL) == 1ULL << 3);
    TU_ASSERT(cram_board_transform(&b, 3, 1ULL) == 1ULL << 5);
}
END_TEST

START_TEST(test_limits)
{
    cram_board b;
    rdb_error err;
    err.msg[0] = '\0';
    TU_ASSERT_EQ(cram_board_init(&b, 9, 8, &err), RDB_E_INPUT);
    TU_ASSERT_MSG(strstr(err.msg, "9x8 has 72 cells; at most 64 fit"), "message '%s'", err.msg);
    TU_ASSERT_EQ(cram_board_init(&b, 0, 5, &err), RDB_E_INPUT);
    TU_ASSERT_EQ(cram_board_init(&b, 5, -1, &err), RDB_E_INPUT);
    TU_ASSERT_EQ(cram_board_init(&b, 1, 65, &err), RDB_E_INPUT);
    TU_ASSERT_EQ(cram_board_init(&b, 8, 8, &err), RDB_OK);
    TU_ASSERT_EQ(cram_board_init(&b, 1, 64, &err), RDB_OK);
    TU_ASSERT_EQ(b.ndominoes, 63);
}
END_TEST

static void parse_ok(const char *text, int rows, int cols, uint64_t covered)
{
    rdb_error err;
    int r = -1, c = -1;
    uint64_t cov = 0;
    err.msg[0] = '\0';
    rdb_status st = cram_diagram_parse(text, "test", &r, &c, &cov, &err);
    TU_ASSERT_MSG(st == RDB_OK, "parse failed (%d): %s\n%s", (int)st, err.msg, text);
    TU_ASSERT_EQ(r, rows);
    TU_ASSERT_EQ(c, cols);
    TU_ASSERT_MSG(cov == covered, "covered %llx, want %llx", (unsigned long long)cov,
                  (unsigned long long)covered);
}

/* Parsing must fail with RDB_E_INPUT and a message holding `want`. */
static void parse_bad(const char *text, const char *want)
{
    rdb_error err;
    int r, c;
    uint64_t cov;
    err.msg[0] = '\0';
    rdb_status st = cram_diagram_parse(text, "input.txt", &r, &c, &cov, &err);
    TU_ASSERT_MSG(st == RDB_E_INPUT, "status %d for\n%s", (int)st, text);
    TU_ASSERT_MSG(strstr(err.msg, want) != NULL, "message '%s' lacks '%s'", err.msg, want);
    TU_ASSERT_MSG(strstr(err.msg, "input.txt") != NULL, "message '%s' lacks the source", err.msg);
}

START_TEST(test_parse)
{
    parse_ok("..#\n#..\n", 2, 3, 1ULL << 2 | 1ULL << 3);
    parse_ok("..#\n#..", 2, 3, 1ULL << 2 | 1ULL << 3);
    parse_ok("\n  \n..#  \r\n#..\t\r\n\n \n", 2, 3, 1ULL << 2 | 1ULL << 3);
    parse_ok(".\n", 1, 1, 0);
    parse_ok("########\n########\n########\n########\n########\n########\n########\n########\n", 8, 8,
             ~0ULL);
    parse_bad("", "no diagram");
    parse_bad("\n \n\n", "no diagram");
    parse_bad("...\n.x.\n", "line 2, column 2: unknown character 'x'");
    parse_bad("\n...\n..\n", "line 3, column 3: row has 2 cells but the first row (line 2) has 3");
    parse_bad("...\n....\n", "line 2, column 4: row has 4 cells");
    parse_bad("...\n\n...\n", "line 3: blank line 2 inside the diagram");
    parse_bad(". .\n", "line 1, column 2: unknown character ' '");
    char big[16 * 10];
    big[0] = '\0';
    for (int i = 0; i < 9; i++)
        strcat(big, "........\n");
    parse_bad(big, "line 9, column 1: the board would have 72 cells");
    char wide[80];
    memset(wide, '.', 65);
    wide[65] = '\0';
    parse_bad(wide, "line 1, column 65: row of 65 cells is too long");
}
END_TEST

START_TEST(test_round_trip)
{
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (int rows = 1; rows <= 8; rows++)
        for (int cols = 1; rows * cols <= 64; cols++)
            for (int k = 0; k < 20; k++) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                int n = rows * cols;
                uint64_t cov = n == 64 ? seed : seed & ((1ULL << n) - 1);
                char *buf = NULL;
                size_t len = 0;
                FILE *f = open_memstream(&buf, &len);
                TU_ASSERT(f != NULL);
                cram_diagram_print(f, rows, cols, cov);
                fclose(f);
                TU_ASSERT_EQ(len, (size_t)rows * (cols + 1));
                parse_ok(buf, rows, cols, cov);
                free(buf);
            }
}
END_TEST

Suite *cram_board_suite(void)
{
    Suite *s = suite_create("cram_board");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_dominoes);
    tcase_add_test(tc, test_transforms);
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, test_parse);
    tcase_add_test(tc, test_round_trip);
    suite_add_tcase(s, tc);
    return s;
}
