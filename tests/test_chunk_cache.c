/*
 * test_chunk_cache.c — the chunk cache (src/store/chunk_cache.c): lookups
 * from two threads give the values the loader holds whether the budget
 * holds every chunk or none (a chunk no view holds is evicted at once, so
 * it is loaded again by the next); a chunk that fails to load
 * leaves the view failed with the loader's status and message, the cache
 * naming its level, and lookups after that give 0 without loading; a
 * position outside a level fails the same way.
 */
#include <check.h>
#include <omp.h>
#include <string.h>

#include "store/chunk_cache.h"
#include "test_util.h"

/* levels of 0, three and a bit chunks, a partial chunk, and one value */
static const uint64_t sizes[4] = {0, 3 * RDB_CHUNK_ENTRIES + 77, 1000, 1};

static int8_t expected(int level, uint64_t index)
{
    return (int8_t)((level * 7 + index * 13) % 251);
}

typedef struct {
    int fail_level; /* the level whose chunks fail to load, or -1 */
    int loads;
} loader;

static rdb_status load(void *ctx, int level, uint32_t chunk, int8_t *out, rdb_error *err)
{
    loader *l = ctx;
#pragma omp atomic
    l->loads++;
    if (level == l->fail_level)
        return rdb_fail(err, RDB_E_CORRUPT, "chunk %u of level %d is damaged", chunk, level);
    const uint64_t lo = (uint64_t)chunk << RDB_CHUNK_SHIFT;
    for (uint64_t i = lo; i < sizes[level] && i < lo + RDB_CHUNK_ENTRIES; i++)
        out[i - lo] = expected(level, i);
    return RDB_OK;
}

/* Random lookups of every level from two threads; returns the number of
 * wrong values. */
static long lookups(rdb_chunk_cache *c, int n)
{
    long wrong = 0;
#pragma omp parallel num_threads(2) reduction(+ : wrong)
    {
        rdb_chunk_view v;
        rdb_chunk_view_init(&v, c);
        uint64_t seed = 0x9e3779b97f4a7c15ULL * (uint64_t)(omp_get_thread_num() + 1);
        for (int i = 0; i < n; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            const int level = 1 + (int)(seed >> 60) % 3;
            const uint64_t index = (seed >> 16) % sizes[level];
            wrong += rdb_chunk_value(&v, level, index) != expected(level, index);
        }
        wrong += v.failed;
        rdb_chunk_view_release(&v);
    }
    return wrong;
}

START_TEST(test_values_any_budget)
{
    const uint64_t budgets[3] = {0, RDB_CHUNK_ENTRIES, 1ULL << 30};
    for (int b = 0; b < 3; b++) {
        loader l = {-1, 0};
        rdb_chunk_cache *c;
        rdb_error err;
        ck_assert_int_eq(rdb_chunk_cache_new(budgets[b], 4, sizes, load, &l, &c, &err), RDB_OK);
        TU_ASSERT_MSG(lookups(c, 200000) == 0, "budget %llu: wrong values",
                      (unsigned long long)budgets[b]);
        /* a second round after every view let go: a small cache kept
         * none of the chunks, a large one all */
        TU_ASSERT(lookups(c, 1000) == 0);
        const rdb_chunk_stats st = rdb_chunk_cache_stats(c);
        TU_ASSERT_EQ(st.loads, (uint64_t)l.loads);
        if (b == 2)
            TU_ASSERT_EQ(st.loads, 6);
        else
            TU_ASSERT(st.loads > 6);
        TU_ASSERT_EQ(rdb_chunk_cache_failed_level(c), -1);
        rdb_chunk_cache_free(c);
    }
}
END_TEST

START_TEST(test_failures)
{
    loader l = {2, 0};
    rdb_chunk_cache *c;
    rdb_error err;
    ck_assert_int_eq(rdb_chunk_cache_new(1ULL << 20, 4, sizes, load, &l, &c, &err), RDB_OK);
    rdb_chunk_view v;
    rdb_chunk_view_init(&v, c);
    TU_ASSERT_EQ(rdb_chunk_value(&v, 1, 5), expected(1, 5));
    TU_ASSERT_EQ(rdb_chunk_value(&v, 2, 5), 0);
    TU_ASSERT(v.failed);
    TU_ASSERT_EQ(v.status, RDB_E_CORRUPT);
    TU_ASSERT(strstr(v.err.msg, "level 2 is damaged") != NULL);
    TU_ASSERT_EQ(rdb_chunk_cache_failed_level(c), 2);
    const int loads = l.loads;
    TU_ASSERT_EQ(rdb_chunk_value(&v, 3, 0), 0); /* no load once failed */
    TU_ASSERT_EQ(l.loads, loads);
    rdb_chunk_view_release(&v);

    rdb_chunk_view_init(&v, c);
    TU_ASSERT_EQ(rdb_chunk_value(&v, 3, 1), 0); /* level 3 holds one value */
    TU_ASSERT(v.failed);
    TU_ASSERT(strstr(v.err.msg, "outside") != NULL);
    rdb_chunk_view_release(&v);
    rdb_chunk_cache_free(c);
}
END_TEST

Suite *chunk_cache_suite(void)
{
    Suite *s = suite_create("chunk_cache");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_values_any_budget);
    tcase_add_test(tc, test_failures);
    suite_add_tcase(s, tc);
    return s;
}
