/*
 * loony_endgame.c — the value of a simple loony endgame; see
 * loony_endgame.h.
 *
 * Why the recurrence below is exact. In a simple loony endgame every open
 * line lies inside one component (a chain or a loop), so every move opens
 * one component C and gives the opponent a third side in one of its boxes.
 * The opponent's useful replies are those the solver's capture rules leave
 * (dots_solver.c): take every box of C and move on in the rest R, or take
 * all but the last two boxes of a chain (four of a loop) and hand those
 * over with the double-dealing move, after which the mover takes them and
 * moves in R. Which line of C is drawn matters only for a chain of two:
 * drawn in the middle, both boxes are capturable at once and cannot be
 * declined; drawn at an end, the opponent may also decline them, an
 * option that can only help him, so the mover opens a chain of two in the
 * middle. Components share no open line, so opening one leaves the others
 * as they were. With V(R) the value of R to the player to move there:
 *
 *   chain of n = 1 or 2:  -(n + V(R))
 *   chain of n >= 3:      -max(n + V(R), (n - 2) - 2 - V(R))
 *   loop of n (>= 4):     -max(n + V(R), (n - 4) - 4 - V(R))
 *   V(S) = the best of these over the components of S,  V(empty) = the
 *   value of the full board to the player who took the last box.
 *
 * This is the analysis of Berlekamp's "The Dots and Boxes Game" and of
 * Buzzard and Ciere (2014), computed here by a table over the sub-multisets
 * of the components rather than in closed form, so that it also holds
 * with a last-move penalty. The solver's tests hold it against the
 * databases and against the search without it.
 *
 * The same walk along corridors finds, in any position, the chains and
 * loops that are independent of the rest of the board, whose lines all
 * open them to the same effect (dots_redundant_openings).
 */
#include "dots/loony_endgame.h"

#include <string.h>

#include "dots/dots_board.h"

/* The most distinct sub-multisets the table takes; beyond that the
 * position is left to the search (never reached on boards up to 4x5, whose
 * 20 boxes make at most a few hundred). */
#define MAX_STATES 4096

/* A kind of component: a chain or a loop of `len` boxes, `count` of them. */
typedef struct {
    int loop;
    int len;
    int count;
} component_kind;

static inline int other_box(const dots_box_graph *g, int line, int box)
{
    return g->across[line][0] == box ? g->across[line][1] : g->across[line][0];
}

/* Follow the corridor from box x out through its open line `line` while
 * the boxes have two sides drawn, adding the lines crossed to *lines and
 * the boxes to *seen. Returns the boxes met (x not counted), or -1 when
 * the corridor ends at a box with fewer sides (a junction: the component
 * is not independent); *closed tells a loop. */
static int walk_lines(const dots_box_graph *g, uint64_t drawn, const int8_t *cnt, int x,
                      int line, uint64_t *seen, uint64_t *lines, int *closed)
{
    int n = 0, prev = line, cur = other_box(g, line, x);
    *closed = 0;
    *lines |= 1ULL << line;
    while (cur >= 0) {
        if (cur == x) {
            *closed = 1;
            return n;
        }
        if (cnt[cur] != 2)
            return -1;
        *seen |= 1ULL << cur;
        n++;
        int next = __builtin_ctzll(g->box_mask[cur] & ~drawn & ~(1ULL << prev));
        *lines |= 1ULL << next;
        prev = next;
        cur = other_box(g, next, cur);
    }
    return n;
}

/* The mover's value of opening a component of kind k when the rest is
 * worth r to whoever moves in it. */
static int open_value(const component_kind *k, int r)
{
    const int n = k->len;
    if (!k->loop && n <= 2)
        return -(n + r);
    const int handed = k->loop ? 4 : 2;
    const int take_all = n + r, decline = (n - handed) - handed - r;
    return -(take_all > decline ? take_all : decline);
}

int dots_simple_endgame(const dots_box_graph *g, uint64_t drawn, const int8_t *cnt,
                        int full_value, int *value)
{
    for (int x = 0; x < g->nboxes; x++)
        if (cnt[x] != 2 && cnt[x] != 4)
            return 0;
    component_kind kinds[64];
    int nkinds = 0;
    uint64_t seen = 0;
    for (int x = 0; x < g->nboxes; x++) {
        if (cnt[x] == 4 || (seen >> x & 1))
            continue;
        seen |= 1ULL << x;
        uint64_t open = g->box_mask[x] & ~drawn, lines = 0;
        int l1 = __builtin_ctzll(open), l2 = __builtin_ctzll(open & (open - 1));
        /* every box has two sides or four: the walks never meet a junction */
        int closed, len = 1 + walk_lines(g, drawn, cnt, x, l1, &seen, &lines, &closed);
        if (!closed)
            len += walk_lines(g, drawn, cnt, x, l2, &seen, &lines, &closed);
        int k = 0;
        while (k < nkinds && !(kinds[k].loop == closed && kinds[k].len == len))
            k++;
        if (k == nkinds)
            kinds[nkinds++] = (component_kind){closed, len, 0};
        kinds[k].count++;
    }
    /* states: one count 0..count per kind, in mixed radix */
    int radix[64], states = 1;
    for (int k = 0; k < nkinds; k++) {
        radix[k] = states;
        states *= kinds[k].count + 1;
        if (states > MAX_STATES)
            return 0;
    }
    int v[MAX_STATES];
    v[0] = full_value;
    for (int s = 1; s < states; s++) {
        int best = 0, any = 0;
        for (int k = 0; k < nkinds; k++) {
            if ((s / radix[k]) % (kinds[k].count + 1) == 0)
                continue;
            int o = open_value(&kinds[k], v[s - radix[k]]);
            if (!any || o > best)
                best = o;
            any = 1;
        }
        v[s] = best;
    }
    *value = v[states - 1];
    return 1;
}

uint64_t dots_redundant_openings(const dots_box_graph *g, uint64_t drawn, const int8_t *cnt)
{
    uint64_t redundant = 0, seen = 0;
    for (int x = 0; x < g->nboxes; x++) {
        if (cnt[x] != 2 || (seen >> x & 1))
            continue;
        seen |= 1ULL << x;
        uint64_t open = g->box_mask[x] & ~drawn, lines = 0;
        int l1 = __builtin_ctzll(open), l2 = __builtin_ctzll(open & (open - 1));
        int closed, a = walk_lines(g, drawn, cnt, x, l1, &seen, &lines, &closed), b = 0;
        if (a >= 0 && !closed)
            b = walk_lines(g, drawn, cnt, x, l2, &seen, &lines, &closed);
        if (a < 0 || b < 0)
            continue;
        uint64_t keep = lines & -lines;
        if (!closed && a + b == 1) {
            /* a chain of two: keep the line between its boxes */
            int y = a ? other_box(g, l1, x) : other_box(g, l2, x);
            keep = g->box_mask[x] & g->box_mask[y];
        }
        redundant |= lines & ~keep;
    }
    return redundant;
}
