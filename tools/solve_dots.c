/*
 * solve_dots.c — `retrodb solve dots RxC`, `--position FILE` and
 * `--problem FILE`: the value of a Dots-and-Boxes position by search
 * (src/dots/dots_solver.h), its best moves or the value of every move,
 * and the search's statistics.
 *
 * Every argument is checked, and the position read, before the search
 * starts. A position is any diagram `query` reads (with an optional A/B
 * line); a problem file also brings the value of the full position (a
 * last-move penalty) and the boxes already taken, so the final scores of
 * A and B are printed too.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common/human.h"
#include "commands.h"
#include "retrodb/probe.h"

#include "common/job.h"
#include "common/number.h"
#include "common/text_input.h"
#include "dots/dots_board.h"
#include "dots/dots_diagram.h"
#include "dots/dots_ledger.h"
#include "dots/dots_proof.h"
#include "dots/dots_solver.h"
#include "dots/dots_tt_file.h"
#include "dots/problem.h"

#define DEFAULT_TT_MB 1024
#define HELD_PRELOAD_MB 4096 /* --db-memory's default */

enum {
    OPT_TT_MB = 1,
    OPT_TT_MIN_OPEN,
    OPT_ETC_MIN_OPEN,
    OPT_THREADS,
    OPT_RULES,
    OPT_PROVE,
    OPT_TT_FILE,
    OPT_TT_SAVE_MINUTES,
    OPT_LEDGER,
    OPT_SPLIT_DEPTH,
    OPT_PART,
    OPT_VARIANT,
    OPT_POSITION,
    OPT_PROBLEM,
    OPT_FIRST_MOVES,
    OPT_VALUE_ONLY,
    OPT_ROW_ORDER,
    OPT_JSON,
    OPT_QUIET,
    OPT_PROGRESS,
    OPT_DB,
    OPT_DB_MEMORY
};

static const rdb_tool_option solve_dots_options[] = {
    {OPT_VARIANT, "variant", 0, "V", "with a board: empty, swedish or icelandic (default empty)"},
    {OPT_POSITION, "position", 'p', "FILE",
     "solve the diagram in FILE ('-': standard input), as query reads it"},
    {OPT_PROBLEM, "problem", 0, "FILE", "solve a problem file: scores, penalty, player to move"},
    {OPT_FIRST_MOVES, "first-moves", 0, NULL, "the value of every move (default: the best moves only)"},
    {OPT_VALUE_ONLY, "value-only", 0, NULL, "the value alone, without looking for the best moves"},
    {OPT_TT_MB, "tt-mb", 0, "N", "the most the transposition table grows to, in megabytes (default 1024;\nit starts at 16 and grows as it fills)"},
    {OPT_THREADS, "threads", 't', "N", "searchers sharing the table (default 1)"},
    {OPT_TT_MIN_OPEN, "tt-min-open", 0, "N",
     "store only positions with at least N open lines (default 6)"},
    {OPT_ETC_MIN_OPEN, "etc-min-open", 0, "N",
     "positions with at least N open lines look up their children in\n"
     "the table before searching any (default 15; 65: never)"},
    {OPT_RULES, "rules", 0, "R",
     "full (default: capture rules, and simple loony endgames valued\n"
     "without search), captures (the capture rules alone) or none\n"
     "(search every line)"},
    {OPT_ROW_ORDER, "row-order", 0, NULL, "try moves in line order, not centre first (to measure)"},
    {OPT_PROVE, "prove", 0, "V", "prove that the value is V, as sub-proofs recorded in the ledger"},
    {OPT_LEDGER, "ledger", 0, "F", "bounds proved earlier (read at start), appended as proved"},
    {OPT_TT_FILE, "tt-file", 0, "F",
     "load the table from F if it exists; save it there at the end, when\n"
     "stopped by a signal and every --tt-save-minutes"},
    {OPT_TT_SAVE_MINUTES, "tt-save-minutes", 0, "M", "save the table every M minutes (default 30)"},
    {OPT_DB, "db", 0, "DIR",
     "a database of the same board and start (all positions or quiet ones,\n"
     "finished or not): every position of a level it holds is looked up\n"
     "there instead of searched"},
    {OPT_DB_MEMORY, "db-memory", 0, "MB",
     "read --db into memory first when its values fit in MB megabytes\n"
     "(default 4096); a bigger one is read a frame at a time, slowly"},
    {OPT_SPLIT_DEPTH, "split-depth", 0, "D", "plies a proof is split before searching (default 2)"},
    {OPT_PART, "part", 0, "K/N", "search only part K (0..N-1) of a proof's sub-proofs"},
    {OPT_JSON, "json", 'j', NULL, "one JSON object on stdout"},
    {OPT_PROGRESS, "progress", 'v', NULL, "progress on stderr even when it is not a terminal"},
    {OPT_QUIET, "quiet", 'q', NULL, "no progress"},
    {0, 0, 0, 0, 0}};

const rdb_tool_command rdb_solve_dots_command = {
    "solve dots",
    "RxC [--variant V] [options]\n[RxC] --position FILE [options]\n[RxC] --problem FILE [options]",
    "The value of a Dots-and-Boxes position by alpha-beta search (net future\n"
    "boxes for the player to move) and its best moves, without a database;\n"
    "with --prove, a proof split into sub-proofs recorded in a ledger.",
    solve_dots_options};

#define bad(...) rdb_tool_bad(&rdb_solve_dots_command, __VA_ARGS__)

typedef struct {
    const char *board, *variant, *position, *problem, *ledger, *tt_file, *db;
    long db_memory_mb;
    long tt_save_minutes;
    int first_moves, value_only, json, quiet, progress;
    int prove, has_prove, split_depth_given;
    dots_solver_options opt;
    dots_proof_options proof;
} solve_args;

/* 0, or the exit status after a message (-1 after --help: exit 0). */
static int parse_args(int argc, char **argv, solve_args *a)
{
    const rdb_tool_command *cmd = &rdb_solve_dots_command;
    rdb_tool_args args;
    rdb_tool_args_init(&args, cmd, argc, argv);
    int id;
    const char *v;
    while ((id = rdb_tool_next_option(&args, &v)) > 0) {
        long n;
        switch (id) {
        case OPT_TT_MB:
            if (rdb_parse_long(v, 1, 1L << 20, &n) != 0)
                return bad("bad --tt-mb '%s' (want megabytes, 1 to 1048576)", v);
            a->opt.tt_bytes = (uint64_t)n << 20;
            break;
        case OPT_TT_MIN_OPEN:
            if (rdb_parse_long(v, 0, 64, &n) != 0)
                return bad("bad --tt-min-open '%s' (want 0 to 64)", v);
            a->opt.tt_min_open = (int)n;
            break;
        case OPT_ETC_MIN_OPEN:
            if (rdb_parse_long(v, 0, 65, &n) != 0)
                return bad("bad --etc-min-open '%s' (want 0 to 65)", v);
            a->opt.etc_min_open = (int)n;
            break;
        case OPT_THREADS:
            if (rdb_parse_long(v, 1, 256, &n) != 0)
                return bad("bad --threads '%s' (want 1 to 256)", v);
            a->opt.threads = (int)n;
            break;
        case OPT_RULES:
            if (strcmp(v, "full") == 0)
                a->opt.rules = DOTS_RULES_FULL;
            else if (strcmp(v, "captures") == 0)
                a->opt.rules = DOTS_RULES_CAPTURES;
            else if (strcmp(v, "none") == 0)
                a->opt.rules = DOTS_RULES_NONE;
            else
                return bad("unknown --rules '%s' (full, captures or none)", v);
            break;
        case OPT_PROVE:
            if (rdb_parse_long(v, -200, 200, &n) != 0)
                return bad("bad --prove '%s' (want a value, -200 to 200)", v);
            a->prove = (int)n;
            a->has_prove = 1;
            break;
        case OPT_DB:
            a->db = v;
            break;
        case OPT_DB_MEMORY:
            if (rdb_parse_long(v, 0, 1L << 30, &a->db_memory_mb))
                return bad("bad --db-memory '%s' (megabytes)", v);
            break;
        case OPT_TT_FILE:
            a->tt_file = v;
            break;
        case OPT_TT_SAVE_MINUTES:
            if (rdb_parse_long(v, 1, 100000, &n) != 0)
                return bad("bad --tt-save-minutes '%s' (want 1 to 100000)", v);
            a->tt_save_minutes = n;
            break;
        case OPT_LEDGER:
            a->ledger = v;
            break;
        case OPT_SPLIT_DEPTH:
            if (rdb_parse_long(v, 0, 8, &n) != 0)
                return bad("bad --split-depth '%s' (want 0 to 8)", v);
            a->proof.depth = (int)n;
            a->split_depth_given = 1;
            break;
        case OPT_PART: {
            long k, parts;
            const char *slash = strchr(v, '/');
            char first[32];
            if (!slash || slash - v >= (long)sizeof first)
                return bad("bad --part '%s' (want K/N, e.g. 0/2)", v);
            snprintf(first, sizeof first, "%.*s", (int)(slash - v), v);
            if (rdb_parse_long(slash + 1, 1, 1024, &parts) != 0 ||
                rdb_parse_long(first, 0, parts - 1, &k) != 0)
                return bad("bad --part '%s' (want K/N with 0 <= K < N)", v);
            a->proof.part = (int)k;
            a->proof.nparts = (int)parts;
            break;
        }
        case OPT_VARIANT:
            a->variant = v;
            break;
        case OPT_POSITION:
            a->position = v;
            break;
        case OPT_PROBLEM:
            a->problem = v;
            break;
        case OPT_FIRST_MOVES:
            a->first_moves = 1;
            break;
        case OPT_VALUE_ONLY:
            a->value_only = 1;
            break;
        case OPT_ROW_ORDER:
            a->opt.row_order = 1;
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case OPT_QUIET:
            a->quiet = 1;
            break;
        case OPT_PROGRESS:
            a->progress = 1;
            break;
        }
    }
    if (id == RDB_TOOL_HELP)
        return -1;
    if (id < 0)
        return 2;
    if (rdb_tool_args_left(&args) > 1)
        return bad("unexpected argument '%s'", argv[args.next + 1]);
    if (rdb_tool_args_left(&args) == 1)
        a->board = argv[args.next];
    /* A board with a file names its size, which the diagram must have
     * (read_input checks it): `solve dots 4x5 --position pos.txt`. */
    int files = !!a->position + !!a->problem;
    if (files > 1 || (files == 0 && !a->board))
        return bad("give a board RxC, --position FILE or --problem FILE (a board with a file "
                   "is the size the file's diagram must have)");
    if (a->first_moves && a->value_only)
        return bad("--first-moves and --value-only exclude each other");
    if (a->has_prove && (a->first_moves || a->value_only))
        return bad("--prove excludes --first-moves and --value-only");
    if (a->has_prove && !a->ledger)
        return bad("--prove needs a --ledger FILE to record its sub-proofs in");
    if ((a->proof.nparts > 1 || a->split_depth_given) && !a->has_prove)
        return bad("--part and --split-depth go with --prove");
    if (a->tt_save_minutes && !a->tt_file)
        return bad("--tt-save-minutes goes with --tt-file");
    if (a->db_memory_mb != HELD_PRELOAD_MB && !a->db)
        return bad("--db-memory goes with --db");
    if (a->variant && (!a->board || files))
        return bad("--variant '%s' goes with a board RxC alone (a file's diagram shows the lines "
                   "drawn)", a->variant);
    return 0;
}

/* The position to solve, as a problem (a plain board or diagram gets the
 * defaults: A to move, no penalty, nothing taken). */
static rdb_status read_input(const solve_args *a, rdb_problem *pr, rdb_error *err)
{
    memset(pr, 0, sizeof *pr);
    pr->to_move = 'A';
    int rows = 0, cols = 0;
    if (a->board && rdb_parse_board(a->board, RDB_TOOL_MAX_SIDE, &rows, &cols))
        return rdb_fail(err, RDB_E_INPUT, "bad board '%s' (want RxC, e.g. 3x5)", a->board);
    if (a->board && !a->position && !a->problem) {
        dots_board b;
        rdb_status st = dots_board_init(&b, rows, cols, err);
        if (st != RDB_OK)
            return st;
        pr->diagram.rows = rows;
        pr->diagram.cols = cols;
        const char *variant = a->variant ? a->variant : "empty";
        if (dots_variant_lines(&b, variant, &pr->diagram.drawn) != 0)
            return rdb_fail(err, RDB_E_INPUT, "unknown variant '%s' (empty, swedish, icelandic)",
                            variant);
        memset(pr->diagram.owner, ' ', sizeof pr->diagram.owner);
        return RDB_OK;
    }
    const char *path = a->problem ? a->problem : a->position;
    const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
    char *text;
    rdb_status st = rdb_read_file(path, &text, err);
    if (st != RDB_OK)
        return st;
    st = a->problem ? rdb_problem_parse(text, name, pr, err)
                    : rdb_problem_parse_position(text, name, pr, err);
    free(text);
    if (st == RDB_OK && a->board && (pr->diagram.rows != rows || pr->diagram.cols != cols))
        st = rdb_fail(err, RDB_E_INPUT, "the board is %dx%d but the diagram in %s is %dx%d", rows,
                      cols, name, pr->diagram.rows, pr->diagram.cols);
    return st;
}

static void print_line_list(const dots_board *b, uint64_t lines, int json)
{
    int first = 1;
    for (int l = 0; l < b->nlines; l++) {
        if (!(lines >> l & 1))
            continue;
        char name[32];
        dots_line_name(b, l, name);
        printf(json ? "%s\"%s\"" : "%s%s", first ? "" : json ? "," : " ", name);
        first = 0;
    }
}

static const char *rules_name(dots_rules_mode r)
{
    return r == DOTS_RULES_FULL ? "full" : r == DOTS_RULES_CAPTURES ? "captures" : "none";
}

static void print_json(const dots_board *b, const rdb_problem *pr, int scores, int value,
                       uint64_t best, const int *move_value, const dots_solver_options *opt,
                       const dots_solver_stats *st)
{
    printf("{\"game\":\"dots\",\"rows\":%d,\"cols\":%d,\"value\":%d,\"best\":[", b->rows, b->cols,
           value);
    print_line_list(b, best, 1);
    printf("]");
    if (scores)
        printf(",\"to_move\":\"%c\",\"score_a\":%d,\"score_b\":%d", pr->to_move,
               rdb_problem_margin(pr, value, 'A'), rdb_problem_margin(pr, value, 'B'));
    if (move_value) {
        printf(",\"moves\":[");
        int first = 1;
        for (int l = 0; l < b->nlines; l++) {
            if (pr->diagram.drawn >> l & 1)
                continue;
            char name[32];
            dots_line_name(b, l, name);
            printf("%s{\"line\":\"%s\",\"value\":%d}", first ? "" : ",", name, move_value[l]);
            first = 0;
        }
        printf("]");
    }
    if (opt->stored)
        printf(",\"db_hits\":%llu", (unsigned long long)st->db_hits);
    printf(",\"rules\":\"%s\",\"threads\":%d,\"nodes\":%llu,\"endgames\":%llu,\"etc_cuts\":%llu,"
           "\"tt_hits\":%llu,\"tests\":%llu,\"tt_entries\":%llu,\"seconds\":%.3f,\"tt_mb\":%.1f}\n",
           rules_name(opt->rules), opt->threads, (unsigned long long)st->nodes,
           (unsigned long long)st->endgames, (unsigned long long)st->etc_cuts,
           (unsigned long long)st->tt_hits,
           (unsigned long long)st->tests, (unsigned long long)st->tt_entries, st->seconds,
           (double)st->tt_bytes / 1048576.0);
}

static void print_text(const dots_board *b, const rdb_problem *pr, int scores, int value,
                       uint64_t best, const int *move_value, const dots_solver_stats *st)
{
    if (move_value)
        dots_diagram_print_values(stdout, b, pr->diagram.drawn, pr->diagram.owner, move_value);
    else
        dots_diagram_print(stdout, b, pr->diagram.drawn, pr->diagram.owner);
    char words[64];
    printf("value for the player to move: %s (net future boxes): %s from here\n",
           rdb_tool_signed(value, (char[RDB_TOOL_SIGNED_MAX]){0}),
           rdb_tool_dots_outcome(value, "the player to move", words, sizeof words));
    if (scores)
        printf("final score for A: %s, for B: %s (%c to move)\n",
               rdb_tool_signed(rdb_problem_margin(pr, value, 'A'), (char[RDB_TOOL_SIGNED_MAX]){0}),
               rdb_tool_signed(rdb_problem_margin(pr, value, 'B'), (char[RDB_TOOL_SIGNED_MAX]){0}),
               pr->to_move);
    if (best) {
        printf("best moves: ");
        print_line_list(b, best, 0);
        printf("\n");
    }
    /* counts with separators, as build prints them */
    char n[RDB_HUMAN_MAX], r[RDB_HUMAN_MAX], e[RDB_HUMAN_MAX], z[RDB_HUMAN_MAX], h[RDB_HUMAN_MAX],
        t[RDB_HUMAN_MAX];
    printf("search: %.2f s, %s nodes (%s a second), %s endgames valued, "
           "%s zero-window tests, tt hits %s, tt entries %s in %.1f MB\n",
           st->seconds, rdb_human_count(st->nodes, n, sizeof n),
           rdb_human_count((uint64_t)(st->seconds > 0 ? st->nodes / st->seconds : 0.0), r, sizeof r),
           rdb_human_count(st->endgames, e, sizeof e), rdb_human_count(st->tests, z, sizeof z),
           rdb_human_count(st->tt_hits, h, sizeof h), rdb_human_count(st->tt_entries, t, sizeof t),
           (double)st->tt_bytes / 1048576.0);
}

static const char *claim_word(int r)
{
    return r > 0 ? "proved" : r == 0 ? "disproved" : "not decided yet";
}

static int run_proof(const solve_args *a, const dots_board *b, const rdb_problem *pr,
                     dots_solver *s, dots_ledger *l)
{
    rdb_error err;
    dots_proof_result r;
    dots_proof_options po = a->proof;
    po.verbose = !a->quiet;
    double t0 = rdb_now();
    rdb_status st = dots_prove(s, l, pr->diagram.drawn, a->prove, &po, &r, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    double seconds = rdb_now() - t0;
    int v = a->prove;
    if (a->json) {
        printf("{\"game\":\"dots\",\"rows\":%d,\"cols\":%d,\"prove\":%d,\"at_least\":%d,"
               "\"at_most\":%d,\"searched\":%d,\"from_ledger\":%d,\"skipped\":%d,"
               "\"nodes\":%llu,\"seconds\":%.3f}\n",
               b->rows, b->cols, v, r.at_least, r.at_most, r.searched, r.from_ledger, r.skipped,
               (unsigned long long)r.nodes, seconds);
        return 0;
    }
    dots_diagram_print(stdout, b, pr->diagram.drawn, pr->diagram.owner);
    printf("value >= %d: %s\nvalue <= %d: %s\n", v, claim_word(r.at_least), v,
           claim_word(r.at_most));
    if (r.at_least == 1 && r.at_most == 1)
        printf("the value for the player to move is %s\n", rdb_tool_signed(v, (char[RDB_TOOL_SIGNED_MAX]){0}));
    else if (r.at_least == 0 || r.at_most == 0)
        printf("the value for the player to move is not %s\n", rdb_tool_signed(v, (char[RDB_TOOL_SIGNED_MAX]){0}));
    printf("proof: %d searches now, %d claims from the ledger '%s', %d left to other parts; "
           "%llu nodes in %.1f s\n",
           r.searched, r.from_ledger, a->ledger, r.skipped, (unsigned long long)r.nodes, seconds);
    return 0;
}

/* Saving the table while the search runs (dots_solver_set_hook). */
typedef struct {
    const dots_board *b;
    int full_value, quiet;
    const char *path;
} table_saver;

static rdb_status save_table_now(dots_solver *s, const table_saver *t, rdb_error *err)
{
    double t0 = rdb_now();
    rdb_status st = dots_tt_save(s, t->b, t->full_value, t->path, err);
    if (st == RDB_OK && !t->quiet)
        fprintf(stderr, "solve: table saved in '%s' (%.1f s)\n", t->path, rdb_now() - t0);
    return st;
}

/* The periodic save: a failure is reported and the search goes on. */
static void save_table(dots_solver *s, void *ctx)
{
    rdb_error err;
    if (save_table_now(s, ctx, &err) != RDB_OK)
        fprintf(stderr, "retrodb: %s (the search goes on)\n", err.msg);
}

/* --db: the database the search asks for the positions it holds. A level
 * the database does not hold (not built yet, or deleted) answers
 * RDB_E_MISSING once and is not asked again. */
typedef struct {
    rdb_probe *probe;
    uint64_t start;
    int start_lines;
    int missing[65];    /* levels the database does not hold */
    int failed;         /* a lookup failed otherwise: the message, once */
    rdb_status status;
    rdb_error err;
} held_db;

static int held_value(void *ctx, uint64_t lines, int *value)
{
    held_db *h = ctx;
    const int level = __builtin_popcountll(lines) - h->start_lines;
    if ((lines & h->start) != h->start || __atomic_load_n(&h->missing[level], __ATOMIC_RELAXED))
        return 0;
    rdb_error err;
    rdb_status st = rdb_probe_value(h->probe, lines, value, &err);
    if (st == RDB_OK)
        return 1;
    if (st == RDB_E_MISSING) {
        __atomic_store_n(&h->missing[level], 1, __ATOMIC_RELAXED);
    } else if (!__atomic_exchange_n(&h->failed, 1, __ATOMIC_RELAXED)) {
        h->err = err;
        h->status = st;
        rdb_stop_requested = SIGTERM; /* the search stops; the message says why */
    }
    return 0;
}

/* Open --db and check that it is a Dots-and-Boxes database of this board,
 * penalty and a start the position holds. */
static rdb_status open_held(const char *dir, long memory_mb, const dots_board *b,
                            const rdb_problem *pr, held_db *h, rdb_error *err)
{
    memset(h, 0, sizeof *h);
    rdb_status st = rdb_probe_open(dir, &h->probe, err);
    if (st != RDB_OK)
        return st;
    rdb_db_info info;
    rdb_probe_info(h->probe, &info);
    const int full_value = pr->has_value ? pr->full_value : 0;
    if (strcmp(info.game, "dots") != 0 || info.rows != b->rows || info.cols != b->cols)
        st = rdb_fail(err, RDB_E_INPUT, "--db '%s' is a %s %dx%d database, not dots %dx%d", dir,
                      info.game, info.rows, info.cols, b->rows, b->cols);
    else if (info.full_value != full_value)
        st = rdb_fail(err, RDB_E_INPUT, "--db '%s' has the full board worth %d, not %d", dir,
                      info.full_value, full_value);
    else if ((pr->diagram.drawn & info.start) != info.start)
        st = rdb_fail(err, RDB_E_INPUT,
                      "--db '%s' starts from lines the position does not have drawn", dir);
    else if (info.loony || info.chains)
        st = rdb_fail(err, RDB_E_INPUT,
                      "--db '%s' holds loony marks or chain pseudo-lines: give a plain database",
                      dir);
    if (st != RDB_OK) {
        rdb_probe_close(h->probe);
        h->probe = NULL;
        return st;
    }
    h->start = info.start;
    h->start_lines = __builtin_popcountll(info.start);
    /* The search asks for positions all over the levels: a database that
     * fits is read into memory once (a lookup in a file decodes a frame of
     * 128 K values); a bigger one is read frame by frame. */
    rdb_error ignored;
    (void)rdb_probe_preload(h->probe, (uint64_t)memory_mb << 20, &ignored);
    return RDB_OK;
}

int rdb_cmd_solve_dots(int argc, char **argv)
{
    solve_args a = {.db_memory_mb = HELD_PRELOAD_MB, .proof = {.depth = 2, .nparts = 1}, .opt = {.tt_min_open = 6, .etc_min_open = DOTS_ETC_MIN_OPEN, .tt_bytes = (uint64_t)DEFAULT_TT_MB << 20, .threads = 1, .rules = DOTS_RULES_FULL}};
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    rdb_error err;
    rdb_problem pr;
    rdb_status st = read_input(&a, &pr, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    dots_board b;
    st = dots_board_init(&b, pr.diagram.rows, pr.diagram.cols, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    a.opt.progress = !a.quiet && (a.progress || isatty(STDERR_FILENO));
    held_db held;
    if (a.db) {
        st = open_held(a.db, a.db_memory_mb, &b, &pr, &held, &err);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
        a.opt.stored = held_value;
        a.opt.stored_ctx = &held;
    }

    dots_solver *s;
    st = dots_solver_new(&b, pr.has_value ? pr.full_value : 0, &a.opt, &s, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    int full_value = pr.has_value ? pr.full_value : 0;
    table_saver saver = {&b, full_value, a.quiet, a.tt_file};
    /* the table file is this search's alone: two searches saving one
     * file would each write it over the other's */
    int lock_fd = -1;
    if (a.tt_file) {
        uint64_t loaded = 0;
        st = dots_tt_file_claim(a.tt_file, &lock_fd, &err);
        if (st == RDB_OK)
            st = dots_tt_load(s, &b, full_value, a.tt_file, &loaded, &err);
        if (st == RDB_E_MISSING) {
            st = RDB_OK;
        } else if (st != RDB_OK) {
            dots_solver_free(s);
            dots_tt_file_release(lock_fd);
            return rdb_tool_report(st, &err);
        } else if (!a.quiet) {
            fprintf(stderr, "solve: %llu table entries loaded from '%s'\n",
                    (unsigned long long)loaded, a.tt_file);
        }
        dots_solver_set_hook(s, 60.0 * (a.tt_save_minutes ? a.tt_save_minutes : 30), save_table,
                             &saver);
    }
    dots_ledger ledger = {0};
    if (a.ledger) {
        st = dots_ledger_open(&ledger, a.ledger, &b, pr.has_value ? pr.full_value : 0, &err);
        if (st == RDB_OK)
            st = dots_proof_use_ledger(s, &ledger, &err);
        if (st != RDB_OK) {
            dots_ledger_close(&ledger);
            dots_solver_free(s);
            dots_tt_file_release(lock_fd);
            return rdb_tool_report(st, &err);
        }
    }
    rdb_tool_catch_signals();
    if (a.has_prove) {
        int rc = run_proof(&a, &b, &pr, s, &ledger);
        dots_ledger_close(&ledger);
        if (a.tt_file && (rc == 0 || rc == 130 || rc == 143) &&
            (st = save_table_now(s, &saver, &err)) != RDB_OK && rc == 0)
            rc = rdb_tool_report(st, &err);
        dots_solver_free(s);
        dots_tt_file_release(lock_fd);
        return rc;
    }
    dots_ledger_close(&ledger);
    int value = 0, move_value[DOTS_MAX_LINES];
    uint64_t best = 0;
    uint64_t lines = pr.diagram.drawn;
    if (a.first_moves) {
        st = dots_solver_move_values(s, lines, move_value, &err);
        if (st == RDB_OK) {
            value = lines == dots_all_lines(&b) ? (pr.has_value ? pr.full_value : 0) : INT32_MIN;
            for (int l = 0; l < b.nlines; l++)
                if (!(lines >> l & 1) && move_value[l] > value)
                    value = move_value[l];
            for (int l = 0; l < b.nlines; l++)
                if (!(lines >> l & 1) && move_value[l] == value)
                    best |= 1ULL << l;
        }
    } else {
        st = dots_solver_value(s, lines, &value, &err);
        if (st == RDB_OK && !a.value_only)
            st = dots_solver_best_moves(s, lines, value, &best, &err);
    }
    if (a.tt_file && (st == RDB_OK || st == RDB_E_STOPPED)) {
        rdb_error save_err;
        rdb_status sst = save_table_now(s, &saver, &save_err);
        if (sst != RDB_OK && st == RDB_OK)
            st = sst, err = save_err;
        else if (sst != RDB_OK)
            rdb_tool_report(sst, &save_err);
    }
    dots_tt_file_release(lock_fd);
    if (st == RDB_OK) {
        dots_solver_stats stats;
        dots_solver_stats_get(s, &stats);
        int scores = a.problem || pr.has_to_move || pr.taken_a || pr.taken_b;
        const int *mv = a.first_moves ? move_value : NULL;
        if (a.json)
            print_json(&b, &pr, scores, value, best, mv, &a.opt, &stats);
        else
            print_text(&b, &pr, scores, value, best, mv, &stats);
    }
    dots_solver_free(s);
    if (a.db) {
        if (held.failed) { /* the search was stopped for it */
            st = held.status;
            err = held.err;
        }
        rdb_probe_close(held.probe);
    }
    return rdb_tool_report(st, &err);
}
