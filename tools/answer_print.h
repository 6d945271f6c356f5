/*
 * answer_print.h — the answer to a position (the library's: api/answer.h)
 * as query, its batch mode, play and serve print it: the value in words,
 * the value of every move with the best moves first, the board with the
 * best moves marked, as text or JSON, and the perfect game from the
 * position (dots_answer_print.c, cram_answer_print.c,
 * perfect_game_print.c).
 */
#ifndef RDB_TOOLS_ANSWER_PRINT_H
#define RDB_TOOLS_ANSWER_PRINT_H

#include <stdint.h>
#include <stdio.h>

#include "api/answer.h"
#include "api/position_forms.h"
#include "retrodb/probe.h"

/* ---- Dots-and-Boxes ---- */

/* Who wins from pos when the player to move gets `value` net future boxes,
 * in words: "A to move wins by 4" when the player and the boxes taken are
 * known, else "the player to move loses by 3 from here". Returns buf. */
char *rdb_tool_dots_words(const rdb_forms_db *db, const rdb_problem *pos, int value, char *buf,
                          size_t size);

/* Wilson's loony marks of a database with loony analysis: 'v' where A
 * must make the next loony move, '^' where B must, '\0' where neither, for
 * each open line (line_mark[line id]) and for the position. */
void rdb_tool_dots_marks(const rdb_dots_ranked *r, char to_move, char *line_mark,
                         char *position_mark);

/* The answer as text: the board with each open line's value (on a
 * problem's database the final score of the player to move, after the
 * board of net future boxes when raw) and the best moves marked, then the
 * value in words and the best moves. */
void rdb_tool_dots_print_text(const rdb_forms_db *db, const rdb_problem *pos,
                              const rdb_dots_ranked *r, int raw);

/* The answer as the fields of a JSON object, without the braces, on
 * out: game, board, value, words, best, moves (best first). */
void rdb_tool_dots_print_json_fields(FILE *out, const rdb_forms_db *db, const rdb_problem *pos,
                                     const rdb_dots_ranked *r);

/* ---- Cram ---- */

/* The answer as text (the board, the nimber in words, every move's) and
 * as the fields of a JSON object, without the braces. */
void rdb_tool_cram_print_text(const rdb_cram_ranked *r);
void rdb_tool_cram_print_json_fields(FILE *out, const rdb_cram_ranked *r);

/* ---- the perfect game ---- */

/* The perfect game from a Dots-and-Boxes position: each turn a best move
 * (a capture first among equals), until the board is full. Printed as
 * text, one turn a line (a capture and the moves after it are one turn),
 * with the running score; or as a JSON array field ",\"pv\":[...]"; on out. */
rdb_status rdb_tool_dots_perfect_game(FILE *out, rdb_probe *p, const rdb_forms_db *db,
                                      const rdb_problem *pos, int json, rdb_error *err);

/* The same for Cram: the winner plays to nimber 0, the loser the first
 * move in board order. */
rdb_status rdb_tool_cram_perfect_game(FILE *out, rdb_probe *p, const rdb_cram_ranked *r, int json,
                                      rdb_error *err);

#endif
