/*
 * verify.c — see verify.h. Reads every finished slice once (twice with
 * --full: once stored, once recomputed through the build kernel, which
 * reads the neighbours itself).
 */
#include "engine/verify.h"
#include "engine/progress.h"

#include <stdlib.h>
#include <string.h>

#include "engine/db.h"
#include "engine/kernel.h"
#include "engine/sparse_levels.h"
#include "store/damage.h"
#include "store/manifest.h"

#define MAX_REPORTED 5

/* The cache through which `verify --full` reads a sparse database's
 * levels above the one it recomputes: lookups cluster, so a fixed size
 * serves every board. */
#define VERIFY_CACHE_BYTES (1ULL << 30)

/* Check one recorded slice's file; loads its values into vals. Returns 0
 * when the file is good. */
static int check_file(const rdb_db *db, const rdb_slice *s, const rdb_manifest_entry *e,
                      int8_t *vals, FILE *out)
{
    rdb_slice_file sf;
    rdb_error why;
    rdb_status st = rdb_slice_open_in(db, s, &sf, &why);
    if (st == RDB_OK) {
        st = rdb_slice_read_all(&sf, vals, &why);
        if (st == RDB_OK && sf.values_checksum != e->checksum)
            st = rdb_fail(&why, RDB_E_CORRUPT, "'%s' holds other values than the manifest records",
                          sf.path);
        rdb_slice_close(&sf);
    }
    if (st != RDB_OK) {
        fprintf(out, "bad: %s\n", why.msg);
        return 1;
    }
    return 0;
}

/* Record a bad slice for the next build to redo (store/damage.h), and
 * the lowest level of such slices computed from a deleted level in *lowest. */
static void record_damage(const rdb_db *db, const rdb_manifest *man, const rdb_slice *s,
                          FILE *out, rdb_verify_report *rep, int *lowest)
{
    rdb_error why;
    if (rdb_damage_note(db->dir, s, db->lay.ngroups, &why) != RDB_OK) {
        rep->unrecorded++;
        fprintf(out, "cannot record it for the next build to redo: %s\n", why.msg);
    }
    if (rdb_level_deleted(man->deleted, s->level + db->game->move_bits) &&
        (*lowest < 0 || s->level < *lowest))
        *lowest = s->level;
}

/* What the next build computes again to redo a slice of level `lowest`:
 * every deleted level above it, from the top down. */
static void rebuild_range(const rdb_db *db, const rdb_manifest *man, int lowest,
                          rdb_verify_report *rep)
{
    for (int l = lowest + 1; lowest >= 0 && l <= db->lay.nbits; l++) {
        if (!rdb_level_deleted(man->deleted, l))
            continue;
        if (!rep->rebuild_lo)
            rep->rebuild_lo = l;
        rep->rebuild_hi = l;
        rdb_slice *slices;
        int ns = rdb_db_level_slices(db, l, &slices);
        for (int i = 0; i < ns; i++)
            rep->rebuild_positions += slices[i].size;
        free(slices);
    }
}

rdb_status rdb_verify(const char *dir, int full, FILE *out, int progress, rdb_verify_report *rep,
                      rdb_error *err)
{
    memset(rep, 0, sizeof *rep);
    rdb_db db;
    rdb_status st = rdb_db_open(&db, dir, err);
    if (st != RDB_OK)
        return st;
    if (db.sparse && full && (st = db.game->sparse_prepare(db.sparse, 0, err)) != RDB_OK) {
        rdb_db_free(&db);
        return st;
    }
    rdb_manifest man;
    rdb_kernel kern;
    memset(&kern, 0, sizeof kern);
    int8_t *stored = NULL, *fresh = NULL;
    rdb_neighbour nb;
    memset(&nb, 0, sizeof nb);
    rdb_slice *slices = NULL;
    st = rdb_manifest_load(&man, dir, db.lay.ngroups, db.lay.nbits, err);
    if (st != RDB_OK) {
        rdb_db_free(&db);
        return st;
    }
    uint64_t maxslice = rdb_db_max_slice(&db);
    /* a sparse database's level is recomputed from all of those above
     * it, read through a cache, once each is checked good */
    rdb_sparse_levels *levels = NULL;
    int lowest_damaged = -1; /* of the bad slices computed from a deleted level */
    char good[RDB_MAX_BITS + 1];
    memset(good, 0, sizeof good);
    stored = malloc(maxslice);
    if (full) {
        fresh = malloc(maxslice);
        nb.buffer = db.sparse ? NULL : malloc(maxslice);
        st = db.sparse ? rdb_sparse_levels_open(&db, VERIFY_CACHE_BYTES, &levels, err)
                       : rdb_kernel_init(&kern, &db, err);
        if (st != RDB_OK)
            goto done;
        if (levels)
            rdb_sparse_levels_set_dropped(levels, man.dropped);
    }
    if (!stored || (full && (!fresh || (!nb.buffer && !db.sparse)))) {
        st = rdb_fail(err, RDB_E_NOMEM, "cannot allocate %llu bytes for slices",
                      (unsigned long long)(3 * maxslice));
        goto done;
    }
    uint64_t kept = 0; /* the positions of the levels kept, for the ETA */
    for (int level = db.lay.nbits; level >= 0; level--) {
        if (rdb_level_deleted(man.deleted, level))
            continue;
        int ns = rdb_db_level_slices(&db, level, &slices);
        for (int i = 0; i < ns; i++)
            kept += rdb_db_slice_dropped(&db, man.dropped, &slices[i]) ? 0 : slices[i].size;
        free(slices);
        slices = NULL;
    }
    rdb_progress prog;
    rdb_progress_start(&prog, !progress, kept);
    for (int level = db.lay.nbits; level >= 0; level--) {
        if (rdb_level_deleted(man.deleted, level))
            continue;
        int ns = rdb_db_level_slices(&db, level, &slices);
        good[level] = 1; /* until a slice of it is not */
        for (int i = 0; i < ns; i++) {
            const rdb_slice *s = &slices[i];
            if (rdb_db_slice_dropped(&db, man.dropped, s))
                continue; /* gone on purpose: valued from the kept part */
            rdb_progress_add(&prog, s->size, 1);
            const rdb_manifest_entry *e = rdb_manifest_find(&man, s);
            if (!e) {
                rep->unfinished++;
                good[level] = 0;
                continue;
            }
            rep->files++;
            if (check_file(&db, s, e, stored, out)) {
                rep->bad_files++;
                good[level] = 0;
                record_damage(&db, &man, s, out, rep, &lowest_damaged);
                continue;
            }
            const int from = level + db.game->move_bits;
            if (!full || rdb_level_deleted(man.deleted, from))
                continue;
            rdb_error why;
            rdb_status cst;
            if (db.sparse) {
                int missing = -1;
                for (int l = level + 1; l <= db.lay.nbits && missing < 0; l++) {
                    rdb_slice up = {.level = l};
                    rdb_db_slice_size(&db, &up);
                    if (up.size && !good[l])
                        missing = l;
                }
                if (missing >= 0) {
                    fprintf(out, "cannot recompute level %d: level %d is not readable\n", level,
                            missing);
                    continue;
                }
                const uint64_t from = rdb_db_slice_first(&db, s);
                cst = db.game->sparse_level(db.state, db.sparse, level, from, from + s->size,
                                            rdb_sparse_levels_cache(levels), man.dropped, fresh,
                                            &why);
            } else {
                cst = rdb_compute_slice(&kern, s, fresh, &nb, &why);
            }
            if (cst != RDB_OK) {
                fprintf(out, "cannot recompute level %d: %s\n", level, why.msg);
                rep->bad_files++;
                continue;
            }
            rep->recomputed += s->size;
            const uint64_t disagreed = rep->disagreements;
            for (uint64_t j = 0; j < s->size; j++) {
                if (stored[j] == fresh[j])
                    continue;
                if (rep->disagreements++ < MAX_REPORTED) {
                    fprintf(out, "disagree: level %d, stored %d, recomputed %d, position:\n", level,
                            stored[j], fresh[j]);
                    if (!db.sparse) /* the game numbers a sparse database's positions */
                        db.game->print(db.state, out, rdb_layout_position(&db.lay, s, j));
                }
            }
            if (rep->disagreements > disagreed)
                record_damage(&db, &man, s, out, rep, &lowest_damaged);
        }
        free(slices);
        slices = NULL;
    }
    rdb_progress_clear(&prog);
    rebuild_range(&db, &man, lowest_damaged, rep);
done:
    rdb_sparse_levels_close(levels);
    free(slices);
    free(stored);
    free(fresh);
    free(nb.buffer);
    rdb_kernel_free(&kern);
    rdb_manifest_free(&man);
    rdb_db_free(&db);
    return st;
}
