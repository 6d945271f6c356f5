/*
 * report.c — a database's own account of itself; see report.h. Everything
 * here is read from PARAMS (through rdb_db_open) and the manifest: no
 * slice file is opened, so a report of a 45 GB database is instant.
 */
#include "engine/report.h"

#include <stdlib.h>
#include <string.h>

#include "engine/progress.h"
#include "store/checksum.h"
#include "store/lock.h"
#include "store/manifest.h"

int rdb_level_is_deleted(uint64_t deleted, int level)
{
    return rdb_level_deleted(deleted, level);
}

long rdb_report_builder(const char *dir)
{
    return rdb_lock_holder(dir);
}

static void summarize_level(const rdb_db *db, const rdb_manifest *man, int level,
                            rdb_level_report *ls)
{
    memset(ls, 0, sizeof *ls);
    rdb_slice *slices;
    const int ns = rdb_db_level_slices(db, level, &slices);
    for (int i = 0; i < ns; i++) {
        const rdb_manifest_entry *e = rdb_manifest_find(man, &slices[i]);
        ls->positions += slices[i].size;
        if (!e)
            continue;
        ls->done++;
        ls->done_positions += e->entries;
        ls->bytes += e->bytes;
        ls->checksum = rdb_checksum_combine(ls->checksum, e->checksum);
        if (e->seconds > 0) {
            ls->seconds += e->seconds;
            ls->timed_positions += e->entries;
            ls->timed_slices++;
        }
    }
    ls->slices = ns > 0 ? ns : 0;
    ls->deleted = rdb_level_deleted(man->deleted, level);
    free(slices);
}

static void measure_progress(rdb_report *r)
{
    rdb_build_progress *bp = &r->progress;
    const int nbits = r->db.lay.nbits;
    memset(bp, 0, sizeof *bp);
    bp->lowest_done = -1;
    bp->levels = nbits + 1;
    /* the levels are built from the top down: the lowest with slices done
     * hold the last slices built (whole levels, as few as make
     * RDB_REPORT_RECENT_SLICES timed slices) */
    for (int level = 0; level <= nbits && bp->recent_slices < RDB_REPORT_RECENT_SLICES; level++) {
        const rdb_level_report *ls = &r->level[level];
        bp->recent_slices += ls->timed_slices;
        bp->recent_positions += ls->timed_positions;
        bp->recent_work += (double)ls->timed_positions * rdb_progress_level_weight(nbits, level);
        bp->recent_seconds += ls->seconds;
    }
    for (int level = nbits; level >= 0; level--) {
        const rdb_level_report *ls = &r->level[level];
        const double w = rdb_progress_level_weight(nbits, level);
        bp->total += ls->positions;
        bp->done += ls->done_positions;
        bp->seconds += ls->seconds;
        bp->timed_positions += ls->timed_positions;
        bp->total_work += (double)ls->positions * w;
        bp->done_work += (double)ls->done_positions * w;
        bp->timed_work += (double)ls->timed_positions * w;
        if (ls->done == ls->slices) {
            bp->levels_done++;
            bp->lowest_done = level;
        }
    }
    /* by work, as the build's own line: see rdb_progress_estimate */
    bp->left = bp->done < bp->total ? rdb_progress_estimate(bp->total_work - bp->done_work,
                                                            bp->timed_work, bp->seconds,
                                                            bp->total_work)
                                    : -1;
    /* the same at the rate of the last slices, when they are not all */
    bp->recent_left = bp->left >= 0 && bp->recent_positions < bp->timed_positions &&
                              bp->recent_seconds > 0
                          ? (bp->total_work - bp->done_work) * bp->recent_seconds / bp->recent_work
                          : -1;
}

rdb_status rdb_report_read(const char *dir, rdb_report *r, rdb_error *err)
{
    memset(r, 0, sizeof *r);
    rdb_status st = rdb_db_open(&r->db, dir, err);
    if (st != RDB_OK)
        return st;
    rdb_manifest man;
    st = rdb_manifest_load(&man, dir, r->db.lay.ngroups, r->db.lay.nbits, err);
    if (st != RDB_OK) {
        rdb_db_free(&r->db);
        return st;
    }
    for (int level = 0; level <= r->db.lay.nbits; level++)
        summarize_level(&r->db, &man, level, &r->level[level]);
    r->deleted = man.deleted;
    rdb_manifest_free(&man);
    measure_progress(r);
    return RDB_OK;
}

void rdb_report_free(rdb_report *r)
{
    rdb_db_free(&r->db);
}

void rdb_report_speed(const rdb_report *r, uint64_t *positions, double *seconds, double *rate)
{
    *positions = r->progress.timed_positions;
    *seconds = r->progress.seconds;
    *rate = *seconds > 0 && *positions > 0 ? (double)*positions / *seconds : 0;
}
