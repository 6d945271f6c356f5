/*
 * sweep.h — removing a build's own files, and nothing else.
 *
 * Two things remove files from a database folder: a build starting (the
 * temporary files a killed build of the same database left) and a build
 * going on (the files of a level no longer kept, --keep-lines). Both work
 * from the layout, not from what the folder holds: every name removed is
 * one this database's builder writes (a slice file, or a slice file, PARAMS,
 * PROBLEM or MANIFEST with a ".<pid>.tmp" suffix), in this database's own level
 * folders. So a file of anyone else (another database nested in the folder,
 * a user's notes) is never touched, and a folder that still holds such a
 * file is left in place. Callers hold the folder's lock and have checked
 * its PARAMS first.
 */
#ifndef RDB_SWEEP_H
#define RDB_SWEEP_H

#include "engine/db.h"

/* Remove the temporary files of this database's slices, PARAMS, MANIFEST and
 * PROBLEM that an interrupted build left. */
rdb_status rdb_sweep_temp_files(const rdb_db *db, rdb_error *err);

/* Remove every slice file of one level (and its temporary files), then
 * its folders that are left empty. */
rdb_status rdb_sweep_level(const rdb_db *db, int level, rdb_error *err);

/* Remove the slice files of a level's dropped part (game.h's
 * sparse_window), and their temporary files. */
rdb_status rdb_sweep_dropped_part(const rdb_db *db, int level, rdb_error *err);

#endif
