/*
 * cli.h — the helpers every subcommand of the retrodb program shares:
 * usage text, exit codes, option parsing, the options every build takes,
 * and the signal handlers of long jobs (cli.c).
 *
 * Exit codes: 0 ok, 1 a file or the system failed, 2 the user typed
 * something wrong, 130/143 stopped by SIGINT/SIGTERM.
 */
#ifndef RDB_TOOLS_CLI_H
#define RDB_TOOLS_CLI_H

#include "engine/builder.h"
#include "retrodb/status.h"

/* Print the usage text on stderr; returns 2. */
int rdb_tool_usage(void);

/* "retrodb: " and the message fmt (one %s, arg), then a subcommand's usage
 * text, on stderr; returns 2. */
int rdb_tool_usage_error(const char *usage, const char *fmt, const char *arg);

/* Print the usage text on stdout (for --help). */
void rdb_tool_help(void);

/* Exit code of a status; prints err's message first when st is not RDB_OK. */
int rdb_tool_report(rdb_status st, const rdb_error *err);

/* Exit code of a status (no message). */
int rdb_tool_exit_code(rdb_status st);

/* Option with a value: --name VALUE or --name=VALUE; advances *i past the
 * value. NULL when argv[*i] is not that option or lacks its value. */
const char *rdb_tool_opt_value(int argc, char **argv, int *i, const char *name);

/* The largest side of a board the command line accepts: a board of more
 * than 64 lines or cells is refused by its game anyway, with a message
 * that says so; this bound only keeps the numbers far from overflow. */
#define RDB_TOOL_MAX_SIDE 64

/* The options every build takes (--memory, --threads, --groups,
 * --zstd-level, --quiet) and the board RxC: 1 when argv[*i] was one of them
 * (*i then points at its last word), 0 when it was not, -1 after a message
 * for a bad value (exit status 2). */
int rdb_tool_build_option(int argc, char **argv, int *i, rdb_build_options *opt,
                          int *board_seen);

/* The game id of the database in dir (rdb_params.game) in *game; when its
 * PARAMS cannot be read, the reason (the folder's, not the position's:
 * a query reads the database before the position it asks about). */
rdb_status rdb_tool_database_game(const char *dir, int *game, rdb_error *err);

/* Install the SIGINT/SIGTERM handlers that ask long jobs to stop cleanly. */
void rdb_tool_catch_signals(void);

#endif
