/*
 * test_diagram.c — the ASCII diagram module (src/dots/dots_diagram.c): parsing
 * the documented example (a 1x2 board with h0,0 and v0,2 drawn), missing
 * trailing spaces, blank lines around the diagram (any number of them),
 * box letters, the errors for a wrong shape, an unknown character and a
 * missing dot (status RDB_E_INPUT, message naming the source, line and
 * column as "<source>: line L, column C: ..."), and print-then-parse round
 * trips of random positions on boards of many shapes.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dots/dots_diagram.h"
#include "test_util.h"

static void parse_ok(const char *text, dots_diagram *d)
{
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = dots_diagram_parse(text, "test", d, &err);
    TU_ASSERT_MSG(st == RDB_OK, "parse failed (%d): %s\n%s", (int)st, err.msg, text);
}

/* Parsing must fail with RDB_E_INPUT and a message holding `want`. */
static void parse_bad(const char *text, const char *want)
{
    rdb_error err;
    dots_diagram d;
    err.msg[0] = '\0';
    rdb_status st = dots_diagram_parse(text, "input.txt", &d, &err);
    TU_ASSERT_MSG(st == RDB_E_INPUT, "status %d for\n%s", (int)st, text);
    TU_ASSERT_MSG(strstr(err.msg, want) != NULL, "message '%s' lacks '%s'", err.msg, want);
    TU_ASSERT_MSG(strstr(err.msg, "input.txt") != NULL, "message '%s' lacks the source", err.msg);
}

/* h0,0 = 0 and v0,2 = (1+1)*2 + 0*3 + 2 = 6 on a 1x2 board */
#define EXAMPLE_DRAWN (1ULL << 0 | 1ULL << 6)

START_TEST(test_example)
{
    dots_diagram d;
    parse_ok("+-+ +\n    |\n+ + +\n", &d);
    TU_ASSERT_EQ(d.rows, 1);
    TU_ASSERT_EQ(d.cols, 2);
    TU_ASSERT(d.drawn == EXAMPLE_DRAWN);
    TU_ASSERT_EQ(d.owner[0], ' ');
    TU_ASSERT_EQ(d.owner[1], ' ');

    /* trailing spaces missing (the first row too), no final newline */
    parse_ok("+-+ +\n    |\n+ + +", &d);
    TU_ASSERT(d.drawn == EXAMPLE_DRAWN);
    /* blank lines before and after, padded with spaces, CRLF */
    parse_ok("\n   \n+-+ +\r\n    |\r\n+ + +   \r\n\n  \n\n", &d);
    TU_ASSERT_EQ(d.rows, 1);
    TU_ASSERT_EQ(d.cols, 2);
    TU_ASSERT(d.drawn == EXAMPLE_DRAWN);
    /* an all-blank box row inside the diagram is a row with nothing drawn */
    parse_ok("+ + +\n\n+ + +\n", &d);
    TU_ASSERT_EQ(d.rows, 1);
    TU_ASSERT_EQ(d.cols, 2);
    TU_ASSERT(d.drawn == 0);
}
END_TEST

START_TEST(test_shapes_and_letters)
{
    dots_diagram d;
    /* 2x3, full */
    parse_ok("+-+-+-+\n"
             "|A|B|A|\n"
             "+-+-+-+\n"
             "|B| |x|\n"
             "+-+-+-+\n",
             &d);
    TU_ASSERT_EQ(d.rows, 2);
    TU_ASSERT_EQ(d.cols, 3);
    TU_ASSERT(d.drawn == (1ULL << 17) - 1);
    TU_ASSERT(memcmp(d.owner, "ABAB x", 6) == 0);

    /* 3x1 with only v1,1 and h3,0 */
    parse_ok("+ +\n\n+ +\n  |\n+ +\n\n+-+\n", &d);
    TU_ASSERT_EQ(d.rows, 3);
    TU_ASSERT_EQ(d.cols, 1);
    /* h3,0 = 3; v1,1 = 4*1 + 1*2 + 1 = 7 */
    TU_ASSERT(d.drawn == (1ULL << 3 | 1ULL << 7));
}
END_TEST

START_TEST(test_errors)
{
    /* wrong shape: an even number of rows */
    parse_bad("+-+ +\n    |\n", "line 1");
    parse_bad("+-+ +\n    |\n+ + +\n|\n", "line 1");
    /* wrong shape: an even number of columns in the first dot row */
    parse_bad("+-+-\n|\n+ + +\n", "line 1");
    /* wrong shape: a row longer than the first one */
    parse_bad("+-+ +\n    | |\n+ + +\n", "line 2, column 6");
    parse_bad("\n\n+-+ +\n    |\n+ + + +\n", "line 5, column 6");
    /* unknown characters, in each kind of cell */
    parse_bad("+-+ +\n  x |\n+ + +\n", "line 2, column 3");
    parse_bad("+=+ +\n    |\n+ + +\n", "line 1, column 2");
    parse_bad("+-+ +\n-   |\n+ + +\n", "line 2, column 1");
    parse_bad("+-+ +\n 7  |\n+ + +\n", "line 2, column 2");
    /* missing dots */
    parse_bad("+-+ +\n    |\n+ x +\n", "line 3, column 3");
    parse_bad("+-+ +\n    |\n+ +\n", "line 3, column 5");
    parse_bad("\n+-+ -\n    |\n+ + +\n", "line 2, column 5");
    /* nothing at all */
    parse_bad("", "no diagram");
    parse_bad("\n  \n\n", "no diagram");
}
END_TEST

/* Blank lines around the diagram are ignored however many there are. */
START_TEST(test_many_blank_lines)
{
    static char text[4096];
    size_t n = 0;
    for (int i = 0; i < 150; i++)
        text[n++] = '\n';
    const char *diagram = "+-+ +\n    |\n+ + +\n";
    memcpy(text + n, diagram, strlen(diagram));
    n += strlen(diagram);
    for (int i = 0; i < 150; i++)
        text[n++] = '\n';
    text[n] = '\0';
    dots_diagram d;
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = dots_diagram_parse(text, "test", &d, &err);
    ck_assert_msg(st == RDB_OK, "150 blank lines, the example, 150 blank lines: status %d: %s",
                  (int)st, err.msg);
    TU_ASSERT(d.drawn == EXAMPLE_DRAWN);
}
END_TEST

START_TEST(test_round_trip)
{
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    for (int R = 1; R <= 5; R++)
        for (int C = 1; C <= 6; C++) {
            dots_board b;
            rdb_error err;
            if (dots_board_init(&b, R, C, &err) != RDB_OK)
                continue;
            for (int k = 0; k < 200; k++) {
                uint64_t drawn = naive_random_position(&state, b.nlines, 0);
                char owner[DOTS_MAX_BOXES];
                for (int x = 0; x < b.nboxes; x++) {
                    uint64_t r = naive_rand(&state) % 4;
                    owner[x] = r == 0 ? 'A' : r == 1 ? 'B' : ' ';
                }
                char *text = NULL;
                size_t len = 0;
                FILE *f = open_memstream(&text, &len);
                TU_ASSERT(f != NULL);
                dots_diagram_print(f, &b, drawn, k % 2 ? owner : NULL);
                fclose(f);
                dots_diagram d;
                parse_ok(text, &d);
                TU_ASSERT_EQ(d.rows, R);
                TU_ASSERT_EQ(d.cols, C);
                TU_ASSERT_MSG(d.drawn == drawn, "%dx%d: 0x%llx came back as 0x%llx\n%s", R, C,
                              (unsigned long long)drawn, (unsigned long long)d.drawn, text);
                for (int x = 0; x < b.nboxes; x++)
                    TU_ASSERT_EQ(d.owner[x], k % 2 ? owner[x] : ' ');
                free(text);
            }
        }
}
END_TEST

START_TEST(test_print_example)
{
    dots_board b;
    rdb_error err;
    TU_ASSERT_EQ(dots_board_init(&b, 1, 2, &err), RDB_OK);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    dots_diagram_print(f, &b, EXAMPLE_DRAWN, NULL);
    fclose(f);
    ck_assert_str_eq(text, "+-+ +\n    |\n+ + +\n");
    free(text);
}
END_TEST

Suite *diagram_suite(void)
{
    Suite *s = suite_create("diagram");
    TCase *tc = tcase_create("diagram");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_example);
    tcase_add_test(tc, test_shapes_and_letters);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_many_blank_lines);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_print_example);
    suite_add_tcase(s, tc);
    return s;
}
