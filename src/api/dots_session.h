/*
 * dots_session.h — a Dots-and-Boxes search as `solve dots` runs it, from
 * start to answer: the solver (dots/dots_solver.h) on the position's board
 * with its full-board value; a database it asks for the positions it
 * holds (--db: read into memory when it fits, a level it lacks asked
 * once); its table file claimed for the run, loaded, saved every few
 * minutes and at the end (a finished or stopped search's entries are all
 * true); and either the value with the best moves or every move's, or a
 * proof of a claim split into sub-proofs recorded in a ledger
 * (dots/dots_proof.h). tools/solve_dots.c parses the arguments and prints
 * what comes back.
 */
#ifndef RDB_API_DOTS_SESSION_H
#define RDB_API_DOTS_SESSION_H

#include <stdint.h>

#include "dots/dots_proof.h"
#include "dots/dots_solver.h"
#include "dots/problem.h"

typedef struct {
    dots_solver_options solver;  /* its stored hook is the session's with db */
    const char *db;        /* a database of the board to ask, or NULL */
    long db_memory_mb;     /* read into memory when it fits in this */
    const char *tt_file;   /* the table loaded at the start when it exists
                              and saved at the end, or NULL */
    long save_minutes;     /* the table saved this often (0: every 30 minutes) */
    const char *ledger;    /* the proof's ledger, or NULL */
    int has_prove;         /* prove "value >= prove" and "value <= prove" */
    int prove;
    dots_proof_options proof;
    int first_moves;       /* every move's value (the best moves from them) */
    int value_only;        /* the value alone, not the best moves */
    int quiet;             /* no line of the session's own on stderr (the
                              solver's progress is solver.progress) */
} rdb_dots_session;

typedef struct {
    int value;             /* for the player to move, net future boxes */
    uint64_t best;         /* the best moves (none with value_only) */
    int move_value[64];    /* first_moves: each open line's value */
    dots_solver_stats stats;
    dots_proof_result proof; /* has_prove */
    double proof_seconds;
} rdb_dots_session_result;

/* The defaults of `solve dots`: full rules, one thread, 1024 MB of table,
 * 4096 MB to read a database into, proofs split 2 plies deep. */
void rdb_dots_session_defaults(rdb_dots_session *o);

/* Solve (or, with has_prove, prove a claim of) the position. A database
 * that is not of the position's board, full-board value or start, or
 * holds loony marks or chains, is refused (RDB_E_INPUT) before anything
 * is searched. RDB_E_STOPPED when a signal stopped it (rdb_stop_requested),
 * the table saved; a failed save of a finished search is its status. */
rdb_status rdb_dots_session_run(const rdb_dots_session *o, const rdb_problem *pr,
                                rdb_dots_session_result *r, rdb_error *err);

#endif
