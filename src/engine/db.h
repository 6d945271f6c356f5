/*
 * db.h — a database directory: its parameters, layout and slice paths
 * (the manifest and the lock have modules of their own: manifest.h,
 * lock.h).
 *
 * A directory holds
 *   PARAMS      the parameters that fix every value and the layout (text);
 *   MANIFEST    one line per finished slice, appended and fsync'ed after
 *               the slice's file is durable (text);
 *   LOCK        flock'ed by the builder, holding its pid;
 *   <level>/<k0>/.../<k(G-2)>.zst   one file per slice (level = bits
 *               taken beyond the start position; k = bits taken per group).
 * Both the builder and the probe set up a database from PARAMS the same
 * way, so their layouts agree bit for bit. The game is whichever one of
 * the table of games (game.h) PARAMS names; nothing here knows which.
 */
#ifndef RDB_DB_H
#define RDB_DB_H

#include <stdint.h>

#include "common/path.h"
#include "game.h"
#include "layout/layout.h"
#include "store/manifest.h"
#include "store/slicefile.h"

typedef struct {
    char dir[RDB_DIR_MAX + 1];
    rdb_params params;       /* rdb_params: game.h */
    const rdb_game *game;
    void *state;             /* the game's own state, rules in layout order */
    rdb_universe u;          /* the universe in natural order */
    rdb_layout_plan plan;
    rdb_layout lay;
    uint64_t hash;           /* db_hash written in every slice header */
    uint64_t least_slice;    /* after a setup refused for the budget: the
                                fewest positions a split's largest slice
                                can have (rdb_layout_plan_groups) */
    void *sparse;            /* params.store: the game's numbering of the
                                positions it stores (game.h); NULL when every
                                position is stored */
    /* A sparse database's level l is in slices 0..nparts[l]-1 (a slice's
     * counts[0]), slice k holding its positions part_start[l][k] up to
     * part_start[l][k+1]. */
    int nparts[RDB_MAX_BITS + 1];
    uint64_t *part_start[RDB_MAX_BITS + 1];
} rdb_db;

/* Set up the game, layout and rules for params. When params->ngroups is 0
 * the groups are chosen so that a slice fits max_slice_bytes, and
 * params->ngroups is set; when no split fits, RDB_E_NOMEM and
 * db->least_slice says what would. */
rdb_status rdb_db_setup(rdb_db *db, const char *dir, rdb_params *params,
                        uint64_t max_slice_bytes, rdb_error *err);
void rdb_db_free(rdb_db *db);

/* Name of a game id, for messages ("unknown" when no game has it). */
const char *rdb_game_name(int game);

/* A PARAMS file is a few lines; anything longer is not one. */
#define RDB_PARAMS_MAX_BYTES 4096

/* PARAMS file. rdb_params_read returns RDB_E_MISSING when there is none. */
rdb_status rdb_params_write(const char *dir, const rdb_params *p, rdb_error *err);
rdb_status rdb_params_read(const char *dir, rdb_params *p, rdb_error *err);

/* Describe the first difference between two parameter sets in buf;
 * returns 0 when they agree (ngroups is compared only when both are set). */
int rdb_params_diff(const rdb_params *a, const rdb_params *b, char *buf, size_t bufsize);

/* Open an existing database for lookups. */
rdb_status rdb_db_open(rdb_db *db, const char *dir, rdb_error *err);

/* Path of a slice's file (RDB_E_INPUT when it would not fit bufsize). */
rdb_status rdb_slice_path(const rdb_db *db, const rdb_slice *s, char *buf, size_t bufsize,
                          rdb_error *err);

/* Open a slice's file and check that it is that slice's (its path and
 * identity); sf->path names it for messages. */
rdb_status rdb_slice_open_in(const rdb_db *db, const rdb_slice *s, rdb_slice_file *sf,
                             rdb_error *err);

/* The first position of a level that a slice holds: 0 but in a sparse
 * database, whose levels are cut into slices of consecutive positions. */
uint64_t rdb_db_slice_first(const rdb_db *db, const rdb_slice *s);
/* The slice of a sparse database's level that holds position `index`,
 * and where in it (index < the level's size). */
void rdb_db_slice_at(const rdb_db *db, int level, uint64_t index, rdb_slice *s,
                     uint64_t *offset);

/* The slices of a level, as rdb_level_slices lists them (in a sparse
 * database, its stretches of consecutive positions, none when it stores
 * no position of the level); the size of a slice; every position stored; the largest
 * slice. */
int rdb_db_level_slices(const rdb_db *db, int level, rdb_slice **out);
void rdb_db_slice_size(const rdb_db *db, rdb_slice *s);
uint64_t rdb_db_total_positions(const rdb_db *db);
uint64_t rdb_db_max_slice(const rdb_db *db);

/* How many levels below it a sparse database's level keeps its dropped
 * part while they are built (game.h's sparse_window): `asked` (a build's
 * --window) when it is positive, else the game's own; -1 when the
 * database keeps every part. A build may be resumed with another window:
 * what is gone is the manifest's to say, never this. */
int rdb_db_sparse_window(const rdb_db *db, int asked);

/* Whether a sparse database's slice is of its level's dropped part
 * (game.h's sparse_window), and whether its file is gone: that part of its
 * level was dropped (`dropped`: the manifest's, bit = level). */
int rdb_db_dropped_part(const rdb_db *db, const rdb_slice *s);
int rdb_db_slice_dropped(const rdb_db *db, uint64_t dropped, const rdb_slice *s);

/* Whether the manifest records every slice of every level it does not
 * record as deleted: the build has finished. */
int rdb_db_build_complete(const rdb_db *db, const rdb_manifest *man);

/* A slice found damaged (st RDB_E_CORRUPT) where no build is running:
 * recorded in DAMAGED for the next build to redo, and err says so (or
 * why it could not be recorded). Any other st is passed on as it is. */
rdb_status rdb_db_damaged(const rdb_db *db, const rdb_slice *s, rdb_status st, rdb_error *err);

/* The identity a slice's file must carry. */
void rdb_slice_identity(const rdb_db *db, const rdb_slice *s, rdb_slice_id *id);

#endif
