/*
 * progress.c — see progress.h.
 */
#include "engine/progress.h"

#include <stdio.h>
#include <unistd.h>

#include "common/human.h"
#include "common/job.h"

void rdb_progress_start_work(rdb_progress *p, int quiet, uint64_t total_positions,
                             double total_work)
{
    p->quiet = quiet;
    p->tty = !quiet && isatty(2);
    p->total = total_positions;
    p->done = p->computed = 0;
    p->total_work = total_work;
    p->done_work = p->computed_work = 0;
    p->start = p->last_draw = rdb_now();
}

void rdb_progress_start(rdb_progress *p, int quiet, uint64_t total_positions)
{
    rdb_progress_start_work(p, quiet, total_positions, (double)total_positions);
}

double rdb_progress_level_weight(int nbits, int level)
{
    return (double)(nbits - level) + 1.0;
}

double rdb_progress_estimate(double work_left, double timed_work, double seconds,
                             double work_total)
{
    /* a long build's first levels are a small share of its work, but
     * after half an hour of them the rate is no longer set-up's */
    if (seconds < 10.0 || timed_work <= 0 ||
        timed_work < (seconds >= RDB_PROGRESS_SURE_SECONDS ? 0.002 : 0.02) * work_total)
        return -1;
    return work_left * seconds / timed_work;
}

void rdb_progress_clear(rdb_progress *p)
{
    if (p->tty)
        fprintf(stderr, "\r\033[K");
}

/* The time left at the rate work has been computed so far (positions
 * found done, in a resumed job, cost nothing), or -1 while estimating. */
static double seconds_left(const rdb_progress *p, double now)
{
    /* the work this run does: what it found done is no part of it */
    const double todo = p->total_work - (p->done_work - p->computed_work);
    return rdb_progress_estimate(p->total_work - p->done_work, p->computed_work, now - p->start,
                                 todo);
}

static void draw(rdb_progress *p)
{
    double t = rdb_now();
    if (t - p->last_draw < (p->tty ? 0.25 : RDB_PROGRESS_LOG_SECONDS))
        return;
    p->last_draw = t;
    double frac = p->total ? (double)p->done / (double)p->total : 1.0;
    char left[RDB_HUMAN_MAX + 16], done[RDB_HUMAN_MAX], total[RDB_HUMAN_MAX];
    const double secs = seconds_left(p, t);
    if (secs < 0) {
        snprintf(left, sizeof left, "estimating the time");
    } else {
        char h[RDB_HUMAN_MAX];
        snprintf(left, sizeof left, "about %s", rdb_human_duration(secs, h, sizeof h));
    }
    if (!p->tty) {
        fprintf(stderr, "progress: %.1f%% (%s of %s positions), %s left\n", 100 * frac,
                rdb_human_count(p->done, done, sizeof done),
                rdb_human_count(p->total, total, sizeof total), left);
        return;
    }
    int width = 30, full = (int)(frac * width);
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < full ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r[%s] %5.1f%%  %s left\033[K", bar, 100 * frac, left);
    fflush(stderr);
}

void rdb_progress_add_work(rdb_progress *p, uint64_t n, double work, int computed)
{
    p->done += n;
    p->done_work += work;
    if (computed) {
        p->computed += n;
        p->computed_work += work;
    }
    if (!p->quiet)
        draw(p);
}

void rdb_progress_add(rdb_progress *p, uint64_t n, int computed)
{
    rdb_progress_add_work(p, n, (double)n, computed);
}

void rdb_progress_level(rdb_progress *p, int level, int slices, uint64_t positions,
                        uint64_t computed, double seconds, double read, double write,
                        uint64_t disk_bytes)
{
    if (p->quiet)
        return;
    rdb_progress_clear(p);
    char s[RDB_HUMAN_MAX], pos[RDB_HUMAN_MAX], t[RDB_HUMAN_MAX], d[RDB_HUMAN_MAX + 16] = "";
    rdb_human_plural((uint64_t)slices, "slice", s, sizeof s);
    rdb_human_plural(positions, "position", pos, sizeof pos);
    if (disk_bytes) {
        char h[RDB_HUMAN_MAX];
        snprintf(d, sizeof d, ", %s on disk", rdb_human_bytes(disk_bytes, h, sizeof h));
    }
    if (positions == 0)
        fprintf(stderr, "level %d: no positions\n", level);
    else if (computed == 0)
        fprintf(stderr, "level %d: %s, %s, already done\n", level, s, pos);
    else
        fprintf(stderr,
                "level %d: %s, %s, %s (read %.2f s, compute %.2f s, write %.2f s), %.1f M positions/s%s\n",
                level, s, pos, rdb_human_duration(seconds, t, sizeof t), read,
                seconds - read - write, write, seconds > 0 ? computed / seconds / 1e6 : 0.0, d);
}

void rdb_progress_ranks(rdb_progress *p, int ranks, double busy_min, double busy_max, int slowest,
                        uint64_t read_bytes, uint64_t written_bytes)
{
    if (p->quiet)
        return;
    char r[RDB_HUMAN_MAX], w[RDB_HUMAN_MAX];
    fprintf(stderr, "  %d ranks busy %.2f..%.2f s (slowest rank %d), read %s, wrote %s\n", ranks,
            busy_min, busy_max, slowest, rdb_human_bytes(read_bytes, r, sizeof r),
            rdb_human_bytes(written_bytes, w, sizeof w));
}

void rdb_progress_finish(rdb_progress *p)
{
    if (p->quiet)
        return;
    rdb_progress_clear(p);
    char pos[RDB_HUMAN_MAX], t[RDB_HUMAN_MAX];
    fprintf(stderr, "done: %s in %s\n", rdb_human_plural(p->total, "position", pos, sizeof pos),
            rdb_human_duration(rdb_now() - p->start, t, sizeof t));
}
