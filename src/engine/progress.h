/*
 * progress.h — progress reports of a build on stderr.
 *
 * One line per finished level (level, slices, positions, seconds,
 * positions per second); on a terminal also a live bar with an ETA,
 * redrawn at most a few times a second. Quiet mode prints nothing.
 */
#ifndef RDB_PROGRESS_H
#define RDB_PROGRESS_H

#include <stdint.h>

typedef struct {
    int quiet, tty;
    uint64_t total, done, computed;
    double start, last_draw;
} rdb_progress;

void rdb_progress_start(rdb_progress *p, int quiet, uint64_t total_positions);
/* n positions settled, computed now (1) or found done (0). */
void rdb_progress_add(rdb_progress *p, uint64_t n, int computed);
/* A level is done; read/write are the seconds spent reading neighbour
 * slices and writing this level's slices, the rest is computing. */
void rdb_progress_level(rdb_progress *p, int level, int slices, uint64_t positions,
                        uint64_t computed, double seconds, double read, double write);

void rdb_progress_finish(rdb_progress *p);

#endif
