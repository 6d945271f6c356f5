/*
 * dots.c — Dots-and-Boxes through the game interface; see dots.h. Each
 * function here only adapts: the rules are in dots_rules.c, the kernel in
 * dots_kernel.c, the on-the-spot search in dots_search.c.
 */
#include "dots/dots.h"

#include <stdlib.h>
#include <string.h>

#include "dots/dots_diagram.h"
#include "dots/dots_kernel.h"
#include "dots/dots_quiet_db.h"
#include "dots/dots_search.h"
#include "dots/dots_solver.h"
#include "common/loony_mark.h"

/* Positions of deleted levels beyond the memo's reach are searched up to
 * this many open lines (the empty 4x4 board, 40 lines, takes minutes),
 * with a table of this size. */
#define DOTS_QUERY_SOLVE_MAX_OPEN 40
#define DOTS_QUERY_SOLVE_TT_MB 512

/* A database's game: the natural order, then the layout's. */
typedef struct {
    dots_game game;
    dots_rules rules;
    int loony;               /* rdb_params.loony, for dots_order */
    int chains;              /* rdb_params.chains, for describe */
    int half;                /* rdb_params.store is RDB_STORE_QUIET_HALF */
    char variant[32];        /* for messages */
} dots_state;

static rdb_status dots_open(const rdb_params *p, rdb_universe *u, void **out, rdb_error *err)
{
    dots_board board;
    rdb_status st = dots_board_init(&board, p->rows, p->cols, err);
    if (st != RDB_OK)
        return st;
    if (p->start & ~dots_all_lines(&board))
        return rdb_fail(err, RDB_E_INPUT, "start position has lines outside the %dx%d board",
                        p->rows, p->cols);
    /* a named variant is a start: a PARAMS whose name and lines disagree
     * was edited, and would label another game's values */
    uint64_t named;
    if (dots_variant_lines(&board, p->variant, &named) == 0 && named != p->start)
        return rdb_fail(err, RDB_E_CORRUPT,
                        "PARAMS says variant %s, but its start lines are not that variant's "
                        "start: it was changed after the build; put it back as it was",
                        p->variant);
    if (p->full_value < -100 || p->full_value > 100)
        return rdb_fail(err, RDB_E_INPUT, "value of the full position %d is out of range",
                        p->full_value);
    if (p->loony) {
        int boxes = board.nboxes + abs(p->full_value);
        if (boxes > RDB_LOONY_MAX_SCORE)
            return rdb_fail(err, RDB_E_INPUT,
                            "loony analysis keeps scores within -%d..%d; %d boxes%s could exceed that",
                            RDB_LOONY_MAX_SCORE, RDB_LOONY_MAX_SCORE, board.nboxes,
                            p->full_value ? " with this penalty" : "");
    }
    if (p->loony && p->chains)
        return rdb_fail(err, RDB_E_INPUT,
                        "loony analysis and chain pseudo-lines cannot be combined yet");
    /* A loony mark would need the capture rules to say who makes the next
     * loony move, and a chain pseudo-line draws several lines at once,
     * past the positions the rules stop at: neither is done yet. */
    if (p->store != RDB_STORE_ALL && (p->loony || p->chains))
        return rdb_fail(err, RDB_E_INPUT, "a quiet database (--store quiet) takes no %s yet",
                        p->loony ? "loony analysis (--loony)" : "chain pseudo-lines (--chains)");
    dots_state *d = calloc(1, sizeof *d);
    if (!d)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    d->loony = p->loony;
    d->chains = p->chains;
    d->half = p->store == RDB_STORE_QUIET_HALF;
    snprintf(d->variant, sizeof d->variant, "%s", p->variant);
    st = dots_game_init(&d->game, &board, p->start, (int8_t)p->full_value, p->chains, err);
    if (st != RDB_OK) {
        free(d);
        return st;
    }
    *u = d->game.u;
    *out = d;
    return RDB_OK;
}

static rdb_status dots_order(void *game, const rdb_layout_plan *plan, rdb_error *err)
{
    dots_state *d = game;
    return dots_rules_init(&d->rules, &d->game, plan, d->loony, err);
}

static void dots_close(void *game)
{
    free(game);
}

static void dots_describe(const void *game, FILE *out)
{
    const dots_state *d = game;
    if (!d->chains) {
        fprintf(out, "open lines  %d\n", d->game.nbits);
        return;
    }
    fprintf(out, "bits        %d\n", d->game.nbits);
    fprintf(out, "chains      %d (each one bit; the other %d bits are open lines)\n",
            d->game.nchains, d->game.nbits - d->game.nchains);
}

static rdb_status dots_kernel_open(const void *game, const rdb_layout *lay, void **kernel,
                                   rdb_error *err)
{
    const dots_state *d = game;
    dots_kernel *k;
    rdb_status st = dots_kernel_new(&d->rules, lay, &k, err);
    *kernel = k;
    return st;
}

static void dots_kernel_close(void *kernel)
{
    dots_kernel_free(kernel);
}

static int dots_leads_to(const void *kernel, const rdb_slice *s, const rdb_slice *n)
{
    /* a group with an open bit has a move in every position of s */
    (void)kernel;
    (void)s;
    (void)n;
    return 1;
}

static rdb_status dots_check(const void *game, uint64_t lines, rdb_error *err)
{
    const dots_game *g = &((const dots_state *)game)->game;
    if (lines & ~dots_all_lines(&g->board))
        return rdb_fail(err, RDB_E_INPUT, "position has lines outside the %dx%d board",
                        g->board.rows, g->board.cols);
    uint64_t missing = g->start & ~lines;
    if (missing) {
        char name[32];
        dots_line_name(&g->board, __builtin_ctzll(missing), name);
        return rdb_fail(err, RDB_E_INPUT,
                        "position lacks line %s of the database's start position (%s); it cannot arise in this database",
                        name, ((const dots_state *)game)->variant);
    }
    int c = dots_game_partial_chain(g, lines);
    if (c >= 0) {
        char list[DOTS_MAX_LINES * 8] = "";
        size_t n = 0;
        for (uint64_t m = g->chains[c].lines; m && n < sizeof list - 16; m &= m - 1) {
            char name[32];
            dots_line_name(&g->board, __builtin_ctzll(m), name);
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? " " : "", name);
        }
        return rdb_fail(err, RDB_E_INPUT,
                        "position draws part of chain %d (lines %s); a database with chain pseudo-lines holds only positions where each chain is all drawn or all empty",
                        c + 1, list);
    }
    return RDB_OK;
}

static uint64_t dots_position(const void *game, uint64_t lines)
{
    return dots_rules_position(&((const dots_state *)game)->rules, lines);
}

static uint64_t dots_board_of(const void *game, uint64_t pos)
{
    const dots_state *d = game;
    return dots_rules_lines(&d->rules, &d->game, pos);
}

static void dots_print(const void *game, FILE *out, uint64_t pos)
{
    const dots_state *d = game;
    dots_diagram_print(out, &d->game.board, dots_rules_lines(&d->rules, &d->game, pos), NULL);
}

/* Whether drawing the lines of `child` beyond `lines` completes a box. */
static int boxes_completed(const dots_board *b, uint64_t lines, uint64_t child)
{
    for (int x = 0; x < b->nboxes; x++) {
        uint64_t sides = 0;
        for (int s = 0; s < 4; s++)
            sides |= 1ULL << b->box_line[x][s];
        if ((child & sides) == sides && (lines & sides) != sides)
            return 1;
    }
    return 0;
}

/* Every open line, in line-id order: a line of a chain fills the whole
 * chain, so every line of it is that move. */
static int dots_moves(const void *game, uint64_t lines, rdb_game_move *out)
{
    const dots_state *d = game;
    int n = 0;
    for (int l = 0; l < d->game.board.nlines; l++) {
        if (lines >> l & 1)
            continue;
        const int bit = d->rules.bit[l];
        out[n].id = l;
        out[n].bit = bit;
        out[n].child = lines | d->rules.bit_lines[bit];
        out[n].again = boxes_completed(&d->game.board, lines, out[n].child);
        n++;
    }
    return n;
}

static int dots_move_value(const void *game, uint64_t pos, int bit, int child)
{
    return dots_rules_move(&((const dots_state *)game)->rules, pos, bit, child);
}

static void dots_decode(const void *game, int stored, int *value, int *mark)
{
    const dots_rules *r = &((const dots_state *)game)->rules;
    *value = dots_key_score(r, stored);
    *mark = dots_key_loony(r, stored);
}

/* A position of a deleted level: the memoised search while it can (it
 * knows loony marks and chains), the alpha-beta search beyond it for the
 * plain game, up to a size that answers in minutes. */
static rdb_status dots_solve_unstored(const void *game, const rdb_layout *lay, uint64_t pos,
                                      rdb_stored_fn stored, void *ctx, int *value,
                                      rdb_error *err)
{
    const dots_state *d = game;
    int open = lay->nbits - __builtin_popcountll(pos);
    if (open <= DOTS_SEARCH_MAX_OPEN || d->loony || d->game.nchains)
        return dots_search_value(&d->rules, lay, pos, stored, ctx, value, err);
    if (open > DOTS_QUERY_SOLVE_MAX_OPEN)
        return rdb_fail(err, RDB_E_MISSING,
                        "the position has %d open lines and its level is not stored; a query "
                        "searches at most %d (`retrodb solve dots --position` has no limit)",
                        open, DOTS_QUERY_SOLVE_MAX_OPEN);
    dots_solver_options opt = {.tt_bytes = (uint64_t)DOTS_QUERY_SOLVE_TT_MB << 20,
                               .threads = 1, .tt_min_open = 6,
                               .etc_min_open = DOTS_ETC_MIN_OPEN};
    dots_solver *s;
    rdb_status st = dots_solver_new(&d->game.board, d->game.full_value, &opt, &s, err);
    if (st == RDB_OK)
        st = dots_solver_value(s, dots_rules_lines(&d->rules, &d->game, pos), value, err);
    dots_solver_free(s);
    return st;
}

/* ---- a database of the quiet positions (dots_quiet_db.h) ---- */

static rdb_status dots_sparse_open(const void *game, void **index, rdb_error *err)
{
    const dots_state *d = game;
    return dots_quiet_rules_new(&d->game.board, d->game.start, d->game.full_value, d->half,
                                (dots_quiet_rules **)index, err);
}

static void dots_sparse_close(void *index)
{
    dots_quiet_rules_free(index);
}

static rdb_status dots_sparse_prepare(void *index, int lookups, rdb_error *err)
{
    return dots_quiet_rules_prepare(index, lookups, err);
}

static uint64_t dots_sparse_level_size(const void *index, int level)
{
    return dots_quiet_level_size(dots_quiet_rules_index(index), level);
}

static uint64_t dots_sparse_bytes(const void *index)
{
    return dots_quiet_index_bytes(dots_quiet_rules_index(index));
}

/* The engine's fetch as dots_quiet_value calls it: the first failure is
 * kept, with its message. */
typedef struct {
    rdb_sparse_fetch fetch;
    void *ctx;
    rdb_error *err;
} sparse_fetch;

static int fetch_stored(void *ctx, int level, uint64_t index, int *value)
{
    const sparse_fetch *f = ctx;
    return (int)f->fetch(f->ctx, level, index, value, f->err);
}

static rdb_status dots_sparse_value(const void *game, const void *index, uint64_t board,
                                    rdb_sparse_fetch fetch, void *ctx, int *value,
                                    rdb_error *err)
{
    (void)game;
    sparse_fetch f = {fetch, ctx, err};
    return (rdb_status)dots_quiet_value(index, board, fetch_stored, &f, value);
}

static uint64_t dots_sparse_part_end(const void *index, int level, uint64_t from, uint64_t most)
{
    return dots_quiet_part_end(dots_quiet_rules_index(index), level, from, most);
}

static rdb_status dots_sparse_level(const void *game, const void *index, int level,
                                    uint64_t from, uint64_t to, rdb_chunk_cache *above,
                                    uint64_t dropped, int8_t *values, rdb_error *err)
{
    (void)game;
    rdb_status st = dots_quiet_level(index, level, from, to, above, dropped, values, err);
    if (st == RDB_E_STOPPED)
        rdb_fail(err, st, "stopped; finished levels are kept, run the same command to resume");
    return st;
}

/* A half database keeps one class of each level (dots_quiet_db.h); a
 * slice holds one class (dots_quiet_part_end), the slots of class 0
 * before those of class 1. */
static int dots_sparse_window(const void *index)
{
    return dots_quiet_rules_half(index) ? DOTS_QUIET_WINDOW : -1;
}

static int dots_sparse_dropped_part(const void *index, int level, uint64_t from)
{
    if (!dots_quiet_rules_half(index))
        return 0;
    const dots_quiet_index *q = dots_quiet_rules_index(index);
    const int class = from >= dots_quiet_first(q, level, dots_quiet_frames(q) / 2) &&
                      from < dots_quiet_level_size(q, level);
    return class != dots_quiet_kept_class(index, level);
}

static rdb_status dots_sparse_sample(const void *index, uint64_t most, const uint64_t *dropped_at,
                                     int threads, uint64_t *positions, double *seconds,
                                     rdb_error *err)
{
    return dots_quiet_sample(index, most, dropped_at, threads, positions, seconds, err);
}

const rdb_game dots_game_entry = {
    .name = "dots",
    .id = RDB_GAME_DOTS,
    .move_bits = 1,
    .kernel_bytes = 0,
    .bits_name = "open lines",
    .bit_noun = "lines",
    .level_name = "lines drawn beyond the start",
    .open = dots_open,
    .order = dots_order,
    .close = dots_close,
    .describe = dots_describe,
    .kernel_new = dots_kernel_open,
    .kernel_free = dots_kernel_close,
    .slice_begin = dots_slice_begin,
    .leads_to = dots_leads_to,
    .slice_relax = dots_slice_relax,
    .slice_finish = dots_slice_finish,
    .check = dots_check,
    .position = dots_position,
    .board = dots_board_of,
    .print = dots_print,
    .moves = dots_moves,
    .move_value = dots_move_value,
    .decode = dots_decode,
    .solve_unstored = dots_solve_unstored,
    .sparse_open = dots_sparse_open,
    .sparse_close = dots_sparse_close,
    .sparse_prepare = dots_sparse_prepare,
    .sparse_level_size = dots_sparse_level_size,
    .sparse_bytes = dots_sparse_bytes,
    .sparse_value = dots_sparse_value,
    .sparse_part_end = dots_sparse_part_end,
    .sparse_level = dots_sparse_level,
    .sparse_sample = dots_sparse_sample,
    .sparse_window = dots_sparse_window,
    .sparse_dropped_part = dots_sparse_dropped_part,
};
