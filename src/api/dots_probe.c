/*
 * dots_probe.c — the Dots-and-Boxes answer of the public probe
 * (rdb_probe_moves in retrodb/probe.h), built on its generic part.
 */
#include "retrodb/probe.h"

#include <string.h>

#include "common/error.h"

rdb_status rdb_probe_moves(rdb_probe *p, uint64_t lines, rdb_dots_answer *a, rdb_error *err)
{
    a->nmoves = 0;
    if (strcmp(rdb_probe_game(p), "dots") != 0)
        return rdb_fail(err, RDB_E_INPUT, "the database is a %s table, not a Dots-and-Boxes database",
                        rdb_probe_game(p));
    rdb_move_values mv;
    rdb_status st = rdb_probe_move_values(p, lines, &mv, err);
    /* copied on failure too: the answer then holds the moves found */
    a->value = mv.value;
    a->next_loony = mv.mark;
    a->nmoves = mv.nmoves;
    for (int i = 0; i < mv.nmoves; i++) {
        a->line[i] = mv.moves[i].id;
        a->move_value[i] = mv.moves[i].value;
        a->move_next_loony[i] = mv.moves[i].mark;
    }
    return st;
}
