/*
 * job.h — what every long job (a build, a search) shares: a monotonic clock
 * for its reports, and the stop request that a SIGINT or SIGTERM handler
 * sets so that the job stops at its next safe point.
 */
#ifndef RDB_JOB_H
#define RDB_JOB_H

#include <signal.h>

/* The signal that asked the running job to stop, or 0. Long jobs poll it
 * between units of work (a slice, a search node batch). */
extern volatile sig_atomic_t rdb_stop_requested;

/* Monotonic clock in seconds. */
double rdb_now(void);

#endif
