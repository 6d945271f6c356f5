/*
 * sparse_levels.c — a sparse database's levels through a chunk cache; see
 * sparse_levels.h.
 *
 * A chunk is a stretch of a level's positions; a level is kept in slices
 * of consecutive positions that need not start where a chunk does, so a
 * chunk is put together from the frames of one slice's file or two. The
 * cache loads under its own lock, so the open files and the one
 * decompression context here need none of their own.
 */
#include "engine/sparse_levels.h"

#include <stdlib.h>
#include <string.h>

struct rdb_sparse_levels {
    const rdb_db *db;
    rdb_chunk_cache *cache;
    rdb_frame_reader *reader;
    int8_t *frame;              /* one frame of a slice file */
    rdb_slice_file *file[RDB_MAX_BITS + 1]; /* [level][slice], fd < 0 until read */
    rdb_slice failed;           /* the slice that last failed to be read */
    uint64_t dropped;           /* levels whose dropped part is gone (bit = level) */
};

/* The file of slice k of a level, opened at its first read. */
static rdb_status slice_file(rdb_sparse_levels *s, int level, int k, rdb_slice_file **out,
                             rdb_error *err)
{
    rdb_slice_file *sf = &s->file[level][k];
    if (sf->fd < 0) {
        rdb_slice slice;
        memset(&slice, 0, sizeof slice);
        slice.level = level;
        slice.counts[0] = k;
        rdb_db_slice_size(s->db, &slice);
        rdb_status st = rdb_slice_open_in(s->db, &slice, sf, err);
        if (st != RDB_OK) {
            sf->fd = -1;
            s->failed = slice;
            return st;
        }
    }
    *out = sf;
    return RDB_OK;
}

/* Positions [lo, hi) of a level into out, from the slices that hold them. */
static rdb_status load_chunk(void *ctx, int level, uint32_t chunk, int8_t *out, rdb_error *err)
{
    rdb_sparse_levels *s = ctx;
    const rdb_db *db = s->db;
    const uint64_t size = db->part_start[level][db->nparts[level]];
    uint64_t lo = (uint64_t)chunk << RDB_CHUNK_SHIFT;
    const uint64_t hi = size - lo < RDB_CHUNK_ENTRIES ? size : lo + RDB_CHUNK_ENTRIES;
    int8_t *to = out;
    while (lo < hi) {
        rdb_slice slice;
        uint64_t at;
        rdb_db_slice_at(db, level, lo, &slice, &at);
        if (rdb_db_slice_dropped(db, s->dropped, &slice)) {
            /* a chunk across the edge of a dropped part: its positions
             * are never read (the game values them from their moves) */
            const uint64_t take = slice.size - at < hi - lo ? slice.size - at : hi - lo;
            memset(to, 0, take);
            to += take;
            lo += take;
            continue;
        }
        rdb_slice_file *sf;
        rdb_status st = slice_file(s, level, slice.counts[0], &sf, err);
        if (st != RDB_OK)
            return st;
        /* the frames of this slice's file that hold [lo, hi) */
        const uint64_t end = lo + (slice.size - at < hi - lo ? slice.size - at : hi - lo);
        while (lo < end) {
            const uint32_t f = (uint32_t)(at / RDB_FRAME_ENTRIES);
            const uint64_t skip = at % RDB_FRAME_ENTRIES;
            size_t n;
            st = rdb_frame_reader_read(s->reader, sf, f, s->frame, &n, err);
            if (st != RDB_OK) {
                s->failed = slice;
                return st;
            }
            const uint64_t take = n - skip < end - lo ? n - skip : end - lo;
            memcpy(to, s->frame + skip, take);
            to += take;
            lo += take;
            at += take;
        }
    }
    return RDB_OK;
}

rdb_status rdb_sparse_levels_open(const rdb_db *db, uint64_t budget, rdb_sparse_levels **out,
                                  rdb_error *err)
{
    rdb_sparse_levels *s = calloc(1, sizeof *s);
    if (!s)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the levels' cache");
    s->db = db;
    s->failed.level = -1;
    const int nlevels = db->lay.nbits + 1;
    uint64_t size[RDB_MAX_BITS + 1];
    s->reader = rdb_frame_reader_new();
    s->frame = malloc(RDB_FRAME_ENTRIES);
    int ok = s->reader && s->frame;
    for (int l = 0; ok && l < nlevels; l++) {
        size[l] = db->part_start[l][db->nparts[l]];
        ok = (s->file[l] = calloc((size_t)db->nparts[l] + 1, sizeof *s->file[l])) != NULL;
        for (int k = 0; ok && k < db->nparts[l]; k++)
            s->file[l][k].fd = -1;
    }
    rdb_status st = ok ? rdb_chunk_cache_new(budget, nlevels, size, load_chunk, s, &s->cache, err)
                       : rdb_fail(err, RDB_E_NOMEM, "out of memory for the levels' cache");
    if (st != RDB_OK) {
        rdb_sparse_levels_close(s);
        return st;
    }
    *out = s;
    return RDB_OK;
}

static void close_files(rdb_sparse_levels *s, int level)
{
    for (int k = 0; s->file[level] && k < s->db->nparts[level]; k++)
        if (s->file[level][k].fd >= 0)
            rdb_slice_close(&s->file[level][k]);
}

void rdb_sparse_levels_close(rdb_sparse_levels *s)
{
    if (!s)
        return;
    rdb_chunk_cache_free(s->cache);
    for (int l = 0; l <= RDB_MAX_BITS; l++) {
        close_files(s, l);
        free(s->file[l]);
    }
    free(s->frame);
    rdb_frame_reader_free(s->reader);
    free(s);
}

rdb_chunk_cache *rdb_sparse_levels_cache(rdb_sparse_levels *s)
{
    return s->cache;
}

void rdb_sparse_levels_failed(const rdb_sparse_levels *s, rdb_slice *slice)
{
    *slice = s->failed;
}

void rdb_sparse_levels_set_dropped(rdb_sparse_levels *s, uint64_t dropped)
{
    for (int level = 0; level < 64; level++)
        if ((dropped & ~s->dropped) >> level & 1)
            rdb_sparse_levels_forget(s, level);
    s->dropped = dropped;
}

void rdb_sparse_levels_forget(rdb_sparse_levels *s, int level)
{
    rdb_chunk_cache_drop_level(s->cache, level);
    close_files(s, level);
}
