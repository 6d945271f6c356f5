/*
 * ledger_file.c — reading and appending the lines of a ledger; see
 * ledger_file.h.
 */
#define _GNU_SOURCE
#include "common/ledger_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/text_input.h"

/* The most rdb_read_file reads; a ledger line is about 100 bytes, so this
 * is over a hundred thousand answers. */
#define MAX_LEDGER_BYTES ((16 << 20) - 2)

rdb_status rdb_ledger_read(const char *path, int (*line)(void *ctx, char *text, int lineno, rdb_error *err),
                           void *ctx, rdb_error *err)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        if (errno == ENOENT)
            return RDB_OK;
        return rdb_fail_errno(err, RDB_E_IO, "cannot stat '%s'", path);
    }
    if (!S_ISREG(sb.st_mode))
        return rdb_fail(err, RDB_E_INPUT, "'%s' is not a regular file", path);
    /* rdb_read_file's limits, said of a ledger: a damaged file, not a
     * wrong command */
    if (sb.st_size > MAX_LEDGER_BYTES)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is too large for a ledger (16 MB at most)", path);
    char *text;
    rdb_status st = rdb_read_file(path, &text, err);
    if (st == RDB_E_INPUT)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is not a ledger: it holds a NUL byte", path);
    if (st != RDB_OK)
        return st;
    int lineno = 0;
    for (char *at = text; *at && st == RDB_OK;) {
        char *nl = strchr(at, '\n');
        if (!nl)
            break; /* a write cut short: not a line yet */
        *nl = '\0';
        lineno++;
        char shown[61];
        snprintf(shown, sizeof shown, "%s", at);
        int r = line(ctx, at, lineno, err);
        if (r == -1)
            st = rdb_fail(err, RDB_E_CORRUPT, "%s:%d: not a ledger line: '%s'", path, lineno, shown);
        else if (r != 0)
            st = (rdb_status)r;
        at = nl + 1;
    }
    free(text);
    return st;
}

rdb_status rdb_ledger_append(const char *path, const char *text, rdb_error *err)
{
    const size_t len = strlen(text);
    int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    if (flock(fd, LOCK_EX) != 0) {
        close(fd);
        return rdb_fail_errno(err, RDB_E_IO, "cannot lock '%s'", path);
    }
    /* A line cut short by a crash or a full disk goes first, so that this
     * one does not get glued onto it. */
    off_t size = lseek(fd, 0, SEEK_END), keep = size;
    char c = '\n';
    ssize_t got = 1;
    while (keep > 0 && (got = pread(fd, &c, 1, keep - 1)) == 1 && c != '\n')
        keep--;
    if (size < 0 || got != 1) {
        int e = got == 0 ? EIO : errno; /* 0: the file shrank under the lock */
        close(fd);
        errno = e;
        return rdb_fail_errno(err, RDB_E_IO, "cannot read the end of '%s'", path);
    }
    if (keep != size && ftruncate(fd, keep) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return rdb_fail_errno(err, RDB_E_IO, "cannot repair the last line of '%s'", path);
    }
    ssize_t w = write(fd, text, len);
    int werr = errno;
    int synced = w == (ssize_t)len && fsync(fd) == 0;
    int serr = errno;
    close(fd);
    if (w != (ssize_t)len) {
        errno = w < 0 ? werr : ENOSPC;
        return rdb_fail_errno(err, errno == ENOSPC ? RDB_E_NOSPACE : RDB_E_IO, "cannot append to '%s'", path);
    }
    if (!synced) {
        errno = serr;
        return rdb_fail_errno(err, RDB_E_IO, "cannot fsync '%s'", path);
    }
    return RDB_OK;
}

rdb_status rdb_ledger_writable(const char *path, rdb_error *err)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s' to append to it", path);
    close(fd);
    return RDB_OK;
}

rdb_status rdb_ledger_room(void **entry, int *cap, int n, size_t size, const char *path, rdb_error *err)
{
    if (n < *cap)
        return RDB_OK;
    int more = *cap ? 2 * *cap : 64;
    void *e = realloc(*entry, (size_t)more * size);
    if (!e)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", path);
    *entry = e;
    *cap = more;
    return RDB_OK;
}
