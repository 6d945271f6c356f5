/*
 * table_file.h — a search's transposition table on disk: the one file
 * format and the one way of writing and reading it that the Dots-and-Boxes
 * and the Cram solvers share (`solve --tt-file`), so that a long search
 * stopped by a signal, or saved every so many minutes, goes on from where
 * it was.
 *
 * Format (little-endian): an 8-byte magic, which names the search and its
 * records; the search's own fields (a few bytes: the board, the table's
 * size; the search checks them); a u64 count; count records of a fixed
 * size; and the FNV-1a of everything before.
 *
 * Saving writes a temporary file and renames it over the old (a crash or
 * a full disk while saving leaves the file before). The searchers may go
 * on storing while a table is saved, so the count is known only at the
 * end: it is written over the head then, and the checksum read back from
 * the file.
 *
 * Loading reads the head (magic, then the search's check of its fields),
 * the size against the count and the checksum over the whole file, then
 * every record once to check it and, only when all pass, once more to add
 * it: a file refused adds nothing to the table. A file is input: the
 * errors name it.
 */
#ifndef RDB_SEARCH_TABLE_FILE_H
#define RDB_SEARCH_TABLE_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define RDB_TABLE_MAX_FIELDS 16 /* bytes of a search's own fields */

typedef struct {
    const char *magic; /* 8 bytes, no terminator needed */
    size_t nfields;    /* bytes of the search's fields after it (at most
                          RDB_TABLE_MAX_FIELDS) */
    size_t record;     /* bytes of a record */
    const char *what;  /* what a file of this format is, for messages
                          ("a table of this search") */
} rdb_table_format;

/* Write at most `most` records to buf; 0 when there are no more. A save
 * asks for RDB_TABLE_FILL_MOST at most. */
#define RDB_TABLE_FILL_MOST 4096
typedef size_t (*rdb_table_fill_fn)(void *ctx, unsigned char *buf, size_t most);

/* Write the records fill gives, after the fields (f->nfields bytes), to
 * path. */
rdb_status rdb_table_file_save(const char *path, const rdb_table_format *f,
                               const unsigned char *fields, rdb_table_fill_fn fill, void *ctx,
                               rdb_error *err);

/* The search's check of a file's fields: RDB_OK, or the error to give
 * (naming path). */
typedef rdb_status (*rdb_table_fields_fn)(void *ctx, const char *path, const unsigned char *fields,
                                          rdb_error *err);

/* Called on record i (from 0) twice: with apply 0 to check it (RDB_OK,
 * or the error to give, naming path), then, once every record passed,
 * with apply 1 to add it. */
typedef rdb_status (*rdb_table_record_fn)(void *ctx, const char *path, uint64_t i,
                                          const unsigned char *record, int apply, rdb_error *err);

/* Load path: RDB_E_MISSING when it does not exist, RDB_E_CORRUPT when it
 * is no file of format f or fails its size or checksum, else what the
 * callbacks say. *loaded gets the records added. */
rdb_status rdb_table_file_load(const char *path, const rdb_table_format *f,
                               rdb_table_fields_fn fields, rdb_table_record_fn each, void *ctx,
                               uint64_t *loaded, rdb_error *err);

/* Make path this process's table file for a long run, before the run:
 * lock it against a second process (*lock_fd holds the lock until
 * rdb_table_file_release), remove the temporary files a killed save left
 * of path and of `also` (another file saved beside it, or NULL: each as
 * big as its table, and left there the next save may find the disk full),
 * and create one now, to learn at the start, not at the first save, that
 * the folder takes it. */
rdb_status rdb_table_file_claim(const char *path, const char *also, int *lock_fd, rdb_error *err);
void rdb_table_file_release(int lock_fd);

#endif
