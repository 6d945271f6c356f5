/*
 * table_growth.h — how a table that a search's worker threads share
 * grows, the search runtime's protocol: the table grows while no worker
 * probes it. The first worker to find it due (rdb_table_growth_run) waits
 * until every other active worker has parked (each does at its next node,
 * where none holds a bucket or a pointer into the table:
 * rdb_table_growth_run again, or rdb_table_growth_park), makes the table
 * bigger, and then every worker, parked ones too, moves chunks of the old
 * table's buckets until none is left; the grower then finishes (frees the
 * old table, or moves what only one thread can), every other worker still
 * waiting, and lets them go.
 *
 * Why every worker moves: moving with one thread while the others waited
 * took Cram's 3x20 about 10 s of both cores at its doubling to 4 GB, and
 * 4x13 25 s at 8 GB, much of it the kernel clearing the new pages, which
 * the threads now share too.
 *
 * The table says how it grows through three calls. begin, made by one
 * worker while the others wait, makes the table bigger (a new mapping
 * beside the old, or the old one made longer) and returns how many units
 * (buckets) of the old one the workers move (0: none, it could not grow);
 * move moves units [from, to), made by any worker, several at once on
 * ranges that do not overlap; end, after every unit is moved, finishes
 * the growth and clears the table's request to grow, one worker again.
 *
 * A worker joins (rdb_table_growth_join) before it first touches the
 * table in a parallel region and leaves (rdb_table_growth_leave) when it
 * is done with it, so that a growth waits for exactly the workers that
 * can hold a pointer into the table.
 */
#ifndef RDB_SEARCH_TABLE_GROWTH_H
#define RDB_SEARCH_TABLE_GROWTH_H

#include <stdint.h>

/* The old table's buckets are moved in this many chunks. */
#define RDB_GROWTH_CHUNKS 256

typedef struct {
    uint64_t (*begin)(void *table);
    void (*move)(void *table, uint64_t from, uint64_t to);
    void (*end)(void *table, int moved);
    void *table;
} rdb_growth_ops;

typedef struct {
    rdb_growth_ops ops;
    int active;            /* workers that may touch the table */
    int parked;            /* of those, the ones waiting for it to grow */
    int growing;           /* a worker is growing it */
    uint64_t units;        /* the old table's units to move, while it grows */
    unsigned next;         /* the next chunk to move (RDB_GROWTH_CHUNKS or
                              more: none) */
    unsigned done;         /* chunks moved */
} rdb_table_growth;

/* Ready for a search: no worker active, no growth under way. */
void rdb_table_growth_init(rdb_table_growth *g, const rdb_growth_ops *ops);

/* A worker starts to use the table (and first helps a growth under way),
 * and stops. */
void rdb_table_growth_join(rdb_table_growth *g);
void rdb_table_growth_leave(rdb_table_growth *g);

/* The table is due to grow: grow it, or, when another worker is growing
 * it, help and wait until it has. Called by a worker that holds nothing
 * of the table. */
void rdb_table_growth_run(rdb_table_growth *g);

/* Wait while another worker grows the table, moving chunks. */
void rdb_table_growth_park(rdb_table_growth *g);

#endif
