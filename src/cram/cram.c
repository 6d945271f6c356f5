/*
 * cram.c — Cram through the game interface; see cram.h. Each function here
 * only adapts: the rules are in cram_rules.c, the kernel in cram_kernel.c.
 */
#include "cram/cram.h"

#include <stdlib.h>

#include "cram/cram_kernel.h"
#include "common/loony_mark.h"

static rdb_status cram_open(const rdb_params *p, rdb_universe *u, void **out, rdb_error *err)
{
    cram_board board;
    rdb_status st = cram_board_init(&board, p->rows, p->cols, err);
    if (st != RDB_OK)
        return st;
    if (p->start != 0 || p->full_value != 0 || p->loony || p->chains)
        return rdb_fail(err, RDB_E_INPUT,
                        "a cram table starts from the empty board, without penalty or loony analysis");
    cram_rules *r = calloc(1, sizeof *r);
    if (!r)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    r->board = board;
    cram_universe_init(u, &r->board);
    *out = r;
    return RDB_OK;
}

static rdb_status cram_order(void *game, const rdb_layout_plan *plan, rdb_error *err)
{
    cram_rules *r = game;
    (void)err;
    const cram_board board = r->board;
    cram_rules_init(r, &board, plan);
    return RDB_OK;
}

static void cram_close(void *game)
{
    free(game);
}

static void cram_describe(const void *game, FILE *out)
{
    fprintf(out, "cells       %d\n", ((const cram_rules *)game)->board.ncells);
}

static rdb_status cram_kernel_open(const void *game, const rdb_layout *lay, void **kernel,
                                   rdb_error *err)
{
    cram_kernel *k;
    rdb_status st = cram_kernel_new(game, lay, &k, err);
    *kernel = k;
    return st;
}

static void cram_kernel_close(void *kernel)
{
    cram_kernel_free(kernel);
}

static rdb_status cram_check(const void *game, uint64_t covered, rdb_error *err)
{
    const cram_board *b = &((const cram_rules *)game)->board;
    if (b->ncells < 64 && covered >> b->ncells)
        return rdb_fail(err, RDB_E_INPUT, "position has cells outside the %dx%d board", b->rows,
                        b->cols);
    return RDB_OK;
}

static uint64_t cram_position(const void *game, uint64_t covered)
{
    return cram_rules_position(game, covered);
}

static uint64_t cram_board_of(const void *game, uint64_t pos)
{
    return cram_rules_cells(game, pos);
}

static void cram_print(const void *game, FILE *out, uint64_t pos)
{
    const cram_rules *r = game;
    cram_diagram_print(out, r->board.rows, r->board.cols, cram_rules_cells(r, pos));
}

/* Every free domino, in the board's order (horizontal ones first). */
static int cram_moves(const void *game, uint64_t covered, rdb_game_move *out)
{
    const cram_board *b = &((const cram_rules *)game)->board;
    int n = 0;
    for (int d = 0; d < b->ndominoes; d++) {
        if (covered & b->domino[d])
            continue;
        out[n].id = d;
        out[n].bit = -1; /* the edge rule of an impartial game needs none */
        out[n].child = covered | b->domino[d];
        out[n].again = 0;
        n++;
    }
    return n;
}

/* A child's nimber is a candidate as it is: the combine rule (mex) does
 * the rest. */
static int cram_move_value(const void *game, uint64_t pos, int bit, int child)
{
    (void)game;
    (void)pos;
    (void)bit;
    return child;
}

static void cram_decode(const void *game, int stored, int *value, int *mark)
{
    (void)game;
    *value = stored;
    *mark = LOONY_MARK_NONE;
}

const rdb_game cram_game_entry = {
    .name = "cram",
    .id = RDB_GAME_CRAM,
    .move_bits = 2,
    .kernel_bytes = 8, /* the 64-bit mask of children's nimbers */
    .bits_name = "cells",
    .bit_noun = "cells",
    .level_name = "cells covered",
    .impartial = 1,
    .open = cram_open,
    .order = cram_order,
    .close = cram_close,
    .describe = cram_describe,
    .kernel_new = cram_kernel_open,
    .kernel_free = cram_kernel_close,
    .slice_begin = cram_slice_begin,
    .leads_to = cram_leads_to,
    .slice_relax = cram_slice_relax,
    .slice_finish = cram_slice_finish,
    .check = cram_check,
    .position = cram_position,
    .board = cram_board_of,
    .print = cram_print,
    .moves = cram_moves,
    .move_value = cram_move_value,
    .decode = cram_decode,
    .solve_unstored = NULL, /* a Cram table keeps every level */
};
