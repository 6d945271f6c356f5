/*
 * dots_chains.h — Wilson's chain pseudo-lines: the chains of a start
 * position and the one rule that scores a move into a chain.
 *
 * A chain of the start position is a maximal string of one or more boxes,
 * not complete, each with exactly two sides drawn, joined through their
 * shared undrawn sides: a path (k boxes, k + 1 lines) or a loop (k boxes,
 * k lines). With chains on, each chain's lines are one move-bit, a
 * pseudo-line that is either all drawn or all empty, on the assumption that
 * once a line of a chain is drawn, best play draws the rest of that chain
 * before any other line.
 *
 * The rule (dots_chain_value): moving into chain c in position P is worth,
 * for the player to move, the exact value of the little game in which the
 * two players draw only the chain's lines, in any order, each capture
 * giving the same player another line, until the chain is full, after
 * which the game goes on from the child Q = P + chain with the stored value
 * v of Q for whoever is to move there. That game is Wilson's case analysis
 * done exactly: it decides who can take the chain's boxes (the mover when
 * an end box just outside already has three sides, else the opponent),
 * whether declining the last two boxes (four in a loop) is possible and
 * pays, the hard-hearted handout that denies it in a two-box chain, the
 * boxes just outside the chain its end lines complete, and a chain that has
 * grown longer or into a loop since the start (the box past its end then
 * has three sides in Q, so the stored value already holds the sacrifice
 * at the far end of the extension). It depends on P only through the
 * number of sides drawn on the (at most two) boxes just outside the chain,
 * so it is tabulated once per chain: value[d0][d1][v + 128].
 *
 * Everything here runs once per database setup; dots_chain_value is on the
 * kernel's hot path and is a few popcounts and one load.
 */
#ifndef RDB_DOTS_CHAINS_H
#define RDB_DOTS_CHAINS_H

#include <stdint.h>

#include "dots/dots_board.h"
#include "common/error.h"

#define DOTS_MAX_CHAINS 16
/* The little game of a chain has 2^lines states, tabulated per end state. */
#define DOTS_CHAIN_MAX_LINES 14

typedef struct {
    uint64_t lines;          /* the chain's lines */
    int nboxes;
    int loop;
    int nout;                /* boxes just outside touched by its lines: 0..2 */
    int out_box[2];
    int out_nlines[2];       /* the chain's lines that are sides of out_box: 1 or 2 */
} dots_chain;

/* Find the chains of `start` on board b, ordered by their lowest line.
 * Fails (RDB_E_INPUT) when there are more than DOTS_MAX_CHAINS or one has
 * more than DOTS_CHAIN_MAX_LINES lines. */
rdb_status dots_find_chains(const dots_board *b, uint64_t start, dots_chain *out, int *nchains,
                            rdb_error *err);

/* A chain's rule in some bit order: how to count the sides drawn on its
 * outside boxes in a position, and the tabulated values. */
typedef struct {
    int bit;                 /* its pseudo-bit */
    int base[2];             /* sides of out_box drawn at the start, not the chain's */
    uint64_t once[2];        /* bits of out_box's other open sides */
    uint64_t twice[2];       /* pseudo-bits of other chains with two sides on out_box */
    int8_t value[4][4][256]; /* [d0][d1][v + 128] */
} dots_chain_rule;

/* Fill rule->value for chain ch on board b; v ranges over -vmax..vmax
 * (values outside never occur and are left 0). base/once/twice/bit are the
 * caller's. Fails only for want of memory. */
rdb_status dots_chain_tabulate(const dots_board *b, const dots_chain *ch, int vmax,
                               dots_chain_rule *rule, rdb_error *err);

/* Sides drawn on the chain's outside box j in pos. */
static inline int dots_chain_sides(const dots_chain_rule *rule, int j, uint64_t pos)
{
    return rule->base[j] + __builtin_popcountll(pos & rule->once[j]) +
           __builtin_popcountll(pos & rule->twice[j]);
}

/* Value, for the player to move in pos, of filling the chain, given the
 * stored value v of pos + chain for the player to move there. */
static inline int dots_chain_value(const dots_chain_rule *rule, uint64_t pos, int v)
{
    return rule->value[dots_chain_sides(rule, 0, pos)][dots_chain_sides(rule, 1, pos)]
                      [(v + 128) & 255];
}

#endif
