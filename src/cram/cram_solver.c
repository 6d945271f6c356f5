/*
 * cram_solver.c — the search behind cram_solver.h.
 *
 * Sets of nimbers are 128-bit masks (bit v = nimber v): a board has at
 * most 127 dominoes (cram_solver_new refuses more), so every nimber of its
 * positions is below 128, and so is any xor of such nimbers.
 *
 * Every search call works on one connected component in canonical form
 * that the transposition table and the nimber tables do not know. Its
 * children are listed once, each as the xor of the parts already known
 * plus the canonical parts still unknown, in a buffer per ply. A child
 * made of several unknown parts is valued by searching all parts but the
 * largest exactly and asking the largest only for the wanted nimbers xored
 * with the others' sum: that is the only part whose search can be cut.
 *
 * The cut methods follow the pseudo-code of Beling & Rogalski: P starts as
 * {0..n} for n moves, and each child removes one element (its nimber when
 * that is in P, else the largest). R is the set of nimbers the caller
 * wants; the search returns the exact nimber whenever it is in R, and
 * otherwise may return -1 ("not in R"). A child is asked for P minus its
 * largest element, since only those values change P differently; with
 * set-cuts that set is also capped at max(R), and a result computed with a
 * capped child is exact only up to max(R), so only then is it stored.
 *
 * A search runs in workers (cram_worker): each has its own ply buffers and
 * counters, and all share the table. With one worker everything runs in
 * the caller's thread; with several, only the root's trials are shared
 * (ask_children), and a worker unwinds (STOPPED) when another has decided
 * the trial. Nothing a worker stores is ever false, so a search given up
 * half-way leaves only true entries behind.
 */
#define _GNU_SOURCE
#include "cram/cram_solver.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cram/cram_board.h"
#include "cram/cram_component.h"
#include "cram/cram_reduce.h"
#include "cram/cram_tables.h"
#include "cram/cram_tt.h"
#include "cram/cram_wide.h"
#include "cram/cram_wide_tt.h"
#include "cram/cram_window.h"
#include "common/job.h"

#include <omp.h>
#include <sched.h>

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
#define PROGRESS_SECONDS 5.0

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
static nimset ns_xor(nimset s, int x)
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
} cram_child;

typedef struct {
    cram_table *table;
    int rows, cols;
} table_ref;

/* What one thread of the search owns: its ply buffers, its counters, and
 * why it stopped. */
typedef struct {
    struct cram_solver *s;
    cram_child (*ply)[MAX_MOVES];
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
    int polling;          /* a worker is printing progress or in the hook */
    int active;           /* workers searching the root's children */
    int parked;           /* of those, the ones waiting for the table to grow */
    int growing;          /* a worker is growing the table */
    cram_tt grow_from;    /* the table being grown from, while it is */
    unsigned grow_next;   /* the next chunk of it to move (GROW_CHUNKS or
                             more: none) */
    unsigned grow_done;   /* chunks moved */
    double start, last_report;
    void (*hook)(cram_solver *, void *); /* cram_solver_set_hook */
    void *hook_ctx;
    double hook_every, last_hook;
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
 * still stored at its place in that order, so the search is the same. */
#define MAX_BOX_MOVES 128
typedef struct box_moves {
    uint8_t n;
    uint8_t cell[MAX_BOX_MOVES], vertical[MAX_BOX_MOVES], dist[MAX_BOX_MOVES];
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

static inline int is_wide(const struct cram_solver *s, uint64_t p);

static inline cram_wset wide_key(uint64_t p)
{
    return *(const cram_wset *)(uintptr_t)(p & ~WIDE_PART);
}

static inline uint64_t wide_part(const cram_wset *key)
{
    assert(((uintptr_t)key >> 63) == 0);
    return (uint64_t)(uintptr_t)key | WIDE_PART;
}

static void make_box_moves(const cram_geom *g, int h, int w, box_moves *b);

static const char *const method_names[CRAM_NMETHODS] = {"plain", "simple-cuts", "set-cuts", "etc",
                                                        "aspiration"};

const char *cram_method_name(cram_method m)
{
    assert((int)m >= 0 && m < CRAM_NMETHODS);
    return method_names[m];
}

int cram_method_from_name(const char *name)
{
    for (int m = 0; m < CRAM_NMETHODS; m++)
        if (strcmp(name, method_names[m]) == 0)
            return m;
    return -1;
}

/* The megabytes of the wide parts' table: as asked, else an eighth of the
 * other's (at least 16). */
static long wide_tt_mb(const cram_solver_options *opt)
{
    if (opt->wide_tt_mb)
        return opt->wide_tt_mb;
    return opt->tt_mb / 8 > 16 ? opt->tt_mb / 8 : 16;
}

rdb_status cram_solver_new(int rows, int cols, const cram_solver_options *opt, cram_solver **out,
                           rdb_error *err)
{
    const long ncells = (long)rows * cols;
    if (rows < 1 || cols < 1 || ncells > CRAM_WIDE_MAX_CELLS)
        return rdb_fail(err, RDB_E_INPUT, "cram board %dx%d has %ld cells; at most %d fit", rows, cols,
                        ncells, CRAM_WIDE_MAX_CELLS);
    /* The board may have more dominoes than MAX_BOARD_MOVES: a position
     * is refused when it has more free (board_components). */
    if (rows > CRAM_WINDOW_MAX_ACROSS && cols > CRAM_WINDOW_MAX_ACROSS)
        return rdb_fail(err, RDB_E_INPUT,
                        "cram board %dx%d: the solver lays a board out at most %d cells across its "
                        "shorter side (a position on a wider board is solved in the box of its free "
                        "dominoes, cram_window.h)",
                        rows, cols, CRAM_WINDOW_MAX_ACROSS);
    if ((int)opt->method < 0 || opt->method >= CRAM_NMETHODS)
        return rdb_fail(err, RDB_E_INPUT, "unknown cram search method %d", (int)opt->method);
    int threads = opt->threads > 0 ? opt->threads : 1;
    if (threads > CRAM_MAX_THREADS)
        return rdb_fail(err, RDB_E_INPUT, "at most %d threads (got %d)", CRAM_MAX_THREADS, threads);
    if (threads > 1 && opt->method != CRAM_ASPIRATION)
        return rdb_fail(err, RDB_E_INPUT, "several threads share the root's trials of the aspiration method only (method %s)",
                        cram_method_name(opt->method));
    cram_solver *s = calloc(1, sizeof *s);
    if (!s)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the cram solver");
    s->rows = rows;
    s->cols = cols;
    s->transposed = cols > rows;
    s->opt = *opt;
    /* the shorter side across: at most 8 cells, a row fits a byte */
    const int height = s->transposed ? cols : rows, stride = s->transposed ? rows : cols;
    int narrow = height;
    if (ncells > 64 || (opt->narrow_rows > 0 && opt->narrow_rows < height)) {
        /* Wide: components of more rows than fit 63 bits stay wide (the
         * 64-bit layout keeps bit 63 free for the wide parts' mark). */
        s->wide = 1;
        narrow = 63 / stride;
        if (opt->narrow_rows > 0 && opt->narrow_rows < narrow)
            narrow = opt->narrow_rows;
        cram_wide_geom_init(&s->wg, height, stride);
    }
    cram_geom_init(&s->g, narrow, stride);
    s->boxes = malloc((size_t)narrow * stride * sizeof *s->boxes);
    if (!s->boxes) {
        free(s);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the cram solver");
    }
    for (int h = 1; h <= narrow; h++)
        for (int w = 1; w <= stride; w++)
            make_box_moves(&s->g, h, w, &s->boxes[(h - 1) * stride + (w - 1)]);
    s->nworkers = threads;
    s->workers = calloc((size_t)threads, sizeof *s->workers);
    int ok = s->workers != NULL;
    for (int i = 0; ok && i < threads; i++) {
        s->workers[i].s = s;
        s->workers[i].ply = calloc(MAX_PLY, sizeof *s->workers[i].ply);
        ok = s->workers[i].ply != NULL;
        if (ok && s->wide) {
            s->workers[i].wide_key = calloc(MAX_PLY, sizeof *s->workers[i].wide_key);
            ok = s->workers[i].wide_key != NULL;
        }
    }
    if (!ok) {
        cram_solver_free(s);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the cram solver");
    }
    /* threads share the table, which then grows only while they wait */
    rdb_status st = cram_tt_init(&s->tt, opt->tt_mb, threads > 1, err);
    /* the wide parts' table: an eighth of the memory asked for, made at
     * once but filled as the search goes, so the main table leaves room
     * for it when it grows */
    if (st == RDB_OK && s->wide) {
        st = cram_wide_tt_new(wide_tt_mb(opt), &s->wtt, err);
        if (st == RDB_OK)
            s->tt.reserve = cram_wide_tt_bytes(s->wtt);
    }
    if (st != RDB_OK) {
        cram_solver_free(s);
        return st;
    }
    *out = s;
    return RDB_OK;
}

void cram_solver_free(cram_solver *s)
{
    if (!s)
        return;
    cram_solver_free(s->verifier);
    for (int i = 0; i < s->ntables; i++)
        cram_table_close(s->tables[i].table);
    cram_tt_free(&s->tt);
    cram_wide_tt_free(s->wtt);
    free(s->boxes);
    for (int i = 0; s->workers && i < s->nworkers; i++) {
        free(s->workers[i].ply);
        free(s->workers[i].wide_key);
    }
    free(s->workers);
    free(s);
}

rdb_status cram_solver_add_table(cram_solver *s, const char *dir, rdb_error *err)
{
    if (s->ntables == MAX_TABLES)
        return rdb_fail(err, RDB_E_INPUT, "at most %d nimber tables", MAX_TABLES);
    table_ref *t = &s->tables[s->ntables];
    rdb_status st = cram_table_open(dir, &t->table, err);
    if (st != RDB_OK)
        return st;
    cram_table_shape(t->table, &t->rows, &t->cols);
    int worth = t->rows * t->cols - TABLE_SLACK;
    if (worth > TABLE_MIN_CELLS)
        worth = TABLE_MIN_CELLS;
    if (cram_table_in_memory(t->table))
        worth = TABLE_MIN_CELLS_IN_MEMORY;
    if (s->ntables == 0 || worth < s->table_min_cells)
        s->table_min_cells = worth;
    s->ntables++;
    return RDB_OK;
}

/* Results stored in either table that disagreed with the entry there:
 * the table holds a false entry (cram_tt_disagree). */
static uint64_t tt_conflicts(const cram_solver *s)
{
    return __atomic_load_n(&s->tt.conflicts, __ATOMIC_RELAXED) + (s->wtt ? cram_wide_tt_conflicts(s->wtt) : 0);
}

void cram_solver_stats(const cram_solver *s, cram_stats *st)
{
    *st = s->stats;
    for (int i = 0; i < s->nworkers; i++) {
        const cram_stats *w = &s->workers[i].stats;
        st->nodes += w->nodes;
        st->expanded += w->expanded;
        st->tt_hits += w->tt_hits;
        st->db_hits += w->db_hits;
        st->cuts += w->cuts;
        st->helped += w->helped;
        st->helper_first += w->helper_first;
        st->twins += w->twins;
        st->from_ledger += w->from_ledger;
        st->to_ledger += w->to_ledger;
        st->mirror_zero += w->mirror_zero;
        st->wide_expanded += w->wide_expanded;
        st->unreduced += w->unreduced;
    }
    st->tt_entries = s->tt.entries;
    if (s->wtt)
        st->tt_entries += cram_wide_tt_entries(s->wtt);
    st->tt_replaced = s->tt.replaced;
    st->tt_bytes = s->tt.bytes + (s->wtt ? cram_wide_tt_bytes(s->wtt) : 0);
    st->tt_fill = cram_tt_fill(&s->tt);
    if (s->wtt) {
        st->wide_tt_bytes = cram_wide_tt_bytes(s->wtt);
        st->wide_tt_fill = cram_wide_tt_fill(s->wtt);
    }
    st->tt_held = s->tt.held;
    st->tt_conflicts = tt_conflicts(s);
}

/* The wide parts' table goes beside the 64-bit one, in F.wide. */
static rdb_status wide_path(const char *path, char *out, rdb_error *err)
{
    if (snprintf(out, PATH_MAX, "%s.wide", path) >= PATH_MAX)
        return rdb_fail(err, RDB_E_INPUT, "table file name '%s' is too long", path);
    return RDB_OK;
}

rdb_status cram_solver_save_dear(const cram_solver *s, const char *path, int min_work, rdb_error *err)
{
    rdb_status st = cram_tt_save(&s->tt, path, s->g.stride, min_work, err);
    char wpath[PATH_MAX];
    if (st == RDB_OK && s->wide && (st = wide_path(path, wpath, err)) == RDB_OK)
        st = cram_wide_tt_save(s->wtt, wpath, s->g.stride, min_work, err);
    return st;
}

rdb_status cram_solver_save_tt(const cram_solver *s, const char *path, rdb_error *err)
{
    return cram_solver_save_dear(s, path, 0, err);
}

/* Entries of a transposition-table file with at most this many cells are
 * solved again when the file is loaded: a few microseconds each, and the
 * small components are the ones every search meets most. */
#define TT_VERIFY_CELLS 16

/* The nimber of a component of at most TT_VERIFY_CELLS cells, solved by a
 * solver of its own that trusts no file; -1 when that fails. */
static int solve_small(cram_solver *s, uint64_t key)
{
    if (!s->verifier) {
        cram_solver_options opt = {.method = CRAM_PLAIN, .tt_mb = 16};
        rdb_error ignored;
        /* in the layout's own shape, which needs no turn: the layout's
         * coordinates are the verifier's board coordinates */
        int rows = s->g.height > s->g.stride ? s->g.height : s->g.stride;
        int cols = s->g.height + s->g.stride - rows;
        if (cram_solver_new(rows, cols, &opt, &s->verifier, &ignored) != RDB_OK)
            return -1;
    }
    /* 8x9's layout of 7 rows of 8 is a board the verifier would turn:
     * hand it the key turned (the same nimber) */
    if (s->g.height < s->g.stride) {
        uint64_t turned = 0;
        for (uint64_t y = key; y; y &= y - 1) {
            int cell = __builtin_ctzll(y);
            turned |= 1ULL << (s->g.col_of[cell] * s->g.height + s->g.row_of[cell]);
        }
        key = turned;
    }
    int v;
    rdb_error why;
    return cram_solver_solve(s->verifier, key, &v, &why) == RDB_OK ? v : -1;
}

/* cram_tt_entry_check: a key the solver could have stored (a canonical
 * connected component of four cells or more in the layout: make_child
 * values smaller ones on the spot) with a nimber it can have. A position
 * with m moves has a nimber of at most m (the mex of m values), so a
 * nimber above m, or nimbers excluded up to m, cannot be right. Small
 * components are solved again and must agree. */
static int tt_entry_possible(void *ctx, uint64_t key, int nimber, unsigned excluded)
{
    cram_solver *s = ctx;
    uint64_t comp[CRAM_MAX_COMPONENTS];
    if ((key & ~s->g.all) || __builtin_popcountll(key) < 4 || cram_split(&s->g, key, comp) != 1 ||
        comp[0] != key || cram_canonical(&s->g, key, NULL, NULL) != key)
        return 0;
    int moves = __builtin_popcountll(cram_hmoves(&s->g, key)) +
                __builtin_popcountll(cram_vmoves(&s->g, key));
    if (nimber != CRAM_TT_UNKNOWN && nimber > moves)
        return 0;
    unsigned possible = moves >= 15 ? 0xffffu : (2u << moves) - 1;
    if (nimber == CRAM_TT_UNKNOWN && (possible & ~excluded) == 0 && moves < 16)
        return 0;
    if (__builtin_popcountll(key) > TT_VERIFY_CELLS)
        return 1;
    int v = solve_small(s, key);
    if (v < 0)
        return 0;
    return nimber != CRAM_TT_UNKNOWN ? v == nimber : v >= 16 || !(excluded >> v & 1);
}

/* The same for an entry of the wide parts' file: a canonical connected
 * set of the board taller than g, no nimber above its moves. */
static int wide_entry_possible(void *ctx, cram_wset key, int nimber, unsigned excluded)
{
    cram_solver *s = ctx;
    cram_wset comp[2];
    if ((key & ~s->wg.all) || cram_wide_split(&s->wg, key, comp, 2) != 1 || comp[0] != key ||
        cram_wide_rows(&s->wg, key) <= s->g.height || cram_wide_canonical(&s->wg, key, NULL, NULL, NULL) != key)
        return 0;
    int moves = cram_wpopcount(cram_wide_hmoves(&s->wg, key)) + cram_wpopcount(cram_wide_vmoves(&s->wg, key));
    if (nimber != CRAM_TT_UNKNOWN && nimber > moves)
        return 0;
    return nimber != CRAM_TT_UNKNOWN || moves >= 16 || (((2u << moves) - 1) & ~excluded) != 0;
}

rdb_status cram_solver_load_tt(cram_solver *s, const char *path, rdb_error *err)
{
    const uint64_t conflicts = tt_conflicts(s);
    uint64_t n = 0;
    rdb_status st = cram_tt_load(&s->tt, path, s->g.stride, tt_entry_possible, s, &n, err);
    s->stats.tt_loaded += n;
    char wpath[PATH_MAX];
    if (st == RDB_OK && s->wide && (st = wide_path(path, wpath, err)) == RDB_OK) {
        n = 0;
        st = cram_wide_tt_load(s->wtt, wpath, s->g.stride, wide_entry_possible, s, &n, err);
        s->stats.tt_loaded += n;
        if (st == RDB_E_MISSING) /* saved before the wide parts had one: fine */
            st = RDB_OK;
    }
    /* Two files (a table file and a digest, say), or two records of one,
     * that say different things of one position: one of them is false,
     * and nothing here tells which. */
    if (st == RDB_OK && tt_conflicts(s) > conflicts)
        st = rdb_fail(err, RDB_E_CORRUPT,
                      "'%s' disagrees on %llu position%s with what was loaded before it or with itself: a table "
                      "file holds wrong entries; solve without the files loaded",
                      path, (unsigned long long)(tt_conflicts(s) - conflicts),
                      tt_conflicts(s) - conflicts == 1 ? "" : "s");
    return st;
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

/* ---- looking components up ---- */

/* Nimber of a canonical component from the nimber tables, or -1 when none
 * holds it; h x w is its bounding box in the corner of the layout. */
static int table_value(cram_worker *w, uint64_t x, int h, int width)
{
    cram_solver *s = w->s;
    for (int i = 0; i < s->ntables; i++) {
        const table_ref *t = &s->tables[i];
        int turn;
        if (h <= t->rows && width <= t->cols)
            turn = 0;
        else if (width <= t->rows && h <= t->cols)
            turn = 1;
        else
            continue;
        uint64_t free_cells = 0;
        for (uint64_t y = x; y; y &= y - 1) {
            int cell = __builtin_ctzll(y);
            int r = cell / s->g.stride, c = cell % s->g.stride;
            free_cells |= 1ULL << (turn ? c * t->cols + r : r * t->cols + c);
        }
        int n = t->rows * t->cols;
        uint64_t all = n == 64 ? ~0ULL : (1ULL << n) - 1;
        int v;
        rdb_status st;
        /* a table's probe keeps state of its own: one thread at a time */
#pragma omp critical(cram_table_probe)
        st = cram_table_value(t->table, all & ~free_cells, &v, &w->err);
        if (st != RDB_OK) {
            w->fail = st;
            w->stopped = 1;
            return -1;
        }
        if (v < 0 || v > 127) {
            w->fail = rdb_fail(&w->err, RDB_E_CORRUPT, "a cram table gave nimber %d", v);
            w->stopped = 1;
            return -1;
        }
        return v;
    }
    return -1;
}

/* Nimber of a canonical component if the tables know it, else -1. */
static inline int known(cram_worker *w, uint64_t x)
{
    cram_solver *s = w->s;
    if (is_wide(s, x)) {
        int v = cram_wide_tt_get(s->wtt, wide_key(x));
        w->stats.tt_hits += v >= 0;
        return v;
    }
    int v = cram_tt_get(&s->tt, x);
    if (v >= 0) {
        w->stats.tt_hits++;
        return v;
    }
    if (s->ntables && __builtin_popcountll(x) >= s->table_min_cells) {
        int h = s->g.row_of[63 - __builtin_clzll(x)] + 1, width = 0;
        for (int j = 0; j < s->g.stride; j++)
            if (x & s->g.col[j])
                width = j + 1;
        v = table_value(w, x, h, width);
        if (v >= 0) {
            w->stats.db_hits++;
            cram_tt_put(&s->tt, x, v, 0);
            return v;
        }
    }
    return -1;
}

/* Look up the unknown parts of a child again: searches of its siblings may
 * have found them meanwhile. */
static void resolve(cram_worker *w, cram_child *c)
{
    int k = 0, size = 0;
    for (int j = 0; j < c->nparts; j++) {
        int v = known(w, c->part[j]);
        if (v >= 0) {
            c->known ^= (uint8_t)v;
        } else {
            c->part[k++] = c->part[j];
            int n = part_cells(w->s, c->part[j]);
            if (n > size)
                size = n;
        }
    }
    c->nparts = (uint8_t)k;
    c->size = (uint8_t)size;
}

/* ---- children ---- */

/* How many of the n components need a place in a child: those of more
 * than three cells (add_part values the others on the spot). */
static inline int parts_to_search(const uint64_t *comp, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += __builtin_popcountll(comp[i]) > 3;
    return k;
}

/* Add a connected set of g, one component of a child, to the child c
 * (which has room: CHILD_PARTS at most). */
static inline void add_part(cram_worker *w, cram_child *c, uint64_t comp)
{
    const cram_solver *s = w->s;
    /* Two or three connected cells leave one move whatever is played. */
    if (__builtin_popcountll(comp) <= 3) {
        c->known ^= 1;
        return;
    }
    int zero = 0;
    uint64_t key = s->opt.no_mirror ? cram_canonical(&s->g, comp, NULL, NULL)
                                    : cram_canonical_zero(&s->g, comp, NULL, NULL, &zero);
    /* A part the half turn maps onto itself, no domino meeting its
     * image, is 0: the second player copies (cram_component.h). */
    if (zero) {
        w->stats.mirror_zero++;
        return;
    }
    /* Two equal parts cancel: their nimbers xor to 0. */
    int twin = -1;
    for (int j = 0; j < c->nparts; j++)
        if (c->part[j] == key)
            twin = j;
    if (twin >= 0) {
        c->part[twin] = c->part[--c->nparts];
        return;
    }
    assert(c->nparts < CHILD_PARTS);
    /* the lookup comes soon: start fetching the bucket now */
    __builtin_prefetch(cram_tt_bucket_of(&s->tt, key));
    c->part[c->nparts++] = key;
}

/* c->size: the cells of the child's largest part. */
static inline void set_size(const cram_solver *s, cram_child *c)
{
    int size = 0;
    for (int j = 0; j < c->nparts; j++) {
        int cells = part_cells(s, c->part[j]);
        if (cells > size)
            size = cells;
    }
    c->size = (uint8_t)size;
}

/* The child of the connected component x left by the domino whose top
 * left cell is `cell`. */
static void make_child(cram_worker *w, uint64_t x, int cell, int vertical, cram_child *c)
{
    const cram_solver *s = w->s;
    uint64_t comp[CRAM_MAX_COMPONENTS];
    int n = cram_split_child(&s->g, x, cell, vertical, comp);
    if (n > CHILD_PARTS && parts_to_search(comp, n) > CHILD_PARTS) {
        /* The reductions cut more parts than a child holds: its components
         * unreduced instead, at most six (each holds a cell next to the
         * domino), each with the nimber of its reduced parts' xor. */
        const uint64_t domino = vertical ? 1ULL << cell | 1ULL << (cell + s->g.stride) : 3ULL << cell;
        n = cram_split(&s->g, x & ~domino, comp);
        w->stats.unreduced++;
    }
    c->nparts = 0;
    c->known = 0;
    c->done = 0;
    for (int i = 0; i < n; i++)
        add_part(w, c, comp[i]);
    set_size(s, c);
}

/* The same for a wide part x (its canonical form) without the domino d;
 * keys (CHILD_PARTS of them) receives the forms of the child's wide
 * parts. A component that fits g goes there, reduced (cram_reduce.h);
 * the wide ones are not reduced, which keeps their nimber all the same. */
static void make_wide_child(cram_worker *w, cram_wset x, cram_wset d, cram_child *c, cram_wset *keys)
{
    const cram_solver *s = w->s;
    cram_wset comp[CHILD_PARTS];
    /* a domino's two cells touch at most six others */
    int n = cram_wide_split(&s->wg, x & ~d, comp, CHILD_PARTS), nkeys = 0;
    assert(n <= CHILD_PARTS);
    c->nparts = 0;
    c->known = 0;
    c->done = 0;
    for (int i = 0; i < n; i++) {
        if (cram_wpopcount(comp[i]) <= 3) {
            c->known ^= 1;
            continue;
        }
        if (cram_wide_rows(&s->wg, comp[i]) <= s->g.height) {
            uint64_t y = cram_wide_to_narrow(&s->wg, comp[i]), sub[CRAM_MAX_COMPONENTS];
            int m = cram_split_reduced(&s->g, y, sub);
            /* Its reduced parts only when they leave a place for each
             * component after it; else it goes whole, unreduced: so no
             * child holds more than CHILD_PARTS (n of them at most). */
            if (c->nparts + parts_to_search(sub, m) + (n - 1 - i) > CHILD_PARTS) {
                add_part(w, c, y);
                w->stats.unreduced++;
            } else
                for (int j = 0; j < m; j++)
                    add_part(w, c, sub[j]);
            continue;
        }
        int zero = 0;
        cram_wset key = cram_wide_canonical(&s->wg, comp[i], NULL, NULL, s->opt.no_mirror ? NULL : &zero);
        if (zero) {
            w->stats.mirror_zero++;
            continue;
        }
        int twin = -1;
        for (int j = 0; j < c->nparts; j++)
            if (is_wide(s, c->part[j]) && wide_key(c->part[j]) == key)
                twin = j;
        if (twin >= 0) {
            c->part[twin] = c->part[--c->nparts];
            continue;
        }
        assert(c->nparts < CHILD_PARTS && nkeys < CHILD_PARTS);
        keys[nkeys] = key;
        c->part[c->nparts++] = wide_part(&keys[nkeys++]);
    }
    set_size(s, c);
}

/* Twice the Manhattan distance between a domino whose centre is
 * (r2/2, c2/2) and the centre of the h x w box in the corner. (Weighting
 * the long axis more, as igsolve does, was measured no better: 5x8 2.10 M
 * nodes with weights 2:1, 2.08 M with 1:1.) */
static inline int centre_dist(int r2, int c2, int h, int w)
{
    int dr = r2 - (h - 1), dc = c2 - (w - 1);
    return (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
}

/* order[0..n-1]: the indices 0..n-1 by increasing dist, a counting sort
 * (stable: the cells' order among equals). */
static void order_by_dist(const uint8_t *dist, int n, uint8_t *order)
{
    int start[256] = {0};
    for (int i = 0; i < n; i++)
        start[dist[i]]++;
    for (int d = 0, sum = 0; d < 256; d++) {
        const int k = start[d];
        start[d] = sum;
        sum += k;
    }
    for (int i = 0; i < n; i++)
        order[start[dist[i]]++] = (uint8_t)i;
}

static void make_box_moves(const cram_geom *g, int h, int w, box_moves *b)
{
    /* every domino of the box in the cells' order, then ordered by distance */
    uint8_t cell[MAX_BOX_MOVES], vertical[MAX_BOX_MOVES], dist[MAX_BOX_MOVES], order[MAX_BOX_MOVES];
    int n = 0;
    for (int v = 0; v < 2; v++)
        for (int r = 0; r + v < h; r++)
            for (int c = 0; c + 1 - v < w; c++) {
                assert(n < MAX_BOX_MOVES);
                int d = v ? centre_dist(2 * r + 1, 2 * c, h, w) : centre_dist(2 * r, 2 * c + 1, h, w);
                cell[n] = (uint8_t)(r * g->stride + c);
                vertical[n] = (uint8_t)v;
                dist[n++] = (uint8_t)(d > 255 ? 255 : d);
            }
    order_by_dist(dist, n, order);
    b->n = (uint8_t)n;
    for (int j = 0; j < n; j++) {
        b->cell[j] = cell[order[j]];
        b->vertical[j] = vertical[order[j]];
        b->dist[j] = dist[order[j]];
    }
}

/* The enhanced transposition cutoff, child by child: with want set
 * (nonzero), each child is looked up as soon as it is made, and a child
 * whose parts are all known is done and removes its nimber from *p (the
 * largest element when its nimber is not in *p). Once *p holds nothing
 * wanted the node is cut, and the children not made yet never are: that
 * is the same cut the whole list would give (*p only shrinks), made
 * before most of the listing in most cut nodes, where the listing (split
 * and canonical form of every child) is most of a node's cost. */
static inline int etc_cuts(cram_worker *w, cram_child *c, nimset want, nimset *p)
{
    resolve(w, c);
    if (c->nparts)
        return 0;
    c->done = 1;
    int v = c->known;
    *p &= ns_has(*p, v) ? ~ns_bit(v) : ~ns_bit(ns_max(*p));
    return !(*p & want);
}

/* The cutoff looks a child up ETC_LAG children after making it, so that
 * the table's bucket, fetched when the child's parts were made
 * (add_part), has arrived: looked up at once, two loads in three of the
 * search waited on memory. */
#define ETC_LAG 2

/* The cutoff for the last ETC_LAG of the n children made, the i-th made
 * at ch[made[i]] (at ch[i] when made is NULL); returns n, or -1 when it
 * ended the node. */
static inline int etc_rest(cram_worker *w, cram_child *ch, const uint8_t *made, int n, nimset want,
                           nimset *p)
{
    if (want)
        for (int i = n > ETC_LAG ? n - ETC_LAG : 0; i < n; i++)
            if (etc_cuts(w, &ch[made ? made[i] : i], want, p))
                return -1;
    return n;
}

/* The children of the wide part x (its canonical form) in ch, their wide
 * parts' forms in keys; returns how many, or -1 when the cutoff (want
 * nonzero: see etc_cuts) ended the node. *p is set to {0..moves}. Made
 * nearest the centre first, as children() makes a part's (no box table
 * here: wide parts are few), each at its place in the cells' order. */
static int wide_children(cram_worker *w, cram_wset x, cram_child *ch, cram_wset (*keys)[CHILD_PARTS],
                         nimset want, nimset *p)
{
    const cram_solver *s = w->s;
    w->stats.wide_expanded++;
    const int st = s->wg.stride;
    int h = cram_whighest(x) / st + 1, width = 0;
    for (int j = 0; j < st; j++)
        if (x & s->wg.col[j])
            width = j + 1;
    const cram_wset hm = cram_wide_hmoves(&s->wg, x), vm = cram_wide_vmoves(&s->wg, x);
    const int nh = cram_wpopcount(hm), n = nh + cram_wpopcount(vm);
    *p = ns_upto(n);
    /* each move's cell and distance at its slot, then the slots ordered
     * by distance */
    uint8_t cell[MAX_MOVES], dist[MAX_MOVES], order[MAX_MOVES];
    int k = 0;
    for (int v = 0; v < 2; v++)
        for (cram_wset m = v ? vm : hm; m; m &= m - 1) {
            const int i = cram_wlowest(m);
            const int d = v ? centre_dist(2 * (i / st) + 1, 2 * (i % st), h, width)
                            : centre_dist(2 * (i / st), 2 * (i % st) + 1, h, width);
            cell[k] = (uint8_t)i;
            dist[k++] = (uint8_t)(d > 255 ? 255 : d);
        }
    order_by_dist(dist, n, order);
    for (k = 0; k < n; k++) {
        const int slot = order[k], i = cell[slot];
        make_wide_child(w, x, cram_wbit(i) | cram_wbit(slot < nh ? i + 1 : i + st), &ch[slot],
                        keys[slot]);
        ch[slot].dist = dist[slot];
        if (k + 1 > ETC_LAG && want && etc_cuts(w, &ch[order[k - ETC_LAG]], want, p))
            return -1;
    }
    return etc_rest(w, ch, order, n, want, p);
}

/* List the children of x in ch (one of the worker's plies); returns how
 * many, or -1 when the cutoff (want nonzero: see etc_cuts) ended the
 * node. *p is set to {0..moves}, less what the cutoff removed. */
static int children(cram_worker *w, uint64_t x, cram_child *ch, nimset want, nimset *p)
{
    const cram_solver *s = w->s;
    w->stats.expanded++;
    if (is_wide(s, x))
        return wide_children(w, wide_key(x), ch, w->wide_key[(ch - w->ply[0]) / MAX_MOVES], want, p);
    const int st = s->g.stride;
    int h = s->g.row_of[63 - __builtin_clzll(x)] + 1, width = 0;
    for (int j = 0; j < st; j++)
        if (x & s->g.col[j])
            width = j + 1;
    uint64_t hm = cram_hmoves(&s->g, x), vm = cram_vmoves(&s->g, x);
    const int nh = __builtin_popcountll(hm), n = nh + __builtin_popcountll(vm);
    *p = ns_upto(n);
    /* made in the box's order (box_moves), each at its place in the
     * order of the cells: the horizontal dominoes, then the vertical */
    const box_moves *b = &s->boxes[(h - 1) * st + (width - 1)];
    uint8_t made[MAX_MOVES];
    int k = 0;
    for (int j = 0; k < n; j++) {
        assert(j < b->n);
        const int v = b->vertical[j];
        const uint64_t bit = 1ULL << b->cell[j], below = bit - 1;
        if (!((v ? vm : hm) & bit))
            continue;
        const int slot = v ? nh + __builtin_popcountll(vm & below) : __builtin_popcountll(hm & below);
        make_child(w, x, b->cell[j], v, &ch[slot]);
        ch[slot].dist = b->dist[j];
        made[k++] = (uint8_t)slot;
        if (k > ETC_LAG && want && etc_cuts(w, &ch[made[k - 1 - ETC_LAG]], want, p))
            return -1;
    }
    return etc_rest(w, ch, made, n, want, p);
}

/* ---- progress and stopping ---- */

/* The nodes of every worker (read while they run: a report may be a few
 * nodes behind). */
static uint64_t all_nodes(const cram_solver *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->nworkers; i++)
        n += __atomic_load_n(&s->workers[i].stats.nodes, __ATOMIC_RELAXED);
    return n;
}

/* The progress line; t is the seconds of every solve of this solver so
 * far, as the nodes are theirs (a certificate's or the moves' searches
 * come after the position's). */
static void report_progress(cram_solver *s, double t)
{
    uint64_t nodes = all_nodes(s);
    fprintf(stderr, "cram %dx%d: %.0f s, %.1f M nodes (%.2f M/s), tt %.0f MB%s %.0f%% full", s->rows,
            s->cols, t, nodes / 1e6, t > 0 ? nodes / t / 1e6 : 0.0, s->tt.bytes / 1048576.0,
            s->tt.held ? " (held there: memory is short)" : "", 100.0 * cram_tt_fill(&s->tt));
    if (s->wtt)
        fprintf(stderr, ", wide parts' tt %.0f MB %.0f%% full", cram_wide_tt_bytes(s->wtt) / 1048576.0,
                100.0 * cram_wide_tt_fill(s->wtt));
    if (s->opt.method == CRAM_ASPIRATION)
        fprintf(stderr, ", trying nimber %d", s->trial);
    if (s->root_moves) {
        fprintf(stderr, ", root move%s", s->nworkers > 1 ? "s" : "");
        for (int i = 0; i < s->nworkers; i++)
            fprintf(stderr, "%s%d", i ? ", " : " ",
                    __atomic_load_n(&s->workers[i].root_move, __ATOMIC_RELAXED));
        fprintf(stderr, " of %d", s->root_moves);
    }
    fputc('\n', stderr);
}

static int contradiction(cram_worker *w);

/* Called every few thousand nodes of a worker. The progress line and the
 * hook run in one worker at a time. */
static void poll(cram_worker *w)
{
    cram_solver *s = w->s;
    /* a search that goes on from a false entry spends hours on nothing;
     * and a signal must not hide it (the table would be saved) */
    if (tt_conflicts(s)) {
        contradiction(w);
        return;
    }
    if (rdb_stop_requested) {
        w->stopped = 1;
        w->fail = rdb_fail(&w->err, RDB_E_STOPPED, "stopped by a signal");
        return;
    }
    if (!s->opt.progress && !s->hook)
        return;
    if (__atomic_exchange_n(&s->polling, 1, __ATOMIC_ACQUIRE))
        return;
    double now = rdb_now();
    if (s->opt.progress && now - s->last_report >= PROGRESS_SECONDS) {
        s->last_report = now;
        report_progress(s, s->stats.seconds + (now - s->start));
    }
    if (s->hook && now - s->last_hook >= s->hook_every) {
        s->hook(s, s->hook_ctx);
        s->last_hook = rdb_now();
    }
    __atomic_store_n(&s->polling, 0, __ATOMIC_RELEASE);
}

void cram_solver_set_hook(cram_solver *s, double every, void (*hook)(cram_solver *, void *), void *ctx)
{
    s->hook = hook;
    s->hook_ctx = ctx;
    s->hook_every = every;
    s->last_hook = rdb_now();
}

/* A shared table grows while no worker probes it: the first worker to see
 * it due waits until every other active worker has parked here (all do at
 * their next node, where none holds a bucket or a pointer into the table),
 * maps the bigger table, and then every worker, parked ones too, moves
 * chunks of the old buckets until none is left. Moving with one thread
 * while the others waited took 3x20 about 10 s of both cores at its
 * doubling to 4 GB, 4x13 25 s at 8 GB (much of it the kernel clearing the
 * new pages, which the threads now share too). */
#define GROW_CHUNKS 256

/* Move chunks of the old table's buckets while any is left. A chunk is
 * claimed by a counter that a growth resets only after it has mapped its
 * tables, and that stays exhausted in between, so a late claim finds no
 * chunk or a chunk of the growth under way. */
static void move_chunks(cram_solver *s)
{
    for (;;) {
        unsigned c = __atomic_fetch_add(&s->grow_next, 1, __ATOMIC_ACQ_REL);
        if (c >= GROW_CHUNKS)
            return;
        uint64_t n = s->grow_from.nbuckets;
        cram_tt_grow_move(&s->tt, &s->grow_from, n * c / GROW_CHUNKS, n * (c + 1) / GROW_CHUNKS);
        __atomic_fetch_add(&s->grow_done, 1, __ATOMIC_ACQ_REL);
    }
}

static void wait_for_growth(cram_solver *s)
{
    __atomic_fetch_add(&s->parked, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&s->growing, __ATOMIC_SEQ_CST))
        if (__atomic_load_n(&s->grow_next, __ATOMIC_ACQUIRE) < GROW_CHUNKS)
            move_chunks(s);
        else
            sched_yield();
    __atomic_fetch_sub(&s->parked, 1, __ATOMIC_SEQ_CST);
}

static void grow_table(cram_solver *s)
{
    if (__atomic_exchange_n(&s->growing, 1, __ATOMIC_SEQ_CST)) {
        wait_for_growth(s);
        return;
    }
    while (__atomic_load_n(&s->parked, __ATOMIC_SEQ_CST) <
           __atomic_load_n(&s->active, __ATOMIC_SEQ_CST) - 1)
        sched_yield();
    if (cram_tt_grow_begin(&s->tt, &s->grow_from) == CRAM_TT_GROW_MOVE) {
        __atomic_store_n(&s->grow_done, 0, __ATOMIC_SEQ_CST);
        __atomic_store_n(&s->grow_next, 0, __ATOMIC_SEQ_CST);
        move_chunks(s);
        while (__atomic_load_n(&s->grow_done, __ATOMIC_SEQ_CST) < GROW_CHUNKS)
            sched_yield();
        cram_tt_grow_end(&s->tt, &s->grow_from);
    }
    __atomic_store_n(&s->tt.want_grow, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&s->growing, 0, __ATOMIC_SEQ_CST);
}

/* Counts a node; 0 when the worker must unwind: stopped, its trial at the
 * root already decided by another worker, or its root child answered by
 * another worker. */
static inline int count_node(cram_worker *w)
{
    if (__atomic_load_n(&w->s->tt.want_grow, __ATOMIC_RELAXED))
        grow_table(w->s);
    if ((++w->stats.nodes & POLL_MASK) == 0)
        poll(w);
    return !w->stopped && !__atomic_load_n(&w->s->trial_over, __ATOMIC_RELAXED) &&
           !(w->quit && __atomic_load_n(w->quit, __ATOMIC_RELAXED));
}

/* log2 of the nodes a result cost, the replacement priority. */
static inline int work_since(cram_worker *w, uint64_t nodes_before)
{
    uint64_t n = w->stats.nodes - nodes_before + 1;
    return 64 - __builtin_clzll(n);
}

/* ---- plain: mex from the definition ---- */

static int plain(cram_worker *w, uint64_t x, int ply)
{
    cram_solver *s = w->s;
    if (!count_node(w))
        return STOPPED;
    uint64_t before = w->stats.nodes;
    cram_child *ch = w->ply[ply];
    nimset all;
    int n = children(w, x, ch, 0, &all);
    nimset seen = 0;
    for (int i = 0; i < n; i++) {
        int v = ch[i].known;
        for (int j = 0; j < ch[i].nparts; j++) {
            int p = known(w, ch[i].part[j]);
            if (p < 0)
                p = plain(w, ch[i].part[j], ply + 1);
            if (p == STOPPED)
                return STOPPED;
            v ^= p;
        }
        seen |= ns_bit(v);
    }
    int result = ns_min(~seen);
    tt_put(s, x, result, work_since(w, before));
    return result;
}

/* The table holds a result that is not true, which only what the run read
 * can bring in: a table file (its entries are checked for form when
 * loaded, not solved again) above all, or a wrong line of the ledger or a
 * damaged nimber table that a search built on. A search asked for every
 * nimber found none, or a result of the search disagreed with an entry.
 * Stop with an error rather than answer. The ledger's lines may rest on
 * the wrong entry too. */
static int contradiction(cram_worker *w)
{
    w->fail = rdb_fail(&w->err, RDB_E_CORRUPT,
                       "the transposition table contradicts itself: a --tt-file or --tt-digest holds a wrong entry "
                       "(or a --ledger line, or a --db table, is wrong); solve without them, and with a new "
                       "--ledger (its lines may rest on the wrong entry)");
    w->stopped = 1;
    return STOPPED;
}

/* ---- the cut methods ---- */

static int cut(cram_worker *w, uint64_t x, nimset want, int ply);

/* Nimber of a child if it is in `want`; otherwise the nimber or -1. */
static int child_value(cram_worker *w, cram_child *c, nimset want, int ply)
{
    resolve(w, c);
    int x = c->known;
    if (c->nparts == 0)
        return x;
    /* the largest part last: it alone is searched with a wanted set */
    for (int i = 1; i < c->nparts; i++)
        for (int j = i; j > 0 && part_cells(w->s, c->part[j]) < part_cells(w->s, c->part[j - 1]); j--) {
            uint64_t t = c->part[j];
            c->part[j] = c->part[j - 1];
            c->part[j - 1] = t;
        }
    int last = c->nparts - 1;
    for (int j = 0; j < last; j++) {
        int v = known(w, c->part[j]);
        if (v < 0)
            v = cut(w, c->part[j], ALL_NIMBERS, ply);
        if (v == STOPPED)
            return STOPPED;
        if (v < 0)
            return contradiction(w);
        x ^= v;
    }
    int v = known(w, c->part[last]);
    if (v < 0)
        v = cut(w, c->part[last], ns_xor(want, x), ply);
    return v < 0 ? v : v ^ x;
}

/* Whether child a is searched before child b: the cheaper first (the
 * smaller largest part), since a cheap child that removes a wanted nimber
 * from P may end the node before the dear ones are looked at; among equals
 * the move nearer the centre, whose parts tend to be balanced and often
 * equal, so that their values cancel. The tie-break alone takes 5x8 from
 * 9.0 M nodes to 2.1 M, 5x7 from 1.48 M to 0.40 M. */
static inline int child_before(const cram_child *a, const cram_child *b)
{
    return a->size < b->size || (a->size == b->size && a->dist < b->dist);
}

/* Order in which the children are searched (see child_before). */
static void order_children(const cram_child *ch, int n, uint8_t *order)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!ch[i].done)
            order[k++] = (uint8_t)i;
    for (int i = 1; i < k; i++) {
        uint8_t t = order[i];
        int j = i;
        for (; j > 0 && child_before(&ch[t], &ch[order[j - 1]]); j--)
            order[j] = order[j - 1];
        order[j] = t;
    }
}

/* Remember that x's nimber is in none of `excluded` (the table keeps the
 * nimbers below CRAM_TT_EXCLUDED_BITS). */
static void exclude(cram_worker *w, uint64_t x, nimset excluded, uint64_t nodes_before)
{
    cram_solver *s = w->s;
    unsigned low = (unsigned)(uint64_t)excluded & ((1u << CRAM_TT_EXCLUDED_BITS) - 1);
    if (low)
        tt_exclude(s, x, low, work_since(w, nodes_before));
}

static int cut(cram_worker *w, uint64_t x, nimset want, int ply)
{
    cram_solver *s = w->s;
    if (!count_node(w))
        return STOPPED;
    /* Nimbers an earlier search has ruled out need no asking again. */
    unsigned ruled_out = tt_excluded(s, x);
    if (ruled_out) {
        want &= ~(nimset)ruled_out;
        if (!want) {
            w->stats.tt_hits++;
            return -1;
        }
    }
    const cram_method m = s->opt.method;
    const int capped = m >= CRAM_SET_CUTS;
    uint64_t before = w->stats.nodes;
    cram_child *ch = w->ply[ply];
    nimset p;
    int n = children(w, x, ch, m >= CRAM_ETC ? want : 0, &p);
    if (n < 0) {
        w->stats.cuts++;
        exclude(w, x, want, before);
        return -1;
    }
    int exact = 1, want_max = ns_max(want);
    nimset cap = ns_upto(want_max);
    if (ply == 0)
        s->root_moves = n;

    uint8_t order[MAX_MOVES];
    int k = 0;
    if (s->opt.board_order) {
        for (int i = 0; i < n; i++)
            if (!ch[i].done)
                order[k++] = (uint8_t)i;
    } else {
        order_children(ch, n, order);
        for (int i = 0; i < n; i++)
            k += !ch[i].done;
    }
    /* A helper searches the root child's moves from the other end, so that
     * the two searches of one child meet in the middle (and fill the table
     * for each other) rather than repeat each other. */
    if (ply == 1 && w->helper)
        for (int i = 0, j = k - 1; i < j; i++, j--) {
            uint8_t t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    for (int o = 0; o < k; o++) {
        if (!(p & want)) {
            w->stats.cuts++;
            exclude(w, x, want, before);
            return -1;
        }
        if (ply == 0)
            w->root_move = o + 1;
        int top = ns_max(p);
        nimset child_want = p & ~ns_bit(top);
        if (capped)
            child_want &= cap;
        int v = child_value(w, &ch[order[o]], child_want, ply + 1);
        if (v == STOPPED)
            return STOPPED;
        if (v >= 0 && ns_has(p, v)) {
            p &= ~ns_bit(v);
        } else {
            p &= ~ns_bit(top);
            if (v < 0 && capped)
                exact = 0;
        }
    }
    assert(p != 0 && (p & (p - 1)) == 0);
    int result = ns_min(p);
    if (exact || result <= want_max) {
        tt_put(s, x, result, work_since(w, before));
        return result;
    }
    /* P is right up to max(R) and holds nothing there: the nimber is
     * larger than anything wanted. */
    exclude(w, x, cap, before);
    return -1;
}

/* ---- the root ---- */

/* Nimber of a sum of canonical components if it is in want (else the
 * nimber or -1), the largest component searched last with the set. */
static int sum_value(cram_worker *w, const uint64_t *comp, int n, nimset want)
{
    const cram_solver *s = w->s;
    cram_child c;
    int x = 0, k = 0;
    for (int i = 0; i < n; i++) {
        if (part_cells(s, comp[i]) <= 3) {
            x ^= 1;
            continue;
        }
        if (k == CHILD_PARTS) {
            /* More parts than a child holds: value the extra ones now. */
            int v = known(w, comp[i]);
            if (v < 0)
                v = s->opt.method == CRAM_PLAIN ? plain(w, comp[i], 0) : cut(w, comp[i], ALL_NIMBERS, 0);
            if (v == STOPPED)
                return STOPPED;
            x ^= v;
            continue;
        }
        c.part[k++] = comp[i];
    }
    c.nparts = (uint8_t)k;
    c.known = (uint8_t)x;
    c.done = 0;
    if (s->opt.method == CRAM_PLAIN) {
        for (int j = 0; j < k; j++) {
            int v = known(w, c.part[j]);
            if (v < 0)
                v = plain(w, c.part[j], 0);
            if (v == STOPPED)
                return STOPPED;
            x ^= v;
        }
        return x;
    }
    return child_value(w, &c, want, 0);
}

/* ---- the ledger: the root's answers, kept across runs ---- */

/* The board cell (row, column) of the layout's cell i. */
static void board_cell(const cram_solver *s, int i, uint8_t *rc)
{
    const int r = i / s->g.stride, c = i % s->g.stride;
    rc[0] = (uint8_t)(s->transposed ? c : r);
    rc[1] = (uint8_t)(s->transposed ? r : c);
}

/* The moves of the root x's n children, at their slots (children()'s
 * order: the dominoes along the layout's rows by cell, then the others),
 * as board cells in s->root_cell; x as the ledger keys it in
 * s->ledger_root. */
static void root_moves(cram_solver *s, uint64_t x, int n)
{
    const int wide = is_wide(s, x);
    const cram_wset key = wide ? wide_key(x) : x;
    const cram_wset hm = wide ? cram_wide_hmoves(&s->wg, key) : cram_hmoves(&s->g, x);
    const cram_wset vm = wide ? cram_wide_vmoves(&s->wg, key) : cram_vmoves(&s->g, x);
    int slot = 0;
    for (int v = 0; v < 2; v++)
        for (cram_wset m = v ? vm : hm; m; m &= m - 1) {
            const int i = cram_wlowest(m);
            assert(slot < n);
            board_cell(s, i, s->root_cell[slot][0]);
            board_cell(s, v ? i + s->g.stride : i + 1, s->root_cell[slot][1]);
            slot++;
        }
    assert(slot == n);
    s->ledger_root = key;
}

/* The slot of the root's child whose move covers the cells of e, or -1. */
static int ledger_slot(const cram_solver *s, const cram_ledger_entry *e, int n)
{
    for (int i = 0; i < n; i++) {
        const uint8_t(*c)[2] = s->root_cell[i];
        const int same = memcmp(c[0], e->cell[0], 2) == 0 && memcmp(c[1], e->cell[1], 2) == 0;
        const int swapped = memcmp(c[0], e->cell[1], 2) == 0 && memcmp(c[1], e->cell[0], 2) == 0;
        if (same || swapped)
            return i;
    }
    return -1;
}

static int ledger_fails(cram_worker *w, const cram_ledger_entry *e, const char *why)
{
    if (e->lineno == 0) /* a line this process added */
        w->fail = rdb_fail(&w->err, RDB_E_CORRUPT, "%s, a line added by this run: %s", w->s->ledger->path, why);
    else
        w->fail = rdb_fail(&w->err, RDB_E_CORRUPT, "%s:%d: %s", w->s->ledger->path, e->lineno, why);
    w->stopped = 1;
    return -1;
}

static void to_ledger(cram_worker *w, int slot, int r, int v, uint64_t nodes, double seconds);

/* What the ledger knows of the n children of the root x: a child of known
 * nimber is done (that nimber goes into *seen), and not[slot] gets the
 * nimbers a child is known not to have; a child the table knows and the
 * ledger does not is added to it. Returns 0, or -1 (the worker stopped
 * with the error) when a line names a move the root does not have or
 * contradicts another line or the search, or the ledger cannot be
 * appended to. */
static int from_ledger(cram_worker *w, uint64_t x, cram_child *ch, int n, nimset *seen, nimset *not)
{
    cram_solver *s = w->s;
    int exact[MAX_MOVES];
    const cram_ledger_entry *said[MAX_MOVES] = {0};
    for (int i = 0; i < n; i++)
        exact[i] = -1, not[i] = 0;
    if (!s->ledger)
        return 0;
    root_moves(s, x, n);
    for (int j = 0; j < s->ledger->n; j++) {
        const cram_ledger_entry *e = &s->ledger->entry[j];
        if (e->root != s->ledger_root)
            continue;
        const int i = ledger_slot(s, e, n);
        if (i < 0)
            return ledger_fails(w, e, "the root has no such move");
        if (!e->is)
            not[i] |= ns_bit(e->value);
        else if (exact[i] >= 0 && exact[i] != e->value)
            return ledger_fails(w, e, "another line gives this move another nimber");
        else
            exact[i] = e->value, said[i] = e;
    }
    for (int i = 0; i < n; i++) {
        if (exact[i] < 0) {
            /* A child the table knew at once is not asked, so no trial
             * writes its nimber down: do it here, since a run on another
             * machine may have to search it. */
            if (ch[i].done && ch[i].nparts == 0)
                to_ledger(w, i, ch[i].known, ch[i].known, 0, 0.0);
            continue;
        }
        if (ns_has(not[i], exact[i]) || (ch[i].done && ch[i].nparts == 0 && ch[i].known != exact[i]))
            return ledger_fails(w, said[i], "this nimber contradicts another line or the search");
        if (!ch[i].done) {
            ch[i].done = 1;
            *seen |= ns_bit(exact[i]);
            w->stats.from_ledger++;
        }
    }
    return w->stopped ? -1 : 0;
}

/* Append to the ledger the answer v (the child's nimber, or -1: not r) of
 * the root's child at slot to "is it r?", found in nodes and seconds; no
 * answer (STOPPED), nothing. A failed append stops the search: what it
 * proves from there on would not survive it. */
static void to_ledger(cram_worker *w, int slot, int r, int v, uint64_t nodes, double seconds)
{
    cram_solver *s = w->s;
    if (!s->ledger || v == STOPPED)
        return;
    cram_ledger_entry e = {.root = s->ledger_root, .is = v >= 0, .value = v >= 0 ? v : r,
                           .nodes = nodes, .seconds = seconds};
    memcpy(e.cell, s->root_cell[slot], sizeof e.cell);
    rdb_status st = cram_ledger_add(s->ledger, &e, &w->err);
    if (st != RDB_OK) {
        w->fail = st;
        w->stopped = 1;
    } else {
        w->stats.to_ledger++;
    }
}

void cram_solver_set_ledger(cram_solver *s, cram_ledger *l)
{
    s->ledger = l;
}

/* ---- aspiration: the root asks "is it r?" for r = 0, 1, ... ---- */

/* The answers of the children order[0..k) of the root to "is it r?", in
 * res (STOPPED where no answer came), asked in order by one worker until
 * one has nimber r. */
static void ask_in_order(cram_worker *w, cram_child *ch, const uint8_t *order, int k, int r, int *res)
{
    for (int o = 0; o < k; o++)
        res[o] = STOPPED;
    for (int o = 0; o < k; o++) {
        w->root_move = o + 1;
        const uint64_t nodes = w->stats.nodes;
        const double t0 = rdb_now();
        res[o] = child_value(w, &ch[order[o]], ns_bit(r), 1);
        to_ledger(w, order[o], r, res[o], w->stats.nodes - nodes, rdb_now() - t0);
        if (res[o] == r || w->stopped)
            return;
    }
}

/* The same, the children shared out between the workers: the even ones
 * take the next child from the front of the order, the odd ones from the
 * back, and when one finds a child of nimber r the others give up their
 * child, whose answer no longer matters (what their searches stored is
 * true all the same). Neighbours in the order share most of their
 * positions, so two workers on neighbours do the same work twice
 * (measured: 1.8 times the nodes, no faster), while the two ends share
 * little and each fills the table for the other: 3x17 took 2.99 M
 * positions expanded with two workers against 4.14 M with one.
 *
 * A worker that finds no child left to take helps with a child another
 * worker is still searching (the one with the fewest searchers), asking
 * it the same question with the child's moves in the opposite order; the
 * first answer counts and the other searchers of that child give up.
 * Without it, a trial's last, dearest child kept one core idle for as
 * long as it took. Every worker searches a copy of the child, since the
 * search rewrites the parts it resolves. */
static void ask_children(cram_solver *s, const cram_child *ch, const uint8_t *order, int k, int r,
                         int *res)
{
    int lo = 0, hi = k - 1;
    int searchers[MAX_MOVES] = {0}, answered[MAX_MOVES] = {0};
    for (int o = 0; o < k; o++)
        res[o] = STOPPED;
    s->trial_over = 0;
#pragma omp parallel num_threads(s->nworkers)
    {
        int id = omp_get_thread_num();
        cram_worker *w = &s->workers[id];
        /* joining: a growth under way must count this worker */
        __atomic_fetch_add(&s->active, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&s->growing, __ATOMIC_SEQ_CST))
            wait_for_growth(s);
        for (;;) {
            int o = -1, helper = 0;
#pragma omp critical(cram_root_claim)
            {
                if (lo <= hi) {
                    o = id % 2 ? hi-- : lo++;
                } else {
                    for (int i = 0; i < k; i++)
                        if (searchers[i] && !answered[i] && (o < 0 || searchers[i] < searchers[o]))
                            o = i;
                    if (o >= 0)
                        helper = searchers[o];
                }
                if (o >= 0)
                    searchers[o]++;
            }
            if (o < 0 || __atomic_load_n(&s->trial_over, __ATOMIC_RELAXED))
                break;
            w->stats.helped += helper > 0;
            __atomic_store_n(&w->root_move, o + 1, __ATOMIC_RELAXED);
            cram_child c = ch[order[o]];
            w->quit = &answered[o];
            w->helper = helper;
            const uint64_t nodes = w->stats.nodes;
            const double t0 = rdb_now();
            int v = child_value(w, &c, ns_bit(r), 1);
            w->quit = NULL;
            w->helper = 0;
#pragma omp critical(cram_root_claim)
            {
                searchers[o]--;
                if (v != STOPPED && !answered[o]) {
                    res[o] = v;
                    w->stats.helper_first += helper > 0;
                    __atomic_store_n(&answered[o], 1, __ATOMIC_RELAXED);
                    to_ledger(w, order[o], r, v, w->stats.nodes - nodes, rdb_now() - t0);
                }
            }
            if (v == r || w->stopped)
                __atomic_store_n(&s->trial_over, 1, __ATOMIC_RELAXED);
        }
        __atomic_fetch_sub(&s->active, 1, __ATOMIC_SEQ_CST);
    }
    s->trial_over = 0;
}

/* The parts of c (their canonical forms: a wide part has a cell where no
 * part of g has one) in increasing order, in sorted (c->nparts of them). */
static void sorted_parts(const cram_solver *s, const cram_child *c, cram_wset *sorted)
{
    for (int i = 0; i < c->nparts; i++) {
        cram_wset key = is_wide(s, c->part[i]) ? wide_key(c->part[i]) : c->part[i];
        int j = i;
        for (; j > 0 && sorted[j - 1] > key; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = key;
    }
}

/* Mark done every child of the root that is the same sum as an earlier
 * one (the same known nimber and the same canonical parts): the mirror
 * images of a move, mostly, which a symmetric board has two or four of.
 * The nimber is the mex of the set of the children's nimbers, so a twin
 * adds nothing; asked anyway, it is answered by the table, but two workers
 * that take twins at the same time would search the same position twice
 * (twins are neighbours in the order: same size, same distance from the
 * centre). */
static void drop_twins(cram_worker *w, cram_child *ch, int n)
{
    cram_wset key[MAX_MOVES][CHILD_PARTS];
    for (int i = 0; i < n; i++) {
        if (ch[i].done)
            continue;
        sorted_parts(w->s, &ch[i], key[i]);
        for (int j = 0; j < i; j++)
            if (!ch[j].done && ch[j].known == ch[i].known && ch[j].nparts == ch[i].nparts &&
                memcmp(key[j], key[i], ch[i].nparts * sizeof key[i][0]) == 0) {
                ch[i].done = 1;
                w->stats.twins++;
                break;
            }
    }
}

/* Nimber of the canonical component x, searched as the root: its
 * children are listed once, and for each candidate r in turn every child
 * still unvalued is asked only whether its nimber is r. The first r no
 * child has is the nimber (every smaller one was found in a child). A
 * child that answers with its exact nimber leaves the list, and that
 * nimber needs no trial of its own. With skip_zero the trial of 0 is left
 * out (the empty board of a first-player win). One worker asks the
 * children in order and stops at the first of nimber r (ask_in_order);
 * several share them out (ask_children). */
static int aspire(cram_worker *w, uint64_t x, int skip_zero)
{
    cram_solver *s = w->s;
    int v = known(w, x);
    if (v >= 0)
        return v;
    if (!count_node(w))
        return STOPPED;
    uint64_t before = w->stats.nodes;
    cram_child *ch = w->ply[0];
    nimset all;
    int n = children(w, x, ch, 0, &all);
    nimset seen = 0; /* nimbers some child has */
    for (int i = 0; i < n; i++) {
        resolve(w, &ch[i]);
        if (ch[i].nparts == 0) {
            ch[i].done = 1;
            seen |= ns_bit(ch[i].known);
        }
    }
    drop_twins(w, ch, n);
    /* after drop_twins, which compares only children not done yet: the
     * ledger's answers would leave their twins in */
    nimset not[MAX_MOVES]; /* nimbers the ledger rules out, by slot */
    if (from_ledger(w, x, ch, n, &seen, not) < 0)
        return STOPPED;
    uint8_t order[MAX_MOVES];
    int res[MAX_MOVES];
    order_children(ch, n, order);
    int k = 0;
    for (int i = 0; i < n; i++)
        k += !ch[i].done;
    for (int r = skip_zero; r <= n; r++) {
        s->trial = r;
        if (ns_has(seen, r))
            continue;
        /* the children the ledger says are not r go unasked */
        uint8_t ask[MAX_MOVES];
        int at[MAX_MOVES], got[MAX_MOVES], m = 0;
        for (int o = 0; o < k; o++) {
            if (ns_has(not[order[o]], r)) {
                res[o] = -1;
                w->stats.from_ledger++;
            } else {
                ask[m] = order[o];
                at[m++] = o;
            }
        }
        /* the progress line's "root move i of m": of those this trial asks */
        s->root_moves = m;
        if (s->nworkers > 1)
            ask_children(s, ch, ask, m, r, got);
        else
            ask_in_order(w, ch, ask, m, r, got);
        for (int j = 0; j < m; j++)
            res[at[j]] = got[j];
        for (int i = 0; i < s->nworkers; i++)
            if (s->workers[i].stopped)
                return STOPPED;
        /* drop the children that answered, keeping the order */
        int found = 0, kept = 0;
        for (int o = 0; o < k; o++) {
            if (res[o] >= 0) {
                seen |= ns_bit(res[o]);
                found |= res[o] == r;
            } else {
                order[kept++] = order[o];
            }
        }
        k = kept;
        if (!found) {
            tt_put(s, x, r, work_since(w, before));
            return r;
        }
    }
    /* n children cannot hold all of 0..n */
    return contradiction(w);
}

/* Nimber of a sum of canonical components, each searched by aspire. */
static int aspire_sum(cram_worker *w, const uint64_t *comp, int n, int skip_zero)
{
    int x = 0;
    for (int i = 0; i < n; i++) {
        int v = part_cells(w->s, comp[i]) <= 3 ? 1 : aspire(w, comp[i], skip_zero && n == 1);
        if (v == STOPPED)
            return STOPPED;
        x ^= v;
    }
    return x;
}

/* A whole board's parts: at most one for every two of its 128 cells. */
#define ROOT_PARTS 64

/* The parts of the free cells in the layout that fits the board:
 * canonical components, reduced when they fit g; *zeros counts the parts
 * the mirror rule leaves out. */
static int wide_board_parts(cram_solver *s, cram_wset x, uint64_t *comp, uint64_t *zeros)
{
    cram_wset whole[ROOT_PARTS];
    int n = cram_wide_split(&s->wg, x, whole, ROOT_PARTS), k = 0, nkeys = 0;
    for (int i = 0; i < n; i++) {
        int zero = 0;
        if (cram_wide_rows(&s->wg, whole[i]) > s->g.height) {
            cram_wset key = cram_wide_canonical(&s->wg, whole[i], NULL, NULL, s->opt.no_mirror ? NULL : &zero);
            if (zero) {
                (*zeros)++;
            } else {
                s->root_key[nkeys] = key;
                comp[k++] = wide_part(&s->root_key[nkeys++]);
            }
            continue;
        }
        uint64_t sub[CRAM_MAX_COMPONENTS];
        int m = cram_split_reduced(&s->g, cram_wide_to_narrow(&s->wg, whole[i]), sub);
        for (int j = 0; j < m; j++) {
            comp[k] = s->opt.no_mirror ? cram_canonical(&s->g, sub[j], NULL, NULL)
                                       : cram_canonical_zero(&s->g, sub[j], NULL, NULL, &zero);
            if (zero)
                (*zeros)++;
            else
                k++;
        }
    }
    return k;
}

/* The board cell (r * cols + c) in the layout: the same, or transposed
 * when the layout runs the board's long side down. */
static int layout_cell(const cram_solver *s, int cell)
{
    return s->transposed ? (cell % s->cols) * s->rows + cell / s->cols : cell;
}

/* Dominoes free in a part. */
static int part_dominoes(const cram_solver *s, uint64_t p)
{
    if (is_wide(s, p)) {
        const cram_wset key = wide_key(p);
        return cram_wpopcount(cram_wide_hmoves(&s->wg, key)) + cram_wpopcount(cram_wide_vmoves(&s->wg, key));
    }
    return __builtin_popcountll(cram_hmoves(&s->g, p)) + __builtin_popcountll(cram_vmoves(&s->g, p));
}

/* Dominoes free in a set of the layout. */
static int layout_dominoes(const cram_solver *s, cram_wset x)
{
    if (s->wide)
        return cram_wpopcount(cram_wide_hmoves(&s->wg, x)) + cram_wpopcount(cram_wide_vmoves(&s->wg, x));
    return __builtin_popcountll(cram_hmoves(&s->g, (uint64_t)x)) +
           __builtin_popcountll(cram_vmoves(&s->g, (uint64_t)x));
}

/* The free cells of the board as canonical components of the layout, in
 * comp (ROOT_PARTS entries); returns how many, or -1 (with err) when
 * cells lie off the board or the parts left to search have more than
 * MAX_BOARD_MOVES dominoes (the root's moves and the nimber sets hold no
 * more: the board itself may have more, 8x16 has 232). *zeros counts the
 * parts the mirror rule leaves out. The layout's set of the free cells
 * goes to *layout. */
static int board_components(cram_solver *s, cram_wset free_cells, uint64_t *comp, uint64_t *zeros,
                            cram_wset *layout, rdb_error *err)
{
    int ncells = s->rows * s->cols;
    cram_wset board = ncells == 128 ? ~(cram_wset)0 : cram_wbit(ncells) - 1;
    if (free_cells & ~board) {
        rdb_fail(err, RDB_E_INPUT, "free cells outside the %dx%d board", s->rows, s->cols);
        return -1;
    }
    cram_wset x = 0;
    for (cram_wset y = free_cells; y; y &= y - 1)
        x |= cram_wbit(layout_cell(s, cram_wlowest(y)));
    *layout = x;
    int k = 0;
    if (s->wide) {
        k = wide_board_parts(s, x, comp, zeros);
    } else {
        const int n = cram_split_reduced(&s->g, (uint64_t)x, comp);
        for (int i = 0; i < n; i++) {
            int zero = 0;
            comp[k] = s->opt.no_mirror ? cram_canonical(&s->g, comp[i], NULL, NULL)
                                       : cram_canonical_zero(&s->g, comp[i], NULL, NULL, &zero);
            if (zero)
                (*zeros)++; /* the mirror rule: 0, left out */
            else
                k++;
        }
    }
    int dominoes = 0;
    for (int i = 0; i < k; i++)
        dominoes += part_dominoes(s, comp[i]);
    if (dominoes > MAX_BOARD_MOVES) {
        rdb_fail(err, RDB_E_INPUT,
                 "the position has %d free dominoes to search (%d in all); the solver takes at most %d",
                 dominoes, layout_dominoes(s, x), MAX_BOARD_MOVES);
        return -1;
    }
    return k;
}

static void start_solve(cram_solver *s)
{
    for (int i = 0; i < s->nworkers; i++) {
        s->workers[i].stopped = 0;
        s->workers[i].fail = RDB_OK;
        s->workers[i].root_move = 0;
    }
    s->trial_over = 0;
    s->active = s->parked = s->growing = 0;
    s->grow_next = s->grow_done = GROW_CHUNKS;
    s->start = s->last_report = rdb_now();
    s->root_moves = 0;
    s->trial = 0;
}

/* The end of a solve that found v: RDB_OK, or why it stopped. */
static rdb_status end_solve(cram_solver *s, int v, rdb_error *err)
{
    s->stats.seconds += rdb_now() - s->start;
    if (s->opt.progress && s->stats.seconds >= PROGRESS_SECONDS)
        report_progress(s, s->stats.seconds);
    /* a false entry first: whatever else stopped the search, the table
     * must not be saved over the files it came from */
    if (tt_conflicts(s)) {
        contradiction(&s->workers[0]);
        *err = s->workers[0].err;
        return s->workers[0].fail;
    }
    /* the first worker that failed says why */
    for (int i = 0; i < s->nworkers; i++)
        if (s->workers[i].stopped) {
            *err = s->workers[i].err;
            return s->workers[i].fail != RDB_OK ? s->workers[i].fail
                                                : rdb_fail(err, RDB_E_STOPPED, "stopped");
        }
    if (v >= 0 && v < 128)
        return RDB_OK;
    contradiction(&s->workers[0]);
    *err = s->workers[0].err;
    return s->workers[0].fail;
}

rdb_status cram_solver_solve(cram_solver *s, uint64_t free_cells, int *nimber, rdb_error *err)
{
    return cram_solver_solve_wide(s, free_cells, nimber, err);
}

rdb_status cram_solver_solve_wide(cram_solver *s, cram_wset free_cells, int *nimber, rdb_error *err)
{
    uint64_t comp[ROOT_PARTS];
    cram_wset layout;
    int n = board_components(s, free_cells, comp, &s->workers[0].stats.mirror_zero, &layout, err);
    if (n < 0)
        return RDB_E_INPUT;
    start_solve(s);
    cram_worker *w = &s->workers[0];
    int v;
    if (s->opt.method == CRAM_ASPIRATION) {
        /* An empty board with an even number of cells, one side odd, is a
         * first-player win (the nimber is not 0): that much of the answer
         * may be skipped, the nimber itself is still searched. */
        int ncells = s->rows * s->cols;
        cram_wset board = ncells == 128 ? ~(cram_wset)0 : cram_wbit(ncells) - 1;
        int first = free_cells == board && ncells % 2 == 0 && (s->rows % 2 || s->cols % 2);
        v = aspire_sum(w, comp, n, first);
    } else {
        v = sum_value(w, comp, n, ALL_NIMBERS);
    }
    rdb_status st = end_solve(s, v, err);
    if (st == RDB_OK)
        *nimber = v;
    return st;
}

rdb_status cram_solver_test(cram_solver *s, uint64_t free_cells, int k, int *is, rdb_error *err)
{
    return cram_solver_test_wide(s, free_cells, k, is, err);
}

rdb_status cram_solver_test_wide(cram_solver *s, cram_wset free_cells, int k, int *is, rdb_error *err)
{
    if (k < 0 || k > 127)
        return rdb_fail(err, RDB_E_INPUT, "no nimber %d to test", k);
    uint64_t comp[ROOT_PARTS];
    cram_wset layout;
    int n = board_components(s, free_cells, comp, &s->workers[0].stats.mirror_zero, &layout, err);
    if (n < 0)
        return RDB_E_INPUT;
    start_solve(s);
    /* One worker: only the aspiration root shares work. Plain search
     * ignores the wanted set, so a plain solver asks with simple cuts. */
    cram_solver_options keep = s->opt;
    if (s->opt.method == CRAM_PLAIN)
        s->opt.method = CRAM_SIMPLE_CUTS;
    int v = sum_value(&s->workers[0], comp, n, ns_bit(k));
    s->opt = keep;
    rdb_status st = end_solve(s, v == -1 ? 0 : v, err);
    if (st == RDB_OK)
        *is = v == k;
    return st;
}

/* ---- a position's own moves: a certificate, every move's nimber ---- */

/* The ledger's root for the position free_cells when its lines' cells are
 * the board's own: the position is one part, in the layout as it is (not
 * turned, reflected, reduced or moved), so that a root move's cells on the
 * board are the ones the solve wrote (board_cell). 1 and its key in *root,
 * else 0: the position's lines, if any, name the cells of another form,
 * and are left to the solve. A part the mirror rule values 0 has its key
 * all the same (the solve writes no lines for it, but its moves' nimbers
 * are worth keeping), so a whole empty board is always its own. */
static int own_root(cram_solver *s, cram_wset free_cells, cram_wset *root)
{
    uint64_t comp[ROOT_PARTS], zeros = 0;
    cram_wset layout;
    rdb_error err;
    const int no_mirror = s->opt.no_mirror;
    s->opt.no_mirror = 1; /* the same keys, no part left out */
    const int n = board_components(s, free_cells, comp, &zeros, &layout, &err);
    s->opt.no_mirror = no_mirror;
    if (n != 1)
        return 0;
    const cram_wset key = is_wide(s, comp[0]) ? wide_key(comp[0]) : (cram_wset)comp[0];
    if (key != layout)
        return 0;
    *root = key;
    return 1;
}

/* A move's two board cells (r * cols + c) as (row, column), as the
 * ledger writes them. */
static void move_rc(int cols, const int cells[2], uint8_t rc[2][2])
{
    for (int i = 0; i < 2; i++)
        rc[i][0] = (uint8_t)(cells[i] / cols), rc[i][1] = (uint8_t)(cells[i] % cols);
}

/* A ledger line of root for the move covering the board cells cells[0]
 * and cells[1]: of kind is (1: "is", 0: "not"), of value v (any when
 * v < 0); NULL when there is none. */
static const cram_ledger_entry *ledger_line(const cram_ledger *l, int cols, cram_wset root, const int cells[2],
                                            int is, int v)
{
    uint8_t rc[2][2];
    move_rc(cols, cells, rc);
    for (int j = 0; j < l->n; j++) {
        const cram_ledger_entry *e = &l->entry[j];
        if (e->root != root || e->is != is || (v >= 0 && e->value != v))
            continue;
        if ((memcmp(rc[0], e->cell[0], 2) == 0 && memcmp(rc[1], e->cell[1], 2) == 0) ||
            (memcmp(rc[0], e->cell[1], 2) == 0 && memcmp(rc[1], e->cell[0], 2) == 0))
            return e;
    }
    return NULL;
}

/* Append to ledger l that root's child by the move `cells` has nimber v
 * (is) or not (!is), found in nodes and seconds, unless it says so
 * already. */
static rdb_status ledger_note(cram_solver *s, cram_ledger *l, cram_wset root, const int cells[2], int is, int v,
                              uint64_t nodes, double seconds, rdb_error *err)
{
    if (ledger_line(l, s->cols, root, cells, is, v))
        return RDB_OK;
    cram_ledger_entry e = {.root = root, .is = is, .value = v, .nodes = nodes, .seconds = seconds};
    move_rc(s->cols, cells, e.cell);
    rdb_status st = cram_ledger_add(l, &e, err);
    if (st == RDB_OK)
        s->workers[0].stats.to_ledger++;
    return st;
}

/* Nodes searched so far by all workers. */
static uint64_t nodes_so_far(const cram_solver *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->nworkers; i++)
        n += s->workers[i].stats.nodes;
    return n;
}

/* The board's dominoes (cram_domino_cells' numbers) nearest its centre
 * first, as the search asks the root's moves, so that a certificate asks
 * first the children the solve settled and its table knows. Returns how
 * many. */
static int dominoes_by_centre(int rows, int cols, int *order)
{
    int n = 0, dist[2 * 128], cell[2];
    for (int d = 0; cram_domino_cells(rows, cols, d, cell); d++) {
        /* twice the Manhattan distance from the domino's centre to the board's */
        const int r2 = cell[0] / cols + cell[1] / cols, c2 = cell[0] % cols + cell[1] % cols;
        const int dd = abs(r2 - (rows - 1)) + abs(c2 - (cols - 1));
        int j = n++;
        for (; j > 0 && dist[j - 1] > dd; j--) { /* stable: board order among equals */
            dist[j] = dist[j - 1];
            order[j] = order[j - 1];
        }
        dist[j] = dd;
        order[j] = d;
    }
    return n;
}

rdb_status cram_solver_certificate(cram_solver *s, cram_wset free_cells, int nimber, int cells[][2],
                                   rdb_error *err)
{
    int order[2 * 128];
    const int ndominoes = dominoes_by_centre(s->rows, s->cols, order);
    cram_wset root = 0;
    cram_ledger *const l = s->ledger && own_root(s, free_cells, &root) ? s->ledger : NULL;
    for (int k = 0; k < nimber; k++) {
        int found = 0, *const c = cells[k];
        /* a move the ledger knows to reach k, wherever it is in the order */
        for (int j = 0; l && !found && j < ndominoes; j++) {
            cram_domino_cells(s->rows, s->cols, order[j], c);
            const cram_wset domino = cram_wbit(c[0]) | cram_wbit(c[1]);
            found = (free_cells & domino) == domino && ledger_line(l, s->cols, root, c, 1, k);
        }
        if (found)
            s->workers[0].stats.from_ledger++;
        /* else the moves in order, each asked "is it k?" unless the ledger
         * says no (a line "is" another nimber, or "not k"), each answer
         * written down */
        for (int j = 0; !found && j < ndominoes; j++) {
            cram_domino_cells(s->rows, s->cols, order[j], c);
            const cram_wset domino = cram_wbit(c[0]) | cram_wbit(c[1]);
            if ((free_cells & domino) != domino)
                continue;
            if (l && (ledger_line(l, s->cols, root, c, 1, -1) || ledger_line(l, s->cols, root, c, 0, k))) {
                s->workers[0].stats.from_ledger++;
                continue;
            }
            const uint64_t nodes = nodes_so_far(s);
            const double t0 = rdb_now();
            int is;
            rdb_status st = cram_solver_test_wide(s, free_cells & ~domino, k, &is, err);
            if (st == RDB_OK && l)
                st = ledger_note(s, l, root, c, is, k, nodes_so_far(s) - nodes, rdb_now() - t0, err);
            if (st != RDB_OK)
                return st;
            found = is;
        }
        if (!found)
            return rdb_fail(err, RDB_E_CORRUPT,
                            "no move reaches nimber %d, below the nimber %d found: the search is wrong%s", k,
                            nimber, l ? ", or a line of the ledger" : "");
    }
    return RDB_OK;
}

rdb_status cram_solver_check_position(cram_solver *s, cram_wset free_cells, int listing_moves,
                                      rdb_error *err)
{
    uint64_t comp[ROOT_PARTS], zeros = 0;
    cram_wset layout;
    if (board_components(s, free_cells, comp, &zeros, &layout, err) < 0)
        return RDB_E_INPUT;
    /* every move is listed, those of parts the mirror rule values too */
    if (listing_moves && layout_dominoes(s, layout) > MAX_BOARD_MOVES)
        return rdb_fail(err, RDB_E_INPUT, "the position has %d free dominoes; the nimbers of at most %d moves are listed",
                        layout_dominoes(s, layout), MAX_BOARD_MOVES);
    return RDB_OK;
}

rdb_status cram_solver_move_nimbers(cram_solver *s, cram_wset free_cells, int domino[127], int nimber[127],
                                    int *n, rdb_error *err)
{
    *n = 0;
    rdb_status st = cram_solver_check_position(s, free_cells, 1, err);
    if (st != RDB_OK)
        return st;
    cram_wset root = 0;
    cram_ledger *const l = s->ledger && own_root(s, free_cells, &root) ? s->ledger : NULL;
    /* each child is a solve of its own: its ledger lines would be of
     * another root, so the ledger is set aside and its lines for this
     * position's moves read and written here */
    cram_ledger *const ledger = s->ledger;
    s->ledger = NULL;
    int cell[2];
    for (int d = 0; st == RDB_OK && cram_domino_cells(s->rows, s->cols, d, cell); d++) {
        const cram_wset move = cram_wbit(cell[0]) | cram_wbit(cell[1]);
        if ((free_cells & move) != move)
            continue;
        const cram_ledger_entry *said = l ? ledger_line(l, s->cols, root, cell, 1, -1) : NULL;
        if (said) {
            s->workers[0].stats.from_ledger++;
            nimber[*n] = said->value;
        } else {
            const uint64_t nodes = nodes_so_far(s);
            const double t0 = rdb_now();
            st = cram_solver_solve_wide(s, free_cells & ~move, &nimber[*n], err);
            if (st == RDB_OK && l)
                st = ledger_note(s, l, root, cell, 1, nimber[*n], nodes_so_far(s) - nodes, rdb_now() - t0, err);
        }
        if (st == RDB_OK)
            domino[(*n)++] = d;
    }
    s->ledger = ledger;
    return st;
}
