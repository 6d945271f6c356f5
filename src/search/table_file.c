/*
 * table_file.c — a search's table on disk; see table_file.h.
 */
#define _GNU_SOURCE
#include "search/table_file.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fsutil.h"
#include "store/bytes.h"
#include "store/lock.h"

#define CHUNK RDB_TABLE_FILL_MOST /* records a read or a write */

static size_t head_bytes(const rdb_table_format *f)
{
    assert(f->nfields <= RDB_TABLE_MAX_FIELDS && f->record > 0);
    return 8 + f->nfields + 8;
}

/* The FNV-1a of the first `len` bytes of the file fd. */
static rdb_status checksum_file(int fd, uint64_t len, const char *name, uint64_t *sum,
                                rdb_error *err)
{
    unsigned char buf[1 << 16];
    uint64_t h = RDB_FNV_START;
    for (uint64_t off = 0; off < len;) {
        const size_t want = len - off < sizeof buf ? (size_t)(len - off) : sizeof buf;
        const ssize_t got = pread(fd, buf, want, (off_t)off);
        if (got <= 0)
            return rdb_fail_errno(err, RDB_E_IO, "cannot read back '%s'", name);
        h = rdb_fnv1a(h, buf, (size_t)got);
        off += (uint64_t)got;
    }
    *sum = h;
    return RDB_OK;
}

rdb_status rdb_table_file_save(const char *path, const rdb_table_format *f,
                               const unsigned char *fields, rdb_table_fill_fn fill, void *ctx,
                               rdb_error *err)
{
    char tmp[PATH_MAX];
    rdb_temp_name(path, tmp, sizeof tmp);
    unsigned char *buf = malloc(CHUNK * f->record);
    if (!buf)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory saving '%s'", path);
    const int fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
        free(buf);
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot create '%s'", tmp);
    }
    unsigned char head[8 + RDB_TABLE_MAX_FIELDS + 8];
    const size_t nhead = head_bytes(f);
    memcpy(head, f->magic, 8);
    memcpy(head + 8, fields, f->nfields);
    rdb_put_le(head + 8 + f->nfields, 0, 8);
    rdb_status st = rdb_write_all(fd, head, nhead, tmp, err);
    uint64_t written = 0;
    for (size_t n; st == RDB_OK && (n = fill(ctx, buf, CHUNK)) > 0; written += n)
        st = rdb_write_all(fd, buf, n * f->record, tmp, err);
    free(buf);
    /* the count, now known, over the head; then the checksum of it all */
    if (st == RDB_OK) {
        rdb_put_le(head + 8 + f->nfields, written, 8);
        if (pwrite(fd, head, nhead, 0) != (ssize_t)nhead)
            st = rdb_fail_errno(err, rdb_io_status(errno), "cannot write '%s'", tmp);
    }
    uint64_t sum = 0;
    if (st == RDB_OK)
        st = checksum_file(fd, nhead + written * f->record, tmp, &sum, err);
    if (st == RDB_OK) {
        unsigned char tail[8];
        rdb_put_le(tail, sum, 8);
        if (pwrite(fd, tail, sizeof tail, (off_t)(nhead + written * f->record)) != (ssize_t)sizeof tail)
            st = rdb_fail_errno(err, rdb_io_status(errno), "cannot write '%s'", tmp);
    }
    return rdb_commit_temp(fd, tmp, path, st, err);
}

static rdb_status not_ours(const char *path, const rdb_table_format *f, const char *why,
                           rdb_error *err)
{
    return rdb_fail(err, RDB_E_CORRUPT, "'%s' is not %s: %s", path, f->what, why);
}

/* Records [0, count) of the file, each given to `each` with `apply`. */
static rdb_status each_record(int fd, const char *path, const rdb_table_format *f, uint64_t count,
                              unsigned char *buf, rdb_table_record_fn each, void *ctx, int apply,
                              rdb_error *err)
{
    rdb_status st = RDB_OK;
    for (uint64_t done = 0; st == RDB_OK && done < count;) {
        const uint64_t n = count - done < CHUNK ? count - done : CHUNK;
        st = rdb_pread_all(fd, buf, n * f->record, head_bytes(f) + done * f->record, path, err);
        for (uint64_t i = 0; st == RDB_OK && i < n; i++)
            st = each(ctx, path, done + i, buf + i * f->record, apply, err);
        done += n;
    }
    return st;
}

rdb_status rdb_table_file_load(const char *path, const rdb_table_format *f,
                               rdb_table_fields_fn fields, rdb_table_record_fn each, void *ctx,
                               uint64_t *loaded, rdb_error *err)
{
    *loaded = 0;
    /* O_NONBLOCK: a FIFO given as the file must not hang the search */
    const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT)
            return rdb_fail(err, RDB_E_MISSING, "'%s' does not exist", path);
        return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    }
    rdb_status st = rdb_check_regular(fd, path, err);
    struct stat sb;
    if (st == RDB_OK && fstat(fd, &sb) != 0)
        st = rdb_fail_errno(err, RDB_E_IO, "cannot stat '%s'", path);
    unsigned char head[8 + RDB_TABLE_MAX_FIELDS + 8];
    const size_t nhead = head_bytes(f);
    const uint64_t size = st == RDB_OK ? (uint64_t)sb.st_size : 0;
    if (st == RDB_OK)
        st = size < nhead + 8 ? not_ours(path, f, "too short", err)
                              : rdb_pread_all(fd, head, nhead, 0, path, err);
    if (st == RDB_OK && memcmp(head, f->magic, 8) != 0)
        st = not_ours(path, f, "another format", err);
    if (st == RDB_OK)
        st = fields(ctx, path, head + 8, err);
    const uint64_t count = st == RDB_OK ? rdb_get_le(head + 8 + f->nfields, 8) : 0;
    if (st == RDB_OK && (count > (size - nhead - 8) / f->record || size != nhead + count * f->record + 8))
        st = not_ours(path, f, "its size does not match its entry count", err);
    uint64_t sum = 0;
    unsigned char tail[8];
    if (st == RDB_OK)
        st = checksum_file(fd, size - 8, path, &sum, err);
    if (st == RDB_OK)
        st = rdb_pread_all(fd, tail, 8, size - 8, path, err);
    if (st == RDB_OK && rdb_get_le(tail, 8) != sum)
        st = not_ours(path, f, "it fails its checksum", err);
    /* every record checked before any is added */
    unsigned char *buf = st == RDB_OK ? malloc(CHUNK * f->record) : NULL;
    if (st == RDB_OK && !buf)
        st = rdb_fail(err, RDB_E_NOMEM, "out of memory loading '%s'", path);
    for (int apply = 0; apply < 2 && st == RDB_OK; apply++)
        st = each_record(fd, path, f, count, buf, each, ctx, apply, err);
    free(buf);
    close(fd);
    if (st == RDB_OK)
        *loaded = count;
    return st;
}

rdb_status rdb_table_file_claim(const char *path, const char *also, int *lock_fd, rdb_error *err)
{
    rdb_status st = rdb_lock_file(path, lock_fd, err);
    if (st == RDB_OK)
        st = rdb_remove_temps(path, err);
    if (st == RDB_OK && also)
        st = rdb_remove_temps(also, err);
    if (st == RDB_OK) {
        char tmp[PATH_MAX];
        rdb_temp_name(path, tmp, sizeof tmp);
        const int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0)
            st = rdb_fail_errno(err, rdb_io_status(errno),
                                "cannot create '%s', where the table is saved first", tmp);
        else if (close(fd) != 0 || unlink(tmp) != 0)
            st = rdb_fail_errno(err, RDB_E_IO, "cannot remove '%s'", tmp);
    }
    if (st != RDB_OK && *lock_fd >= 0) {
        rdb_lock_release(*lock_fd);
        *lock_fd = -1;
    }
    return st;
}

void rdb_table_file_release(int lock_fd)
{
    rdb_lock_release(lock_fd);
}
