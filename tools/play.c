/*
 * play.c — `retrodb play`: walk through a game with a database, as Wilson's
 * `play` did. The board is shown with the value of every move and the best
 * ones marked; the user makes moves by name, takes them back and forward,
 * asks for a best move or the perfect game, and saves the position.
 *
 * Commands come one a line from a terminal (with line editing and history
 * when the program was built with libedit) or from a pipe, so a scripted
 * game is a test. Each position is looked up as query looks it up (a level
 * the build did not keep is solved on the spot), and the game is kept as
 * the list of moves from where play began, so that undo and redo are a
 * replay.
 *
 * libedit is loaded the first time a terminal is read, not linked: with
 * the three libraries it needs it took 0.2 ms of every start of the
 * program, which most runs (a query, a search) never use. Without it,
 * lines are read plainly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef RDB_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

#include "answer_print.h"
#include "cli.h"
#include "commands.h"
#include "query.h"
#include "query_picture.h"

#include "common/fsutil.h"
#include "common/text_input.h"
#include "game.h"

enum { OPT_MOVES = 1, OPT_DBN, OPT_CELLS, OPT_POSITION };

static const rdb_tool_option play_options[] = {
    {RDB_OPT_DIR, "dir", 'd', "DIR", "the database (required)"},
    {OPT_MOVES, "moves", 0, "MOVES", "begin after these moves from the database's start"},
    {OPT_DBN, "dbn", 0, "BITS", "begin at these lines drawn (Dots-and-Boxes)"},
    {OPT_CELLS, "cells", 0, "CELLS", "begin at these cells covered (Cram)"},
    {OPT_POSITION, "position", 'p', "FILE", "begin at the position in FILE (a diagram)"},
    {0, 0, 0, 0, 0}};

const rdb_tool_command rdb_play_command = {
    "play", "--dir DIR [--moves MOVES | --dbn BITS | --cells CELLS | --position FILE]",
    "Play through a game with a database: the board with the value of every\n"
    "move, the best ones marked '*', the score and who is to move. Commands,\n"
    "one a line, from the terminal or a pipe (`help` lists them): a move\n"
    "(h0,1 or 13; a domino 0,0-0,1 in Cram), undo (<), redo (>), reset (!),\n"
    "best (*), pv, show, save diagram|moves|problem FILE, svg FILE, quit.",
    play_options};

#define MAX_PLIES 64

typedef struct {
    rdb_probe *p;
    rdb_forms_db db;
    rdb_query_position begin;     /* where play began */
    int begin_is_start;           /* it is the database's start or a move list from it */
    const char *begin_moves;      /* that move list (when begin_is_start) */
    int begin_plies;              /* how many moves it has (Cram: who is to move) */
    int move[MAX_PLIES];          /* the game: line ids, or Cram cells a*64+b */
    int nmoves, nplayed;          /* moves known, of which played (the rest: redo) */
    rdb_query_position now;
    int echo;                     /* commands come from a pipe: echo them */
} game;

/* The position after the first nplayed moves. */
static void replay(game *g)
{
    g->now = g->begin;
    for (int i = 0; i < g->nplayed; i++) {
        if (g->db.game == RDB_GAME_DOTS)
            rdb_form_dots_play(&g->now.dots, g->move[i]);
        else
            g->now.cram.covered |= 1ULL << (g->move[i] / 64) | 1ULL << (g->move[i] % 64);
    }
}

/* Show the position: the board with every move's value, who wins. */
static int show(game *g)
{
    rdb_query_request q = {.dir = NULL};
    /* Cram: who is to move is known when play began at the empty board or
     * after a move list (A moved first) */
    if (g->db.game == RDB_GAME_CRAM && g->begin_is_start)
        printf("(%c to move)\n", (g->begin_plies + g->nplayed) % 2 ? 'B' : 'A');
    int rc = rdb_query_answer(g->p, &q, &g->db, &g->now, NULL, 0);
    if (g->nplayed) {
        printf("moves played:");
        for (int i = 0; i < g->nplayed; i++) {
            if (g->db.game == RDB_GAME_DOTS) {
                char name[RDB_LINE_NAME_MAX];
                rdb_error err;
                rdb_dots_line_name(g->db.rows, g->db.cols, g->move[i], name, sizeof name, &err);
                printf(" %s", name);
            } else {
                int a = g->move[i] / 64, b = g->move[i] % 64, c = g->now.cram.cols;
                printf(" %d,%d-%d,%d", a / c, a % c, b / c, b % c);
            }
        }
        printf("\n");
    }
    return rc;
}

/* The move a command names, as stored in g->move; -1 after a message. */
static int parse_move(game *g, const char *word)
{
    rdb_error err;
    if (g->db.game == RDB_GAME_DOTS) {
        rdb_forms_db one = g->db;
        one.start = g->now.dots.diagram.drawn;
        one.played = g->now.dots.diagram.drawn & ~g->db.start;
        one.has_problem = 0;
        rdb_problem pos;
        if (rdb_form_dots_moves(&one, word, "move", &pos, &err) != RDB_OK) {
            printf("%s\n", err.msg);
            return -1;
        }
        uint64_t added = pos.diagram.drawn & ~g->now.dots.diagram.drawn;
        if (__builtin_popcountll(added) != 1) {
            printf("one move at a time\n");
            return -1;
        }
        return __builtin_ctzll(added);
    }
    rdb_form_cram pos;
    if (rdb_form_cram_moves(g->now.cram.rows, g->now.cram.cols, word, "move", &pos, &err) !=
        RDB_OK) {
        printf("%s\n", err.msg);
        return -1;
    }
    if (__builtin_popcountll(pos.covered) != 2) {
        printf("one move at a time\n");
        return -1;
    }
    if (pos.covered & g->now.cram.covered) {
        printf("a cell of %s is covered already\n", word);
        return -1;
    }
    int a = __builtin_ctzll(pos.covered), b = 63 - __builtin_clzll(pos.covered);
    return a * 64 + b;
}

static void play_move(game *g, int move)
{
    if (g->nplayed == MAX_PLIES)
        return;
    g->move[g->nplayed++] = move;
    g->nmoves = g->nplayed; /* a new move forgets what redo had */
    replay(g);
}

/* A best move (the first of the answer's order), -1 when none is left, or
 * -2 after a message when the position cannot be looked up. */
static int best_move(game *g)
{
    rdb_error err;
    if (g->db.game == RDB_GAME_DOTS) {
        rdb_dots_ranked *r = malloc(sizeof *r);
        int m = -1;
        rdb_status st = r ? rdb_answer_dots(g->p, &g->db, &g->now.dots, r, &err) : RDB_E_NOMEM;
        if (st == RDB_OK && r->a.nmoves)
            m = r->a.line[r->order[0]];
        else if (st != RDB_OK) {
            printf("%s\n", st == RDB_E_NOMEM ? "out of memory" : err.msg);
            m = -2;
        }
        free(r);
        return m;
    }
    rdb_cram_ranked *r = malloc(sizeof *r);
    int m = -1;
    rdb_status st = r ? rdb_answer_cram(g->p, &g->now.cram, r, &err) : RDB_E_NOMEM;
    if (st != RDB_OK) {
        printf("%s\n", st == RDB_E_NOMEM ? "out of memory" : err.msg);
        m = -2;
    }
    if (st == RDB_OK && r->nmoves) {
        int i = r->order[0], c = g->now.cram.cols;
        int a = r->cell[i][0][0] * c + r->cell[i][0][1], b = r->cell[i][1][0] * c + r->cell[i][1][1];
        m = a * 64 + b;
    }
    free(r);
    return m;
}

/* save diagram|moves|problem FILE */
static void save(game *g, const char *what, const char *path)
{
    if (!what || !path) {
        printf("save diagram FILE, save moves FILE or save problem FILE\n");
        return;
    }
    int moves = strcmp(what, "moves") == 0, problem = strcmp(what, "problem") == 0;
    if (!moves && !problem && strcmp(what, "diagram") != 0) {
        printf("save what? diagram, moves or problem\n");
        return;
    }
    if (moves && !g->begin_is_start) {
        printf("play began at a diagram, not at the database's start: save diagram\n");
        return;
    }
    if (problem && (g->db.game != RDB_GAME_DOTS || g->now.dots.unmarked)) {
        printf("a problem file needs a Dots-and-Boxes position whose boxes taken all have their letter\n");
        return;
    }
    /* written whole or not at all: a kill or a full disk leaves the file
     * as it was (the text is made in memory, then written atomically) */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        printf("out of memory\n");
        return;
    }
    if (moves) {
        /* the list as given, spaces tidied */
        int first = 1;
        for (const char *w = g->begin_moves; *w;) {
            size_t n = strcspn(w, " \t\r\n;");
            if (n)
                fprintf(f, "%s%.*s", first ? "" : " ", (int)n, w);
            first &= !n;
            w += n + (w[n] != '\0');
        }
        for (int i = 0; i < g->nplayed; i++) {
            if (g->db.game == RDB_GAME_DOTS) {
                char name[RDB_LINE_NAME_MAX];
                rdb_error err;
                rdb_dots_line_name(g->db.rows, g->db.cols, g->move[i], name, sizeof name, &err);
                fprintf(f, "%s%s", !first || i ? " " : "", name);
            } else {
                int a = g->move[i] / 64, b = g->move[i] % 64, c = g->now.cram.cols;
                fprintf(f, "%s%d,%d-%d,%d", !first || i ? " " : "", a / c, a % c, b / c,
                        b % c);
            }
        }
        fprintf(f, "\n");
    } else if (g->db.game == RDB_GAME_DOTS) {
        if (problem)
            fprintf(f, "%d\n", g->db.full_value);
        if (problem || rdb_answer_dots_mover_known(&g->db, &g->now.dots))
            fprintf(f, "%c\n", g->now.dots.to_move);
        rdb_form_dots_print(f, &g->now.dots, NULL);
    } else {
        rdb_form_cram_print(f, &g->now.cram);
    }
    rdb_error err;
    if (fclose(f) != 0)
        printf("out of memory\n");
    else if (rdb_write_file_atomic(path, text, len, &err) != RDB_OK)
        printf("%s\n", err.msg);
    else
        printf("saved to '%s'\n", path);
    free(text);
}

/* svg FILE: the picture query --svg draws of the position */
static void picture(game *g, const char *path)
{
    if (!path) {
        printf("svg FILE\n");
        return;
    }
    rdb_error err;
    rdb_status st;
    int failed = 0;
    if (g->db.game == RDB_GAME_CRAM) {
        rdb_cram_ranked *r = malloc(sizeof *r);
        st = r ? rdb_answer_cram(g->p, &g->now.cram, r, &err) : RDB_E_NOMEM;
        if (st == RDB_OK)
            failed = rdb_query_cram_svg(path, r);
        free(r);
    } else {
        rdb_dots_ranked *r = malloc(sizeof *r);
        st = r ? rdb_answer_dots(g->p, &g->db, &g->now.dots, r, &err) : RDB_E_NOMEM;
        if (st == RDB_OK)
            failed = rdb_query_dots_svg(path, &g->db, &g->now.dots, r);
        free(r);
    }
    if (st != RDB_OK)
        printf("%s\n", st == RDB_E_NOMEM ? "out of memory" : err.msg);
    else if (!failed)
        printf("picture in '%s'\n", path);
}

static void help(void)
{
    printf("a move      h0,1 or v2,3 or 13 (Dots-and-Boxes), 0,0-0,1 (Cram)\n"
           "best, *     play a best move\n"
           "undo, <     take the last move back\n"
           "redo, >     play again the move taken back\n"
           "reset, !    back to where play began\n"
           "pv          the perfect game from here\n"
           "show        the board again\n"
           "save diagram|moves|problem FILE\n"
           "svg FILE    a picture of the position\n"
           "quit, q     leave (so does the end of the input)\n");
}

#ifdef RDB_HAVE_LIBEDIT
/* The library's soname, from the one found at build time. */
#ifndef RDB_EDIT_SONAME
#define RDB_EDIT_SONAME "libedit.so.2"
#endif

/* libedit's readline and add_history, once loaded. */
static struct {
    __typeof__(readline) *readline;
    __typeof__(add_history) *add_history;
} edit;

/* Whether libedit is loaded (tried once). */
static int have_libedit(void)
{
    static int tried, loaded;
    if (!tried) {
        static const char *const names[] = {"readline", "add_history"};
        const char *why;
        tried = 1;
        loaded = rdb_tool_load_library(RDB_EDIT_SONAME, names, (void **)&edit, 2, &why);
    }
    return loaded;
}
#endif

/* One line of input, without its newline; NULL at the end. */
static char *read_command(int terminal)
{
#ifdef RDB_HAVE_LIBEDIT
    if (terminal && have_libedit()) {
        char *line = edit.readline("play> ");
        if (line && *line)
            edit.add_history(line);
        return line;
    }
#endif
    if (terminal) {
        printf("play> ");
        fflush(stdout);
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        return NULL;
    }
    line[strcspn(line, "\r\n")] = '\0';
    return line;
}

/* Run one command; 1 to quit. */
static int command(game *g, char *line)
{
    char *words[4] = {0};
    int n = 0;
    for (char *save = NULL, *w = strtok_r(line, " \t", &save); w && n < 4;
         w = strtok_r(NULL, " \t", &save))
        words[n++] = w;
    const char *c = words[0];
    if (!c || strcmp(c, "show") == 0)
        return show(g), 0;
    if (strcmp(c, "quit") == 0 || strcmp(c, "q") == 0 || strcmp(c, "exit") == 0)
        return 1;
    if (strcmp(c, "help") == 0 || strcmp(c, "?") == 0)
        return help(), 0;
    if (strcmp(c, "undo") == 0 || strcmp(c, "<") == 0) {
        if (g->nplayed == 0)
            printf("nothing to undo\n");
        else {
            g->nplayed--;
            replay(g);
            show(g);
        }
        return 0;
    }
    if (strcmp(c, "redo") == 0 || strcmp(c, ">") == 0) {
        if (g->nplayed == g->nmoves)
            printf("nothing to redo\n");
        else {
            g->nplayed++;
            replay(g);
            show(g);
        }
        return 0;
    }
    if (strcmp(c, "reset") == 0 || strcmp(c, "!") == 0) {
        g->nplayed = 0;
        replay(g);
        return show(g), 0;
    }
    if (strcmp(c, "pv") == 0) {
        rdb_error err;
        rdb_status st;
        if (g->db.game == RDB_GAME_DOTS) {
            st = rdb_tool_dots_perfect_game(stdout, g->p, &g->db, &g->now.dots, 0, &err);
        } else {
            rdb_cram_ranked *r = malloc(sizeof *r);
            st = r ? rdb_answer_cram(g->p, &g->now.cram, r, &err) : RDB_E_NOMEM;
            if (st == RDB_OK)
                st = rdb_tool_cram_perfect_game(stdout, g->p, r, 0, &err);
            free(r);
        }
        if (st != RDB_OK)
            printf("%s\n", st == RDB_E_NOMEM ? "out of memory" : err.msg);
        return 0;
    }
    if (strcmp(c, "save") == 0)
        return save(g, words[1], words[2]), 0;
    if (strcmp(c, "svg") == 0)
        return picture(g, words[1]), 0;
    const int best = strcmp(c, "best") == 0 || strcmp(c, "*") == 0;
    int m = best ? best_move(g) : parse_move(g, c);
    if (m == -1)
        printf(best ? "no move is left\n" : "(help lists the commands)\n");
    if (m < 0)
        return 0;
    if (g->nplayed == MAX_PLIES) {
        printf("the game is too long to follow\n");
        return 0;
    }
    play_move(g, m);
    show(g);
    return 0;
}

int rdb_cmd_play(int argc, char **argv)
{
    const rdb_tool_command *cmd = &rdb_play_command;
    rdb_query_request q = {0};
    const char *position = NULL;
    rdb_tool_args args;
    rdb_tool_args_init(&args, cmd, argc, argv);
    int id;
    const char *v;
    while ((id = rdb_tool_next_option(&args, &v)) > 0) {
        if (id == RDB_OPT_DIR)
            q.dir = v;
        else if (id == OPT_MOVES)
            q.moves = v;
        else if (id == OPT_DBN)
            q.dbn = v;
        else if (id == OPT_CELLS)
            q.cells = v;
        else if (id == OPT_POSITION)
            position = v;
    }
    if (id < 0)
        return rdb_tool_args_exit(id);
    if (rdb_tool_args_left(&args) > 0)
        return rdb_tool_bad(cmd, "unexpected '%s' (a position file goes after --position)",
                            argv[args.next]);
    if (!q.dir)
        return rdb_tool_bad(cmd, "which database? (--dir DIR)");
    if ((q.moves != NULL) + (q.dbn != NULL) + (q.cells != NULL) + (position != NULL) > 1)
        return rdb_tool_bad(cmd, "begin one way: --moves, --dbn, --cells or --position");
    if (position && strcmp(position, "-") == 0)
        return rdb_tool_bad(cmd, "--position: the commands come on standard input; give a file");

    game *g = calloc(1, sizeof *g);
    if (!g)
        return fprintf(stderr, "retrodb: out of memory\n"), 1;
    rdb_error err;
    rdb_status st = rdb_forms_db_read(q.dir, &g->db, &err);
    int rc = 0;
    if (st != RDB_OK) {
        rc = rdb_tool_report(st, &err);
        goto done;
    }
    g->begin.game = g->db.game;
    if (!position && !q.dbn && !q.cells) {
        g->begin_is_start = 1;
        g->begin_moves = q.moves ? q.moves : "";
    }
    const char *text = q.moves ? q.moves : q.dbn ? q.dbn : q.cells ? q.cells : "";
    char *file_text = NULL;
    if (position) {
        st = rdb_read_file(position, &file_text, &err);
        if (st != RDB_OK) {
            rc = rdb_tool_report(st, &err);
            goto done;
        }
        text = file_text;
    }
    const char *source = position ? position : q.moves ? "--moves" : q.dbn ? "--dbn" : "--cells";
    if (g->db.game == RDB_GAME_CRAM)
        st = q.moves || !text[0] ? rdb_form_cram_moves(g->db.rows, g->db.cols, text, source,
                                                       &g->begin.cram, &err)
                                 : rdb_form_cram_any(g->db.rows, g->db.cols, text, source,
                                                     &g->begin.cram, NULL, &err);
    else if (q.dbn)
        st = rdb_form_dots_dbn(&g->db, text, source, &g->begin.dots, &err);
    else if (position)
        st = rdb_form_dots_diagram(&g->db, text, source, &g->begin.dots, &err);
    else
        st = rdb_form_dots_moves(&g->db, text, source, &g->begin.dots, &err);
    free(file_text);
    if (g->db.game == RDB_GAME_CRAM)
        g->begin_plies = __builtin_popcountll(g->begin.cram.covered) / 2;
    if (st != RDB_OK) {
        rc = rdb_tool_report(st, &err);
        goto done;
    }
    st = rdb_probe_open(q.dir, &g->p, &err);
    if (st != RDB_OK) {
        rc = rdb_tool_report(st, &err);
        goto done;
    }
    const int terminal = isatty(STDIN_FILENO);
    g->echo = !terminal;
    replay(g);
    rc = show(g);
    if (rc != 0)
        goto done; /* the database cannot answer where play would begin */
    if (terminal)
        printf("(help lists the commands)\n");
    for (char *line; (line = read_command(terminal)) != NULL;) {
        if (g->echo)
            printf("\nplay> %s\n", line);
        int quit = command(g, line);
        free(line);
        fflush(stdout);
        if (quit)
            break;
    }
done:
    rdb_probe_close(g->p);
    free(g);
    return rc;
}
