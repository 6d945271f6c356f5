/*
 * retrodb/probe.h — looking up values in a retrodb database: Dots-and-Boxes
 * scores or Cram nimbers.
 *
 * Link with -lretrodb (and -lzstd). A probe handle holds the database's
 * layout tables and a small cache of open slice files and decoded frames,
 * so repeated lookups near each other cost a few table lookups. A handle is
 * not safe to share between threads; open one per thread.
 *
 * Positions are sets of line ids (bit l set = line l drawn). Lines are
 * numbered horizontals first: h<i>,<j> is line i*C + j (i = 0..R dot rows,
 * j = 0..C-1), then verticals: v<i>,<j> is line (R+1)*C + i*(C+1) + j
 * (i = 0..R-1, j = 0..C). A value is the best net score of future boxes for
 * the player to move (boxes already complete do not count).
 *
 * In a Cram table a position is the set of covered cells, cell (r, c) being
 * bit r*C + c of the R x C board; every subset is a position, and its value
 * is its nimber.
 */
#ifndef RETRODB_PROBE_H
#define RETRODB_PROBE_H

#include <stdint.h>

#include "retrodb/status.h"

typedef struct rdb_probe rdb_probe;

/* Every function here sets its out-parameters on failure too: *out to
 * NULL, a value to 0, an answer to what was found before the failure. */

/* Open the database in folder dir. */
rdb_status rdb_probe_open(const char *dir, rdb_probe **out, rdb_error *err);
void rdb_probe_close(rdb_probe *p);

/* Read every stored slice into memory, so that each later lookup is a few
 * table lookups and one array read (no file, no decompression): for
 * callers that probe millions of times, such as a search. Refused
 * (RDB_E_NOMEM) when the values take more than max_bytes. */
rdb_status rdb_probe_preload(rdb_probe *p, uint64_t max_bytes, rdb_error *err);

/* The game of the database: "dots" or "cram". */
const char *rdb_probe_game(const rdb_probe *p);

/* The board (boxes, or cells for Cram) and the lines drawn in the
 * database's start (0 for Cram). */
void rdb_probe_board(const rdb_probe *p, int *rows, int *cols, uint64_t *start_lines);

/* Value of the position `lines` for the player to move (Dots-and-Boxes:
 * the position must hold every line of the start), or the nimber of the
 * Cram position whose covered cells are `lines`. */
rdb_status rdb_probe_value(rdb_probe *p, uint64_t lines, int *value, rdb_error *err);

/* Who must make the next loony move under best play, in a database built
 * with loony analysis (RDB_LOONY_NONE in any other). */
#define RDB_LOONY_MOVER 0     /* the player to move */
#define RDB_LOONY_NONE 1      /* neither player */
#define RDB_LOONY_OPPONENT 2  /* the other player */

/* Whether the database was built with loony analysis. */
int rdb_probe_loony(const rdb_probe *p);

/* The value of a position and of every move, for any game. A move's id is
 * the game's own number for it: the line id in Dots-and-Boxes (every open
 * line, in line-id order; each line of a chain of a chain database is the
 * move that fills the chain), the domino in Cram (horizontal dominoes
 * first, row-major by their left cell, then vertical ones, row-major by
 * their top cell). mark is who must make the next loony move (RDB_LOONY_*,
 * from the point of view of the player to move in the position, also
 * after a move), RDB_LOONY_NONE without loony analysis. */
#define RDB_MAX_MOVES 112
typedef struct {
    int id;
    int value;
    int mark;
} rdb_move_value;

typedef struct {
    int value;
    int mark;
    int nmoves;
    rdb_move_value moves[RDB_MAX_MOVES];
} rdb_move_values;

/* On failure a holds the moves found before it (nmoves of them). */
rdb_status rdb_probe_move_values(rdb_probe *p, uint64_t position, rdb_move_values *a,
                                 rdb_error *err);

typedef struct {
    int value;          /* value of the position */
    int next_loony;     /* RDB_LOONY_*: who must make the next loony move */
    int nmoves;
    int line[64];       /* each open line, in line-id order */
    int move_value[64]; /* value of drawing it, for the player to move */
    int move_next_loony[64]; /* RDB_LOONY_* after that move, from the same
                                player's point of view */
} rdb_dots_answer;

/* Value of the position and of every open line (a Dots-and-Boxes
 * database only). */
rdb_status rdb_probe_moves(rdb_probe *p, uint64_t lines, rdb_dots_answer *a, rdb_error *err);

typedef struct {
    int nimber;              /* nimber of the position */
    int nmoves;
    int cell[112][2][2];     /* each legal domino: its two cells as [row, column] */
    int move_nimber[112];    /* nimber of the position after it */
} rdb_cram_answer;

/* Nimber of a Cram position (covered cells) and of every legal move, in
 * the order horizontal dominoes first (row-major by their left cell), then
 * vertical ones (row-major by their top cell) (a Cram table only). */
rdb_status rdb_probe_cram_moves(rdb_probe *p, uint64_t covered, rdb_cram_answer *a,
                                rdb_error *err);

#endif
