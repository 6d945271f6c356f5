/*
 * naive_cram.c — the reference Cram solver; see naive_cram.h.
 *
 * Every move is one of a list of dominoes, each the set of its two cells,
 * made once: the board's, or those of a list of cells. The memo is an
 * open-addressing table of (free set + 1, nimber) pairs that doubles when
 * half full; the +1 lets key 0 mean an empty slot.
 */
#include "naive_cram.h"

#include <stdio.h>
#include <stdlib.h>

struct naive_cram {
    int ndominoes;
    uint64_t domino[2 * 64]; /* each domino's two cells */
    size_t cap, used;
    uint64_t *key;
    uint8_t *value;
};

static naive_cram *new_memo(void)
{
    naive_cram *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->cap = 1 << 16;
    n->key = calloc(n->cap, sizeof *n->key);
    n->value = calloc(n->cap, 1);
    if (!n->key || !n->value) {
        naive_cram_free(n);
        return NULL;
    }
    return n;
}

naive_cram *naive_cram_new(int rows, int cols)
{
    naive_cram *n = new_memo();
    if (!n)
        return NULL;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            const int cell = r * cols + c;
            if (c + 1 < cols)
                n->domino[n->ndominoes++] = 3ULL << cell;
            if (r + 1 < rows)
                n->domino[n->ndominoes++] = 1ULL << cell | 1ULL << (cell + cols);
        }
    return n;
}

naive_cram *naive_cram_new_cells(int ncells, const int (*rc)[2])
{
    naive_cram *n = ncells <= 64 ? new_memo() : NULL;
    if (!n)
        return NULL;
    for (int i = 0; i < ncells; i++)
        for (int j = i + 1; j < ncells; j++)
            if (abs(rc[i][0] - rc[j][0]) + abs(rc[i][1] - rc[j][1]) == 1)
                n->domino[n->ndominoes++] = 1ULL << i | 1ULL << j;
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
    for (int d = 0; d < n->ndominoes; d++)
        if ((free_cells & n->domino[d]) == n->domino[d]) {
            int v = naive_cram_nimber(n, free_cells & ~n->domino[d]);
            seen[v >> 6] |= 1ULL << (v & 63);
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
