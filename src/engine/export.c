/*
 * export.c — the walk over every stored position of a database; see
 * export.h.
 *
 * Access pattern: one pass over the kept slice files in level order, each
 * file read frame by frame (RDB_FRAME_ENTRIES values, checked against the
 * frame's checksum), so memory stays at one frame however large the slice.
 * A sparse database (one that stores some positions only, such as the
 * quiet Dots-and-Boxes database) is walked over the full layout all the
 * same, each position valued through the probe, which takes the others
 * from the stored ones: its export is the one the full database gives.
 * A slice's positions are numbered in mixed radix, group 0 most
 * significant (layout.h), so the walk counts through them like an
 * odometer: the inner group's states in a tight loop, the outer groups'
 * part of the position recomputed only when they carry.
 */
#include "engine/export.h"

#include <stdlib.h>
#include <string.h>

#include "common/job.h"
#include "engine/progress.h"
#include "retrodb/probe.h"
#include "store/manifest.h"

struct rdb_export {
    rdb_db db;
    uint64_t deleted;  /* levels not kept (rdb_level_deleted) */
    rdb_probe *probe;  /* a sparse database's values */
};

rdb_status rdb_export_open(const char *dir, rdb_export **out, rdb_error *err)
{
    *out = NULL;
    rdb_export *ex = calloc(1, sizeof *ex);
    if (!ex)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    rdb_status st = rdb_db_open(&ex->db, dir, err);
    if (st != RDB_OK) {
        free(ex);
        return st;
    }
    rdb_manifest man;
    st = rdb_manifest_load(&man, dir, ex->db.lay.ngroups, ex->db.lay.nbits, err);
    if (st != RDB_OK) {
        rdb_db_free(&ex->db);
        free(ex);
        return st;
    }
    ex->deleted = man.deleted;
    /* an unfinished build holds the levels far from the start, not the
     * opening an export is for: say what to run rather than export part */
    if (!rdb_db_build_complete(&ex->db, &man)) {
        uint64_t done = 0, total = rdb_db_total_positions(&ex->db);
        for (size_t i = 0; i < man.n; i++)
            done += man.e[i].entries;
        double pct = total ? 100.0 * (double)done / (double)total : 0.0;
        st = rdb_fail(err, RDB_E_MISSING,
                      "the build in '%s' is not finished (%.1f%% done): run the same build "
                      "command to carry on, then export",
                      dir, pct > 99.9 ? 99.9 : pct);
        rdb_manifest_free(&man);
        rdb_db_free(&ex->db);
        free(ex);
        return st;
    }
    rdb_manifest_free(&man);
    if (ex->db.sparse && (st = rdb_probe_open(dir, &ex->probe, err)) != RDB_OK) {
        rdb_db_free(&ex->db);
        free(ex);
        return st;
    }
    *out = ex;
    return RDB_OK;
}

void rdb_export_close(rdb_export *ex)
{
    if (!ex)
        return;
    rdb_probe_close(ex->probe);
    rdb_db_free(&ex->db);
    free(ex);
}

const rdb_db *rdb_export_db(const rdb_export *ex)
{
    return &ex->db;
}

int rdb_export_level_kept(const rdb_export *ex, int level)
{
    return level >= 0 && level <= ex->db.lay.nbits && !rdb_level_deleted(ex->deleted, level);
}

uint64_t rdb_export_stored(const rdb_export *ex, int min_level, int max_level)
{
    uint64_t n = 0;
    for (int level = min_level < 0 ? 0 : min_level; level <= max_level; level++) {
        if (!rdb_export_level_kept(ex, level))
            continue;
        rdb_slice *slices;
        int ns = ex->probe ? rdb_level_slices(&ex->db.lay, level, &slices)
                           : rdb_db_level_slices(&ex->db, level, &slices);
        for (int i = 0; i < ns; i++)
            n += slices[i].size;
        free(slices);
    }
    return n;
}

/* What the walk carries from position to position. */
typedef struct {
    const rdb_db *db;
    rdb_probe *probe; /* a sparse database's values, else NULL */
    rdb_export_fn fn;
    void *ctx;
    int all_images;
    int nclasses;                     /* interchangeable classes of 2 bits or more */
    uint64_t classes[RDB_MAX_BITS];
    rdb_export_position rec;
    rdb_export_counts counts;
} walk;

/* Give fn every way of taking, in each interchangeable class from c on,
 * as many bits of the class as y takes: positions that differ only there
 * are worth the same and are stored once, normalised. */
static rdb_status give_spread(walk *w, uint64_t y, int c, rdb_error *err)
{
    if (c == w->nclasses) {
        w->rec.board = w->db->game->board(w->db->state, y);
        w->counts.given++;
        return w->fn(w->ctx, &w->rec, err);
    }
    const uint64_t m = w->classes[c];
    const int k = __builtin_popcountll(y & m);
    if (k == 0 || k == __builtin_popcountll(m))
        return give_spread(w, y, c + 1, err);
    const uint64_t rest = y & ~m;
    /* every subset of m, by the carry-through-the-mask trick */
    uint64_t sub = 0;
    do {
        sub = (sub - m) & m;
        if (__builtin_popcountll(sub) == k) {
            rdb_status st = give_spread(w, rest | sub, c + 1, err);
            if (st != RDB_OK)
                return st;
        }
    } while (sub != 0);
    return RDB_OK;
}

/* Give fn the position x stored at some index (layout order), or with
 * all_images every board position whose canonical form is x. Those are
 * the normalised images of x under the symmetries that canonicalise back
 * to x, spread over their classes: an image that canonicalises to another
 * stored position (x's group 0 has symmetries of its own, so x is stored
 * more than once) is given there, so each board position comes once. */
static rdb_status give(walk *w, uint64_t x, rdb_error *err)
{
    if (!w->all_images) {
        w->rec.board = w->db->game->board(w->db->state, x);
        w->counts.given++;
        return w->fn(w->ctx, &w->rec, err);
    }
    const rdb_layout *lay = &w->db->lay;
    uint64_t seen[RDB_MAX_TRANSFORMS];
    int n = 0;
    for (int t = 0; t < lay->u.ntransforms; t++) {
        uint64_t y = rdb_universe_normalize(&lay->u, rdb_universe_transform(&lay->u, t, x));
        if (rdb_layout_canonical(lay, y) != x)
            continue;
        int dup = 0;
        for (int i = 0; i < n && !dup; i++)
            dup = seen[i] == y;
        if (dup)
            continue;
        seen[n++] = y;
        rdb_status st = give_spread(w, y, 0, err);
        if (st != RDB_OK)
            return st;
    }
    return RDB_OK;
}

/* Walk one slice's file (a sparse database's slice of the full layout:
 * through the probe). */
static rdb_status walk_slice(walk *w, const rdb_slice *s, int8_t *frame, rdb_progress *prog,
                             rdb_error *err)
{
    const rdb_db *db = w->db;
    const rdb_layout *lay = &db->lay;
    rdb_slice_file sf;
    memset(&sf, 0, sizeof sf);
    rdb_status st = w->probe ? RDB_OK : rdb_slice_open_in(db, s, &sf, err);
    if (st == RDB_E_MISSING)
        return rdb_fail(err, RDB_E_MISSING,
                        "a file of level %d of the finished database in '%s' is missing ('%s'): "
                        "running the same build command again redoes it",
                        s->level, db->dir, sf.path);
    if (st != RDB_OK)
        return rdb_db_damaged(db, s, st, err);
    const int G = lay->ngroups, inner = G - 1;
    uint32_t digit[RDB_MAX_GROUPS], radix[RDB_MAX_GROUPS];
    const uint16_t *states[RDB_MAX_GROUPS];
    for (int g = 0; g < G; g++) {
        digit[g] = 0;
        radix[g] = lay->count[g][s->counts[g]];
        states[g] = lay->states[g][s->counts[g]];
    }
    uint64_t outer = 0; /* the position's bits outside the inner group */
    for (int g = 0; g < inner; g++)
        outer |= (uint64_t)states[g][0] << lay->off[g];
    const int inner_off = lay->off[inner];
    const rdb_game *game = db->game;
    uint64_t index = 0;
    for (uint32_t f = 0; index < s->size; f++) {
        if (rdb_stop_requested) {
            st = rdb_fail(err, RDB_E_STOPPED, "stopped");
            break;
        }
        size_t n;
        if (w->probe)
            n = s->size - index < RDB_FRAME_ENTRIES ? (size_t)(s->size - index) : RDB_FRAME_ENTRIES;
        else if ((st = rdb_slice_read_frame(&sf, f, frame, &n, err)) != RDB_OK) {
            st = rdb_db_damaged(db, s, st, err);
            break;
        }
        for (size_t j = 0; j < n && st == RDB_OK; j++, index++) {
            const uint64_t x = outer | (uint64_t)states[inner][digit[inner]] << inner_off;
            int stored = frame[j];
            /* a sparse database keeps no loony marks: its byte is the value */
            if (w->probe &&
                (st = rdb_probe_value(w->probe, game->board(db->state, x), &stored, err)) != RDB_OK)
                break;
            w->rec.stored = stored;
            game->decode(db->state, stored, &w->rec.value, &w->rec.mark);
            w->counts.stored++;
            st = give(w, x, err);
            /* the next index: the inner group first, carrying outwards */
            if (++digit[inner] < radix[inner])
                continue;
            digit[inner] = 0;
            int g = inner - 1;
            while (g >= 0 && ++digit[g] == radix[g])
                digit[g--] = 0;
            outer = 0;
            for (g = 0; g < inner; g++)
                outer |= (uint64_t)states[g][digit[g]] << lay->off[g];
        }
        if (st != RDB_OK)
            break;
        rdb_progress_add(prog, n, 1);
    }
    if (!w->probe)
        rdb_slice_close(&sf);
    return st;
}

rdb_status rdb_export_run(rdb_export *ex, const rdb_export_options *opt, rdb_export_fn fn,
                          void *ctx, rdb_export_counts *counts, rdb_error *err)
{
    const rdb_db *db = &ex->db;
    const rdb_layout *lay = &db->lay;
    walk w;
    memset(&w, 0, sizeof w);
    w.db = db;
    w.probe = ex->probe;
    w.fn = fn;
    w.ctx = ctx;
    w.all_images = opt->all_images;
    /* each class once, by its lowest bit */
    for (int i = 0; i < lay->nbits; i++) {
        const uint64_t m = lay->u.class_mask[i];
        if (__builtin_popcountll(m) > 1 && __builtin_ctzll(m) == i)
            w.classes[w.nclasses++] = m;
    }
    const int lo = opt->min_level < 0 ? 0 : opt->min_level;
    const int hi = opt->max_level > lay->nbits ? lay->nbits : opt->max_level;
    rdb_progress prog;
    rdb_progress_start(&prog, !opt->progress, rdb_export_stored(ex, lo, hi));
    rdb_status st = RDB_OK;
    int8_t *frame = malloc(RDB_FRAME_ENTRIES);
    if (!frame)
        st = rdb_fail(err, RDB_E_NOMEM, "out of memory");
    for (int level = lo; level <= hi && st == RDB_OK; level++) {
        if (!rdb_export_level_kept(ex, level))
            continue;
        w.rec.level = level;
        rdb_slice *slices;
        int ns = rdb_level_slices(lay, level, &slices);
        if (ns < 0) {
            st = rdb_fail(err, RDB_E_NOMEM, "out of memory");
            break;
        }
        for (int i = 0; i < ns && st == RDB_OK; i++)
            st = walk_slice(&w, &slices[i], frame, &prog, err);
        free(slices);
    }
    rdb_progress_clear(&prog);
    free(frame);
    if (counts)
        *counts = w.counts;
    return st;
}
