/*
 * fsutil.h — durable file-system operations.
 *
 * A finished file must survive a crash: it is written under a temporary
 * name in its own folder, fsync'ed, renamed into place and the folder is
 * fsync'ed. Every failure of write, fsync or close is reported, never
 * ignored (a full disk shows up here as ENOSPC).
 */
#ifndef RDB_FSUTIL_H
#define RDB_FSUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

/* The status of a failed call that set errno to e: RDB_E_NOSPACE when the
 * disk or the quota is full (ENOSPC, EDQUOT), so that the build says so
 * and how to resume, else RDB_E_IO. */
rdb_status rdb_io_status(int e);

/* Create a directory and its parents (like mkdir -p). */
rdb_status rdb_mkdirs(const char *path, rdb_error *err);

/* Write all of buf to fd at its current offset. */
rdb_status rdb_write_all(int fd, const void *buf, size_t len, const char *name, rdb_error *err);

/* Read exactly len bytes at offset; a short read is RDB_E_CORRUPT. */
rdb_status rdb_pread_all(int fd, void *buf, size_t len, uint64_t offset, const char *name,
                         rdb_error *err);

/* Read a whole small file from fd (opened by the caller, who names it
 * `name`) into buf: at most cap bytes, *len gets the count. A file that is
 * not a regular file (a FIFO would hang the reader, a device never ends)
 * or is longer than cap is refused as RDB_E_CORRUPT. */
rdb_status rdb_read_small_file(int fd, const char *name, char *buf, size_t cap, size_t *len,
                               rdb_error *err);

/* Refuse (RDB_E_CORRUPT) a database file that is not a regular file:
 * fd is open on it, name is for the message. */
rdb_status rdb_check_regular(int fd, const char *name, rdb_error *err);

/* fsync the folder that holds path. */
rdb_status rdb_fsync_parent(const char *path, rdb_error *err);

/* Name of the temporary file for final path `path` (buf of PATH_MAX). The
 * ".tmp" suffix marks leftovers that a builder removes at start. */
void rdb_temp_name(const char *path, char *buf, size_t bufsize);
/* Whether a folder entry's name is base + ".<digits>.tmp": a temporary
 * file of base (rdb_temp_name), left by a process that died writing it. */
int rdb_is_temp_of(const char *name, const char *base);
/* Remove the temporary files of path (rdb_is_temp_of) from its folder;
 * only for a caller that holds path's lock (no live writer has one). */
rdb_status rdb_remove_temps(const char *path, rdb_error *err);

/* Atomically replace `path` by `len` bytes of data (temp, fsync, rename,
 * fsync folder). */
rdb_status rdb_write_file_atomic(const char *path, const void *data, size_t len, rdb_error *err);

/* Open `tmp` for writing a new file, write `len` bytes, fsync, close and
 * rename to `path`, fsync the folder; on any failure remove `tmp`. */
rdb_status rdb_commit_buffers(const char *path, const void *const *bufs, const size_t *lens,
                              int nbufs, rdb_error *err);

/* Finish a file written to temporary name tmp through fd: when st (the
 * status of the writing) is RDB_OK, fsync, close, rename to path and fsync
 * the folder; otherwise, or on any failure, close and remove tmp. Returns
 * st or the first failure. */
rdb_status rdb_commit_temp(int fd, const char *tmp, const char *path, rdb_status st,
                           rdb_error *err);

/* The bytes an unprivileged writer may still use on the file system that
 * holds path, or would hold it: a path that does not exist yet is looked up
 * through its nearest existing parent. 0 and the reason in err when even
 * that cannot be read. */
rdb_status rdb_disk_free_bytes(const char *path, uint64_t *bytes, rdb_error *err);

/* The bytes the regular files under dir take on disk (allocated blocks,
 * not lengths; links not followed) in *bytes: 0 for a folder that does not
 * exist; RDB_E_IO when the walk fails. */
rdb_status rdb_tree_bytes(const char *dir, uint64_t *bytes, rdb_error *err);


#endif
