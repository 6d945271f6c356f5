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

#include "engine/builder.h"
#include "engine/db.h"
#include "game.h"

static const rdb_tool_option build_cram_options[] = {
    {RDB_OPT_DIR, "dir", 'd', "DIR", "the table's folder (default db/cram-RxC)"},
    RDB_TOOL_BUILD_OPTIONS,
    {0, 0, 0, 0, 0}};

const rdb_tool_command rdb_build_cram_command = {
    "build cram", "RxC [options]",
    "Build the Cram nimber table of a board: the nimber of every set of\n"
    "covered cells, level by level from the full board back to the empty one.\n"
    "Stopped or killed, the same command resumes where it stopped. `solve cram\n"
    "--db DIR` uses the table for every component that fits the board.",
    build_cram_options};

int rdb_cmd_build_cram(int argc, char **argv)
{
    const rdb_tool_command *cmd = &rdb_build_cram_command;
    rdb_build_options opt;
    memset(&opt, 0, sizeof opt);
    opt.memory_mb = 2048;
    opt.keep_lines = -1;
    opt.params.game = RDB_GAME_CRAM;
    opt.params.zstd_level = 1;
    snprintf(opt.params.variant, sizeof opt.params.variant, "all");
    const char *dir = NULL;
    rdb_tool_build_output out = {0, 0};

    rdb_tool_args args;
    rdb_tool_args_init(&args, cmd, argc, argv);
    int id;
    const char *v;
    while ((id = rdb_tool_next_option(&args, &v)) > 0) {
        int shared = rdb_tool_build_option(cmd, id, v, &opt, &out);
        if (shared < 0)
            return 2;
        if (id == RDB_OPT_DIR)
            dir = v;
    }
    if (id < 0)
        return rdb_tool_args_exit(id);
    if (rdb_tool_args_left(&args) == 0)
        return rdb_tool_bad(cmd, "which board? (e.g. retrodb build cram 4x5)");
    if (rdb_tool_args_left(&args) > 1)
        return rdb_tool_bad(cmd, "unexpected argument '%s'", argv[args.next + 1]);
    if (rdb_tool_board(cmd, argv[args.next], &opt.params.rows, &opt.params.cols))
        return 2;
    char defdir[256];
    if (!dir) {
        snprintf(defdir, sizeof defdir, "db/cram-%dx%d", opt.params.rows, opt.params.cols);
        dir = defdir;
    }
    opt.dir = dir;
    return rdb_tool_run_build(&opt, &out);
}
