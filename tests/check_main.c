/*
 * check_main.c — the single test runner: one Check suite per module (board,
 * diagram, layout, slice files, builder, known values, probe), run in fork
 * mode with CK_NORMAL output. Exits non-zero when any test fails.
 *
 * The parent process only assembles suites: it must call no OpenMP and no
 * library function before srunner_run_all, because libgomp does not survive
 * fork() and Check forks once per test. It also makes one temporary folder
 * for the whole run, where every test makes its own (RDB_TEST_BASE), and
 * removes it at the end, so that failed tests leave nothing behind.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_util.h"

int main(void)
{
    char base[TU_DIR_MAX];
    snprintf(base, sizeof base, "%s/rdbtest-run.XXXXXX", tu_temp_base());
    int have_base = mkdtemp(base) != NULL;
    if (have_base)
        setenv("RDB_TEST_BASE", base, 1);

    SRunner *sr = srunner_create(board_suite());
    srunner_add_suite(sr, diagram_suite());
    srunner_add_suite(sr, layout_suite());
    srunner_add_suite(sr, slicefile_suite());
    srunner_add_suite(sr, builder_suite());
    srunner_add_suite(sr, distribution_suite());
    srunner_add_suite(sr, known_suite());
    srunner_add_suite(sr, probe_suite());
    srunner_add_suite(sr, problem_suite());
    srunner_add_suite(sr, penalty_suite());
    srunner_add_suite(sr, cram_board_suite());
    srunner_add_suite(sr, cram_solver_suite());
    srunner_add_suite(sr, cram_ledger_suite());
    srunner_add_suite(sr, cram_wide_suite());
    srunner_add_suite(sr, cram_reduce_suite());
    srunner_add_suite(sr, cram_table_suite());
    srunner_add_suite(sr, loony_suite());
    srunner_add_suite(sr, chains_suite());
    srunner_add_suite(sr, dots_solver_suite());
    srunner_add_suite(sr, dots_proof_suite());
    srunner_add_suite(sr, dots_tt_file_suite());
    srunner_add_suite(sr, human_suite());
    srunner_add_suite(sr, public_api_suite());
    srunner_add_suite(sr, solve_api_suite());
    srunner_add_suite(sr, picture_suite());
    srunner_add_suite(sr, quiet_suite());
    srunner_add_suite(sr, corridors_suite());
    srunner_add_suite(sr, chunk_cache_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (have_base)
        tu_rmrf(base);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
