/*
 * commands.h — the subcommands of the retrodb program, one file each, and
 * their option tables (options.h); the dispatcher (retrodb.c) calls them
 * and lists them in the help.
 *
 * A subcommand gets argv with argv[0] = the last word of its name ("dots"
 * of "build dots") and returns the exit code: 0 ok, 1 failure, 2 bad
 * input, 130/143 stopped by SIGINT/SIGTERM.
 */
#ifndef RDB_TOOLS_COMMANDS_H
#define RDB_TOOLS_COMMANDS_H

#include "options.h"

/* retrodb build dots ... (build.c) */
int rdb_cmd_build_dots(int argc, char **argv);
extern const rdb_tool_command rdb_build_dots_command;

/* retrodb build cram ... (build_cram.c) */
int rdb_cmd_build_cram(int argc, char **argv);
extern const rdb_tool_command rdb_build_cram_command;

/* retrodb query ... (query.c) */
int rdb_cmd_query(int argc, char **argv);
extern const rdb_tool_command rdb_query_command;

/* retrodb play ... (play.c) */
int rdb_cmd_play(int argc, char **argv);
extern const rdb_tool_command rdb_play_command;

/* retrodb solve cram ... (solve_cram.c) */
int rdb_cmd_solve_cram(int argc, char **argv);
extern const rdb_tool_command rdb_solve_cram_command;

/* retrodb solve dots ... (solve_dots.c) */
int rdb_cmd_solve_dots(int argc, char **argv);
extern const rdb_tool_command rdb_solve_dots_command;

/* retrodb info, status and verify --dir DIR (inspect.c) */
int rdb_cmd_info(int argc, char **argv);
int rdb_cmd_status(int argc, char **argv);
int rdb_cmd_verify(int argc, char **argv);
extern const rdb_tool_command rdb_info_command, rdb_status_command, rdb_verify_command;

/* retrodb serve --dir DIR ... (serve.c, serve_api.c) */
int rdb_cmd_serve(int argc, char **argv);
extern const rdb_tool_command rdb_serve_command;

/* retrodb export --dir DIR ... (export.c) */
int rdb_cmd_export(int argc, char **argv);
extern const rdb_tool_command rdb_export_command;

#endif
