/*
 * query_answer.c — the answer to one position of `retrodb query`, in the
 * form the request asks: the full answer as text or JSON, or one line of a
 * batch; the perfect game after it with --pv.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "query.h"
#include "query_picture.h"

#include "game.h"


void rdb_query_json_error(long n, const char *input, const char *message)
{
    printf("{\"n\":%ld,\"input\":", n);
    rdb_tool_json_string(input);
    printf(",\"error\":");
    rdb_tool_json_string(message);
    printf("}\n");
}

/* A failed lookup: the message on stderr, or as the JSON line of a batch
 * position. Returns the exit status. */
static int failed(const rdb_query_request *q, rdb_status st, const rdb_error *err,
                  const char *label, long n)
{
    if (label && q->json) {
        rdb_query_json_error(n, label, err->msg);
        return rdb_tool_exit_code(st);
    }
    if (label && strncmp(label, "position ", 9) == 0)
        fprintf(stderr, "retrodb: %s: %s\n", label, err->msg); /* a diagram's own label */
    else if (label)
        fprintf(stderr, "retrodb: position %ld (%s): %s\n", n, label, err->msg);
    else
        fprintf(stderr, "retrodb: %s\n", err->msg);
    return rdb_tool_exit_code(st);
}

/* One line of a batch's text: "LABEL: value +2: A to move wins by 2; best: v0,1". */
static void dots_line(const rdb_forms_db *db, const rdb_problem *pos,
                      const rdb_dots_ranked *r, const char *label)
{
    char words[160];
    printf("%s: value %s: %s; best:", label, rdb_tool_signed(r->a.value, (char[RDB_TOOL_SIGNED_MAX]){0}),
           rdb_tool_dots_words(db, pos, r->a.value, words, sizeof words));
    for (int k = 0; k < r->nbest; k++) {
        char name[RDB_LINE_NAME_MAX];
        rdb_error err;
        rdb_dots_line_name(db->rows, db->cols, r->a.line[r->order[k]], name, sizeof name, &err);
        printf(" %s", name);
    }
    printf("%s\n", r->a.nmoves ? "" : " none (the board is full)");
}

static void cram_line(const rdb_cram_ranked *r, const char *label)
{
    char words[64];
    printf("%s: nimber %d: %s; winning:", label, r->nimber,
           rdb_tool_cram_outcome(r->nimber, "the player to move", words, sizeof words));
    for (int k = 0; k < r->nwinning; k++) {
        int i = r->order[k];
        printf(" %d,%d-%d,%d", r->cell[i][0][0], r->cell[i][0][1], r->cell[i][1][0],
               r->cell[i][1][1]);
    }
    printf("%s\n", r->nwinning ? "" : " none");
}

/* "{" and, in a batch, the position's number and input. */
static void json_open(FILE *out, const char *label, long n)
{
    fprintf(out, "{");
    if (!label)
        return;
    fprintf(out, "\"n\":%ld,\"input\":", n);
    rdb_tool_json_string_to(out, label);
    fprintf(out, ",");
}

rdb_status rdb_query_write_json(FILE *out, rdb_probe *p, const rdb_forms_db *db,
                                const rdb_query_position *pos, int pv, const char *label, long n,
                                int *wrote, rdb_error *err)
{
    *wrote = 0;
    rdb_status st;
    if (pos->game == RDB_GAME_CRAM) {
        rdb_cram_ranked *r = malloc(sizeof *r);
        if (!r)
            return rdb_fail(err, RDB_E_NOMEM, "out of memory");
        st = rdb_answer_cram(p, &pos->cram, r, err);
        if (st == RDB_OK) {
            *wrote = 1;
            json_open(out, label, n);
            rdb_tool_cram_print_json_fields(out, r);
            if (pv)
                st = rdb_tool_cram_perfect_game(out, p, r, 1, err);
            fprintf(out, "}");
        }
        free(r);
        return st;
    }
    rdb_dots_ranked *r = malloc(sizeof *r);
    if (!r)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    st = rdb_answer_dots(p, db, &pos->dots, r, err);
    if (st == RDB_OK) {
        *wrote = 1;
        json_open(out, label, n);
        rdb_tool_dots_print_json_fields(out, db, &pos->dots, r);
        if (pv)
            st = rdb_tool_dots_perfect_game(out, p, db, &pos->dots, 1, err);
        fprintf(out, "}");
    }
    free(r);
    return st;
}

/* The JSON answer on stdout, one line: the object, or (nothing written)
 * the failure as failed() reports it. */
static int answer_json(rdb_probe *p, const rdb_query_request *q, const rdb_forms_db *db,
                       const rdb_query_position *pos, const char *label, long n)
{
    rdb_error err;
    int wrote;
    rdb_status st = rdb_query_write_json(stdout, p, db, pos, q->pv, label, n, &wrote, &err);
    if (wrote)
        printf("\n");
    return st == RDB_OK ? 0 : failed(q, st, &err, label, n);
}

static int answer_dots(rdb_probe *p, const rdb_query_request *q, const rdb_forms_db *db,
                       const rdb_problem *pos, const char *label, long n)
{
    rdb_dots_ranked *r = malloc(sizeof *r);
    rdb_error err;
    if (!r)
        return fprintf(stderr, "retrodb: out of memory\n"), 1;
    rdb_status st = rdb_answer_dots(p, db, pos, r, &err);
    if (st != RDB_OK) {
        free(r);
        return failed(q, st, &err, label, n);
    }
    if (label)
        dots_line(db, pos, r, label);
    else
        rdb_tool_dots_print_text(db, pos, r, q->raw);
    if (q->pv)
        st = rdb_tool_dots_perfect_game(stdout, p, db, pos, 0, &err);
    int rc = st == RDB_OK ? 0 : failed(q, st, &err, label, n);
    if (q->svg && rdb_query_dots_svg(q->svg, db, pos, r) && !rc)
        rc = 1;
    free(r);
    return rc;
}

static int answer_cram(rdb_probe *p, const rdb_query_request *q,
                       const rdb_form_cram *pos, const char *label, long n)
{
    rdb_cram_ranked *r = malloc(sizeof *r);
    rdb_error err;
    if (!r)
        return fprintf(stderr, "retrodb: out of memory\n"), 1;
    rdb_status st = rdb_answer_cram(p, pos, r, &err);
    if (st != RDB_OK) {
        free(r);
        return failed(q, st, &err, label, n);
    }
    if (label)
        cram_line(r, label);
    else
        rdb_tool_cram_print_text(r);
    if (q->pv)
        st = rdb_tool_cram_perfect_game(stdout, p, r, 0, &err);
    int rc = st == RDB_OK ? 0 : failed(q, st, &err, label, n);
    if (q->svg && rdb_query_cram_svg(q->svg, r) && !rc)
        rc = 1;
    free(r);
    return rc;
}

/* --svg with --json: the picture is drawn from a lookup of its own */
static int json_svg(rdb_probe *p, const rdb_query_request *q, const rdb_forms_db *db,
                    const rdb_query_position *pos)
{
    rdb_error err;
    int bad = 0;
    if (pos->game == RDB_GAME_CRAM) {
        rdb_cram_ranked *r = malloc(sizeof *r);
        bad = !r || rdb_answer_cram(p, &pos->cram, r, &err) != RDB_OK ||
              rdb_query_cram_svg(q->svg, r);
        free(r);
    } else {
        rdb_dots_ranked *r = malloc(sizeof *r);
        bad = !r || rdb_answer_dots(p, db, &pos->dots, r, &err) != RDB_OK ||
              rdb_query_dots_svg(q->svg, db, &pos->dots, r);
        free(r);
    }
    return bad;
}

int rdb_query_answer(rdb_probe *p, const rdb_query_request *q, const rdb_forms_db *db,
                     const rdb_query_position *pos, const char *label, long n)
{
    if (q->json) {
        int rc = answer_json(p, q, db, pos, label, n);
        if (q->svg && rc == 0 && json_svg(p, q, db, pos))
            rc = 1;
        return rc;
    }
    if (pos->game == RDB_GAME_CRAM)
        return answer_cram(p, q, &pos->cram, label, n);
    return answer_dots(p, q, db, &pos->dots, label, n);
}
