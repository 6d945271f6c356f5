/*
 * solve_cram.c — `retrodb solve cram RxC` and `retrodb solve cram
 * --position FILE`: the nimber of an empty Cram board or of any position,
 * by search (the library's session, src/api/cram_session.h), with
 * statistics.
 *
 * Every argument is checked, and the position read, before anything is
 * written, so that bad input leaves no file behind. With --tt-file the
 * transposition table is loaded at the start when the file exists and
 * saved when the solve ends or is stopped by SIGINT/SIGTERM, so running
 * the same command again resumes a long solve; with --ledger the root's
 * answers are kept too, in a small text file (src/cram/cram_ledger.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

#include "api/cram_session.h"
#include "common/human.h"
#include "common/number.h"
#include "common/text_input.h"
#include "retrodb/position.h"

enum {
    OPT_METHOD = 1,
    OPT_TT_MB,
    OPT_TT_WIDE_MB,
    OPT_TT_FILE,
    OPT_TT_SAVE_MINUTES,
    OPT_TT_DIGEST,
    OPT_TT_DIGEST_LOG2,
    OPT_THREADS,
    OPT_POSITION,
    OPT_DB,
    OPT_BOARD_ORDER,
    OPT_NO_MIRROR,
    OPT_CERTIFICATE,
    OPT_FIRST_MOVES,
    OPT_LEDGER,
    OPT_JSON,
    OPT_PROGRESS,
    OPT_QUIET
};

static const rdb_tool_option solve_cram_options[] = {
    {OPT_POSITION, "position", 'p', "FILE",
     "solve the position drawn in FILE ('-': standard input): R lines of\n"
     "C cells, '.' free, '#' covered"},
    {OPT_METHOD, "method", 0, "M",
     "plain, simple-cuts, set-cuts, etc or aspiration (default aspiration;\n"
     "the others are kept to measure against)"},
    {OPT_THREADS, "threads", 't', "N", "threads sharing the root's trials (default 1; aspiration only)"},
    {OPT_TT_MB, "tt-mb", 0, "N",
     "transposition table size in megabytes (default 1024, at least 4);\n"
     "the table starts small and grows to this"},
    {OPT_TT_WIDE_MB, "tt-wide-mb", 0, "N",
     "on boards of more than 64 cells, the table of the parts too tall for\n"
     "64 bits, beside the other, in megabytes, rounded down to a power of two\n"
     "(default an eighth of --tt-mb, at least 16)"},
    {OPT_TT_FILE, "tt-file", 0, "F",
     "load the table from F if it exists; save it there at the end, when\n"
     "stopped by a signal and every --tt-save-minutes: run the same\n"
     "command again to resume"},
    {OPT_TT_SAVE_MINUTES, "tt-save-minutes", 0, "M", "save the table every M minutes (default 30)"},
    {OPT_TT_DIGEST, "tt-digest", 0, "F",
     "load F if it exists; save there, whenever the table is saved, the\n"
     "entries that cost 2^24 nodes or more each: a file of a few MB that\n"
     "brings the dearest results of a long solve to another machine"},
    {OPT_TT_DIGEST_LOG2, "tt-digest-log2", 0, "K",
     "keep in --tt-digest the entries of 2^K nodes or more (default 24)"},
    {OPT_LEDGER, "ledger", 0, "F",
     "the answers of the root's moves found by earlier runs (read at the\n"
     "start), appended as found: a run stopped and started again, even on\n"
     "another machine without its table, searches none of them again"},
    {OPT_DB, "db", 0, "DIR", "probe the Cram nimber table in DIR (repeatable)"},
    {OPT_CERTIFICATE, "certificate", 0, NULL,
     "for each k below the nimber, a move to a position of nimber k\n"
     "(cells as (row,column) from 0)"},
    {OPT_FIRST_MOVES, "first-moves", 0, NULL,
     "the nimber of every move, each searched with the table the solve\n"
     "filled (a move to 0 wins)"},
    {OPT_BOARD_ORDER, "board-order", 0, NULL, "visit moves in board order (to measure the move ordering)"},
    {OPT_NO_MIRROR, "no-mirror", 0, NULL,
     "search parts that the mirror rule values 0 (a half turn maps them onto\n"
     "themselves, no domino meeting its image) instead (to measure the rule)"},
    {OPT_JSON, "json", 'j', NULL, "one JSON object on stdout"},
    {OPT_PROGRESS, "progress", 'v', NULL, "progress on stderr even when it is not a terminal"},
    {OPT_QUIET, "quiet", 'q', NULL, "no progress"},
    {0, 0, 0, 0, 0}};

const rdb_tool_command rdb_solve_cram_command = {
    "solve cram", "RxC [options]\n--position FILE [options]",
    "The nimber of an empty Cram board or of any position, by search: 0 means\n"
    "the player to move loses. Boards of up to 128 cells; positions with at most\n"
    "127 free dominoes.",
    solve_cram_options};

static rdb_status read_position(const char *path, int *rows, int *cols, cram_wset *covered,
                                rdb_error *err)
{
    const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
    char *text;
    rdb_status st = rdb_read_file(path, &text, err);
    if (st != RDB_OK)
        return st;
    uint64_t half[2];
    st = rdb_cram_parse_diagram_wide(text, name, rows, cols, half, err);
    free(text);
    *covered = (cram_wset)half[1] << 64 | half[0];
    return st;
}

/* The moves as a picture of the board: each domino's nimber between its
 * two cells (horizontal ones on the cells' row, vertical ones on the line
 * between the rows, ending under the upper cell), blank where no move is;
 * the gaps as wide as the widest nimber needs. */
static void print_moves_text(int rows, int cols, cram_wset covered, const rdb_cram_session_result *mv)
{
    const int nh = rows * (cols - 1);
    char value[2 * 128][8];
    int w = 1; /* the widest nimber's digits */
    for (int d = 0; d < nh + (rows - 1) * cols; d++)
        value[d][0] = '\0';
    for (int i = 0; i < mv->nmoves; i++) {
        const int len = snprintf(value[mv->domino[i]], sizeof value[0], "%d", mv->move_nimber[i]);
        if (len > w)
            w = len;
    }
    printf("moves, the nimber each leads to (0 wins):\n");
    for (int r = 0; r < rows; r++) {
        printf("%*s", w - 1, "");
        for (int c = 0; c < cols; c++) {
            putchar(covered >> (r * cols + c) & 1 ? '#' : '.');
            if (c + 1 < cols)
                printf(" %*s ", w, value[r * (cols - 1) + c]);
        }
        printf("\n");
        if (r + 1 == rows)
            break;
        for (int c = 0; c < cols; c++)
            printf("%*s", c ? w + 3 : w, value[nh + r * cols + c]);
        printf("\n");
    }
    int wins = 0, cell[2];
    for (int i = 0; i < mv->nmoves; i++) {
        if (mv->move_nimber[i] != 0)
            continue;
        cram_domino_cells(rows, cols, mv->domino[i], cell);
        printf("%s (%d,%d)-(%d,%d)", wins++ ? "" : "winning moves:", cell[0] / cols, cell[0] % cols,
               cell[1] / cols, cell[1] % cols);
    }
    printf(wins ? "\n" : mv->nmoves ? "no winning move\n" : "no move\n");
}

static void print_moves_json(int rows, int cols, const rdb_cram_session_result *mv)
{
    printf(",\"moves\":[");
    int cell[2];
    for (int i = 0; i < mv->nmoves; i++) {
        cram_domino_cells(rows, cols, mv->domino[i], cell);
        printf("%s{\"cells\":[[%d,%d],[%d,%d]],\"nimber\":%d}", i ? "," : "", cell[0] / cols,
               cell[0] % cols, cell[1] / cols, cell[1] % cols, mv->move_nimber[i]);
    }
    printf("]");
}

static void print_certificate_json(int cols, const rdb_cram_session_result *c)
{
    printf(",\"certificate\":[");
    for (int k = 0; k < c->ncertificate; k++) {
        const int *cell = c->certificate[k];
        printf("%s{\"nimber\":%d,\"cells\":[[%d,%d],[%d,%d]]}", k ? "," : "", k, cell[0] / cols,
               cell[0] % cols, cell[1] / cols, cell[1] % cols);
    }
    printf("]");
}

static void print_json(int rows, int cols, cram_method m, const rdb_cram_session_result *r,
                       int first_moves)
{
    const cram_stats *st = &r->stats;
    const int nimber = r->nimber;
    printf("{\"game\":\"cram\",\"rows\":%d,\"cols\":%d,\"nimber\":%d,\"method\":\"%s\","
           "\"nodes\":%llu,\"expanded\":%llu,\"tt_hits\":%llu,\"db_hits\":%llu,\"cuts\":%llu,"
           "\"twins\":%llu,\"mirror_zero\":%llu,\"helped\":%llu,\"helper_first\":%llu,"
           "\"tt_entries\":%llu,\"tt_loaded\":%llu,\"tt_mb\":%.0f,\"tt_fill\":%.4f,\"seconds\":%.3f",
           rows, cols, nimber, cram_method_name(m), (unsigned long long)st->nodes,
           (unsigned long long)st->expanded, (unsigned long long)st->tt_hits,
           (unsigned long long)st->db_hits, (unsigned long long)st->cuts,
           (unsigned long long)st->twins, (unsigned long long)st->mirror_zero,
           (unsigned long long)st->helped,
           (unsigned long long)st->helper_first,
           (unsigned long long)st->tt_entries, (unsigned long long)st->tt_loaded,
           st->tt_bytes / 1048576.0, st->tt_fill, st->seconds);
    if (st->wide_tt_bytes)
        printf(",\"wide_expanded\":%llu,\"wide_tt_mb\":%.0f,\"wide_tt_fill\":%.4f",
               (unsigned long long)st->wide_expanded, st->wide_tt_bytes / 1048576.0, st->wide_tt_fill);
    if (st->unreduced)
        printf(",\"unreduced\":%llu", (unsigned long long)st->unreduced);
    if (st->tt_held)
        printf(",\"tt_held\":true");
    if (st->from_ledger || st->to_ledger)
        printf(",\"from_ledger\":%llu,\"to_ledger\":%llu", (unsigned long long)st->from_ledger,
               (unsigned long long)st->to_ledger);
    if (r->ncertificate)
        print_certificate_json(cols, r);
    if (first_moves)
        print_moves_json(rows, cols, r);
    printf("}\n");
}

static void print_text(int rows, int cols, cram_wset covered, cram_method m,
                       const rdb_cram_session_result *r, int first_moves)
{
    const cram_stats *st = &r->stats;
    const int nimber = r->nimber;
    cram_diagram_print_wide(stdout, rows, cols, covered);
    char words[64];
    printf("nimber %d: %s\n", nimber, rdb_tool_cram_outcome(nimber, "the player to move", words, sizeof words));
    /* counts with separators, as build and solve dots print them */
    char h[8][RDB_HUMAN_MAX];
#define COUNT(k, x) rdb_human_count((uint64_t)(x), h[k], sizeof h[k])
    printf("method %s: %.2f s, %s nodes (%s a second), %s expanded, tt hits %s, db hits %s, "
           "cuts %s, tt entries %s",
           cram_method_name(m), st->seconds, COUNT(0, st->nodes),
           COUNT(1, st->seconds > 0 ? st->nodes / st->seconds : 0.0), COUNT(2, st->expanded),
           COUNT(3, st->tt_hits), COUNT(4, st->db_hits), COUNT(5, st->cuts),
           COUNT(6, st->tt_entries));
    if (st->tt_loaded)
        printf(" (%s loaded)", COUNT(0, st->tt_loaded));
    if (st->mirror_zero)
        printf(", %s parts valued 0 by the mirror rule", COUNT(0, st->mirror_zero));
    if (st->wide_expanded)
        printf(", %s parts of more than 64 cells expanded", COUNT(0, st->wide_expanded));
    if (st->unreduced)
        printf(", %s components kept unreduced", COUNT(0, st->unreduced));
    if (st->helped)
        printf(", threads joined a root move %s times (answered first %s)", COUNT(0, st->helped),
               COUNT(1, st->helper_first));
    if (st->from_ledger || st->to_ledger)
        printf(", root answers from the ledger %s, added to it %s", COUNT(0, st->from_ledger),
               COUNT(1, st->to_ledger));
#undef COUNT
    printf(", tt %.0f MB%s %.0f%% full", (st->tt_bytes - st->wide_tt_bytes) / 1048576.0,
           st->tt_held ? " (held there: memory was short)" : "", 100.0 * st->tt_fill);
    if (st->wide_tt_bytes)
        printf(", wide parts' tt %.0f MB %.0f%% full", st->wide_tt_bytes / 1048576.0, 100.0 * st->wide_tt_fill);
    printf("\n");
    for (int k = 0; k < r->ncertificate; k++) {
        const int *cell = r->certificate[k];
        printf("to nimber %d: cover (%d,%d) and (%d,%d)\n", k, cell[0] / cols, cell[0] % cols,
               cell[1] / cols, cell[1] % cols);
    }
    if (first_moves)
        print_moves_text(rows, cols, covered, r);
}

int rdb_cmd_solve_cram(int argc, char **argv)
{
    const rdb_tool_command *cmd = &rdb_solve_cram_command;
    rdb_cram_session o;
    rdb_cram_session_defaults(&o);
    cram_solver_options *const opt = &o.solver;
    const char *position = NULL, *board = NULL;
    int json = 0, progress = 0;
    rdb_tool_args args;
    rdb_tool_args_init(&args, cmd, argc, argv);
    int id;
    const char *v;
    while ((id = rdb_tool_next_option(&args, &v)) > 0) {
        long n;
        switch (id) {
        case OPT_METHOD: {
            int m = cram_method_from_name(v);
            if (m < 0)
                return rdb_tool_bad(cmd, "unknown method '%s'", v);
            opt->method = (cram_method)m;
            break;
        }
        case OPT_TT_MB:
            if (rdb_parse_long(v, 1, 1L << 20, &n) != 0)
                return rdb_tool_bad(cmd, "bad --tt-mb '%s' (want megabytes, 1 to 1048576)", v);
            opt->tt_mb = n;
            break;
        case OPT_TT_WIDE_MB:
            if (rdb_parse_long(v, 1, 1L << 20, &n) != 0)
                return rdb_tool_bad(cmd, "bad --tt-wide-mb '%s' (want megabytes, 1 to 1048576)", v);
            opt->wide_tt_mb = n;
            break;
        case OPT_THREADS:
            if (rdb_parse_long(v, 1, CRAM_MAX_THREADS, &n) != 0)
                return rdb_tool_bad(cmd, "bad --threads '%s' (want 1 to %d)", v, CRAM_MAX_THREADS);
            opt->threads = (int)n;
            break;
        case OPT_TT_FILE:
            o.tt_file = v;
            break;
        case OPT_TT_DIGEST:
            o.digest = v;
            break;
        case OPT_TT_DIGEST_LOG2:
            if (rdb_parse_long(v, 1, 60, &n) != 0)
                return rdb_tool_bad(cmd, "bad --tt-digest-log2 '%s' (want 1 to 60)", v);
            o.digest_log2 = (int)n;
            break;
        case OPT_TT_SAVE_MINUTES:
            if (rdb_parse_long(v, 1, 100000, &n) != 0)
                return rdb_tool_bad(cmd, "bad --tt-save-minutes '%s' (want 1 to 100000)", v);
            o.save_minutes = n;
            break;
        case OPT_POSITION:
            position = v;
            break;
        case OPT_DB:
            if (o.ntables == RDB_CRAM_SESSION_TABLES)
                return rdb_tool_bad(cmd, "too many --db (at most %d): '%s'", RDB_CRAM_SESSION_TABLES, v);
            o.table[o.ntables++] = v;
            break;
        case OPT_CERTIFICATE:
            o.certificate = 1;
            break;
        case OPT_FIRST_MOVES:
            o.first_moves = 1;
            break;
        case OPT_LEDGER:
            o.ledger = v;
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_QUIET:
            o.quiet = 1;
            break;
        case OPT_PROGRESS:
            progress = 1;
            break;
        case OPT_BOARD_ORDER:
            opt->board_order = 1;
            break;
        case OPT_NO_MIRROR:
            opt->no_mirror = 1;
            break;
        }
    }
    if (id < 0)
        return rdb_tool_args_exit(id);
    if (rdb_tool_args_left(&args) > 1)
        return rdb_tool_bad(cmd, "unexpected argument '%s'", argv[args.next + 1]);
    if (rdb_tool_args_left(&args) == 1)
        board = argv[args.next];
    if (board && position)
        return rdb_tool_bad(cmd, "give a board RxC or --position FILE, not both (got '%s' too)", board);
    if (!board && !position)
        return rdb_tool_bad(cmd, "give a board RxC or --position FILE");
    if (o.save_minutes && !o.tt_file && !o.digest)
        return rdb_tool_bad(cmd, "--tt-save-minutes goes with --tt-file or --tt-digest");
    if (o.tt_file && o.digest && strcmp(o.tt_file, o.digest) == 0)
        return rdb_tool_bad(cmd, "--tt-file and --tt-digest name one file, '%s': the digest is a file of its own",
                            o.digest);
    if (o.ledger && opt->method != CRAM_ASPIRATION)
        return rdb_tool_bad(cmd, "--ledger records the root's trials of the aspiration method only (method %s)",
                            cram_method_name(opt->method));

    rdb_error err;
    int rows, cols;
    cram_wset covered = 0;
    if (board) {
        /* strips up to 1x128: the solver's cells, not the tables' sides */
        if (rdb_parse_board(board, CRAM_WIDE_MAX_CELLS, &rows, &cols))
            return rdb_tool_bad(cmd, "bad board '%s' (want RxC, e.g. 3x5, sides 1..%d)", board,
                                CRAM_WIDE_MAX_CELLS);
    } else {
        rdb_status st = read_position(position, &rows, &cols, &covered, &err);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
    }
    opt->progress = !o.quiet && (progress || isatty(STDERR_FILENO));
    if (rows * cols > CRAM_WIDE_MAX_CELLS)
        return rdb_tool_bad(cmd, "cram board %dx%d has %d cells; at most %d fit", rows, cols,
                            rows * cols, CRAM_WIDE_MAX_CELLS);

    rdb_tool_catch_signals();
    rdb_cram_session_result *r = malloc(sizeof *r);
    if (!r)
        return rdb_tool_report(rdb_fail(&err, RDB_E_NOMEM, "out of memory"), &err);
    rdb_status st = rdb_cram_session_run(&o, rows, cols, covered, r, &err);
    if (r->saved != RDB_OK) {
        /* a finished search still gives its answer below: the file keeps
         * its last save, the exit status tells of the failure */
        rdb_tool_report(r->saved, &r->save_err);
        if (st == RDB_OK)
            fprintf(stderr, "retrodb: the answer is complete; only the table could not be saved\n");
    }
    if (st == RDB_OK) {
        if (json)
            print_json(rows, cols, opt->method, r, o.first_moves);
        else
            print_text(rows, cols, covered, opt->method, r, o.first_moves);
    }
    const rdb_status saved = r->saved;
    free(r);
    if (st == RDB_OK && saved != RDB_OK)
        return rdb_tool_exit_code(saved);
    return rdb_tool_report(st, &err);
}
