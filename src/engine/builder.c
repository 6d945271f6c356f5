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

#include "store/damage.h"
#include "common/fsutil.h"
#include "engine/kernel.h"
#include "engine/plan.h"
#include "store/lock.h"
#include "store/manifest.h"
#include "engine/progress.h"
#include "engine/sparse_levels.h"
#include "common/human.h"
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
 * fail are forgotten, so this build redoes them. Frames are not decoded
 * here: every frame read later is checked against its own checksum, and a
 * damaged one that a slice of this build reads has that slice redone
 * (run_level), so damage never reaches a level computed from it; and
 * `verify` or a lookup that finds damage records it for the next build
 * (redo_recorded_damage). Decoding every file at each resume would cost
 * minutes on a big database (4x5's quiet one: about four at 35 GB). */
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
        s.level = e->level; /* a sparse slice's level; a layout's comes from its counts */
        rdb_db_slice_size(db, &s);
        if (s.level != e->level || s.size != e->entries)
            return rdb_fail(err, RDB_E_CORRUPT, "'%s/MANIFEST' records a slice this layout does not have",
                            db->dir);
        if (rdb_db_slice_dropped(db, man->dropped, &s))
            continue; /* its file is gone on purpose */
        rdb_slice_file sf;
        rdb_error why;
        rdb_status st = rdb_slice_open_in(db, &s, &sf, &why);
        if (st == RDB_OK) {
            const int same = sf.values_checksum == e->checksum && sf.file_bytes == e->bytes;
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

/* Compute again every deleted level above `level` (their records are
 * forgotten: their files are gone): a slice of `level` must be redone and
 * the level it is computed from was deleted. They are deleted again once
 * used, as before. Returns the highest such level, or -1. */
static int undelete_above(rdb_manifest *man, const rdb_db *db, int level, int talk)
{
    int lo = -1, hi = -1;
    uint64_t positions = 0;
    for (int l = level + 1; l <= db->lay.nbits; l++) {
        if (!rdb_level_deleted(man->deleted, l))
            continue;
        man->deleted &= ~(1ULL << (l - 1));
        rdb_slice *slices;
        int ns = rdb_db_level_slices(db, l, &slices);
        for (int i = 0; i < ns; i++) {
            rdb_manifest_forget(man, &slices[i]);
            positions += slices[i].size;
        }
        free(slices);
        lo = lo < 0 ? l : lo;
        hi = l;
    }
    if (talk && lo >= 0)
        fprintf(stderr,
                "level %d is computed from level %d, which was deleted (--keep-lines): computing "
                "levels %d to %d again (%llu positions) to redo it\n",
                level, level + db->game->move_bits, lo, hi, (unsigned long long)positions);
    return hi;
}

/* The slices verify or a lookup found damaged (DAMAGED): forgotten, so
 * that this build redoes them, with the deleted levels they need. How
 * many records there were goes in *records. */
static rdb_status redo_recorded_damage(const rdb_db *db, rdb_manifest *man, int talk,
                                       int *records, rdb_error *err)
{
    rdb_slice *bad;
    int n;
    rdb_status st = rdb_damage_load(db->dir, db->lay.ngroups, db->lay.nbits, &bad, &n, err);
    if (st != RDB_OK)
        return st;
    *records = n;
    int lowest = -1;
    for (int i = 0; i < n; i++) {
        rdb_slice s = bad[i];
        rdb_db_slice_size(db, &s);
        /* a slice the layout does not have, of a deleted level, or not
         * finished: nothing to redo that the build would not do anyway */
        if (!s.size || rdb_level_deleted(man->deleted, s.level) || !rdb_manifest_find(man, &s) ||
            rdb_db_slice_dropped(db, man->dropped, &s))
            continue;
        rdb_manifest_forget(man, &s);
        if (talk) {
            char path[RDB_PATH_MAX];
            rdb_error ignored;
            if (rdb_slice_path(db, &s, path, sizeof path, &ignored) == RDB_OK)
                fprintf(stderr, "redoing a slice found damaged: '%s'\n", path);
        }
        if (rdb_level_deleted(man->deleted, s.level + db->game->move_bits) &&
            (lowest < 0 || s.level < lowest))
            lowest = s.level;
    }
    free(bad);
    if (lowest >= 0)
        undelete_above(man, db, lowest, talk);
    return RDB_OK;
}

/* Damaged slices found while reading that a build redoes before it gives
 * up: a disk that damages every file it writes must not loop for ever. */
#define MAX_REDONE 64

/* Everything a running build holds. */
typedef struct {
    const rdb_build_options *opt;
    const rdb_distribution *dist;
    int talk;                /* progress and notes on stderr (the root's) */
    rdb_db db;
    rdb_manifest man;
    rdb_kernel kern;
    rdb_writer *writer;
    rdb_neighbour nb;
    rdb_level_cache cache;   /* the level just built, for the next one */
    int8_t *best;
    int keep_level;          /* levels above this are deleted; nbits = keep all */
    rdb_progress prog;
    rdb_sparse_levels *levels; /* a sparse database's levels above, read as needed */
    int damage_records;        /* the slices DAMAGED named when the build started */
} build_state;

/* Record that a level is no longer kept, then remove its files (in that
 * order: a crash in between leaves files that are merely unused). Only the
 * root touches the folder; the others only note it. */
static rdb_status delete_level(build_state *b, int level, rdb_error *err)
{
    if (b->dist->rank != 0) {
        b->man.deleted |= 1ULL << (level - 1);
        return RDB_OK;
    }
    if (!rdb_level_deleted(b->man.deleted, level)) {
        rdb_status st = rdb_manifest_append_deleted(&b->man, b->opt->dir, level, err);
        if (st != RDB_OK)
            return st;
    }
    return rdb_sweep_level(&b->db, level, err);
}

/* Drop a sparse database's level's dropped part (game.h's sparse_window):
 * recorded, then its files removed, as delete_level does. */
static rdb_status drop_part(build_state *b, int level, rdb_error *err)
{
    if (level < 0 || level > 63 || (b->man.dropped >> level & 1))
        return RDB_OK;
    rdb_status st = RDB_OK;
    if (b->dist->rank != 0)
        b->man.dropped |= 1ULL << level;
    else
        st = rdb_manifest_append_dropped(&b->man, b->opt->dir, level, err);
    rdb_sparse_levels_set_dropped(b->levels, b->man.dropped);
    if (st == RDB_OK && b->dist->rank == 0)
        st = rdb_sweep_dropped_part(&b->db, level, err);
    return st;
}

/* The bytes a position takes on disk, by the slices recorded (half a
 * byte before any). */
static double bytes_a_position(const build_state *b)
{
    uint64_t done_bytes = 0, done_entries = 0;
    for (size_t i = 0; i < b->man.n; i++) {
        done_bytes += b->man.e[i].bytes;
        done_entries += b->man.e[i].entries;
    }
    return done_entries ? (double)done_bytes / (double)done_entries : 0.5;
}

/* The bytes the slices of level n not recorded yet will take. */
static uint64_t bytes_to_come(const build_state *b, int n)
{
    uint64_t todo = 0;
    rdb_slice *slices;
    const int ns = rdb_db_level_slices(&b->db, n, &slices);
    for (int i = 0; i < ns; i++)
        if (!rdb_manifest_find(&b->man, &slices[i]))
            todo += slices[i].size;
    free(slices);
    return (uint64_t)((double)todo * bytes_a_position(b));
}

/* With a disk budget (--disk), a sparse database's dropped parts stay
 * beyond the window while the disk allows: before level n is built, what
 * the folder holds and what n's slices still to do will take (at the bytes
 * a position the slices done took) are counted, and while that is over the
 * budget, the dropped part of the farthest level above n + window that
 * still has one goes. The positions of a part gone are valued from their
 * moves, a lookup a move, so a part kept is time saved; plan.c's
 * drop_schedule makes the same choice from estimates. */
static rdb_status keep_within_disk(build_state *b, int n, int window, rdb_error *err)
{
    const uint64_t budget = (uint64_t)(b->opt->disk_gb * 1e9);
    uint64_t held;
    rdb_status st = rdb_tree_bytes(b->opt->dir, &held, err);
    const uint64_t coming = bytes_to_come(b, n);
    for (int l = b->db.lay.nbits; st == RDB_OK && held + coming > budget && l > n + window; l--) {
        if (l > 63 || (b->man.dropped >> l & 1))
            continue;
        st = drop_part(b, l, err);
        if (st == RDB_OK)
            st = rdb_tree_bytes(b->opt->dir, &held, err);
        if (st == RDB_OK && b->talk)
            fprintf(stderr, "level %d: the other class of level %d deleted to stay within --disk "
                            "(%.2f GB held, %.2f GB to come)\n",
                    n, l, (double)held / 1e9, (double)coming / 1e9);
    }
    return st;
}

/* A resumed sparse build whose window or disk budget is wider than the
 * run's before it (a build stopped, then resumed with a larger --window
 * or --disk) brings back the dropped parts it now keeps: they would
 * otherwise stay gone and their positions be valued from their moves at
 * every lookup, the same values at many times the cost. The parts of the
 * levels within the window of the level to build next come back; with
 * --disk, then the nearest others while the folder, those parts and the
 * next level's slices fit (keep_within_disk gives up the farthest first:
 * the same order from the other end). A part's records are forgotten and
 * the manifest written anew without them and its `dropped` record
 * before anything is computed, so that a build killed meanwhile resumes
 * to the same; the levels' turns in the build then compute the parts
 * again, from the top down. */
static rdb_status restore_dropped_parts(build_state *b, int window, rdb_error *err)
{
    const rdb_layout *lay = &b->db.lay;
    if (window < 0 || !b->man.dropped)
        return RDB_OK;
    /* the level to build next: the highest with a slice to do */
    int next = -1;
    for (int level = lay->nbits; level >= 0 && next < 0; level--) {
        rdb_slice *slices;
        const int ns = rdb_db_level_slices(&b->db, level, &slices);
        for (int i = 0; i < ns && next < 0; i++)
            if (!rdb_manifest_find(&b->man, &slices[i]) &&
                !rdb_db_slice_dropped(&b->db, b->man.dropped, &slices[i]))
                next = level;
        free(slices);
    }
    if (next < 0)
        return RDB_OK; /* finished: every part goes at the end */
    const int by_disk = b->opt->disk_gb > 0;
    const uint64_t budget = (uint64_t)(b->opt->disk_gb * 1e9);
    const double per_position = bytes_a_position(b);
    uint64_t room = 0; /* the folder's bytes with the parts brought back */
    rdb_status st = by_disk ? rdb_tree_bytes(b->opt->dir, &room, err) : RDB_OK;
    room += by_disk ? bytes_to_come(b, next) : 0;
    int restored = 0;
    for (int l = next + 1; st == RDB_OK && l <= lay->nbits && l < 64; l++) {
        if (!(b->man.dropped >> l & 1))
            continue;
        rdb_slice *slices;
        const int ns = rdb_db_level_slices(&b->db, l, &slices);
        uint64_t part = 0;
        for (int i = 0; i < ns; i++)
            if (rdb_db_slice_dropped(&b->db, b->man.dropped, &slices[i]))
                part += slices[i].size;
        const uint64_t bytes = (uint64_t)((double)part * per_position);
        const int wanted = l <= next + window || (by_disk && room + bytes <= budget);
        for (int i = 0; wanted && i < ns; i++)
            if (rdb_db_slice_dropped(&b->db, b->man.dropped, &slices[i]))
                rdb_manifest_forget(&b->man, &slices[i]);
        free(slices);
        if (!wanted)
            break; /* the nearest first: none farther either */
        b->man.dropped &= ~(1ULL << l);
        room += bytes;
        restored++;
        if (b->talk && part)
            fprintf(stderr,
                    "level %d: its other class, deleted before, is computed again (%llu position%s): "
                    "%s keeps it now\n",
                    l, (unsigned long long)part, part == 1 ? "" : "s",
                    l <= next + window ? "--window" : "--disk");
    }
    if (st == RDB_OK && restored)
        st = rdb_manifest_compact(&b->man, b->opt->dir, err);
    return st;
}

/* A slice of a sparse database's level, from every level above it. A
 * level above found damaged is left in the neighbour's place for
 * run_level, which has it redone. */
static rdb_status sparse_compute(build_state *b, const rdb_slice *s, rdb_error *err)
{
    const rdb_db *db = &b->db;
    rdb_chunk_cache *cache = rdb_sparse_levels_cache(b->levels);
    const uint64_t from = rdb_db_slice_first(db, s);
    rdb_status st = db->game->sparse_level(db->state, db->sparse, s->level, from, from + s->size,
                                           cache, b->man.dropped, b->best, err);
    rdb_slice bad = {.level = -1};
    rdb_sparse_levels_failed(b->levels, &bad);
    if ((st == RDB_E_CORRUPT || st == RDB_E_MISSING) && bad.level > s->level) {
        b->nb.damaged = 1;
        b->nb.slice = bad;
    }
    /* this slice's file is written anew: nothing read of an old one stays */
    rdb_sparse_levels_forget(b->levels, s->level);
    return st;
}

/* The slices of a level and how many positions they hold. */
typedef struct {
    int slices;
    uint64_t positions;
} level_size;

/* Compute this process's share of the level's slices not yet recorded and
 * make them durable; what it did in *work. */
static rdb_status build_level(build_state *b, int level, level_size *size, rdb_level_work *work,
                              rdb_error *err)
{
    const rdb_db *db = &b->db;
    const double weight = rdb_progress_level_weight(db->lay.nbits, level);
    rdb_slice *slices;
    int ns = rdb_db_level_slices(db, level, &slices);
    if (ns < 0)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory listing slices");
    /* The writer is idle here, so the manifest can be read. */
    char *done = calloc(2 * (size_t)ns + 1, 1);
    if (!done) {
        free(slices);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory listing slices");
    }
    char *mine = done + ns;
    /* a dropped part is done: its values were made and used */
    for (int i = 0; i < ns; i++)
        done[i] = rdb_manifest_find(&b->man, &slices[i]) != NULL ||
                  rdb_db_slice_dropped(db, b->man.dropped, &slices[i]);
    rdb_status st = RDB_OK;
    if (b->dist->assign(b->dist, slices, ns, done, mine) != 0)
        st = rdb_fail(err, RDB_E_NOMEM, "out of memory sharing the slices of level %d", level);

    size->slices = ns;
    size->positions = 0;
    for (int i = 0; i < ns && st == RDB_OK; i++) {
        const rdb_slice *s = &slices[i];
        size->positions += s->size;
        if (done[i]) {
            rdb_progress_add_work(&b->prog, s->size, (double)s->size * weight, 0);
            continue;
        }
        if (!mine[i])
            continue;
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
        st = db->sparse ? sparse_compute(b, s, err) : rdb_compute_slice(&b->kern, s, b->best, &b->nb, err);
        if (st != RDB_OK)
            break;
        char path[RDB_PATH_MAX];
        st = rdb_slice_path(db, s, path, sizeof path, err);
        if (st != RDB_OK)
            break;
        rdb_slice_id id;
        rdb_slice_identity(db, s, &id);
        if (!db->sparse)
            rdb_level_cache_put(&b->cache, s, b->best);
        double w0 = rdb_now();
        rdb_encoded_slice enc;
        st = rdb_slice_encode(path, &id, b->best, db->params.zstd_level, &enc, err);
        if (st == RDB_OK) {
            work->written_bytes += enc.bytes;
            st = rdb_writer_submit(b->writer, &enc, s, rdb_now() - c0, err);
        }
        work->write += rdb_now() - w0;
        work->computed += s->size;
        rdb_progress_add_work(&b->prog, s->size, (double)s->size * weight, 1);
    }
    /* Level n-1 reads these files: they must be durable first. */
    double w0 = rdb_now();
    rdb_status dst = rdb_writer_drain(b->writer, st == RDB_OK ? err : NULL);
    work->write += rdb_now() - w0;
    if (st == RDB_OK)
        st = dst;
    /* level n+step is needed no more (level n-1 reads level n-1+step) */
    rdb_level_cache_drop_above(&b->cache, level + db->game->move_bits - 1);
    b->nb.valid = 0;
    free(done);
    free(slices);
    return st;
}

/* The records this process made since the manifest's record number seq0,
 * in *out (freed by the caller; NULL and 0 when none). */
static rdb_status records_since(const rdb_manifest *m, size_t seq0, rdb_manifest_entry **out,
                                size_t *n, rdb_error *err)
{
    *out = NULL;
    *n = 0;
    if (m->seq == seq0)
        return RDB_OK;
    rdb_manifest_entry *e = malloc((m->seq - seq0) * sizeof *e);
    if (!e)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    for (size_t i = 0; i < m->n; i++)
        if (m->e[i].seq >= seq0)
            e[(*n)++] = m->e[i];
    *out = e;
    return RDB_OK;
}

/* What the database's slice files hold now, for the level's line (the
 * disk a plan predicts, measured): the manifest's records of the slices
 * still there, so that no call to the file system is made for it. */
static uint64_t disk_held(const build_state *b)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < b->man.n; i++) {
        const rdb_manifest_entry *e = &b->man.e[i];
        rdb_slice s;
        memset(&s, 0, sizeof s);
        s.level = e->level;
        for (int g = 0; g < b->db.lay.ngroups; g++)
            s.counts[g] = e->counts[g];
        rdb_db_slice_size(&b->db, &s);
        if (!rdb_level_deleted(b->man.deleted, e->level) &&
            !rdb_db_slice_dropped(&b->db, b->man.dropped, &s))
            bytes += e->bytes;
    }
    return bytes;
}

/* Build one level with the other processes, if any: this process's share,
 * then the level's end, which every process reaches. *end says how the
 * level went, the same in every process. */
static rdb_status run_level(build_state *b, int level, rdb_level_end *end, rdb_error *err)
{
    const rdb_distribution *d = b->dist;
    double t0 = rdb_now(), read0 = b->nb.read_seconds;
    uint64_t bytes0 = b->nb.read_bytes;
    size_t seq0 = b->man.seq;
    level_size size = {0, 0};
    rdb_level_work work;
    memset(&work, 0, sizeof work);
    rdb_status st = build_level(b, level, &size, &work, err);
    work.busy = rdb_now() - t0;
    work.read = b->nb.read_seconds - read0;
    work.read_bytes = b->nb.read_bytes - bytes0;
    const rdb_slice *damaged = NULL;
    if ((st == RDB_E_CORRUPT || st == RDB_E_MISSING) && b->nb.damaged &&
        b->nb.slice.level > level)
        damaged = &b->nb.slice;
    /* one process has nothing to share: its records are in the manifest */
    rdb_manifest_entry *records = NULL;
    size_t nrecords = 0;
    if (d->ranks > 1) {
        rdb_error rerr;
        rdb_status rst = records_since(&b->man, seq0, &records, &nrecords, &rerr);
        if (rst != RDB_OK && st == RDB_OK) {
            st = rst;
            *err = rerr;
        }
    }
    st = d->level_end(d, &b->man, b->opt->dir, st, err, damaged, records, nrecords, &work, end);
    free(records);
    b->nb.damaged = 0;
    if (st != RDB_OK) {
        *err = end->err;
        return st;
    }
    /* the positions the other processes computed, for the bar */
    if (end->total.computed > work.computed)
        rdb_progress_add_work(&b->prog, end->total.computed - work.computed,
                              (double)(end->total.computed - work.computed) *
                                  rdb_progress_level_weight(b->db.lay.nbits, level),
                              1);
    if (b->talk) {
        const rdb_level_work *t = &end->total;
        double seconds = rdb_now() - t0;
        /* several processes: their summed read and write time, the rest
         * of the level's time being computing */
        rdb_progress_level(&b->prog, level, size.slices, size.positions, t->computed, seconds,
                           d->ranks > 1 ? t->read / d->ranks : t->read,
                           d->ranks > 1 ? t->write / d->ranks : t->write,
                           disk_held(b));
        if (d->ranks > 1 && t->computed > 0)
            rdb_progress_ranks(&b->prog, d->ranks, end->busy_min, end->busy_max, end->slowest,
                               t->read_bytes, t->written_bytes);
    }
    return RDB_OK;
}

/* The root's part of starting a build: the folder checked and locked,
 * PARAMS pinned, a killed build's leftovers swept, the manifest loaded
 * and checked. */
static rdb_status start_root(build_state *b, int *lock, rdb_error *err)
{
    const rdb_build_options *opt = b->opt;
    rdb_status st = rdb_check_dir_name(opt->dir, err);
    if (st != RDB_OK)
        return st;
    /* Every refusal the budgets and the folder's PARAMS call for comes
     * before anything is created, so a refused build leaves the folder as
     * it found it. The PARAMS and memory checks are made again below with
     * the lock held, for a folder that changed in between. */
    rdb_build_plan plan;
    st = rdb_build_plan_make(opt, &plan, err);
    if (st == RDB_OK)
        st = rdb_build_disk_check(opt, &plan, err);
    if (st != RDB_OK)
        return st;
    st = rdb_mkdirs(opt->dir, err);
    if (st != RDB_OK)
        return st;
    st = rdb_lock_acquire(opt->dir, lock, err);
    if (st != RDB_OK)
        return st;
    rdb_params p = opt->params;
    if (p.store && !p.slice_positions && !plan.resumes)
        p.slice_positions = plan.slice_positions; /* what the plan chose for --memory */
    uint64_t budget = (uint64_t)opt->memory_mb << 20;
    const rdb_game *game = rdb_game_with_id(p.game);
    const uint64_t bytes_per_position = rdb_build_bytes_per_position(game);
    st = pin_params(opt, &p, budget / bytes_per_position, &b->db, err);
    if (st == RDB_E_NOMEM && b->db.least_slice)
        st = rdb_build_memory_refusal(opt, game, b->db.least_slice, err);
    if (st != RDB_OK)
        return st;
    /* only now, with the lock held and PARAMS ours: a killed build's
     * temporary files, by their exact names */
    st = rdb_sweep_temp_files(&b->db, err);
    if (st != RDB_OK)
        return st;
    const rdb_layout *lay = &b->db.lay;
    st = rdb_manifest_load(&b->man, opt->dir, lay->ngroups, lay->nbits, err);
    /* a build of several processes left the records of a level in parts:
     * into the manifest with them, which this build alone appends to */
    if (st == RDB_OK && b->man.parts_found)
        st = rdb_manifest_compact(&b->man, opt->dir, err);
    if (st == RDB_OK)
        st = check_finished_slices(&b->db, &b->man, !b->talk, err);
    /* a dropped part is recorded before its files go: a build killed in
     * between left some */
    for (int level = 0; st == RDB_OK && level <= lay->nbits && level < 64; level++)
        if (b->man.dropped >> level & 1)
            st = rdb_sweep_dropped_part(&b->db, level, err);
    if (st == RDB_OK)
        st = redo_recorded_damage(&b->db, &b->man, b->talk, &b->damage_records, err);
    return st;
}

/* Another process's part of starting: the database the root pinned; its
 * records come from the root (share_manifest). */
static rdb_status start_other(build_state *b, rdb_error *err)
{
    rdb_status st = rdb_db_open(&b->db, b->opt->dir, err);
    if (st != RDB_OK)
        return st;
    memset(&b->man, 0, sizeof b->man);
    b->man.fd = -1;
    b->man.ngroups = b->db.lay.ngroups;
    b->man.nbits = b->db.lay.nbits;
    b->man.part = b->dist->rank;
    return RDB_OK;
}

static rdb_status build(const rdb_build_options *opt, rdb_error *err)
{
#ifdef _OPENMP
    if (opt->threads > 0)
        omp_set_num_threads(opt->threads);
#endif
    const rdb_distribution *d = opt->dist ? opt->dist : rdb_distribution_single();
    int lock = -1;
    build_state b;
    memset(&b, 0, sizeof b);
    b.opt = opt;
    b.dist = d;
    b.talk = !opt->quiet && d->rank == 0;
    b.man.fd = -1;
    /* Every step below that one process can fail is followed by `agree`,
     * so that all processes leave together and none waits for ever on
     * another at the level's end. */
    rdb_status st = d->rank == 0 ? start_root(&b, &lock, err) : RDB_OK;
    if (st == RDB_OK && d->rank == 0)
        st = restore_dropped_parts(&b, rdb_db_sparse_window(&b.db, opt->window), err);
    st = d->agree(d, st, err);
    if (st != RDB_OK)
        goto done;
    if (d->rank != 0)
        st = start_other(&b, err);
    st = d->agree(d, st, err);
    if (st == RDB_OK)
        st = d->share_manifest(d, &b.man, err);
    st = d->agree(d, st, err);
    if (st != RDB_OK)
        goto done;

    const rdb_layout *lay = &b.db.lay;
    const rdb_game *game = b.db.game;
    const uint64_t bytes_per_position = rdb_build_bytes_per_position(game);
    uint64_t budget = (uint64_t)opt->memory_mb << 20;
    b.keep_level = rdb_build_keep_level(opt, &b.db);
    uint64_t maxslice = rdb_db_max_slice(&b.db);
    if (b.db.sparse) {
        /* the plan checked the budget and refused several processes:
         * every level above the one being built is read by it */
        b.keep_level = lay->nbits;
        st = game->sparse_prepare(b.db.sparse, 0, err);
        budget = 0; /* no level cache: the levels above come through b.levels */
        if (st == RDB_OK)
            st = rdb_sparse_levels_open(&b.db, rdb_build_sparse_cache_bytes(opt, &b.db),
                                        &b.levels, err);
        if (st == RDB_OK)
            rdb_sparse_levels_set_dropped(b.levels, b.man.dropped);
    } else if (bytes_per_position * maxslice > budget) {
        st = rdb_build_memory_refusal(opt, game, maxslice, err);
    }
    if (st == RDB_OK && !b.db.sparse)
        st = rdb_kernel_init(&b.kern, &b.db, err);
    if (st == RDB_OK) {
        b.best = malloc(maxslice);
        b.nb.buffer = b.db.sparse ? NULL : malloc(maxslice);
        /* what the budget leaves after the working buffers holds the last
         * level's slices in memory */
        rdb_level_cache_init(&b.cache, lay->ngroups,
                             b.db.sparse ? 0 : budget - bytes_per_position * maxslice);
        b.nb.cache = &b.cache;
        if (!b.best || (!b.nb.buffer && !b.db.sparse))
            st = rdb_fail(err, RDB_E_NOMEM, "cannot allocate %llu bytes for slices",
                          (unsigned long long)(2 * maxslice));
    }
    if (st == RDB_OK)
        st = rdb_writer_start(&b.writer, &b.man, opt->dir, err);
    st = d->agree(d, st, err);
    if (st != RDB_OK)
        goto done;
    double total_work = 0;
    for (int level = 0; level <= lay->nbits; level++) {
        rdb_slice *slices;
        int ns = rdb_db_level_slices(&b.db, level, &slices);
        for (int i = 0; i < ns; i++)
            total_work += (double)slices[i].size * rdb_progress_level_weight(lay->nbits, level);
        free(slices);
    }
    rdb_progress_start_work(&b.prog, !b.talk, rdb_db_total_positions(&b.db), total_work);
    int redone = 0;
    const int window = rdb_db_sparse_window(&b.db, opt->window);
    const int by_disk = window >= 0 && opt->disk_gb > 0;
    for (int level = lay->nbits; level >= 0 && st == RDB_OK; level--) {
        if (by_disk) {
            st = keep_within_disk(&b, level, window, err);
            st = d->agree(d, st, err);
            if (st != RDB_OK)
                break;
        }
        rdb_level_end end;
        st = run_level(&b, level, &end, err);
        if (end.ndamaged && redone < MAX_REDONE && (st == RDB_E_CORRUPT || st == RDB_E_MISSING)) {
            /* A finished slice failed its checksums when read (damage
             * inside a frame, which the check at start does not decode):
             * forget it and go back up to redo it, then carry on here. */
            if (b.talk)
                fprintf(stderr, "redoing a damaged slice: %s\n", err->msg);
            int top = level;
            for (int i = 0; i < end.ndamaged; i++) {
                const int l = end.damaged[i].level;
                rdb_manifest_forget(&b.man, &end.damaged[i]);
                if (l > top)
                    top = l;
                /* computed from a deleted level: that one and those above
                 * it first */
                if (rdb_level_deleted(b.man.deleted, l + b.db.game->move_bits)) {
                    const int hi = undelete_above(&b.man, &b.db, l, b.talk);
                    if (hi > top)
                        top = hi;
                }
            }
            rdb_level_end_free(&end);
            level = top + 1;
            redone++;
            st = RDB_OK;
            continue;
        }
        rdb_level_end_free(&end);
        /* level+step is needed by nothing now (finished levels never need
         * redoing from it unless damaged, which then asks for a rebuild) */
        const int done_with = level + b.db.game->move_bits;
        if (st == RDB_OK && done_with <= lay->nbits && done_with > b.keep_level) {
            st = delete_level(&b, done_with, err);
            st = d->agree(d, st, err);
        }
        /* the dropped part the window has passed (with --disk, only what
         * keep_within_disk gives up), and at the end the rest */
        const int last = level > 0 ? level + window : by_disk ? lay->nbits : window;
        for (int l = level == 0 ? 0 : by_disk ? last + 1 : level + window;
             window >= 0 && st == RDB_OK && l <= last && l <= lay->nbits; l++) {
            st = drop_part(&b, l, err);
            st = d->agree(d, st, err);
        }
    }
    if (st == RDB_OK)
        rdb_progress_finish(&b.prog);
    /* every slice DAMAGED named is redone: it goes, unless something was
     * found damaged meanwhile (it then stays, and is redone again) */
    if (st == RDB_OK && d->rank == 0 && b.damage_records > 0) {
        rdb_slice *now;
        int n;
        if (rdb_damage_load(opt->dir, lay->ngroups, lay->nbits, &now, &n, err) == RDB_OK &&
            n == b.damage_records)
            st = rdb_damage_clear(opt->dir, err);
        free(now);
    }
    if (st == RDB_OK && b.levels && b.talk) {
        const rdb_chunk_stats cs = rdb_chunk_cache_stats(rdb_sparse_levels_cache(b.levels));
        char held[RDB_HUMAN_MAX], read[RDB_HUMAN_MAX];
        fprintf(stderr, "levels above read through a cache: %llu chunks decompressed (%s), at most %s held\n",
                (unsigned long long)cs.loads, rdb_human_bytes(cs.loaded_bytes, read, sizeof read),
                rdb_human_bytes(cs.peak_bytes, held, sizeof held));
    }
done:;
    rdb_error werr;
    rdb_status wst = rdb_writer_stop(b.writer, &werr);
    if (st == RDB_OK && wst != RDB_OK) {
        st = wst;
        *err = werr;
    }
    d->finish(d, st, opt->quiet);
    free(b.best);
    free(b.nb.buffer);
    rdb_sparse_levels_close(b.levels);
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
