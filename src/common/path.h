/*
 * path.h — building file names that are never silently cut short.
 *
 * A database folder holds a tree of slice files whose names are the
 * folder's name plus a suffix of a few dozen characters. A name that does
 * not fit its buffer must be refused, never truncated: a truncated name
 * can point into another folder, where a build would overwrite another
 * database's finished files.
 */
#ifndef RDB_PATH_H
#define RDB_PATH_H

#include <stddef.h>

#include "common/error.h"

/* The longest file name retrodb builds, terminator included (Linux's
 * PATH_MAX). */
#define RDB_PATH_MAX 4096

/* The longest database folder name: room is left under it for the longest
 * slice file name (level, up to 16 group counts, ".zst") and the
 * temporary suffix ".<pid>.tmp". */
#define RDB_DIR_MAX (RDB_PATH_MAX - 256)

/* printf into buf (size bytes); a result that does not fit is refused
 * with RDB_E_INPUT ("file name too long: ..."), and buf then holds "". */
rdb_status rdb_path_format(char *buf, size_t size, rdb_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Refuse (RDB_E_INPUT) a database folder name longer than RDB_DIR_MAX or
 * empty, naming the option the user gave it with. */
rdb_status rdb_check_dir_name(const char *dir, rdb_error *err);

#endif
