/*
 * dots_quiet_db.h — the values of a Dots-and-Boxes board from its quiet
 * positions alone: computing a level of them, and valuing any position.
 *
 * Only positions without a box of three sides are stored
 * (dots_quiet_index.h numbers them); the value of any other position, and
 * so of every move, comes from the capture rules (dots_capture.h) at
 * lookup time. A level's values depend on the levels above it through
 * capture runs as well as single lines, so every level above is read
 * while a level is computed.
 *
 * Values are the best net score of future boxes for the player to move,
 * the full board being worth full_value (0, or minus a last-move penalty),
 * exactly as in the full database. The engine stores them (game.h's
 * sparse_* hooks in dots.c); dots_quiet_db_build below keeps a whole
 * database in memory, for tests and measurements.
 *
 * A *half* database keeps one class of each level (dots_quiet_class: the
 * positions whose lines and completed boxes together are even) and
 * values the other from its moves, whose children are of the kept class
 * but for cycles and knots: half the disk, a lookup of the other class
 * costing a lookup a move. While a level is built, the other class of
 * the window's levels above it is kept too (the children and most
 * corridor leaves lie there; on the 4x5 plan's sample a computed position
 * needs 0.13 positions valued from their moves further up with a window
 * of 3, 0.04 with 4); the builder deletes it as the window passes.
 * Stored bytes are values halved (their parity is their class's).
 */
#ifndef RDB_DOTS_QUIET_DB_H
#define RDB_DOTS_QUIET_DB_H

#include <stdint.h>

#include "common/error.h"
#include "dots/dots_board.h"
#include "dots/dots_quiet_index.h"
#include "store/chunk_cache.h"

typedef struct dots_quiet_rules dots_quiet_rules;

rdb_status dots_quiet_rules_new(const dots_board *b, uint64_t start, int full_value, int half,
                                dots_quiet_rules **out, rdb_error *err);
void dots_quiet_rules_free(dots_quiet_rules *r);
/* The index's tables: before valuing or computing anything; new rules
 * only count positions. lookups: made as a few positions' values need
 * them, one lookup at a time (dots_quiet_index_prepare_lookups); else
 * all at once, for computing levels. */
rdb_status dots_quiet_rules_prepare(dots_quiet_rules *r, int lookups, rdb_error *err);
const dots_quiet_index *dots_quiet_rules_index(const dots_quiet_rules *r);

/* A half database: whether these rules make one, the class it keeps at a
 * level, and the levels whose other class is gone while `level` is built
 * with a window of `window` levels (bit l for level l: those beyond it).
 * The default window, 3, holds the children and most corridor leaves; a
 * wider one (build --window) takes a level's worth of disk more a level
 * and values fewer positions from their moves (4x5: 3 levels, 59.4 GB at
 * the peak; 4, 65.1 GB, and the positions of its corridors of three
 * boxes looked up, not recomputed). */
#define DOTS_QUIET_WINDOW 3
int dots_quiet_rules_half(const dots_quiet_rules *r);
int dots_quiet_kept_class(const dots_quiet_rules *r, int level);
uint64_t dots_quiet_dropped_above(int level, int window);

/* A stored value: 0 and *value, or a non-zero status passed on. */
typedef int (*dots_quiet_fetch_fn)(void *ctx, int level, uint64_t index, int *value);

/* The value, for the player to move, of any position (a set of lines
 * holding the start). Returns 0, or the first non-zero status of fetch.
 * A half database's other class is valued from its moves, at every level
 * (a finished database has none of it). */
int dots_quiet_value(const dots_quiet_rules *r, uint64_t lines, dots_quiet_fetch_fn fetch,
                     void *ctx, int *value);

/* The values of the stored positions [from, to) of a level (in index
 * order; from and to where frame states start, as dots_quiet_part_end
 * gives them) from the values of every level above it, read through
 * `above`, with the calling OpenMP team's threads; a half database's
 * stored bytes, its other class read only at levels not in `dropped`
 * (bit l: level l's is gone). Fails (RDB_E_INPUT)
 * when a value does not fit a byte, with RDB_E_STOPPED when a stop was
 * requested (rdb_stop_requested) before they were done, or as a level
 * above fails to be read. */
rdb_status dots_quiet_level(const dots_quiet_rules *r, int level, uint64_t from, uint64_t to,
                            rdb_chunk_cache *above, uint64_t dropped, int8_t *values,
                            rdb_error *err);

/* The time the build takes a stored position on this board and machine,
 * measured: `threads` threads at once, as many as the build's, compute
 * 16 stretches of consecutive frame states of at most most/16 positions
 * each, spread over the levels as the
 * positions are (each from the position 1/32, 3/32, .. of the way through
 * them all), each stretch's first frame state untimed and then most/16
 * positions timed; every value above read as 0, and a half database's
 * levels of dropped_at[level] (bit l: level l's dropped part) gone while
 * a level is built. The rules' index must be prepared. *positions gets
 * how many were timed, *seconds the time they took: the threads' own CPU
 * time, summed, so that work beside them does not count (what they cost
 * each other does). */
rdb_status dots_quiet_sample(const dots_quiet_rules *r, uint64_t most, const uint64_t *dropped_at,
                             int threads, uint64_t *positions, double *seconds, rdb_error *err);

/* ---- a whole database in memory ---- */

typedef struct dots_quiet_db dots_quiet_db;

/* Build the quiet database of board b from `start` (half: a half
 * database, the other class overwritten as the window passes, so that a
 * value read from it would show) with `threads` threads (0: OpenMP's
 * default), reading the levels above through a cache of cache_bytes (0:
 * as large as the database, every chunk copied once). */
rdb_status dots_quiet_db_build(const dots_board *b, uint64_t start, int full_value, int half,
                               int threads, uint64_t cache_bytes, dots_quiet_db **out,
                               rdb_error *err);
void dots_quiet_db_free(dots_quiet_db *db);
const dots_quiet_index *dots_quiet_db_index(const dots_quiet_db *db);
/* The stored bytes of a level, in index order (values, unless half). */
const int8_t *dots_quiet_db_level(const dots_quiet_db *db, int level);

/* The value of any position, and of drawing open `line` in it, for the
 * player to move. */
int dots_quiet_db_value(const dots_quiet_db *db, uint64_t lines);
int dots_quiet_db_move_value(const dots_quiet_db *db, uint64_t lines, int line);

#endif
