/*
 * cram_board.c — cells, dominoes, symmetries and diagrams of a Cram board;
 * see cram_board.h.
 *
 * Symmetries are built from three generators on cell coordinates: mirror
 * the columns (bit 0 of the transform number), mirror the rows (bit 1), and
 * on a square board swap rows and columns afterwards (bit 2). So transforms
 * 0..3 exist on every board and 4..7 only on squares.
 */
#include "cram/cram_board.h"

#include <assert.h>
#include <string.h>

rdb_status cram_board_init(cram_board *b, int rows, int cols, rdb_error *err)
{
    if (rows < 1 || cols < 1)
        return rdb_fail(err, RDB_E_INPUT, "cram board %dx%d has no cells; rows and columns must be at least 1",
                        rows, cols);
    if ((long)rows * cols > CRAM_MAX_CELLS)
        return rdb_fail(err, RDB_E_INPUT, "cram board %dx%d has %ld cells; at most %d fit", rows, cols,
                        (long)rows * cols, CRAM_MAX_CELLS);
    memset(b, 0, sizeof *b);
    b->rows = rows;
    b->cols = cols;
    b->ncells = rows * cols;

    int n = 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c + 1 < cols; c++) {
            int cell = r * cols + c;
            b->domino_cell[n][0] = (uint8_t)cell;
            b->domino_cell[n][1] = (uint8_t)(cell + 1);
            b->domino[n] = 3ULL << cell;
            n++;
        }
    for (int r = 0; r + 1 < rows; r++)
        for (int c = 0; c < cols; c++) {
            int cell = r * cols + c;
            b->domino_cell[n][0] = (uint8_t)cell;
            b->domino_cell[n][1] = (uint8_t)(cell + cols);
            b->domino[n] = 1ULL << cell | 1ULL << (cell + cols);
            n++;
        }
    assert(n <= CRAM_MAX_DOMINOES);
    b->ndominoes = n;

    b->ntransforms = rows == cols ? 8 : 4;
    for (int t = 0; t < b->ntransforms; t++)
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) {
                int y = t & 2 ? rows - 1 - r : r;
                int x = t & 1 ? cols - 1 - c : c;
                if (t & 4) {
                    int s = y;
                    y = x;
                    x = s;
                }
                b->transform[t][r * cols + c] = (uint8_t)(y * cols + x);
            }
    return RDB_OK;
}

uint64_t cram_board_transform(const cram_board *b, int t, uint64_t cells)
{
    assert(t >= 0 && t < b->ntransforms);
    uint64_t out = 0;
    while (cells) {
        int cell = __builtin_ctzll(cells);
        cells &= cells - 1;
        out |= 1ULL << b->transform[t][cell];
    }
    return out;
}

static int is_trailing_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* A diagram of at most max_cells cells. */
static rdb_status parse_diagram(const char *text, const char *source, int max_cells, int *rows,
                                int *cols, cram_wset *covered, rdb_error *err)
{
    int nrows = 0, width = 0, lineno = 0, first_lineno = 0, blank_after = 0;
    cram_wset cov = 0;

    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *next = e ? e + 1 : p + n;
        while (n > 0 && is_trailing_space(p[n - 1]))
            n--;
        lineno++;
        if (n == 0) {
            /* A blank line ends the diagram; only blank lines may follow. */
            if (nrows > 0)
                blank_after = lineno;
            p = next;
            continue;
        }
        if (blank_after)
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d: blank line %d inside the diagram (rows must be contiguous)",
                            source, lineno, blank_after);
        if (nrows == 0) {
            first_lineno = lineno;
            if (n > (size_t)max_cells)
                return rdb_fail(err, RDB_E_INPUT,
                                "%s: line %d, column %d: row of %zu cells is too long; a board has at most %d cells",
                                source, lineno, max_cells + 1, n, max_cells);
            width = (int)n;
        } else if ((int)n != width) {
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d, column %d: row has %zu cells but the first row (line %d) has %d",
                            source, lineno, (int)n < width ? (int)n + 1 : width + 1, n, first_lineno,
                            width);
        }
        if ((nrows + 1) * width > max_cells)
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d, column 1: the board would have %d cells (%d rows of %d); at most %d fit",
                            source, lineno, (nrows + 1) * width, nrows + 1, width, max_cells);
        for (int x = 0; x < width; x++) {
            char c = p[x];
            if (c == '#')
                cov |= cram_wbit(nrows * width + x);
            else if (c != '.')
                return rdb_fail(err, RDB_E_INPUT,
                                "%s: line %d, column %d: unknown character '%c' (a cell is '.' free or '#' covered)",
                                source, lineno, x + 1, c);
        }
        nrows++;
        p = next;
    }
    if (nrows == 0)
        return rdb_fail(err, RDB_E_INPUT, "%s: no diagram found", source);
    *rows = nrows;
    *cols = width;
    *covered = cov;
    return RDB_OK;
}

rdb_status cram_diagram_parse(const char *text, const char *source, int *rows, int *cols,
                              uint64_t *covered, rdb_error *err)
{
    cram_wset cov;
    rdb_status st = parse_diagram(text, source, CRAM_MAX_CELLS, rows, cols, &cov, err);
    if (st == RDB_OK)
        *covered = (uint64_t)cov;
    return st;
}

rdb_status cram_diagram_parse_wide(const char *text, const char *source, int *rows, int *cols,
                                   cram_wset *covered, rdb_error *err)
{
    return parse_diagram(text, source, CRAM_WIDE_MAX_CELLS, rows, cols, covered, err);
}

void cram_diagram_print(FILE *f, int rows, int cols, uint64_t covered)
{
    cram_diagram_print_wide(f, rows, cols, covered);
}

void cram_diagram_print_wide(FILE *f, int rows, int cols, cram_wset covered)
{
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++)
            fputc(covered >> (r * cols + c) & 1 ? '#' : '.', f);
        fputc('\n', f);
    }
}

int cram_domino_cells(int rows, int cols, int d, int cell[2])
{
    const int nh = rows * (cols - 1);
    if (d < 0)
        return 0;
    if (d < nh) {
        cell[0] = d / (cols - 1) * cols + d % (cols - 1);
        cell[1] = cell[0] + 1;
        return 1;
    }
    d -= nh;
    if (d >= (rows - 1) * cols)
        return 0;
    cell[0] = d;
    cell[1] = d + cols;
    return 1;
}
