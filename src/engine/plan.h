/*
 * plan.h — what a build will take, worked out before it touches its
 * folder: the layout it gets (or already has, for a build that resumes),
 * the memory its largest slice needs, the disk at its peak and at the end,
 * and how many positions it computes.
 *
 * The builder asks for the plan first and refuses (RDB_E_INPUT, the folder
 * left as it was found) when the budgets cannot hold it; `build --plan`
 * prints it.
 */
#ifndef RDB_PLAN_H
#define RDB_PLAN_H

#include <stdint.h>

#include "engine/builder.h"
#include "engine/db.h"

typedef struct {
    int resumes;               /* the folder holds this build already */
    int ngroups;
    int nbits;                 /* lines or cells beyond the start */
    int keep_level;            /* levels above this are deleted as the build goes */
    uint64_t positions;        /* stored, over every level */
    uint64_t max_slice;        /* positions in the largest slice */
    uint64_t memory_bytes;     /* what --memory must hold for the largest slice */
    uint64_t peak_disk_bytes;  /* estimated */
    uint64_t final_disk_bytes; /* estimated, the kept levels */
    uint64_t slice_positions;  /* a sparse database: the most positions of a slice */
    uint64_t cache_bytes;      /* a sparse database: what --memory leaves for the
                                  cache of the levels above (0: too little) */
    int window;                /* a sparse database's dropped parts kept while this
                                  many levels below are built (-1: all kept; with
                                  --disk, the least: more while the disk allows) */
    int disk_known;            /* the free space below could be read */
    uint64_t free_disk_bytes;  /* free now on the folder's file system */
    uint64_t held_disk_bytes;  /* taken now by the folder (a build that resumes) */
} rdb_build_plan;

/* The plan of the build opt describes. Refuses, with a message that says
 * which option to change and to what, when the folder holds another
 * build, when no split into groups fits --memory, or when the peak disk
 * use is over --disk. Reads the folder, writes nothing. */
rdb_status rdb_build_plan_make(const rdb_build_options *opt, rdb_build_plan *plan,
                               rdb_error *err);

/* A quiet build's speed on this machine, measured on a sample of the
 * board's positions (about a second of CPU, on the build's threads at
 * once, after the index is made): *ns_per_position a stored position
 * takes a thread while the others work beside it, over *sampled
 * positions. RDB_E_INPUT for a build that stores every
 * position. */
rdb_status rdb_build_plan_sample(const rdb_build_options *opt, double *ns_per_position,
                                 uint64_t *sampled, rdb_error *err);

/* How long a build computes, estimated (rdb_build_plan_time). */
typedef struct {
    double seconds;        /* of computing with `threads` threads */
    int threads;
    double sample_ns;      /* a quiet build: a stored position's time for a
                              thread of `threads` at work, measured on a
                              sample (0: no sample) */
    uint64_t sampled;      /* the sample's positions */
    double guide_rate;     /* else a rough guide: positions a second a thread */
} rdb_build_time;

/* The plan's time: a quiet build's from a sample of its own positions
 * timed here (rdb_build_plan_sample: its speed varies with the board),
 * any other's (or a quiet one whose index cannot be made here) from a
 * rough guide of positions a second a thread, measured on 3x5
 * Dots-and-Boxes and 4x6 Cram on one machine. */
void rdb_build_plan_time(const rdb_build_options *opt, const rdb_build_plan *plan,
                         rdb_build_time *t);

/* The free space of the folder's file system and what the folder holds
 * now (disk_known, free_disk_bytes, held_disk_bytes), for `build --plan`
 * to set beside the peak; disk_known 0 when either cannot be read. A
 * build does not ask: it meets a full disk when it comes, keeping every
 * finished slice. */
void rdb_build_plan_disk(const rdb_build_options *opt, rdb_build_plan *plan);

/* A build whose estimated peak does not fit the free space where it goes
 * (with what the folder holds: a resumed build's room) is refused before
 * it starts (RDB_E_INPUT), saying by how much and what would fit; --disk
 * GB allows that much instead. Fills the plan's disk fields. */
rdb_status rdb_build_disk_check(const rdb_build_options *opt, rdb_build_plan *plan, rdb_error *err);

/* Bytes of memory a build holds per position of its largest slice: the
 * slice, one neighbour, and up to two compressed slices (one being
 * written, one being handed over), which take well under half a raw slice
 * each, and the game kernel's own working memory. */
uint64_t rdb_build_bytes_per_position(const rdb_game *game);

/* A sparse database's build holds the game's numbering, the level it
 * computes and that level compressed (well under half its size), and
 * reads the levels above through a cache: the bytes of the first three,
 * and what --memory leaves for the cache (at least what its views pin). */
uint64_t rdb_build_sparse_fixed_bytes(const rdb_db *db);
uint64_t rdb_build_sparse_cache_bytes(const rdb_build_options *opt, const rdb_db *db);

/* The highest level kept (levels above it are deleted once no level needs
 * them): opt->keep_lines counts the start's lines too. */
int rdb_build_keep_level(const rdb_build_options *opt, const rdb_db *db);

/* The error for a budget that cannot hold a slice of `positions`. */
rdb_status rdb_build_memory_refusal(const rdb_build_options *opt, const rdb_game *game,
                                    uint64_t positions, rdb_error *err);

#endif
