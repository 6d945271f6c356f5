/*
 * cli.h — the helpers every subcommand of the retrodb program shares:
 * exit codes, the options every build takes, the board argument, the
 * wording of who wins, the value of a database's start position, and the
 * signal handlers of long jobs (cli.c). Option tables and help come from
 * options.h.
 *
 * Exit codes: 0 ok, 1 a file or the system failed, 2 the user typed
 * something wrong, 130/143 stopped by SIGINT/SIGTERM.
 */
#ifndef RDB_TOOLS_CLI_H
#define RDB_TOOLS_CLI_H

#include <stdio.h>
#include <stddef.h>

#include "engine/builder.h"
#include "options.h"
#include "retrodb/status.h"

/* Exit code of a status; prints err's message first when st is not RDB_OK. */
int rdb_tool_report(rdb_status st, const rdb_error *err);

/* Exit code of a status (no message). */
int rdb_tool_exit_code(rdb_status st);

/* The largest side of a board the command line accepts: a board of more
 * than 64 lines or cells is refused by its game anyway, with a message
 * that says so; this bound only keeps the numbers far from overflow. */
#define RDB_TOOL_MAX_SIDE 64

/* A board "RxC" from the command line: 0, or 2 after a message. */
int rdb_tool_board(const rdb_tool_command *cmd, const char *word, int *rows, int *cols);

/* The options every build takes, as entries of an option table, and their
 * ids (kept clear of the subcommands' own, which are small). */
enum {
    RDB_OPT_DIR = 100,
    RDB_OPT_MEMORY,
    RDB_OPT_THREADS,
    RDB_OPT_GROUPS,
    RDB_OPT_ZSTD_LEVEL,
    RDB_OPT_PLAN,
    RDB_OPT_JSON,
    RDB_OPT_QUIET
};
#define RDB_TOOL_BUILD_OPTIONS                                                                    \
    {RDB_OPT_MEMORY, "memory", 'm', "MB",                                                        \
     "memory for the slices being computed, in megabytes (default 2048);\n"                      \
     "a bigger budget means fewer, larger slices"},                                              \
    {RDB_OPT_THREADS, "threads", 't', "N", "threads (default: every core)"},                     \
    {RDB_OPT_GROUPS, "groups", 0, "N",                                                           \
     "split the lines into N groups (default: the fewest that fit --memory)"},                   \
    {RDB_OPT_ZSTD_LEVEL, "zstd-level", 0, "N",                                                   \
     "zstd compression level of the slice files, -7..19 (default 1;\n"                           \
     "negative is faster)"},                                                                      \
    {RDB_OPT_PLAN, "plan", 0, NULL,                                                               \
     "print the layout, memory, disk and time the build needs, then stop"},                       \
    {RDB_OPT_JSON, "json", 'j', NULL, "with --plan or at the end: one JSON object on stdout"},   \
    {RDB_OPT_QUIET, "quiet", 'q', NULL, "no progress on stderr"}

/* What a build does when --plan, --json or neither is given. */
typedef struct {
    int plan, json;
} rdb_tool_build_output;

/* Apply a shared build option to opt or out: 1 done, 0 not one of them,
 * -1 a bad value (a message was printed: exit 2). */
int rdb_tool_build_option(const rdb_tool_command *cmd, int id, const char *value,
                          rdb_build_options *opt, rdb_tool_build_output *out);

/* The processes a build is shared among: NULL (the default) for this
 * process alone; bin/retrodb-mpi sets its MPI ranks here before it runs a
 * subcommand. */
extern const rdb_distribution *rdb_tool_distribution;

/* Whether this process speaks for the build: it alone, or MPI's rank 0. */
int rdb_tool_is_root(void);

/* A status only the root computed (st elsewhere is RDB_OK) made every
 * process's, with the root's message in err: the processes of a build then
 * all go on or all stop. st itself for one process. */
rdb_status rdb_tool_agree(rdb_status st, rdb_error *err);

/* Run a build whose options are all set: the plan alone (--plan), or the
 * build and then its result, the start position's value included. The
 * exit code. */
int rdb_tool_run_build(const rdb_build_options *opt, const rdb_tool_build_output *out);

/* Who moves at the start of a database of this variant, in words: "the
 * first player", or "the player to move" for a game under way (--start,
 * --problem). */
const char *rdb_tool_start_mover(const char *variant);

/* Who wins, in the words every command uses: "wins by 3", "loses by 1",
 * "draws" for a net score, after `who` ("the player to move", "the first
 * player"); "wins"/"loses" for a nimber. Returns buf. */
char *rdb_tool_dots_outcome(int value, const char *who, char *buf, size_t size);

/* A value with its sign, as every command prints one: "+3", "-1", and
 * "0" (a draw has no sign). Returns buf. */
#define RDB_TOOL_SIGNED_MAX 16
char *rdb_tool_signed(int value, char buf[RDB_TOOL_SIGNED_MAX]);
char *rdb_tool_cram_outcome(int nimber, const char *who, char *buf, size_t size);

/* The value of the start position of the database in dir (its nimber for
 * a Cram table), for the player to move there: RDB_OK, RDB_E_MISSING when
 * it is not stored (the build is not finished), or why it could not be
 * read (a damaged file, an I/O error). */
rdb_status rdb_tool_start_value(const char *dir, int *value, rdb_error *err);

/* On an installed baseline x86-64 program: run the program built for the
 * best x86-64 level the processor has, from libexec/ (cpu_variant.c);
 * returns only when there is none to run. */
void rdb_tool_run_best_variant(char **argv);

/* s as a JSON string, quoted and escaped, on out (stdout); a byte that
 * is not part of well-formed UTF-8 becomes U+FFFD. */
void rdb_tool_json_string_to(FILE *out, const char *s);
void rdb_tool_json_string(const char *s);

/* The game id of the database in dir (rdb_params.game) in *game; when its
 * PARAMS cannot be read, the reason (the folder's, not the position's:
 * a query reads the database before the position it asks about). */
rdb_status rdb_tool_database_game(const char *dir, int *game, rdb_error *err);

/* Make waiting OpenMP threads sleep rather than spin: unless the user set
 * OMP_WAIT_POLICY, set it to passive and start the program again (libgomp
 * reads it only as it loads). Returns only when it does not restart. */
void rdb_tool_wait_passively(char **argv);

/* The two halves of it: set OMP_WAIT_POLICY=passive in the environment
 * unless the user chose a policy (1: set, this process must restart to
 * take it), and start the program again with the same words. */
int rdb_tool_prefer_passive_wait(void);
void rdb_tool_restart(char **argv);

/* Whether the command line (the whole argv) may run several OpenMP
 * threads: every command but the version, the help and a search without
 * --threads (or with --threads 1). Only those spare the restart. */
int rdb_tool_needs_threads(int argc, char **argv);

/* Load the shared library `soname` (a library a command needs that the
 * program does not link, so that other commands start without it) and
 * look up the n functions `names` into slots; 0 when it or one of them is
 * missing, with the loader's message or the missing name in *why. */
int rdb_tool_load_library(const char *soname, const char *const *names, void **slots, int n,
                          const char **why);

/* Install the SIGINT/SIGTERM handlers that ask long jobs to stop cleanly. */
void rdb_tool_catch_signals(void);

#endif
