/*
 * query.c — `retrodb query`: read a position, look it up with the probe API
 * and print its value and the value of every move, as a picture or as one
 * JSON object. On a database built from a problem file (a PROBLEM file in
 * its folder) it also prints the final scores of players A and B, boxes
 * already taken included, as Wilson's viewer did.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "query_picture.h"

#include "common/path.h"
#include "common/text_input.h"
#include "cram/cram.h"
#include "dots/dots_board.h"
#include "dots/dots_diagram.h"
#include "dots/problem.h"
#include "retrodb/position.h"
#include "retrodb/probe.h"

/* The database's problem, when it has one: *has is 0 when the folder holds
 * no PROBLEM file. */
static rdb_status read_problem(const char *dir, rdb_problem *prob, int *has, rdb_error *err)
{
    char path[RDB_PATH_MAX];
    *has = 0;
    rdb_status st = rdb_path_format(path, sizeof path, err, "%s/%s", dir, RDB_PROBLEM_FILE);
    if (st != RDB_OK)
        return st;
    FILE *f = fopen(path, "r");
    *has = f != NULL;
    if (!f)
        return errno == ENOENT ? RDB_OK : rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    char *text;
    st = rdb_read_stream(f, path, &text, err);
    fclose(f);
    if (st != RDB_OK)
        return st;
    st = rdb_problem_parse(text, path, prob, err);
    free(text);
    return st == RDB_E_INPUT ? RDB_E_CORRUPT : st;
}

/* The queried position of a problem database: the player to move from its
 * own A/B line or else the problem's, the boxes taken in the problem's
 * start marked as there. */
static rdb_status parse_problem_position(const char *text, const char *source,
                                         const rdb_problem *prob, rdb_problem *pos,
                                         rdb_error *err)
{
    rdb_status st = rdb_problem_parse_position(text, source, pos, err);
    if (st != RDB_OK)
        return st;
    if (pos->has_value && pos->full_value != prob->full_value)
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: the value of the full position %d differs from the database's %d",
                        source, pos->full_value, prob->full_value);
    if (!pos->has_to_move)
        pos->to_move = prob->to_move;
    if (pos->diagram.rows != prob->diagram.rows || pos->diagram.cols != prob->diagram.cols)
        return RDB_OK; /* the board check below names both sizes */
    return rdb_problem_inherit_owners(pos, prob, source, err);
}

/* Wilson's mark of who must make the next loony move: 'v' for A, '^' for
 * B, '\0' for neither (or a database without loony analysis). */
static char loony_mark(int next_loony, char to_move)
{
    char other = to_move == 'A' ? 'B' : 'A';
    char who = next_loony == RDB_LOONY_MOVER ? to_move
             : next_loony == RDB_LOONY_OPPONENT ? other : 0;
    return who == 'A' ? 'v' : who == 'B' ? '^' : '\0';
}

/* The marks of the position and of every move, when the database has loony
 * analysis. */
typedef struct {
    int on;
    char position;
    char line[DOTS_MAX_LINES];
} loony_marks;

static void mark_answer(const rdb_dots_answer *a, int on, char to_move, loony_marks *m)
{
    memset(m, 0, sizeof *m);
    m->on = on;
    if (!on)
        return;
    m->position = loony_mark(a->next_loony, to_move);
    for (int i = 0; i < a->nmoves; i++)
        m->line[a->line[i]] = loony_mark(a->move_next_loony[i], to_move);
}

/* ,"loony":"v" for a JSON object, when the database has loony analysis. */
static void print_json_mark(const loony_marks *m, char mark)
{
    if (m->on)
        printf(",\"loony\":\"%s\"", mark == 'v' ? "v" : mark == '^' ? "^" : "");
}

/* A score of A or B, or null when boxes complete without a letter make it
 * unknown. */
static void print_json_score(const rdb_problem *pos, int value, char player)
{
    if (pos->unmarked)
        printf("null");
    else
        printf("%d", rdb_problem_margin(pos, value, player));
}

static void print_problem_json(const dots_board *b, const rdb_problem *pos,
                               const rdb_dots_answer *a, const loony_marks *m)
{
    printf("{\"game\":\"dots\",\"rows\":%d,\"cols\":%d,\"value\":%d,\"to_move\":\"%c\","
           "\"taken\":{\"A\":%d,\"B\":%d,\"unmarked\":%d},\"score_a\":",
           b->rows, b->cols, a->value, pos->to_move, pos->taken_a, pos->taken_b, pos->unmarked);
    print_json_score(pos, a->value, 'A');
    printf(",\"score_b\":");
    print_json_score(pos, a->value, 'B');
    print_json_mark(m, m->position);
    printf(",\"moves\":[");
    for (int i = 0; i < a->nmoves; i++) {
        char name[32];
        dots_line_name(b, a->line[i], name);
        printf("%s{\"line\":\"%s\",\"value\":%d,\"score_a\":", i ? "," : "", name,
               a->move_value[i]);
        print_json_score(pos, a->move_value[i], 'A');
        printf(",\"score_b\":");
        print_json_score(pos, a->move_value[i], 'B');
        print_json_mark(m, m->line[a->line[i]]);
        printf("}");
    }
    printf("]}\n");
}

/* The raw values first (for the player to move), then one picture per
 * player with that player's final margin for every move. */
static void print_problem_text(const dots_board *b, const rdb_problem *pos,
                               const rdb_dots_answer *a, const loony_marks *m)
{
    int value[DOTS_MAX_LINES] = {0};
    for (int i = 0; i < a->nmoves; i++)
        value[a->line[i]] = a->move_value[i];
    dots_diagram_print_scores(stdout, b, pos->diagram.drawn, pos->diagram.owner, value, m->line);
    char words[64];
    printf("value for the player to move: %+d%s (net future boxes): %s from here\n", a->value,
           (char[]){m->position, '\0'},
           rdb_tool_dots_outcome(a->value, "the player to move", words, sizeof words));
    printf("%c to move; boxes taken: A %d, B %d\n", pos->to_move, pos->taken_a, pos->taken_b);
    if (pos->unmarked) {
        printf("%d complete box%s without a letter: mark who took %s (A or B) to see the scores of A and B\n",
               pos->unmarked, pos->unmarked == 1 ? "" : "es", pos->unmarked == 1 ? "it" : "them");
        return;
    }
    for (const char *player = "AB"; *player; player++) {
        for (int i = 0; i < a->nmoves; i++)
            value[a->line[i]] = rdb_problem_margin(pos, a->move_value[i], *player);
        printf("\nfinal score for %c (its boxes minus the other's) after each move:\n", *player);
        dots_diagram_print_scores(stdout, b, pos->diagram.drawn, pos->diagram.owner, value,
                                  m->line);
    }
    printf("final score for A: %+d%s, for B: %+d%s\n", rdb_problem_margin(pos, a->value, 'A'),
           (char[]){m->position, '\0'}, rdb_problem_margin(pos, a->value, 'B'),
           (char[]){m->position, '\0'});
    if (m->on)
        printf("v: A must make the next loony move, ^: B must, no mark: neither\n");
}

enum { OPT_JSON = 1, OPT_MOVES, OPT_SVG };

static const rdb_tool_option query_options[] = {
    {RDB_OPT_DIR, "dir", 'd', "DIR", "the database (required)"},
    {OPT_MOVES, "moves", 0, "LINES",
     "the position after these lines, drawn on the database's start, as\n"
     "query prints them: 'h0,0 v1,2' (Dots-and-Boxes; instead of FILE)"},
    {OPT_JSON, "json", 'j', NULL, "one JSON object on stdout"},
    {OPT_SVG, "svg", 0, "FILE", "write a picture of the position as SVG to FILE"},
    {0, 0, 0, 0, 0}};

const rdb_tool_command rdb_query_command = {
    "query",
    "--dir DIR [--json] [--svg FILE] [FILE]\n--dir DIR [--json] [--svg FILE] --moves LINES",
    "The value of a position and of every move, from a database. The position\n"
    "is a diagram in FILE or on standard input (FILE '-' or none): for\n"
    "Dots-and-Boxes 2R+1 lines of dots '+', lines '-' and '|', boxes taken 'A'\n"
    "or 'B' and an optional 'A to move' line; for a Cram table R lines of C\n"
    "cells, '.' free and '#' covered. Values are net future boxes for the\n"
    "player to move (Dots-and-Boxes) or nimbers (Cram).",
    query_options};

/* Look the position d up in the database in dir and print the answer,
 * and draw it into the file svg unless NULL; pos is the position with its
 * scores in a problem's database, else NULL. */
static int answer_dots(const char *dir, const dots_diagram *d, const rdb_problem *pos, int json,
                       const char *svg)
{
    rdb_error err;
    rdb_probe *p;
    rdb_status st = rdb_probe_open(dir, &p, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    int rows, cols;
    uint64_t start;
    rdb_probe_board(p, &rows, &cols, &start);
    if (rows != d->rows || cols != d->cols) {
        fprintf(stderr, "retrodb: the position is a %dx%d board; the database in '%s' is %dx%d\n",
                d->rows, d->cols, dir, rows, cols);
        rdb_probe_close(p);
        return 2;
    }
    rdb_dots_answer a;
    st = rdb_probe_moves(p, d->drawn, &a, &err);
    const int loony = rdb_probe_loony(p);
    rdb_probe_close(p);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    loony_marks marks;
    mark_answer(&a, loony, pos ? pos->to_move : 'A', &marks);

    dots_board b;
    dots_board_init(&b, rows, cols, &err);
    if (pos && json) {
        print_problem_json(&b, pos, &a, &marks);
    } else if (pos) {
        print_problem_text(&b, pos, &a, &marks);
    } else if (json) {
        printf("{\"game\":\"dots\",\"rows\":%d,\"cols\":%d,\"value\":%d", rows, cols, a.value);
        print_json_mark(&marks, marks.position);
        printf(",\"moves\":[");
        for (int i = 0; i < a.nmoves; i++) {
            char name[32];
            dots_line_name(&b, a.line[i], name);
            printf("%s{\"line\":\"%s\",\"value\":%d", i ? "," : "", name, a.move_value[i]);
            print_json_mark(&marks, marks.line[a.line[i]]);
            printf("}");
        }
        printf("]}\n");
    } else {
        int value[DOTS_MAX_LINES] = {0};
        for (int i = 0; i < a.nmoves; i++)
            value[a.line[i]] = a.move_value[i];
        dots_diagram_print_scores(stdout, &b, d->drawn, d->owner, value, marks.line);
        char words[64];
        printf("value for the player to move: %+d%s (net future boxes): %s from here\n", a.value,
               (char[]){marks.position, '\0'},
               rdb_tool_dots_outcome(a.value, "the player to move", words, sizeof words));
        if (marks.on)
            printf("v: A (the player to move) must make the next loony move, ^: B must, no mark: neither\n");
    }
    if (svg)
        return rdb_query_dots_svg(svg, rows, cols, d->drawn, d->owner, &a,
                                  marks.on ? marks.line : NULL, marks.position, NULL);
    return 0;
}

/* The position `--moves` names: the database's start with the lines
 * drawn. 0, or the exit status after a message. */
static int moves_position(const rdb_tool_command *cmd, const char *dir, const char *moves,
                          dots_diagram *d)
{
    rdb_params params;
    rdb_error err;
    rdb_status st = rdb_params_read(dir, &params, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    uint64_t lines;
    st = rdb_dots_parse_lines(params.rows, params.cols, moves, &lines, &err);
    if (st != RDB_OK)
        return rdb_tool_bad(cmd, "--moves: %s", err.msg);
    if (lines & params.start) {
        char name[RDB_LINE_NAME_MAX];
        rdb_dots_line_name(params.rows, params.cols, __builtin_ctzll(lines & params.start), name,
                           sizeof name, &err);
        return rdb_tool_bad(cmd, "--moves: %s is drawn in the database's start already", name);
    }
    memset(d, 0, sizeof *d);
    d->rows = params.rows;
    d->cols = params.cols;
    d->drawn = params.start | lines;
    memset(d->owner, ' ', sizeof d->owner);
    return 0;
}

int rdb_cmd_query(int argc, char **argv)
{
    const rdb_tool_command *cmd = &rdb_query_command;
    const char *dir = NULL, *file = NULL, *moves = NULL, *svg = NULL;
    int json = 0;
    rdb_tool_args args;
    rdb_tool_args_init(&args, cmd, argc, argv);
    int id;
    const char *v;
    while ((id = rdb_tool_next_option(&args, &v)) > 0) {
        if (id == RDB_OPT_DIR)
            dir = v;
        else if (id == OPT_JSON)
            json = 1;
        else if (id == OPT_MOVES)
            moves = v;
        else if (id == OPT_SVG)
            svg = v;
    }
    if (id < 0)
        return rdb_tool_args_exit(id);
    if (rdb_tool_args_left(&args) > 1)
        return rdb_tool_bad(cmd, "one position file at a time (got '%s' too)", argv[args.next + 1]);
    if (rdb_tool_args_left(&args) == 1)
        file = argv[args.next];
    if (!dir)
        return rdb_tool_bad(cmd, "which database? (--dir DIR)");
    if (moves && file)
        return rdb_tool_bad(cmd, "give the position as --moves or as FILE, not both");
    rdb_error err;
    rdb_problem prob, pos;
    int has_problem, game;
    rdb_status st = rdb_tool_database_game(dir, &game, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    st = read_problem(dir, &prob, &has_problem, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    dots_diagram d;
    if (moves) {
        if (game == RDB_GAME_CRAM)
            return rdb_tool_bad(cmd, "--moves names Dots-and-Boxes lines; give a Cram position as a diagram");
        /* a problem's scores need who took each box, which the lines alone
         * do not say */
        if (has_problem)
            return rdb_tool_bad(cmd, "--moves: '%s' analyses a problem; give the position as a diagram with A and B in the boxes taken",
                                dir);
        int rc = moves_position(cmd, dir, moves, &d);
        if (rc)
            return rc;
        return answer_dots(dir, &d, has_problem ? &pos : NULL, json, svg);
    }
    char *text;
    st = rdb_read_file(file, &text, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    if (game == RDB_GAME_CRAM) {
        int rc = rdb_query_cram(dir, text, file ? file : "standard input", json, svg);
        free(text);
        return rc;
    }
    const char *source = file ? file : "standard input";
    if (has_problem) {
        st = parse_problem_position(text, source, &prob, &pos, &err);
        d = pos.diagram;
    } else {
        st = dots_diagram_parse(text, source, &d, &err);
    }
    free(text);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    return answer_dots(dir, &d, has_problem ? &pos : NULL, json, svg);
}


