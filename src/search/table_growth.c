/*
 * table_growth.c — a shared table's growth, every worker moving a part.
 * See table_growth.h.
 */
#include "search/table_growth.h"

#include <sched.h>

void rdb_table_growth_init(rdb_table_growth *g, const rdb_growth_ops *ops)
{
    g->ops = *ops;
    g->active = g->parked = g->growing = 0;
    g->units = 0;
    g->next = g->done = RDB_GROWTH_CHUNKS;
}

/* Move chunks of the old table's units while any is left. A chunk is
 * claimed by a counter that a growth resets only after it has mapped its
 * tables, and that stays exhausted in between, so a late claim finds no
 * chunk or a chunk of the growth under way. */
static void move_chunks(rdb_table_growth *g)
{
    for (;;) {
        const unsigned c = __atomic_fetch_add(&g->next, 1, __ATOMIC_ACQ_REL);
        if (c >= RDB_GROWTH_CHUNKS)
            return;
        const uint64_t n = g->units;
        g->ops.move(g->ops.table, n * c / RDB_GROWTH_CHUNKS, n * (c + 1) / RDB_GROWTH_CHUNKS);
        __atomic_fetch_add(&g->done, 1, __ATOMIC_ACQ_REL);
    }
}

void rdb_table_growth_park(rdb_table_growth *g)
{
    __atomic_fetch_add(&g->parked, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&g->growing, __ATOMIC_SEQ_CST))
        if (__atomic_load_n(&g->next, __ATOMIC_ACQUIRE) < RDB_GROWTH_CHUNKS)
            move_chunks(g);
        else
            sched_yield();
    __atomic_fetch_sub(&g->parked, 1, __ATOMIC_SEQ_CST);
}

void rdb_table_growth_join(rdb_table_growth *g)
{
    /* a growth under way must count this worker */
    __atomic_fetch_add(&g->active, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&g->growing, __ATOMIC_SEQ_CST))
        rdb_table_growth_park(g);
}

void rdb_table_growth_leave(rdb_table_growth *g)
{
    __atomic_fetch_sub(&g->active, 1, __ATOMIC_SEQ_CST);
}

void rdb_table_growth_run(rdb_table_growth *g)
{
    if (__atomic_exchange_n(&g->growing, 1, __ATOMIC_SEQ_CST)) {
        rdb_table_growth_park(g);
        return;
    }
    while (__atomic_load_n(&g->parked, __ATOMIC_SEQ_CST) <
           __atomic_load_n(&g->active, __ATOMIC_SEQ_CST) - 1)
        sched_yield();
    g->units = g->ops.begin(g->ops.table);
    const int moving = g->units > 0;
    if (moving) {
        __atomic_store_n(&g->done, 0, __ATOMIC_SEQ_CST);
        __atomic_store_n(&g->next, 0, __ATOMIC_SEQ_CST);
        move_chunks(g);
        while (__atomic_load_n(&g->done, __ATOMIC_SEQ_CST) < RDB_GROWTH_CHUNKS)
            sched_yield();
    }
    /* every other worker waits: the table is this one's to finish */
    g->ops.end(g->ops.table, moving);
    __atomic_store_n(&g->growing, 0, __ATOMIC_SEQ_CST);
}
