/*
 * dots_kernel.h — computing the values of one Dots-and-Boxes slice from its
 * neighbour slices (one more line in one group), as game.h's slice kernel.
 *
 * A slice is a matrix: one row per state of the outer groups, one column
 * per state of the inner (last) group. The engine hands the neighbours
 * over one at a time; each is relaxed into the slice with the moves that
 * lead into it (the best score over a position's moves: the combine rule
 * is max). dots_kernel holds the tables that make this cheap; it is built
 * once per database.
 */
#ifndef RDB_DOTS_KERNEL_H
#define RDB_DOTS_KERNEL_H

#include <stdint.h>

#include "dots/dots_rules.h"
#include "layout/layout.h"

typedef struct dots_kernel dots_kernel;

/* Tables for the rules r in the bit order of lay (both must outlive the
 * kernel). */
rdb_status dots_kernel_new(const dots_rules *r, const rdb_layout *lay, dots_kernel **kernel,
                           rdb_error *err);
void dots_kernel_free(dots_kernel *kernel);

/* game.h's slice_begin, slice_relax and slice_finish (kernel is a
 * dots_kernel). */
void dots_slice_begin(void *kernel, const rdb_slice *s, int8_t *values);
void dots_slice_relax(void *kernel, const rdb_slice *s, const rdb_slice *n,
                      const int8_t *nvalues, int8_t *values);
rdb_status dots_slice_finish(void *kernel, const rdb_slice *s, int8_t *values, rdb_error *err);

#endif
