/*
 * kernel.h — computing the values of one slice from its neighbour slices,
 * for any game (game.h).
 *
 * A slice's children lie in the slices move_bits levels up whose counts
 * are the slice's plus move_bits more spread over the groups (one more in
 * one group for a line; two more in one group or one more in each of two
 * for a domino). The engine visits those neighbours one at a time, so that
 * only the output slice and one neighbour are in memory (Wilson's trick),
 * and hands each to the game's slice kernel, which combines the moves that
 * lead into it. rdb_kernel holds the game's kernel tables; it is built once
 * per database.
 */
#ifndef RDB_KERNEL_H
#define RDB_KERNEL_H

#include <stdint.h>

#include "engine/db.h"
#include "engine/level_cache.h"

typedef struct {
    const rdb_db *db;
    void *game_kernel;      /* the game's tables (game.h kernel_new) */
} rdb_kernel;

rdb_status rdb_kernel_init(rdb_kernel *k, const rdb_db *db, rdb_error *err);
void rdb_kernel_free(rdb_kernel *k);

/* The one neighbour slice in use: read from its file into buffer, or found
 * in the level cache. valid says whether values holds `slice` now. */
typedef struct {
    int8_t *buffer;         /* room for the largest slice */
    const int8_t *values;   /* the neighbour's values: buffer or a cached copy */
    rdb_slice slice;
    int valid;
    int damaged;            /* the last load found slice's file missing or
                               damaged (the builder then redoes it) */
    const rdb_level_cache *cache; /* slices held in memory, or NULL */
    double read_seconds;    /* time spent reading neighbours, for reports */
    uint64_t read_bytes;    /* bytes of neighbour files read, for reports */
} rdb_neighbour;

/* Make nb hold slice n (a neighbour of the slice being computed): from the
 * level cache when it is there, else from its file. */
rdb_status rdb_load_neighbour(const rdb_db *db, const rdb_slice *n, rdb_neighbour *nb,
                              rdb_error *err);

/* The values of slice s, reading neighbours from the database directory
 * into nb (whose current contents are reused when s needs them). best holds
 * s->size values. */
rdb_status rdb_compute_slice(const rdb_kernel *k, const rdb_slice *s, int8_t *best,
                             rdb_neighbour *nb, rdb_error *err);

#endif
