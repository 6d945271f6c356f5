/*
 * builder.c — the level loop and the slice kernel; see builder.h.
 *
 * The kernel is tuned for this access pattern: a slice is a matrix whose
 * rows are the inner group's states and whose columns are the other
 * groups' states. A move in an outer group maps a whole parent row to a
 * whole child row of the neighbour slice (in the same order, or permuted by
 * a small table when the move changes group 0 and the child must be turned
 * into canonical form), so the work per child is one load and one max over
 * a contiguous row, which the compiler vectorises. Only moves in the inner
 * group need a lookup per position. Box completion is decided once per row
 * for box sides outside the inner group.
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
#include "progress.h"

volatile sig_atomic_t rdb_stop_requested = 0;

#define NO_VALUE INT8_MIN

static inline int8_t max8(int8_t a, int b) { return b > a ? (int8_t)b : a; }

/* best[i] = max(best[i], candidate of child value v) over a row, where the
 * move completes `fixed` boxes plus one for each inner mask fully present in
 * the parent's inner state. child is indexed through perm when not NULL. */
static void relax_row(int8_t *restrict best, const int8_t *restrict child,
                      const uint16_t *restrict perm, const uint16_t *restrict inner,
                      uint32_t m, int fixed, int ninner, const unsigned *mask)
{
    if (ninner == 0 && !perm) {
        if (fixed == 0)
            for (uint32_t i = 0; i < m; i++)
                best[i] = max8(best[i], -child[i]);
        else
            for (uint32_t i = 0; i < m; i++)
                best[i] = max8(best[i], fixed + child[i]);
        return;
    }
    if (ninner == 0) {
        if (fixed == 0)
            for (uint32_t i = 0; i < m; i++)
                best[i] = max8(best[i], -child[perm[i]]);
        else
            for (uint32_t i = 0; i < m; i++)
                best[i] = max8(best[i], fixed + child[perm[i]]);
        return;
    }
    unsigned m0 = mask[0], m1 = ninner > 1 ? mask[1] : 0;
    for (uint32_t i = 0; i < m; i++) {
        int v = perm ? child[perm[i]] : child[i];
        unsigned s = inner[i];
        int n = fixed + ((s & m0) == m0) + (ninner > 1 && (s & m1) == m1);
        best[i] = max8(best[i], n ? n + v : -v);
    }
}

/* Moves in group g of every position of slice s, children in nb. */
static void relax_group(const rdb_db *db, const rdb_slice *s, int8_t *best, int g,
                        const int8_t *nb)
{
    const rdb_layout *lay = &db->lay;
    const dots_rules *r = &db->rules;
    const int G = lay->ngroups, I = G - 1;
    uint32_t radix[RDB_MAX_GROUPS], nradix[RDB_MAX_GROUPS];
    for (int h = 0; h < G; h++)
        radix[h] = nradix[h] = lay->count[h][s->counts[h]];
    nradix[g] = lay->count[g][s->counts[g] + 1];

    if (G == 1) {
        /* one group, which is group 0: every child is made canonical */
        const uint16_t *st = lay->states[0][s->counts[0]];
        const uint16_t *mv = lay->moves[0];
#pragma omp parallel for schedule(static)
        for (uint32_t i = 0; i < radix[0]; i++) {
            unsigned p = st[i];
            int8_t b = best[i];
            for (unsigned m = mv[p]; m; m &= m - 1) {
                int bit = __builtin_ctz(m);
                unsigned c = p | 1u << bit;
                if (lay->ntransforms > 1)
                    c = lay->perm[lay->canon_t[c]][0][c];
                int v = nb[lay->rank[0][c]];
                int n = dots_rules_boxes(r, p, bit);
                b = max8(b, n ? n + v : -v);
            }
            best[i] = b;
        }
        return;
    }

    const uint32_t m_inner = radix[I], nm_inner = nradix[I];
    const int k_inner = s->counts[I], off_inner = lay->off[I];
    const uint16_t *inner_states = lay->states[I][k_inner];
    const uint64_t outer_bits = (1ULL << off_inner) - 1;
    const uint64_t rows = s->size / m_inner;

#pragma omp parallel for schedule(dynamic, 64)
    for (uint64_t o = 0; o < rows; o++) {
        uint32_t rk[RDB_MAX_GROUPS];
        unsigned st[RDB_MAX_GROUPS];
        uint64_t x = o, outer_pos = 0;
        for (int h = I - 1; h >= 0; h--) {
            rk[h] = (uint32_t)(x % radix[h]);
            x /= radix[h];
        }
        for (int h = 0; h < I; h++) {
            st[h] = lay->states[h][s->counts[h]][rk[h]];
            outer_pos |= (uint64_t)st[h] << lay->off[h];
        }
        int8_t *brow = best + o * m_inner;

        if (g == I) {
            const int8_t *crow = nb + o * nm_inner;
            const uint32_t *rank = lay->rank[I];
            const uint16_t *mv = lay->moves[I];
            for (uint32_t i = 0; i < m_inner; i++) {
                unsigned p = inner_states[i];
                uint64_t pos = outer_pos | (uint64_t)p << off_inner;
                int8_t b = brow[i];
                for (unsigned m = mv[p]; m; m &= m - 1) {
                    int bit = __builtin_ctz(m);
                    int v = crow[rank[p | 1u << bit]];
                    int n = dots_rules_boxes(r, pos, off_inner + bit);
                    b = max8(b, n ? n + v : -v);
                }
                brow[i] = b;
            }
            continue;
        }

        for (unsigned m = lay->moves[g][st[g]]; m; m &= m - 1) {
            int bit = __builtin_ctz(m);
            unsigned c = st[g] | 1u << bit;
            int t = 0;
            if (g == 0 && lay->ntransforms > 1) {
                t = lay->canon_t[c];
                c = lay->perm[t][0][c];
            }
            uint64_t co = 0;
            for (int h = 0; h < I; h++) {
                unsigned sh = h == g ? c : t ? lay->perm[t][h][st[h]] : st[h];
                co = co * nradix[h] + lay->rank[h][sh];
            }
            const int8_t *crow = nb + co * m_inner;
            const uint16_t *perm = t ? lay->permrank[t][k_inner] : NULL;

            int ubit = lay->off[g] + bit, fixed = 0, ninner = 0;
            unsigned mask[2];
            for (int k = 0; k < r->nbox[ubit]; k++) {
                uint64_t bm = r->box_mask[ubit][k];
                uint64_t outer_part = bm & outer_bits;
                if ((outer_pos & outer_part) != outer_part)
                    continue;
                unsigned inner_part = (unsigned)(bm >> off_inner);
                if (inner_part == 0)
                    fixed++;
                else
                    mask[ninner++] = inner_part;
            }
            relax_row(brow, crow, perm, inner_states, m_inner, fixed, ninner, mask);
        }
    }
}

/* Load neighbour slice (s with one more line in group g) into buf. */
static rdb_status load_neighbour(const rdb_db *db, const rdb_slice *s, int g, int8_t *buf,
                                 rdb_slice *n, rdb_error *err)
{
    *n = *s;
    n->counts[g]++;
    rdb_slice_set_size(&db->lay, n);
    char path[4096];
    rdb_slice_path(db, n, path, sizeof path);
    rdb_slice_id id;
    rdb_slice_identity(db, n, &id);
    rdb_slice_file sf;
    rdb_status st = rdb_slice_open(path, &id, &sf, err);
    if (st != RDB_OK)
        return st;
    st = rdb_slice_read_all(&sf, buf, err);
    rdb_slice_close(&sf);
    return st;
}

rdb_status rdb_compute_slice(const rdb_db *db, const rdb_slice *s, int8_t *best, int8_t *nbuf,
                             rdb_error *err)
{
    const rdb_layout *lay = &db->lay;
    if (s->level == lay->nbits) {
        best[0] = db->rules.full_value;
        return RDB_OK;
    }
    memset(best, NO_VALUE, s->size);
    for (int g = 0; g < lay->ngroups; g++) {
        if (s->counts[g] == lay->size[g])
            continue;
        rdb_slice n;
        rdb_status st = load_neighbour(db, s, g, nbuf, &n, err);
        if (st != RDB_OK)
            return st;
        relax_group(db, s, best, g, nbuf);
    }
    for (uint64_t i = 0; i < s->size; i++)
        if (best[i] == NO_VALUE)
            return rdb_fail(err, RDB_E_CORRUPT, "internal error: position %llu of level %d has no move",
                            (unsigned long long)i, s->level);
    return RDB_OK;
}

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

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
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
    st = pin_params(opt, &p, budget / 2, &db, err);
    if (st != RDB_OK)
        goto done;
    st = rdb_manifest_load(&man, opt->dir, db.lay.ngroups, err);
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
    best = malloc(maxslice);
    nbuf = malloc(maxslice);
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
        double t0 = now_seconds();
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
            st = rdb_compute_slice(&db, s, best, nbuf, err);
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
            st = rdb_slice_write(path, &id, best, db.params.zstd_level, &sum, &bytes, err);
            if (st != RDB_OK)
                goto done;
            st = rdb_manifest_append(&man, opt->dir, s, sum, bytes, err);
            if (st != RDB_OK)
                goto done;
            computed += s->size;
            rdb_progress_add(&prog, s->size, 1);
        }
        free(slices);
        slices = NULL;
        rdb_progress_level(&prog, level, ns, positions, computed, now_seconds() - t0);
    }
    rdb_progress_finish(&prog);
done:
    free(slices);
    free(best);
    free(nbuf);
    rdb_manifest_free(&man);
    rdb_db_free(&db);
    rdb_lock_release(lock);
    return st;
}
