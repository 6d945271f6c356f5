/*
 * cram_kernel.h — computing the nimbers of one slice of a Cram table from
 * its neighbour slices (the Cram side of kernel.h).
 *
 * A domino covers two cells, so a slice's children lie two levels up: in
 * the slice with two more cells in one group, or one more in each of two
 * groups. The kernel visits those neighbours one at a time, like the
 * Dots-and-Boxes kernel, and collects for every position the set of
 * nimbers its children have (a 64-bit mask); the nimber is the mex of
 * that set once every neighbour has been visited.
 */
#ifndef RDB_CRAM_KERNEL_H
#define RDB_CRAM_KERNEL_H

#include "engine/kernel.h"

/* Build the Cram tables of kern (kern->db is set). */
rdb_status cram_kernel_init(rdb_kernel *kern, rdb_error *err);
void cram_kernel_free(rdb_kernel *kern);

/* The nimbers of slice s, as rdb_compute_slice. */
rdb_status cram_compute_slice(const rdb_kernel *kern, const rdb_slice *s, int8_t *best,
                              rdb_neighbour *nb, rdb_error *err);

#endif
