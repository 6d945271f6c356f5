/*
 * fuzz_serve_request.c — fuzz target `serve_request`: what `retrodb serve`
 * does with a request (rdb_serve_answer): the route, the query string's
 * escapes and parameters, and the position in any form, on a 2x3
 * Dots-and-Boxes database and a 2x3 Cram table built once.
 *
 * Input: a first byte picks the database (bit 0) and the method (bits
 * 1-2: GET, HEAD, POST, DELETE); the rest is the request target as a
 * client would send it. Beyond not crashing, every reply must be one of
 * the statuses the server documents, with a JSON body for everything but
 * the page's files, and a request for the same target must get the same
 * reply (nothing a request does changes what the next one gets).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cram/cram.h"
#include "dots/dots.h"
#include "engine/builder.h"
#include "fuzz_util.h"
#include "serve_api.h"

static rdb_serve_site sites[2];
static int opened;

static void build(const char *dir, int game)
{
    rdb_build_options opt;
    memset(&opt, 0, sizeof opt);
    opt.dir = dir;
    opt.params.game = game;
    opt.params.rows = 2;
    opt.params.cols = 3;
    opt.params.zstd_level = 1;
    snprintf(opt.params.variant, sizeof opt.params.variant, "empty");
    opt.memory_mb = 64;
    opt.quiet = 1;
    opt.threads = 1;
    opt.keep_lines = -1;
    rdb_error err;
    if (rdb_build(&opt, &err) != RDB_OK) {
        fprintf(stderr, "cannot build the fuzz database '%s': %s\n", dir, err.msg);
        abort();
    }
}

static void open_sites(void)
{
    static const int game[2] = {RDB_GAME_DOTS, RDB_GAME_CRAM};
    for (int i = 0; i < 2; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/site%d", fuzz_temp_dir(), i);
        build(dir, game[i]);
        rdb_error err;
        if (rdb_serve_site_open(&sites[i], dir, NULL, &err) != RDB_OK) {
            fprintf(stderr, "cannot open '%s': %s\n", dir, err.msg);
            abort();
        }
    }
    opened = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!opened)
        open_sites();
    static const char *const method[4] = {"GET", "HEAD", "POST", "DELETE"};
    const rdb_serve_site *site = &sites[data[0] & 1];
    const char *m = method[data[0] >> 1 & 3];
    char *target = fuzz_text(data + 1, size - 1);
    if (!target)
        return 0; /* a NUL ends the request line: no server passes one on */
    rdb_serve_reply r, again;
    rdb_serve_answer(site, m, target, 0, &r);
    if (r.status != 200 && r.status != 400 && r.status != 404 && r.status != 405 &&
        r.status != 500) {
        fprintf(stderr, "status %d\n", r.status);
        abort();
    }
    if (!r.body || r.len == 0 || r.body[0] != '{' || r.body[r.len - 1] != '\n' ||
        r.body[r.len - 2] != '}') {
        fprintf(stderr, "a reply that is not one JSON object: '%.*s'\n", (int)r.len,
                r.body ? r.body : "");
        abort();
    }
    rdb_serve_answer(site, m, target, 0, &again);
    if (again.status != r.status || again.len != r.len || memcmp(again.body, r.body, r.len)) {
        fprintf(stderr, "the same request answered twice differently\n");
        abort();
    }
    rdb_serve_reply_free(&r);
    rdb_serve_reply_free(&again);
    free(target);
    return 0;
}
