/*
 * damage.h — the slices found damaged outside a build, for the next build
 * to redo.
 *
 * A build reads every slice it needs and redoes the damaged ones, but a
 * complete database is not read again by a build: damage that `verify`
 * finds, or that a lookup meets, inside a slice file's frames would stay.
 * So whoever finds it appends the slice to DIR/DAMAGED, one line each,
 *   slice <level> <k0>,<k1>,...
 * (the manifest's coordinates), and the next build checks every slice
 * named there in full, redoes those still damaged, and removes the file
 * once it has finished. Lines that name no slice of the database are
 * ignored: the file can only ask for a check, never skip one.
 */
#ifndef RDB_DAMAGE_H
#define RDB_DAMAGE_H

#include "common/error.h"
#include "layout/layout.h"

/* Record that slice s of a database of ngroups groups was found damaged
 * (appended and made durable), unless DAMAGED names it already: every
 * lookup of a damaged slice reports it, and the file holds it once. */
rdb_status rdb_damage_note(const char *dir, const rdb_slice *s, int ngroups, rdb_error *err);

/* The slices DIR/DAMAGED names (levels 0..nbits, counts of ngroups
 * groups), each once, in *out (freed by the caller; NULL and 0 when there
 * is no such file). A file of any length is read, a block at a time:
 * what is not a record of a slice (a line too long to be one, say) is
 * skipped, never a reason to refuse the repair. */
rdb_status rdb_damage_load(const char *dir, int ngroups, int nbits, rdb_slice **out, int *n,
                           rdb_error *err);

/* Remove DIR/DAMAGED: every slice it named is good again. */
rdb_status rdb_damage_clear(const char *dir, rdb_error *err);

#endif
