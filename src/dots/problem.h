/*
 * problem.h — Wilson's problem files: a position from a real game together
 * with what its analysis needs (the value of the full position, budgets,
 * who is to move, who took the boxes already complete), and the final
 * scores of players A and B that follow from a stored value.
 *
 * A problem file is read once per build or query, so the parser favours
 * exact messages (file name and line) over speed. The format, in order:
 *
 *   1. the value of the full position (required): a lone integer in
 *      -100..100. 0 is the plain game; -p is a last-move penalty of p
 *      boxes (the player who draws the last line loses p boxes); a positive
 *      value is a last-move bonus. Integers only: Wilson's program refused
 *      fractional penalties since scores for them follow by interpolating
 *      between neighbouring integer penalties.
 *   2. optionally a lone positive integer: the memory budget in MB (the
 *      default of `build --memory`);
 *   3. optionally a lone positive number: the free disk in GB (the default
 *      of `build --disk`); it may only follow the memory line;
 *   4. optionally a line `A` or `B`: the player to move (default A);
 *   5. the board as a diagram (dots_diagram.h) whose first line starts
 *      with '+'. A box already taken holds the letter A or B; it must be
 *      complete (all four sides drawn), and every complete box must hold
 *      one, since the scores of A and B count it.
 * Blank lines and lines starting with '#' (comments) may come anywhere
 * before the diagram; leading and trailing spaces of a header line are
 * ignored.
 *
 * A queried position (rdb_problem_parse_position) follows the same grammar
 * with every header line optional, so a query takes a plain diagram, a
 * diagram after an `A`/`B` line, or a whole problem file; complete boxes
 * without a letter are counted in `unmarked` instead of refused.
 */
#ifndef RDB_PROBLEM_H
#define RDB_PROBLEM_H

#include <stddef.h>

#include "dots/dots_board.h"
#include "dots/dots_diagram.h"

/* The copy of the problem file kept in a database folder. */
#define RDB_PROBLEM_FILE "PROBLEM"

typedef struct {
    int has_value;          /* the value line was given (always, in a problem file) */
    int full_value;         /* value of the full position, -100..100 */
    long memory_mb;         /* 0 = not given */
    double disk_gb;         /* 0 = not given */
    int has_to_move;        /* the A/B line was given */
    char to_move;           /* 'A' or 'B' ('A' when not given) */
    dots_diagram diagram;   /* drawn lines; owner[] is 'A', 'B' or ' ' */
    int diagram_line;       /* line number of the diagram's first line */
    int taken_a, taken_b;   /* boxes marked A and B */
    int unmarked;           /* complete boxes without a letter */
} rdb_problem;

/* Parse a problem file (NUL-terminated text; `source` names it in
 * messages). Malformed input is RDB_E_INPUT naming the line. */
rdb_status rdb_problem_parse(const char *text, const char *source, rdb_problem *out,
                             rdb_error *err);

/* Parse a position to query: the same grammar with every header line
 * optional; complete boxes without a letter are counted, not refused. */
rdb_status rdb_problem_parse_position(const char *text, const char *source, rdb_problem *out,
                                      rdb_error *err);

/* Give the boxes of `pos` without a letter the letter `base` gives them
 * (the boxes taken before the problem's start), and recount. A box marked
 * differently in both is RDB_E_INPUT naming the box. Both must be on the
 * same board. */
rdb_status rdb_problem_inherit_owners(rdb_problem *pos, const rdb_problem *base,
                                      const char *source, rdb_error *err);

/* Count the boxes of pos marked A, marked B, and complete without a
 * letter (taken_a, taken_b, unmarked), on the board b of its size. */
void rdb_problem_count_boxes(const dots_board *b, rdb_problem *pos);

/* Describe in buf the first difference between two problems in what the
 * scores of A and B depend on beyond the database's parameters: the player
 * to move and the letters of the boxes. Returns 0 when they agree. */
int rdb_problem_diff(const rdb_problem *a, const rdb_problem *b, char *buf, size_t bufsize);

/* Final margin of `player` ('A' or 'B') when the player to move gets
 * `value` net future boxes: the boxes taken so far count too. */
int rdb_problem_margin(const rdb_problem *pr, int value, char player);

#endif
