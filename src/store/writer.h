/*
 * writer.h — committing finished slices in the background.
 *
 * Making a slice durable costs several fsyncs, which on many disks take
 * longer than computing a small slice. The writer thread takes one encoded
 * slice at a time, creates its folder, commits its file (temp, fsync,
 * rename, fsync folder) and only then records it in the manifest, while the
 * builder computes the next slice. The builder drains the writer before it
 * reads anything the writer may be writing (at the end of every level) and
 * before it exits, so the order "file durable, then recorded" always holds.
 * The manifest belongs to the writer between submit and drain: under
 * RDB_CHECK_INVARIANTS every manifest call from another thread then
 * aborts (manifest.c, MANIFEST_MINE).
 */
#ifndef RDB_WRITER_H
#define RDB_WRITER_H

#include "layout/layout.h"
#include "store/manifest.h"
#include "store/slicefile.h"

typedef struct rdb_writer rdb_writer;

rdb_status rdb_writer_start(rdb_writer **out, rdb_manifest *man, const char *dir, rdb_error *err);

/* Hand over enc (the writer frees it) for slice s, which took `seconds`.
 * Waits for the previous slice to be committed first; returns the first
 * error the writer met, if any (then enc is freed and not written). */
rdb_status rdb_writer_submit(rdb_writer *w, rdb_encoded_slice *enc, const rdb_slice *s,
                             double seconds, rdb_error *err);

/* Wait until everything submitted is committed and recorded. */
rdb_status rdb_writer_drain(rdb_writer *w, rdb_error *err);

/* Drain, stop the thread and free the writer (NULL is fine). */
rdb_status rdb_writer_stop(rdb_writer *w, rdb_error *err);

#endif
