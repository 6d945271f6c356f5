/*
 * cli.c — the helpers every subcommand of the retrodb program shares; see
 * cli.h. Nothing here knows a subcommand: the dispatcher (retrodb.c) and
 * the subcommand files use these, never each other.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <unistd.h>

#include "common/human.h"
#include "common/memory.h"
#include "common/job.h"
#include "common/number.h"
#include "engine/db.h"
#include "engine/plan.h"
#include "engine/report.h"
#include "game.h"
#include "retrodb/probe.h"

const rdb_distribution *rdb_tool_distribution = NULL;

int rdb_tool_is_root(void)
{
    return !rdb_tool_distribution || rdb_tool_distribution->rank == 0;
}

rdb_status rdb_tool_agree(rdb_status st, rdb_error *err)
{
    const rdb_distribution *d = rdb_tool_distribution;
    return d ? d->agree(d, st, err) : st;
}

int rdb_tool_exit_code(rdb_status st)
{
    switch (st) {
    case RDB_OK:
        return 0;
    case RDB_E_INPUT:
        return 2;
    case RDB_E_STOPPED:
        return rdb_stop_requested == SIGTERM ? 143 : 130;
    default:
        return 1;
    }
}

int rdb_tool_report(rdb_status st, const rdb_error *err)
{
    if (st != RDB_OK)
        fprintf(stderr, "retrodb: %s\n", err->msg);
    return rdb_tool_exit_code(st);
}

int rdb_tool_board(const rdb_tool_command *cmd, const char *word, int *rows, int *cols)
{
    if (rdb_parse_board(word, RDB_TOOL_MAX_SIDE, rows, cols))
        return rdb_tool_bad(cmd, "bad board '%s' (want RxC, e.g. 3x5, sides 1..%d)", word,
                            RDB_TOOL_MAX_SIDE);
    return 0;
}

static void on_signal(int sig)
{
    if (rdb_stop_requested) {
        /* second signal: stop now; every finished file is already durable */
        signal(sig, SIG_DFL);
        raise(sig);
    }
    rdb_stop_requested = sig;
}

int rdb_tool_build_option(const rdb_tool_command *cmd, int id, const char *v,
                          rdb_build_options *opt, rdb_tool_build_output *out)
{
    long n;
    switch (id) {
    case RDB_OPT_MEMORY:
        if (rdb_parse_long(v, 1, 1L << 30, &n))
            return rdb_tool_bad(cmd, "bad --memory '%s' (megabytes)", v), -1;
        opt->memory_mb = n;
        return 1;
    case RDB_OPT_THREADS:
        if (rdb_parse_long(v, 1, 1024, &n))
            return rdb_tool_bad(cmd, "bad --threads '%s' (1..1024)", v), -1;
        opt->threads = (int)n;
        return 1;
    case RDB_OPT_GROUPS:
        if (rdb_parse_long(v, 1, RDB_MAX_GROUPS, &n))
            return rdb_tool_bad(cmd, "bad --groups '%s' (1..%d)", v, RDB_MAX_GROUPS), -1;
        opt->params.ngroups = (int)n;
        return 1;
    case RDB_OPT_ZSTD_LEVEL:
        if (rdb_parse_long(v, RDB_ZSTD_LEVEL_MIN, RDB_ZSTD_LEVEL_MAX, &n))
            return rdb_tool_bad(cmd, "bad --zstd-level '%s' (%d..%d; negative is faster)", v,
                                RDB_ZSTD_LEVEL_MIN, RDB_ZSTD_LEVEL_MAX), -1;
        opt->params.zstd_level = (int)n;
        return 1;
    case RDB_OPT_QUIET:
        opt->quiet = 1;
        return 1;
    case RDB_OPT_PLAN:
        out->plan = 1;
        return 1;
    case RDB_OPT_JSON:
        out->json = 1;
        return 1;
    default:
        return 0;
    }
}

const char *rdb_tool_start_mover(const char *variant)
{
    int mid_game = strcmp(variant, "problem") == 0 || strcmp(variant, "custom") == 0;
    return mid_game ? "the player to move" : "the first player";
}

char *rdb_tool_dots_outcome(int value, const char *who, char *buf, size_t size)
{
    if (value == 0)
        snprintf(buf, size, "%s draws", who);
    else
        snprintf(buf, size, "%s %s by %d", who, value > 0 ? "wins" : "loses", abs(value));
    return buf;
}

char *rdb_tool_signed(int value, char buf[RDB_TOOL_SIGNED_MAX])
{
    snprintf(buf, RDB_TOOL_SIGNED_MAX, value ? "%+d" : "0", value);
    return buf;
}

char *rdb_tool_cram_outcome(int nimber, const char *who, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s", who, nimber ? "wins" : "loses");
    return buf;
}

rdb_status rdb_tool_start_value(const char *dir, int *value, rdb_error *err)
{
    rdb_probe *p;
    *value = 0;
    rdb_status st = rdb_probe_open(dir, &p, err);
    if (st != RDB_OK)
        return st;
    int rows, cols;
    uint64_t start;
    rdb_probe_board(p, &rows, &cols, &start);
    st = rdb_probe_value(p, start, value, err);
    rdb_probe_close(p);
    return st;
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0. */
static int utf8_length(const unsigned char *s)
{
    int n;
    unsigned lo = 0x80, hi = 0xbf;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        n = 2;
    else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3;
        lo = s[0] == 0xe0 ? 0xa0 : 0x80;
        hi = s[0] == 0xed ? 0x9f : 0xbf;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4;
        lo = s[0] == 0xf0 ? 0x90 : 0x80;
        hi = s[0] == 0xf4 ? 0x8f : 0xbf;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (int k = 2; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xbf)
            return 0;
    return n;
}

void rdb_tool_json_string_to(FILE *out, const char *s)
{
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        int n = c < 0x80 ? 1 : utf8_length(p);
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else if (n == 0)
            fprintf(out, "\\ufffd"); /* a byte that is no UTF-8: JSON must be */
        else
            fwrite(p, 1, (size_t)n, out);
        p += n ? n : 1;
    }
    fputc('"', out);
}

void rdb_tool_json_string(const char *s)
{
    rdb_tool_json_string_to(stdout, s);
}

/* Whether --memory asks for more than the machine has free now (its
 * MemAvailable, or a container's limit): a build that takes it will swap
 * or be killed. Says so, and how much there is, in buf. */
static int memory_beyond_machine(const rdb_build_options *opt, char *buf, size_t size)
{
    const uint64_t available = rdb_memory_available();
    if (available == UINT64_MAX || ((uint64_t)opt->memory_mb << 20) <= available)
        return 0;
    snprintf(buf, size, "--memory %ld MB is more than the %llu MB this machine has free now: "
                        "the build may swap or be killed; lower --memory",
             opt->memory_mb, (unsigned long long)(available >> 20));
    return 1;
}

/* What a resumed build has done so far, set beside the plan's time: how
 * fast its recorded slices went against what the plan's sample predicts,
 * and the rest at either pace. */
typedef struct {
    int known;                 /* the folder's record could be read */
    uint64_t done, total;      /* positions done, and in all */
    uint64_t timed;            /* positions of the slices that recorded a time */
    double seconds;            /* that time */
    double rate;               /* timed / seconds, 0 when none */
    double plan_rate;          /* positions a second the plan's time assumes */
    double left_build;         /* seconds left at the build's pace (-1: none yet) */
    double left_plan;          /* and at the plan's */
} plan_so_far;

static void read_so_far(const rdb_build_options *opt, const rdb_build_plan *plan,
                        const rdb_build_time *time, plan_so_far *f)
{
    memset(f, 0, sizeof *f);
    rdb_report rep;
    rdb_error ignored;
    if (!plan->resumes || rdb_report_read(opt->dir, &rep, &ignored) != RDB_OK)
        return;
    f->known = 1;
    f->done = rep.progress.done;
    f->total = rep.progress.total;
    rdb_report_speed(&rep, &f->timed, &f->seconds, &f->rate);
    f->left_build = rep.progress.left;
    rdb_report_free(&rep);
    f->plan_rate = time->seconds > 0 ? (double)plan->positions / time->seconds : 0;
    f->left_plan = f->plan_rate > 0 ? (double)(f->total - f->done) / f->plan_rate : -1;
}

static int print_plan(const rdb_build_options *opt, const rdb_tool_build_output *out)
{
    rdb_build_plan plan;
    rdb_error err;
    rdb_status st = rdb_build_plan_make(opt, &plan, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    rdb_build_plan_disk(opt, &plan);
    const rdb_params *p = &opt->params;
    rdb_build_time time;
    rdb_build_plan_time(opt, &plan, &time);
    const double seconds = time.seconds, sample_ns = time.sample_ns;
    const uint64_t sampled = time.sampled;
    const int threads = time.threads;
    uint64_t memory_mb = (plan.memory_bytes >> 20) + 1;
    plan_so_far so_far;
    read_so_far(opt, &plan, &time, &so_far);
    if (out->json) {
        printf("{\"dir\":");
        rdb_tool_json_string(opt->dir);
        printf(",\"game\":\"%s\",\"rows\":%d,\"cols\":%d,\"variant\":\"%s\","
               "\"resumes\":%s,\"groups\":%d,\"positions\":%llu,\"largest_slice\":%llu,"
               "\"memory_mb\":%llu,\"cache_mb\":%llu,\"peak_disk_bytes\":%llu,\"final_disk_bytes\":%llu,"
               "\"estimated_seconds\":%.0f",
               rdb_game_name(p->game), p->rows, p->cols, p->variant,
               plan.resumes ? "true" : "false", plan.ngroups, (unsigned long long)plan.positions,
               (unsigned long long)plan.max_slice, (unsigned long long)memory_mb,
               (unsigned long long)(plan.cache_bytes >> 20), (unsigned long long)plan.peak_disk_bytes, (unsigned long long)plan.final_disk_bytes,
               seconds);
        if (plan.disk_known)
            printf(",\"free_disk_bytes\":%llu,\"held_disk_bytes\":%llu",
                   (unsigned long long)plan.free_disk_bytes,
                   (unsigned long long)plan.held_disk_bytes);
        if (sampled)
            printf(",\"sample_positions\":%llu,\"sample_ns_per_position\":%.1f",
                   (unsigned long long)sampled, sample_ns);
        if (plan.window >= 0)
            printf(",\"window\":%d,\"window_grows_within_disk\":%s", plan.window,
                   opt->disk_gb > 0 ? "true" : "false");
        if (so_far.known)
            printf(",\"done_positions\":%llu,\"timed_positions\":%llu,\"timed_seconds\":%.3f,"
                   "\"build_rate\":%.0f,\"plan_rate\":%.0f,\"left_seconds_build_rate\":%.0f,"
                   "\"left_seconds_plan_rate\":%.0f",
                   (unsigned long long)so_far.done, (unsigned long long)so_far.timed,
                   so_far.seconds, so_far.rate, so_far.plan_rate, so_far.left_build,
                   so_far.left_plan);
        printf("}\n");
        return 0;
    }
    char a[RDB_HUMAN_MAX], b[RDB_HUMAN_MAX], c[RDB_HUMAN_MAX];
    printf("plan for %s %dx%d (%s) in '%s'%s\n", rdb_game_name(p->game), p->rows, p->cols,
           p->variant, opt->dir, plan.resumes ? ", resuming the build there" : "");
    if (p->store)
        printf("layout      %s quiet positions, slices of at most %s, the largest %s\n",
               rdb_human_count(plan.positions, a, sizeof a),
               rdb_human_count(plan.slice_positions, c, sizeof c),
               rdb_human_count(plan.max_slice, b, sizeof b));
    else
        printf("layout      %d groups, %s positions, the largest slice %s\n", plan.ngroups,
               rdb_human_count(plan.positions, a, sizeof a),
               rdb_human_count(plan.max_slice, b, sizeof b));
    if (p->store)
        printf("memory      %llu MB at least: the index, the largest slice and a cache of the\n"
               "            levels above (--memory is %ld MB: a cache of %llu MB)\n",
               (unsigned long long)memory_mb, opt->memory_mb,
               (unsigned long long)(plan.cache_bytes >> 20));
    else
        printf("memory      %llu MB for the largest slice, and up to %ld MB in all (--memory:\n"
               "            what the slices leave holds the level just built, for the next)\n",
               (unsigned long long)memory_mb, opt->memory_mb);
    char beyond[256];
    if (memory_beyond_machine(opt, beyond, sizeof beyond))
        printf("            %s\n", beyond);
    printf("disk        about %s at the peak, %s at the end\n",
           rdb_human_bytes(plan.peak_disk_bytes, a, sizeof a),
           rdb_human_bytes(plan.final_disk_bytes, b, sizeof b));
    if (plan.window >= 0 && opt->disk_gb > 0)
        printf("            each level's other class kept while the folder fits in %.1f GB\n"
               "            (--disk), and at least while the %d levels below it are built\n",
               opt->disk_gb, plan.window);
    else if (plan.window >= 0)
        printf("            each level's other class kept while the %d levels below it are\n"
               "            built (--window; --disk GB keeps it longer while it fits)\n",
               plan.window);
    if (plan.disk_known) {
        /* what the folder holds now is part of the peak: a resumed build
         * has that much more room */
        uint64_t room = plan.free_disk_bytes + plan.held_disk_bytes;
        printf("            %s free there", rdb_human_bytes(plan.free_disk_bytes, a, sizeof a));
        if (plan.held_disk_bytes)
            printf(", %s held by the build", rdb_human_bytes(plan.held_disk_bytes, b, sizeof b));
        rdb_error why;
        if (room >= plan.peak_disk_bytes)
            printf(": it fits\n");
        else if (opt->disk_gb > 0)
            printf(": %s short at the peak (--disk %.1f GB allows it)\n",
                   rdb_human_bytes(plan.peak_disk_bytes - room, c, sizeof c), opt->disk_gb);
        else if (rdb_build_disk_check(opt, &plan, &why) != RDB_OK)
            printf(": %s short at the peak;\n            the build refuses to start: %s\n",
                   rdb_human_bytes(plan.peak_disk_bytes - room, c, sizeof c), why.msg);
    }
    if (sampled)
        printf("time        about %s of computing with %d thread%s (measured here: %.0f ns a\n"
               "            stored position for a thread%s, on a sample of %s positions)\n",
               rdb_human_duration(seconds, a, sizeof a), threads, threads == 1 ? "" : "s", sample_ns,
               threads == 1 ? "" : " of them at work together", rdb_human_count(sampled, c, sizeof c));
    else
        printf("time        about %s of computing with %d thread%s (a rough guide: %s positions\n"
               "            a second a thread)\n",
               rdb_human_duration(seconds, a, sizeof a), threads, threads == 1 ? "" : "s",
               rdb_human_count((uint64_t)time.guide_rate, c, sizeof c));
    if (so_far.known) {
        /* the plan checked against the build it plans, as it goes */
        printf("so far      %s of %s positions done (%.1f%%)", rdb_human_count(so_far.done, a, sizeof a),
               rdb_human_count(so_far.total, b, sizeof b),
               so_far.total ? 100.0 * (double)so_far.done / (double)so_far.total : 0.0);
        if (so_far.rate > 0 && so_far.plan_rate > 0) {
            char d[RDB_HUMAN_MAX];
            printf(" in %s of recorded slices:\n            %.2f M positions a second, %.2f times the "
                   "%.2f M this plan assumes for %d threads\n",
                   rdb_human_duration(so_far.seconds, c, sizeof c), so_far.rate / 1e6,
                   so_far.rate / so_far.plan_rate, so_far.plan_rate / 1e6, threads);
            if (so_far.left_build >= 0)
                printf("            the rest: about %s at the build's pace, %s at the plan's\n",
                       rdb_human_duration(so_far.left_build, c, sizeof c),
                       rdb_human_duration(so_far.left_plan, d, sizeof d));
        } else {
            printf("\n");
        }
    }
    return 0;
}

/* The build's speed as its manifest records it: the positions of the
 * slices that recorded their time (*positions), over that time (*rate, 0
 * when none did), so that a resumed build counts each slice once. */
static rdb_status recorded_speed(const char *dir, uint64_t *positions, double *rate,
                                 rdb_error *err)
{
    rdb_report rep;
    double seconds;
    *positions = 0;
    *rate = 0;
    rdb_status st = rdb_report_read(dir, &rep, err);
    if (st != RDB_OK)
        return st;
    rdb_report_speed(&rep, positions, &seconds, rate);
    rdb_report_free(&rep);
    return RDB_OK;
}

/* The line a build ends with: the start's value, who wins, and the speed.
 * The exit code: 1 when the value or the record cannot be read back. */
static int print_result(const rdb_build_options *opt, const rdb_tool_build_output *out,
                        double seconds)
{
    const rdb_params *p = &opt->params;
    int value;
    rdb_error err;
    rdb_status st = rdb_tool_start_value(opt->dir, &value, &err);
    if (st != RDB_OK && st != RDB_E_MISSING) {
        fprintf(stderr, "retrodb: the build is complete, but its start position cannot be read: %s\n",
                err.msg);
        return 1;
    }
    const int found = st == RDB_OK;
    const int cram = p->game == RDB_GAME_CRAM;
    uint64_t timed;
    double rate;
    st = recorded_speed(opt->dir, &timed, &rate, &err);
    if (st != RDB_OK) {
        fprintf(stderr, "retrodb: the build is complete, but its record cannot be read: %s\n",
                err.msg);
        return 1;
    }
    if (out->json) {
        printf("{\"dir\":");
        rdb_tool_json_string(opt->dir);
        printf(",\"game\":\"%s\",\"rows\":%d,\"cols\":%d,\"variant\":\"%s\","
               "\"seconds\":%.3f,\"positions_per_second\":%.0f,\"ns_per_position\":%.2f,"
               "\"%s\":", rdb_game_name(p->game), p->rows, p->cols, p->variant, seconds, rate,
               rate > 0 ? 1e9 / rate : 0.0, cram ? "nimber" : "value");
        printf(found ? "%d}\n" : "null}\n", value);
        return 0;
    }
    const char *who = rdb_tool_start_mover(p->variant);
    char words[2 * RDB_HUMAN_MAX];
    if (!found)
        printf("%dx%d %s: the start position's value is not stored", p->rows, p->cols,
               rdb_game_name(p->game));
    else if (cram)
        printf("%dx%d cram: nimber %d: %s", p->rows, p->cols, value,
               rdb_tool_cram_outcome(value, who, words, sizeof words));
    else
        printf("%dx%d dots%s%s: value %s: %s", p->rows, p->cols,
               strcmp(p->variant, "empty") ? " " : "", strcmp(p->variant, "empty") ? p->variant : "",
               rdb_tool_signed(value, (char[RDB_TOOL_SIGNED_MAX]){0}),
               rdb_tool_dots_outcome(value, who, words, sizeof words));
    /* the speed, to compare machines: over the slices timed in the
     * manifest, every thread together */
    if (rate > 0 && timed >= 1000000) /* small builds time too little to say */
        printf(" (built at %.1f M positions a second, %.1f ns a position)", rate / 1e6,
               1e9 / rate);
    printf("\n");
    return 0;
}

int rdb_tool_run_build(const rdb_build_options *opt, const rdb_tool_build_output *out)
{
    if (out->plan)
        return print_plan(opt, out);
    char beyond[256];
    if (memory_beyond_machine(opt, beyond, sizeof beyond))
        fprintf(stderr, "retrodb: warning: %s\n", beyond);
    rdb_error err;
    rdb_tool_catch_signals();
    double t0 = rdb_now();
    rdb_build_options shared = *opt;
    shared.dist = rdb_tool_distribution;
    rdb_status st = rdb_build(&shared, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    if (!opt->quiet)
        fprintf(stderr, "database in '%s'\n", opt->dir);
    return print_result(opt, out, rdb_now() - t0);
}

rdb_status rdb_tool_database_game(const char *dir, int *game, rdb_error *err)
{
    rdb_params p;
    rdb_status st = rdb_params_read(dir, &p, err);
    *game = st == RDB_OK ? p.game : 0;
    return st;
}

void rdb_tool_catch_signals(void)
{
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
}

/* OpenMP threads that wait at a barrier spin by default. On a machine
 * whose other cores are busy that spinning takes the time slices the
 * working threads need: building 3x3 took 6.2 s instead of 0.28 s with the
 * other core busy, while on an idle machine waiting passively costs
 * nothing measurable (3x4: 1.93 s spinning, 1.89 s passive). libgomp reads
 * OMP_WAIT_POLICY once, as it loads, before main: so the program sets it
 * and starts itself again, unless the user chose a policy. (retrodb-mpi
 * calls it before MPI starts, so that the launcher sees the same process.) */
int rdb_tool_prefer_passive_wait(void)
{
    return !getenv("OMP_WAIT_POLICY") && setenv("OMP_WAIT_POLICY", "passive", 1) == 0;
}

void rdb_tool_restart(char **argv)
{
    /* by the program's own path, not /proc/self/exe: the process is named
     * after the file it runs, and ps, top and pgrep should say retrodb */
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        execv(self, argv);
    }
    execv("/proc/self/exe", argv);
    /* no /proc: carry on with the default policy */
}

void rdb_tool_wait_passively(char **argv)
{
    if (rdb_tool_prefer_passive_wait())
        rdb_tool_restart(argv);
}

/* Whether the option words hold a thread count other than 1: --threads
 * (or a prefix of it, down to --th, as getopt takes it) with its value,
 * or a cluster of short options holding t. In doubt, yes: the cost of a
 * wrong yes is only a restart. */
static int threads_asked(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : "";
        if (strncmp(a, "--th", 4) == 0) {
            const char *eq = strchr(a, '=');
            if (eq ? strcmp(eq + 1, "1") != 0 : strcmp(next, "1") != 0)
                return 1;
        } else if (a[0] == '-' && a[1] != '-' && strchr(a, 't')) {
            if (strcmp(a, "-t1") != 0 && !(strcmp(a, "-t") == 0 && strcmp(next, "1") == 0))
                return 1;
        }
    }
    return 0;
}

int rdb_tool_needs_threads(int argc, char **argv)
{
    if (argc < 2)
        return 0;
    const char *w = argv[1];
    if (strcmp(w, "-V") == 0 || strcmp(w, "--version") == 0 || strcmp(w, "version") == 0 ||
        strcmp(w, "-h") == 0 || strcmp(w, "--help") == 0 || strcmp(w, "help") == 0)
        return 0;
    /* a search runs on one thread unless told otherwise */
    if (strcmp(w, "solve") == 0)
        return threads_asked(argc - 2, argv + 2);
    return 1;
}

int rdb_tool_load_library(const char *soname, const char *const *names, void **slots, int n,
                          const char **why)
{
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        *why = dlerror();
        return 0;
    }
    for (int i = 0; i < n; i++)
        if (!(slots[i] = dlsym(lib, names[i]))) {
            *why = names[i];
            return 0;
        }
    return 1;
}
