/*
 * level_cache.h — the slices of the level just built, kept in memory.
 *
 * Every slice of level n+1 is read back as a neighbour by one or more
 * slices of level n. When the memory budget allows, the builder keeps a
 * copy of each slice it writes, so that the next level reads it from memory
 * instead of decompressing and checksumming its file again. The copy holds
 * exactly the values written to the file, so the result is the same either
 * way; slices that do not fit the budget are simply read from their files.
 */
#ifndef RDB_LEVEL_CACHE_H
#define RDB_LEVEL_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "layout/layout.h"

typedef struct {
    rdb_slice slice;
    int8_t *values;
} rdb_cached_slice;

typedef struct {
    rdb_cached_slice *e;
    size_t n, cap;
    uint64_t bytes, limit;   /* held and allowed, in bytes */
    int ngroups;
} rdb_level_cache;

void rdb_level_cache_init(rdb_level_cache *c, int ngroups, uint64_t limit);

/* Keep a copy of a slice's values if the budget allows (else do nothing). */
void rdb_level_cache_put(rdb_level_cache *c, const rdb_slice *s, const int8_t *values);

/* The values of slice s, or NULL when they are not held. */
const int8_t *rdb_level_cache_get(const rdb_level_cache *c, const rdb_slice *s);

/* Drop every slice of levels above `level` (no longer needed). */
void rdb_level_cache_drop_above(rdb_level_cache *c, int level);

void rdb_level_cache_free(rdb_level_cache *c);

#endif
