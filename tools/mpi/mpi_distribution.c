/*
 * mpi_distribution.c — the slices of each level shared among MPI ranks
 * that see one folder on a shared file system; see distribution.h.
 *
 * Rank 0, the root, does what only one process may do: it holds the
 * folder's lock, pins PARAMS, sweeps a killed build's leftovers, appends
 * to DIR/MANIFEST and deletes levels. Every rank computes its share of a
 * level (the sizes of the slices shared out, distribution.c), writes its
 * slice files with the usual atomic commit and records them in its own
 * part, DIR/MANIFEST.<rank>, so that a job killed at any moment leaves
 * every finished slice recorded somewhere a resumed build reads. At the
 * level's end the ranks exchange their outcomes and records
 * (MPI_Allgather, which is also the barrier between levels: no rank reads
 * level n before every rank has made it durable), the root appends the
 * others' records to DIR/MANIFEST with one fsync and removes the parts.
 *
 * The messages are a handful of collectives per level; the slices
 * themselves go through the file system, never over MPI.
 */
#define _GNU_SOURCE
#include "mpi_distribution.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/human.h"

typedef struct {
    MPI_Comm comm;
    int by_count;            /* RETRODB_MPI_SHARE=count: slices dealt out
                                by count, for comparing with by size */
    rdb_level_work *sum;     /* the root: each rank's work over the job */
    int levels;              /* levels ended so far */
    char (*host)[MPI_MAX_PROCESSOR_NAME];
} mpi_ctx;

/* What one rank tells the others at a level's end. */
typedef struct {
    int st;
    int damaged;             /* slice below holds a damaged neighbour */
    rdb_slice slice;
    rdb_level_work work;
    uint64_t nrecords;
} outcome;

static MPI_Comm comm_of(const rdb_distribution *d)
{
    return ((const mpi_ctx *)d->ctx)->comm;
}

/* Whether an MPI call failed; MPI's default handler aborts the job
 * first, so this is for a handler that returns. */
static rdb_status mpi_failed(int rc, const char *what, rdb_error *err)
{
    if (rc == MPI_SUCCESS)
        return RDB_OK;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    return rdb_fail(err, RDB_E_IO, "MPI %s failed: %.*s", what, len, text);
}

/* The message of the lowest rank for which `fails`, broadcast from it:
 * its status, and its message in *err. RDB_OK when no rank fails. */
static rdb_status first_failure(const rdb_distribution *d, int fails, rdb_status st,
                                rdb_error *err)
{
    int me = fails ? d->rank : d->ranks, first;
    int rc = MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, comm_of(d));
    if (rc != MPI_SUCCESS)
        return mpi_failed(rc, "allreduce", err);
    if (first == d->ranks)
        return RDB_OK;
    struct {
        int st;
        rdb_error err;
    } word;
    memset(&word, 0, sizeof word);
    if (d->rank == first) {
        word.st = st;
        word.err = *err;
    }
    rc = MPI_Bcast(&word, sizeof word, MPI_BYTE, first, comm_of(d));
    if (rc != MPI_SUCCESS)
        return mpi_failed(rc, "broadcast", err);
    *err = word.err;
    return (rdb_status)word.st;
}

static rdb_status mpi_agree(const rdb_distribution *d, rdb_status st, rdb_error *err)
{
    return first_failure(d, st != RDB_OK, st, err);
}

/* Broadcast n bytes from the root in pieces MPI's int counts can hold. */
static int bcast_bytes(void *buf, size_t n, MPI_Comm comm)
{
    const size_t piece = (size_t)1 << 30;
    for (size_t at = 0; at < n; at += piece) {
        size_t k = n - at < piece ? n - at : piece;
        int rc = MPI_Bcast((char *)buf + at, (int)k, MPI_BYTE, 0, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* Memory for the exchanges themselves: a rank without it cannot take
 * part in the next collective, so the job ends here rather than hang. */
static void *need(void *p, const rdb_distribution *d)
{
    if (!p) {
        fprintf(stderr, "retrodb: rank %d: out of memory\n", d->rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

static rdb_status mpi_share_manifest(const rdb_distribution *d, rdb_manifest *m, rdb_error *err)
{
    uint64_t head[2] = {m->n, m->deleted};
    int rc = MPI_Bcast(head, 2, MPI_UINT64_T, 0, comm_of(d));
    if (rc != MPI_SUCCESS)
        return mpi_failed(rc, "broadcast", err);
    size_t n = (size_t)head[0];
    rdb_manifest_entry *buf = d->rank == 0 ? m->e : need(malloc(n * sizeof *buf + 1), d);
    rc = bcast_bytes(buf, n * sizeof *buf, comm_of(d));
    if (d->rank == 0)
        return mpi_failed(rc, "broadcast", err);
    rdb_status st = mpi_failed(rc, "broadcast", err);
    if (st == RDB_OK) {
        m->deleted = head[1];
        st = rdb_manifest_put(m, buf, n, err);
    }
    free(buf);
    return st;
}

static int mpi_assign(const rdb_distribution *d, const rdb_slice *slices, int ns, const char *done,
                      char *mine)
{
    const mpi_ctx *c = d->ctx;
    if (c->by_count) {
        int k = 0;
        for (int i = 0; i < ns; i++)
            mine[i] = !done[i] && k++ % d->ranks == d->rank;
        return 0;
    }
    return rdb_distribution_share(d->rank, d->ranks, slices, ns, done, mine);
}

/* Every rank's records of the level, gathered in every rank: *all and
 * *nall (freed by the caller), rank r's from offset first[r]. */
static rdb_status gather_records(const rdb_distribution *d, const outcome *outs,
                                 const rdb_manifest_entry *records, rdb_manifest_entry **all,
                                 size_t *nall, size_t *first, rdb_error *err)
{
    const int R = d->ranks;
    int *counts = need(malloc(2 * (size_t)R * sizeof *counts), d);
    size_t total = 0;
    for (int r = 0; r < R; r++) {
        first[r] = total;
        total += outs[r].nrecords;
    }
    *nall = total;
    /* MPI counts are ints: a level's records must stay below 2 GB (some
     * 30 million slices), which the same check in every rank finds */
    if (total * sizeof **all >= INT_MAX) {
        free(counts);
        *all = NULL;
        return rdb_fail(err, RDB_E_NOMEM, "too many slices in one level for one message");
    }
    *all = need(malloc(total * sizeof **all + 1), d);
    int *displs = counts + R;
    for (int r = 0; r < R; r++) {
        counts[r] = (int)(outs[r].nrecords * sizeof **all);
        displs[r] = (int)(first[r] * sizeof **all);
    }
    int rc = MPI_Allgatherv(records, counts[d->rank], MPI_BYTE, *all, counts, displs, MPI_BYTE,
                            comm_of(d));
    free(counts);
    return mpi_failed(rc, "allgather", err);
}

static rdb_status mpi_level_end(const rdb_distribution *d, rdb_manifest *m, const char *dir,
                                rdb_status st, const rdb_error *err, const rdb_slice *damaged,
                                const rdb_manifest_entry *records, size_t nrecords,
                                const rdb_level_work *work, rdb_level_end *out)
{
    mpi_ctx *c = d->ctx;
    const int R = d->ranks;
    memset(out, 0, sizeof *out);
    c->levels++;
    /* the root removes the part once its records are in the manifest:
     * this rank's next record must go to a new part, not the removed one */
    rdb_manifest_close(m);

    outcome me;
    memset(&me, 0, sizeof me);
    me.st = st;
    me.damaged = damaged != NULL;
    if (damaged)
        me.slice = *damaged;
    me.work = *work;
    me.nrecords = nrecords;
    outcome *outs = need(malloc((size_t)R * sizeof *outs), d);
    size_t *first = need(malloc((size_t)R * sizeof *first), d);
    rdb_manifest_entry *all = NULL;
    size_t nall = 0;
    rdb_error local;
    int rc = MPI_Allgather(&me, sizeof me, MPI_BYTE, outs, sizeof me, MPI_BYTE, c->comm);
    rdb_status lst = mpi_failed(rc, "allgather", &local);
    if (lst == RDB_OK)
        lst = gather_records(d, outs, records, &all, &nall, first, &local);

    /* every rank's records in every rank's memory: the ranks agree on what
     * is done, which the next level's shares and a redo depend on. The
     * root appends the others' to the manifest (which puts them), then
     * drops the parts that held them. */
    if (lst == RDB_OK && d->rank == 0) {
        lst = rdb_manifest_append_entries(m, dir, all + outs[0].nrecords,
                                          nall - outs[0].nrecords, &local);
        if (lst == RDB_OK)
            lst = rdb_manifest_remove_parts(dir, &local);
    } else if (lst == RDB_OK) {
        for (int r = 0; r < R && lst == RDB_OK; r++)
            if (r != d->rank)
                lst = rdb_manifest_put(m, all + first[r], outs[r].nrecords, &local);
    }
    free(all);
    /* a failure here is as bad as a failure in the level */
    rdb_status agreed = first_failure(d, lst != RDB_OK, lst, &local);
    if (agreed != RDB_OK) {
        out->st = agreed;
        out->err = local;
        free(outs);
        free(first);
        return agreed;
    }

    /* how the level went: the lowest rank that failed otherwise than on a
     * damaged neighbour speaks for the job; else the damaged slices are
     * redone */
    int hard = st != RDB_OK && !damaged, any_hard = 0;
    for (int r = 0; r < R; r++)
        any_hard |= outs[r].st != RDB_OK && !outs[r].damaged;
    rdb_error e = *err;
    if (any_hard) {
        out->st = first_failure(d, hard, st, &e);
    } else {
        out->st = first_failure(d, damaged != NULL, st, &e);
        out->damaged = malloc((size_t)R * sizeof *out->damaged);
        if (!out->damaged) {
            /* every rank then stops rather than redo */
            out->st = RDB_E_NOMEM;
            snprintf(e.msg, sizeof e.msg, "out of memory");
        } else {
            for (int r = 0; r < R; r++)
                if (outs[r].damaged)
                    out->damaged[out->ndamaged++] = outs[r].slice;
        }
    }
    out->err = e;

    out->busy_min = outs[0].work.busy;
    for (int r = 0; r < R; r++) {
        const rdb_level_work *w = &outs[r].work;
        out->total.busy += w->busy;
        out->total.read += w->read;
        out->total.write += w->write;
        out->total.computed += w->computed;
        out->total.read_bytes += w->read_bytes;
        out->total.written_bytes += w->written_bytes;
        if (w->busy < out->busy_min)
            out->busy_min = w->busy;
        if (w->busy > out->busy_max) {
            out->busy_max = w->busy;
            out->slowest = r;
        }
        if (c->sum) {
            rdb_level_work *s = &c->sum[r];
            s->busy += w->busy;
            s->read += w->read;
            s->write += w->write;
            s->computed += w->computed;
            s->read_bytes += w->read_bytes;
            s->written_bytes += w->written_bytes;
        }
    }
    free(outs);
    free(first);
    return out->st;
}

/* The root's table of what each rank did over the job. */
static void report(const rdb_distribution *d)
{
    const mpi_ctx *c = d->ctx;
    fprintf(stderr, "rank  host                  busy s  read s  write s  positions     read bytes  written bytes\n");
    for (int r = 0; r < d->ranks; r++) {
        const rdb_level_work *w = &c->sum[r];
        fprintf(stderr, "%4d  %-20.20s %7.2f %7.2f  %7.2f %10llu %14llu %14llu\n", r, c->host[r],
                w->busy, w->read, w->write, (unsigned long long)w->computed,
                (unsigned long long)w->read_bytes, (unsigned long long)w->written_bytes);
    }
}

static void mpi_finish(const rdb_distribution *d, rdb_status st, int quiet)
{
    const mpi_ctx *c = d->ctx;
    (void)st;
    if (d->rank == 0 && !quiet && c->levels > 0)
        report(d);
    MPI_Barrier(c->comm);
}

rdb_distribution *rdb_mpi_distribution_new(void)
{
    rdb_distribution *d = calloc(1, sizeof *d);
    mpi_ctx *c = calloc(1, sizeof *c);
    if (!d || !c) {
        free(d);
        free(c);
        return NULL;
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &c->comm);
    MPI_Comm_rank(c->comm, &d->rank);
    MPI_Comm_size(c->comm, &d->ranks);
    const char *share = getenv("RETRODB_MPI_SHARE");
    c->by_count = share && strcmp(share, "count") == 0;
    /* the host names, for the root's report */
    char name[MPI_MAX_PROCESSOR_NAME] = {0};
    int len = 0;
    MPI_Get_processor_name(name, &len);
    if (d->rank == 0) {
        c->sum = need(calloc((size_t)d->ranks, sizeof *c->sum), d);
        c->host = need(calloc((size_t)d->ranks, sizeof *c->host), d);
    }
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, d->rank == 0 ? c->host[0] : NULL,
               MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, c->comm);
    d->ctx = c;
    d->agree = mpi_agree;
    d->share_manifest = mpi_share_manifest;
    d->assign = mpi_assign;
    d->level_end = mpi_level_end;
    d->finish = mpi_finish;
    return d;
}

void rdb_mpi_distribution_free(rdb_distribution *d)
{
    if (!d)
        return;
    mpi_ctx *c = d->ctx;
    MPI_Comm_free(&c->comm);
    free(c->sum);
    free(c->host);
    free(c);
    free(d);
}
