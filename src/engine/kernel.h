/*
 * kernel.h — computing the values of one slice from its neighbour slices.
 *
 * A slice is a matrix: one row per state of the outer groups, one column
 * per state of the inner (last) group. The kernel visits the neighbour
 * slices one at a time (only the output slice and one neighbour are in
 * memory) and relaxes every position with the moves that lead into that
 * neighbour. rdb_kernel holds the tables that make this cheap; it is built
 * once per database.
 */
#ifndef RDB_KERNEL_H
#define RDB_KERNEL_H

#include <stdint.h>

#include "engine/db.h"
#include "engine/level_cache.h"

/* For each count k of the inner group: the moves of every state of that
 * count, `inner_moves[k]` per state (padded), each packed as
 *   (bit << 2 | flags) << 16 | rank of the child state,
 * where flags bit x says that all inner sides of the move's box x other than
 * the move itself are drawn. */
typedef struct {
    const rdb_db *db;
    uint32_t *inner[RDB_MAX_GROUP_BITS + 1];
    int inner_moves[RDB_MAX_GROUP_BITS + 1];
    struct cram_kernel *cram;   /* Cram's tables (cram_kernel.h), or NULL */
    struct loony_offers *loony; /* loony analysis (loony_offers.h), or NULL */
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
    const rdb_level_cache *cache; /* slices held in memory, or NULL */
    double read_seconds;    /* time spent reading neighbours, for reports */
} rdb_neighbour;

/* The values of slice s, reading neighbours from the database directory
 * into nb (whose current contents are reused when s needs them). best holds
 * s->size values. */
/* Make nb hold slice n (a neighbour of the slice being computed): from the
 * level cache when it is there, else from its file. */
rdb_status rdb_load_neighbour(const rdb_db *db, const rdb_slice *n, rdb_neighbour *nb,
                              rdb_error *err);

rdb_status rdb_compute_slice(const rdb_kernel *k, const rdb_slice *s, int8_t *best,
                             rdb_neighbour *nb, rdb_error *err);

#endif
