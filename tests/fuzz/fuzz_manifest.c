/*
 * fuzz_manifest.c — fuzz target `manifest`: a database's MANIFEST file,
 * the record of finished slices (rdb_manifest_load), and lookups in what
 * was read (rdb_manifest_find, rdb_manifest_forget).
 *
 * The input is written as MANIFEST in the harness's temporary folder and
 * loaded for a few group counts: none, the count its first slice record
 * suggests, and the most a layout has. What is loaded must be sorted, one
 * record per slice, and each record must be found again and forgotten.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "store/manifest.h"

static void broken(const char *what, int ngroups)
{
    fprintf(stderr, "manifest loaded with %d groups: %s\n", ngroups, what);
    abort();
}

/* Groups of the first slice record: one more than the commas in its counts. */
static int groups_suggested(const uint8_t *data, size_t size)
{
    const char *p = memmem(data, size, "slice ", 6);
    if (!p)
        return 1;
    const char *end = (const char *)data + size;
    int field = 0, commas = 0;
    for (p += 6; p < end && *p != '\n'; p++) {
        if (*p == ' ' && ++field == 2)
            break;
        commas += field == 1 && *p == ',';
    }
    return commas + 1 > RDB_MAX_GROUPS ? RDB_MAX_GROUPS : commas + 1;
}

static void load(const char *dir, int ngroups)
{
    rdb_manifest m;
    rdb_error err;
    /* the widest database: every level 0..64 is one of its levels */
    if (rdb_manifest_load(&m, dir, ngroups, 64, &err) != RDB_OK)
        return;
    for (size_t i = 0; i < m.n; i++) {
        const rdb_manifest_entry *e = &m.e[i];
        if (e->level < 0 || e->level > 64)
            broken("a level out of range", ngroups);
        if (i > 0) {
            const rdb_manifest_entry *d = &m.e[i - 1];
            if (d->level > e->level ||
                (d->level == e->level && memcmp(d->counts, e->counts, sizeof e->counts) >= 0))
                broken("records out of order or repeated", ngroups);
        }
    }
    /* Look each slice up and forget it, last first, so that the ones left
     * keep their places. */
    for (size_t i = m.n; i-- > 0;) {
        rdb_slice s;
        memset(&s, 0, sizeof s);
        s.level = m.e[i].level;
        for (int g = 0; g < ngroups; g++)
            s.counts[g] = m.e[i].counts[g];
        if (rdb_manifest_find(&m, &s) != &m.e[i])
            broken("a record that cannot be found", ngroups);
        rdb_manifest_forget(&m, &s);
        if (m.n != i || rdb_manifest_find(&m, &s))
            broken("a record that cannot be forgotten", ngroups);
    }
    rdb_manifest_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_temp_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    fuzz_write_file(path, data, size);
    load(dir, 0);
    int g = groups_suggested(data, size);
    load(dir, g);
    if (g != RDB_MAX_GROUPS)
        load(dir, RDB_MAX_GROUPS);
    unlink(path);
    return 0;
}
