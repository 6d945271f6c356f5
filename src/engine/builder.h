/*
 * builder.h — building a database of any game (game.h) by backward induction.
 *
 * Levels (bits taken beyond the start: lines drawn, cells covered) are
 * processed from the full position down to the start position. Each slice
 * of a level is computed from its neighbour slices in the level a move
 * leads to, one neighbour in memory at a time, then written as a slice
 * file and recorded in the manifest. A build on a directory that holds an
 * unfinished build of the same parameters carries on from the slices
 * already recorded. Several processes (MPI ranks) can share one build,
 * each running rdb_build with the same options and its own distribution
 * (distribution.h); the files are the same as one process writes.
 */
#ifndef RDB_BUILDER_H
#define RDB_BUILDER_H

#include "common/job.h"
#include "engine/db.h"
#include "engine/distribution.h"

typedef struct {
    const char *dir;
    rdb_params params;      /* params.ngroups 0 = choose from memory_mb */
    long memory_mb;         /* budget for the slices held in memory */
    int threads;            /* 0 = every core */
    int quiet;              /* no progress on stderr */
    int keep_lines;         /* keep levels with at most this many bits taken
                               (the start's included); -1 = keep everything */
    double disk_gb;         /* refuse when the estimated peak disk use is
                               higher; 0 = no limit */
    int window;             /* a sparse database's dropped parts kept while
                               this many levels below are built (more disk at
                               the peak, fewer positions valued from their
                               moves); 0 = the game's default */
    const rdb_distribution *dist; /* the processes sharing the build;
                               NULL = this process alone */
} rdb_build_options;

rdb_status rdb_build(const rdb_build_options *opt, rdb_error *err);

#endif
