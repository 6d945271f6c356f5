/*
 * dots_position.c — the Dots-and-Boxes half of the public position API
 * (retrodb/position.h): diagrams and line names for programs that link the
 * library, on top of the board and diagram code the tool uses. Each call
 * sets up the board afresh (a few microseconds): these are for reading a
 * user's input, not for a search's inner loop.
 */
#include "retrodb/position.h"

#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "dots/dots_board.h"
#include "dots/dots_diagram.h"

rdb_status rdb_dots_parse_diagram(const char *text, const char *source, int *rows, int *cols,
                                  uint64_t *lines, rdb_error *err)
{
    *rows = *cols = 0;
    *lines = 0;
    if (!text)
        return rdb_fail(err, RDB_E_INPUT, "no diagram (NULL text)");
    dots_diagram d;
    rdb_status st = dots_diagram_parse(text, source ? source : "diagram", &d, err);
    if (st != RDB_OK)
        return st;
    *rows = d.rows;
    *cols = d.cols;
    *lines = d.drawn;
    return RDB_OK;
}

/* The message for a name that is no line of board b: which names it has. */
static rdb_status not_a_line(const dots_board *b, const char *name, size_t len, rdb_error *err)
{
    return rdb_fail(err, RDB_E_INPUT,
                    "'%.*s' is not a line of the %dx%d board: its lines are h<i>,<j> with "
                    "i 0..%d, j 0..%d and v<i>,<j> with i 0..%d, j 0..%d",
                    len > 40 ? 40 : (int)len, name, b->rows, b->cols, b->rows, b->cols - 1,
                    b->rows - 1, b->cols);
}

rdb_status rdb_dots_parse_lines(int rows, int cols, const char *names, uint64_t *lines,
                                rdb_error *err)
{
    *lines = 0;
    dots_board b;
    rdb_status st = dots_board_init(&b, rows, cols, err);
    if (st != RDB_OK)
        return st;
    if (!names)
        return rdb_fail(err, RDB_E_INPUT, "no list of line names (NULL)");
    uint64_t set = 0;
    for (const char *p = names;;) {
        p += strspn(p, " \t\r\n\v\f");
        if (!*p)
            break;
        size_t len = strcspn(p, " \t\r\n\v\f");
        /* a longer token is no line name; the parser wants it on its own */
        char name[RDB_LINE_NAME_MAX];
        if (len >= sizeof name)
            return not_a_line(&b, p, len, err);
        memcpy(name, p, len);
        name[len] = '\0';
        int line = dots_parse_line_name(&b, name);
        if (line < 0)
            return not_a_line(&b, p, len, err);
        if (set >> line & 1)
            return rdb_fail(err, RDB_E_INPUT, "line %s is named twice", name);
        set |= 1ULL << line;
        p += len;
    }
    *lines = set;
    return RDB_OK;
}

rdb_status rdb_dots_line_id(int rows, int cols, const char *name, int *line, rdb_error *err)
{
    *line = -1;
    dots_board b;
    rdb_status st = dots_board_init(&b, rows, cols, err);
    if (st != RDB_OK)
        return st;
    if (!name)
        return rdb_fail(err, RDB_E_INPUT, "no line name (NULL)");
    int l = strlen(name) < RDB_LINE_NAME_MAX ? dots_parse_line_name(&b, name) : -1;
    if (l < 0)
        return not_a_line(&b, name, strlen(name), err);
    *line = l;
    return RDB_OK;
}

rdb_status rdb_dots_line_name(int rows, int cols, int line, char *buf, size_t size,
                              rdb_error *err)
{
    if (buf && size > 0)
        buf[0] = '\0';
    dots_board b;
    rdb_status st = dots_board_init(&b, rows, cols, err);
    if (st != RDB_OK)
        return st;
    if (line < 0 || line >= b.nlines)
        return rdb_fail(err, RDB_E_INPUT, "line %d is not a line of the %dx%d board (0..%d)",
                        line, rows, cols, b.nlines - 1);
    char name[32];
    dots_line_name(&b, line, name);
    if (!buf || strlen(name) >= size)
        return rdb_fail(err, RDB_E_INPUT, "a buffer of %zu bytes cannot hold line name '%s'",
                        buf ? size : 0, name);
    memcpy(buf, name, strlen(name) + 1);
    return RDB_OK;
}
