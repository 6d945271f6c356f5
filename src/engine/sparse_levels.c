/*
 * sparse_levels.c — a sparse database's levels through a chunk cache; see
 * sparse_levels.h.
 *
 * The cache loads under its own lock, so the open files and the one
 * decompression context here need none of their own.
 */
#include "engine/sparse_levels.h"

#include <stdlib.h>

struct rdb_sparse_levels {
    const rdb_db *db;
    rdb_chunk_cache *cache;
    rdb_frame_reader *reader;
    int nlevels;
    rdb_slice_file *file; /* [level], fd < 0 until its first chunk */
};

static rdb_status load_chunk(void *ctx, int level, uint32_t chunk, int8_t *out, rdb_error *err)
{
    rdb_sparse_levels *s = ctx;
    rdb_slice_file *sf = &s->file[level];
    if (sf->fd < 0) {
        rdb_slice slice = {.level = level};
        rdb_db_slice_size(s->db, &slice);
        rdb_status st = rdb_slice_open_in(s->db, &slice, sf, err);
        if (st != RDB_OK) {
            sf->fd = -1;
            return st;
        }
    }
    size_t n;
    return rdb_frame_reader_read(s->reader, sf, chunk, out, &n, err);
}

rdb_status rdb_sparse_levels_open(const rdb_db *db, uint64_t budget, rdb_sparse_levels **out,
                                  rdb_error *err)
{
    rdb_sparse_levels *s = calloc(1, sizeof *s);
    if (!s)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the levels' cache");
    s->db = db;
    s->nlevels = db->lay.nbits + 1;
    s->file = calloc((size_t)s->nlevels, sizeof *s->file);
    uint64_t *size = calloc((size_t)s->nlevels, sizeof *size);
    s->reader = rdb_frame_reader_new();
    rdb_status st = RDB_OK;
    if (!s->file || !size || !s->reader)
        st = rdb_fail(err, RDB_E_NOMEM, "out of memory for the levels' cache");
    for (int l = 0; st == RDB_OK && l < s->nlevels; l++) {
        s->file[l].fd = -1;
        rdb_slice slice = {.level = l};
        rdb_db_slice_size(db, &slice);
        size[l] = slice.size;
    }
    if (st == RDB_OK)
        st = rdb_chunk_cache_new(budget, s->nlevels, size, load_chunk, s, &s->cache, err);
    free(size);
    if (st != RDB_OK) {
        rdb_sparse_levels_close(s);
        return st;
    }
    *out = s;
    return RDB_OK;
}

void rdb_sparse_levels_close(rdb_sparse_levels *s)
{
    if (!s)
        return;
    rdb_chunk_cache_free(s->cache);
    for (int l = 0; s->file && l < s->nlevels; l++)
        if (s->file[l].fd >= 0)
            rdb_slice_close(&s->file[l]);
    free(s->file);
    rdb_frame_reader_free(s->reader);
    free(s);
}

rdb_chunk_cache *rdb_sparse_levels_cache(rdb_sparse_levels *s)
{
    return s->cache;
}

void rdb_sparse_levels_forget(rdb_sparse_levels *s, int level)
{
    rdb_chunk_cache_drop_level(s->cache, level);
    if (s->file[level].fd >= 0)
        rdb_slice_close(&s->file[level]);
    s->file[level].fd = -1;
}
