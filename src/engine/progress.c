/*
 * progress.c — see progress.h.
 */
#include "engine/progress.h"

#include <stdio.h>
#include <unistd.h>

#include "common/job.h"

void rdb_progress_start(rdb_progress *p, int quiet, uint64_t total_positions)
{
    p->quiet = quiet;
    p->tty = !quiet && isatty(2);
    p->total = total_positions;
    p->done = p->computed = 0;
    p->start = p->last_draw = rdb_now();
}

static void clear_bar(const rdb_progress *p)
{
    if (p->tty)
        fprintf(stderr, "\r\033[K");
}

static void draw_bar(rdb_progress *p)
{
    double t = rdb_now();
    if (!p->tty || t - p->last_draw < 0.25)
        return;
    p->last_draw = t;
    double frac = p->total ? (double)p->done / (double)p->total : 1.0;
    int width = 30, full = (int)(frac * width);
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < full ? '#' : '.';
    bar[width] = '\0';
    double rate = p->computed / (t - p->start + 1e-9);
    double left = rate > 0 ? (double)(p->total - p->done) / rate : 0;
    fprintf(stderr, "\r[%s] %5.1f%%  ETA %.0f s\033[K", bar, 100 * frac, left);
    fflush(stderr);
}

void rdb_progress_add(rdb_progress *p, uint64_t n, int computed)
{
    p->done += n;
    if (computed)
        p->computed += n;
    if (!p->quiet)
        draw_bar(p);
}

void rdb_progress_level(rdb_progress *p, int level, int slices, uint64_t positions,
                        uint64_t computed, double seconds, double read, double write)
{
    if (p->quiet)
        return;
    clear_bar(p);
    if (computed == 0)
        fprintf(stderr, "level %d: %d slices, %llu positions, already done\n", level, slices,
                (unsigned long long)positions);
    else
        fprintf(stderr,
                "level %d: %d slices, %llu positions, %.2f s (read %.2f, compute %.2f, write %.2f), %.1f M positions/s\n",
                level, slices, (unsigned long long)positions, seconds, read,
                seconds - read - write, write, seconds > 0 ? computed / seconds / 1e6 : 0.0);
}

void rdb_progress_finish(rdb_progress *p)
{
    if (p->quiet)
        return;
    clear_bar(p);
    double t = rdb_now() - p->start;
    fprintf(stderr, "done: %llu positions in %.2f s\n", (unsigned long long)p->total, t);
}

