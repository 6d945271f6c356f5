/*
 * plan.c — the plan of a build before it starts; see plan.h.
 */
#include "engine/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "common/fsutil.h"

uint64_t rdb_build_bytes_per_position(const rdb_game *game)
{
    return 3 + (uint64_t)game->kernel_bytes;
}

/* The threads a build runs with. */
static int build_threads(const rdb_build_options *opt)
{
#ifdef _OPENMP
    return opt->threads > 0 ? opt->threads : omp_get_max_threads();
#else
    (void)opt;
    return 1;
#endif
}

uint64_t rdb_build_sparse_fixed_bytes(const rdb_db *db)
{
    const uint64_t level = rdb_db_max_slice(db);
    return db->game->sparse_bytes(db->sparse) + level + level / 2;
}

uint64_t rdb_build_sparse_cache_bytes(const rdb_build_options *opt, const rdb_db *db)
{
    const uint64_t budget = (uint64_t)opt->memory_mb << 20, fixed = rdb_build_sparse_fixed_bytes(db);
    const uint64_t least = rdb_chunk_cache_least_budget(build_threads(opt));
    return budget > fixed + least ? budget - fixed : least;
}

int rdb_build_keep_level(const rdb_build_options *opt, const rdb_db *db)
{
    int start_lines = __builtin_popcountll(db->params.start);
    int keep = opt->keep_lines < 0 ? db->lay.nbits : opt->keep_lines - start_lines;
    return keep < 0 ? 0 : keep; /* the start position itself is always kept */
}

rdb_status rdb_build_memory_refusal(const rdb_build_options *opt, const rdb_game *game,
                                    uint64_t positions, rdb_error *err)
{
    uint64_t mb = (rdb_build_bytes_per_position(game) * positions >> 20) + 1;
    return rdb_fail(err, RDB_E_INPUT,
                    "the largest slice (%llu positions) needs %llu MB with its neighbour and "
                    "compressed copies; --memory is %ld MB: raise --memory to %llu or more",
                    (unsigned long long)positions, (unsigned long long)mb, opt->memory_mb,
                    (unsigned long long)mb);
}

/* A half quiet database's values (quiet-half), both parts: bytes a
 * hundred positions. On 4x4 the quiet database's values take 291 MB
 * (0.356 bytes each); split by class, halved and compressed the same way,
 * 0.864 of that: 125.6 MB kept, about 126 MB dropped as the build goes. */
#define RDB_HALF_BYTES_PER_100 30

/* Compressed values take about a quarter byte each in the databases
 * measured so far, plus the file's header and seek table; a level's
 * bytes in its kept part and its dropped one (game.h's sparse_window). */
static void level_disk_bytes(const rdb_db *db, uint64_t *kept, uint64_t *dropped)
{
    for (int level = 0; level <= db->lay.nbits; level++) {
        rdb_slice *slices;
        int ns = rdb_db_level_slices(db, level, &slices);
        kept[level] = dropped[level] = 0;
        for (int i = 0; i < ns; i++) {
            /* a quiet database's values compress less: 0.35 bytes each
             * on 3x4; halved (quiet-half), RDB_HALF_BYTES_PER_100 */
            const uint64_t pos = slices[i].size;
            const uint64_t bytes = (db->params.store == RDB_STORE_QUIET_HALF ? pos * RDB_HALF_BYTES_PER_100 / 100
                                    : db->sparse                           ? pos * 35 / 100
                                                                           : pos / 4) +
                                   200;
            *(rdb_db_dropped_part(db, &slices[i]) ? &dropped[level] : &kept[level]) += bytes;
        }
        free(slices);
    }
}

/* While level n is built, the levels a move leads to from it are still
 * needed, and the kept parts stay. A dropped part goes once the window's
 * levels below it are built; with a disk budget (--disk), only when the
 * disk would exceed it, the farthest level's first, and never within the
 * window: the dropped parts of the levels above are what the positions
 * looked up most often lie in, and one gone is valued from its moves, a
 * lookup a move (the build's own rule: builder.c, keep_within_disk).
 * dropped_at[n]: the levels whose dropped part is gone while n is built;
 * returns the disk held at the peak. */
static uint64_t drop_schedule(const rdb_db *db, int keep_level, int window, double disk_gb,
                              uint64_t dropped_at[RDB_MAX_BITS + 1], uint64_t *final_bytes)
{
    uint64_t kept[RDB_MAX_BITS + 1], dropped[RDB_MAX_BITS + 1], peak = 0;
    const rdb_layout *lay = &db->lay;
    const uint64_t budget = disk_gb > 0 ? (uint64_t)(disk_gb * 1e9) : 0;
    level_disk_bytes(db, kept, dropped);
    uint64_t gone = 0; /* bit l: level l's dropped part is gone */
    for (int n = lay->nbits; n >= 0; n--) {
        uint64_t now = 0;
        for (int l = n; l <= lay->nbits; l++) {
            if (l <= n + db->game->move_bits || l <= keep_level)
                now += kept[l];
            if (window >= 0 && !budget && l > n + window && l < 64)
                gone |= 1ULL << l;
            if (!(l < 64 && gone >> l & 1))
                now += dropped[l];
        }
        for (int l = lay->nbits; window >= 0 && budget && now > budget && l > n + window; l--)
            if (l < 64 && !(gone >> l & 1)) {
                gone |= 1ULL << l;
                now -= dropped[l];
            }
        dropped_at[n] = gone;
        if (now > peak)
            peak = now;
    }
    *final_bytes = 0;
    for (int l = 0; l <= keep_level && l <= lay->nbits; l++)
        *final_bytes += kept[l] + (window < 0 ? dropped[l] : 0);
    return peak;
}

static void estimate_disk(const rdb_db *db, int keep_level, int window, double disk_gb,
                          rdb_build_plan *plan)
{
    uint64_t dropped_at[RDB_MAX_BITS + 1];
    plan->peak_disk_bytes =
        drop_schedule(db, keep_level, window, disk_gb, dropped_at, &plan->final_disk_bytes);
}

/* A new quiet build's slices: as large as half of what --memory leaves
 * beside the index and the least cache allows (a slice takes 1.5 bytes a
 * position, raw and compressed), at most RDB_SPARSE_SLICE_DEFAULT. The index's size is known
 * once it is set up, so the database is set up twice. */
static rdb_status choose_slice_positions(const rdb_build_options *opt, rdb_params *p,
                                         rdb_error *err)
{
    rdb_params whole = *p;
    whole.slice_positions = RDB_SPARSE_SLICE_MAX;
    rdb_db db;
    rdb_status st = rdb_db_setup(&db, opt->dir, &whole, UINT64_MAX, err);
    if (st != RDB_OK)
        return st;
    const uint64_t budget = (uint64_t)opt->memory_mb << 20;
    const uint64_t taken = db.game->sparse_bytes(db.sparse) +
                           rdb_chunk_cache_least_budget(build_threads(opt));
    rdb_db_free(&db);
    /* half of what is left for the slice, half for the cache: a small
     * cache is slow, a small slice only makes more files */
    const uint64_t most = budget > taken ? (budget - taken) / 3 : 0;
    /* too little memory for any slice: the plan's refusal says how much */
    p->slice_positions = most < 1                          ? 1
                         : most < RDB_SPARSE_SLICE_DEFAULT ? most
                                                           : RDB_SPARSE_SLICE_DEFAULT;
    return RDB_OK;
}

rdb_status rdb_build_plan_sample(const rdb_build_options *opt, double *ns_per_position,
                                 uint64_t *sampled, rdb_error *err)
{
    rdb_params p = opt->params;
    p.slice_positions = RDB_SPARSE_SLICE_MAX; /* the layout only counts here */
    rdb_db db;
    rdb_status st = rdb_db_setup(&db, opt->dir, &p, UINT64_MAX, err);
    if (st != RDB_OK)
        return st;
    if (!db.sparse || !db.game->sparse_sample)
        st = rdb_fail(err, RDB_E_INPUT, "only a quiet build is timed on a sample");
    else
        st = db.game->sparse_prepare(db.sparse, 0, err);
    /* about a second of CPU at the speeds seen (1 to 2 M a second a thread) */
    double seconds = 0;
    uint64_t dropped_at[RDB_MAX_BITS + 1], final_bytes;
    drop_schedule(&db, db.lay.nbits, rdb_db_sparse_window(&db, opt->window), opt->disk_gb,
                  dropped_at, &final_bytes);
    if (st == RDB_OK)
        st = db.game->sparse_sample(db.sparse, 1500000, dropped_at, build_threads(opt), sampled,
                                    &seconds, err);
    if (st == RDB_OK)
        *ns_per_position = *sampled ? seconds * 1e9 / (double)*sampled : 0;
    rdb_db_free(&db);
    return st;
}

static void disk_advice(const rdb_build_options *opt, char *buf, size_t size);

rdb_status rdb_build_plan_make(const rdb_build_options *opt, rdb_build_plan *plan,
                               rdb_error *err)
{
    memset(plan, 0, sizeof *plan);
    rdb_status st = rdb_check_dir_name(opt->dir, err);
    if (st != RDB_OK)
        return st;
    rdb_params p = opt->params;
    const rdb_game *game = rdb_game_with_id(p.game);
    if (!game)
        return rdb_fail(err, RDB_E_INPUT, "unknown game");
    const uint64_t bpp = rdb_build_bytes_per_position(game);
    const uint64_t budget = (uint64_t)opt->memory_mb << 20;

    /* a folder that holds this build keeps its layout, whatever --memory */
    rdb_params old;
    st = rdb_params_read(opt->dir, &old, err);
    if (st == RDB_OK) {
        char why[256];
        if (rdb_params_diff(&old, &p, why, sizeof why))
            return rdb_fail(err, RDB_E_INPUT,
                            "'%s' holds a build with other parameters (%s); use another --dir",
                            opt->dir, why);
        p = old;
        plan->resumes = 1;
    } else if (st != RDB_E_MISSING) {
        return st;
    }
    rdb_db db;
    /* (a quiet database built before its slices were cut says nothing of
     * them: it keeps its levels whole) */
    if (p.store && !p.slice_positions && !plan->resumes) {
        st = choose_slice_positions(opt, &p, err);
        if (st != RDB_OK)
            return st;
    }
    st = rdb_db_setup(&db, opt->dir, &p, plan->resumes ? UINT64_MAX : budget / bpp, err);
    if (st == RDB_E_NOMEM && db.least_slice)
        return rdb_build_memory_refusal(opt, game, db.least_slice, err);
    if (st != RDB_OK)
        return st;
    plan->ngroups = db.plan.ngroups;
    plan->nbits = db.lay.nbits;
    plan->positions = rdb_db_total_positions(&db);
    plan->max_slice = rdb_db_max_slice(&db);
    plan->memory_bytes = bpp * plan->max_slice;
    plan->keep_level = rdb_build_keep_level(opt, &db);
    if (db.sparse) {
        /* a level's value can come through a capture run from any level
         * above it: every one is kept, and they are read through a cache */
        plan->memory_bytes = rdb_build_sparse_fixed_bytes(&db) +
                             rdb_chunk_cache_least_budget(build_threads(opt));
        plan->cache_bytes = budget > rdb_build_sparse_fixed_bytes(&db)
                                ? budget - rdb_build_sparse_fixed_bytes(&db)
                                : 0;
        plan->keep_level = db.lay.nbits;
        plan->slice_positions = db.params.slice_positions ? db.params.slice_positions
                                                          : plan->max_slice;
    }
    plan->window = rdb_db_sparse_window(&db, opt->window);
    estimate_disk(&db, plan->keep_level, plan->window, opt->disk_gb, plan);
    const int sparse = db.sparse != NULL;
    rdb_db_free(&db);
    if (sparse && opt->keep_lines >= 0)
        return rdb_fail(err, RDB_E_INPUT, "--store quiet keeps every level: leave out --keep-lines");
    if (sparse && plan->memory_bytes > budget)
        return rdb_fail(err, RDB_E_INPUT,
                        "a quiet build holds its index, the slice it computes and a cache of the "
                        "levels above: %llu MB at least for %llu positions; --memory is %ld MB: "
                        "raise --memory to %llu or more",
                        (unsigned long long)(plan->memory_bytes >> 20),
                        (unsigned long long)plan->positions, opt->memory_mb,
                        (unsigned long long)((plan->memory_bytes >> 20) + 1));
    if (plan->memory_bytes > budget)
        return rdb_build_memory_refusal(opt, game, plan->max_slice, err);
    if (opt->disk_gb > 0 && (double)plan->peak_disk_bytes > opt->disk_gb * 1e9) {
        char advice[160];
        disk_advice(opt, advice, sizeof advice);
        return rdb_fail(err, RDB_E_INPUT,
                        "this build needs about %.1f GB of disk at its peak; --disk is %.1f GB%s",
                        (double)plan->peak_disk_bytes / 1e9, opt->disk_gb, advice);
    }
    return RDB_OK;
}

/* What would make a build that does not fit its disk fit: a quiet
 * database's half (its plan made here), else fewer levels kept or the
 * quiet positions alone. */
static void disk_advice(const rdb_build_options *opt, char *buf, size_t size)
{
    buf[0] = '\0';
    if (opt->params.store == RDB_STORE_QUIET) {
        rdb_build_options half = *opt;
        half.params.store = RDB_STORE_QUIET_HALF;
        half.disk_gb = 0;
        rdb_build_plan hp;
        rdb_error ignored;
        if (rdb_build_plan_make(&half, &hp, &ignored) == RDB_OK)
            snprintf(buf, size, " (--store quiet-half needs about %.1f GB at its peak)",
                     (double)hp.peak_disk_bytes / 1e9);
    } else if (opt->params.store == RDB_STORE_ALL && rdb_game_with_id(opt->params.game) &&
               rdb_game_with_id(opt->params.game)->sparse_open) {
        snprintf(buf, size, " (--keep-lines K keeps fewer levels; --store quiet the quiet positions alone)");
    } else if (opt->params.store == RDB_STORE_ALL) {
        snprintf(buf, size, " (--keep-lines K keeps fewer levels)");
    }
}

rdb_status rdb_build_disk_check(const rdb_build_options *opt, rdb_build_plan *plan, rdb_error *err)
{
    if (opt->disk_gb > 0)
        return RDB_OK; /* the disk given: rdb_build_plan_make held the build to it */
    /* a file system that cannot say its free space fails the build: the
     * check cannot be skipped silently */
    rdb_status st = rdb_disk_free_bytes(opt->dir, &plan->free_disk_bytes, err);
    if (st == RDB_OK)
        st = rdb_tree_bytes(opt->dir, &plan->held_disk_bytes, err);
    if (st != RDB_OK)
        return st;
    plan->disk_known = 1;
    /* what the folder holds now is part of the peak */
    const uint64_t room = plan->free_disk_bytes + plan->held_disk_bytes;
    if (room >= plan->peak_disk_bytes)
        return RDB_OK;
    char advice[160];
    disk_advice(opt, advice, sizeof advice);
    return rdb_fail(err, RDB_E_INPUT,
                    "this build needs about %.1f GB of disk at its peak and '%s' has room for %.1f GB "
                    "(%.1f GB short)%s; --disk GB starts it anyway, allowed that much",
                    (double)plan->peak_disk_bytes / 1e9, opt->dir, (double)room / 1e9,
                    (double)(plan->peak_disk_bytes - room) / 1e9, advice);
}

void rdb_build_plan_disk(const rdb_build_options *opt, rdb_build_plan *plan)
{
    rdb_error ignored;
    plan->disk_known =
        rdb_disk_free_bytes(opt->dir, &plan->free_disk_bytes, &ignored) == RDB_OK &&
        rdb_tree_bytes(opt->dir, &plan->held_disk_bytes, &ignored) == RDB_OK;
}

/* The rough guide: positions a second per thread, as measured on 3x5
 * Dots-and-Boxes and 4x6 Cram on one machine; analyses of loony moves and
 * chains do more per position. */
static double guide_rate(const rdb_params *p, int open)
{
    /* A quiet database looks each move up through its index and follows
     * every capture run: 1.5 M a second a thread with 31 open lines (3x4),
     * slower as positions get more moves and longer runs (1.2 M with 38 on
     * 3x5, 0.9-1.0 M with 40 on 4x4). */
    const double quiet = 1.6e6 * (31.0 / open) * (31.0 / open);
    return p->store ? quiet : p->game == RDB_GAME_CRAM ? 20e6 : (p->loony || p->chains) ? 15e6 : 40e6;
}

void rdb_build_plan_time(const rdb_build_options *opt, const rdb_build_plan *plan,
                         rdb_build_time *t)
{
    memset(t, 0, sizeof *t);
    t->threads = build_threads(opt);
    t->guide_rate = guide_rate(&opt->params, plan->nbits);
    t->seconds = (double)plan->positions / (t->guide_rate * t->threads);
    rdb_error ignored;
    if (opt->params.store &&
        rdb_build_plan_sample(opt, &t->sample_ns, &t->sampled, &ignored) == RDB_OK && t->sampled)
        t->seconds = (double)plan->positions * t->sample_ns * 1e-9 / t->threads;
    else
        t->sample_ns = 0, t->sampled = 0;
}
