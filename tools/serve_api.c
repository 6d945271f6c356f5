/*
 * serve_api.c — the answers of `retrodb serve`: routing a request target,
 * decoding its query parameters, reading the position through the same
 * functions as `query`, and the JSON through query's one writer
 * (rdb_query_write_json). See serve_api.h.
 */
#define _GNU_SOURCE
#include "serve_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "query.h"

#include "common/number.h"
#include "common/text_input.h"
#include "game.h"

/* The page's files: the only files the server ever reads, once. */
static const rdb_serve_file page_files[] = {
    {"/", "index.html", "text/html; charset=utf-8", NULL, 0},
    {"/explorer.js", "explorer.js", "text/javascript; charset=utf-8", NULL, 0},
    {"/explorer.css", "explorer.css", "text/css; charset=utf-8", NULL, 0},
};
#define NPAGE_FILES ((int)(sizeof page_files / sizeof page_files[0]))

static const char json_type[] = "application/json";

/* ---- replies ---- */

static void reply_owned(rdb_serve_reply *r, int status, const char *type, char *body, size_t len)
{
    *r = (rdb_serve_reply){status, type, body, len, 1};
}

/* {"error": message} with the status */
static void reply_error(rdb_serve_reply *r, int status, const char *message)
{
    char *body = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&body, &len);
    if (!out) {
        /* no memory for a message: a fixed one */
        static char fixed[] = "{\"error\":\"out of memory\"}";
        *r = (rdb_serve_reply){500, json_type, fixed, sizeof fixed - 1, 0};
        return;
    }
    fprintf(out, "{\"error\":");
    rdb_tool_json_string_to(out, message);
    fprintf(out, "}\n");
    fclose(out);
    reply_owned(r, status, json_type, body, len);
}

static int status_of(rdb_status st)
{
    switch (st) {
    case RDB_E_INPUT:
        return 400;
    case RDB_E_MISSING:
        return 404;
    default:
        return 500;
    }
}

void rdb_serve_reply_free(rdb_serve_reply *reply)
{
    if (reply->owned)
        free(reply->body);
    reply->body = NULL;
    reply->owned = 0;
}

/* ---- the query string ---- */

enum { P_MOVES, P_DBN, P_CELLS, P_POSITION, P_BOARD, P_PV, NPARAMS };
static const char *const param_name[NPARAMS] = {"moves", "dbn", "cells", "position", "board",
                                                "pv"};

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decode the n bytes at s ('+' is a space, %XX a byte) into a new string;
 * NULL and a message for a bad escape or a NUL byte. */
static char *url_decode(const char *s, size_t n, rdb_error *err)
{
    char *out = malloc(n + 1), *o = out;
    if (!out) {
        rdb_fail(err, RDB_E_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '+') {
            *o++ = ' ';
        } else if (s[i] == '%') {
            /* two hex digits must follow, within the n bytes */
            int hi = i + 2 < n ? hex_digit(s[i + 1]) : -1;
            int lo = i + 2 < n ? hex_digit(s[i + 2]) : -1;
            if (hi < 0 || lo < 0) {
                free(out);
                rdb_fail(err, RDB_E_INPUT, "a bad %%-escape in the query");
                return NULL;
            }
            char c = (char)(hi * 16 + lo);
            if (c == '\0') {
                free(out);
                rdb_fail(err, RDB_E_INPUT, "a NUL byte (%%00) in the query");
                return NULL;
            }
            *o++ = c;
            i += 2;
        } else {
            *o++ = s[i];
        }
    }
    *o = '\0';
    return out;
}

/* Split "k=v&k=v" into the known parameters (decoded, NULL when absent):
 * an unknown or repeated parameter is refused. */
static rdb_status parse_query(const char *q, char *value[NPARAMS], rdb_error *err)
{
    for (int i = 0; i < NPARAMS; i++)
        value[i] = NULL;
    while (q && *q) {
        const char *end = strchr(q, '&');
        size_t n = end ? (size_t)(end - q) : strlen(q);
        if (n) {
            const char *eq = memchr(q, '=', n);
            size_t klen = eq ? (size_t)(eq - q) : n;
            /* a name is %-encoded as a value may be (a client may encode
             * every letter) */
            char *name = url_decode(q, klen, err);
            if (!name)
                return RDB_E_INPUT;
            int k = 0;
            while (k < NPARAMS && strcmp(param_name[k], name) != 0)
                k++;
            if (k == NPARAMS) {
                rdb_fail(err, RDB_E_INPUT,
                         "unknown parameter '%.60s' (moves, dbn, cells, position, board, pv)",
                         name);
                free(name);
                return RDB_E_INPUT;
            }
            free(name);
            if (value[k])
                return rdb_fail(err, RDB_E_INPUT, "parameter '%s' given twice", param_name[k]);
            value[k] = eq ? url_decode(eq + 1, n - klen - 1, err) : strdup("");
            if (!value[k])
                return RDB_E_INPUT;
        }
        q = end ? end + 1 : NULL;
    }
    return RDB_OK;
}

/* ---- the position ---- */

/* board=RxC as query's --board reads it (a Cram position of at most 64
 * cells) */
static int parse_board(const char *s, int *rows, int *cols)
{
    return rdb_parse_board(s, RDB_TOOL_MAX_SIDE, rows, cols) == 0 && *rows * *cols <= 64;
}

static rdb_status read_position(const rdb_serve_site *site, char *const v[NPARAMS],
                                rdb_query_position *pos, rdb_error *err)
{
    const rdb_forms_db *db = &site->db;
    int given = (v[P_MOVES] != NULL) + (v[P_DBN] != NULL) + (v[P_CELLS] != NULL) +
                (v[P_POSITION] != NULL);
    if (given > 1)
        return rdb_fail(err, RDB_E_INPUT, "give the position one way: moves, dbn, cells or position");
    memset(pos, 0, sizeof *pos);
    pos->game = db->game;
    if (db->game == RDB_GAME_CRAM) {
        int rows = db->rows, cols = db->cols;
        if (v[P_BOARD] && !parse_board(v[P_BOARD], &rows, &cols))
            return rdb_fail(err, RDB_E_INPUT, "bad board '%.40s' (RxC, at most 64 cells)",
                            v[P_BOARD]);
        if (v[P_DBN])
            return rdb_fail(err, RDB_E_INPUT, "dbn names Dots-and-Boxes lines; give cells");
        if (v[P_CELLS])
            return rdb_form_cram_cells(rows, cols, v[P_CELLS], "cells", &pos->cram, err);
        if (v[P_POSITION]) {
            rdb_status st =
                rdb_form_cram_any(rows, cols, v[P_POSITION], "position", &pos->cram, NULL, err);
            /* a diagram has its own size: a board beside it must agree */
            if (st == RDB_OK && v[P_BOARD] && (pos->cram.rows != rows || pos->cram.cols != cols))
                return rdb_fail(err, RDB_E_INPUT,
                                "position is a %dx%d diagram, but board says %dx%d",
                                pos->cram.rows, pos->cram.cols, rows, cols);
            return st;
        }
        /* no position: the moves given, or none (the empty board) */
        return rdb_form_cram_moves(rows, cols, v[P_MOVES] ? v[P_MOVES] : "", "moves",
                                   &pos->cram, err);
    }
    if (v[P_CELLS] || v[P_BOARD])
        return rdb_fail(err, RDB_E_INPUT, "cells and board are for Cram tables");
    if (v[P_DBN])
        return rdb_form_dots_dbn(db, v[P_DBN], "dbn", &pos->dots, err);
    if (v[P_POSITION]) {
        if (rdb_form_blank(v[P_POSITION]))
            return rdb_fail(err, RDB_E_INPUT, "position: no diagram found (nor a move list)");
        return rdb_form_dots_any(db, v[P_POSITION], "position", &pos->dots, NULL, err);
    }
    return rdb_form_dots_moves(db, v[P_MOVES] ? v[P_MOVES] : "", "moves", &pos->dots, err);
}

static void answer_query(const rdb_serve_site *site, const char *query, rdb_serve_reply *r)
{
    char *v[NPARAMS];
    rdb_error err;
    rdb_status st = parse_query(query, v, &err);
    int pv = 0;
    rdb_query_position *pos = malloc(sizeof *pos);
    if (!pos)
        st = rdb_fail(&err, RDB_E_NOMEM, "out of memory");
    if (st == RDB_OK && v[P_PV]) {
        if (strcmp(v[P_PV], "1") == 0 || strcmp(v[P_PV], "true") == 0)
            pv = 1;
        else if (strcmp(v[P_PV], "0") && strcmp(v[P_PV], "false"))
            st = rdb_fail(&err, RDB_E_INPUT, "pv is 0 or 1");
    }
    if (st == RDB_OK)
        st = read_position(site, v, pos, &err);
    for (int i = 0; i < NPARAMS; i++)
        free(v[i]);
    if (st != RDB_OK) {
        free(pos);
        reply_error(r, status_of(st), err.msg);
        return;
    }
    char *body = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&body, &len);
    if (!out) {
        free(pos);
        reply_error(r, 500, "out of memory");
        return;
    }
    int wrote;
    st = rdb_query_write_json(out, site->probe, &site->db, pos, pv, NULL, 0, &wrote, &err);
    fprintf(out, "\n");
    fclose(out);
    free(pos);
    if (st != RDB_OK) {
        free(body);
        reply_error(r, status_of(st), err.msg);
        return;
    }
    reply_owned(r, 200, json_type, body, len);
}

/* ---- the site ---- */

static rdb_status make_info(rdb_serve_site *site, rdb_error *err)
{
    const rdb_forms_db *db = &site->db;
    FILE *out = open_memstream(&site->info, &site->info_len);
    if (!out)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    fprintf(out, "{\"game\":\"%s\",\"rows\":%d,\"cols\":%d", rdb_game_name(db->game), db->rows,
            db->cols);
    rdb_status st = RDB_OK;
    if (db->game != RDB_GAME_CRAM) {
        /* the board's lines, as open_spiel numbers them, and each box's
         * four (top, bottom, left, right) */
        const int nlines = rdb_form_dots_nlines(db->rows, db->cols);
        fprintf(out, ",\"start\":\"");
        for (int l = 0; l < nlines; l++)
            fputc(db->start >> l & 1 ? '1' : '0', out);
        fprintf(out, "\",\"full_value\":%d,\"problem\":%s,\"lines\":[", db->full_value,
                db->has_problem ? "true" : "false");
        for (int l = 0; l < nlines && st == RDB_OK; l++) {
            char name[RDB_LINE_NAME_MAX];
            st = rdb_dots_line_name(db->rows, db->cols, l, name, sizeof name, err);
            fprintf(out, "%s\"%s\"", l ? "," : "", st == RDB_OK ? name : "");
        }
        fprintf(out, "],\"boxes\":[");
        for (int x = 0; x < db->rows * db->cols; x++) {
            int side[4];
            rdb_form_dots_box_sides(db->rows, db->cols, x, side);
            fprintf(out, "%s[%d,%d,%d,%d]", x ? "," : "", side[0], side[1], side[2], side[3]);
        }
        fprintf(out, "]");
    }
    fprintf(out, "}\n");
    fclose(out);
    return st;
}

rdb_status rdb_serve_site_open(rdb_serve_site *site, const char *dir, const char *web_dir,
                               rdb_error *err)
{
    memset(site, 0, sizeof *site);
    rdb_status st = rdb_forms_db_read(dir, &site->db, err);
    if (st == RDB_OK)
        st = rdb_probe_open(dir, &site->probe, err);
    if (st == RDB_OK)
        st = make_info(site, err);
    if (st == RDB_OK && web_dir) {
        site->files = calloc(NPAGE_FILES, sizeof *site->files);
        if (!site->files)
            st = rdb_fail(err, RDB_E_NOMEM, "out of memory");
        for (int i = 0; st == RDB_OK && i < NPAGE_FILES; i++) {
            char path[4096];
            site->files[i] = page_files[i];
            snprintf(path, sizeof path, "%s/%s", web_dir, page_files[i].file);
            st = rdb_read_file(path, &site->files[i].body, err);
            if (st == RDB_OK) {
                site->files[i].len = strlen(site->files[i].body);
                site->nfiles = i + 1;
            }
        }
    }
    if (st != RDB_OK)
        rdb_serve_site_close(site);
    return st;
}

void rdb_serve_site_close(rdb_serve_site *site)
{
    if (site->probe)
        rdb_probe_close(site->probe);
    for (int i = 0; i < site->nfiles; i++)
        free(site->files[i].body);
    free(site->files);
    free(site->info);
    memset(site, 0, sizeof *site);
}

void rdb_serve_answer(const rdb_serve_site *site, const char *method, const char *target,
                      int has_body, rdb_serve_reply *reply)
{
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        reply_error(reply, 405, "only GET and HEAD: the server is read-only");
        return;
    }
    if (has_body) {
        reply_error(reply, 400, "a GET or HEAD request carries no body");
        return;
    }
    /* the absolute form (RFC 9112, 3.2.2: "GET http://host/path"), which a
     * server must accept: its path is what routes */
    if (strncasecmp(target, "http://", 7) == 0 || strncasecmp(target, "https://", 8) == 0) {
        const char *path = strchr(strstr(target, "://") + 3, '/');
        target = path ? path : "/";
    }
    size_t n = strlen(target);
    if (n > RDB_SERVE_URI_MAX) {
        reply_error(reply, 400, "the request is too long");
        return;
    }
    const char *q = strchr(target, '?');
    size_t plen = q ? (size_t)(q - target) : n;
    if (plen == 10 && memcmp(target, "/api/query", plen) == 0) {
        answer_query(site, q ? q + 1 : NULL, reply);
        return;
    }
    if (plen == 9 && memcmp(target, "/api/info", plen) == 0) {
        *reply = (rdb_serve_reply){200, json_type, site->info, site->info_len, 0};
        return;
    }
    for (int i = 0; i < site->nfiles; i++)
        if (strlen(site->files[i].route) == plen &&
            memcmp(site->files[i].route, target, plen) == 0) {
            const rdb_serve_file *f = &site->files[i];
            *reply = (rdb_serve_reply){200, f->type, f->body, f->len, 0};
            return;
        }
    if (plen == 11 && memcmp(target, "/index.html", plen) == 0 && site->nfiles) {
        const rdb_serve_file *f = &site->files[0];
        *reply = (rdb_serve_reply){200, f->type, f->body, f->len, 0};
        return;
    }
    reply_error(reply, 404, "no such page: the API is /api/info and /api/query?moves=...");
}
