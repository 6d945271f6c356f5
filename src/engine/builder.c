/*
 * builder.c — the level loop; see builder.h.
 *
 * For every level, from the full position down to the start, each slice
 * not yet recorded in the manifest is computed (kernel.c and the game's
 * slice kernel), written durably (store/slicefile.c) and only then
 * recorded. A stop request is honoured between slices, which is the safe
 * point: nothing half-done is ever recorded. Nothing here knows the game:
 * a level is computed from the level game->move_bits above it.
 */
#define _GNU_SOURCE
#include "engine/builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "store/fsutil.h"
#include "engine/kernel.h"
#include "engine/plan.h"
#include "store/lock.h"
#include "store/manifest.h"
#include "engine/progress.h"
#include "engine/sweep.h"
#include "store/writer.h"

/* ---- the level loop ---- */

/* Check or write PARAMS so that a build only ever continues its own work.
 * An existing PARAMS is read the way every reader reads it (rdb_db_open),
 * so a build never resumes a database that queries would refuse. */
static rdb_status pin_params(const rdb_build_options *opt, rdb_params *p, uint64_t max_slice,
                             rdb_db *db, rdb_error *err)
{
    rdb_status st = rdb_db_open(db, opt->dir, err);
    if (st == RDB_OK) {
        char why[256];
        if (rdb_params_diff(&db->params, p, why, sizeof why)) {
            rdb_db_free(db);
            return rdb_fail(err, RDB_E_INPUT,
                            "'%s' holds a build with other parameters (%s); use another --dir",
                            opt->dir, why);
        }
        *p = db->params;
        return RDB_OK;
    }
    if (st != RDB_E_MISSING)
        return st;
    st = rdb_db_setup(db, opt->dir, p, max_slice, err);
    if (st != RDB_OK)
        return st;
    return rdb_params_write(opt->dir, &db->params, err);
}

/* A slice counts as done only if its file is still there, complete, and is
 * the file that was recorded (same values checksum and size). Slices that
 * fail are forgotten, so this build redoes them; values are checked in full
 * whenever a file is read as a neighbour. */
static rdb_status check_finished_slices(const rdb_db *db, rdb_manifest *man, int quiet,
                                        rdb_error *err)
{
    for (size_t i = man->n; i-- > 0;) {
        const rdb_manifest_entry *e = &man->e[i];
        if (rdb_level_deleted(man->deleted, e->level))
            continue;
        rdb_slice s;
        memset(&s, 0, sizeof s);
        for (int g = 0; g < db->lay.ngroups; g++)
            s.counts[g] = e->counts[g];
        rdb_slice_set_size(&db->lay, &s);
        if (s.level != e->level || s.size != e->entries)
            return rdb_fail(err, RDB_E_CORRUPT, "'%s/MANIFEST' records a slice this layout does not have",
                            db->dir);
        rdb_slice_file sf;
        rdb_error why;
        rdb_status st = rdb_slice_open_in(db, &s, &sf, &why);
        if (st == RDB_OK) {
            int same = sf.values_checksum == e->checksum && sf.file_bytes == e->bytes;
            rdb_slice_close(&sf);
            if (same)
                continue;
            rdb_fail(&why, RDB_E_CORRUPT, "'%s' is not the file recorded in the manifest", sf.path);
        } else if (st != RDB_E_CORRUPT && st != RDB_E_MISSING) {
            return rdb_fail(err, st, "%s", why.msg);
        }
        if (!quiet)
            fprintf(stderr, "redoing a damaged slice: %s\n", why.msg);
        rdb_manifest_forget(man, &s);
    }
    return RDB_OK;
}

/* Damaged slices found while reading that a build redoes before it gives
 * up: a disk that damages every file it writes must not loop for ever. */
#define MAX_REDONE 64

/* Everything a running build holds. */
typedef struct {
    const rdb_build_options *opt;
    rdb_db db;
    rdb_manifest man;
    rdb_kernel kern;
    rdb_writer *writer;
    rdb_neighbour nb;
    rdb_level_cache cache;   /* the level just built, for the next one */
    int8_t *best;
    int keep_level;          /* levels above this are deleted; nbits = keep all */
    rdb_progress prog;
} build_state;

/* Record that a level is no longer kept, then remove its files (in that
 * order: a crash in between leaves files that are merely unused). */
static rdb_status delete_level(build_state *b, int level, rdb_error *err)
{
    if (!rdb_level_deleted(b->man.deleted, level)) {
        rdb_status st = rdb_manifest_append_deleted(&b->man, b->opt->dir, level, err);
        if (st != RDB_OK)
            return st;
    }
    return rdb_sweep_level(&b->db, level, err);
}

static rdb_status build_level(build_state *b, int level, rdb_error *err)
{
    const rdb_db *db = &b->db;
    rdb_slice *slices;
    int ns = rdb_level_slices(&db->lay, level, &slices);
    if (ns < 0)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory listing slices");
    /* The writer is idle here, so the manifest can be read. */
    char *done = calloc((size_t)ns + 1, 1);
    if (!done) {
        free(slices);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory listing slices");
    }
    for (int i = 0; i < ns; i++)
        done[i] = rdb_manifest_find(&b->man, &slices[i]) != NULL;

    double t0 = rdb_now(), write = 0, read0 = b->nb.read_seconds;
    uint64_t positions = 0, computed = 0;
    rdb_status st = RDB_OK;
    for (int i = 0; i < ns && st == RDB_OK; i++) {
        const rdb_slice *s = &slices[i];
        positions += s->size;
        if (done[i]) {
            rdb_progress_add(&b->prog, s->size, 0);
            continue;
        }
        if (rdb_stop_requested) {
            st = rdb_fail(err, RDB_E_STOPPED,
                          "stopped; finished slices are kept, run the same command to resume");
            break;
        }
        const int from = level + db->game->move_bits;
        if (rdb_level_deleted(b->man.deleted, from)) {
            st = rdb_fail(err, RDB_E_CORRUPT,
                          "a slice of level %d is missing or damaged, and level %d it is computed from was deleted (--keep-lines); rebuild in a new directory",
                          level, from);
            break;
        }
        double c0 = rdb_now();
        st = rdb_compute_slice(&b->kern, s, b->best, &b->nb, err);
        if (st != RDB_OK)
            break;
        char path[RDB_PATH_MAX];
        st = rdb_slice_path(db, s, path, sizeof path, err);
        if (st != RDB_OK)
            break;
        rdb_slice_id id;
        rdb_slice_identity(db, s, &id);
        rdb_level_cache_put(&b->cache, s, b->best);
        double w0 = rdb_now();
        rdb_encoded_slice enc;
        st = rdb_slice_encode(path, &id, b->best, db->params.zstd_level, &enc, err);
        if (st == RDB_OK)
            st = rdb_writer_submit(b->writer, &enc, s, rdb_now() - c0, err);
        write += rdb_now() - w0;
        computed += s->size;
        rdb_progress_add(&b->prog, s->size, 1);
    }
    /* Level n-1 reads these files: they must be durable first. */
    double w0 = rdb_now();
    rdb_status dst = rdb_writer_drain(b->writer, st == RDB_OK ? err : NULL);
    write += rdb_now() - w0;
    if (st == RDB_OK)
        st = dst;
    /* level n+step is needed no more (level n-1 reads level n-1+step) */
    rdb_level_cache_drop_above(&b->cache, level + db->game->move_bits - 1);
    b->nb.valid = 0;
    if (st == RDB_OK)
        rdb_progress_level(&b->prog, level, ns, positions, computed, rdb_now() - t0,
                           b->nb.read_seconds - read0, write);
    free(done);
    free(slices);
    return st;
}

static rdb_status build(const rdb_build_options *opt, rdb_error *err)
{
#ifdef _OPENMP
    if (opt->threads > 0)
        omp_set_num_threads(opt->threads);
#endif
    rdb_status st = rdb_check_dir_name(opt->dir, err);
    if (st != RDB_OK)
        return st;
    /* Every refusal the budgets and the folder's PARAMS call for comes
     * before anything is created, so a refused build leaves the folder as
     * it found it. The PARAMS and memory checks are made again below with
     * the lock held, for a folder that changed in between. */
    rdb_build_plan plan;
    st = rdb_build_plan_make(opt, &plan, err);
    if (st != RDB_OK)
        return st;
    st = rdb_mkdirs(opt->dir, err);
    if (st != RDB_OK)
        return st;
    int lock = -1;
    st = rdb_lock_acquire(opt->dir, &lock, err);
    if (st != RDB_OK)
        return st;

    build_state b;
    memset(&b, 0, sizeof b);
    b.opt = opt;
    b.man.fd = -1;
    rdb_params p = opt->params;
    uint64_t budget = (uint64_t)opt->memory_mb << 20;
    const rdb_game *game = rdb_game_with_id(p.game);
    const uint64_t bytes_per_position = rdb_build_bytes_per_position(game);
    st = pin_params(opt, &p, budget / bytes_per_position, &b.db, err);
    if (st == RDB_E_NOMEM && b.db.least_slice)
        st = rdb_build_memory_refusal(opt, game, b.db.least_slice, err);
    if (st != RDB_OK)
        goto done;
    /* only now, with the lock held and PARAMS ours: a killed build's
     * temporary files, by their exact names */
    st = rdb_sweep_temp_files(&b.db, err);
    if (st != RDB_OK)
        goto done;
    const rdb_layout *lay = &b.db.lay;
    b.keep_level = rdb_build_keep_level(opt, &b.db);
    st = rdb_manifest_load(&b.man, opt->dir, lay->ngroups, lay->nbits, err);
    if (st != RDB_OK)
        goto done;
    st = check_finished_slices(&b.db, &b.man, opt->quiet, err);
    if (st != RDB_OK)
        goto done;

    uint64_t maxslice = rdb_layout_max_slice(lay);
    if (bytes_per_position * maxslice > budget) {
        st = rdb_build_memory_refusal(opt, game, maxslice, err);
        goto done;
    }
    st = rdb_kernel_init(&b.kern, &b.db, err);
    if (st != RDB_OK)
        goto done;
    b.best = malloc(maxslice);
    b.nb.buffer = malloc(maxslice);
    /* what the budget leaves after the working buffers holds the last
     * level's slices in memory */
    rdb_level_cache_init(&b.cache, lay->ngroups, budget - bytes_per_position * maxslice);
    b.nb.cache = &b.cache;
    if (!b.best || !b.nb.buffer) {
        st = rdb_fail(err, RDB_E_NOMEM, "cannot allocate %llu bytes for slices",
                      (unsigned long long)(2 * maxslice));
        goto done;
    }
    st = rdb_writer_start(&b.writer, &b.man, opt->dir, err);
    if (st != RDB_OK)
        goto done;
    rdb_progress_start(&b.prog, opt->quiet, rdb_layout_total_positions(lay));
    int redone = 0;
    for (int level = lay->nbits; level >= 0 && st == RDB_OK; level--) {
        st = build_level(&b, level, err);
        if (b.nb.damaged && b.nb.slice.level > level && redone < MAX_REDONE &&
            (st == RDB_E_CORRUPT || st == RDB_E_MISSING)) {
            /* A finished slice failed its checksums when read (damage
             * inside a frame, which the check at start does not decode):
             * forget it and go back up to redo it, then carry on here. */
            if (!opt->quiet)
                fprintf(stderr, "redoing a damaged slice: %s\n", err->msg);
            rdb_manifest_forget(&b.man, &b.nb.slice);
            b.nb.damaged = 0;
            level = b.nb.slice.level + 1;
            redone++;
            st = RDB_OK;
            continue;
        }
        /* level+step is needed by nothing now (finished levels never need
         * redoing from it unless damaged, which then asks for a rebuild) */
        const int done_with = level + b.db.game->move_bits;
        if (st == RDB_OK && done_with <= lay->nbits && done_with > b.keep_level)
            st = delete_level(&b, done_with, err);
    }
    if (st == RDB_OK)
        rdb_progress_finish(&b.prog);
done:;
    rdb_error werr;
    rdb_status wst = rdb_writer_stop(b.writer, &werr);
    if (st == RDB_OK && wst != RDB_OK) {
        st = wst;
        *err = werr;
    }
    free(b.best);
    free(b.nb.buffer);
    rdb_level_cache_free(&b.cache);
    rdb_manifest_free(&b.man);
    rdb_kernel_free(&b.kern);
    rdb_db_free(&b.db);
    rdb_lock_release(lock);
    return st;
}

rdb_status rdb_build(const rdb_build_options *opt, rdb_error *err)
{
    rdb_status st = build(opt, err);
    /* whichever step met it, the folder, the lock or a slice */
    if (st == RDB_E_NOSPACE) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n,
                 "; the disk is full: finished slices are kept, free some space and run the same command to resume");
    }
    return st;
}
