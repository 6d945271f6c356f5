/*
 * build_cram.c — `retrodb build cram RxC ...`: the nimber of every set of
 * free cells of an R x C board, built level by level like a Dots-and-Boxes
 * database and resumed the same way.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

#include "cram/cram.h"
#include "cram/cram_board.h"
#include "engine/builder.h"
#include "engine/db.h"

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
        int shared;
        if ((v = rdb_tool_opt_value(argc, argv, &i, "--dir")))
            dir = v;
        else if ((shared = rdb_tool_build_option(argc, argv, &i, &opt, &board_seen)) != 0) {
            if (shared < 0)
                return 2;
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
