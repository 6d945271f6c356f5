/*
 * cram_ledger.c — the lines of a Cram solve's ledger: parsing and
 * formatting them (the file itself: common/ledger_file.h); see
 * cram_ledger.h.
 */
#define _GNU_SOURCE
#include "cram/cram_ledger.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ledger_file.h"
#include "common/number.h"

/* Seconds an answer may have taken: a thousand years is plenty, and keeps
 * every line short. */
#define MAX_SECONDS 3.2e10

/* Room for one more entry. */
static rdb_status grow(cram_ledger *l, rdb_error *err)
{
    void *entry = l->entry;
    rdb_status st = rdb_ledger_room(&entry, &l->cap, l->n, sizeof *l->entry, l->path, err);
    l->entry = entry;
    return st;
}

/* 32 hex digits: a set of 128 cells. */
static int parse_set(const char *hex, cram_wset *out)
{
    if (strlen(hex) != 32)
        return -1;
    char half[17];
    uint64_t hi, lo;
    memcpy(half, hex, 16);
    half[16] = '\0';
    if (rdb_parse_u64(half, 16, UINT64_MAX, &hi) || rdb_parse_u64(hex + 16, 16, UINT64_MAX, &lo) ||
        strchr(hex, 'x') || strchr(hex, 'X'))
        return -1;
    *out = (cram_wset)hi << 64 | lo;
    return 0;
}

/* "(r,c)-(r,c)" of two cells of the rows x cols board. */
static int parse_move(const char *text, int rows, int cols, uint8_t cell[2][2])
{
    int r0, c0, r1, c1, used = -1;
    if (sscanf(text, "(%3d,%3d)-(%3d,%3d)%n", &r0, &c0, &r1, &c1, &used) != 4 || used < 0 ||
        text[used] != '\0')
        return -1;
    if (r0 < 0 || r0 >= rows || r1 < 0 || r1 >= rows || c0 < 0 || c0 >= cols || c1 < 0 || c1 >= cols)
        return -1;
    /* a domino: two cells side by side */
    if (abs(r0 - r1) + abs(c0 - c1) != 1)
        return -1;
    cell[0][0] = (uint8_t)r0, cell[0][1] = (uint8_t)c0;
    cell[1][0] = (uint8_t)r1, cell[1][1] = (uint8_t)c1;
    return 0;
}

/* One line: 1 parsed into *e, 0 a comment or another board's line, -1
 * malformed. */
static int parse_entry(const cram_ledger *l, char *text, cram_ledger_entry *e)
{
    while (*text == ' ' || *text == '\t')
        text++;
    if (*text == '\0' || *text == '#')
        return 0;
    char board[32], root[40], move[40], kind[8], value[8], nodes[32], secs[32];
    int used = -1;
    if (sscanf(text, "%31s root=%39s move=%39s %7s %7s nodes=%31s seconds=%31s%n", board, root, move,
               kind, value, nodes, secs, &used) != 7 ||
        used < 0 || text[used + strspn(text + used, " \t")] != '\0')
        return -1;
    int rows, cols;
    if (rdb_parse_board(board, 128, &rows, &cols))
        return -1;
    if (rows != l->rows || cols != l->cols)
        return 0;
    long v;
    if (parse_set(root, &e->root) || parse_move(move, rows, cols, e->cell) ||
        rdb_parse_long(value, 0, 127, &v) || rdb_parse_u64(nodes, 10, UINT64_MAX, &e->nodes))
        return -1;
    if (strcmp(kind, "is") == 0)
        e->is = 1;
    else if (strcmp(kind, "not") == 0)
        e->is = 0;
    else
        return -1;
    char *end;
    errno = 0;
    e->seconds = strtod(secs, &end);
    if (errno || *end || !(e->seconds >= 0 && e->seconds < MAX_SECONDS))
        return -1;
    e->value = (int)v;
    return 1;
}

static int read_line(void *ctx, char *text, int lineno, rdb_error *err)
{
    cram_ledger *l = ctx;
    cram_ledger_entry e;
    int r = parse_entry(l, text, &e);
    if (r <= 0)
        return r;
    rdb_status st = grow(l, err);
    if (st != RDB_OK)
        return (int)st;
    e.lineno = lineno;
    l->entry[l->n++] = e;
    return 0;
}

rdb_status cram_ledger_open(cram_ledger *l, const char *path, int rows, int cols, rdb_error *err)
{
    memset(l, 0, sizeof *l);
    l->rows = rows;
    l->cols = cols;
    rdb_status st = rdb_path_format(l->path, sizeof l->path, err, "%s", path);
    if (st == RDB_OK)
        st = rdb_ledger_read(path, read_line, l, err);
    /* A solve appends to its ledger: one that cannot be (a missing folder,
     * a symbolic link) is refused now rather than at the first answer,
     * which may come hours later. */
    if (st == RDB_OK)
        st = rdb_ledger_writable(path, err);
    if (st != RDB_OK)
        cram_ledger_close(l);
    return st;
}

void cram_ledger_close(cram_ledger *l)
{
    free(l->entry);
    l->entry = NULL;
    l->n = l->cap = 0;
}

rdb_status cram_ledger_add(cram_ledger *l, const cram_ledger_entry *e, rdb_error *err)
{
    char text[256];
    int len = snprintf(text, sizeof text,
             "%dx%d root=%016llx%016llx move=(%d,%d)-(%d,%d) %s %d nodes=%llu seconds=%.1f\n", l->rows,
             l->cols, (unsigned long long)(uint64_t)(e->root >> 64), (unsigned long long)(uint64_t)e->root,
             e->cell[0][0], e->cell[0][1], e->cell[1][0], e->cell[1][1], e->is ? "is" : "not", e->value,
             (unsigned long long)e->nodes, e->seconds);
    /* a line longer than any the parser takes (nodes and seconds beyond
     * what a run reaches) would be cut short and lost */
    if (len < 0 || (size_t)len >= sizeof text || !(e->seconds >= 0 && e->seconds < MAX_SECONDS))
        return rdb_fail(err, RDB_E_INPUT, "a ledger line for '%s' out of range", l->path);
    rdb_status st = grow(l, err);
    if (st == RDB_OK)
        st = rdb_ledger_append(l->path, text, err);
    if (st != RDB_OK)
        return st;
    l->entry[l->n] = *e;
    l->entry[l->n++].lineno = 0;
    return RDB_OK;
}
