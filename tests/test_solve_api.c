/*
 * test_solve_api.c — the Cram search behind the public API
 * (retrodb/solve.h, rdb_cram_parse_diagram_wide of retrodb/position.h),
 * held against the naive reference solver (tests/naive_cram.c).
 *
 * The naive solver stops at 64 cells, so a position of a bigger board is
 * made of small windows of free cells, everything else covered: its
 * nimber is the xor of the windows' nimbers, each a small board's the
 * reference solves. The windows are placed across cell 64, where the
 * two words of a position meet, and apart, so that the search must add
 * parts found on both sides.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "naive_cram.h"
#include "naive_dots.h"
#include "retrodb/position.h"
#include "retrodb/solve.h"
#include "test_util.h"

/* A window of free cells: its corner (r0, c0) and size on the big board. */
typedef struct {
    int r0, c0, h, w;
} window;

/* Cell (r, c) of the big board, as a bit of a two-word position. */
static void set_cell(uint64_t set[2], int cols, int r, int c)
{
    const int i = r * cols + c;
    set[i / 64] |= 1ULL << (i % 64);
}

/* Free a random part of each window (most of its cells) of the rows x cols
 * board, all else covered; returns the nimber the reference gives, the
 * xor over the windows. */
static int random_position(uint64_t *rng, int rows, int cols, const window *win, int nwin,
                           uint64_t covered[2])
{
    uint64_t free_cells[2] = {0, 0};
    int want = 0;
    for (int k = 0; k < nwin; k++) {
        const window *v = &win[k];
        uint64_t small = 0; /* the window's free cells on its own h x w board */
        for (int r = 0; r < v->h; r++)
            for (int c = 0; c < v->w; c++)
                if (naive_rand(rng) % 5) {
                    small |= 1ULL << (r * v->w + c);
                    set_cell(free_cells, cols, v->r0 + r, v->c0 + c);
                }
        naive_cram *n = naive_cram_new(v->h, v->w);
        ck_assert(n);
        want ^= naive_cram_nimber(n, small);
        naive_cram_free(n);
    }
    const int ncells = rows * cols;
    covered[0] = ~free_cells[0];
    covered[1] = ncells >= 128 ? ~free_cells[1] : ~free_cells[1] & ((1ULL << (ncells - 64)) - 1);
    return want;
}

START_TEST(test_wide_boards_against_the_reference)
{
    static const struct {
        int rows, cols;
        window win[2];
        int nwin;
    } cases[] = {
        {3, 22, {{1, 16, 2, 6}}, 1},                  /* cells 38-43 and 60-65 */
        {3, 22, {{0, 0, 3, 4}, {2, 17, 1, 5}}, 2},    /* one part below 64, one across */
        {9, 8, {{6, 2, 3, 5}}, 1},                    /* cells 50-54 to 66-70 */
        {22, 3, {{20, 0, 2, 3}, {5, 0, 4, 3}}, 2},    /* the board standing up */
        {2, 33, {{0, 28, 2, 5}, {0, 12, 2, 6}}, 2},   /* 66 cells in two rows */
        /* boards of more dominoes than a search takes (8x16: 232), and
         * more than 8 cells across both ways, solved in the box of the
         * free dominoes */
        {8, 16, {{0, 1, 4, 5}, {5, 10, 3, 6}}, 2},    /* 128 cells */
        {11, 11, {{7, 6, 4, 5}}, 1},                  /* a corner */
        {11, 11, {{0, 1, 3, 4}, {4, 0, 4, 3}}, 2},    /* the box 8x5 */
        {9, 9, {{2, 3, 4, 5}}, 1},                    /* the middle */
        {12, 10, {{9, 2, 3, 8}}, 1},                  /* a box the full width */
        /* no box of the free dominoes fits: each region in its own */
        {11, 11, {{0, 0, 3, 4}, {8, 6, 3, 5}}, 2},    /* opposite corners */
        {9, 9, {{0, 5, 4, 4}, {5, 0, 4, 4}}, 2},      /* the other two */
        {10, 12, {{0, 0, 2, 8}, {4, 9, 6, 3}}, 2},    /* a wide one, a tall one */
        {1, 128, {{0, 60, 1, 20}, {0, 100, 1, 24}}, 2}, /* a strip */
    };
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (int trial = 0; trial < 6; trial++) {
            uint64_t covered[2];
            const int want = random_position(&rng, cases[i].rows, cases[i].cols, cases[i].win,
                                             cases[i].nwin, covered);
            rdb_cram_wide_solution got;
            rdb_error err;
            ck_assert_msg(rdb_solve_cram_wide(cases[i].rows, cases[i].cols, covered, 1, 16, 0, &got,
                                              &err) == RDB_OK,
                          "%s", err.msg);
            ck_assert_msg(got.nimber == want, "%dx%d trial %d: %d, the reference %d", cases[i].rows,
                          cases[i].cols, trial, got.nimber, want);
            ck_assert_int_eq(got.nmoves, 0);
        }
    }
}
END_TEST

/* Every move's nimber: each free domino once, in domino order, its nimber
 * the reference's for the position after it; on 11x11 each is a domino of
 * the board, not of the box the search took (cram_window.h). */
static const struct {
    int rows, cols;
    window win[2];
} move_boards[] = {
    {3, 22, {{1, 18, 2, 4}, {0, 2, 2, 3}}},
    {11, 11, {{6, 8, 4, 3}, {9, 3, 2, 4}}}, /* the box rows 6..10, columns 3..10 */
    {11, 11, {{0, 0, 3, 4}, {8, 7, 3, 4}}}, /* no box fits: two regions */
};

START_TEST(test_wide_moves)
{
    const int rows = move_boards[_i].rows, cols = move_boards[_i].cols;
    const window *win = move_boards[_i].win;
    uint64_t rng = 77;
    for (int trial = 0; trial < 4; trial++) {
        uint64_t covered[2];
        const int want = random_position(&rng, rows, cols, win, 2, covered);
        rdb_cram_wide_solution got;
        rdb_error err;
        ck_assert_msg(rdb_solve_cram_wide(rows, cols, covered, 1, 16, 1, &got, &err) == RDB_OK, "%s",
                      err.msg);
        ck_assert_int_eq(got.nimber, want);
        int m = 0, cell[2];
        const int nh = rows * (cols - 1);
        for (int d = 0; d < nh + (rows - 1) * cols; d++) {
            /* the documented numbering: horizontal dominoes first, row-major
             * by their left cell, then vertical ones by their top cell */
            cell[0] = d < nh ? d / (cols - 1) * cols + d % (cols - 1) : d - nh;
            cell[1] = d < nh ? cell[0] + 1 : cell[0] + cols;
            if (covered[cell[0] / 64] >> (cell[0] % 64) & 1 || covered[cell[1] / 64] >> (cell[1] % 64) & 1)
                continue;
            ck_assert_msg(m < got.nmoves, "domino %d missing", d);
            ck_assert_int_eq(got.domino[m], d);
            uint64_t child[2] = {covered[0], covered[1]};
            child[cell[0] / 64] |= 1ULL << (cell[0] % 64);
            child[cell[1] / 64] |= 1ULL << (cell[1] % 64);
            rdb_cram_wide_solution one;
            ck_assert(rdb_solve_cram_wide(rows, cols, child, 1, 16, 0, &one, &err) == RDB_OK);
            ck_assert_msg(got.move_nimber[m] == one.nimber, "domino %d: %d, alone %d", d,
                          got.move_nimber[m], one.nimber);
            m++;
        }
        ck_assert_int_eq(got.nmoves, m);
        /* the mex of the moves' nimbers is the nimber */
        int mex = 0;
        for (int again = 1; again;) {
            again = 0;
            for (int j = 0; j < got.nmoves; j++)
                if (got.move_nimber[j] == mex) {
                    mex++;
                    again = 1;
                }
        }
        ck_assert_int_eq(mex, want);
    }
}
END_TEST

/* A position that is one region more than 8 cells across both ways (9x9
 * to 11x11, 9x14, 10x12), laid out up to 11 across: a random lattice path
 * from one corner of the board to the other with a few cells beside it,
 * against the reference on the list of its cells (naive_cram_new_cells),
 * with every move's nimber. A path with nothing beside it is a strip
 * (each cell next to the one before and after only): Dawson's Kayles. */
START_TEST(test_wide_single_regions)
{
    static const int boards[][2] = {{9, 9}, {10, 10}, {11, 11}, {9, 14}, {10, 12}, {14, 9}};
    uint64_t rng = 2026;
    for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        const int rows = boards[b][0], cols = boards[b][1];
        for (int trial = 0; trial < 5; trial++) {
            int rc[64][2], n = 0, r = 0, c = 0;
            uint64_t free_cells[2] = {0, 0};
            char on[16][16] = {{0}};
            for (;;) {
                on[r][c] = 1;
                rc[n][0] = r, rc[n++][1] = c;
                if (r == rows - 1 && c == cols - 1)
                    break;
                if (c == cols - 1 || (r < rows - 1 && naive_rand(&rng) % 2))
                    r++;
                else
                    c++;
            }
            const int path = n;
            for (int extra = trial ? 3 : 0; extra > 0;) { /* the first trial: the strip alone */
                const int k = (int)(naive_rand(&rng) % (uint64_t)path), d = (int)(naive_rand(&rng) % 4);
                const int rr = rc[k][0] + (d == 0) - (d == 1), cc = rc[k][1] + (d == 2) - (d == 3);
                if (rr < 0 || rr >= rows || cc < 0 || cc >= cols || on[rr][cc])
                    continue;
                on[rr][cc] = 1;
                rc[n][0] = rr, rc[n++][1] = cc;
                extra--;
            }
            for (int i = 0; i < n; i++)
                set_cell(free_cells, cols, rc[i][0], rc[i][1]);
            const int ncells = rows * cols;
            uint64_t covered[2] = {~free_cells[0], ~free_cells[1]};
            if (ncells < 128)
                covered[1] &= ncells <= 64 ? 0 : (1ULL << (ncells - 64)) - 1;
            naive_cram *ref = naive_cram_new_cells(n, (const int(*)[2])rc);
            ck_assert(ref);
            const uint64_t all = n == 64 ? ~0ULL : (1ULL << n) - 1;
            const int want = naive_cram_nimber(ref, all);
            if (!trial) { /* Dawson's Kayles of the path's cells */
                int g[64] = {0};
                for (int m = 2; m <= path; m++) {
                    uint64_t seen = 0;
                    for (int a = 0; a + 2 <= m; a++)
                        seen |= 1ULL << (g[a] ^ g[m - 2 - a]);
                    while (seen >> g[m] & 1)
                        g[m]++;
                }
                ck_assert_int_eq(want, g[path]);
            }
            rdb_cram_wide_solution got;
            rdb_error err;
            ck_assert_msg(rdb_solve_cram_wide(rows, cols, covered, 1, 16, 1, &got, &err) == RDB_OK, "%dx%d: %s",
                          rows, cols, err.msg);
            ck_assert_msg(got.nimber == want, "%dx%d trial %d: %d, the reference %d", rows, cols, trial,
                          got.nimber, want);
            /* every move: a domino of two cells of the list, the reference's
             * nimber after it */
            int moves = 0;
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++)
                    moves += abs(rc[i][0] - rc[j][0]) + abs(rc[i][1] - rc[j][1]) == 1;
            ck_assert_int_eq(got.nmoves, moves);
            for (int m = 0; m < got.nmoves; m++) {
                const int d = got.domino[m], nh = rows * (cols - 1);
                const int a = d < nh ? d / (cols - 1) * cols + d % (cols - 1) : d - nh;
                const int z = d < nh ? a + 1 : a + cols;
                uint64_t after = all;
                for (int i = 0; i < n; i++)
                    if (rc[i][0] * cols + rc[i][1] == a || rc[i][0] * cols + rc[i][1] == z)
                        after &= ~(1ULL << i);
                ck_assert_int_eq(__builtin_popcountll(all & ~after), 2);
                ck_assert_msg(got.move_nimber[m] == naive_cram_nimber(ref, after), "%dx%d domino %d", rows,
                              cols, d);
            }
            naive_cram_free(ref);
        }
    }
}
END_TEST

/* On boards of 64 cells or fewer the two calls are one search. */
START_TEST(test_narrow_and_wide_agree)
{
    uint64_t rng = 5;
    naive_cram *n = naive_cram_new(4, 5);
    ck_assert(n);
    for (int trial = 0; trial < 20; trial++) {
        const uint64_t covered = naive_rand(&rng) & naive_rand(&rng) & ((1ULL << 20) - 1);
        rdb_cram_solution narrow;
        rdb_cram_wide_solution wide;
        rdb_error err;
        const uint64_t two[2] = {covered, 0};
        ck_assert(rdb_solve_cram(4, 5, covered, 1, 16, &narrow, &err) == RDB_OK);
        ck_assert(rdb_solve_cram_wide(4, 5, two, 1, 16, 0, &wide, &err) == RDB_OK);
        ck_assert_int_eq(narrow.nimber, naive_cram_nimber(n, ~covered & ((1ULL << 20) - 1)));
        ck_assert_int_eq(wide.nimber, narrow.nimber);
        ck_assert(wide.nodes == narrow.nodes);
    }
    naive_cram_free(n);
}
END_TEST

START_TEST(test_wide_bad_input)
{
    rdb_cram_wide_solution out;
    rdb_error err;
    const uint64_t none[2] = {0, 0}, off[2] = {0, 1ULL << 2}; /* cell 66 of a 66-cell board */
    const uint64_t corner[2] = {1, 0};
    const uint64_t band[2] = {0xff80000000000000ULL, 0x3}; /* 11x11's row 5 */
    const struct {
        int rows, cols;
        const uint64_t *covered;
        int threads;
        long tt_mb;
        const char *word;
    } bad[] = {
        {9, 15, none, 1, 16, "128"},       /* 135 cells */
        {8, 16, corner, 1, 16, "230 free dominoes"}, /* 128 cells, 232 dominoes */
        {11, 11, none, 1, 16, "220 free dominoes"}, /* its 11x11 layout takes it, not its dominoes */
        {11, 11, band, 1, 16, "188 free dominoes"}, /* two regions of 94, 127 moves listed */
        {0, 5, none, 1, 16, "0x5"},
        {3, 22, off, 1, 16, "off the"},
        {3, 22, NULL, 1, 16, "NULL"},
        {3, 22, none, 0, 16, "threads"},
        {3, 22, none, 1, 0, "tt_mb"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&out, 0x5a, sizeof out);
        err.msg[0] = '\0';
        ck_assert_msg(rdb_solve_cram_wide(bad[i].rows, bad[i].cols, bad[i].covered, bad[i].threads,
                                          bad[i].tt_mb, 1, &out, &err) == RDB_E_INPUT,
                      "case %zu solved", i);
        ck_assert_msg(strstr(err.msg, bad[i].word), "case %zu: '%s' lacks '%s'", i, err.msg,
                      bad[i].word);
        ck_assert(out.nimber == 0 && out.nmoves == 0 && out.nodes == 0);
    }
    /* the 64-cell call still refuses what only the wide one takes */
    rdb_cram_solution narrow;
    ck_assert_int_eq(rdb_solve_cram(3, 22, 0, 1, 16, &narrow, &err), RDB_E_INPUT);
    ck_assert_msg(strstr(err.msg, "64"), "%s", err.msg);
}
END_TEST

START_TEST(test_wide_diagram)
{
    /* 3x22, cells 0, 21 (the first row's ends) and 65 (the last) covered */
    char text[3 * 23 + 1];
    memset(text, '.', sizeof text - 1);
    text[sizeof text - 1] = '\0';
    for (int r = 0; r < 3; r++)
        text[r * 23 + 22] = '\n';
    text[0] = text[21] = text[2 * 23 + 21] = '#';
    int rows, cols;
    uint64_t covered[2];
    rdb_error err;
    ck_assert_msg(rdb_cram_parse_diagram_wide(text, NULL, &rows, &cols, covered, &err) == RDB_OK,
                  "%s", err.msg);
    ck_assert_int_eq(rows, 3);
    ck_assert_int_eq(cols, 22);
    ck_assert(covered[0] == (1ULL | 1ULL << 21));
    ck_assert(covered[1] == 1ULL << 1);
    /* the 64-cell parser refuses it, naming its limit */
    uint64_t one;
    ck_assert_int_eq(rdb_cram_parse_diagram(text, NULL, &rows, &cols, &one, &err), RDB_E_INPUT);
    ck_assert_msg(strstr(err.msg, "64"), "%s", err.msg);

    /* 12 rows of 11: 132 cells */
    char big[12 * 12 + 1];
    for (int r = 0; r < 12; r++) {
        memset(big + r * 12, '.', 11);
        big[r * 12 + 11] = '\n';
    }
    big[sizeof big - 1] = '\0';
    covered[0] = covered[1] = 7;
    ck_assert_int_eq(rdb_cram_parse_diagram_wide(big, "big.txt", &rows, &cols, covered, &err),
                     RDB_E_INPUT);
    ck_assert_msg(strstr(err.msg, "128") && strstr(err.msg, "big.txt"), "%s", err.msg);
    ck_assert(rows == 0 && cols == 0 && covered[0] == 0 && covered[1] == 0);
    ck_assert_int_eq(rdb_cram_parse_diagram_wide(NULL, NULL, &rows, &cols, covered, &err),
                     RDB_E_INPUT);
}
END_TEST

Suite *solve_api_suite(void)
{
    Suite *s = suite_create("solve_api");
    TCase *tc = tcase_create("solve_api");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_wide_boards_against_the_reference);
    tcase_add_loop_test(tc, test_wide_moves, 0, (int)(sizeof move_boards / sizeof move_boards[0]));
    tcase_add_test(tc, test_wide_single_regions);
    tcase_add_test(tc, test_narrow_and_wide_agree);
    tcase_add_test(tc, test_wide_bad_input);
    tcase_add_test(tc, test_wide_diagram);
    suite_add_tcase(s, tc);
    return s;
}
