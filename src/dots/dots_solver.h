/*
 * dots_solver.h — solving a Dots-and-Boxes position by alpha-beta search,
 * for boards and positions too big for a database (up to 64 lines).
 *
 * A value is the best net number of boxes the player to move will take
 * from here on (future boxes only: the score so far does not matter), plus
 * `full_value` at the end of the game (0, or minus a last-move penalty, as
 * in problem files). The search is negamax with alpha-beta driven by
 * zero-window tests (MTD(f)), a shared transposition table of bounds keyed
 * by the canonical line set (board symmetries and the two outer lines of
 * each corner box, which are worth the same), and Dots-and-Boxes capture
 * rules that cut the tree without changing any value (dots_solver.c
 * states them and why they are exact; the tests hold them against the
 * databases and the naive solver, and DOTS_RULES_NONE turns them off).
 *
 * One solver serves any number of positions of one board; it is not safe
 * to call from two threads at once (it runs its own threads).
 */
#ifndef RDB_DOTS_SOLVER_H
#define RDB_DOTS_SOLVER_H

#include <signal.h>
#include <stdint.h>

#include "common/error.h"
#include "dots/dots_board.h"

typedef enum {
    DOTS_RULES_FULL,     /* the capture rules, and simple loony endgames valued
                            without search (loony_endgame.h) */
    DOTS_RULES_CAPTURES, /* the capture rules alone (to measure the endgames) */
    DOTS_RULES_NONE      /* every open line is a move: the reference */
} dots_rules_mode;

/* The etc_min_open the tools use: measured on 3x4 and 2x6, it ends 14-15%
 * fewer nodes searched and is as fast or faster than 12, 18 or none. */
#define DOTS_ETC_MIN_OPEN 15

typedef struct {
    uint64_t tt_bytes;           /* transposition table size (at least one 64-byte bucket):
                                    the most it grows to */
    uint64_t tt_start_bytes;     /* its size at the start (0: 16 MB; to test growth) */
    int threads;                 /* searchers sharing the table (>= 1) */
    int tt_min_open;             /* positions with fewer open lines skip the table: their
                                    subtrees are cheaper to search again than a cache miss
                                    into a table of gigabytes (0: every position) */
    int etc_min_open;            /* nodes with at least this many open lines look up their
                                    quiet children in the table before searching any
                                    (enhanced transposition cutoff; 0: every node, 65:
                                    none). Below, the lookups cost more than they save. */
    dots_rules_mode rules;
    int row_order;               /* try moves in line order, not centre first (to measure) */
    int progress;                /* a progress line on stderr every few seconds */
    /* Positions a database holds (solve dots --db): asked of every quiet
     * position the search meets (no box with three sides, where a quiet
     * database stores values), from every searcher at once; returns 1
     * with the position's value, 0 when it is not held. NULL: none. */
    int (*stored)(void *ctx, uint64_t lines, int *value);
    void *stored_ctx;
} dots_solver_options;

typedef struct {
    uint64_t nodes;              /* positions searched, capture steps included */
    uint64_t endgames;           /* simple loony endgames valued without search */
    uint64_t etc_cuts;           /* nodes ended by a child's table entry */
    uint64_t tt_hits;            /* probes that ended a node */
    uint64_t tt_entries;         /* filled table slots */
    uint64_t tt_bytes;           /* the table's size now: it starts at 16 MB and grows
                                    to tt_bytes as the search fills it */
    uint64_t tests;              /* zero-window searches */
    uint64_t db_hits;            /* positions the database answered (opt.stored) */
    double seconds;
} dots_solver_stats;

typedef struct dots_solver dots_solver;

/* A solver for board b whose full position is worth full_value. Fails for
 * want of memory (RDB_E_NOMEM) or on bad options (RDB_E_INPUT). */
rdb_status dots_solver_new(const dots_board *b, int full_value, const dots_solver_options *opt,
                           dots_solver **out, rdb_error *err);
void dots_solver_free(dots_solver *s);

/* Value of position `lines` for the player to move. RDB_E_STOPPED when the
 * stop flag (common/job.h) was raised; *value is then left unset. */
rdb_status dots_solver_value(dots_solver *s, uint64_t lines, int *value, rdb_error *err);

/* Whether the value of `lines` is at least `bound` (*at_least 1) or below
 * it (0): one zero-window search, cheaper than the value. */
rdb_status dots_solver_test(dots_solver *s, uint64_t lines, int bound, int *at_least,
                            rdb_error *err);

/* The value of drawing each open line of `lines` for the player to move
 * (move_value[line]; INT8_MIN for a drawn line): a capture is worth its
 * boxes plus the child's value, any other line minus the child's. Lines
 * that a symmetry of the position maps onto each other are solved once. */
rdb_status dots_solver_move_values(dots_solver *s, uint64_t lines, int move_value[DOTS_MAX_LINES],
                                   rdb_error *err);

/* The moves of `lines` worth its value `value` (as dots_solver_value
 * gave it), as a set of lines: one zero-window test per move, up to the
 * position's symmetries. */
rdb_status dots_solver_best_moves(dots_solver *s, uint64_t lines, int value, uint64_t *best,
                                  rdb_error *err);

/* The canonical form of a position (the table's key): two positions with
 * the same form have the same value. */
uint64_t dots_solver_canonical(const dots_solver *s, uint64_t lines);

/* The open lines of `lines` in the order the search tries them (lines that
 * give no box a third side first, from the centre out); returns their
 * number. */
int dots_solver_move_order(const dots_solver *s, uint64_t lines, uint8_t moves[DOTS_MAX_LINES]);

/* Give the search a bound proved elsewhere (a ledger): the value of
 * `lines` is at least `lower` and at most `upper`. */
void dots_solver_add_bound(dots_solver *s, uint64_t lines, int lower, int upper);

/* One zero-window search: the fail-soft result g of searching `lines`
 * with the window (bound - 1, bound): the value is >= g when g >= bound,
 * else <= g. *nodes: the nodes it took. */
rdb_status dots_solver_probe(dots_solver *s, uint64_t lines, int bound, int *g, uint64_t *nodes,
                             rdb_error *err);

/* The table, entry by entry, for saving and loading it (dots_tt_file.h). */
typedef struct {
    uint64_t key;                /* a canonical position */
    int lower, upper;            /* bounds of its value */
    int best;                    /* a move of the canonical position, or 255 */
    int open;                    /* its open lines (255: a bound given by a ledger) */
} dots_tt_entry;

/* Copy up to cap entries into out, starting at slot *cursor (0 at first)
 * and moving it on; returns how many (0 when the table is done). Safe
 * while searchers run: an entry being written is skipped. */
uint64_t dots_solver_table_export(const dots_solver *s, dots_tt_entry *out, uint64_t cap,
                                  uint64_t *cursor);

/* Whether an entry read from a file could be one of this board's: a
 * canonical position, bounds in range and in order, the open count its
 * own, the best move one of its open lines. RDB_E_CORRUPT (message
 * without a file name) when it is not. */
rdb_status dots_solver_table_check(const dots_solver *s, const dots_tt_entry *e, rdb_error *err);

/* Check an entry (as above) and store it. */
rdb_status dots_solver_table_import(dots_solver *s, const dots_tt_entry *e, rdb_error *err);

/* Called by the first searcher about every `every` seconds while a search
 * runs (to save the table); the others go on meanwhile. */
void dots_solver_set_hook(dots_solver *s, double every, void (*hook)(dots_solver *, void *),
                          void *ctx);

/* Counters since the solver was made. */
void dots_solver_stats_get(const dots_solver *s, dots_solver_stats *out);

#endif
