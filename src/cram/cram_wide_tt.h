/*
 * cram_wide_tt.h — the transposition table of the components that only
 * a board of more than 64 cells has (cram_wide.h): those too tall for the
 * 64-bit layout.
 *
 * They are few on most boards (a percent or two of the positions a
 * search expands) and the dearest, the ones near the root; on 5x13 (13
 * rows of 5, where the layout holds 12) they are most of what is stored
 * near the root, and a third of a run's time went to their lookups until
 * the search prefetched them (cram_wide_tt_prefetch). The table is exact in 16
 * bytes an entry, as cram_tt.h's is in 8: the key goes through a
 * bijection of 128-bit words, the hash's top bits choose the bucket and
 * the entry keeps its low 112 bits, so that bucket and entry give back the
 * hash and the hash the key (with at least 2^16 buckets; no chance of a
 * false match). An entry is one 128-bit word:
 *   bits 16..127  the hash's low 112 bits (its tag);
 *   bits 0..15    cram_tt.h's fields: work, known, nimber or exclusions.
 * A word of 0 is an empty slot. Buckets of four entries are one cache
 * line; when one is full, the entry that cost least gives way. A bucket
 * is read and written under one of many spin locks, taken for a few dozen
 * instructions: the threads of a search meet there rarely. The table has
 * a fixed size. It is saved beside the 64-bit table, in a file of that
 * table's format with 16-byte keys (cram_tt.h), which the key's bijection
 * undone gives back.
 */
#ifndef RDB_CRAM_WIDE_TT_H
#define RDB_CRAM_WIDE_TT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "cram/cram_wide.h"

typedef struct cram_wide_tt cram_wide_tt;

/* A table of about `mb` megabytes (at least 4: 2^16 buckets). */
rdb_status cram_wide_tt_new(long mb, cram_wide_tt **out, rdb_error *err);
void cram_wide_tt_free(cram_wide_tt *t);

/* Start bringing key's bucket into the caches, ahead of a lookup. */
void cram_wide_tt_prefetch(const cram_wide_tt *t, cram_wset key);
/* Nimber stored for key, or -1. */
int cram_wide_tt_get(cram_wide_tt *t, cram_wset key);
/* The nimbers below CRAM_TT_EXCLUDED_BITS key is known not to have. */
unsigned cram_wide_tt_excluded(cram_wide_tt *t, cram_wset key);
/* As cram_tt_put and cram_tt_exclude. */
void cram_wide_tt_put(cram_wide_tt *t, cram_wset key, int nimber, int work);
void cram_wide_tt_exclude(cram_wide_tt *t, cram_wset key, unsigned excluded, int work);

/* Write every entry to path atomically (cram_tt_file_save), and add the
 * entries of such a file, each first passing `check` (as cram_tt_load). */
rdb_status cram_wide_tt_save(cram_wide_tt *t, const char *path, int stride, int min_work, rdb_error *err);
typedef int (*cram_wide_tt_check)(void *ctx, cram_wset key, int nimber, unsigned excluded);
rdb_status cram_wide_tt_load(cram_wide_tt *t, const char *path, int stride, cram_wide_tt_check check,
                             void *ctx, uint64_t *loaded, rdb_error *err);

/* Results stored that disagreed with the entry there (cram_tt_disagree). */
uint64_t cram_wide_tt_conflicts(const cram_wide_tt *t);
/* Entries in use, and the table's size in bytes. */
uint64_t cram_wide_tt_entries(const cram_wide_tt *t);
size_t cram_wide_tt_bytes(const cram_wide_tt *t);
/* The share of its entries in use. */
double cram_wide_tt_fill(const cram_wide_tt *t);

#endif
