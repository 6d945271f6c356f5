/*
 * answer.h — the answer to a position as query, its batch mode and play
 * print it: the value in words, the value of every move with the best
 * moves first, the board with the best moves marked, as text or JSON, and
 * the perfect game from the position (dots_answer.c, cram_answer.c,
 * perfect_game.c).
 */
#ifndef RDB_TOOLS_ANSWER_H
#define RDB_TOOLS_ANSWER_H

#include <stdint.h>
#include <stdio.h>

#include "dots/dots_board.h"
#include "api/position_forms.h"
#include "retrodb/probe.h"

/* ---- Dots-and-Boxes ---- */

typedef struct {
    rdb_dots_answer a;     /* as the probe gave it: moves in line-id order */
    int order[64];         /* indices into a's moves, best first (a tie in
                              line-id order, a capture first among equals) */
    int nbest;             /* moves whose value is the position's */
    uint64_t best;         /* their lines */
    int loony;             /* the database has loony analysis */
} rdb_tool_dots_result;

/* Look the position up: RDB_E_INPUT (with a message) when it is not of the
 * database's board. */
rdb_status rdb_tool_dots_lookup(rdb_probe *p, const rdb_forms_db *db, const rdb_problem *pos,
                                rdb_tool_dots_result *r, rdb_error *err);

/* Whether the player to move is known: a move list says it, and so do an
 * A/B line and a problem's database. */
int rdb_tool_dots_mover_known(const rdb_forms_db *db, const rdb_problem *pos);

/* Who wins from pos when the player to move gets `value` net future boxes,
 * in words: "A to move wins by 4" when the player and the boxes taken are
 * known, else "the player to move loses by 3 from here". Returns buf. */
char *rdb_tool_dots_words(const rdb_forms_db *db, const rdb_problem *pos, int value, char *buf,
                          size_t size);

/* Wilson's loony marks of a database with loony analysis: 'v' where A
 * must make the next loony move, '^' where B must, '\0' where neither, for
 * each open line (line_mark[line id]) and for the position. */
void rdb_tool_dots_marks(const rdb_tool_dots_result *r, char to_move, char *line_mark,
                         char *position_mark);

/* The answer as text: the board with each open line's value (on a
 * problem's database the final score of the player to move, after the
 * board of net future boxes when raw) and the best moves marked, then the
 * value in words and the best moves. */
void rdb_tool_dots_print_text(const rdb_forms_db *db, const rdb_problem *pos,
                              const rdb_tool_dots_result *r, int raw);

/* The answer as the fields of a JSON object, without the braces, on
 * out: game, board, value, words, best, moves (best first). */
void rdb_tool_dots_print_json_fields(FILE *out, const rdb_forms_db *db, const rdb_problem *pos,
                                     const rdb_tool_dots_result *r);

/* ---- Cram ---- */

typedef struct {
    rdb_form_cram pos;   /* as asked (maybe smaller than the table) */
    int nimber;
    int nmoves;
    int cell[RDB_MAX_MOVES][2][2];   /* each move's cells [row, col] on pos's board */
    int move_nimber[RDB_MAX_MOVES];
    int order[RDB_MAX_MOVES];        /* winning moves (to nimber 0) first */
    int nwinning;
} rdb_tool_cram_result;

/* Look a Cram position up in a table of the same board, of a larger one,
 * or of one it fits in turned a quarter: the cells of the table's board
 * outside the position are covered, which leaves the same free cells and
 * so the same game. RDB_E_INPUT when it fits in no orientation. */
rdb_status rdb_tool_cram_lookup(rdb_probe *p, const rdb_form_cram *pos,
                                rdb_tool_cram_result *r, rdb_error *err);

void rdb_tool_cram_print_text(const rdb_tool_cram_result *r);
void rdb_tool_cram_print_json_fields(FILE *out, const rdb_tool_cram_result *r);

/* ---- the perfect game ---- */

/* The perfect game from a Dots-and-Boxes position: each turn a best move
 * (a capture first among equals), until the board is full. Printed as
 * text, one turn a line (a capture and the moves after it are one turn),
 * with the running score; or as a JSON array field ",\"pv\":[...]"; on out. */
rdb_status rdb_tool_dots_perfect_game(FILE *out, rdb_probe *p, const rdb_forms_db *db,
                                      const rdb_problem *pos, int json, rdb_error *err);

/* The same for Cram: the winner plays to nimber 0, the loser the first
 * move in board order. */
rdb_status rdb_tool_cram_perfect_game(FILE *out, rdb_probe *p, const rdb_tool_cram_result *r, int json,
                                      rdb_error *err);

#endif
