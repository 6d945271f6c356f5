/*
 * builder.c — the level loop and the slice kernel; see builder.h.
 *
 * For every level, from the full board down to the start, each slice not
 * yet recorded in the manifest is computed (kernel.c), written durably
 * (slicefile.c) and only then recorded. A stop request is honoured between
 * slices, which is the safe point: nothing half-done is ever recorded.
 */
#define _GNU_SOURCE
#include "builder.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "checksum.h"
#include "fsutil.h"
#include "kernel.h"
#include "lock.h"
#include "manifest.h"
#include "progress.h"

volatile sig_atomic_t rdb_stop_requested = 0;

/* ---- the level loop ---- */

static int remove_temp(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    size_t n = strlen(path);
    if (type == FTW_F && n > 4 && strcmp(path + n - 4, ".tmp") == 0)
        unlink(path);
    return 0;
}

/* Check or write PARAMS so that a build only ever continues its own work. */
static rdb_status pin_params(const rdb_build_options *opt, rdb_params *p, uint64_t max_slice,
                             rdb_db *db, rdb_error *err)
{
    rdb_params old;
    rdb_status st = rdb_params_read(opt->dir, &old, err);
    if (st == RDB_OK) {
        char why[256];
        if (rdb_params_diff(&old, p, why, sizeof why))
            return rdb_fail(err, RDB_E_INPUT,
                            "'%s' holds a build with other parameters (%s); use another --dir",
                            opt->dir, why);
        p->ngroups = old.ngroups;
        return rdb_db_setup(db, opt->dir, p, max_slice, err);
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
        if (man->deleted >> e->level & 1)
            continue;
        rdb_slice s;
        memset(&s, 0, sizeof s);
        for (int g = 0; g < db->lay.ngroups; g++)
            s.counts[g] = e->counts[g];
        rdb_slice_set_size(&db->lay, &s);
        if (s.level != e->level || s.size != e->entries)
            return rdb_fail(err, RDB_E_CORRUPT, "'%s/MANIFEST' records a slice this layout does not have",
                            db->dir);
        char path[4096];
        rdb_slice_path(db, &s, path, sizeof path);
        rdb_slice_id id;
        rdb_slice_identity(db, &s, &id);
        rdb_slice_file sf;
        rdb_error why;
        rdb_status st = rdb_slice_open(path, &id, &sf, &why);
        if (st == RDB_OK) {
            int same = sf.values_checksum == e->checksum && sf.file_bytes == e->bytes;
            rdb_slice_close(&sf);
            if (same)
                continue;
            rdb_fail(&why, RDB_E_CORRUPT, "'%s' is not the file recorded in the manifest", path);
        } else if (st != RDB_E_CORRUPT && st != RDB_E_MISSING) {
            return rdb_fail(err, st, "%s", why.msg);
        }
        if (!quiet)
            fprintf(stderr, "redoing a damaged slice: %s\n", why.msg);
        rdb_manifest_forget(man, &s);
    }
    return RDB_OK;
}

rdb_status rdb_build(const rdb_build_options *opt, rdb_error *err)
{
#ifdef _OPENMP
    if (opt->threads > 0)
        omp_set_num_threads(opt->threads);
#endif
    rdb_status st = rdb_mkdirs(opt->dir, err);
    if (st != RDB_OK)
        return st;
    int lock = -1;
    st = rdb_lock_acquire(opt->dir, &lock, err);
    if (st != RDB_OK)
        return st;
    nftw(opt->dir, remove_temp, 16, FTW_PHYS);

    rdb_params p = opt->params;
    uint64_t budget = (uint64_t)opt->memory_mb << 20;
    rdb_db db;
    memset(&db, 0, sizeof db);
    int8_t *best = NULL, *nbuf = NULL;
    rdb_slice *slices = NULL;
    rdb_manifest man;
    memset(&man, 0, sizeof man);
    man.fd = -1;
    rdb_kernel kern;
    memset(&kern, 0, sizeof kern);
    st = pin_params(opt, &p, budget / 2, &db, err);
    if (st != RDB_OK)
        goto done;
    st = rdb_manifest_load(&man, opt->dir, db.lay.ngroups, err);
    if (st != RDB_OK)
        goto done;

    st = check_finished_slices(&db, &man, opt->quiet, err);
    if (st != RDB_OK)
        goto done;

    const rdb_layout *lay = &db.lay;
    uint64_t maxslice = rdb_layout_max_slice(lay);
    if (2 * maxslice > budget) {
        st = rdb_fail(err, RDB_E_NOMEM,
                      "the largest slice needs %llu MB with its neighbour; --memory is %ld MB",
                      (unsigned long long)((2 * maxslice) >> 20) + 1, opt->memory_mb);
        goto done;
    }
    st = rdb_kernel_init(&kern, &db, err);
    if (st != RDB_OK)
        goto done;
    best = malloc(maxslice);
    nbuf = malloc(maxslice);
    rdb_neighbour nb = {nbuf, {0}, 0, 0.0};
    if (!best || !nbuf) {
        st = rdb_fail(err, RDB_E_NOMEM, "cannot allocate %llu bytes for slices",
                      (unsigned long long)(2 * maxslice));
        goto done;
    }
    rdb_progress prog;
    rdb_progress_start(&prog, opt->quiet, rdb_layout_total_positions(lay));
    for (int level = lay->nbits; level >= 0; level--) {
        int ns = rdb_level_slices(lay, level, &slices);
        if (ns < 0) {
            st = rdb_fail(err, RDB_E_NOMEM, "out of memory listing slices");
            goto done;
        }
        double t0 = rdb_now(), write = 0, read0 = nb.read_seconds;
        uint64_t positions = 0, computed = 0;
        for (int i = 0; i < ns; i++) {
            const rdb_slice *s = &slices[i];
            positions += s->size;
            if (rdb_manifest_find(&man, s)) {
                rdb_progress_add(&prog, s->size, 0);
                continue;
            }
            if (rdb_stop_requested) {
                st = rdb_fail(err, RDB_E_STOPPED, "stopped; finished slices are kept, run the same command to resume");
                goto done;
            }
            double t_slice = rdb_now();
            st = rdb_compute_slice(&kern, s, best, &nb, err);
            if (st != RDB_OK)
                goto done;
            char path[4096];
            rdb_slice_path(&db, s, path, sizeof path);
            char *slash = strrchr(path, '/');
            *slash = '\0';
            st = rdb_mkdirs(path, err);
            *slash = '/';
            if (st != RDB_OK)
                goto done;
            rdb_slice_id id;
            rdb_slice_identity(&db, s, &id);
            uint64_t sum, bytes;
            double w0 = rdb_now(), c0 = t_slice;
            st = rdb_slice_write(path, &id, best, db.params.zstd_level, &sum, &bytes, err);
            write += rdb_now() - w0;
            if (st != RDB_OK)
                goto done;
            st = rdb_manifest_append(&man, opt->dir, s, sum, bytes, rdb_now() - c0, err);
            if (st != RDB_OK)
                goto done;
            computed += s->size;
            rdb_progress_add(&prog, s->size, 1);
        }
        free(slices);
        slices = NULL;
        rdb_progress_level(&prog, level, ns, positions, computed, rdb_now() - t0,
                           nb.read_seconds - read0, write);
    }
    rdb_progress_finish(&prog);
done:
    free(slices);
    free(best);
    free(nbuf);
    rdb_manifest_free(&man);
    rdb_kernel_free(&kern);
    rdb_db_free(&db);
    rdb_lock_release(lock);
    return st;
}
