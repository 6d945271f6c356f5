/*
 * export.h — every stored position of a finished database, as the board
 * positions users write (game.h) with their values: what `retrodb export`
 * writes out as an opening book.
 *
 * The walk reads each kept slice file once, frame by frame, in level order
 * (the start first) and slice order, and turns each index into its
 * position with the layout's rank tables: no lookup, no search, so it runs
 * as fast as the frames decompress. By default it gives each stored
 * position once, as stored (its canonical form); with all_images it gives
 * every board position a stored one stands for instead (its images under
 * the symmetries, with interchangeable bits taken in every way), each
 * exactly once over the whole walk. It knows no game: positions turn into
 * board positions and bytes into values through game.h.
 */
#ifndef RDB_EXPORT_H
#define RDB_EXPORT_H

#include <stdint.h>

#include "common/error.h"
#include "engine/db.h"

typedef struct rdb_export rdb_export;

/* Open the finished database in dir for a walk. Errors: those of
 * rdb_db_open and of the manifest; RDB_E_MISSING when the build has not
 * finished (a message saying how far it is and what to run). */
rdb_status rdb_export_open(const char *dir, rdb_export **out, rdb_error *err);
void rdb_export_close(rdb_export *ex);

/* The database: its parameters, game and layout. */
const rdb_db *rdb_export_db(const rdb_export *ex);

/* Whether the database holds level `level` (0..nbits): a level a build
 * with --keep-lines deleted does not. */
int rdb_export_level_kept(const rdb_export *ex, int level);

/* Positions the walk reads in the kept levels min_level..max_level: the
 * stored ones, or, for a sparse database, every canonical position of the
 * full layout (the walk values those not stored through the probe, so a
 * quiet database's export is the full database's). */
uint64_t rdb_export_stored(const rdb_export *ex, int min_level, int max_level);

typedef struct {
    int min_level, max_level; /* the levels walked, inclusive (levels not kept are skipped) */
    int all_images;           /* every board position, not only the stored ones */
    int progress;             /* a progress bar on stderr (progress.h) */
} rdb_export_options;

/* One position of the walk. */
typedef struct {
    uint64_t board;  /* the board position (game.h: lines by id, cells r*C + c) */
    int level;       /* bits taken beyond the start */
    int stored;      /* the stored byte */
    int value, mark; /* what the game's decode reads in it */
} rdb_export_position;

/* Called for every position in turn; any status but RDB_OK stops the walk
 * and is returned by rdb_export_run with err as fn set it. */
typedef rdb_status (*rdb_export_fn)(void *ctx, const rdb_export_position *p, rdb_error *err);

typedef struct {
    uint64_t stored;   /* positions read (stored, or canonical for a sparse database) */
    uint64_t given;    /* positions given to fn */
} rdb_export_counts;

/* Walk the positions opt asks for. Errors: RDB_E_CORRUPT for a damaged
 * slice file (as the probe words it), RDB_E_MISSING for a missing one,
 * RDB_E_IO, RDB_E_NOMEM, RDB_E_STOPPED after SIGINT or SIGTERM (between
 * frames), or fn's status. counts (may be NULL) says how far it went. */
rdb_status rdb_export_run(rdb_export *ex, const rdb_export_options *opt, rdb_export_fn fn,
                          void *ctx, rdb_export_counts *counts, rdb_error *err);

#endif
