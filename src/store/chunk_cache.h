/*
 * chunk_cache.h — the stored bytes of many levels, read in chunks through
 * a cache of bounded size.
 *
 * A quiet database's level is computed from every level above it (a
 * capture run can end many levels up), and on the boards worth building
 * those levels together are far larger than memory: 3x6 holds 30 GB of
 * values, 4x5 300 GB. But the positions one stored position reaches share
 * its frame state but for a line or two, so they cluster in few chunks of
 * each level, and a cache a fraction of the levels' size serves nearly
 * every lookup. A chunk is one frame of a slice file (RDB_FRAME_ENTRIES
 * values), which the file decompresses on its own.
 *
 * Threads read through views: a view remembers the chunks its thread used
 * last in a small direct-mapped table, so the common lookup is a compare
 * and a load, with no lock. Every chunk a view remembers is pinned (never
 * evicted) until the view lets it go, so a view's pointers stay valid;
 * the cache may exceed its budget by what views pin. Misses take the
 * cache's lock, and loads happen under it: decompressing a chunk costs
 * less than computing the few hundred positions that miss it.
 */
#ifndef RDB_CHUNK_CACHE_H
#define RDB_CHUNK_CACHE_H

#include <stdint.h>

#include "common/error.h"
#include "store/slicefile.h"

#define RDB_CHUNK_SHIFT 17 /* log2 of RDB_FRAME_ENTRIES */
#define RDB_CHUNK_ENTRIES (1u << RDB_CHUNK_SHIFT)
_Static_assert(RDB_CHUNK_ENTRIES == RDB_FRAME_ENTRIES, "a chunk is a slice file's frame");

typedef struct rdb_chunk_cache rdb_chunk_cache;

/* Fill out (RDB_CHUNK_ENTRIES bytes at most) with chunk `chunk` of level
 * `level`: its values, as many as the level has from chunk << SHIFT on. */
typedef rdb_status (*rdb_chunk_load_fn)(void *ctx, int level, uint32_t chunk, int8_t *out,
                                        rdb_error *err);

/* A cache over levels 0..nlevels-1 of level_size[l] bytes each, holding
 * about `budget` bytes of chunks, filled by load. */
rdb_status rdb_chunk_cache_new(uint64_t budget, int nlevels, const uint64_t *level_size,
                               rdb_chunk_load_fn load, void *ctx, rdb_chunk_cache **out,
                               rdb_error *err);
/* Every view must have been released. */
void rdb_chunk_cache_free(rdb_chunk_cache *c);

/* Forget every chunk of a level (none pinned): its file changed. */
void rdb_chunk_cache_drop_level(rdb_chunk_cache *c, int level);

typedef struct {
    uint64_t loads;        /* chunks read from their source */
    uint64_t loaded_bytes; /* bytes they held */
    uint64_t peak_bytes;   /* most bytes held at once */
} rdb_chunk_stats;
rdb_chunk_stats rdb_chunk_cache_stats(const rdb_chunk_cache *c);

/* The level of the last chunk that failed to load, -1 when none did. */
int rdb_chunk_cache_failed_level(const rdb_chunk_cache *c);

/* Memory a view can pin: the least budget that makes sense for `threads`
 * views. */
uint64_t rdb_chunk_cache_least_budget(int threads);

#define RDB_VIEW_SLOTS 256

typedef struct rdb_chunk_entry rdb_chunk_entry;

/* One thread's way into a cache. After a failed load `failed` is set,
 * err says why, and lookups give 0 until the view is released. */
typedef struct {
    rdb_chunk_cache *cache;
    uint64_t key[RDB_VIEW_SLOTS];     /* (level << 32 | chunk) + 1, 0 when empty */
    const int8_t *data[RDB_VIEW_SLOTS];
    rdb_chunk_entry *entry[RDB_VIEW_SLOTS];
    int failed;
    rdb_status status;
    rdb_error err;
} rdb_chunk_view;

void rdb_chunk_view_init(rdb_chunk_view *v, rdb_chunk_cache *c);
/* Unpin every chunk the view holds. */
void rdb_chunk_view_release(rdb_chunk_view *v);
/* The slow path of rdb_chunk_value. */
int rdb_chunk_view_miss(rdb_chunk_view *v, int level, uint64_t index);

static inline unsigned rdb_chunk_slot(int level, uint64_t chunk)
{
    return (unsigned)(chunk + (uint64_t)level * 37) & (RDB_VIEW_SLOTS - 1);
}

/* The stored byte at `index` of `level`. */
static inline int rdb_chunk_value(rdb_chunk_view *v, int level, uint64_t index)
{
    const uint64_t chunk = index >> RDB_CHUNK_SHIFT;
    const unsigned s = rdb_chunk_slot(level, chunk);
    if (v->key[s] == ((uint64_t)level << 32 | chunk) + 1)
        return v->data[s][index & (RDB_CHUNK_ENTRIES - 1)];
    return rdb_chunk_view_miss(v, level, index);
}

/* Asks the processor to bring the stored byte at `index` of `level` into
 * its caches, when the view holds its chunk (else nothing: the lookup
 * itself loads it). A lookup whose index is known some work before its
 * value is needed (a batch of them, ranked first) then waits for no
 * miss: on a big board the levels above are gigabytes, read at random. */
static inline void rdb_chunk_prefetch(const rdb_chunk_view *v, int level, uint64_t index)
{
    const uint64_t chunk = index >> RDB_CHUNK_SHIFT;
    const unsigned s = rdb_chunk_slot(level, chunk);
    if (v->key[s] == ((uint64_t)level << 32 | chunk) + 1)
        __builtin_prefetch(v->data[s] + (index & (RDB_CHUNK_ENTRIES - 1)));
}

/* The bytes of chunk `chunk` of `level` (RDB_CHUNK_ENTRIES of them, fewer
 * in a level's last chunk), loaded if need be; NULL after a failed load.
 * They stay the view's until it next loads a chunk into that slot (a
 * lookup of another chunk may): a run of lookups in one chunk reads them
 * directly. */
static inline const int8_t *rdb_chunk_data(rdb_chunk_view *v, int level, uint64_t chunk)
{
    const unsigned s = rdb_chunk_slot(level, chunk);
    if (v->key[s] != ((uint64_t)level << 32 | chunk) + 1) {
        rdb_chunk_view_miss(v, level, chunk << RDB_CHUNK_SHIFT);
        if (v->failed)
            return NULL;
    }
    return v->data[s];
}

#endif
