/*
 * fsutil.c — see fsutil.h.
 */
#define _GNU_SOURCE
#include "common/fsutil.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

rdb_status rdb_io_status(int e)
{
    return e == ENOSPC || e == EDQUOT ? RDB_E_NOSPACE : RDB_E_IO;
}

rdb_status rdb_mkdirs(const char *path, rdb_error *err)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return rdb_fail(err, RDB_E_INPUT, "path too long: '%s'", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return rdb_fail_errno(err, rdb_io_status(errno), "cannot create folder '%s'", buf);
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return rdb_fail_errno(err, errno == ENOTDIR ? RDB_E_INPUT : rdb_io_status(errno),
                              "cannot create folder '%s'", buf);
    struct stat sb;
    if (stat(buf, &sb) != 0)
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot stat folder '%s'", buf);
    if (!S_ISDIR(sb.st_mode))
        return rdb_fail(err, RDB_E_INPUT, "'%s' is a file, not a folder", buf);
    return RDB_OK;
}

rdb_status rdb_write_all(int fd, const void *buf, size_t len, const char *name, rdb_error *err)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return rdb_fail_errno(err, rdb_io_status(errno), "cannot write '%s'", name);
        }
        p += n;
        len -= (size_t)n;
    }
    return RDB_OK;
}

rdb_status rdb_pread_all(int fd, void *buf, size_t len, uint64_t offset, const char *name,
                         rdb_error *err)
{
    char *p = buf;
    while (len > 0) {
        ssize_t n = pread(fd, p, len, (off_t)offset);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return rdb_fail_errno(err, RDB_E_IO, "cannot read '%s'", name);
        }
        if (n == 0)
            return rdb_fail(err, RDB_E_CORRUPT, "'%s' is truncated", name);
        p += n;
        len -= (size_t)n;
        offset += (uint64_t)n;
    }
    return RDB_OK;
}

rdb_status rdb_check_regular(int fd, const char *name, rdb_error *err)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        return rdb_fail_errno(err, RDB_E_IO, "cannot stat '%s'", name);
    if (!S_ISREG(sb.st_mode))
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is not a regular file; remove or rename it", name);
    return RDB_OK;
}

rdb_status rdb_read_small_file(int fd, const char *name, char *buf, size_t cap, size_t *len,
                               rdb_error *err)
{
    *len = 0;
    rdb_status st = rdb_check_regular(fd, name, err);
    if (st != RDB_OK)
        return st;
    for (;;) {
        /* one byte more than cap, to tell a full buffer from a longer file */
        char extra;
        ssize_t n = *len < cap ? read(fd, buf + *len, cap - *len) : read(fd, &extra, 1);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return rdb_fail_errno(err, RDB_E_IO, "cannot read '%s'", name);
        }
        if (n == 0)
            return RDB_OK;
        if (*len == cap)
            return rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged: longer than %zu bytes", name, cap);
        *len += (size_t)n;
    }
}

rdb_status rdb_fsync_parent(const char *path, rdb_error *err)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir)
        dir[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot open folder '%s'", dir);
    int rc = fsync(fd);
    int saved = errno;
    close(fd);
    errno = saved;
    /* Some file systems refuse fsync on a folder; that is not data loss. */
    if (rc != 0 && errno != EINVAL && errno != EROFS)
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot fsync folder '%s'", dir);
    return RDB_OK;
}

void rdb_temp_name(const char *path, char *buf, size_t bufsize)
{
    snprintf(buf, bufsize, "%s.%ld.tmp", path, (long)getpid());
}

int rdb_is_temp_of(const char *name, const char *base)
{
    size_t n = strlen(base);
    if (strncmp(name, base, n) != 0 || name[n] != '.' || !isdigit((unsigned char)name[n + 1]))
        return 0;
    const char *p = name + n + 1;
    while (isdigit((unsigned char)*p))
        p++;
    return strcmp(p, ".tmp") == 0;
}

rdb_status rdb_remove_temps(const char *path, rdb_error *err)
{
    char folder[PATH_MAX];
    if (snprintf(folder, sizeof folder, "%s", path) >= (int)sizeof folder)
        return rdb_fail(err, RDB_E_INPUT, "path too long: '%s'", path);
    char *slash = strrchr(folder, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash == folder)
        folder[1] = '\0';
    else if (slash)
        *slash = '\0';
    else
        strcpy(folder, ".");
    DIR *d = opendir(folder);
    if (!d)
        return errno == ENOENT ? RDB_OK : rdb_fail_errno(err, RDB_E_IO, "cannot list '%s'", folder);
    rdb_status st = RDB_OK;
    struct dirent *e;
    while (st == RDB_OK && (e = readdir(d)) != NULL) {
        char temp[PATH_MAX];
        if (!rdb_is_temp_of(e->d_name, base))
            continue;
        if (snprintf(temp, sizeof temp, "%s/%s", folder, e->d_name) >= (int)sizeof temp)
            continue;
        if (unlink(temp) != 0 && errno != ENOENT)
            st = rdb_fail_errno(err, RDB_E_IO, "cannot remove '%s'", temp);
    }
    closedir(d);
    return st;
}

rdb_status rdb_commit_buffers(const char *path, const void *const *bufs, const size_t *lens,
                              int nbufs, rdb_error *err)
{
    char tmp[PATH_MAX];
    rdb_temp_name(path, tmp, sizeof tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot create '%s'", tmp);
    rdb_status st = RDB_OK;
    for (int i = 0; i < nbufs && st == RDB_OK; i++)
        st = rdb_write_all(fd, bufs[i], lens[i], tmp, err);
    return rdb_commit_temp(fd, tmp, path, st, err);
}

rdb_status rdb_commit_temp(int fd, const char *tmp, const char *path, rdb_status st,
                           rdb_error *err)
{
    if (st == RDB_OK && fsync(fd) != 0)
        st = rdb_fail_errno(err, rdb_io_status(errno), "cannot fsync '%s'", tmp);
    if (close(fd) != 0 && st == RDB_OK)
        st = rdb_fail_errno(err, rdb_io_status(errno), "cannot close '%s'", tmp);
    if (st == RDB_OK && rename(tmp, path) != 0)
        st = rdb_fail_errno(err, rdb_io_status(errno), "cannot rename '%s' to '%s'", tmp, path);
    if (st != RDB_OK) {
        unlink(tmp);
        return st;
    }
    return rdb_fsync_parent(path, err);
}

rdb_status rdb_write_file_atomic(const char *path, const void *data, size_t len, rdb_error *err)
{
    const void *bufs[1] = {data};
    size_t lens[1] = {len};
    return rdb_commit_buffers(path, bufs, lens, 1, err);
}

rdb_status rdb_disk_free_bytes(const char *path, uint64_t *bytes, rdb_error *err)
{
    char buf[PATH_MAX];
    *bytes = 0;
    if (snprintf(buf, sizeof buf, "%s", *path ? path : ".") >= (int)sizeof buf)
        return rdb_fail(err, RDB_E_INPUT, "path too long: '%s'", path);
    struct statvfs vfs;
    /* climb to the nearest folder that exists: the build makes the rest */
    while (statvfs(buf, &vfs) != 0) {
        if (errno != ENOENT)
            return rdb_fail(err, RDB_E_IO, "cannot read the free space of '%s': %s", buf,
                            strerror(errno));
        char *slash = strrchr(buf, '/');
        if (!slash)
            snprintf(buf, sizeof buf, ".");
        else if (slash == buf)
            buf[1] = '\0';
        else
            *slash = '\0';
    }
    *bytes = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
    return RDB_OK;
}

static uint64_t tree_bytes_sum;

static int add_file_bytes(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)path;
    (void)ftw;
    if (flag == FTW_F && S_ISREG(st->st_mode))
        tree_bytes_sum += (uint64_t)st->st_blocks * 512u;
    return 0;
}

rdb_status rdb_tree_bytes(const char *dir, uint64_t *bytes, rdb_error *err)
{
    /* nftw takes no context pointer: the sum lives in a static, and only
     * the planning thread calls this */
    struct stat st;
    tree_bytes_sum = 0;
    *bytes = 0;
    if (stat(dir, &st) != 0) {
        if (errno == ENOENT)
            return RDB_OK;
        return rdb_fail(err, RDB_E_IO, "cannot read the folder '%s': %s", dir, strerror(errno));
    }
    if (nftw(dir, add_file_bytes, 16, FTW_PHYS) != 0)
        return rdb_fail(err, RDB_E_IO, "cannot read the folder '%s': %s", dir, strerror(errno));
    *bytes = tree_bytes_sum;
    return RDB_OK;
}
