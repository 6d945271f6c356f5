/*
 * build.c — `retrodb build dots ...`: turn the command line (board, variant,
 * start diagram or problem file, budgets) into build options and run the
 * builder. A problem file is also copied into the database folder as
 * PROBLEM, so that queries can score for players A and B.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

#include "common/number.h"
#include "common/path.h"

#include "common/text_input.h"
#include "dots/dots.h"
#include "dots/dots_board.h"
#include "dots/dots_diagram.h"
#include "dots/problem.h"
#include "engine/builder.h"
#include "engine/db.h"
#include "retrodb/probe.h"
#include "store/fsutil.h"
#include "store/lock.h"

/* Copy the problem file into dir as PROBLEM before the build, so that even
 * an unfinished database says what it analyses. A folder that already
 * holds this build (same PARAMS) keeps its PROBLEM unless only the budgets
 * or comments differ: another player to move or other letters in the
 * boxes would change the scores of finished work, so they are refused.
 * When the folder holds other parameters or a running builder, nothing is
 * written and the builder refuses with its own message. */
static rdb_status keep_problem(const char *dir, const rdb_params *params, const char *text,
                               const rdb_problem *prob, rdb_error *err)
{
    char path[RDB_PATH_MAX];
    rdb_status st = rdb_check_dir_name(dir, err);
    if (st == RDB_OK)
        st = rdb_path_format(path, sizeof path, err, "%s/%s", dir, RDB_PROBLEM_FILE);
    if (st == RDB_OK)
        st = rdb_mkdirs(dir, err);
    if (st != RDB_OK)
        return st;
    if (rdb_lock_holder(dir) != 0)
        return RDB_OK;
    rdb_params old;
    char why[256];
    st = rdb_params_read(dir, &old, err);
    if (st != RDB_OK && st != RDB_E_MISSING)
        return st;
    if (st == RDB_OK && rdb_params_diff(&old, params, why, sizeof why))
        return RDB_OK;
    char *old_text;
    rdb_error ignored;
    if (st == RDB_OK && rdb_read_file(path, &old_text, &ignored) == RDB_OK) {
        rdb_problem old_prob;
        /* a PROBLEM that no longer parses is replaced */
        int differs = rdb_problem_parse(old_text, path, &old_prob, &ignored) == RDB_OK &&
                      rdb_problem_diff(&old_prob, prob, why, sizeof why);
        free(old_text);
        if (differs)
            return rdb_fail(err, RDB_E_INPUT,
                            "'%s' holds a build of another problem (%s); use another --dir", dir,
                            why);
    }
    return rdb_write_file_atomic(path, text, strlen(text), err);
}

/* db/<problem file name without its extension>, or db/RxC-problem when the
 * problem comes from standard input. */
static void problem_dir(const char *problem_file, const rdb_params *p, char *buf, size_t size)
{
    const char *base = strrchr(problem_file, '/');
    base = base ? base + 1 : problem_file;
    const char *dot = strrchr(base, '.');
    int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    if (strcmp(problem_file, "-") == 0 || n == 0)
        snprintf(buf, size, "db/%dx%d-problem", p->rows, p->cols);
    else
        snprintf(buf, size, "db/%.*s", n, base);
}

int rdb_cmd_build(int argc, char **argv)
{
    rdb_build_options opt;
    memset(&opt, 0, sizeof opt);
    opt.memory_mb = 0; /* not given: the problem's budget, else 2048 */
    opt.keep_lines = -1;
    opt.params.game = RDB_GAME_DOTS;
    opt.params.zstd_level = 1;
    const char *variant = "empty", *start_file = NULL, *dir = NULL, *problem_file = NULL;
    int board_seen = 0, memory_given = 0, disk_given = 0;
    rdb_error err;

    if (argc >= 2 && strcmp(argv[1], "cram") == 0)
        return rdb_cmd_build_cram(argc, argv);
    if (argc < 2 || strcmp(argv[1], "dots") != 0) {
        fprintf(stderr, "retrodb: build: the game must be 'dots'\n");
        return rdb_tool_usage();
    }
    for (int i = 2; i < argc; i++) {
        const char *v;
        long n;
        int shared;
        if ((v = rdb_tool_opt_value(argc, argv, &i, "--variant")))
            variant = v;
        else if ((v = rdb_tool_opt_value(argc, argv, &i, "--start")))
            start_file = v;
        else if ((v = rdb_tool_opt_value(argc, argv, &i, "--dir")))
            dir = v;
        else if ((v = rdb_tool_opt_value(argc, argv, &i, "--problem")))
            problem_file = v;
        else if ((shared = rdb_tool_build_option(argc, argv, &i, &opt, &board_seen)) != 0) {
            if (shared < 0)
                return 2;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--keep-lines"))) {
            if (rdb_parse_long(v, 0, 64, &n))
                return fprintf(stderr, "retrodb: bad --keep-lines '%s' (0..64)\n", v), 2;
            opt.keep_lines = (int)n;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--disk"))) {
            char *end;
            opt.disk_gb = strtod(v, &end);
            /* "inf", "nan" and 1e999 are numbers to strtod, not sizes */
            if (end == v || *end || !(opt.disk_gb > 0) || !(opt.disk_gb < 1e9))
                return fprintf(stderr, "retrodb: bad --disk '%s' (gigabytes)\n", v), 2;
            disk_given = 1;
        } else if (strcmp(argv[i], "--loony") == 0)
            opt.params.loony = 1;
        else if (strcmp(argv[i], "--chains") == 0)
            opt.params.chains = 1;
        else {
            fprintf(stderr, "retrodb: build: unknown argument '%s'\n", argv[i]);
            return rdb_tool_usage();
        }
    }
    memory_given = opt.memory_mb != 0;
    if (!memory_given)
        opt.memory_mb = 2048;

    dots_board board;
    char *problem_text = NULL;
    rdb_problem prob;
    if (problem_file) {
        if (start_file || strcmp(variant, "empty") != 0)
            return fprintf(stderr, "retrodb: --problem excludes --start and --variant\n"), 2;
        rdb_status st = rdb_read_file(problem_file, &problem_text, &err);
        if (st == RDB_OK)
            st = rdb_problem_parse(problem_text, problem_file, &prob, &err);
        if (st != RDB_OK) {
            free(problem_text);
            return rdb_tool_report(st, &err);
        }
        if (board_seen && (prob.diagram.rows != opt.params.rows || prob.diagram.cols != opt.params.cols)) {
            free(problem_text);
            return fprintf(stderr, "retrodb: '%s' is a %dx%d board, not %dx%d\n", problem_file,
                           prob.diagram.rows, prob.diagram.cols, opt.params.rows, opt.params.cols), 2;
        }
        opt.params.rows = prob.diagram.rows;
        opt.params.cols = prob.diagram.cols;
        opt.params.start = prob.diagram.drawn;
        opt.params.full_value = prob.full_value;
        snprintf(opt.params.variant, sizeof opt.params.variant, "problem");
        if (!memory_given && prob.memory_mb > 0)
            opt.memory_mb = prob.memory_mb;
        if (!disk_given && prob.disk_gb > 0)
            opt.disk_gb = prob.disk_gb;
    } else if (start_file) {
        char *text;
        rdb_status st = rdb_read_file(start_file, &text, &err);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
        dots_diagram d;
        st = dots_diagram_parse(text, start_file, &d, &err);
        free(text);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
        if (board_seen && (d.rows != opt.params.rows || d.cols != opt.params.cols))
            return fprintf(stderr, "retrodb: '%s' is a %dx%d board, not %dx%d\n", start_file,
                           d.rows, d.cols, opt.params.rows, opt.params.cols), 2;
        opt.params.rows = d.rows;
        opt.params.cols = d.cols;
        opt.params.start = d.drawn;
        snprintf(opt.params.variant, sizeof opt.params.variant, "custom");
        if (strcmp(variant, "empty") != 0)
            return fprintf(stderr, "retrodb: --start and --variant exclude each other\n"), 2;
    } else {
        if (!board_seen)
            return fprintf(stderr, "retrodb: build: which board? (e.g. retrodb build dots 3x3)\n"), 2;
        rdb_status st = dots_board_init(&board, opt.params.rows, opt.params.cols, &err);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
        if (strcmp(variant, "empty") == 0)
            opt.params.start = 0;
        else if (strcmp(variant, "swedish") == 0)
            opt.params.start = dots_border_lines(&board);
        else if (strcmp(variant, "icelandic") == 0)
            opt.params.start = dots_icelandic_lines(&board);
        else
            return fprintf(stderr, "retrodb: unknown variant '%s' (empty, swedish, icelandic)\n", variant), 2;
        snprintf(opt.params.variant, sizeof opt.params.variant, "%s", variant);
    }
    char defdir[RDB_PATH_MAX]; /* "db/" and a file's base name always fit */
    if (!dir && problem_file) {
        problem_dir(problem_file, &opt.params, defdir, sizeof defdir);
        dir = defdir;
    } else if (!dir) {
        snprintf(defdir, sizeof defdir, "db/%dx%d%s%s", opt.params.rows, opt.params.cols,
                 strcmp(opt.params.variant, "empty") ? "-" : "",
                 strcmp(opt.params.variant, "empty") ? opt.params.variant : "");
        dir = defdir;
    }
    opt.dir = dir;
    if (problem_text) {
        rdb_status st = keep_problem(dir, &opt.params, problem_text, &prob, &err);
        free(problem_text);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
    }
    rdb_tool_catch_signals();
    rdb_status st = rdb_build(&opt, &err);
    if (st == RDB_OK && !opt.quiet)
        fprintf(stderr, "database in '%s'\n", dir);
    return rdb_tool_report(st, &err);
}

