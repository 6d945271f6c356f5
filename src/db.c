/*
 * db.c — database directory: parameters, setup, slice paths, manifest and
 * lock; see db.h.
 */
#define _GNU_SOURCE
#include "db.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "checksum.h"
#include "fsutil.h"

/* ---- parameters ---- */

rdb_status rdb_params_write(const char *dir, const rdb_params *p, rdb_error *err)
{
    char path[4096], text[1024];
    snprintf(path, sizeof path, "%s/PARAMS", dir);
    int n = snprintf(text, sizeof text,
                     "retrodb-params 1\n"
                     "game dots\n"
                     "board %dx%d\n"
                     "variant %s\n"
                     "start 0x%016" PRIx64 "\n"
                     "full-value %d\n"
                     "groups %d\n"
                     "zstd-level %d\n",
                     p->rows, p->cols, p->variant[0] ? p->variant : "custom", p->start,
                     p->full_value, p->ngroups, p->zstd_level);
    return rdb_write_file_atomic(path, text, (size_t)n, err);
}

rdb_status rdb_params_read(const char *dir, rdb_params *p, rdb_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/PARAMS", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return rdb_fail(err, RDB_E_MISSING, "'%s' is not a retrodb database (no PARAMS file)", dir);
        return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    }
    memset(p, 0, sizeof *p);
    p->zstd_level = -1000;
    int seen = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char key[64], val[128];
        if (sscanf(line, "%63s %127s", key, val) != 2)
            continue;
        if (strcmp(key, "retrodb-params") == 0 && strcmp(val, "1") == 0)
            seen |= 1;
        else if (strcmp(key, "game") == 0 && strcmp(val, "dots") == 0) {
            p->game = RDB_GAME_DOTS;
            seen |= 2;
        } else if (strcmp(key, "board") == 0 && sscanf(val, "%dx%d", &p->rows, &p->cols) == 2)
            seen |= 4;
        else if (strcmp(key, "variant") == 0)
            snprintf(p->variant, sizeof p->variant, "%.31s", val);
        else if (strcmp(key, "start") == 0 && sscanf(val, "%" SCNx64, &p->start) == 1)
            seen |= 8;
        else if (strcmp(key, "full-value") == 0 && sscanf(val, "%d", &p->full_value) == 1)
            seen |= 16;
        else if (strcmp(key, "groups") == 0 && sscanf(val, "%d", &p->ngroups) == 1)
            seen |= 32;
        else if (strcmp(key, "zstd-level") == 0 && sscanf(val, "%d", &p->zstd_level) == 1)
            seen |= 64;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return rdb_fail_errno(err, RDB_E_IO, "cannot read '%s'", path);
    if (seen != 127)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged or from another program", path);
    return RDB_OK;
}

int rdb_params_diff(const rdb_params *a, const rdb_params *b, char *buf, size_t bufsize)
{
    if (a->game != b->game)
        return snprintf(buf, bufsize, "game differs"), 1;
    if (a->rows != b->rows || a->cols != b->cols)
        return snprintf(buf, bufsize, "board %dx%d differs from %dx%d", a->rows, a->cols, b->rows,
                        b->cols), 1;
    if (a->start != b->start)
        return snprintf(buf, bufsize, "start position differs (variant %s, not %s)",
                        a->variant, b->variant), 1;
    if (a->full_value != b->full_value)
        return snprintf(buf, bufsize, "value of the full position %d differs from %d",
                        a->full_value, b->full_value), 1;
    if (a->ngroups && b->ngroups && a->ngroups != b->ngroups)
        return snprintf(buf, bufsize, "number of groups %d differs from %d", a->ngroups,
                        b->ngroups), 1;
    if (a->zstd_level != b->zstd_level)
        return snprintf(buf, bufsize, "zstd level %d differs from %d", a->zstd_level,
                        b->zstd_level), 1;
    return 0;
}

/* ---- setup ---- */

rdb_status rdb_db_setup(rdb_db *db, const char *dir, rdb_params *params,
                        uint64_t max_slice_bytes, rdb_error *err)
{
    memset(db, 0, sizeof *db);
    snprintf(db->dir, sizeof db->dir, "%s", dir);
    dots_board board;
    rdb_status st = dots_board_init(&board, params->rows, params->cols, err);
    if (st != RDB_OK)
        return st;
    if (params->start & ~dots_all_lines(&board))
        return rdb_fail(err, RDB_E_INPUT, "start position has lines outside the %dx%d board",
                        params->rows, params->cols);
    if (params->full_value < -100 || params->full_value > 100)
        return rdb_fail(err, RDB_E_INPUT, "value of the full position %d is out of range",
                        params->full_value);
    dots_game_init(&db->game, &board, params->start, (int8_t)params->full_value);
    st = rdb_layout_plan_groups(&db->game.u, params->ngroups, max_slice_bytes, &db->plan, err);
    if (st != RDB_OK)
        return st;
    params->ngroups = db->plan.ngroups;
    db->params = *params;
    st = rdb_layout_build(&db->game.u, &db->plan, &db->lay, err);
    if (st != RDB_OK)
        return st;
    dots_rules_init(&db->rules, &db->game, &db->plan);

    char desc[512];
    int n = snprintf(desc, sizeof desc, "dots %d %d %" PRIx64 " %d %d:", params->rows,
                     params->cols, params->start, params->full_value, db->plan.ngroups);
    for (int g = 0; g < db->plan.ngroups; g++)
        n += snprintf(desc + n, sizeof desc - (size_t)n, " %d", db->plan.size[g]);
    db->hash = rdb_checksum64(desc, (size_t)n, 0);
    db->hash = rdb_checksum64(db->plan.order, (size_t)db->game.nbits, db->hash);
    return RDB_OK;
}

void rdb_db_free(rdb_db *db)
{
    rdb_layout_free(&db->lay);
}

rdb_status rdb_db_open(rdb_db *db, const char *dir, rdb_error *err)
{
    rdb_params p;
    rdb_status st = rdb_params_read(dir, &p, err);
    if (st != RDB_OK)
        return st;
    if (p.ngroups < 0 || p.ngroups > RDB_MAX_GROUPS)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s/PARAMS' is damaged: bad group count", dir);
    if (p.ngroups == 0) {
        /* only a database with nothing to build (a full start) has no groups */
        dots_board b;
        if (dots_board_init(&b, p.rows, p.cols, err) != RDB_OK || p.start != dots_all_lines(&b))
            return rdb_fail(err, RDB_E_CORRUPT, "'%s/PARAMS' is damaged: bad group count", dir);
    }
    st = rdb_db_setup(db, dir, &p, UINT64_MAX, err);
    if (st == RDB_E_INPUT)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s/PARAMS' is damaged: %s", dir, err->msg);
    return st;
}

void rdb_slice_path(const rdb_db *db, const rdb_slice *s, char *buf, size_t bufsize)
{
    int n = snprintf(buf, bufsize, "%s/%d", db->dir, s->level);
    int G = db->lay.ngroups;
    if (G <= 1) {
        snprintf(buf + n, bufsize - (size_t)n, "/all.zst");
        return;
    }
    for (int g = 0; g < G - 1 && (size_t)n < bufsize; g++)
        n += snprintf(buf + n, bufsize - (size_t)n, g == G - 2 ? "/%d.zst" : "/%d", s->counts[g]);
}

void rdb_slice_identity(const rdb_db *db, const rdb_slice *s, rdb_slice_id *id)
{
    memset(id, 0, sizeof *id);
    id->game = RDB_GAME_DOTS;
    id->rows = (uint32_t)db->params.rows;
    id->cols = (uint32_t)db->params.cols;
    id->db_hash = db->hash;
    id->level = (uint32_t)s->level;
    id->ngroups = (uint32_t)db->lay.ngroups;
    for (int g = 0; g < db->lay.ngroups; g++)
        id->counts[g] = (uint32_t)s->counts[g];
    id->entries = s->size;
}

/* ---- manifest ---- */

static int entry_cmp(const void *pa, const void *pb)
{
    const rdb_manifest_entry *a = pa, *b = pb;
    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    return memcmp(a->counts, b->counts, sizeof a->counts);
}

static int manifest_push(rdb_manifest *m, const rdb_manifest_entry *e)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 256;
        rdb_manifest_entry *ne = realloc(m->e, cap * sizeof *ne);
        if (!ne)
            return -1;
        m->e = ne;
        m->cap = cap;
    }
    m->e[m->n++] = *e;
    return 0;
}

rdb_status rdb_manifest_load(rdb_manifest *m, const char *dir, int ngroups, rdb_error *err)
{
    memset(m, 0, sizeof *m);
    m->fd = -1;
    m->ngroups = ngroups;
    char path[4096];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT)
            return RDB_OK;
        return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        if (len == 0 || line[len - 1] != '\n')
            continue; /* a line cut short by a crash */
        rdb_manifest_entry e;
        memset(&e, 0, sizeof e);
        char *p = line;
        if (strncmp(p, "slice ", 6) != 0)
            continue;
        p += 6;
        char *end;
        e.level = (int)strtol(p, &end, 10);
        if (end == p || *end != ' ')
            continue;
        p = end + 1;
        int ok = 1;
        for (int g = 0; g < ngroups && ok; g++) {
            long k = strtol(p, &end, 10);
            ok = end != p && k >= 0 && k <= RDB_MAX_GROUP_BITS &&
                 *end == (g == ngroups - 1 ? ' ' : ',');
            e.counts[g] = (uint8_t)k;
            p = end + 1;
        }
        if (!ok || sscanf(p, "%" SCNu64 " %" SCNx64 " %" SCNu64, &e.entries, &e.checksum,
                          &e.bytes) != 3)
            continue;
        if (manifest_push(m, &e) != 0) {
            fclose(f);
            rdb_manifest_free(m);
            return rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", path);
        }
    }
    fclose(f);
    qsort(m->e, m->n, sizeof *m->e, entry_cmp);
    return RDB_OK;
}

const rdb_manifest_entry *rdb_manifest_find(const rdb_manifest *m, const rdb_slice *s)
{
    rdb_manifest_entry key;
    memset(&key, 0, sizeof key);
    key.level = s->level;
    for (int g = 0; g < m->ngroups; g++)
        key.counts[g] = (uint8_t)s->counts[g];
    const rdb_manifest_entry *found = NULL;
    /* the entries are sorted, except for those appended since loading */
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = entry_cmp(&m->e[mid], &key);
        if (c == 0) {
            found = &m->e[mid];
            break;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return found;
}

rdb_status rdb_manifest_append(rdb_manifest *m, const char *dir, const rdb_slice *s,
                               uint64_t checksum, uint64_t bytes, rdb_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    if (m->fd < 0) {
        m->fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
        if (m->fd < 0)
            return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
        /* A crash may have left half a line; end it so ours starts clean. */
        off_t end = lseek(m->fd, 0, SEEK_END);
        if (end > 0) {
            char last;
            int rfd = open(path, O_RDONLY | O_CLOEXEC);
            if (rfd >= 0) {
                if (pread(rfd, &last, 1, end - 1) == 1 && last != '\n') {
                    rdb_status st = rdb_write_all(m->fd, "\n", 1, path, err);
                    if (st != RDB_OK) {
                        close(rfd);
                        return st;
                    }
                }
                close(rfd);
            }
        }
    }
    char line[512];
    int n = snprintf(line, sizeof line, "slice %d ", s->level);
    for (int g = 0; g < m->ngroups; g++)
        n += snprintf(line + n, sizeof line - (size_t)n, g == m->ngroups - 1 ? "%d" : "%d,",
                      s->counts[g]);
    n += snprintf(line + n, sizeof line - (size_t)n, " %" PRIu64 " %016" PRIx64 " %" PRIu64 "\n",
                  s->size, checksum, bytes);
    rdb_status st = rdb_write_all(m->fd, line, (size_t)n, path, err);
    if (st != RDB_OK)
        return st;
    if (fsync(m->fd) != 0)
        return rdb_fail_errno(err, RDB_E_IO, "cannot fsync '%s'", path);
    rdb_manifest_entry e;
    memset(&e, 0, sizeof e);
    e.level = s->level;
    for (int g = 0; g < m->ngroups; g++)
        e.counts[g] = (uint8_t)s->counts[g];
    e.entries = s->size;
    e.checksum = checksum;
    e.bytes = bytes;
    if (manifest_push(m, &e) != 0)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    /* keep the array sorted for rdb_manifest_find */
    for (size_t i = m->n - 1; i > 0 && entry_cmp(&m->e[i - 1], &m->e[i]) > 0; i--) {
        rdb_manifest_entry t = m->e[i];
        m->e[i] = m->e[i - 1];
        m->e[i - 1] = t;
    }
    return RDB_OK;
}

void rdb_manifest_free(rdb_manifest *m)
{
    if (m->fd >= 0)
        close(m->fd);
    free(m->e);
    memset(m, 0, sizeof *m);
    m->fd = -1;
}

/* ---- lock ---- */

rdb_status rdb_lock_acquire(const char *dir, int *fd, rdb_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/LOCK", dir);
    int f = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (f < 0)
        return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    if (flock(f, LOCK_EX | LOCK_NB) != 0) {
        int busy = errno == EWOULDBLOCK;
        close(f);
        if (busy) {
            long pid = rdb_lock_holder(dir);
            return rdb_fail(err, RDB_E_BUSY,
                            "another builder (pid %ld) is working on '%s'; wait for it or stop it",
                            pid, dir);
        }
        return rdb_fail_errno(err, RDB_E_IO, "cannot lock '%s'", path);
    }
    char text[32];
    int n = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    if (ftruncate(f, 0) != 0 || pwrite(f, text, (size_t)n, 0) != n) {
        rdb_status st = rdb_fail_errno(err, RDB_E_IO, "cannot write '%s'", path);
        close(f);
        return st;
    }
    *fd = f;
    return RDB_OK;
}

void rdb_lock_release(int fd)
{
    if (fd >= 0)
        close(fd);
}

long rdb_lock_holder(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/LOCK", dir);
    int f = open(path, O_RDONLY | O_CLOEXEC);
    if (f < 0)
        return 0;
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
