/*
 * cram_kernel.c — the Cram slice kernel; see cram_kernel.h.
 *
 * Tuned for the same access pattern as the Dots-and-Boxes kernel: a slice
 * is a matrix with one row per state of the outer groups and one column
 * per state of the inner (last) group. A domino whose cells are both
 * outside the inner group maps a whole parent row onto a whole child row
 * (in order, or permuted by a rank table when it changes group 0 and the
 * child must be made canonical), so the work per child is one load and one
 * OR into the position's mask. A domino with one cell in the inner group
 * goes through a per-count table giving the child's inner rank, and
 * dominoes inside the inner group through a flat, padded move list per
 * count, so that those loops have no data-dependent branch worth naming.
 * Rows are independent: OpenMP splits them between threads and the result
 * does not depend on the thread count. Mex is order-free, so the engine may
 * hand the neighbours over in any order.
 */
#include "cram/cram_kernel.h"

#include <stdlib.h>
#include <string.h>

#define PAD16 0xFFFF
/* Largest row: the most states of a 16-bit group with one popcount. */
#define MAX_ROW 12870
/* A nimber byte that stands for "no child" in padded move lists. */
#define NO_CHILD 255

/* A domino as masks local to its two groups (g1 <= g2); when both cells
 * are in one group, a holds both and b is 0. */
typedef struct {
    uint16_t a, b;
} group_domino;

struct cram_kernel {
    const rdb_layout *lay;
    uint64_t *seen;     /* per position of the slice: the nimbers of its children */
    uint64_t bit[256];  /* nimber byte -> its bit in a mask (0 for NO_CHILD) */
    int ndom[RDB_MAX_GROUPS][RDB_MAX_GROUPS];
    group_domino *dom[RDB_MAX_GROUPS][RDB_MAX_GROUPS];
    /* inner group, per count k: for every state, the ranks (among count
     * k+2) of its children by dominoes inside the group, `inner_moves[k]`
     * per state, padded with the child row's length (which points at a
     * NO_CHILD byte placed after the row) */
    uint16_t *inner[RDB_MAX_GROUP_BITS + 1];
    int inner_moves[RDB_MAX_GROUP_BITS + 1];
    /* inner group, per count k: add[k][i * size + c] = rank among count k+1
     * of state i with cell c covered, or PAD16 when c is covered already */
    uint16_t *add[RDB_MAX_GROUP_BITS + 1];
};

static int group_of(const rdb_layout *lay, int bit)
{
    int g = 0;
    while (bit >= lay->off[g] + lay->size[g])
        g++;
    return g;
}

rdb_status cram_kernel_new(const cram_rules *r, const rdb_layout *lay, cram_kernel **out,
                           rdb_error *err)
{
    const int G = lay->ngroups, I = G - 1;
    cram_kernel *ck = *out = calloc(1, sizeof *ck);
    if (!ck)
        goto nomem;
    ck->lay = lay;
    for (int v = 0; v <= CRAM_MAX_NIMBER; v++)
        ck->bit[v] = 1ULL << v;
    ck->seen = malloc(rdb_layout_max_slice(lay) * sizeof *ck->seen);
    if (!ck->seen)
        goto nomem;

    for (int d = 0; d < r->ndominoes; d++) {
        int i = __builtin_ctzll(r->domino[d]), j = 63 - __builtin_clzll(r->domino[d]);
        int g1 = group_of(lay, i), g2 = group_of(lay, j);
        if (g1 > g2) {
            int x = g1; g1 = g2; g2 = x;
            x = i; i = j; j = x;
        }
        group_domino gd;
        gd.a = (uint16_t)(1u << (i - lay->off[g1]));
        gd.b = (uint16_t)(1u << (j - lay->off[g2]));
        if (g1 == g2) {
            gd.a |= gd.b;
            gd.b = 0;
        }
        group_domino *grown = realloc(ck->dom[g1][g2], (size_t)(ck->ndom[g1][g2] + 1) * sizeof *grown);
        if (!grown)
            goto nomem;
        ck->dom[g1][g2] = grown;
        grown[ck->ndom[g1][g2]++] = gd;
    }
    if (G < 2)
        return RDB_OK; /* one group: relax_single_group */

    const int n = lay->size[I];
    for (int k = 0; k <= n; k++) {
        const uint32_t m = lay->count[I][k];
        if (k + 1 <= n) {
            uint16_t *add = ck->add[k] = malloc((size_t)m * (size_t)n * sizeof *add);
            if (!add)
                goto nomem;
            for (uint32_t i = 0; i < m; i++) {
                unsigned st = lay->states[I][k][i];
                for (int c = 0; c < n; c++)
                    add[(size_t)i * n + c] =
                        st >> c & 1 ? PAD16 : (uint16_t)lay->rank[I][st | 1u << c];
            }
        }
        if (k + 2 > n)
            continue;
        const group_domino *dom = ck->dom[I][I];
        const int nd = ck->ndom[I][I];
        int per = 1;
        for (uint32_t i = 0; i < m; i++) {
            unsigned st = lay->states[I][k][i];
            int c = 0;
            for (int d = 0; d < nd; d++)
                c += !(st & dom[d].a);
            per = c > per ? c : per;
        }
        uint16_t *mv = ck->inner[k] = malloc((size_t)m * (size_t)per * sizeof *mv);
        if (!mv)
            goto nomem;
        ck->inner_moves[k] = per;
        const uint16_t pad = (uint16_t)lay->count[I][k + 2];
        for (uint32_t i = 0; i < m; i++) {
            unsigned st = lay->states[I][k][i];
            int j = 0;
            for (int d = 0; d < nd; d++)
                if (!(st & dom[d].a))
                    mv[(size_t)i * per + j++] = (uint16_t)lay->rank[I][st | dom[d].a];
            for (; j < per; j++)
                mv[(size_t)i * per + j] = pad;
        }
    }
    return RDB_OK;
nomem:
    cram_kernel_free(ck);
    *out = NULL;
    return rdb_fail(err, RDB_E_NOMEM, "out of memory for kernel tables");
}

void cram_kernel_free(cram_kernel *ck)
{
    if (!ck)
        return;
    free(ck->seen);
    for (int g = 0; g < RDB_MAX_GROUPS; g++)
        for (int h = 0; h < RDB_MAX_GROUPS; h++)
            free(ck->dom[g][h]);
    for (int k = 0; k <= RDB_MAX_GROUP_BITS; k++) {
        free(ck->inner[k]);
        free(ck->add[k]);
    }
    free(ck);
}

/* One group, which is group 0: every child is made canonical. */
static void relax_single_group(const cram_kernel *ck, const rdb_slice *s, const int8_t *nbv,
                               uint64_t *seen)
{
    const rdb_layout *lay = ck->lay;
    const group_domino *dom = ck->dom[0][0];
    const int nd = ck->ndom[0][0];
    const uint16_t *st = lay->states[0][s->counts[0]];
#pragma omp parallel for schedule(static)
    for (uint64_t i = 0; i < s->size; i++) {
        unsigned p = st[i];
        uint64_t m = 0;
        for (int d = 0; d < nd; d++) {
            if (p & dom[d].a)
                continue;
            unsigned c = p | dom[d].a;
            if (lay->ntransforms > 1)
                c = lay->perm[lay->canon_t[c]][0][c];
            m |= ck->bit[(uint8_t)nbv[lay->rank[0][c]]];
        }
        seen[i] |= m;
    }
}

/* The dominoes from group g1 to group g2 (g1 <= g2), for every position of
 * slice s; their children are in nbv, the slice two levels up. */
static void relax_pair(const cram_kernel *ck, const rdb_slice *s, const rdb_slice *n, int g1,
                       int g2, const int8_t *nbv, uint64_t *seen)
{
    const rdb_layout *lay = ck->lay;
    const int G = lay->ngroups, I = G - 1;
    const group_domino *dom = ck->dom[g1][g2];
    const int nd = ck->ndom[g1][g2];
    const uint64_t *bit = ck->bit;
    uint32_t radix[RDB_MAX_GROUPS], nradix[RDB_MAX_GROUPS];
    for (int h = 0; h < G; h++) {
        radix[h] = lay->count[h][s->counts[h]];
        nradix[h] = lay->count[h][n->counts[h]];
    }
    const uint32_t m_inner = radix[I], nm_inner = nradix[I];
    const int k = s->counts[I], inner_size = lay->size[I];
    const uint64_t rows = s->size / m_inner;

#pragma omp parallel for schedule(dynamic, 64)
    for (uint64_t o = 0; o < rows; o++) {
        uint64_t *srow = seen + o * m_inner;
        if (g1 == I) {
            /* inside the inner group: the outer states, and so the row,
             * stay the same */
            uint8_t row[MAX_ROW + 1];
            memcpy(row, nbv + o * nm_inner, nm_inner);
            row[nm_inner] = NO_CHILD;
            const uint16_t *mv = ck->inner[k];
            const int per = ck->inner_moves[k];
            for (uint32_t i = 0; i < m_inner; i++) {
                const uint16_t *e = mv + (size_t)i * per;
                uint64_t m = 0;
                for (int j = 0; j < per; j++)
                    m |= bit[row[e[j]]];
                srow[i] |= m;
            }
            continue;
        }
        unsigned st[RDB_MAX_GROUPS];
        uint64_t x = o;
        for (int h = I - 1; h >= 0; h--) {
            st[h] = lay->states[h][s->counts[h]][x % radix[h]];
            x /= radix[h];
        }
        for (int d = 0; d < nd; d++) {
            const unsigned a = dom[d].a, b = dom[d].b;
            if ((st[g1] & a) || (g2 < I && (st[g2] & b)))
                continue;
            unsigned cs[RDB_MAX_GROUPS];
            memcpy(cs, st, sizeof cs);
            cs[g1] |= a;
            if (g2 < I)
                cs[g2] |= b;
            const int t = g1 == 0 && lay->ntransforms > 1 ? lay->canon_t[cs[0]] : 0;
            uint64_t co = 0;
            for (int h = 0; h < I; h++)
                co = co * nradix[h] + lay->rank[h][t ? lay->perm[t][h][cs[h]] : cs[h]];
            const uint8_t *crow = (const uint8_t *)nbv + co * nm_inner;
            if (g2 < I) {
                /* both cells outside the inner group: row to row */
                const uint16_t *perm = t ? lay->permrank[t][k] : NULL;
                if (perm)
                    for (uint32_t i = 0; i < m_inner; i++)
                        srow[i] |= bit[crow[perm[i]]];
                else
                    for (uint32_t i = 0; i < m_inner; i++)
                        srow[i] |= bit[crow[i]];
            } else {
                /* one cell in the inner group, where it must be free */
                const int c = __builtin_ctz(b);
                const uint16_t *add = ck->add[k] + c;
                const uint16_t *perm = t ? lay->permrank[t][k + 1] : NULL;
                for (uint32_t i = 0; i < m_inner; i++) {
                    unsigned rk = add[(size_t)i * inner_size];
                    if (rk == PAD16)
                        continue;
                    srow[i] |= bit[crow[perm ? perm[rk] : rk]];
                }
            }
        }
    }
}

void cram_slice_begin(void *kernel, const rdb_slice *s, int8_t *values)
{
    cram_kernel *ck = kernel;
    (void)values;
    memset(ck->seen, 0, s->size * sizeof *ck->seen);
}

/* The groups g1 <= g2 in which n has one more covered cell each (g1 == g2:
 * two more in one group). */
static void neighbour_groups(int ngroups, const rdb_slice *s, const rdb_slice *n, int *g1,
                             int *g2)
{
    *g1 = *g2 = -1;
    for (int g = 0; g < ngroups; g++)
        for (int d = n->counts[g] - s->counts[g]; d > 0; d--) {
            if (*g1 < 0)
                *g1 = g;
            else
                *g2 = g;
        }
    if (*g2 < 0)
        *g2 = *g1;
}

int cram_leads_to(const void *kernel, const rdb_slice *s, const rdb_slice *n)
{
    const cram_kernel *ck = kernel;
    int g1, g2;
    neighbour_groups(ck->lay->ngroups, s, n, &g1, &g2);
    return ck->ndom[g1][g2] > 0;
}

void cram_slice_relax(void *kernel, const rdb_slice *s, const rdb_slice *n,
                      const int8_t *nvalues, int8_t *values)
{
    cram_kernel *ck = kernel;
    (void)values;
    if (ck->lay->ngroups == 1) {
        relax_single_group(ck, s, nvalues, ck->seen);
        return;
    }
    int g1, g2;
    neighbour_groups(ck->lay->ngroups, s, n, &g1, &g2);
    relax_pair(ck, s, n, g1, g2, nvalues, ck->seen);
}

rdb_status cram_slice_finish(void *kernel, const rdb_slice *s, int8_t *best, rdb_error *err)
{
    const cram_kernel *ck = kernel;
    const uint64_t *seen = ck->seen;
    uint64_t too_big = 0;
#pragma omp parallel for reduction(+ : too_big) schedule(static)
    for (uint64_t i = 0; i < s->size; i++) {
        int v = cram_mex(seen[i]);
        too_big += v > CRAM_MAX_NIMBER;
        best[i] = (int8_t)v;
    }
    if (too_big)
        return rdb_fail(err, RDB_E_INPUT,
                        "%llu positions of level %d have a nimber above %d, more than a table can hold",
                        (unsigned long long)too_big, s->level, CRAM_MAX_NIMBER);
    return RDB_OK;
}
