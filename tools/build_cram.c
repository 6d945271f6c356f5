/*
 * build_cram.c — `retrodb build cram RxC ...`: the nimber of every set of
 * free cells of an R x C board, built level by level like a Dots-and-Boxes
 * database and resumed the same way.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "cram_board.h"
#include "db.h"
#include "commands.h"

int rdb_cmd_build_cram(int argc, char **argv)
{
    rdb_build_options opt;
    memset(&opt, 0, sizeof opt);
    opt.memory_mb = 2048;
    opt.keep_lines = -1;
    opt.params.game = RDB_GAME_CRAM;
    opt.params.zstd_level = 1;
    snprintf(opt.params.variant, sizeof opt.params.variant, "all");
    const char *dir = NULL;
    int board_seen = 0;
    rdb_error err;

    for (int i = 2; i < argc; i++) {
        const char *v;
        long n;
        if ((v = rdb_tool_opt_value(argc, argv, &i, "--dir")))
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
        } else if (strcmp(argv[i], "--quiet") == 0)
            opt.quiet = 1;
        else if (argv[i][0] != '-' && !board_seen) {
            char end;
            if (sscanf(argv[i], "%dx%d%c", &opt.params.rows, &opt.params.cols, &end) != 2)
                return fprintf(stderr, "retrodb: bad board '%s' (want RxC, e.g. 4x5)\n", argv[i]), 2;
            board_seen = 1;
        } else {
            fprintf(stderr, "retrodb: build cram: unknown argument '%s'\n", argv[i]);
            return rdb_tool_usage();
        }
    }
    if (!board_seen)
        return fprintf(stderr, "retrodb: build cram: which board? (e.g. retrodb build cram 4x5)\n"), 2;
    cram_board board;
    rdb_status st = cram_board_init(&board, opt.params.rows, opt.params.cols, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    char defdir[256];
    if (!dir) {
        snprintf(defdir, sizeof defdir, "db/cram-%dx%d", opt.params.rows, opt.params.cols);
        dir = defdir;
    }
    opt.dir = dir;
    rdb_tool_catch_signals();
    st = rdb_build(&opt, &err);
    if (st == RDB_OK && !opt.quiet)
        fprintf(stderr, "table in '%s'\n", dir);
    return rdb_tool_report(st, &err);
}
