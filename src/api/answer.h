/*
 * answer.h — the answer to a position as the commands show it, in the
 * library so that every front end shows the same one: query, its batch
 * mode, play and serve print it (tools/answer_print.h), and Python's pv
 * walks the same perfect game (rdb_probe_perfect_game).
 *
 * Dots-and-Boxes: every move's value sorted best first, a capture first
 * among equals (the natural way to play it), and the perfect game from
 * the position in turns (a turn is a run of captures and the move that
 * ends it), with the running score. Cram: the nimber and every move's,
 * winning moves first, from a table of the position's board or of any
 * board it fits in, turned a quarter or not; and its perfect game.
 *
 * Why a bigger table answers a smaller Cram board: Cram is played on the
 * graph of free cells, and a position of an r x c board placed in a corner
 * of the table's R x C board, with every other cell covered, has exactly
 * the same free cells, the same dominoes and so the same game tree.
 */
#ifndef RDB_API_ANSWER_H
#define RDB_API_ANSWER_H

#include <stdint.h>

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
} rdb_dots_ranked;

/* Look the position up and sort its moves: RDB_E_INPUT (with a message)
 * when it is not of the database's board. */
rdb_status rdb_answer_dots(rdb_probe *p, const rdb_forms_db *db, const rdb_problem *pos,
                           rdb_dots_ranked *r, rdb_error *err);

/* Whether the player to move is known: a move list says it, and so do an
 * A/B line and a problem's database. */
int rdb_answer_dots_mover_known(const rdb_forms_db *db, const rdb_problem *pos);

/* One turn of a perfect game: its player, its moves (the captures and the
 * move that ends the turn, or fills the board), the boxes it took, the
 * score after it. */
typedef struct {
    char player;
    int nmoves;
    int line[64];
    int boxes;
    int score_a, score_b;
} rdb_dots_turn;

typedef struct {
    int nturns;
    rdb_dots_turn turn[64];
    int scores_known;      /* the scores count every box taken (each box of
                              the position has its letter), else the boxes
                              taken from the position on */
    rdb_problem end;       /* the full board reached, its player to move
                              the one who would move there */
} rdb_dots_perfect_game;

/* The perfect game from a position: each turn a best move, a capture first
 * among equals, until the board is full. RDB_E_INPUT on a chain database
 * (a move into a chain is a little game of its own, whose boxes may go to
 * either player: there is no turn by turn score to show). */
rdb_status rdb_answer_dots_perfect_game(rdb_probe *p, const rdb_forms_db *db,
                                        const rdb_problem *pos, rdb_dots_perfect_game *g,
                                        rdb_error *err);

/* ---- Cram ---- */

typedef struct {
    rdb_form_cram pos;   /* as asked (maybe smaller than the table) */
    int nimber;
    int nmoves;
    int cell[RDB_MAX_MOVES][2][2];   /* each move's cells [row, col] on pos's board,
                                        the one first in row-major order first */
    int move_nimber[RDB_MAX_MOVES];
    int order[RDB_MAX_MOVES];        /* winning moves (to nimber 0) first, each part
                                        in the board's order (horizontal dominoes
                                        first, then by their first cell) */
    int nwinning;
} rdb_cram_ranked;

/* Look a Cram position up in a table of the same board, of a larger one,
 * or of one it fits in turned a quarter: the cells of the table's board
 * outside the position are covered. RDB_E_INPUT when it fits in no
 * orientation. */
rdb_status rdb_answer_cram(rdb_probe *p, const rdb_form_cram *pos, rdb_cram_ranked *r,
                           rdb_error *err);

/* One move of a Cram perfect game: its player, its cells, the nimber
 * after it. */
typedef struct {
    char player;
    int cell[2][2];
    int nimber;
} rdb_cram_turn;

typedef struct {
    int nturns;
    rdb_cram_turn turn[RDB_MAX_MOVES];
    char winner;         /* the player who makes the last move */
} rdb_cram_perfect_game;

/* The perfect game from a Cram position, A to move: the player who can
 * moves to nimber 0; the other plays its first move in board order. */
rdb_status rdb_answer_cram_perfect_game(rdb_probe *p, const rdb_form_cram *pos,
                                        rdb_cram_perfect_game *g, rdb_error *err);

#endif
