/*
 * slicefile.c — writing and reading slice files; see slicefile.h.
 *
 * Writing compresses frames in parallel into separate buffers, then writes
 * them in order, so the file is the same for any thread count. Reading
 * validates everything it relies on before trusting an offset: the header
 * checksum, the footer magic, the seek-table checksum, and that the frame
 * sizes add up to the file's size.
 */
#include "store/slicefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "common/path.h"
#include "store/checksum.h"
#include "common/fsutil.h"

#define HEADER_MAGIC 0x184D2A50u
#define SEEK_MAGIC 0x184D2A5Eu
#define FOOTER_MAGIC 0x46424452u /* "RDBF" */
#define HEADER_MAX 256

static void put32(unsigned char **p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        *(*p)++ = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char **p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        *(*p)++ = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char **p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | (*p)[i];
    *p += 4;
    return v;
}

static uint64_t get64(const unsigned char **p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | (*p)[i];
    *p += 8;
    return v;
}

/* The checksum of a slice's values: the per-frame checksums folded in
 * order, so that threads can checksum frames in parallel. */
static uint64_t combine_frame_sums(const uint64_t *frame_sum, uint32_t nframes)
{
    uint64_t sum = nframes;
    for (uint32_t f = 0; f < nframes; f++)
        sum = rdb_checksum_combine(sum, frame_sum[f]);
    return sum;
}

/* Serialise the header frame; returns its size. */
static size_t encode_header(unsigned char *buf, const rdb_slice_id *id, uint32_t frame_entries,
                            uint32_t nframes, uint64_t values_checksum)
{
    unsigned char *p = buf + 8;
    memcpy(p, "RDBSLICE", 8);
    p += 8;
    put32(&p, RDB_FORMAT_VERSION);
    put32(&p, id->game);
    put32(&p, id->rows);
    put32(&p, id->cols);
    put64(&p, id->db_hash);
    put32(&p, id->level);
    put32(&p, id->ngroups);
    for (uint32_t g = 0; g < id->ngroups; g++)
        put32(&p, id->counts[g]);
    put64(&p, id->entries);
    put32(&p, frame_entries);
    put32(&p, nframes);
    put64(&p, values_checksum);
    uint64_t hc = rdb_checksum64(buf + 8, (size_t)(p - buf - 8), 0);
    put64(&p, hc);
    size_t payload = (size_t)(p - buf - 8);
    unsigned char *q = buf;
    put32(&q, HEADER_MAGIC);
    put32(&q, (uint32_t)payload);
    return (size_t)(p - buf);
}

void rdb_encoded_free(rdb_encoded_slice *enc)
{
    if (enc->bufs)
        for (int i = 0; i < enc->nbufs; i++)
            free(enc->bufs[i]);
    free(enc->bufs);
    free(enc->lens);
    enc->bufs = NULL;
    enc->lens = NULL;
    enc->nbufs = 0;
}

rdb_status rdb_slice_encode(const char *path, const rdb_slice_id *id, const int8_t *values,
                            int zstd_level, rdb_encoded_slice *enc, rdb_error *err)
{
    memset(enc, 0, sizeof *enc);
    snprintf(enc->path, sizeof enc->path, "%s", path);
    uint64_t n = id->entries;
    uint32_t nframes = (uint32_t)((n + RDB_FRAME_ENTRIES - 1) / RDB_FRAME_ENTRIES);
    size_t bound = ZSTD_compressBound(RDB_FRAME_ENTRIES);
    /* buffer 0 is the header, 1..nframes the frames, the last the seek table */
    enc->nbufs = (int)nframes + 2;
    enc->bufs = calloc((size_t)enc->nbufs, sizeof *enc->bufs);
    enc->lens = calloc((size_t)enc->nbufs, sizeof *enc->lens);
    if (!enc->bufs || !enc->lens) {
        rdb_encoded_free(enc);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory compressing '%s'", path);
    }
    unsigned char *header = enc->bufs[0] = malloc(HEADER_MAX);
    unsigned char *seek = enc->bufs[nframes + 1] = malloc(8 + 4 * (size_t)nframes + 16);
    uint64_t *frame_sum = malloc((nframes ? nframes : 1) * sizeof *frame_sum);
    int failed = !header || !seek || !frame_sum;

#pragma omp parallel reduction(| : failed)
    {
        ZSTD_CCtx *cctx = ZSTD_createCCtx();
        if (!cctx || ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, zstd_level)) ||
            ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1)))
            failed = 1;
#pragma omp for schedule(dynamic, 1)
        for (uint32_t f = 0; f < nframes; f++) {
            if (failed)
                continue;
            uint64_t lo = (uint64_t)f * RDB_FRAME_ENTRIES;
            size_t len = (size_t)(n - lo < RDB_FRAME_ENTRIES ? n - lo : RDB_FRAME_ENTRIES);
            frame_sum[f] = rdb_checksum64(values + lo, len, 0);
            unsigned char *out = enc->bufs[f + 1] = malloc(bound);
            if (!out) {
                failed = 1;
                continue;
            }
            size_t c = ZSTD_compress2(cctx, out, bound, values + lo, len);
            if (ZSTD_isError(c)) {
                failed = 1;
            } else {
                /* keep only what the frame needs: the builder holds up to
                 * two encoded slices besides its two raw ones */
                unsigned char *fit = realloc(out, c ? c : 1);
                if (fit)
                    enc->bufs[f + 1] = fit;
                enc->lens[f + 1] = c;
            }
        }
        ZSTD_freeCCtx(cctx);
    }
    if (failed) {
        free(frame_sum);
        rdb_encoded_free(enc);
        return rdb_fail(err, RDB_E_NOMEM, "cannot compress '%s'", path);
    }
    uint64_t sum = combine_frame_sums(frame_sum, nframes);
    free(frame_sum);

    enc->lens[0] = encode_header(header, id, RDB_FRAME_ENTRIES, nframes, sum);
    unsigned char *p = seek + 8;
    for (uint32_t f = 0; f < nframes; f++)
        put32(&p, (uint32_t)enc->lens[f + 1]);
    uint64_t sc = rdb_checksum64(seek + 8, 4 * (size_t)nframes, 0);
    put64(&p, sc);
    put32(&p, nframes);
    put32(&p, FOOTER_MAGIC);
    enc->lens[nframes + 1] = (size_t)(p - seek);
    unsigned char *q = seek;
    put32(&q, SEEK_MAGIC);
    put32(&q, (uint32_t)(enc->lens[nframes + 1] - 8));
    enc->checksum = sum;
    enc->bytes = 0;
    for (int i = 0; i < enc->nbufs; i++)
        enc->bytes += enc->lens[i];
    return RDB_OK;
}

rdb_status rdb_slice_commit(const rdb_encoded_slice *enc, rdb_error *err)
{
    return rdb_commit_buffers(enc->path, (const void *const *)enc->bufs, enc->lens, enc->nbufs,
                              err);
}

rdb_status rdb_slice_write(const char *path, const rdb_slice_id *id, const int8_t *values,
                           int zstd_level, uint64_t *checksum, uint64_t *bytes, rdb_error *err)
{
    rdb_encoded_slice enc;
    rdb_status st = rdb_slice_encode(path, id, values, zstd_level, &enc, err);
    if (st != RDB_OK)
        return st;
    st = rdb_slice_commit(&enc, err);
    if (st == RDB_OK) {
        *checksum = enc.checksum;
        *bytes = enc.bytes;
    }
    rdb_encoded_free(&enc);
    return st;
}

static rdb_status corrupt(rdb_slice_file *sf, rdb_error *err, const char *what)
{
    rdb_status st = rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged: %s", sf->path, what);
    rdb_slice_close(sf);
    return st;
}

static int id_matches(const rdb_slice_id *a, const rdb_slice_id *b)
{
    if (a->game != b->game || a->rows != b->rows || a->cols != b->cols ||
        a->db_hash != b->db_hash || a->level != b->level || a->ngroups != b->ngroups ||
        a->entries != b->entries)
        return 0;
    for (uint32_t g = 0; g < a->ngroups; g++)
        if (a->counts[g] != b->counts[g])
            return 0;
    return 1;
}

rdb_status rdb_slice_open(const char *path, const rdb_slice_id *expect, rdb_slice_file *sf,
                          rdb_error *err)
{
    memset(sf, 0, sizeof *sf);
    sf->fd = -1;
    rdb_status st = rdb_path_format(sf->path, sizeof sf->path, err, "%s", path);
    if (st != RDB_OK)
        return st;
    /* A slice is a regular file of ours: a symbolic link is not followed
     * and a FIFO must not block the reader (O_NONBLOCK; a regular file
     * ignores it). Both count as damage, so that a resume redoes the slice
     * and its rename replaces the odd file. */
    sf->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (sf->fd < 0) {
        if (errno == ELOOP)
            return rdb_fail(err, RDB_E_CORRUPT, "'%s' is a symbolic link, not a slice file", path);
        return rdb_fail_errno(err, errno == ENOENT ? RDB_E_MISSING : RDB_E_IO,
                              "cannot open '%s'", path);
    }
    struct stat sb;
    if (fstat(sf->fd, &sb) != 0) {
        rdb_fail_errno(err, RDB_E_IO, "cannot stat '%s'", path);
        rdb_slice_close(sf);
        return RDB_E_IO;
    }
    if (!S_ISREG(sb.st_mode))
        return corrupt(sf, err, "not a regular file");
    sf->file_bytes = (uint64_t)sb.st_size;

    unsigned char hbuf[HEADER_MAX];
    size_t hlen = sf->file_bytes < HEADER_MAX ? (size_t)sf->file_bytes : HEADER_MAX;
    if (hlen < 8 + 8 + 4 * 4)
        return corrupt(sf, err, "too short for a header");
    st = rdb_pread_all(sf->fd, hbuf, hlen, 0, path, err);
    if (st != RDB_OK) {
        rdb_slice_close(sf);
        return st;
    }
    const unsigned char *p = hbuf;
    if (get32(&p) != HEADER_MAGIC)
        return corrupt(sf, err, "no slice header");
    uint32_t payload = get32(&p);
    if (payload < 8 + 8 || payload > hlen - 8)
        return corrupt(sf, err, "bad header size");
    if (memcmp(p, "RDBSLICE", 8) != 0)
        return corrupt(sf, err, "not a retrodb slice file");
    const unsigned char *hc_at = hbuf + 8 + payload - 8;
    uint64_t stored_hc = get64(&hc_at);
    if (rdb_checksum64(hbuf + 8, payload - 8, 0) != stored_hc)
        return corrupt(sf, err, "header checksum mismatch");
    p += 8;
    uint32_t version = get32(&p);
    if (version != RDB_FORMAT_VERSION) {
        rdb_fail(err, RDB_E_CORRUPT, "'%s' has format version %u; this retrodb reads version %d",
                 path, version, RDB_FORMAT_VERSION);
        rdb_slice_close(sf);
        return RDB_E_CORRUPT;
    }
    sf->id.game = get32(&p);
    sf->id.rows = get32(&p);
    sf->id.cols = get32(&p);
    sf->id.db_hash = get64(&p);
    sf->id.level = get32(&p);
    sf->id.ngroups = get32(&p);
    if (sf->id.ngroups > RDB_MAX_GROUPS || 8 + 4 * 6 + 8 + 4 * sf->id.ngroups + 8 + 4 + 4 + 8 + 8 != payload)
        return corrupt(sf, err, "bad header size");
    for (uint32_t g = 0; g < sf->id.ngroups; g++)
        sf->id.counts[g] = get32(&p);
    sf->id.entries = get64(&p);
    sf->frame_entries = get32(&p);
    sf->nframes = get32(&p);
    sf->values_checksum = get64(&p);
    if (expect && !id_matches(expect, &sf->id)) {
        rdb_fail(err, RDB_E_CORRUPT,
                 "'%s' holds another slice or another database's slice (level %u, %llu entries)",
                 path, sf->id.level, (unsigned long long)sf->id.entries);
        rdb_slice_close(sf);
        return RDB_E_CORRUPT;
    }
    /* Every writer uses one frame size; a header that claims another (say
     * 4 GiB, under a valid checksum) must not size any buffer. */
    if (sf->frame_entries != RDB_FRAME_ENTRIES)
        return corrupt(sf, err, "unexpected frame size");
    if (sf->nframes != (sf->id.entries + sf->frame_entries - 1) / sf->frame_entries)
        return corrupt(sf, err, "frame count does not match entry count");
    uint64_t header_end = 8 + (uint64_t)payload;

    /* footer and seek table */
    uint64_t seek_len = 8 + 4 * (uint64_t)sf->nframes + 16;
    if (sf->file_bytes < header_end + seek_len)
        return corrupt(sf, err, "truncated (no seek table)");
    unsigned char *seek = malloc(seek_len);
    sf->frame_offset = malloc((sf->nframes + 1) * sizeof *sf->frame_offset);
    if (!seek || !sf->frame_offset) {
        free(seek);
        rdb_slice_close(sf);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory opening '%s'", path);
    }
    st = rdb_pread_all(sf->fd, seek, seek_len, sf->file_bytes - seek_len, path, err);
    if (st != RDB_OK) {
        free(seek);
        rdb_slice_close(sf);
        return st;
    }
    const unsigned char *s = seek + seek_len - 4;
    uint32_t footer_magic = get32(&s);
    s = seek + seek_len - 8;
    uint32_t footer_frames = get32(&s);
    s = seek;
    uint32_t smagic = get32(&s);
    uint32_t spayload = get32(&s);
    if (footer_magic != FOOTER_MAGIC || footer_frames != sf->nframes || smagic != SEEK_MAGIC ||
        spayload != seek_len - 8) {
        free(seek);
        return corrupt(sf, err, "truncated or missing seek table");
    }
    const unsigned char *c = seek + 8 + 4 * (size_t)sf->nframes;
    uint64_t sc = get64(&c);
    if (rdb_checksum64(seek + 8, 4 * (size_t)sf->nframes, 0) != sc) {
        free(seek);
        return corrupt(sf, err, "seek table checksum mismatch");
    }
    uint64_t off = header_end;
    s = seek + 8;
    for (uint32_t f = 0; f < sf->nframes; f++) {
        sf->frame_offset[f] = off;
        off += get32(&s);
    }
    sf->frame_offset[sf->nframes] = off;
    free(seek);
    if (off + seek_len != sf->file_bytes)
        return corrupt(sf, err, "frame sizes do not add up to the file size");
    return RDB_OK;
}

void rdb_slice_close(rdb_slice_file *sf)
{
    if (sf->fd >= 0)
        close(sf->fd);
    sf->fd = -1;
    free(sf->frame_offset);
    sf->frame_offset = NULL;
}

/* Decompress frame f using dctx and a scratch buffer for compressed bytes. */
static rdb_status decode_frame(rdb_slice_file *sf, ZSTD_DCtx *dctx, unsigned char *scratch,
                               uint32_t f, int8_t *out, size_t *n, rdb_error *err)
{
    if (f >= sf->nframes)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s': frame %u out of range", sf->path, f);
    uint64_t csize = sf->frame_offset[f + 1] - sf->frame_offset[f];
    uint64_t lo = (uint64_t)f * sf->frame_entries;
    size_t want = (size_t)(sf->id.entries - lo < sf->frame_entries ? sf->id.entries - lo
                                                                     : sf->frame_entries);
    if (csize > ZSTD_compressBound(sf->frame_entries))
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged: frame %u is too large", sf->path, f);
    rdb_status st = rdb_pread_all(sf->fd, scratch, (size_t)csize, sf->frame_offset[f], sf->path, err);
    if (st != RDB_OK)
        return st;
    size_t got = ZSTD_decompressDCtx(dctx, out, want, scratch, (size_t)csize);
    if (ZSTD_isError(got))
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged: frame %u: %s", sf->path, f,
                        ZSTD_getErrorName(got));
    if (got != want)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged: frame %u holds %zu values, not %zu",
                        sf->path, f, got, want);
    *n = got;
    return RDB_OK;
}

rdb_status rdb_slice_read_frame(rdb_slice_file *sf, uint32_t f, int8_t *out, size_t *n,
                                rdb_error *err)
{
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    unsigned char *scratch = malloc(ZSTD_compressBound(sf->frame_entries));
    rdb_status st;
    if (!dctx || !scratch)
        st = rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", sf->path);
    else
        st = decode_frame(sf, dctx, scratch, f, out, n, err);
    free(scratch);
    ZSTD_freeDCtx(dctx);
    return st;
}

rdb_status rdb_slice_read_all(rdb_slice_file *sf, int8_t *out, rdb_error *err)
{
    rdb_status st = RDB_OK;
    rdb_error first;
    first.msg[0] = '\0';
    uint64_t *frame_sum = malloc((sf->nframes ? sf->nframes : 1) * sizeof *frame_sum);
    if (!frame_sum)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", sf->path);
#pragma omp parallel
    {
        ZSTD_DCtx *dctx = ZSTD_createDCtx();
        unsigned char *scratch = malloc(ZSTD_compressBound(sf->frame_entries));
        rdb_error local;
#pragma omp for schedule(dynamic, 1)
        for (uint32_t f = 0; f < sf->nframes; f++) {
            rdb_status s;
            size_t n = 0;
            int8_t *dst = out + (uint64_t)f * sf->frame_entries;
            if (!dctx || !scratch)
                s = rdb_fail(&local, RDB_E_NOMEM, "out of memory reading '%s'", sf->path);
            else
                s = decode_frame(sf, dctx, scratch, f, dst, &n, &local);
            if (s == RDB_OK)
                frame_sum[f] = rdb_checksum64(dst, n, 0);
            else {
#pragma omp critical(rdb_slice_read_error)
                if (st == RDB_OK) {
                    st = s;
                    first = local;
                }
            }
        }
        free(scratch);
        ZSTD_freeDCtx(dctx);
    }
    uint64_t sum = st == RDB_OK ? combine_frame_sums(frame_sum, sf->nframes) : 0;
    free(frame_sum);
    if (st != RDB_OK) {
        if (err)
            *err = first;
        return st;
    }
    if (sum != sf->values_checksum)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' is damaged: values checksum mismatch", sf->path);
    return RDB_OK;
}

struct rdb_frame_reader {
    ZSTD_DCtx *dctx;
    unsigned char *scratch;
};

rdb_frame_reader *rdb_frame_reader_new(void)
{
    rdb_frame_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->dctx = ZSTD_createDCtx();
    r->scratch = malloc(ZSTD_compressBound(RDB_FRAME_ENTRIES));
    if (!r->dctx || !r->scratch) {
        rdb_frame_reader_free(r);
        return NULL;
    }
    return r;
}

void rdb_frame_reader_free(rdb_frame_reader *r)
{
    if (!r)
        return;
    ZSTD_freeDCtx(r->dctx);
    free(r->scratch);
    free(r);
}

rdb_status rdb_frame_reader_read(rdb_frame_reader *r, rdb_slice_file *sf, uint32_t f,
                                 int8_t *out, size_t *n, rdb_error *err)
{
    return decode_frame(sf, r->dctx, r->scratch, f, out, n, err);
}
