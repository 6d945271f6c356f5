/*
 * dots_answer_print.c — a Dots-and-Boxes position's answer (the library's
 * rdb_answer_dots) as query prints it: the board with every open line's
 * value and the best ones marked '*', the value in words (who is to move,
 * who wins and by how much), the moves best first, and the same as JSON
 * fields. See answer_print.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer_print.h"
#include "cli.h"

char *rdb_tool_dots_words(const rdb_forms_db *db, const rdb_problem *pos, int value, char *buf,
                          size_t size)
{
    char who[32], outcome[64];
    if (!rdb_answer_dots_mover_known(db, pos)) {
        rdb_tool_dots_outcome(value, "the player to move", outcome, sizeof outcome);
        snprintf(buf, size, "%s from here", outcome);
        return buf;
    }
    snprintf(who, sizeof who, "%c to move", pos->to_move);
    if (rdb_form_dots_full(pos) && !pos->unmarked) {
        /* nobody is to move: say who won (the full board's value, a
         * penalty, counted for whoever's turn it would be) */
        const int margin = rdb_problem_margin(pos, value, 'A');
        if (margin)
            snprintf(buf, size, "the game is over: %c won by %d (boxes taken: A %d, B %d)",
                     margin > 0 ? 'A' : 'B', abs(margin), pos->taken_a, pos->taken_b);
        else
            snprintf(buf, size, "the game is over: a draw (boxes taken: A %d, B %d)", pos->taken_a,
                     pos->taken_b);
        return buf;
    }
    if (pos->unmarked) {
        /* boxes complete without a letter: the final score is unknown */
        rdb_tool_dots_outcome(value, who, outcome, sizeof outcome);
        snprintf(buf, size, "%s from here", outcome);
    } else if (pos->taken_a + pos->taken_b == 0) {
        rdb_tool_dots_outcome(value, who, buf, size);
    } else {
        rdb_tool_dots_outcome(rdb_problem_margin(pos, value, pos->to_move), who, outcome,
                              sizeof outcome);
        snprintf(buf, size, "%s (%s from here; boxes taken: A %d, B %d)", outcome,
                 rdb_tool_signed(value, (char[RDB_TOOL_SIGNED_MAX]){0}), pos->taken_a, pos->taken_b);
    }
    return buf;
}

/* Wilson's mark of who must make the next loony move: 'v' for A, '^' for
 * B, '\0' for neither. */
static char loony_mark(int next_loony, char to_move)
{
    char other = to_move == 'A' ? 'B' : 'A';
    char who = next_loony == RDB_LOONY_MOVER ? to_move
             : next_loony == RDB_LOONY_OPPONENT ? other : 0;
    return who == 'A' ? 'v' : who == 'B' ? '^' : '\0';
}

void rdb_tool_dots_marks(const rdb_dots_ranked *r, char to_move, char *line_mark,
                         char *position_mark)
{
    *position_mark = loony_mark(r->a.next_loony, to_move);
    for (int i = 0; i < r->a.nmoves; i++)
        line_mark[r->a.line[i]] = loony_mark(r->a.move_next_loony[i], to_move);
}

/* Whether the board shows final scores rather than net future boxes: on a
 * problem's database, when every box taken has its letter. (A best move
 * is marked '*' unless every move is one.) */
static int shows_final(const rdb_forms_db *db, const rdb_problem *pos)
{
    return db->has_problem && !pos->unmarked;
}

static void print_board(const rdb_problem *pos,
                        const rdb_dots_ranked *r, int final)
{
    char label[64][RDB_FORM_LABEL_MAX];
    memset(label, 0, sizeof label);
    for (int i = 0; i < r->a.nmoves; i++) {
        int l = r->a.line[i], v = r->a.move_value[i];
        char mark = r->loony ? loony_mark(r->a.move_next_loony[i], pos->to_move) : '\0';
        snprintf(label[l], sizeof label[l], "%d%s%c",
                 final ? rdb_problem_margin(pos, v, pos->to_move) : v,
                 r->best >> l & 1 && r->nbest < r->a.nmoves ? "*" : "", mark);
    }
    rdb_form_dots_print(stdout, pos, label);
}

/* "h0,1 v1,2": the best moves, or "every move" when all are. */
static void print_best(const rdb_forms_db *db, const rdb_dots_ranked *r)
{
    if (r->a.nmoves == 0) {
        printf("the board is full\n");
        return;
    }
    if (r->nbest == r->a.nmoves && r->nbest > 1) {
        printf("best moves: all %d\n", r->nbest);
        return;
    }
    printf("best move%s:", r->nbest == 1 ? "" : "s");
    for (int k = 0; k < r->nbest; k++) {
        char name[RDB_LINE_NAME_MAX];
        rdb_error err;
        rdb_dots_line_name(db->rows, db->cols, r->a.line[r->order[k]], name, sizeof name, &err);
        printf(" %s", name);
    }
    printf("\n");
}

void rdb_tool_dots_print_text(const rdb_forms_db *db, const rdb_problem *pos,
                              const rdb_dots_ranked *r, int raw)
{
    char mark = r->loony ? loony_mark(r->a.next_loony, pos->to_move) : '\0';
    if (shows_final(db, pos)) {
        if (raw) {
            printf("net future boxes for the player to move after each move:\n");
            print_board(pos, r, 0);
            printf("\n");
        }
        printf("final score for %c (its boxes minus the other's) after each move:\n",
               pos->to_move);
        print_board(pos, r, 1);
    } else {
        print_board(pos, r, 0);
    }
    char words[160];
    printf("%s\n", rdb_tool_dots_words(db, pos, r->a.value, words, sizeof words));
    printf("value for the player to move: %s%s (net future boxes)\n",
           rdb_tool_signed(r->a.value, (char[RDB_TOOL_SIGNED_MAX]){0}), (char[]){mark, '\0'});
    if (r->a.nmoves && (db->has_problem || pos->has_to_move || pos->taken_a + pos->taken_b))
        printf("%c to move; boxes taken: A %d, B %d\n", pos->to_move, pos->taken_a, pos->taken_b);
    if (pos->unmarked && db->has_problem)
        printf("%d complete box%s without a letter: mark who took %s (A or B) to see the scores of A and B\n",
               pos->unmarked, pos->unmarked == 1 ? "" : "es", pos->unmarked == 1 ? "it" : "them");
    else if (db->has_problem)
        printf("final score for A: %s%s, for B: %s%s\n",
               rdb_tool_signed(rdb_problem_margin(pos, r->a.value, 'A'), (char[RDB_TOOL_SIGNED_MAX]){0}), (char[]){mark, '\0'},
               rdb_tool_signed(rdb_problem_margin(pos, r->a.value, 'B'), (char[RDB_TOOL_SIGNED_MAX]){0}), (char[]){mark, '\0'});
    print_best(db, r);
    const char *star = r->nbest < r->a.nmoves ? "*: a best move" : "";
    if (r->loony)
        printf("%s%sv: A must make the next loony move, ^: B must, no mark: neither\n", star,
               *star ? "; " : "");
    else if (*star)
        printf("%s\n", star);
}

static void print_json_score(FILE *out, const rdb_problem *pos, int value, char player)
{
    if (pos->unmarked)
        fprintf(out, "null");
    else
        fprintf(out, "%d", rdb_problem_margin(pos, value, player));
}

static void print_json_mark(FILE *out, const rdb_dots_ranked *r, int next_loony, char to_move)
{
    if (!r->loony)
        return;
    char m = loony_mark(next_loony, to_move);
    fprintf(out, ",\"loony\":\"%s\"", m == 'v' ? "v" : m == '^' ? "^" : "");
}

void rdb_tool_dots_print_json_fields(FILE *out, const rdb_forms_db *db, const rdb_problem *pos,
                                     const rdb_dots_ranked *r)
{
    const int known = rdb_answer_dots_mover_known(db, pos);
    char words[160];
    fprintf(out, "\"game\":\"dots\",\"rows\":%d,\"cols\":%d,\"value\":%d", db->rows, db->cols,
           r->a.value);
    if (known)
        fprintf(out, ",\"to_move\":\"%c\"", pos->to_move);
    if (known || pos->taken_a + pos->taken_b + pos->unmarked)
        fprintf(out, ",\"taken\":{\"A\":%d,\"B\":%d,\"unmarked\":%d}", pos->taken_a, pos->taken_b,
               pos->unmarked);
    if (db->has_problem) {
        fprintf(out, ",\"score_a\":");
        print_json_score(out, pos, r->a.value, 'A');
        fprintf(out, ",\"score_b\":");
        print_json_score(out, pos, r->a.value, 'B');
    }
    fprintf(out, ",\"words\":");
    rdb_tool_json_string_to(out, rdb_tool_dots_words(db, pos, r->a.value, words, sizeof words));
    print_json_mark(out, r, r->a.next_loony, pos->to_move);
    fprintf(out, ",\"best\":[");
    for (int k = 0; k < r->nbest; k++) {
        char name[RDB_LINE_NAME_MAX];
        rdb_error err;
        rdb_dots_line_name(db->rows, db->cols, r->a.line[r->order[k]], name, sizeof name, &err);
        fprintf(out, "%s\"%s\"", k ? "," : "", name);
    }
    fprintf(out, "],\"moves\":[");
    for (int k = 0; k < r->a.nmoves; k++) {
        int i = r->order[k];
        char name[RDB_LINE_NAME_MAX];
        rdb_error err;
        rdb_dots_line_name(db->rows, db->cols, r->a.line[i], name, sizeof name, &err);
        fprintf(out, "%s{\"line\":\"%s\",\"value\":%d", k ? "," : "", name, r->a.move_value[i]);
        if (db->has_problem) {
            fprintf(out, ",\"score_a\":");
            print_json_score(out, pos, r->a.move_value[i], 'A');
            fprintf(out, ",\"score_b\":");
            print_json_score(out, pos, r->a.move_value[i], 'B');
        }
        fprintf(out, ",\"best\":%s", r->a.move_value[i] == r->a.value ? "true" : "false");
        print_json_mark(out, r, r->a.move_next_loony[i], pos->to_move);
        fprintf(out, "}");
    }
    fprintf(out, "]");
}
