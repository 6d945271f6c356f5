/*
 * options.c — parsing a subcommand's command line with getopt_long from its
 * option table, and printing its help from the same table; see options.h.
 */
#define _GNU_SOURCE
#include "options.h"

#include <stdarg.h>
#include <string.h>

/* Long options whose letter is 0 are told apart by this offset (a letter
 * option's getopt value is the letter itself, below 256). */
#define LONG_ONLY 256

void rdb_tool_args_init(rdb_tool_args *a, const rdb_tool_command *cmd, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->argc = argc;
    a->argv = argv;
    a->next = 1;
    /* ':' first: a missing value is reported as ':' rather than '?', so
     * the two errors get their own messages */
    int nl = 0, n = 0;
    a->letters[nl++] = ':';
    for (const rdb_tool_option *o = cmd->options; o->id; o++, n++) {
        a->longopts[n] = (struct option){o->name, o->value ? required_argument : no_argument,
                                         NULL, o->letter ? o->letter : LONG_ONLY + o->id};
        if (o->letter) {
            a->letters[nl++] = o->letter;
            if (o->value)
                a->letters[nl++] = ':';
        }
    }
    a->longopts[n++] = (struct option){"help", no_argument, NULL, 'h'};
    a->longopts[n] = (struct option){0, 0, 0, 0};
    a->letters[nl++] = 'h';
    a->letters[nl] = '\0';
    /* getopt keeps its position in globals: 0 makes it start afresh */
    optind = 0;
    opterr = 0;
}

static const rdb_tool_option *option_with_value(const rdb_tool_command *cmd, int value)
{
    for (const rdb_tool_option *o = cmd->options; o->id; o++)
        if ((o->letter && o->letter == value) || (!o->letter && LONG_ONLY + o->id == value))
            return o;
    return NULL;
}

int rdb_tool_next_option(rdb_tool_args *a, const char **value)
{
    *value = NULL;
    int c = getopt_long(a->argc, a->argv, a->letters, a->longopts, NULL);
    a->next = optind;
    if (c == -1)
        return RDB_TOOL_END;
    /* the word getopt stopped at, for messages: optind has moved past it
     * (and past its value, when it had one) */
    const char *word = a->argv[optind - 1];
    if (c == 'h') {
        rdb_tool_print_help(a->cmd, stdout);
        return RDB_TOOL_HELP;
    }
    if (c == '?') {
        if (optopt && optopt < LONG_ONLY && word[0] == '-' && word[1] != '-')
            return rdb_tool_bad(a->cmd, "unknown option '-%c'", optopt), RDB_TOOL_BAD;
        return rdb_tool_bad(a->cmd, "unknown option '%s'", word), RDB_TOOL_BAD;
    }
    if (c == ':') {
        if (optopt && optopt < LONG_ONLY && word[0] == '-' && word[1] != '-')
            return rdb_tool_bad(a->cmd, "option '-%c' needs a value", optopt), RDB_TOOL_BAD;
        return rdb_tool_bad(a->cmd, "option '%s' needs a value", word), RDB_TOOL_BAD;
    }
    const rdb_tool_option *o = option_with_value(a->cmd, c);
    if (!o) /* cannot happen: every value getopt returns comes from the table */
        return rdb_tool_bad(a->cmd, "unknown option '%s'", word), RDB_TOOL_BAD;
    *value = optarg;
    return o->id;
}

int rdb_tool_args_exit(int code)
{
    return code == RDB_TOOL_HELP ? 0 : 2;
}

int rdb_tool_args_left(const rdb_tool_args *a)
{
    return a->argc - a->next;
}

void rdb_tool_print_usage(const rdb_tool_command *cmd, FILE *f)
{
    const char *line = cmd->synopsis;
    int first = 1;
    while (*line) {
        size_t n = strcspn(line, "\n");
        fprintf(f, "%s retrodb %s %.*s\n", first ? "usage:" : "      ", cmd->name, (int)n, line);
        first = 0;
        line += n + (line[n] == '\n');
    }
}

int rdb_tool_bad(const rdb_tool_command *cmd, const char *fmt, ...)
{
    fprintf(stderr, "retrodb %s: ", cmd->name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    rdb_tool_print_usage(cmd, stderr);
    fprintf(stderr, "Every option: retrodb %s --help\n", cmd->name);
    return 2;
}

/* The column the options' descriptions start at. */
#define HELP_COLUMN 26

static void print_option(FILE *f, const char *letter, const char *name, const char *value,
                         const char *help)
{
    char head[128];
    snprintf(head, sizeof head, "  %s%s--%s%s%s", letter, *letter ? ", " : "    ", name,
             value ? " " : "", value ? value : "");
    int width = (int)strlen(head);
    fputs(head, f);
    if (width >= HELP_COLUMN - 1) {
        fputc('\n', f);
        width = 0;
    }
    /* each line of the description indented to the column */
    while (*help) {
        size_t n = strcspn(help, "\n");
        fprintf(f, "%*s%.*s\n", HELP_COLUMN - width, "", (int)n, help);
        width = 0;
        help += n + (help[n] == '\n');
    }
}

void rdb_tool_print_help(const rdb_tool_command *cmd, FILE *f)
{
    rdb_tool_print_usage(cmd, f);
    fprintf(f, "\n%s\n\noptions:\n", cmd->about);
    for (const rdb_tool_option *o = cmd->options; o->id; o++) {
        char letter[3] = {0};
        if (o->letter)
            snprintf(letter, sizeof letter, "-%c", o->letter);
        print_option(f, letter, o->name, o->value, o->help);
    }
    print_option(f, "-h", "help", NULL, "this help");
    fprintf(f, "\nExit status: 0 done, 1 a file or the system failed, 2 a wrong command line\n"
               "or position, 130/143 stopped by SIGINT/SIGTERM. See also: man retrodb\n"
               "(before make install: man man/retrodb.1)\n");
}
