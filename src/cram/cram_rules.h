/*
 * cram_rules.h — Cram as a game on a universe of cells, in a layout's bit
 * order.
 *
 * The universe is the cells of the board; a position is the set of covered
 * cells, so every subset is a position (Cram on an irregular board). A move
 * covers two free, orthogonally adjacent cells, raising the level by two.
 * A stored value is the position's nimber: the mex of its children's
 * nimbers (0 when there is no move). The symmetries are the rectangle's 4
 * or the square's 8; no two cells are interchangeable.
 */
#ifndef RDB_CRAM_RULES_H
#define RDB_CRAM_RULES_H

#include <stdint.h>

#include "cram/cram_board.h"
#include "layout/layout.h"
#include "layout/universe.h"

/* Nimbers are stored in a byte, and the kernel collects the nimbers seen
 * among a position's children in a 64-bit mask: a nimber must stay below
 * this (boards of up to 64 cells have far smaller ones). */
#define CRAM_MAX_NIMBER 63

typedef struct {
    cram_board board;
    int nbits;
    int ndominoes;
    uint64_t domino[CRAM_MAX_DOMINOES]; /* layout order; same numbering as board.domino */
    int cell[CRAM_MAX_CELLS];           /* layout bit -> cell */
    int bit[CRAM_MAX_CELLS];            /* cell -> layout bit */
} cram_rules;

/* The universe of board b: its cells with the board's symmetries. */
void cram_universe_init(rdb_universe *u, const cram_board *b);

/* The rules of board b in the bit order of a layout plan. */
void cram_rules_init(cram_rules *r, const cram_board *b, const rdb_layout_plan *plan);

/* Layout-ordered position of a set of covered cells; and back. */
uint64_t cram_rules_position(const cram_rules *r, uint64_t covered);
uint64_t cram_rules_cells(const cram_rules *r, uint64_t pos);

/* Mex of a set of nimbers given as a bit mask. */
static inline int cram_mex(uint64_t seen)
{
    return ~seen ? __builtin_ctzll(~seen) : 64;
}

#endif
