/*
 * number.c — strict number parsing; see number.h.
 */
#include "common/number.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int rdb_parse_long(const char *s, long lo, long hi, long *out)
{
    /* strtol would skip leading blanks and accept an empty string as 0 */
    if (!s || !(isdigit((unsigned char)s[0]) || ((s[0] == '-' || s[0] == '+') &&
                                                   isdigit((unsigned char)s[1]))))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int rdb_parse_int(const char *s, int lo, int hi, int *out)
{
    long v;
    if (rdb_parse_long(s, lo, hi, &v) != 0)
        return -1;
    *out = (int)v;
    return 0;
}

int rdb_parse_u64(const char *s, int base, uint64_t max, uint64_t *out)
{
    if (!s)
        return -1;
    if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    /* strtoull would accept a sign and wrap "-1" to 2^64-1 */
    if (!isxdigit((unsigned char)s[0]) || (base == 10 && !isdigit((unsigned char)s[0])))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, base);
    if (errno || *end || v > max)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int rdb_parse_board(const char *s, int max, int *rows, int *cols)
{
    if (!s)
        return -1;
    const char *x = strchr(s, 'x');
    if (!x || x == s || (size_t)(x - s) > 10)
        return -1;
    char r[12];
    memcpy(r, s, (size_t)(x - s));
    r[x - s] = '\0';
    int R, C;
    /* digits only: no sign, no blank */
    if (!isdigit((unsigned char)r[0]) || !isdigit((unsigned char)x[1]) ||
        rdb_parse_int(r, 1, max, &R) != 0 || rdb_parse_int(x + 1, 1, max, &C) != 0)
        return -1;
    *rows = R;
    *cols = C;
    return 0;
}
