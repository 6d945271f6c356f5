/*
 * verify.h — checking a database directory.
 *
 * Every slice the manifest records is opened and read in full: header,
 * seek table, every frame's zstd checksum, the checksum of all values, and
 * that checksum against the manifest's. With `full`, every value is also
 * recomputed from its neighbour slices and compared. Findings go to `out`,
 * one line per bad file or disagreeing position, and every bad slice
 * (damaged, or holding values that disagree) is recorded in DAMAGED for
 * the next build to redo (store/damage.h).
 */
#ifndef RDB_VERIFY_H
#define RDB_VERIFY_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"

typedef struct {
    uint64_t files, bad_files, unfinished;
    uint64_t recomputed, disagreements;
    uint64_t unrecorded;        /* bad slices DAMAGED could not record */
    /* A bad slice computed from a level the build deleted (--keep-lines):
     * the next build computes the deleted levels rebuild_lo..rebuild_hi
     * (rebuild_positions positions) again to redo it; 0 when none. */
    int rebuild_lo, rebuild_hi;
    uint64_t rebuild_positions;
} rdb_verify_report;

/* Returns RDB_OK when the checks could run (read rep for the verdict).
 * With `progress`, progress on stderr as a build shows it (engine/progress.h). */
rdb_status rdb_verify(const char *dir, int full, FILE *out, int progress, rdb_verify_report *rep,
                      rdb_error *err);

#endif
