/*
 * test_layout.c — the layout module (src/layout/layout.c) on the universes of
 * several games (dots_game_init on 1x1, 1x3, 2x2, 2x3, 3x3, Swedish 2x2 and
 * 3x3, Icelandic 2x3), each with the planner's own group count and with 1,
 * 2 and 3 groups forced where the planner accepts them:
 *   - the universe itself against geometry worked out independently (its
 *     transforms are exactly the board symmetries that keep the start, its
 *     classes exactly the lines that touch the same boxes);
 *   - the plan is a permutation of the bits into groups closed under the
 *     transforms and the classes;
 *   - rank/unrank round trip for every valid state of every group and
 *     count, validity recomputed by brute force;
 *   - locate/position round trip for every index of every slice, and the
 *     slice sizes add up to rdb_layout_total_positions;
 *   - canonical form: same popcount, idempotent, the same for every
 *     permutation within interchangeable classes, a normalised transform
 *     of the position with the smallest possible group 0, and the same for
 *     every transform of the position whenever that choice is unique;
 *   - on small universes every position has its canonical form stored,
 *     the canonical forms are exactly the stored positions, and the naive
 *     solver gives a position and its canonical form the same value;
 *   - the plans kept for the process: the same answers again, never
 *     another universe's, group count's or budget's.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dots/dots_rules.h"
#include "layout/layout.h"
#include "test_util.h"

typedef struct {
    int rows, cols;
    int variant; /* 0 empty, 1 swedish, 2 icelandic */
} universe_case;

static const universe_case cases[] = {
    {1, 1, 0}, {1, 3, 0}, {2, 2, 0}, {2, 3, 0}, {3, 3, 0}, {2, 2, 1}, {3, 3, 1}, {2, 3, 2},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))
static const int group_counts[] = {0, 1, 2, 3};
#define NCOUNTS 4

typedef struct {
    dots_game game;
    rdb_layout_plan plan;
    rdb_layout lay;
    uint64_t start;
    int line[64]; /* layout bit -> line */
} fixture;

static uint64_t case_start(const universe_case *c)
{
    return c->variant == 1 ? tu_border(c->rows, c->cols)
           : c->variant == 2 ? tu_icelandic(c->rows, c->cols)
                             : 0;
}

/* Set up case c with ngroups (0 = the planner's choice); returns 0 when
 * the planner refuses a forced count. */
static int setup(const universe_case *c, int ngroups, fixture *fx)
{
    rdb_error err;
    dots_board b;
    memset(fx, 0, sizeof *fx);
    TU_ASSERT_EQ(dots_board_init(&b, c->rows, c->cols, &err), RDB_OK);
    fx->start = case_start(c);
    rdb_error gerr;
    ck_assert_int_eq(dots_game_init(&fx->game, &b, fx->start, 0, 0, &gerr), RDB_OK);
    rdb_status st = rdb_layout_plan_groups(&fx->game.u, ngroups, UINT64_MAX, &fx->plan, NULL, &err);
    if (ngroups > 0 && st == RDB_E_INPUT)
        return 0;
    TU_ASSERT_MSG(st == RDB_OK, "%dx%d/%d groups %d: %s", c->rows, c->cols, c->variant, ngroups,
                  err.msg);
    if (ngroups > 0)
        TU_ASSERT_EQ(fx->plan.ngroups, ngroups);
    st = rdb_layout_build(&fx->game.u, &fx->plan, &fx->lay, &err);
    TU_ASSERT_MSG(st == RDB_OK, "layout build: %s", err.msg);
    for (int i = 0; i < fx->game.nbits; i++)
        fx->line[i] = fx->game.bit_line[fx->plan.order[i]];
    return 1;
}

/* ---- brute-force versions of transform and normalisation ---- */

static uint64_t my_transform(const rdb_universe *u, int t, uint64_t pos)
{
    uint64_t out = 0;
    for (int i = 0; i < u->nbits; i++)
        if (pos >> i & 1)
            out |= 1ULL << u->transform[t][i];
    return out;
}

static uint64_t my_normalize(const rdb_universe *u, uint64_t pos)
{
    uint64_t out = 0;
    for (int i = 0; i < u->nbits; i++) {
        uint64_t cm = u->class_mask[i];
        if (__builtin_ctzll(cm) != i)
            continue; /* handle each class once, at its lowest bit */
        int taken = __builtin_popcountll(pos & cm);
        for (uint64_t m = cm; taken > 0; taken--, m &= m - 1)
            out |= m & -m;
    }
    return out;
}

static uint64_t group_mask(const rdb_layout *lay, int g)
{
    return ((1ULL << lay->size[g]) - 1) << lay->off[g];
}

static uint64_t lines_of(const fixture *fx, uint64_t pos)
{
    uint64_t lines = fx->start;
    for (int i = 0; i < fx->game.nbits; i++)
        if (pos >> i & 1)
            lines |= 1ULL << fx->line[i];
    return lines;
}

static uint64_t all_bits(int n)
{
    return n == 64 ? ~0ULL : (1ULL << n) - 1;
}

/* Boxes (as a bit set) a line is a side of, from the naive geometry. */
static uint64_t line_boxes(const naive_board *nb, int l)
{
    uint64_t m = 0;
    for (int k = 0; k < nb->line_nbox[l]; k++)
        m |= 1ULL << nb->line_box[l][k];
    return m;
}

#define FOR_EACH_LAYOUT(fx)                                                          \
    for (int ci = 0; ci < NCASES; ci++)                                              \
        for (int gi = 0; gi < NCOUNTS; gi++)                                         \
            if (setup(&cases[ci], group_counts[gi], &(fx)) && (accepted[ci]++, 1))

START_TEST(test_universe)
{
    for (int ci = 0; ci < NCASES; ci++) {
        const universe_case *c = &cases[ci];
        fixture fx;
        TU_ASSERT(setup(c, 0, &fx));
        const rdb_universe *u = &fx.lay.u;
        int n = fx.game.nbits;
        naive_board nb;
        naive_board_init(&nb, c->rows, c->cols);
        TU_ASSERT_EQ(n, nb.nlines - __builtin_popcountll(fx.start));
        /* every open line has exactly one layout bit */
        uint64_t lines = 0;
        for (int i = 0; i < n; i++)
            lines |= 1ULL << fx.line[i];
        TU_ASSERT(lines == (all_bits(nb.nlines) & ~fx.start));
        /* transforms: the geometric symmetries that keep the start */
        uint8_t geo[8][64];
        int ngeo = naive_symmetries(c->rows, c->cols, geo), keep = 0;
        int used[8] = {0};
        for (int g = 0; g < ngeo; g++) {
            uint64_t img = 0;
            for (int l = 0; l < nb.nlines; l++)
                if (fx.start >> l & 1)
                    img |= 1ULL << geo[g][l];
            keep += img == fx.start;
        }
        TU_ASSERT_EQ(u->ntransforms, keep);
        for (int i = 0; i < n; i++)
            TU_ASSERT_EQ(u->transform[0][i], i);
        for (int t = 0; t < u->ntransforms; t++) {
            int found = -1;
            for (int g = 0; g < ngeo && found < 0; g++) {
                int ok = !used[g];
                for (int i = 0; i < n && ok; i++)
                    ok = geo[g][fx.line[i]] == fx.line[u->transform[t][i]];
                if (ok)
                    found = g;
            }
            TU_ASSERT_MSG(found >= 0, "%dx%d/%d: transform %d is no board symmetry", c->rows,
                          c->cols, c->variant, t);
            used[found] = 1;
        }
        /* classes: lines with the same boxes */
        for (int i = 0; i < n; i++) {
            uint64_t want = 0;
            for (int j = 0; j < n; j++)
                if (line_boxes(&nb, fx.line[j]) == line_boxes(&nb, fx.line[i]))
                    want |= 1ULL << j;
            TU_ASSERT_MSG(u->class_mask[i] == want, "%dx%d/%d: class of bit %d", c->rows, c->cols,
                          c->variant, i);
        }
        rdb_layout_free(&fx.lay);
    }
}
END_TEST

START_TEST(test_plan)
{
    int accepted[NCASES] = {0};
    fixture fx;
    FOR_EACH_LAYOUT(fx)
    {
        const rdb_layout *lay = &fx.lay;
        int n = fx.game.nbits;
        TU_ASSERT_EQ(lay->nbits, n);
        uint64_t seen = 0;
        for (int i = 0; i < n; i++) {
            TU_ASSERT((fx.plan.order[i]) < (n));
            seen |= 1ULL << fx.plan.order[i];
        }
        TU_ASSERT(seen == all_bits(n));
        int off = 0;
        for (int g = 0; g < lay->ngroups; g++) {
            TU_ASSERT_EQ(lay->off[g], off);
            TU_ASSERT(lay->size[g] >= 1 && lay->size[g] <= RDB_MAX_GROUP_BITS);
            off += lay->size[g];
            uint64_t gm = group_mask(lay, g);
            for (int i = lay->off[g]; i < off; i++) {
                TU_ASSERT((lay->u.class_mask[i] & ~gm) == 0);
                for (int t = 0; t < lay->ntransforms; t++)
                    TU_ASSERT(gm >> lay->u.transform[t][i] & 1);
            }
        }
        TU_ASSERT_EQ(off, n);
        rdb_layout_free(&fx.lay);
    }
    for (int ci = 0; ci < NCASES; ci++)
        TU_ASSERT_MSG(accepted[ci] >= 2, "case %d: no forced group count accepted", ci);
    /* 24 bits never fit one group of at most 16 */
    TU_ASSERT(!setup(&cases[4], 1, &fx));
}
END_TEST

/* Whether state s of group g is valid, by brute force. */
static int valid_state(const rdb_layout *lay, int g, unsigned s)
{
    uint64_t pos = (uint64_t)s << lay->off[g];
    if (my_normalize(&lay->u, pos) != pos)
        return 0;
    if (g == 0)
        for (int t = 1; t < lay->ntransforms; t++)
            if (my_normalize(&lay->u, my_transform(&lay->u, t, pos)) < pos)
                return 0;
    return 1;
}

START_TEST(test_rank)
{
    int accepted[NCASES] = {0};
    fixture fx;
    FOR_EACH_LAYOUT(fx)
    {
        const rdb_layout *lay = &fx.lay;
        for (int g = 0; g < lay->ngroups; g++) {
            int n = lay->size[g];
            uint32_t count[RDB_MAX_GROUP_BITS + 1] = {0};
            for (unsigned s = 0; s < 1u << n; s++) {
                uint64_t pos = (uint64_t)s << lay->off[g];
                TU_ASSERT_EQ(lay->norm[g][s], my_normalize(&lay->u, pos) >> lay->off[g]);
                int valid = valid_state(lay, g, s);
                if (valid)
                    count[__builtin_popcount(s)]++;
                TU_ASSERT_MSG(valid == (lay->rank[g][s] != UINT32_MAX),
                              "case %d groups %d: group %d state 0x%x valid %d, rank %u", ci,
                              lay->ngroups, g, s, valid, lay->rank[g][s]);
            }
            for (int k = 0; k <= n; k++) {
                TU_ASSERT_EQ(lay->count[g][k], count[k]);
                for (uint32_t r = 0; r < count[k]; r++) {
                    unsigned s = lay->states[g][k][r];
                    TU_ASSERT_EQ(__builtin_popcount(s), k);
                    TU_ASSERT((s) < (1u << n));
                    TU_ASSERT_EQ(lay->rank[g][s], r);
                }
            }
        }
        rdb_layout_free(&fx.lay);
    }
}
END_TEST

START_TEST(test_locate)
{
    int accepted[NCASES] = {0};
    fixture fx;
    FOR_EACH_LAYOUT(fx)
    {
        const rdb_layout *lay = &fx.lay;
        uint64_t total = 0;
        for (int level = 0; level <= lay->nbits; level++) {
            rdb_slice *sl;
            int ns = rdb_level_slices(lay, level, &sl);
            TU_ASSERT((ns) >= (1)); /* every level has a position */
            for (int i = 0; i < ns; i++) {
                const rdb_slice *s = &sl[i];
                TU_ASSERT_EQ(s->level, level);
                uint64_t size = 1;
                int sum = 0;
                for (int g = 0; g < lay->ngroups; g++) {
                    size *= lay->count[g][s->counts[g]];
                    sum += s->counts[g];
                }
                TU_ASSERT_EQ(sum, level);
                TU_ASSERT_EQ(s->size, size);
                TU_ASSERT((s->size) > (0));
                if (i > 0) /* lexicographic, no repeats */
                    TU_ASSERT(memcmp(sl[i - 1].counts, s->counts, sizeof s->counts) != 0);
                total += s->size;
                for (uint64_t idx = 0; idx < s->size; idx++) {
                    uint64_t pos = rdb_layout_position(lay, s, idx);
                    TU_ASSERT_EQ(__builtin_popcountll(pos), level);
                    for (int g = 0; g < lay->ngroups; g++)
                        TU_ASSERT_EQ(__builtin_popcountll(pos & group_mask(lay, g)),
                                         s->counts[g]);
                    TU_ASSERT_MSG(rdb_layout_canonical(lay, pos) == pos,
                                  "stored position 0x%llx is not canonical",
                                  (unsigned long long)pos);
                    rdb_slice back;
                    uint64_t bidx;
                    rdb_layout_locate(lay, pos, &back, &bidx);
                    TU_ASSERT_EQ(bidx, idx);
                    TU_ASSERT_EQ(back.level, level);
                    TU_ASSERT_EQ(back.size, s->size);
                    for (int g = 0; g < lay->ngroups; g++)
                        TU_ASSERT_EQ(back.counts[g], s->counts[g]);
                }
            }
            free(sl);
        }
        TU_ASSERT_EQ(total, rdb_layout_total_positions(lay));
        uint64_t maxs = 0;
        for (int level = 0; level <= lay->nbits; level++) {
            rdb_slice *sl;
            int ns = rdb_level_slices(lay, level, &sl);
            for (int i = 0; i < ns; i++)
                if (sl[i].size > maxs)
                    maxs = sl[i].size;
            free(sl);
        }
        TU_ASSERT((maxs) <= (rdb_layout_max_slice(lay)));
        rdb_layout_free(&fx.lay);
    }
}
END_TEST

/* Random permutation within every class. */
static uint64_t shuffle_classes(const rdb_universe *u, uint64_t pos, uint64_t *state)
{
    uint64_t out = 0;
    for (int i = 0; i < u->nbits; i++) {
        uint64_t cm = u->class_mask[i];
        if (__builtin_ctzll(cm) != i)
            continue;
        int bits[64], n = 0;
        for (uint64_t m = cm; m; m &= m - 1)
            bits[n++] = __builtin_ctzll(m);
        for (int k = n - 1; k > 0; k--) {
            int j = (int)(naive_rand(state) % (uint64_t)(k + 1));
            int t = bits[k];
            bits[k] = bits[j];
            bits[j] = t;
        }
        /* bit number k of the class goes to bits[k] */
        int k = 0;
        for (uint64_t m = cm; m; m &= m - 1, k++)
            if (pos >> __builtin_ctzll(m) & 1)
                out |= 1ULL << bits[k];
    }
    return out;
}

/* Check the canonical form of pos; returns 1 when the choice of image was
 * unique (then every transform must give the very same form). */
static int check_canonical(const fixture *fx, uint64_t pos, uint64_t *state)
{
    const rdb_layout *lay = &fx->lay;
    const rdb_universe *u = &lay->u;
    uint64_t g0 = group_mask(lay, 0);
    uint64_t can = rdb_layout_canonical(lay, pos);
    TU_ASSERT_EQ(__builtin_popcountll(can), __builtin_popcountll(pos));
    TU_ASSERT(rdb_layout_canonical(lay, can) == can);

    uint64_t img[RDB_MAX_TRANSFORMS], min0 = UINT64_MAX;
    for (int t = 0; t < u->ntransforms; t++) {
        img[t] = my_normalize(u, my_transform(u, t, pos));
        if ((img[t] & g0) < min0)
            min0 = img[t] & g0;
    }
    int found = 0, unique = 1;
    uint64_t first = 0;
    for (int t = 0; t < u->ntransforms; t++) {
        if ((img[t] & g0) != min0)
            continue;
        if (!found)
            first = img[t];
        else if (img[t] != first)
            unique = 0;
        found |= img[t] == can;
    }
    TU_ASSERT_MSG(found, "canonical 0x%llx of 0x%llx is no smallest normalised image",
                  (unsigned long long)can, (unsigned long long)pos);
    for (int t = 0; t < u->ntransforms; t++) {
        uint64_t c2 = rdb_layout_canonical(lay, img[t]);
        if (unique)
            TU_ASSERT_MSG(c2 == can, "0x%llx: canonical 0x%llx, of its transform %d: 0x%llx",
                          (unsigned long long)pos, (unsigned long long)can, t,
                          (unsigned long long)c2);
        else {
            int ok = 0;
            for (int v = 0; v < u->ntransforms; v++)
                ok |= (img[v] & g0) == min0 && img[v] == c2;
            TU_ASSERT(ok);
        }
        uint64_t c3 = rdb_layout_canonical(lay, my_transform(u, t, pos));
        if (unique)
            TU_ASSERT(c3 == can);
    }
    for (int k = 0; k < 4; k++)
        TU_ASSERT(rdb_layout_canonical(lay, shuffle_classes(u, pos, state)) == can);
    return unique;
}

START_TEST(test_canonical)
{
    int accepted[NCASES] = {0};
    fixture fx;
    uint64_t state = 0xC0FFEE;
    long unique = 0, checked = 0;
    FOR_EACH_LAYOUT(fx)
    {
        const rdb_layout *lay = &fx.lay;
        int n = lay->nbits;
        if (n <= 12)
            for (uint64_t pos = 0; pos < 1ULL << n; pos++, checked++)
                unique += check_canonical(&fx, pos, &state);
        else
            for (int k = 0; k < 4000; k++, checked++) {
                uint64_t pos = naive_random_position(&state, n, 0);
                unique += check_canonical(&fx, pos, &state);
            }
        rdb_layout_free(&fx.lay);
    }
    /* the strict equality must have been exercised on most positions */
    TU_ASSERT((unique) > (checked / 2));
}
END_TEST

/* Small universes: every position's canonical form is stored, the forms
 * are exactly the stored positions, and hold the same naive value. */
START_TEST(test_cover)
{
    int accepted[NCASES] = {0};
    fixture fx;
    FOR_EACH_LAYOUT(fx)
    {
        const rdb_layout *lay = &fx.lay;
        int n = lay->nbits;
        if (n <= 17) {
            naive_dots nv;
            const universe_case *c = &cases[ci];
            TU_ASSERT_EQ(naive_solve(&nv, c->rows, c->cols, fx.start, 0), 0);
            uint8_t *mark = calloc((size_t)1 << n, 1);
            TU_ASSERT(mark != NULL);
            uint64_t distinct = 0;
            for (uint64_t pos = 0; pos < 1ULL << n; pos++) {
                uint64_t can = rdb_layout_canonical(lay, pos);
                rdb_slice s;
                uint64_t idx;
                rdb_layout_locate(lay, can, &s, &idx);
                TU_ASSERT((idx) < (s.size));
                TU_ASSERT(rdb_layout_position(lay, &s, idx) == can);
                if (!mark[can]) {
                    mark[can] = 1;
                    distinct++;
                }
                int v1 = naive_value(&nv, lines_of(&fx, pos)), v2 = naive_value(&nv, lines_of(&fx, can));
                TU_ASSERT_MSG(v1 == v2, "case %d: position 0x%llx (value %d) and its canonical form "
                                        "0x%llx (value %d)",
                              ci, (unsigned long long)pos, v1, (unsigned long long)can, v2);
            }
            TU_ASSERT_EQ(distinct, rdb_layout_total_positions(lay));
            free(mark);
            naive_free(&nv);
        }
        rdb_layout_free(&fx.lay);
    }
}
END_TEST

/* A universe of n bits with no symmetry but the identity, bits a and b
 * interchangeable when a != b. */
static rdb_universe plain_universe(int n, int a, int b)
{
    rdb_universe u;
    memset(&u, 0, sizeof u);
    u.nbits = n;
    u.ntransforms = 1;
    for (int i = 0; i < n; i++) {
        u.transform[0][i] = (uint8_t)i;
        u.class_mask[i] = 1ULL << i;
    }
    if (a != b)
        u.class_mask[a] = u.class_mask[b] = 1ULL << a | 1ULL << b;
    return u;
}

/* The group of original bit `bit` under a plan. */
static int group_of_bit(const rdb_layout_plan *plan, int bit)
{
    int i = 0, off = 0;
    while (plan->order[i] != bit)
        i++;
    for (int g = 0;; off += plan->size[g++])
        if (i < off + plan->size[g])
            return g;
}

/* The plans are kept for the process (a build asks for one five times):
 * every answer, first or kept, is the one the question asks, through
 * more questions than the memo holds, and two universes of as many bits,
 * or one asked for other group counts or budgets, are never confused. */
START_TEST(test_plan_memo)
{
    rdb_layout_plan first[NCASES][NCOUNTS];
    int ok[NCASES][NCOUNTS];
    for (int pass = 0; pass < 3; pass++)
        for (int ci = 0; ci < NCASES; ci++)
            for (int gi = 0; gi < NCOUNTS; gi++) {
                dots_board b;
                dots_game game;
                rdb_error err;
                rdb_layout_plan plan;
                TU_ASSERT_EQ(dots_board_init(&b, cases[ci].rows, cases[ci].cols, &err), RDB_OK);
                TU_ASSERT_EQ(dots_game_init(&game, &b, case_start(&cases[ci]), 0, 0, &err), RDB_OK);
                memset(&plan, 0xa5, sizeof plan);
                const int st = rdb_layout_plan_groups(&game.u, group_counts[gi], UINT64_MAX, &plan,
                                                      NULL, &err) == RDB_OK;
                if (pass == 0) {
                    ok[ci][gi] = st;
                    first[ci][gi] = plan;
                }
                TU_ASSERT_EQ(st, ok[ci][gi]);
                if (!st)
                    continue;
                TU_ASSERT_EQ(plan.ngroups, first[ci][gi].ngroups);
                TU_ASSERT(memcmp(plan.size, first[ci][gi].size,
                                 (size_t)plan.ngroups * sizeof plan.size[0]) == 0);
                TU_ASSERT(memcmp(plan.order, first[ci][gi].order, (size_t)game.nbits) == 0);
                /* the same question at once: from the memo */
                rdb_layout_plan again;
                TU_ASSERT_EQ(rdb_layout_plan_groups(&game.u, group_counts[gi], UINT64_MAX, &again,
                                                    NULL, &err),
                             RDB_OK);
                TU_ASSERT(memcmp(again.order, plan.order, (size_t)game.nbits) == 0);
            }

    /* 20 bits, two groups: with bits 0 and 19 interchangeable they share
     * a group; without, they do not (the order is the bits' own) */
    rdb_universe joined = plain_universe(20, 0, 19), apart = plain_universe(20, 0, 0);
    rdb_layout_plan plan;
    rdb_error err;
    for (int round = 0; round < 2; round++) {
        TU_ASSERT_EQ(rdb_layout_plan_groups(&apart, 2, UINT64_MAX, &plan, NULL, &err), RDB_OK);
        TU_ASSERT(group_of_bit(&plan, 0) != group_of_bit(&plan, 19));
        TU_ASSERT_EQ(rdb_layout_plan_groups(&joined, 2, UINT64_MAX, &plan, NULL, &err), RDB_OK);
        TU_ASSERT_EQ(group_of_bit(&plan, 0), group_of_bit(&plan, 19));
    }
    /* the group count and the budget are part of the question */
    TU_ASSERT_EQ(rdb_layout_plan_groups(&apart, 3, UINT64_MAX, &plan, NULL, &err), RDB_OK);
    TU_ASSERT_EQ(plan.ngroups, 3);
    TU_ASSERT_EQ(rdb_layout_plan_groups(&apart, 0, UINT64_MAX, &plan, NULL, &err), RDB_OK);
    const int most = plan.ngroups;
    TU_ASSERT_EQ(rdb_layout_plan_groups(&apart, 0, 1u << 12, &plan, NULL, &err), RDB_OK);
    TU_ASSERT(plan.ngroups > most);
    /* a refusal is not kept as an answer */
    TU_ASSERT_EQ(rdb_layout_plan_groups(&apart, 0, 1, &plan, NULL, &err), RDB_E_NOMEM);
    TU_ASSERT_EQ(rdb_layout_plan_groups(&apart, 0, 1, &plan, NULL, &err), RDB_E_NOMEM);
}
END_TEST

Suite *layout_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *tc = tcase_create("layout");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_universe);
    tcase_add_test(tc, test_plan);
    tcase_add_test(tc, test_rank);
    tcase_add_test(tc, test_locate);
    tcase_add_test(tc, test_canonical);
    tcase_add_test(tc, test_cover);
    tcase_add_test(tc, test_plan_memo);
    suite_add_tcase(s, tc);
    return s;
}
