/*
 * cram_kernel.h — computing the nimbers of one slice of a Cram table from
 * its neighbour slices, as game.h's slice kernel.
 *
 * A domino covers two cells, so a slice's children lie two levels up: in
 * the slice with two more cells in one group, or one more in each of two
 * groups. The engine hands those neighbours over one at a time; the kernel
 * collects for every position the set of nimbers its children have (a
 * 64-bit mask), and the nimber is the mex of that set once every neighbour
 * has been seen (the combine rule).
 */
#ifndef RDB_CRAM_KERNEL_H
#define RDB_CRAM_KERNEL_H

#include <stdint.h>

#include "cram/cram_rules.h"
#include "layout/layout.h"

typedef struct cram_kernel cram_kernel;

/* Tables for the rules r in the bit order of lay (lay must outlive the
 * kernel). */
rdb_status cram_kernel_new(const cram_rules *r, const rdb_layout *lay, cram_kernel **kernel,
                           rdb_error *err);
void cram_kernel_free(cram_kernel *kernel);

/* game.h's slice_begin, leads_to, slice_relax and slice_finish (kernel is
 * a cram_kernel). */
void cram_slice_begin(void *kernel, const rdb_slice *s, int8_t *values);
int cram_leads_to(const void *kernel, const rdb_slice *s, const rdb_slice *n);
void cram_slice_relax(void *kernel, const rdb_slice *s, const rdb_slice *n,
                      const int8_t *nvalues, int8_t *values);
rdb_status cram_slice_finish(void *kernel, const rdb_slice *s, int8_t *values, rdb_error *err);

#endif
