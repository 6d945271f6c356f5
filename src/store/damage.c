/*
 * damage.c — the record of damaged slices; see damage.h.
 */
#include "store/damage.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/path.h"
#include "common/fsutil.h"

/* A record is a few dozen bytes: a longer line is none of ours, and is
 * skipped whatever its length. */
#define DAMAGE_LINE_MAX 256

static rdb_status damage_path(const char *dir, char *path, size_t size, rdb_error *err)
{
    return rdb_path_format(path, size, err, "%s/DAMAGED", dir);
}

/* Call visit on each line of the open file fd (without its newline), a
 * block at a time, so that a file of any size is read in a little
 * memory (a lookup's thread may call this: a small block on its stack);
 * lines longer than DAMAGE_LINE_MAX are skipped. Stops at the first line
 * visit returns non-zero for, and says so in *stopped. */
typedef int (*line_fn)(void *ctx, const char *line);

static rdb_status each_line(int fd, const char *path, line_fn visit, void *ctx, int *stopped,
                            rdb_error *err)
{
    char block[1 << 13], line[DAMAGE_LINE_MAX + 1];
    size_t len = 0;
    int overlong = 0;
    *stopped = 0;
    for (;;) {
        const ssize_t got = read(fd, block, sizeof block);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return rdb_fail_errno(err, rdb_io_status(errno), "cannot read '%s'", path);
        }
        for (ssize_t i = 0; i < got; i++) {
            if (block[i] != '\n') {
                if (len < DAMAGE_LINE_MAX)
                    line[len++] = block[i];
                else
                    overlong = 1;
                continue;
            }
            line[len] = '\0';
            if (!overlong && (*stopped = visit(ctx, line)))
                return RDB_OK;
            len = 0;
            overlong = 0;
        }
        if (got == 0) {
            line[len] = '\0';
            if (len && !overlong)
                *stopped = visit(ctx, line);
            return RDB_OK;
        }
    }
}

static int same_line(void *ctx, const char *line)
{
    return strcmp(line, ctx) == 0;
}

rdb_status rdb_damage_note(const char *dir, const rdb_slice *s, int ngroups, rdb_error *err)
{
    char path[RDB_PATH_MAX], line[DAMAGE_LINE_MAX];
    rdb_status st = damage_path(dir, path, sizeof path, err);
    if (st != RDB_OK)
        return st;
    /* a line of its own even after a line cut short by a crash */
    int n = snprintf(line, sizeof line, "\nslice %d ", s->level);
    for (int g = 0; g < ngroups; g++)
        n += snprintf(line + n, sizeof line - (size_t)n, g ? ",%d" : "%d", s->counts[g]);
    n += snprintf(line + n, sizeof line - (size_t)n, "\n");
    int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
    if (fd < 0)
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot open '%s'", path);
    st = rdb_check_regular(fd, path, err);
    /* once a slice: every lookup of a damaged slice reports it (a server
     * thousands of times a second), and a record asks for a check, which
     * one line does */
    int known = 0;
    if (st == RDB_OK) {
        line[n - 1] = '\0';
        st = each_line(fd, path, same_line, line + 1, &known, err);
        line[n - 1] = '\n';
    }
    if (st == RDB_OK && !known) {
        st = rdb_write_all(fd, line, (size_t)n, path, err);
        if (st == RDB_OK && fsync(fd) != 0)
            st = rdb_fail_errno(err, rdb_io_status(errno), "cannot sync '%s'", path);
    }
    close(fd);
    if (st == RDB_OK && !known)
        st = rdb_fsync_parent(path, err);
    return st;
}

/* One line: 1 and *s for a slice of the database, else 0. */
static int parse_line(const char *line, int ngroups, int nbits, rdb_slice *s)
{
    memset(s, 0, sizeof *s);
    int level, used = 0;
    if (sscanf(line, "slice %d %n", &level, &used) != 1 || used == 0 || level < 0 || level > nbits)
        return 0;
    s->level = level;
    const char *p = line + used;
    for (int g = 0; g < ngroups; g++) {
        char *end;
        long k = strtol(p, &end, 10);
        if (end == p || k < 0 || k > 64 || (g + 1 < ngroups ? *end != ',' : *end != '\0'))
            return 0;
        s->counts[g] = (int)k;
        p = end + (g + 1 < ngroups);
    }
    return 1;
}

typedef struct {
    int ngroups, nbits;
    rdb_slice *slices;
    int n, cap, nomem;
} damage_list;

/* Add a line's slice to the list, once. */
static int add_slice(void *ctx, const char *line)
{
    damage_list *d = ctx;
    rdb_slice s;
    if (!parse_line(line, d->ngroups, d->nbits, &s))
        return 0;
    for (int i = 0; i < d->n; i++)
        if (d->slices[i].level == s.level &&
            memcmp(d->slices[i].counts, s.counts, sizeof s.counts) == 0)
            return 0;
    if (d->n == d->cap) {
        const int cap = d->cap ? 2 * d->cap : 16;
        rdb_slice *grown = realloc(d->slices, (size_t)cap * sizeof *grown);
        if (!grown)
            return d->nomem = 1;
        d->slices = grown;
        d->cap = cap;
    }
    d->slices[d->n++] = s;
    return 0;
}

rdb_status rdb_damage_load(const char *dir, int ngroups, int nbits, rdb_slice **out, int *n,
                           rdb_error *err)
{
    *out = NULL;
    *n = 0;
    char path[RDB_PATH_MAX];
    rdb_status st = damage_path(dir, path, sizeof path, err);
    if (st != RDB_OK)
        return st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT)
            return RDB_OK;
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot open '%s'", path);
    }
    damage_list d = {.ngroups = ngroups, .nbits = nbits};
    int stopped;
    st = rdb_check_regular(fd, path, err);
    if (st == RDB_OK)
        st = each_line(fd, path, add_slice, &d, &stopped, err);
    close(fd);
    if (st == RDB_OK && d.nomem)
        st = rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", path);
    if (st != RDB_OK) {
        free(d.slices);
        return st;
    }
    *out = d.slices;
    *n = d.n;
    return RDB_OK;
}

rdb_status rdb_damage_clear(const char *dir, rdb_error *err)
{
    char path[RDB_PATH_MAX];
    rdb_status st = damage_path(dir, path, sizeof path, err);
    if (st != RDB_OK)
        return st;
    if (unlink(path) != 0) {
        if (errno == ENOENT)
            return RDB_OK;
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot remove '%s'", path);
    }
    return rdb_fsync_parent(path, err);
}
