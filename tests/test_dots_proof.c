/*
 * test_dots_proof.c — proofs split into ledger-recorded sub-proofs
 * (src/dots/dots_proof.h, dots_ledger.h): right values are proved and wrong
 * ones disproved at every split depth, a second run is answered by the
 * ledger alone, parts of a proof add up to the whole, every recorded bound
 * is true (held against the naive solver), and a damaged ledger is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dots/dots_ledger.h"
#include "dots/dots_proof.h"
#include "test_util.h"

static dots_solver *solver_3x3(dots_board *b)
{
    rdb_error err;
    ck_assert_int_eq(dots_board_init(b, 3, 3, &err), RDB_OK);
    dots_solver_options opt = {.tt_bytes = 16 << 20, .threads = 1};
    dots_solver *s;
    ck_assert_int_eq(dots_solver_new(b, 0, &opt, &s, &err), RDB_OK);
    return s;
}

static dots_proof_result prove(const char *path, int value, int depth, int part, int nparts)
{
    rdb_error err;
    dots_board b;
    dots_solver *s = solver_3x3(&b);
    dots_ledger l;
    ck_assert_int_eq(dots_ledger_open(&l, path, &b, 0, &err), RDB_OK);
    dots_proof_options opt = {.depth = depth, .part = part, .nparts = nparts};
    dots_proof_result r;
    rdb_status st = dots_prove(s, &l, 0, value, &opt, &r, &err);
    ck_assert_msg(st == RDB_OK, "%s", err.msg);
    dots_ledger_close(&l);
    dots_solver_free(s);
    return r;
}

/* Every bound in the ledger holds, by the naive table. */
static void check_ledger_true(const char *path, const naive_dots *nv)
{
    rdb_error err;
    dots_board b;
    dots_board_init(&b, 3, 3, &err);
    dots_ledger l;
    ck_assert_int_eq(dots_ledger_open(&l, path, &b, 0, &err), RDB_OK);
    ck_assert_int_gt(l.n, 0);
    for (int i = 0; i < l.n; i++) {
        int v = naive_value(nv, l.entry[i].lines);
        TU_ASSERT_MSG(l.entry[i].at_least ? v >= l.entry[i].bound : v <= l.entry[i].bound,
                      "ledger line %d: %#llx %s %d, but the value is %d", i + 1,
                      (unsigned long long)l.entry[i].lines, l.entry[i].at_least ? ">=" : "<=",
                      l.entry[i].bound, v);
    }
    dots_ledger_close(&l);
}

START_TEST(test_prove_3x3)
{
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 3, 3, 0, 0), 0);
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    tu_mkdtemp(dir);
    for (int depth = 0; depth <= 2; depth++) {
        snprintf(path, sizeof path, "%s/ledger-%d.txt", dir, depth);
        dots_proof_result r = prove(path, -3, depth, 0, 1);
        ck_assert_int_eq(r.at_least, 1);
        ck_assert_int_eq(r.at_most, 1);
        ck_assert_int_gt(r.searched, 0);
        /* again: the ledger answers without a search */
        r = prove(path, -3, depth, 0, 1);
        ck_assert_int_eq(r.at_least, 1);
        ck_assert_int_eq(r.at_most, 1);
        ck_assert_int_eq(r.searched, 0);
        /* wrong values are disproved */
        r = prove(path, -2, depth, 0, 1);
        ck_assert_int_eq(r.at_least, 0);
        ck_assert_int_eq(r.at_most, 1);
        r = prove(path, -4, depth, 0, 1);
        ck_assert_int_eq(r.at_least, 1);
        ck_assert_int_eq(r.at_most, 0);
        check_ledger_true(path, &nv);
    }
    naive_free(&nv);
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_prove_in_parts)
{
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 3, 3, 0, 0), 0);
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/ledger.txt", dir);
    dots_proof_result a = prove(path, -3, 2, 0, 3);
    dots_proof_result b = prove(path, -3, 2, 1, 3);
    dots_proof_result c = prove(path, -3, 2, 2, 3);
    ck_assert_int_gt(a.skipped + b.skipped + c.skipped, 0);
    dots_proof_result all = prove(path, -3, 2, 0, 1);
    ck_assert_int_eq(all.at_least, 1);
    ck_assert_int_eq(all.at_most, 1);
    check_ledger_true(path, &nv);
    naive_free(&nv);
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_ledger_input)
{
    rdb_error err;
    dots_board b;
    dots_board_init(&b, 3, 3, &err);
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/ledger.txt", dir);
    dots_ledger l;
    /* a missing ledger is empty */
    ck_assert_int_eq(dots_ledger_open(&l, path, &b, 0, &err), RDB_OK);
    ck_assert_int_eq(l.n, 0);
    dots_ledger_close(&l);

    static const char good[] = "# a comment\n\n"
                               "3x3 0 >= -3 nodes=10 seconds=0.5 lines: h0,0 v1,2\n"
                               "2x2 0 <= 2 nodes=1 seconds=0 lines: -\n"   /* another board */
                               "3x3 -1 <= 2 nodes=1 seconds=0 lines: -\n"  /* another penalty */
                               "3x3 0 <= 5 nodes=3 seconds=1 lines: -\n";
    ck_assert_int_eq(tu_write_file(path, good, strlen(good)), 0);
    ck_assert_int_eq(dots_ledger_open(&l, path, &b, 0, &err), RDB_OK);
    ck_assert_int_eq(l.n, 2);
    ck_assert_int_eq(l.entry[0].at_least, 1);
    ck_assert_int_eq(l.entry[0].bound, -3);
    ck_assert_int_eq(__builtin_popcountll(l.entry[0].lines), 2);
    ck_assert_int_eq(l.entry[1].lines, 0);
    dots_ledger_close(&l);

    static const char *const bad[] = {
        "3x3 0 >= -3 nodes=10 seconds=0.5 lines: h9,9\n",    /* no such line */
        "3x3 0 >= -3 nodes=10 seconds=0.5 lines: h0,0 h0,0\n", /* twice */
        "3x3 0 => -3 nodes=10 seconds=0.5 lines: -\n",       /* not an operator */
        "3x3 0 >= x nodes=10 seconds=0.5 lines: -\n",
        "3x3 0 >= -3 nodes=-1 seconds=0.5 lines: -\n",
        "3x3 0 >= -3 nodes=10 seconds=nan lines: -\n",
        "3x3 0 >= -3 nodes=10 seconds=0.5\n",                /* no lines */
        "3x3 0 >= -3 nodes=10 seconds=0.5 lines:\n",
        "3x3 0 >= 99999 nodes=10 seconds=0.5 lines: -\n",
        "3x3 0 >= 1 nodes=10 seconds=0.5 lines: - h0,0\n",   /* '-' stands alone */
        "3x3 0 >= 10 nodes=1 seconds=0 lines: -\n",            /* 9 boxes to play for */
        "3x3 0 <= -9 nodes=1 seconds=0 lines: h0,0 h1,0 v0,0 v0,1\n", /* 8 once one is taken */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(tu_write_file(path, bad[i], strlen(bad[i])), 0);
        rdb_status st = dots_ledger_open(&l, path, &b, 0, &err);
        ck_assert_msg(st == RDB_E_CORRUPT, "accepted: %s", bad[i]);
        ck_assert_ptr_nonnull(strstr(err.msg, ":1:"));
    }

    /* a line cut short (no newline: a crash or a full disk while it was
     * written) is left out, and the next append removes it first */
    static const char torn[] = "3x3 0 >= -3 nodes=10 seconds=0.5 lines: h0,0\n"
                               "3x3 0 <= 2 nodes=1 seconds=0 lines: h0";
    ck_assert_int_eq(tu_write_file(path, torn, strlen(torn)), 0);
    ck_assert_int_eq(dots_ledger_open(&l, path, &b, 0, &err), RDB_OK);
    ck_assert_int_eq(l.n, 1);
    dots_ledger_entry more = {.lines = 1ULL << 5, .at_least = 0, .bound = 250, .nodes = 1};
    ck_assert_int_eq(dots_ledger_add(&l, &more, &err), RDB_OK);
    dots_ledger_close(&l);
    ck_assert_int_eq(dots_ledger_open(&l, path, &b, 0, &err), RDB_OK);
    ck_assert_int_eq(l.n, 2);
    ck_assert_int_eq(l.entry[1].lines, 1ULL << 5);
    ck_assert_int_eq(l.entry[1].bound, 250); /* bounds beyond a proof's target read back */
    dots_ledger_close(&l);

    /* appended lines read back */
    remove(path);
    ck_assert_int_eq(dots_ledger_open(&l, path, &b, 0, &err), RDB_OK);
    dots_ledger_entry e = {.lines = 1ULL << 3 | 1ULL << 20, .at_least = 0, .bound = 2,
                           .nodes = 7, .seconds = 1.5};
    ck_assert_int_eq(dots_ledger_add(&l, &e, &err), RDB_OK);
    dots_ledger_close(&l);
    ck_assert_int_eq(dots_ledger_open(&l, path, &b, 0, &err), RDB_OK);
    ck_assert_int_eq(l.n, 1);
    ck_assert_int_eq(l.entry[0].lines, e.lines);
    ck_assert_int_eq(l.entry[0].at_least, 0);
    ck_assert_int_eq(l.entry[0].bound, 2);
    dots_ledger_close(&l);
    tu_rmrf(dir);
}
END_TEST

Suite *dots_proof_suite(void)
{
    Suite *s = suite_create("dots_proof");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_prove_3x3);
    tcase_add_test(tc, test_prove_in_parts);
    tcase_add_test(tc, test_ledger_input);
    suite_add_tcase(s, tc);
    return s;
}
