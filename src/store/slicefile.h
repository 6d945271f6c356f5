/*
 * slicefile.h — one slice of values as a zstd-compressed file.
 *
 * Layout (all integers little-endian):
 *   header   zstd skippable frame (magic 0x184D2A50) holding "RDBSLICE",
 *            format version, game, board, database hash, level, counts,
 *            entry count, entries per frame, frame count, checksum of the
 *            uncompressed values (the checksums of the frames' values,
 *            folded in order), and a checksum of the header itself;
 *   values   one independent zstd frame (with content checksum) per
 *            RDB_FRAME_ENTRIES values;
 *   seek     zstd skippable frame (magic 0x184D2A5E) holding the compressed
 *            size of every frame, their checksum, the frame count and the
 *            magic "RDBF" as the file's last 4 bytes.
 * The whole file is still a valid zstd stream (zstd -d prints the values).
 * A lookup reads the seek table and decompresses one frame; a missing or
 * short footer means an incomplete file.
 */
#ifndef RDB_SLICEFILE_H
#define RDB_SLICEFILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/path.h"
#include "layout/layout.h"

#define RDB_FRAME_ENTRIES (1u << 17)
#define RDB_FORMAT_VERSION 1

/* What a slice file must say about itself to be the one expected. */
typedef struct {
    uint32_t game;          /* the game's id (game.h) */
    uint32_t rows, cols;
    uint64_t db_hash;       /* hash of every parameter that fixes the values */
    uint32_t level;
    uint32_t ngroups;
    uint32_t counts[RDB_MAX_GROUPS];
    uint64_t entries;
} rdb_slice_id;

typedef struct {
    int fd;
    char path[RDB_PATH_MAX];
    rdb_slice_id id;
    uint64_t values_checksum;
    uint32_t frame_entries;
    uint32_t nframes;
    uint64_t *frame_offset;  /* nframes + 1 offsets into the file */
    uint64_t file_bytes;
} rdb_slice_file;

/* Compress values (id->entries bytes) and commit them atomically to path.
 * Uses the calling OpenMP team's threads for frames; the bytes written do
 * not depend on the number of threads. Returns the checksum of the values
 * and the file's size. */
rdb_status rdb_slice_write(const char *path, const rdb_slice_id *id, const int8_t *values,
                           int zstd_level, uint64_t *checksum, uint64_t *bytes, rdb_error *err);

/* A slice compressed in memory, ready to be committed to its file. */
typedef struct {
    char path[RDB_PATH_MAX];
    int nbufs;
    void **bufs;
    size_t *lens;
    uint64_t checksum;      /* of the uncompressed values */
    uint64_t bytes;         /* size of the file */
} rdb_encoded_slice;

/* rdb_slice_write in two steps, so that the slow part of committing (the
 * fsyncs) can run beside the next slice's computation. */
rdb_status rdb_slice_encode(const char *path, const rdb_slice_id *id, const int8_t *values,
                            int zstd_level, rdb_encoded_slice *enc, rdb_error *err);
rdb_status rdb_slice_commit(const rdb_encoded_slice *enc, rdb_error *err);
void rdb_encoded_free(rdb_encoded_slice *enc);

/* Open a slice file and check its header and seek table against `expect`
 * (expect may be NULL to accept any slice, e.g. for `verify`). */
rdb_status rdb_slice_open(const char *path, const rdb_slice_id *expect, rdb_slice_file *sf,
                          rdb_error *err);
void rdb_slice_close(rdb_slice_file *sf);

/* Decompress every value into out (sf->id.entries bytes) and check the
 * values' checksum. */
rdb_status rdb_slice_read_all(rdb_slice_file *sf, int8_t *out, rdb_error *err);

/* Decompress frame f into out (at least sf->frame_entries bytes); returns
 * the number of values in *n. */
rdb_status rdb_slice_read_frame(rdb_slice_file *sf, uint32_t f, int8_t *out, size_t *n,
                                rdb_error *err);

/* The same, many times, without a context each time: for a reader that
 * fetches frame after frame from many files. One reader per thread. */
typedef struct rdb_frame_reader rdb_frame_reader;
rdb_frame_reader *rdb_frame_reader_new(void); /* NULL when out of memory */
void rdb_frame_reader_free(rdb_frame_reader *r);
rdb_status rdb_frame_reader_read(rdb_frame_reader *r, rdb_slice_file *sf, uint32_t f,
                                 int8_t *out, size_t *n, rdb_error *err);

#endif
