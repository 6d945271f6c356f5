/*
 * build.c — `retrodb build dots ...`: turn the command line (board, variant
 * or start diagram, budgets) into build options and run the builder.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "db.h"
#include "dots_board.h"
#include "dots_diagram.h"
#include "commands.h"
#include "retrodb/probe.h"

int rdb_cmd_build(int argc, char **argv)
{
    rdb_build_options opt;
    memset(&opt, 0, sizeof opt);
    opt.memory_mb = 2048;
    opt.keep_lines = -1;
    opt.params.game = RDB_GAME_DOTS;
    opt.params.zstd_level = 1;
    const char *variant = "empty", *start_file = NULL, *dir = NULL;
    int board_seen = 0;
    rdb_error err;

    if (argc < 2 || strcmp(argv[1], "dots") != 0) {
        fprintf(stderr, "retrodb: build: the game must be 'dots'\n");
        return rdb_tool_usage();
    }
    for (int i = 2; i < argc; i++) {
        const char *v;
        long n;
        if ((v = rdb_tool_opt_value(argc, argv, &i, "--variant")))
            variant = v;
        else if ((v = rdb_tool_opt_value(argc, argv, &i, "--start")))
            start_file = v;
        else if ((v = rdb_tool_opt_value(argc, argv, &i, "--dir")))
            dir = v;
        else if ((v = rdb_tool_opt_value(argc, argv, &i, "--memory"))) {
            if (rdb_tool_parse_long(v, 1, 1L << 30, &n))
                return fprintf(stderr, "retrodb: bad --memory '%s' (megabytes)\n", v), 2;
            opt.memory_mb = n;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--threads"))) {
            if (rdb_tool_parse_long(v, 1, 1024, &n))
                return fprintf(stderr, "retrodb: bad --threads '%s'\n", v), 2;
            opt.threads = (int)n;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--groups"))) {
            if (rdb_tool_parse_long(v, 1, RDB_MAX_GROUPS, &n))
                return fprintf(stderr, "retrodb: bad --groups '%s'\n", v), 2;
            opt.params.ngroups = (int)n;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--zstd-level"))) {
            if (rdb_tool_parse_long(v, -7, 19, &n))
                return fprintf(stderr, "retrodb: bad --zstd-level '%s' (-7..19; negative is faster)\n", v), 2;
            opt.params.zstd_level = (int)n;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--keep-lines"))) {
            if (rdb_tool_parse_long(v, 0, 64, &n))
                return fprintf(stderr, "retrodb: bad --keep-lines '%s' (0..64)\n", v), 2;
            opt.keep_lines = (int)n;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--disk"))) {
            char *end;
            opt.disk_gb = strtod(v, &end);
            if (end == v || *end || !(opt.disk_gb > 0))
                return fprintf(stderr, "retrodb: bad --disk '%s' (gigabytes)\n", v), 2;
        } else if (strcmp(argv[i], "--quiet") == 0)
            opt.quiet = 1;
        else if (argv[i][0] != '-' && !board_seen) {
            char end;
            if (sscanf(argv[i], "%dx%d%c", &opt.params.rows, &opt.params.cols, &end) != 2)
                return fprintf(stderr, "retrodb: bad board '%s' (want RxC, e.g. 3x5)\n", argv[i]), 2;
            board_seen = 1;
        } else {
            fprintf(stderr, "retrodb: build: unknown argument '%s'\n", argv[i]);
            return rdb_tool_usage();
        }
    }

    dots_board board;
    if (start_file) {
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
    char defdir[256];
    if (!dir) {
        snprintf(defdir, sizeof defdir, "db/%dx%d%s%s", opt.params.rows, opt.params.cols,
                 strcmp(opt.params.variant, "empty") ? "-" : "",
                 strcmp(opt.params.variant, "empty") ? opt.params.variant : "");
        dir = defdir;
    }
    opt.dir = dir;
    rdb_tool_catch_signals();
    rdb_status st = rdb_build(&opt, &err);
    if (st == RDB_OK && !opt.quiet)
        fprintf(stderr, "database in '%s'\n", dir);
    return rdb_tool_report(st, &err);
}

