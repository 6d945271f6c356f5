/*
 * level_checksums.c — a database's levels against a list of per-level
 * checksums; see level_checksums.h.
 */
#include "engine/level_checksums.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/text_input.h"

int rdb_level_list_has(const rdb_level_list *list, int level)
{
    return level >= 0 && level <= RDB_MAX_BITS && list->listed[level];
}

/* An unsigned decimal field at *s (no sign, no spaces inside), moving *s
 * past it; 0 when there is none or it passes `most`. */
static int read_decimal(const char **s, uint64_t most, uint64_t *out)
{
    const char *p = *s;
    if (!isdigit((unsigned char)*p))
        return 0;
    uint64_t v = 0;
    for (; isdigit((unsigned char)*p); p++) {
        const unsigned d = (unsigned)(*p - '0');
        if (v > (most - d) / 10)
            return 0;
        v = v * 10 + d;
    }
    *s = p;
    *out = v;
    return 1;
}

/* Exactly 16 hex digits at *s. */
static int read_checksum(const char **s, uint64_t *out)
{
    const char *p = *s;
    uint64_t v = 0;
    for (int i = 0; i < 16; i++, p++) {
        if (!isxdigit((unsigned char)*p))
            return 0;
        const int c = tolower((unsigned char)*p);
        v = v << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    if (isxdigit((unsigned char)*p))
        return 0;
    *s = p;
    *out = v;
    return 1;
}

static void skip_blanks(const char **s)
{
    while (**s == ' ' || **s == '\t' || **s == '\r')
        (*s)++;
}

/* A line's four fields; 0 when it is not a level's line. */
static int parse_line(const char *s, int *level, rdb_listed_level *out)
{
    uint64_t lv, slices;
    skip_blanks(&s);
    if (!read_decimal(&s, RDB_MAX_BITS, &lv))
        return 0;
    skip_blanks(&s);
    if (!read_decimal(&s, INT32_MAX, &slices))
        return 0;
    skip_blanks(&s);
    if (!read_decimal(&s, UINT64_MAX, &out->positions))
        return 0;
    skip_blanks(&s);
    if (!read_checksum(&s, &out->checksum))
        return 0;
    skip_blanks(&s);
    if (*s)
        return 0;
    *level = (int)lv;
    out->slices = (int)slices;
    return 1;
}

rdb_status rdb_level_list_read(const char *path, rdb_level_list *list, rdb_error *err)
{
    memset(list, 0, sizeof *list);
    char *text;
    rdb_status st = rdb_read_file(path, &text, err);
    if (st != RDB_OK)
        return st;
    const char *name = !path || strcmp(path, "-") == 0 ? "standard input" : path;
    int number = 0;
    for (char *line = text, *next; line; line = next) {
        number++;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        const char *s = line;
        skip_blanks(&s);
        if (!*s || *s == '#')
            continue;
        int level;
        rdb_listed_level l;
        if (!parse_line(line, &level, &l)) {
            st = rdb_fail(err, RDB_E_INPUT,
                          "%s, line %d: not a level's checksum line (want: level slices "
                          "positions checksum, as `retrodb info` prints them)",
                          name, number);
            break;
        }
        if (rdb_level_list_has(list, level)) {
            st = rdb_fail(err, RDB_E_INPUT, "%s, line %d: level %d is listed twice", name,
                          number, level);
            break;
        }
        list->listed[level] = 1;
        list->level[level] = l;
    }
    free(text);
    return st;
}

void rdb_level_list_compare(const rdb_report *r, const rdb_level_list *list,
                            rdb_level_comparison *c)
{
    memset(c, 0, sizeof *c);
    const int nbits = r->db.lay.nbits;
    c->levels = nbits + 1;
    for (int level = 0; level <= nbits; level++) {
        const rdb_level_report *ls = &r->level[level];
        const rdb_listed_level *l = &list->level[level];
        rdb_level_verdict v;
        if (ls->done < ls->slices)
            v = RDB_LEVEL_UNFINISHED;
        else if (!rdb_level_list_has(list, level))
            v = RDB_LEVEL_NOT_LISTED;
        else if (l->slices == ls->slices && l->positions == ls->positions &&
                 l->checksum == ls->checksum)
            v = RDB_LEVEL_AGREES;
        else
            v = RDB_LEVEL_DIFFERS;
        c->verdict[level] = v;
        c->agree += v == RDB_LEVEL_AGREES;
        c->differ += v == RDB_LEVEL_DIFFERS;
        c->not_listed += v == RDB_LEVEL_NOT_LISTED;
        c->unfinished += v == RDB_LEVEL_UNFINISHED;
    }
    for (int level = nbits + 1; level <= RDB_MAX_BITS; level++)
        c->beyond += rdb_level_list_has(list, level);
    c->differ += c->beyond;
}
