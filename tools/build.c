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
#include "api/dots_start.h"
#include "engine/builder.h"
#include "engine/db.h"
#include "engine/plan.h"
#include "retrodb/probe.h"
#include "game.h"

/* A default folder named after a file: db/<prefix><file name without its
 * extension>, or db/RxC-<fallback> when the file is standard input. */
static void file_dir(const char *file, const char *prefix, const char *fallback,
                     const rdb_params *p, char *buf, size_t size)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    const char *dot = strrchr(base, '.');
    int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    if (strcmp(file, "-") == 0 || n == 0)
        snprintf(buf, size, "db/%dx%d-%s", p->rows, p->cols, fallback);
    else
        snprintf(buf, size, "db/%s%.*s", prefix, n, base);
}

enum {
    OPT_VARIANT = 1,
    OPT_START,
    OPT_PROBLEM,
    OPT_KEEP_LINES,
    OPT_DISK,
    OPT_LOONY,
    OPT_CHAINS,
    OPT_STORE,
    OPT_SLICE_POSITIONS,
    OPT_WINDOW
};

static const rdb_tool_option build_dots_options[] = {
    {OPT_VARIANT, "variant", 0, "V",
     "empty, swedish (border drawn) or icelandic (border but the top\n"
     "and left edges drawn); default empty"},
    {OPT_START, "start", 0, "FILE",
     "start from the position drawn in FILE (a diagram as query reads)"},
    {OPT_PROBLEM, "problem", 0, "FILE",
     "analyse a problem file: position, scores, penalty, player to move"},
    {RDB_OPT_DIR, "dir", 'd', "DIR",
     "the database folder (default db/RxC, db/RxC-VARIANT, db/RxC-NAME\n"
     "for --start NAME.txt, db/NAME for --problem NAME.txt)"},
    {OPT_KEEP_LINES, "keep-lines", 'k', "K",
     "keep only levels of at most K lines drawn (default: keep all);\n"
     "the others are deleted once built, to save disk"},
    {OPT_DISK, "disk", 0, "GB",
     "the disk the build may use (default: the free space where it goes,\n"
     "with what the folder holds); a build whose estimated peak is higher\n"
     "is refused before it starts; a quiet-half build given it keeps each\n"
     "level's other class beyond --window while it fits (less time)"},
    {OPT_LOONY, "loony", 0, NULL, "also record who must make the next loony move"},
    {OPT_CHAINS, "chains", 0, NULL,
     "treat each chain of the start as one pseudo-line (problem files)"},
    {OPT_STORE, "store", 0, "WHAT",
     "all (default); quiet: store only the positions without a box\n"
     "of three sides, 40 to 500 times fewer, and value the others by\n"
     "the capture rules when they are looked up; quiet-half: half of\n"
     "those (one class; the other valued from its moves): half the disk"},
    {OPT_SLICE_POSITIONS, "slice-positions", 0, "N",
     "with --store quiet(-half): the most positions of one slice file (a level\n"
     "is cut into slices of whole frame states; default: what --memory\n"
     "allows, at most 2^32)"},
    {OPT_WINDOW, "window", 0, "N",
     "with --store quiet-half: keep a level's other class while the N\n"
     "levels below it are built (default 3; --plan gives the disk and\n"
     "time of each): each level more takes disk at the peak and values\n"
     "fewer positions from their moves; a resumed build may change it"},
    RDB_TOOL_BUILD_OPTIONS,
    {0, 0, 0, 0, 0}};

const rdb_tool_command rdb_build_dots_command = {
    "build dots",
    "RxC [--variant V] [options]\n--start FILE [options]\n--problem FILE [options]",
    "Build the Dots-and-Boxes database of a board: the value of every position\n"
    "from the full board back to the start, level by level. Stopped or killed,\n"
    "the same command resumes where it stopped.",
    build_dots_options};

int rdb_cmd_build_dots(int argc, char **argv)
{
    const rdb_tool_command *cmd = &rdb_build_dots_command;
    rdb_build_options opt;
    memset(&opt, 0, sizeof opt);
    opt.memory_mb = 0; /* not given: the problem's budget, else 2048 */
    opt.keep_lines = -1;
    opt.params.game = RDB_GAME_DOTS;
    opt.params.zstd_level = 1;
    const char *variant = "empty", *start_file = NULL, *dir = NULL, *problem_file = NULL;
    int board_seen = 0, memory_given = 0, disk_given = 0;
    rdb_tool_build_output out = {0, 0};
    rdb_error err;

    rdb_tool_args args;
    rdb_tool_args_init(&args, cmd, argc, argv);
    int id;
    const char *v;
    while ((id = rdb_tool_next_option(&args, &v)) > 0) {
        long n;
        int shared = rdb_tool_build_option(cmd, id, v, &opt, &out);
        if (shared < 0)
            return 2;
        if (shared)
            continue;
        switch (id) {
        case OPT_VARIANT:
            variant = v;
            break;
        case OPT_START:
            start_file = v;
            break;
        case RDB_OPT_DIR:
            dir = v;
            break;
        case OPT_PROBLEM:
            problem_file = v;
            break;
        case OPT_KEEP_LINES:
            if (rdb_parse_long(v, 0, 64, &n))
                return rdb_tool_bad(cmd, "bad --keep-lines '%s' (0..64)", v);
            opt.keep_lines = (int)n;
            break;
        case OPT_DISK: {
            char *end;
            opt.disk_gb = strtod(v, &end);
            /* "inf", "nan" and 1e999 are numbers to strtod, not sizes */
            if (end == v || *end || !(opt.disk_gb > 0) || !(opt.disk_gb < 1e9))
                return rdb_tool_bad(cmd, "bad --disk '%s' (gigabytes)", v);
            disk_given = 1;
            break;
        }
        case OPT_LOONY:
            opt.params.loony = 1;
            break;
        case OPT_CHAINS:
            opt.params.chains = 1;
            break;
        case OPT_STORE:
            if ((opt.params.store = rdb_store_named(v)) < 0)
                return rdb_tool_bad(cmd, "bad --store '%s' (all, quiet or quiet-half)", v);
            break;
        case OPT_SLICE_POSITIONS:
            if (rdb_parse_u64(v, 10, RDB_SPARSE_SLICE_MAX, &opt.params.slice_positions) ||
                opt.params.slice_positions == 0)
                return rdb_tool_bad(cmd, "bad --slice-positions '%s' (1..4294967296)", v);
            break;
        case OPT_WINDOW:
            if (rdb_parse_long(v, 1, 64, &n))
                return rdb_tool_bad(cmd, "bad --window '%s' (1..64 levels)", v);
            opt.window = (int)n;
            break;
        }
    }
    if (opt.params.slice_positions && !opt.params.store)
        return rdb_tool_bad(cmd, "--slice-positions is for --store quiet");
    if (opt.window && opt.params.store != RDB_STORE_QUIET_HALF)
        return rdb_tool_bad(cmd, "--window is for --store quiet-half");
    if (id < 0)
        return rdb_tool_args_exit(id);
    if (rdb_tool_args_left(&args) > 1)
        return rdb_tool_bad(cmd, "unexpected argument '%s'", argv[args.next + 1]);
    if (rdb_tool_args_left(&args) == 1) {
        if (rdb_tool_board(cmd, argv[args.next], &opt.params.rows, &opt.params.cols))
            return 2;
        board_seen = 1;
    }
    memory_given = opt.memory_mb != 0;
    if (!memory_given)
        opt.memory_mb = 2048;

    char *problem_text = NULL;
    rdb_problem prob;
    if (problem_file) {
        if (start_file || strcmp(variant, "empty") != 0)
            return rdb_tool_bad(cmd, "--problem excludes --start and --variant");
        rdb_status st = rdb_read_file(problem_file, &problem_text, &err);
        if (st == RDB_OK)
            st = rdb_dots_start_problem(problem_text, problem_file, &prob, &err);
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
        int rows, cols;
        st = rdb_dots_start_diagram(text, start_file, &rows, &cols, &opt.params.start, &err);
        free(text);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
        if (board_seen && (rows != opt.params.rows || cols != opt.params.cols))
            return fprintf(stderr, "retrodb: '%s' is a %dx%d board, not %dx%d\n", start_file,
                           rows, cols, opt.params.rows, opt.params.cols), 2;
        opt.params.rows = rows;
        opt.params.cols = cols;
        snprintf(opt.params.variant, sizeof opt.params.variant, "custom");
        if (strcmp(variant, "empty") != 0)
            return rdb_tool_bad(cmd, "--start and --variant exclude each other");
    } else {
        if (!board_seen)
            return rdb_tool_bad(cmd, "which board? (e.g. retrodb build dots 3x3)");
        if (!rdb_dots_variant_named(variant))
            return rdb_tool_bad(cmd, "unknown variant '%s' (empty, swedish, icelandic)", variant);
        rdb_status st =
            rdb_dots_start_variant(opt.params.rows, opt.params.cols, variant, &opt.params.start, &err);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
        snprintf(opt.params.variant, sizeof opt.params.variant, "%s", variant);
    }
    char defdir[RDB_PATH_MAX]; /* "db/" and a file's base name always fit */
    char prefix[32];
    snprintf(prefix, sizeof prefix, "%dx%d-", opt.params.rows, opt.params.cols);
    if (!dir && problem_file) {
        file_dir(problem_file, "", "problem", &opt.params, defdir, sizeof defdir);
        dir = defdir;
    } else if (!dir && start_file) {
        file_dir(start_file, prefix, "custom", &opt.params, defdir, sizeof defdir);
        dir = defdir;
    } else if (!dir) {
        snprintf(defdir, sizeof defdir, "db/%dx%d%s%s", opt.params.rows, opt.params.cols,
                 strcmp(opt.params.variant, "empty") ? "-" : "",
                 strcmp(opt.params.variant, "empty") ? opt.params.variant : "");
        dir = defdir;
    }
    opt.dir = dir;
    if (out.plan) {
        free(problem_text);
        return rdb_tool_run_build(&opt, &out);
    }
    if (problem_text) {
        /* refused builds leave the folder as they found it: the plan's
         * refusals first, then the problem is kept */
        rdb_build_plan plan;
        rdb_status st = rdb_build_plan_make(&opt, &plan, &err);
        /* one writer of PROBLEM when several processes share the build */
        if (st == RDB_OK && rdb_tool_is_root())
            st = rdb_dots_problem_keep(dir, &opt.params, problem_text, &prob, &err);
        st = rdb_tool_agree(st, &err);
        free(problem_text);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
    }
    return rdb_tool_run_build(&opt, &out);
}
