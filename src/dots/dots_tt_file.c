/*
 * dots_tt_file.c — saving and loading the search's table; see
 * dots_tt_file.h.
 */
#define _GNU_SOURCE
#include "dots/dots_tt_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/bytes.h"
#include "common/fsutil.h"

#define MAGIC "RDBDOTT1"
#define HEAD 28
#define RECORD 14
#define CHUNK 4096 /* entries per read or write */

static void put_head(unsigned char *h, const dots_board *b, int full_value, uint64_t count)
{
    memcpy(h, MAGIC, 8);
    rdb_put_le(h + 8, (uint64_t)b->rows, 4);
    rdb_put_le(h + 12, (uint64_t)b->cols, 4);
    rdb_put_le(h + 16, (uint64_t)(uint32_t)full_value, 4);
    rdb_put_le(h + 20, count, 8);
}

rdb_status dots_tt_save(const dots_solver *s, const dots_board *b, int full_value,
                        const char *path, rdb_error *err)
{
    /* The count goes in the header, so count first (the searchers may
     * add entries meanwhile: the entries written are those counted). */
    dots_tt_entry *e = malloc(CHUNK * sizeof *e);
    unsigned char *buf = malloc(CHUNK * RECORD);
    if (!e || !buf) {
        free(e);
        free(buf);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory saving '%s'", path);
    }
    uint64_t count = 0, cursor = 0, n;
    while ((n = dots_solver_table_export(s, e, CHUNK, &cursor)) > 0)
        count += n;

    char tmp[PATH_MAX];
    rdb_temp_name(path, tmp, sizeof tmp);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
        free(e);
        free(buf);
        return rdb_fail_errno(err, rdb_io_status(errno), "cannot create '%s'", tmp);
    }
    unsigned char head[HEAD];
    put_head(head, b, full_value, count);
    uint64_t sum = rdb_fnv1a(RDB_FNV_START, head, HEAD);
    rdb_status st = rdb_write_all(fd, head, HEAD, tmp, err);
    uint64_t written = 0;
    unsigned char last[RECORD];
    cursor = 0;
    while (st == RDB_OK && written < count &&
           (n = dots_solver_table_export(s, e, CHUNK, &cursor)) > 0) {
        if (n > count - written)
            n = count - written;
        for (uint64_t i = 0; i < n; i++) {
            unsigned char *r = buf + i * RECORD;
            rdb_put_le(r, e[i].key, 8);
            rdb_put_le(r + 8, (uint64_t)(uint16_t)e[i].lower, 2);
            rdb_put_le(r + 10, (uint64_t)(uint16_t)e[i].upper, 2);
            r[12] = (unsigned char)e[i].best;
            r[13] = (unsigned char)e[i].open;
        }
        sum = rdb_fnv1a(sum, buf, n * RECORD);
        st = rdb_write_all(fd, buf, n * RECORD, tmp, err);
        memcpy(last, buf + (n - 1) * RECORD, RECORD);
        written += n;
    }
    /* A slot being written while read is skipped, which can leave fewer
     * entries than counted: pad with copies of the last one, which load
     * merges again. */
    while (st == RDB_OK && written < count && written > 0) {
        sum = rdb_fnv1a(sum, last, RECORD);
        st = rdb_write_all(fd, last, RECORD, tmp, err);
        written++;
    }
    if (st == RDB_OK && written < count)
        st = rdb_fail(err, RDB_E_IO, "the table changed while '%s' was written", tmp);
    if (st == RDB_OK) {
        unsigned char tail[8];
        rdb_put_le(tail, sum, 8);
        st = rdb_write_all(fd, tail, 8, tmp, err);
    }
    free(e);
    free(buf);
    return rdb_commit_temp(fd, tmp, path, st, err);
}

static rdb_status corrupt(const char *path, const char *what, rdb_error *err)
{
    return rdb_fail(err, RDB_E_CORRUPT, "'%s' is not a table of this search: %s", path, what);
}

rdb_status dots_tt_load(dots_solver *s, const dots_board *b, int full_value, const char *path,
                        uint64_t *loaded, rdb_error *err)
{
    *loaded = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT)
            return rdb_fail(err, RDB_E_MISSING, "'%s' does not exist", path);
        return rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    }
    rdb_status st = rdb_check_regular(fd, path, err);
    struct stat sb;
    if (st == RDB_OK && fstat(fd, &sb) != 0)
        st = rdb_fail_errno(err, RDB_E_IO, "cannot stat '%s'", path);
    unsigned char head[HEAD], want[HEAD];
    if (st == RDB_OK)
        st = sb.st_size < HEAD + 8 ? corrupt(path, "too short", err)
                                   : rdb_pread_all(fd, head, HEAD, 0, path, err);
    uint64_t count = st == RDB_OK ? rdb_get_le(head + 20, 8) : 0;
    put_head(want, b, full_value, count);
    if (st == RDB_OK && memcmp(head, want, HEAD) != 0)
        st = corrupt(path, "another board, full value or format", err);
    if (st == RDB_OK && (count > ((uint64_t)sb.st_size - HEAD - 8) / RECORD ||
                         (uint64_t)sb.st_size != HEAD + count * RECORD + 8))
        st = corrupt(path, "its size does not match its entry count", err);

    /* First the checksum over the whole file, then the entries: a file
     * that fails it changes nothing in the table. */
    unsigned char *buf = st == RDB_OK ? malloc(CHUNK * RECORD) : NULL;
    if (st == RDB_OK && !buf)
        st = rdb_fail(err, RDB_E_NOMEM, "out of memory loading '%s'", path);
    uint64_t sum = rdb_fnv1a(RDB_FNV_START, head, HEAD);
    for (uint64_t done = 0; st == RDB_OK && done < count;) {
        uint64_t n = count - done < CHUNK ? count - done : CHUNK;
        st = rdb_pread_all(fd, buf, n * RECORD, HEAD + done * RECORD, path, err);
        sum = rdb_fnv1a(sum, buf, n * RECORD);
        done += n;
    }
    unsigned char tail[8];
    if (st == RDB_OK)
        st = rdb_pread_all(fd, tail, 8, HEAD + count * RECORD, path, err);
    if (st == RDB_OK && rdb_get_le(tail, 8) != sum)
        st = corrupt(path, "checksum mismatch", err);

    /* Every entry is checked (small ones solved again, by a solver that
     * trusts no file) before any is stored: a refused file changes
     * nothing. */
    dots_solver *verifier = NULL;
    if (st == RDB_OK) {
        dots_solver_options vo = {.tt_bytes = 1 << 20, .threads = 1};
        st = dots_solver_new(b, full_value, &vo, &verifier, err);
    }
    for (int pass = 0; pass < 2; pass++) {
        for (uint64_t done = 0; st == RDB_OK && done < count;) {
            uint64_t n = count - done < CHUNK ? count - done : CHUNK;
            st = rdb_pread_all(fd, buf, n * RECORD, HEAD + done * RECORD, path, err);
            for (uint64_t i = 0; st == RDB_OK && i < n; i++) {
                const unsigned char *r = buf + i * RECORD;
                dots_tt_entry e = {rdb_get_le(r, 8), (int16_t)rdb_get_le(r + 8, 2),
                                   (int16_t)rdb_get_le(r + 10, 2), r[12], r[13]};
                if (pass == 1) {
                    st = dots_solver_table_import(s, &e, err);
                    continue;
                }
                rdb_error why;
                if (dots_solver_table_check(s, &e, &why) != RDB_OK) {
                    st = corrupt(path, why.msg, err);
                    break;
                }
                if (b->nlines - __builtin_popcountll(e.key) <= DOTS_TT_VERIFY_OPEN) {
                    int v;
                    st = dots_solver_value(verifier, e.key, &v, err);
                    if (st == RDB_OK && (v < e.lower || v > e.upper))
                        st = corrupt(path, "an entry contradicts the search", err);
                }
            }
            done += n;
        }
    }
    dots_solver_free(verifier);
    free(buf);
    close(fd);
    if (st == RDB_OK)
        *loaded = count;
    return st;
}
