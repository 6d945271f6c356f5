/*
 * cram_tt.h — the Cram solver's transposition table: exact nimbers of
 * canonical components, in a bounded amount of memory, which threads may
 * share (cram_tt_read).
 *
 * Tuned for one probe per node and per child, and for as many entries as
 * the memory holds, since at the frontier (3x21, 5x11) the table's size
 * decides the search's. The table is an array of 64-byte buckets (one
 * cache line each) of eight 8-byte entries, the bucket chosen by the top
 * bits of an invertible hash of the key. An entry is one 64-bit word:
 *   bits 16..63  the hash's low 48 bits (its tag);
 *   bits 12..15  the work it cost (about half the log2 of the nodes
 *                searched below it, at most 15);
 *   bit  11      set when the nimber is known;
 *   bits 0..10   the nimber when known, else the nimbers 0..10 it is known
 *                not to have (what a search cut short has proved).
 * The bucket number gives the hash's top bits and the tag its low 48, so
 * with at least 2^16 buckets the two together are the whole hash, and the
 * hash gives back the key: an entry is exact, with no chance of a false
 * match, in 8 bytes where a stored key would take 16. A word of 0 is an
 * empty slot (an entry with nothing known is never stored). When a bucket
 * is full, a new entry takes the place of the one that cost least, so the
 * expensive results stay. The table starts small and doubles, up to the
 * size asked for, as it fills (the rule, and why a big table fills
 * further before it doubles, is at bucket_to_store in cram_tt.c): a small
 * problem does not pay for pages of a big table it never uses.
 *
 * Every entry is one word, read and written whole (compare-and-swap), so
 * threads share the table without locks: a reader sees an entry before or
 * after a store, never half of one.
 *
 * The table can be written to a file and read back, so that an interrupted
 * solve resumes with everything it had found. Keys depend on the solver's
 * layout (cram_component.h) only through its stride, which the file
 * records; the file format is little-endian:
 *   "RDBCRTT2", u32 stride, u32 MB of the table saved (0: not recorded),
 *   u64 count,
 *   count x (u64 key, u8 nimber or 255 when unknown, u8 work, u16 nimbers
 *   excluded), u64 FNV-1a of everything before.
 */
#ifndef RDB_CRAM_TT_H
#define RDB_CRAM_TT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

#define CRAM_TT_WAYS 8
#define CRAM_TT_UNKNOWN 255
/* Nimbers the table can record as excluded: 0 .. CRAM_TT_EXCLUDED_BITS-1. */
#define CRAM_TT_EXCLUDED_BITS 11
/* The fewest buckets, so that bucket number and tag make the whole hash. */
#define CRAM_TT_MIN_BUCKETS (1ULL << 16)

typedef struct {
    uint64_t entry[CRAM_TT_WAYS]; /* 0: empty; else see the top of the file */
} cram_tt_bucket;

typedef struct {
    cram_tt_bucket *bucket;
    uint64_t nbuckets;    /* a power of two, at least CRAM_TT_MIN_BUCKETS */
    uint64_t max_buckets; /* what the size asked for allows */
    int held;             /* it stopped growing short of that: memory was short */
    uint64_t grow_at;     /* entries at which the table doubles */
    int shift;            /* 64 - log2(nbuckets) */
    uint64_t entries;     /* entries in use */
    uint64_t replaced;    /* entries evicted to make room */
    uint64_t conflicts;   /* results stored that disagreed with the entry there */
    size_t bytes;
    uint64_t reserve;     /* bytes the process may still take beside it
                             (a table made whole but filled as it goes):
                             left free when the table grows */
    int shared;           /* threads share it: growing waits for them */
    int want_grow;        /* a shared table is due to grow */
} cram_tt;

/* A table of at most `mb` megabytes, and at least CRAM_TT_MIN_BUCKETS
 * buckets (4 MB). A table that several threads share (`shared`) does not
 * grow by itself when it is due to: it sets want_grow, and its owner calls
 * cram_tt_grow once every other thread has stopped touching it. */
rdb_status cram_tt_init(cram_tt *t, long mb, int shared, rdb_error *err);
void cram_tt_free(cram_tt *t);

/* Double the table now (a shared one, while no other thread uses it). */
void cram_tt_grow(cram_tt *t);

/* The same in three steps, so that the threads that share the table can
 * share the work: cram_tt_grow_begin makes the table twice as big where it
 * lies, keeping its old size in *old, and returns how many old buckets
 * cram_tt_grow_move splits (0: the table did not grow, memory being short
 * or the table at its most, and grows no more); cram_tt_grow_move splits
 * [from, to) of those (ranges that do not overlap may be split at once by
 * different threads); cram_tt_grow_end, once every range is split, splits
 * the rest (the caller then clears want_grow). */
uint64_t cram_tt_grow_begin(cram_tt *t, cram_tt *old);
void cram_tt_grow_move(cram_tt *t, const cram_tt *old, uint64_t from, uint64_t to);
void cram_tt_grow_end(cram_tt *t, const cram_tt *old);

/* Whether the table is whole, for RDB_INVARIANT (a walk over every
 * bucket: a check, not for the search): the entries in use number
 * t->entries (nothing lost or doubled by a growth: every insert into an
 * empty slot counted, and no entry is ever removed), and each holds
 * something (a nimber, or nimbers ruled out). Only while no other thread
 * writes the table: after a growth, whose workers all wait. */
int cram_tt_consistent(const cram_tt *t);

/* The share of the table's entries in use. */
static inline double cram_tt_fill(const cram_tt *t)
{
    return (double)t->entries / ((double)t->nbuckets * CRAM_TT_WAYS);
}

/* The hash of a key: a bijection of 64-bit words (each step can be undone,
 * which cram_tt.c does to save the table), whose top bits choose the
 * bucket. */
static inline uint64_t cram_tt_hash(uint64_t key)
{
    uint64_t h = key ^ (key >> 33);
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h;
}

/* An entry's fields (see the top of the file). */
#define CRAM_TT_TAG_SHIFT 16
#define CRAM_TT_TAG_MASK (~0ULL << CRAM_TT_TAG_SHIFT)
#define CRAM_TT_KNOWN (1u << 11)
#define CRAM_TT_PAYLOAD 0x7ffu

/* Whether an entry's data (CRAM_TT_KNOWN and the payload) and a new
 * result for the same key cannot both be true: two nimbers, or a nimber
 * the other excludes. Every result a search stores is true when what it
 * read is, so only a false entry loaded from a file (or a search built on
 * a false ledger line or nimber table) makes them disagree; the table
 * keeps the entry and counts the conflict (cram_root.c stops on it). */
static inline int cram_tt_disagree(unsigned was, int known, unsigned payload)
{
    if (was & CRAM_TT_KNOWN) {
        unsigned v = was & CRAM_TT_PAYLOAD;
        return known ? payload != v : v < CRAM_TT_EXCLUDED_BITS && (payload >> v & 1);
    }
    return known && payload < CRAM_TT_EXCLUDED_BITS && (was >> payload & 1);
}

static inline cram_tt_bucket *cram_tt_bucket_of(const cram_tt *t, uint64_t key)
{
    return &t->bucket[cram_tt_hash(key) >> t->shift];
}

/* The entry of key, or 0 when its bucket does not hold it. */
static inline uint64_t cram_tt_find(const cram_tt *t, uint64_t key)
{
    uint64_t h = cram_tt_hash(key);
    const cram_tt_bucket *b = &t->bucket[h >> t->shift];
    const uint64_t tag = h << CRAM_TT_TAG_SHIFT;
    for (int i = 0; i < CRAM_TT_WAYS; i++) {
        uint64_t e = __atomic_load_n(&b->entry[i], __ATOMIC_RELAXED);
        if (e && (e & CRAM_TT_TAG_MASK) == tag)
            return e;
    }
    return 0;
}

/* `nimber` gets key's nimber (or CRAM_TT_UNKNOWN) and `excluded` the
 * nimbers it is known not to have; returns 0 when the table does not hold
 * key. */
static inline int cram_tt_read(const cram_tt *t, uint64_t key, unsigned *nimber, unsigned *excluded)
{
    uint64_t e = cram_tt_find(t, key);
    if (!e)
        return 0;
    unsigned payload = (unsigned)e & CRAM_TT_PAYLOAD;
    if (e & CRAM_TT_KNOWN) {
        *nimber = payload;
        *excluded = ~(1u << (payload < 32 ? payload : 31)) & ((1u << CRAM_TT_EXCLUDED_BITS) - 1);
    } else {
        *nimber = CRAM_TT_UNKNOWN;
        *excluded = payload;
    }
    return 1;
}

/* Nimber stored for key, or -1. */
static inline int cram_tt_get(const cram_tt *t, uint64_t key)
{
    uint64_t e = cram_tt_find(t, key);
    return e & CRAM_TT_KNOWN ? (int)(e & CRAM_TT_PAYLOAD) : -1;
}

/* The nimbers below CRAM_TT_EXCLUDED_BITS that key is known not to have
 * (0 when none). */
static inline unsigned cram_tt_excluded(const cram_tt *t, uint64_t key)
{
    unsigned v = 0, ex = 0;
    return cram_tt_read(t, key, &v, &ex) ? ex : 0;
}

/* An entry's 4-bit work from the solver's log2 of nodes (1..64), halved:
 * 15 stands for subtrees of 2^30 nodes and more (the wide table's too). */
unsigned cram_tt_work_code(int work);
/* Store key's nimber (below 2048), which cost `work` (log2 of the nodes
 * searched; more is dearer). */
void cram_tt_put(cram_tt *t, uint64_t key, int nimber, int work);

/* Record that key's nimber is none of the bits of `excluded` (only bits
 * below CRAM_TT_EXCLUDED_BITS are kept). */
void cram_tt_exclude(cram_tt *t, uint64_t key, unsigned excluded, int work);

/* Write every entry that cost at least min_work (log2 of the nodes, as
 * cram_tt_put takes it; 0: every entry) to path atomically (temporary
 * file, fsync, rename). */
rdb_status cram_tt_save(const cram_tt *t, const char *path, int stride, int min_work, rdb_error *err);

/* Whether an entry read from a file can be one of the solver's: its key a
 * canonical component of the board, its nimber (CRAM_TT_UNKNOWN when not
 * known) and the nimbers it excludes possible for that component. */
typedef int (*cram_tt_entry_check)(void *ctx, uint64_t key, int nimber, unsigned excluded);

/* Make path this process's table file for a long run, before the run:
 * take path.lock (another run saving there is RDB_E_BUSY, naming it),
 * remove the temporary files a killed save left of path and path.wide
 * (each as big as the table: left there, the next save may find the disk
 * full), and create one to learn now, not at the first save, that the
 * folder takes it. *lock_fd holds the lock until cram_tt_file_release. */
rdb_status cram_tt_file_claim(const char *path, int *lock_fd, rdb_error *err);
/* Give up a claim (a lock_fd of -1, no claim, is nothing to give up). */
void cram_tt_file_release(int lock_fd);

/* Add the entries of a file written by cram_tt_save for the same stride;
 * *loaded gets how many. Every entry must pass `check`, and the checksum
 * must hold, before any is added. A missing file is RDB_E_MISSING; a
 * damaged one RDB_E_CORRUPT; another stride RDB_E_INPUT. A table that
 * cannot grow to hold the file (more than 1% of its entries lost) is
 * RDB_E_INPUT when its size limit is the cause, RDB_E_NOMEM when the
 * machine's memory is: the run must not go on and save the part it kept
 * over the whole. */
rdb_status cram_tt_load(cram_tt *t, const char *path, int stride, cram_tt_entry_check check,
                        void *ctx, uint64_t *loaded, rdb_error *err);

/* Whether a table of table_bytes (entries of entry_bytes) kept a file of
 * `loaded` entries, `lost` of them evicted while it loaded: RDB_OK when
 * at most 1% went, else RDB_E_INPUT naming the size that holds it, as the
 * value of `option` (the one that sizes this table, such as "--tt-mb"):
 * the size the file was saved from (saved_mb, when recorded and bigger),
 * or one that holds it at most half full. Shared with the wide table. */
rdb_status cram_tt_check_kept(const char *path, uint64_t loaded, uint64_t lost, uint64_t table_bytes,
                              uint64_t entry_bytes, const char *option, uint64_t saved_mb, rdb_error *err);

/* ---- the file format, shared with the wide table (cram_wide_tt.h) ----
 * A file is the head (8-byte magic, u32 stride, u32 the MB of the table
 * saved, u64 count), count
 * records of a fixed size, each ending in the four bytes that
 * cram_tt_put_fields writes (nimber or 255, work, u16 nimbers excluded),
 * and the FNV-1a of everything before. */

/* Records of table unit i (a bucket) written to buf; returns how many
 * (at most CRAM_TT_UNIT_MAX). */
#define CRAM_TT_UNIT_MAX 8
typedef size_t (*cram_tt_unit_fn)(void *ctx, uint64_t i, unsigned char *buf);
/* Write the records of units 0..units-1 that cost at least min_work to
 * path atomically, recording table_bytes, the size of the table they
 * come from (a table of that size holds them all). */
rdb_status cram_tt_file_save(const char *path, const char *magic, int stride, size_t record,
                             uint64_t units, uint64_t table_bytes, cram_tt_unit_fn fill, void *ctx,
                             int min_work, rdb_error *err);
/* Called on every record twice: with apply 0 to check it (0: not a
 * record this table could hold), then, once the whole file is known to
 * be sound, with apply 1 to add it. */
typedef int (*cram_tt_record_fn)(void *ctx, const unsigned char *rec, int apply);
/* Called once the file's head is read, before any record: the size of
 * the table it was saved from, in MB (0: not recorded). */
typedef void (*cram_tt_head_fn)(void *ctx, uint64_t saved_mb);
/* *loaded gets the records added, *saved_mb the size recorded (0: none);
 * head may be NULL. */
rdb_status cram_tt_file_load(const char *path, const char *magic, int stride, size_t record,
                             cram_tt_head_fn head, cram_tt_record_fn each, void *ctx, uint64_t *loaded,
                             uint64_t *saved_mb, rdb_error *err);
/* A record's last four bytes. get returns 0 when the nimber byte is
 * impossible. */
void cram_tt_put_fields(unsigned char *out, int known, unsigned payload, unsigned work);
int cram_tt_get_fields(const unsigned char *in, int *nimber, int *work, unsigned *excluded);

#endif
