/*
 * naive_cram.c — the reference Cram solver; see naive_cram.h.
 *
 * The memo is an open-addressing table of (free set + 1, nimber) pairs that
 * doubles when half full; the +1 lets key 0 mean an empty slot.
 */
#include "naive_cram.h"

#include <stdio.h>
#include <stdlib.h>

struct naive_cram {
    int rows, cols;
    size_t cap, used;
    uint64_t *key;
    uint8_t *value;
};

naive_cram *naive_cram_new(int rows, int cols)
{
    naive_cram *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->rows = rows;
    n->cols = cols;
    n->cap = 1 << 16;
    n->key = calloc(n->cap, sizeof *n->key);
    n->value = calloc(n->cap, 1);
    if (!n->key || !n->value) {
        naive_cram_free(n);
        return NULL;
    }
    return n;
}

void naive_cram_free(naive_cram *n)
{
    if (!n)
        return;
    free(n->key);
    free(n->value);
    free(n);
}

static size_t slot_of(const naive_cram *n, uint64_t k)
{
    return (size_t)((k * 0x9e3779b97f4a7c15ULL) >> 20) & (n->cap - 1);
}

static void insert(naive_cram *n, uint64_t k, uint8_t v)
{
    size_t i = slot_of(n, k);
    while (n->key[i] != 0)
        i = (i + 1) & (n->cap - 1);
    n->key[i] = k;
    n->value[i] = v;
}

static void grow(naive_cram *n)
{
    uint64_t *old_key = n->key;
    uint8_t *old_value = n->value;
    size_t old_cap = n->cap;
    n->cap *= 2;
    n->key = calloc(n->cap, sizeof *n->key);
    n->value = calloc(n->cap, 1);
    if (!n->key || !n->value) {
        fprintf(stderr, "naive_cram: out of memory\n");
        abort();
    }
    for (size_t i = 0; i < old_cap; i++)
        if (old_key[i])
            insert(n, old_key[i], old_value[i]);
    free(old_key);
    free(old_value);
}

int naive_cram_nimber(naive_cram *n, uint64_t free_cells)
{
    uint64_t k = free_cells + 1;
    for (size_t i = slot_of(n, k); n->key[i] != 0; i = (i + 1) & (n->cap - 1))
        if (n->key[i] == k)
            return n->value[i];

    /* Nimbers stay below 128: a position has fewer than 128 moves. */
    uint64_t seen[2] = {0, 0};
    for (int r = 0; r < n->rows; r++)
        for (int c = 0; c < n->cols; c++) {
            int cell = r * n->cols + c;
            if (!(free_cells >> cell & 1))
                continue;
            if (c + 1 < n->cols && (free_cells >> (cell + 1) & 1)) {
                int v = naive_cram_nimber(n, free_cells & ~(3ULL << cell));
                seen[v >> 6] |= 1ULL << (v & 63);
            }
            if (r + 1 < n->rows && (free_cells >> (cell + n->cols) & 1)) {
                int v = naive_cram_nimber(n, free_cells & ~(1ULL << cell | 1ULL << (cell + n->cols)));
                seen[v >> 6] |= 1ULL << (v & 63);
            }
        }
    int mex = 0;
    while (seen[mex >> 6] >> (mex & 63) & 1)
        mex++;

    if (2 * (n->used + 1) > n->cap)
        grow(n);
    insert(n, k, (uint8_t)mex);
    n->used++;
    return mex;
}
