/*
 * search_clock.c — when a search reports and runs its hook; see
 * search_clock.h.
 */
#include "search/search_clock.h"

#include "common/job.h"

void rdb_search_clock_start(rdb_search_clock *c, int progress)
{
    c->progress = progress;
    c->next_report = rdb_now() + RDB_PROGRESS_SECONDS;
}

void rdb_search_clock_set_hook(rdb_search_clock *c, int hooked, double every)
{
    c->hooked = hooked;
    c->hook_every = every;
    c->next_hook = rdb_now() + every;
}

unsigned rdb_search_clock_due(rdb_search_clock *c)
{
    if (!c->progress && !c->hooked)
        return 0;
    /* the turn first: the times are read and written under it */
    if (__atomic_exchange_n(&c->turn, 1, __ATOMIC_ACQUIRE))
        return 0;
    const double now = rdb_now();
    const unsigned due = (c->progress && now >= c->next_report ? RDB_DUE_REPORT : 0) |
                         (c->hooked && now >= c->next_hook ? RDB_DUE_HOOK : 0);
    if (!due)
        __atomic_store_n(&c->turn, 0, __ATOMIC_RELEASE);
    return due;
}

void rdb_search_clock_done(rdb_search_clock *c, unsigned due)
{
    const double now = rdb_now();
    if (due & RDB_DUE_REPORT)
        c->next_report = now + RDB_PROGRESS_SECONDS;
    if (due & RDB_DUE_HOOK)
        c->next_hook = now + c->hook_every;
    __atomic_store_n(&c->turn, 0, __ATOMIC_RELEASE);
}
