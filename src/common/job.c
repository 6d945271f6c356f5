/*
 * job.c — see job.h.
 */
#include "common/job.h"

#include <time.h>

volatile sig_atomic_t rdb_stop_requested = 0;

double rdb_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
