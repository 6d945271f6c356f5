/*
 * probe.c — lookups in a finished database; see retrodb/probe.h.
 *
 * Access pattern: a query asks for a position and its children, which lie in
 * a handful of neighbour slices, so a small LRU of open slice files and one
 * of decoded frames (RDB_FRAME_ENTRIES values each) make a query cost a few
 * frame decodes at most. Positions in levels the build deleted
 * (--keep-lines) are solved on the spot by the game's search (game.h).
 * Every value comes out of a frame whose zstd content checksum was
 * verified, and from a file whose header names the exact slice asked for,
 * so damage is reported rather than answered. The game-specific answers
 * (rdb_probe_moves, rdb_probe_cram_moves) are built on rdb_probe_move_values
 * in the games' folders.
 */
#include "retrodb/probe.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/db.h"
#include "common/error.h"
#include "common/loony_mark.h"
#include "store/manifest.h"

/* The games' marks are the ones programs are told of. */
_Static_assert(LOONY_MARK_MOVER == RDB_LOONY_MOVER && LOONY_MARK_NONE == RDB_LOONY_NONE &&
                   LOONY_MARK_OPPONENT == RDB_LOONY_OPPONENT,
               "a loony mark has one number for the games and for programs");

#define FILE_CACHE 16
/* 8 MB of frames at most, each allocated when first used: a perfect game
 * walks through every level, a frame or two each, and with 8 frames every
 * walk decoded its levels again (Python's pv of a random 2x3 position took
 * 719 us, a value 19 us; with 64: 98 and 3.6 us) */
#define FRAME_CACHE 64

typedef struct {
    int used;
    rdb_slice slice;
    rdb_slice_file sf;
    unsigned long stamp;
} cached_file;

typedef struct {
    int used;
    rdb_slice slice;
    uint32_t frame;
    int8_t *values;
    unsigned long stamp;
} cached_frame;

/* A whole slice held in memory (rdb_probe_preload). */
typedef struct {
    rdb_slice slice;
    int8_t *values;
} loaded_slice;

struct rdb_probe {
    rdb_db db;
    cached_file files[FILE_CACHE];
    cached_frame frames[FRAME_CACHE];
    unsigned long clock;
    uint64_t deleted;        /* levels not kept: solved on the spot */
    uint64_t dropped;        /* levels whose dropped part is gone (a half quiet
                                database): never read, valued by the game */
    int complete;            /* every level done or not kept, at open */
    double done_fraction;    /* of every position, at open: for messages */
    loaded_slice *loaded;    /* every kept slice, by (level, counts), or NULL */
    size_t nloaded;
    /* The caches above change on every lookup: a handle shared between
     * threads answers one lookup at a time. */
    pthread_mutex_t lock;
};

rdb_status rdb_probe_open(const char *dir, rdb_probe **out, rdb_error *err)
{
    *out = NULL;
    rdb_probe *p = calloc(1, sizeof *p);
    if (!p)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    rdb_status st = rdb_db_open(&p->db, dir, err);
    if (st == RDB_OK && p->db.sparse) {
        st = p->db.game->sparse_prepare(p->db.sparse, 1, err);
        if (st != RDB_OK)
            rdb_db_free(&p->db);
    }
    if (st != RDB_OK) {
        free(p);
        return st;
    }
    rdb_manifest man;
    st = rdb_manifest_load(&man, dir, p->db.lay.ngroups, p->db.lay.nbits, err);
    if (st != RDB_OK) {
        rdb_db_free(&p->db);
        free(p);
        return st;
    }
    p->deleted = man.deleted;
    p->dropped = man.dropped;
    p->complete = rdb_db_build_complete(&p->db, &man);
    uint64_t done = 0, total = rdb_db_total_positions(&p->db);
    for (size_t i = 0; i < man.n; i++)
        done += man.e[i].entries;
    p->done_fraction = total ? (double)done / (double)total : 1.0;
    rdb_manifest_free(&man);
    pthread_mutex_init(&p->lock, NULL);
    *out = p;
    return RDB_OK;
}

void rdb_probe_close(rdb_probe *p)
{
    if (!p)
        return;
    pthread_mutex_destroy(&p->lock);
    for (int i = 0; i < FILE_CACHE; i++)
        if (p->files[i].used)
            rdb_slice_close(&p->files[i].sf);
    for (int i = 0; i < FRAME_CACHE; i++)
        free(p->frames[i].values);
    for (size_t i = 0; i < p->nloaded; i++)
        free(p->loaded[i].values);
    free(p->loaded);
    rdb_db_free(&p->db);
    free(p);
}

void rdb_probe_board(const rdb_probe *p, int *rows, int *cols, uint64_t *start_lines)
{
    *rows = p->db.params.rows;
    *cols = p->db.params.cols;
    *start_lines = p->db.params.start;
}

static rdb_status open_slice(rdb_probe *p, const rdb_slice *s, rdb_slice_file **sf, rdb_error *err)
{
    int G = p->db.lay.ngroups, victim = 0;
    *sf = NULL;
    for (int i = 0; i < FILE_CACHE; i++) {
        cached_file *c = &p->files[i];
        if (c->used && rdb_slice_equal(&c->slice, s, G)) {
            c->stamp = ++p->clock;
            *sf = &c->sf;
            return RDB_OK;
        }
        if (!c->used || (p->files[victim].used && c->stamp < p->files[victim].stamp))
            victim = i;
    }
    cached_file *c = &p->files[victim];
    if (c->used)
        rdb_slice_close(&c->sf);
    c->used = 0;
    rdb_status st = rdb_slice_open_in(&p->db, s, &c->sf, err);
    /* in the words of a build's progress: which level, how far the build
     * is, and what to run */
    if (st == RDB_E_MISSING && !p->complete)
        return rdb_fail(err, RDB_E_MISSING,
                        "level %d (%d %s) of the database in '%s' is not built yet: the build is "
                        "%.0f%% done; run the same build command to carry on",
                        s->level, s->level, p->db.game->level_name, p->db.dir,
                        100 * p->done_fraction);
    if (st == RDB_E_MISSING)
        return rdb_fail(err, RDB_E_MISSING,
                        "a file of level %d of the finished database in '%s' is missing ('%s'): "
                        "running the same build command again redoes it",
                        s->level, p->db.dir, c->sf.path);
    if (st != RDB_OK)
        return rdb_db_damaged(&p->db, s, st, err);
    c->used = 1;
    c->slice = *s;
    c->stamp = ++p->clock;
    *sf = &c->sf;
    return RDB_OK;
}

/* Order of slices by level, then counts: the order rdb_probe_preload
 * stores them in. */
static int slice_cmp(const rdb_slice *a, const rdb_slice *b, int ngroups)
{
    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    for (int g = 0; g < ngroups; g++)
        if (a->counts[g] != b->counts[g])
            return a->counts[g] < b->counts[g] ? -1 : 1;
    return 0;
}

static const loaded_slice *find_loaded(const rdb_probe *p, const rdb_slice *s)
{
    size_t lo = 0, hi = p->nloaded;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = slice_cmp(&p->loaded[mid].slice, s, p->db.lay.ngroups);
        if (c == 0)
            return &p->loaded[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static rdb_status preload(rdb_probe *p, uint64_t max_bytes, rdb_error *err);

rdb_status rdb_probe_preload(rdb_probe *p, uint64_t max_bytes, rdb_error *err)
{
    pthread_mutex_lock(&p->lock);
    rdb_status st = preload(p, max_bytes, err);
    pthread_mutex_unlock(&p->lock);
    return st;
}

static rdb_status preload(rdb_probe *p, uint64_t max_bytes, rdb_error *err)
{
    const rdb_layout *lay = &p->db.lay;
    if (p->loaded)
        return RDB_OK;
    uint64_t total = 0;
    size_t n = 0;
    for (int level = 0; level <= lay->nbits; level++) {
        if (rdb_level_deleted(p->deleted, level))
            continue;
        rdb_slice *slices;
        int ns = rdb_db_level_slices(&p->db, level, &slices);
        for (int i = 0; i < ns; i++) {
            if (rdb_db_slice_dropped(&p->db, p->dropped, &slices[i]))
                continue;
            total += slices[i].size;
            n++;
        }
        free(slices);
    }
    if (total > max_bytes)
        return rdb_fail(err, RDB_E_NOMEM,
                        "the database in '%s' holds %llu MB of values, more than the %llu MB allowed in memory",
                        p->db.dir, (unsigned long long)(total >> 20),
                        (unsigned long long)(max_bytes >> 20));
    loaded_slice *loaded = calloc(n ? n : 1, sizeof *loaded);
    if (!loaded)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory loading '%s'", p->db.dir);
    size_t k = 0;
    rdb_status st = RDB_OK;
    for (int level = 0; level <= lay->nbits && st == RDB_OK; level++) {
        if (rdb_level_deleted(p->deleted, level))
            continue;
        rdb_slice *slices;
        int ns = rdb_db_level_slices(&p->db, level, &slices);
        for (int i = 0; i < ns && st == RDB_OK; i++) {
            if (rdb_db_slice_dropped(&p->db, p->dropped, &slices[i]))
                continue; /* gone, and never read: see quiet_value */
            loaded_slice *ls = &loaded[k++];
            ls->slice = slices[i];
            ls->values = malloc(slices[i].size ? slices[i].size : 1);
            if (!ls->values) {
                st = rdb_fail(err, RDB_E_NOMEM, "out of memory loading '%s'", p->db.dir);
                break;
            }
            rdb_slice_file sf;
            st = rdb_slice_open_in(&p->db, &slices[i], &sf, err);
            if (st == RDB_OK) {
                st = rdb_slice_read_all(&sf, ls->values, err);
                rdb_slice_close(&sf);
            } else if (st == RDB_E_MISSING && !p->complete) {
                /* a build still going: what is built is loaded, and a
                 * lookup of the rest reads its file (not there yet) */
                free(ls->values);
                k--;
                st = RDB_OK;
            }
        }
        free(slices);
    }
    if (st != RDB_OK) {
        for (size_t i = 0; i < k; i++)
            free(loaded[i].values);
        free(loaded);
        return st;
    }
    p->loaded = loaded;
    p->nloaded = k;
    return RDB_OK;
}

/* Value at index of slice s. */
static rdb_status lookup(rdb_probe *p, const rdb_slice *s, uint64_t index, int *value, rdb_error *err)
{
    if (p->loaded) {
        const loaded_slice *ls = find_loaded(p, s);
        if (ls) {
            *value = ls->values[index];
            return RDB_OK;
        }
        /* not built when the values were loaded: its file says */
    }
    int G = p->db.lay.ngroups, victim = 0;
    uint32_t frame = (uint32_t)(index / RDB_FRAME_ENTRIES);
    for (int i = 0; i < FRAME_CACHE; i++) {
        cached_frame *c = &p->frames[i];
        if (c->used && c->frame == frame && rdb_slice_equal(&c->slice, s, G)) {
            c->stamp = ++p->clock;
            *value = c->values[index % RDB_FRAME_ENTRIES];
            return RDB_OK;
        }
        if (!c->used || (p->frames[victim].used && c->stamp < p->frames[victim].stamp))
            victim = i;
    }
    rdb_slice_file *sf;
    rdb_status st = open_slice(p, s, &sf, err);
    if (st != RDB_OK)
        return st;
    cached_frame *c = &p->frames[victim];
    c->used = 0;
    if (!c->values && !(c->values = malloc(RDB_FRAME_ENTRIES)))
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    size_t n; /* rdb_slice_open refused any frame size but RDB_FRAME_ENTRIES */
    st = rdb_slice_read_frame(sf, frame, c->values, &n, err);
    if (st != RDB_OK)
        return rdb_db_damaged(&p->db, s, st, err);
    c->used = 1;
    c->slice = *s;
    c->frame = frame;
    c->stamp = ++p->clock;
    *value = c->values[index % RDB_FRAME_ENTRIES];
    return RDB_OK;
}

/* rdb_stored_fn for the search: RDB_E_MISSING only for deleted levels, so
 * that a missing file anywhere else is reported, not searched around. */
static rdb_status stored_value(void *ctx, uint64_t canonical, int *value, rdb_error *err)
{
    rdb_probe *p = ctx;
    rdb_slice s;
    uint64_t index;
    rdb_layout_locate(&p->db.lay, canonical, &s, &index);
    if (rdb_level_deleted(p->deleted, s.level))
        return RDB_E_MISSING;
    rdb_status st = lookup(p, &s, index, value, err);
    return st == RDB_E_MISSING ? RDB_E_CORRUPT : st;
}

const char *rdb_probe_game(const rdb_probe *p)
{
    return p->db.game->name;
}

int rdb_probe_loony(const rdb_probe *p)
{
    return p->db.params.loony;
}

void rdb_probe_info(const rdb_probe *p, rdb_db_info *info)
{
    const rdb_params *params = &p->db.params;
    memset(info, 0, sizeof *info);
    snprintf(info->game, sizeof info->game, "%s", p->db.game->name);
    info->rows = params->rows;
    info->cols = params->cols;
    snprintf(info->variant, sizeof info->variant, "%s", params->variant);
    info->start = params->start;
    info->full_value = params->full_value;
    info->loony = params->loony != 0;
    info->chains = params->chains != 0;
    info->complete = p->complete;
}

/* rdb_sparse_fetch: a stored byte of a sparse database's level. */
static rdb_status sparse_fetch(void *ctx, int level, uint64_t index, int *value, rdb_error *err)
{
    rdb_probe *p = ctx;
    const rdb_db *db = &p->db;
    if (level < 0 || level > db->lay.nbits || index >= db->part_start[level][db->nparts[level]])
        return rdb_fail(err, RDB_E_CORRUPT, "internal error: index %llu beyond level %d",
                        (unsigned long long)index, level);
    rdb_slice s;
    uint64_t at;
    rdb_db_slice_at(db, level, index, &s, &at);
    return lookup(p, &s, at, value, err);
}

/* The stored byte of a board position (game.h), checked by the game;
 * positions of levels the build did not keep are searched by the game,
 * and those a sparse database does not store valued by it. */
static rdb_status stored_byte(rdb_probe *p, uint64_t board, int *value, rdb_error *err)
{
    const rdb_game *game = p->db.game;
    rdb_status st = game->check(p->db.state, board, err);
    if (st != RDB_OK)
        return st;
    if (p->db.sparse)
        return game->sparse_value(p->db.state, p->db.sparse, board, sparse_fetch, p, value, err);
    const rdb_layout *lay = &p->db.lay;
    uint64_t pos = game->position(p->db.state, board);
    rdb_slice s;
    uint64_t index;
    rdb_layout_locate(lay, rdb_layout_canonical(lay, pos), &s, &index);
    if (rdb_level_deleted(p->deleted, s.level)) {
        if (!game->solve_unstored)
            return rdb_fail(err, RDB_E_CORRUPT, "the database in '%s' does not hold level %d",
                            p->db.dir, s.level);
        return game->solve_unstored(p->db.state, lay, pos, stored_value, p, value, err);
    }
    return lookup(p, &s, index, value, err);
}

rdb_status rdb_probe_value(rdb_probe *p, uint64_t position, int *value, rdb_error *err)
{
    int stored, mark;
    *value = 0;
    pthread_mutex_lock(&p->lock);
    rdb_status st = stored_byte(p, position, &stored, err);
    pthread_mutex_unlock(&p->lock);
    if (st == RDB_OK)
        p->db.game->decode(p->db.state, stored, value, &mark);
    return st;
}

rdb_status rdb_probe_values(rdb_probe *p, const uint64_t *positions, size_t n, int8_t *values,
                            size_t *done, rdb_error *err)
{
    rdb_status st = RDB_OK;
    size_t i = 0;
    pthread_mutex_lock(&p->lock);
    for (; i < n; i++) {
        int stored, mark, value = 0;
        st = stored_byte(p, positions[i], &stored, err);
        if (st != RDB_OK) {
            size_t len = strlen(err->msg);
            snprintf(err->msg + len, sizeof err->msg - len, " (position %zu of the batch)", i);
            break;
        }
        p->db.game->decode(p->db.state, stored, &value, &mark);
        values[i] = (int8_t)value;
    }
    pthread_mutex_unlock(&p->lock);
    if (done)
        *done = i;
    return st;
}

_Static_assert(RDB_GAME_MAX_MOVES <= RDB_MAX_MOVES, "an answer must hold every move of any game");

static rdb_status move_values(rdb_probe *p, uint64_t position, rdb_move_values *a,
                              rdb_error *err);

rdb_status rdb_probe_move_values(rdb_probe *p, uint64_t position, rdb_move_values *a,
                                 rdb_error *err)
{
    pthread_mutex_lock(&p->lock);
    rdb_status st = move_values(p, position, a, err);
    pthread_mutex_unlock(&p->lock);
    return st;
}

rdb_status rdb_probe_perfect_game(rdb_probe *p, uint64_t position, int *ids, uint64_t *after,
                                  int max, int *n, rdb_error *err)
{
    const rdb_game *game = p->db.game;
    const void *state = p->db.state;
    *n = 0;
    if (max < 0)
        return rdb_fail(err, RDB_E_INPUT, "room for %d moves", max);
    rdb_move_values *a = malloc(sizeof *a);
    if (!a)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    rdb_status st = RDB_OK;
    for (;;) {
        /* a lookup at a time, as the other calls take the handle: a game
         * through levels not kept searches at each move */
        rdb_game_move moves[RDB_GAME_MAX_MOVES];
        pthread_mutex_lock(&p->lock);
        st = move_values(p, position, a, err);
        pthread_mutex_unlock(&p->lock);
        if (st != RDB_OK || a->nmoves == 0)
            break;
        game->moves(state, position, moves); /* a->moves's, in their order */
        int pick = -1;
        for (int i = 0; i < a->nmoves; i++) {
            const int best = game->impartial ? a->moves[i].value == 0
                                             : a->moves[i].value == a->value;
            if (best && (pick < 0 || (moves[i].again && !moves[pick].again)))
                pick = i;
        }
        if (pick < 0)
            pick = 0; /* a lost Cram position: every move loses */
        if (*n == max) {
            st = rdb_fail(err, RDB_E_INPUT, "the perfect game is longer than %d moves", max);
            break;
        }
        position = moves[pick].child;
        if (after)
            after[*n] = position;
        ids[(*n)++] = moves[pick].id;
    }
    free(a);
    return st;
}

static rdb_status move_values(rdb_probe *p, uint64_t position, rdb_move_values *a,
                              rdb_error *err)
{
    const rdb_game *game = p->db.game;
    const void *state = p->db.state;
    /* on failure the answer holds what was found so far */
    a->value = 0;
    a->mark = RDB_LOONY_NONE;
    a->nmoves = 0;
    int stored;
    rdb_status st = stored_byte(p, position, &stored, err);
    if (st != RDB_OK)
        return st;
    game->decode(state, stored, &a->value, &a->mark);
    rdb_game_move moves[RDB_GAME_MAX_MOVES];
    const int n = game->moves(state, position, moves);
    const uint64_t pos = game->position(state, position);
    a->nmoves = 0;
    for (int i = 0; i < n; i++) {
        int child;
        st = stored_byte(p, moves[i].child, &child, err);
        if (st != RDB_OK)
            return st;
        rdb_move_value *m = &a->moves[a->nmoves++];
        m->id = moves[i].id;
        game->decode(state, game->move_value(state, pos, moves[i].bit, child), &m->value,
                     &m->mark);
    }
    return RDB_OK;
}
