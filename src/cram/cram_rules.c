/*
 * cram_rules.c — see cram_rules.h.
 */
#include "cram/cram_rules.h"

#include <string.h>

void cram_universe_init(rdb_universe *u, const cram_board *b)
{
    memset(u, 0, sizeof *u);
    u->nbits = b->ncells;
    u->ntransforms = b->ntransforms;
    for (int t = 0; t < b->ntransforms; t++)
        for (int c = 0; c < b->ncells; c++)
            u->transform[t][c] = b->transform[t][c];
    for (int c = 0; c < b->ncells; c++)
        u->class_mask[c] = 1ULL << c;
}

void cram_rules_init(cram_rules *r, const cram_board *b, const rdb_layout_plan *plan)
{
    memset(r, 0, sizeof *r);
    r->board = *b;
    r->nbits = b->ncells;
    for (int i = 0; i < b->ncells; i++) {
        r->cell[i] = plan->order[i];
        r->bit[plan->order[i]] = i;
    }
    r->ndominoes = b->ndominoes;
    for (int d = 0; d < b->ndominoes; d++)
        r->domino[d] = 1ULL << r->bit[b->domino_cell[d][0]] | 1ULL << r->bit[b->domino_cell[d][1]];
}

uint64_t cram_rules_position(const cram_rules *r, uint64_t covered)
{
    uint64_t pos = 0;
    for (; covered; covered &= covered - 1)
        pos |= 1ULL << r->bit[__builtin_ctzll(covered)];
    return pos;
}

uint64_t cram_rules_cells(const cram_rules *r, uint64_t pos)
{
    uint64_t covered = 0;
    for (; pos; pos &= pos - 1)
        covered |= 1ULL << r->cell[__builtin_ctzll(pos)];
    return covered;
}
