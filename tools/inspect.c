/*
 * inspect.c — the subcommands that look at a database without changing it:
 * `info` (parameters and every level's slices, checksums and speed),
 * `status` (how far a build is, disk used, time left, whether a builder
 * runs) and `verify` (every file against its checksums; with --full every
 * value recomputed; with --against every finished level against a list of
 * published checksums).
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

#include "common/human.h"

#include "engine/db.h"
#include "engine/level_checksums.h"
#include "engine/report.h"
#include "engine/verify.h"
#include "game.h"

static uint64_t disk_bytes;

static int add_disk_use(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)path;
    (void)ftw;
    if (type == FTW_F)
        disk_bytes += (uint64_t)sb->st_blocks * 512;
    return 0;
}

enum { OPT_JSON = 1, OPT_FULL, OPT_QUIET, OPT_AGAINST, OPT_LIST_ONLY };

static const rdb_tool_option info_options[] = {
    {RDB_OPT_DIR, "dir", 'd', "DIR", "the database (required)"},
    {OPT_JSON, "json", 'j', NULL, "one JSON object on stdout"},
    {0, 0, 0, 0, 0}};

static const rdb_tool_option verify_options[] = {
    {RDB_OPT_DIR, "dir", 'd', "DIR", "the database (required)"},
    {OPT_FULL, "full", 0, NULL,
     "also recompute every value from the level it leads to (as long as\n"
     "the build took)"},
    {OPT_AGAINST, "against", 0, "FILE",
     "also compare every finished level with FILE's line for it (level,\n"
     "slices, positions, checksum, as `info` prints them: the lists of\n"
     "data/checksums/); any that differs is exit 1"},
    {OPT_LIST_ONLY, "list-only", 0, NULL,
     "with --against: that comparison alone, from the manifest, no slice\n"
     "file read (instant: a long build's levels checked as it goes)"},
    {OPT_JSON, "json", 'j', NULL, "one JSON object on stdout (findings on stderr)"},
    {OPT_QUIET, "quiet", 'q', NULL, "no progress on stderr"},
    {0, 0, 0, 0, 0}};

const rdb_tool_command rdb_info_command = {
    "info", "--dir DIR [--json]",
    "A database's parameters (game, board, variant, penalty, loony analysis),\n"
    "the value of its start position, its layout, and every level's slices,\n"
    "bytes, checksum and build speed.",
    info_options};

const rdb_tool_command rdb_status_command = {
    "status", "--dir DIR [--json]",
    "How far a build is: levels and positions done, disk used, time spent and\n"
    "left, whether a builder is running, and the start position's value once\n"
    "the build is complete. Safe to run while the build runs.",
    info_options};

const rdb_tool_command rdb_verify_command = {
    "verify", "--dir DIR [--full] [--against FILE [--list-only]] [--json]",
    "Check every finished slice file against its checksums and the manifest;\n"
    "with --full also recompute every value; with --against, every finished\n"
    "level's checksum against a published list first (the manifest's alone:\n"
    "instant, and safe beside a running build; with --list-only nothing else).\n"
    "Exit status 1 when anything is wrong: running the same build command\n"
    "again redoes every damaged slice.",
    verify_options};

/* The options of info, status and verify: the folder, and the flags. */
typedef struct {
    const char *dir, *against;
    int json, full, quiet, list_only;
} inspect_args;

/* 0, or the exit status after a message (or after --help). */
static int parse_inspect(const rdb_tool_command *cmd, int argc, char **argv, inspect_args *a)
{
    memset(a, 0, sizeof *a);
    rdb_tool_args args;
    rdb_tool_args_init(&args, cmd, argc, argv);
    int id;
    const char *v;
    while ((id = rdb_tool_next_option(&args, &v)) > 0) {
        if (id == RDB_OPT_DIR)
            a->dir = v;
        else if (id == OPT_JSON)
            a->json = 1;
        else if (id == OPT_FULL)
            a->full = 1;
        else if (id == OPT_QUIET)
            a->quiet = 1;
        else if (id == OPT_AGAINST)
            a->against = v;
        else if (id == OPT_LIST_ONLY)
            a->list_only = 1;
    }
    if (id < 0)
        return rdb_tool_args_exit(id) == 0 ? -1 : 2;
    if (rdb_tool_args_left(&args) > 0)
        return rdb_tool_bad(cmd, "unexpected argument '%s'", argv[args.next]);
    if (!a->dir)
        return rdb_tool_bad(cmd, "which database? (--dir DIR)");
    if (a->list_only && !a->against)
        return rdb_tool_bad(cmd, "--list-only compares with a list: which one? (--against FILE)");
    if (a->list_only && a->full)
        return rdb_tool_bad(cmd, "--list-only reads no slice file, --full reads them all: one or the other");
    return 0;
}

/* The exit status of parse_inspect's answer: -1 (help printed) is 0. */
static int parse_exit(int rc)
{
    return rc < 0 ? 0 : rc;
}

/* Read a database's report; on failure reports and returns the exit code
 * (else 0). */
static int open_report(const char *dir, rdb_report *r)
{
    rdb_error err;
    rdb_status st = rdb_report_read(dir, r, &err);
    return st != RDB_OK ? rdb_tool_report(st, &err) : 0;
}

/* The start position's value in words, or why it is not known. The exit
 * code: 1 when a file that holds it cannot be read. */
static int print_start_value(const rdb_db *db, const char *dir)
{
    int value;
    const int cram = db->params.game == RDB_GAME_CRAM;
    const char *who = rdb_tool_start_mover(db->params.variant);
    char words[2 * RDB_HUMAN_MAX];
    rdb_error err;
    rdb_status st = rdb_tool_start_value(dir, &value, &err);
    if (st == RDB_E_MISSING)
        printf("value       not known until the build is complete\n");
    else if (st != RDB_OK)
        return printf("value       cannot be read\n"), rdb_tool_report(st, &err);
    else if (cram)
        printf("value       nimber %d: %s\n", value, rdb_tool_cram_outcome(value, who, words, sizeof words));
    else
        printf("value       %s: %s\n", rdb_tool_signed(value, (char[RDB_TOOL_SIGNED_MAX]){0}),
               rdb_tool_dots_outcome(value, who, words, sizeof words));
    return 0;
}

/* The parameters every report shows, as JSON fields (after a '{'). The
 * exit code: 1 when a file that holds the start's value cannot be read
 * (the value is then null, the reason on stderr). */
static int print_json_params(const rdb_db *db, const char *dir)
{
    const rdb_params *p = &db->params;
    int value;
    rdb_error err;
    rdb_status st = rdb_tool_start_value(dir, &value, &err);
    const int found = st == RDB_OK;
    const int rc = found || st == RDB_E_MISSING ? 0 : rdb_tool_report(st, &err);
    printf("\"dir\":");
    rdb_tool_json_string(dir);
    printf(",\"game\":\"%s\",\"rows\":%d,\"cols\":%d,\"variant\":\"%s\",\"start_bits\":%d,"
           "\"penalty\":%d,\"loony\":%s,\"chains\":%s,\"store\":\"%s\",\"zstd_level\":%d,\"%s\":",
           db->game->name, p->rows, p->cols, p->variant, __builtin_popcountll(p->start),
           p->full_value, p->loony ? "true" : "false", p->chains ? "true" : "false",
           rdb_store_name(p->store), p->zstd_level, p->game == RDB_GAME_CRAM ? "nimber" : "value");
    printf(found ? "%d" : "null", value);
    return rc;
}

int rdb_cmd_info(int argc, char **argv)
{
    inspect_args a;
    int rc = parse_inspect(&rdb_info_command, argc, argv, &a);
    if (rc)
        return parse_exit(rc);
    rdb_report rep;
    rc = open_report(a.dir, &rep);
    if (rc)
        return rc;
    const rdb_db db = rep.db;
    uint64_t timed;
    double build_seconds, rate;
    rdb_report_speed(&rep, &timed, &build_seconds, &rate);
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
    uint64_t stored = rdb_db_total_positions(&db);
    if (a.json) {
        printf("{");
        rc = print_json_params(&db, a.dir);
        printf(",\"bits\":%d,\"symmetries\":%d,\"groups\":[", db.lay.nbits, db.lay.ntransforms);
        for (int g = 0; g < db.lay.ngroups; g++)
            printf("%s%d", g ? "," : "", db.lay.size[g]);
        printf("],\"positions\":%llu,\"ideal_positions\":%.0f,\"build_seconds\":%.3f,"
               "\"positions_per_second\":%.0f,\"ns_per_position\":%.2f,\"levels\":[",
               (unsigned long long)stored, ideal, build_seconds, rate, rate > 0 ? 1e9 / rate : 0.0);
        for (int level = db.lay.nbits; level >= 0; level--) {
            const rdb_level_report ls = rep.level[level];
            printf("%s{\"level\":%d,\"slices\":%d,\"done\":%d,\"positions\":%llu,\"bytes\":%llu,"
                   "\"checksum\":\"%016llx\",\"seconds\":%.3f,\"deleted\":%s}",
                   level == db.lay.nbits ? "" : ",", level, ls.slices, ls.done,
                   (unsigned long long)ls.positions, (unsigned long long)ls.bytes,
                   (unsigned long long)ls.checksum, ls.seconds, ls.deleted ? "true" : "false");
        }
        printf("]}\n");
        rdb_report_free(&rep);
        return rc;
    }
    printf("game        %s\nboard       %dx%d\nvariant     %s\n", db.game->name, db.params.rows,
           db.params.cols, db.params.variant);
    if (db.params.game == RDB_GAME_DOTS)
        printf("penalty     %d (the value of the full board)\nloony       %s\n",
               db.params.full_value, db.params.loony ? "yes: values say who makes the next loony move" : "no");
    rc = print_start_value(&db, a.dir);
    db.game->describe(db.state, stdout);
    printf("symmetries  %d\n", db.lay.ntransforms);
    if (!db.sparse) { /* a sparse database's slices are stretches of a level, numbered by the game */
        printf("groups      %d (", db.lay.ngroups);
        for (int g = 0; g < db.lay.ngroups; g++)
            printf("%s%d", g ? " " : "", db.lay.size[g]);
        printf(" %s)\n", db.game->bit_noun);
    }
    char count[RDB_HUMAN_MAX];
    if (db.params.store == RDB_STORE_QUIET_HALF) {
        /* the kept part of each level: the dropped one is valued from it */
        uint64_t kept = 0;
        for (int level = 0; level <= db.lay.nbits; level++) {
            rdb_slice *slices;
            int ns = rdb_db_level_slices(&db, level, &slices);
            for (int i = 0; i < ns; i++)
                kept += rdb_db_dropped_part(&db, &slices[i]) ? 0 : slices[i].size;
            free(slices);
        }
        char all[RDB_HUMAN_MAX];
        printf("stored      half of the quiet positions (quiet-half: of each level those whose\n"
               "            lines and completed boxes are even in number): %s\n"
               "            of %s; the other quiet ones valued from their moves, the\n"
               "            rest by the capture rules\n",
               rdb_human_count(kept, count, sizeof count), rdb_human_count(stored, all, sizeof all));
    } else if (db.sparse)
        printf("stored      the quiet positions only (no box with three sides), the others\n"
               "            valued by the capture rules: %s; 2^%d positions in all, ideal\n"
               "            after symmetry%s%s %.0f (stored/ideal %.4f)\n",
               rdb_human_count(stored, count, sizeof count), db.lay.nbits,
               classes ? " and interchangeable " : "", classes ? db.game->bit_noun : "", ideal,
               stored / ideal);
    else
        printf("positions   %s stored; 2^%d positions, ideal after symmetry%s%s %.0f"
               " (stored/ideal %.3f)\n",
               rdb_human_count(stored, count, sizeof count), db.lay.nbits,
               classes ? " and\n            interchangeable " : "", classes ? db.game->bit_noun : "",
               ideal, stored / ideal);
    /* seconds: computing and writing the level's slices, as the manifest
     * records them (a resumed build counts each slice once) */
    printf("level  slices  done  positions       bytes  checksum          seconds   Mpos/s\n");
    for (int level = db.lay.nbits; level >= 0; level--) {
        const rdb_level_report ls = rep.level[level];
        if (ls.done == ls.slices)
            printf("%5d  %6d  %4d  %9" PRIu64 "  %10" PRIu64 "  %016" PRIx64 "  %7.1f  %7.1f%s\n",
                   level, ls.slices, ls.done, ls.positions, ls.bytes, ls.checksum, ls.seconds,
                   ls.seconds > 0 ? (double)ls.timed_positions / ls.seconds / 1e6 : 0.0,
                   ls.deleted ? "  (deleted)" : "");
        else
            printf("%5d  %6d  %4d  %9" PRIu64 "  %10" PRIu64 "  -\n", level, ls.slices, ls.done,
                   ls.positions, ls.bytes);
    }
    if (build_seconds > 0 && timed > 0) {
        char h1[RDB_HUMAN_MAX], h2[RDB_HUMAN_MAX];
        printf("speed       %s positions in %s of building: %.1f M positions a second,\n"
               "            %.1f ns a position (wall time, every thread)\n",
               rdb_human_count(timed, h1, sizeof h1),
               rdb_human_duration(build_seconds, h2, sizeof h2), rate / 1e6, 1e9 / rate);
    }
    rdb_report_free(&rep);
    return rc;
}

int rdb_cmd_status(int argc, char **argv)
{
    inspect_args a;
    int rc = parse_inspect(&rdb_status_command, argc, argv, &a);
    if (rc)
        return parse_exit(rc);
    rdb_params params;
    rdb_error err;
    long pid = rdb_report_builder(a.dir);
    if (rdb_params_read(a.dir, &params, &err) == RDB_E_MISSING && pid > 0) {
        /* a builder has the directory but has not pinned its parameters */
        if (a.json) {
            printf("{\"dir\":");
            rdb_tool_json_string(a.dir);
            printf(",\"builder_pid\":%ld,\"setting_up\":true}\n", pid);
        } else {
            printf("database    %s\nbuilder     running (pid %ld), setting up\n", a.dir, pid);
        }
        return 0;
    }
    rdb_report rep;
    rc = open_report(a.dir, &rep);
    if (rc)
        return rc;
    const rdb_db db = rep.db;
    const rdb_build_progress bp = rep.progress;
    disk_bytes = 0;
    nftw(a.dir, add_disk_use, 16, FTW_PHYS);
    const int complete = bp.levels_done == bp.levels;
    const double left = bp.left, recent_left = bp.recent_left;
    if (a.json) {
        printf("{");
        rc = print_json_params(&db, a.dir);
        printf(",\"levels\":%d,\"levels_done\":%d,\"complete\":%s,\"positions\":%llu,"
               "\"positions_done\":%llu,\"disk_bytes\":%llu,\"seconds\":%.1f,\"seconds_left\":",
               bp.levels, bp.levels_done, complete ? "true" : "false",
               (unsigned long long)bp.total, (unsigned long long)bp.done,
               (unsigned long long)disk_bytes, bp.seconds);
        printf(left >= 0 ? "%.0f" : "null", left);
        printf(",\"seconds_left_recent\":");
        printf(recent_left >= 0 ? "%.0f" : "null", recent_left);
        printf(",\"recent_slices\":%d", recent_left >= 0 ? bp.recent_slices : 0);
        printf(",\"builder_pid\":");
        printf(pid ? "%ld}\n" : "null}\n", pid);
        rdb_report_free(&rep);
        return rc;
    }
    char h1[RDB_HUMAN_MAX], h2[RDB_HUMAN_MAX], h3[RDB_HUMAN_MAX];
    printf("database    %s\n", a.dir);
    char groups[32];
    snprintf(groups, sizeof groups, "%d groups", db.lay.ngroups);
    printf("parameters  %s %dx%d, variant %s, %d %s, %s, zstd level %d%s\n",
           db.game->name, db.params.rows, db.params.cols, db.params.variant, db.lay.nbits,
           db.game->bits_name,
           db.params.store == RDB_STORE_QUIET_HALF ? "half of the quiet positions"
           : db.sparse                              ? "quiet positions only"
                                                    : groups,
           db.params.zstd_level,
           db.params.loony ? ", loony analysis" : "");
    if (bp.lowest_done >= 0)
        printf("levels      %d of %d done (%d..%d %s)", bp.levels_done, bp.levels, db.lay.nbits,
               bp.lowest_done, db.game->level_name);
    else
        printf("levels      0 of %d done", bp.levels);
    printf(complete ? "; complete\n" : "; to do: %d..0\n",
           bp.lowest_done >= 0 ? bp.lowest_done - 1 : db.lay.nbits);
    if (rep.deleted) {
        printf("deleted     levels");
        for (int l = 64; l >= 0; l--)
            if (rdb_level_is_deleted(rep.deleted, l))
                printf(" %d", l);
        printf(" (not kept)\n");
    }
    printf("positions   %s of %s done (%.1f%%)\n", rdb_human_count(bp.done, h1, sizeof h1),
           rdb_human_count(bp.total, h2, sizeof h2),
           bp.total ? 100.0 * (double)bp.done / (double)bp.total : 100.0);
    printf("disk        %s\n", rdb_human_bytes(disk_bytes, h1, sizeof h1));
    if (left >= 0) {
        printf("time        %s so far; about %s left at %.1f M positions/s\n",
               rdb_human_duration(bp.seconds, h1, sizeof h1),
               rdb_human_duration(left, h2, sizeof h2), (double)bp.timed_positions / bp.seconds / 1e6);
        if (recent_left >= 0)
            printf("            about %s left at the last %d slices' %.1f M positions/s\n",
                   rdb_human_duration(recent_left, h2, sizeof h2), bp.recent_slices,
                   (double)bp.recent_positions / bp.recent_seconds / 1e6);
    } else if (!complete) { /* (levels of a few positions may count 0 s) */
        printf("time        %s so far; estimating the time left\n",
               rdb_human_duration(bp.seconds, h1, sizeof h1));
    } else {
        printf("time        %s of computing\n", rdb_human_duration(bp.seconds, h3, sizeof h3));
    }
    if (pid)
        printf("builder     running (pid %ld)\n", pid);
    else
        printf("builder     not running%s\n",
               complete ? "" : ": run the same build command to carry on");
    rc = print_start_value(&db, a.dir);
    rdb_report_free(&rep);
    return rc;
}

/* The levels of one verdict, highest first, as ranges ("49..26, 17"). */
static void print_levels(FILE *out, const rdb_level_comparison *c, rdb_level_verdict v)
{
    const char *sep = "";
    for (int level = c->levels - 1; level >= 0; level--) {
        if (c->verdict[level] != v)
            continue;
        int low = level;
        while (low > 0 && c->verdict[low - 1] == v)
            low--;
        if (low == level)
            fprintf(out, "%s%d", sep, level);
        else
            fprintf(out, "%s%d..%d", sep, level, low);
        sep = ", ";
        level = low;
    }
}

/* verify --against: each level that differs, then the count of each
 * verdict. */
static void print_comparison(FILE *out, const char *file, const rdb_report *r,
                             const rdb_level_list *list, const rdb_level_comparison *c)
{
    char h1[RDB_HUMAN_MAX], h2[RDB_HUMAN_MAX], h3[RDB_HUMAN_MAX], h4[RDB_HUMAN_MAX];
    for (int level = c->levels - 1; level >= 0; level--) {
        if (c->verdict[level] != RDB_LEVEL_DIFFERS)
            continue;
        const rdb_level_report *ls = &r->level[level];
        const rdb_listed_level *l = &list->level[level];
        fprintf(out,
                "level %d differs: %s, %s, checksum %016" PRIx64 " here; %s says %s, %s, "
                "checksum %016" PRIx64 "\n",
                level, rdb_human_plural((uint64_t)ls->slices, "slice", h1, sizeof h1),
                rdb_human_plural(ls->positions, "position", h2, sizeof h2), ls->checksum, file,
                rdb_human_plural((uint64_t)l->slices, "slice", h3, sizeof h3),
                rdb_human_plural(l->positions, "position", h4, sizeof h4), l->checksum);
    }
    for (int level = c->levels; level <= RDB_MAX_BITS; level++)
        if (rdb_level_list_has(list, level))
            fprintf(out, "%s names level %d, which this database has not (levels 0..%d): a list "
                         "of another board?\n",
                    file, level, c->levels - 1);
    fprintf(out, "against %s: %d level%s agree", file, c->agree, c->agree == 1 ? "" : "s");
    if (c->agree) {
        fprintf(out, " (");
        print_levels(out, c, RDB_LEVEL_AGREES);
        fprintf(out, ")");
    }
    fprintf(out, ", %d differ", c->differ);
    if (c->not_listed) {
        fprintf(out, ", %d finished but not listed (", c->not_listed);
        print_levels(out, c, RDB_LEVEL_NOT_LISTED);
        fprintf(out, ")");
    }
    if (c->unfinished) {
        fprintf(out, ", %d not finished (", c->unfinished);
        print_levels(out, c, RDB_LEVEL_UNFINISHED);
        fprintf(out, ")");
    }
    fprintf(out, "\n");
}

/* The comparison as a JSON member of verify's object. */
static void print_comparison_json(const char *file, const rdb_level_list *list,
                                  const rdb_level_comparison *c)
{
    printf(",\"against\":{\"file\":");
    rdb_tool_json_string(file);
    printf(",\"agree\":%d,\"differ\":%d,\"not_listed\":%d,\"unfinished\":%d,\"differing\":[",
           c->agree, c->differ, c->not_listed, c->unfinished);
    const char *sep = "";
    for (int level = RDB_MAX_BITS; level >= 0; level--) {
        const int differs = level < c->levels ? c->verdict[level] == RDB_LEVEL_DIFFERS
                                              : rdb_level_list_has(list, level);
        if (differs) {
            printf("%s%d", sep, level);
            sep = ",";
        }
    }
    printf("]}");
}

int rdb_cmd_verify(int argc, char **argv)
{
    inspect_args a;
    int rc = parse_inspect(&rdb_verify_command, argc, argv, &a);
    if (rc)
        return parse_exit(rc);
    rdb_error err;
    /* --against first: the list read before the long part, and its
     * comparison (the manifest's checksums) printed at once */
    rdb_level_list list;
    rdb_level_comparison cmp = {0};
    if (a.against) {
        rdb_status st = rdb_level_list_read(a.against, &list, &err);
        if (st != RDB_OK)
            return rdb_tool_report(st, &err);
        rdb_report r;
        if ((rc = open_report(a.dir, &r)))
            return rc;
        rdb_level_list_compare(&r, &list, &cmp);
        if (!a.json) {
            print_comparison(stdout, a.against, &r, &list, &cmp);
            fflush(stdout);
        }
        rdb_report_free(&r);
        if (a.list_only) {
            if (a.json) {
                printf("{\"dir\":");
                rdb_tool_json_string(a.dir);
                printf(",\"list_only\":true,\"ok\":%s", cmp.differ ? "false" : "true");
                print_comparison_json(a.against, &list, &cmp);
                printf("}\n");
            }
            return cmp.differ != 0;
        }
    }
    rdb_verify_report rep;
    /* with --json the findings go to stderr, so that stdout is one object */
    rdb_status st = rdb_verify(a.dir, a.full, a.json ? stderr : stdout, !a.quiet, &rep, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    const int damaged = rep.bad_files || rep.disagreements;
    const int bad = damaged || cmp.differ;
    if (a.json) {
        printf("{\"dir\":");
        rdb_tool_json_string(a.dir);
        printf(",\"full\":%s,\"files\":%llu,\"bad_files\":%llu,\"unfinished\":%llu,"
               "\"recomputed\":%llu,\"disagreements\":%llu,\"ok\":%s",
               a.full ? "true" : "false", (unsigned long long)rep.files,
               (unsigned long long)rep.bad_files, (unsigned long long)rep.unfinished,
               (unsigned long long)rep.recomputed, (unsigned long long)rep.disagreements,
               bad ? "false" : "true");
        /* the deleted levels the next build computes again to redo them */
        if (rep.rebuild_lo)
            printf(",\"rebuild_levels\":[%d,%d]", rep.rebuild_lo, rep.rebuild_hi);
        if (a.against)
            print_comparison_json(a.against, &list, &cmp);
        printf("}\n");
        return bad;
    }
    char h1[RDB_HUMAN_MAX], h2[RDB_HUMAN_MAX], h3[RDB_HUMAN_MAX];
    printf("verify: %s checked, %s bad, %s unfinished",
           rdb_human_plural(rep.files, "file", h1, sizeof h1),
           rdb_human_count(rep.bad_files, h2, sizeof h2),
           rdb_human_plural(rep.unfinished, "slice", h3, sizeof h3));
    if (a.full)
        printf("; %s positions recomputed, %s disagree", rdb_human_count(rep.recomputed, h1, sizeof h1),
               rdb_human_count(rep.disagreements, h2, sizeof h2));
    printf("\n");
    if (cmp.differ)
        printf("the levels that differ hold other values than %s lists: a build of other\n"
               "parameters, or a wrong value (scripts/spot_check.py compares positions with a\n"
               "search that reads no database)\n",
               a.against);
    if (damaged && rep.rebuild_lo)
        printf("levels %d to %d, which --keep-lines deleted, are what the damaged slices are computed\n"
               "from: running the same build command again computes them again (%s positions),\n"
               "redoes every damaged slice, and deletes them again\n",
               rep.rebuild_lo, rep.rebuild_hi, rdb_human_count(rep.rebuild_positions, h1, sizeof h1));
    else if (damaged && !rep.unrecorded)
        printf("running the same build command again redoes every damaged slice\n");
    else if (damaged)
        printf("the damaged slices could not all be recorded for the next build (see above)\n");
    return bad;
}
