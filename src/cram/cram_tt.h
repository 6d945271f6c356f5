/*
 * cram_tt.h — the Cram solver's transposition table: exact nimbers of
 * canonical components, in a bounded amount of memory, which threads may
 * share (cram_tt_read).
 *
 * Tuned for one probe per node and per child: the table is an array of
 * 64-byte buckets (one cache line each) of five entries, the bucket chosen
 * by a hash of the key. An entry holds the full key (a canonical component,
 * never 0), its nimber when it is known, the nimbers below 16 it is known
 * not to have (what a search cut short has proved), and the amount of work
 * it cost (log2 of the nodes searched below it). When a bucket is full, a
 * new entry takes the place of the one that cost least, so the expensive
 * results stay. The table starts small and doubles, up to the size asked
 * for, whenever it is half full or a quarter full with a bucket that would
 * have to evict: a small problem does not pay for pages of a big table it
 * never uses.
 *
 * The table can be written to a file and read back, so that an interrupted
 * solve resumes with everything it had found. Keys depend on the solver's
 * layout (cram_component.h) only through its stride, which the file
 * records; the file format is little-endian:
 *   "RDBCRTT2", u32 stride, u32 0, u64 count,
 *   count x (u64 key, u8 nimber or 255 when unknown, u8 work, u16 nimbers
 *   excluded), u64 FNV-1a of everything before.
 */
#ifndef RDB_CRAM_TT_H
#define RDB_CRAM_TT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define CRAM_TT_WAYS 5
#define CRAM_TT_UNKNOWN 255

typedef struct {
    uint64_t key[CRAM_TT_WAYS];
    uint16_t excluded[CRAM_TT_WAYS]; /* bit v: the nimber is not v */
    uint8_t nimber[CRAM_TT_WAYS];    /* CRAM_TT_UNKNOWN when not known */
    uint8_t work[CRAM_TT_WAYS];
    uint32_t seq;                    /* odd while a writer holds the bucket */
} cram_tt_bucket;

typedef struct {
    cram_tt_bucket *bucket;
    uint64_t nbuckets;    /* a power of two */
    uint64_t max_buckets; /* what the size asked for allows */
    uint64_t grow_at;     /* entries at which the table doubles */
    int shift;            /* 64 - log2(nbuckets) */
    uint64_t entries;     /* entries in use */
    uint64_t replaced;    /* entries evicted to make room */
    size_t bytes;
    int shared;           /* threads share it: growing waits for them */
    int want_grow;        /* a shared table is due to grow */
} cram_tt;

/* A table of at most `mb` megabytes (at least one bucket). A table that
 * several threads share (`shared`) does not grow by itself when it is due
 * to: it sets want_grow, and its owner calls cram_tt_grow once every other
 * thread has stopped touching it. */
rdb_status cram_tt_init(cram_tt *t, long mb, int shared, rdb_error *err);
void cram_tt_free(cram_tt *t);

/* Double the table now (a shared one, while no other thread uses it). */
void cram_tt_grow(cram_tt *t);

/* The share of the table's entries in use. */
static inline double cram_tt_fill(const cram_tt *t)
{
    return (double)t->entries / ((double)t->nbuckets * CRAM_TT_WAYS);
}

static inline cram_tt_bucket *cram_tt_bucket_of(const cram_tt *t, uint64_t key)
{
    uint64_t h = key ^ (key >> 33);
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return &t->bucket[h >> t->shift];
}

/* Threads share the table through a sequence lock per bucket: a writer
 * makes `seq` odd while it writes, and a reader reads again when `seq` was
 * odd or changed meanwhile. Reads take no lock, and one thread alone pays
 * two loads of a line it reads anyway. `entry` gets the nimber (or
 * CRAM_TT_UNKNOWN) and the excluded set of key, or returns 0 when the
 * bucket does not hold key. */
static inline int cram_tt_read(const cram_tt *t, uint64_t key, unsigned *nimber, unsigned *excluded)
{
    const cram_tt_bucket *b = cram_tt_bucket_of(t, key);
    for (;;) {
        uint32_t q = __atomic_load_n(&b->seq, __ATOMIC_ACQUIRE);
        int found = 0;
        for (int i = 0; i < CRAM_TT_WAYS; i++)
            if (__atomic_load_n(&b->key[i], __ATOMIC_RELAXED) == key) {
                *nimber = __atomic_load_n(&b->nimber[i], __ATOMIC_RELAXED);
                *excluded = __atomic_load_n(&b->excluded[i], __ATOMIC_RELAXED);
                found = 1;
                break;
            }
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (!(q & 1) && __atomic_load_n(&b->seq, __ATOMIC_RELAXED) == q)
            return found;
    }
}

/* Nimber stored for key, or -1. */
static inline int cram_tt_get(const cram_tt *t, uint64_t key)
{
    unsigned v = 0, ex = 0;
    return cram_tt_read(t, key, &v, &ex) && v != CRAM_TT_UNKNOWN ? (int)v : -1;
}

/* The nimbers below 16 that key is known not to have (0 when none). */
static inline unsigned cram_tt_excluded(const cram_tt *t, uint64_t key)
{
    unsigned v = 0, ex = 0;
    return cram_tt_read(t, key, &v, &ex) ? ex : 0;
}

/* Store key's nimber, which cost `work` (0..255, more is dearer). */
void cram_tt_put(cram_tt *t, uint64_t key, int nimber, int work);

/* Record that key's nimber is none of the bits of `excluded`. */
void cram_tt_exclude(cram_tt *t, uint64_t key, unsigned excluded, int work);

/* Write every entry to path atomically (temporary file, fsync, rename). */
rdb_status cram_tt_save(const cram_tt *t, const char *path, int stride, rdb_error *err);

/* Whether an entry read from a file can be one of the solver's: its key a
 * canonical component of the board, its nimber (CRAM_TT_UNKNOWN when not
 * known) and the nimbers it excludes possible for that component. */
typedef int (*cram_tt_entry_check)(void *ctx, uint64_t key, int nimber, unsigned excluded);

/* Add the entries of a file written by cram_tt_save for the same stride;
 * *loaded gets how many. Every entry must pass `check`, and the checksum
 * must hold, before any is added. A missing file is RDB_E_MISSING; a
 * damaged one RDB_E_CORRUPT; another stride RDB_E_INPUT. */
rdb_status cram_tt_load(cram_tt *t, const char *path, int stride, cram_tt_entry_check check,
                        void *ctx, uint64_t *loaded, rdb_error *err);

#endif
