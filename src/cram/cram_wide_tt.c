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
#define WORK_SHIFT 12
/* set in every word in use, so that a word of 0 is an empty slot */
#define USED (1ULL << 62)

typedef struct {
    cram_wset key;
    uint64_t word; /* USED | work << WORK_SHIFT | CRAM_TT_KNOWN? | payload */
    uint64_t unused;
} entry;

_Static_assert(sizeof(entry) == 32, "two entries a cache line");

struct cram_wide_tt {
    entry *e;         /* nbuckets * WAYS */
    uint64_t nbuckets; /* a power of two */
    size_t bytes;
    uint64_t entries;
    uint64_t replaced; /* entries that made way for another key */
    uint64_t conflicts; /* results that disagreed with the entry there (cram_tt_disagree) */
    char lock[NLOCKS];
};

rdb_status cram_wide_tt_new(long mb, cram_wide_tt **out, rdb_error *err)
{
    cram_wide_tt *t = calloc(1, sizeof *t);
    if (!t)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the wide transposition table");
    uint64_t want = (uint64_t)(mb > 0 ? mb : 1) << 20, n = 1024;
    while (2 * n * WAYS * sizeof(entry) <= want)
        n *= 2;
    t->bytes = n * WAYS * sizeof(entry);
    void *p = rdb_huge_alloc(t->bytes);
    if (!p) {
        free(t);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for a wide transposition table of %ld MB", mb);
    }
    t->e = p;
    t->nbuckets = n;
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

static uint64_t bucket_of(const cram_wide_tt *t, cram_wset key)
{
    uint64_t h = cram_tt_hash((uint64_t)key ^ cram_tt_hash((uint64_t)(key >> 64) + 0x9e3779b97f4a7c15ULL));
    return h & (t->nbuckets - 1);
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

/* The word of key (0 when absent). */
static uint64_t find(cram_wide_tt *t, cram_wset key)
{
    uint64_t b = bucket_of(t, key), word = 0;
    entry *e = t->e + b * WAYS;
    lock(t, b);
    for (int i = 0; i < WAYS; i++)
        if (e[i].word && e[i].key == key) {
            word = e[i].word;
            break;
        }
    unlock(t, b);
    return word;
}

int cram_wide_tt_get(cram_wide_tt *t, cram_wset key)
{
    uint64_t w = find(t, key);
    return w & CRAM_TT_KNOWN ? (int)(w & CRAM_TT_PAYLOAD) : -1;
}

unsigned cram_wide_tt_excluded(cram_wide_tt *t, cram_wset key)
{
    uint64_t w = find(t, key);
    if (!w)
        return 0;
    unsigned payload = (unsigned)w & CRAM_TT_PAYLOAD, all = (1u << CRAM_TT_EXCLUDED_BITS) - 1;
    if (w & CRAM_TT_KNOWN)
        return ~(1u << (payload < 32 ? payload : 31)) & all;
    return payload;
}

static unsigned work_of(uint64_t word)
{
    return (unsigned)(word >> WORK_SHIFT) & 15;
}

/* Merge into key's entry, as cram_tt.c's store does. */
static void store(cram_wide_tt *t, cram_wset key, int known, unsigned payload, int work)
{
    unsigned w = cram_tt_work_code(work);
    uint64_t b = bucket_of(t, key);
    entry *e = t->e + b * WAYS;
    lock(t, b);
    int slot = -1, victim = 0;
    unsigned victim_cost = ~0u;
    for (int i = 0; i < WAYS; i++) {
        if (e[i].word && e[i].key == key) {
            slot = i;
            break;
        }
        unsigned cost = e[i].word ? work_of(e[i].word) + 1 : 0;
        if (cost < victim_cost) {
            victim = i;
            victim_cost = cost;
        }
    }
    if (slot >= 0) {
        uint64_t was = e[slot].word;
        if (cram_tt_disagree((unsigned)was, known, payload))
            __atomic_fetch_add(&t->conflicts, 1, __ATOMIC_RELAXED);
        else if (!(was & CRAM_TT_KNOWN)) {
            unsigned data = known ? CRAM_TT_KNOWN | payload : ((unsigned)was & CRAM_TT_PAYLOAD) | payload;
            if (work_of(was) > w)
                w = work_of(was);
            e[slot].word = USED | (uint64_t)w << WORK_SHIFT | data;
        }
    } else {
        __atomic_fetch_add(e[victim].word ? &t->replaced : &t->entries, 1, __ATOMIC_RELAXED);
        e[victim].key = key;
        e[victim].word = USED | (uint64_t)w << WORK_SHIFT | (known ? CRAM_TT_KNOWN | payload : payload);
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
        if (!e[k].word)
            continue;
        unsigned char *rec = buf + n++ * WIDE_RECORD;
        rdb_put_le(rec, (uint64_t)e[k].key, 8);
        rdb_put_le(rec + 8, (uint64_t)(e[k].key >> 64), 8);
        cram_tt_put_fields(rec + 16, (e[k].word & CRAM_TT_KNOWN) != 0,
                           (unsigned)e[k].word & CRAM_TT_PAYLOAD, work_of(e[k].word));
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
    rdb_status st = cram_tt_file_load(path, WIDE_MAGIC, stride, WIDE_RECORD, load_record, &l, loaded, &saved_mb, err);
    /* as cram_tt_load: a table too small for the file is refused, lest the
     * part it kept be saved over the whole */
    if (st != RDB_OK)
        return st;
    return cram_tt_check_kept(path, *loaded, t->replaced - replaced, t->bytes, sizeof(entry), "--tt-wide-mb",
                              saved_mb, err);
}
