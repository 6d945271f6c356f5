/*
 * human.c — numbers for people; see human.h.
 */
#include "common/human.h"

#include <stdio.h>
#include <string.h>

char *rdb_human_count(uint64_t n, char *buf, size_t size)
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    char out[32];
    int o = 0;
    for (int i = 0; i < len; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
    snprintf(buf, size, "%s", out);
    return buf;
}

char *rdb_human_duration(double seconds, char *buf, size_t size)
{
    if (!(seconds >= 0)) /* NaN too */
        seconds = 0;
    if (seconds < 10) {
        snprintf(buf, size, "%.2f s", seconds);
        return buf;
    }
    if (seconds < 60) {
        snprintf(buf, size, "%.0f s", seconds);
        return buf;
    }
    if (seconds > 1e9) /* beyond any build: a rate near zero */
        seconds = 1e9;
    unsigned long long t = (unsigned long long)(seconds + 0.5);
    unsigned long long days = t / 86400, h = t / 3600 % 24, m = t / 60 % 60, s = t % 60;
    if (days)
        snprintf(buf, size, "%llu day%s %llu:%02llu:%02llu", days, days == 1 ? "" : "s", h, m, s);
    else if (h)
        snprintf(buf, size, "%llu:%02llu:%02llu", h, m, s);
    else
        snprintf(buf, size, "%llu:%02llu", m, s);
    return buf;
}

char *rdb_human_bytes(uint64_t bytes, char *buf, size_t size)
{
    if (bytes < 1000)
        snprintf(buf, size, "%llu bytes", (unsigned long long)bytes);
    else if (bytes < 1000000)
        snprintf(buf, size, "%.1f kB", (double)bytes / 1e3);
    else if (bytes < 1000000000)
        snprintf(buf, size, "%.1f MB", (double)bytes / 1e6);
    else
        snprintf(buf, size, "%.2f GB", (double)bytes / 1e9);
    return buf;
}

char *rdb_human_plural(uint64_t n, const char *noun, char *buf, size_t size)
{
    char count[RDB_HUMAN_MAX];
    snprintf(buf, size, "%s %s%s", rdb_human_count(n, count, sizeof count), noun,
             n == 1 ? "" : "s");
    return buf;
}
