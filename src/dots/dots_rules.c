/*
 * dots_rules.c — building the Dots-and-Boxes universe and its box masks;
 * see dots_rules.h.
 */
#include "dots/dots_rules.h"

#include <stdlib.h>
#include <string.h>

/* Bitmask of the boxes a line touches. */
static uint64_t line_boxes(const dots_board *b, int line)
{
    uint64_t m = 0;
    for (int k = 0; k < b->line_nboxes[line]; k++)
        m |= 1ULL << b->line_box[line][k];
    return m;
}

rdb_status dots_game_init(dots_game *game, const dots_board *b, uint64_t start,
                          int8_t full_value, int chains, rdb_error *err)
{
    memset(game, 0, sizeof *game);
    game->board = *b;
    game->start = start;
    game->full_value = full_value;
    uint64_t in_chain = 0;
    if (chains) {
        rdb_status st = dots_find_chains(b, start, game->chains, &game->nchains, err);
        if (st != RDB_OK)
            return st;
        for (int c = 0; c < game->nchains; c++)
            in_chain |= game->chains[c].lines;
    }
    /* line_bit: line -> natural bit; a chain's lines all map to its bit */
    int line_bit[DOTS_MAX_LINES];
    int n = 0;
    for (int l = 0; l < b->nlines; l++) {
        line_bit[l] = -1;
        if (!(start >> l & 1) && !(in_chain >> l & 1)) {
            line_bit[l] = n;
            game->bit_lines[n] = 1ULL << l;
            game->bit_line[n++] = l;
        }
    }
    for (int c = 0; c < game->nchains; c++) {
        uint64_t cl = game->chains[c].lines;
        for (uint64_t m = cl; m; m &= m - 1)
            line_bit[__builtin_ctzll(m)] = n;
        game->bit_lines[n] = cl;
        game->bit_line[n++] = __builtin_ctzll(cl);
    }
    game->nbits = n;
    rdb_universe *u = &game->u;
    u->nbits = n;
    u->ntransforms = 0;
    for (int t = 0; t < b->ntransforms; t++) {
        if (dots_transform_lines(b, t, start) != start)
            continue;
        for (int i = 0; i < n; i++)
            u->transform[u->ntransforms][i] = (uint8_t)line_bit[b->transform[t][game->bit_line[i]]];
        u->ntransforms++;
    }
    /* Lines that touch exactly the same boxes can be swapped in any position
     * without changing any box's set of lines, so they are interchangeable.
     * A pseudo-line is interchangeable with nothing. */
    const int nlines_open = n - game->nchains;
    for (int i = 0; i < n; i++) {
        u->class_mask[i] = 1ULL << i;
        if (i >= nlines_open)
            continue;
        uint64_t bi = line_boxes(b, game->bit_line[i]);
        for (int j = 0; j < nlines_open; j++)
            if (line_boxes(b, game->bit_line[j]) == bi)
                u->class_mask[i] |= 1ULL << j;
    }
    return RDB_OK;
}

int dots_game_partial_chain(const dots_game *game, uint64_t lines)
{
    for (int c = 0; c < game->nchains; c++) {
        uint64_t drawn = lines & game->chains[c].lines;
        if (drawn && drawn != game->chains[c].lines)
            return c;
    }
    return -1;
}

rdb_status dots_rules_init(dots_rules *r, const dots_game *game, const rdb_layout_plan *plan,
                           int loony, rdb_error *err)
{
    const dots_board *b = &game->board;
    memset(r, 0, sizeof *r);
    r->nbits = game->nbits;
    r->loony = loony;
    r->scale = loony ? 4 : 1;
    r->flip = loony ? 2 : 0;
    r->full_value = (int8_t)(loony ? 4 * game->full_value + LOONY_MARK_NONE : game->full_value);
    for (int l = 0; l < DOTS_MAX_LINES; l++)
        r->bit[l] = -1;
    const int first_chain = game->nbits - game->nchains;
    int chain_bit[DOTS_MAX_CHAINS];
    r->nchains = game->nchains;
    for (int i = 0; i < game->nbits; i++) {
        int nat = plan->order[i];
        r->line[i] = game->bit_line[nat];
        r->bit_lines[i] = game->bit_lines[nat];
        for (uint64_t m = r->bit_lines[i]; m; m &= m - 1)
            r->bit[__builtin_ctzll(m)] = i;
        r->chain_of[i] = (int8_t)(nat >= first_chain ? nat - first_chain : -1);
        if (nat >= first_chain) {
            chain_bit[nat - first_chain] = i;
            r->chain_bits |= 1ULL << i;
        }
    }
    for (int i = 0; i < game->nbits; i++) {
        if (r->chain_of[i] >= 0)
            continue;
        int l = r->line[i];
        for (int k = 0; k < b->line_nboxes[l]; k++) {
            const int *side = b->box_line[b->line_box[l][k]];
            uint64_t m = 0;
            for (int s = 0; s < 4; s++)
                if (side[s] != l && r->bit[side[s]] >= 0)
                    m |= 1ULL << r->bit[side[s]];
            r->box_mask[i][r->nbox[i]++] = m;
        }
    }
    /* chain rules: the sides of each outside box that can still be drawn,
     * as bits (twice for a chain with two sides on it), and the table */
    int vmax = b->nboxes + abs(game->full_value);
    for (int c = 0; c < game->nchains; c++) {
        const dots_chain *ch = &game->chains[c];
        dots_chain_rule *rule = &r->chain[c];
        rule->bit = chain_bit[c];
        for (int j = 0; j < ch->nout; j++) {
            const int *side = b->box_line[ch->out_box[j]];
            for (int s = 0; s < 4; s++) {
                int l = side[s];
                if (ch->lines >> l & 1)
                    continue;
                if (game->start >> l & 1) {
                    rule->base[j]++;
                    continue;
                }
                uint64_t bit = 1ULL << r->bit[l];
                /* a side in another chain: counted again when the same
                 * chain holds a second side of this box */
                if (rule->once[j] & bit)
                    rule->twice[j] |= bit;
                else
                    rule->once[j] |= bit;
            }
        }
        rdb_status st = dots_chain_tabulate(b, ch, vmax, rule, err);
        if (st != RDB_OK)
            return st;
    }
    return RDB_OK;
}

uint64_t dots_rules_position(const dots_rules *r, uint64_t lines)
{
    uint64_t pos = 0;
    for (int i = 0; i < r->nbits; i++)
        if ((lines & r->bit_lines[i]) == r->bit_lines[i])
            pos |= 1ULL << i;
    return pos;
}

uint64_t dots_rules_lines(const dots_rules *r, const dots_game *game, uint64_t pos)
{
    uint64_t lines = game->start;
    for (int i = 0; i < r->nbits; i++)
        if (pos >> i & 1)
            lines |= r->bit_lines[i];
    return lines;
}

/* Sides of a box drawn, given the mask of its other open sides as in
 * box_mask: the lines drawn at the start are not in the mask. */
static inline int sides_drawn(uint64_t pos, uint64_t mask)
{
    return __builtin_popcountll(pos & mask) + 3 - __builtin_popcountll(mask);
}

int dots_rules_loony_offered(const dots_rules *r, uint64_t pos)
{
    for (int i = 0; i < r->nbits; i++) {
        if ((pos >> i & 1) || r->nbox[i] != 2)
            continue;
        int a = sides_drawn(pos, r->box_mask[i][0]), c = sides_drawn(pos, r->box_mask[i][1]);
        if ((a == 3 && c == 2) || (a == 2 && c == 3))
            return 1;
    }
    return 0;
}
