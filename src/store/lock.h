/*
 * lock.h — one builder per database directory, one run per saved file.
 *
 * The builder holds an exclusive flock on DIR/LOCK for its whole run and
 * writes its pid there (a solver, on FILE.lock beside the table file it
 * saves); the kernel drops the lock when the process dies, however it
 * dies, so a stale lock file never blocks a resume.
 */
#ifndef RDB_LOCK_H
#define RDB_LOCK_H

#include "common/error.h"

/* Take DIR/LOCK for this process; RDB_E_BUSY names the holder's pid. */
rdb_status rdb_lock_acquire(const char *dir, int *fd, rdb_error *err);
/* Take FILE.lock, the lock of one file that a long run saves again and
 * again (a solver's table file); RDB_E_BUSY names the holder's pid. */
rdb_status rdb_lock_file(const char *file, int *fd, rdb_error *err);
void rdb_lock_release(int fd);
/* Pid of the process holding the lock, 0 when none does. */
long rdb_lock_holder(const char *dir);

#endif
