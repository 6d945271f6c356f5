/*
 * progress.h — progress reports of a long job (a build, a full verify) on
 * stderr.
 *
 * One line per finished level (level, slices, positions, time, positions
 * per second). On a terminal also a live bar with the time left, redrawn
 * at most a few times a second; elsewhere (a log file) a line a minute
 * instead, so that a log shows a multi-day build moving. Quiet mode
 * prints nothing.
 */
#ifndef RDB_PROGRESS_H
#define RDB_PROGRESS_H

#include <stdint.h>

typedef struct {
    int quiet, tty;
    uint64_t total, done, computed;
    double total_work, done_work, computed_work; /* positions weighted by their moves */
    double start, last_draw;
} rdb_progress;

/* The time left is estimated from work, not positions: a position costs
 * about one unit and one more per move (its children), so a level of the
 * board near the full one, whose positions have few moves, does not make
 * the positions of the start look cheap. `level` counts what the start
 * lacks (lines drawn, cells covered) out of nbits. */
double rdb_progress_level_weight(int nbits, int level);

/* Seconds left for work_left units at the rate timed_work took seconds,
 * or -1 while that is no estimate yet: under 10 s of computing, or 2% of
 * the work (the first levels are small and their time mostly set-up) and
 * 0.2% once RDB_PROGRESS_SURE_SECONDS of computing have gone (a multi-day
 * build reaches 2% after hours). */
#define RDB_PROGRESS_SURE_SECONDS 1800.0
double rdb_progress_estimate(double work_left, double timed_work, double seconds,
                             double work_total);

/* Seconds between two progress lines when stderr is not a terminal. */
#define RDB_PROGRESS_LOG_SECONDS 60.0

void rdb_progress_start(rdb_progress *p, int quiet, uint64_t total_positions);
/* The same with the job's total work (rdb_progress_level_weight). */
void rdb_progress_start_work(rdb_progress *p, int quiet, uint64_t total_positions,
                             double total_work);
/* n positions settled, computed now (1) or found done (0); _work: worth
 * `work` units (rdb_progress_add: one a position). */
void rdb_progress_add(rdb_progress *p, uint64_t n, int computed);
void rdb_progress_add_work(rdb_progress *p, uint64_t n, double work, int computed);
/* A level is done; read/write are the seconds spent reading neighbour
 * slices and writing this level's slices, the rest is computing;
 * disk_bytes what the database's folder holds now (0: not said). */
void rdb_progress_level(rdb_progress *p, int level, int slices, uint64_t positions,
                        uint64_t computed, double seconds, double read, double write,
                        uint64_t disk_bytes);

/* A level shared among several processes: the least and most time one
 * of them spent on it (the slowest is `slowest`), and the bytes of slice
 * files all of them read and wrote. */
void rdb_progress_ranks(rdb_progress *p, int ranks, double busy_min, double busy_max, int slowest,
                        uint64_t read_bytes, uint64_t written_bytes);

/* The job is done: "done: N positions in T". */
void rdb_progress_finish(rdb_progress *p);

/* Erase the bar, if one is drawn (a job that reports its own end). */
void rdb_progress_clear(rdb_progress *p);

#endif
