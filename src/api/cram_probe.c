/*
 * cram_probe.c — the Cram answer of the public probe (rdb_probe_cram_moves
 * in retrodb/probe.h), built on its generic part: a move's id is a domino
 * of the board, turned here into its two cells.
 */
#include "retrodb/probe.h"

#include <string.h>

#include "common/error.h"
#include "cram/cram_board.h"

rdb_status rdb_probe_cram_moves(rdb_probe *p, uint64_t covered, rdb_cram_answer *a,
                                rdb_error *err)
{
    a->nmoves = 0;
    if (strcmp(rdb_probe_game(p), "cram") != 0)
        return rdb_fail(err, RDB_E_INPUT, "the database is a %s database, not a Cram table",
                        rdb_probe_game(p));
    int rows, cols;
    uint64_t start;
    rdb_probe_board(p, &rows, &cols, &start);
    cram_board b;
    rdb_status st = cram_board_init(&b, rows, cols, err);
    if (st != RDB_OK)
        return st;
    rdb_move_values mv;
    st = rdb_probe_move_values(p, covered, &mv, err);
    /* copied on failure too: the answer then holds the moves found */
    a->nimber = mv.value;
    a->nmoves = mv.nmoves;
    for (int i = 0; i < mv.nmoves; i++) {
        const int d = mv.moves[i].id;
        for (int c = 0; c < 2; c++) {
            a->cell[i][c][0] = b.domino_cell[d][c] / b.cols;
            a->cell[i][c][1] = b.domino_cell[d][c] % b.cols;
        }
        a->move_nimber[i] = mv.moves[i].value;
    }
    return st;
}
