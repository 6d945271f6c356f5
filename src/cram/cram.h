/*
 * cram.h — Cram as the engine sees it: the rdb_game (game.h) that the
 * table of games lists.
 *
 * The universe is the cells of the board, a move covers two adjacent free
 * cells, and a stored byte is the position's nimber. Board positions are
 * sets of covered cells, cell (r, c) being bit r*C + c; every subset is a
 * position (Cram on an irregular board).
 */
#ifndef RDB_CRAM_H
#define RDB_CRAM_H

#include "game.h"

extern const rdb_game cram_game_entry;

#endif
