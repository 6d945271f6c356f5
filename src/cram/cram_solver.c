/*
 * cram_solver.c — making a Cram solver (cram_solver.h): its layout, its
 * tables (the transposition tables, the nimber tables it probes), its
 * statistics, and the table files a long solve saves and resumes from,
 * each entry of a loaded file checked for form. The search itself is in
 * cram_search.c, the root in cram_root.c (cram_solver_internal.h says
 * which file holds what).
 */
#define _GNU_SOURCE
#include "cram/cram_solver_internal.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cram/cram_board.h"


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
     * is refused when it has more free (board_components). Its shorter
     * side, the layout's rows, fits: */
    _Static_assert((CRAM_MAX_STRIDE + 1) * (CRAM_MAX_STRIDE + 1) > CRAM_WIDE_MAX_CELLS,
                   "a board of CRAM_WIDE_MAX_CELLS has a side of CRAM_MAX_STRIDE or fewer");
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
    /* the shorter side across: at most 8 cells on most boards, 11 on
     * 11x11 (CRAM_MAX_STRIDE) */
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
            cram_make_box_moves(&s->g, h, w, &s->boxes[(h - 1) * stride + (w - 1)]);
    s->nworkers = threads;
    s->workers = calloc((size_t)threads, sizeof *s->workers);
    int ok = s->workers != NULL;
    for (int i = 0; ok && i < threads; i++) {
        s->workers[i].s = s;
        s->workers[i].ply = calloc(MAX_PLY, sizeof *s->workers[i].ply);
        s->workers[i].part_memo = calloc(1u << PART_MEMO_LOG2, sizeof *s->workers[i].part_memo);
        ok = s->workers[i].ply != NULL && s->workers[i].part_memo != NULL;
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
        s->tables[i].close(s->tables[i].ctx);
    cram_tt_free(&s->tt);
    cram_wide_tt_free(s->wtt);
    free(s->boxes);
    for (int i = 0; s->workers && i < s->nworkers; i++) {
        free(s->workers[i].ply);
        free(s->workers[i].part_memo);
        free(s->workers[i].wide_key);
    }
    free(s->workers);
    free(s);
}

rdb_status cram_solver_add_table(cram_solver *s, const cram_table_source *table, rdb_error *err)
{
    if (s->ntables == MAX_TABLES) {
        table->close(table->ctx);
        return rdb_fail(err, RDB_E_INPUT, "at most %d nimber tables", MAX_TABLES);
    }
    table_ref *t = &s->tables[s->ntables];
    *t = *table;
    int worth = t->rows * t->cols - TABLE_SLACK;
    if (worth > TABLE_MIN_CELLS)
        worth = TABLE_MIN_CELLS;
    if (t->in_memory)
        worth = TABLE_MIN_CELLS_IN_MEMORY;
    if (s->ntables == 0 || worth < s->table_min_cells)
        s->table_min_cells = worth;
    s->ntables++;
    return RDB_OK;
}

/* Results stored in either table that disagreed with the entry there:
 * the table holds a false entry (cram_tt_disagree). */
uint64_t cram_solver_tt_conflicts(const cram_solver *s)
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
    st->tt_conflicts = cram_solver_tt_conflicts(s);
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
    int moves = narrow_dominoes(s, key);
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
    int moves = wide_dominoes(s, key);
    if (nimber != CRAM_TT_UNKNOWN && nimber > moves)
        return 0;
    return nimber != CRAM_TT_UNKNOWN || moves >= 16 || (((2u << moves) - 1) & ~excluded) != 0;
}

rdb_status cram_solver_load_tt(cram_solver *s, const char *path, rdb_error *err)
{
    const uint64_t conflicts = cram_solver_tt_conflicts(s);
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
    if (st == RDB_OK && cram_solver_tt_conflicts(s) > conflicts)
        st = rdb_fail(err, RDB_E_CORRUPT,
                      "'%s' disagrees on %llu position%s with what was loaded before it or with itself: a table "
                      "file holds wrong entries; solve without the files loaded",
                      path, (unsigned long long)(cram_solver_tt_conflicts(s) - conflicts),
                      cram_solver_tt_conflicts(s) - conflicts == 1 ? "" : "s");
    return st;
}
