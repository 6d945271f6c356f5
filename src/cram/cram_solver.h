/*
 * cram_solver.h — the nimber of a Cram position on boards too big to
 * enumerate, by search.
 *
 * The search reduces every position (cram_reduce.h: surplus dead ends,
 * bridges and twin-square edges go, none changing the nimber), splits it
 * into connected components (the nimber of a sum is the xor of the parts'
 * nimbers; equal parts cancel), keys each component by its
 * canonical form (cram_component.h) in a bounded transposition table
 * (cram_tt.h), answers components that fit a nimber table from that table,
 * and searches the rest with one of the methods of Beling & Rogalski, "On
 * pruning search trees of impartial games" (Artificial Intelligence 283,
 * 2020):
 *
 *   plain        mex of every child's nimber, from the definition;
 *   simple-cuts  each child is asked only for nimbers that would still
 *                change the set of candidates, and a node stops as soon as
 *                none of the nimbers its caller wants remain possible;
 *   set-cuts     the same with the wanted set also capped at the largest
 *                nimber the caller wants (more cuts, some results inexact
 *                and then not stored);
 *   etc          set-cuts plus enhanced transposition cutoff: every child
 *                already in the table is used before any child is searched,
 *                and a node those children decide ends before the rest of
 *                its children are listed;
 *   aspiration   the root's moves listed once, each child asked "is your
 *                nimber r?" for r = 0, 1, ... until no child has r, and
 *                searched below as etc (the default: the fastest); several
 *                threads may share each trial's children.
 *
 * A solver belongs to one board shape (R x C) and is used by one caller at
 * a time (its own threads are its business). Its table
 * survives between solves and may be saved to a file and loaded again, so
 * that a solve stopped by SIGINT or SIGTERM (rdb_stop_requested) resumes
 * where it was.
 */
#ifndef RDB_CRAM_SOLVER_H
#define RDB_CRAM_SOLVER_H

#include <stdint.h>

#include "common/error.h"
#include "cram/cram_ledger.h"
#include "cram/cram_wide.h"

typedef enum {
    CRAM_PLAIN,
    CRAM_SIMPLE_CUTS,
    CRAM_SET_CUTS,
    CRAM_ETC,
    CRAM_ASPIRATION
} cram_method;

#define CRAM_NMETHODS 5
#define CRAM_DEFAULT_METHOD CRAM_ASPIRATION

/* "plain", "simple-cuts", "set-cuts", "etc", "aspiration". */
const char *cram_method_name(cram_method m);

/* The method called `name`; -1 when there is none. */
int cram_method_from_name(const char *name);

typedef struct {
    cram_method method;
    long tt_mb;          /* transposition table size in megabytes */
    long wide_tt_mb;     /* the table of the parts of more than 64 cells,
                            beside it, on such boards (0: an eighth of
                            tt_mb, at least 16) */
    int progress;        /* a progress line on stderr every few seconds */
    int board_order;     /* visit moves in board order instead of the
                            ordering that helps the cuts (for measuring) */
    int threads;         /* threads sharing the root's trials (aspiration
                            only; 0 or 1: one) */
    int no_mirror;       /* do not value symmetric parts 0 by the mirror rule
                            (cram_canonical_zero; for measuring) */
    int narrow_rows;     /* for tests: search every component of more rows
                            than this as on a board of more than 64 cells
                            (0: only on such a board) */
} cram_solver_options;

#define CRAM_MAX_THREADS 64

typedef struct {
    uint64_t nodes;       /* search calls: components no table knew the
                             nimber of (some answered by the nimbers the
                             table had ruled out) */
    uint64_t expanded;    /* of those, the ones whose moves were listed */
    uint64_t tt_hits;     /* components answered by the transposition table */
    uint64_t db_hits;     /* components answered by a nimber table */
    uint64_t cuts;        /* nodes left early because no wanted nimber remained */
    uint64_t mirror_zero; /* parts valued 0 by the mirror rule, unsearched */
    uint64_t wide_expanded; /* of the expanded, those too tall for 64 bits
                             (a board of more than 64 cells) */
    uint64_t unreduced;   /* times a child kept a component whole,
                             unreduced, because the reductions would cut
                             more parts than a child holds (rare) */
    uint64_t helped;      /* times a thread with no root child left joined one
                             that another thread was searching */
    uint64_t helper_first; /* root children whose answer a joining thread
                             found first */
    uint64_t twins;       /* root moves left out as the same position as an
                             earlier one (mirror images, mostly) */
    uint64_t from_ledger; /* answers of the root's children taken from the
                             ledger instead of searched */
    uint64_t to_ledger;   /* answers of the root's children added to it */
    uint64_t tt_entries;  /* entries in the transposition table */
    uint64_t tt_replaced; /* entries evicted to make room */
    uint64_t tt_loaded;   /* entries read from the table file */
    uint64_t tt_bytes;    /* the table's size now (it grows as it fills) */
    double tt_fill;       /* the share of its entries in use */
    uint64_t wide_tt_bytes; /* the wide parts' table (in tt_bytes too) */
    double wide_tt_fill;  /* the share of its entries in use */
    int tt_held;          /* it stopped growing short of --tt-mb: memory was short */
    uint64_t tt_conflicts; /* results that disagreed with an entry: the table
                              holds a false one (cram_tt_disagree) */
    double seconds;       /* time spent in cram_solver_solve */
} cram_stats;

typedef struct cram_solver cram_solver;

/* A solver for positions of the rows x cols board: at most 128 cells and
 * 127 dominoes (RDB_E_INPUT saying which, beyond). Boards of more than 64
 * cells take positions through the _wide calls. */
rdb_status cram_solver_new(int rows, int cols, const cram_solver_options *opt, cram_solver **out,
                           rdb_error *err);
void cram_solver_free(cram_solver *s);

/* A nimber table of positions of a rows x cols board (cram_tables.h opens
 * one built by `retrodb build cram`): value(ctx, covered, ...) gives the
 * nimber of the position whose covered cells are `covered` (cell (r,c) is
 * bit r*cols + c), called by one thread at a time; in_memory says that a
 * lookup costs a few table reads (else it may decode part of a file, and
 * the search asks it only of bigger components); close(ctx) lets it go.
 * The solver takes the table's lookups through these alone, as the Dots
 * solver takes a database's through its `stored` hook: it knows no file
 * format and no probe. */
typedef struct {
    int rows, cols;
    int in_memory;
    rdb_status (*value)(void *ctx, uint64_t covered, int *nimber, rdb_error *err);
    void (*close)(void *ctx);
    void *ctx;
} cram_table_source;

/* Look up every component that fits table's board in some orientation in
 * it. The solver owns the table from this call on (on failure too) and
 * closes it when freed. */
rdb_status cram_solver_add_table(cram_solver *s, const cram_table_source *table, rdb_error *err);

/* Nimber of the position whose free cells are free_cells (cell (r,c) is bit
 * r*cols + c). RDB_E_STOPPED when rdb_stop_requested was set meanwhile;
 * what was found stays in the transposition table. */
rdb_status cram_solver_solve(cram_solver *s, uint64_t free_cells, int *nimber, rdb_error *err);
/* The same on a board of up to 128 cells (cram_wide.h's sets). */
rdb_status cram_solver_solve_wide(cram_solver *s, cram_wset free_cells, int *nimber, rdb_error *err);

/* Call hook(s, ctx) every `every` seconds while a solve runs (from the
 * search, between two nodes: the table is in a consistent state), e.g. to
 * save the table. */
void cram_solver_set_hook(cram_solver *s, double every, void (*hook)(cram_solver *, void *), void *ctx);

/* Whether the nimber of the position whose free cells are free_cells is
 * k (*is 1 or 0): a search asked for k alone, much cheaper than the whole
 * nimber when the answer is no. One thread. */
rdb_status cram_solver_test(cram_solver *s, uint64_t free_cells, int k, int *is, rdb_error *err);
rdb_status cram_solver_test_wide(cram_solver *s, cram_wset free_cells, int k, int *is, rdb_error *err);

/* RDB_OK when the solver takes the position free_cells: on the board,
 * with at most 127 free dominoes to search (beyond parts valued 0 by
 * symmetry), and with listing_moves at most 127 in all
 * (cram_solver_move_nimbers); else RDB_E_INPUT saying why. The solves
 * check it too; a caller that saves files checks it first. */
rdb_status cram_solver_check_position(cram_solver *s, cram_wset free_cells, int listing_moves,
                                      rdb_error *err);

/* A certificate of the position free_cells's nimber `nimber` (found by a
 * solve): for each k below it, in cells[k], the two cells of a move to a
 * position of nimber k (so, with the solve's proof that no move reaches
 * the nimber, the mex). Each is found by asking the moves "is it k?",
 * nearest the centre first as the solve asked them, with the table the
 * solve filled. With a ledger (cram_solver_set_ledger) and a position
 * whose lines name the board's cells (one part, as it is: a whole empty
 * board, say), a move it knows to reach k is taken unasked, the moves it
 * knows not to are skipped, and every answer found is appended to it, so
 * that a certificate of days survives a stop, and a finished ledger gives
 * its certificate in no search at all. No move reaching some k below the
 * nimber is RDB_E_CORRUPT. */
rdb_status cram_solver_certificate(cram_solver *s, cram_wset free_cells, int nimber, int cells[][2],
                                   rdb_error *err);

/* The nimber of every move of the position whose free cells are
 * free_cells: each domino with both cells free (cram_domino_cells'
 * numbers, in order) in domino[i], the nimber of the position after it in
 * nimber[i], for i below *n. Each child is a solve of its own, with the
 * table the position's solve filled (it answers the children that solve
 * looked at, and twins by symmetry meet in it). A ledger's lines are the
 * root's alone, so the children's solves go without it; with a position
 * whose lines name the board's cells (as for the certificate), a move's
 * nimber the ledger holds is taken from it and every one found is
 * appended. */
rdb_status cram_solver_move_nimbers(cram_solver *s, cram_wset free_cells, int domino[127],
                                    int nimber[127], int *n, rdb_error *err);

/* Take the answers of the root's children to its trials from the ledger
 * l, and append there every answer a trial finds (cram_ledger.h), so that
 * a solve stopped and run again, even without its table, does not search
 * those children again. The aspiration method only (the others have no
 * trials); l stays the caller's, open for as long as the solver solves
 * (NULL: none). A ledger that names a move its root does not have, or
 * contradicts itself, stops the solve with RDB_E_CORRUPT; a failed append
 * stops it too, with the reason. */
void cram_solver_set_ledger(cram_solver *s, cram_ledger *l);

/* Statistics since the solver was made. */
void cram_solver_stats(const cram_solver *s, cram_stats *st);

/* Save the transposition table to path (atomically) / add the entries of a
 * file saved for a board with the same short side (missing file:
 * RDB_E_MISSING). */
rdb_status cram_solver_save_tt(const cram_solver *s, const char *path, rdb_error *err);
/* Save only the entries that cost at least 2^min_work nodes each (a
 * small file: cram_solver_load_tt reads it as any table file), so that
 * a run on another machine, without the table, still has the results of
 * the dearest searches. */
rdb_status cram_solver_save_dear(const cram_solver *s, const char *path, int min_work, rdb_error *err);
rdb_status cram_solver_load_tt(cram_solver *s, const char *path, rdb_error *err);

#endif
