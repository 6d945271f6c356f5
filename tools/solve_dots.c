/*
 * solve_dots.c — `retrodb solve dots RxC`, `--position FILE` and
 * `--problem FILE`: the value of a Dots-and-Boxes position by search
 * (the library's session, src/api/dots_session.h), its best moves or the
 * value of every move, and the search's statistics.
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

#include "api/dots_session.h"
#include "api/dots_start.h"
#include "api/position_forms.h"
#include "common/number.h"
#include "common/text_input.h"

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
    rdb_dots_session o;    /* what the search does */
    const char *board, *variant, *position, *problem;
    int db_memory_given, json, progress, split_depth_given;
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
            a->o.solver.tt_bytes = (uint64_t)n << 20;
            break;
        case OPT_TT_MIN_OPEN:
            if (rdb_parse_long(v, 0, 64, &n) != 0)
                return bad("bad --tt-min-open '%s' (want 0 to 64)", v);
            a->o.solver.tt_min_open = (int)n;
            break;
        case OPT_ETC_MIN_OPEN:
            if (rdb_parse_long(v, 0, 65, &n) != 0)
                return bad("bad --etc-min-open '%s' (want 0 to 65)", v);
            a->o.solver.etc_min_open = (int)n;
            break;
        case OPT_THREADS:
            if (rdb_parse_long(v, 1, 256, &n) != 0)
                return bad("bad --threads '%s' (want 1 to 256)", v);
            a->o.solver.threads = (int)n;
            break;
        case OPT_RULES:
            if (strcmp(v, "full") == 0)
                a->o.solver.rules = DOTS_RULES_FULL;
            else if (strcmp(v, "captures") == 0)
                a->o.solver.rules = DOTS_RULES_CAPTURES;
            else if (strcmp(v, "none") == 0)
                a->o.solver.rules = DOTS_RULES_NONE;
            else
                return bad("unknown --rules '%s' (full, captures or none)", v);
            break;
        case OPT_PROVE:
            if (rdb_parse_long(v, -200, 200, &n) != 0)
                return bad("bad --prove '%s' (want a value, -200 to 200)", v);
            a->o.prove = (int)n;
            a->o.has_prove = 1;
            break;
        case OPT_DB:
            a->o.db = v;
            break;
        case OPT_DB_MEMORY:
            if (rdb_parse_long(v, 0, 1L << 30, &a->o.db_memory_mb))
                return bad("bad --db-memory '%s' (megabytes)", v);
            a->db_memory_given = 1;
            break;
        case OPT_TT_FILE:
            a->o.tt_file = v;
            break;
        case OPT_TT_SAVE_MINUTES:
            if (rdb_parse_long(v, 1, 100000, &n) != 0)
                return bad("bad --tt-save-minutes '%s' (want 1 to 100000)", v);
            a->o.save_minutes = n;
            break;
        case OPT_LEDGER:
            a->o.ledger = v;
            break;
        case OPT_SPLIT_DEPTH:
            if (rdb_parse_long(v, 0, 8, &n) != 0)
                return bad("bad --split-depth '%s' (want 0 to 8)", v);
            a->o.proof.depth = (int)n;
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
            a->o.proof.part = (int)k;
            a->o.proof.nparts = (int)parts;
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
            a->o.first_moves = 1;
            break;
        case OPT_VALUE_ONLY:
            a->o.value_only = 1;
            break;
        case OPT_ROW_ORDER:
            a->o.solver.row_order = 1;
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case OPT_QUIET:
            a->o.quiet = 1;
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
    if (a->o.first_moves && a->o.value_only)
        return bad("--first-moves and --value-only exclude each other");
    if (a->o.has_prove && (a->o.first_moves || a->o.value_only))
        return bad("--prove excludes --first-moves and --value-only");
    if (a->o.has_prove && !a->o.ledger)
        return bad("--prove needs a --ledger FILE to record its sub-proofs in");
    if ((a->o.proof.nparts > 1 || a->split_depth_given) && !a->o.has_prove)
        return bad("--part and --split-depth go with --prove");
    if (a->o.save_minutes && !a->o.tt_file)
        return bad("--tt-save-minutes goes with --tt-file");
    if (a->db_memory_given && !a->o.db)
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
        pr->diagram.rows = rows;
        pr->diagram.cols = cols;
        memset(pr->diagram.owner, ' ', sizeof pr->diagram.owner);
        return rdb_dots_start_variant(rows, cols, a->variant ? a->variant : "empty",
                                      &pr->diagram.drawn, err);
    }
    const char *path = a->problem ? a->problem : a->position;
    const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
    char *text;
    rdb_status st = rdb_read_file(path, &text, err);
    if (st != RDB_OK)
        return st;
    st = a->problem ? rdb_dots_start_problem(text, name, pr, err)
                    : rdb_dots_start_position(text, name, pr, err);
    free(text);
    if (st == RDB_OK && a->board && (pr->diagram.rows != rows || pr->diagram.cols != cols))
        st = rdb_fail(err, RDB_E_INPUT, "the board is %dx%d but the diagram in %s is %dx%d", rows,
                      cols, name, pr->diagram.rows, pr->diagram.cols);
    return st;
}

/* The name of line l of the position's board. */
static const char *line_name(const rdb_problem *pr, int l, char name[RDB_LINE_NAME_MAX])
{
    rdb_error ignored;
    if (rdb_dots_line_name(pr->diagram.rows, pr->diagram.cols, l, name, RDB_LINE_NAME_MAX, &ignored) != RDB_OK)
        name[0] = '\0';
    return name;
}

static void print_line_list(const rdb_problem *pr, uint64_t lines, int json)
{
    int first = 1;
    for (uint64_t m = lines; m; m &= m - 1) {
        char name[RDB_LINE_NAME_MAX];
        line_name(pr, __builtin_ctzll(m), name);
        printf(json ? "%s\"%s\"" : "%s%s", first ? "" : json ? "," : " ", name);
        first = 0;
    }
}

static const char *rules_name(dots_rules_mode r)
{
    return r == DOTS_RULES_FULL ? "full" : r == DOTS_RULES_CAPTURES ? "captures" : "none";
}

static void print_json(const rdb_problem *pr, int scores, int value, uint64_t best,
                       const int *move_value, const dots_solver_options *opt, int with_db,
                       const dots_solver_stats *st)
{
    printf("{\"game\":\"dots\",\"rows\":%d,\"cols\":%d,\"value\":%d,\"best\":[", pr->diagram.rows,
           pr->diagram.cols, value);
    print_line_list(pr, best, 1);
    printf("]");
    if (scores)
        printf(",\"to_move\":\"%c\",\"score_a\":%d,\"score_b\":%d", pr->to_move,
               rdb_problem_margin(pr, value, 'A'), rdb_problem_margin(pr, value, 'B'));
    if (move_value) {
        printf(",\"moves\":[");
        int first = 1;
        for (int l = 0; l < rdb_form_dots_nlines(pr->diagram.rows, pr->diagram.cols); l++) {
            if (pr->diagram.drawn >> l & 1)
                continue;
            char name[RDB_LINE_NAME_MAX];
            printf("%s{\"line\":\"%s\",\"value\":%d}", first ? "" : ",", line_name(pr, l, name),
                   move_value[l]);
            first = 0;
        }
        printf("]");
    }
    if (with_db)
        printf(",\"db_hits\":%llu", (unsigned long long)st->db_hits);
    printf(",\"rules\":\"%s\",\"threads\":%d,\"nodes\":%llu,\"endgames\":%llu,\"etc_cuts\":%llu,"
           "\"tt_hits\":%llu,\"tests\":%llu,\"tt_entries\":%llu,\"seconds\":%.3f,\"tt_mb\":%.1f}\n",
           rules_name(opt->rules), opt->threads, (unsigned long long)st->nodes,
           (unsigned long long)st->endgames, (unsigned long long)st->etc_cuts,
           (unsigned long long)st->tt_hits,
           (unsigned long long)st->tests, (unsigned long long)st->tt_entries, st->seconds,
           (double)st->tt_bytes / 1048576.0);
}

static void print_text(const rdb_problem *pr, int scores, int value, uint64_t best,
                       const int *move_value, const dots_solver_stats *st)
{
    if (move_value) {
        char label[64][RDB_FORM_LABEL_MAX];
        for (int l = 0; l < rdb_form_dots_nlines(pr->diagram.rows, pr->diagram.cols); l++)
            snprintf(label[l], sizeof label[l], "%d", move_value[l]);
        rdb_form_dots_print(stdout, pr, label);
    } else {
        rdb_form_dots_print(stdout, pr, NULL);
    }
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
        print_line_list(pr, best, 0);
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

static void print_proof(const solve_args *a, const rdb_problem *pr, const dots_proof_result *r,
                        double seconds)
{
    int v = a->o.prove;
    if (a->json) {
        printf("{\"game\":\"dots\",\"rows\":%d,\"cols\":%d,\"prove\":%d,\"at_least\":%d,"
               "\"at_most\":%d,\"searched\":%d,\"from_ledger\":%d,\"skipped\":%d,"
               "\"nodes\":%llu,\"seconds\":%.3f}\n",
               pr->diagram.rows, pr->diagram.cols, v, r->at_least, r->at_most, r->searched,
               r->from_ledger, r->skipped, (unsigned long long)r->nodes, seconds);
        return;
    }
    rdb_form_dots_print(stdout, pr, NULL);
    printf("value >= %d: %s\nvalue <= %d: %s\n", v, claim_word(r->at_least), v,
           claim_word(r->at_most));
    if (r->at_least == 1 && r->at_most == 1)
        printf("the value for the player to move is %s\n", rdb_tool_signed(v, (char[RDB_TOOL_SIGNED_MAX]){0}));
    else if (r->at_least == 0 || r->at_most == 0)
        printf("the value for the player to move is not %s\n", rdb_tool_signed(v, (char[RDB_TOOL_SIGNED_MAX]){0}));
    printf("proof: %d searches now, %d claims from the ledger '%s', %d left to other parts; "
           "%llu nodes in %.1f s\n",
           r->searched, r->from_ledger, a->o.ledger, r->skipped, (unsigned long long)r->nodes, seconds);
}

int rdb_cmd_solve_dots(int argc, char **argv)
{
    solve_args a = {0};
    rdb_dots_session_defaults(&a.o);
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    rdb_error err;
    rdb_problem pr;
    rdb_status st = read_input(&a, &pr, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    a.o.solver.progress = !a.o.quiet && (a.progress || isatty(STDERR_FILENO));

    rdb_tool_catch_signals();
    rdb_dots_session_result r;
    st = rdb_dots_session_run(&a.o, &pr, &r, &err);
    if (st == RDB_OK && a.o.has_prove) {
        print_proof(&a, &pr, &r.proof, r.proof_seconds);
    } else if (st == RDB_OK) {
        int scores = a.problem || pr.has_to_move || pr.taken_a || pr.taken_b;
        const int *mv = a.o.first_moves ? r.move_value : NULL;
        if (a.json)
            print_json(&pr, scores, r.value, r.best, mv, &a.o.solver, a.o.db != NULL, &r.stats);
        else
            print_text(&pr, scores, r.value, r.best, mv, &r.stats);
    }
    return rdb_tool_report(st, &err);
}
