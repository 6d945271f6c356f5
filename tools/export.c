/*
 * export.c — `retrodb export`: every stored position of a database's kept
 * levels with its value, one per line, as CSV or JSON lines, for an engine
 * or a web page to read as an opening book.
 *
 * The walk is the engine's (engine/export.h); this file only chooses the
 * levels, formats the records and, with --best, asks the probe for the
 * values of each position's moves. Records are formatted by hand into a
 * large buffer rather than by printf, since an export writes hundreds of
 * millions of them. The fields, in this order (retrodb(1), EXPORT):
 *
 *   Dots-and-Boxes  lines (one '0'/'1' per line id), drawn (the names of
 *                   the drawn lines), value, loony (databases with loony
 *                   analysis), best (with --best)
 *   Cram            cells (one '0'/'1' per cell r*C + c), nimber, best
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

#include "common/fsutil.h"
#include "common/human.h"
#include "common/job.h"
#include "common/number.h"
#include "common/path.h"
#include "engine/export.h"
#include "game.h"
#include "retrodb/position.h"
#include "retrodb/probe.h"

enum {
    OPT_FORMAT = 1,
    OPT_OUTPUT,
    OPT_MIN_OPEN,
    OPT_MAX_OPEN,
    OPT_LEVELS,
    OPT_BEST,
    OPT_ALL_IMAGES,
    OPT_MEMORY
};

static const rdb_tool_option export_options[] = {
    {RDB_OPT_DIR, "dir", 'd', "DIR", "the database (required; its build finished)"},
    {OPT_FORMAT, "format", 'f', "FORMAT",
     "csv (a header line, then a line per position; the\n"
     "default) or jsonl (one JSON object per line)"},
    {OPT_OUTPUT, "output", 'o', "FILE", "write to FILE instead of standard output"},
    {OPT_MIN_OPEN, "min-open", 0, "N",
     "only positions with at least N open lines (free\n"
     "cells): an opening book, near the start, has many"},
    {OPT_MAX_OPEN, "max-open", 0, "N", "only positions with at most N open lines (free cells)"},
    {OPT_LEVELS, "levels", 0, "A-B",
     "only levels A to B (lines drawn beyond the start,\n"
     "cells covered, as `info` numbers them); A: one level"},
    {OPT_BEST, "best", 'b', NULL,
     "add the best moves: the lines whose move has the\n"
     "position's value (Cram: the dominoes to nimber 0)"},
    {OPT_ALL_IMAGES, "all-images", 'a', NULL,
     "every position a stored one stands for (mirror\n"
     "images, rotations, interchangeable lines swapped),\n"
     "each once, not only the stored (canonical) ones"},
    {OPT_MEMORY, "memory", 'm', "MB",
     "with --best, hold the values in memory when they fit\n"
     "in MB (default 2048); else read from the files, slower"},
    {RDB_OPT_QUIET, "quiet", 'q', NULL, "no progress and no summary on stderr"},
    {0, 0, 0, 0, 0}};

const rdb_tool_command rdb_export_command = {
    "export",
    "--dir DIR [--format csv|jsonl] [--output FILE] [--best] [--all-images] ...",
    "Write the positions a database stores, in the levels it kept, with their\n"
    "values: one line each, as CSV or JSON lines (the fields are in\n"
    "retrodb(1), EXPORT). Dots-and-Boxes: the lines as a '0'/'1' string in\n"
    "line-id order and as names, the value for the player to move, the loony\n"
    "mark; Cram: the covered cells as a '0'/'1' string and the nimber.",
    export_options};

typedef struct {
    const char *dir, *output;
    int jsonl, best, all_images, quiet;
    int min_open, max_open, level_lo, level_hi;
    long memory_mb;
} export_args;

/* 0, or the exit status after a message (-1: help printed). */
static int parse_export(int argc, char **argv, export_args *a)
{
    const rdb_tool_command *cmd = &rdb_export_command;
    memset(a, 0, sizeof *a);
    a->max_open = a->level_hi = RDB_MAX_BITS;
    a->memory_mb = 2048;
    rdb_tool_args args;
    rdb_tool_args_init(&args, cmd, argc, argv);
    int id;
    const char *v;
    long n;
    while ((id = rdb_tool_next_option(&args, &v)) > 0) {
        switch (id) {
        case RDB_OPT_DIR:
            a->dir = v;
            break;
        case OPT_FORMAT:
            if (strcmp(v, "csv") == 0)
                a->jsonl = 0;
            else if (strcmp(v, "jsonl") == 0)
                a->jsonl = 1;
            else
                return rdb_tool_bad(cmd, "unknown format '%s' (csv or jsonl)", v);
            break;
        case OPT_OUTPUT:
            a->output = v;
            break;
        case OPT_MIN_OPEN:
        case OPT_MAX_OPEN:
            if (rdb_parse_long(v, 0, RDB_MAX_BITS, &n))
                return rdb_tool_bad(cmd, "bad --%s '%s' (want 0..%d)",
                                    id == OPT_MIN_OPEN ? "min-open" : "max-open", v, RDB_MAX_BITS);
            *(id == OPT_MIN_OPEN ? &a->min_open : &a->max_open) = (int)n;
            break;
        case OPT_LEVELS: {
            char lo[32], hi[32];
            const char *dash = strchr(v, '-');
            size_t len = dash ? (size_t)(dash - v) : strlen(v);
            long l, h;
            if (len >= sizeof lo || (dash && strlen(dash + 1) >= sizeof hi))
                return rdb_tool_bad(cmd, "bad --levels '%s' (want A-B or A, levels 0..%d)", v,
                                    RDB_MAX_BITS);
            memcpy(lo, v, len);
            lo[len] = '\0';
            snprintf(hi, sizeof hi, "%s", dash ? dash + 1 : lo);
            if (rdb_parse_long(lo, 0, RDB_MAX_BITS, &l) || rdb_parse_long(hi, 0, RDB_MAX_BITS, &h) ||
                l > h)
                return rdb_tool_bad(cmd, "bad --levels '%s' (want A-B or A, levels 0..%d)", v,
                                    RDB_MAX_BITS);
            a->level_lo = (int)l;
            a->level_hi = (int)h;
            break;
        }
        case OPT_BEST:
            a->best = 1;
            break;
        case OPT_ALL_IMAGES:
            a->all_images = 1;
            break;
        case OPT_MEMORY:
            if (rdb_parse_long(v, 0, 1L << 30, &n))
                return rdb_tool_bad(cmd, "bad --memory '%s' (want megabytes, 0..%ld)", v, 1L << 30);
            a->memory_mb = n;
            break;
        case RDB_OPT_QUIET:
            a->quiet = 1;
            break;
        }
    }
    if (id < 0)
        return rdb_tool_args_exit(id) == 0 ? -1 : 2;
    if (rdb_tool_args_left(&args) > 0)
        return rdb_tool_bad(cmd, "unexpected argument '%s'", argv[args.next]);
    if (!a->dir)
        return rdb_tool_bad(cmd, "which database? (--dir DIR)");
    if (a->min_open > a->max_open)
        return rdb_tool_bad(cmd, "--min-open %d is more than --max-open %d", a->min_open,
                            a->max_open);
    return 0;
}

/* The output: records are formatted into buf and written in large blocks. */
#define OUT_BUFFER (1u << 20)
#define OUT_RECORD_MAX 8192 /* more than any record: 112 dominoes of 14 bytes */

typedef struct {
    FILE *f;
    const char *name;        /* for messages: the file, or "standard output" */
    char temp[RDB_PATH_MAX + 32]; /* a regular file is written here (its name and
                                     ".<pid>.tmp"), then renamed */
    char *buf;
    size_t n;
    int failed_errno;        /* the first write's error, or 0 */

    int cram, jsonl, loony;
    int nbits;               /* characters of the '0'/'1' string */
    char names[64][16];      /* Dots-and-Boxes: each line's name */
    unsigned char namelen[64];
    const rdb_db *db;
    const char *dir;

    rdb_probe *probe;        /* --best */
    int best_known[RDB_MAX_BITS + 1]; /* per level: whether its moves' values are stored */
    rdb_move_values mv;
    rdb_cram_answer ca;
} writer;

static void flush_out(writer *w)
{
    if (w->n && !w->failed_errno && fwrite(w->buf, 1, w->n, w->f) != w->n)
        w->failed_errno = errno ? errno : EIO;
    w->n = 0;
}

static inline void put(writer *w, const char *s, size_t len)
{
    memcpy(w->buf + w->n, s, len);
    w->n += len;
}

static inline void put_c(writer *w, char c)
{
    w->buf[w->n++] = c;
}

static inline void put_int(writer *w, int v)
{
    char tmp[12];
    int k = 0;
    unsigned u = v < 0 ? (unsigned)-v : (unsigned)v;
    if (v < 0)
        put_c(w, '-');
    do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (k)
        put_c(w, tmp[--k]);
}

/* The board position as one '0'/'1' per bit, bit 0 first. */
static void put_bits(writer *w, uint64_t board)
{
    char *p = w->buf + w->n;
    for (int i = 0; i < w->nbits; i++)
        p[i] = (char)('0' + (board >> i & 1));
    w->n += (size_t)w->nbits;
}

/* Names of the lines in mask, separated by a space (CSV) or as JSON
 * strings separated by a comma. */
static void put_names(writer *w, uint64_t mask)
{
    int first = 1;
    for (; mask; mask &= mask - 1) {
        int l = __builtin_ctzll(mask);
        if (!first)
            put_c(w, w->jsonl ? ',' : ' ');
        first = 0;
        if (w->jsonl)
            put_c(w, '"');
        put(w, w->names[l], w->namelen[l]);
        if (w->jsonl)
            put_c(w, '"');
    }
}

/* "(r,c)-(r,c)" */
static void put_domino(writer *w, const int cell[2][2])
{
    for (int k = 0; k < 2; k++) {
        put(w, k ? "-(" : "(", k ? 2 : 1);
        put_int(w, cell[k][0]);
        put_c(w, ',');
        put_int(w, cell[k][1]);
        put_c(w, ')');
    }
}

static void csv_header(writer *w)
{
    if (w->cram) {
        put(w, "cells,nimber", 12);
    } else {
        put(w, "lines,drawn,value", 17);
        if (w->loony)
            put(w, ",loony", 6);
    }
    if (w->probe)
        put(w, ",best", 5);
    put_c(w, '\n');
}

/* The best moves, or why they are not known. */
static rdb_status put_best(writer *w, const rdb_export_position *p, rdb_error *err)
{
    if (!w->best_known[p->level]) {
        put(w, w->jsonl ? ",\"best\":null" : ",?", w->jsonl ? 12 : 2);
        return RDB_OK;
    }
    put(w, w->jsonl ? ",\"best\":[" : ",\"", w->jsonl ? 9 : 2);
    int value;
    if (w->cram) {
        rdb_status st = rdb_probe_cram_moves(w->probe, p->board, &w->ca, err);
        if (st != RDB_OK)
            return st;
        value = w->ca.nimber;
        int first = 1;
        for (int i = 0; i < w->ca.nmoves; i++) {
            if (w->ca.move_nimber[i] != 0)
                continue;
            if (!first)
                put_c(w, w->jsonl ? ',' : ' ');
            first = 0;
            if (w->jsonl)
                put_c(w, '"');
            put_domino(w, (const int(*)[2])w->ca.cell[i]);
            if (w->jsonl)
                put_c(w, '"');
        }
    } else {
        rdb_status st = rdb_probe_move_values(w->probe, p->board, &w->mv, err);
        if (st != RDB_OK)
            return st;
        value = w->mv.value;
        uint64_t best = 0;
        for (int i = 0; i < w->mv.nmoves; i++)
            if (w->mv.moves[i].value == value)
                best |= 1ULL << w->mv.moves[i].id;
        put_names(w, best);
    }
    put_c(w, w->jsonl ? ']' : '"');
    /* the walk and the probe read the same files by different routes */
    if (value != p->value)
        return rdb_fail(err, RDB_E_CORRUPT,
                        "the database in '%s' gives one position two values (%d stored, %d "
                        "looked up): an internal error",
                        w->dir, p->value, value);
    return RDB_OK;
}

/* rdb_export_fn: one record. */
static rdb_status write_record(void *ctx, const rdb_export_position *p, rdb_error *err)
{
    writer *w = ctx;
    if (w->n > OUT_BUFFER - OUT_RECORD_MAX)
        flush_out(w);
    if (w->failed_errno)
        return rdb_fail(err, RDB_E_IO, "cannot write '%s': %s", w->name,
                        strerror(w->failed_errno));
    const size_t start = w->n;
    if (w->jsonl)
        put(w, w->cram ? "{\"cells\":\"" : "{\"lines\":\"", 10);
    put_bits(w, p->board);
    if (w->cram) {
        put(w, w->jsonl ? "\",\"nimber\":" : ",", w->jsonl ? 11 : 1);
        put_int(w, p->value);
    } else {
        put(w, w->jsonl ? "\",\"drawn\":[" : ",\"", w->jsonl ? 11 : 2);
        put_names(w, p->board);
        put(w, w->jsonl ? "],\"value\":" : "\",", w->jsonl ? 10 : 2);
        put_int(w, p->value);
        if (w->loony) {
            const char *m = p->mark == RDB_LOONY_MOVER ? "v" : p->mark == RDB_LOONY_OPPONENT ? "^" : "";
            put(w, w->jsonl ? ",\"loony\":\"" : ",", w->jsonl ? 10 : 1);
            put(w, m, strlen(m));
            if (w->jsonl)
                put_c(w, '"');
        }
    }
    if (w->probe) {
        rdb_status st = put_best(w, p, err);
        if (st != RDB_OK) {
            w->n = start; /* no half record in the output */
            return st;
        }
    }
    if (w->jsonl)
        put_c(w, '}');
    put_c(w, '\n');
    return RDB_OK;
}

/* The kept levels of lo..hi as "0-5 9" on f, or "none". */
static void print_levels(FILE *f, const rdb_export *ex, int lo, int hi, int kept)
{
    int any = 0;
    for (int l = lo; l <= hi; l++) {
        if (rdb_export_level_kept(ex, l) != kept)
            continue;
        int e = l;
        while (e + 1 <= hi && rdb_export_level_kept(ex, e + 1) == kept)
            e++;
        fprintf(f, e > l ? "%s%d-%d" : "%s%d", any ? " " : "", l, e);
        any = 1;
        l = e;
    }
    if (!any)
        fprintf(f, "none");
}

/* Set up --best: the probe, the stored values in memory when they fit,
 * and which levels have their moves' values stored (a level whose moves
 * lead into a level not kept would need a search per position). */
static int open_best(writer *w, const export_args *a, const rdb_export *ex)
{
    rdb_error err;
    rdb_status st = rdb_probe_open(a->dir, &w->probe, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    st = rdb_probe_preload(w->probe, (uint64_t)a->memory_mb << 20, &err);
    if (st != RDB_OK && st != RDB_E_NOMEM)
        return rdb_tool_report(st, &err);
    if (st == RDB_E_NOMEM && !a->quiet)
        fprintf(stderr, "export: %s; reading the moves from the files\n", err.msg);
    const int nbits = w->db->lay.nbits, step = w->db->game->move_bits;
    for (int l = 0; l <= nbits; l++)
        w->best_known[l] = l + step > nbits || rdb_export_level_kept(ex, l + step);
    return 0;
}

/* The output: a file is written under a temporary name beside it and
 * renamed when the export has finished, so that a failure, a full disk or
 * a kill never leaves a half export under its name (a kill leaves the
 * temporary FILE.<pid>.tmp). A pipe or a device (--output may be either)
 * is written as it is. */
static int open_output(writer *w, const char *path)
{
    w->temp[0] = '\0';
    if (!path) {
        w->f = stdout;
        w->name = "standard output";
        return 0;
    }
    w->name = path;
    struct stat sb;
    const int special = stat(path, &sb) == 0 && !S_ISREG(sb.st_mode);
    if (!special) {
        rdb_temp_name(path, w->temp, sizeof w->temp);
        w->f = fopen(w->temp, "w");
    } else {
        w->f = fopen(path, "w");
    }
    if (!w->f) {
        w->temp[0] = '\0';
        return fprintf(stderr, "retrodb: cannot open '%s': %s\n", path, strerror(errno)), 1;
    }
    return 0;
}

/* A finished export's file made durable under its name. */
static rdb_status commit_output(writer *w, rdb_error *err)
{
    if (!w->temp[0])
        return RDB_OK;
    if (fsync(fileno(w->f)) != 0)
        return rdb_fail_errno(err, RDB_E_IO, "cannot write '%s'", w->name);
    if (fclose(w->f) != 0) {
        w->f = NULL;
        return rdb_fail_errno(err, RDB_E_IO, "cannot write '%s'", w->name);
    }
    w->f = NULL;
    if (rename(w->temp, w->name) != 0)
        return rdb_fail_errno(err, RDB_E_IO, "cannot rename '%s' to '%s'", w->temp, w->name);
    w->temp[0] = '\0';
    return rdb_fsync_parent(w->name, err);
}

int rdb_cmd_export(int argc, char **argv)
{
    export_args a;
    int rc = parse_export(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    rdb_error err;
    rdb_export *ex;
    rdb_status st = rdb_export_open(a.dir, &ex, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    const rdb_db *db = rdb_export_db(ex);
    const int nbits = db->lay.nbits;
    /* levels and open bits are two views of one number: open = nbits - level */
    int lo = a.level_lo, hi = a.level_hi > nbits ? nbits : a.level_hi;
    if (nbits - a.max_open > lo)
        lo = nbits - a.max_open;
    if (nbits - a.min_open < hi)
        hi = nbits - a.min_open;

    writer *w = calloc(1, sizeof *w);
    char *buf = malloc(OUT_BUFFER);
    if (!w || !buf) {
        free(w);
        free(buf);
        rdb_export_close(ex);
        return fprintf(stderr, "retrodb: out of memory\n"), 1;
    }
    w->buf = buf;
    w->db = db;
    w->dir = a.dir;
    w->cram = db->params.game == RDB_GAME_CRAM;
    w->jsonl = a.jsonl;
    w->loony = db->params.loony;
    w->nbits = w->cram ? db->params.rows * db->params.cols
                       : (db->params.rows + 1) * db->params.cols +
                             db->params.rows * (db->params.cols + 1);
    for (int l = 0; !w->cram && l < w->nbits; l++) {
        if (rdb_dots_line_name(db->params.rows, db->params.cols, l, w->names[l],
                               sizeof w->names[l], &err) != RDB_OK)
            break; /* cannot happen: every line of the board has a name */
        w->namelen[l] = (unsigned char)strlen(w->names[l]);
    }
    if (a.best)
        rc = open_best(w, &a, ex);
    if (!rc)
        rc = open_output(w, a.output);
    if (rc)
        goto done;

    const uint64_t stored = lo <= hi ? rdb_export_stored(ex, lo, hi) : 0;
    /* a quiet database's export walks every canonical position, valuing
     * those it does not store: say how many it does */
    uint64_t quiet = 0;
    for (int l = lo; db->sparse && l <= hi; l++) {
        rdb_slice *slices;
        int ns = rdb_db_level_slices(db, l, &slices);
        for (int i = 0; i < ns; i++)
            quiet += slices[i].size;
        free(slices);
    }
    if (!a.quiet) {
        char h[RDB_HUMAN_MAX], hq[RDB_HUMAN_MAX];
        fprintf(stderr, "export: %s %dx%d in '%s', levels ", db->game->name, db->params.rows,
                db->params.cols, a.dir);
        print_levels(stderr, ex, lo, hi, 1);
        if (db->sparse)
            fprintf(stderr, " (%s; %s positions, valued from the %s quiet ones stored)",
                    db->game->level_name, rdb_human_count(stored, h, sizeof h),
                    rdb_human_count(quiet, hq, sizeof hq));
        else
            fprintf(stderr, " (%s; %s stored positions)", db->game->level_name,
                    rdb_human_count(stored, h, sizeof h));
        int deleted = 0;
        for (int l = lo; l <= hi; l++)
            deleted |= !rdb_export_level_kept(ex, l);
        if (deleted) {
            fprintf(stderr, "; not kept: ");
            print_levels(stderr, ex, lo, hi, 0);
        }
        fprintf(stderr, "\n");
        if (a.best) {
            int unknown = 0;
            for (int l = lo; l <= hi; l++)
                unknown |= rdb_export_level_kept(ex, l) && !w->best_known[l];
            if (unknown)
                fprintf(stderr, "export: the moves of the highest kept level lead into a level "
                                "not kept: their best moves are written as unknown\n");
        }
    }
    if (!a.jsonl)
        csv_header(w);
    rdb_tool_catch_signals();
    const double t0 = rdb_now();
    rdb_export_counts counts = {0, 0};
    if (lo <= hi) {
        rdb_export_options opt = {.min_level = lo, .max_level = hi, .all_images = a.all_images,
                                  .progress = !a.quiet};
        st = rdb_export_run(ex, &opt, write_record, w, &counts, &err);
    }
    flush_out(w);
    if (st == RDB_OK && !w->failed_errno && fflush(w->f) != 0)
        w->failed_errno = errno ? errno : EIO;
    if (st == RDB_OK && w->failed_errno)
        st = rdb_fail(&err, RDB_E_IO, "cannot write '%s': %s", w->name, strerror(w->failed_errno));
    if (st == RDB_OK)
        st = commit_output(w, &err);
    if (st != RDB_OK) {
        rc = rdb_tool_report(st, &err);
        goto done;
    }
    if (!a.quiet) {
        double s = rdb_now() - t0;
        char h1[RDB_HUMAN_MAX], h2[RDB_HUMAN_MAX], h3[RDB_HUMAN_MAX];
        fprintf(stderr, "export: %s written from %s %s in %s (%.1f M positions/s)\n",
                rdb_human_plural(counts.given, "position", h1, sizeof h1),
                rdb_human_count(counts.stored, h2, sizeof h2), db->sparse ? "canonical" : "stored",
                rdb_human_duration(s, h3, sizeof h3), s > 0 ? (double)counts.given / s / 1e6 : 0.0);
    }
done:
    if (w->f && w->f != stdout)
        fclose(w->f);
    if (w->temp[0]) /* unfinished: nothing is left under the name */
        unlink(w->temp);
    rdb_probe_close(w->probe);
    free(w->buf);
    free(w);
    rdb_export_close(ex);
    return rc;
}
