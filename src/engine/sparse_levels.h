/*
 * sparse_levels.h — a sparse database's levels, read from their files
 * through a cache of bounded size (store/chunk_cache.h).
 *
 * Computing a level of a sparse database reads every level above it
 * (game.h's sparse_level), the build and `verify --full` alike; on big
 * boards they do not fit in memory together, so they are read a chunk at
 * a time, as lookups ask for them. A slice's file is opened at its first
 * chunk; a slice written since (one redone) must be forgotten first.
 */
#ifndef RDB_SPARSE_LEVELS_H
#define RDB_SPARSE_LEVELS_H

#include "engine/db.h"
#include "store/chunk_cache.h"

typedef struct rdb_sparse_levels rdb_sparse_levels;

/* The levels of db (a sparse database) with a cache of `budget` bytes. */
rdb_status rdb_sparse_levels_open(const rdb_db *db, uint64_t budget, rdb_sparse_levels **out,
                                  rdb_error *err);
void rdb_sparse_levels_close(rdb_sparse_levels *s);

rdb_chunk_cache *rdb_sparse_levels_cache(rdb_sparse_levels *s);

/* The levels whose dropped part (game.h's sparse_window) is gone, bit =
 * level: their chunks are read again without it (zeros in its place). */
void rdb_sparse_levels_set_dropped(rdb_sparse_levels *s, uint64_t dropped);

/* A slice of level l was written again: drop what was read of the old
 * files. */
void rdb_sparse_levels_forget(rdb_sparse_levels *s, int level);

/* The slice whose file last failed to be read (level -1 when none). */
void rdb_sparse_levels_failed(const rdb_sparse_levels *s, rdb_slice *slice);

#endif
