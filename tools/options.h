/*
 * options.h — the command line of one subcommand, declared once as a
 * table: from it come both the parsing (glibc's getopt_long, so --name=VALUE,
 * --name VALUE, -n VALUE and unique prefixes of long names all work) and
 * the help text, so that the two cannot disagree.
 *
 * Every subcommand takes -h/--help (the help on stdout, exit 0). An unknown
 * option, a missing value or a stray argument names itself, prints the
 * short usage and exits 2.
 *
 * Use:
 *     rdb_tool_args a;
 *     rdb_tool_args_init(&a, &spec, argc, argv);
 *     int id; const char *v;
 *     while ((id = rdb_tool_next_option(&a, &v)) > 0)
 *         switch (id) { ... }
 *     if (id < 0) return rdb_tool_args_exit(id);
 *     // the arguments left: a.argv[a.next .. a.argc-1]
 */
#ifndef RDB_TOOLS_OPTIONS_H
#define RDB_TOOLS_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

/* One option: how it is written, what value it takes, what it means. */
typedef struct {
    int id;             /* the subcommand's own number for it, >= 1 */
    const char *name;   /* the long name, without "--" */
    char letter;        /* the short name, or 0 */
    const char *value;  /* the value's name in the help ("MB"), NULL for a flag */
    const char *help;   /* what it does and its default; '\n' starts a new line */
} rdb_tool_option;

/* A subcommand: its name, the shapes of its command line, a paragraph on
 * what it does, and its options (the table ends with an entry of id 0). */
typedef struct {
    const char *name;      /* "build dots" */
    const char *synopsis;  /* one line per form, each after "retrodb <name> " */
    const char *about;     /* what it does, for --help */
    const rdb_tool_option *options;
} rdb_tool_command;

#define RDB_TOOL_MAX_OPTIONS 40

typedef struct {
    const rdb_tool_command *cmd;
    int argc;
    char **argv;
    int next; /* after the options: the first argument left */
    struct option longopts[RDB_TOOL_MAX_OPTIONS + 2];
    char letters[3 * RDB_TOOL_MAX_OPTIONS + 4];
} rdb_tool_args;

/* What rdb_tool_next_option returns besides an option's id. */
#define RDB_TOOL_END 0    /* no option left */
#define RDB_TOOL_HELP -1  /* --help was asked for and printed: exit 0 */
#define RDB_TOOL_BAD -2   /* a message and the usage were printed: exit 2 */

/* argv[0] is the subcommand's last word ("dots" of "build dots"). */
void rdb_tool_args_init(rdb_tool_args *a, const rdb_tool_command *cmd, int argc, char **argv);

/* The next option's id, with its value in *value (NULL for a flag). */
int rdb_tool_next_option(rdb_tool_args *a, const char **value);

/* The exit status of RDB_TOOL_HELP or RDB_TOOL_BAD: 0 or 2. */
int rdb_tool_args_exit(int code);

/* The number of arguments left after the options. */
int rdb_tool_args_left(const rdb_tool_args *a);

/* "retrodb <cmd>: " and the message on stderr, then the short usage and a
 * pointer to --help; returns 2. */
int rdb_tool_bad(const rdb_tool_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The full help of a subcommand, on f. */
void rdb_tool_print_help(const rdb_tool_command *cmd, FILE *f);

/* The short usage (the synopsis lines), on f. */
void rdb_tool_print_usage(const rdb_tool_command *cmd, FILE *f);

#endif
