/*
 * dots_start.h — where a Dots-and-Boxes build or search starts: a named
 * variant of a board, a diagram of the lines drawn, or a problem file
 * (dots/problem.h: a diagram with the boxes' letters, the player to move
 * and the last-move penalty); and the problem a database folder keeps
 * beside its levels (PROBLEM), so that even an unfinished database says
 * what it analyses. `build dots` and `solve dots` start from here.
 */
#ifndef RDB_API_DOTS_START_H
#define RDB_API_DOTS_START_H

#include <stdint.h>

#include "dots/problem.h"
#include "engine/db.h"

/* Whether `variant` names a variant ("empty", "swedish", "icelandic"). */
int rdb_dots_variant_named(const char *variant);

/* The lines drawn at the start of variant `variant` ("empty", "swedish",
 * "icelandic") of the rows x cols board. RDB_E_INPUT for another name or
 * a board of more than 64 lines. */
rdb_status rdb_dots_start_variant(int rows, int cols, const char *variant, uint64_t *start,
                                  rdb_error *err);

/* A diagram's board and lines (the boxes' letters ignored). RDB_E_INPUT,
 * naming the line and column, for a malformed one. */
rdb_status rdb_dots_start_diagram(const char *text, const char *source, int *rows, int *cols,
                                  uint64_t *start, rdb_error *err);

/* A problem file, read. RDB_E_INPUT for a malformed one. */
rdb_status rdb_dots_start_problem(const char *text, const char *source, rdb_problem *prob,
                                  rdb_error *err);

/* A position as query reads one: a diagram with an optional A/B line
 * (dots/problem.h); the defaults for what it does not say (A to move, no
 * penalty, nothing taken). RDB_E_INPUT for a malformed one. */
rdb_status rdb_dots_start_position(const char *text, const char *source, rdb_problem *pos,
                                   rdb_error *err);

/* Keep the problem file `text` (prob, read) in dir as PROBLEM before a
 * build of `params`. A folder that already holds this build (the same
 * PARAMS) keeps its PROBLEM unless only the budgets or comments differ:
 * another player to move or other letters in the boxes would change the
 * scores of finished work, so they are refused (RDB_E_INPUT). When the
 * folder holds other parameters or a running builder, nothing is written
 * and the builder refuses with its own message. */
rdb_status rdb_dots_problem_keep(const char *dir, const rdb_params *params, const char *text,
                                 const rdb_problem *prob, rdb_error *err);

#endif
