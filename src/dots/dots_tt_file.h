/*
 * dots_tt_file.h — the Dots-and-Boxes search's transposition table on
 * disk (`solve dots --tt-file`), so that a long search stopped by a signal,
 * or saved every so many minutes, goes on from where it was.
 *
 * The file is the search runtime's (search/table_file.h): magic
 * "RDBDOTT1"; the fields rows (4 bytes), columns (4), full value (4,
 * signed); the entry count (8); then per entry the canonical position
 * (8), lower and upper bound (2 each, signed), best move (1) and open
 * lines (1); then an FNV-1a checksum (8) of everything before it. It is
 * written to a temporary name and renamed, so a crash while saving leaves
 * the previous file.
 *
 * A file is input: the header must match the solver, the size must match
 * the count, the checksum must hold, and every entry must pass the
 * solver's checks (dots_solver_table_import); entries with at most
 * DOTS_TT_VERIFY_OPEN open lines are solved again and must agree. A bound
 * of a bigger position cannot be checked short of solving it: use only
 * tables your own runs wrote.
 */
#ifndef RDB_DOTS_TT_FILE_H
#define RDB_DOTS_TT_FILE_H

#include <stdint.h>

#include "common/error.h"
#include "dots/dots_solver.h"

#define DOTS_TT_VERIFY_OPEN 8

/* Save the table of s (rows x cols, full_value) to path. */
rdb_status dots_tt_save(const dots_solver *s, const dots_board *b, int full_value,
                        const char *path, rdb_error *err);

/* Load path into s: RDB_E_MISSING when it does not exist, RDB_E_CORRUPT
 * naming it when it is damaged or does not fit; *loaded: entries read. */
rdb_status dots_tt_load(dots_solver *s, const dots_board *b, int full_value, const char *path,
                        uint64_t *loaded, rdb_error *err);

/* Make path this process's table file before a search (the runtime's
 * rdb_table_file_claim: locked against a second search, the temporary
 * file a killed save left removed, the folder found writable now rather
 * than at the first save); *lock_fd holds the lock until released. */
rdb_status dots_tt_file_claim(const char *path, int *lock_fd, rdb_error *err);
void dots_tt_file_release(int lock_fd);

#endif
