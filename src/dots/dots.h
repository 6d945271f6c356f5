/*
 * dots.h — Dots-and-Boxes as the engine sees it: the rdb_game (game.h)
 * that the table of games lists.
 *
 * The universe is the open lines of the start position (or, with chain
 * pseudo-lines, the open lines outside chains and one bit per chain); a
 * stored byte is the best net score of future boxes for the player to
 * move, or with loony analysis a key that also says who must make the
 * next loony move (dots_rules.h). Board positions are sets of line ids.
 */
#ifndef RDB_DOTS_H
#define RDB_DOTS_H

#include "game.h"

extern const rdb_game dots_game_entry;

#endif
