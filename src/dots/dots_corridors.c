/*
 * dots_corridors.c — a quiet position's corridors; see dots_corridors.h.
 *
 * The boxes with two sides, and the open lines that join two of them, are
 * found for all boxes at once as bit sets (dots_capture_two_links). A box
 * joined to none is a corridor of its own: in the middle of a game most
 * corridors are single boxes (4x5 around 20 lines: 3.8 of a position's
 * 5.3). The others are grown from their lowest box a join at a time, as
 * whole sets, instead of followed box by box: a follow takes a branch
 * the processor cannot foresee at every box, and the corridors took a
 * sixth of the build's time on 4x5's level 22.
 */
#include "dots/dots_corridors.h"

#include "dots/dots_capture.h"

int dots_corridors(const dots_box_graph *g, uint64_t drawn, dots_corridor *out)
{
    int n = 0;
    uint64_t right, down;
    const uint64_t two = dots_capture_two_links(g, drawn, &right, &down);
    const uint64_t linked = right | right << 1 | down | down << g->cols;
    /* a box with two sides whose open lines lead to no other such box
     * (most of them, in the middle of a game) is a path of one box, both
     * its lines its ends */
    for (uint64_t alone = two & ~linked; alone; alone &= alone - 1) {
        const uint64_t open = g->box_mask[__builtin_ctzll(alone)] & ~drawn;
        out[n++] = (dots_corridor){open, open, open, 1, 1, DOTS_CORRIDOR_PATH};
    }
    for (uint64_t left = linked; left;) {
        /* the boxes linked to the lowest left, grown a link at a time
         * from it: each has two open lines, so they make a path or a
         * cycle */
        uint64_t boxes = left & -left;
        for (;;) {
            const uint64_t grown = boxes | (boxes & right) << 1 | (boxes >> 1 & right) |
                                   (boxes & down) << g->cols | (boxes >> g->cols & down);
            if (grown == boxes)
                break;
            boxes = grown;
        }
        left &= ~boxes;
        /* a line between two of its boxes is open in both: the ends are
         * the open lines of one box only */
        uint64_t lines = 0, ends = 0;
        for (uint64_t m = boxes; m; m &= m - 1) {
            const uint64_t open = g->box_mask[__builtin_ctzll(m)] & ~drawn;
            lines |= open;
            ends ^= open;
        }
        const int count = __builtin_popcountll(boxes);
        int kind = DOTS_CORRIDOR_PATH;
        if (!ends) {
            kind = DOTS_CORRIDOR_CYCLE;
        } else {
            /* the boxes its two ends lead to (-1: the edge) */
            const int e0 = __builtin_ctzll(ends), e1 = 63 - __builtin_clzll(ends);
            const int k0 = boxes >> g->across[e0][0] & 1 ? g->across[e0][1] : g->across[e0][0];
            const int k1 = boxes >> g->across[e1][0] & 1 ? g->across[e1][1] : g->across[e1][0];
            if (k0 >= 0 && k0 == k1 && __builtin_popcountll(drawn & g->box_mask[k0]) == 1)
                kind = DOTS_CORRIDOR_KNOT;
        }
        out[n++] = (dots_corridor){lines, ends, lines, count, count, kind};
    }
    /* a knot's capture goes on through its box K and K's third open line
     * f, into the corridor f ends (a path of boxes with two sides) if
     * there is one (dots_corridors.h) */
    for (int i = 0; i < n; i++) {
        dots_corridor *c = &out[i];
        if (c->kind != DOTS_CORRIDOR_KNOT)
            continue;
        const int end = __builtin_ctzll(c->ends);
        const int k = two >> g->across[end][0] & 1 ? g->across[end][1] : g->across[end][0];
        const uint64_t f = g->box_mask[k] & ~drawn & ~c->ends;
        c->taken |= f;
        c->run++;
        for (int j = 0; j < n; j++)
            if (out[j].lines & f) {
                c->taken |= out[j].lines;
                c->run += out[j].boxes;
            }
    }
    return n;
}
