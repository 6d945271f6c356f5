/*
 * dots_rules.h — Dots-and-Boxes as a game on a universe of move-bits.
 *
 * The universe is the set of lines open in the start position. A stored
 * value is the best net score of future boxes for the player to move:
 * drawing a line that completes b > 0 boxes is worth b + v(child), as the
 * same player moves again; any other line is worth -v(child). The full
 * position is worth `full_value` (0, or minus a last-move penalty).
 *
 * With loony-move analysis (Wilson's) a stored byte is a *key*: 4 x score
 * + who must make the next loony move under best play (LOONY_MARK_MOVER 0,
 * LOONY_MARK_NONE 1, LOONY_MARK_OPPONENT 2, from the point of view of the
 * player to move), so that the larger key is the better one for the mover:
 * first the score, then the opponent before nobody before oneself. The
 * edge rules become  4b + key(child)  for a capture and  2 - key(child)
 * otherwise (the score changes sign, and mover and opponent swap), which
 * dots_rules holds as `scale` and `flip` (1 and 0 without the analysis). A
 * position in which the player to move can capture a box with a line whose
 * other box then has three sides (a chain or loop of two or more boxes has
 * been offered) follows a loony move by the opponent: its key says so,
 * whatever comes after (dots_rules_loony_offered).
 *
 * dots_game is the game in the natural order of lines; dots_rules is the
 * same game with bits in a layout's order, holding for every bit the masks
 * the builder tests box completion with: a box touched by bit i is completed
 * by drawing i exactly when pos & box_mask[i][k] == box_mask[i][k].
 *
 * With chain pseudo-lines (dots_chains.h) the universe is the open lines of
 * the start that lie in no chain, then one bit per chain; a bit stands for
 * the set of lines bit_lines[i]. A box mask holds a chain's pseudo-bit for
 * a side in that chain (the chain is all drawn or all empty, so the test
 * stays exact). A pseudo-bit has no box masks: moves into a chain are
 * scored by dots_chain_value only, through dots_rules_move.
 */
#ifndef RDB_DOTS_RULES_H
#define RDB_DOTS_RULES_H

#include <stdint.h>

#include "dots/dots_board.h"
#include "dots/dots_chains.h"
#include "layout/layout.h"
#include "common/loony_mark.h"
#include "layout/universe.h"

typedef struct {
    dots_board board;
    uint64_t start;                  /* lines drawn in the start position */
    int8_t full_value;               /* value of the full position */
    int nbits;                       /* open lines (and chains) */
    int bit_line[RDB_MAX_BITS];      /* natural universe bit -> line (a chain's lowest) */
    uint64_t bit_lines[RDB_MAX_BITS]; /* natural universe bit -> its lines */
    int nchains;                     /* 0 without chain pseudo-lines */
    dots_chain chains[DOTS_MAX_CHAINS]; /* chain c is natural bit nbits - nchains + c */
    rdb_universe u;                  /* natural order */
} dots_game;

/* Scores with loony analysis stay within this, so that a key fits a byte. */
#define RDB_LOONY_MAX_SCORE 31

typedef struct {
    int nbits;
    int8_t full_value;               /* stored value (key) of the full position */
    int loony;                       /* keys hold the loony state */
    int scale, flip;                 /* edge rules: scale*b + v, flip - v */
    int line[RDB_MAX_BITS];          /* layout bit -> line */
    int bit[DOTS_MAX_LINES];         /* line -> layout bit, -1 if drawn at start */
    int nbox[RDB_MAX_BITS];
    uint64_t box_mask[RDB_MAX_BITS][2];
    uint64_t bit_lines[RDB_MAX_BITS]; /* layout bit -> its lines */
    uint64_t chain_bits;             /* the pseudo-bits */
    int8_t chain_of[RDB_MAX_BITS];   /* layout bit -> chain, -1 for a line */
    int nchains;
    dots_chain_rule chain[DOTS_MAX_CHAINS];
} dots_rules;

/* The game on board b from the start position `start` (a set of lines). Its
 * symmetries are the board's transforms that map `start` onto itself.
 * chains: each chain of the start is one pseudo-line; fails (RDB_E_INPUT)
 * when the start has chains dots_find_chains refuses. */
rdb_status dots_game_init(dots_game *game, const dots_board *b, uint64_t start,
                          int8_t full_value, int chains, rdb_error *err);

/* The rules in the bit order of a layout plan; loony: keys with the loony
 * state (the full position's key is then 4 x its value + LOONY_MARK_NONE).
 * Fails only for want of memory (chain tables). */
rdb_status dots_rules_init(dots_rules *r, const dots_game *game, const rdb_layout_plan *plan,
                           int loony, rdb_error *err);

/* Whether the player to move in pos (layout order) can capture a box with a
 * line whose other box has exactly two other sides drawn: then the
 * opponent's last move was loony. */
int dots_rules_loony_offered(const dots_rules *r, uint64_t pos);

/* Key of a position: the stored value, with the loony state set to
 * LOONY_MARK_OPPONENT when a loony move has just been made (the kernel and
 * the search apply this to every best value). */
static inline int dots_rules_key(const dots_rules *r, uint64_t pos, int best)
{
    if (r->loony && dots_rules_loony_offered(r, pos))
        return (best & ~3) | LOONY_MARK_OPPONENT;
    return best;
}

/* Score and loony state of a stored key. */
static inline int dots_key_score(const dots_rules *r, int key)
{
    return r->loony ? (key - (key & 3)) / 4 : key;
}
static inline int dots_key_loony(const dots_rules *r, int key)
{
    return r->loony ? key & 3 : LOONY_MARK_NONE;
}

/* Number of boxes that taking bit i completes in pos (layout order). */
static inline int dots_rules_boxes(const dots_rules *r, uint64_t pos, int i)
{
    int n = 0;
    for (int k = 0; k < r->nbox[i]; k++)
        n += (pos & r->box_mask[i][k]) == r->box_mask[i][k];
    return n;
}

/* Value, for the player to move in pos (layout order), of taking bit i,
 * given the stored value v of the child pos | bit i: a line scores
 * scale*b + v when it completes b > 0 boxes, else flip - v; a chain scores
 * by its rule (dots_chains.h). The builder's kernel inlines the line case
 * on its fast paths; every other caller uses this. */
static inline int dots_rules_move(const dots_rules *r, uint64_t pos, int i, int v)
{
    if (r->chain_of[i] >= 0)
        return dots_chain_value(&r->chain[r->chain_of[i]], pos, v);
    int n = dots_rules_boxes(r, pos, i);
    return n ? n * r->scale + v : r->flip - v;
}

/* The first chain (natural index) that the set of lines draws in part, or
 * -1 when every chain is all drawn or all empty. */
int dots_game_partial_chain(const dots_game *game, uint64_t lines);

/* Layout-ordered position of a set of lines (which must contain the start,
 * and draw every chain whole or not at all); and back. */
uint64_t dots_rules_position(const dots_rules *r, uint64_t lines);
uint64_t dots_rules_lines(const dots_rules *r, const dots_game *game, uint64_t pos);

#endif
