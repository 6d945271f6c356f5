/*
 * test_probe.c — the error paths of the public probe (src/engine/probe.c):
 * opening a folder that does not exist or holds no database, or whose
 * PARAMS is damaged; a position that lacks a line of a Swedish database's
 * start or has lines off the board (RDB_E_INPUT, naming the line); a
 * deleted slice file (RDB_E_MISSING, naming the file's path); and damaged
 * slice files (every byte flipped in turn, truncation): each lookup either
 * answers the naive solver's value or fails with RDB_E_CORRUPT, never a
 * wrong value, and the damage is noticed. Good lookups keep working next
 * to failing ones. And 8 threads probing at once, on one handle and on a
 * handle each, give one thread's answers (under ThreadSanitizer too: make
 * check-tsan).
 */
#include <check.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/builder.h"
#include "retrodb/probe.h"
#include "test_util.h"

static void build(const char *dir, int rows, int cols, uint64_t start, const char *variant)
{
    rdb_error err;
    rdb_status st = tu_build(dir, rows, cols, start, 0, 0, variant, 2, &err);
    ck_assert_msg(st == RDB_OK, "build: %s", err.msg);
}

static rdb_probe *open_probe(const char *dir);

/* ---- many threads at once ---- */

#define THREADS 8
#define LOOKUPS 200
/* ThreadSanitizer does not see OpenMP's own synchronisation (libgomp is
 * not instrumented): under it the databases are built by one thread, and
 * only the probing threads are watched (make check-tsan). */
#ifdef __SANITIZE_THREAD__
#define BUILD_THREADS 1
#else
#define BUILD_THREADS 2
#endif

/* One thread's share: every position, each turned into a number that
 * changes with the value and with every move's value. */
typedef struct {
    rdb_probe *shared; /* NULL: open a handle of its own */
    const char *dir;
    const uint64_t *positions;
    int n, first;      /* starts at positions[first], wraps around */
    int64_t *answers;
    int failed;
} probe_job;

static int64_t answer_of(rdb_probe *p, uint64_t pos)
{
    rdb_move_values mv;
    rdb_error err;
    int value = 0;
    if (rdb_probe_move_values(p, pos, &mv, &err) != RDB_OK || rdb_probe_value(p, pos, &value, &err) != RDB_OK)
        return INT64_MIN;
    uint64_t h = (uint64_t)(value * 1000003 + mv.value);
    for (int i = 0; i < mv.nmoves; i++)
        h = h * 31 + (uint64_t)(mv.moves[i].id * 257 + mv.moves[i].value);
    return (int64_t)(h >> 1); /* never INT64_MIN, the mark of no answer */
}

static void *probe_thread(void *arg)
{
    probe_job *j = arg;
    rdb_probe *p = j->shared;
    rdb_error err;
    if (!p && rdb_probe_open(j->dir, &p, &err) != RDB_OK) {
        j->failed = 1;
        return NULL;
    }
    for (int k = 0; k < j->n; k++) {
        const int i = (j->first + k) % j->n;
        j->answers[i] = answer_of(p, j->positions[i]);
    }
    if (!j->shared)
        rdb_probe_close(p);
    return NULL;
}

/* THREADS threads, sharing one handle and then each with its own, give
 * one thread's answers. */
static void check_threads(const char *dir, const uint64_t *positions, int n)
{
    rdb_probe *p = open_probe(dir);
    int64_t *want = malloc((size_t)n * sizeof *want), *got = malloc((size_t)THREADS * n * sizeof *got);
    ck_assert(want && got);
    for (int i = 0; i < n; i++) {
        want[i] = answer_of(p, positions[i]);
        ck_assert_msg(want[i] != INT64_MIN, "%s: position %#llx not answered", dir,
                      (unsigned long long)positions[i]);
    }
    for (int own = 0; own < 2; own++) {
        pthread_t t[THREADS];
        probe_job jobs[THREADS];
        for (int k = 0; k < THREADS; k++) {
            jobs[k] = (probe_job){own ? NULL : p, dir, positions, n, k * n / THREADS,
                                  got + (size_t)k * n, 0};
            ck_assert_int_eq(pthread_create(&t[k], NULL, probe_thread, &jobs[k]), 0);
        }
        for (int k = 0; k < THREADS; k++) {
            pthread_join(t[k], NULL);
            ck_assert(!jobs[k].failed);
            for (int i = 0; i < n; i++)
                ck_assert_msg(got[(size_t)k * n + i] == want[i],
                              "%s: thread %d (%s handle), position %#llx: another answer", dir, k,
                              own ? "its own" : "a shared", (unsigned long long)positions[i]);
        }
    }
    free(want);
    free(got);
    rdb_probe_close(p);
}

static void random_positions(uint64_t *out, int n, int bits, uint64_t start, uint64_t seed)
{
    for (int i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        out[i] = ((seed >> 11) & ((1ULL << bits) - 1)) | start;
    }
}

START_TEST(test_threads)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 16];
    tu_mkdtemp(dir);
    uint64_t pos[LOOKUPS];
    rdb_error err;
    /* Dots 3x3, the levels beyond 14 lines deleted (solved on the spot) */
    snprintf(path, sizeof path, "%s/d33", dir);
    ck_assert_msg(tu_build_keep(path, 3, 3, 0, 0, 0, "empty", BUILD_THREADS, 14, &err) == RDB_OK, "%s", err.msg);
    random_positions(pos, LOOKUPS, 24, 0, 1);
    for (int i = 0; i < LOOKUPS / 4; i++) /* some of the kept levels too */
        pos[i] &= pos[i] >> 7 & pos[i] >> 13;
    check_threads(path, pos, LOOKUPS);
    /* the quiet 3x3 (positions not stored valued through the capture rules) */
    rdb_build_options opt;
    snprintf(path, sizeof path, "%s/q33", dir);
    tu_build_options(&opt, path, RDB_GAME_DOTS, 3, 3);
    opt.params.store = RDB_STORE_QUIET;
    opt.threads = BUILD_THREADS;
    ck_assert_msg(rdb_build(&opt, &err) == RDB_OK, "%s", err.msg);
    check_threads(path, pos, LOOKUPS);
    /* Cram 4x4 */
    snprintf(path, sizeof path, "%s/c44", dir);
    tu_build_options(&opt, path, RDB_GAME_CRAM, 4, 4);
    opt.threads = BUILD_THREADS;
    ck_assert_msg(rdb_build(&opt, &err) == RDB_OK, "%s", err.msg);
    random_positions(pos, LOOKUPS, 16, 0, 2);
    check_threads(path, pos, LOOKUPS);
    tu_rmrf(dir);
}
END_TEST

static rdb_probe *open_probe(const char *dir)
{
    rdb_probe *p = NULL;
    rdb_error err;
    ck_assert_msg(rdb_probe_open(dir, &p, &err) == RDB_OK, "open '%s': %s", dir, err.msg);
    return p;
}

/* Path of the one slice file of a level (level folder holds one file or a
 * folder tree with one file when the level has one slice). */
static void level_file(const char *dir, int level, char *out, size_t size)
{
    char **files;
    int n = tu_list_files(dir, &files);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "/%d/", level);
    int found = 0;
    for (int i = 0; i < n; i++)
        if (strncmp(files[i], prefix, strlen(prefix)) == 0 && strstr(files[i], ".zst")) {
            snprintf(out, size, "%s%s", dir, files[i]);
            found++;
        }
    tu_free_list(files, n);
    ck_assert_msg(found == 1, "level %d has %d slice files", level, found);
}

/* Path of the largest slice file. */
static void largest_file(const char *dir, char *out, size_t size)
{
    char **files;
    int n = tu_list_files(dir, &files);
    size_t best = 0;
    for (int i = 0; i < n; i++) {
        if (!strstr(files[i], ".zst"))
            continue;
        char path[256];
        snprintf(path, sizeof path, "%s%s", dir, files[i]);
        size_t len;
        unsigned char *data = tu_read_file(path, &len);
        free(data);
        if (len > best) {
            best = len;
            snprintf(out, size, "%s", path);
        }
    }
    tu_free_list(files, n);
    ck_assert(best > 0);
}

START_TEST(test_open_errors)
{
    rdb_probe *p = NULL;
    rdb_error err;
    char dir[TU_DIR_MAX], path[256];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/no-such-db", dir);
    err.msg[0] = '\0';
    rdb_status st = rdb_probe_open(path, &p, &err);
    ck_assert_int_ne(st, RDB_OK);
    ck_assert_msg(strstr(err.msg, path) != NULL, "message '%s' does not name '%s'", err.msg, path);
    /* an existing folder without a database */
    err.msg[0] = '\0';
    st = rdb_probe_open(dir, &p, &err);
    ck_assert_int_ne(st, RDB_OK);
    ck_assert_msg(strstr(err.msg, dir) != NULL, "message '%s' does not name '%s'", err.msg, dir);
    /* a damaged PARAMS */
    snprintf(path, sizeof path, "%s/PARAMS", dir);
    const char *junk = "retrodb-params 1\ngame dots\nboard 2x\n";
    ck_assert_int_eq(tu_write_file(path, junk, strlen(junk)), 0);
    err.msg[0] = '\0';
    st = rdb_probe_open(dir, &p, &err);
    ck_assert_int_eq(st, RDB_E_CORRUPT);
    ck_assert(strstr(err.msg, dir) != NULL);
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_bad_positions)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    uint64_t start = tu_border(2, 2);
    build(dir, 2, 2, start, "swedish");
    rdb_probe *p = open_probe(dir);
    int rows, cols;
    uint64_t s;
    rdb_probe_board(p, &rows, &cols, &s);
    ck_assert_int_eq(rows, 2);
    ck_assert_int_eq(cols, 2);
    ck_assert(s == start);
    rdb_error err;
    int v;
    rdb_dots_answer a;
    /* the empty board lacks h0,0 of the start */
    err.msg[0] = '\0';
    ck_assert_int_eq(rdb_probe_value(p, 0, &v, &err), RDB_E_INPUT);
    ck_assert_msg(strstr(err.msg, "h0,0") != NULL, "message: %s", err.msg);
    ck_assert_int_eq(rdb_probe_moves(p, 0, &a, &err), RDB_E_INPUT);
    /* all of the start but v1,2 (= 6 + 3 + 2 = 11) */
    uint64_t pos = start & ~(1ULL << 11);
    err.msg[0] = '\0';
    ck_assert_int_eq(rdb_probe_value(p, pos, &v, &err), RDB_E_INPUT);
    ck_assert_msg(strstr(err.msg, "v1,2") != NULL, "message: %s", err.msg);
    ck_assert_int_eq(rdb_probe_moves(p, pos | 1ULL << 2, &a, &err), RDB_E_INPUT);
    /* a line off the 12-line board */
    err.msg[0] = '\0';
    ck_assert_int_eq(rdb_probe_value(p, start | 1ULL << 12, &v, &err), RDB_E_INPUT);
    ck_assert(err.msg[0] != '\0');
    ck_assert_int_eq(rdb_probe_moves(p, start | 1ULL << 40, &a, &err), RDB_E_INPUT);
    /* and good lookups still work */
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 2, 2, start, 0), 0);
    tu_compare_with_naive(dir, &nv, 0, 0);
    ck_assert_int_eq(rdb_probe_value(p, start, &v, &err), RDB_OK);
    ck_assert_int_eq(v, naive_value(&nv, start));
    naive_free(&nv);
    rdb_probe_close(p);
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_deleted_slice)
{
    char dir[TU_DIR_MAX], path[256];
    tu_mkdtemp(dir);
    build(dir, 2, 3, 0, "empty");
    level_file(dir, 0, path, sizeof path);
    ck_assert_int_eq(unlink(path), 0);
    rdb_probe *p = open_probe(dir);
    rdb_error err;
    int v;
    err.msg[0] = '\0';
    ck_assert_int_eq(rdb_probe_value(p, 0, &v, &err), RDB_E_MISSING);
    ck_assert_msg(strstr(err.msg, path) != NULL, "message '%s' does not name '%s'", err.msg, path);
    rdb_dots_answer a;
    ck_assert_int_eq(rdb_probe_moves(p, 0, &a, &err), RDB_E_MISSING);
    /* other levels are still answered, correctly */
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 2, 3, 0, 0), 0);
    for (int l = 0; l < nv.board.nlines; l++) {
        ck_assert_int_eq(rdb_probe_value(p, 1ULL << l, &v, &err), RDB_OK);
        ck_assert_int_eq(v, naive_value(&nv, 1ULL << l));
        ck_assert_int_eq(rdb_probe_moves(p, 1ULL << l, &a, &err), RDB_OK);
        ck_assert_int_eq(a.value, naive_value(&nv, 1ULL << l));
    }
    /* the missing slice is still reported after other lookups */
    ck_assert_int_eq(rdb_probe_value(p, 0, &v, &err), RDB_E_MISSING);
    naive_free(&nv);
    rdb_probe_close(p);
    tu_rmrf(dir);
}
END_TEST

/* Probe every position (fresh handle); each answer is the naive value or
 * RDB_E_CORRUPT. Returns the number of RDB_E_CORRUPT answers. */
/* A position whose own value is stored but whose moves lead into a level
 * whose files are gone: the answer fails, and what it holds is consistent
 * (the value, and only moves that were found), whatever was in it before. */
START_TEST(test_missing_children)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    build(dir, 2, 3, 0, "empty");
    char **files;
    int n = tu_list_files(dir, &files), removed = 0;
    for (int i = 0; i < n; i++)
        if (strncmp(files[i], "/1/", 3) == 0 && strstr(files[i], ".zst")) {
            char path[TU_DIR_MAX + 256];
            snprintf(path, sizeof path, "%s%s", dir, files[i]);
            ck_assert_int_eq(unlink(path), 0);
            removed++;
        }
    tu_free_list(files, n);
    ck_assert_int_gt(removed, 0);
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 2, 3, 0, 0), 0);
    rdb_probe *p = open_probe(dir);
    rdb_error err;
    rdb_dots_answer a;
    memset(&a, 0x7f, sizeof a);
    ck_assert_int_eq(rdb_probe_moves(p, 0, &a, &err), RDB_E_MISSING);
    ck_assert_int_eq(a.value, naive_value(&nv, 0));
    ck_assert(a.nmoves >= 0 && a.nmoves < nv.board.nlines);
    for (int i = 0; i < a.nmoves; i++)
        ck_assert(a.line[i] >= 0 && a.line[i] < nv.board.nlines);
    rdb_move_values mv;
    memset(&mv, 0x7f, sizeof mv);
    ck_assert_int_eq(rdb_probe_move_values(p, 0, &mv, &err), RDB_E_MISSING);
    ck_assert_int_eq(mv.value, naive_value(&nv, 0));
    ck_assert_int_eq(mv.nmoves, a.nmoves);
    naive_free(&nv);
    rdb_probe_close(p);
    tu_rmrf(dir);
}
END_TEST

static int probe_all(const char *dir, const naive_dots *nv, const char *what)
{
    rdb_probe *p = open_probe(dir);
    int corrupt = 0;
    uint64_t npos = 1ULL << nv->board.nlines;
    for (uint64_t pos = 0; pos < npos; pos++) {
        rdb_error err;
        int v = -100;
        err.msg[0] = '\0';
        rdb_status st = rdb_probe_value(p, pos, &v, &err);
        if (st == RDB_OK)
            TU_ASSERT_MSG(v == naive_value(nv, pos), "%s: position 0x%llx: wrong value %d (naive %d)",
                          what, (unsigned long long)pos, v, naive_value(nv, pos));
        else {
            TU_ASSERT_MSG(st == RDB_E_CORRUPT, "%s: position 0x%llx: status %d (%s)", what,
                          (unsigned long long)pos, (int)st, err.msg);
            TU_ASSERT(strstr(err.msg, dir) != NULL);
            corrupt++;
        }
    }
    rdb_probe_close(p);
    return corrupt;
}

START_TEST(test_flipped_slice)
{
    char dir[TU_DIR_MAX], path[256];
    tu_mkdtemp(dir);
    build(dir, 2, 2, 0, "empty");
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 2, 2, 0, 0), 0);
    largest_file(dir, path, sizeof path);
    size_t len;
    unsigned char *data = tu_read_file(path, &len);
    ck_assert(data != NULL);
    ck_assert_int_eq(probe_all(dir, &nv, "intact"), 0);

    /* a byte in the middle */
    data[len / 2] ^= 0x04;
    ck_assert_int_eq(tu_write_file(path, data, len), 0);
    data[len / 2] ^= 0x04;
    ck_assert_int_gt(probe_all(dir, &nv, "middle byte flipped"), 0);

    /* every byte in turn */
    int noticed = 0;
    for (size_t off = 0; off < len; off++) {
        char what[64];
        snprintf(what, sizeof what, "byte %zu of %zu flipped", off, len);
        data[off] ^= 0x21;
        ck_assert_int_eq(tu_write_file(path, data, len), 0);
        data[off] ^= 0x21;
        noticed += probe_all(dir, &nv, what) > 0;
    }
    ck_assert_msg(noticed >= (int)len * 9 / 10, "only %d of %zu flips noticed", noticed, len);

    /* truncated */
    ck_assert_int_eq(tu_write_file(path, data, len - 5), 0);
    ck_assert_int_gt(probe_all(dir, &nv, "truncated"), 0);
    ck_assert_int_eq(tu_write_file(path, data, 10), 0);
    ck_assert_int_gt(probe_all(dir, &nv, "truncated to 10 bytes"), 0);

    /* restored, all is well again */
    ck_assert_int_eq(tu_write_file(path, data, len), 0);
    ck_assert_int_eq(probe_all(dir, &nv, "restored"), 0);
    free(data);
    naive_free(&nv);
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_swapped_slices)
{
    /* A slice file copied over another one of the same level holds another
     * slice: RDB_E_CORRUPT, not its values. */
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    build(dir, 2, 3, 0, "empty");
    char **files;
    int n = tu_list_files(dir, &files);
    /* the first and the last slice of the middle level */
    char a[256] = "", b[256] = "";
    for (int i = 0; i < n; i++)
        if (strncmp(files[i], "/8/", 3) == 0 && strstr(files[i], ".zst")) {
            if (!a[0])
                snprintf(a, sizeof a, "%s%s", dir, files[i]);
            else
                snprintf(b, sizeof b, "%s%s", dir, files[i]);
        }
    tu_free_list(files, n);
    ck_assert_msg(b[0], "no level with two slice files");
    size_t len;
    unsigned char *data = tu_read_file(a, &len);
    ck_assert(data != NULL);
    ck_assert_int_eq(tu_write_file(b, data, len), 0);
    free(data);
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 2, 3, 0, 0), 0);
    ck_assert_int_gt(probe_all(dir, &nv, "swapped"), 0);
    naive_free(&nv);
    tu_rmrf(dir);
}
END_TEST

/* A half quiet database is read into memory whole but for the parts it
 * dropped (they are gone: reading them failed the preload once, and every
 * lookup then decompressed frames), and answers as the full database. */
START_TEST(test_half_preload)
{
    char dir[TU_DIR_MAX], full[TU_DIR_MAX + 8], half[TU_DIR_MAX + 8];
    rdb_error err;
    tu_mkdtemp(dir);
    snprintf(full, sizeof full, "%s/full", dir);
    snprintf(half, sizeof half, "%s/half", dir);
    ck_assert_msg(tu_build(full, 3, 3, 0, 0, 0, "empty", 2, &err) == RDB_OK, "%s", err.msg);
    rdb_build_options opt;
    tu_build_options(&opt, half, RDB_GAME_DOTS, 3, 3);
    opt.params.store = RDB_STORE_QUIET_HALF;
    opt.threads = 2;
    ck_assert_msg(rdb_build(&opt, &err) == RDB_OK, "%s", err.msg);
    rdb_probe *pf = open_probe(full), *ph = open_probe(half);
    ck_assert_msg(rdb_probe_preload(ph, 1 << 30, &err) == RDB_OK, "preload: %s", err.msg);
    enum { N = 20000 };
    uint64_t *pos = malloc(N * sizeof *pos);
    random_positions(pos, N, 24, 0, 3);
    for (int i = 0; i < N; i++) {
        int want, got;
        ck_assert_int_eq(rdb_probe_value(pf, pos[i], &want, &err), RDB_OK);
        ck_assert_msg(rdb_probe_value(ph, pos[i], &got, &err) == RDB_OK, "%s", err.msg);
        ck_assert_msg(got == want, "position %#llx: %d, the full database %d",
                      (unsigned long long)pos[i], got, want);
    }
    free(pos);
    rdb_probe_close(pf);
    rdb_probe_close(ph);
    tu_rmrf(dir);
}
END_TEST

Suite *probe_suite(void)
{
    Suite *s = suite_create("probe");
    TCase *tc = tcase_create("probe");
    /* a guard against a hang, not a measure: test_flipped_slice damages
     * and reads a file a thousand times, fsync'ing each */
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_open_errors);
    tcase_add_test(tc, test_bad_positions);
    tcase_add_test(tc, test_deleted_slice);
    tcase_add_test(tc, test_missing_children);
    tcase_add_test(tc, test_flipped_slice);
    tcase_add_test(tc, test_swapped_slices);
    tcase_add_test(tc, test_half_preload);
    suite_add_tcase(s, tc);
    /* a case of its own, for make check-tsan (CK_RUN_CASE=threads) */
    TCase *threads = tcase_create("threads");
    tcase_set_timeout(threads, 600);
    tcase_add_test(threads, test_threads);
    suite_add_tcase(s, threads);
    return s;
}
