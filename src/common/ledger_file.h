/*
 * ledger_file.h — the file under a ledger of a long search (dots_ledger.h,
 * cram_ledger.h): a text file of one claim per line that the search reads
 * at start and appends to as each claim is proved, so that what it proved
 * survives a kill, a full disk or a move to another machine.
 *
 * Appending is one write of whole lines under an exclusive lock, then
 * fsync: two processes sharing a ledger never interleave their lines, and
 * a line counts only once it is on the disk. A last line without its
 * newline is a write cut short (a crash, a full disk): reading leaves it
 * out, and the next append removes it first so that no line gets glued
 * onto it.
 */
#ifndef RDB_LEDGER_FILE_H
#define RDB_LEDGER_FILE_H

#include <stddef.h>

#include "common/error.h"

/* Call line(ctx, text, lineno) for every whole line of the file at path,
 * in order (text is NUL-terminated, without its newline, and may be
 * changed by line). A missing file has no lines. line returns 0 to go on,
 * or -1 when the text is not a line of this ledger: then the reading stops
 * with RDB_E_CORRUPT naming the file, the line number and its text.
 * Any other status line returns (with err filled) stops the reading and is
 * returned. */
rdb_status rdb_ledger_read(const char *path, int (*line)(void *ctx, char *text, int lineno, rdb_error *err),
                           void *ctx, rdb_error *err);

/* Append text (whole lines, each ending in '\n') to the file at path,
 * made if missing: locked, and fsync'ed before this returns RDB_OK; a full
 * disk is RDB_E_NOSPACE. */
rdb_status rdb_ledger_append(const char *path, const char *text, rdb_error *err);

/* Whether the file at path can be appended to (made if missing, empty);
 * RDB_E_IO saying why not. */
rdb_status rdb_ledger_writable(const char *path, rdb_error *err);

/* Room for one more entry in a ledger's array of n entries of `size`
 * bytes, *cap of them allocated (doubled when full); path names the
 * ledger in the message when memory is short. */
rdb_status rdb_ledger_room(void **entry, int *cap, int n, size_t size, const char *path, rdb_error *err);

#endif
