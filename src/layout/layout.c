/*
 * layout.c — choosing groups and building the per-group tables of ranks,
 * normalisation, transforms and moves; see layout.h.
 *
 * Everything here runs when a database is set up, on groups of at most 16
 * bits, so the code favours plainness over speed. The tables it builds are
 * what the builder's inner loops and the probe read. The one exception to
 * plainness is the memo of plans below: a build sets its database up five
 * times (sizing its slices, planning, opening), and each choice of groups
 * builds four candidate layouts.
 */
#include "layout/layout.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- planning: atoms and groups ---- */

static int uf_find(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

static void uf_union(int *parent, int a, int b)
{
    a = uf_find(parent, a);
    b = uf_find(parent, b);
    if (a != b)
        parent[a > b ? a : b] = a < b ? a : b;
}

/* Atoms are the smallest sets of bits closed under the transforms and the
 * interchangeable classes; a group must be a union of atoms. Returns the
 * number of atoms, ordered by their lowest bit; has_class[i] says whether
 * atom i holds a class of two or more bits. */
static int find_atoms(const rdb_universe *u, uint64_t atom[RDB_MAX_BITS], int has_class[RDB_MAX_BITS])
{
    int parent[RDB_MAX_BITS];
    for (int i = 0; i < u->nbits; i++)
        parent[i] = i;
    for (int i = 0; i < u->nbits; i++) {
        for (int t = 0; t < u->ntransforms; t++)
            uf_union(parent, i, u->transform[t][i]);
        for (int j = 0; j < u->nbits; j++)
            if (u->class_mask[i] >> j & 1)
                uf_union(parent, i, j);
    }
    int n = 0;
    for (int i = 0; i < u->nbits; i++) {
        if (uf_find(parent, i) != i)
            continue;
        atom[n] = 0;
        has_class[n] = 0;
        for (int j = 0; j < u->nbits; j++)
            if (uf_find(parent, j) == i) {
                atom[n] |= 1ULL << j;
                has_class[n] |= __builtin_popcountll(u->class_mask[j]) > 1;
            }
        n++;
    }
    return n;
}

/* Greedy split of the atoms, in order, into g groups: group 0 of about
 * `first` bits (0 = an equal share), the others of about equal size. */
static int split_atoms(const uint64_t *atom, int natoms, int nbits, int ngroups, int first,
                       rdb_layout_plan *plan)
{
    int idx = 0, remaining = nbits, nb = 0;
    plan->ngroups = ngroups;
    for (int g = 0; g < ngroups; g++) {
        int target = (remaining + (ngroups - g) - 1) / (ngroups - g);
        if (g == 0 && first > 0 && ngroups > 1)
            target = first;
        int size = 0;
        while (idx < natoms) {
            int a = __builtin_popcountll(atom[idx]);
            int take = g == ngroups - 1 || size == 0 || size + a <= target ||
                       (size + a - target < target - size && size + a <= RDB_MAX_GROUP_BITS);
            if (!take)
                break;
            /* leave at least one atom for each later group */
            if (g < ngroups - 1 && size > 0 && natoms - idx <= ngroups - 1 - g)
                break;
            for (uint64_t m = atom[idx]; m; m &= m - 1)
                plan->order[nb++] = (uint8_t)__builtin_ctzll(m);
            size += a;
            idx++;
        }
        if (size == 0 || size > RDB_MAX_GROUP_BITS)
            return -1;
        plan->size[g] = size;
        remaining -= size;
    }
    return idx == natoms ? 0 : -1;
}

/* The plan for exactly `ngroups` groups. Symmetry is decided by group 0
 * alone, so how many positions are stored depends on which atoms group 0
 * gets and how large it is: a few candidate splits are built (class atoms
 * first or last; group 0 an equal share or as large as a group may be) and
 * the one storing the fewest positions wins, the first on a tie. The choice
 * depends only on the universe and ngroups, so reopening a database with
 * its recorded group count gives the same layout. Returns -1 when no
 * candidate is possible; *positions gets the winner's count. */
static int best_split(const rdb_universe *u, const uint64_t *atom, const int *has_class,
                      int natoms, int ngroups, rdb_layout_plan *plan, uint64_t *positions,
                      uint64_t *max_slice)
{
    int found = 0;
    for (int class_last = 0; class_last <= 1; class_last++) {
        uint64_t ordered[RDB_MAX_BITS];
        int n = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < natoms; i++)
                if (has_class[i] == (pass == class_last))
                    ordered[n++] = atom[i];
        for (int big_first = 0; big_first <= (ngroups > 1); big_first++) {
            rdb_layout_plan cand;
            int first = big_first ? RDB_MAX_GROUP_BITS : 0;
            if (split_atoms(ordered, natoms, u->nbits, ngroups, first, &cand) != 0)
                continue;
            rdb_layout lay;
            if (rdb_layout_build(u, &cand, &lay, NULL) != RDB_OK)
                continue;
            uint64_t total = rdb_layout_total_positions(&lay);
            uint64_t biggest = rdb_layout_max_slice(&lay);
            rdb_layout_free(&lay);
            if (!found || total < *positions) {
                *plan = cand;
                *positions = total;
                *max_slice = biggest;
                found = 1;
            }
        }
    }
    return found ? 0 : -1;
}

/* ---- the memo of plans ----
 *
 * rdb_layout_plan_groups is a function of its three arguments alone, and
 * a build asks it the same question about five times: each answer costs
 * up to four candidate layouts built whole (Icelandic 3x5's quiet build
 * spent 114 ms of its 2.2 s of CPU building 25 layouts, 20 of them
 * candidates asked for again). So the last few plans found are kept,
 * for the process, keyed by the whole question. Only plans found are
 * kept: a refusal is asked once and ends the command. */
#define PLAN_MEMO_SIZE 4

typedef struct {
    int used;
    rdb_universe u;
    int ngroups;
    uint64_t max_slice_bytes;
    rdb_layout_plan plan;
} plan_memo_entry;

static plan_memo_entry plan_memo[PLAN_MEMO_SIZE];
static int plan_memo_next;
static pthread_mutex_t plan_memo_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether two universes are the same, compared field by field (the
 * struct's padding and the rows past nbits and ntransforms are not
 * part of it). */
static int same_universe(const rdb_universe *a, const rdb_universe *b)
{
    if (a->nbits != b->nbits || a->ntransforms != b->ntransforms)
        return 0;
    for (int t = 0; t < a->ntransforms; t++)
        if (memcmp(a->transform[t], b->transform[t], (size_t)a->nbits) != 0)
            return 0;
    return memcmp(a->class_mask, b->class_mask, (size_t)a->nbits * sizeof a->class_mask[0]) == 0;
}

static int plan_memo_get(const rdb_universe *u, int ngroups, uint64_t max_slice_bytes,
                         rdb_layout_plan *plan)
{
    int found = 0;
    pthread_mutex_lock(&plan_memo_lock);
    for (int i = 0; i < PLAN_MEMO_SIZE && !found; i++) {
        const plan_memo_entry *e = &plan_memo[i];
        if (e->used && e->ngroups == ngroups && e->max_slice_bytes == max_slice_bytes &&
            same_universe(&e->u, u)) {
            *plan = e->plan;
            found = 1;
        }
    }
    pthread_mutex_unlock(&plan_memo_lock);
    return found;
}

static void plan_memo_put(const rdb_universe *u, int ngroups, uint64_t max_slice_bytes,
                          const rdb_layout_plan *plan)
{
    pthread_mutex_lock(&plan_memo_lock);
    plan_memo[plan_memo_next] = (plan_memo_entry){1, *u, ngroups, max_slice_bytes, *plan};
    plan_memo_next = (plan_memo_next + 1) % PLAN_MEMO_SIZE;
    pthread_mutex_unlock(&plan_memo_lock);
}

static rdb_status plan_groups(const rdb_universe *u, int ngroups, uint64_t max_slice_bytes,
                              rdb_layout_plan *plan, uint64_t *smallest, rdb_error *err);

rdb_status rdb_layout_plan_groups(const rdb_universe *u, int ngroups, uint64_t max_slice_bytes,
                                  rdb_layout_plan *plan, uint64_t *smallest, rdb_error *err)
{
    if (plan_memo_get(u, ngroups, max_slice_bytes, plan))
        return RDB_OK;
    memset(plan, 0, sizeof *plan);
    rdb_status st = plan_groups(u, ngroups, max_slice_bytes, plan, smallest, err);
    if (st == RDB_OK)
        plan_memo_put(u, ngroups, max_slice_bytes, plan);
    return st;
}

static rdb_status plan_groups(const rdb_universe *u, int ngroups, uint64_t max_slice_bytes,
                              rdb_layout_plan *plan, uint64_t *smallest, rdb_error *err)
{
    uint64_t least = UINT64_MAX;
    uint64_t atom[RDB_MAX_BITS], positions, biggest;
    int has_class[RDB_MAX_BITS];
    int natoms = find_atoms(u, atom, has_class);
    if (u->nbits == 0) {
        plan->ngroups = 0;
        return RDB_OK;
    }
    if (ngroups > 0) {
        if (ngroups > natoms || ngroups > RDB_MAX_GROUPS ||
            best_split(u, atom, has_class, natoms, ngroups, plan, &positions, &biggest) != 0)
            return rdb_fail(err, RDB_E_INPUT,
                            "cannot split %d bits in %d symmetric units into %d groups of at most %d bits",
                            u->nbits, natoms, ngroups, RDB_MAX_GROUP_BITS);
        return RDB_OK;
    }
    int lo = (u->nbits + RDB_MAX_GROUP_BITS - 1) / RDB_MAX_GROUP_BITS;
    if (lo < 2 && natoms >= 2)
        lo = 2;
    for (int g = lo; g <= natoms && g <= RDB_MAX_GROUPS; g++) {
        if (best_split(u, atom, has_class, natoms, g, plan, &positions, &biggest) != 0)
            continue;
        if (biggest <= max_slice_bytes)
            return RDB_OK;
        if (biggest < least)
            least = biggest;
    }
    if (smallest)
        *smallest = least;
    return rdb_fail(err, RDB_E_NOMEM,
                    "no split of %d bits into groups keeps a slice within %llu bytes; raise --memory",
                    u->nbits, (unsigned long long)max_slice_bytes);
}

/* ---- tables ---- */

static void reorder_universe(const rdb_universe *src, const uint8_t *order, rdb_universe *dst)
{
    uint8_t newpos[RDB_MAX_BITS];
    for (int i = 0; i < src->nbits; i++)
        newpos[order[i]] = (uint8_t)i;
    dst->nbits = src->nbits;
    dst->ntransforms = src->ntransforms;
    for (int i = 0; i < src->nbits; i++) {
        int old = order[i];
        for (int t = 0; t < src->ntransforms; t++)
            dst->transform[t][i] = newpos[src->transform[t][old]];
        uint64_t cm = 0;
        for (int j = 0; j < src->nbits; j++)
            if (src->class_mask[old] >> j & 1)
                cm |= 1ULL << newpos[j];
        dst->class_mask[i] = cm;
    }
}

static unsigned normalize_local(const uint16_t *cm, int n, unsigned s)
{
    unsigned out = 0, seen = 0;
    for (int b = 0; b < n; b++) {
        if (seen & cm[b])
            continue;
        seen |= cm[b];
        int taken = __builtin_popcount(s & cm[b]);
        for (unsigned m = cm[b]; taken > 0; taken--, m &= m - 1)
            out |= m & -m;
    }
    return out;
}

static void *xcalloc(size_t n, size_t size, int *failed)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        *failed = 1;
    return p;
}

rdb_status rdb_layout_build(const rdb_universe *u, const rdb_layout_plan *plan,
                            rdb_layout *lay, rdb_error *err)
{
    memset(lay, 0, sizeof *lay);
    reorder_universe(u, plan->order, &lay->u);
    lay->nbits = u->nbits;
    lay->ngroups = plan->ngroups;
    lay->ntransforms = u->ntransforms;
    int failed = 0, off = 0;
    for (int g = 0; g < lay->ngroups; g++) {
        int n = plan->size[g];
        assert(n >= 1 && n <= RDB_MAX_GROUP_BITS);
        lay->size[g] = n;
        lay->off[g] = off;
        unsigned nstates = 1u << n;
        uint16_t cm[RDB_MAX_GROUP_BITS];
        for (int b = 0; b < n; b++) {
            uint64_t m = lay->u.class_mask[off + b] >> off;
            assert((lay->u.class_mask[off + b] & ~(((1ULL << n) - 1) << off)) == 0);
            cm[b] = (uint16_t)m;
        }
        lay->norm[g] = xcalloc(nstates, sizeof(uint16_t), &failed);
        lay->rank[g] = xcalloc(nstates, sizeof(uint32_t), &failed);
        lay->moves[g] = xcalloc(nstates, sizeof(uint16_t), &failed);
        for (int t = 0; t < lay->ntransforms; t++)
            lay->perm[t][g] = xcalloc(nstates, sizeof(uint16_t), &failed);
        if (g == 0)
            lay->canon_t = xcalloc(nstates, 1, &failed);
        if (failed)
            goto nomem;

        /* A transform moves bits within the group, so the image of a state
         * is the OR of the images of its two bytes; groups without
         * interchangeable bits need no normalising. This keeps opening a
         * database (which builds these tables) to milliseconds. */
        int has_classes = 0;
        for (int b = 0; b < n; b++)
            has_classes |= cm[b] != 1u << b;
        uint16_t byte_image[RDB_MAX_TRANSFORMS][2][256];
        for (int t = 0; t < lay->ntransforms; t++)
            for (int half = 0; half < 2; half++)
                for (unsigned v = 0; v < 256; v++) {
                    unsigned p = 0;
                    for (int i = 0; i < 8; i++) {
                        int b = 8 * half + i;
                        if ((v >> i & 1) && b < n)
                            p |= 1u << (lay->u.transform[t][off + b] - off);
                    }
                    byte_image[t][half][v] = (uint16_t)p;
                }
        for (unsigned s = 0; s < nstates; s++)
            lay->norm[g][s] = (uint16_t)(has_classes ? normalize_local(cm, n, s) : s);
        for (unsigned s = 0; s < nstates; s++) {
            unsigned mv = ~s & (nstates - 1);
            if (has_classes) {
                mv = 0;
                for (int b = 0; b < n; b++)
                    if (!(s >> b & 1) && __builtin_ctz(~s & cm[b]) == b)
                        mv |= 1u << b;
            }
            lay->moves[g][s] = (uint16_t)mv;
            for (int t = 0; t < lay->ntransforms; t++) {
                unsigned p = byte_image[t][0][s & 255] | byte_image[t][1][s >> 8];
                lay->perm[t][g][s] = lay->norm[g][p];
            }
        }
        int valid_count[RDB_MAX_GROUP_BITS + 1] = {0};
        for (unsigned s = 0; s < nstates; s++) {
            int valid = lay->norm[g][s] == s;
            if (g == 0) {
                int best = 0;
                for (int t = 1; t < lay->ntransforms; t++)
                    if (lay->perm[t][0][s] < lay->perm[best][0][s])
                        best = t;
                lay->canon_t[s] = (uint8_t)best;
                valid = valid && best == 0;
            }
            int k = __builtin_popcount(s);
            lay->rank[g][s] = valid ? (uint32_t)valid_count[k]++ : UINT32_MAX;
        }
        for (int k = 0; k <= n; k++) {
            lay->count[g][k] = (uint32_t)valid_count[k];
            lay->states[g][k] = xcalloc((size_t)valid_count[k], sizeof(uint16_t), &failed);
        }
        if (failed)
            goto nomem;
        for (unsigned s = 0; s < nstates; s++)
            if (lay->rank[g][s] != UINT32_MAX)
                lay->states[g][__builtin_popcount(s)][lay->rank[g][s]] = (uint16_t)s;
        off += n;
    }
    assert(off == lay->nbits);

    if (lay->ngroups >= 2) {
        int inner = lay->ngroups - 1;
        for (int t = 0; t < lay->ntransforms; t++)
            for (int k = 0; k <= lay->size[inner]; k++) {
                uint32_t m = lay->count[inner][k];
                uint16_t *pr = lay->permrank[t][k] = xcalloc(m, sizeof(uint16_t), &failed);
                if (failed)
                    goto nomem;
                for (uint32_t r = 0; r < m; r++) {
                    unsigned img = lay->perm[t][inner][lay->states[inner][k][r]];
                    assert(lay->rank[inner][img] != UINT32_MAX);
                    pr[r] = (uint16_t)lay->rank[inner][img];
                }
            }
    }
    return RDB_OK;

nomem:
    rdb_layout_free(lay);
    return rdb_fail(err, RDB_E_NOMEM, "out of memory building layout tables");
}

void rdb_layout_free(rdb_layout *lay)
{
    for (int g = 0; g < RDB_MAX_GROUPS; g++) {
        free(lay->norm[g]);
        free(lay->rank[g]);
        free(lay->moves[g]);
        for (int k = 0; k <= RDB_MAX_GROUP_BITS; k++)
            free(lay->states[g][k]);
        for (int t = 0; t < RDB_MAX_TRANSFORMS; t++)
            free(lay->perm[t][g]);
    }
    for (int t = 0; t < RDB_MAX_TRANSFORMS; t++)
        for (int k = 0; k <= RDB_MAX_GROUP_BITS; k++)
            free(lay->permrank[t][k]);
    free(lay->canon_t);
    memset(lay, 0, sizeof *lay);
}

uint64_t rdb_layout_max_slice(const rdb_layout *lay)
{
    uint64_t prod = 1;
    for (int g = 0; g < lay->ngroups; g++) {
        uint32_t m = 0;
        for (int k = 0; k <= lay->size[g]; k++)
            if (lay->count[g][k] > m)
                m = lay->count[g][k];
        prod *= m;
    }
    return prod;
}

uint64_t rdb_layout_total_positions(const rdb_layout *lay)
{
    uint64_t prod = 1;
    for (int g = 0; g < lay->ngroups; g++) {
        uint64_t sum = 0;
        for (int k = 0; k <= lay->size[g]; k++)
            sum += lay->count[g][k];
        prod *= sum;
    }
    return prod;
}

uint64_t rdb_layout_canonical(const rdb_layout *lay, uint64_t pos)
{
    unsigned s[RDB_MAX_GROUPS];
    for (int g = 0; g < lay->ngroups; g++)
        s[g] = lay->norm[g][rdb_group_state(lay, g, pos)];
    int t = lay->ngroups ? lay->canon_t[s[0]] : 0;
    uint64_t out = 0;
    for (int g = 0; g < lay->ngroups; g++)
        out |= (uint64_t)(t ? lay->perm[t][g][s[g]] : s[g]) << lay->off[g];
    return out;
}

void rdb_slice_set_size(const rdb_layout *lay, rdb_slice *slice)
{
    uint64_t size = 1;
    int level = 0;
    for (int g = 0; g < lay->ngroups; g++) {
        size *= lay->count[g][slice->counts[g]];
        level += slice->counts[g];
    }
    slice->size = size;
    slice->level = level;
}

void rdb_layout_locate(const rdb_layout *lay, uint64_t canonical, rdb_slice *slice, uint64_t *index)
{
    uint64_t idx = 0;
    for (int g = 0; g < lay->ngroups; g++) {
        unsigned s = rdb_group_state(lay, g, canonical);
        int k = __builtin_popcount(s);
        slice->counts[g] = k;
        assert(lay->rank[g][s] != UINT32_MAX);
        idx = idx * lay->count[g][k] + lay->rank[g][s];
    }
    rdb_slice_set_size(lay, slice);
    *index = idx;
}

uint64_t rdb_layout_position(const rdb_layout *lay, const rdb_slice *slice, uint64_t index)
{
    uint64_t pos = 0;
    for (int g = lay->ngroups - 1; g >= 0; g--) {
        uint32_t m = lay->count[g][slice->counts[g]];
        pos |= (uint64_t)lay->states[g][slice->counts[g]][index % m] << lay->off[g];
        index /= m;
    }
    return pos;
}

static void enum_slices(const rdb_layout *lay, int g, int left, rdb_slice *cur,
                        rdb_slice *out, int *n)
{
    if (g == lay->ngroups) {
        if (left != 0)
            return;
        rdb_slice_set_size(lay, cur);
        if (cur->size == 0)
            return;
        if (out)
            out[*n] = *cur;
        (*n)++;
        return;
    }
    int rest = 0;
    for (int h = g + 1; h < lay->ngroups; h++)
        rest += lay->size[h];
    for (int k = 0; k <= lay->size[g] && k <= left; k++) {
        if (left - k > rest)
            continue;
        cur->counts[g] = k;
        enum_slices(lay, g + 1, left - k, cur, out, n);
    }
}

int rdb_level_slices(const rdb_layout *lay, int level, rdb_slice **out)
{
    rdb_slice cur;
    memset(&cur, 0, sizeof cur);
    int n = 0;
    enum_slices(lay, 0, level, &cur, NULL, &n);
    *out = NULL;
    if (n == 0)
        return 0;
    *out = malloc((size_t)n * sizeof **out);
    if (!*out)
        return -1;
    int m = 0;
    enum_slices(lay, 0, level, &cur, *out, &m);
    assert(m == n);
    return n;
}
