/*
 * lock.h — one builder per database directory.
 *
 * The builder holds an exclusive flock on DIR/LOCK for its whole run and
 * writes its pid there; the kernel drops the lock when the process dies,
 * however it dies, so a stale LOCK file never blocks a resume.
 */
#ifndef RDB_LOCK_H
#define RDB_LOCK_H

#include "common/error.h"

/* Take DIR/LOCK for this process; RDB_E_BUSY names the holder's pid. */
rdb_status rdb_lock_acquire(const char *dir, int *fd, rdb_error *err);
void rdb_lock_release(int fd);
/* Pid of the process holding the lock, 0 when none does. */
long rdb_lock_holder(const char *dir);

#endif
