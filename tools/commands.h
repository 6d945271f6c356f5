/*
 * commands.h — the subcommands of the retrodb program that live in files of
 * their own, and the small helpers every subcommand shares (defined in
 * retrodb.c).
 *
 * A subcommand gets argv with argv[0] = its own name and returns the exit
 * code: 0 ok, 1 failure, 2 bad input, 130/143 stopped by SIGINT/SIGTERM.
 */
#ifndef RDB_TOOLS_COMMANDS_H
#define RDB_TOOLS_COMMANDS_H

#include "engine/builder.h"
#include "retrodb/status.h"

/* retrodb build ... (build.c) */
int rdb_cmd_build(int argc, char **argv);

/* retrodb query ... (query.c) */
int rdb_cmd_query(int argc, char **argv);

/* retrodb build cram ... (build_cram.c); argv[0] = "build" */
int rdb_cmd_build_cram(int argc, char **argv);

/* The answer to `retrodb query` on the Cram table in dir, for the diagram
 * in text (query_cram.c). */
int rdb_query_cram(const char *dir, const char *text, const char *source, int json);

/* The options every build takes (--memory, --threads, --groups,
 * --zstd-level, --quiet) and the board RxC: 1 when argv[*i] was one of them
 * (*i then points at its last word), 0 when it was not, -1 after a message
 * for a bad value (exit status 2). */
int rdb_tool_build_option(int argc, char **argv, int *i, rdb_build_options *opt,
                          int *board_seen);

/* The game of the database in dir (RDB_GAME_*), or 0 when it cannot be told
 * (the caller's own open then reports why). */
int rdb_tool_database_game(const char *dir);

/* retrodb solve cram ... (solve_cram.c) */
int rdb_cmd_solve(int argc, char **argv);

/* Print the usage text on stderr; returns 2. */
int rdb_tool_usage(void);

/* Exit code of a status; prints err's message first when st is not RDB_OK. */
int rdb_tool_report(rdb_status st, const rdb_error *err);

/* Exit code of a status (no message). */
int rdb_tool_exit_code(rdb_status st);

/* Option with a value: --name VALUE or --name=VALUE; advances *i past the
 * value. NULL when argv[*i] is not that option or lacks its value. */
const char *rdb_tool_opt_value(int argc, char **argv, int *i, const char *name);

/* A decimal integer in [lo, hi]; -1 when s is not one. */
int rdb_tool_parse_long(const char *s, long lo, long hi, long *out);

/* Install the SIGINT/SIGTERM handlers that ask long jobs to stop cleanly. */
void rdb_tool_catch_signals(void);

#endif
