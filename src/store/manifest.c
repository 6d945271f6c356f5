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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/invariant.h"
#include "common/path.h"
#include "common/fsutil.h"

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
        key->counts[g] = (uint16_t)s->counts[g];
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

/* What the binary searches and the merge of a batch rely on: the records
 * sorted by slice, one a slice, each numbered (seq) before the number the
 * next record gets. */
static int records_in_order(const rdb_manifest *m)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->e[i].seq >= m->seq || (i > 0 && key_cmp(&m->e[i - 1], &m->e[i]) >= 0))
            return 0;
    return 1;
}

/* Insert or replace the record of e's slice, keeping the array sorted. */
static int put(rdb_manifest *m, const rdb_manifest_entry *e)
{
    size_t at = lower_bound(m, e);
    if (at < m->n && key_cmp(&m->e[at], e) == 0) {
        m->e[at] = *e;
        RDB_INVARIANT(records_in_order(m), "the manifest's records sorted, one a slice");
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
    RDB_INVARIANT(records_in_order(m), "the manifest's records sorted, one a slice");
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
 * level, 3 for a dropped one, 0 for anything else. */
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
    if (strncmp(p, "dropped ", 8) == 0) {
        p += 8;
        if (take_number(&p, 0, m->nbits < 63 ? m->nbits : 63, '\n', &v) != 0)
            return 0;
        *deleted = (int)v;
        return 3;
    }
    if (strncmp(p, "slice ", 6) != 0)
        return 0;
    p += 6;
    if (take_number(&p, 0, m->nbits, ' ', &v) != 0)
        return 0;
    e->level = (int)v;
    for (int g = 0; g < m->ngroups; g++) {
        /* the first count may be a sparse database's slice of its level:
         * 4x5's levels have up to 37 (a record of slice 17 was once read
         * as no record, and the slice built again at every resume) */
        const long most = g == 0 ? RDB_MANIFEST_MAX_PART : RDB_MAX_GROUP_BITS;
        if (take_number(&p, 0, most, g == m->ngroups - 1 ? ' ' : ',', &v) != 0)
            return 0;
        e->counts[g] = (uint16_t)v;
    }
    if (m->ngroups == 0 && *p == ' ')
        p++;
    int n = sscanf(p, "%" SCNu64 " %" SCNx64 " %" SCNu64 " %lf", &e->entries, &e->checksum,
                   &e->bytes, &e->seconds);
    return n >= 3 ? 1 : 0;
}

/* Whether a complete line that parse_line took for no record is the
 * record of a slice of another layout: "slice", a level, counts, then an
 * entry count, a checksum and a size, but a level beyond the database's
 * or another number of counts than its groups. A line cut short by a
 * crash never is (it lacks the fields after its counts), nor is junk. */
static int other_layout(const char *line, const rdb_manifest *m)
{
    if (strncmp(line, "slice ", 6) != 0 || !isdigit((unsigned char)line[6]))
        return 0;
    char *p;
    errno = 0;
    const long level = strtol(line + 6, &p, 10);
    if (errno || *p++ != ' ')
        return 0;
    int counts = 1;
    for (; *p && *p != ' '; p++) {
        if (*p == ',')
            counts++;
        else if (!isdigit((unsigned char)*p))
            return 0;
    }
    uint64_t entries, checksum, bytes;
    if (sscanf(p, " %" SCNu64 " %" SCNx64 " %" SCNu64, &entries, &checksum, &bytes) != 3)
        return 0;
    return level > m->nbits || counts != (m->ngroups ? m->ngroups : 1);
}

/* The file appends of part `part` go to: DIR/MANIFEST or DIR/MANIFEST.<n>. */
static rdb_status part_path(const char *dir, int part, char *path, size_t size, rdb_error *err)
{
    if (part == 0)
        return rdb_path_format(path, size, err, "%s/MANIFEST", dir);
    return rdb_path_format(path, size, err, "%s/MANIFEST.%d", dir, part);
}

/* Read the records of one file into m; a missing file adds nothing. */
static rdb_status load_file(rdb_manifest *m, const char *path, rdb_error *err)
{
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
    rdb_status pst = rdb_check_regular(fd, path, err);
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
        } else if (kind == 3) {
            m->dropped |= 1ULL << level;
        } else if (kind == 0 && other_layout(line, m)) {
            m->other_layout++;
        } else if (kind == 1) {
            e.seq = m->seq++;
            if (put(m, &e) != 0) {
                fclose(f);
                return rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", path);
            }
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return rdb_fail_errno(err, RDB_E_IO, "cannot read '%s'", path);
    return RDB_OK;
}

/* The part number of a file name "MANIFEST.<n>", n > 0, or 0. */
static int part_number(const char *name)
{
    if (strncmp(name, "MANIFEST.", 9) != 0 || !isdigit((unsigned char)name[9]) || name[9] == '0')
        return 0;
    char *end;
    errno = 0;
    long n = strtol(name + 9, &end, 10);
    return errno || *end || n > 1 << 30 ? 0 : (int)n;
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The part numbers in dir, sorted, in *parts (freed by the caller). */
static rdb_status list_parts(const char *dir, int **parts, int *n, rdb_error *err)
{
    *parts = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? RDB_OK
                               : rdb_fail_errno(err, RDB_E_IO, "cannot list folder '%s'", dir);
    int cap = 0;
    struct dirent *de;
    rdb_status st = RDB_OK;
    while ((de = readdir(d))) {
        int k = part_number(de->d_name);
        if (k == 0)
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            int *grown = realloc(*parts, (size_t)cap * sizeof *grown);
            if (!grown) {
                st = rdb_fail(err, RDB_E_NOMEM, "out of memory listing '%s'", dir);
                break;
            }
            *parts = grown;
        }
        (*parts)[(*n)++] = k;
    }
    closedir(d);
    if (st == RDB_OK && *n > 1)
        qsort(*parts, (size_t)*n, sizeof **parts, int_cmp);
    return st;
}

/* Whether this thread may use m now: not while the writer holds it
 * (writer.h), unless this is the writer (RDB_INVARIANT). */
static int manifest_mine(const rdb_manifest *m)
{
    return !__atomic_load_n(&m->lent, __ATOMIC_ACQUIRE) || pthread_equal(pthread_self(), m->writer);
}

#define MANIFEST_MINE(m) RDB_INVARIANT(manifest_mine(m), "the manifest is the writer's between a submit and the drain")

rdb_status rdb_manifest_load(rdb_manifest *m, const char *dir, int ngroups, int nbits,
                             rdb_error *err)
{
    memset(m, 0, sizeof *m);
    m->fd = -1;
    m->ngroups = ngroups;
    m->nbits = nbits;
    char path[RDB_PATH_MAX];
    rdb_status st = part_path(dir, 0, path, sizeof path, err);
    if (st == RDB_OK)
        st = load_file(m, path, err);
    int *parts = NULL, nparts = 0;
    if (st == RDB_OK)
        st = list_parts(dir, &parts, &nparts, err);
    for (int i = 0; i < nparts && st == RDB_OK; i++) {
        st = part_path(dir, parts[i], path, sizeof path, err);
        if (st == RDB_OK)
            st = load_file(m, path, err);
    }
    free(parts);
    /* Records of slices, none of this layout: PARAMS no longer describes
     * the files (its groups or board changed), and reading on would take
     * every slice for undone. (A few such lines beside records of this
     * layout name nothing and are ignored, as junk is.) */
    if (st == RDB_OK && m->other_layout && m->n == 0)
        st = rdb_fail(err, RDB_E_CORRUPT,
                      "'%s/MANIFEST' records %d slices, none of the layout PARAMS describes (%d "
                      "groups, levels 0..%d): PARAMS was changed after the build began; put it "
                      "back as it was",
                      dir, m->other_layout, m->ngroups, m->nbits);
    if (st != RDB_OK) {
        rdb_manifest_free(m);
        return st;
    }
    m->parts_found = nparts;
    return RDB_OK;
}

const rdb_manifest_entry *rdb_manifest_find(const rdb_manifest *m, const rdb_slice *s)
{
    MANIFEST_MINE(m);
    rdb_manifest_entry key;
    slice_key(m, s, &key);
    size_t at = lower_bound(m, &key);
    return at < m->n && key_cmp(&m->e[at], &key) == 0 ? &m->e[at] : NULL;
}

void rdb_manifest_forget(rdb_manifest *m, const rdb_slice *s)
{
    MANIFEST_MINE(m);
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
    rdb_status pst = part_path(dir, m->part, path, sizeof path, err);
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

/* One record as its line; returns its length. */
static int format_entry(const rdb_manifest *m, const rdb_manifest_entry *e, char *line,
                        size_t size)
{
    int n = snprintf(line, size, "slice %d ", e->level);
    for (int g = 0; g < m->ngroups; g++)
        n += snprintf(line + n, size - (size_t)n, g == m->ngroups - 1 ? "%d" : "%d,",
                      e->counts[g]);
    n += snprintf(line + n, size - (size_t)n, " %" PRIu64 " %016" PRIx64 " %" PRIu64 " %.3f\n",
                  e->entries, e->checksum, e->bytes, e->seconds);
    return n;
}

rdb_status rdb_manifest_append(rdb_manifest *m, const char *dir, const rdb_slice *s,
                               uint64_t checksum, uint64_t bytes, double seconds, rdb_error *err)
{
    MANIFEST_MINE(m);
    rdb_manifest_entry e;
    slice_key(m, s, &e);
    e.entries = s->size;
    e.checksum = checksum;
    e.bytes = bytes;
    e.seconds = seconds;
    return rdb_manifest_append_entries(m, dir, &e, 1, err);
}

/* Key order, then record order: the last record of a slice last. */
static int key_seq_cmp(const void *a, const void *b)
{
    const rdb_manifest_entry *x = a, *y = b;
    int c = key_cmp(x, y);
    if (c)
        return c;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

rdb_status rdb_manifest_put(rdb_manifest *m, const rdb_manifest_entry *e, size_t n,
                            rdb_error *err)
{
    MANIFEST_MINE(m);
    if (n == 1) {
        rdb_manifest_entry copy = e[0];
        copy.seq = m->seq++;
        return put(m, &copy) == 0 ? RDB_OK : rdb_fail(err, RDB_E_NOMEM, "out of memory");
    }
    if (n == 0)
        return RDB_OK;
    /* A batch (a level's records from other processes, in no useful
     * order) is sorted and merged in one pass: inserting each would move
     * the records above it every time. */
    if (m->n + n > m->cap) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap < m->n + n)
            cap *= 2;
        rdb_manifest_entry *ne = realloc(m->e, cap * sizeof *ne);
        if (!ne)
            return rdb_fail(err, RDB_E_NOMEM, "out of memory");
        m->e = ne;
        m->cap = cap;
    }
    rdb_manifest_entry *batch = malloc(n * sizeof *batch);
    if (!batch)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        batch[i] = e[i];
        batch[i].seq = m->seq++;
    }
    qsort(batch, n, sizeof *batch, key_seq_cmp);
    size_t k = 0; /* the batch with each slice once, its last record */
    for (size_t i = 0; i < n; i++) {
        if (k > 0 && key_cmp(&batch[k - 1], &batch[i]) == 0)
            batch[k - 1] = batch[i];
        else
            batch[k++] = batch[i];
    }
    /* merge from the back into room for both; a slice in both keeps the
     * batch's record, the later one */
    size_t i = m->n, j = k, out = m->n + k;
    while (j > 0) {
        if (i > 0 && key_cmp(&m->e[i - 1], &batch[j - 1]) > 0) {
            m->e[--out] = m->e[--i];
        } else {
            if (i > 0 && key_cmp(&m->e[i - 1], &batch[j - 1]) == 0)
                i--;
            m->e[--out] = batch[--j];
        }
    }
    /* records replaced leave a gap below the merged ones: close it */
    if (out > i)
        memmove(m->e + i, m->e + out, (m->n + k - out) * sizeof *m->e);
    m->n = i + (m->n + k - out);
    free(batch);
    RDB_INVARIANT(records_in_order(m), "a batch merged into the manifest keeps it sorted, one a slice");
    return RDB_OK;
}

/* The lines of e[0..n-1] in one buffer (freed by the caller). */
static char *format_entries(const rdb_manifest *m, const rdb_manifest_entry *e, size_t n,
                            size_t *len)
{
    const size_t room = 512;
    char *text = malloc(n * room + 1);
    if (!text)
        return NULL;
    *len = 0;
    for (size_t i = 0; i < n; i++)
        *len += (size_t)format_entry(m, &e[i], text + *len, room);
    return text;
}

rdb_status rdb_manifest_append_entries(rdb_manifest *m, const char *dir,
                                       const rdb_manifest_entry *e, size_t n, rdb_error *err)
{
    MANIFEST_MINE(m);
    if (n == 0)
        return RDB_OK;
    size_t len;
    char *text = format_entries(m, e, n, &len);
    if (!text)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    rdb_status st = append_line(m, dir, text, len, err);
    free(text);
    return st == RDB_OK ? rdb_manifest_put(m, e, n, err) : st;
}

rdb_status rdb_manifest_remove_parts(const char *dir, rdb_error *err)
{
    int *parts, nparts;
    rdb_status st = list_parts(dir, &parts, &nparts, err);
    for (int i = 0; i < nparts && st == RDB_OK; i++) {
        char path[RDB_PATH_MAX];
        st = part_path(dir, parts[i], path, sizeof path, err);
        if (st == RDB_OK && unlink(path) != 0 && errno != ENOENT)
            st = rdb_fail_errno(err, rdb_io_status(errno), "cannot remove '%s'", path);
    }
    free(parts);
    if (st == RDB_OK && nparts > 0) {
        char path[RDB_PATH_MAX];
        st = part_path(dir, 0, path, sizeof path, err);
        if (st == RDB_OK)
            st = rdb_fsync_parent(path, err);
    }
    return st;
}

rdb_status rdb_manifest_compact(rdb_manifest *m, const char *dir, rdb_error *err)
{
    MANIFEST_MINE(m);
    size_t len;
    char *text = format_entries(m, m->e, m->n, &len);
    if (!text)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    /* the deleted levels after every slice, as a build records them */
    char *grown = realloc(text, len + 2 * 64 * 16 + 1);
    if (!grown) {
        free(text);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    }
    text = grown;
    for (int level = 1; level <= m->nbits; level++)
        if (rdb_level_deleted(m->deleted, level))
            len += (size_t)snprintf(text + len, 16, "deleted %d\n", level);
    for (int level = 0; level <= m->nbits && level < 64; level++)
        if (m->dropped >> level & 1)
            len += (size_t)snprintf(text + len, 16, "dropped %d\n", level);
    rdb_manifest_close(m);
    char path[RDB_PATH_MAX];
    rdb_status st = part_path(dir, 0, path, sizeof path, err);
    if (st == RDB_OK)
        st = rdb_write_file_atomic(path, text, len, err);
    free(text);
    return st == RDB_OK ? rdb_manifest_remove_parts(dir, err) : st;
}

void rdb_manifest_close(rdb_manifest *m)
{
    MANIFEST_MINE(m);
    if (m->fd >= 0)
        close(m->fd);
    m->fd = -1;
}

rdb_status rdb_manifest_append_deleted(rdb_manifest *m, const char *dir, int level, rdb_error *err)
{
    MANIFEST_MINE(m);
    if (level < 1 || level > m->nbits)
        return rdb_fail(err, RDB_E_INPUT, "level %d cannot be deleted", level);
    char line[64];
    int n = snprintf(line, sizeof line, "deleted %d\n", level);
    rdb_status st = append_line(m, dir, line, (size_t)n, err);
    if (st == RDB_OK)
        m->deleted |= 1ULL << (level - 1);
    return st;
}

rdb_status rdb_manifest_append_dropped(rdb_manifest *m, const char *dir, int level, rdb_error *err)
{
    MANIFEST_MINE(m);
    if (level < 0 || level > m->nbits || level > 63)
        return rdb_fail(err, RDB_E_INPUT, "level %d cannot be dropped", level);
    char line[64];
    int n = snprintf(line, sizeof line, "dropped %d\n", level);
    rdb_status st = append_line(m, dir, line, (size_t)n, err);
    if (st == RDB_OK)
        m->dropped |= 1ULL << level;
    return st;
}

void rdb_manifest_free(rdb_manifest *m)
{
    MANIFEST_MINE(m);
    if (m->fd >= 0)
        close(m->fd);
    free(m->e);
    memset(m, 0, sizeof *m);
    m->fd = -1;
}
