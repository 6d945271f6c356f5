/*
 * cram_solver_internal.h — what the files of the Cram solver share: the
 * solver's state (struct cram_solver), a thread's (cram_worker), a
 * child as the search lists it (cram_child), sets of nimbers (nimset),
 * wide parts, and the calls from one file to another. Not a public
 * interface: cram_solver.h is.
 *
 * The solver in four files, each with its concern:
 *   cram_solver.c  making and freeing a solver, its nimber tables, its
 *                  statistics, its table files (saved, loaded, checked);
 *   cram_search.c  the search of one component: looking it up, listing
 *                  its children, the plain and cut methods, the value of
 *                  a sum, progress, stopping and the table's growth;
 *   cram_root.c    the root: the aspiration method's trials, the threads
 *                  that share them, the ledger of their answers, the
 *                  board's parts, cram_solver_solve and _test;
 *   cram_moves.c   a position's own moves: a certificate, every move's
 *                  nimber.
 * How the search works is told at the top of cram_search.c.
 */
#ifndef RDB_CRAM_SOLVER_INTERNAL_H
#define RDB_CRAM_SOLVER_INTERNAL_H

#include <assert.h>
#include <stdint.h>

#include "cram/cram_component.h"
#include "cram/cram_solver.h"
#include "cram/cram_tt.h"
#include "cram/cram_wide.h"
#include "cram/cram_wide_tt.h"
#include "search/search_clock.h"
#include "search/table_growth.h"

/* A move's two cells touch at most six others, so removing it from a
 * connected component leaves at most six components. */
#define CHILD_PARTS 6
/* One ply per move: at most 64 dominoes fit on 128 cells. */
#define MAX_PLY 66
#define MAX_TABLES 16
/* Moves of a component, and so of a board: at most 127 (its nimber, the
 * mex of its children's, then fits a nimset). */
#define MAX_MOVES 128
#define MAX_BOARD_MOVES 127

/* Returned by a search stopped by a signal or a failing nimber table. */
#define STOPPED (-2)

/* A probe of a table read from its files decodes part of a compressed
 * frame, dearer than searching a small component with the transposition
 * table: only components of at least TABLE_MIN_CELLS cells (or, for small
 * tables, of at least the table's cells minus TABLE_SLACK) are looked up
 * in such tables. A table held in memory costs a few table lookups, and is
 * asked for components of TABLE_MIN_CELLS_IN_MEMORY cells or more. */
#define TABLE_MIN_CELLS 18
#define TABLE_SLACK 6
#define TABLE_MIN_CELLS_IN_MEMORY 8

#define POLL_MASK 0x3fffu

typedef unsigned __int128 nimset;

static const nimset ALL_NIMBERS = ~(nimset)0;

static inline nimset ns_bit(int v)
{
    return (nimset)1 << v;
}

static inline int ns_has(nimset s, int v)
{
    return (int)(s >> v) & 1;
}

static inline int ns_max(nimset s)
{
    uint64_t hi = (uint64_t)(s >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)s);
}

static inline int ns_min(nimset s)
{
    uint64_t lo = (uint64_t)s;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(s >> 64));
}

/* {0, ..., v} */
static inline nimset ns_upto(int v)
{
    return v >= 127 ? ALL_NIMBERS : ns_bit(v + 1) - 1;
}

/* {r ^ x : r in s}: xor with each set bit of x swaps blocks of that size. */
static inline nimset ns_xor(nimset s, int x)
{
    static const uint64_t lower[6] = {0x5555555555555555ULL, 0x3333333333333333ULL,
                                      0x0f0f0f0f0f0f0f0fULL, 0x00ff00ff00ff00ffULL,
                                      0x0000ffff0000ffffULL, 0x00000000ffffffffULL};
    for (int k = 0; k < 6; k++)
        if (x >> k & 1) {
            nimset m = (nimset)lower[k] << 64 | lower[k];
            int d = 1 << k;
            s = ((s & m) << d) | ((s >> d) & m);
        }
    if (x >> 6 & 1)
        s = s << 64 | s >> 64;
    return s;
}

typedef struct {
    uint64_t part[CHILD_PARTS]; /* canonical components not known yet */
    uint8_t nparts;
    uint8_t known;              /* xor of the nimbers of the known parts */
    uint8_t done;               /* valued by the transposition cutoff */
    uint8_t size;               /* cells of the largest unknown part */
    uint8_t dist;               /* the move's distance from the centre */
    uint8_t new_parts;          /* parts whose canonical form the part memo
                                   did not hold (see likely_cached) */
} cram_child;

typedef cram_table_source table_ref;

/* The canonical forms of the components a thread met last, by the
 * component's cells, direct-mapped: most components a child has are
 * met again soon (on 4x11, 67% of them within the last 2^18; 53% within
 * 2^14 slots, 256 KB a thread, which stays in the processor's nearer
 * caches; 47% within 2^12). A hit also says that the component's table
 * bucket was read lately (likely_cached, in cram_search.c). 2^14 slots
 * took 2% less time than 2^12 on 4x11 and 3% on 5x8, 2^16 no less than
 * 2^14, 2^11 2% more (`farm-bench --vs`, the median of 5 pairs). */
#define PART_MEMO_LOG2 14

typedef struct {
    uint64_t cells; /* 0: empty */
    uint64_t key;   /* its canonical form; 0: the mirror rule makes it 0 */
} part_memo_entry;

/* What one thread of the search owns: its ply buffers, its counters, and
 * why it stopped. */
typedef struct {
    struct cram_solver *s;
    cram_child (*ply)[MAX_MOVES];
    part_memo_entry *part_memo; /* 2^PART_MEMO_LOG2 entries */
    /* the wide parts of the children of each ply (a board of more than 64
     * cells only; see "Wide parts" below) */
    cram_wset (*wide_key)[MAX_MOVES][CHILD_PARTS];
    cram_stats stats;
    int stopped;          /* unwind: a signal, a failing table, a contradiction */
    rdb_status fail;
    rdb_error err;
    int root_move;        /* the root's child being searched, for progress */
    const int *quit;      /* unwind when this becomes nonzero: another worker
                             has answered the root's child this one searches */
    nimset etc_seen;      /* the nimbers of the children the transposition
                             cutoff found while listing a node's children
                             (none of them is the node's: see cut) */
    int helper;           /* this worker joined a root child another worker
                             was searching: the helper's order (see cut) */
} cram_worker;

struct cram_solver {
    int rows, cols;       /* the board as given */
    int transposed;       /* the layout is the board turned a quarter */
    cram_geom g;          /* the 64-bit layout (on a wide board, as many rows
                             as fit 63 bits) */
    int wide;             /* the board does not fit g: wg and wtt are set */
    cram_wide_geom wg;    /* the whole board's layout, on a wide board */
    cram_wide_tt *wtt;    /* the table of the components taller than g */
    cram_wset root_key[CRAM_MAX_COMPONENTS]; /* the root's wide parts */
    cram_solver_options opt;
    struct box_moves *boxes; /* [h - 1][w - 1], stride w's: see box_moves */
    cram_tt tt;
    table_ref tables[MAX_TABLES];
    int ntables;
    int table_min_cells;  /* smallest component worth a table probe */
    cram_worker *workers;
    int nworkers;
    cram_stats stats;     /* tt_loaded and seconds; the workers count the rest */

    /* the state of the current solve */
    int trial_over;       /* a worker found the root's trial decided */
    rdb_table_growth growth; /* the table's growth, the workers searching the
                             root's children its active ones */
    cram_tt grow_from;    /* the table as it was before a growth under way */
    double start;
    rdb_search_clock clock; /* progress lines and the hook */
    void (*hook)(cram_solver *, void *); /* cram_solver_set_hook */
    void *hook_ctx;
    int root_moves, trial;
    cram_ledger *ledger;  /* cram_solver_set_ledger */
    cram_wset ledger_root; /* the root being searched, as the ledger keys it */
    uint8_t root_cell[MAX_MOVES][2][2]; /* its children's moves: board cells */
    cram_solver *verifier; /* checks entries of a loaded table file */
};

/* The moves of a component in the corner box of h rows and w columns of
 * g (its cells' rows and columns), nearest the box's centre first, equals
 * in the order children() once listed them (the horizontal dominoes by
 * cell, then the vertical ones). Children are made in this order, so that
 * the transposition cutoff meets the child that ends a node sooner (a
 * centre move's parts are small and often known): 16% fewer children made
 * on 4x11, 21% on 3x14, than in the order of the cells; each child is
 * still stored at its place in that order, so the search is the same.
 * Measured no better on 4x11 (the same nodes): the child that ended the
 * last node of the same ply made first (2% fewer children made, a gain
 * lost in the timings' noise), and each box's order learnt from the
 * moves that ended nodes (2% more children made). */
#define MAX_BOX_MOVES 128
typedef struct box_moves {
    uint8_t n;
    uint8_t cell[MAX_BOX_MOVES], vertical[MAX_BOX_MOVES], dist[MAX_BOX_MOVES];
    /* rank[v][cell]: the place j in that order of the domino whose top
     * left cell is `cell` (vertical when v), for the dominoes of the box */
    uint8_t rank[2][64];
} box_moves;

/* ---- wide parts ----
 *
 * On a board of more than 64 cells, a component taller than the 64-bit
 * layout g is a *wide part*: a 64-bit word with bit 63 set (which no set
 * of g has, g stopping at bit 62) and the address of the component's
 * 128-bit canonical form in the rest. The form lies in the wide_key array
 * of the ply whose children hold the part (or in root_key), which stays
 * as it is while the part is in use: a child's parts are searched before
 * the ply's children are listed again. So a wide part travels through the
 * search as any part does; the few places that look inside a part (its
 * cells, its children, its table) ask is_wide first, and only the table
 * of wide parts (cram_wide_tt.h) keys them by their forms. */
#define WIDE_PART (1ULL << 63)

static inline cram_wset wide_key(uint64_t p)
{
    return *(const cram_wset *)(uintptr_t)(p & ~WIDE_PART);
}

static inline uint64_t wide_part(const cram_wset *key)
{
    assert(((uintptr_t)key >> 63) == 0);
    return (uint64_t)(uintptr_t)key | WIDE_PART;
}

static inline int is_wide(const cram_solver *s, uint64_t p)
{
    return s->wide && (p & WIDE_PART);
}

/* Cells of a part. */
static inline int part_cells(const cram_solver *s, uint64_t p)
{
    return is_wide(s, p) ? cram_wpopcount(wide_key(p)) : __builtin_popcountll(p);
}

/* Dominoes with both cells in a set of the 64-bit layout g, and of the
 * whole board's 128-bit layout wg: a component's nimber is at most that. */
static inline int narrow_dominoes(const cram_solver *s, uint64_t x)
{
    return __builtin_popcountll(cram_hmoves(&s->g, x)) + __builtin_popcountll(cram_vmoves(&s->g, x));
}

static inline int wide_dominoes(const cram_solver *s, cram_wset x)
{
    return cram_wpopcount(cram_wide_hmoves(&s->wg, x)) + cram_wpopcount(cram_wide_vmoves(&s->wg, x));
}

/* The transposition tables, either one. */
static inline void tt_put(cram_solver *s, uint64_t x, int nimber, int work)
{
    if (is_wide(s, x))
        cram_wide_tt_put(s->wtt, wide_key(x), nimber, work);
    else
        cram_tt_put(&s->tt, x, nimber, work);
}

static inline unsigned tt_excluded(cram_solver *s, uint64_t x)
{
    return is_wide(s, x) ? cram_wide_tt_excluded(s->wtt, wide_key(x)) : cram_tt_excluded(&s->tt, x);
}

static inline void tt_exclude(cram_solver *s, uint64_t x, unsigned excluded, int work)
{
    if (is_wide(s, x))
        cram_wide_tt_exclude(s->wtt, wide_key(x), excluded, work);
    else
        cram_tt_exclude(&s->tt, x, excluded, work);
}

/* log2 of the nodes a result cost, the replacement priority. */
static inline int work_since(cram_worker *w, uint64_t nodes_before)
{
    uint64_t n = w->stats.nodes - nodes_before + 1;
    return 64 - __builtin_clzll(n);
}

/* A whole board's parts: at most one for every two of its 128 cells. */
#define ROOT_PARTS 64

/* cram_solver.c: results stored that disagreed with an entry, in both
 * tables. */
uint64_t cram_solver_tt_conflicts(const cram_solver *s);

/* cram_search.c: the moves of the h x w corner box of g, nearest the
 * centre first (box_moves). */
void cram_make_box_moves(const cram_geom *g, int h, int w, box_moves *b);
/* The nimber of a component known without search (tables, trivial
 * shapes), or -1. */
int cram_search_known(cram_worker *w, uint64_t x);
/* List x's children into ch, the transposition cutoff applied for want
 * (*p: the nimbers still possible); returns how many. */
int cram_search_children(cram_worker *w, uint64_t x, cram_child *ch, nimset want, nimset *p);
/* Look up a child's parts once more (those valued since it was made). */
void cram_search_resolve(cram_worker *w, cram_child *c);
/* A child's nimber if it is in want (else its nimber or -1). */
int cram_search_child_value(cram_worker *w, cram_child *c, nimset want, int ply);
/* Children cheapest first. */
void cram_search_order_children(const cram_child *ch, int n, uint8_t *order);
/* Count a node; 0 when the worker must unwind. */
int cram_search_count_node(cram_worker *w);
/* The nimber of a sum of components if it is in want (else the nimber or
 * -1), the largest searched last with the set. */
int cram_search_sum_value(cram_worker *w, const uint64_t *comp, int n, nimset want);
/* Mark the search false (a contradiction in what it read): returns
 * STOPPED. */
int cram_search_contradiction(cram_worker *w);
/* Progress on stderr at t seconds. */
void cram_search_report_progress(cram_solver *s, double t);
/* The table's growth made ready for a solve (search/table_growth.h). */
void cram_search_growth_init(cram_solver *s);

/* cram_root.c: the board's free cells as the root's parts (see there);
 * -1 with err when the position is refused. */
int cram_root_parts(cram_solver *s, cram_wset free_cells, uint64_t *comp, uint64_t *zeros, cram_wset *layout,
                    rdb_error *err);
/* Dominoes free in a set of the layout. */
int cram_root_dominoes(const cram_solver *s, cram_wset x);

#endif
