/*
 * test_util.c — helpers shared by the unit test suites; see test_util.h.
 * No tests live here. The comparison with the naive solver is the heart of
 * the builder, known-value and probe tests.
 */
#define _GNU_SOURCE
#include "test_util.h"

#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/job.h"
#include "engine/builder.h"
#include "retrodb/probe.h"

const char *tu_temp_base(void)
{
    const char *base = getenv("RDB_TEST_BASE");
    if (!base || !*base || strlen(base) > 80)
        base = getenv("TMPDIR");
    if (!base || !*base || strlen(base) > 80)
        base = "/tmp";
    return base;
}

void tu_mkdtemp(char *buf)
{
    const char *base = tu_temp_base();
    snprintf(buf, TU_DIR_MAX, "%s/rdbtest.XXXXXX", base);
    ck_assert_msg(mkdtemp(buf) != NULL, "mkdtemp in '%s' failed", base);
}

static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (type == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void tu_rmrf(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void tu_stop_at_call(cram_solver *s, void *calls_left)
{
    (void)s;
    int *left = calls_left;
    if (--*left == 0)
        rdb_stop_requested = SIGINT;
}

unsigned char *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

int tu_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = len ? fwrite(data, 1, len, f) : 0;
    int rc = fclose(f);
    return put == len && rc == 0 ? 0 : -1;
}

/* nftw has no user pointer: collect into statics (tests run one at a time
 * in their own process). */
static char **list_out;
static int list_n, list_cap;
static size_t list_prefix;

static int list_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (type != FTW_F)
        return 0;
    if (list_n == list_cap) {
        list_cap = list_cap ? 2 * list_cap : 64;
        list_out = realloc(list_out, (size_t)list_cap * sizeof *list_out);
        ck_assert(list_out != NULL);
    }
    list_out[list_n++] = strdup(path + list_prefix);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int tu_list_files(const char *dir, char ***out)
{
    list_out = NULL;
    list_n = list_cap = 0;
    list_prefix = strlen(dir);
    nftw(dir, list_entry, 16, FTW_PHYS);
    if (list_n)
        qsort(list_out, (size_t)list_n, sizeof *list_out, cmp_str);
    *out = list_out;
    return list_n;
}

void tu_free_list(char **list, int n)
{
    for (int i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

uint64_t tu_border(int rows, int cols)
{
    uint64_t m = 0;
    for (int j = 0; j < cols; j++)
        m |= 1ULL << naive_hline(rows, cols, 0, j) | 1ULL << naive_hline(rows, cols, rows, j);
    for (int i = 0; i < rows; i++)
        m |= 1ULL << naive_vline(rows, cols, i, 0) | 1ULL << naive_vline(rows, cols, i, cols);
    return m;
}

uint64_t tu_icelandic(int rows, int cols)
{
    uint64_t m = 0;
    for (int j = 0; j < cols; j++)
        m |= 1ULL << naive_hline(rows, cols, rows, j);
    for (int i = 0; i < rows; i++)
        m |= 1ULL << naive_vline(rows, cols, i, 0);
    return m;
}

rdb_status tu_build(const char *dir, int rows, int cols, uint64_t start, int full_value,
                    int ngroups, const char *variant, int threads, rdb_error *err)
{
    return tu_build_keep(dir, rows, cols, start, full_value, ngroups, variant, threads, -1, err);
}

void tu_build_options(rdb_build_options *opt, const char *dir, int game, int rows, int cols)
{
    memset(opt, 0, sizeof *opt);
    opt->dir = dir;
    opt->params.game = game;
    opt->params.rows = rows;
    opt->params.cols = cols;
    opt->params.zstd_level = 3;
    snprintf(opt->params.variant, sizeof opt->params.variant, "custom");
    opt->memory_mb = 256;
    opt->quiet = 1;
    opt->keep_lines = -1;
}

rdb_status tu_build_keep(const char *dir, int rows, int cols, uint64_t start, int full_value,
                         int ngroups, const char *variant, int threads, int keep_lines,
                         rdb_error *err)
{
    rdb_build_options opt;
    tu_build_options(&opt, dir, RDB_GAME_DOTS, rows, cols);
    opt.params.start = start;
    opt.params.full_value = full_value;
    opt.params.ngroups = ngroups;
    snprintf(opt.params.variant, sizeof opt.params.variant, "%s", variant);
    opt.threads = threads;
    opt.keep_lines = keep_lines;
    return rdb_build(&opt, err);
}

static void check_position(rdb_probe *p, const naive_dots *nv, uint64_t pos)
{
    const naive_board *b = &nv->board;
    rdb_dots_answer a;
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = rdb_probe_moves(p, pos, &a, &err);
    TU_ASSERT_MSG(st == RDB_OK, "%dx%d position 0x%llx: probe failed (%d): %s", b->rows, b->cols,
                  (unsigned long long)pos, (int)st, err.msg);
    int want = naive_value(nv, pos);
    TU_ASSERT_MSG(a.value == want, "%dx%d start 0x%llx position 0x%llx: value %d, naive %d",
                  b->rows, b->cols, (unsigned long long)nv->start, (unsigned long long)pos,
                  a.value, want);
    int k = 0;
    for (int l = 0; l < b->nlines; l++) {
        if (pos >> l & 1)
            continue;
        TU_ASSERT_MSG(k < a.nmoves && a.line[k] == l,
                      "%dx%d position 0x%llx: move %d should be line %d", b->rows, b->cols,
                      (unsigned long long)pos, k, l);
        int mv = naive_move_value(nv, pos, l);
        TU_ASSERT_MSG(a.move_value[k] == mv,
                      "%dx%d start 0x%llx position 0x%llx line %d: move value %d, naive %d",
                      b->rows, b->cols, (unsigned long long)nv->start, (unsigned long long)pos,
                      l, a.move_value[k], mv);
        k++;
    }
    TU_ASSERT_MSG(a.nmoves == k, "%dx%d position 0x%llx: %d moves, want %d", b->rows, b->cols,
                  (unsigned long long)pos, a.nmoves, k);
}

long tu_compare_with_naive(const char *dir, const naive_dots *nv, long sample, uint64_t seed)
{
    const naive_board *b = &nv->board;
    rdb_probe *p = NULL;
    rdb_error err;
    rdb_status st = rdb_probe_open(dir, &p, &err);
    ck_assert_msg(st == RDB_OK, "cannot open '%s': %s", dir, err.msg);
    int rows, cols;
    uint64_t start;
    rdb_probe_board(p, &rows, &cols, &start);
    ck_assert_int_eq(rows, b->rows);
    ck_assert_int_eq(cols, b->cols);
    ck_assert_msg(start == nv->start, "start 0x%llx, want 0x%llx", (unsigned long long)start,
                  (unsigned long long)nv->start);

    uint64_t all = (1ULL << b->nlines) - 1, free_lines = all & ~nv->start;
    long n = 0;
    if (sample == 0) {
        /* every subset of the free lines, by the usual subset walk */
        uint64_t sub = 0;
        do {
            check_position(p, nv, nv->start | sub);
            n++;
            sub = (sub - free_lines) & free_lines;
        } while (sub != 0);
    } else {
        uint64_t state = seed ? seed : 88172645463325252ULL;
        check_position(p, nv, nv->start);
        check_position(p, nv, all);
        n = 2;
        for (long i = 0; i < sample; i++, n++)
            check_position(p, nv, naive_random_position(&state, b->nlines, nv->start));
    }
    rdb_probe_close(p);
    return n;
}
