/*
 * cli.c — the helpers every subcommand of the retrodb program shares; see
 * cli.h. Nothing here knows a subcommand: the dispatcher (retrodb.c) and
 * the subcommand files use these, never each other.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/number.h"
#include "engine/db.h"

static const char usage_text[] =
    "usage: retrodb build cram RxC [--dir DIR] [--memory MB] [--threads N] [--groups N]\n"
    "                     [--zstd-level N] [--quiet]\n"
    "       retrodb build dots RxC [--variant empty|swedish|icelandic] [--start FILE]\n"
    "                     [--dir DIR] [--memory MB] [--threads N] [--groups N]\n"
    "                     [--zstd-level N] [--keep-lines K] [--disk GB] [--loony] [--chains] [--quiet]\n"
    "       retrodb build dots --problem FILE [--dir DIR] [options as above]\n"
    "       retrodb query --dir DIR [--json] [FILE]\n"
    "       retrodb info --dir DIR\n"
    "       retrodb status --dir DIR\n"
    "       retrodb verify --dir DIR [--full]\n"
    "       retrodb solve cram RxC|--position FILE [--method M] [--tt-mb N] [--tt-file F]\n"
    "                     [--db DIR]... [--json] [--quiet|--progress]\n"
    "       retrodb solve dots RxC [--variant V]|--position FILE|--problem FILE [--first-moves]\n"
    "                     [--tt-mb N] [--threads N] [--rules full|none] [--json] [--quiet|--progress]\n";

int rdb_tool_usage(void)
{
    fputs(usage_text, stderr);
    return 2;
}

int rdb_tool_usage_error(const char *usage, const char *fmt, const char *arg)
{
    fputs("retrodb: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    fputs(usage, stderr);
    return 2;
}

void rdb_tool_help(void)
{
    fputs(usage_text, stdout);
}

int rdb_tool_exit_code(rdb_status st)
{
    switch (st) {
    case RDB_OK:
        return 0;
    case RDB_E_INPUT:
        return 2;
    case RDB_E_STOPPED:
        return rdb_stop_requested == SIGTERM ? 143 : 130;
    default:
        return 1;
    }
}

int rdb_tool_report(rdb_status st, const rdb_error *err)
{
    if (st != RDB_OK)
        fprintf(stderr, "retrodb: %s\n", err->msg);
    return rdb_tool_exit_code(st);
}

const char *rdb_tool_opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] == '\0' && *i + 1 < argc)
        return argv[++*i];
    return NULL;
}

static void on_signal(int sig)
{
    if (rdb_stop_requested) {
        /* second signal: stop now; every finished file is already durable */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    rdb_stop_requested = sig;
}

int rdb_tool_build_option(int argc, char **argv, int *i, rdb_build_options *opt,
                          int *board_seen)
{
    const char *v;
    long n;
    if ((v = rdb_tool_opt_value(argc, argv, i, "--memory"))) {
        if (rdb_parse_long(v, 1, 1L << 30, &n))
            return fprintf(stderr, "retrodb: bad --memory '%s' (megabytes)\n", v), -1;
        opt->memory_mb = n;
    } else if ((v = rdb_tool_opt_value(argc, argv, i, "--threads"))) {
        if (rdb_parse_long(v, 1, 1024, &n))
            return fprintf(stderr, "retrodb: bad --threads '%s'\n", v), -1;
        opt->threads = (int)n;
    } else if ((v = rdb_tool_opt_value(argc, argv, i, "--groups"))) {
        if (rdb_parse_long(v, 1, RDB_MAX_GROUPS, &n))
            return fprintf(stderr, "retrodb: bad --groups '%s'\n", v), -1;
        opt->params.ngroups = (int)n;
    } else if ((v = rdb_tool_opt_value(argc, argv, i, "--zstd-level"))) {
        if (rdb_parse_long(v, RDB_ZSTD_LEVEL_MIN, RDB_ZSTD_LEVEL_MAX, &n))
            return fprintf(stderr, "retrodb: bad --zstd-level '%s' (%d..%d; negative is faster)\n",
                           v, RDB_ZSTD_LEVEL_MIN, RDB_ZSTD_LEVEL_MAX), -1;
        opt->params.zstd_level = (int)n;
    } else if (strcmp(argv[*i], "--quiet") == 0) {
        opt->quiet = 1;
    } else if (argv[*i][0] != '-' && !*board_seen) {
        if (rdb_parse_board(argv[*i], RDB_TOOL_MAX_SIDE, &opt->params.rows, &opt->params.cols))
            return fprintf(stderr, "retrodb: bad board '%s' (want RxC, e.g. 3x5, sides 1..%d)\n",
                           argv[*i], RDB_TOOL_MAX_SIDE), -1;
        *board_seen = 1;
    } else {
        return 0;
    }
    return 1;
}

rdb_status rdb_tool_database_game(const char *dir, int *game, rdb_error *err)
{
    rdb_params p;
    rdb_status st = rdb_params_read(dir, &p, err);
    *game = st == RDB_OK ? p.game : 0;
    return st;
}

void rdb_tool_catch_signals(void)
{
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
}
