/*
 * layout.h — how the positions of a universe are cut into groups and slices
 * and numbered densely (docs/internals.md, "How it works").
 *
 * The bits are ordered so that group g occupies bits [off[g], off[g] +
 * size[g]); each group is a union of symmetry orbits and holds whole
 * interchangeable classes, so every transform and the normalisation act on
 * each group separately. A group state is *valid* when it is normalised
 * (each class's taken bits are its lowest ones) and, for group 0, canonical
 * (no transform maps it to a smaller state). A slice is one count per group;
 * its positions are numbered in mixed radix by the groups' ranks, group 0
 * most significant, the last group (the "inner" group) least significant.
 *
 * Canonical form of a position: normalise every group, then apply to every
 * group the transform that makes group 0 smallest. Positions whose group-0
 * state has symmetries of its own may be stored more than once; all of them
 * hold correct values, so lookups need no further tie-breaking.
 */
#ifndef RDB_LAYOUT_H
#define RDB_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "layout/universe.h"

#define RDB_MAX_GROUPS 16
#define RDB_MAX_GROUP_BITS 16

typedef struct {
    int ngroups;
    int size[RDB_MAX_GROUPS];
    /* order[i] = bit of the original universe that becomes bit i */
    uint8_t order[RDB_MAX_BITS];
} rdb_layout_plan;

typedef struct {
    rdb_universe u;            /* the universe with bits in layout order */
    int nbits, ngroups, ntransforms;
    int size[RDB_MAX_GROUPS], off[RDB_MAX_GROUPS];
    uint16_t *norm[RDB_MAX_GROUPS];     /* state -> normalised state */
    uint32_t *rank[RDB_MAX_GROUPS];     /* valid state -> rank among its popcount */
    uint16_t *states[RDB_MAX_GROUPS][RDB_MAX_GROUP_BITS + 1]; /* rank -> state */
    uint32_t count[RDB_MAX_GROUPS][RDB_MAX_GROUP_BITS + 1];
    uint16_t *moves[RDB_MAX_GROUPS];    /* state -> one free bit per class */
    uint16_t *perm[RDB_MAX_TRANSFORMS][RDB_MAX_GROUPS]; /* normalised state -> normalised image */
    uint8_t *canon_t;                   /* group 0: normalised state -> transform to canonical */
    /* inner group: rank -> rank of the image under transform t, per count */
    uint16_t *permrank[RDB_MAX_TRANSFORMS][RDB_MAX_GROUP_BITS + 1];
} rdb_layout;

typedef struct {
    int level;
    int counts[RDB_MAX_GROUPS];
    uint64_t size;              /* positions in the slice */
} rdb_slice;

/* Choose groups for universe u: the fewest groups (at least 2 when the
 * universe has more than one orbit) such that the largest slice fits
 * max_slice_bytes, or exactly `ngroups` groups when ngroups > 0. When no
 * split fits (RDB_E_NOMEM), *smallest gets the largest slice, in
 * positions, of the split whose largest slice is smallest, so that the
 * caller can say how much memory would do (smallest may be NULL). The
 * last few plans found are kept for the process (a build asks five
 * times), so a question asked again is answered at once; safe to call
 * from several threads. */
rdb_status rdb_layout_plan_groups(const rdb_universe *u, int ngroups, uint64_t max_slice_bytes,
                                  rdb_layout_plan *plan, uint64_t *smallest, rdb_error *err);

/* Build the tables for plan. rdb_layout_free releases them. */
rdb_status rdb_layout_build(const rdb_universe *u, const rdb_layout_plan *plan,
                            rdb_layout *lay, rdb_error *err);
void rdb_layout_free(rdb_layout *lay);

/* Largest slice of the layout, in positions. */
uint64_t rdb_layout_max_slice(const rdb_layout *lay);

/* Number of positions stored in all slices. */
uint64_t rdb_layout_total_positions(const rdb_layout *lay);

/* State of group g in position pos (layout bit order). */
static inline unsigned rdb_group_state(const rdb_layout *lay, int g, uint64_t pos)
{
    return (unsigned)(pos >> lay->off[g]) & ((1u << lay->size[g]) - 1);
}

/* Canonical form of a position (layout bit order). */
uint64_t rdb_layout_canonical(const rdb_layout *lay, uint64_t pos);

/* Slice of a canonical position and its index in that slice. */
void rdb_layout_locate(const rdb_layout *lay, uint64_t canonical, rdb_slice *slice, uint64_t *index);

/* Inverse of rdb_layout_locate. */
uint64_t rdb_layout_position(const rdb_layout *lay, const rdb_slice *slice, uint64_t index);

/* Whether two slices of a layout with ngroups groups are the same. */
static inline int rdb_slice_equal(const rdb_slice *a, const rdb_slice *b, int ngroups)
{
    if (a->level != b->level)
        return 0;
    for (int g = 0; g < ngroups; g++)
        if (a->counts[g] != b->counts[g])
            return 0;
    return 1;
}

/* Fill slice->size from slice->counts (0 when some group has no state). */
void rdb_slice_set_size(const rdb_layout *lay, rdb_slice *slice);

/* The slices of a level, in the order the builder processes them
 * (lexicographic in the counts). Returns the number of slices and stores a
 * malloc'd array in *out (NULL when there are none). */
int rdb_level_slices(const rdb_layout *lay, int level, rdb_slice **out);

#endif
