/*
 * dots_diagram.c — parsing and printing ASCII diagrams; see dots_diagram.h.
 *
 * The parser first cuts the text into lines, drops blank lines at both ends,
 * then checks every character against the grammar of its grid cell so that
 * each complaint can name the line and column of the input.
 */
#include "dots/dots_diagram.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIAGRAM_LINES 200

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]))
            return 0;
    return 1;
}

rdb_status dots_diagram_parse(const char *text, const char *source,
                              dots_diagram *out, rdb_error *err)
{
    /* Only the diagram's own lines are kept: blank lines around it may be
     * any number, the diagram itself at most MAX_DIAGRAM_LINES. */
    const char *line_start[MAX_DIAGRAM_LINES];
    size_t line_len[MAX_DIAGRAM_LINES];
    int nlines = 0, first_lineno = 0, lineno = 0, last = -1;

    for (const char *p = text; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        while (n > 0 && (p[n - 1] == '\r' || p[n - 1] == ' '))
            n--;
        lineno++;
        int blank = is_blank(p, n);
        if (nlines > 0 || !blank) {
            if (nlines == 0)
                first_lineno = lineno;
            if (nlines == MAX_DIAGRAM_LINES) {
                if (!blank)
                    return rdb_fail(err, RDB_E_INPUT, "%s: line %d: too many lines for a diagram",
                                    source, lineno);
            } else {
                line_start[nlines] = p;
                line_len[nlines] = n;
                nlines++;
            }
            if (!blank)
                last = nlines - 1;
        }
        p = e ? e + 1 : p + strlen(p);
    }
    if (last < 0)
        return rdb_fail(err, RDB_E_INPUT, "%s: no diagram found", source);
    int height = last + 1;
    size_t width = line_len[0];
    if (height < 3 || height % 2 == 0)
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: line %d: a diagram has an odd number of lines (2R+1), at least 3; found %d",
                        source, first_lineno, height);
    if (width < 3 || width % 2 == 0)
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: line %d: a dot row has an odd number of characters (2C+1), at least 3; found %zu",
                        source, first_lineno, width);

    dots_board board;
    rdb_status st = dots_board_init(&board, (height - 1) / 2, (int)(width - 1) / 2, err);
    if (st != RDB_OK)
        return st;
    out->rows = board.rows;
    out->cols = board.cols;
    out->drawn = 0;
    memset(out->owner, ' ', sizeof out->owner);

    for (int y = 0; y < height; y++) {
        int lineno = first_lineno + y;
        const char *s = line_start[y];
        size_t n = line_len[y];
        if (n > width)
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d, column %zu: line is longer than the first dot row (%zu characters)",
                            source, lineno, width + 1, width);
        for (size_t x = 0; x < width; x++) {
            char c = x < n ? s[x] : ' ';
            int col = (int)x + 1;
            if (y % 2 == 0 && x % 2 == 0) {
                if (c != '+')
                    return rdb_fail(err, RDB_E_INPUT,
                                    "%s: line %d, column %d: missing dot '+' (found '%c')",
                                    source, lineno, col, c);
            } else if (y % 2 == 0) {
                if (c == '-')
                    out->drawn |= 1ULL << dots_hline(&board, y / 2, (int)(x - 1) / 2);
                else if (c != ' ')
                    return rdb_fail(err, RDB_E_INPUT,
                                    "%s: line %d, column %d: unknown character '%c' where a horizontal line ('-' or ' ') belongs",
                                    source, lineno, col, c);
            } else if (x % 2 == 0) {
                if (c == '|')
                    out->drawn |= 1ULL << dots_vline(&board, (y - 1) / 2, (int)x / 2);
                else if (c != ' ')
                    return rdb_fail(err, RDB_E_INPUT,
                                    "%s: line %d, column %d: unknown character '%c' where a vertical line ('|' or ' ') belongs",
                                    source, lineno, col, c);
            } else {
                if (isalpha((unsigned char)c))
                    out->owner[((y - 1) / 2) * board.cols + (int)(x - 1) / 2] = c;
                else if (c != ' ')
                    return rdb_fail(err, RDB_E_INPUT,
                                    "%s: line %d, column %d: unknown character '%c' in a box (' ' or a letter)",
                                    source, lineno, col, c);
            }
        }
    }
    return RDB_OK;
}

void dots_diagram_print(FILE *f, const dots_board *b, uint64_t drawn, const char *owner)
{
    for (int y = 0; y <= 2 * b->rows; y++) {
        for (int x = 0; x <= 2 * b->cols; x++) {
            char c;
            if (y % 2 == 0 && x % 2 == 0)
                c = '+';
            else if (y % 2 == 0)
                c = drawn >> dots_hline(b, y / 2, (x - 1) / 2) & 1 ? '-' : ' ';
            else if (x % 2 == 0)
                c = drawn >> dots_vline(b, (y - 1) / 2, x / 2) & 1 ? '|' : ' ';
            else
                c = owner ? owner[((y - 1) / 2) * b->cols + (x - 1) / 2] : ' ';
            fputc(c, f);
        }
        fputc('\n', f);
    }
}

/* Each box column is 6 characters wide: a dot row is "+" then the
 * horizontal line ("-----" or its value centred); a box row is the vertical
 * line ("|" or its value, left-aligned in 3) then the box interior. */
void dots_diagram_print_values(FILE *f, const dots_board *b, uint64_t drawn,
                               const char *owner, const int *value)
{
    dots_diagram_print_scores(f, b, drawn, owner, value, NULL);
}

void dots_diagram_print_scores(FILE *f, const dots_board *b, uint64_t drawn,
                               const char *owner, const int *value, const char *suffix)
{
    char label[DOTS_MAX_LINES][DOTS_LABEL_MAX];
    for (int l = 0; l < b->nlines; l++)
        snprintf(label[l], sizeof label[l], "%d%c", value[l],
                 suffix && suffix[l] ? suffix[l] : '\0');
    dots_diagram_print_labels(f, b, drawn, owner, label);
}

/* A label of up to 3 characters keeps the columns of Wilson's viewer; one
 * of 4 or 5 (a value with marks) takes the spaces around it. */
void dots_diagram_print_labels(FILE *f, const dots_board *b, uint64_t drawn,
                               const char *owner, const char (*label)[DOTS_LABEL_MAX])
{
    for (int y = 0; y <= 2 * b->rows; y++) {
        char row[8 * 64 + 8];
        size_t len = 0;
        for (int j = 0; j <= b->cols; j++) {
            char cell[32];
            int line = y % 2 == 0 ? (j < b->cols ? dots_hline(b, y / 2, j) : -1)
                                  : dots_vline(b, (y - 1) / 2, j);
            const char *text = line >= 0 && !(drawn >> line & 1) ? label[line] : "";
            size_t n = strlen(text);
            if (y % 2 == 0) {
                if (line < 0)
                    snprintf(cell, sizeof cell, "+");
                else if (drawn >> line & 1)
                    snprintf(cell, sizeof cell, "+-----");
                else
                    snprintf(cell, sizeof cell, n <= 3 ? "+ %3.5s " : n == 4 ? "+ %.5s" : "+%.5s",
                             text);
            } else {
                char own = j < b->cols && owner ? owner[((y - 1) / 2) * b->cols + j] : ' ';
                if (drawn >> line & 1)
                    snprintf(cell, sizeof cell, j < b->cols ? "|  %c  " : "|", own);
                else if (j == b->cols)
                    snprintf(cell, sizeof cell, "%.5s", text);
                else
                    snprintf(cell, sizeof cell, n <= 3 ? "%-3s %c " : "%-5.5s%c", text, own);
            }
            size_t m = strlen(cell);
            memcpy(row + len, cell, m);
            len += m;
        }
        while (len > 0 && row[len - 1] == ' ')
            len--;
        row[len] = '\0';
        fprintf(f, "%s\n", row);
    }
}
