/*
 * test_board.c — the board module (src/dots/dots_board.c): line numbering
 * against the documented formula, line names (h<i>,<j> and v<i>,<j>) and
 * their parsing both ways, the symmetries (permutations that map every
 * box's four lines onto some box's four lines, 4 of them on a rectangle and
 * 8 on a square, the same set as the geometric symmetries worked out
 * independently by the naive solver), the border and Icelandic start masks,
 * and box completion against the naive solver's count.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "dots/dots_board.h"
#include "test_util.h"

static const int boards[][2] = {{1, 1}, {1, 2}, {1, 5}, {2, 1}, {2, 2}, {2, 3}, {3, 2},
                                {3, 3}, {3, 5}, {4, 4}, {5, 3}, {4, 5}, {5, 5}};
#define NBOARDS ((int)(sizeof boards / sizeof boards[0]))

static void init(dots_board *b, int rows, int cols)
{
    rdb_error err;
    TU_ASSERT_MSG(dots_board_init(b, rows, cols, &err) == RDB_OK, "%dx%d: %s", rows, cols, err.msg);
}

START_TEST(test_numbering)
{
    for (int n = 0; n < NBOARDS; n++) {
        int R = boards[n][0], C = boards[n][1];
        dots_board b;
        init(&b, R, C);
        TU_ASSERT_EQ(b.rows, R);
        TU_ASSERT_EQ(b.cols, C);
        TU_ASSERT_EQ(b.nlines, 2 * R * C + R + C);
        TU_ASSERT_EQ(b.nboxes, R * C);
        uint64_t seen = 0;
        for (int i = 0; i <= R; i++)
            for (int j = 0; j < C; j++) {
                int l = dots_hline(&b, i, j);
                TU_ASSERT_EQ(l, i * C + j);
                seen |= 1ULL << l;
            }
        for (int i = 0; i < R; i++)
            for (int j = 0; j <= C; j++) {
                int l = dots_vline(&b, i, j);
                TU_ASSERT_EQ(l, (R + 1) * C + i * (C + 1) + j);
                seen |= 1ULL << l;
            }
        TU_ASSERT_EQ(__builtin_popcountll(seen), b.nlines);
        TU_ASSERT(seen == dots_all_lines(&b));
        /* boxes: top, bottom, left, right */
        for (int i = 0; i < R; i++)
            for (int j = 0; j < C; j++) {
                const int *s = b.box_line[i * C + j];
                TU_ASSERT_EQ(s[0], i * C + j);
                TU_ASSERT_EQ(s[1], (i + 1) * C + j);
                TU_ASSERT_EQ(s[2], (R + 1) * C + i * (C + 1) + j);
                TU_ASSERT_EQ(s[3], (R + 1) * C + i * (C + 1) + j + 1);
            }
        /* every line lists exactly the boxes it is a side of */
        for (int l = 0; l < b.nlines; l++) {
            int want = 0;
            for (int x = 0; x < b.nboxes; x++)
                for (int s = 0; s < 4; s++)
                    if (b.box_line[x][s] == l) {
                        want++;
                        int found = 0;
                        for (int k = 0; k < b.line_nboxes[l]; k++)
                            found |= b.line_box[l][k] == x;
                        TU_ASSERT_MSG(found, "%dx%d line %d does not list box %d", R, C, l, x);
                    }
            TU_ASSERT_EQ(b.line_nboxes[l], want);
        }
    }
}
END_TEST

START_TEST(test_too_big)
{
    dots_board b;
    rdb_error err;
    TU_ASSERT_EQ(dots_board_init(&b, 5, 5, &err), RDB_OK); /* 60 lines */
    TU_ASSERT_EQ(dots_board_init(&b, 4, 6, &err), RDB_OK); /* 58 lines */
    err.msg[0] = '\0';
    TU_ASSERT_EQ(dots_board_init(&b, 5, 6, &err), RDB_E_INPUT); /* 71 lines */
    TU_ASSERT(strstr(err.msg, "5x6") != NULL);
    TU_ASSERT_EQ(dots_board_init(&b, 0, 3, &err), RDB_E_INPUT);
    TU_ASSERT_EQ(dots_board_init(&b, 2, -1, &err), RDB_E_INPUT);
}
END_TEST

START_TEST(test_names)
{
    dots_board b;
    init(&b, 3, 5);
    char buf[32];
    dots_line_name(&b, 0, buf);
    ck_assert_str_eq(buf, "h0,0");
    dots_line_name(&b, 7, buf); /* h1,2 */
    ck_assert_str_eq(buf, "h1,2");
    dots_line_name(&b, 19, buf); /* h3,4 = last horizontal */
    ck_assert_str_eq(buf, "h3,4");
    dots_line_name(&b, 20, buf); /* v0,0 */
    ck_assert_str_eq(buf, "v0,0");
    dots_line_name(&b, 20 + 6 + 5, buf); /* v1,5 */
    ck_assert_str_eq(buf, "v1,5");
    dots_line_name(&b, 37, buf);
    ck_assert_str_eq(buf, "v2,5");

    for (int n = 0; n < NBOARDS; n++) {
        int R = boards[n][0], C = boards[n][1];
        init(&b, R, C);
        for (int i = 0; i <= R; i++)
            for (int j = 0; j < C; j++) {
                char want[32];
                snprintf(want, sizeof want, "h%d,%d", i, j);
                dots_line_name(&b, i * C + j, buf);
                ck_assert_str_eq(buf, want);
            }
        for (int i = 0; i < R; i++)
            for (int j = 0; j <= C; j++) {
                char want[32];
                snprintf(want, sizeof want, "v%d,%d", i, j);
                dots_line_name(&b, (R + 1) * C + i * (C + 1) + j, buf);
                ck_assert_str_eq(buf, want);
            }
        for (int l = 0; l < b.nlines; l++) {
            dots_line_name(&b, l, buf);
            TU_ASSERT_EQ(dots_parse_line_name(&b, buf), l);
        }
    }
}
END_TEST

START_TEST(test_parse_bad_names)
{
    dots_board b;
    init(&b, 2, 3);
    const char *bad[] = {"", "h", "h0", "h0,", "x0,0", "H0,0", "h3,0", "h0,3", "h-1,0",
                         "v2,0", "v0,4", "v0,-1", "h0,0x", "h0,0 ", "v1,1,", "hh0,0",
                         "h4294967296,0", "h0,4294967296", "v4294967297,1", "h 0,0",
                         "h+0,0", "h0,+1", "h0, 1", "h,0", "h0,"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        TU_ASSERT_MSG(dots_parse_line_name(&b, bad[i]) == -1, "'%s' parsed", bad[i]);
    TU_ASSERT_EQ(dots_parse_line_name(&b, "h2,2"), 8);
    TU_ASSERT_EQ(dots_parse_line_name(&b, "v1,3"), 9 + 4 + 3);
}
END_TEST

/* Box permutation a line permutation induces, or -1 for a box whose lines
 * are not mapped onto one box's lines. */
static int box_image(const dots_board *b, const uint8_t *perm, int box)
{
    uint64_t img = 0;
    for (int s = 0; s < 4; s++)
        img |= 1ULL << perm[b->box_line[box][s]];
    for (int x = 0; x < b->nboxes; x++) {
        uint64_t m = 0;
        for (int s = 0; s < 4; s++)
            m |= 1ULL << b->box_line[x][s];
        if (m == img)
            return x;
    }
    return -1;
}

START_TEST(test_transforms)
{
    for (int n = 0; n < NBOARDS; n++) {
        int R = boards[n][0], C = boards[n][1];
        dots_board b;
        init(&b, R, C);
        TU_ASSERT_EQ(b.ntransforms, R == C ? 8 : 4);
        for (int l = 0; l < b.nlines; l++)
            TU_ASSERT_EQ(b.transform[0][l], l);
        uint8_t geo[8][64];
        int ngeo = naive_symmetries(R, C, geo);
        TU_ASSERT_EQ(ngeo, b.ntransforms);
        int matched[8] = {0};
        for (int t = 0; t < b.ntransforms; t++) {
            /* a permutation */
            uint64_t img = 0;
            for (int l = 0; l < b.nlines; l++) {
                TU_ASSERT((b.transform[t][l]) < (b.nlines));
                img |= 1ULL << b.transform[t][l];
            }
            TU_ASSERT(img == dots_all_lines(&b));
            /* boxes to boxes, bijectively */
            uint64_t boxes = 0;
            for (int x = 0; x < b.nboxes; x++) {
                int y = box_image(&b, b.transform[t], x);
                TU_ASSERT_MSG(y >= 0, "%dx%d transform %d breaks box %d", R, C, t, x);
                boxes |= 1ULL << y;
            }
            TU_ASSERT_EQ(__builtin_popcountll(boxes), b.nboxes);
            /* distinct from the others, and one of the geometric ones */
            for (int u = 0; u < t; u++)
                TU_ASSERT_MSG(memcmp(b.transform[t], b.transform[u], (size_t)b.nlines) != 0,
                              "%dx%d transforms %d and %d are equal", R, C, u, t);
            int found = -1;
            for (int g = 0; g < ngeo; g++)
                if (memcmp(b.transform[t], geo[g], (size_t)b.nlines) == 0)
                    found = g;
            TU_ASSERT_MSG(found >= 0, "%dx%d transform %d is not a symmetry of the board", R, C, t);
            matched[found] = 1;
            /* whole-set application */
            for (int l = 0; l < b.nlines; l++)
                TU_ASSERT(dots_transform_lines(&b, t, 1ULL << l) == 1ULL << b.transform[t][l]);
        }
        for (int g = 0; g < ngeo; g++)
            TU_ASSERT_MSG(matched[g], "%dx%d geometric symmetry %d missing", R, C, g);
        /* closed under composition */
        for (int t = 0; t < b.ntransforms; t++)
            for (int u = 0; u < b.ntransforms; u++) {
                uint8_t comp[64];
                for (int l = 0; l < b.nlines; l++)
                    comp[l] = b.transform[t][b.transform[u][l]];
                int found = 0;
                for (int v = 0; v < b.ntransforms; v++)
                    found |= memcmp(comp, b.transform[v], (size_t)b.nlines) == 0;
                TU_ASSERT(found);
            }
    }
}
END_TEST

START_TEST(test_masks)
{
    for (int n = 0; n < NBOARDS; n++) {
        int R = boards[n][0], C = boards[n][1];
        dots_board b;
        init(&b, R, C);
        uint64_t border = dots_border_lines(&b), ice = dots_icelandic_lines(&b);
        TU_ASSERT(border == tu_border(R, C));
        TU_ASSERT(ice == tu_icelandic(R, C));
        TU_ASSERT_EQ(__builtin_popcountll(border), 2 * R + 2 * C);
        TU_ASSERT_EQ(__builtin_popcountll(ice), R + C);
        TU_ASSERT((ice & ~border) == 0);
        /* border lines are exactly those on one box */
        for (int l = 0; l < b.nlines; l++)
            TU_ASSERT_EQ((int)(border >> l & 1), b.line_nboxes[l] == 1);
        /* Icelandic: the left column and the bottom row */
        for (int i = 0; i < R; i++)
            TU_ASSERT(ice >> dots_vline(&b, i, 0) & 1);
        for (int j = 0; j < C; j++)
            TU_ASSERT(ice >> dots_hline(&b, R, j) & 1);
    }
    dots_board b;
    init(&b, 3, 5);
    TU_ASSERT_EQ(b.nlines, 38);
    TU_ASSERT_EQ(b.nlines - __builtin_popcountll(dots_icelandic_lines(&b)), 30);
    TU_ASSERT_EQ(b.nlines - __builtin_popcountll(dots_border_lines(&b)), 22);
    init(&b, 5, 5);
    TU_ASSERT(dots_all_lines(&b) == (1ULL << 60) - 1);
}
END_TEST

START_TEST(test_boxes_completed)
{
    uint64_t state = 12345;
    for (int n = 0; n < NBOARDS; n++) {
        int R = boards[n][0], C = boards[n][1];
        dots_board b;
        init(&b, R, C);
        naive_board nb;
        naive_board_init(&nb, R, C);
        for (int k = 0; k < 3000; k++) {
            uint64_t pos = naive_random_position(&state, b.nlines, 0);
            for (int l = 0; l < b.nlines; l++)
                if (!(pos >> l & 1))
                    TU_ASSERT_EQ(dots_boxes_completed(&b, pos, l), naive_boxes(&nb, pos, l));
        }
    }
    dots_board b;
    init(&b, 1, 2);
    /* h0,0 h1,0 v0,0 drawn: v0,1 completes box 0; with box 1 at 3 sides, 2 */
    uint64_t pos = 1ULL << 0 | 1ULL << 2 | 1ULL << 4;
    TU_ASSERT_EQ(dots_boxes_completed(&b, pos, 5), 1);
    pos |= 1ULL << 1 | 1ULL << 3 | 1ULL << 6;
    TU_ASSERT_EQ(dots_boxes_completed(&b, pos, 5), 2);
}
END_TEST

Suite *board_suite(void)
{
    Suite *s = suite_create("board");
    TCase *tc = tcase_create("board");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_numbering);
    tcase_add_test(tc, test_too_big);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_parse_bad_names);
    tcase_add_test(tc, test_transforms);
    tcase_add_test(tc, test_masks);
    tcase_add_test(tc, test_boxes_completed);
    suite_add_tcase(s, tc);
    return s;
}
