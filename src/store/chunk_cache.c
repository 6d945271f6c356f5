/*
 * chunk_cache.c — levels read in chunks through a bounded cache; see
 * chunk_cache.h.
 *
 * Every chunk of every level has a place in a per-level table, empty
 * until loaded. Loaded chunks nobody pins sit in a least-recently-used
 * list, whose oldest are evicted while the cache holds more than its
 * budget; a pinned chunk is in no list.
 */
#include "store/chunk_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/invariant.h"

struct rdb_chunk_entry {
    int8_t *data;
    uint32_t bytes;
    int refs;
    int level;
    uint32_t chunk;
    rdb_chunk_entry *older, *newer; /* the unpinned list, when refs == 0 */
};

struct rdb_chunk_cache {
    pthread_mutex_t lock;
    uint64_t budget, held;
    int nlevels;
    uint64_t *level_size;
    rdb_chunk_entry ***at; /* [level][chunk] */
    rdb_chunk_entry *oldest, *newest;
    rdb_chunk_load_fn load;
    void *ctx;
    rdb_chunk_stats stats;
    int failed_level;
};

static uint64_t chunks_of(uint64_t size)
{
    return (size + RDB_CHUNK_ENTRIES - 1) >> RDB_CHUNK_SHIFT;
}

rdb_status rdb_chunk_cache_new(uint64_t budget, int nlevels, const uint64_t *level_size,
                               rdb_chunk_load_fn load, void *ctx, rdb_chunk_cache **out,
                               rdb_error *err)
{
    rdb_chunk_cache *c = calloc(1, sizeof *c);
    if (!c)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the level cache");
    c->budget = budget;
    c->nlevels = nlevels;
    c->load = load;
    c->ctx = ctx;
    c->level_size = malloc((size_t)nlevels * sizeof *c->level_size);
    c->at = calloc((size_t)nlevels, sizeof *c->at);
    int ok = c->level_size && c->at;
    for (int l = 0; ok && l < nlevels; l++) {
        c->level_size[l] = level_size[l];
        const uint64_t n = chunks_of(level_size[l]);
        ok = !n || (c->at[l] = calloc(n, sizeof *c->at[l]));
    }
    if (!ok) {
        rdb_chunk_cache_free(c);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the level cache");
    }
    pthread_mutex_init(&c->lock, NULL);
    c->failed_level = -1;
    *out = c;
    return RDB_OK;
}

/* What eviction and the views rely on (under the lock): every chunk held
 * is in its place of the table, and its bytes are in `held`; the
 * unpinned list holds exactly the chunks nobody pins, linked both ways;
 * the cache exceeds its budget only by what is pinned (nothing is left
 * to evict then). */
static int cache_consistent(const rdb_chunk_cache *c)
{
    uint64_t held = 0, unpinned = 0, listed = 0;
    for (int l = 0; l < c->nlevels; l++) {
        const uint64_t n = chunks_of(c->level_size[l]);
        for (uint64_t i = 0; c->at[l] && i < n; i++) {
            const rdb_chunk_entry *e = c->at[l][i];
            if (!e)
                continue;
            if (e->level != l || e->chunk != i || e->refs < 0)
                return 0;
            held += e->bytes;
            unpinned += e->refs == 0;
        }
    }
    for (const rdb_chunk_entry *e = c->oldest; e; e = e->newer) {
        if (e->refs != 0 || c->at[e->level][e->chunk] != e ||
            (e->newer ? e->newer->older != e : c->newest != e))
            return 0;
        listed++;
    }
    return held == c->held && listed == unpinned && (c->held <= c->budget || !c->oldest);
}

/* A view's chunks: each slot's key names the chunk its entry holds, its
 * data is that chunk's, and the view pins it. */
static int view_consistent(const rdb_chunk_view *v)
{
    for (int s = 0; s < RDB_VIEW_SLOTS; s++) {
        const rdb_chunk_entry *e = v->entry[s];
        if (!e ? v->key[s] != 0
               : v->key[s] != ((uint64_t)e->level << 32 | e->chunk) + 1 || v->data[s] != e->data ||
                     e->refs < 1 || rdb_chunk_slot(e->level, e->chunk) != (unsigned)s)
            return 0;
    }
    return 1;
}

static void unlist(rdb_chunk_cache *c, rdb_chunk_entry *e)
{
    if (e->older)
        e->older->newer = e->newer;
    else
        c->oldest = e->newer;
    if (e->newer)
        e->newer->older = e->older;
    else
        c->newest = e->older;
    e->older = e->newer = NULL;
}

static void list_newest(rdb_chunk_cache *c, rdb_chunk_entry *e)
{
    e->older = c->newest;
    e->newer = NULL;
    if (c->newest)
        c->newest->newer = e;
    else
        c->oldest = e;
    c->newest = e;
}

static void forget(rdb_chunk_cache *c, rdb_chunk_entry *e)
{
    unlist(c, e);
    c->at[e->level][e->chunk] = NULL;
    c->held -= e->bytes;
    free(e->data);
    free(e);
}

static void evict_over_budget(rdb_chunk_cache *c)
{
    while (c->held > c->budget && c->oldest)
        forget(c, c->oldest);
}

void rdb_chunk_cache_free(rdb_chunk_cache *c)
{
    if (!c)
        return;
    if (c->at) {
        for (int l = 0; l < c->nlevels; l++) {
            if (!c->at[l])
                continue;
            const uint64_t n = chunks_of(c->level_size[l]);
            for (uint64_t i = 0; i < n; i++)
                if (c->at[l][i]) {
                    free(c->at[l][i]->data);
                    free(c->at[l][i]);
                }
            free(c->at[l]);
        }
        free(c->at);
        pthread_mutex_destroy(&c->lock);
    }
    free(c->level_size);
    free(c);
}

void rdb_chunk_cache_drop_level(rdb_chunk_cache *c, int level)
{
    pthread_mutex_lock(&c->lock);
    const uint64_t n = chunks_of(c->level_size[level]);
    for (uint64_t i = 0; i < n; i++)
        if (c->at[level][i] && c->at[level][i]->refs == 0)
            forget(c, c->at[level][i]);
    RDB_INVARIANT(cache_consistent(c), "the chunk cache's table, list and bytes agree");
    pthread_mutex_unlock(&c->lock);
}

rdb_chunk_stats rdb_chunk_cache_stats(const rdb_chunk_cache *c)
{
    return c->stats;
}

int rdb_chunk_cache_failed_level(const rdb_chunk_cache *c)
{
    return c->failed_level;
}

uint64_t rdb_chunk_cache_least_budget(int threads)
{
    /* what the views can pin, and as much again to move in */
    return 2 * (uint64_t)(threads > 0 ? threads : 1) * RDB_VIEW_SLOTS * RDB_CHUNK_ENTRIES;
}

/* The entry of a chunk, loaded if need be, pinned once more; NULL on
 * failure (v->err says why). Under the lock. */
static rdb_chunk_entry *pin(rdb_chunk_cache *c, int level, uint32_t chunk, rdb_chunk_view *v)
{
    rdb_chunk_entry *e = c->at[level][chunk];
    if (e) {
        if (e->refs++ == 0)
            unlist(c, e);
        return e;
    }
    const uint64_t lo = (uint64_t)chunk << RDB_CHUNK_SHIFT;
    const uint64_t left = c->level_size[level] - lo;
    const uint32_t bytes = left < RDB_CHUNK_ENTRIES ? (uint32_t)left : RDB_CHUNK_ENTRIES;
    e = calloc(1, sizeof *e);
    int8_t *data = malloc(bytes);
    if (!e || !data) {
        free(e);
        free(data);
        v->status = rdb_fail(&v->err, RDB_E_NOMEM, "out of memory for the level cache");
        return NULL;
    }
    rdb_status st = c->load(c->ctx, level, chunk, data, &v->err);
    if (st != RDB_OK) {
        free(e);
        free(data);
        c->failed_level = level;
        v->status = st;
        return NULL;
    }
    e->data = data;
    e->bytes = bytes;
    e->refs = 1;
    e->level = level;
    e->chunk = chunk;
    c->at[level][chunk] = e;
    c->held += bytes;
    c->stats.loads++;
    c->stats.loaded_bytes += bytes;
    evict_over_budget(c);
    if (c->held > c->stats.peak_bytes)
        c->stats.peak_bytes = c->held;
    return e;
}

static void unpin(rdb_chunk_cache *c, rdb_chunk_entry *e)
{
    if (--e->refs == 0) {
        list_newest(c, e);
        evict_over_budget(c);
    }
}

void rdb_chunk_view_init(rdb_chunk_view *v, rdb_chunk_cache *c)
{
    memset(v->key, 0, sizeof v->key);
    memset(v->entry, 0, sizeof v->entry);
    v->cache = c;
    v->failed = 0;
    v->status = RDB_OK;
    v->err.msg[0] = '\0';
}

void rdb_chunk_view_release(rdb_chunk_view *v)
{
    rdb_chunk_cache *c = v->cache;
    pthread_mutex_lock(&c->lock);
    for (int s = 0; s < RDB_VIEW_SLOTS; s++)
        if (v->entry[s]) {
            unpin(c, v->entry[s]);
            v->entry[s] = NULL;
            v->key[s] = 0;
        }
    RDB_INVARIANT(cache_consistent(c), "the chunk cache's table, list and bytes agree");
    pthread_mutex_unlock(&c->lock);
}

int rdb_chunk_view_miss(rdb_chunk_view *v, int level, uint64_t index)
{
    if (v->failed)
        return 0;
    rdb_chunk_cache *c = v->cache;
    const uint32_t chunk = (uint32_t)(index >> RDB_CHUNK_SHIFT);
    if (level < 0 || level >= c->nlevels || index >= c->level_size[level]) {
        v->failed = 1;
        v->status = rdb_fail(&v->err, RDB_E_CORRUPT,
                             "position %llu of level %d is outside the levels cached",
                             (unsigned long long)index, level);
        return 0;
    }
    const unsigned s = rdb_chunk_slot(level, chunk);
    pthread_mutex_lock(&c->lock);
    if (v->entry[s])
        unpin(c, v->entry[s]);
    v->entry[s] = NULL;
    v->key[s] = 0;
    rdb_chunk_entry *e = pin(c, level, chunk, v);
    RDB_INVARIANT(cache_consistent(c), "the chunk cache's table, list and bytes agree");
    pthread_mutex_unlock(&c->lock);
    if (!e) {
        v->failed = 1;
        return 0;
    }
    v->entry[s] = e;
    v->data[s] = e->data;
    v->key[s] = ((uint64_t)level << 32 | chunk) + 1;
    RDB_INVARIANT(view_consistent(v), "a view's slots name the chunks it pins");
    return e->data[index & (RDB_CHUNK_ENTRIES - 1)];
}
