/*
 * dots_board.c — line numbering, names and symmetries of a board; see
 * dots_board.h.
 *
 * Symmetries are found on the doubled grid of (2R+1) x (2C+1) points, where
 * a dot sits at (even, even), a horizontal line at (even, odd), a vertical
 * line at (odd, even) and a box at (odd, odd): every reflection or rotation
 * of the rectangle maps lines to lines on that grid.
 */
#include "dots/dots_board.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/number.h"

int dots_hline(const dots_board *b, int i, int j)
{
    assert(i >= 0 && i <= b->rows && j >= 0 && j < b->cols);
    return i * b->cols + j;
}

int dots_vline(const dots_board *b, int i, int j)
{
    assert(i >= 0 && i < b->rows && j >= 0 && j <= b->cols);
    return (b->rows + 1) * b->cols + i * (b->cols + 1) + j;
}

/* Doubled-grid coordinates of a line. */
static void line_point(const dots_board *b, int line, int *y, int *x)
{
    int nh = (b->rows + 1) * b->cols;
    if (line < nh) {
        *y = 2 * (line / b->cols);
        *x = 2 * (line % b->cols) + 1;
    } else {
        int v = line - nh;
        *y = 2 * (v / (b->cols + 1)) + 1;
        *x = 2 * (v % (b->cols + 1));
    }
}

static int point_line(const dots_board *b, int y, int x)
{
    if (y % 2 == 0)
        return dots_hline(b, y / 2, (x - 1) / 2);
    return dots_vline(b, (y - 1) / 2, x / 2);
}

rdb_status dots_board_init(dots_board *b, int rows, int cols, rdb_error *err)
{
    if (rows < 1 || cols < 1)
        return rdb_fail(err, RDB_E_INPUT, "board %dx%d has no boxes", rows, cols);
    long nlines = 2L * rows * cols + rows + cols;
    if (nlines > DOTS_MAX_LINES)
        return rdb_fail(err, RDB_E_INPUT,
                        "board %dx%d has %ld lines; at most %d fit in a position",
                        rows, cols, nlines, DOTS_MAX_LINES);
    b->rows = rows;
    b->cols = cols;
    b->nlines = (int)nlines;
    b->nboxes = rows * cols;
    for (int l = 0; l < b->nlines; l++)
        b->line_nboxes[l] = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            int box = i * cols + j;
            int sides[4] = {dots_hline(b, i, j), dots_hline(b, i + 1, j),
                            dots_vline(b, i, j), dots_vline(b, i, j + 1)};
            for (int s = 0; s < 4; s++) {
                int l = sides[s];
                b->box_line[box][s] = l;
                b->line_box[l][b->line_nboxes[l]++] = box;
            }
        }

    /* Symmetries: optional transpose (square boards only), then optional
     * flips of each axis. Identity comes first. */
    int ymax = 2 * rows, xmax = 2 * cols;
    b->ntransforms = 0;
    for (int swap = 0; swap <= (rows == cols); swap++)
        for (int fy = 0; fy <= 1; fy++)
            for (int fx = 0; fx <= 1; fx++) {
                uint8_t *perm = b->transform[b->ntransforms++];
                for (int l = 0; l < b->nlines; l++) {
                    int y, x;
                    line_point(b, l, &y, &x);
                    if (swap) {
                        int t = y;
                        y = x;
                        x = t;
                    }
                    if (fy)
                        y = ymax - y;
                    if (fx)
                        x = xmax - x;
                    perm[l] = (uint8_t)point_line(b, y, x);
                }
            }
    return RDB_OK;
}

void dots_line_name(const dots_board *b, int line, char *buf)
{
    int y, x;
    line_point(b, line, &y, &x);
    if (y % 2 == 0)
        snprintf(buf, 32, "h%d,%d", y / 2, (x - 1) / 2);
    else
        snprintf(buf, 32, "v%d,%d", (y - 1) / 2, x / 2);
}

int dots_parse_line_name(const dots_board *b, const char *name)
{
    /* kind letter, row, comma, column: digits only, so that no number can
     * wrap into a small one ("h4294967296,0" is not h0,0) */
    const char *comma = strchr(name, ',');
    if ((name[0] != 'h' && name[0] != 'v') || !comma || comma - name > 12)
        return -1;
    char row[16];
    memcpy(row, name + 1, (size_t)(comma - name - 1));
    row[comma - name - 1] = '\0';
    int i, j;
    if (!isdigit((unsigned char)row[0]) || !isdigit((unsigned char)comma[1]) ||
        rdb_parse_int(row, 0, DOTS_MAX_LINES, &i) != 0 ||
        rdb_parse_int(comma + 1, 0, DOTS_MAX_LINES, &j) != 0)
        return -1;
    if (name[0] == 'h' && i <= b->rows && j < b->cols)
        return dots_hline(b, i, j);
    if (name[0] == 'v' && i < b->rows && j <= b->cols)
        return dots_vline(b, i, j);
    return -1;
}

uint64_t dots_all_lines(const dots_board *b)
{
    return b->nlines == 64 ? ~0ULL : (1ULL << b->nlines) - 1;
}

uint64_t dots_border_lines(const dots_board *b)
{
    uint64_t m = 0;
    for (int j = 0; j < b->cols; j++)
        m |= 1ULL << dots_hline(b, 0, j) | 1ULL << dots_hline(b, b->rows, j);
    for (int i = 0; i < b->rows; i++)
        m |= 1ULL << dots_vline(b, i, 0) | 1ULL << dots_vline(b, i, b->cols);
    return m;
}

uint64_t dots_icelandic_lines(const dots_board *b)
{
    uint64_t m = 0;
    for (int j = 0; j < b->cols; j++)
        m |= 1ULL << dots_hline(b, b->rows, j);
    for (int i = 0; i < b->rows; i++)
        m |= 1ULL << dots_vline(b, i, 0);
    return m;
}

uint64_t dots_transform_lines(const dots_board *b, int t, uint64_t lines)
{
    uint64_t out = 0;
    for (int l = 0; l < b->nlines; l++)
        if (lines >> l & 1)
            out |= 1ULL << b->transform[t][l];
    return out;
}

int dots_boxes_completed(const dots_board *b, uint64_t drawn, int line)
{
    assert(!(drawn >> line & 1));
    uint64_t after = drawn | 1ULL << line;
    int n = 0;
    for (int k = 0; k < b->line_nboxes[line]; k++) {
        const int *s = b->box_line[b->line_box[line][k]];
        uint64_t m = 1ULL << s[0] | 1ULL << s[1] | 1ULL << s[2] | 1ULL << s[3];
        n += (after & m) == m;
    }
    return n;
}

int dots_variant_lines(const dots_board *b, const char *variant, uint64_t *lines)
{
    if (strcmp(variant, "empty") == 0)
        *lines = 0;
    else if (strcmp(variant, "swedish") == 0)
        *lines = dots_border_lines(b);
    else if (strcmp(variant, "icelandic") == 0)
        *lines = dots_icelandic_lines(b);
    else
        return -1;
    return 0;
}
