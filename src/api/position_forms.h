/*
 * position_forms.h — a position in any form a user writes it, read for one
 * database: query, its batch mode and play all read positions through here.
 *
 * Dots-and-Boxes (the position as a problem: lines, letters of the boxes
 * taken, who is to move):
 *   - a diagram, or a whole problem file (dots/problem.h);
 *   - a list of moves from the database's start, each a line name as query
 *     prints it ("h0,0 v1,2") or an open_spiel action number ("0 13", or
 *     "0, 13" as open_spiel's history prints it): open_spiel numbers the
 *     lines as retrodb does (horizontal lines row by row, then vertical
 *     ones), so an action number is a line id. The moves are played in
 *     order: a move that completes a box gives it to its player, who moves
 *     again, so who is to move and the score are known;
 *   - a DBN string: one '0' or '1' per line in line-id order (open_spiel's
 *     DbnString), the lines drawn, the database's start included. It says
 *     nothing of who took the boxes complete or who is to move.
 * Cram (the set of covered cells, on the table's board or a smaller one):
 *   - a diagram of '.' and '#';
 *   - a list of dominoes "0,0-0,1 2,1-2,2" (parentheses allowed:
 *     "(0,0)-(0,1)", as query prints them), played in order from the empty
 *     board;
 *   - the covered cells, as "r,c" names ("0,0 0,1") or one '0'/'1' per
 *     cell in row-major order.
 *
 * Every function returns RDB_E_INPUT with a message naming what is wrong
 * (and `source`, the input's name) for a malformed position.
 */
#ifndef RDB_API_POSITION_FORMS_H
#define RDB_API_POSITION_FORMS_H

#include <stdint.h>
#include <stdio.h>

#include "dots/dots_board.h"
#include "dots/problem.h"
#include "engine/db.h"

/* What reading a position needs to know of its database. */
typedef struct {
    int game;               /* RDB_GAME_DOTS or RDB_GAME_CRAM */
    int rows, cols;         /* the database's board */
    uint64_t start;         /* lines drawn in its start (0 for Cram) */
    uint64_t played;        /* of those, the ones a game being played drew (play
                               reads a move from the position reached): not
                               the database's own start in messages */
    int full_value;         /* the value of the full position (a penalty) */
    int chains;             /* a chain database: a move fills a whole chain */
    int has_problem;        /* the folder holds a PROBLEM file */
    rdb_problem problem;    /* that file's problem, when has_problem */
} rdb_forms_db;

/* Read what the database in dir is (PARAMS, and PROBLEM when there is
 * one). */
rdb_status rdb_forms_db_read(const char *dir, rdb_forms_db *db, rdb_error *err);

/* How a position was given, which decides what is known of it. */
typedef enum {
    RDB_FORM_DIAGRAM,  /* a diagram or problem file */
    RDB_FORM_MOVES,    /* moves from the start: mover and scores known */
    RDB_FORM_DBN,      /* lines drawn (Dots) or cells covered (Cram) */
} rdb_form;

/* Dots-and-Boxes: the moves in `text` (line names or action numbers)
 * played from the database's start. pos->has_to_move is set. */
rdb_status rdb_form_dots_moves(const rdb_forms_db *db, const char *text, const char *source,
                               rdb_problem *pos, rdb_error *err);

/* Draw line l (open) for the player to move: the boxes it completes get
 * their letter and count for them, and they move again; otherwise the turn
 * passes. Returns the boxes taken (0, 1 or 2). */
int rdb_form_dots_play(rdb_problem *pos, int l);

/* The lines of a rows x cols board (2rc + r + c). */
int rdb_form_dots_nlines(int rows, int cols);

/* Whether every line of the position's board is drawn. */
int rdb_form_dots_full(const rdb_problem *pos);

/* The longest label rdb_form_dots_print lays out on a line, terminator
 * included: a value and two marks ("-12*v"). */
#define RDB_FORM_LABEL_MAX DOTS_LABEL_MAX

/* Write the position's diagram, with label[line] on every open line when
 * label is not NULL (at most 5 characters shown). */
void rdb_form_dots_print(FILE *f, const rdb_problem *pos, const char (*label)[RDB_FORM_LABEL_MAX]);

/* The lines of box `box` (row-major) of a rows x cols board: top, bottom,
 * left, right. */
void rdb_form_dots_box_sides(int rows, int cols, int box, int side[4]);

/* Dots-and-Boxes: the lines of a DBN string (lines drawn; the boxes complete
 * take their letters from the database's problem, the player to move is the
 * problem's or A). */
rdb_status rdb_form_dots_dbn(const rdb_forms_db *db, const char *text, const char *source,
                             rdb_problem *pos, rdb_error *err);

/* Dots-and-Boxes: a diagram or problem file; on a problem's database the
 * boxes left blank take the problem's letters and its player to move. */
rdb_status rdb_form_dots_diagram(const rdb_forms_db *db, const char *text, const char *source,
                                 rdb_problem *pos, rdb_error *err);

/* Dots-and-Boxes: any of the three, told apart by their look (a diagram
 * or problem file holds dots '+'; a DBN string is one word of as many 0s
 * and 1s as the board has lines; anything else is a list of moves). *form
 * says which it was (may be NULL). */
rdb_status rdb_form_dots_any(const rdb_forms_db *db, const char *text, const char *source,
                             rdb_problem *pos, rdb_form *form, rdb_error *err);

/* Cram: a position of a rows x cols board (the table's, or a smaller one
 * when a diagram says so). */
typedef struct {
    int rows, cols;
    uint64_t covered;   /* cell (r, c) is bit r*cols + c */
} rdb_form_cram;

/* Cram: dominoes played in order on the empty rows x cols board. */
rdb_status rdb_form_cram_moves(int rows, int cols, const char *text, const char *source,
                               rdb_form_cram *pos, rdb_error *err);

/* Cram: covered cells as names "r,c" or one 0/1 per cell. */
rdb_status rdb_form_cram_cells(int rows, int cols, const char *text, const char *source,
                               rdb_form_cram *pos, rdb_error *err);

/* Cram: a diagram (any board size), a list of dominoes or a list of cells
 * (the rows x cols board), told apart by their look. */
rdb_status rdb_form_cram_any(int rows, int cols, const char *text, const char *source,
                             rdb_form_cram *pos, rdb_form *form, rdb_error *err);

/* Write a Cram position's diagram ('.' free, '#' covered). */
void rdb_form_cram_print(FILE *f, const rdb_form_cram *pos);

/* Whether the text is blank (nothing but white space). */
int rdb_form_blank(const char *text);

#endif
