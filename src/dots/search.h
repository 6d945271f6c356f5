/*
 * search.h — solving a Dots-and-Boxes position on the spot.
 *
 * For positions whose level is not stored (deleted after the build, as
 * --keep-lines does for the levels near the end of the game): a memoised
 * full search over the positions below it, by the same rules the builder
 * uses, asking `stored` first for every position so that any stored level
 * cuts the search short. Positions are memoised in canonical form.
 */
#ifndef RDB_SEARCH_H
#define RDB_SEARCH_H

#include <stdint.h>

#include "engine/db.h"

/* The most open lines a position may have to be searched: the memo holds
 * at most 2^RDB_SEARCH_MAX_OPEN positions (before symmetry). */
#define RDB_SEARCH_MAX_OPEN 26

/* Look up a canonical position (layout order) in what is stored: returns
 * RDB_OK with *value, RDB_E_MISSING when it is not stored, other statuses
 * on failure. */
typedef rdb_status (*rdb_stored_fn)(void *ctx, uint64_t canonical, int *value, rdb_error *err);

/* Value of position pos (layout order) for the player to move. */
rdb_status rdb_search_value(const rdb_db *db, uint64_t pos, rdb_stored_fn stored, void *ctx,
                            int *value, rdb_error *err);

#endif
