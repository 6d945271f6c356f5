/*
 * universe.c — whole-position transforms and normalisation; see universe.h.
 * These are the slow, obviously correct versions: the builder uses the
 * per-group tables of layout.c, and tests hold those against these.
 */
#include "layout/universe.h"

uint64_t rdb_universe_transform(const rdb_universe *u, int t, uint64_t pos)
{
    uint64_t out = 0;
    for (int i = 0; i < u->nbits; i++)
        if (pos >> i & 1)
            out |= 1ULL << u->transform[t][i];
    return out;
}

uint64_t rdb_universe_normalize(const rdb_universe *u, uint64_t pos)
{
    uint64_t out = 0, seen = 0;
    for (int i = 0; i < u->nbits; i++) {
        uint64_t cm = u->class_mask[i];
        if (seen & cm)
            continue;
        seen |= cm;
        int taken = __builtin_popcountll(pos & cm);
        for (uint64_t m = cm; taken > 0; taken--, m &= m - 1)
            out |= m & -m;
    }
    return out;
}
