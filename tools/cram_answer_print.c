/*
 * cram_answer_print.c — a Cram position's answer (the library's
 * rdb_answer_cram) as query prints it: the board, its nimber in words and
 * every move's, winning moves first; as text or JSON fields. See
 * answer_print.h.
 */
#include <stdlib.h>
#include <string.h>

#include "answer_print.h"
#include "cli.h"

void rdb_tool_cram_print_text(const rdb_cram_ranked *r)
{
    rdb_form_cram_print(stdout, &r->pos);
    char words[64];
    printf("nimber %d: %s\n", r->nimber,
           rdb_tool_cram_outcome(r->nimber, "the player to move", words, sizeof words));
    for (int k = 0; k < r->nmoves; k++) {
        int i = r->order[k];
        printf("  (%d,%d)-(%d,%d)  nimber %d%s\n", r->cell[i][0][0], r->cell[i][0][1],
               r->cell[i][1][0], r->cell[i][1][1], r->move_nimber[i],
               r->move_nimber[i] == 0 ? "  wins" : "");
    }
    if (r->nmoves == 0)
        printf("no move is left: the player to move has lost\n");
}

void rdb_tool_cram_print_json_fields(FILE *out, const rdb_cram_ranked *r)
{
    char words[64];
    fprintf(out, "\"game\":\"cram\",\"rows\":%d,\"cols\":%d,\"nimber\":%d,\"words\":", r->pos.rows,
           r->pos.cols, r->nimber);
    rdb_tool_json_string_to(out, rdb_tool_cram_outcome(r->nimber, "the player to move", words,
                                               sizeof words));
    fprintf(out, ",\"moves\":[");
    for (int k = 0; k < r->nmoves; k++) {
        int i = r->order[k];
        fprintf(out, "%s{\"cells\":[[%d,%d],[%d,%d]],\"nimber\":%d,\"best\":%s}", k ? "," : "",
               r->cell[i][0][0], r->cell[i][0][1], r->cell[i][1][0], r->cell[i][1][1],
               r->move_nimber[i], r->move_nimber[i] == 0 ? "true" : "false");
    }
    fprintf(out, "]");
}
