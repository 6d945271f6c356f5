/*
 * search_clock.h — when a search's workers print a progress line and run
 * the caller's hook (a periodic save of the table): the one clock that
 * both solvers' polls read.
 *
 * Workers poll every few thousand nodes. A poll asks what is due
 * (rdb_search_clock_due): nothing, at once and without reading the time,
 * when the search reports nothing and has no hook; else the turn is taken
 * by one worker at a time (another worker's poll meanwhile finds nothing
 * due), and the worker does what is due and gives the turn back
 * (rdb_search_clock_done). A progress line comes every
 * RDB_PROGRESS_SECONDS; the hook every `every` seconds after the last one
 * ended, so that a save that takes minutes does not start again at once.
 */
#ifndef RDB_SEARCH_CLOCK_H
#define RDB_SEARCH_CLOCK_H

#define RDB_PROGRESS_SECONDS 5.0

enum { RDB_DUE_REPORT = 1, RDB_DUE_HOOK = 2 };

typedef struct {
    int progress;                  /* whether progress lines are wanted */
    double next_report;
    int hooked;                    /* whether there is a hook */
    double hook_every, next_hook;
    int turn;                      /* a worker is doing what is due */
} rdb_search_clock;

/* A search starts: progress lines (if `progress`) from now on, the first
 * one RDB_PROGRESS_SECONDS from now. The hook is kept. */
void rdb_search_clock_start(rdb_search_clock *c, int progress);

/* A hook (hooked) every `every` seconds from now (0: at every poll), or
 * none (!hooked). */
void rdb_search_clock_set_hook(rdb_search_clock *c, int hooked, double every);

/* What is due now (RDB_DUE_*), the turn taken when anything is; 0 when
 * nothing is, or another worker holds the turn. */
unsigned rdb_search_clock_due(rdb_search_clock *c);

/* What was due done: the turn given back, the next report and hook
 * counted from now. */
void rdb_search_clock_done(rdb_search_clock *c, unsigned due);

#endif
