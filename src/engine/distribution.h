/*
 * distribution.h — how the slices of a build are shared among processes.
 *
 * The builder (builder.c) runs the same level loop in every process of a
 * build. What differs between one process and many (MPI ranks on several
 * machines sharing one folder) is said here, so that the engine knows
 * nothing of MPI:
 *   - which process sets the folder up (lock, PARAMS, temporary files,
 *     manifest): the root, rank 0; the others wait for its word;
 *   - which slices of a level a process computes (assign);
 *   - what happens at the end of a level: every process has made its
 *     slices durable and recorded them (the root in DIR/MANIFEST, the
 *     others in their own parts, DIR/MANIFEST.<rank>); the processes
 *     agree on how the level went and share their records, so that every
 *     process knows every finished slice, and the root folds the parts
 *     into the manifest. No process starts a level before every process
 *     has finished the one above, which the next level reads.
 * rdb_distribution_single() is one process, today's build; the MPI one is
 * built only into bin/retrodb-mpi (tools/mpi/).
 */
#ifndef RDB_DISTRIBUTION_H
#define RDB_DISTRIBUTION_H

#include <stdint.h>

#include "common/error.h"
#include "layout/layout.h"
#include "store/manifest.h"

/* What one process did in one level, for reports. */
typedef struct {
    double busy;             /* seconds in the level before its end */
    double read, write;      /* of which reading neighbours, writing slices */
    uint64_t computed;       /* positions computed */
    uint64_t read_bytes;     /* bytes of neighbour files read */
    uint64_t written_bytes;  /* bytes of slice files written */
} rdb_level_work;

/* How a level ended, the same in every process. */
typedef struct {
    rdb_status st;           /* the first failure of any process, or RDB_OK */
    rdb_error err;           /* its message */
    rdb_slice *damaged;      /* finished slices found damaged when read as
                                neighbours (st is then RDB_E_CORRUPT or
                                RDB_E_MISSING): forget them and redo them */
    int ndamaged;
    rdb_level_work total;    /* summed over the processes */
    double busy_min, busy_max; /* the least and most busy process */
    int slowest;             /* the rank of the most busy one */
} rdb_level_end;

typedef struct rdb_distribution rdb_distribution;
struct rdb_distribution {
    int rank, ranks;         /* this process, of how many; rank 0 is the root */
    void *ctx;

    /* Collective: the root's setup status (st and err in the root,
     * ignored elsewhere) becomes every process's. */
    rdb_status (*agree)(const rdb_distribution *d, rdb_status st, rdb_error *err);

    /* Collective: every process gets the root's manifest records and
     * deleted levels (m in the other processes is loaded empty). */
    rdb_status (*share_manifest)(const rdb_distribution *d, rdb_manifest *m, rdb_error *err);

    /* Which of the ns slices of a level this process computes: mine[i] is
     * set for slice i. done[i] says the slice is recorded. The same
     * answer in every process for the same arguments, so that every slice
     * not done goes to exactly one process. -1 when out of memory. */
    int (*assign)(const rdb_distribution *d, const rdb_slice *slices, int ns, const char *done,
                  char *mine);

    /* Collective, at the end of a level, after this process's writer is
     * drained: st/err and damaged are this process's outcome (damaged
     * NULL when none), records[0..nrecords) the records it made durable in
     * this level, work what it did. Fills out, the same everywhere
     * (out->damaged is freed with rdb_level_end_free). */
    rdb_status (*level_end)(const rdb_distribution *d, rdb_manifest *m, const char *dir,
                            rdb_status st, const rdb_error *err, const rdb_slice *damaged,
                            const rdb_manifest_entry *records, size_t nrecords,
                            const rdb_level_work *work, rdb_level_end *out);

    /* The job ended (st): a last report (the root), the processes wait for
     * each other so that none outlives the job's result. */
    void (*finish)(const rdb_distribution *d, rdb_status st, int quiet);
};

/* One process computing every slice: the builder as it always was. */
const rdb_distribution *rdb_distribution_single(void);

/* The slices of a level shared among `ranks` processes by their sizes:
 * the slices not done, largest first, each to the process with the least
 * work so far (ties to the lowest rank). Deterministic, so every process
 * computes the same shares; mine[i] for this rank's slices. -1 when out
 * of memory. */
int rdb_distribution_share(int rank, int ranks, const rdb_slice *slices, int ns,
                           const char *done, char *mine);

void rdb_level_end_free(rdb_level_end *e);

#endif
