/*
 * distribution.c — one process's distribution, and the sharing of a
 * level's slices that every distribution of several processes uses; see
 * distribution.h.
 *
 * Slices of one level differ in size by orders of magnitude (a slice with
 * every group half full against one with a group empty), and a slice's
 * time is close to proportional to its positions, so slices are shared by
 * size, not by count: largest first to the least loaded process (Graham's
 * LPT rule, within 4/3 of the best possible for the longest share).
 */
#include "engine/distribution.h"

#include <stdlib.h>
#include <string.h>

static rdb_status single_agree(const rdb_distribution *d, rdb_status st, rdb_error *err)
{
    (void)d;
    (void)err;
    return st;
}

static rdb_status single_share_manifest(const rdb_distribution *d, rdb_manifest *m,
                                        rdb_error *err)
{
    (void)d;
    (void)m;
    (void)err;
    return RDB_OK;
}

static int single_assign(const rdb_distribution *d, const rdb_slice *slices, int ns,
                         const char *done, char *mine)
{
    (void)d;
    (void)slices;
    for (int i = 0; i < ns; i++)
        mine[i] = !done[i];
    return 0;
}

static rdb_status single_level_end(const rdb_distribution *d, rdb_manifest *m, const char *dir,
                                   rdb_status st, const rdb_error *err, const rdb_slice *damaged,
                                   const rdb_manifest_entry *records, size_t nrecords,
                                   const rdb_level_work *work, rdb_level_end *out)
{
    (void)d;
    (void)m;
    (void)dir;
    (void)records;
    (void)nrecords;
    memset(out, 0, sizeof *out);
    out->st = st;
    if (st != RDB_OK)
        out->err = *err;
    if (damaged) {
        out->damaged = malloc(sizeof *out->damaged);
        if (!out->damaged)
            return rdb_fail(&out->err, out->st = RDB_E_NOMEM, "out of memory");
        out->damaged[0] = *damaged;
        out->ndamaged = 1;
    }
    out->total = *work;
    out->busy_min = out->busy_max = work->busy;
    return out->st;
}

static void single_finish(const rdb_distribution *d, rdb_status st, int quiet)
{
    (void)d;
    (void)st;
    (void)quiet;
}

const rdb_distribution *rdb_distribution_single(void)
{
    static const rdb_distribution single = {
        .rank = 0,
        .ranks = 1,
        .ctx = NULL,
        .agree = single_agree,
        .share_manifest = single_share_manifest,
        .assign = single_assign,
        .level_end = single_level_end,
        .finish = single_finish,
    };
    return &single;
}

typedef struct {
    uint64_t size;
    int index;
} sized;

/* Largest first; equal sizes in slice order, so the order is total. */
static int by_size(const void *a, const void *b)
{
    const sized *x = a, *y = b;
    if (x->size != y->size)
        return x->size < y->size ? 1 : -1;
    return (x->index > y->index) - (x->index < y->index);
}

int rdb_distribution_share(int rank, int ranks, const rdb_slice *slices, int ns,
                           const char *done, char *mine)
{
    memset(mine, 0, (size_t)ns);
    sized *order = malloc((size_t)ns * sizeof *order + 1);
    uint64_t *load = calloc((size_t)ranks, sizeof *load);
    if (!order || !load) {
        free(order);
        free(load);
        return -1;
    }
    int n = 0;
    for (int i = 0; i < ns; i++)
        if (!done[i])
            order[n++] = (sized){slices[i].size, i};
    qsort(order, (size_t)n, sizeof *order, by_size);
    for (int k = 0; k < n; k++) {
        int least = 0;
        for (int r = 1; r < ranks; r++)
            if (load[r] < load[least])
                least = r;
        /* a slice costs its positions, and at least a little (one file) */
        load[least] += order[k].size + 1;
        if (least == rank)
            mine[order[k].index] = 1;
    }
    free(order);
    free(load);
    return 0;
}

void rdb_level_end_free(rdb_level_end *e)
{
    free(e->damaged);
    e->damaged = NULL;
    e->ndamaged = 0;
}
