/*
 * query_batch.c — `retrodb query --batch`: a stream of positions answered
 * one after the other with one database handle, so that a script pays for
 * one process and warm caches, not one per position.
 *
 * The stream is read a line at a time (no limit on its length). It is
 * either one position a line (a move list, a DBN string, Cram cells; blank
 * lines skipped), or diagrams separated by lines '---', which its first
 * line tells: a Dots-and-Boxes diagram holds dots '+', a Cram diagram is
 * '.' and '#', and a stream that starts with '---' is one of diagrams (so
 * that problem files, whose first line is a number, can be given).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "query.h"

#include "game.h"


/* Whether the first line of the stream starts a diagram (or problem file)
 * rather than a one-line position. */
static int diagram_line(int game, const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (game == RDB_GAME_CRAM) {
        size_t n = strspn(line, ".#");
        return n > 0 && (line[n] == '\0' || line[n] == '\n' || line[n] == '\r' ||
                         line[n] == ' ');
    }
    /* a problem file's first line is its value, which a one-line move
     * list of one action number would read the same: a stream of problem
     * files starts with a line '---' */
    return strchr(line, '+') || line[0] == '#' || strncmp(line, "---", 3) == 0 ||
           ((line[0] == 'A' || line[0] == 'B') && rdb_form_blank(line + 1));
}

/* Parse and answer one position; the worst status so far is *rc. */
static void one(rdb_probe *p, const rdb_query_request *q, const rdb_forms_db *db,
                const char *text, const char *label, long n, int *rc)
{
    rdb_query_position pos = {.game = db->game};
    rdb_error err;
    rdb_status st;
    char source[48];
    snprintf(source, sizeof source, "position %ld", n);
    if (db->game == RDB_GAME_CRAM)
        st = rdb_form_cram_any(db->rows, db->cols, text, source, &pos.cram, NULL, &err);
    else
        st = rdb_form_dots_any(db, text, source, &pos.dots, NULL, &err);
    int r;
    if (st != RDB_OK) {
        if (q->json) {
            rdb_query_json_error(n, label, err.msg);
        } else {
            fprintf(stderr, "retrodb: %s\n", err.msg);
        }
        r = rdb_tool_exit_code(st);
    } else {
        r = rdb_query_answer(p, q, db, &pos, label, n);
    }
    if (r == 1 || (r == 2 && *rc == 0))
        *rc = r;
}

int rdb_query_batch(const rdb_tool_command *cmd, const rdb_query_request *q,
                    const rdb_forms_db *db)
{
    (void)cmd;
    FILE *in = stdin;
    if (q->file && strcmp(q->file, "-") != 0) {
        in = fopen(q->file, "r");
        if (!in)
            return fprintf(stderr, "retrodb: cannot open '%s': %s\n", q->file, strerror(errno)),
                   errno == ENOENT ? 2 : 1;
    }
    rdb_probe *p;
    rdb_error err;
    rdb_status st = rdb_probe_open(q->dir, &p, &err);
    if (st != RDB_OK) {
        if (in != stdin)
            fclose(in);
        return rdb_tool_report(st, &err);
    }
    /* a batch asks anywhere in the database: with every slice in memory a
     * lookup is a few table reads, where from the files each child read
     * can decompress a frame. A database too big for the budget is read
     * from its files as a single query reads it. */
    rdb_error ignored;
    (void)rdb_probe_preload(p, (uint64_t)q->memory_mb << 20, &ignored);
    char *line = NULL, *record = NULL;
    size_t cap = 0, rlen = 0, rcap = 0;
    ssize_t len;
    int rc = 0, diagrams = -1;
    long n = 0;
    while ((len = getline(&line, &cap, in)) >= 0) {
        if (memchr(line, '\0', (size_t)len)) {
            fprintf(stderr, "retrodb: %s: a NUL byte: this is no text\n",
                    q->file ? q->file : "standard input");
            rc = 2;
            break;
        }
        if (diagrams < 0) {
            if (rdb_form_blank(line))
                continue;
            diagrams = diagram_line(db->game, line);
        }
        if (!diagrams) {
            if (rdb_form_blank(line))
                continue;
            line[strcspn(line, "\r\n")] = '\0';
            one(p, q, db, line, line, ++n, &rc);
            fflush(stdout);
            continue;
        }
        int sep = strncmp(line, "---", 3) == 0 && rdb_form_blank(line + 3);
        if (!sep) {
            if (rlen + (size_t)len + 1 > rcap) {
                rcap = 2 * (rlen + (size_t)len + 1);
                char *grown = realloc(record, rcap);
                if (!grown) {
                    fprintf(stderr, "retrodb: out of memory\n");
                    rc = 1;
                    break;
                }
                record = grown;
            }
            memcpy(record + rlen, line, (size_t)len + 1);
            rlen += (size_t)len;
            continue;
        }
        if (rlen && !rdb_form_blank(record)) {
            char label[48];
            snprintf(label, sizeof label, "position %ld", n + 1);
            one(p, q, db, record, label, ++n, &rc);
            fflush(stdout);
        }
        rlen = 0;
    }
    if (ferror(in)) {
        fprintf(stderr, "retrodb: cannot read '%s': %s\n", q->file ? q->file : "standard input",
                strerror(errno));
        rc = 1;
    } else if (diagrams > 0 && rlen && !rdb_form_blank(record)) {
        char label[48];
        snprintf(label, sizeof label, "position %ld", n + 1);
        one(p, q, db, record, label, ++n, &rc);
    }
    free(line);
    free(record);
    rdb_probe_close(p);
    if (in != stdin)
        fclose(in);
    return rc;
}
