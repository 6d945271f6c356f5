/*
 * dots_corridors.c — a quiet position's corridors; see dots_corridors.h.
 *
 * Each box with two sides is met once: from it the corridor is followed
 * through one open line to its end (or round to the box again: a cycle),
 * then through the other.
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
    for (uint64_t two = dots_capture_two(g, drawn); two;) {
        const int b = __builtin_ctzll(two);
        two &= two - 1;
        const uint64_t open = g->box_mask[b] & ~drawn;
        dots_corridor *c = &out[n++];
        *c = (dots_corridor){0, 0, 1, DOTS_CORRIDOR_PATH};
        const int end1 = follow(g, drawn, &two, b, __builtin_ctzll(open), c);
        if (end1 == b) {
            c->kind = DOTS_CORRIDOR_CYCLE;
            continue;
        }
        const int end2 = follow(g, drawn, &two, b, 63 - __builtin_clzll(open), c);
        if (end1 >= 0 && end1 == end2 && __builtin_popcountll(drawn & g->box_mask[end1]) == 1)
            c->kind = DOTS_CORRIDOR_KNOT;
    }
    return n;
}
