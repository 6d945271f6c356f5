/*
 * inspect.c — the subcommands that look at a database without changing it:
 * `info` (parameters and every level's slices, checksums and speed),
 * `status` (how far a build is, disk used, time left, whether a builder
 * runs) and `verify` (every file against its checksums; with --full every
 * value recomputed).
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

#include "engine/db.h"
#include "engine/verify.h"
#include "store/checksum.h"
#include "store/lock.h"
#include "store/manifest.h"

static uint64_t disk_bytes;

static int add_disk_use(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)path;
    (void)ftw;
    if (type == FTW_F)
        disk_bytes += (uint64_t)sb->st_blocks * 512;
    return 0;
}

/* Parse "--dir DIR" (and the flags in `flags`, set in *flag_set) or fail. */
static const char *dir_option(int argc, char **argv, const char *flag, int *flag_set)
{
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = rdb_tool_opt_value(argc, argv, &i, "--dir")))
            dir = v;
        else if (flag && strcmp(argv[i], flag) == 0)
            *flag_set = 1;
        else {
            fprintf(stderr, "retrodb: %s: unknown argument '%s'\n", argv[0], argv[i]);
            return NULL;
        }
    }
    if (!dir)
        fprintf(stderr, "retrodb: %s: which database? (--dir DIR)\n", argv[0]);
    return dir;
}

/* Open a database and its manifest; on failure reports and returns the
 * exit code (else 0). */
static int open_database(const char *dir, rdb_db *db, rdb_manifest *man)
{
    rdb_error err;
    rdb_status st = rdb_db_open(db, dir, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    st = rdb_manifest_load(man, dir, db->lay.ngroups, db->lay.nbits, &err);
    if (st != RDB_OK) {
        rdb_db_free(db);
        return rdb_tool_report(st, &err);
    }
    return 0;
}

/* What the manifest says about one level. */
typedef struct {
    int slices, done;
    uint64_t positions, done_positions, bytes;
    uint64_t checksum;        /* the finished slices' checksums, folded in order */
    double seconds;           /* time recorded for the finished slices */
    uint64_t timed_positions; /* positions of the slices with a recorded time */
} level_summary;

static void summarize_level(const rdb_db *db, const rdb_manifest *man, int level,
                            level_summary *ls)
{
    memset(ls, 0, sizeof *ls);
    rdb_slice *slices;
    int ns = rdb_level_slices(&db->lay, level, &slices);
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
        }
    }
    ls->slices = ns > 0 ? ns : 0;
    free(slices);
}

int rdb_cmd_info(int argc, char **argv)
{
    const char *dir = dir_option(argc, argv, NULL, NULL);
    if (!dir)
        return 2;
    rdb_db db;
    rdb_manifest man;
    int rc = open_database(dir, &db, &man);
    if (rc)
        return rc;
    printf("game        %s\nboard       %dx%d\nvariant     %s\n", db.game->name, db.params.rows,
           db.params.cols, db.params.variant);
    db.game->describe(db.state, stdout);
    printf("symmetries  %d\ngroups      %d (", db.lay.ntransforms, db.lay.ngroups);
    for (int g = 0; g < db.lay.ngroups; g++)
        printf("%s%d", g ? " " : "", db.lay.size[g]);
    /* what perfect use of symmetry and interchangeable lines would store */
    double ideal = 1;
    uint64_t seen = 0;
    int classes = 0;
    for (int i = 0; i < db.lay.nbits; i++) {
        uint64_t cm = db.lay.u.class_mask[i];
        if (seen & cm)
            continue;
        seen |= cm;
        int c = __builtin_popcountll(cm);
        ideal *= c + 1;
        classes |= c > 1;
    }
    ideal /= db.lay.ntransforms;
    uint64_t stored = rdb_layout_total_positions(&db.lay);
    printf(" %s)\npositions   %" PRIu64 " stored; 2^%d positions, ideal after symmetry%s%s %.0f"
           " (stored/ideal %.3f)\n",
           db.game->bit_noun, stored, db.lay.nbits, classes ? " and\n            interchangeable " : "",
           classes ? db.game->bit_noun : "", ideal, stored / ideal);
    /* seconds: computing and writing the level's slices, as the manifest
     * records them (a resumed build counts each slice once) */
    printf("level  slices  done  positions       bytes  checksum          seconds   Mpos/s\n");
    for (int level = db.lay.nbits; level >= 0; level--) {
        level_summary ls;
        summarize_level(&db, &man, level, &ls);
        if (ls.done == ls.slices)
            printf("%5d  %6d  %4d  %9" PRIu64 "  %10" PRIu64 "  %016" PRIx64 "  %7.1f  %7.1f%s\n",
                   level, ls.slices, ls.done, ls.positions, ls.bytes, ls.checksum, ls.seconds,
                   ls.seconds > 0 ? (double)ls.timed_positions / ls.seconds / 1e6 : 0.0,
                   rdb_level_deleted(man.deleted, level) ? "  (deleted)" : "");
        else
            printf("%5d  %6d  %4d  %9" PRIu64 "  %10" PRIu64 "  -\n", level, ls.slices, ls.done,
                   ls.positions, ls.bytes);
    }
    rdb_manifest_free(&man);
    rdb_db_free(&db);
    return 0;
}

int rdb_cmd_status(int argc, char **argv)
{
    const char *dir = dir_option(argc, argv, NULL, NULL);
    if (!dir)
        return 2;
    rdb_params params;
    rdb_error err;
    if (rdb_params_read(dir, &params, &err) == RDB_E_MISSING && rdb_lock_holder(dir) > 0) {
        /* a builder has the directory but has not pinned its parameters */
        printf("database    %s\nbuilder     running (pid %ld), setting up\n", dir,
               rdb_lock_holder(dir));
        return 0;
    }
    rdb_db db;
    rdb_manifest man;
    int rc = open_database(dir, &db, &man);
    if (rc)
        return rc;
    uint64_t total = 0, done = 0, done_time_pos = 0;
    double seconds = 0;
    int levels_done = 0, lowest_done = -1;
    for (int level = db.lay.nbits; level >= 0; level--) {
        level_summary ls;
        summarize_level(&db, &man, level, &ls);
        total += ls.positions;
        done += ls.done_positions;
        seconds += ls.seconds;
        done_time_pos += ls.timed_positions;
        if (ls.done == ls.slices) {
            levels_done++;
            lowest_done = level;
        }
    }
    disk_bytes = 0;
    nftw(dir, add_disk_use, 16, FTW_PHYS);
    printf("database    %s\n", dir);
    printf("parameters  %s %dx%d, variant %s, %d %s, %d groups, zstd level %d\n",
           db.game->name, db.params.rows, db.params.cols, db.params.variant, db.lay.nbits,
           db.game->bits_name, db.lay.ngroups, db.params.zstd_level);
    if (lowest_done >= 0)
        printf("levels      %d of %d done (%d..%d %s)", levels_done, db.lay.nbits + 1,
               db.lay.nbits, lowest_done, db.game->level_name);
    else
        printf("levels      0 of %d done", db.lay.nbits + 1);
    printf(levels_done == db.lay.nbits + 1 ? "; complete\n" : "; to do: %d..0\n",
           lowest_done >= 0 ? lowest_done - 1 : db.lay.nbits);
    if (man.deleted) {
        printf("deleted     levels");
        for (int l = 64; l >= 0; l--)
            if (rdb_level_deleted(man.deleted, l))
                printf(" %d", l);
        printf(" (not kept)\n");
    }
    printf("positions   %" PRIu64 " of %" PRIu64 " done (%.1f%%)\n", done, total,
           total ? 100.0 * (double)done / (double)total : 100.0);
    printf("disk        %.1f MB\n", (double)disk_bytes / 1e6);
    if (done < total && done_time_pos > 0)
        printf("time        %.0f s so far; about %.0f s left at %.1f M positions/s\n", seconds,
               (double)(total - done) * seconds / (double)done_time_pos,
               (double)done_time_pos / seconds / 1e6);
    else
        printf("time        %.0f s of computing\n", seconds);
    long pid = rdb_lock_holder(dir);
    if (pid)
        printf("builder     running (pid %ld)\n", pid);
    else
        printf("builder     not running\n");
    rdb_manifest_free(&man);
    rdb_db_free(&db);
    return 0;
}

int rdb_cmd_verify(int argc, char **argv)
{
    int full = 0;
    const char *dir = dir_option(argc, argv, "--full", &full);
    if (!dir)
        return 2;
    rdb_error err;
    rdb_verify_report rep;
    rdb_status st = rdb_verify(dir, full, stdout, &rep, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    printf("verify: %" PRIu64 " files checked, %" PRIu64 " bad, %" PRIu64 " slices unfinished",
           rep.files, rep.bad_files, rep.unfinished);
    if (full)
        printf("; %" PRIu64 " positions recomputed, %" PRIu64 " disagree", rep.recomputed,
               rep.disagreements);
    printf("\n");
    return rep.bad_files || rep.disagreements ? 1 : 0;
}
