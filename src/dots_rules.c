/*
 * dots_rules.c — building the Dots-and-Boxes universe and its box masks;
 * see dots_rules.h.
 */
#include "dots_rules.h"

#include <string.h>

/* Bitmask of the boxes a line touches. */
static uint64_t line_boxes(const dots_board *b, int line)
{
    uint64_t m = 0;
    for (int k = 0; k < b->line_nboxes[line]; k++)
        m |= 1ULL << b->line_box[line][k];
    return m;
}

void dots_game_init(dots_game *game, const dots_board *b, uint64_t start, int8_t full_value)
{
    memset(game, 0, sizeof *game);
    game->board = *b;
    game->start = start;
    game->full_value = full_value;
    int line_bit[DOTS_MAX_LINES];
    int n = 0;
    for (int l = 0; l < b->nlines; l++) {
        line_bit[l] = -1;
        if (!(start >> l & 1)) {
            line_bit[l] = n;
            game->bit_line[n++] = l;
        }
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
     * without changing any box's set of lines, so they are interchangeable. */
    for (int i = 0; i < n; i++) {
        uint64_t bi = line_boxes(b, game->bit_line[i]);
        u->class_mask[i] = 0;
        for (int j = 0; j < n; j++)
            if (line_boxes(b, game->bit_line[j]) == bi)
                u->class_mask[i] |= 1ULL << j;
    }
}

void dots_rules_init(dots_rules *r, const dots_game *game, const rdb_layout_plan *plan, int loony)
{
    const dots_board *b = &game->board;
    memset(r, 0, sizeof *r);
    r->nbits = game->nbits;
    r->loony = loony;
    r->scale = loony ? 4 : 1;
    r->flip = loony ? 2 : 0;
    r->full_value = (int8_t)(loony ? 4 * game->full_value + RDB_LOONY_NONE : game->full_value);
    for (int l = 0; l < DOTS_MAX_LINES; l++)
        r->bit[l] = -1;
    for (int i = 0; i < game->nbits; i++) {
        r->line[i] = game->bit_line[plan->order[i]];
        r->bit[r->line[i]] = i;
    }
    for (int i = 0; i < game->nbits; i++) {
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
}

uint64_t dots_rules_position(const dots_rules *r, uint64_t lines)
{
    uint64_t pos = 0;
    for (int i = 0; i < r->nbits; i++)
        if (lines >> r->line[i] & 1)
            pos |= 1ULL << i;
    return pos;
}

uint64_t dots_rules_lines(const dots_rules *r, const dots_game *game, uint64_t pos)
{
    uint64_t lines = game->start;
    for (int i = 0; i < r->nbits; i++)
        if (pos >> i & 1)
            lines |= 1ULL << r->line[i];
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
