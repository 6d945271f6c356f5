/*
 * db.c — database directory: parameters, setup and slice paths; see db.h.
 */
#define _GNU_SOURCE
#include "engine/db.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "store/checksum.h"
#include "store/fsutil.h"

/* ---- parameters ---- */

const char *rdb_game_name(int game)
{
    const rdb_game *g = rdb_game_with_id(game);
    return g ? g->name : "unknown";
}

rdb_status rdb_params_write(const char *dir, const rdb_params *p, rdb_error *err)
{
    char path[4096], text[1024];
    snprintf(path, sizeof path, "%s/PARAMS", dir);
    int n = snprintf(text, sizeof text,
                     "retrodb-params 1\n"
                     "game %s\n"
                     "board %dx%d\n"
                     "variant %s\n"
                     "start 0x%016" PRIx64 "\n"
                     "full-value %d\n"
                     "groups %d\n"
                     "zstd-level %d\n",
                     rdb_game_name(p->game), p->rows, p->cols, p->variant[0] ? p->variant : "custom", p->start,
                     p->full_value, p->ngroups, p->zstd_level);
    if (p->loony)
        n += snprintf(text + n, sizeof text - (size_t)n, "loony 1\n");
    /* written only when set, so that older databases keep their PARAMS */
    if (p->chains)
        n += snprintf(text + n, sizeof text - (size_t)n, "chains 1\n");
    return rdb_write_file_atomic(path, text, (size_t)n, err);
}

rdb_status rdb_params_read(const char *dir, rdb_params *p, rdb_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/PARAMS", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return rdb_fail(err, RDB_E_MISSING, "'%s' is not a retrodb database (no PARAMS file)", dir);
        return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    }
    memset(p, 0, sizeof *p);
    p->zstd_level = -1000;
    int seen = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char key[64], val[128];
        if (sscanf(line, "%63s %127s", key, val) != 2)
            continue;
        if (strcmp(key, "retrodb-params") == 0 && strcmp(val, "1") == 0)
            seen |= 1;
        else if (strcmp(key, "game") == 0 && rdb_game_named(val)) {
            p->game = rdb_game_named(val)->id;
            seen |= 2;
        } else if (strcmp(key, "board") == 0 && sscanf(val, "%dx%d", &p->rows, &p->cols) == 2)
            seen |= 4;
        else if (strcmp(key, "variant") == 0)
            snprintf(p->variant, sizeof p->variant, "%.31s", val);
        else if (strcmp(key, "start") == 0 && sscanf(val, "%" SCNx64, &p->start) == 1)
            seen |= 8;
        else if (strcmp(key, "full-value") == 0 && sscanf(val, "%d", &p->full_value) == 1)
            seen |= 16;
        else if (strcmp(key, "groups") == 0 && sscanf(val, "%d", &p->ngroups) == 1)
            seen |= 32;
        else if (strcmp(key, "zstd-level") == 0 && sscanf(val, "%d", &p->zstd_level) == 1)
            seen |= 64;
        else if (strcmp(key, "loony") == 0)
            p->loony = strcmp(val, "1") == 0;
        else if (strcmp(key, "chains") == 0)
            p->chains = strcmp(val, "1") == 0;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return rdb_fail_errno(err, RDB_E_IO, "cannot read '%s'", path);
    if (seen != 127)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged or from another program", path);
    return RDB_OK;
}

int rdb_params_diff(const rdb_params *a, const rdb_params *b, char *buf, size_t bufsize)
{
    if (a->game != b->game)
        return snprintf(buf, bufsize, "game %s differs from %s", rdb_game_name(a->game),
                        rdb_game_name(b->game)), 1;
    if (a->rows != b->rows || a->cols != b->cols)
        return snprintf(buf, bufsize, "board %dx%d differs from %dx%d", a->rows, a->cols, b->rows,
                        b->cols), 1;
    if (a->start != b->start)
        return snprintf(buf, bufsize, "start position differs (variant %s, not %s)",
                        a->variant, b->variant), 1;
    if (a->full_value != b->full_value)
        return snprintf(buf, bufsize, "value of the full position %d differs from %d",
                        a->full_value, b->full_value), 1;
    if (a->loony != b->loony)
        return snprintf(buf, bufsize, "loony analysis %s, not %s", a->loony ? "on" : "off",
                        b->loony ? "on" : "off"), 1;
    if (a->chains != b->chains)
        return snprintf(buf, bufsize, "chain pseudo-lines %s, not %s", a->chains ? "on" : "off",
                        b->chains ? "on" : "off"), 1;
    if (a->ngroups && b->ngroups && a->ngroups != b->ngroups)
        return snprintf(buf, bufsize, "number of groups %d differs from %d", a->ngroups,
                        b->ngroups), 1;
    if (a->zstd_level != b->zstd_level)
        return snprintf(buf, bufsize, "zstd level %d differs from %d", a->zstd_level,
                        b->zstd_level), 1;
    return 0;
}

/* ---- setup ---- */

rdb_status rdb_db_setup(rdb_db *db, const char *dir, rdb_params *params,
                        uint64_t max_slice_bytes, rdb_error *err)
{
    memset(db, 0, sizeof *db);
    snprintf(db->dir, sizeof db->dir, "%s", dir);
    db->game = rdb_game_with_id(params->game);
    if (!db->game)
        return rdb_fail(err, RDB_E_INPUT, "unknown game");
    rdb_status st = db->game->open(params, &db->u, &db->state, err);
    if (st != RDB_OK)
        goto fail;
    st = rdb_layout_plan_groups(&db->u, params->ngroups, max_slice_bytes, &db->plan, err);
    if (st != RDB_OK)
        goto fail;
    params->ngroups = db->plan.ngroups;
    db->params = *params;
    st = rdb_layout_build(&db->u, &db->plan, &db->lay, err);
    if (st != RDB_OK)
        goto fail;
    st = db->game->order(db->state, &db->plan, err);
    if (st != RDB_OK)
        goto fail;

    /* The description keeps the form it had when Dots-and-Boxes was the
     * only game, so that the hash (and so every file) of every database
     * built since stays valid. */
    char desc[512];
    int n = snprintf(desc, sizeof desc, "%s %d %d %" PRIx64 " %d %d:",
                     db->game->name, params->rows, params->cols, params->start,
                     params->full_value, db->plan.ngroups);
    for (int g = 0; g < db->plan.ngroups; g++)
        n += snprintf(desc + n, sizeof desc - (size_t)n, " %d", db->plan.size[g]);
    if (params->loony)
        n += snprintf(desc + n, sizeof desc - (size_t)n, " loony");
    if (params->chains)
        n += snprintf(desc + n, sizeof desc - (size_t)n, " chains");
    db->hash = rdb_checksum64(desc, (size_t)n, 0);
    db->hash = rdb_checksum64(db->plan.order, (size_t)db->u.nbits, db->hash);
    return RDB_OK;
fail:
    rdb_db_free(db);
    return st;
}

void rdb_db_free(rdb_db *db)
{
    rdb_layout_free(&db->lay);
    if (db->game && db->state)
        db->game->close(db->state);
    db->state = NULL;
}

rdb_status rdb_db_open(rdb_db *db, const char *dir, rdb_error *err)
{
    rdb_params p;
    rdb_status st = rdb_params_read(dir, &p, err);
    if (st != RDB_OK)
        return st;
    if (p.ngroups < 0 || p.ngroups > RDB_MAX_GROUPS)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s/PARAMS' is damaged: bad group count", dir);
    if (p.ngroups == 0) {
        /* only a database with nothing to build (a full start) has no
         * groups: anything else would have its layout chosen anew */
        const rdb_game *game = rdb_game_with_id(p.game);
        rdb_universe u;
        void *state = NULL;
        rdb_error ignored;
        st = game ? game->open(&p, &u, &state, &ignored) : RDB_E_INPUT;
        if (st == RDB_OK)
            game->close(state);
        if (st != RDB_OK || u.nbits != 0)
            return rdb_fail(err, RDB_E_CORRUPT, "'%s/PARAMS' is damaged: bad group count", dir);
    }
    st = rdb_db_setup(db, dir, &p, UINT64_MAX, err);
    if (st == RDB_E_INPUT)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s/PARAMS' is damaged: %s", dir, err->msg);
    return st;
}

void rdb_slice_path(const rdb_db *db, const rdb_slice *s, char *buf, size_t bufsize)
{
    int n = snprintf(buf, bufsize, "%s/%d", db->dir, s->level);
    int G = db->lay.ngroups;
    if (G <= 1) {
        snprintf(buf + n, bufsize - (size_t)n, "/all.zst");
        return;
    }
    for (int g = 0; g < G - 1 && (size_t)n < bufsize; g++)
        n += snprintf(buf + n, bufsize - (size_t)n, g == G - 2 ? "/%d.zst" : "/%d", s->counts[g]);
}

void rdb_slice_identity(const rdb_db *db, const rdb_slice *s, rdb_slice_id *id)
{
    memset(id, 0, sizeof *id);
    id->game = (uint32_t)db->params.game;
    id->rows = (uint32_t)db->params.rows;
    id->cols = (uint32_t)db->params.cols;
    id->db_hash = db->hash;
    id->level = (uint32_t)s->level;
    id->ngroups = (uint32_t)db->lay.ngroups;
    for (int g = 0; g < db->lay.ngroups; g++)
        id->counts[g] = (uint32_t)s->counts[g];
    id->entries = s->size;
}
