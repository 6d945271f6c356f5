/*
 * dots_search.h — solving a Dots-and-Boxes position on the spot.
 *
 * For positions whose level is not stored (deleted after the build, as
 * --keep-lines does for the levels near the end of the game): a memoised
 * full search over the positions below it, by the same rules the builder
 * uses, asking `stored` first for every position so that any stored level
 * cuts the search short. Positions are memoised in canonical form.
 */
#ifndef RDB_DOTS_SEARCH_H
#define RDB_DOTS_SEARCH_H

#include <stdint.h>

#include "dots/dots_rules.h"
#include "game.h"

/* The most open lines a position may have to be searched: the memo holds
 * at most 2^DOTS_SEARCH_MAX_OPEN positions (before symmetry). */
#define DOTS_SEARCH_MAX_OPEN 26

/* Value (the stored byte: a key with loony analysis) of position pos, in
 * the bit order of lay, for the player to move; `stored` (game.h) answers
 * for the kept levels. */
rdb_status dots_search_value(const dots_rules *r, const rdb_layout *lay, uint64_t pos,
                             rdb_stored_fn stored, void *ctx, int *value, rdb_error *err);

#endif
