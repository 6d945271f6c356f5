/*
 * test_builder.c — the core correctness test of the builder
 * (src/engine/builder.c, through rdb_build and the public probe): databases are
 * built for many small games and every position containing the start (or,
 * on the 3x3 and 2x4 empty boards, a few thousand random ones) is looked up
 * with rdb_probe_moves; its value and every move's value must equal the
 * naive reference solver's. Cases: empty 1x1..1x4, 2x2, 2x3; Swedish and
 * Icelandic 2x2, 2x3, 3x3; a custom 2x3 start with a box complete; 3x3 and
 * 2x4 empty (sampled); group counts forced to 1, 2, 3 where the planner
 * accepts them (and a refused count must make rdb_build fail); levels
 * deleted after the build (keep_lines) and solved by the probe; a full
 * position worth -2 (a last-move penalty); and one build with 1 thread
 * and one with 2 threads must give byte-identical files.
 */
#include <check.h>
#include <math.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dots/dots_rules.h"
#include "engine/progress.h"
#include "layout/layout.h"
#include "store/lock.h"
#include "test_util.h"

/* Build and compare one game; sample 0 = every position. */
static void build_and_compare(int rows, int cols, uint64_t start, int full_value, int ngroups,
                              const char *variant, long sample)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = tu_build(dir, rows, cols, start, full_value, ngroups, variant, 2, &err);
    ck_assert_msg(st == RDB_OK, "build %dx%d %s groups %d: %s", rows, cols, variant, ngroups,
                  err.msg);
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, rows, cols, start, full_value), 0);
    long n = tu_compare_with_naive(dir, &nv, sample, (uint64_t)(rows * 100 + cols));
    if (sample == 0)
        ck_assert_int_eq(n, 1L << (nv.board.nlines - __builtin_popcountll(start)));
    naive_free(&nv);
    tu_rmrf(dir);
}

START_TEST(test_empty_1x1) { build_and_compare(1, 1, 0, 0, 0, "empty", 0); }
END_TEST
START_TEST(test_empty_1x2) { build_and_compare(1, 2, 0, 0, 0, "empty", 0); }
END_TEST
START_TEST(test_empty_1x3) { build_and_compare(1, 3, 0, 0, 0, "empty", 0); }
END_TEST
START_TEST(test_empty_1x4) { build_and_compare(1, 4, 0, 0, 0, "empty", 0); }
END_TEST
START_TEST(test_empty_2x2) { build_and_compare(2, 2, 0, 0, 0, "empty", 0); }
END_TEST
START_TEST(test_empty_2x3) { build_and_compare(2, 3, 0, 0, 0, "empty", 0); }
END_TEST
START_TEST(test_empty_3x2) { build_and_compare(3, 2, 0, 0, 0, "empty", 0); }
END_TEST

START_TEST(test_swedish)
{
    build_and_compare(2, 2, tu_border(2, 2), 0, 0, "swedish", 0);
    build_and_compare(2, 3, tu_border(2, 3), 0, 0, "swedish", 0);
    build_and_compare(3, 3, tu_border(3, 3), 0, 0, "swedish", 0);
}
END_TEST

START_TEST(test_icelandic)
{
    build_and_compare(2, 2, tu_icelandic(2, 2), 0, 0, "icelandic", 0);
    build_and_compare(2, 3, tu_icelandic(2, 3), 0, 0, "icelandic", 0);
    build_and_compare(3, 3, tu_icelandic(3, 3), 0, 0, "icelandic", 0);
}
END_TEST

START_TEST(test_custom_start)
{
    /* 2x3: box (0,0) complete (h0,0 h1,0 v0,0 v0,1), plus h2,2, v1,3 and
     * h1,1; lines: h(i,j) = 3i+j, v(i,j) = 9+4i+j */
    uint64_t start = 1ULL << 0 | 1ULL << 3 | 1ULL << 9 | 1ULL << 10 | 1ULL << 8 | 1ULL << 16 |
                     1ULL << 4;
    build_and_compare(2, 3, start, 0, 0, "custom", 0);
    /* 3x3 with the centre box complete and a corner line: 19 open lines,
     * sampled */
    uint64_t s3 = 1ULL << 4 | 1ULL << 7 | 1ULL << (12 + 4 + 1) | 1ULL << (12 + 4 + 2) | 1ULL << 0;
    build_and_compare(3, 3, s3, 0, 0, "custom", 4000);
}
END_TEST

START_TEST(test_sampled_3x3) { build_and_compare(3, 3, 0, 0, 0, "empty", 3000); }
END_TEST
START_TEST(test_sampled_2x4) { build_and_compare(2, 4, 0, 0, 0, "empty", 3000); }
END_TEST

/* Whether the planner accepts ngroups for this game. */
static int planner_accepts(int rows, int cols, uint64_t start, int ngroups)
{
    dots_board b;
    rdb_error err;
    ck_assert_int_eq(dots_board_init(&b, rows, cols, &err), RDB_OK);
    dots_game g;
    rdb_error gerr;
    ck_assert_int_eq(dots_game_init(&g, &b, start, 0, 0, &gerr), RDB_OK);
    rdb_layout_plan plan;
    return rdb_layout_plan_groups(&g.u, ngroups, UINT64_MAX, &plan, NULL, &err) == RDB_OK;
}

static void forced_groups(int rows, int cols, uint64_t start, const char *variant, long sample)
{
    int accepted = 0;
    for (int g = 1; g <= 3; g++) {
        if (planner_accepts(rows, cols, start, g)) {
            build_and_compare(rows, cols, start, 0, g, variant, sample);
            accepted++;
        } else {
            char dir[TU_DIR_MAX];
            tu_mkdtemp(dir);
            rdb_error err;
            err.msg[0] = '\0';
            rdb_status st = tu_build(dir, rows, cols, start, 0, g, variant, 2, &err);
            ck_assert_msg(st != RDB_OK, "%dx%d: build with %d groups the planner refuses", rows,
                          cols, g);
            ck_assert(err.msg[0] != '\0');
            tu_rmrf(dir);
        }
    }
    ck_assert_msg(accepted >= 1, "%dx%d %s: no group count accepted", rows, cols, variant);
}

START_TEST(test_groups_2x2) { forced_groups(2, 2, 0, "empty", 0); }
END_TEST
START_TEST(test_groups_2x3) { forced_groups(2, 3, 0, "empty", 0); }
END_TEST
START_TEST(test_groups_1x4) { forced_groups(1, 4, 0, "empty", 0); }
END_TEST
START_TEST(test_groups_icelandic_2x3) { forced_groups(2, 3, tu_icelandic(2, 3), "icelandic", 0); }
END_TEST
START_TEST(test_groups_swedish_3x3) { forced_groups(3, 3, tu_border(3, 3), "swedish", 0); }
END_TEST
START_TEST(test_groups_3x3) { forced_groups(3, 3, 0, "empty", 1000); }
END_TEST

/* Levels beyond keep_lines are deleted and solved on the spot by the
 * probe: the answers must not change. */
static void keep_and_compare(int rows, int cols, uint64_t start, const char *variant,
                             int keep_lines, long sample)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = tu_build_keep(dir, rows, cols, start, 0, 0, variant, 2, keep_lines, &err);
    ck_assert_msg(st == RDB_OK, "build %dx%d keep %d: %s", rows, cols, keep_lines, err.msg);
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, rows, cols, start, 0), 0);
    tu_compare_with_naive(dir, &nv, sample, 31);
    naive_free(&nv);
    tu_rmrf(dir);
}

START_TEST(test_keep_lines)
{
    keep_and_compare(2, 2, 0, "empty", 5, 0);
    keep_and_compare(2, 2, tu_border(2, 2), "swedish", 9, 0);
    keep_and_compare(2, 3, 0, "empty", 8, 3000);
    keep_and_compare(3, 3, 0, "empty", 14, 300);
}
END_TEST

START_TEST(test_full_value)
{
    build_and_compare(2, 2, 0, -2, 0, "empty", 0);
    build_and_compare(1, 3, 0, -2, 0, "empty", 0);
    build_and_compare(2, 2, tu_border(2, 2), -1, 0, "swedish", 0);
}
END_TEST

/* The first six fields of every MANIFEST line, sorted, one per line. */
static char *manifest_key(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    size_t len;
    char *text = (char *)tu_read_file(path, &len);
    ck_assert(text != NULL);
    char **lines = NULL;
    int n = 0;
    size_t total = 1;
    for (char *p = text; p < text + len;) {
        char *e = memchr(p, '\n', (size_t)(text + len - p));
        size_t l = e ? (size_t)(e - p) : (size_t)(text + len - p);
        char line[512], f[6][128];
        snprintf(line, sizeof line, "%.*s", (int)(l < 511 ? l : 511), p);
        if (sscanf(line, "%127s %127s %127s %127s %127s %127s", f[0], f[1], f[2], f[3], f[4],
                   f[5]) == 6) {
            lines = realloc(lines, (size_t)(n + 1) * sizeof *lines);
            char key[800];
            snprintf(key, sizeof key, "%s %s %s %s %s %s", f[0], f[1], f[2], f[3], f[4], f[5]);
            lines[n++] = strdup(key);
            total += strlen(key) + 1;
        }
        p += l + 1;
    }
    free(text);
    for (int i = 1; i < n; i++) /* insertion sort */
        for (int j = i; j > 0 && strcmp(lines[j - 1], lines[j]) > 0; j--) {
            char *t = lines[j];
            lines[j] = lines[j - 1];
            lines[j - 1] = t;
        }
    char *out = malloc(total);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        strcat(out, lines[i]);
        strcat(out, "\n");
        free(lines[i]);
    }
    free(lines);
    ck_assert_int_gt(n, 25);
    return out;
}

static int manifests_agree(const char *d1, const char *d2)
{
    char *a = manifest_key(d1), *b = manifest_key(d2);
    int same = strcmp(a, b) == 0;
    free(a);
    free(b);
    return same;
}

START_TEST(test_threads_identical)
{
    char d1[TU_DIR_MAX], d2[TU_DIR_MAX];
    tu_mkdtemp(d1);
    tu_mkdtemp(d2);
    rdb_error err;
    ck_assert_msg(tu_build(d1, 3, 3, 0, 0, 0, "empty", 1, &err) == RDB_OK, "%s", err.msg);
    ck_assert_msg(tu_build(d2, 3, 3, 0, 0, 0, "empty", 2, &err) == RDB_OK, "%s", err.msg);
    char **f1, **f2;
    int n1 = tu_list_files(d1, &f1);
    int n2 = tu_list_files(d2, &f2);
    ck_assert_int_eq(n1, n2);
    ck_assert_int_gt(n1, 25); /* PARAMS, MANIFEST, LOCK and the slices of 25 levels */
    int slices = 0;
    for (int i = 0; i < n1; i++) {
        ck_assert_str_eq(f1[i], f2[i]);
        if (strcmp(f1[i], "/LOCK") == 0)
            continue; /* holds the builder's pid (the same here, but not a result) */
        if (strcmp(f1[i], "/MANIFEST") == 0) {
            /* slice, level, counts, entries, checksum, bytes must agree; the
             * order of lines and anything after (timings) may differ */
            ck_assert_msg(manifests_agree(d1, d2), "MANIFEST differs with 1 and 2 threads");
            continue;
        }
        char p1[256], p2[256];
        snprintf(p1, sizeof p1, "%s%s", d1, f1[i]);
        snprintf(p2, sizeof p2, "%s%s", d2, f2[i]);
        size_t l1, l2;
        unsigned char *a = tu_read_file(p1, &l1), *b = tu_read_file(p2, &l2);
        ck_assert(a && b);
        ck_assert_msg(l1 == l2 && memcmp(a, b, l1) == 0, "%s differs with 1 and 2 threads", f1[i]);
        slices += strstr(f1[i], ".zst") != NULL;
        free(a);
        free(b);
    }
    ck_assert_int_gt(slices, 25);
    tu_free_list(f1, n1);
    tu_free_list(f2, n2);
    /* and the database is right */
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 3, 3, 0, 0), 0);
    tu_compare_with_naive(d1, &nv, 500, 7);
    naive_free(&nv);
    tu_rmrf(d1);
    tu_rmrf(d2);
}
END_TEST

/* A reader's shared lock of an instant (`status` asking whether a builder
 * runs) must not make a starting builder refuse; a builder's exclusive
 * lock must. */
static void *release_later(void *arg)
{
    usleep(50 * 1000);
    flock(*(int *)arg, LOCK_UN);
    return NULL;
}

/* The time left: none while the first seconds or the first small levels
 * are all there is to go by, then the work left at the rate so far; work
 * weighs a position by its moves. */
START_TEST(test_time_left)
{
    ck_assert(rdb_progress_estimate(900, 100, 9.9, 1000) < 0);  /* under 10 s */
    ck_assert(rdb_progress_estimate(990, 10, 60, 1000) < 0);    /* 1% of the work */
    ck_assert(fabs(rdb_progress_estimate(990, 10, 1800, 1000) - 178200) < 1e-6); /* 1%, 30 min */
    ck_assert(rdb_progress_estimate(999, 1, 1800, 1000) < 0);   /* 0.1%, 30 min */
    ck_assert(rdb_progress_estimate(1000, 0, 60, 1000) < 0);    /* nothing timed */
    ck_assert(fabs(rdb_progress_estimate(900, 100, 20, 1000) - 180) < 1e-9);
    ck_assert(fabs(rdb_progress_level_weight(24, 24) - 1) < 1e-9); /* the full board */
    ck_assert(fabs(rdb_progress_level_weight(24, 0) - 25) < 1e-9);  /* the start: 24 moves */
}
END_TEST

START_TEST(test_lock_waits_for_readers)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 8];
    tu_mkdtemp(dir);
    snprintf(path, sizeof path, "%s/LOCK", dir);
    int reader = open(path, O_RDWR | O_CREAT, 0666);
    ck_assert_int_ge(reader, 0);
    ck_assert_int_eq(flock(reader, LOCK_SH | LOCK_NB), 0);
    pthread_t t;
    pthread_create(&t, NULL, release_later, &reader);
    int fd;
    rdb_error err;
    ck_assert_msg(rdb_lock_acquire(dir, &fd, &err) == RDB_OK, "%s", err.msg);
    pthread_join(t, NULL);
    /* now a builder holds it: another one is refused, naming it */
    int other;
    ck_assert_int_eq(rdb_lock_acquire(dir, &other, &err), RDB_E_BUSY);
    ck_assert_ptr_nonnull(strstr(err.msg, "another builder"));
    ck_assert_int_eq(rdb_lock_holder(dir), (long)getpid());
    rdb_lock_release(fd);
    ck_assert_int_eq(rdb_lock_holder(dir), 0);
    close(reader);
    tu_rmrf(dir);
}
END_TEST

Suite *builder_suite(void)
{
    Suite *s = suite_create("builder");
    TCase *tc = tcase_create("builder");
    tcase_set_timeout(tc, 300); /* a hang guard: about 20 s alone, 120 s and more on two busy cores */
    tcase_add_test(tc, test_empty_1x1);
    tcase_add_test(tc, test_lock_waits_for_readers);
    tcase_add_test(tc, test_time_left);
    tcase_add_test(tc, test_empty_1x2);
    tcase_add_test(tc, test_empty_1x3);
    tcase_add_test(tc, test_empty_1x4);
    tcase_add_test(tc, test_empty_2x2);
    tcase_add_test(tc, test_empty_2x3);
    tcase_add_test(tc, test_empty_3x2);
    tcase_add_test(tc, test_swedish);
    tcase_add_test(tc, test_icelandic);
    tcase_add_test(tc, test_custom_start);
    tcase_add_test(tc, test_sampled_3x3);
    tcase_add_test(tc, test_sampled_2x4);
    tcase_add_test(tc, test_groups_2x2);
    tcase_add_test(tc, test_groups_2x3);
    tcase_add_test(tc, test_groups_1x4);
    tcase_add_test(tc, test_groups_icelandic_2x3);
    tcase_add_test(tc, test_groups_swedish_3x3);
    tcase_add_test(tc, test_groups_3x3);
    tcase_add_test(tc, test_keep_lines);
    tcase_add_test(tc, test_full_value);
    tcase_add_test(tc, test_threads_identical);
    suite_add_tcase(s, tc);
    return s;
}
