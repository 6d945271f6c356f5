/*
 * test_slicefile.c — the slice file module (src/store/slicefile.c): slices of 1,
 * 1000 and 3*RDB_FRAME_ENTRIES+5 random values in -25..25 are written,
 * reopened and read back whole and frame by frame; the file does not
 * depend on the number of threads; and damaged files (truncated at many
 * lengths, a byte flipped anywhere, extra bytes, an empty file, a missing
 * file, the identity of another slice, the header of another file, a
 * header size field near 2^32)
 * give RDB_E_CORRUPT or RDB_E_MISSING
 * with a message, never a crash and never wrong values with RDB_OK.
 */
#include <check.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/checksum.h"
#include "store/slicefile.h"
#include "test_util.h"

static rdb_slice_id make_id(uint64_t entries)
{
    rdb_slice_id id;
    memset(&id, 0, sizeof id);
    id.game = 1;
    id.rows = 3;
    id.cols = 3;
    id.db_hash = 0x0123456789abcdefULL;
    id.level = 7;
    id.ngroups = 2;
    id.counts[0] = 4;
    id.counts[1] = 3;
    id.entries = entries;
    return id;
}

static int8_t *random_values(uint64_t n, uint64_t seed)
{
    int8_t *v = malloc(n ? n : 1);
    ck_assert(v != NULL);
    uint64_t state = seed | 1;
    for (uint64_t i = 0; i < n; i++)
        v[i] = (int8_t)((int)(naive_rand(&state) % 51) - 25);
    return v;
}

static void write_slice(const char *path, const rdb_slice_id *id, const int8_t *values)
{
    rdb_error err;
    uint64_t sum = 0, bytes = 0;
    rdb_status st = rdb_slice_write(path, id, values, 3, &sum, &bytes, &err);
    ck_assert_msg(st == RDB_OK, "write '%s': %s", path, err.msg);
    struct stat sb;
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_uint_eq(bytes, (uint64_t)sb.st_size);
}

/* Open and read everything, checking values against want when RDB_OK.
 * Returns the first failing status, or RDB_OK. */
static rdb_status open_and_read(const char *path, const rdb_slice_id *expect, const int8_t *want,
                                int8_t *buf)
{
    rdb_slice_file sf;
    rdb_error err;
    err.msg[0] = '\0';
    rdb_status st = rdb_slice_open(path, expect, &sf, &err);
    if (st != RDB_OK) {
        ck_assert_msg(err.msg[0] != '\0', "status %d without a message", (int)st);
        return st;
    }
    uint64_t n = expect->entries;
    ck_assert_uint_eq(sf.id.entries, n);
    /* single frames first, then the whole slice */
    rdb_status first = RDB_OK;
    for (uint32_t f = 0; f < sf.nframes; f++) {
        size_t got = 0;
        st = rdb_slice_read_frame(&sf, f, buf, &got, &err);
        if (st != RDB_OK) {
            ck_assert_msg(err.msg[0] != '\0', "status %d without a message", (int)st);
            if (first == RDB_OK)
                first = st;
            continue;
        }
        uint64_t lo = (uint64_t)f * RDB_FRAME_ENTRIES;
        uint64_t len = n - lo < RDB_FRAME_ENTRIES ? n - lo : RDB_FRAME_ENTRIES;
        ck_assert_uint_eq(got, len);
        ck_assert_msg(memcmp(buf, want + lo, len) == 0, "'%s': frame %u has wrong values with RDB_OK",
                      path, f);
    }
    memset(buf, 0x55, n);
    err.msg[0] = '\0';
    st = rdb_slice_read_all(&sf, buf, &err);
    if (st == RDB_OK)
        ck_assert_msg(memcmp(buf, want, n) == 0, "'%s': wrong values with RDB_OK", path);
    else
        ck_assert_msg(err.msg[0] != '\0', "status %d without a message", (int)st);
    if (first == RDB_OK)
        first = st;
    rdb_slice_close(&sf);
    return first;
}

static const uint64_t sizes[] = {1, 1000, 3 * (uint64_t)RDB_FRAME_ENTRIES + 5};

START_TEST(test_round_trip)
{
    char dir[TU_DIR_MAX], path[256];
    tu_mkdtemp(dir);
    for (int k = 0; k < 3; k++) {
        uint64_t n = sizes[k];
        rdb_slice_id id = make_id(n);
        int8_t *v = random_values(n, 1000 + (uint64_t)k);
        snprintf(path, sizeof path, "%s/s%d.zst", dir, k);
        write_slice(path, &id, v);

        rdb_slice_file sf;
        rdb_error err;
        ck_assert_int_eq(rdb_slice_open(path, &id, &sf, &err), RDB_OK);
        ck_assert_uint_eq(sf.nframes, (n + RDB_FRAME_ENTRIES - 1) / RDB_FRAME_ENTRIES);
        ck_assert_uint_eq(sf.frame_entries, RDB_FRAME_ENTRIES);
        ck_assert_uint_eq(sf.id.level, 7);
        ck_assert_uint_eq(sf.id.counts[0], 4);
        ck_assert_uint_eq(sf.id.counts[1], 3);
        ck_assert(sf.id.db_hash == id.db_hash);
        int8_t *buf = malloc(n > RDB_FRAME_ENTRIES ? n : RDB_FRAME_ENTRIES);
        /* frames out of order */
        for (uint32_t f = sf.nframes; f-- > 0;) {
            size_t got;
            ck_assert_int_eq(rdb_slice_read_frame(&sf, f, buf, &got, &err), RDB_OK);
            uint64_t lo = (uint64_t)f * RDB_FRAME_ENTRIES;
            ck_assert_uint_eq(got, n - lo < RDB_FRAME_ENTRIES ? n - lo : RDB_FRAME_ENTRIES);
            ck_assert(memcmp(buf, v + lo, got) == 0);
        }
        size_t got;
        ck_assert_int_eq(rdb_slice_read_frame(&sf, sf.nframes, buf, &got, &err), RDB_E_CORRUPT);
        memset(buf, 0, n);
        ck_assert_int_eq(rdb_slice_read_all(&sf, buf, &err), RDB_OK);
        ck_assert(memcmp(buf, v, n) == 0);
        rdb_slice_close(&sf);
        /* any slice accepted with expect NULL */
        ck_assert_int_eq(rdb_slice_open(path, NULL, &sf, &err), RDB_OK);
        ck_assert_uint_eq(sf.id.entries, n);
        rdb_slice_close(&sf);
        free(buf);
        free(v);
    }
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_threads_identical)
{
    char dir[TU_DIR_MAX], p1[256], p2[256];
    tu_mkdtemp(dir);
    uint64_t n = sizes[2];
    rdb_slice_id id = make_id(n);
    int8_t *v = random_values(n, 77);
    snprintf(p1, sizeof p1, "%s/one.zst", dir);
    snprintf(p2, sizeof p2, "%s/four.zst", dir);
    omp_set_num_threads(1);
    write_slice(p1, &id, v);
    omp_set_num_threads(4);
    write_slice(p2, &id, v);
    size_t l1, l2;
    unsigned char *a = tu_read_file(p1, &l1), *b = tu_read_file(p2, &l2);
    ck_assert(a && b);
    ck_assert_uint_eq(l1, l2);
    ck_assert(memcmp(a, b, l1) == 0);
    free(a);
    free(b);
    free(v);
    tu_rmrf(dir);
}
END_TEST

/* A slice of sizes[k] random values written to dir/s.zst and read back as
 * raw bytes, for the damage tests. */
typedef struct {
    uint64_t n;
    rdb_slice_id id;
    int8_t *v, *buf;
    unsigned char *data;
    size_t len;
} damage_fixture;

static void fixture_make(damage_fixture *f, const char *dir, int k, uint64_t seed)
{
    char path[256];
    f->n = sizes[k];
    f->id = make_id(f->n);
    f->v = random_values(f->n, seed);
    f->buf = malloc(f->n > RDB_FRAME_ENTRIES ? f->n : RDB_FRAME_ENTRIES);
    snprintf(path, sizeof path, "%s/s.zst", dir);
    write_slice(path, &f->id, f->v);
    f->data = tu_read_file(path, &f->len);
    ck_assert(f->data != NULL);
}

static void fixture_free(damage_fixture *f)
{
    free(f->data);
    free(f->buf);
    free(f->v);
}

START_TEST(test_truncated)
{
    char dir[TU_DIR_MAX], cut[256];
    tu_mkdtemp(dir);
    for (int k = 0; k < 3; k++) {
        damage_fixture f;
        fixture_make(&f, dir, k, 5 + (uint64_t)k);
        uint64_t n = f.n;
        rdb_slice_id id = f.id;
        int8_t *v = f.v, *buf = f.buf;
        unsigned char *data = f.data;
        size_t len = f.len;
        snprintf(cut, sizeof cut, "%s/cut.zst", dir);
        size_t lens[] = {0, 1, 4, 8, 20, 31, 32, 60, 90, len / 3, len / 2, len - 30, len - 17,
                         len - 16, len - 9, len - 8, len - 4, len - 1};
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            if (lens[i] >= len)
                continue;
            ck_assert_int_eq(tu_write_file(cut, data, lens[i]), 0);
            rdb_status st = open_and_read(cut, &id, v, buf);
            ck_assert_msg(st == RDB_E_CORRUPT, "size %zu: file cut to %zu bytes gives status %d",
                          (size_t)n, lens[i], (int)st);
        }
        /* extra bytes at the end */
        unsigned char *longer = malloc(len + 7);
        memcpy(longer, data, len);
        memset(longer + len, 0, 7);
        ck_assert_int_eq(tu_write_file(cut, longer, len + 7), 0);
        ck_assert_int_eq(open_and_read(cut, &id, v, buf), RDB_E_CORRUPT);
        free(longer);
        fixture_free(&f);
    }
    tu_rmrf(dir);
}
END_TEST

/* Flip every byte of a small file, and bytes spread over a large one. */
START_TEST(test_flipped)
{
    char dir[TU_DIR_MAX], bad[256];
    tu_mkdtemp(dir);
    for (int k = 0; k < 3; k++) {
        damage_fixture f;
        fixture_make(&f, dir, k, 99 + (uint64_t)k);
        uint64_t n = f.n;
        rdb_slice_id id = f.id;
        int8_t *v = f.v, *buf = f.buf;
        unsigned char *data = f.data;
        size_t len = f.len;
        snprintf(bad, sizeof bad, "%s/bad.zst", dir);
        size_t step = len < 4000 ? 1 : len / 300;
        int corrupt = 0, tried = 0;
        for (size_t off = 0; off < len; off += step) {
            for (int mask = 0x01; mask <= 0x80; mask <<= 7) {
                data[off] ^= (unsigned char)mask;
                ck_assert_int_eq(tu_write_file(bad, data, len), 0);
                data[off] ^= (unsigned char)mask;
                rdb_status st = open_and_read(bad, &id, v, buf);
                ck_assert_msg(st == RDB_OK || st == RDB_E_CORRUPT,
                              "size %zu: byte %zu ^ 0x%x gives status %d", (size_t)n, off, mask,
                              (int)st);
                corrupt += st == RDB_E_CORRUPT;
                tried++;
            }
        }
        /* a flip in the middle of the values must be noticed */
        data[len / 2] ^= 0x10;
        ck_assert_int_eq(tu_write_file(bad, data, len), 0);
        data[len / 2] ^= 0x10;
        ck_assert_int_eq(open_and_read(bad, &id, v, buf), RDB_E_CORRUPT);
        /* nearly every flip is noticed (a few in zstd's frame headers may
         * leave the values intact, which is fine: they are checked) */
        ck_assert_msg(corrupt >= tried * 9 / 10, "size %zu: only %d of %d flips noticed",
                      (size_t)n, corrupt, tried);
        fixture_free(&f);
    }
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_wrong_identity)
{
    char dir[TU_DIR_MAX], path[256];
    tu_mkdtemp(dir);
    rdb_slice_id id = make_id(1000);
    int8_t *v = random_values(1000, 3);
    int8_t *buf = malloc(RDB_FRAME_ENTRIES);
    snprintf(path, sizeof path, "%s/s.zst", dir);
    write_slice(path, &id, v);
    ck_assert_int_eq(open_and_read(path, &id, v, buf), RDB_OK);
    for (int k = 0; k < 7; k++) {
        rdb_slice_id other = id;
        switch (k) {
        case 0: other.level = 8; break;
        case 1: other.db_hash ^= 1; break;
        case 2: other.counts[1] = 2; break;
        case 3: other.rows = 2; break;
        case 4: other.ngroups = 3; break;
        case 5: other.cols = 4; break;
        case 6: other.game = 2; break;
        }
        rdb_slice_file sf;
        rdb_error err;
        err.msg[0] = '\0';
        rdb_status st = rdb_slice_open(path, &other, &sf, &err);
        ck_assert_msg(st == RDB_E_CORRUPT, "identity change %d: status %d", k, (int)st);
        ck_assert(strstr(err.msg, path) != NULL);
    }
    free(buf);
    free(v);
    tu_rmrf(dir);
}
END_TEST

START_TEST(test_empty_and_missing)
{
    char dir[TU_DIR_MAX], path[256];
    tu_mkdtemp(dir);
    rdb_slice_id id = make_id(1000);
    rdb_slice_file sf;
    rdb_error err;
    snprintf(path, sizeof path, "%s/none.zst", dir);
    err.msg[0] = '\0';
    ck_assert_int_eq(rdb_slice_open(path, &id, &sf, &err), RDB_E_MISSING);
    ck_assert(strstr(err.msg, path) != NULL);
    snprintf(path, sizeof path, "%s/empty.zst", dir);
    ck_assert_int_eq(tu_write_file(path, "", 0), 0);
    err.msg[0] = '\0';
    ck_assert_int_eq(rdb_slice_open(path, &id, &sf, &err), RDB_E_CORRUPT);
    ck_assert(strstr(err.msg, path) != NULL);
    ck_assert_int_eq(rdb_slice_open(path, NULL, &sf, &err), RDB_E_CORRUPT);
    /* text that is no slice file */
    const char *junk = "this is not a slice file at all, but it is long enough to hold a header "
                       "and a footer if it were one............................................";
    ck_assert_int_eq(tu_write_file(path, junk, strlen(junk)), 0);
    ck_assert_int_eq(rdb_slice_open(path, &id, &sf, &err), RDB_E_CORRUPT);
    tu_rmrf(dir);
}
END_TEST

/* The header of one file with the frames and seek table of another (same
 * identity, other values): every frame is intact, so only the checksum of
 * all values in the header can tell; rdb_slice_read_all must. */
START_TEST(test_spliced)
{
    char dir[TU_DIR_MAX], pa[256], pb[256], bad[256];
    tu_mkdtemp(dir);
    uint64_t n = 2 * (uint64_t)RDB_FRAME_ENTRIES + 10;
    rdb_slice_id id = make_id(n);
    int8_t *va = random_values(n, 21), *vb = random_values(n, 22);
    snprintf(pa, sizeof pa, "%s/a.zst", dir);
    snprintf(pb, sizeof pb, "%s/b.zst", dir);
    snprintf(bad, sizeof bad, "%s/bad.zst", dir);
    write_slice(pa, &id, va);
    write_slice(pb, &id, vb);
    size_t la, lb;
    unsigned char *a = tu_read_file(pa, &la), *b = tu_read_file(pb, &lb);
    ck_assert(a && b);
    /* the header is a skippable frame: 8 bytes, then its payload size */
    size_t h = 8 + ((size_t)a[4] | (size_t)a[5] << 8 | (size_t)a[6] << 16 | (size_t)a[7] << 24);
    ck_assert_uint_lt(h, la);
    ck_assert(memcmp(a, b, 8) == 0);
    unsigned char *mix = malloc(lb);
    memcpy(mix, a, h);
    memcpy(mix + h, b + h, lb - h);
    ck_assert_int_eq(tu_write_file(bad, mix, lb), 0);
    rdb_slice_file sf;
    rdb_error err;
    int8_t *buf = malloc(n);
    rdb_status st = rdb_slice_open(bad, &id, &sf, &err);
    if (st == RDB_OK) {
        st = rdb_slice_read_all(&sf, buf, &err);
        rdb_slice_close(&sf);
    }
    ck_assert_msg(st == RDB_E_CORRUPT, "spliced file: status %d", (int)st);
    free(buf);
    free(mix);
    free(a);
    free(b);
    free(va);
    free(vb);
    tu_rmrf(dir);
}
END_TEST

/* Header size fields that overflow 32-bit arithmetic (0xFFFFFFF8 and up
 * wrap to a small number when 8 is added) must be refused, not followed. */
START_TEST(test_huge_header_size)
{
    char dir[TU_DIR_MAX], path[256], bad[256];
    tu_mkdtemp(dir);
    rdb_slice_id id = make_id(1000);
    int8_t *v = random_values(1000, 11);
    int8_t *buf = malloc(RDB_FRAME_ENTRIES);
    snprintf(path, sizeof path, "%s/s.zst", dir);
    snprintf(bad, sizeof bad, "%s/bad.zst", dir);
    write_slice(path, &id, v);
    size_t len;
    unsigned char *data = tu_read_file(path, &len);
    ck_assert(data != NULL && len > 8);
    const uint32_t sizes_to_try[] = {0xFFFFFFFFu, 0xFFFFFFF9u, 0xFFFFFFF8u, 0x80000000u, 0x10000u};
    for (size_t k = 0; k < sizeof sizes_to_try / sizeof sizes_to_try[0]; k++) {
        unsigned char *copy = malloc(len);
        memcpy(copy, data, len);
        for (int i = 0; i < 4; i++) /* little-endian size after the magic */
            copy[4 + i] = (unsigned char)(sizes_to_try[k] >> (8 * i));
        ck_assert_int_eq(tu_write_file(bad, copy, len), 0);
        free(copy);
        rdb_status st = open_and_read(bad, &id, v, buf);
        ck_assert_msg(st == RDB_E_CORRUPT, "header size 0x%x: status %d", sizes_to_try[k], (int)st);
    }
    free(data);
    free(buf);
    free(v);
    tu_rmrf(dir);
}
END_TEST

/* A header with a valid checksum is still input: one that claims frames of
 * 4 GiB (which every reading thread would allocate) is refused. The
 * offsets are those of a header of two groups (slicefile.h). */
START_TEST(test_crafted_frame_size)
{
    char dir[TU_DIR_MAX], path[256], bad[256];
    tu_mkdtemp(dir);
    rdb_slice_id id = make_id(1000);
    int8_t *v = random_values(1000, 12);
    int8_t *buf = malloc(RDB_FRAME_ENTRIES);
    snprintf(path, sizeof path, "%s/s.zst", dir);
    snprintf(bad, sizeof bad, "%s/bad.zst", dir);
    write_slice(path, &id, v);
    size_t len;
    unsigned char *data = tu_read_file(path, &len);
    ck_assert(data != NULL && len > 88);
    const size_t payload = 80, frame_entries_at = 64, checksum_at = 80;
    ck_assert_uint_eq(data[4], payload);
    const uint32_t claims[] = {0xFFFFFFFFu, 0x80000000u, RDB_FRAME_ENTRIES * 2, 1000};
    for (size_t k = 0; k < sizeof claims / sizeof claims[0]; k++) {
        for (int i = 0; i < 4; i++)
            data[frame_entries_at + i] = (unsigned char)(claims[k] >> (8 * i));
        uint64_t hc = rdb_checksum64(data + 8, payload - 8, 0);
        for (int i = 0; i < 8; i++)
            data[checksum_at + i] = (unsigned char)(hc >> (8 * i));
        ck_assert_int_eq(tu_write_file(bad, data, len), 0);
        rdb_status st = open_and_read(bad, &id, v, buf);
        ck_assert_msg(st == RDB_E_CORRUPT, "frames of %u values: status %d", claims[k], (int)st);
    }
    free(data);
    free(buf);
    free(v);
    tu_rmrf(dir);
}
END_TEST

Suite *slicefile_suite(void)
{
    Suite *s = suite_create("slicefile");
    TCase *tc = tcase_create("slicefile");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_threads_identical);
    tcase_add_test(tc, test_truncated);
    tcase_add_test(tc, test_flipped);
    tcase_add_test(tc, test_wrong_identity);
    tcase_add_test(tc, test_empty_and_missing);
    tcase_add_test(tc, test_spliced);
    tcase_add_test(tc, test_huge_header_size);
    tcase_add_test(tc, test_crafted_frame_size);
    suite_add_tcase(s, tc);
    return s;
}
