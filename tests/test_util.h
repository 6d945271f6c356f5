/*
 * test_util.h — helpers shared by the unit test suites: temporary folders,
 * whole-file reads, building a database with test defaults, comparing a
 * database with the naive reference solver, and stopping a Cram solve
 * part-way. Also declares every suite for
 * the runner (check_main.c).
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "cram/cram.h"
#include "cram/cram_solver.h"
#include "dots/dots.h"
#include "engine/builder.h"
#include "naive_dots.h"
#include "retrodb/status.h"

/* Check's ck_assert macros report every passing assertion to the parent
 * process (a write per check), far too slow for loops over millions of
 * positions: these only call into Check on failure. */
#define TU_ASSERT(expr)                                                                 \
    do {                                                                                \
        if (!(expr))                                                                    \
            ck_abort_msg("Assertion '%s' failed", #expr);                               \
    } while (0)
#define TU_ASSERT_MSG(expr, ...)                                                        \
    do {                                                                                \
        if (!(expr))                                                                    \
            ck_abort_msg(__VA_ARGS__);                                                  \
    } while (0)
#define TU_ASSERT_EQ(a, b)                                                              \
    do {                                                                                \
        long long tu_a_ = (long long)(a), tu_b_ = (long long)(b);                       \
        if (tu_a_ != tu_b_)                                                             \
            ck_abort_msg("Assertion '%s == %s' failed: %lld != %lld", #a, #b, tu_a_, tu_b_); \
    } while (0)

Suite *board_suite(void);
Suite *diagram_suite(void);
Suite *layout_suite(void);
Suite *slicefile_suite(void);
Suite *builder_suite(void);
Suite *distribution_suite(void);
Suite *known_suite(void);
Suite *probe_suite(void);
Suite *problem_suite(void);
Suite *penalty_suite(void);
Suite *cram_board_suite(void);
Suite *cram_solver_suite(void);
Suite *cram_ledger_suite(void);
Suite *cram_wide_suite(void);
Suite *cram_reduce_suite(void);
Suite *cram_table_suite(void);
Suite *loony_suite(void);
Suite *chains_suite(void);
Suite *dots_solver_suite(void);
Suite *dots_proof_suite(void);
Suite *dots_tt_file_suite(void);
Suite *human_suite(void);
Suite *public_api_suite(void);
Suite *solve_api_suite(void);
Suite *picture_suite(void);
Suite *quiet_suite(void);
Suite *corridors_suite(void);
Suite *chunk_cache_suite(void);

/* Size of the buffers tu_mkdtemp fills. */
#define TU_DIR_MAX 128

/* Make a fresh folder rdbtest.XXXXXX in buf (TU_DIR_MAX bytes); fails the
 * test when it cannot. It goes in $RDB_TEST_BASE, which the runner points
 * at a folder of its own that it removes after the run (so a failing test
 * leaves nothing behind), else in $TMPDIR, else in /tmp. The builder
 * fsyncs every file, so TMPDIR=/dev/shm makes the suite faster on a busy
 * disk. */
void tu_mkdtemp(char *buf);

/* The folder tests should make their folders in (see tu_mkdtemp). */
const char *tu_temp_base(void);

/* Remove a folder and everything in it. */
void tu_rmrf(const char *path);
/* A cram_solver hook that stops the solve (as SIGINT would) at its Nth
 * call: ctx is an int holding N, counted down to 0. */
void tu_stop_at_call(cram_solver *s, void *calls_left);

/* Read a whole file into a malloc'd buffer; NULL when it cannot. */
unsigned char *tu_read_file(const char *path, size_t *len);

/* Write len bytes to path (replacing it); 0 on success. */
int tu_write_file(const char *path, const void *data, size_t len);

/* Every regular file under dir, as paths relative to dir, sorted; returns
 * the count and stores a malloc'd array of malloc'd strings in *out. */
int tu_list_files(const char *dir, char ***out);
void tu_free_list(char **list, int n);

/* Start sets of the variants, from the documented line numbering. */
uint64_t tu_border(int rows, int cols);
uint64_t tu_icelandic(int rows, int cols);

/* The test defaults for a build in dir of game (RDB_GAME_*) on rows x
 * cols: memory 256 MB, zstd level 3, quiet, every level kept, no disk
 * limit, the empty start, the planner's groups, variant "custom". */
void tu_build_options(rdb_build_options *opt, const char *dir, int game, int rows, int cols);

/* Build a database in dir with the test defaults (memory 256 MB, zstd
 * level 3, quiet, every level kept, no disk limit). */
rdb_status tu_build(const char *dir, int rows, int cols, uint64_t start, int full_value,
                    int ngroups, const char *variant, int threads, rdb_error *err);
/* The same keeping only levels with at most keep_lines lines drawn. */
rdb_status tu_build_keep(const char *dir, int rows, int cols, uint64_t start, int full_value,
                         int ngroups, const char *variant, int threads, int keep_lines,
                         rdb_error *err);

/* Compare the database in dir with the naive table: for every position
 * containing the start when `sample` is 0, else for `sample` random ones
 * (plus the start and the full board), the value and every move's value
 * of rdb_probe_moves must equal the naive ones. Fails the test on the first
 * difference, naming the position. Returns the number of positions
 * checked. */
long tu_compare_with_naive(const char *dir, const naive_dots *nv, long sample, uint64_t seed);

#endif
