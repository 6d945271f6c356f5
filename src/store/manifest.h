/*
 * manifest.h — the record of finished work in a database directory.
 *
 * DIR/MANIFEST is a text file appended to and fsync'ed after each slice
 * file is durable, so it never names a slice whose file was not complete
 * when it was recorded:
 *   slice <level> <k0>,<k1>,... <entries> <checksum hex> <bytes> <seconds>
 *   deleted <level>
 *   dropped <level>
 * A slice may be recorded more than once (it was redone after damage): the
 * last record counts. A line cut short by a crash is ignored, and the next
 * append starts on a fresh line. So is any line that does not name a
 * level of the database (0..nbits; a deleted level 1..nbits; a dropped
 * one 0..63: a sparse database's level whose positions of the class it
 * does not keep are gone, game.h's sparse_window) or a count a
 * group can hold: the manifest only ever vouches for what it names
 * exactly, and whatever it does not vouch for is redone or checked.
 *
 * A build spread over several processes (MPI ranks) has one writer of
 * DIR/MANIFEST, and each other process appends its records in the same
 * format to its own part, DIR/MANIFEST.<n> (n > 0), so that no two
 * processes append to one file. Loading reads the parts after the
 * manifest, so a reader, and a build resumed after a crash, sees every
 * record made durable; the parts are folded into the manifest at the end
 * of each level and when a build starts.
 */
#ifndef RDB_MANIFEST_H
#define RDB_MANIFEST_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "layout/layout.h"

/* The highest slice number of a sparse database's level a record can
 * name (db.c refuses to cut a level into more slices). */
#define RDB_MANIFEST_MAX_PART 65535

typedef struct {
    int level;
    /* the slice: a layout's counts of lines in each group (at most
     * RDB_MAX_GROUP_BITS each), or a sparse database's slice of its level
     * in counts[0] (at most RDB_MANIFEST_MAX_PART), the others 0 */
    uint16_t counts[RDB_MAX_GROUPS];
    uint64_t entries, checksum, bytes;
    double seconds;          /* time it took to compute and write */
    size_t seq;              /* order of the record in the file */
} rdb_manifest_entry;

typedef struct {
    rdb_manifest_entry *e;   /* sorted by (level, counts), one per slice */
    size_t n, cap, seq;
    int ngroups, nbits;
    uint64_t deleted;        /* deleted levels: see rdb_level_deleted */
    uint64_t dropped;        /* levels whose dropped class is gone: bit = level */
    int fd;                  /* open for appending once something is added */
    int part;                /* 0: append to MANIFEST; n > 0: to MANIFEST.<n> */
    int parts_found;         /* how many parts the last load read */
    int other_layout;        /* records of slices of another layout met (manifest.c) */
    int lent;                /* the writer's (writer.h), from a submit to the
                                drain: no other thread may use it then */
    pthread_t writer;        /* the writer's thread, while lent */
} rdb_manifest;

/* Whether level `level` is in a mask of deleted levels. Level 0, the
 * start, is never deleted, so level L is bit L-1 and the 64 levels above
 * the start of a 64-bit board fit; any other level is not deleted. */
static inline int rdb_level_deleted(uint64_t deleted, int level)
{
    return level >= 1 && level <= 64 && (deleted >> (level - 1) & 1);
}

/* Read DIR/MANIFEST of a database of nbits bits in ngroups groups (a
 * missing file is an empty manifest), then its parts, DIR/MANIFEST.<n>,
 * in the order of n. Appends go to DIR/MANIFEST (m->part 0). A manifest
 * whose records of slices are all of another layout (other counts of
 * groups, levels beyond nbits) is refused (RDB_E_CORRUPT): PARAMS was
 * changed under the files. */
rdb_status rdb_manifest_load(rdb_manifest *m, const char *dir, int ngroups, int nbits,
                             rdb_error *err);

/* The record of a slice, or NULL. */
const rdb_manifest_entry *rdb_manifest_find(const rdb_manifest *m, const rdb_slice *s);

/* Forget a slice (its file turned out damaged); the file is not touched. */
void rdb_manifest_forget(rdb_manifest *m, const rdb_slice *s);

/* Record a finished slice, or a deleted level, durably. */
rdb_status rdb_manifest_append(rdb_manifest *m, const char *dir, const rdb_slice *s,
                               uint64_t checksum, uint64_t bytes, double seconds, rdb_error *err);
rdb_status rdb_manifest_append_deleted(rdb_manifest *m, const char *dir, int level, rdb_error *err);
rdb_status rdb_manifest_append_dropped(rdb_manifest *m, const char *dir, int level, rdb_error *err);

/* Record entries in memory only: records another process made durable. */
rdb_status rdb_manifest_put(rdb_manifest *m, const rdb_manifest_entry *e, size_t n,
                            rdb_error *err);

/* Append n records durably (one fsync for all) and put them in memory. */
rdb_status rdb_manifest_append_entries(rdb_manifest *m, const char *dir,
                                       const rdb_manifest_entry *e, size_t n, rdb_error *err);

/* Write DIR/MANIFEST anew from memory (temporary file, fsync, rename),
 * then remove every part: what a build does when it starts on a folder
 * that a build of several processes left with parts. */
rdb_status rdb_manifest_compact(rdb_manifest *m, const char *dir, rdb_error *err);

/* Remove every part DIR/MANIFEST.<n> (their records must be in
 * DIR/MANIFEST first). */
rdb_status rdb_manifest_remove_parts(const char *dir, rdb_error *err);

/* Close the file appends go to; the next append opens it again (a part
 * that was folded and removed is then created anew). */
void rdb_manifest_close(rdb_manifest *m);

void rdb_manifest_free(rdb_manifest *m);

#endif
