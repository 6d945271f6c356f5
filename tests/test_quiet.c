/*
 * test_quiet.c — the quiet database against the naive reference solver
 * and the full database.
 *
 *  - The index: every stored position has the index it is enumerated at,
 *    is quiet, and is the canonical image of some raw quiet position (no
 *    index is wasted); the canonical image of every raw quiet position is
 *    stored, at its own level (2x2, 2x3, 3x3, 2x4, Swedish and Icelandic
 *    3x3, 1xn); every child is ranked as the builder ranks it, from the
 *    position before, from the enumeration's path, and through the memo
 *    of first rows' sums, each against the rank from the position.
 *  - The values: every position, quiet or not, of 2x2, 2x3, 3x3, 2x4 and
 *    Swedish and Icelandic 3x3 (with last-move penalties on some) has the
 *    naive solver's value, and so every move of every position its value;
 *    move values are also compared directly on 2x2 and 2x3.
 *  - 3x4 (31 lines, beyond the naive table): the stored positions of one
 *    frame state in 97 at every level (all of them at the first and last
 *    levels) and random positions of every kind against the full
 *    database, through the probe; and the levels built through a cache
 *    that keeps nothing equal those built through one that keeps all.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dots/dots_quiet_db.h"
#include "dots/dots_quiet_index.h"
#include "retrodb/probe.h"
#include "test_util.h"

static uint64_t start_of(const dots_board *b, int variant)
{
    return variant == 1 ? dots_border_lines(b) : variant == 2 ? dots_icelandic_lines(b) : 0;
}

/* ---- the index ---- */

typedef struct {
    const dots_quiet_index *q;
    uint64_t all, open, expected;
    int class; /* the slot's, in a split index */
    int slot;
    uint64_t seed;
    long bad, children, bad_paths, heads, bad_memo, memo_ranks, direct, bad_direct;
    /* the children by frame lines canonical as they are, ranked from the
     * positions' entries as a builder ranks them: each line's sums kept
     * from its child before, from the first step changed since */
    uint64_t direct_sum[DOTS_MAX_LINES][DOTS_QUIET_MAX_STEPS + 1];
    int direct_from[DOTS_MAX_LINES];
    dots_quiet_ranker by_line[DOTS_MAX_LINES], pairs, leaves;
    /* the same children through the memo of first rows' sums, with a
     * memo shared by all the lines' rankers, as a builder's thread has */
    dots_quiet_ranker by_line_memo[DOTS_MAX_LINES];
    dots_quiet_memo *memo;
} enum_check;

/* An enum_check for index q at its start, its rankers empty, with a
 * memo (which may hold entries of other levels: its keys say which). */
static void enum_check_init(enum_check *c, const dots_quiet_index *q, uint64_t all, uint64_t open,
                            dots_quiet_memo *memo)
{
    memset(c, 0, sizeof *c);
    c->q = q;
    c->all = all;
    c->open = open;
    for (int l = 0; l < DOTS_MAX_LINES; l++) {
        dots_quiet_ranker_init(&c->by_line[l]);
        dots_quiet_ranker_init(&c->by_line_memo[l]);
    }
    dots_quiet_ranker_init(&c->pairs);
    dots_quiet_ranker_init(&c->leaves);
    c->memo = memo;
}

/* A canonical position ranked through the memo by rk. */
static uint64_t rank_memo(enum_check *c, dots_quiet_ranker *rk, uint64_t canonical)
{
    const int slot =
        dots_quiet_frame_slot(c->q, canonical, dots_quiet_split(c->q) ? dots_quiet_class(c->q, canonical) : 0);
    c->memo_ranks++;
    return dots_quiet_rank_memo(c->q, rk, c->memo, canonical, slot,
                                __builtin_popcountll(canonical & c->open));
}

static void check_enumerated(void *ctx, uint64_t index, uint64_t lines, const dots_quiet_path *path)
{
    enum_check *c = ctx;
    uint32_t entry[DOTS_QUIET_MAX_STEPS];
    const int changed = dots_quiet_path_entries(c->q, path, entry);
    for (int l = 0; l < DOTS_MAX_LINES; l++)
        if (changed < c->direct_from[l])
            c->direct_from[l] = changed;
    if (index != c->expected++ || dots_quiet_rank(c->q, lines) != index ||
        !dots_quiet_is_quiet(c->q, lines) ||
        (dots_quiet_split(c->q) && dots_quiet_class(c->q, lines) != c->class))
        c->bad++;
    /* the children by every line, each ranked from the child by the same
     * line of the position before, as the builder ranks them; those by
     * inside lines, and by two of them, are canonical as they are */
    for (uint64_t m = c->all & ~lines; m; m &= m - 1) {
        const uint64_t child = lines | (m & -m);
        if (dots_quiet_is_quiet(c->q, child)) {
            const uint64_t canonical = dots_quiet_canonical(c->q, child);
            const uint64_t inside = dots_quiet_inside_lines(c->q), drawn = canonical & ~lines;
            dots_quiet_ranker *rk = &c->by_line[__builtin_ctzll(m)];
            uint64_t r;
            c->children++;
            if ((canonical & lines) == lines && __builtin_popcountll(drawn) == 1 && !(drawn & inside)) {
                /* a frame line more, the inside as it is: the position's
                 * tail, and the head from the child ranked before */
                const int cut = dots_quiet_cut(c->q, drawn);
                r = dots_quiet_rank_head(c->q, rk, canonical, cut,
                                         dots_quiet_path_tail(c->q, path, cut));
                c->heads++;
                if (canonical == child) {
                    const int line = __builtin_ctzll(m), class = dots_quiet_slot_class(c->q, c->slot);
                    const int child_slot = dots_quiet_frame_slot(c->q, canonical, class);
                    dots_quiet_frame_child fc;
                    const int last = dots_quiet_frame_child_steps(c->q, c->slot, child_slot, line, &fc);
                    TU_ASSERT_EQ(cut, last + 1);
                    TU_ASSERT_EQ(fc.frame_part, canonical & ~dots_quiet_inside_lines(c->q));
                    /* one child at a time, the sums kept from the call before */
                    const int16_t who = 0;
                    const int8_t from = (int8_t)c->direct_from[line];
                    const uint64_t tail = dots_quiet_path_tail(c->q, path, cut);
                    uint64_t direct;
                    dots_quiet_frame_children_rank(c->q, &fc, __builtin_popcountll(canonical & c->open),
                                                   c->direct_sum[line], 1, &who, &from,
                                                   (const uint32_t(*)[DOTS_QUIET_MAX_STEPS])entry,
                                                   &lines, &tail, &direct);
                    c->direct_from[line] = last + 1;
                    c->direct++;
                    if (direct != dots_quiet_rank(c->q, canonical)) {
                        c->bad++;
                        c->bad_direct++;
                    }
                }
            } else {
                r = dots_quiet_rank_next(c->q, rk, canonical);
            }
            if (r != dots_quiet_rank(c->q, canonical) ||
                ((m & -m & dots_quiet_inside_lines(c->q)) && canonical != child))
                c->bad++;
            if (rank_memo(c, &c->by_line_memo[__builtin_ctzll(m)], canonical) !=
                dots_quiet_rank(c->q, canonical)) {
                c->bad++;
                c->bad_memo++;
            }
            /* and those by inside lines from the enumeration's path */
            int slot;
            if ((m & -m & dots_quiet_inside_lines(c->q)) &&
                (dots_quiet_inside_rank(c->q, path, lines, m & -m, &slot) !=
                     dots_quiet_rank(c->q, child) ||
                 slot != c->slot)) {
                c->bad++;
                c->bad_paths++;
            }
        }
        for (uint64_t m2 = m & (m - 1) & dots_quiet_inside_lines(c->q); m2; m2 &= m2 - 1) {
            const uint64_t grandchild = child | (m2 & -m2);
            if (!(m & -m & dots_quiet_inside_lines(c->q)) || !dots_quiet_is_quiet(c->q, grandchild))
                continue;
            c->children++;
            /* one ranker both ways in turn: after the memo, a rank from
             * the position before does not trust the entries it skipped */
            const uint64_t r = (c->children & 1) ? rank_memo(c, &c->pairs, grandchild)
                                        : dots_quiet_rank_next(c->q, &c->pairs, grandchild);
            if (dots_quiet_canonical(c->q, grandchild) != grandchild ||
                r != dots_quiet_rank(c->q, grandchild))
                c->bad++;
        }
    }
    /* positions with several lines more, frame lines among them, whose
     * canonical form holds the position's lines: ranked from its tail
     * (where runs of captures through the frame end) */
    for (int j = 0; j < 6; j++) {
        c->seed = c->seed * 6364136223846793005ULL + 1442695040888963407ULL;
        const uint64_t added = c->all & ~lines & (c->seed >> 11) & (c->seed >> 37);
        const uint64_t more = lines | added;
        if (!added || !dots_quiet_is_quiet(c->q, more))
            continue;
        const uint64_t canonical = dots_quiet_canonical(c->q, more);
        if ((canonical & lines) != lines)
            continue;
        const int cut = dots_quiet_cut(c->q, canonical & ~lines);
        c->children++;
        c->heads++;
        /* and in turn whole through the memo, by the same ranker (as the
         * builder ranks the leaves of corridors) */
        const uint64_t r = (j & 1) ? dots_quiet_rank_next_memo(c->q, &c->leaves, c->memo, canonical)
                                   : dots_quiet_rank_head(c->q, &c->leaves, canonical, cut,
                                                          dots_quiet_path_tail(c->q, path, cut));
        if (r != dots_quiet_rank(c->q, canonical))
            c->bad++;
    }
    /* positions with several inside lines more, some completing boxes
     * (where runs of captures end), ranked from the path: a few random
     * sets of the open inside lines */
    const uint64_t open_inside = dots_quiet_inside_lines(c->q) & ~lines;
    const int frames = dots_quiet_frames(c->q) >> dots_quiet_split(c->q);
    for (int j = 0; j < 6 && open_inside; j++) {
        c->seed = c->seed * 6364136223846793005ULL + 1442695040888963407ULL;
        const uint64_t added = open_inside & (c->seed >> 7) & (j & 1 ? c->seed >> 29 : ~0ULL);
        const uint64_t more = lines | added;
        if (!added || !dots_quiet_is_quiet(c->q, more))
            continue;
        const int want_slot = c->slot % frames + (dots_quiet_split(c->q) ? dots_quiet_class(c->q, more) * frames : 0);
        int slot;
        c->children++;
        if (dots_quiet_inside_rank(c->q, path, lines, added, &slot) != dots_quiet_rank(c->q, more) ||
            slot != want_slot) {
            c->bad++;
            c->bad_paths++;
        }
    }
}

static void check_index_split(int rows, int cols, int variant, int split)
{
    dots_board b;
    rdb_error err;
    ck_assert_int_eq(dots_board_init(&b, rows, cols, &err), RDB_OK);
    uint64_t start = start_of(&b, variant), all = dots_all_lines(&b), open = all & ~start;
    dots_quiet_index *q, *whole;
    ck_assert_int_eq(dots_quiet_index_new(&b, start, split, &q, &err), RDB_OK);
    ck_assert_int_eq(dots_quiet_index_prepare(q, &err), RDB_OK);
    ck_assert_int_eq(dots_quiet_split(q), split);
    /* split, each level holds the same positions, in two classes */
    ck_assert_int_eq(dots_quiet_index_new(&b, start, 0, &whole, &err), RDB_OK);
    for (int level = 0; level <= dots_quiet_open_lines(q); level++)
        TU_ASSERT_EQ(dots_quiet_level_size(q, level), dots_quiet_level_size(whole, level));
    TU_ASSERT_EQ(dots_quiet_frames(q), dots_quiet_frames(whole) << split);
    dots_quiet_index_free(whole);
    const int L = dots_quiet_open_lines(q);
    ck_assert_int_eq(L, __builtin_popcountll(open));

    /* enumeration order is index order, level by level */
    uint64_t total = 0;
    long children = 0, heads = 0, direct = 0;
    long memo_ranks = 0;
    dots_quiet_memo *memo = malloc(sizeof *memo);
    ck_assert_ptr_nonnull(memo);
    dots_quiet_memo_init(memo);
    for (int level = 0; level <= L; level++) {
        enum_check c;
        enum_check_init(&c, q, all, open, memo);
        for (int f = 0; f < dots_quiet_frames(q); f++) {
            TU_ASSERT_EQ(dots_quiet_first(q, level, f), c.expected);
            c.class = dots_quiet_slot_class(q, f);
            c.slot = f;
            dots_quiet_each(q, level, f, check_enumerated, &c);
        }
        TU_ASSERT_MSG(c.bad == 0,
                      "level %d: %ld bad, %ld of them inside children ranked from the path, %ld "
                      "ranked through the memo, %ld frame children from the entries",
                      level, c.bad, c.bad_paths, c.bad_memo, c.bad_direct);
        direct += c.direct;
        memo_ranks += c.memo_ranks;
        TU_ASSERT_EQ(c.expected, dots_quiet_level_size(q, level));
        children += c.children;
        heads += c.heads;
        total += c.expected;
    }
    TU_ASSERT_EQ(total, dots_quiet_total(q));
    if (dots_quiet_inside_lines(q))
        ck_assert_int_gt(children, 0);
    if (children)
        ck_assert_int_gt(memo_ranks, 0);
    if (dots_quiet_inside_lines(q) && dots_quiet_open_lines(q) > 1 && rows * cols > 1) {
        ck_assert_int_gt(heads, 0);
        ck_assert_int_gt(direct, 0);
    }

    /* every raw quiet position's canonical image is stored, and every
     * stored position is such an image */
    uint8_t *hit[DOTS_MAX_LINES + 1];
    for (int level = 0; level <= L; level++)
        hit[level] = calloc(dots_quiet_level_size(q, level) + 1, 1);
    uint64_t raw_quiet = 0;
    dots_quiet_ranker ranker;
    dots_quiet_ranker_init(&ranker);
    /* and an index prepared for lookups, its tables made as these ranks
     * come to them, in no order of the index's */
    dots_quiet_index *lazy;
    ck_assert_int_eq(dots_quiet_index_new(&b, start, split, &lazy, &err), RDB_OK);
    ck_assert_int_eq(dots_quiet_index_prepare_lookups(lazy, &err), RDB_OK);
    for (uint64_t m = 0;; m = (m - open) & open) {
        uint64_t p = m | start;
        int quiet = 1;
        for (int x = 0; x < b.nboxes; x++) {
            int sides = 0;
            for (int s = 0; s < 4; s++)
                sides += (int)(p >> b.box_line[x][s] & 1);
            quiet &= sides != 3;
        }
        TU_ASSERT_EQ(dots_quiet_is_quiet(q, p), quiet);
        if (quiet) {
            raw_quiet++;
            uint64_t c = dots_quiet_canonical(q, p);
            TU_ASSERT(dots_quiet_is_quiet(q, c));
            TU_ASSERT_EQ(dots_quiet_class(q, c), dots_quiet_class(q, p));
            /* the same in two parts: the frame's and the inside's image */
            const uint64_t inside = dots_quiet_inside_lines(q);
            TU_ASSERT_EQ(dots_quiet_canonical(q, p & ~inside) |
                             dots_quiet_image(q, dots_quiet_transform(q, p), p & inside),
                         c);
            TU_ASSERT_EQ(c & start, start);
            int level = __builtin_popcountll(c & open);
            TU_ASSERT_EQ(level, __builtin_popcountll(m));
            uint64_t r = dots_quiet_rank(q, c);
            TU_ASSERT_MSG(r < dots_quiet_level_size(q, level), "%dx%d: rank %llu out of level %d",
                          rows, cols, (unsigned long long)r, level);
            /* ranked from the position before, in this order and the
             * order in which the builder asks (every frame line's child
             * of the positions in turn: see check_enumerated) */
            TU_ASSERT_EQ(dots_quiet_rank_next(q, &ranker, c), r);
            TU_ASSERT_EQ(dots_quiet_rank(lazy, c), r);
            hit[level][r] = 1;
        }
        if (m == open)
            break;
    }
    /* made whole after all (a build after lookups): the rankers, which
     * read any frame state's tables, rank as the eager index does */
    ck_assert_int_eq(dots_quiet_index_prepare(lazy, &err), RDB_OK);
    enum_check again;
    enum_check_init(&again, lazy, all, open, memo);
    again.expected = dots_quiet_first(lazy, L / 2, 0);
    for (int f = 0; f < dots_quiet_frames(lazy); f++) {
        again.class = dots_quiet_slot_class(lazy, f);
        again.slot = f;
        dots_quiet_each(lazy, L / 2, f, check_enumerated, &again);
    }
    TU_ASSERT_EQ(again.bad, 0);
    free(memo);
    dots_quiet_index_free(lazy);
    for (int level = 0; level <= L; level++) {
        for (uint64_t i = 0; i < dots_quiet_level_size(q, level); i++)
            TU_ASSERT_MSG(hit[level][i], "%dx%d: index %llu of level %d is no position's image",
                          rows, cols, (unsigned long long)i, level);
        free(hit[level]);
    }
    TU_ASSERT(raw_quiet >= dots_quiet_total(q));
    dots_quiet_index_free(q);
}

/* The index whole and split in its classes. */
static void check_index(int rows, int cols, int variant)
{
    check_index_split(rows, cols, variant, 0);
    check_index_split(rows, cols, variant, 1);
}

START_TEST(test_index_small)
{
    check_index(1, 1, 0);
    check_index(1, 3, 0);
    check_index(2, 2, 0);
    check_index(2, 3, 0);
    check_index(3, 2, 0);
    check_index(2, 4, 0);
    check_index(2, 2, 1);
    check_index(2, 3, 2);
}
END_TEST

START_TEST(test_index_3x3)
{
    check_index(3, 3, 0);
    check_index(3, 3, 1);
    check_index(3, 3, 2);
}
END_TEST

/* ---- the values against the naive solver ---- */

static void check_values_of(int rows, int cols, int variant, int full_value, int moves, int half)
{
    dots_board b;
    rdb_error err;
    ck_assert_int_eq(dots_board_init(&b, rows, cols, &err), RDB_OK);
    uint64_t start = start_of(&b, variant), open = dots_all_lines(&b) & ~start;
    dots_quiet_db *db;
    ck_assert_int_eq(dots_quiet_db_build(&b, start, full_value, half, 2, 0, &db, &err), RDB_OK);
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, rows, cols, start, full_value), 0);
    for (uint64_t m = 0;; m = (m - open) & open) {
        uint64_t p = m | start;
        int got = dots_quiet_db_value(db, p), want = naive_value(&nv, p);
        TU_ASSERT_MSG(got == want, "%dx%d (variant %d, full %d%s): position %#llx is %d, naive %d",
                      rows, cols, variant, full_value, half ? ", half" : "", (unsigned long long)p,
                      got, want);
        if (moves)
            for (uint64_t o = open & ~p; o; o &= o - 1) {
                int line = __builtin_ctzll(o);
                TU_ASSERT_EQ(dots_quiet_db_move_value(db, p, line), naive_move_value(&nv, p, line));
            }
        if (m == open)
            break;
    }
    naive_free(&nv);
    dots_quiet_db_free(db);
}

/* A quiet database and a half one (whose dropped class is overwritten
 * with a byte no value has, level by level as the build drops it). */
static void check_values(int rows, int cols, int variant, int full_value, int moves)
{
    check_values_of(rows, cols, variant, full_value, moves, 0);
    check_values_of(rows, cols, variant, full_value, moves, 1);
}

START_TEST(test_values_small)
{
    check_values(1, 1, 0, 0, 1);
    check_values(1, 4, 0, 0, 1);
    check_values(2, 2, 0, 0, 1);
    check_values(2, 2, 0, -3, 1);
    check_values(2, 3, 0, 0, 1);
    check_values(3, 2, 0, -1, 1);
    check_values(2, 3, 0, -2, 1);
    check_values(2, 4, 0, 0, 0);
}
END_TEST

START_TEST(test_values_3x3)
{
    check_values(3, 3, 0, 0, 0);
}
END_TEST

START_TEST(test_values_variants_3x3)
{
    check_values(3, 3, 1, 0, 1);
    check_values(3, 3, 2, 0, 0);
    check_values(3, 3, 2, -2, 0);
}
END_TEST

/* ---- 3x4 against the full database ---- */

typedef struct {
    rdb_probe *probe;
    const dots_quiet_db *db, *half;
    long bad;
    uint64_t first_bad;
} full_check;

static void check_against_full(void *ctx, uint64_t index, uint64_t lines,
                               const dots_quiet_path *path)
{
    (void)index;
    (void)path;
    full_check *c = ctx;
    int want;
    rdb_error err;
    if (rdb_probe_value(c->probe, lines, &want, &err) != RDB_OK ||
        want != dots_quiet_db_value(c->db, lines) || want != dots_quiet_db_value(c->half, lines)) {
        if (!c->bad++)
            c->first_bad = lines;
    }
}

START_TEST(test_3x4_against_full)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    ck_assert_int_eq(tu_build(dir, 3, 4, 0, 0, 0, "empty", 2, &err), RDB_OK);
    rdb_probe *probe;
    ck_assert_int_eq(rdb_probe_open(dir, &probe, &err), RDB_OK);
    dots_board b;
    ck_assert_int_eq(dots_board_init(&b, 3, 4, &err), RDB_OK);
    dots_quiet_db *db, *half;
    ck_assert_int_eq(dots_quiet_db_build(&b, 0, 0, 0, 2, 0, &db, &err), RDB_OK);
    ck_assert_int_eq(dots_quiet_db_build(&b, 0, 0, 1, 2, 0, &half, &err), RDB_OK);
    const dots_quiet_index *q = dots_quiet_db_index(db);

    /* every stored position of every frame state of some levels, the
     * start's and the late ones (the probe reads a frame of a slice file
     * for each, too slow for all 8.4 million) */
    full_check c = {probe, db, half, 0, 0};
    for (int level = 0; level <= dots_quiet_open_lines(q); level++)
        for (int f = 0; f < dots_quiet_frames(q); f += level < 3 || level > 20 ? 1 : 97)
            dots_quiet_each(q, level, f, check_against_full, &c);
    TU_ASSERT_MSG(c.bad == 0, "3x4: %ld stored positions differ, first %#llx", c.bad,
                  (unsigned long long)c.first_bad);

    /* random positions of every level, most of them not quiet */
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 100000; i++)
        check_against_full(&c, 0, naive_random_position(&seed, b.nlines, 0), NULL);
    TU_ASSERT_MSG(c.bad == 0, "3x4: %ld random positions differ, first %#llx", c.bad,
                  (unsigned long long)c.first_bad);
    rdb_probe_close(probe);
    dots_quiet_db_free(db);
    dots_quiet_db_free(half);
    tu_rmrf(dir);
}
END_TEST

/* The moves dots_quiet_twin_moves leaves out lose no child: on random
 * positions, each has the canonical child of a lower open line that is
 * kept (so every move's child is a kept move's). */
static void check_twins(int rows, int cols, int variant)
{
    dots_board b;
    rdb_error err;
    ck_assert_int_eq(dots_board_init(&b, rows, cols, &err), RDB_OK);
    const uint64_t start = start_of(&b, variant), all = dots_all_lines(&b);
    dots_quiet_index *q;
    ck_assert_int_eq(dots_quiet_index_new(&b, start, 0, &q, &err), RDB_OK);
    uint64_t seed = 0x2545f4914f6cdd1dULL + (uint64_t)(rows * 16 + cols);
    long lost = 0, skipped = 0;
    for (int i = 0; i < 20000; i++) {
        const uint64_t lines = naive_random_position(&seed, b.nlines, 0) | start;
        const uint64_t twins = dots_quiet_twin_moves(q, lines);
        TU_ASSERT_MSG(!(twins & (lines | ~all)), "%dx%d: a drawn line left out", rows, cols);
        for (uint64_t m = twins; m; m &= m - 1) {
            const uint64_t child = dots_quiet_canonical(q, lines | (m & -m));
            int found = 0;
            for (uint64_t u = all & ~lines & ~twins & ((m & -m) - 1); u && !found; u &= u - 1)
                found = dots_quiet_canonical(q, lines | (u & -u)) == child;
            lost += !found;
            skipped++;
        }
    }
    TU_ASSERT_MSG(lost == 0, "%dx%d: %ld of %ld moves left out have no lower twin", rows, cols, lost,
                  skipped);
    /* the boards with corners have classes, and random positions meet them */
    TU_ASSERT_MSG(rows * cols == 1 || skipped > 0, "%dx%d: no move left out", rows, cols);
    dots_quiet_index_free(q);
}

START_TEST(test_twin_moves)
{
    check_twins(2, 2, 0);
    check_twins(3, 3, 0);
    check_twins(3, 3, 2);
    check_twins(3, 4, 0);
    check_twins(4, 4, 0);
    check_twins(4, 5, 0);
}
END_TEST

/* The levels above read through a cache of one byte, which keeps no
 * chunk that no thread holds: the same values at every level as through
 * a cache of the whole database. */
START_TEST(test_small_cache)
{
    dots_board b;
    rdb_error err;
    ck_assert_int_eq(dots_board_init(&b, 3, 4, &err), RDB_OK);
    dots_quiet_db *all, *tiny;
    ck_assert_int_eq(dots_quiet_db_build(&b, 0, 0, 0, 2, 0, &all, &err), RDB_OK);
    ck_assert_int_eq(dots_quiet_db_build(&b, 0, 0, 0, 2, 1, &tiny, &err), RDB_OK);
    const dots_quiet_index *q = dots_quiet_db_index(all);
    for (int level = 0; level <= dots_quiet_open_lines(q); level++) {
        const uint64_t n = dots_quiet_level_size(q, level);
        TU_ASSERT_MSG(n == 0 || memcmp(dots_quiet_db_level(all, level),
                                       dots_quiet_db_level(tiny, level), n) == 0,
                      "3x4 level %d differs through a small cache", level);
    }
    dots_quiet_db_free(all);
    dots_quiet_db_free(tiny);
}
END_TEST

Suite *quiet_suite(void)
{
    Suite *s = suite_create("quiet");
    TCase *tc = tcase_create("quiet");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_index_small);
    tcase_add_test(tc, test_index_3x3);
    tcase_add_test(tc, test_values_small);
    tcase_add_test(tc, test_values_3x3);
    tcase_add_test(tc, test_values_variants_3x3);
    tcase_add_test(tc, test_3x4_against_full);
    tcase_add_test(tc, test_small_cache);
    tcase_add_test(tc, test_twin_moves);
    suite_add_tcase(s, tc);
    return s;
}
