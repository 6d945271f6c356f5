/*
 * dots_rules.h — Dots-and-Boxes as a game on a universe of move-bits.
 *
 * The universe is the set of lines open in the start position. A stored
 * value is the best net score of future boxes for the player to move:
 * drawing a line that completes b > 0 boxes is worth b + v(child), as the
 * same player moves again; any other line is worth -v(child). The full
 * position is worth `full_value` (0, or minus a last-move penalty).
 *
 * dots_game is the game in the natural order of lines; dots_rules is the
 * same game with bits in a layout's order, holding for every bit the masks
 * the builder tests box completion with: a box touched by bit i is completed
 * by drawing i exactly when pos & box_mask[i][k] == box_mask[i][k].
 */
#ifndef RDB_DOTS_RULES_H
#define RDB_DOTS_RULES_H

#include <stdint.h>

#include "dots_board.h"
#include "layout.h"
#include "universe.h"

typedef struct {
    dots_board board;
    uint64_t start;                  /* lines drawn in the start position */
    int8_t full_value;               /* value of the full position */
    int nbits;                       /* open lines */
    int bit_line[RDB_MAX_BITS];      /* natural universe bit -> line */
    rdb_universe u;                  /* natural order */
} dots_game;

typedef struct {
    int nbits;
    int8_t full_value;
    int line[RDB_MAX_BITS];          /* layout bit -> line */
    int bit[DOTS_MAX_LINES];         /* line -> layout bit, -1 if drawn at start */
    int nbox[RDB_MAX_BITS];
    uint64_t box_mask[RDB_MAX_BITS][2];
} dots_rules;

/* The game on board b from the start position `start` (a set of lines). Its
 * symmetries are the board's transforms that map `start` onto itself. */
void dots_game_init(dots_game *game, const dots_board *b, uint64_t start, int8_t full_value);

/* The rules in the bit order of a layout plan. */
void dots_rules_init(dots_rules *r, const dots_game *game, const rdb_layout_plan *plan);

/* Number of boxes that taking bit i completes in pos (layout order). */
static inline int dots_rules_boxes(const dots_rules *r, uint64_t pos, int i)
{
    int n = 0;
    for (int k = 0; k < r->nbox[i]; k++)
        n += (pos & r->box_mask[i][k]) == r->box_mask[i][k];
    return n;
}

/* Layout-ordered position of a set of lines (which must contain the start);
 * and back. */
uint64_t dots_rules_position(const dots_rules *r, uint64_t lines);
uint64_t dots_rules_lines(const dots_rules *r, const dots_game *game, uint64_t pos);

#endif
