/*
 * quiet_part_bench.c — times the quiet build on a part of a level of a
 * real database: the positions of a finished slice computed again from
 * the levels above, read from the database's own files, and checked
 * against the values the slice holds.
 *
 * A sample of the build (`build --plan`) reads zeros for the levels
 * above and takes small frame states; on a big board the build's frame
 * states are a million positions and its lookups spread over gigabytes
 * of chunks, so a change that helps one need not help the other. This
 * times what the build itself does. scripts/bench_quiet_part.sh runs it
 * with two commits' libraries in turn, or as two one-thread runs at once
 * against one two-thread run.
 *
 * usage: quiet_part_bench DIR LEVEL SLICE SKIP COUNT [RUNS [CACHE-MB]]
 *   the frame states of level LEVEL from SKIP positions into the level's
 *   slice number SLICE on (from its middle when it is smaller), about
 *   COUNT positions (whole frame states), with OpenMP's threads
 *   (OMP_NUM_THREADS); RUNS (default 0) times: 0, one run from a cold
 *   cache; N, one untimed run that brings the chunks it reads into the
 *   cache (of CACHE-MB, default 2048, besides the index), then N timed
 *   runs, the fastest reported (on a noisy machine the least disturbed).
 * prints: "<positions> <seconds> <ns a position> <fnv-1a of the values>"
 * exit status: 0 when every value agrees with the stored one, 1 when one
 * differs or a file cannot be read, 2 on a wrong command line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/db.h"
#include "engine/sparse_levels.h"
#include "game.h"
#include "store/manifest.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int fail(const rdb_error *err)
{
    fprintf(stderr, "quiet_part_bench: %s\n", err->msg);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 6 || argc > 8)
        return fprintf(stderr,
                       "usage: quiet_part_bench DIR LEVEL SLICE SKIP COUNT [RUNS [CACHE-MB]]\n"),
               2;
    const char *dir = argv[1];
    const int level = atoi(argv[2]), slice = atoi(argv[3]);
    const uint64_t skip = strtoull(argv[4], NULL, 10), count = strtoull(argv[5], NULL, 10);
    const int runs = argc >= 7 ? atoi(argv[6]) : 0;
    const uint64_t cache_bytes = (argc == 8 ? strtoull(argv[7], NULL, 10) : 2048) << 20;
    rdb_error err;
    rdb_db db;
    if (rdb_db_open(&db, dir, &err) != RDB_OK)
        return fail(&err);
    if (!db.sparse || !db.game->sparse_level)
        return fprintf(stderr, "quiet_part_bench: %s is not a quiet database\n", dir), 2;
    rdb_manifest man;
    rdb_sparse_levels *levels = NULL;
    if (db.game->sparse_prepare(db.sparse, 0, &err) != RDB_OK ||
        rdb_manifest_load(&man, dir, db.lay.ngroups, db.lay.nbits, &err) != RDB_OK ||
        rdb_sparse_levels_open(&db, cache_bytes, &levels, &err) != RDB_OK)
        return fail(&err);
    rdb_sparse_levels_set_dropped(levels, man.dropped);
    rdb_slice *slices = NULL;
    const int nslices =
        level < 0 || level > db.lay.nbits ? 0 : rdb_db_level_slices(&db, level, &slices);
    if (slice < 0 || slice >= nslices)
        return fprintf(stderr, "quiet_part_bench: level %d has no slice %d\n", level, slice), 2;
    if (!rdb_manifest_find(&man, &slices[slice]) ||
        rdb_db_slice_dropped(&db, man.dropped, &slices[slice]))
        return fprintf(stderr, "quiet_part_bench: level %d's slice %d is not finished and kept\n",
                       level, slice), 2;
    /* whole frame states (the build's parts), within the slice */
    const uint64_t first = rdb_db_slice_first(&db, &slices[slice]);
    const uint64_t end = first + slices[slice].size;
    const uint64_t into = skip < slices[slice].size ? skip : slices[slice].size / 2;
    const uint64_t from = db.game->sparse_part_end(db.sparse, level, first, into);
    uint64_t to = db.game->sparse_part_end(db.sparse, level, from, count);
    to = to < end ? to : end;
    if (from >= to)
        return fprintf(stderr, "quiet_part_bench: no positions there\n"), 2;
    int8_t *values = malloc(to - from);
    if (!values)
        return fprintf(stderr, "quiet_part_bench: out of memory\n"), 1;
    rdb_chunk_cache *cache = rdb_sparse_levels_cache(levels);
    if (runs > 0 && db.game->sparse_level(db.state, db.sparse, level, from, to, cache, man.dropped,
                                          values, &err) != RDB_OK)
        return fail(&err);
    double seconds = 0;
    for (int run = 0; run < (runs > 0 ? runs : 1); run++) {
        const double t0 = now();
        if (db.game->sparse_level(db.state, db.sparse, level, from, to, cache, man.dropped, values,
                                  &err) != RDB_OK)
            return fail(&err);
        const double t = now() - t0;
        seconds = run == 0 || t < seconds ? t : seconds;
    }
    /* the slice's own values, read through the same cache */
    rdb_chunk_view view;
    rdb_chunk_view_init(&view, cache);
    uint64_t hash = 14695981039346656037ULL, differ = 0;
    for (uint64_t i = from; i < to; i++) {
        const int8_t v = values[i - from];
        hash = (hash ^ (uint8_t)v) * 1099511628211ULL;
        differ += rdb_chunk_value(&view, level, i) != v;
    }
    const int failed = view.failed;
    rdb_chunk_view_release(&view);
    if (failed)
        return fprintf(stderr, "quiet_part_bench: level %d cannot be read\n", level), 1;
    printf("%" PRIu64 " %.3f %.1f %016" PRIx64 "\n", to - from, seconds,
           seconds * 1e9 / (double)(to - from), hash);
    if (differ)
        fprintf(stderr, "quiet_part_bench: %" PRIu64 " values differ from the stored ones\n",
                differ);
    free(values);
    free(slices);
    rdb_sparse_levels_close(levels);
    rdb_manifest_free(&man);
    rdb_db_free(&db);
    return differ ? 1 : 0;
}
