/*
 * cram_wide_tt.c — the table of cram_wide_tt.h.
 */
#define _GNU_SOURCE
#include "cram/cram_wide_tt.h"

#include <stdlib.h>

#include "common/memory.h"
#include "cram/cram_tt.h"
#include "store/bytes.h"

#define WAYS 4
#define NLOCKS 4096
#define MIN_BUCKETS_LOG 16
#define TAG_SHIFT 16
#define WORK_SHIFT 12
#define FIELDS 0xffffu

/* 0: empty; else tag << TAG_SHIFT | work << WORK_SHIFT | CRAM_TT_KNOWN? | payload */
typedef cram_wset entry;

_Static_assert(sizeof(entry) * WAYS == 64, "a bucket a cache line");

struct cram_wide_tt {
    entry *e;          /* nbuckets * WAYS */
    uint64_t nbuckets; /* a power of two, at least 2^MIN_BUCKETS_LOG */
    int bucket_shift;  /* 128 - log2(nbuckets) */
    size_t bytes;
    uint64_t entries;
    uint64_t replaced; /* entries that made way for another key */
    uint64_t conflicts; /* results that disagreed with the entry there (cram_tt_disagree) */
    char lock[NLOCKS];
};

/* ---- the key's bijection ----
 * Each step can be undone: x ^= x >> s with s >= 64 is its own inverse
 * (the bits it reads are ones it leaves alone), and a product by an odd
 * number is undone by the product by its inverse modulo 2^128. The first
 * fold makes the products' top bits, which choose the bucket, depend on
 * both halves of the key. */

#define MUL1 ((cram_wset)0x9e3779b97f4a7c15ULL << 64 | 0xbf58476d1ce4e5b9ULL)
#define MUL2 ((cram_wset)0x94d049bb133111ebULL << 64 | 0xff51afd7ed558ccdULL)

static cram_wset hash_of(cram_wset key)
{
    cram_wset h = key ^ key >> 64;
    h *= MUL1;
    h ^= h >> 67;
    h *= MUL2;
    return h ^ h >> 64;
}

/* The inverse of an odd number modulo 2^128 (Newton's iteration: each
 * step doubles the bits that are right, and x is its own inverse modulo
 * 8). */
static cram_wset odd_inverse(cram_wset x)
{
    cram_wset y = x;
    for (int i = 0; i < 6; i++)
        y *= 2 - x * y;
    return y;
}

static cram_wset key_of_hash(cram_wset h)
{
    h ^= h >> 64;
    h *= odd_inverse(MUL2);
    h ^= h >> 67;
    h *= odd_inverse(MUL1);
    return h ^ h >> 64;
}

rdb_status cram_wide_tt_new(long mb, cram_wide_tt **out, rdb_error *err)
{
    cram_wide_tt *t = calloc(1, sizeof *t);
    if (!t)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the wide transposition table");
    uint64_t want = (uint64_t)(mb > 0 ? mb : 1) << 20, n = 1ULL << MIN_BUCKETS_LOG;
    int log = MIN_BUCKETS_LOG;
    while (2 * n * WAYS * sizeof(entry) <= want)
        n *= 2, log++;
    t->bytes = n * WAYS * sizeof(entry);
    void *p = rdb_huge_alloc(t->bytes);
    if (!p) {
        free(t);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for a wide transposition table of %ld MB", mb);
    }
    t->e = p;
    t->nbuckets = n;
    t->bucket_shift = 128 - log;
    *out = t;
    return RDB_OK;
}

void cram_wide_tt_free(cram_wide_tt *t)
{
    if (!t)
        return;
    rdb_huge_free(t->e, t->bytes);
    free(t);
}

static void lock(cram_wide_tt *t, uint64_t b)
{
    char *l = &t->lock[b % NLOCKS];
    while (__atomic_test_and_set(l, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(l, __ATOMIC_RELAXED))
            __builtin_ia32_pause();
}

static void unlock(cram_wide_tt *t, uint64_t b)
{
    __atomic_clear(&t->lock[b % NLOCKS], __ATOMIC_RELEASE);
}

/* Whether entry e (not empty) is the one of hash h. */
static int holds(entry e, cram_wset h)
{
    return (e ^ h << TAG_SHIFT) >> TAG_SHIFT == 0;
}

void cram_wide_tt_prefetch(const cram_wide_tt *t, cram_wset key)
{
    __builtin_prefetch(t->e + (uint64_t)(hash_of(key) >> t->bucket_shift) * WAYS);
}

/* The fields of key's entry (0 when absent). */
static unsigned find(cram_wide_tt *t, cram_wset key)
{
    const cram_wset h = hash_of(key);
    const uint64_t b = (uint64_t)(h >> t->bucket_shift);
    const entry *e = t->e + b * WAYS;
    unsigned fields = 0;
    lock(t, b);
    for (int i = 0; i < WAYS; i++)
        if (e[i] && holds(e[i], h)) {
            fields = (unsigned)e[i] & FIELDS;
            break;
        }
    unlock(t, b);
    return fields;
}

int cram_wide_tt_get(cram_wide_tt *t, cram_wset key)
{
    unsigned w = find(t, key);
    return w & CRAM_TT_KNOWN ? (int)(w & CRAM_TT_PAYLOAD) : -1;
}

unsigned cram_wide_tt_excluded(cram_wide_tt *t, cram_wset key)
{
    unsigned w = find(t, key);
    if (!w)
        return 0;
    unsigned payload = w & CRAM_TT_PAYLOAD, all = (1u << CRAM_TT_EXCLUDED_BITS) - 1;
    if (w & CRAM_TT_KNOWN)
        return ~(1u << (payload < 32 ? payload : 31)) & all;
    return payload;
}

static unsigned work_of(entry e)
{
    return (unsigned)(e >> WORK_SHIFT) & 15;
}

/* Merge into key's entry, as cram_tt.c's store does. */
static void store(cram_wide_tt *t, cram_wset key, int known, unsigned payload, int work)
{
    unsigned w = cram_tt_work_code(work);
    const cram_wset h = hash_of(key);
    const uint64_t b = (uint64_t)(h >> t->bucket_shift);
    entry *e = t->e + b * WAYS;
    lock(t, b);
    int slot = -1, victim = 0;
    unsigned victim_cost = ~0u;
    for (int i = 0; i < WAYS; i++) {
        if (e[i] && holds(e[i], h)) {
            slot = i;
            break;
        }
        unsigned cost = e[i] ? work_of(e[i]) + 1 : 0;
        if (cost < victim_cost) {
            victim = i;
            victim_cost = cost;
        }
    }
    const cram_wset tag = h << TAG_SHIFT;
    if (slot >= 0) {
        unsigned was = (unsigned)e[slot] & FIELDS;
        if (cram_tt_disagree(was, known, payload))
            __atomic_fetch_add(&t->conflicts, 1, __ATOMIC_RELAXED);
        else if (!(was & CRAM_TT_KNOWN)) {
            unsigned data = known ? CRAM_TT_KNOWN | payload : (was & CRAM_TT_PAYLOAD) | payload;
            if (work_of(e[slot]) > w)
                w = work_of(e[slot]);
            e[slot] = tag | w << WORK_SHIFT | data;
        }
    } else {
        __atomic_fetch_add(e[victim] ? &t->replaced : &t->entries, 1, __ATOMIC_RELAXED);
        e[victim] = tag | w << WORK_SHIFT | (known ? CRAM_TT_KNOWN | payload : payload);
    }
    unlock(t, b);
}

void cram_wide_tt_put(cram_wide_tt *t, cram_wset key, int nimber, int work)
{
    if (nimber >= 0 && (unsigned)nimber <= CRAM_TT_PAYLOAD)
        store(t, key, 1, (unsigned)nimber, work);
}

void cram_wide_tt_exclude(cram_wide_tt *t, cram_wset key, unsigned excluded, int work)
{
    excluded &= (1u << CRAM_TT_EXCLUDED_BITS) - 1;
    if (excluded)
        store(t, key, 0, excluded, work);
}

uint64_t cram_wide_tt_conflicts(const cram_wide_tt *t)
{
    return __atomic_load_n(&t->conflicts, __ATOMIC_RELAXED);
}

uint64_t cram_wide_tt_entries(const cram_wide_tt *t)
{
    return t->entries;
}

size_t cram_wide_tt_bytes(const cram_wide_tt *t)
{
    return t->bytes;
}

double cram_wide_tt_fill(const cram_wide_tt *t)
{
    return (double)__atomic_load_n(&t->entries, __ATOMIC_RELAXED) / (double)(t->nbuckets * WAYS);
}

/* ---- the file (cram_tt.h's format, 16-byte keys) ---- */

#define WIDE_MAGIC "RDBCRTW1"
#define WIDE_RECORD 20

/* The records of bucket i (cram_tt_unit_fn), copied under its lock. */
static size_t bucket_records(void *ctx, uint64_t i, unsigned char *buf)
{
    cram_wide_tt *t = ctx;
    const entry *e = t->e + i * WAYS;
    size_t n = 0;
    lock(t, i);
    for (int k = 0; k < WAYS; k++) {
        if (!e[k])
            continue;
        /* the bucket gives the hash's top bits, the tag its low 112 */
        const cram_wset key = key_of_hash((cram_wset)i << t->bucket_shift | e[k] >> TAG_SHIFT);
        unsigned char *rec = buf + n++ * WIDE_RECORD;
        rdb_put_le(rec, (uint64_t)key, 8);
        rdb_put_le(rec + 8, (uint64_t)(key >> 64), 8);
        cram_tt_put_fields(rec + 16, (e[k] & CRAM_TT_KNOWN) != 0, (unsigned)e[k] & CRAM_TT_PAYLOAD,
                           work_of(e[k]));
    }
    unlock(t, i);
    return n;
}

rdb_status cram_wide_tt_save(cram_wide_tt *t, const char *path, int stride, int min_work, rdb_error *err)
{
    return cram_tt_file_save(path, WIDE_MAGIC, stride, WIDE_RECORD, t->nbuckets, t->bytes, bucket_records, t,
                             min_work, err);
}

typedef struct {
    cram_wide_tt *t;
    cram_wide_tt_check check;
    void *ctx;
} loading;

static int load_record(void *ctx, const unsigned char *rec, int apply)
{
    const loading *l = ctx;
    cram_wset key = (cram_wset)rdb_get_le(rec + 8, 8) << 64 | rdb_get_le(rec, 8);
    int nimber, work;
    unsigned excluded;
    if (!cram_tt_get_fields(rec + 16, &nimber, &work, &excluded))
        return 0;
    if (!apply)
        return key != 0 && l->check(l->ctx, key, nimber, excluded);
    if (nimber != CRAM_TT_UNKNOWN)
        cram_wide_tt_put(l->t, key, nimber, work);
    else
        cram_wide_tt_exclude(l->t, key, excluded, work);
    return 1;
}

rdb_status cram_wide_tt_load(cram_wide_tt *t, const char *path, int stride, cram_wide_tt_check check,
                             void *ctx, uint64_t *loaded, rdb_error *err)
{
    loading l = {t, check, ctx};
    const uint64_t replaced = t->replaced;
    uint64_t saved_mb;
    rdb_status st =
        cram_tt_file_load(path, WIDE_MAGIC, stride, WIDE_RECORD, NULL, load_record, &l, loaded, &saved_mb, err);
    /* as cram_tt_load: a table too small for the file is refused, lest the
     * part it kept be saved over the whole */
    if (st != RDB_OK)
        return st;
    return cram_tt_check_kept(path, *loaded, t->replaced - replaced, t->bytes, sizeof(entry), "--tt-wide-mb",
                              saved_mb, err);
}
