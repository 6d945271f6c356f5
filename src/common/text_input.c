/*
 * text_input.c — see text_input.h.
 */
#include "common/text_input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

rdb_status rdb_read_stream(FILE *f, const char *name, char **text, rdb_error *err)
{
    *text = NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", name);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            if (cap >= (1u << 24)) {
                free(buf);
                return rdb_fail(err, RDB_E_INPUT, "'%s' is too large: text input stops at 16 MB", name);
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", name);
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (ferror(f)) {
        free(buf);
        return rdb_fail_errno(err, RDB_E_IO, "cannot read '%s'", name);
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        free(buf);
        return rdb_fail(err, RDB_E_INPUT, "'%s' contains a NUL byte: it is not text", name);
    }
    *text = buf;
    return RDB_OK;
}

rdb_status rdb_read_file(const char *path, char **text, rdb_error *err)
{
    *text = NULL;
    if (!path || strcmp(path, "-") == 0)
        return rdb_read_stream(stdin, "standard input", text, err);
    FILE *f = fopen(path, "r");
    if (!f)
        return rdb_fail_errno(err, errno == ENOENT ? RDB_E_INPUT : RDB_E_IO, "cannot open '%s'", path);
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        return rdb_fail(err, RDB_E_INPUT, "'%s' is a folder; give a file", path);
    }
    rdb_status st = rdb_read_stream(f, path, text, err);
    fclose(f);
    return st;
}
