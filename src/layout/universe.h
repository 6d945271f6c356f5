/*
 * universe.h — the set of move-bits a game is played on, as the engine sees
 * it.
 *
 * A position is a uint64_t whose bit i says that move-bit i is taken. The
 * universe tells the engine only what it needs to store positions
 * compactly: how many bits there are, the symmetries (permutations of bits
 * that preserve the rules and the start position; transform 0 is the
 * identity) and the interchangeable classes (bits that are worth the same in
 * every position, so that only how many of a class are taken matters).
 * Game rules live in the games' folders (game.h).
 */
#ifndef RDB_UNIVERSE_H
#define RDB_UNIVERSE_H

#include <stdint.h>

#define RDB_MAX_BITS 64
#define RDB_MAX_TRANSFORMS 8

typedef struct {
    int nbits;
    int ntransforms;
    uint8_t transform[RDB_MAX_TRANSFORMS][RDB_MAX_BITS]; /* bit -> bit */
    uint64_t class_mask[RDB_MAX_BITS]; /* bits interchangeable with bit i (itself included) */
} rdb_universe;

/* Apply transform t to a position. */
uint64_t rdb_universe_transform(const rdb_universe *u, int t, uint64_t pos);

/* Move each class's taken bits to the class's lowest bits. */
uint64_t rdb_universe_normalize(const rdb_universe *u, uint64_t pos);

#endif
