/*
 * error.c — filling rdb_error messages; see error.h.
 */
#include "common/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

rdb_status rdb_fail(rdb_error *err, rdb_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return status;
}

rdb_status rdb_fail_errno(rdb_error *err, rdb_status status, const char *fmt, ...)
{
    int saved = errno;
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < sizeof err->msg)
            snprintf(err->msg + n, sizeof err->msg - (size_t)n, ": %s", strerror(saved));
    }
    errno = saved;
    return status;
}
