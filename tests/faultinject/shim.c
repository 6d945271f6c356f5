/*
 * shim.c — an LD_PRELOAD library that makes chosen file-system calls of
 * retrodb fail, so that tests/io_faults.sh can check what the program does
 * with every failure a disk can report: an error, a full disk, a read-only
 * folder. It wraps the calls the store, the engine and the tools make on
 * database files (open, read, write, fsync, close, rename, mkdir, ...),
 * counts them, and fails the Nth one of a chosen kind with a chosen errno.
 *
 * Only calls on files under RDB_FAULT_DIR count and fail: paths are matched
 * by prefix when a file is opened and its descriptor (or FILE) is tracked
 * from then on, so the standard streams and anything outside the database
 * never fail. glibc's stdio reads and writes through its own internal
 * entry points, not through read and write, so the stdio functions the
 * program uses on database files (fopen, fgets, fread, fwrite, fclose) are
 * wrapped too, and a call is counted once, at the level the program made it.
 *
 * Environment (all optional; without RDB_FAULT_DIR nothing is counted):
 *   RDB_FAULT_DIR    the database folder, written as the program is given
 *                    it (the test passes absolute paths)
 *   RDB_FAULT_OP     the kinds that fail, comma-separated, sharing one
 *                    count: open openw read write fsync close rename unlink
 *                    mkdir rmdir truncate flock seek stat walk ("openw" is
 *                    an open that may create or write; "walk" is nftw)
 *   RDB_FAULT_N      fail the Nth matching call (1-based; default 1)
 *   RDB_FAULT_STICKY 1: fail every matching call from the Nth on
 *   RDB_FAULT_ERRNO  EIO (default), ENOSPC, EDQUOT, EROFS, EACCES, EPERM,
 *                    EBADF, ENOMEM, or a number
 *   RDB_FAULT_COUNT  file: at exit, one line "kind calls" per kind
 *   RDB_FAULT_LOG    file: one line per failed call,
 *                    "kind function n errno state path", where state says
 *                    whether the descriptor held written data that was not
 *                    yet fsynced ("dirty"), none ("clean"), or is "-"
 *
 * The program is multi-threaded (a writer thread, OpenMP readers): counts
 * and descriptor states are atomics, the configuration is read once before
 * main, and real functions are looked up once each.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- kinds of calls ---- */

enum kind {
    K_OPEN, K_OPENW, K_READ, K_WRITE, K_FSYNC, K_CLOSE, K_RENAME, K_UNLINK,
    K_MKDIR, K_RMDIR, K_TRUNCATE, K_FLOCK, K_SEEK, K_STAT, K_WALK, K_COUNT
};

static const char *const kind_name[K_COUNT] = {
    "open", "openw", "read", "write", "fsync", "close", "rename", "unlink",
    "mkdir", "rmdir", "truncate", "flock", "seek", "stat", "walk",
};

/* ---- configuration, read once before main ---- */

static char fault_dir[PATH_MAX];
static size_t fault_dir_len;       /* 0: count nothing */
static unsigned fault_kinds;       /* bit per kind */
static long fault_n = 1;
static int fault_sticky;
static int fault_errno = EIO;
static char count_file[PATH_MAX];
static char log_file[PATH_MAX];

static atomic_long calls[K_COUNT];
static atomic_long matched;        /* calls of the failing kinds, shared count */

/* Per descriptor: tracked (under the folder), opened for writing, holding
 * data written since its last fsync; and the path it was opened with, for
 * the log. Descriptors past FD_MAX are not tracked (retrodb holds a few
 * dozen at most). */
#define FD_MAX 4096
#define FD_TRACKED 1u
#define FD_DIRTY 2u
static atomic_uint fd_state[FD_MAX];
static _Atomic(char *) fd_path[FD_MAX];

/* ---- the real functions ---- */

static void *real(const char *name, _Atomic(void *) *slot)
{
    void *f = atomic_load(slot);
    if (!f) {
        f = dlsym(RTLD_NEXT, name);
        if (!f) {
            fprintf(stderr, "faultinject: no function '%s' to wrap\n", name);
            abort();
        }
        atomic_store(slot, f);
    }
    return f;
}

#define REAL(ret, name, params)                                  \
    static _Atomic(void *) real_##name##_slot;                     \
    typedef ret(*name##_fn) params;                                \
    static name##_fn real_##name(void)                             \
    {                                                              \
        return (name##_fn)real(#name, &real_##name##_slot);        \
    }

REAL(int, open, (const char *, int, ...))
REAL(int, open64, (const char *, int, ...))
REAL(int, openat, (int, const char *, int, ...))
REAL(int, openat64, (int, const char *, int, ...))
REAL(int, creat, (const char *, mode_t))
REAL(FILE *, fopen, (const char *, const char *))
REAL(FILE *, fopen64, (const char *, const char *))
REAL(ssize_t, read, (int, void *, size_t))
REAL(ssize_t, pread, (int, void *, size_t, off_t))
REAL(ssize_t, pread64, (int, void *, size_t, off_t))
REAL(ssize_t, write, (int, const void *, size_t))
REAL(ssize_t, pwrite, (int, const void *, size_t, off_t))
REAL(ssize_t, pwrite64, (int, const void *, size_t, off_t))
REAL(char *, fgets, (char *, int, FILE *))
REAL(size_t, fread, (void *, size_t, size_t, FILE *))
REAL(size_t, fwrite, (const void *, size_t, size_t, FILE *))
REAL(int, fsync, (int))
REAL(int, fdatasync, (int))
REAL(int, close, (int))
REAL(int, fclose, (FILE *))
REAL(int, rename, (const char *, const char *))
REAL(int, renameat, (int, const char *, int, const char *))
REAL(int, unlink, (const char *))
REAL(int, unlinkat, (int, const char *, int))
REAL(int, mkdir, (const char *, mode_t))
REAL(int, mkdirat, (int, const char *, mode_t))
REAL(int, rmdir, (const char *))
REAL(int, ftruncate, (int, off_t))
REAL(int, truncate, (const char *, off_t))
REAL(int, flock, (int, int))
REAL(off_t, lseek, (int, off_t, int))
REAL(int, fstat, (int, struct stat *))
REAL(int, stat, (const char *, struct stat *))
REAL(int, lstat, (const char *, struct stat *))
REAL(int, nftw, (const char *, __nftw_func_t, int, int))

/* ---- paths ---- */

/* Whether path (relative to dirfd, or to the working folder) lies in the
 * folder under test: the folder itself or anything below it. */
static int under_dir(int dirfd, const char *path)
{
    if (fault_dir_len == 0 || !path)
        return 0;
    char full[PATH_MAX];
    if (path[0] == '/') {
        snprintf(full, sizeof full, "%s", path);
    } else {
        char base[PATH_MAX];
        if (dirfd == AT_FDCWD) {
            if (!getcwd(base, sizeof base))
                return 0;
        } else if (dirfd >= 0 && dirfd < FD_MAX && atomic_load(&fd_path[dirfd])) {
            snprintf(base, sizeof base, "%s", atomic_load(&fd_path[dirfd]));
        } else {
            char link[64];
            snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
            ssize_t n = readlink(link, base, sizeof base - 1);
            if (n < 0)
                return 0;
            base[n] = '\0';
        }
        if (snprintf(full, sizeof full, "%s/%s", base, path) >= (int)sizeof full)
            return 0;
    }
    return strncmp(full, fault_dir, fault_dir_len) == 0 &&
           (full[fault_dir_len] == '\0' || full[fault_dir_len] == '/');
}

static int tracked(int fd)
{
    return fd > 2 && fd < FD_MAX && (atomic_load(&fd_state[fd]) & FD_TRACKED);
}

static void track(int fd, const char *path)
{
    if (fd <= 2 || fd >= FD_MAX)
        return;
    free(atomic_exchange(&fd_path[fd], strdup(path)));
    atomic_store(&fd_state[fd], FD_TRACKED);
}

static void untrack(int fd)
{
    if (fd <= 2 || fd >= FD_MAX)
        return;
    atomic_store(&fd_state[fd], 0);
    free(atomic_exchange(&fd_path[fd], NULL));
}

/* ---- the decision ---- */

static const char *errno_name(int e)
{
    static const struct { int e; const char *name; } names[] = {
        {EIO, "EIO"}, {ENOSPC, "ENOSPC"}, {EDQUOT, "EDQUOT"}, {EROFS, "EROFS"},
        {EACCES, "EACCES"}, {EPERM, "EPERM"}, {EBADF, "EBADF"}, {ENOMEM, "ENOMEM"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].e == e)
            return names[i].name;
    return NULL;
}

/* Append one line to the log, with the real open and write so that the
 * log itself is never counted. */
static void log_fault(enum kind k, const char *func, long n, const char *state,
                      const char *path)
{
    if (!log_file[0])
        return;
    char line[PATH_MAX + 128];
    const char *en = errno_name(fault_errno);
    char num[16];
    if (!en) {
        snprintf(num, sizeof num, "%d", fault_errno);
        en = num;
    }
    int len = snprintf(line, sizeof line, "%s %s %ld %s %s %s\n", kind_name[k], func, n, en,
                       state, path ? path : "?");
    if (len < 0)
        return;
    if ((size_t)len >= sizeof line)
        len = (int)sizeof line - 1;
    int fd = real_open()(log_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (fd < 0)
        return;
    ssize_t ignored = real_write()(fd, line, (size_t)len);
    (void)ignored;
    real_close()(fd);
}

/* Count one call of kind k (and of kind k2, when it is one too, for an
 * open that may write: K_OPENW, else K_COUNT) and decide whether it fails.
 * On a failure errno is set and the fault logged. */
static int should_fail(enum kind k, enum kind k2, const char *func, int fd, const char *path)
{
    atomic_fetch_add(&calls[k], 1);
    if (k2 != K_COUNT)
        atomic_fetch_add(&calls[k2], 1);
    unsigned bits = 1u << k | (k2 != K_COUNT ? 1u << k2 : 0u);
    if (!(fault_kinds & bits))
        return 0;
    long n = atomic_fetch_add(&matched, 1) + 1;
    if (n != fault_n && !(fault_sticky && n > fault_n))
        return 0;
    const char *state = "-";
    if (fd >= 0 && fd < FD_MAX) {
        state = atomic_load(&fd_state[fd]) & FD_DIRTY ? "dirty" : "clean";
        if (!path)
            path = atomic_load(&fd_path[fd]);
    }
    enum kind shown = k2 != K_COUNT && (fault_kinds & 1u << k2) ? k2 : k;
    log_fault(shown, func, n, state, path);
    errno = fault_errno;
    return 1;
}

/* ---- set-up and the count at exit ---- */

static enum kind kind_named(const char *s, size_t len)
{
    for (int k = 0; k < K_COUNT; k++)
        if (strlen(kind_name[k]) == len && strncmp(kind_name[k], s, len) == 0)
            return (enum kind)k;
    return K_COUNT;
}

static void die(const char *what, const char *value)
{
    fprintf(stderr, "faultinject: bad %s '%s'\n", what, value);
    exit(99);
}

__attribute__((constructor)) static void fault_init(void)
{
    const char *dir = getenv("RDB_FAULT_DIR");
    if (!dir || !*dir)
        return;
    if (dir[0] == '/') {
        snprintf(fault_dir, sizeof fault_dir, "%s", dir);
    } else {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd))
            die("RDB_FAULT_DIR (no working folder)", dir);
        snprintf(fault_dir, sizeof fault_dir, "%.*s/%s", PATH_MAX / 2, cwd, dir);
    }
    fault_dir_len = strlen(fault_dir);
    while (fault_dir_len > 1 && fault_dir[fault_dir_len - 1] == '/')
        fault_dir[--fault_dir_len] = '\0';

    const char *ops = getenv("RDB_FAULT_OP");
    for (const char *p = ops; p && *p;) {
        size_t len = strcspn(p, ",");
        enum kind k = kind_named(p, len);
        if (k == K_COUNT)
            die("RDB_FAULT_OP", ops);
        fault_kinds |= 1u << k;
        p += len + (p[len] == ',');
    }
    const char *v = getenv("RDB_FAULT_N");
    if (v && *v) {
        char *end;
        fault_n = strtol(v, &end, 10);
        if (*end || fault_n < 1)
            die("RDB_FAULT_N", v);
    }
    v = getenv("RDB_FAULT_STICKY");
    fault_sticky = v && strcmp(v, "1") == 0;
    v = getenv("RDB_FAULT_ERRNO");
    if (v && *v) {
        static const int known[] = {EIO, ENOSPC, EDQUOT, EROFS, EACCES, EPERM, EBADF, ENOMEM};
        char *end;
        long e = strtol(v, &end, 10);
        fault_errno = 0;
        if (!*end && e > 0) {
            fault_errno = (int)e;
        } else {
            for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
                if (strcmp(errno_name(known[i]), v) == 0)
                    fault_errno = known[i];
        }
        if (!fault_errno)
            die("RDB_FAULT_ERRNO", v);
    }
    v = getenv("RDB_FAULT_COUNT");
    if (v)
        snprintf(count_file, sizeof count_file, "%s", v);
    v = getenv("RDB_FAULT_LOG");
    if (v)
        snprintf(log_file, sizeof log_file, "%s", v);
}

__attribute__((destructor)) static void fault_report(void)
{
    if (!count_file[0])
        return;
    char text[K_COUNT * 40];
    int len = 0;
    for (int k = 0; k < K_COUNT; k++)
        len += snprintf(text + len, sizeof text - (size_t)len, "%s %ld\n", kind_name[k],
                        atomic_load(&calls[k]));
    int fd = real_open()(count_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return;
    ssize_t ignored = real_write()(fd, text, (size_t)len);
    (void)ignored;
    real_close()(fd);
}

/* ---- opening ---- */

static int writes(int flags)
{
    return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) != 0;
}

/* The common part of every open: count, maybe fail, track the result. */
static int open_common(int dirfd, const char *path, int flags, mode_t mode, const char *func,
                       int (*call)(int, const char *, int, mode_t))
{
    if (!under_dir(dirfd, path))
        return call(dirfd, path, flags, mode);
    if (should_fail(K_OPEN, writes(flags) ? K_OPENW : K_COUNT, func, -1, path))
        return -1;
    int fd = call(dirfd, path, flags, mode);
    if (fd >= 0)
        track(fd, path);
    return fd;
}

static int call_open(int dirfd, const char *path, int flags, mode_t mode)
{
    (void)dirfd;
    return real_open()(path, flags, mode);
}

static int call_open64(int dirfd, const char *path, int flags, mode_t mode)
{
    (void)dirfd;
    return real_open64()(path, flags, mode);
}

static int call_openat(int dirfd, const char *path, int flags, mode_t mode)
{
    return real_openat()(dirfd, path, flags, mode);
}

static int call_openat64(int dirfd, const char *path, int flags, mode_t mode)
{
    return real_openat64()(dirfd, path, flags, mode);
}

/* The mode argument exists only when the file may be created. */
static mode_t mode_arg(int flags, va_list ap)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_common(AT_FDCWD, path, flags, mode, "open", call_open);
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_common(AT_FDCWD, path, flags, mode, "open64", call_open64);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_common(dirfd, path, flags, mode, "openat", call_openat);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    return open_common(dirfd, path, flags, mode, "openat64", call_openat64);
}

int creat(const char *path, mode_t mode)
{
    if (!under_dir(AT_FDCWD, path))
        return real_creat()(path, mode);
    if (should_fail(K_OPEN, K_OPENW, "creat", -1, path))
        return -1;
    int fd = real_creat()(path, mode);
    if (fd >= 0)
        track(fd, path);
    return fd;
}

static FILE *fopen_common(const char *path, const char *mode, const char *func,
                          FILE *(*call)(const char *, const char *))
{
    if (!under_dir(AT_FDCWD, path))
        return call(path, mode);
    int w = strpbrk(mode, "wa+") != NULL;
    if (should_fail(K_OPEN, w ? K_OPENW : K_COUNT, func, -1, path))
        return NULL;
    FILE *f = call(path, mode);
    if (f)
        track(fileno(f), path);
    return f;
}

FILE *fopen(const char *path, const char *mode)
{
    return fopen_common(path, mode, "fopen", real_fopen());
}

FILE *fopen64(const char *path, const char *mode)
{
    return fopen_common(path, mode, "fopen64", real_fopen64());
}

/* ---- reading and writing ---- */

ssize_t read(int fd, void *buf, size_t len)
{
    if (tracked(fd) && should_fail(K_READ, K_COUNT, "read", fd, NULL))
        return -1;
    return real_read()(fd, buf, len);
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
    if (tracked(fd) && should_fail(K_READ, K_COUNT, "pread", fd, NULL))
        return -1;
    return real_pread()(fd, buf, len, off);
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
    if (tracked(fd) && should_fail(K_READ, K_COUNT, "pread64", fd, NULL))
        return -1;
    return real_pread64()(fd, buf, len, off);
}

/* A write that succeeds leaves data that only an fsync makes durable. */
static ssize_t wrote(int fd, ssize_t n)
{
    if (n > 0 && tracked(fd))
        atomic_fetch_or(&fd_state[fd], FD_DIRTY);
    return n;
}

ssize_t write(int fd, const void *buf, size_t len)
{
    if (tracked(fd) && should_fail(K_WRITE, K_COUNT, "write", fd, NULL))
        return -1;
    return wrote(fd, real_write()(fd, buf, len));
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
    if (tracked(fd) && should_fail(K_WRITE, K_COUNT, "pwrite", fd, NULL))
        return -1;
    return wrote(fd, real_pwrite()(fd, buf, len, off));
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
    if (tracked(fd) && should_fail(K_WRITE, K_COUNT, "pwrite64", fd, NULL))
        return -1;
    return wrote(fd, real_pwrite64()(fd, buf, len, off));
}

/* A failed stdio call must look failed to ferror(), as a real read error
 * does: glibc keeps that in the stream's flags. */
static void stream_error(FILE *f)
{
    f->_flags |= _IO_ERR_SEEN;
}

static int tracked_stream(FILE *f)
{
    return f && tracked(fileno(f));
}

char *fgets(char *buf, int size, FILE *f)
{
    if (tracked_stream(f) && should_fail(K_READ, K_COUNT, "fgets", fileno(f), NULL)) {
        stream_error(f);
        return NULL;
    }
    return real_fgets()(buf, size, f);
}

size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
    if (tracked_stream(f) && should_fail(K_READ, K_COUNT, "fread", fileno(f), NULL)) {
        stream_error(f);
        return 0;
    }
    return real_fread()(buf, size, n, f);
}

size_t fwrite(const void *buf, size_t size, size_t n, FILE *f)
{
    if (tracked_stream(f) && should_fail(K_WRITE, K_COUNT, "fwrite", fileno(f), NULL)) {
        stream_error(f);
        return 0;
    }
    size_t done = real_fwrite()(buf, size, n, f);
    if (done > 0 && tracked_stream(f))
        atomic_fetch_or(&fd_state[fileno(f)], FD_DIRTY);
    return done;
}

/* ---- making durable, closing ---- */

static int synced(int fd, int rc)
{
    if (rc == 0 && tracked(fd))
        atomic_fetch_and(&fd_state[fd], ~FD_DIRTY);
    return rc;
}

int fsync(int fd)
{
    if (tracked(fd) && should_fail(K_FSYNC, K_COUNT, "fsync", fd, NULL))
        return -1;
    return synced(fd, real_fsync()(fd));
}

int fdatasync(int fd)
{
    if (tracked(fd) && should_fail(K_FSYNC, K_COUNT, "fdatasync", fd, NULL))
        return -1;
    return synced(fd, real_fdatasync()(fd));
}

/* A failed close still releases the descriptor, as on Linux: the real
 * close runs and its success is hidden. */
int close(int fd)
{
    if (!tracked(fd))
        return real_close()(fd);
    int fail = should_fail(K_CLOSE, K_COUNT, "close", fd, NULL);
    int saved = errno;
    untrack(fd);
    int rc = real_close()(fd);
    if (fail) {
        errno = saved;
        return -1;
    }
    return rc;
}

int fclose(FILE *f)
{
    if (!tracked_stream(f))
        return real_fclose()(f);
    int fd = fileno(f);
    int fail = should_fail(K_CLOSE, K_COUNT, "fclose", fd, NULL);
    int saved = errno;
    untrack(fd);
    int rc = real_fclose()(f);
    if (fail) {
        errno = saved;
        return EOF;
    }
    return rc;
}

/* ---- names in folders ---- */

int rename(const char *from, const char *to)
{
    if ((under_dir(AT_FDCWD, from) || under_dir(AT_FDCWD, to)) &&
        should_fail(K_RENAME, K_COUNT, "rename", -1, to))
        return -1;
    return real_rename()(from, to);
}

int renameat(int fromfd, const char *from, int tofd, const char *to)
{
    if ((under_dir(fromfd, from) || under_dir(tofd, to)) &&
        should_fail(K_RENAME, K_COUNT, "renameat", -1, to))
        return -1;
    return real_renameat()(fromfd, from, tofd, to);
}

int unlink(const char *path)
{
    if (under_dir(AT_FDCWD, path) && should_fail(K_UNLINK, K_COUNT, "unlink", -1, path))
        return -1;
    return real_unlink()(path);
}

int unlinkat(int dirfd, const char *path, int flags)
{
    if (under_dir(dirfd, path) &&
        should_fail(flags & AT_REMOVEDIR ? K_RMDIR : K_UNLINK, K_COUNT, "unlinkat", -1, path))
        return -1;
    return real_unlinkat()(dirfd, path, flags);
}

int mkdir(const char *path, mode_t mode)
{
    if (under_dir(AT_FDCWD, path) && should_fail(K_MKDIR, K_COUNT, "mkdir", -1, path))
        return -1;
    return real_mkdir()(path, mode);
}

int mkdirat(int dirfd, const char *path, mode_t mode)
{
    if (under_dir(dirfd, path) && should_fail(K_MKDIR, K_COUNT, "mkdirat", -1, path))
        return -1;
    return real_mkdirat()(dirfd, path, mode);
}

int rmdir(const char *path)
{
    if (under_dir(AT_FDCWD, path) && should_fail(K_RMDIR, K_COUNT, "rmdir", -1, path))
        return -1;
    return real_rmdir()(path);
}

/* ---- the rest: size, locks, offsets, metadata, walks ---- */

int ftruncate(int fd, off_t len)
{
    if (tracked(fd) && should_fail(K_TRUNCATE, K_COUNT, "ftruncate", fd, NULL))
        return -1;
    return real_ftruncate()(fd, len);
}

int truncate(const char *path, off_t len)
{
    if (under_dir(AT_FDCWD, path) && should_fail(K_TRUNCATE, K_COUNT, "truncate", -1, path))
        return -1;
    return real_truncate()(path, len);
}

int flock(int fd, int op)
{
    if (tracked(fd) && should_fail(K_FLOCK, K_COUNT, "flock", fd, NULL))
        return -1;
    return real_flock()(fd, op);
}

off_t lseek(int fd, off_t off, int whence)
{
    if (tracked(fd) && should_fail(K_SEEK, K_COUNT, "lseek", fd, NULL))
        return -1;
    return real_lseek()(fd, off, whence);
}

int fstat(int fd, struct stat *sb)
{
    if (tracked(fd) && should_fail(K_STAT, K_COUNT, "fstat", fd, NULL))
        return -1;
    return real_fstat()(fd, sb);
}

int stat(const char *path, struct stat *sb)
{
    if (under_dir(AT_FDCWD, path) && should_fail(K_STAT, K_COUNT, "stat", -1, path))
        return -1;
    return real_stat()(path, sb);
}

int lstat(const char *path, struct stat *sb)
{
    if (under_dir(AT_FDCWD, path) && should_fail(K_STAT, K_COUNT, "lstat", -1, path))
        return -1;
    return real_lstat()(path, sb);
}

/* nftw reads folders through glibc's internal calls, which no wrapper
 * sees: a failing walk is the whole call failing, as when a folder of the
 * tree cannot be read. */
int nftw(const char *path, __nftw_func_t fn, int fds, int flags)
{
    if (under_dir(AT_FDCWD, path) && should_fail(K_WALK, K_COUNT, "nftw", -1, path))
        return -1;
    return real_nftw()(path, fn, fds, flags);
}
