/*
 * level_checksums.h — a database's levels held against a list of
 * per-level checksums, such as data/checksums/ keeps for every database
 * retrodb publishes: `level slices positions checksum` a line, as `info`
 * prints them. A rebuild of the same board with the same parameters must
 * give the same lines, whatever the program's commit, the machine or the
 * thread count; so a build resumed, redone on a new machine or run by
 * someone checking a published result is compared level by level as soon
 * as each level is finished. `verify --against FILE` reports it.
 *
 * Only the manifest is read (the checksums it recorded as each slice was
 * written): instant on a 60 GB database, and safe beside a running build.
 * That the files still hold what the manifest says is verify's own check.
 */
#ifndef RDB_LEVEL_CHECKSUMS_H
#define RDB_LEVEL_CHECKSUMS_H

#include <stdint.h>

#include "common/error.h"
#include "engine/report.h"

/* One line of a list. */
typedef struct {
    int slices;
    uint64_t positions, checksum;
} rdb_listed_level;

/* A list: the levels it names, at most one line each. */
typedef struct {
    uint8_t listed[RDB_MAX_BITS + 1];
    rdb_listed_level level[RDB_MAX_BITS + 1];
} rdb_level_list;

/* Read a list from a file ("-": standard input). Blank lines and lines
 * starting with '#' are skipped. A line that is not four fields (a level
 * 0..64, its slices, its positions and 16 hex digits) or that names a
 * level twice is RDB_E_INPUT, with the file and line in the message; so is
 * a file that cannot be found (a path mistyped). */
rdb_status rdb_level_list_read(const char *path, rdb_level_list *list, rdb_error *err);

/* Whether the list names a level. */
int rdb_level_list_has(const rdb_level_list *list, int level);

typedef enum {
    RDB_LEVEL_AGREES,     /* finished, and the list's line is its own */
    RDB_LEVEL_DIFFERS,    /* finished, and the list says otherwise */
    RDB_LEVEL_NOT_LISTED, /* finished; the list stops above it */
    RDB_LEVEL_UNFINISHED  /* slices still to build: nothing to compare yet */
} rdb_level_verdict;

typedef struct {
    rdb_level_verdict verdict[RDB_MAX_BITS + 1]; /* [level], 0..nbits */
    int levels;                                  /* nbits + 1 */
    int agree, differ, not_listed, unfinished;
    /* levels the list names that the database has not (a list of another
     * board): counted as differing too */
    int beyond;
} rdb_level_comparison;

/* Compare each level of a database's report with the list. */
void rdb_level_list_compare(const rdb_report *r, const rdb_level_list *list,
                            rdb_level_comparison *c);

#endif
