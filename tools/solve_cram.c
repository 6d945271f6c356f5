/*
 * solve_cram.c — `retrodb solve cram RxC` and `retrodb solve cram
 * --position FILE`: the nimber of an empty Cram board or of any position,
 * by search (src/cram/cram_solver.h), with statistics.
 *
 * Every argument is checked, and the position read, before anything is
 * written, so that bad input leaves no file behind. With --tt-file the
 * transposition table is loaded at the start when the file exists and
 * saved when the solve ends or is stopped by SIGINT/SIGTERM, so running
 * the same command again resumes a long solve.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

#include "common/job.h"
#include "common/number.h"
#include "common/text_input.h"
#include "cram/cram_board.h"
#include "cram/cram_solver.h"

#define MAX_TABLE_DIRS 16
#define DEFAULT_TT_MB 1024

static const char *const solve_usage =
    "usage: retrodb solve cram RxC [options]\n"
    "       retrodb solve cram --position FILE [options]   (FILE '-' = standard input)\n"
    "options: --method plain|simple-cuts|set-cuts|etc|aspiration (default aspiration)\n"
    "         --tt-mb N     transposition table size in megabytes (default 1024)\n"
    "         --tt-file F   load the table from F if it exists; save it there at the end,\n"
    "                       when stopped by a signal and every --tt-save-minutes M\n"
    "                       (default 30): run the same command again to resume\n"
    "         --threads N   threads sharing the root's trials (default 1; aspiration\n"
    "                       only)\n"
    "         --db DIR      probe the cram nimber table in DIR (repeatable)\n"
    "         --board-order visit moves in board order (to measure the move ordering)\n"
    "         --certificate for each k below the nimber, a move to a position of\n"
    "                       nimber k (cells as (row,column) from 0)\n"
    "         --json        one JSON object on standard output\n"
    "         --progress    progress on stderr even when it is not a terminal\n"
    "         --quiet       no progress\n";

static int bad(const char *fmt, const char *arg)
{
    return rdb_tool_usage_error(solve_usage, fmt, arg);
}

static rdb_status read_position(const char *path, int *rows, int *cols, uint64_t *covered,
                                rdb_error *err)
{
    const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
    char *text;
    rdb_status st = rdb_read_file(path, &text, err);
    if (st != RDB_OK)
        return st;
    st = cram_diagram_parse(text, name, rows, cols, covered, err);
    free(text);
    return st;
}

/* For each k below the nimber, a move to a position of nimber k (the
 * dominoes of cram_board, or -1 where none was asked for). */
typedef struct {
    int n;                 /* 0: no certificate asked for */
    int move[128];
} certificate;

/* Find, for each k below `nimber`, a move of the position to one of nimber
 * k: the mex needs them all, so together with the solve (no move reaches
 * `nimber`) they show the answer. Each move is found by asking the
 * children "is it k?" in turn, mostly from the table the solve filled. */
static rdb_status find_certificate(cram_solver *s, const cram_board *b, uint64_t free_cells,
                                   int nimber, certificate *c, rdb_error *err)
{
    c->n = nimber;
    for (int k = 0; k < nimber; k++) {
        c->move[k] = -1;
        for (int d = 0; d < b->ndominoes && c->move[k] < 0; d++) {
            if ((free_cells & b->domino[d]) != b->domino[d])
                continue;
            int is;
            rdb_status st = cram_solver_test(s, free_cells & ~b->domino[d], k, &is, err);
            if (st != RDB_OK)
                return st;
            if (is)
                c->move[k] = d;
        }
        if (c->move[k] < 0)
            return rdb_fail(err, RDB_E_CORRUPT,
                            "no move reaches nimber %d, below the nimber %d found: the search is wrong", k,
                            nimber);
    }
    return RDB_OK;
}

static void print_certificate_json(const cram_board *b, const certificate *c)
{
    printf(",\"certificate\":[");
    for (int k = 0; k < c->n; k++) {
        const uint8_t *cell = b->domino_cell[c->move[k]];
        printf("%s{\"nimber\":%d,\"cells\":[[%d,%d],[%d,%d]]}", k ? "," : "", k, cell[0] / b->cols,
               cell[0] % b->cols, cell[1] / b->cols, cell[1] % b->cols);
    }
    printf("]");
}

static void print_json(int rows, int cols, int nimber, cram_method m, const cram_stats *st,
                       const cram_board *b, const certificate *c)
{
    printf("{\"game\":\"cram\",\"rows\":%d,\"cols\":%d,\"nimber\":%d,\"method\":\"%s\","
           "\"nodes\":%llu,\"expanded\":%llu,\"tt_hits\":%llu,\"db_hits\":%llu,\"cuts\":%llu,"
           "\"tt_entries\":%llu,\"tt_loaded\":%llu,\"tt_mb\":%.0f,\"tt_fill\":%.4f,\"seconds\":%.3f",
           rows, cols, nimber, cram_method_name(m), (unsigned long long)st->nodes,
           (unsigned long long)st->expanded, (unsigned long long)st->tt_hits,
           (unsigned long long)st->db_hits, (unsigned long long)st->cuts,
           (unsigned long long)st->tt_entries, (unsigned long long)st->tt_loaded,
           st->tt_bytes / 1048576.0, st->tt_fill, st->seconds);
    if (c->n)
        print_certificate_json(b, c);
    printf("}\n");
}

static void print_text(int rows, int cols, uint64_t covered, int nimber, cram_method m,
                       const cram_stats *st, const cram_board *b, const certificate *c)
{
    cram_diagram_print(stdout, rows, cols, covered);
    printf("nimber %d (%s)\n", nimber, nimber ? "first player wins" : "second player wins");
    printf("method %s: %.2f s, %llu nodes (%.0f per second), %llu expanded, tt hits %llu, "
           "db hits %llu, cuts %llu, tt entries %llu",
           cram_method_name(m), st->seconds, (unsigned long long)st->nodes,
           st->seconds > 0 ? st->nodes / st->seconds : 0.0, (unsigned long long)st->expanded,
           (unsigned long long)st->tt_hits, (unsigned long long)st->db_hits,
           (unsigned long long)st->cuts, (unsigned long long)st->tt_entries);
    if (st->tt_loaded)
        printf(" (%llu loaded)", (unsigned long long)st->tt_loaded);
    printf(", tt %.0f MB %.0f%% full\n", st->tt_bytes / 1048576.0, 100.0 * st->tt_fill);
    for (int k = 0; k < c->n; k++) {
        const uint8_t *cell = b->domino_cell[c->move[k]];
        printf("to nimber %d: cover (%d,%d) and (%d,%d)\n", k, cell[0] / b->cols, cell[0] % b->cols,
               cell[1] / b->cols, cell[1] % b->cols);
    }
}

/* Saving the table while the search runs (cram_solver_set_hook). */
typedef struct {
    const char *path;
    int quiet;
} table_saver;

static void save_table(cram_solver *s, void *ctx)
{
    const table_saver *t = ctx;
    double t0 = rdb_now();
    rdb_error err;
    if (cram_solver_save_tt(s, t->path, &err) != RDB_OK)
        fprintf(stderr, "retrodb: %s (the search goes on)\n", err.msg);
    else if (!t->quiet)
        fprintf(stderr, "solve: table saved in '%s' (%.1f s)\n", t->path, rdb_now() - t0);
}

int rdb_cmd_solve(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "cram") != 0)
        return bad("solve knows two games: dots and cram (got '%s')", argc < 2 ? "" : argv[1]);

    cram_solver_options opt = {.method = CRAM_DEFAULT_METHOD, .tt_mb = DEFAULT_TT_MB};
    const char *position = NULL, *tt_file = NULL, *board = NULL;
    const char *dirs[MAX_TABLE_DIRS];
    int ndirs = 0, json = 0, quiet = 0, progress = 0, want_certificate = 0;
    long save_minutes = 0;
    for (int i = 2; i < argc; i++) {
        const char *v;
        long n;
        if ((v = rdb_tool_opt_value(argc, argv, &i, "--method"))) {
            int m = cram_method_from_name(v);
            if (m < 0)
                return bad("unknown method '%s'", v);
            opt.method = (cram_method)m;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--tt-mb"))) {
            if (rdb_parse_long(v, 1, 1L << 20, &n) != 0)
                return bad("bad --tt-mb '%s' (want megabytes, 1 to 1048576)", v);
            opt.tt_mb = n;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--threads"))) {
            if (rdb_parse_long(v, 1, CRAM_MAX_THREADS, &n) != 0)
                return bad("bad --threads '%s' (want 1 to 64)", v);
            opt.threads = (int)n;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--tt-file"))) {
            tt_file = v;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--tt-save-minutes"))) {
            if (rdb_parse_long(v, 1, 100000, &n) != 0)
                return bad("bad --tt-save-minutes '%s' (want 1 to 100000)", v);
            save_minutes = n;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--position"))) {
            position = v;
        } else if ((v = rdb_tool_opt_value(argc, argv, &i, "--db"))) {
            if (ndirs == MAX_TABLE_DIRS)
                return bad("too many --db (at most 16): '%s'", v);
            dirs[ndirs++] = v;
        } else if (strcmp(argv[i], "--certificate") == 0) {
            want_certificate = 1;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(argv[i], "--progress") == 0) {
            progress = 1;
        } else if (strcmp(argv[i], "--board-order") == 0) {
            opt.board_order = 1;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            return bad("unknown or incomplete option '%s'", argv[i]);
        } else if (!board) {
            board = argv[i];
        } else {
            return bad("unexpected argument '%s'", argv[i]);
        }
    }
    if (board && position)
        return bad("give a board RxC or --position FILE, not both (got '%s' too)", board);
    if (!board && !position)
        return bad("%sgive a board RxC or --position FILE", "");
    if (save_minutes && !tt_file)
        return bad("%s--tt-save-minutes goes with --tt-file", "");

    rdb_error err;
    int rows, cols;
    uint64_t covered = 0;
    if (board) {
        if (rdb_parse_board(board, RDB_TOOL_MAX_SIDE, &rows, &cols))
            return bad("bad board '%s' (want RxC, e.g. 5x7)", board);
    } else {
        rdb_status st = read_position(position, &rows, &cols, &covered, &err);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
    }
    cram_board b;
    rdb_status bst = cram_board_init(&b, rows, cols, &err);
    if (bst != RDB_OK)
        return rdb_tool_report(bst, &err);
    opt.progress = !quiet && (progress || isatty(STDERR_FILENO));

    cram_solver *s;
    rdb_status st = cram_solver_new(rows, cols, &opt, &s, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    for (int i = 0; i < ndirs && st == RDB_OK; i++)
        st = cram_solver_add_table(s, dirs[i], &err);
    table_saver saver = {tt_file, quiet};
    if (st == RDB_OK && tt_file) {
        st = cram_solver_load_tt(s, tt_file, &err);
        if (st == RDB_E_MISSING)
            st = RDB_OK;
        cram_solver_set_hook(s, 60.0 * (save_minutes ? save_minutes : 30), save_table, &saver);
    }
    if (st != RDB_OK) {
        cram_solver_free(s);
        return rdb_tool_report(st, &err);
    }

    rdb_tool_catch_signals();
    int ncells = rows * cols;
    uint64_t all = ncells == 64 ? ~0ULL : (1ULL << ncells) - 1;
    int nimber = -1;
    certificate cert = {0};
    st = cram_solver_solve(s, all & ~covered, &nimber, &err);
    if (st == RDB_OK && want_certificate)
        st = find_certificate(s, &b, all & ~covered, nimber, &cert, &err);
    if (tt_file && (st == RDB_OK || st == RDB_E_STOPPED)) {
        rdb_error save_err;
        rdb_status sst = cram_solver_save_tt(s, tt_file, &save_err);
        if (sst != RDB_OK) {
            rdb_tool_report(sst, &save_err);
            if (st == RDB_OK)
                st = sst, err = save_err;
        } else if (st == RDB_E_STOPPED && !quiet) {
            fprintf(stderr, "retrodb: transposition table saved in '%s'; run the same command to resume\n",
                    tt_file);
        }
    }
    if (st == RDB_OK) {
        cram_stats stats;
        cram_solver_stats(s, &stats);
        if (json)
            print_json(rows, cols, nimber, opt.method, &stats, &b, &cert);
        else
            print_text(rows, cols, covered, nimber, opt.method, &stats, &b, &cert);
    }
    cram_solver_free(s);
    return rdb_tool_report(st, &err);
}
