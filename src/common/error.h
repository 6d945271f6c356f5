/*
 * error.h — how retrodb reports failures.
 *
 * Every fallible function returns an rdb_status and, on failure, fills an
 * rdb_error with a one-line, lower-case message in git's style that names
 * the thing that failed ("cannot open 'db/19/4/3.zst': No such file or
 * directory"). The status tells the caller what kind of failure it was, so
 * the command-line tool can map it to an exit code: bad input is 2,
 * everything else 1.
 */
#ifndef RDB_ERROR_H
#define RDB_ERROR_H

#include "retrodb/status.h"

/* Fill err (if not NULL) with a printf-style message and return status. */
rdb_status rdb_fail(rdb_error *err, rdb_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Like rdb_fail, with ": <strerror(errno)>" appended. */
rdb_status rdb_fail_errno(rdb_error *err, rdb_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
