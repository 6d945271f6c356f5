/*
 * cram_tt.c — storing, replacing, saving and loading entries of the Cram
 * transposition table; see cram_tt.h.
 *
 * The table is one anonymous mapping, so its pages are zero (every entry
 * empty) without being written and the resident memory grows only as the
 * search fills it. Saving streams the entries through a small buffer, so a
 * table of gigabytes needs no second copy in memory.
 */
#define _GNU_SOURCE
#include "cram/cram_tt.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/invariant.h"
#include "common/memory.h"
#include "search/table_file.h"
#include "store/bytes.h"

_Static_assert(sizeof(cram_tt_bucket) == 64, "a bucket is one cache line");

#define TT_MAGIC "RDBCRTT2"
#define TT_RECORD 12

/* The table's first size; it doubles from there when three quarters
 * full (see bucket_to_store). */
#define TT_START_BYTES (4u << 20)

#define WORK_SHIFT 12

unsigned cram_tt_work_code(int work)
{
    int w = (work + 1) / 2;
    return (unsigned)(w < 0 ? 0 : w > 15 ? 15 : w);
}

static unsigned entry_work(uint64_t e) { return (unsigned)(e >> WORK_SHIFT) & 15; }

/* The table is the n buckets at p (bytes, shift, when it next doubles). */
static void set_buckets(cram_tt *t, cram_tt_bucket *p, uint64_t n)
{
    const size_t bytes = n * sizeof(cram_tt_bucket);
    t->bucket = p;
    t->bytes = bytes;
    t->nbuckets = n;
    t->shift = 64 - __builtin_ctzll(n);
    uint64_t slots = n * CRAM_TT_WAYS;
    t->grow_at = n >= t->max_buckets ? UINT64_MAX : slots / 4 * 3;
}

static rdb_status map_buckets(cram_tt *t, uint64_t n)
{
    void *p = rdb_huge_alloc(n * sizeof(cram_tt_bucket));
    if (!p)
        return RDB_E_NOMEM;
    set_buckets(t, p, n);
    return RDB_OK;
}

rdb_status cram_tt_init(cram_tt *t, long mb, int shared, rdb_error *err)
{
    memset(t, 0, sizeof *t);
    uint64_t want = (uint64_t)(mb > 0 ? mb : 1) << 20;
    uint64_t n = CRAM_TT_MIN_BUCKETS;
    while (n * 2 * sizeof(cram_tt_bucket) <= want)
        n *= 2;
    t->max_buckets = n;
    while (n > CRAM_TT_MIN_BUCKETS && n * sizeof(cram_tt_bucket) > TT_START_BYTES)
        n /= 2;
    t->shared = shared;
    if (map_buckets(t, n) != RDB_OK)
        return rdb_fail_errno(err, RDB_E_NOMEM, "cannot allocate a transposition table of %ld MB", mb);
    return RDB_OK;
}

/* The hash of the entry e found in bucket i of a table of 2^(64-shift)
 * buckets: the bucket number is its top bits, the tag its low 48 (they
 * overlap, and agree, when the table has more than 2^16 buckets). */
static uint64_t hash_of(uint64_t e, uint64_t i, int shift)
{
    return i << shift | e >> CRAM_TT_TAG_SHIFT;
}

/* The inverse of an odd number modulo 2^64 (Newton's iteration doubles
 * the bits that are right, from 3). */
static uint64_t odd_inverse(uint64_t c)
{
    uint64_t x = c;
    for (int i = 0; i < 5; i++)
        x *= 2 - c * x;
    return x;
}

/* The key whose cram_tt_hash is h: each step of the hash undone. */
static uint64_t key_of(uint64_t h)
{
    h *= odd_inverse(0xc4ceb9fe1a85ec53ULL);
    h ^= (h >> 29) ^ (h >> 58);
    h *= odd_inverse(0xff51afd7ed558ccdULL);
    return h ^ (h >> 33);
}

/* The entries of bucket b, bucket i of a table of 2^(64-old_shift)
 * buckets, put in the table t of twice as many: in its buckets 2i and
 * 2i+1 (the bucket is the hash's top bits), which hold no other entries. */
static void split_bucket(cram_tt *t, const cram_tt_bucket *b, uint64_t i, int old_shift)
{
    for (int k = 0; k < CRAM_TT_WAYS; k++) {
        const uint64_t e = b->entry[k];
        if (!e)
            continue;
        cram_tt_bucket *into = &t->bucket[hash_of(e, i, old_shift) >> t->shift];
        int j = 0;
        while (into->entry[j])
            j++;
        into->entry[j] = e;
    }
}

/* Old bucket i split into new buckets 2i and 2i+1, emptied first. */
static void split_in_place(cram_tt *t, uint64_t i, int old_shift)
{
    const cram_tt_bucket b = t->bucket[i];
    memset(&t->bucket[2 * i], 0, 2 * sizeof b);
    split_bucket(t, &b, i, old_shift);
}

/* Doubling, where the table lies, in three steps so that the threads that
 * share the table share the work. The mapping is made twice as long (its
 * pages kept: none copied, only the new half's to be found), and old
 * bucket i goes to new buckets 2i and 2i+1. The top half of the old
 * buckets goes to the new half, memory nothing else holds, so any number
 * of threads split it at once, each a range (cram_tt_grow_move: the new
 * pages faulted in by the threads together, the kernel's clearing of them
 * most of a doubling's time); then one thread splits the bottom half from
 * the last bucket down (cram_tt_grow_end), each into buckets at or above
 * its own, where lay only old buckets split already.
 *
 * So the table never needs more memory than its new size: a table doubled
 * beside itself (a new mapping, the old one freed after) held half as
 * much again at each doubling (5x9 at its peak: 396 MB against 265 MB now,
 * 4x11 199 against 134, the same nodes and time) and faulted in twice the
 * pages. When even the new half would not fit in what the machine has
 * left, the table stops growing (mremap itself rarely fails, the kernel
 * promising pages it may not have, and the out-of-memory killer then
 * ends the run as the split fills them: 3x22 growing from 8 to 16 GB on
 * 24). */
uint64_t cram_tt_grow_begin(cram_tt *t, cram_tt *old)
{
    *old = *t;
    old->bucket = NULL; /* the old buckets are the first half of the new */
    if (t->nbuckets < t->max_buckets && rdb_memory_allows(t->bytes + t->reserve)) {
        cram_tt_bucket *p = rdb_huge_grow(t->bucket, t->bytes, 2 * t->bytes);
        if (p) {
            set_buckets(t, p, 2 * old->nbuckets);
            return old->nbuckets / 2;
        }
    }
    t->held = t->nbuckets < t->max_buckets;
    t->max_buckets = t->nbuckets;
    t->grow_at = UINT64_MAX;
    return 0;
}

void cram_tt_grow_move(cram_tt *t, const cram_tt *old, uint64_t from, uint64_t to)
{
    const uint64_t top = old->nbuckets / 2;
    for (uint64_t i = top + from; i < top + to; i++)
        split_bucket(t, &t->bucket[i], i, old->shift); /* into fresh, zero pages */
}

void cram_tt_grow_end(cram_tt *t, const cram_tt *old)
{
    for (uint64_t i = old->nbuckets / 2; i-- > 0;)
        split_in_place(t, i, old->shift);
}

static void grow(cram_tt *t)
{
    cram_tt old;
    const uint64_t top = cram_tt_grow_begin(t, &old);
    if (top) {
        cram_tt_grow_move(t, &old, 0, top);
        cram_tt_grow_end(t, &old);
    }
    RDB_INVARIANT(cram_tt_consistent(t), "a table grown holds every entry it held");
}

int cram_tt_consistent(const cram_tt *t)
{
    uint64_t used = 0;
    for (uint64_t i = 0; i < t->nbuckets; i++)
        for (int k = 0; k < CRAM_TT_WAYS; k++) {
            const uint64_t e = t->bucket[i].entry[k];
            if (!e)
                continue;
            used++;
            if (!(e & (CRAM_TT_KNOWN | CRAM_TT_PAYLOAD)))
                return 0;
        }
    return used == t->entries;
}

void cram_tt_grow(cram_tt *t)
{
    grow(t);
    __atomic_store_n(&t->want_grow, 0, __ATOMIC_RELEASE);
}

void cram_tt_free(cram_tt *t)
{
    if (t->bucket)
        rdb_huge_free(t->bucket, t->bytes);
    t->bucket = NULL;
}

/* The bucket where key goes, after growing the table when it is due:
 * when three quarters full, at every size. A big table is slow to probe:
 * every doubling costs reach in the processor's caches and address
 * translation. 3x17 on one thread with the table that big from the
 * start, the same nodes, took 10.0 s at 128 MB, 14.3 s at 1 GB, 20.6 s
 * at 4 GB (6 s of it the kernel clearing pages) and 33 s at 8 GB; on a
 * processor with 32 MB of L3, 4x11 took 0.87 of the time in a table held
 * at 32 MB (79% full, 1.3% more nodes) than in the 128 MB it grew to
 * when it doubled at half full (and before, while small, at a quarter
 * full when a bucket would evict). An 8-way bucket rarely has to evict
 * below three quarters full, and what goes is the cheapest entry: 3x20
 * on two threads with the table held at 2 GB (66% full at the end)
 * expanded as many positions as with 4 GB (267.3 M against 267.4 M) in
 * 564 s against 638 s. A shared table only asks to grow, and takes the
 * key where it is now. */
static cram_tt_bucket *bucket_to_store(cram_tt *t, uint64_t h)
{
    cram_tt_bucket *b = &t->bucket[h >> t->shift];
    if (t->entries >= t->grow_at) {
        if (t->shared) {
            __atomic_store_n(&t->want_grow, 1, __ATOMIC_RELAXED);
        } else {
            grow(t);
            b = &t->bucket[h >> t->shift];
        }
    }
    return b;
}

/* Merge what is learnt of key into its entry: `known` set stores the
 * nimber `payload`, else `payload` holds nimbers ruled out. The slot is
 * key's own entry, else an empty one, else the one that cost least; it is
 * written with a compare-and-swap, tried again if another thread wrote
 * the slot in between. */
static void store(cram_tt *t, uint64_t key, int known, unsigned payload, int work)
{
    uint64_t h = cram_tt_hash(key), tag = h << CRAM_TT_TAG_SHIFT;
    cram_tt_bucket *b = bucket_to_store(t, h);
    const unsigned w = cram_tt_work_code(work);
    for (;;) {
        int slot = -1, victim = 0;
        unsigned victim_cost = UINT_MAX;
        uint64_t was = 0, victim_was = 0;
        for (int i = 0; i < CRAM_TT_WAYS; i++) {
            uint64_t e = __atomic_load_n(&b->entry[i], __ATOMIC_RELAXED);
            if (e && (e & CRAM_TT_TAG_MASK) == tag) {
                slot = i;
                was = e;
                break;
            }
            unsigned cost = e ? entry_work(e) + 1 : 0; /* an empty slot first */
            if (cost < victim_cost) {
                victim = i;
                victim_cost = cost;
                victim_was = e;
            }
        }
        if (slot < 0)
            was = victim_was;
        unsigned nw = w, data;
        if (slot >= 0) {
            if (cram_tt_disagree((unsigned)was, known, payload)) {
                __atomic_fetch_add(&t->conflicts, 1, __ATOMIC_RELAXED);
                return;
            }
            if (entry_work(was) > nw)
                nw = entry_work(was);
            if (was & CRAM_TT_KNOWN)
                return; /* the nimber is known: nothing to add */
            data = known ? CRAM_TT_KNOWN | payload : ((unsigned)was & CRAM_TT_PAYLOAD) | payload;
            if (!known && data == ((unsigned)was & CRAM_TT_PAYLOAD) && nw == entry_work(was))
                return;
        } else {
            data = known ? CRAM_TT_KNOWN | payload : payload;
        }
        uint64_t e = tag | (uint64_t)nw << WORK_SHIFT | data;
        int at = slot >= 0 ? slot : victim;
        if (__atomic_compare_exchange_n(&b->entry[at], &was, e, 0, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED)) {
            if (slot < 0)
                __atomic_fetch_add(was ? &t->replaced : &t->entries, 1, __ATOMIC_RELAXED);
            return;
        }
    }
}

void cram_tt_put(cram_tt *t, uint64_t key, int nimber, int work)
{
    if (nimber >= 0 && (unsigned)nimber <= CRAM_TT_PAYLOAD)
        store(t, key, 1, (unsigned)nimber, work);
}

void cram_tt_exclude(cram_tt *t, uint64_t key, unsigned excluded, int work)
{
    excluded &= (1u << CRAM_TT_EXCLUDED_BITS) - 1;
    if (excluded)
        store(t, key, 0, excluded, work);
}

/* ---- the file: the search runtime's (search/table_file.h), with Cram's
 * fields (the stride, the table's MB) and records ---- */

/* The records of the units still to give (rdb_table_fill_fn), those that
 * cost min_work or more (the work byte is the third from a record's end:
 * cram_tt_put_fields). */
typedef struct {
    uint64_t units, next;
    cram_tt_unit_fn fill;
    void *ctx;
    size_t record;
    int min_work;
} saving;

static size_t fill_records(void *ctx, unsigned char *buf, size_t most)
{
    saving *sv = ctx;
    size_t used = 0;
    while (sv->next < sv->units && used + CRAM_TT_UNIT_MAX <= most) {
        unsigned char *at = buf + used * sv->record;
        const size_t n = sv->fill(sv->ctx, sv->next++, at);
        for (size_t j = 0; j < n; j++) {
            const unsigned char *rec = at + j * sv->record;
            if (rec[sv->record - 3] >= sv->min_work) {
                if (buf + used * sv->record != rec)
                    memmove(buf + used * sv->record, rec, sv->record);
                used++;
            }
        }
    }
    return used;
}

static rdb_table_format cram_format(const char *magic, size_t record)
{
    return (rdb_table_format){magic, 8, record, "a cram transposition table file"};
}

rdb_status cram_tt_file_save(const char *path, const char *magic, int stride, size_t record,
                             uint64_t units, uint64_t table_bytes, cram_tt_unit_fn fill, void *ctx,
                             int min_work, rdb_error *err)
{
    unsigned char fields[8];
    rdb_put_le(fields, (uint64_t)stride, 4);
    rdb_put_le(fields + 4, (table_bytes >> 20) > UINT32_MAX ? 0 : table_bytes >> 20, 4);
    saving sv = {units, 0, fill, ctx, record, min_work};
    const rdb_table_format f = cram_format(magic, record);
    return rdb_table_file_save(path, &f, fields, fill_records, &sv, err);
}

rdb_status cram_tt_file_claim(const char *path, int *lock_fd, rdb_error *err)
{
    char wide[PATH_MAX];
    if (snprintf(wide, sizeof wide, "%s.wide", path) >= (int)sizeof wide)
        return rdb_fail(err, RDB_E_INPUT, "path too long: '%s'", path);
    return rdb_table_file_claim(path, wide, lock_fd, err);
}

void cram_tt_file_release(int lock_fd)
{
    rdb_table_file_release(lock_fd);
}

typedef struct {
    int stride;
    uint64_t saved_mb;
    cram_tt_head_fn head;
    cram_tt_record_fn each;
    void *ctx;
} reading;

static rdb_status check_fields(void *ctx, const char *path, const unsigned char *fields,
                               rdb_error *err)
{
    reading *rd = ctx;
    const uint64_t stride = rdb_get_le(fields, 4);
    rd->saved_mb = rdb_get_le(fields + 4, 4);
    if (stride != (uint64_t)rd->stride)
        return rdb_fail(err, RDB_E_INPUT,
                        "'%s' was saved for boards %llu cells across (short side), not %d", path,
                        (unsigned long long)stride, rd->stride);
    if (rd->head)
        rd->head(rd->ctx, rd->saved_mb);
    return RDB_OK;
}

static rdb_status read_record(void *ctx, const char *path, uint64_t i, const unsigned char *record,
                              int apply, rdb_error *err)
{
    const reading *rd = ctx;
    if (!rd->each(rd->ctx, record, apply) && !apply)
        return rdb_fail(err, RDB_E_CORRUPT,
                        "'%s' holds entry %llu, which is no position of this board or has an "
                        "impossible nimber",
                        path, (unsigned long long)i + 1);
    return RDB_OK;
}

rdb_status cram_tt_file_load(const char *path, const char *magic, int stride, size_t record,
                             cram_tt_head_fn head, cram_tt_record_fn each, void *ctx, uint64_t *loaded,
                             uint64_t *saved_mb, rdb_error *err)
{
    reading rd = {stride, 0, head, each, ctx};
    const rdb_table_format f = cram_format(magic, record);
    const rdb_status st = rdb_table_file_load(path, &f, check_fields, read_record, &rd, loaded, err);
    *saved_mb = rd.saved_mb;
    return st;
}

/* The records of bucket i (cram_tt_unit_fn). */
static size_t bucket_records(void *ctx, uint64_t i, unsigned char *buf)
{
    const cram_tt *t = ctx;
    size_t n = 0;
    for (int k = 0; k < CRAM_TT_WAYS; k++) {
        uint64_t e = __atomic_load_n(&t->bucket[i].entry[k], __ATOMIC_RELAXED);
        if (!e)
            continue;
        unsigned payload = (unsigned)e & CRAM_TT_PAYLOAD, known = e & CRAM_TT_KNOWN;
        unsigned char *rec = buf + n++ * TT_RECORD;
        rdb_put_le(rec, key_of(hash_of(e, i, t->shift)), 8);
        cram_tt_put_fields(rec + 8, known, payload, entry_work(e));
    }
    return n;
}

rdb_status cram_tt_save(const cram_tt *t, const char *path, int stride, int min_work, rdb_error *err)
{
    return cram_tt_file_save(path, TT_MAGIC, stride, TT_RECORD, t->nbuckets, t->bytes, bucket_records,
                             (void *)t, min_work, err);
}

typedef struct {
    cram_tt *t;
    const char *path;
    cram_tt_entry_check check;
    void *ctx;
} loading;

/* One record of a file (cram_tt_record_fn). */
static int load_record(void *ctx, const unsigned char *rec, int apply)
{
    const loading *l = ctx;
    uint64_t key = rdb_get_le(rec, 8);
    int nimber, work;
    unsigned excluded;
    if (!cram_tt_get_fields(rec + 8, &nimber, &work, &excluded))
        return 0;
    if (!apply)
        return key != 0 && l->check(l->ctx, key, nimber, excluded);
    if (nimber != CRAM_TT_UNKNOWN)
        cram_tt_put(l->t, key, nimber, work);
    else
        cram_tt_exclude(l->t, key, excluded, work);
    return 1;
}

/* The table grown, before a file's records load, to hold them beside
 * the entries it has, as it would have grown to hold them one by one: a
 * file lists its entries bucket by bucket, so a smaller table filled from
 * it overflows where the file is dense long before it is due to grow, and
 * evicts (3 M entries loaded into a table growing from 16 MB: 9% lost).
 * The entries already there count too: a table that held a few (a
 * --tt-digest, loaded before the table file) once took a 3x23 table file
 * of a thousand million entries into 512 MB.
 *
 * And a file whose records would fill more than half of a table smaller
 * than the one it was saved from (saved_mb) gets that size: two of its
 * buckets would share one of the smaller table's, and where both are
 * dense they overflow. A file saved a quarter to three eighths full (a
 * table that grew at half full, or reserved bigger than it filled) would
 * otherwise load into half its size three quarters full, lose more than
 * one entry in a hundred, and be refused with a size the user gave. A
 * digest (a few entries saved from a big table) stays small. */
static void reserve(void *ctx, uint64_t saved_mb)
{
    const loading *l = ctx;
    cram_tt *t = l->t;
    struct stat sb;
    if (stat(l->path, &sb) != 0)
        return;
    const uint64_t records = t->entries + (uint64_t)sb.st_size / TT_RECORD;
    while (t->nbuckets < t->max_buckets && !t->held &&
           (records >= t->grow_at ||
            (t->bytes >> 20 < saved_mb && 2 * records > t->nbuckets * CRAM_TT_WAYS)))
        grow(t);
}

/* No search runs while a file loads, so a table that several threads will
 * share grows by itself here: asking to grow, as a shared table does in a
 * search, would keep every entry in the table's first size, the rest
 * evicted (a 3x22 table of 660 M entries came back as a few million). */
rdb_status cram_tt_load(cram_tt *t, const char *path, int stride, cram_tt_entry_check check,
                        void *ctx, uint64_t *loaded, rdb_error *err)
{
    loading l = {t, path, check, ctx};
    const int shared = t->shared;
    const uint64_t replaced = t->replaced;
    t->shared = 0;
    uint64_t saved_mb;
    rdb_status st =
        cram_tt_file_load(path, TT_MAGIC, stride, TT_RECORD, reserve, load_record, &l, loaded, &saved_mb, err);
    t->shared = shared;
    t->want_grow = 0;
    /* A table that could not grow to hold the file keeps only part of it,
     * and the next save would put that part in the file's place: a run
     * meant to go on from days of work would go on from hours. Refused;
     * a few entries lost where the file is dense are not worth a word. */
    const uint64_t lost = t->replaced - replaced;
    if (st == RDB_OK && lost > *loaded / 100 && t->held)
        return rdb_fail(err, RDB_E_NOMEM,
                        "'%s' holds %llu entries; the machine's free memory let the table keep only %llu "
                        "of them (in %llu MB): free memory, then run the same command again",
                        path, (unsigned long long)*loaded, (unsigned long long)(*loaded - lost),
                        (unsigned long long)(t->bytes >> 20));
    return st == RDB_OK ? cram_tt_check_kept(path, *loaded, lost, t->bytes, 8, "--tt-mb", saved_mb, err) : st;
}

rdb_status cram_tt_check_kept(const char *path, uint64_t loaded, uint64_t lost, uint64_t table_bytes,
                              uint64_t entry_bytes, const char *option, uint64_t saved_mb, rdb_error *err)
{
    if (lost <= loaded / 100)
        return RDB_OK;
    /* the size the file was saved from holds it (the same buckets); when
     * it is not recorded, or was no bigger (entries loaded before it
     * took room), a table at most half full holds it wherever it is dense */
    if (saved_mb > table_bytes >> 20)
        return rdb_fail(err, RDB_E_INPUT,
                        "'%s' holds %llu entries; a table of %llu MB keeps %llu of them: give %s %llu, the size it was saved with",
                        path, (unsigned long long)loaded, (unsigned long long)(table_bytes >> 20),
                        (unsigned long long)(loaded - lost), option, (unsigned long long)saved_mb);
    uint64_t mb = 1;
    while ((mb << 20) / entry_bytes < 2 * loaded || mb <= table_bytes >> 20)
        mb *= 2;
    return rdb_fail(err, RDB_E_INPUT,
                    "'%s' holds %llu entries; a table of %llu MB keeps %llu of them: give %s %llu",
                    path, (unsigned long long)loaded, (unsigned long long)(table_bytes >> 20),
                    (unsigned long long)(loaded - lost), option, (unsigned long long)mb);
}

void cram_tt_put_fields(unsigned char *out, int known, unsigned payload, unsigned work)
{
    out[0] = known ? (unsigned char)payload : CRAM_TT_UNKNOWN;
    out[1] = (unsigned char)(2 * work);
    rdb_put_le(out + 2, known ? 0 : payload, 2);
}

int cram_tt_get_fields(const unsigned char *in, int *nimber, int *work, unsigned *excluded)
{
    *nimber = in[0];
    *work = in[1];
    *excluded = (unsigned)rdb_get_le(in + 2, 2);
    return !(in[0] > 127 && in[0] != CRAM_TT_UNKNOWN);
}
