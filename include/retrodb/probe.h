/*
 * retrodb/probe.h — looking up values in a retrodb database: Dots-and-Boxes
 * scores or Cram nimbers.
 *
 * Build flags: `pkg-config --cflags --libs retrodb` (add --static to link
 * libretrodb.a, which needs libzstd and OpenMP). The library is C; these
 * headers declare it with C linkage for C++ programs too.
 *
 * A probe handle holds the database's layout tables and a small cache of
 * open slice files (at most 16 file descriptors) and decoded frames, so
 * repeated lookups near each other cost a few table lookups.
 *
 * Threads: every function here may be called from any number of threads at
 * once, on one handle or on several (tests/test_probe.c checks 8 threads
 * against one, values and move lists, Dots-and-Boxes with deleted levels,
 * quiet databases and Cram tables, also under ThreadSanitizer: `make
 * check-tsan`). A handle answers one lookup at a time (its caches change
 * on every lookup, so a lock guards them): for lookups in parallel, give
 * each thread its own handle, which costs a few hundred kilobytes and
 * file descriptors of its own. rdb_probe_close must not race with calls on
 * the same handle.
 *
 * Positions are sets of line ids (bit l set = line l drawn). Lines are
 * numbered horizontals first: h<i>,<j> is line i*C + j (i = 0..R dot rows,
 * j = 0..C-1), then verticals: v<i>,<j> is line (R+1)*C + i*(C+1) + j
 * (i = 0..R-1, j = 0..C). A value is the best net score of future boxes for
 * the player to move (boxes already complete do not count).
 * retrodb/position.h turns diagrams and line names into such sets.
 *
 * In a Cram table a position is the set of covered cells, cell (r, c) being
 * bit r*C + c of the R x C board; every subset is a position, and its value
 * is its nimber.
 *
 * Errors: every function that can fail returns an rdb_status and writes a
 * message into *err (see retrodb/status.h). Every function here sets its
 * out-parameters on failure too: *out to NULL, a value to 0, an answer to
 * what was found before the failure. The statuses a lookup can give:
 *   RDB_E_INPUT    the position cannot arise in this database (a line off
 *                  the board, a line of the start position missing, part
 *                  of a chain of a chain database), or a Dots-and-Boxes
 *                  function was asked about a Cram table or the reverse;
 *   RDB_E_MISSING  the database does not hold it: a slice file is missing
 *                  (an unfinished build), or its level was not kept and it
 *                  has too many open lines to be solved on the spot;
 *   RDB_E_CORRUPT  a file of the database is damaged (the message names
 *                  it; `retrodb verify` checks them all);
 *   RDB_E_IO       a file could not be read;
 *   RDB_E_NOMEM    out of memory.
 *
 * A position of a level the build did not keep (`build --keep-lines`) is
 * solved on the spot by search over what is kept, which can take seconds
 * to minutes and up to 512 MB of memory for a position with many open
 * lines.
 */
#ifndef RETRODB_PROBE_H
#define RETRODB_PROBE_H

#include <stdint.h>

#include "retrodb/api.h"
#include "retrodb/position.h"
#include "retrodb/status.h"
#include "retrodb/version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rdb_probe rdb_probe;

/* Open the database in folder dir (built by `retrodb build`, finished or
 * not) and store a new handle in *out. Reads the database's parameters and
 * its record of finished slices; slice files are opened when a lookup
 * needs them.
 * Errors: RDB_E_MISSING (no such folder, or no database in it),
 * RDB_E_INPUT (dir is a file, or its name is too long), RDB_E_CORRUPT
 * (PARAMS or MANIFEST damaged), RDB_E_IO, RDB_E_NOMEM; *out is then NULL. */
RDB_API rdb_status rdb_probe_open(const char *dir, rdb_probe **out, rdb_error *err);

/* Close a handle and free everything it holds. NULL is allowed. */
RDB_API void rdb_probe_close(rdb_probe *p);

/* Read every stored slice into memory, so that each later lookup is a few
 * table lookups and one array read (no file, no decompression): for
 * callers that probe millions of times, such as a search. Does nothing
 * when the slices are already loaded.
 * Errors: RDB_E_NOMEM when the values take more than max_bytes (nothing is
 * read) or memory runs out; RDB_E_MISSING, RDB_E_CORRUPT, RDB_E_IO as a
 * lookup. On failure the handle is unchanged and still works from the
 * files. */
RDB_API rdb_status rdb_probe_preload(rdb_probe *p, uint64_t max_bytes, rdb_error *err);

/* The game of the database: "dots" or "cram" (a string that lives as long
 * as the library). Never fails. */
RDB_API const char *rdb_probe_game(const rdb_probe *p);

/* The board (boxes, or cells for Cram) and the lines drawn in the
 * database's start (0 for Cram). Never fails. */
RDB_API void rdb_probe_board(const rdb_probe *p, int *rows, int *cols, uint64_t *start_lines);

/* What a database was built from, as its PARAMS file records it, and how
 * far its build went when it was opened. */
typedef struct {
    char game[16];       /* "dots" or "cram" */
    int rows, cols;      /* boxes (Dots-and-Boxes) or cells (Cram) */
    char variant[32];    /* how the start was given: "empty", "swedish",
                            "icelandic", "custom" (a diagram), "problem" (a
                            problem file); "all" for a Cram table */
    uint64_t start;      /* lines drawn in the start position (0 for Cram) */
    int full_value;      /* value of the full position: 0 for the plain game,
                            -p for a last-move penalty of p boxes, +p for a
                            bonus (0 for Cram) */
    int loony;           /* 1: built with loony-move analysis (the marks of
                            rdb_probe_moves and rdb_probe_move_values) */
    int chains;          /* 1: each chain of the start is one pseudo-line */
    int complete;        /* 1: the build had finished when the database was
                            opened (every level built, or built and then not
                            kept); 0: lookups of levels not yet built fail
                            with RDB_E_MISSING */
    int reserved[8];     /* 0; room for later fields */
} rdb_db_info;

/* Fill *info with the database's parameters. Never fails. */
RDB_API void rdb_probe_info(const rdb_probe *p, rdb_db_info *info);

/* Value of the position `lines` for the player to move (Dots-and-Boxes:
 * the position must hold every line of the start), or the nimber of the
 * Cram position whose covered cells are `lines`.
 * Errors: those of a lookup (above); *value is then 0. */
RDB_API rdb_status rdb_probe_value(rdb_probe *p, uint64_t lines, int *value, rdb_error *err);

/* The values (as rdb_probe_value gives them, which fit a byte) of n
 * positions at once, under one lock: for labelling many positions, as
 * `query --batch` and the Python package's Database.values do. *done gets
 * how many were valued (all n, or those before the first failure) when
 * done is not NULL.
 * Errors: those of a lookup (above), for the first position that fails;
 * the message says which one it is (counting from 0). */
RDB_API rdb_status rdb_probe_values(rdb_probe *p, const uint64_t *positions, size_t n,
                                    int8_t *values, size_t *done, rdb_error *err);

/* Who must make the next loony move under best play, in a database built
 * with loony analysis (RDB_LOONY_NONE in any other). */
#define RDB_LOONY_MOVER 0     /* the player to move */
#define RDB_LOONY_NONE 1      /* neither player */
#define RDB_LOONY_OPPONENT 2  /* the other player */

/* Whether the database was built with loony analysis (1) or not (0).
 * Never fails. */
RDB_API int rdb_probe_loony(const rdb_probe *p);

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

/* Fill *a with the value of `position` and of every move from it (the
 * value of a move is for the player who makes it: in Dots-and-Boxes the
 * boxes it completes plus what follows).
 * Errors: those of a lookup (above), for the position or for any of its
 * children; on failure a holds the position's value when it was found and
 * the moves found before the failure (nmoves of them). */
RDB_API rdb_status rdb_probe_move_values(rdb_probe *p, uint64_t position, rdb_move_values *a,
                                         rdb_error *err);

/* A perfect game from `position` to its end, as move ids (those of
 * rdb_probe_move_values) into ids[0..*n), and, unless after is NULL, the
 * position after each move into after[0..*n) (in a chain database a move
 * draws its whole chain): each move a best one, the first of them in
 * this order: Dots-and-Boxes, a move worth the position's value, one that
 * completes a box before one that does not (a run of captures then reads
 * as one turn), then by line id; Cram, a move to nimber 0 when there is
 * one, else any, by domino id. `query --pv`, `play` and Python's pv play
 * this game (Cram's commands list a smaller board's moves in its own
 * order). Thread-safe as the other lookups, one lookup at a time.
 * Errors: RDB_E_INPUT when the game is longer than max (a game takes at
 * most one move a bit of the position); otherwise those of
 * rdb_probe_move_values, with the moves found before in ids[0..*n). */
RDB_API rdb_status rdb_probe_perfect_game(rdb_probe *p, uint64_t position, int *ids,
                                          uint64_t *after, int max, int *n, rdb_error *err);

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
 * database only).
 * Errors: RDB_E_INPUT for a Cram table; otherwise as
 * rdb_probe_move_values, with the same partial answer on failure. */
RDB_API rdb_status rdb_probe_moves(rdb_probe *p, uint64_t lines, rdb_dots_answer *a,
                                   rdb_error *err);

typedef struct {
    int nimber;              /* nimber of the position */
    int nmoves;
    int cell[112][2][2];     /* each legal domino: its two cells as [row, column] */
    int move_nimber[112];    /* nimber of the position after it */
} rdb_cram_answer;

/* Nimber of a Cram position (covered cells) and of every legal move, in
 * the order horizontal dominoes first (row-major by their left cell), then
 * vertical ones (row-major by their top cell) (a Cram table only).
 * Errors: RDB_E_INPUT for a Dots-and-Boxes database; otherwise as
 * rdb_probe_move_values, with the same partial answer on failure. */
RDB_API rdb_status rdb_probe_cram_moves(rdb_probe *p, uint64_t covered, rdb_cram_answer *a,
                                        rdb_error *err);

#ifdef __cplusplus
}
#endif

#endif
