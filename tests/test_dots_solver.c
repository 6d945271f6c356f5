/*
 * test_dots_solver.c — the Dots-and-Boxes search (src/dots/dots_solver.h)
 * held against the naive full-table solver and against databases built by
 * the library: every position of small boards, random positions of
 * larger ones (with penalties and bonuses, with both rule sets, one and
 * two searchers, and a table so small that it is always full), the value
 * of every move, and the published values of empty boards.
 */
#include <stdlib.h>

#include "dots/dots_board.h"
#include "dots/dots_capture.h"
#include "dots/dots_solver.h"
#include "dots/loony_endgame.h"
#include "retrodb/probe.h"
#include "test_util.h"

/* The table skips positions with fewer than min_open open lines: every
 * position test stores all (0), the others use the command's default. */
static int min_open = 6;
/* The table's size at the start (0: the solver's own, 16 MB). */
static uint64_t tt_start = 0;

static dots_solver *new_solver(int rows, int cols, int full_value, dots_rules_mode rules,
                               int threads, uint64_t tt_bytes)
{
    rdb_error err;
    dots_board b;
    ck_assert_int_eq(dots_board_init(&b, rows, cols, &err), RDB_OK);
    dots_solver_options opt = {.tt_bytes = tt_bytes, .threads = threads, .rules = rules,
                               .tt_min_open = min_open, .tt_start_bytes = tt_start};
    dots_solver *s;
    rdb_status st = dots_solver_new(&b, full_value, &opt, &s, &err);
    ck_assert_msg(st == RDB_OK, "%s", err.msg);
    return s;
}

static int solve(dots_solver *s, uint64_t lines)
{
    rdb_error err;
    int v = 0;
    rdb_status st = dots_solver_value(s, lines, &v, &err);
    ck_assert_msg(st == RDB_OK, "%s", err.msg);
    return v;
}

/* Every position of a small board, against the naive table. */
static void check_all_positions(int rows, int cols, int full_value, dots_rules_mode rules)
{
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, rows, cols, 0, full_value), 0);
    min_open = 0;
    dots_solver *s = new_solver(rows, cols, full_value, rules, 1, 1 << 20);
    min_open = 6;
    uint64_t n = 1ULL << nv.board.nlines;
    for (uint64_t pos = 0; pos < n; pos++)
        TU_ASSERT_MSG(solve(s, pos) == naive_value(&nv, pos),
                      "%dx%d full value %d, position %#llx: solver %d, naive %d", rows, cols,
                      full_value, (unsigned long long)pos, solve(s, pos), naive_value(&nv, pos));
    dots_solver_free(s);
    naive_free(&nv);
}

START_TEST(test_all_2x2)
{
    for (int fv = -2; fv <= 2; fv++) {
        check_all_positions(2, 2, fv, DOTS_RULES_FULL);
        check_all_positions(2, 2, fv, DOTS_RULES_NONE);
    }
}
END_TEST

START_TEST(test_all_1x4_2x3)
{
    check_all_positions(1, 4, 0, DOTS_RULES_FULL);
    check_all_positions(1, 4, -1, DOTS_RULES_FULL);
    check_all_positions(2, 3, 0, DOTS_RULES_FULL);
    check_all_positions(2, 3, -2, DOTS_RULES_FULL);
}
END_TEST

/* Random positions of 3x3 (24 lines) against the naive table, under every
 * option that must not change a value. */
static void check_random_3x3(int full_value, dots_rules_mode rules, int threads, uint64_t tt_bytes,
                             int count, uint64_t seed, int max_open)
{
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 3, 3, 0, full_value), 0);
    dots_solver *s = new_solver(3, 3, full_value, rules, threads, tt_bytes);
    for (int i = 0; i < count; i++) {
        uint64_t pos = naive_random_position(&seed, nv.board.nlines, 0);
        if (nv.board.nlines - __builtin_popcountll(pos) > max_open) {
            i--;
            continue;
        }
        int v = solve(s, pos), want = naive_value(&nv, pos);
        TU_ASSERT_MSG(v == want, "3x3 fv %d rules %d threads %d: position %#llx: %d, naive %d",
                      full_value, rules, threads, (unsigned long long)pos, v, want);
    }
    if (max_open >= 24)
        TU_ASSERT_EQ(solve(s, 0), naive_value(&nv, 0));
    if (tt_start) { /* the table grew as it filled, up to its ceiling */
        dots_solver_stats st;
        dots_solver_stats_get(s, &st);
        ck_assert_uint_gt(st.tt_bytes, tt_start);
        ck_assert_uint_le(st.tt_bytes, tt_bytes);
    }
    dots_solver_free(s);
    naive_free(&nv);
}

START_TEST(test_random_3x3)
{
    check_random_3x3(0, DOTS_RULES_FULL, 1, 64 << 20, 3000, 11, 24);
    check_random_3x3(-3, DOTS_RULES_FULL, 1, 64 << 20, 1000, 12, 24);
    check_random_3x3(2, DOTS_RULES_FULL, 1, 64 << 20, 1000, 13, 24);
    check_random_3x3(0, DOTS_RULES_NONE, 1, 64 << 20, 300, 14, 24);
}
END_TEST

START_TEST(test_threads_and_tiny_table)
{
    /* 64 bytes: a single bucket, full after four positions (so only
     * positions a search without a table finishes quickly). */
    check_random_3x3(0, DOTS_RULES_FULL, 1, 64, 300, 21, 12);
    check_random_3x3(0, DOTS_RULES_FULL, 2, 64 << 20, 500, 22, 24);
    check_random_3x3(-1, DOTS_RULES_FULL, 2, 4096, 300, 23, 16);
    /* two searchers sharing the root's moves, captures among them */
    check_random_3x3(0, DOTS_RULES_NONE, 2, 64 << 20, 100, 24, 24);
    check_random_3x3(2, DOTS_RULES_CAPTURES, 3, 64 << 20, 300, 25, 24);
}
END_TEST

/* A table that starts at one bucket and grows (the searchers park at
 * their next poll, each moves a part of the entries to a table four times
 * the size, the search goes on: search/table_growth.h) gives the same
 * values, with one searcher or several. */
START_TEST(test_table_growth)
{
    tt_start = 64;
    check_random_3x3(0, DOTS_RULES_FULL, 1, 64 << 20, 500, 31, 24);
    check_random_3x3(-1, DOTS_RULES_FULL, 2, 64 << 20, 500, 32, 24);
    check_random_3x3(0, DOTS_RULES_NONE, 3, 64 << 20, 100, 33, 24);
    tt_start = 0;
}
END_TEST

/* Every move's value, and the best moves, of random 3x3 positions against
 * the naive table, with one searcher and with two (which share out the
 * moves of each child's root). */
START_TEST(test_move_values)
{
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 3, 3, 0, 0), 0);
    dots_solver *s = new_solver(3, 3, 0, DOTS_RULES_FULL, 1 + _i, 64 << 20);
    uint64_t seed = 31 + _i;
    for (int i = 0; i < 40; i++) {
        uint64_t pos = i == 0 ? 0 : naive_random_position(&seed, nv.board.nlines, 0);
        int mv[DOTS_MAX_LINES];
        rdb_error err;
        ck_assert_int_eq(dots_solver_move_values(s, pos, mv, &err), RDB_OK);
        int value = naive_value(&nv, pos);
        uint64_t best = 0, want_best = 0;
        ck_assert_int_eq(dots_solver_best_moves(s, pos, value, &best, &err), RDB_OK);
        for (int l = 0; l < nv.board.nlines; l++) {
            if (pos >> l & 1) {
                TU_ASSERT_EQ(mv[l], INT8_MIN);
                continue;
            }
            TU_ASSERT_MSG(mv[l] == naive_move_value(&nv, pos, l),
                          "position %#llx line %d: %d, naive %d", (unsigned long long)pos, l,
                          mv[l], naive_move_value(&nv, pos, l));
            if (naive_move_value(&nv, pos, l) == value)
                want_best |= 1ULL << l;
        }
        TU_ASSERT_EQ(best, want_best);
    }
    dots_solver_free(s);
    naive_free(&nv);
}
END_TEST

/* Random positions with 10 to 26 open lines inside a database built from
 * `start` (a subgame of a board too big to build whole in a test). */
static void check_against_database(int rows, int cols, uint64_t start, int full_value, int count,
                                   uint64_t seed)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    rdb_status st = tu_build(dir, rows, cols, start, full_value, 0, "custom", 2, &err);
    ck_assert_msg(st == RDB_OK, "%s", err.msg);
    rdb_probe *p;
    ck_assert_int_eq(rdb_probe_open(dir, &p, &err), RDB_OK);
    dots_solver *s = new_solver(rows, cols, full_value, DOTS_RULES_FULL, 1, 64 << 20);
    dots_board b;
    dots_board_init(&b, rows, cols, &err);
    uint64_t open = dots_all_lines(&b) & ~start;
    int nopen = __builtin_popcountll(open);
    for (int i = 0; i < count; i++) {
        uint64_t pos = start;
        int want_open = 10 + (int)(naive_rand(&seed) % 17);
        if (want_open > nopen)
            want_open = nopen;
        /* Draw random open lines until want_open are left. */
        while (__builtin_popcountll(open & ~pos) > want_open) {
            uint64_t free_lines = open & ~pos;
            int k = (int)(naive_rand(&seed) % (uint64_t)__builtin_popcountll(free_lines));
            while (k--)
                free_lines &= free_lines - 1;
            pos |= free_lines & -free_lines;
        }
        if (i == 0)
            pos = start;
        int want;
        ck_assert_int_eq(rdb_probe_value(p, pos, &want, &err), RDB_OK);
        int v = solve(s, pos);
        TU_ASSERT_MSG(v == want, "%dx%d fv %d: position %#llx: solver %d, database %d", rows, cols,
                      full_value, (unsigned long long)pos, v, want);
    }
    dots_solver_free(s);
    rdb_probe_close(p);
    tu_rmrf(dir);
}

START_TEST(test_database_3x4)
{
    check_against_database(3, 4, 0, 0, 1500, 41);
}
END_TEST

/* A random start on a board of `lines` lines leaving `open` open. */
static uint64_t random_start(uint64_t *seed, int nlines, int open)
{
    uint64_t pos = 0;
    while (__builtin_popcountll(pos) < nlines - open)
        pos |= 1ULL << (naive_rand(seed) % (uint64_t)nlines);
    return pos;
}

START_TEST(test_database_4x4_3x5)
{
    uint64_t seed = 51;
    for (int k = 0; k < 3; k++) {
        check_against_database(4, 4, random_start(&seed, 40, 24), k == 2 ? -2 : 0, 300, 52 + k);
        check_against_database(3, 5, random_start(&seed, 38, 24), k == 2 ? 1 : 0, 300, 62 + k);
    }
}
END_TEST

/* A query of a position whose level a build deleted, with more open lines
 * than the memoised search takes, is answered by the alpha-beta search:
 * the same values as the database that kept every level. */
START_TEST(test_query_deleted_level)
{
    char full[TU_DIR_MAX], kept[TU_DIR_MAX];
    tu_mkdtemp(full);
    tu_mkdtemp(kept);
    rdb_error err;
    ck_assert_int_eq(tu_build(full, 3, 4, 0, 0, 0, "custom", 2, &err), RDB_OK);
    ck_assert_int_eq(tu_build_keep(kept, 3, 4, 0, 0, 0, "custom", 2, 1, &err), RDB_OK);
    rdb_probe *pf, *pk;
    ck_assert_int_eq(rdb_probe_open(full, &pf, &err), RDB_OK);
    ck_assert_int_eq(rdb_probe_open(kept, &pk, &err), RDB_OK);
    uint64_t seed = 71;
    for (int i = 0; i < 6; i++) {
        uint64_t pos = random_start(&seed, 31, 31 - 2 - i % 3); /* 27 to 29 open lines */
        int want, got;
        ck_assert_int_eq(rdb_probe_value(pf, pos, &want, &err), RDB_OK);
        rdb_status st = rdb_probe_value(pk, pos, &got, &err);
        ck_assert_msg(st == RDB_OK, "%s", err.msg);
        TU_ASSERT_MSG(got == want, "position %#llx: deleted level %d, database %d",
                      (unsigned long long)pos, got, want);
    }
    rdb_probe_close(pf);
    rdb_probe_close(pk);
    tu_rmrf(full);
    tu_rmrf(kept);
}
END_TEST

/* Published values of empty boards (data/known-values.md). */
START_TEST(test_empty_boards)
{
    static const struct { int rows, cols, value; } known[] = {
        {1, 1, -1}, {2, 2, 2}, {3, 3, -3}, {2, 5, -2}, {2, 6, 2}, {3, 4, 0},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        dots_solver *s = new_solver(known[i].rows, known[i].cols, 0, DOTS_RULES_FULL, 2, 256 << 20);
        int v = solve(s, 0);
        ck_assert_msg(v == known[i].value, "%dx%d: %d, published %d", known[i].rows,
                      known[i].cols, v, known[i].value);
        dots_solver_free(s);
    }
}
END_TEST

/* Every simple loony endgame of a board (every box not taken has two
 * sides drawn), valued by loony_endgame.c, against the naive table; and
 * the solver with and without the endgames on the same positions. */
static void check_simple_endgames(int rows, int cols, int full_value, int *found)
{
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, rows, cols, 0, full_value), 0);
    rdb_error err;
    dots_board b;
    ck_assert_int_eq(dots_board_init(&b, rows, cols, &err), RDB_OK);
    uint64_t mask[DOTS_MAX_BOXES];
    int8_t across[DOTS_MAX_LINES][2];
    dots_box_graph g;
    dots_box_graph_fill(&b, mask, across, &g);
    dots_solver *captures = new_solver(rows, cols, full_value, DOTS_RULES_CAPTURES, 1, 1 << 20);
    dots_solver *full = new_solver(rows, cols, full_value, DOTS_RULES_FULL, 1, 1 << 20);
    int n = 0;
    for (uint64_t pos = 0; pos < 1ULL << b.nlines; pos++) {
        int8_t cnt[DOTS_MAX_BOXES];
        int simple = 1;
        for (int x = 0; x < b.nboxes && simple; x++) {
            cnt[x] = (int8_t)__builtin_popcountll(pos & mask[x]);
            simple = cnt[x] == 2 || cnt[x] == 4;
        }
        int v;
        if (!simple) {
            TU_ASSERT(!dots_simple_endgame(&g, pos, cnt, full_value, &v));
            continue;
        }
        TU_ASSERT(dots_simple_endgame(&g, pos, cnt, full_value, &v));
        TU_ASSERT_MSG(v == naive_value(&nv, pos), "%dx%d fv %d, position %#llx: %d, naive %d",
                      rows, cols, full_value, (unsigned long long)pos, v, naive_value(&nv, pos));
        if (n++ % 16 == 0) {
            TU_ASSERT_EQ(solve(captures, pos), v);
            TU_ASSERT_EQ(solve(full, pos), v);
        }
    }
    *found += n;
    dots_solver_free(captures);
    dots_solver_free(full);
    naive_free(&nv);
}

START_TEST(test_simple_endgames)
{
    int found = 0;
    for (int fv = -3; fv <= 2; fv += 5)
        check_simple_endgames(3, 3, fv, &found);
    check_simple_endgames(3, 3, 0, &found);
    check_simple_endgames(2, 4, 0, &found);
    check_simple_endgames(1, 6, -1, &found);
    /* chains of every length and loops, not a handful */
    TU_ASSERT_MSG(found > 10000, "%d simple endgames", found);
}
END_TEST

/* The boxes with three sides found four words at a time, against counting
 * each box's sides: every position of boards of up to 17 lines, and
 * random positions of the biggest boards. */
START_TEST(test_three_sided_boxes)
{
    static const int shapes[][2] = {{1, 1}, {1, 4}, {4, 1}, {2, 3}, {3, 2}, {2, 2}, {5, 5}, {3, 7}, {7, 3}};
    uint64_t rng = 12345;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        dots_board b;
        ck_assert_int_eq(dots_board_init(&b, shapes[k][0], shapes[k][1], NULL), RDB_OK);
        uint64_t mask[DOTS_MAX_BOXES];
        int8_t across[DOTS_MAX_LINES][2];
        dots_box_graph g;
        dots_box_graph_fill(&b, mask, across, &g);
        const int exhaustive = b.nlines <= 17;
        const uint64_t n = exhaustive ? 1ULL << b.nlines : 200000;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t pos = i;
            if (!exhaustive) {
                rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
                pos = (rng ^ rng >> 29) & dots_all_lines(&b);
            }
            uint64_t expect = 0;
            for (int x = 0; x < b.nboxes; x++)
                if (__builtin_popcountll(pos & mask[x]) == 3)
                    expect |= 1ULL << x;
            ck_assert_uint_eq(dots_capture_three(&g, pos), expect);
        }
    }
}
END_TEST

/* The capture rules where they are hardest: positions of 4x4 with two or
 * more boxes of three sides (runs that may end against the same box, as
 * three runs of two boxes ending against one box with one side did in
 * the position below, where taking runs whole lost two boxes). The
 * solver with the rules, and dots_capture_value over quiet positions
 * valued by the solver without them, against the solver without them. */
typedef struct {
    dots_solver *none;
} none_ctx;

static int none_value(void *ctx, uint64_t drawn, int *value)
{
    *value = solve(((none_ctx *)ctx)->none, drawn);
    return 0;
}

START_TEST(test_touching_runs)
{
    dots_board b;
    ck_assert_int_eq(dots_board_init(&b, 4, 4, NULL), RDB_OK);
    uint64_t mask[DOTS_MAX_BOXES];
    int8_t across[DOTS_MAX_LINES][2];
    dots_box_graph g;
    dots_box_graph_fill(&b, mask, across, &g);
    dots_solver *full = new_solver(4, 4, 0, DOTS_RULES_FULL, 1, 16 << 20);
    dots_solver *none = new_solver(4, 4, 0, DOTS_RULES_NONE, 1, 64 << 20);
    none_ctx nc = {none};
    /* the position of tests/quiet_long.sh's 4x4 sample that showed it, and
     * the same with the first box taken */
    uint64_t known[2] = {0, 0};
    const char *dbn = "1111110011111100101010011100011010101011";
    for (int l = 0; l < 40; l++)
        known[0] |= (uint64_t)(dbn[l] == '1') << l;
    known[1] = known[0] | 1ULL << dots_vline(&b, 0, 1);
    /* make check-long tests many more (RDB_DOTS_STRESS=N: N times) */
    const char *stress = getenv("RDB_DOTS_STRESS");
    const int count = 160 * (stress && atoi(stress) > 0 ? atoi(stress) : 1);
    uint64_t seed = 4242;
    int tested = 0;
    for (int i = 0; tested < count; i++) {
        uint64_t pos;
        if (i < 2) {
            pos = known[i];
        } else {
            pos = 0;
            const int open = 9 + (int)(seed % 5);
            while (__builtin_popcountll(pos) < 40 - open) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                pos |= 1ULL << (seed >> 33) % 40;
            }
            if (__builtin_popcountll(dots_capture_three(&g, pos)) < 2)
                continue;
        }
        tested++;
        const int want = solve(none, pos);
        int v = 0;
        ck_assert_int_eq(dots_capture_value(&g, dots_all_lines(&b), 0, pos, none_value, &nc, &v), 0);
        TU_ASSERT_MSG(v == want, "4x4 position %#llx: the capture rules give %d, every move %d",
                      (unsigned long long)pos, v, want);
        TU_ASSERT_MSG(solve(full, pos) == want, "4x4 position %#llx: the solver gives %d, every move %d",
                      (unsigned long long)pos, solve(full, pos), want);
    }
    dots_solver_free(full);
    dots_solver_free(none);
}
END_TEST

START_TEST(test_bad_input)
{
    rdb_error err;
    dots_board b;
    dots_board_init(&b, 2, 2, &err);
    dots_solver_options opt = {.tt_bytes = 1 << 20, .threads = 1};
    dots_solver *s;
    ck_assert_int_eq(dots_solver_new(&b, 101, &opt, &s, &err), RDB_E_INPUT);
    ck_assert_ptr_null(s);
    opt.tt_bytes = 8;
    ck_assert_int_eq(dots_solver_new(&b, 0, &opt, &s, &err), RDB_E_INPUT);
    opt.tt_bytes = 1 << 20;
    ck_assert_int_eq(dots_solver_new(&b, 0, &opt, &s, &err), RDB_OK);
    int v = 7;
    ck_assert_int_eq(dots_solver_value(s, 1ULL << 12, &v, &err), RDB_E_INPUT);
    ck_assert_int_eq(v, 7);
    dots_solver_free(s);
}
END_TEST

Suite *dots_solver_suite(void)
{
    Suite *s = suite_create("dots_solver");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_all_2x2);
    tcase_add_test(tc, test_all_1x4_2x3);
    tcase_add_test(tc, test_random_3x3);
    tcase_add_test(tc, test_threads_and_tiny_table);
    tcase_add_test(tc, test_table_growth);
    tcase_add_loop_test(tc, test_move_values, 0, 2);
    tcase_add_test(tc, test_database_3x4);
    tcase_add_test(tc, test_database_4x4_3x5);
    tcase_add_test(tc, test_query_deleted_level);
    tcase_add_test(tc, test_empty_boards);
    tcase_add_test(tc, test_simple_endgames);
    tcase_add_test(tc, test_three_sided_boxes);
    tcase_add_test(tc, test_touching_runs);
    tcase_add_test(tc, test_bad_input);
    suite_add_tcase(s, tc);
    return s;
}
