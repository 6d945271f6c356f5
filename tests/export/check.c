/*
 * check.c — reads a CSV file written by `retrodb export` on standard input
 * and holds every record against the database through the public probe
 * API alone (retrodb/probe.h, retrodb/position.h), as a program that uses
 * an exported book would: the '0'/'1' string and the line names must be
 * the same position, the value (nimber) and the loony mark those the probe
 * gives, and the best moves exactly the moves whose value is the
 * position's (Cram: the moves to nimber 0). A best field of '?' (moves
 * that lead into a level not kept) is counted, not checked.
 *
 *   export_check DIR < export.csv
 *
 * Prints "N checked, U best unknown, B bad" and exits 1 when a record is
 * wrong or none was read, 2 on a usage or input error. tests/export.sh runs
 * it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "retrodb/position.h"
#include "retrodb/probe.h"

#define MAX_FIELDS 8
#define LINE_MAX_CHARS 65536

static unsigned long bad;

static void report(unsigned long line, const char *what, const char *text)
{
    if (bad++ < 10)
        fprintf(stderr, "export_check: line %lu: %s: %s\n", line, what, text);
}

/* Split a CSV line into fields; quoted fields hold no quotes. Returns the
 * number of fields, or -1. */
static int split(char *s, char **field)
{
    int n = 0;
    for (;;) {
        if (n == MAX_FIELDS)
            return -1;
        if (*s == '"') {
            char *end = strchr(s + 1, '"');
            if (!end)
                return -1;
            *end = '\0';
            field[n++] = s + 1;
            s = end + 1;
        } else {
            field[n++] = s;
            s += strcspn(s, ",");
        }
        if (*s == '\0')
            return n;
        if (*s != ',')
            return -1;
        *s++ = '\0';
    }
}

/* The column of `name` in the header, or -1. */
static int column(char **head, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(head[i], name) == 0)
            return i;
    return -1;
}

/* A '0'/'1' string of exactly n characters as a bit set, or 0 with *ok 0. */
static uint64_t bits_of(const char *s, int n, int *ok)
{
    uint64_t b = 0;
    *ok = (int)strlen(s) == n;
    for (int i = 0; *ok && i < n; i++) {
        if (s[i] != '0' && s[i] != '1')
            *ok = 0;
        b |= (uint64_t)(s[i] == '1') << i;
    }
    return *ok ? b : 0;
}

/* Whether the space-separated words of a and b are the same set (neither
 * list repeats a word). */
static int same_words(const char *a, const char *b)
{
    static char padded[LINE_MAX_CHARS + 2], words[LINE_MAX_CHARS];
    snprintf(padded, sizeof padded, " %s ", a);
    snprintf(words, sizeof words, "%s", b);
    int na = 0, nb = 0;
    for (const char *s = a; *s; s += strcspn(s, " "), s += strspn(s, " "))
        na += *s != ' ';
    for (char *t = strtok(words, " "); t; t = strtok(NULL, " ")) {
        char pat[64];
        snprintf(pat, sizeof pat, " %s ", t);
        if (!strstr(padded, pat))
            return 0;
        nb++;
    }
    return na == nb;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return fprintf(stderr, "usage: export_check DIR < export.csv\n"), 2;
    rdb_error err;
    rdb_probe *p;
    if (rdb_probe_open(argv[1], &p, &err) != RDB_OK)
        return fprintf(stderr, "export_check: %s\n", err.msg), 2;
    rdb_probe_preload(p, 1ull << 30, &err); /* only for speed: the files serve as well */
    rdb_db_info info;
    rdb_probe_info(p, &info);
    const int cram = strcmp(info.game, "cram") == 0;
    const int nbits = cram ? info.rows * info.cols
                           : (info.rows + 1) * info.cols + info.rows * (info.cols + 1);
    static char line[LINE_MAX_CHARS], head_line[LINE_MAX_CHARS];
    char *head[MAX_FIELDS], *f[MAX_FIELDS];
    if (!fgets(head_line, sizeof head_line, stdin))
        return fprintf(stderr, "export_check: no header line\n"), 2;
    head_line[strcspn(head_line, "\n")] = '\0';
    const int nhead = split(head_line, head);
    const int c_pos = column(head, nhead, cram ? "cells" : "lines");
    const int c_drawn = column(head, nhead, "drawn");
    const int c_value = column(head, nhead, cram ? "nimber" : "value");
    const int c_loony = column(head, nhead, "loony");
    const int c_best = column(head, nhead, "best");
    if (c_pos != 0 || c_value < 0 || (!cram && c_drawn != 1) || (c_loony >= 0) != info.loony)
        return fprintf(stderr, "export_check: unexpected header\n"), 2;
    rdb_move_values *mv = malloc(sizeof *mv);
    rdb_cram_answer *ca = malloc(sizeof *ca);
    if (!mv || !ca)
        return 2;
    unsigned long n = 0, unknown = 0, lineno = 1;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        char copy[LINE_MAX_CHARS];
        snprintf(copy, sizeof copy, "%s", line);
        if (split(line, f) != nhead) {
            report(lineno, "not a record", copy);
            continue;
        }
        n++;
        int ok;
        const uint64_t pos = bits_of(f[c_pos], nbits, &ok);
        if (!ok) {
            report(lineno, "bad position string", copy);
            continue;
        }
        char want_best[LINE_MAX_CHARS] = "";
        size_t wn = 0;
        int value;
        if (cram) {
            if (rdb_probe_cram_moves(p, pos, ca, &err) != RDB_OK) {
                report(lineno, err.msg, copy);
                continue;
            }
            value = ca->nimber;
            for (int i = 0; i < ca->nmoves; i++)
                if (ca->move_nimber[i] == 0)
                    wn += (size_t)snprintf(want_best + wn, sizeof want_best - wn,
                                           "%s(%d,%d)-(%d,%d)", wn ? " " : "", ca->cell[i][0][0],
                                           ca->cell[i][0][1], ca->cell[i][1][0], ca->cell[i][1][1]);
        } else {
            uint64_t named;
            if (rdb_dots_parse_lines(info.rows, info.cols, f[c_drawn], &named, &err) != RDB_OK ||
                named != pos) {
                report(lineno, "the line names are not the '0'/'1' string's lines", copy);
                continue;
            }
            if (rdb_probe_move_values(p, pos, mv, &err) != RDB_OK) {
                report(lineno, err.msg, copy);
                continue;
            }
            value = mv->value;
            if (c_loony >= 0) {
                const char *m = mv->mark == RDB_LOONY_MOVER      ? "v"
                                : mv->mark == RDB_LOONY_OPPONENT ? "^"
                                                                 : "";
                if (strcmp(f[c_loony], m) != 0)
                    report(lineno, "wrong loony mark", copy);
            }
            for (int i = 0; i < mv->nmoves; i++) {
                if (mv->moves[i].value != value)
                    continue;
                char name[RDB_LINE_NAME_MAX];
                rdb_dots_line_name(info.rows, info.cols, mv->moves[i].id, name, sizeof name, &err);
                wn += (size_t)snprintf(want_best + wn, sizeof want_best - wn, "%s%s",
                                       wn ? " " : "", name);
            }
        }
        char *end;
        long got = strtol(f[c_value], &end, 10);
        if (*end || end == f[c_value] || got != value)
            report(lineno, "wrong value", copy);
        if (c_best < 0)
            continue;
        if (strcmp(f[c_best], "?") == 0)
            unknown++;
        else if (!same_words(f[c_best], want_best))
            report(lineno, "wrong best moves", copy);
    }
    printf("%lu checked, %lu best unknown, %lu bad\n", n, unknown, bad);
    free(mv);
    free(ca);
    rdb_probe_close(p);
    return bad || n == 0;
}
