/*
 * dots_tt_file.c — saving and loading the search's table; see
 * dots_tt_file.h. The file is the search runtime's (search/table_file.h):
 * this gives it the board's fields and the entries' records, and checks
 * them when read.
 */
#include "dots/dots_tt_file.h"

#include <stdlib.h>
#include <string.h>

#include "search/table_file.h"
#include "store/bytes.h"

#define RECORD 14

static const rdb_table_format format = {"RDBDOTT1", 12, RECORD, "a table of this search"};

/* The fields: rows, columns, full value (4 bytes each). */
static void put_fields(unsigned char *f, const dots_board *b, int full_value)
{
    rdb_put_le(f, (uint64_t)b->rows, 4);
    rdb_put_le(f + 4, (uint64_t)b->cols, 4);
    rdb_put_le(f + 8, (uint64_t)(uint32_t)full_value, 4);
}

typedef struct {
    const dots_solver *s;
    uint64_t cursor;
    dots_tt_entry *e;
} saving;

/* The table's entries from the cursor on, as records (rdb_table_fill_fn). */
static size_t fill_records(void *ctx, unsigned char *buf, size_t most)
{
    saving *sv = ctx;
    const uint64_t n = dots_solver_table_export(sv->s, sv->e, most, &sv->cursor);
    for (uint64_t i = 0; i < n; i++) {
        unsigned char *r = buf + i * RECORD;
        rdb_put_le(r, sv->e[i].key, 8);
        rdb_put_le(r + 8, (uint64_t)(uint16_t)sv->e[i].lower, 2);
        rdb_put_le(r + 10, (uint64_t)(uint16_t)sv->e[i].upper, 2);
        r[12] = (unsigned char)sv->e[i].best;
        r[13] = (unsigned char)sv->e[i].open;
    }
    return (size_t)n;
}

rdb_status dots_tt_save(const dots_solver *s, const dots_board *b, int full_value,
                        const char *path, rdb_error *err)
{
    saving sv = {s, 0, malloc(RDB_TABLE_FILL_MOST * sizeof *sv.e)};
    if (!sv.e)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory saving '%s'", path);
    unsigned char fields[12];
    put_fields(fields, b, full_value);
    const rdb_status st = rdb_table_file_save(path, &format, fields, fill_records, &sv, err);
    free(sv.e);
    return st;
}

typedef struct {
    dots_solver *s, *verifier;
    const dots_board *b;
    int full_value;
} loading;

static rdb_status check_fields(void *ctx, const char *path, const unsigned char *fields,
                               rdb_error *err)
{
    const loading *l = ctx;
    unsigned char want[12];
    put_fields(want, l->b, l->full_value);
    if (memcmp(fields, want, sizeof want) != 0)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is not %s: another board, full value or format",
                        path, format.what);
    return RDB_OK;
}

/* Every entry is checked (small ones solved again, by a solver that
 * trusts no file) before any is stored. */
static rdb_status read_record(void *ctx, const char *path, uint64_t i, const unsigned char *r,
                              int apply, rdb_error *err)
{
    (void)i;
    loading *l = ctx;
    const dots_tt_entry e = {rdb_get_le(r, 8), (int16_t)rdb_get_le(r + 8, 2),
                             (int16_t)rdb_get_le(r + 10, 2), r[12], r[13]};
    if (apply)
        return dots_solver_table_import(l->s, &e, err);
    rdb_error why;
    if (dots_solver_table_check(l->s, &e, &why) != RDB_OK)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is not %s: %s", path, format.what, why.msg);
    if (l->b->nlines - __builtin_popcountll(e.key) > DOTS_TT_VERIFY_OPEN)
        return RDB_OK;
    rdb_status st = RDB_OK;
    if (!l->verifier) {
        dots_solver_options vo = {.tt_bytes = 1 << 20, .threads = 1};
        st = dots_solver_new(l->b, l->full_value, &vo, &l->verifier, err);
    }
    int v;
    if (st == RDB_OK)
        st = dots_solver_value(l->verifier, e.key, &v, err);
    if (st == RDB_OK && (v < e.lower || v > e.upper))
        st = rdb_fail(err, RDB_E_CORRUPT, "'%s' is not %s: an entry contradicts the search", path,
                      format.what);
    return st;
}

rdb_status dots_tt_load(dots_solver *s, const dots_board *b, int full_value, const char *path,
                        uint64_t *loaded, rdb_error *err)
{
    loading l = {s, NULL, b, full_value};
    const rdb_status st =
        rdb_table_file_load(path, &format, check_fields, read_record, &l, loaded, err);
    dots_solver_free(l.verifier);
    return st;
}

rdb_status dots_tt_file_claim(const char *path, int *lock_fd, rdb_error *err)
{
    return rdb_table_file_claim(path, NULL, lock_fd, err);
}

void dots_tt_file_release(int lock_fd)
{
    rdb_table_file_release(lock_fd);
}
