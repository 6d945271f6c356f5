/*
 * lock.c — the builder lock; see lock.h.
 */
#define _GNU_SOURCE
#include "store/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/path.h"
#include "common/fsutil.h"

/* How long a starting builder waits for a reader's shared lock to go. */
#define LOCK_PATIENCE_MS 250
#define LOCK_RETRY_MS 10

/* Pid of the process holding the lock at path, 0 when none does. */
static long holder_of(const char *path)
{
    rdb_error ignored;
    int f = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (f < 0)
        return 0;
    if (rdb_check_regular(f, path, &ignored) != RDB_OK) {
        close(f);
        return 0;
    }
    long pid = 0;
    if (flock(f, LOCK_SH | LOCK_NB) != 0) {
        char text[32] = {0};
        ssize_t n = pread(f, text, sizeof text - 1, 0);
        pid = n > 0 ? strtol(text, NULL, 10) : -1;
    } else {
        flock(f, LOCK_UN);
    }
    close(f);
    return pid;
}

/* Take an exclusive flock on the file at path (created when missing) and
 * write this process's pid in it; *busy says whether another holds it. */
static rdb_status lock_path(const char *path, int *fd, int *busy, rdb_error *err)
{
    *fd = -1;
    *busy = 0;
    /* The lock is truncated and written: a symbolic link planted as the
     * lock must not lead that into another file, and a FIFO must not block. */
    int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
    if (f < 0) {
        if (errno == ELOOP)
            return rdb_fail(err, RDB_E_CORRUPT,
                            "'%s' is a symbolic link, not a lock file; remove it", path);
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot open '%s'", path);
    }
    rdb_status st = rdb_check_regular(f, path, err);
    if (st != RDB_OK) {
        close(f);
        return st;
    }
    /* `status` and the other readers take the lock shared for an instant
     * to ask whether a builder holds it (rdb_lock_holder): a builder that
     * starts at that instant waits for them rather than refusing. Only a
     * builder holds it for longer than LOCK_PATIENCE_MS. */
    int tries = 0, locked;
    while ((locked = flock(f, LOCK_EX | LOCK_NB)) != 0 && errno == EWOULDBLOCK &&
           tries++ < LOCK_PATIENCE_MS / LOCK_RETRY_MS)
        usleep(LOCK_RETRY_MS * 1000);
    if (locked != 0) {
        *busy = errno == EWOULDBLOCK;
        close(f);
        return *busy ? RDB_E_BUSY : rdb_fail_errno(err, RDB_E_IO, "cannot lock '%s'", path);
    }
    char text[32];
    int n = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    if (ftruncate(f, 0) != 0 || pwrite(f, text, (size_t)n, 0) != n) {
        st = rdb_fail_errno(err, rdb_io_status(errno), "cannot write '%s'", path);
        close(f);
        return st;
    }
    *fd = f;
    return RDB_OK;
}

/* Take the lock at `where` (a printf pattern for the object's own path
 * `what`, "%s/LOCK" or "%s.lock"); a holder is named as `who`. */
static rdb_status lock_of(const char *where, const char *what, const char *who, int *fd,
                          rdb_error *err)
{
    *fd = -1;
    char path[RDB_PATH_MAX];
    int busy;
    rdb_status st = rdb_path_format(path, sizeof path, err, where, what);
    if (st == RDB_OK && (st = lock_path(path, fd, &busy, err)) != RDB_OK && busy)
        st = rdb_fail(err, RDB_E_BUSY, "another %s (pid %ld) is working on '%s'; wait for it or stop it",
                      who, holder_of(path), what);
    return st;
}

rdb_status rdb_lock_acquire(const char *dir, int *fd, rdb_error *err)
{
    return lock_of("%s/LOCK", dir, "builder", fd, err);
}

rdb_status rdb_lock_file(const char *file, int *fd, rdb_error *err)
{
    return lock_of("%s.lock", file, "run", fd, err);
}

void rdb_lock_release(int fd)
{
    if (fd >= 0)
        close(fd);
}

long rdb_lock_holder(const char *dir)
{
    char path[RDB_PATH_MAX];
    rdb_error ignored;
    if (rdb_path_format(path, sizeof path, &ignored, "%s/LOCK", dir) != RDB_OK)
        return 0;
    return holder_of(path);
}
