/*
 * serve_api.h — what `retrodb serve` answers, apart from the HTTP server
 * that carries it (serve.c): a request line's method and target in, a
 * status, a content type and a body out. Kept free of the HTTP library so
 * that the tests and the fuzzer (tests/fuzz/fuzz_serve_request.c) drive it
 * directly.
 *
 * The routes, all GET (or HEAD):
 *   /                        the explorer page (web/index.html)
 *   /explorer.js, /explorer.css   its script and style
 *   /api/info                the database: game, board, start, and for
 *                            Dots-and-Boxes every line's id and name and
 *                            every box's four lines
 *   /api/query?...           the answer to a position: exactly the object
 *                            `query --json` prints (rdb_query_write_json),
 *                            with "pv" when pv=1
 * A position is given as one of moves=, dbn=, cells= (with board=RxC on a
 * Cram table) or position= (any form `query` reads from a file, a diagram
 * too), URL-encoded. Every request that cannot be answered gets a JSON
 * object {"error": "..."}: 400 for a bad request (a malformed position, an
 * unknown parameter, a bad escape), 404 for an unknown path or a position
 * the database does not hold, 405 for another method, 500 when a file of
 * the database fails. Nothing a request says names a file: the page's
 * files are read once at start from a fixed list.
 */
#ifndef RDB_TOOLS_SERVE_API_H
#define RDB_TOOLS_SERVE_API_H

#include <stddef.h>

#include "api/position_forms.h"
#include "retrodb/probe.h"

/* the longest request target answered; MHD's own limit is above it */
#define RDB_SERVE_URI_MAX 8192

typedef struct {
    const char *route;   /* "/", "/explorer.js", ... */
    const char *file;    /* its name in the web folder */
    const char *type;    /* its content type */
    char *body;          /* read at start */
    size_t len;
} rdb_serve_file;

typedef struct {
    rdb_probe *probe;    /* shared by the server's threads (the probe is
                            safe for that: tests/test_probe.c, "threads") */
    rdb_forms_db db;
    char *info;          /* the /api/info object, made once */
    size_t info_len;
    rdb_serve_file *files;
    int nfiles;
} rdb_serve_site;

typedef struct {
    int status;          /* 200, 400, 404, 405, 500 */
    const char *type;    /* content type */
    char *body;          /* owned when owned is set, else the site's */
    size_t len;
    int owned;
} rdb_serve_reply;

/* Open the database in dir and read the page's files from web_dir (NULL:
 * serve the API only). */
rdb_status rdb_serve_site_open(rdb_serve_site *site, const char *dir, const char *web_dir,
                               rdb_error *err);
void rdb_serve_site_close(rdb_serve_site *site);

/* The reply to one request: method ("GET"...), the request target as sent
 * (path and query, still URL-encoded; the absolute form, with a scheme
 * and host, too) and whether a body came with it (refused: 400). Never
 * fails: an answer that cannot be made becomes an error reply. Free it
 * with rdb_serve_reply_free. */
void rdb_serve_answer(const rdb_serve_site *site, const char *method, const char *target,
                      int has_body, rdb_serve_reply *reply);
void rdb_serve_reply_free(rdb_serve_reply *reply);

#endif
