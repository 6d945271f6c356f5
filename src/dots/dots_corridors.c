/*
 * dots_corridors.c — a quiet position's corridors; see dots_corridors.h.
 *
 * Each box with two sides is met once. One that no open line joins to
 * another (found for all boxes at once, dots_capture_two_linked) is a
 * corridor of its own; from any other the corridor is followed through
 * one open line to its end (or round to the box again: a cycle), then
 * through the other. In the middle of a game most corridors are single
 * boxes (4x5 around 20 lines: 3.8 of a position's 5.3); the plan's sample
 * of 4x5's positions took 0.78 of the time it took when each was
 * followed, the build of its level 21 about 0.9 (docs/building.md).
 */
#include "dots/dots_corridors.h"

#include "dots/dots_capture.h"

static inline int other_box(const dots_box_graph *g, int line, int box)
{
    return g->across[line][0] == box ? g->across[line][1] : g->across[line][0];
}

/* Follow the corridor from box `from` through its open line `line`, away
 * from it, adding the lines and boxes met to *c; returns the end: a box
 * with other than two sides, -1 for the edge, or `from` itself round a
 * cycle (then `line` is already in c->lines). `two` holds the boxes with
 * two sides; those met leave it. */
static int follow(const dots_box_graph *g, uint64_t drawn, uint64_t *two, int from, int line,
                  dots_corridor *c)
{
    int box = from;
    for (;;) {
        c->lines |= 1ULL << line;
        const int next = other_box(g, line, box);
        if (next < 0 || next == from || !(*two >> next & 1)) {
            c->ends |= next == from ? 0 : 1ULL << line;
            return next;
        }
        c->boxes++;
        *two &= ~(1ULL << next);
        line = __builtin_ctzll(g->box_mask[next] & ~drawn & ~(1ULL << line));
        box = next;
    }
}

int dots_corridors(const dots_box_graph *g, uint64_t drawn, dots_corridor *out)
{
    int n = 0;
    uint64_t linked;
    const uint64_t all_two = dots_capture_two_linked(g, drawn, &linked);
    /* a box with two sides whose open lines lead to no other such box
     * (most of them, in the middle of a game) is a path of one box, both
     * its lines its ends */
    for (uint64_t alone = all_two & ~linked; alone; alone &= alone - 1) {
        const uint64_t open = g->box_mask[__builtin_ctzll(alone)] & ~drawn;
        out[n++] = (dots_corridor){open, open, open, 1, 1, DOTS_CORRIDOR_PATH};
    }
    for (uint64_t two = linked; two;) {
        const int b = __builtin_ctzll(two);
        two &= two - 1;
        const uint64_t open = g->box_mask[b] & ~drawn;
        dots_corridor *c = &out[n++];
        *c = (dots_corridor){0, 0, 0, 1, 0, DOTS_CORRIDOR_PATH};
        const int end1 = follow(g, drawn, &two, b, __builtin_ctzll(open), c);
        if (end1 == b) {
            c->kind = DOTS_CORRIDOR_CYCLE;
        } else {
            const int end2 = follow(g, drawn, &two, b, 63 - __builtin_clzll(open), c);
            if (end1 >= 0 && end1 == end2 && __builtin_popcountll(drawn & g->box_mask[end1]) == 1)
                c->kind = DOTS_CORRIDOR_KNOT;
        }
        c->taken = c->lines;
        c->run = c->boxes;
    }
    /* a knot's capture goes on through its box K and K's third open line
     * f, into the corridor f ends (a path of boxes with two sides) if
     * there is one (dots_corridors.h) */
    for (int i = 0; i < n; i++) {
        dots_corridor *c = &out[i];
        if (c->kind != DOTS_CORRIDOR_KNOT)
            continue;
        const int end = __builtin_ctzll(c->ends);
        const int k = all_two >> g->across[end][0] & 1 ? g->across[end][1] : g->across[end][0];
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
