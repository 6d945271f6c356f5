/*
 * test_corridors.c — the closed forms of dots_corridors.h against the
 * capture rules they stand for.
 *
 * Random quiet positions of several boards, each with random values for
 * the quiet positions (a hash of the lines) and for the full board: every
 * capture move's value by dots_capture_value must equal its corridor's
 * closed form, whatever those values, the corridors must hold exactly the
 * capture moves, each once, and the best of a corridor's lines must be
 * what dots_corridor_best says. Each kind of corridor (paths of one, two
 * and more boxes, cycles, knots, knots whose run goes on into another
 * corridor) must have been met often enough for this to mean something.
 * On knots, whose capture runs are the most tangled, the capture rules
 * with a memo (dots_capture_value_memo) must also give the values the
 * rules without one give.
 */
#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "dots/dots_capture.h"
#include "dots/dots_corridors.h"
#include "test_util.h"

typedef struct {
    uint64_t seed;
} hash_values;

/* Any value from -9 to 9, fixed for each position and seed. */
static int hashed(uint64_t seed, uint64_t lines)
{
    uint64_t x = (lines ^ seed) * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 32;
    return (int)(x % 19) - 9;
}

static int quiet_hashed(void *ctx, uint64_t drawn, int *value)
{
    *value = hashed(((hash_values *)ctx)->seed, drawn);
    return 0;
}

/* A memo for dots_capture_value_memo: a small direct-mapped table, so
 * that it forgets too, and the quiet values of hash_values. */
typedef struct {
    hash_values hv;
    uint64_t key[64];
    int value[64];
    long hits;
} memo_table;

static unsigned memo_slot(uint64_t drawn)
{
    return (unsigned)((drawn * 0x9e3779b97f4a7c15ULL) >> 58);
}

static int memo_known(void *ctx, uint64_t drawn, int *value)
{
    memo_table *m = ctx;
    if (m->key[memo_slot(drawn)] != drawn)
        return 0;
    *value = m->value[memo_slot(drawn)];
    m->hits++;
    return 1;
}

static void memo_remember(void *ctx, uint64_t drawn, int value)
{
    memo_table *m = ctx;
    m->key[memo_slot(drawn)] = drawn;
    m->value[memo_slot(drawn)] = value;
}

static int quiet_hashed_memo(void *ctx, uint64_t drawn, int *value)
{
    return quiet_hashed(&((memo_table *)ctx)->hv, drawn, value);
}

static uint64_t next_random(uint64_t *s)
{
    *s += 0x9e3779b97f4a7c15ULL;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Whether both end lines of path c lead to one box (with no side drawn). */
static int ends_at_one_box(const dots_box_graph *g, uint64_t drawn, const dots_corridor *c)
{
    int end_box[2], n = 0;
    for (uint64_t m = c->ends; m; m &= m - 1)
        for (int s = 0; s < 2; s++) {
            const int box = g->across[__builtin_ctzll(m)][s];
            if (box >= 0 && !(__builtin_popcountll(drawn & g->box_mask[box]) == 2 &&
                              (g->box_mask[box] & ~drawn & ~c->lines) == 0))
                end_box[n < 2 ? n++ : 1] = box;
        }
    return n == 2 && end_box[0] == end_box[1];
}

START_TEST(test_closed_forms)
{
    static const int shapes[][2] = {{1, 6}, {2, 2}, {2, 5}, {3, 3}, {3, 4}, {4, 4}, {4, 5}, {5, 5}};
    long met[3] = {0}, paths_of[4] = {0}, looped = 0, knots_on = 0, moves = 0;
    static memo_table memo;
    const dots_capture_memo memo_spec = {memo_known, memo_remember};
    memo.hits = 0;
    uint64_t rng = 12345;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        dots_board b;
        rdb_error err;
        ck_assert_int_eq(dots_board_init(&b, shapes[s][0], shapes[s][1], &err), RDB_OK);
        uint64_t box_mask[DOTS_MAX_BOXES];
        int8_t across[DOTS_MAX_LINES][2];
        dots_box_graph g;
        dots_box_graph_fill(&b, box_mask, across, &g);
        const uint64_t all = dots_all_lines(&b);
        for (int trial = 0; trial < 20000; trial++) {
            /* lines drawn with a chance from 30% to 80%, boxes with three
             * sides then opened again until the position is quiet */
            const uint64_t p = 30 + next_random(&rng) % 51;
            uint64_t drawn = 0;
            for (int l = 0; l < b.nlines; l++)
                if (next_random(&rng) % 100 < p)
                    drawn |= 1ULL << l;
            for (uint64_t three; (three = dots_capture_three(&g, drawn));) {
                const uint64_t sides = box_mask[__builtin_ctzll(three)] & drawn;
                drawn &= ~(sides & -sides);
            }
            if (drawn == all)
                continue;
            hash_values hv = {next_random(&rng)};
            memo.hv = hv;
            memset(memo.key, 0, sizeof memo.key);
            const int full_value = (int)(next_random(&rng) % 7) - 3;
            dots_corridor c[DOTS_MAX_BOXES];
            const int n = dots_corridors(&g, drawn, c);
            uint64_t covered = 0, capture_moves = 0;
            for (uint64_t m = all & ~drawn; m; m &= m - 1)
                if (dots_capture_three(&g, drawn | (m & -m)))
                    capture_moves |= m & -m;
            for (int i = 0; i < n; i++) {
                ck_assert_msg(!(covered & c[i].lines), "a line in two corridors");
                covered |= c[i].lines;
                met[c[i].kind]++;
                if (c[i].kind == DOTS_CORRIDOR_KNOT) {
                    /* the rules with a memo must agree with the rules
                     * without (the memo lives while the quiet values
                     * stay: the position's knots share it) */
                    knots_on += c[i].run > c[i].boxes + 1;
                    for (uint64_t m = c[i].lines; m; m &= m - 1) {
                        int plain, remembered;
                        ck_assert_int_eq(dots_capture_value(&g, all, full_value, drawn | (m & -m),
                                                            quiet_hashed, &hv, &plain),
                                         0);
                        ck_assert_int_eq(dots_capture_value_memo(&g, all, full_value,
                                                                 drawn | (m & -m),
                                                                 quiet_hashed_memo, &memo_spec,
                                                                 &memo, &remembered),
                                         0);
                        ck_assert_int_eq(remembered, plain);
                    }
                }
                if (c[i].kind == DOTS_CORRIDOR_PATH) {
                    paths_of[c[i].boxes < 3 ? c[i].boxes : 3]++;
                    looped += ends_at_one_box(&g, drawn, &c[i]);
                }
                const uint64_t x = drawn | c[i].taken;
                int vx = x == all ? full_value : hashed(hv.seed, x);
                int best = -1000;
                for (uint64_t m = c[i].lines; m; m &= m - 1) {
                    const int line = __builtin_ctzll(m);
                    int v;
                    ck_assert_int_eq(dots_capture_value(&g, all, full_value, drawn | (m & -m),
                                                        quiet_hashed, &hv, &v),
                                     0);
                    ck_assert_msg(-v == dots_corridor_line(&c[i], line, vx),
                                  "board %dx%d, lines %llx, line %d: capture rules %d, closed form %d "
                                  "(kind %d, %d boxes, a run of %d)",
                                  b.rows, b.cols, (unsigned long long)drawn, line, -v,
                                  dots_corridor_line(&c[i], line, vx), c[i].kind, c[i].boxes,
                                  c[i].run);
                    best = -v > best ? -v : best;
                    moves++;
                }
                ck_assert_int_eq(best, dots_corridor_best(&c[i], vx));
                /* the capture rules' best stays within dots_corridor_most,
                 * which the closed form reaches for some value of X, and
                 * which bounds nothing for a path of one or two boxes */
                const int most = dots_corridor_most(&c[i]);
                ck_assert_int_le(best, most);
                ck_assert_int_eq(most == INT_MAX, c[i].kind == DOTS_CORRIDOR_PATH && c[i].boxes <= 2);
                /* (one assertion for all the values: each passing one
                 * costs a message to Check's parent process) */
                int reached = most == INT_MAX, above = 0;
                for (int v = -64; v <= 64; v++) {
                    above |= dots_corridor_best(&c[i], v) > most;
                    reached |= dots_corridor_best(&c[i], v) == most;
                }
                ck_assert_msg(!above && reached,
                              "kind %d, a run of %d: dots_corridor_most %d is %s", c[i].kind,
                              c[i].run, most, above ? "exceeded" : "never reached");
            }
            ck_assert_msg(covered == capture_moves, "the corridors hold %llx, the capture moves are %llx",
                          (unsigned long long)covered, (unsigned long long)capture_moves);
        }
    }
    ck_assert_msg(paths_of[1] > 1000 && paths_of[2] > 1000 && paths_of[3] > 1000 && looped > 100 &&
                      met[DOTS_CORRIDOR_CYCLE] > 100 && met[DOTS_CORRIDOR_KNOT] > 100 &&
                      knots_on > 100,
                  "too few corridors met: paths of 1, 2, 3+ boxes %ld %ld %ld (%ld with both ends at "
                  "one box), cycles %ld, knots %ld (%ld going on into another corridor)",
                  paths_of[1], paths_of[2], paths_of[3], looped, met[DOTS_CORRIDOR_CYCLE],
                  met[DOTS_CORRIDOR_KNOT], knots_on);
    ck_assert_int_gt(moves, 100000);
    ck_assert_msg(memo.hits > 1000, "the capture rules' memo was used %ld times", memo.hits);
}
END_TEST

Suite *corridors_suite(void)
{
    Suite *s = suite_create("corridors");
    TCase *tc = tcase_create("closed forms");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_closed_forms);
    suite_add_tcase(s, tc);
    return s;
}
