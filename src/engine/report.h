/*
 * report.h — what a database folder says of itself, for `info`, `status`
 * and the line a build ends with: each level's slices, how many are done,
 * their bytes, checksums and recorded seconds (from the manifest), the
 * levels deleted, how far the build is and how fast it went, and whether
 * a builder holds the folder. Read-only: a report takes no lock, so it may
 * be made while a build runs (it then shows the slices recorded so far).
 */
#ifndef RDB_REPORT_H
#define RDB_REPORT_H

#include <stdint.h>

#include "common/error.h"
#include "engine/db.h"
#include "layout/universe.h"

/* One level, as its manifest records describe it. */
typedef struct {
    int slices, done;
    uint64_t positions, done_positions, bytes;
    uint64_t checksum;        /* the finished slices' checksums, folded in order */
    double seconds;           /* time recorded for the finished slices */
    uint64_t timed_positions; /* positions of the slices with a recorded time */
    int timed_slices;         /* and how many slices they are */
    int deleted;              /* the level's files are gone (build --keep-lines) */
} rdb_level_report;

/* The slices a recent rate is taken over: the last built (the lowest
 * levels done) of a build resumed with a newer program, or moved to a
 * busier or quieter machine, say its rate now better than all of them. */
#define RDB_REPORT_RECENT_SLICES 4

/* How far a build is, over every level, and over its last slices. */
typedef struct {
    uint64_t total, done, timed_positions;
    double total_work, done_work, timed_work; /* weighted by moves (progress.h) */
    double seconds;
    int levels, levels_done, lowest_done;     /* lowest_done: -1 when none */
    int recent_slices; /* timed slices of the lowest levels done, RDB_REPORT_RECENT_SLICES at least */
    uint64_t recent_positions;
    double recent_work, recent_seconds;
    /* Seconds left at the whole build's rate, and at its last slices'
     * (when they are not all of them); -1 when there is no estimate */
    double left, recent_left;
} rdb_build_progress;

typedef struct {
    rdb_db db;                                  /* the database, open */
    rdb_level_report level[RDB_MAX_BITS + 1];   /* [level], 0..db.lay.nbits */
    uint64_t deleted;                           /* deleted levels (rdb_level_is_deleted) */
    rdb_build_progress progress;
} rdb_report;

/* Open the database in dir and read its manifest into a report
 * (rdb_report_free frees it). Errors: those of rdb_db_open and of the
 * manifest's reading. */
rdb_status rdb_report_read(const char *dir, rdb_report *r, rdb_error *err);
void rdb_report_free(rdb_report *r);

/* Whether level `level` is in a report's mask of deleted levels. */
int rdb_level_is_deleted(uint64_t deleted, int level);

/* The positions of the slices whose time was recorded, and their rate
 * (0 when none was): the build's speed, each slice counted once however
 * often the build was resumed. */
void rdb_report_speed(const rdb_report *r, uint64_t *positions, double *seconds, double *rate);

/* The pid of the builder holding the folder, 0 when none does. */
long rdb_report_builder(const char *dir);

#endif
