/*
 * manifest.c — reading and appending DIR/MANIFEST; see manifest.h.
 *
 * The whole manifest is held in memory as an array sorted by slice, so a
 * builder can ask "is this slice done?" by binary search for each of the
 * (up to hundreds of thousands of) slices of a big build.
 */
#define _GNU_SOURCE
#include "store/manifest.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/path.h"
#include "store/fsutil.h"

static int key_cmp(const rdb_manifest_entry *a, const rdb_manifest_entry *b)
{
    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    return memcmp(a->counts, b->counts, sizeof a->counts);
}

static void slice_key(const rdb_manifest *m, const rdb_slice *s, rdb_manifest_entry *key)
{
    memset(key, 0, sizeof *key);
    key->level = s->level;
    for (int g = 0; g < m->ngroups; g++)
        key->counts[g] = (uint8_t)s->counts[g];
}

/* Index of the first entry not below key. */
static size_t lower_bound(const rdb_manifest *m, const rdb_manifest_entry *key)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (key_cmp(&m->e[mid], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Insert or replace the record of e's slice, keeping the array sorted. */
static int put(rdb_manifest *m, const rdb_manifest_entry *e)
{
    size_t at = lower_bound(m, e);
    if (at < m->n && key_cmp(&m->e[at], e) == 0) {
        m->e[at] = *e;
        return 0;
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        rdb_manifest_entry *ne = realloc(m->e, cap * sizeof *ne);
        if (!ne)
            return -1;
        m->e = ne;
        m->cap = cap;
    }
    memmove(m->e + at + 1, m->e + at, (m->n - at) * sizeof *m->e);
    m->e[at] = *e;
    m->n++;
    return 0;
}

/* Parse one complete line; returns 1 for a slice record, 2 for a deleted
 * level, 0 for anything else. */
/* A decimal number in [lo, hi] at *p, ended by
 * `stop`; advances *p past the stop character. */
static int take_number(char **p, long lo, long hi, char stop, long *out)
{
    char *end;
    if (!isdigit((unsigned char)**p))
        return -1;
    errno = 0;
    long v = strtol(*p, &end, 10);
    if (errno || *end != stop || v < lo || v > hi)
        return -1;
    *out = v;
    *p = end + 1;
    return 0;
}

/* Parse one complete line; returns 1 for a slice record, 2 for a deleted
 * level, 0 for anything else. */
static int parse_line(char *line, const rdb_manifest *m, rdb_manifest_entry *e, int *deleted)
{
    memset(e, 0, sizeof *e);
    char *p = line;
    long v;
    if (strncmp(p, "deleted ", 8) == 0) {
        p += 8;
        if (take_number(&p, 1, m->nbits, '\n', &v) != 0)
            return 0;
        *deleted = (int)v;
        return 2;
    }
    if (strncmp(p, "slice ", 6) != 0)
        return 0;
    p += 6;
    if (take_number(&p, 0, m->nbits, ' ', &v) != 0)
        return 0;
    e->level = (int)v;
    for (int g = 0; g < m->ngroups; g++) {
        if (take_number(&p, 0, RDB_MAX_GROUP_BITS, g == m->ngroups - 1 ? ' ' : ',', &v) != 0)
            return 0;
        e->counts[g] = (uint8_t)v;
    }
    if (m->ngroups == 0 && *p == ' ')
        p++;
    int n = sscanf(p, "%" SCNu64 " %" SCNx64 " %" SCNu64 " %lf", &e->entries, &e->checksum,
                   &e->bytes, &e->seconds);
    return n >= 3 ? 1 : 0;
}

rdb_status rdb_manifest_load(rdb_manifest *m, const char *dir, int ngroups, int nbits,
                             rdb_error *err)
{
    memset(m, 0, sizeof *m);
    m->fd = -1;
    m->ngroups = ngroups;
    m->nbits = nbits;
    char path[RDB_PATH_MAX];
    rdb_status pst = rdb_path_format(path, sizeof path, err, "%s/MANIFEST", dir);
    if (pst != RDB_OK)
        return pst;
    /* the manifest is appended to: never through a symbolic link, and a
     * FIFO in its place must not block */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT)
            return RDB_OK;
        if (errno == ELOOP)
            return rdb_fail(err, RDB_E_CORRUPT, "'%s' is a symbolic link, not a manifest", path);
        return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    }
    FILE *f = NULL;
    pst = rdb_check_regular(fd, path, err);
    if (pst != RDB_OK || !(f = fdopen(fd, "r"))) {
        close(fd);
        return pst != RDB_OK ? pst : rdb_fail_errno(err, RDB_E_IO, "cannot read '%s'", path);
    }
    char line[512];
    int continued = 0; /* the last fragment fgets gave did not end its line */
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        int skip = continued;
        continued = len == 0 || line[len - 1] != '\n';
        if (skip || continued)
            continue; /* a line cut short by a crash, or too long to be ours */
        rdb_manifest_entry e;
        int level;
        int kind = parse_line(line, m, &e, &level);
        if (kind == 2) {
            m->deleted |= 1ULL << (level - 1);
        } else if (kind == 1) {
            e.seq = m->seq++;
            if (put(m, &e) != 0) {
                fclose(f);
                rdb_manifest_free(m);
                return rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", path);
            }
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        rdb_manifest_free(m);
        return rdb_fail_errno(err, RDB_E_IO, "cannot read '%s'", path);
    }
    return RDB_OK;
}

const rdb_manifest_entry *rdb_manifest_find(const rdb_manifest *m, const rdb_slice *s)
{
    rdb_manifest_entry key;
    slice_key(m, s, &key);
    size_t at = lower_bound(m, &key);
    return at < m->n && key_cmp(&m->e[at], &key) == 0 ? &m->e[at] : NULL;
}

void rdb_manifest_forget(rdb_manifest *m, const rdb_slice *s)
{
    rdb_manifest_entry key;
    slice_key(m, s, &key);
    size_t at = lower_bound(m, &key);
    if (at < m->n && key_cmp(&m->e[at], &key) == 0) {
        memmove(m->e + at, m->e + at + 1, (m->n - at - 1) * sizeof *m->e);
        m->n--;
    }
}

/* Append one line durably, first ending a line a crash may have cut. */
static rdb_status append_line(rdb_manifest *m, const char *dir, const char *line, size_t len,
                              rdb_error *err)
{
    char path[RDB_PATH_MAX];
    rdb_status pst = rdb_path_format(path, sizeof path, err, "%s/MANIFEST", dir);
    if (pst != RDB_OK)
        return pst;
    if (m->fd < 0) {
        m->fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
        if (m->fd < 0)
            return rdb_fail_errno(err, rdb_io_status(errno), "cannot open '%s'", path);
        pst = rdb_check_regular(m->fd, path, err);
        if (pst != RDB_OK) {
            close(m->fd);
            m->fd = -1;
            return pst;
        }
        /* Unless the last byte is known to end a line, a new record could
         * be glued to a line cut short, and both would be lost. */
        rdb_status st = RDB_OK;
        off_t end = lseek(m->fd, 0, SEEK_END);
        char last = '\n';
        if (end < 0)
            st = rdb_fail_errno(err, RDB_E_IO, "cannot read '%s'", path);
        else if (end > 0)
            st = rdb_pread_all(m->fd, &last, 1, (uint64_t)end - 1, path, err);
        if (st == RDB_OK && last != '\n')
            st = rdb_write_all(m->fd, "\n", 1, path, err);
        if (st != RDB_OK) {
            /* the next append opens the file and checks its end again */
            close(m->fd);
            m->fd = -1;
            return st;
        }
    }
    rdb_status st = rdb_write_all(m->fd, line, len, path, err);
    if (st != RDB_OK)
        return st;
    if (fsync(m->fd) != 0)
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot fsync '%s'", path);
    return RDB_OK;
}

rdb_status rdb_manifest_append(rdb_manifest *m, const char *dir, const rdb_slice *s,
                               uint64_t checksum, uint64_t bytes, double seconds, rdb_error *err)
{
    char line[512];
    int n = snprintf(line, sizeof line, "slice %d ", s->level);
    for (int g = 0; g < m->ngroups; g++)
        n += snprintf(line + n, sizeof line - (size_t)n, g == m->ngroups - 1 ? "%d" : "%d,",
                      s->counts[g]);
    n += snprintf(line + n, sizeof line - (size_t)n,
                  " %" PRIu64 " %016" PRIx64 " %" PRIu64 " %.3f\n", s->size, checksum, bytes,
                  seconds);
    rdb_status st = append_line(m, dir, line, (size_t)n, err);
    if (st != RDB_OK)
        return st;
    rdb_manifest_entry e;
    slice_key(m, s, &e);
    e.entries = s->size;
    e.checksum = checksum;
    e.bytes = bytes;
    e.seconds = seconds;
    e.seq = m->seq++;
    if (put(m, &e) != 0)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    return RDB_OK;
}

rdb_status rdb_manifest_append_deleted(rdb_manifest *m, const char *dir, int level, rdb_error *err)
{
    if (level < 1 || level > m->nbits)
        return rdb_fail(err, RDB_E_INPUT, "level %d cannot be deleted", level);
    char line[64];
    int n = snprintf(line, sizeof line, "deleted %d\n", level);
    rdb_status st = append_line(m, dir, line, (size_t)n, err);
    if (st == RDB_OK)
        m->deleted |= 1ULL << (level - 1);
    return st;
}

void rdb_manifest_free(rdb_manifest *m)
{
    if (m->fd >= 0)
        close(m->fd);
    free(m->e);
    memset(m, 0, sizeof *m);
    m->fd = -1;
}
