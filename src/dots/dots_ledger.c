/*
 * dots_ledger.c — the lines of a proof ledger: parsing and formatting
 * them (the file itself: common/ledger_file.h); see dots_ledger.h.
 */
#define _GNU_SOURCE
#include "dots/dots_ledger.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ledger_file.h"
#include "common/number.h"

#define MAX_LINE 2048

/* Room for one more entry. */
static rdb_status grow(dots_ledger *l, rdb_error *err)
{
    void *entry = l->entry;
    rdb_status st = rdb_ledger_room(&entry, &l->cap, l->n, sizeof *l->entry, l->path, err);
    l->entry = entry;
    return st;
}

/* The set of lines named in a space-separated list ('-': none). */
static int parse_lines(const dots_board *b, char *list, uint64_t *lines)
{
    *lines = 0;
    int names = 0;
    for (char *save = NULL, *name = strtok_r(list, " \t", &save); name;
         name = strtok_r(NULL, " \t", &save), names++) {
        if (strcmp(name, "-") == 0) {
            if (names > 0 || strtok_r(NULL, " \t", &save))
                return -1;   /* '-' stands alone */
            return 0;
        }
        int line = dots_parse_line_name(b, name);
        if (line < 0 || (*lines >> line & 1))
            return -1;
        *lines |= 1ULL << line;
    }
    return names ? 0 : -1;
}

/* One line of the ledger: 1 parsed into *e, 0 a comment or another
 * board's line, -1 malformed. */
static int parse_entry(const dots_ledger *l, char *text, dots_ledger_entry *e)
{
    while (*text == ' ' || *text == '\t')
        text++;
    if (*text == '\0' || *text == '#')
        return 0;
    char board[32], fv[16], op[4], bound[16], nodes[32], secs[32];
    int used = -1;
    if (sscanf(text, "%31s %15s %3s %15s nodes=%31s seconds=%31s lines:%n", board, fv, op, bound,
               nodes, secs, &used) != 6 || used < 0)
        return -1;
    int rows, cols;
    long full, b;
    if (rdb_parse_board(board, 64, &rows, &cols) || rdb_parse_long(fv, -100, 100, &full) ||
        rdb_parse_long(bound, -1000, 1000, &b))
        return -1;
    if (rows != l->board.rows || cols != l->board.cols || full != l->full_value)
        return 0;
    if (strcmp(op, ">=") != 0 && strcmp(op, "<=") != 0)
        return -1;
    char *end;
    errno = 0;
    e->seconds = strtod(secs, &end);
    if (errno || *end || !(e->seconds >= 0))
        return -1;
    if (rdb_parse_u64(nodes, 10, UINT64_MAX, &e->nodes) ||
        parse_lines(&l->board, text + used, &e->lines))
        return -1;
    e->at_least = op[0] == '>';
    e->bound = (int)b;
    return 1;
}

/* The most a position can be worth to either player: its boxes not yet
 * complete, and the full board's value on top (dots_board.h). */
static int most_worth(const dots_ledger *l, uint64_t lines)
{
    const dots_board *b = &l->board;
    int sides[DOTS_MAX_BOXES] = {0}, complete = 0;
    for (uint64_t m = lines; m; m &= m - 1) {
        const int line = __builtin_ctzll(m);
        for (int k = 0; k < b->line_nboxes[line]; k++)
            complete += ++sides[b->line_box[line][k]] == 4;
    }
    return b->nboxes - complete + abs(l->full_value);
}

/* One line of the file (rdb_ledger_read): kept when it is this board's. */
static int read_line(void *ctx, char *text, int lineno, rdb_error *err)
{
    dots_ledger *l = ctx;
    dots_ledger_entry e;
    int r = parse_entry(l, text, &e);
    if (r <= 0)
        return r;
    const int most = most_worth(l, e.lines);
    if (e.at_least ? e.bound > most : e.bound < -most)
        return (int)rdb_fail(err, RDB_E_CORRUPT,
                             "%s:%d: no position with these lines is worth %s %d (at most %d "
                             "either way)",
                             l->path, lineno, e.at_least ? ">=" : "<=", e.bound, most);
    e.lineno = lineno;
    rdb_status st = grow(l, err);
    if (st != RDB_OK)
        return (int)st;
    l->entry[l->n++] = e;
    return 0;
}

rdb_status dots_ledger_open(dots_ledger *l, const char *path, const dots_board *b, int full_value,
                            rdb_error *err)
{
    memset(l, 0, sizeof *l);
    l->board = *b;
    l->full_value = full_value;
    rdb_status st = rdb_path_format(l->path, sizeof l->path, err, "%s", path);
    if (st == RDB_OK)
        st = rdb_ledger_read(path, read_line, l, err);
    if (st != RDB_OK)
        dots_ledger_close(l);
    return st;
}

void dots_ledger_close(dots_ledger *l)
{
    free(l->entry);
    l->entry = NULL;
    l->n = l->cap = 0;
}

rdb_status dots_ledger_refresh(dots_ledger *l, int *added, rdb_error *err)
{
    dots_ledger fresh;
    *added = 0;
    rdb_status st = dots_ledger_open(&fresh, l->path, &l->board, l->full_value, err);
    if (st != RDB_OK)
        return st;
    if (fresh.n > l->n) {
        *added = fresh.n - l->n;
        dots_ledger_close(l);
        *l = fresh;
    } else {
        dots_ledger_close(&fresh);
    }
    return RDB_OK;
}

rdb_status dots_ledger_add(dots_ledger *l, const dots_ledger_entry *e, rdb_error *err)
{
    char text[MAX_LINE + 128], list[MAX_LINE];
    int n = 0;
    for (int line = 0; line < l->board.nlines; line++)
        if (e->lines >> line & 1) {
            char name[32];
            dots_line_name(&l->board, line, name);
            n += snprintf(list + n, sizeof list - (size_t)n, " %s", name);
        }
    if (n == 0)
        snprintf(list, sizeof list, " -");
    snprintf(text, sizeof text, "%dx%d %d %s %d nodes=%llu seconds=%.1f lines:%s\n",
             l->board.rows, l->board.cols, l->full_value, e->at_least ? ">=" : "<=",
             e->bound, (unsigned long long)e->nodes, e->seconds, list);
    rdb_status st = grow(l, err);
    if (st == RDB_OK)
        st = rdb_ledger_append(l->path, text, err);
    if (st != RDB_OK)
        return st;
    l->entry[l->n] = *e;
    l->entry[l->n++].lineno = 0;
    return RDB_OK;
}
