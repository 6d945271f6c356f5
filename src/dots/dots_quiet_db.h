/*
 * dots_quiet_db.h — a database of the quiet positions of a Dots-and-Boxes
 * board, built level by level from the full board down to the start, and
 * the value of every position from it.
 *
 * Only positions without a box of three sides are stored
 * (dots_quiet_index.h numbers them); the value of any other position, and
 * so of every move, comes from the capture rules (dots_capture.h) at
 * lookup time. A level's value depends on the levels above it through
 * capture runs as well as single lines, so the levels above stay in
 * memory while a level is computed.
 *
 * Values are the best net score of future boxes for the player to move,
 * the full board being worth full_value (0, or minus a last-move penalty),
 * exactly as in the full database.
 */
#ifndef RDB_DOTS_QUIET_DB_H
#define RDB_DOTS_QUIET_DB_H

#include <stdint.h>

#include "common/error.h"
#include "dots/dots_board.h"
#include "dots/dots_quiet_index.h"

typedef struct dots_quiet_db dots_quiet_db;

/* Build the quiet database of board b from `start` with `threads` threads
 * (0: OpenMP's default). progress, when not NULL, is called after each
 * level with the level and its positions. */
rdb_status dots_quiet_db_build(const dots_board *b, uint64_t start, int full_value, int threads,
                               void (*progress)(void *ctx, int level, uint64_t positions),
                               void *ctx, dots_quiet_db **out, rdb_error *err);
void dots_quiet_db_free(dots_quiet_db *db);

/* The index the database is numbered by. */
const dots_quiet_index *dots_quiet_db_index(const dots_quiet_db *db);

/* The value, for the player to move, of any position of the board (a set
 * of lines holding the start). */
int dots_quiet_db_value(const dots_quiet_db *db, uint64_t lines);

/* The value of drawing open `line` in `lines`, for the player to move. */
int dots_quiet_db_move_value(const dots_quiet_db *db, uint64_t lines, int line);

/* The stored values of a level, in index order. */
const int8_t *dots_quiet_db_level(const dots_quiet_db *db, int level);

#endif
