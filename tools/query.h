/*
 * query.h — what `retrodb query` was asked (query.c), and the answer to
 * one position (query_answer.c), which its batch mode (query_batch.c)
 * gives for every position of a stream.
 */
#ifndef RDB_TOOLS_QUERY_H
#define RDB_TOOLS_QUERY_H

#include "answer_print.h"
#include "options.h"

typedef struct {
    const char *dir;
    const char *file;          /* the position's file; NULL: standard input */
    const char *moves, *dbn, *cells;
    const char *svg;            /* --svg: the picture's file, or NULL */
    int board_rows, board_cols; /* --board (Cram), 0 when not given */
    int json, batch, pv, raw;
    long memory_mb;             /* --batch holds the database in memory up to this */
} rdb_query_request;

/* A position of either game. */
typedef struct {
    int game;
    rdb_problem dots;                /* Dots-and-Boxes */
    rdb_form_cram cram;     /* Cram */
} rdb_query_position;

/* Look pos up and print its answer as q asks: the full answer, or with a
 * label (batch mode) one line of text or one JSON line that carries the
 * label. Returns the exit status (after a message on stderr, or in the
 * JSON line for a batch). */
int rdb_query_answer(rdb_probe *p, const rdb_query_request *q, const rdb_forms_db *db,
                     const rdb_query_position *pos, const char *label, long n);

/* The answer to pos as one JSON object (no newline) on out: the fields
 * query --json prints, "pv" too when pv is set, and a batch's "n" and
 * "input" when label is set. This is the one writer of that object:
 * query, its batch mode and the web server (serve.c) all go through it.
 * *wrote says whether anything was written: a failed lookup writes
 * nothing; a failure in the perfect game closes the object first. */
rdb_status rdb_query_write_json(FILE *out, rdb_probe *p, const rdb_forms_db *db,
                                const rdb_query_position *pos, int pv, const char *label, long n,
                                int *wrote, rdb_error *err);

/* The JSON line of a batch position that could not be answered:
 * {"n":N,"input":"...","error":"..."}. */
void rdb_query_json_error(long n, const char *input, const char *message);

/* Answer every position of the stream q names, one after the other:
 * --batch. Returns the worst exit status (1 before 2 before 0). */
int rdb_query_batch(const rdb_tool_command *cmd, const rdb_query_request *q,
                    const rdb_forms_db *db);

#endif
