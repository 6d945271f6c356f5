/*
 * naive_cram.h — the reference Cram solver the tests trust: the nimber of a
 * set of free cells of an R x C board straight from the definition (mex of
 * the children's nimbers), memoised in a hash map keyed by the free set. No
 * pruning, no symmetry, no decomposition into components, and no code
 * shared with src/, so that it can catch their mistakes. Meant for
 * positions of up to about 24 free cells.
 */
#ifndef NAIVE_CRAM_H
#define NAIVE_CRAM_H

#include <stdint.h>

typedef struct naive_cram naive_cram;

/* A solver for the R x C board (R*C <= 64); NULL when out of memory. */
naive_cram *naive_cram_new(int rows, int cols);
void naive_cram_free(naive_cram *n);

/* A solver for positions of any board made of the given cells (r, c) (at
 * most 64 of them), free or not: two of them next to each other make a
 * domino. naive_cram_nimber then takes sets of them, bit i for rc[i].
 * For boards of more than 64 cells; NULL when out of memory. */
naive_cram *naive_cram_new_cells(int ncells, const int (*rc)[2]);

/* Nimber of the position whose free cells are `free_cells` (cell (r,c) is
 * bit r*C + c). Aborts when memory runs out. */
int naive_cram_nimber(naive_cram *n, uint64_t free_cells);

#endif
