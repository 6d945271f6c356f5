/*
 * test_cram_ledger.c — the ledger of a Cram solve (src/cram/cram_ledger.c,
 * and its use at the root, src/cram/cram_root.c): a solve records every
 * answer of the root's trials; a new solver with a fresh table, given the
 * whole ledger or any part of it (a run stopped half-way, a line cut short
 * by a crash), finds the same nimber, the published one or the naive
 * solver's, searching only what the ledger lacks; with one thread and two,
 * and with the root a part wider than the 64-bit layout; and a run resumed
 * from its table writes down what the table knew. Malformed,
 * self-contradicting and misplaced lines are refused with their line
 * number, and a ledger that cannot be appended to stops the solve.
 */
#define _GNU_SOURCE
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cram/cram_ledger.h"
#include "common/job.h"
#include "cram/cram_solver.h"
#include "naive_cram.h"
#include "test_util.h"

/* narrow_rows 0: the usual layout; k > 0: parts of more than k rows are
 * searched as wide ones, as on a board of more than 64 cells. */
static cram_solver *new_solver(int rows, int cols, int threads, int narrow_rows)
{
    cram_solver_options opt = {.method = CRAM_ASPIRATION, .tt_mb = 16, .threads = threads,
                               .narrow_rows = narrow_rows};
    cram_solver *s = NULL;
    rdb_error err;
    err.msg[0] = '\0';
    TU_ASSERT_MSG(cram_solver_new(rows, cols, &opt, &s, &err) == RDB_OK, "%s", err.msg);
    return s;
}

/* Solve x on a new solver with the ledger at path; returns the nimber and
 * fills *st. */
static int solve_with_ledger(int rows, int cols, int threads, int narrow_rows, uint64_t x,
                             const char *path, cram_stats *st)
{
    cram_ledger l;
    rdb_error err;
    err.msg[0] = '\0';
    TU_ASSERT_MSG(cram_ledger_open(&l, path, rows, cols, &err) == RDB_OK, "%s", err.msg);
    cram_solver *s = new_solver(rows, cols, threads, narrow_rows);
    cram_solver_set_ledger(s, &l);
    int v = -1;
    rdb_status status = cram_solver_solve(s, x, &v, &err);
    TU_ASSERT_MSG(status == RDB_OK, "%dx%d free %llx: %s", rows, cols, (unsigned long long)x, err.msg);
    cram_solver_stats(s, st);
    cram_solver_free(s);
    cram_ledger_close(&l);
    return v;
}

/* The whole lines of the file at path, in *lines (malloc'd copies);
 * returns how many. */
static int read_lines(const char *path, char ***lines)
{
    size_t len;
    char *text = (char *)tu_read_file(path, &len);
    TU_ASSERT(text != NULL);
    int n = 0;
    *lines = NULL;
    for (char *at = text, *nl; (nl = memchr(at, '\n', (size_t)(text + len - at))); at = nl + 1) {
        *lines = realloc(*lines, (size_t)(n + 1) * sizeof **lines);
        (*lines)[n++] = strndup(at, (size_t)(nl + 1 - at));
    }
    free(text);
    return n;
}

/* Write lines [0, k) to path, then `tail` (a line cut short, or ""). */
static void write_prefix(const char *path, char **lines, int k, const char *tail)
{
    FILE *f = fopen(path, "w");
    TU_ASSERT(f != NULL);
    for (int i = 0; i < k; i++)
        fputs(lines[i], f);
    fputs(tail, f);
    TU_ASSERT(fclose(f) == 0);
}

static void free_lines(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* Solve x with a fresh ledger, then again from every prefix of it (the
 * half-way one with a line cut short after it), each on a fresh solver:
 * always `want`. With `whole` (x is one component: its root is the only
 * one searched), one thread searches again exactly what the prefix lacks,
 * and the whole ledger leaves nothing to search; with several components,
 * one that the first run found in its table, met inside another's search,
 * may be searched at the root when that search is taken from the ledger. */
static void check_resume(int rows, int cols, int threads, int narrow_rows, uint64_t x, int want,
                         int whole, const char *dir)
{
    char path[TU_DIR_MAX + 32], part[TU_DIR_MAX + 32];
    snprintf(path, sizeof path, "%s/ledger", dir);
    snprintf(part, sizeof part, "%s/part", dir);
    unlink(path);
    cram_stats st;
    int v = solve_with_ledger(rows, cols, threads, narrow_rows, x, path, &st);
    TU_ASSERT_MSG(v == want, "%dx%d free %llx: %d, want %d", rows, cols, (unsigned long long)x, v, want);
    char **lines = NULL;
    int n = access(path, F_OK) == 0 ? read_lines(path, &lines) : 0;
    TU_ASSERT_EQ((uint64_t)n, st.to_ledger);
    int searched = 0;
    for (int i = 0; i < n; i++)
        searched += strstr(lines[i], " nodes=0 ") == NULL;
    for (int k = 0; k <= n; k++) {
        write_prefix(part, lines, k, k == n / 2 ? "3x10 root=0000000000000000000000000" : "");
        cram_stats again;
        v = solve_with_ledger(rows, cols, threads, narrow_rows, x, part, &again);
        TU_ASSERT_MSG(v == want, "%dx%d free %llx, %d of %d lines: %d, want %d", rows, cols,
                      (unsigned long long)x, k, n, v, want);
        /* the line cut short was removed before the first append: the
         * file reads back whole, the prefix and what was added */
        cram_ledger back;
        rdb_error err;
        TU_ASSERT_MSG(cram_ledger_open(&back, part, rows, cols, &err) == RDB_OK, "%s", err.msg);
        TU_ASSERT_EQ((uint64_t)back.n, (uint64_t)k + again.to_ledger);
        cram_ledger_close(&back);
        /* one thread searches as it did, less what the prefix holds (two
         * share the children as they happen to come) */
        if (threads == 1 && whole)
            TU_ASSERT_MSG(again.to_ledger == (uint64_t)(n - k), "%d of %d lines: %llu added", k, n,
                          (unsigned long long)again.to_ledger);
        if (k == n && n > 0 && whole)
            TU_ASSERT_MSG(again.to_ledger == 0 && again.from_ledger > 0 && again.expanded <= 1,
                          "whole ledger: %llu added, %llu used, %llu expanded",
                          (unsigned long long)again.to_ledger, (unsigned long long)again.from_ledger,
                          (unsigned long long)again.expanded);
        /* lines of searched children (the children the table knew at
         * the start, "nodes=0", are done before the ledger is read) */
        if (k == n && searched > 0)
            TU_ASSERT(again.from_ledger > 0);
    }
    if (n)
        free_lines(lines, n);
}

static uint64_t all_cells(int rows, int cols)
{
    return rows * cols == 64 ? ~0ULL : (1ULL << (rows * cols)) - 1;
}

/* _i threads: empty boards (published nimbers), wider than tall (the
 * layout turned) and taller than wide, with the root in the 64-bit layout
 * and as a wide part. */
START_TEST(test_resume_boards)
{
    static const struct {
        int rows, cols, nimber, narrow_rows;
    } boards[] = {{3, 10, 2, 0}, {4, 7, 3, 0}, {5, 6, 2, 0}, {3, 12, 1, 0}, {7, 4, 3, 0},
                  {10, 3, 2, 0}, {4, 7, 3, 4}, {3, 10, 2, 6}, {10, 3, 2, 6}};
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++)
        check_resume(boards[i].rows, boards[i].cols, _i, boards[i].narrow_rows,
                     all_cells(boards[i].rows, boards[i].cols), boards[i].nimber, 1, dir);
    tu_rmrf(dir);
}
END_TEST

/* Random positions (several components at the root, some of them
 * symmetric) against the naive solver. */
START_TEST(test_resume_random)
{
    static const struct {
        int rows, cols;
    } shapes[] = {{4, 5}, {5, 5}, {3, 7}, {4, 6}};
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    uint64_t seed = 0x1ed6e4ULL;
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const int rows = shapes[k].rows, cols = shapes[k].cols;
        naive_cram *nv = naive_cram_new(rows, cols);
        TU_ASSERT(nv != NULL);
        for (int i = 0; i < 6; i++) {
            /* each cell covered with probability 1/8 */
            uint64_t x = all_cells(rows, cols);
            for (int cell = 0; cell < rows * cols; cell++) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                if ((seed >> 61) == 0)
                    x &= ~(1ULL << cell);
            }
            check_resume(rows, cols, 1 + i % 2, 0, x, naive_cram_nimber(nv, x), 0, dir);
        }
        naive_cram_free(nv);
    }
    tu_rmrf(dir);
}
END_TEST

/* The position a ledger's root names, on the rows x cols board: its cells
 * are in the solver's layout, the long side down (cram_ledger.h). */
static uint64_t root_position(const cram_ledger_entry *e, int rows, int cols)
{
    const int turned = cols > rows, stride = turned ? rows : cols;
    uint64_t x = 0;
    for (int i = 0; i < 128; i++)
        if ((e->root >> i) & 1) {
            const int r = i / stride, c = i % stride;
            x |= 1ULL << (turned ? c * cols + r : r * cols + c);
        }
    return x;
}

/* Every line of a ledger says what is true: the root it names with the
 * move's two cells covered has, by the naive solver, the nimber the line
 * gives, or another one. For a whole board the root is the board itself;
 * for a position with a cell covered, the root is its canonical form (a
 * mirror image, perhaps), and so is the position checked. */
START_TEST(test_lines_true)
{
    static const struct {
        int rows, cols;
    } boards[] = {{4, 5}, {5, 4}, {3, 7}, {7, 3}, {2, 9}};
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/ledger", dir);
    for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        const int rows = boards[b].rows, cols = boards[b].cols;
        naive_cram *nv = naive_cram_new(rows, cols);
        TU_ASSERT(nv != NULL);
        for (int covered = -1; covered < 1; covered++) {
            const uint64_t x = all_cells(rows, cols) & ~(covered < 0 ? 0 : 1ULL << (cols + 1));
            unlink(path);
            cram_stats st;
            TU_ASSERT_EQ(solve_with_ledger(rows, cols, 1, 0, x, path, &st), naive_cram_nimber(nv, x));
            cram_ledger l;
            rdb_error err;
            TU_ASSERT_EQ(cram_ledger_open(&l, path, rows, cols, &err), RDB_OK);
            TU_ASSERT(l.n > 0);
            for (int i = 0; i < l.n; i++) {
                const cram_ledger_entry *e = &l.entry[i];
                const uint64_t root = root_position(e, rows, cols);
                if (covered < 0)
                    TU_ASSERT_EQ(root, x);
                const uint64_t domino = 1ULL << (e->cell[0][0] * cols + e->cell[0][1]) |
                                        1ULL << (e->cell[1][0] * cols + e->cell[1][1]);
                TU_ASSERT_MSG((root & domino) == domino, "%dx%d line %d: a move off the root", rows,
                              cols, i + 1);
                const int v = naive_cram_nimber(nv, root & ~domino);
                TU_ASSERT_MSG(e->is ? v == e->value : v != e->value,
                              "%dx%d%s line %d: (%d,%d)-(%d,%d) %s %d, naive %d", rows, cols,
                              covered < 0 ? "" : " less a cell", i + 1, e->cell[0][0], e->cell[0][1],
                              e->cell[1][0], e->cell[1][1], e->is ? "is" : "not", e->value, v);
            }
            cram_ledger_close(&l);
        }
        naive_cram_free(nv);
    }
    tu_rmrf(dir);
}
END_TEST

/* A solve whose table already knows some of the root's children (a run
 * resumed from its table file, with a ledger new to it) writes those down
 * too, so that a run with the ledger and no table (another machine)
 * searches nothing again. */
START_TEST(test_table_known_children)
{
    char dir[TU_DIR_MAX], tt[TU_DIR_MAX + 32], path[TU_DIR_MAX + 32];
    tu_mkdtemp(dir);
    snprintf(tt, sizeof tt, "%s/tt", dir);
    snprintf(path, sizeof path, "%s/ledger", dir);
    rdb_error err;
    /* 3x14 (nimber 3, about a million nodes) stopped half-way */
    cram_solver *s = new_solver(3, 14, 1, 0);
    int v = -1, left = 30;
    cram_solver_set_hook(s, 0.0, tu_stop_at_call, &left);
    TU_ASSERT_EQ(cram_solver_solve(s, all_cells(3, 14), &v, &err), RDB_E_STOPPED);
    rdb_stop_requested = 0;
    TU_ASSERT_EQ(left, 0);
    TU_ASSERT_EQ(cram_solver_save_tt(s, tt, &err), RDB_OK);
    cram_solver_free(s);

    cram_ledger l;
    TU_ASSERT_EQ(cram_ledger_open(&l, path, 3, 14, &err), RDB_OK);
    s = new_solver(3, 14, 1, 0);
    TU_ASSERT_EQ(cram_solver_load_tt(s, tt, &err), RDB_OK);
    cram_solver_set_ledger(s, &l);
    TU_ASSERT_EQ(cram_solver_solve(s, all_cells(3, 14), &v, &err), RDB_OK);
    TU_ASSERT_EQ(v, 3);
    cram_solver_free(s);
    cram_ledger_close(&l);

    cram_stats st;
    TU_ASSERT_EQ(solve_with_ledger(3, 14, 1, 0, all_cells(3, 14), path, &st), 3);
    TU_ASSERT_MSG(st.expanded == 1 && st.to_ledger == 0, "%llu expanded, %llu added",
                  (unsigned long long)st.expanded, (unsigned long long)st.to_ledger);
    tu_rmrf(dir);
}
END_TEST

/* The first line of a fresh 3x10 ledger that gives a nimber ("is"). */
static char *first_line(const char *dir)
{
    char path[TU_DIR_MAX + 32];
    snprintf(path, sizeof path, "%s/first", dir);
    unlink(path);
    cram_stats st;
    TU_ASSERT_EQ(solve_with_ledger(3, 10, 1, 0, all_cells(3, 10), path, &st), 2);
    char **lines;
    int n = read_lines(path, &lines), i = 0;
    while (i < n && !strstr(lines[i], " is "))
        i++;
    TU_ASSERT(i < n);
    char *line = strdup(lines[i]);
    free_lines(lines, n);
    return line;
}

/* A solve of 3x10 with a ledger holding text: its status, the message in
 * msg. */
static rdb_status solve_text(const char *dir, const char *text, uint64_t x, char *msg)
{
    char path[TU_DIR_MAX + 32];
    snprintf(path, sizeof path, "%s/ledger", dir);
    TU_ASSERT(tu_write_file(path, text, strlen(text)) == 0);
    cram_ledger l;
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = cram_ledger_open(&l, path, 3, 10, &err);
    if (st == RDB_OK) {
        cram_solver *s = new_solver(3, 10, 1, 0);
        cram_solver_set_ledger(s, &l);
        int v;
        st = cram_solver_solve(s, x, &v, &err);
        cram_solver_free(s);
        cram_ledger_close(&l);
    }
    memcpy(msg, err.msg, sizeof err.msg);
    return st;
}

START_TEST(test_refused)
{
    char dir[TU_DIR_MAX], msg[sizeof ((rdb_error *)0)->msg], text[1024];
    tu_mkdtemp(dir);
    char *line = first_line(dir); /* "3x10 root=... move=(r,c)-(r,c) is v nodes=... seconds=..." */
    char *move = strstr(line, "move=");
    TU_ASSERT(move != NULL);

    /* comments, blank lines and other boards' lines are skipped */
    snprintf(text, sizeof text, "# a comment\n\n3x11 root=%s", strstr(line, "root=") + 5);
    TU_ASSERT_EQ(solve_text(dir, text, all_cells(3, 10), msg), RDB_OK);

    /* lines not of the form, with their line number */
    static const char *const bad[] = {
        "3x10 root=00 move=(0,4)-(1,4) is 1 nodes=1 seconds=0.0\n",
        "3x10 root=0000000000000000000000003fffffff move=(0,4)-(1,5) is 1 nodes=1 seconds=0.0\n",
        "3x10 root=0000000000000000000000003fffffff move=(0,4)-(1,4) maybe 1 nodes=1 seconds=0.0\n",
        "3x10 root=0000000000000000000000003fffffff move=(0,4)-(1,4) is 128 nodes=1 seconds=0.0\n",
        "3x10 root=0000000000000000000000003fffffff move=(3,4)-(2,4) is 1 nodes=1 seconds=0.0\n",
        "3x10 root=0000000000000000000000003fffffff move=(0,4)-(1,4) is 1 nodes=-1 seconds=0.0\n",
        "3x10 root=0000000000000000000000003fffffff move=(0,4)-(1,4) is 1 nodes=1 seconds=0.0 more\n",
        "3x10 root=0x00000000000000000000003fffffff move=(0,4)-(1,4) is 1 nodes=1 seconds=0.0\n",
        "3x10 root=0000000000000000000000003fffffff move=(0,4)-(1,4) is 1 nodes=1 seconds=1e300\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "# comment\n%s", bad[i]);
        TU_ASSERT_EQ(solve_text(dir, text, all_cells(3, 10), msg), RDB_E_CORRUPT);
        TU_ASSERT_MSG(strstr(msg, ":2: not a ledger line") != NULL, "%s", msg);
    }

    /* one move given two nimbers, or a nimber and "not" it */
    char *is = strstr(move, " is ");
    int v = -1;
    TU_ASSERT(is != NULL && sscanf(is, " is %d", &v) == 1 && v >= 0 && v < 127);
    snprintf(text, sizeof text, "%s%.*s is %d nodes=1 seconds=0.0\n", line, (int)(is - line), line, v + 1);
    TU_ASSERT_EQ(solve_text(dir, text, all_cells(3, 10), msg), RDB_E_CORRUPT);
    TU_ASSERT_MSG(strstr(msg, ":2: another line gives this move another nimber") != NULL, "%s", msg);
    snprintf(text, sizeof text, "%s%.*s not %d nodes=1 seconds=0.0\n", line, (int)(is - line), line, v);
    TU_ASSERT_EQ(solve_text(dir, text, all_cells(3, 10), msg), RDB_E_CORRUPT);
    TU_ASSERT_MSG(strstr(msg, ":1: this nimber contradicts") != NULL, "%s", msg);

    /* a line for another root is skipped */
    char *fake = strdup(line);
    memcpy(strstr(fake, "root=") + 5 + 24, "3ffffffe", 8);
    TU_ASSERT_EQ(solve_text(dir, fake, all_cells(3, 10), msg), RDB_OK);

    /* a move the root does not have: one covering a cell outside the root
     * of a real run (the layout of 3x10: 10 rows of 3, cell i at board
     * (i % 3, i / 3)) */
    char path[TU_DIR_MAX + 32];
    snprintf(path, sizeof path, "%s/ledger", dir);
    unlink(path);
    cram_stats st;
    const uint64_t less = all_cells(3, 10) & ~(1ULL << 4) & ~(1ULL << 5);
    solve_with_ledger(3, 10, 1, 0, less, path, &st);
    char **lines;
    int n = read_lines(path, &lines);
    TU_ASSERT(n > 0);
    char root[64];
    unsigned long long low;
    TU_ASSERT(sscanf(lines[0], "3x10 root=%32s", root) == 1 && sscanf(root + 16, "%16llx", &low) == 1);
    free_lines(lines, n);
    int i = 0;
    while (i < 30 && (low >> i & 1))
        i++;
    TU_ASSERT(i < 30);
    const int r = i % 3, c = i / 3;
    snprintf(text, sizeof text, "3x10 root=%s move=(%d,%d)-(%d,%d) not 0 nodes=1 seconds=0.0\n", root, r,
             c, r, c < 9 ? c + 1 : c - 1);
    TU_ASSERT_EQ(solve_text(dir, text, less, msg), RDB_E_CORRUPT);
    TU_ASSERT_MSG(strstr(msg, ":1: the root has no such move") != NULL, "%s", msg);
    free(fake);
    free(line);
    tu_rmrf(dir);
}
END_TEST

/* A ledger that cannot be appended to is refused when opened (a symbolic
 * link, a missing folder), and one that becomes so (its path made a
 * folder) stops the solve with the reason instead of searching on
 * unrecorded. */
START_TEST(test_append_fails)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 32];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/ledger", dir);
    cram_ledger l;
    rdb_error err;
    char link[TU_DIR_MAX + 32], nowhere[TU_DIR_MAX + 32];
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(nowhere, sizeof nowhere, "%s/no/ledger", dir);
    TU_ASSERT(symlink(path, link) == 0);
    TU_ASSERT_EQ(cram_ledger_open(&l, link, 3, 10, &err), RDB_E_IO);
    TU_ASSERT_EQ(cram_ledger_open(&l, nowhere, 3, 10, &err), RDB_E_IO);
    TU_ASSERT_MSG(strstr(err.msg, "cannot open") != NULL, "%s", err.msg);
    TU_ASSERT_EQ(cram_ledger_open(&l, path, 3, 10, &err), RDB_OK);
    unlink(path); /* made, empty, by the open */
    TU_ASSERT(mkdir(path, 0755) == 0);
    cram_solver *s = new_solver(3, 10, 1, 0);
    cram_solver_set_ledger(s, &l);
    int v = -1;
    TU_ASSERT_EQ(cram_solver_solve(s, all_cells(3, 10), &v, &err), RDB_E_IO);
    TU_ASSERT_MSG(strstr(err.msg, "cannot open") != NULL, "%s", err.msg);
    TU_ASSERT_EQ(v, -1);
    cram_solver_free(s);
    cram_ledger_close(&l);
    tu_rmrf(dir);
}
END_TEST

Suite *cram_ledger_suite(void)
{
    Suite *s = suite_create("cram_ledger");
    TCase *tc = tcase_create("resume");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_resume_boards, 1, 3);
    tcase_add_test(tc, test_resume_random);
    tcase_add_test(tc, test_table_known_children);
    tcase_add_test(tc, test_lines_true);
    suite_add_tcase(s, tc);
    tc = tcase_create("refused");
    tcase_add_test(tc, test_refused);
    tcase_add_test(tc, test_append_fails);
    suite_add_tcase(s, tc);
    return s;
}
