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
#include "store/fsutil.h"

/* A record is a few dozen bytes; a file far larger is not one of ours. */
#define DAMAGE_MAX_BYTES (1 << 20)

static rdb_status damage_path(const char *dir, char *path, size_t size, rdb_error *err)
{
    return rdb_path_format(path, size, err, "%s/DAMAGED", dir);
}

rdb_status rdb_damage_note(const char *dir, const rdb_slice *s, int ngroups, rdb_error *err)
{
    char path[RDB_PATH_MAX], line[256];
    rdb_status st = damage_path(dir, path, sizeof path, err);
    if (st != RDB_OK)
        return st;
    /* a line of its own even after a line cut short by a crash */
    int n = snprintf(line, sizeof line, "\nslice %d ", s->level);
    for (int g = 0; g < ngroups; g++)
        n += snprintf(line + n, sizeof line - (size_t)n, g ? ",%d" : "%d", s->counts[g]);
    n += snprintf(line + n, sizeof line - (size_t)n, "\n");
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
    if (fd < 0)
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot open '%s'", path);
    st = rdb_check_regular(fd, path, err);
    if (st == RDB_OK)
        st = rdb_write_all(fd, line, (size_t)n, path, err);
    if (st == RDB_OK && fsync(fd) != 0)
        st = rdb_fail_errno(err, rdb_io_status(errno), "cannot sync '%s'", path);
    close(fd);
    if (st == RDB_OK)
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
    char *text = malloc(DAMAGE_MAX_BYTES + 1);
    size_t len = 0;
    st = text ? rdb_read_small_file(fd, path, text, DAMAGE_MAX_BYTES, &len, err)
              : rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", path);
    close(fd);
    if (st != RDB_OK) {
        free(text);
        return st;
    }
    text[len] = '\0';
    int cap = 0;
    for (char *line = text; line && *line && st == RDB_OK;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        rdb_slice s;
        if (parse_line(line, ngroups, nbits, &s)) {
            if (*n == cap) {
                cap = cap ? 2 * cap : 16;
                rdb_slice *grown = realloc(*out, (size_t)cap * sizeof *grown);
                if (!grown)
                    st = rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", path);
                else
                    *out = grown;
            }
            if (st == RDB_OK)
                (*out)[(*n)++] = s;
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
    if (st != RDB_OK) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return st;
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
