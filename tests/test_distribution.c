/*
 * test_distribution.c — sharing a level's slices among processes
 * (src/engine/distribution.c) and the manifest's batched records
 * (src/store/manifest.c), which a build of several MPI ranks relies on:
 * every slice not done goes to exactly one process, the shares by size
 * stay within one slice of an even split, and a batch of records merged
 * at once leaves the manifest as the same records put one by one would.
 * The MPI builds themselves are tested by tests/mpi.sh.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/distribution.h"
#include "store/manifest.h"
#include "test_util.h"

START_TEST(test_share_covers_once)
{
    srand(7);
    enum { NS = 300 };
    rdb_slice slices[NS];
    char done[NS], mine[NS], owner[NS];
    for (int trial = 0; trial < 20; trial++) {
        uint64_t total = 0, biggest = 0;
        memset(slices, 0, sizeof slices);
        for (int i = 0; i < NS; i++) {
            /* sizes over orders of magnitude, as in a real level */
            slices[i].size = (uint64_t)1 << (rand() % 24);
            slices[i].size += (uint64_t)(rand() % 1000);
            done[i] = rand() % 4 == 0;
            if (!done[i]) {
                total += slices[i].size;
                if (slices[i].size > biggest)
                    biggest = slices[i].size;
            }
        }
        for (int ranks = 1; ranks <= 7; ranks++) {
            memset(owner, 0, sizeof owner);
            uint64_t most = 0;
            for (int r = 0; r < ranks; r++) {
                ck_assert_int_eq(rdb_distribution_share(r, ranks, slices, NS, done, mine), 0);
                uint64_t load = 0;
                for (int i = 0; i < NS; i++)
                    if (mine[i]) {
                        ck_assert_msg(!done[i], "slice %d done but shared", i);
                        owner[i]++;
                        load += slices[i].size;
                    }
                if (load > most)
                    most = load;
            }
            for (int i = 0; i < NS; i++)
                ck_assert_int_eq(owner[i], !done[i]);
            /* largest first to the least loaded: the most loaded process
             * exceeds an even split by at most one slice */
            ck_assert(most <= total / (uint64_t)ranks + biggest + (uint64_t)NS);
        }
    }
}
END_TEST

static void random_entry(rdb_manifest_entry *e, int ngroups)
{
    memset(e, 0, sizeof *e);
    e->level = rand() % 4;
    for (int g = 0; g < ngroups; g++)
        e->counts[g] = (uint16_t)(rand() % 3);
    e->entries = (uint64_t)rand();
    e->checksum = (uint64_t)rand() << 20 ^ (uint64_t)rand();
    e->bytes = (uint64_t)rand();
}

START_TEST(test_manifest_batch_same_as_one_by_one)
{
    srand(11);
    for (int trial = 0; trial < 50; trial++) {
        rdb_manifest one, batch;
        memset(&one, 0, sizeof one);
        memset(&batch, 0, sizeof batch);
        one.fd = batch.fd = -1;
        one.ngroups = batch.ngroups = 3;
        one.nbits = batch.nbits = 10;
        rdb_error err;
        for (int round = 0; round < 4; round++) {
            /* small keys, so that a batch repeats slices of the manifest
             * and of itself: the last record counts */
            size_t n = (size_t)(rand() % 40);
            rdb_manifest_entry e[40];
            for (size_t i = 0; i < n; i++)
                random_entry(&e[i], 3);
            for (size_t i = 0; i < n; i++)
                ck_assert_int_eq(rdb_manifest_put(&one, &e[i], 1, &err), RDB_OK);
            ck_assert_int_eq(rdb_manifest_put(&batch, e, n, &err), RDB_OK);
            ck_assert_uint_eq(one.n, batch.n);
            for (size_t i = 0; i < one.n; i++) {
                ck_assert_int_eq(one.e[i].level, batch.e[i].level);
                ck_assert_int_eq(memcmp(one.e[i].counts, batch.e[i].counts, sizeof one.e[i].counts), 0);
                ck_assert_uint_eq(one.e[i].checksum, batch.e[i].checksum);
                ck_assert_uint_eq(one.e[i].entries, batch.e[i].entries);
                if (i > 0)
                    ck_assert(one.e[i - 1].level < one.e[i].level ||
                              memcmp(one.e[i - 1].counts, one.e[i].counts, sizeof one.e[i].counts) < 0);
            }
        }
        rdb_manifest_free(&one);
        rdb_manifest_free(&batch);
    }
}
END_TEST

/* A sparse database's slice numbers (counts[0]) beyond any layout's
 * group: 4x5's levels have up to 37 slices, and a record of slice 17 was
 * once read back as no record, so the slice was built again at every
 * resume and a finished database looked unfinished. Every number up to
 * RDB_MANIFEST_MAX_PART is read back, and found; one beyond is no record. */
START_TEST(test_manifest_keeps_high_slice_numbers)
{
    char dir[TU_DIR_MAX];
    tu_mkdtemp(dir);
    const int parts[] = {0, 16, 17, 36, 255, 256, 4097, RDB_MANIFEST_MAX_PART};
    const int nparts = (int)(sizeof parts / sizeof parts[0]);
    rdb_manifest m;
    rdb_error err;
    ck_assert_int_eq(rdb_manifest_load(&m, dir, 4, 49, &err), RDB_OK);
    for (int i = 0; i < nparts; i++) {
        rdb_slice s;
        memset(&s, 0, sizeof s);
        s.level = 22;
        s.counts[0] = parts[i];
        s.size = 1000 + (uint64_t)i;
        ck_assert_int_eq(rdb_manifest_append(&m, dir, &s, 0x1234 + (uint64_t)i, 10, 1.0, &err), RDB_OK);
    }
    rdb_manifest_free(&m);
    /* a line one past the highest number: read as no record */
    char path[TU_DIR_MAX + 16];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    FILE *f = fopen(path, "a");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "slice 22 %d,0,0,0 5 0000000000000abc 10 1.000\n", RDB_MANIFEST_MAX_PART + 1);
    fclose(f);
    ck_assert_int_eq(rdb_manifest_load(&m, dir, 4, 49, &err), RDB_OK);
    ck_assert_uint_eq(m.n, (size_t)nparts);
    for (int i = 0; i < nparts; i++) {
        rdb_slice s;
        memset(&s, 0, sizeof s);
        s.level = 22;
        s.counts[0] = parts[i];
        const rdb_manifest_entry *e = rdb_manifest_find(&m, &s);
        ck_assert_msg(e != NULL, "slice %d of a level not read back", parts[i]);
        ck_assert_uint_eq(e->checksum, 0x1234 + (uint64_t)i);
        ck_assert_uint_eq(e->entries, 1000 + (uint64_t)i);
    }
    rdb_manifest_free(&m);
    tu_rmrf(dir);
}
END_TEST

Suite *distribution_suite(void)
{
    Suite *s = suite_create("distribution");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_share_covers_once);
    tcase_add_test(tc, test_manifest_batch_same_as_one_by_one);
    tcase_add_test(tc, test_manifest_keeps_high_slice_numbers);
    suite_add_tcase(s, tc);
    return s;
}
