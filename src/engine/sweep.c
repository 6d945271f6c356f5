/*
 * sweep.c — removing a build's own files; see sweep.h.
 *
 * The slices of a level come in the order of their counts, so the slices
 * of one folder come together: each folder is listed once, when its first
 * slice comes.
 */
#define _GNU_SOURCE
#include "engine/sweep.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fsutil.h"

/* The names in one folder (nothing when it does not exist). */
typedef struct {
    char folder[RDB_PATH_MAX];
    char **name;
    size_t n;
} listing;

static void listing_free(listing *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->name[i]);
    free(l->name);
    l->name = NULL;
    l->n = 0;
    l->folder[0] = '\0';
}

static rdb_status list_folder(listing *l, const char *folder, rdb_error *err)
{
    listing_free(l);
    snprintf(l->folder, sizeof l->folder, "%s", folder);
    DIR *d = opendir(folder);
    if (!d)
        return errno == ENOENT || errno == ENOTDIR
                   ? RDB_OK
                   : rdb_fail_errno(err, RDB_E_IO, "cannot list folder '%s'", folder);
    size_t cap = 0;
    struct dirent *e;
    rdb_status st = RDB_OK;
    while ((e = readdir(d))) {
        if (l->n == cap) {
            cap = cap ? 2 * cap : 32;
            char **grown = realloc(l->name, cap * sizeof *grown);
            if (!grown) {
                st = rdb_fail(err, RDB_E_NOMEM, "out of memory listing '%s'", folder);
                break;
            }
            l->name = grown;
        }
        if (!(l->name[l->n] = strdup(e->d_name))) {
            st = rdb_fail(err, RDB_E_NOMEM, "out of memory listing '%s'", folder);
            break;
        }
        l->n++;
    }
    closedir(d);
    return st;
}

/* Remove folder/name, a file; one that is gone already is fine. */
static rdb_status remove_file(const char *folder, const char *name, rdb_error *err)
{
    char path[RDB_PATH_MAX];
    rdb_status st = rdb_path_format(path, sizeof path, err, "%s/%s", folder, name);
    if (st == RDB_OK && unlink(path) != 0 && errno != ENOENT)
        st = rdb_fail_errno(err, RDB_E_IO, "cannot remove '%s'", path);
    return st;
}

/* Remove the temporary files of `base` in the listed folder, and base
 * itself when `also_base`. */
static rdb_status sweep_name(const listing *l, const char *base, int also_base, rdb_error *err)
{
    rdb_status st = RDB_OK;
    for (size_t i = 0; i < l->n && st == RDB_OK; i++)
        if (rdb_is_temp_of(l->name[i], base) || (also_base && strcmp(l->name[i], base) == 0))
            st = remove_file(l->folder, l->name[i], err);
    return st;
}

/* Sweep one level's slice files: their temporary files, and the files
 * themselves when `also_slices`; only those of the dropped part when
 * `dropped_part`. */
static rdb_status sweep_slices(const rdb_db *db, int level, int also_slices, int dropped_part,
                               rdb_error *err)
{
    rdb_slice *slices;
    int ns = rdb_db_level_slices(db, level, &slices);
    if (ns < 0)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory listing slices");
    listing l = {.name = NULL, .n = 0};
    l.folder[0] = '\0';
    rdb_status st = RDB_OK;
    for (int i = 0; i < ns && st == RDB_OK; i++) {
        if (dropped_part && !rdb_db_dropped_part(db, &slices[i]))
            continue;
        char path[RDB_PATH_MAX];
        st = rdb_slice_path(db, &slices[i], path, sizeof path, err);
        if (st != RDB_OK)
            break;
        char *slash = strrchr(path, '/');
        *slash = '\0';
        if (strcmp(path, l.folder) != 0)
            st = list_folder(&l, path, err);
        if (st == RDB_OK)
            st = sweep_name(&l, slash + 1, also_slices, err);
    }
    listing_free(&l);
    free(slices);
    return st;
}

rdb_status rdb_sweep_temp_files(const rdb_db *db, rdb_error *err)
{
    listing top = {.name = NULL, .n = 0};
    rdb_status st = list_folder(&top, db->dir, err);
    if (st == RDB_OK)
        st = sweep_name(&top, "PARAMS", 0, err);
    if (st == RDB_OK)
        st = sweep_name(&top, "PROBLEM", 0, err);
    if (st == RDB_OK)
        st = sweep_name(&top, "MANIFEST", 0, err);
    listing_free(&top);
    for (int level = 0; level <= db->lay.nbits && st == RDB_OK; level++)
        st = sweep_slices(db, level, 0, 0, err);
    return st;
}

rdb_status rdb_sweep_dropped_part(const rdb_db *db, int level, rdb_error *err)
{
    rdb_slice *slices;
    int ns = rdb_db_level_slices(db, level, &slices), some = 0;
    if (ns < 0)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory listing slices");
    for (int i = 0; i < ns; i++)
        some |= rdb_db_dropped_part(db, &slices[i]);
    free(slices);
    if (!some)
        return RDB_OK; /* nothing of the part: no folder either, maybe */
    rdb_status st = sweep_slices(db, level, 1, 1, err);
    char top[RDB_PATH_MAX];
    if (st == RDB_OK)
        st = rdb_path_format(top, sizeof top, err, "%s/%d/x", db->dir, level);
    return st == RDB_OK ? rdb_fsync_parent(top, err) : st;
}

rdb_status rdb_sweep_level(const rdb_db *db, int level, rdb_error *err)
{
    rdb_status st = sweep_slices(db, level, 1, 0, err);
    if (st != RDB_OK)
        return st;
    /* The level's folders, deepest first: each slice's folder chain up to
     * <dir>/<level>. rmdir removes only an empty folder, so whatever else
     * a folder holds keeps it (and its parents). */
    rdb_slice *slices;
    int ns = rdb_db_level_slices(db, level, &slices);
    if (ns < 0)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory listing slices");
    char top[RDB_PATH_MAX];
    st = rdb_path_format(top, sizeof top, err, "%s/%d", db->dir, level);
    size_t top_len = strlen(top);
    for (int i = ns; i-- > 0 && st == RDB_OK;) {
        char path[RDB_PATH_MAX];
        st = rdb_slice_path(db, &slices[i], path, sizeof path, err);
        for (char *slash; st == RDB_OK && (slash = strrchr(path, '/'));) {
            *slash = '\0';
            if (strlen(path) < top_len)
                break;
            if (rmdir(path) != 0 && errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST)
                st = rdb_fail_errno(err, RDB_E_IO, "cannot remove folder '%s'", path);
        }
    }
    free(slices);
    if (st == RDB_OK)
        st = rdb_fsync_parent(top, err);
    return st;
}
