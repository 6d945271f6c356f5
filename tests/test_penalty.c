/*
 * test_penalty.c — the properties of the last-move penalty that Wilson
 * states, checked on every position of small boards (2x2, 2x3, 3x2,
 * Swedish and Icelandic 3x3, a 2x3 start with a box taken) for penalties
 * 0, 1, 2, 3 and one larger than the number of boxes. The smaller games
 * are built with rdb_build and read back through the probe API; the larger
 * ones use the naive solver (which test_builder holds the builder against,
 * penalties included), since probing every position of five databases
 * would take tens of seconds.
 *
 * With a penalty of p the full position is worth -p. Let v_p be a value
 * (of a position or of one move in it), F the boxes of the position not yet
 * complete and N all boxes of the board. What holds, and is tested:
 *   1. |v_p - v_q| <= |p - q| for any two penalties (induction: each move's
 *      value is b + v(child) or -v(child), which moves no more than the
 *      child's value does, and the full positions differ by |p - q|);
 *   2. v_p = F + p (mod 2): along any line of play the net future boxes
 *      are (mine - theirs) with mine + theirs = F, plus or minus p;
 *   3. so for consecutive penalties v_{p+1} - v_p is exactly +1 or -1;
 *   4. a final score as Wilson's viewer showed it (boxes already taken
 *      counted, whoever took them) is (N - F) + F + p = N + p (mod 2): one
 *      analysis gives only even scores and the next only odd ones on the
 *      whole board. That is what Wilson's statement means; for net future
 *      boxes (the stored values) it holds position by position only, with
 *      parity F + p.
 *   5. with a penalty larger than N, the sign of every value is the
 *      outcome of Nimstring (whoever draws the last line loses), so the
 *      best moves are the Nimstring winning moves, as Wilson says of a
 *      large enough penalty; checked against a plain Nimstring solver here.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dots/problem.h"
#include "retrodb/probe.h"
#include "test_util.h"

#define NPENALTY 5

/* Nimstring win/loss for the player to move, over the lines open at the
 * start: win[sub] for the position start | (lines of sub). Completing a box
 * moves again; drawing the last line (the full board) loses. */
typedef struct {
    naive_board board;
    uint64_t start;
    int nfree;
    int freeline[64];
    uint8_t *win;
} nimstring;

static void nimstring_solve(nimstring *ns, int rows, int cols, uint64_t start)
{
    naive_board_init(&ns->board, rows, cols);
    ns->start = start;
    ns->nfree = 0;
    for (int l = 0; l < ns->board.nlines; l++)
        if (!(start >> l & 1))
            ns->freeline[ns->nfree++] = l;
    ck_assert_int_le(ns->nfree, 24);
    ns->win = malloc((size_t)1 << ns->nfree);
    ck_assert_ptr_nonnull(ns->win);
    uint32_t full = (uint32_t)((1UL << ns->nfree) - 1);
    /* a subset's children are larger subsets: fill from the top down */
    for (uint32_t sub = full;; sub--) {
        uint64_t pos = start;
        for (int k = 0; k < ns->nfree; k++)
            if (sub >> k & 1)
                pos |= 1ULL << ns->freeline[k];
        int w = 0; /* the full board: the last line was drawn by the mover */
        for (int k = 0; k < ns->nfree && !w; k++) {
            if (sub >> k & 1)
                continue;
            int child = ns->win[sub | 1U << k];
            w = naive_boxes(&ns->board, pos, ns->freeline[k]) ? child : !child;
        }
        ns->win[sub] = (uint8_t)w;
        if (sub == 0)
            break;
    }
}

/* Nimstring outcome of drawing free line k in subset sub, for the mover. */
static int nimstring_move_wins(const nimstring *ns, uint32_t sub, uint64_t pos, int k)
{
    int child = ns->win[sub | 1U << k];
    return naive_boxes(&ns->board, pos, ns->freeline[k]) ? child : !child;
}

static int open_boxes(const naive_board *b, uint64_t pos)
{
    int n = 0;
    for (int i = 0; i < b->nboxes; i++)
        n += (pos & b->box_mask[i]) != b->box_mask[i];
    return n;
}

static int mod2(int x)
{
    return x & 1;
}

/* Where the values come from: databases or naive tables, one per penalty. */
typedef struct {
    int use_probe;
    rdb_probe *probe[NPENALTY];
    naive_dots naive[NPENALTY];
} value_source;

/* The answer of penalty i for pos, the moves in line-id order either way. */
static void answer(value_source *src, int i, uint64_t pos, rdb_dots_answer *a)
{
    if (src->use_probe) {
        rdb_error err;
        err.msg[0] = '\0';
        rdb_status st = rdb_probe_moves(src->probe[i], pos, a, &err);
        TU_ASSERT_MSG(st == RDB_OK, "probe 0x%llx: %s", (unsigned long long)pos, err.msg);
        return;
    }
    const naive_dots *nv = &src->naive[i];
    a->value = naive_value(nv, pos);
    a->nmoves = 0;
    for (int l = 0; l < nv->board.nlines; l++)
        if (!(pos >> l & 1)) {
            a->line[a->nmoves] = l;
            a->move_value[a->nmoves++] = naive_move_value(nv, pos, l);
        }
}

static void check_penalties(int rows, int cols, uint64_t start, int use_probe)
{
    const int nboxes = rows * cols;
    const int penalty[NPENALTY] = {0, 1, 2, 3, nboxes + 1};
    char base[TU_DIR_MAX], dir[TU_DIR_MAX + 16];
    value_source src;
    memset(&src, 0, sizeof src);
    src.use_probe = use_probe;
    rdb_error err;
    tu_mkdtemp(base);
    for (int i = 0; i < NPENALTY; i++) {
        if (!use_probe) {
            ck_assert_int_eq(naive_solve(&src.naive[i], rows, cols, start, -penalty[i]), 0);
            continue;
        }
        snprintf(dir, sizeof dir, "%s/p%d", base, penalty[i]);
        err.msg[0] = '\0';
        rdb_status st = tu_build(dir, rows, cols, start, -penalty[i], 0, "problem", 2, &err);
        ck_assert_msg(st == RDB_OK, "build %dx%d penalty %d: %s", rows, cols, penalty[i], err.msg);
        ck_assert_msg(rdb_probe_open(dir, &src.probe[i], &err) == RDB_OK, "%s", err.msg);
    }
    nimstring ns;
    nimstring_solve(&ns, rows, cols, start);

    /* a problem whose boxes taken are attributed somehow (every other one
     * to A): only the parity of the final scores matters here */
    rdb_problem score;
    memset(&score, 0, sizeof score);
    score.to_move = 'A';

    const uint32_t full = (uint32_t)((1UL << ns.nfree) - 1);
    long checked = 0;
    for (uint32_t sub = 0; sub <= full; sub++) {
        uint64_t pos = start;
        for (int k = 0; k < ns.nfree; k++)
            if (sub >> k & 1)
                pos |= 1ULL << ns.freeline[k];
        const int open = open_boxes(&ns.board, pos), taken = nboxes - open;
        score.taken_a = (taken + 1) / 2;
        score.taken_b = taken / 2;
        rdb_dots_answer a[NPENALTY];
        for (int i = 0; i < NPENALTY; i++)
            answer(&src, i, pos, &a[i]);
        /* index -1 is the position's value, 0.. the moves */
        for (int m = -1; m < a[0].nmoves; m++) {
            int v[NPENALTY];
            for (int i = 0; i < NPENALTY; i++)
                v[i] = m < 0 ? a[i].value : a[i].move_value[m];
            const int line = m < 0 ? -1 : a[0].line[m];
            for (int i = 0; i < NPENALTY; i++) {
                TU_ASSERT_MSG(mod2(v[i]) == mod2(open + penalty[i]),
                              "%dx%d 0x%llx line %d penalty %d: value %d, %d boxes open: parity",
                              rows, cols, (unsigned long long)pos, line, penalty[i], v[i], open);
                TU_ASSERT_MSG(mod2(rdb_problem_margin(&score, v[i], 'A')) ==
                                  mod2(nboxes + penalty[i]),
                              "%dx%d 0x%llx line %d penalty %d: final score parity", rows, cols,
                              (unsigned long long)pos, line, penalty[i]);
                for (int j = 0; j < i; j++)
                    TU_ASSERT_MSG(abs(v[i] - v[j]) <= penalty[i] - penalty[j],
                                  "%dx%d 0x%llx line %d: %d with penalty %d, %d with penalty %d",
                                  rows, cols, (unsigned long long)pos, line, v[i], penalty[i],
                                  v[j], penalty[j]);
                if (i > 0 && penalty[i] == penalty[i - 1] + 1)
                    TU_ASSERT_MSG(abs(v[i] - v[i - 1]) == 1,
                                  "%dx%d 0x%llx line %d: %d with penalty %d, %d with penalty %d",
                                  rows, cols, (unsigned long long)pos, line, v[i], penalty[i],
                                  v[i - 1], penalty[i - 1]);
            }
            /* the largest penalty plays Nimstring */
            int wins;
            if (m < 0) {
                wins = ns.win[sub];
            } else {
                int k = 0;
                while (ns.freeline[k] != line)
                    k++;
                wins = nimstring_move_wins(&ns, sub, pos, k);
            }
            /* (the full board too: worth -p, a Nimstring loss) */
            TU_ASSERT_MSG((v[NPENALTY - 1] > 0) == wins && v[NPENALTY - 1] != 0,
                              "%dx%d 0x%llx line %d: value %d with penalty %d, nimstring %s",
                              rows, cols, (unsigned long long)pos, line, v[NPENALTY - 1],
                              penalty[NPENALTY - 1], wins ? "win" : "loss");
            checked++;
        }
    }
    ck_assert_int_gt(checked, (long)full);
    free(ns.win);
    for (int i = 0; i < NPENALTY; i++) {
        if (use_probe)
            rdb_probe_close(src.probe[i]);
        else
            naive_free(&src.naive[i]);
    }
    tu_rmrf(base);
}

START_TEST(test_2x2) { check_penalties(2, 2, 0, 1); }
END_TEST
START_TEST(test_2x3) { check_penalties(2, 3, 0, 0); }
END_TEST
START_TEST(test_3x2) { check_penalties(3, 2, 0, 0); }
END_TEST
START_TEST(test_swedish_3x3) { check_penalties(3, 3, tu_border(3, 3), 1); }
END_TEST
START_TEST(test_icelandic_3x3) { check_penalties(3, 3, tu_icelandic(3, 3), 0); }
END_TEST

START_TEST(test_taken_box_2x3)
{
    /* the top left box complete: h0,0, h1,0, v0,0, v0,1 */
    uint64_t start = 1ULL << naive_hline(2, 3, 0, 0) | 1ULL << naive_hline(2, 3, 1, 0) |
                     1ULL << naive_vline(2, 3, 0, 0) | 1ULL << naive_vline(2, 3, 0, 1);
    check_penalties(2, 3, start, 1);
}
END_TEST

Suite *penalty_suite(void)
{
    Suite *s = suite_create("penalty");
    TCase *tc = tcase_create("penalty");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_2x2);
    tcase_add_test(tc, test_2x3);
    tcase_add_test(tc, test_3x2);
    tcase_add_test(tc, test_swedish_3x3);
    tcase_add_test(tc, test_icelandic_3x3);
    tcase_add_test(tc, test_taken_box_2x3);
    suite_add_tcase(s, tc);
    return s;
}
