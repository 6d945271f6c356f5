/*
 * cram_session.h — a Cram search as `solve cram` runs it, from start to
 * answer: the solver (cram/cram_solver.h) on the board, or on a board more
 * than 8 cells across both ways in the box of the position's free dominoes
 * or a solver in each region's box (cram/cram_regions.h); its nimber tables; its table file and digest
 * claimed for the run, loaded, saved every few minutes and at the end
 * whatever stopped the search (but something false read); its ledger;
 * and after the nimber, a certificate and every first move's nimber,
 * given back on the board. tools/solve_cram.c parses the arguments and
 * prints what comes back.
 *
 * Why a library session and not the command's own code: a run that
 * resumes from its table file and ledger is what the Cram frontier is
 * solved with (scripts/cram-two-routes.sh), and every front end that
 * starts one must claim, load, save and release the same way.
 */
#ifndef RDB_API_CRAM_SESSION_H
#define RDB_API_CRAM_SESSION_H

#include "cram/cram_board.h"
#include "cram/cram_solver.h"

#define RDB_CRAM_SESSION_TABLES 16
/* The entries a digest keeps by default: those that cost 2^24 nodes or
 * more (about 20 s of one thread), a few thousand in a solve of 10^10
 * nodes. */
#define RDB_CRAM_DIGEST_LOG2 24

typedef struct {
    cram_solver_options solver;
    const char *table[RDB_CRAM_SESSION_TABLES]; /* nimber tables' folders */
    int ntables;
    const char *tt_file;   /* the table loaded at the start when it exists and
                              saved at the end, or NULL */
    const char *digest;    /* the same for the dearest entries alone, or NULL */
    int digest_log2;       /* what the digest keeps: entries of 2^digest_log2
                              nodes or more */
    long save_minutes;     /* the files saved this often (0: every 30 minutes) */
    const char *ledger;    /* the root's trials' ledger (the aspiration
                              method), or NULL */
    int certificate;       /* after the nimber, a move to each smaller one */
    int first_moves;       /* after the nimber, every move's */
    int quiet;             /* no line of the session's own on stderr (the
                              solver's progress is solver.progress) */
} rdb_cram_session;

typedef struct {
    int nimber;
    int ncertificate;      /* for each k below the nimber, a move to a */
    int certificate[128][2]; /* position of nimber k: its two cells */
    int nmoves;            /* first_moves: each move (cram_domino_cells' */
    int domino[127];       /* numbers on the board) and the nimber it */
    int move_nimber[127];  /* leads to */
    cram_stats stats;
    rdb_status saved;      /* RDB_OK, or why the last save of the table
                              failed (the answer complete all the same) */
    rdb_error save_err;
} rdb_cram_session_result;

/* The defaults of `solve cram`: the default method, 1024 MB of table. */
void rdb_cram_session_defaults(rdb_cram_session *o);

/* Solve the position of the rows x cols board (at most 128 cells) with
 * `covered` cells covered. Every check is made, the position refused or
 * accepted, before any file is touched. A failure of the last save of the
 * table leaves the answer in r and says so in r->saved. RDB_E_STOPPED
 * when a signal stopped it (rdb_stop_requested), the table saved. */
rdb_status rdb_cram_session_run(const rdb_cram_session *o, int rows, int cols, cram_wset covered,
                                rdb_cram_session_result *r, rdb_error *err);

#endif
