/*
 * retrodb.c — the command-line program's entry point: it only dispatches
 * argv to the subcommand named by argv[1] (commands.h). Each subcommand
 * parses its own options, calls the library and turns the result into
 * text or JSON and an exit code, with the helpers of cli.h.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

int main(int argc, char **argv)
{
    if (argc < 2)
        return rdb_tool_usage();
    const char *cmd = argv[1];
    if (strcmp(cmd, "build") == 0)
        return rdb_cmd_build(argc - 1, argv + 1);
    if (strcmp(cmd, "query") == 0)
        return rdb_cmd_query(argc - 1, argv + 1);
    if (strcmp(cmd, "info") == 0)
        return rdb_cmd_info(argc - 1, argv + 1);
    if (strcmp(cmd, "status") == 0)
        return rdb_cmd_status(argc - 1, argv + 1);
    if (strcmp(cmd, "solve") == 0 && argc > 2 && strcmp(argv[2], "dots") == 0)
        return rdb_cmd_solve_dots(argc - 1, argv + 1);
    if (strcmp(cmd, "solve") == 0)
        return rdb_cmd_solve(argc - 1, argv + 1);
    if (strcmp(cmd, "verify") == 0)
        return rdb_cmd_verify(argc - 1, argv + 1);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        rdb_tool_help();
        return 0;
    }
    fprintf(stderr, "retrodb: unknown command '%s'\n", cmd);
    return rdb_tool_usage();
}
