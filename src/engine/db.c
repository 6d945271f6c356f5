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
#include <sys/stat.h>
#include <unistd.h>

#include "common/number.h"
#include "common/path.h"
#include "store/checksum.h"
#include "store/damage.h"
#include "common/fsutil.h"

/* ---- parameters ---- */

const char *rdb_game_name(int game)
{
    const rdb_game *g = rdb_game_with_id(game);
    return g ? g->name : "unknown";
}

rdb_status rdb_params_write(const char *dir, const rdb_params *p, rdb_error *err)
{
    char path[RDB_PATH_MAX], text[1024];
    rdb_status st = rdb_path_format(path, sizeof path, err, "%s/PARAMS", dir);
    if (st != RDB_OK)
        return st;
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
    if (p->store != RDB_STORE_ALL)
        n += snprintf(text + n, sizeof text - (size_t)n, "store %s\n", rdb_store_name(p->store));
    if (p->slice_positions)
        n += snprintf(text + n, sizeof text - (size_t)n, "slice-positions %" PRIu64 "\n",
                      p->slice_positions);
    return rdb_write_file_atomic(path, text, (size_t)n, err);
}

/* One "key value" line of PARAMS. Every number is read strictly and
 * range-checked here; whether the values fit together (a board the game
 * has, groups that split it) is checked when the database is set up.
 * Returns the bit of `seen` the key sets, 0 for a key this version does not
 * know (ignored, so that newer keys do not make old readers fail), or -1
 * for a known key with a bad value. */
static int params_field(const char *key, const char *val, rdb_params *p)
{
    if (strcmp(key, "retrodb-params") == 0)
        return strcmp(val, "1") == 0 ? 1 : -1;
    if (strcmp(key, "game") == 0) {
        const rdb_game *g = rdb_game_named(val);
        if (!g)
            return -1;
        p->game = g->id;
        return 2;
    }
    if (strcmp(key, "board") == 0)
        return rdb_parse_board(val, RDB_MAX_BITS, &p->rows, &p->cols) == 0 ? 4 : -1;
    if (strcmp(key, "variant") == 0) {
        size_t n = strlen(val);
        if (n >= sizeof p->variant)
            return -1;
        memcpy(p->variant, val, n + 1);
        return 0;
    }
    if (strcmp(key, "start") == 0)
        return rdb_parse_u64(val, 16, UINT64_MAX, &p->start) == 0 ? 8 : -1;
    if (strcmp(key, "full-value") == 0)
        return rdb_parse_int(val, -RDB_MAX_FULL_VALUE, RDB_MAX_FULL_VALUE, &p->full_value) == 0 ? 16 : -1;
    if (strcmp(key, "groups") == 0)
        return rdb_parse_int(val, 0, RDB_MAX_GROUPS, &p->ngroups) == 0 ? 32 : -1;
    if (strcmp(key, "zstd-level") == 0)
        return rdb_parse_int(val, RDB_ZSTD_LEVEL_MIN, RDB_ZSTD_LEVEL_MAX, &p->zstd_level) == 0
                   ? 64 : -1;
    if (strcmp(key, "loony") == 0 || strcmp(key, "chains") == 0) {
        if (strcmp(val, "0") != 0 && strcmp(val, "1") != 0)
            return -1;
        *(key[0] == 'l' ? &p->loony : &p->chains) = val[0] == '1';
        return 0;
    }
    if (strcmp(key, "store") == 0)
        return (p->store = rdb_store_named(val)) < 0 ? -1 : 0;
    if (strcmp(key, "slice-positions") == 0)
        return rdb_parse_u64(val, 10, RDB_SPARSE_SLICE_MAX, &p->slice_positions) == 0 &&
                       p->slice_positions > 0
                   ? 0
                   : -1;
    return 0;
}

rdb_status rdb_params_read(const char *dir, rdb_params *p, rdb_error *err)
{
    memset(p, 0, sizeof *p);
    char path[RDB_PATH_MAX];
    rdb_status st = rdb_path_format(path, sizeof path, err, "%s/PARAMS", dir);
    if (st != RDB_OK)
        return st;
    memset(p, 0, sizeof *p);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int gone = errno == ENOENT || errno == ENOTDIR;
        struct stat sb;
        int found = gone ? stat(dir, &sb) == 0 : 0;
        if (gone && !found && errno != ENOENT && errno != ENOTDIR)
            return rdb_fail_errno(err, RDB_E_IO, "cannot stat '%s'", dir);
        if (found && !S_ISDIR(sb.st_mode))
            return rdb_fail(err, RDB_E_INPUT, "'%s' is a file, not a database folder", dir);
        if (gone)
            return rdb_fail(err, RDB_E_MISSING, "'%s' is not a retrodb database (%s)", dir,
                            found ? "no PARAMS file" : "no such folder");
        if (errno == ELOOP)
            return rdb_fail(err, RDB_E_CORRUPT, "'%s' is a symbolic link; PARAMS must be a file", path);
        return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    }
    char text[RDB_PARAMS_MAX_BYTES + 1];
    size_t len = 0;
    st = rdb_read_small_file(fd, path, text, sizeof text - 1, &len, err);
    close(fd);
    if (st != RDB_OK)
        return st;
    text[len] = '\0';
    if (memchr(text, '\0', len))
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged or from another program", path);
    int seen = 0, lineno = 0;
    for (char *line = text; *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        char key[64], val[128], extra;
        int n = sscanf(line, "%63s %127s %c", key, val, &extra);
        if (n == 2) {
            int bit = params_field(key, val, p);
            if (bit < 0)
                return rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged: line %d: bad %s '%.40s'",
                                path, lineno, key, val);
            seen |= bit;
        } else if (n > 0) {
            return rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged: line %d is not 'key value'",
                            path, lineno);
        }
        if (!nl)
            break;
        line = nl + 1;
    }
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
    if (a->start != b->start && strcmp(a->variant, b->variant) != 0)
        return snprintf(buf, bufsize, "start position differs (variant %s, not %s)",
                        a->variant, b->variant), 1;
    if (a->start != b->start) { /* two custom starts, or two problems */
        const rdb_game *g = rdb_game_with_id(a->game);
        return snprintf(buf, bufsize,
                        "another start position (%s taken: %d there, %d here, %d in both)",
                        g ? g->bit_noun : "bits", __builtin_popcountll(a->start),
                        __builtin_popcountll(b->start), __builtin_popcountll(a->start & b->start)),
               1;
    }
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
    if (a->store != b->store)
        return snprintf(buf, bufsize, "%s positions stored, not %s", rdb_store_name(a->store),
                        rdb_store_name(b->store)), 1;
    if (a->zstd_level != b->zstd_level)
        return snprintf(buf, bufsize, "zstd level %d differs from %d", a->zstd_level,
                        b->zstd_level), 1;
    if (a->slice_positions && b->slice_positions && a->slice_positions != b->slice_positions)
        return snprintf(buf, bufsize, "%" PRIu64 " positions a slice, not %" PRIu64,
                        a->slice_positions, b->slice_positions), 1;
    return 0;
}

/* ---- setup ---- */

/* A sparse database's levels in slices of at most
 * params.slice_positions positions, where the game can cut them. */
static rdb_status cut_levels(rdb_db *db, rdb_error *err)
{
    const uint64_t most = db->params.slice_positions;
    for (int level = 0; level <= db->u.nbits; level++) {
        const uint64_t size = db->game->sparse_level_size(db->sparse, level);
        int n = 0;
        for (uint64_t from = 0; from < size; n++) {
            if (n > RDB_MANIFEST_MAX_PART)
                return rdb_fail(err, RDB_E_INPUT,
                                "level %d would take more than %d slices of at most %llu positions: "
                                "give the build more memory (or more --slice-positions)",
                                level, RDB_MANIFEST_MAX_PART + 1, (unsigned long long)most);
            from = most ? db->game->sparse_part_end(db->sparse, level, from, most) : size;
        }
        db->nparts[level] = n;
        if (!(db->part_start[level] = malloc(((size_t)n + 1) * sizeof(uint64_t))))
            return rdb_fail(err, RDB_E_NOMEM, "out of memory for the slices of level %d", level);
        n = 0;
        for (uint64_t from = 0; from < size;) {
            db->part_start[level][n++] = from;
            from = most ? db->game->sparse_part_end(db->sparse, level, from, most) : size;
        }
        db->part_start[level][n] = size;
    }
    return RDB_OK;
}

rdb_status rdb_db_setup(rdb_db *db, const char *dir, rdb_params *params,
                        uint64_t max_slice_bytes, rdb_error *err)
{
    memset(db, 0, sizeof *db);
    rdb_status st = rdb_check_dir_name(dir, err);
    if (st != RDB_OK)
        return st;
    snprintf(db->dir, sizeof db->dir, "%s", dir);
    db->game = rdb_game_with_id(params->game);
    if (!db->game)
        return rdb_fail(err, RDB_E_INPUT, "unknown game");
    st = db->game->open(params, &db->u, &db->state, err);
    if (st != RDB_OK)
        goto fail;
    /* a sparse database keeps one slice a level: the layout's slices are
     * never held, so no budget limits them */
    st = rdb_layout_plan_groups(&db->u, params->ngroups,
                                params->store ? UINT64_MAX : max_slice_bytes, &db->plan,
                                &db->least_slice, err);
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
    if (params->store) {
        if (!db->game->sparse_open) {
            st = rdb_fail(err, RDB_E_INPUT, "%s databases store every position (no --store quiet)",
                          db->game->name);
            goto fail;
        }
        st = db->game->sparse_open(db->state, &db->sparse, err);
        if (st != RDB_OK)
            goto fail;
        /* a new build's slices fit its budget; a database that does not
         * say keeps a level in one slice, as it was built */
        if (!params->slice_positions && max_slice_bytes != UINT64_MAX)
            params->slice_positions =
                max_slice_bytes < RDB_SPARSE_SLICE_DEFAULT ? (max_slice_bytes ? max_slice_bytes : 1)
                                                           : RDB_SPARSE_SLICE_DEFAULT;
        db->params.slice_positions = params->slice_positions;
        st = cut_levels(db, err);
        if (st != RDB_OK)
            goto fail;
        n += snprintf(desc + n, sizeof desc - (size_t)n, " %s", rdb_store_name(params->store));
    }
    db->hash = rdb_checksum64(desc, (size_t)n, 0);
    db->hash = rdb_checksum64(db->plan.order, (size_t)db->u.nbits, db->hash);
    return RDB_OK;
fail:
    rdb_db_free(db);
    return st;
}

void rdb_db_free(rdb_db *db)
{
    for (int l = 0; l <= RDB_MAX_BITS; l++) {
        free(db->part_start[l]);
        db->part_start[l] = NULL;
    }
    if (db->sparse)
        db->game->sparse_close(db->sparse);
    db->sparse = NULL;
    rdb_layout_free(&db->lay);
    if (db->game && db->state)
        db->game->close(db->state);
    db->state = NULL;
}

rdb_status rdb_db_open(rdb_db *db, const char *dir, rdb_error *err)
{
    rdb_params p;
    rdb_status st = rdb_check_dir_name(dir, err);
    if (st != RDB_OK)
        return st;
    st = rdb_params_read(dir, &p, err);
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
    rdb_error why;
    st = rdb_db_setup(db, dir, &p, UINT64_MAX, &why);
    if (st == RDB_E_INPUT)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s/PARAMS' is damaged: %s", dir, why.msg);
    if (st != RDB_OK)
        *err = why;
    return st;
}

rdb_status rdb_slice_path(const rdb_db *db, const rdb_slice *s, char *buf, size_t bufsize,
                          rdb_error *err)
{
    /* level and counts are small numbers: the whole suffix takes at most
     * 4 + 16 * 4 + 4 characters, well inside what RDB_DIR_MAX leaves */
    char suffix[128];
    int G = db->lay.ngroups;
    int n = snprintf(suffix, sizeof suffix, "/%d", s->level);
    if (db->sparse) /* a level in one slice, or in several numbered from 0 */
        return db->nparts[s->level] <= 1
                   ? rdb_path_format(buf, bufsize, err, "%s%s/quiet.zst", db->dir, suffix)
                   : rdb_path_format(buf, bufsize, err, "%s%s/quiet-%d.zst", db->dir, suffix,
                                     s->counts[0]);
    if (G <= 1)
        snprintf(suffix + n, sizeof suffix - (size_t)n, "/all.zst");
    for (int g = 0; g < G - 1; g++)
        n += snprintf(suffix + n, sizeof suffix - (size_t)n, g == G - 2 ? "/%d.zst" : "/%d",
                      s->counts[g]);
    return rdb_path_format(buf, bufsize, err, "%s%s", db->dir, suffix);
}

rdb_status rdb_slice_open_in(const rdb_db *db, const rdb_slice *s, rdb_slice_file *sf,
                             rdb_error *err)
{
    char path[RDB_PATH_MAX];
    rdb_status st = rdb_slice_path(db, s, path, sizeof path, err);
    if (st != RDB_OK)
        return st;
    rdb_slice_id id;
    rdb_slice_identity(db, s, &id);
    return rdb_slice_open(path, &id, sf, err);
}

void rdb_slice_identity(const rdb_db *db, const rdb_slice *s, rdb_slice_id *id)
{
    memset(id, 0, sizeof *id);
    id->game = (uint32_t)db->params.game;
    id->rows = (uint32_t)db->params.rows;
    id->cols = (uint32_t)db->params.cols;
    id->db_hash = db->hash;
    id->level = (uint32_t)s->level;
    if (db->sparse) { /* positions numbered by the game; a level's slice number */
        if (db->nparts[s->level] > 1) {
            id->ngroups = 1;
            id->counts[0] = (uint32_t)s->counts[0];
        }
        id->entries = s->size;
        return;
    }
    id->ngroups = (uint32_t)db->lay.ngroups;
    for (int g = 0; g < db->lay.ngroups; g++)
        id->counts[g] = (uint32_t)s->counts[g];
    id->entries = s->size;
}

rdb_status rdb_db_damaged(const rdb_db *db, const rdb_slice *s, rdb_status st, rdb_error *err)
{
    if (st != RDB_E_CORRUPT)
        return st;
    rdb_error why;
    const int noted = rdb_damage_note(db->dir, s, db->lay.ngroups, &why) == RDB_OK;
    size_t n = strlen(err->msg);
    if (noted)
        snprintf(err->msg + n, sizeof err->msg - n,
                 "; running the same build command again redoes it");
    else
        snprintf(err->msg + n, sizeof err->msg - n,
                 "; it could not be recorded for the next build to redo (%s)", why.msg);
    return st;
}

/* A build runs from the full position down, so this is settled once level
 * 0 is; every level is still checked, so that a slice forgotten after
 * damage counts as not done. */
int rdb_db_build_complete(const rdb_db *db, const rdb_manifest *man)
{
    const rdb_layout *lay = &db->lay;
    for (int level = 0; level <= lay->nbits; level++) {
        if (rdb_level_deleted(man->deleted, level))
            continue;
        rdb_slice *slices;
        int ns = rdb_db_level_slices(db, level, &slices);
        int done = ns >= 0;
        for (int i = 0; i < ns && done; i++)
            done = rdb_manifest_find(man, &slices[i]) != NULL;
        free(slices);
        if (!done)
            return 0;
    }
    return 1;
}

int rdb_db_sparse_window(const rdb_db *db, int asked)
{
    const int own = db->sparse && db->game->sparse_window ? db->game->sparse_window(db->sparse) : -1;
    return own < 0 ? -1 : asked > 0 ? asked : own;
}

int rdb_db_dropped_part(const rdb_db *db, const rdb_slice *s)
{
    return rdb_db_sparse_window(db, 0) >= 0 &&
           db->game->sparse_dropped_part(db->sparse, s->level, rdb_db_slice_first(db, s));
}

int rdb_db_slice_dropped(const rdb_db *db, uint64_t dropped, const rdb_slice *s)
{
    return s->level >= 0 && s->level < 64 && (dropped >> s->level & 1) &&
           rdb_db_dropped_part(db, s);
}

/* ---- slices of either kind of database ---- */

void rdb_db_slice_size(const rdb_db *db, rdb_slice *s)
{
    if (!db->sparse) {
        /* a count beyond any group's (a manifest's record may name a
         * sparse database's slice there) is no slice of the layout */
        for (int g = 0; g < db->lay.ngroups; g++)
            if (s->counts[g] < 0 || s->counts[g] > RDB_MAX_GROUP_BITS) {
                s->size = 0;
                s->level = -1;
                return;
            }
        rdb_slice_set_size(&db->lay, s);
        return;
    }
    int other = s->level < 0 || s->level > db->u.nbits || s->counts[0] < 0 ||
                s->counts[0] >= db->nparts[s->level];
    for (int g = 1; g < RDB_MAX_GROUPS; g++)
        other |= s->counts[g] != 0;
    s->size = other ? 0
                    : db->part_start[s->level][s->counts[0] + 1] -
                          db->part_start[s->level][s->counts[0]];
}

uint64_t rdb_db_slice_first(const rdb_db *db, const rdb_slice *s)
{
    return db->sparse ? db->part_start[s->level][s->counts[0]] : 0;
}

void rdb_db_slice_at(const rdb_db *db, int level, uint64_t index, rdb_slice *s,
                     uint64_t *offset)
{
    const uint64_t *start = db->part_start[level];
    int lo = 0, hi = db->nparts[level] - 1; /* the last slice that starts at or before index */
    while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (start[mid] <= index)
            lo = mid;
        else
            hi = mid - 1;
    }
    memset(s, 0, sizeof *s);
    s->level = level;
    s->counts[0] = lo;
    rdb_db_slice_size(db, s);
    *offset = index - start[lo];
}

int rdb_db_level_slices(const rdb_db *db, int level, rdb_slice **out)
{
    if (!db->sparse)
        return rdb_level_slices(&db->lay, level, out);
    *out = NULL;
    const int n = db->nparts[level];
    if (n == 0)
        return 0;
    if (!(*out = calloc((size_t)n, sizeof **out)))
        return -1;
    for (int k = 0; k < n; k++) {
        (*out)[k].level = level;
        (*out)[k].counts[0] = k;
        rdb_db_slice_size(db, &(*out)[k]);
    }
    return n;
}

uint64_t rdb_db_total_positions(const rdb_db *db)
{
    if (!db->sparse)
        return rdb_layout_total_positions(&db->lay);
    uint64_t n = 0;
    for (int level = 0; level <= db->lay.nbits; level++)
        n += db->game->sparse_level_size(db->sparse, level);
    return n;
}

uint64_t rdb_db_max_slice(const rdb_db *db)
{
    if (!db->sparse)
        return rdb_layout_max_slice(&db->lay);
    uint64_t m = 0;
    for (int level = 0; level <= db->lay.nbits; level++)
        for (int k = 0; k < db->nparts[level]; k++) {
            const uint64_t n = db->part_start[level][k + 1] - db->part_start[level][k];
            m = n > m ? n : m;
        }
    return m;
}
