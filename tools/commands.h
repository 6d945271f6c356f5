/*
 * commands.h — the subcommands of the retrodb program, one file each; the
 * dispatcher (retrodb.c) calls them.
 *
 * A subcommand gets argv with argv[0] = its own name and returns the exit
 * code: 0 ok, 1 failure, 2 bad input, 130/143 stopped by SIGINT/SIGTERM.
 */
#ifndef RDB_TOOLS_COMMANDS_H
#define RDB_TOOLS_COMMANDS_H

/* retrodb build dots|cram ... (build.c) */
int rdb_cmd_build(int argc, char **argv);

/* retrodb build cram ... (build_cram.c); argv[0] = "build" */
int rdb_cmd_build_cram(int argc, char **argv);

/* retrodb query ... (query.c) */
int rdb_cmd_query(int argc, char **argv);

/* The answer to `retrodb query` on the Cram table in dir, for the diagram
 * in text (query_cram.c). */
int rdb_query_cram(const char *dir, const char *text, const char *source, int json);

/* retrodb solve cram ... (solve_cram.c); it also answers a game that
 * is neither dots nor cram */
int rdb_cmd_solve(int argc, char **argv);

/* retrodb solve dots ... (solve_dots.c) */
int rdb_cmd_solve_dots(int argc, char **argv);

/* retrodb info, status and verify --dir DIR (inspect.c) */
int rdb_cmd_info(int argc, char **argv);
int rdb_cmd_status(int argc, char **argv);
int rdb_cmd_verify(int argc, char **argv);

#endif
