/*
 * test_chains.c — databases built with chain pseudo-lines (--chains) held
 * against two naive references on every position they hold:
 *
 *  - the restricted game, spelled out on whole line sets with the naive
 *    geometry (tests/naive_dots.c) and a chain finder of its own: once a
 *    line of a chain of the start is drawn, only that chain's lines may be
 *    drawn until it is full. That is the assumption the chain rule
 *    (src/dots/dots_chains.h) computes, so the database must agree with it
 *    exactly, on the value of every position and of every move (a move into
 *    a chain is worth the best of opening it at any of its lines);
 *  - the full game (naive_solve), which the chain analysis agrees with
 *    only where the assumption holds: the test counts the positions where
 *    they differ and checks that they agree wherever no chain is left.
 *
 * With RDB_CHAINS_REPORT=FILE the differences from the full game are
 * written to FILE in markdown (scripts/chains-differences.sh makes
 * data/chains-differences.md so): for each start, the counts and the
 * positions where a difference first arises, with a witness of the broken
 * assumption.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/builder.h"
#include "engine/db.h"
#include "dots/dots_board.h"
#include "dots/dots_diagram.h"
#include "naive_dots.h"
#include "common/job.h"
#include "retrodb/probe.h"
#include "test_util.h"

#define MAX_OPEN 24

typedef struct {
    naive_board b;
    uint64_t start, open;        /* lines drawn and open at the start */
    int nchains;
    uint64_t chain[32];          /* each chain's lines */
    uint64_t units[64];          /* a unit: one open line outside chains, or a chain */
    int nunits;
    int8_t *restricted;          /* the restricted game, 2^|open| values */
    naive_dots full;
} ref;

/* Chains of the start, found again: two-sided unfinished boxes joined
 * through open shared sides (union-find on boxes). */
static void find_chains(ref *r)
{
    const naive_board *b = &r->b;
    int two[32], parent[32];
    for (int x = 0; x < b->nboxes; x++) {
        two[x] = __builtin_popcountll(r->start & b->box_mask[x]) == 2;
        parent[x] = x;
    }
    for (int l = 0; l < b->nlines; l++) {
        if ((r->start >> l & 1) || b->line_nbox[l] != 2)
            continue;
        int x = b->line_box[l][0], y = b->line_box[l][1];
        if (!two[x] || !two[y])
            continue;
        while (parent[x] != x)
            x = parent[x];
        while (parent[y] != y)
            y = parent[y];
        parent[x > y ? x : y] = x < y ? x : y;
    }
    r->nchains = 0;
    uint64_t in_chain = 0;
    for (int x = 0; x < b->nboxes; x++) {
        if (!two[x] || parent[x] != x)
            continue;
        uint64_t lines = 0;
        for (int y = 0; y < b->nboxes; y++) {
            int root = y;
            while (parent[root] != root)
                root = parent[root];
            if (two[y] && root == x)
                lines |= b->box_mask[y] & ~r->start;
        }
        r->chain[r->nchains++] = lines;
        in_chain |= lines;
    }
    r->nunits = 0;
    for (uint64_t m = r->open & ~in_chain; m; m &= m - 1)
        r->units[r->nunits++] = m & -m;
    for (int c = 0; c < r->nchains; c++)
        r->units[r->nunits++] = r->chain[c];
}

/* Lines a position may draw next in the restricted game: a chain drawn in
 * part must be finished first. */
static uint64_t legal(const ref *r, uint64_t lines)
{
    for (int c = 0; c < r->nchains; c++) {
        uint64_t d = lines & r->chain[c];
        if (d && d != r->chain[c])
            return r->chain[c] & ~lines;
    }
    return ~lines & r->open;
}

static int restricted_value(const ref *r, uint64_t lines)
{
    return r->restricted[naive_extract(lines, r->open)];
}

static int restricted_move(const ref *r, uint64_t lines, int l)
{
    int n = naive_boxes(&r->b, lines, l), v = restricted_value(r, lines | 1ULL << l);
    return n ? n + v : -v;
}

static void ref_init(ref *r, int rows, int cols, uint64_t start, int full_value)
{
    memset(r, 0, sizeof *r);
    naive_board_init(&r->b, rows, cols);
    r->start = start;
    uint64_t all = r->b.nlines == 64 ? ~0ULL : (1ULL << r->b.nlines) - 1;
    r->open = all & ~start;
    int n = __builtin_popcountll(r->open);
    ck_assert_int_le(n, MAX_OPEN);
    find_chains(r);
    r->restricted = malloc((size_t)1 << n);
    ck_assert_ptr_nonnull(r->restricted);
    for (uint64_t k = (1ULL << n); k-- > 0;) {
        uint64_t lines = start | naive_deposit(k, r->open);
        if (lines == all) {
            r->restricted[k] = (int8_t)full_value;
            continue;
        }
        int best = -1000;
        for (uint64_t m = legal(r, lines); m; m &= m - 1) {
            int c = restricted_move(r, lines, __builtin_ctzll(m));
            best = c > best ? c : best;
        }
        r->restricted[k] = (int8_t)best;
    }
    ck_assert_int_eq(naive_solve(&r->full, rows, cols, start, full_value), 0);
}

static void ref_free(ref *r)
{
    free(r->restricted);
    naive_free(&r->full);
}

static rdb_status build_chains(const char *dir, int rows, int cols, uint64_t start,
                               int full_value, int ngroups, rdb_error *err)
{
    rdb_build_options opt;
    tu_build_options(&opt, dir, RDB_GAME_DOTS, rows, cols);
    opt.params.start = start;
    opt.params.full_value = full_value;
    opt.params.ngroups = ngroups;
    opt.params.chains = 1;
    return rdb_build(&opt, err);
}

/* Lines of the chain-universe position numbered k (bit u = unit u drawn). */
static uint64_t unit_lines(const ref *r, uint64_t k)
{
    uint64_t lines = r->start;
    for (int u = 0; u < r->nunits; u++)
        if (k >> u & 1)
            lines |= r->units[u];
    return lines;
}

/* Every position of the chain database against the restricted game;
 * returns the number of positions checked. */
static long check_restricted(rdb_probe *p, const ref *r)
{
    long checked = 0;
    for (uint64_t k = 0; k < (1ULL << r->nunits); k++) {
        uint64_t lines = unit_lines(r, k);
        rdb_dots_answer a;
        rdb_error err;
        rdb_status st = rdb_probe_moves(p, lines, &a, &err);
        TU_ASSERT_MSG(st == RDB_OK, "probe of 0x%llx: %s", (unsigned long long)lines, err.msg);
        TU_ASSERT_MSG(a.value == restricted_value(r, lines),
                      "position 0x%llx: database %d, restricted game %d",
                      (unsigned long long)lines, a.value, restricted_value(r, lines));
        for (int i = 0; i < a.nmoves; i++) {
            int l = a.line[i], want = -1000;
            uint64_t unit = 0;
            for (int u = 0; u < r->nunits; u++)
                if (r->units[u] >> l & 1)
                    unit = r->units[u];
            for (uint64_t m = unit; m; m &= m - 1) {
                int c = restricted_move(r, lines, __builtin_ctzll(m));
                want = c > want ? c : want;
            }
            TU_ASSERT_MSG(a.move_value[i] == want,
                          "position 0x%llx, line %d: database %d, restricted game %d",
                          (unsigned long long)lines, l, a.move_value[i], want);
        }
        checked++;
    }
    return checked;
}

/* Whether the chain-universe position k differs from the full game. */
static int differs(const ref *r, uint64_t k)
{
    uint64_t lines = unit_lines(r, k);
    return restricted_value(r, lines) != naive_value(&r->full, lines);
}

static void print_diagram(FILE *f, const ref *r, uint64_t lines)
{
    dots_board b;
    rdb_error err;
    dots_board_init(&b, r->b.rows, r->b.cols, &err);
    fprintf(f, "\n");
    dots_diagram_print(f, &b, lines, NULL);
}

/* A witness of the broken assumption below a position where a difference
 * first arises: a chain c and lines of it drawn (t) after which the player
 * to move does better in the full game with a line outside the chain than
 * with any line of it. Returns 0 when there is none (never seen). */
static int witness(const ref *r, uint64_t lines, int *chain, uint64_t *t, int *outside,
                   int *inside)
{
    for (int c = 0; c < r->nchains; c++) {
        if (lines & r->chain[c])
            continue;
        uint64_t cl = r->chain[c];
        int n = __builtin_popcountll(cl);
        for (uint64_t s = 1; s + 1 < (1ULL << n); s++) {
            uint64_t pos = lines | naive_deposit(s, cl);
            int in = -1000, out = -1000;
            for (uint64_t m = ~pos & r->open; m; m &= m - 1) {
                int l = __builtin_ctzll(m);
                int v = naive_move_value(&r->full, pos, l);
                if (cl >> l & 1)
                    in = v > in ? v : in;
                else
                    out = v > out ? v : out;
            }
            if (out > in) {
                *chain = c;
                *t = pos;
                *outside = out;
                *inside = in;
                return 1;
            }
        }
    }
    return 0;
}

/* Compare the chain analysis with the full game; agreement is required
 * wherever every chain is drawn. Writes the report when report != NULL. */
static void check_full(const ref *r, const char *name, FILE *report)
{
    long diff = 0, total = 0, roots = 0;
    const uint64_t chains_mask = ((1ULL << r->nchains) - 1) << (r->nunits - r->nchains);
    if (report)
        fprintf(report, "\n## %s\n", name);
    for (uint64_t k = 0; k < (1ULL << r->nunits); k++) {
        total++;
        if (!differs(r, k))
            continue;
        diff++;
        TU_ASSERT_MSG((k & chains_mask) != chains_mask,
                      "%s: position 0x%llx has every chain drawn, yet differs from the full game",
                      name, (unsigned long long)unit_lines(r, k));
        /* where the difference first arises: every child agrees */
        int root = 1;
        for (int u = 0; u < r->nunits && root; u++)
            if (!(k >> u & 1) && differs(r, k | 1ULL << u))
                root = 0;
        if (!root)
            continue;
        roots++;
        if (!report || roots > 3)
            continue;
        uint64_t lines = unit_lines(r, k), t;
        int c, out, in;
        fprintf(report, "\nFirst arises at (full game %+d, chain analysis %+d):\n",
                naive_value(&r->full, lines), restricted_value(r, lines));
        print_diagram(report, r, lines);
        if (witness(r, lines, &c, &t, &out, &in)) {
            fprintf(report,
                    "\nwhy: after these lines of chain %d are drawn, the player to move does "
                    "better with a line outside the chain (%+d) than with any line of it (%+d):\n",
                    c + 1, out, in);
            print_diagram(report, r, t);
        }
    }
    if (report)
        fprintf(report,
                "\n%ld of %ld positions differ from the full game; %ld of them are where a "
                "difference first arises (every child agrees).\n",
                diff, total, roots);
}

/* One start: build with chains (groups chosen by the planner, then forced
 * to 1, 2 and 3 when `all_groups`, so that pseudo-bits land in the
 * one-group path, in outer groups and in the inner group), hold every
 * position against the references. */
static void check_start_groups(int rows, int cols, uint64_t start, int full_value,
                               const char *name, int all_groups)
{
    ref r;
    ref_init(&r, rows, cols, start, full_value);
    int groups[] = {0, 1, 2, 3};
    for (size_t gi = 0; gi < (all_groups ? 4u : 1u); gi++) {
        char dir[TU_DIR_MAX];
        tu_mkdtemp(dir);
        rdb_error err;
        rdb_status st = build_chains(dir, rows, cols, start, full_value, groups[gi], &err);
        if (st == RDB_E_INPUT && groups[gi] > 0) { /* too few symmetric units, or too big */
            tu_rmrf(dir);
            continue;
        }
        TU_ASSERT_MSG(st == RDB_OK, "%s: build with %d groups: %s", name, groups[gi], err.msg);
        rdb_probe *p;
        ck_assert_int_eq(rdb_probe_open(dir, &p, &err), RDB_OK);
        check_restricted(p, &r);
        rdb_probe_close(p);
        tu_rmrf(dir);
    }
    const char *path = getenv("RDB_CHAINS_REPORT");
    FILE *report = path ? fopen(path, "a") : NULL;
    check_full(&r, name, report);
    if (report)
        fclose(report);
    ref_free(&r);
}

static void check_start(int rows, int cols, uint64_t start, int full_value, const char *name)
{
    check_start_groups(rows, cols, start, full_value, name, 1);
}

static uint64_t parse(const char *text)
{
    dots_diagram d;
    rdb_error err;
    ck_assert_int_eq(dots_diagram_parse(text, "test", &d, &err), RDB_OK);
    return d.drawn;
}

START_TEST(test_handmade)
{
    /* a loop of four beside a one-box chain next to a box with three sides */
    check_start(2, 3, parse("+-+-+ +\n|   | |\n+ + + +\n|   | |\n+-+-+-+\n"), 0,
                "2x3: a loop of four and a one-box chain ending in a capturable box");
    /* chains of 3 and 2 and a loop-to-be on a 3x3 */
    check_start(3, 3, parse("+-+-+-+\n    |  \n+-+ + +\n|   | |\n+ + +-+\n| |    \n+ + +-+\n"), 0,
                "3x3: a bent chain of three, a chain of two, open boxes");
    check_start(1, 5, parse("+-+-+ +-+-+\n|         |\n+-+-+ +-+-+\n"), 0,
                "1x5: two chains of two on either side of an open box");
    check_start(2, 5, parse("+-+-+-+ + +\n|     |    \n+ +-+ + + +\n|       |  \n+-+-+-+ + +\n"), 0,
                "2x5: a long chain with both ends on one box, beside an open area");
}
END_TEST

START_TEST(test_swedish)
{
    /* every border drawn: the corner boxes are one-box chains the board's
     * symmetries permute */
    check_start(3, 3, tu_border(3, 3), 0, "3x3 Swedish: four one-box chains at the corners");
    check_start(2, 4, tu_border(2, 4), 0, "2x4 Swedish");
    check_start(2, 4, tu_border(2, 4), -2, "2x4 Swedish, last-move penalty 2");
}
END_TEST

START_TEST(test_random)
{
    /* random starts: complete and three-sided boxes, loops, chains that
     * grow as play goes on */
    static const int boards[][3] = {{2, 3, 13}, {3, 3, 17}, {2, 4, 16}, {1, 5, 12}, {2, 5, 18},
                                    {3, 4, 20}};
    uint64_t seed = 12345;
    for (size_t bi = 0; bi < sizeof boards / sizeof boards[0]; bi++) {
        int rows = boards[bi][0], cols = boards[bi][1], open = boards[bi][2];
        int nlines = 2 * rows * cols + rows + cols;
        for (int rep = 0; rep < 2; rep++) {
            uint64_t start;
            ref probe_chains;
            do {
                start = 0;
                while (__builtin_popcountll(start) < nlines - open)
                    start |= 1ULL << (naive_rand(&seed) % (uint64_t)nlines);
                memset(&probe_chains, 0, sizeof probe_chains);
                naive_board_init(&probe_chains.b, rows, cols);
                probe_chains.start = start;
                probe_chains.open = ((1ULL << nlines) - 1) & ~start;
                find_chains(&probe_chains);
            } while (probe_chains.nchains == 0);
            char name[96];
            snprintf(name, sizeof name, "%dx%d random start 0x%llx", rows, cols,
                     (unsigned long long)start);
            double t0 = rdb_now();
            check_start_groups(rows, cols, start, 0, name, rep == 0);
            if (getenv("RDB_CHAINS_TIMES"))
                fprintf(stderr, "%s: %.1f s\n", name, rdb_now() - t0);
        }
    }
}
END_TEST

START_TEST(test_refusals)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    /* loony analysis with chains is refused */
    rdb_build_options opt;
    memset(&opt, 0, sizeof opt);
    opt.dir = dir;
    opt.params.game = RDB_GAME_DOTS;
    opt.params.rows = 3;
    opt.params.cols = 3;
    opt.params.start = tu_border(3, 3);
    opt.params.zstd_level = 3;
    opt.params.chains = 1;
    opt.params.loony = 1;
    snprintf(opt.params.variant, sizeof opt.params.variant, "swedish");
    opt.memory_mb = 256;
    opt.quiet = 1;
    opt.keep_lines = -1;
    ck_assert_int_eq(rdb_build(&opt, &err), RDB_E_INPUT);
    /* a position drawing part of a chain is refused, naming it */
    ck_assert_int_eq(build_chains(dir, 3, 3, tu_border(3, 3), 0, 0, &err), RDB_OK);
    rdb_probe *p;
    ck_assert_int_eq(rdb_probe_open(dir, &p, &err), RDB_OK);
    int v;
    uint64_t part = tu_border(3, 3) | 1ULL << naive_hline(3, 3, 1, 0);
    ck_assert_int_eq(rdb_probe_value(p, part, &v, &err), RDB_E_INPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "part of chain"));
    rdb_probe_close(p);
    tu_rmrf(dir);
}
END_TEST

Suite *chains_suite(void)
{
    Suite *s = suite_create("chains");
    TCase *tc = tcase_create("chains");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_handmade);
    tcase_add_test(tc, test_swedish);
    tcase_add_test(tc, test_random);
    tcase_add_test(tc, test_refusals);
    suite_add_tcase(s, tc);
    return s;
}
