/*
 * dots_corridors.c — a quiet position's corridors; see dots_corridors.h.
 *
 * Each box with two sides is met once: from it the corridor is followed
 * through one open line to its end (or round to the box again: a cycle),
 * then through the other.
 */
#include "dots/dots_corridors.h"

static inline int other_box(const dots_box_graph *g, int line, int box)
{
    return g->across[line][0] == box ? g->across[line][1] : g->across[line][0];
}

/* Follow the corridor from box `from` through its open line `line`, away
 * from it, adding the lines and boxes met to *c; returns the end: a box
 * with other than two sides, -1 for the edge, or `from` itself round a
 * cycle (then `line` is already in c->lines). */
static int follow(const dots_box_graph *g, uint64_t drawn, const int8_t *cnt, int from, int line,
                  dots_corridor *c, uint64_t *seen)
{
    int box = from;
    for (;;) {
        c->lines |= 1ULL << line;
        const int next = other_box(g, line, box);
        if (next < 0 || cnt[next] != 2 || next == from) {
            c->ends |= next == from ? 0 : 1ULL << line;
            return next;
        }
        c->boxes++;
        *seen |= 1ULL << next;
        line = __builtin_ctzll(g->box_mask[next] & ~drawn & ~(1ULL << line));
        box = next;
    }
}

int dots_corridors(const dots_box_graph *g, uint64_t drawn, const int8_t *cnt, dots_corridor *out)
{
    uint64_t two = 0;
    for (int b = 0; b < g->nboxes; b++)
        two |= (uint64_t)(cnt[b] == 2) << b;
    int n = 0;
    for (uint64_t seen = 0; two & ~seen;) {
        const int b = __builtin_ctzll(two & ~seen);
        seen |= 1ULL << b;
        const uint64_t open = g->box_mask[b] & ~drawn;
        dots_corridor *c = &out[n++];
        *c = (dots_corridor){0, 0, 1, DOTS_CORRIDOR_PATH};
        const int end1 = follow(g, drawn, cnt, b, __builtin_ctzll(open), c, &seen);
        if (end1 == b) {
            c->kind = DOTS_CORRIDOR_CYCLE;
            continue;
        }
        const int end2 = follow(g, drawn, cnt, b, 63 - __builtin_clzll(open), c, &seen);
        if (end1 >= 0 && end1 == end2 && cnt[end1] == 1)
            c->kind = DOTS_CORRIDOR_KNOT;
    }
    return n;
}
