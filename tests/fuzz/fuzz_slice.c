/*
 * fuzz_slice.c — fuzz target `slice`: reading slice files (slicefile.c),
 * as the probe, the kernel and verify do: rdb_slice_open with the identity
 * a caller expects, then rdb_slice_read_all and rdb_slice_read_frame for
 * every frame.
 *
 * Each input is tried twice. First as it is, which mostly tests how the
 * reader refuses damage. Then after a fix-up that recomputes every
 * checksum the file carries (the zstd content checksum of each value
 * frame, the checksum of the values, the seek table's and the header's),
 * so that mutations of sizes, counts and offsets reach the code behind the
 * checksums instead of stopping at them. The fix-up reads the file the way
 * slicefile.h describes it and gives up quietly on anything it cannot
 * place: the reader must cope with the result either way.
 *
 * The expected identity is the one the header claims (a caller's would
 * come from its layout and match a real file); a slice of more than
 * MAX_ENTRIES values is opened but not read, since a caller's layout would
 * never ask for that many from one file and the harness must stay small.
 * Whatever rdb_slice_read_all returns, each frame read alone must give the
 * same values.
 */
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_d_forceIgnoreChecksum */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "fuzz_util.h"
#include "store/checksum.h"
#include "store/slicefile.h"

#define HEADER_MAGIC 0x184D2A50u
#define SEEK_MAGIC 0x184D2A5Eu
#define HEADER_MAX 256
#define MAX_ENTRIES (1u << 20)

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void put_le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* ---- XXH64, the content checksum of a zstd frame (its low 32 bits) ---- */

#define XP1 0x9E3779B185EBCA87ULL
#define XP2 0xC2B2AE3D27D4EB4FULL
#define XP3 0x165667B19E3779F9ULL
#define XP4 0x85EBCA77C2B2AE63ULL
#define XP5 0x27D4EB2F165667C5ULL

static uint64_t rotl64(uint64_t x, int r)
{
    return x << r | x >> (64 - r);
}

static uint64_t xxh_round(uint64_t acc, uint64_t lane)
{
    return rotl64(acc + lane * XP2, 31) * XP1;
}

static uint64_t xxh_merge(uint64_t acc, uint64_t v)
{
    return (acc ^ xxh_round(0, v)) * XP1 + XP4;
}

static uint64_t xxh64(const unsigned char *p, size_t len)
{
    const unsigned char *end = p + len;
    uint64_t acc;
    if (len >= 32) {
        uint64_t v1 = XP1 + XP2, v2 = XP2, v3 = 0, v4 = 0 - XP1;
        for (; end - p >= 32; p += 32) {
            v1 = xxh_round(v1, le64(p));
            v2 = xxh_round(v2, le64(p + 8));
            v3 = xxh_round(v3, le64(p + 16));
            v4 = xxh_round(v4, le64(p + 24));
        }
        acc = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
        acc = xxh_merge(acc, v1);
        acc = xxh_merge(acc, v2);
        acc = xxh_merge(acc, v3);
        acc = xxh_merge(acc, v4);
    } else {
        acc = XP5;
    }
    acc += len;
    for (; end - p >= 8; p += 8)
        acc = rotl64(acc ^ xxh_round(0, le64(p)), 27) * XP1 + XP4;
    if (end - p >= 4) {
        acc = rotl64(acc ^ le32(p) * XP1, 23) * XP2 + XP3;
        p += 4;
    }
    for (; p < end; p++)
        acc = rotl64(acc ^ *p * XP5, 11) * XP1;
    acc ^= acc >> 33;
    acc *= XP2;
    acc ^= acc >> 29;
    acc *= XP3;
    acc ^= acc >> 32;
    return acc;
}

/* ---- the fix-up ---- */

typedef struct {
    size_t end;             /* offset just past the header frame */
    uint32_t ngroups;
    uint64_t entries;
    uint32_t frame_entries, nframes;
    size_t sum_at, hc_at;   /* where the values' and the header's checksums are */
} header_view;

/* Where the header's fields are, when it has the layout of slicefile.h. */
static int view_header(const unsigned char *buf, size_t size, header_view *h)
{
    if (size < 16 || le32(buf) != HEADER_MAGIC)
        return 0;
    size_t payload = le32(buf + 4);
    if (payload < 72 || 8 + payload > size || 8 + payload > HEADER_MAX)
        return 0;
    h->ngroups = le32(buf + 44);
    if (h->ngroups > RDB_MAX_GROUPS || payload != 72 + 4 * (size_t)h->ngroups)
        return 0;
    const unsigned char *p = buf + 48 + 4 * (size_t)h->ngroups;
    h->entries = le64(p);
    h->frame_entries = le32(p + 8);
    h->nframes = le32(p + 12);
    h->sum_at = (size_t)(p + 16 - buf);
    h->hc_at = (size_t)(p + 24 - buf);
    h->end = 8 + payload;
    return 1;
}

/* Recompute the zstd content checksum of the frame at buf[0..len) and fold
 * the checksum of its values into *sum; 0 when it is not a frame the
 * fix-up can decode (then the values' checksum is left as it is). */
static int fix_frame(unsigned char *buf, size_t len, size_t want, ZSTD_DCtx *dctx,
                     unsigned char *values, uint64_t *sum)
{
    size_t flen = ZSTD_findFrameCompressedSize(buf, len);
    if (ZSTD_isError(flen) || flen != len || len < 5)
        return 0;
    ZSTD_DCtx_reset(dctx, ZSTD_reset_session_and_parameters);
    ZSTD_DCtx_setParameter(dctx, ZSTD_d_forceIgnoreChecksum, ZSTD_d_ignoreChecksum);
    size_t got = ZSTD_decompressDCtx(dctx, values, want, buf, len);
    if (ZSTD_isError(got))
        return 0;
    /* bit 2 of the frame header descriptor: a content checksum ends the frame */
    if (buf[4] & 4)
        put_le32(buf + len - 4, (uint32_t)xxh64(values, got));
    *sum = rdb_checksum_combine(*sum, rdb_checksum64(values, got, 0));
    return 1;
}

/* Recompute in place every checksum of a slice file that can be placed. */
static void fix_up(unsigned char *buf, size_t size)
{
    header_view h;
    int have_header = view_header(buf, size, &h);
    if (!have_header || h.frame_entries == 0)
        return;

    uint64_t seek_len = 8 + 4 * (uint64_t)h.nframes + 16;
    if (size < h.end + seek_len)
        goto header;
    unsigned char *seek = buf + size - seek_len;
    put_le64(seek + 8 + 4 * (size_t)h.nframes, rdb_checksum64(seek + 8, 4 * (size_t)h.nframes, 0));

    /* The values' checksum needs every frame decoded; it stays as it was
     * when some frame cannot be, and the reader refuses the file for that
     * frame anyway. */
    size_t cap = h.frame_entries < MAX_ENTRIES ? h.frame_entries : MAX_ENTRIES;
    unsigned char *values = malloc(cap);
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    if (!values || !dctx)
        abort();
    uint64_t sum = h.nframes, off = h.end;
    int all = 1;
    for (uint32_t f = 0; f < h.nframes; f++) {
        uint64_t len = le32(seek + 8 + 4 * (size_t)f);
        uint64_t lo = (uint64_t)f * h.frame_entries;
        uint64_t want = h.entries > lo ? h.entries - lo : 0;
        if (want > h.frame_entries)
            want = h.frame_entries;
        if (off + len > size - seek_len || want > cap ||
            !fix_frame(buf + off, (size_t)len, (size_t)want, dctx, values, &sum))
            all = 0;
        off += len;
        if (off > size)
            break;
    }
    if (all)
        put_le64(buf + h.sum_at, sum);
    ZSTD_freeDCtx(dctx);
    free(values);
header:
    put_le64(buf + h.hc_at, rdb_checksum64(buf + 8, h.hc_at - 8, 0));
}

/* ---- reading ---- */

/* The identity the header claims, or a plausible one (slice 0 of a 2x2
 * Dots-and-Boxes database) when the header cannot be read. */
static void expected_identity(const unsigned char *buf, size_t size, rdb_slice_id *id)
{
    memset(id, 0, sizeof *id);
    header_view h;
    if (!view_header(buf, size, &h)) {
        id->game = 1;
        id->rows = id->cols = 2;
        id->ngroups = 2;
        id->entries = 1;
        return;
    }
    id->game = le32(buf + 20);
    id->rows = le32(buf + 24);
    id->cols = le32(buf + 28);
    id->db_hash = le64(buf + 32);
    id->level = le32(buf + 40);
    id->ngroups = h.ngroups;
    for (uint32_t g = 0; g < h.ngroups; g++)
        id->counts[g] = le32(buf + 48 + 4 * g);
    id->entries = h.entries;
}

static void read_slice(const char *path, const unsigned char *buf, size_t size)
{
    fuzz_write_file(path, buf, size);
    rdb_slice_id id;
    expected_identity(buf, size, &id);
    rdb_slice_file sf;
    rdb_error err;
    if (rdb_slice_open(path, &id, &sf, &err) != RDB_OK) {
        unlink(path);
        return;
    }
    if (sf.id.entries <= MAX_ENTRIES) {
        size_t n = sf.id.entries ? (size_t)sf.id.entries : 1;
        int8_t *all = malloc(n), *one = malloc(n);
        if (!all || !one)
            abort();
        rdb_status st = rdb_slice_read_all(&sf, all, &err);
        for (uint32_t f = 0; f < sf.nframes; f++) {
            size_t got = 0;
            if (rdb_slice_read_frame(&sf, f, one, &got, &err) != RDB_OK || st != RDB_OK)
                continue;
            uint64_t lo = (uint64_t)f * sf.frame_entries;
            if (lo + got > sf.id.entries || memcmp(one, all + lo, got) != 0) {
                fprintf(stderr, "frame %u read alone differs from the whole slice\n", f);
                abort();
            }
        }
        free(all);
        free(one);
    }
    rdb_slice_close(&sf);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/slice.zst", fuzz_temp_dir());
    read_slice(path, data, size);

    unsigned char *fixed = malloc(size ? size : 1);
    if (!fixed)
        abort();
    memcpy(fixed, data, size);
    fix_up(fixed, size);
    if (size == 0 || memcmp(fixed, data, size) != 0)
        read_slice(path, fixed, size);
    free(fixed);
    return 0;
}
