/*
 * path.c — file names that are never silently cut short; see path.h.
 */
#include "common/path.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

rdb_status rdb_path_format(char *buf, size_t size, rdb_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < size)
        return RDB_OK;
    /* Show the start of the name: enough to recognise it, short enough
     * for a one-line message. */
    rdb_fail(err, RDB_E_INPUT, "file name too long (%d characters; at most %zu): '%.60s...'", n,
             size - 1, buf);
    if (size > 0)
        buf[0] = '\0';
    return RDB_E_INPUT;
}

rdb_status rdb_check_dir_name(const char *dir, rdb_error *err)
{
    size_t n = strlen(dir);
    if (n == 0)
        return rdb_fail(err, RDB_E_INPUT, "the database folder name is empty");
    if (n > RDB_DIR_MAX)
        return rdb_fail(err, RDB_E_INPUT,
                        "the database folder name is too long (%zu characters; at most %d, to leave room for the slice files under it): '%.60s...'",
                        n, RDB_DIR_MAX, dir);
    return RDB_OK;
}
