/*
 * problem.c — parsing Wilson's problem files and scoring for players A and
 * B; see problem.h for the format.
 *
 * The header lines (value, budgets, player to move, comments) are read one
 * by one; then they are blanked in a copy of the text, which goes to the
 * diagram parser, so that its messages keep the line numbers of the file.
 */
#include "dots/problem.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "game.h"

/* Where the header is: each line moves the parse forward, never back. */
enum { EXPECT_VALUE, EXPECT_MEMORY, EXPECT_DISK, EXPECT_TO_MOVE, EXPECT_DIAGRAM };

static int is_integer(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    if (!isdigit((unsigned char)*s))
        return 0;
    while (isdigit((unsigned char)*s))
        s++;
    return *s == '\0';
}

/* A decimal number such as 12, 0.5 or .5 (no exponent, no inf/nan). */
static int is_decimal(const char *s)
{
    int digits = 0;
    if (*s == '+' || *s == '-')
        s++;
    for (; isdigit((unsigned char)*s); s++)
        digits++;
    if (*s == '.')
        for (s++; isdigit((unsigned char)*s); s++)
            digits++;
    return digits > 0 && *s == '\0';
}

static int looks_numeric(const char *s)
{
    return isdigit((unsigned char)*s) || *s == '+' || *s == '-' || *s == '.';
}

static rdb_status parse_value(const char *tok, const char *source, int lineno, int *out,
                              rdb_error *err)
{
    if (!is_integer(tok)) {
        if (is_decimal(tok) || strchr(tok, '/'))
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d: '%s': the value of the full position must be an integer (integer penalties only; scores for a fraction lie between those of its neighbours)",
                            source, lineno, tok);
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: line %d: '%s' is not a value of the full position (0, or -p for a last-move penalty of p boxes)",
                        source, lineno, tok);
    }
    errno = 0;
    long v = strtol(tok, NULL, 10);
    if (errno || v < -RDB_MAX_FULL_VALUE || v > RDB_MAX_FULL_VALUE)
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: line %d: the value of the full position %s is out of range (-%d..%d)",
                        source, lineno, tok, RDB_MAX_FULL_VALUE, RDB_MAX_FULL_VALUE);
    *out = (int)v;
    return RDB_OK;
}

/* Read the header lines; on success *diagram_line is the line number where
 * the diagram starts (0 when there is none) and `blanked` has every header
 * line replaced by spaces. */
static rdb_status parse_header(char *blanked, const char *source, int require_value,
                               rdb_problem *out, rdb_error *err)
{
    int stage = EXPECT_VALUE;
    int lineno = 0;
    for (char *p = blanked; *p;) {
        char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        lineno++;
        size_t a = 0, z = n;
        while (a < z && isspace((unsigned char)p[a]))
            a++;
        while (z > a && isspace((unsigned char)p[z - 1]))
            z--;
        if (a < z && p[a] == '+') {
            out->diagram_line = lineno;
            break;
        }
        char tok[64];
        snprintf(tok, sizeof tok, "%.*s", (int)(z - a), p + a);
        if (z - a >= sizeof tok)
            snprintf(tok + sizeof tok - 4, 4, "...");
        int comment = a == z || p[a] == '#';
        if (!comment && stage == EXPECT_VALUE && require_value && !looks_numeric(tok))
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d: expected the value of the full position (0, or -p for a last-move penalty of p boxes), found '%s'",
                            source, lineno, tok);
        if (comment) {
            /* blank line or comment */
        } else if (strcmp(tok, "A") == 0 || strcmp(tok, "B") == 0) {
            if (out->has_to_move)
                return rdb_fail(err, RDB_E_INPUT,
                                "%s: line %d: the player to move is given twice", source, lineno);
            out->has_to_move = 1;
            out->to_move = tok[0];
            stage = EXPECT_DIAGRAM;
        } else if (looks_numeric(tok)) {
            rdb_status st = RDB_OK;
            if (stage == EXPECT_VALUE) {
                st = parse_value(tok, source, lineno, &out->full_value, err);
                out->has_value = 1;
                stage = EXPECT_MEMORY;
            } else if (stage == EXPECT_MEMORY) {
                errno = 0;
                long mb = is_integer(tok) ? strtol(tok, NULL, 10) : 0;
                if (errno || mb < 1 || mb > (1L << 30))
                    return rdb_fail(err, RDB_E_INPUT,
                                    "%s: line %d: bad memory budget '%s' (a whole number of megabytes)",
                                    source, lineno, tok);
                out->memory_mb = mb;
                stage = EXPECT_DISK;
            } else if (stage == EXPECT_DISK) {
                double gb = is_decimal(tok) ? strtod(tok, NULL) : 0;
                if (!(gb > 0) || !isfinite(gb))
                    return rdb_fail(err, RDB_E_INPUT,
                                    "%s: line %d: bad free disk '%s' (gigabytes, more than 0)",
                                    source, lineno, tok);
                out->disk_gb = gb;
                stage = EXPECT_TO_MOVE;
            } else if (stage == EXPECT_TO_MOVE) {
                return rdb_fail(err, RDB_E_INPUT,
                                "%s: line %d: '%s': at most three numbers come before the diagram (the value of the full position, memory in MB, free disk in GB)",
                                source, lineno, tok);
            } else {
                return rdb_fail(err, RDB_E_INPUT,
                                "%s: line %d: '%s': the numbers come before the line saying who is to move",
                                source, lineno, tok);
            }
            if (st != RDB_OK)
                return st;
        } else {
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d: expected %s, found '%s'", source, lineno,
                            stage == EXPECT_DIAGRAM ? "the diagram (a line starting with '+')"
                                                    : "a number, 'A' or 'B' (who is to move), or the diagram",
                            tok);
        }
        memset(p, ' ', n);
        p = e ? e + 1 : p + n;
    }
    if (require_value && !out->has_value)
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: no value of the full position: the first line of a problem file is 0, or -p for a last-move penalty of p boxes",
                        source);
    return RDB_OK;
}

/* Whether all four sides of box `box` are drawn. */
static int box_complete(const dots_board *b, uint64_t drawn, int box)
{
    for (int k = 0; k < 4; k++)
        if (!(drawn >> b->box_line[box][k] & 1))
            return 0;
    return 1;
}

void rdb_problem_count_boxes(const dots_board *b, rdb_problem *pos)
{
    pos->taken_a = pos->taken_b = pos->unmarked = 0;
    for (int box = 0; box < b->nboxes; box++) {
        const int complete = box_complete(b, pos->diagram.drawn, box);
        char o = pos->diagram.owner[box];
        pos->taken_a += o == 'A';
        pos->taken_b += o == 'B';
        pos->unmarked += o == ' ' && complete;
    }
}

/* Check each box against its letter, then count them. */
static rdb_status check_boxes(rdb_problem *out, const char *source, int refuse_unmarked,
                              rdb_error *err)
{
    dots_board board;
    rdb_status st = dots_board_init(&board, out->diagram.rows, out->diagram.cols, err);
    if (st != RDB_OK)
        return st;
    for (int box = 0; box < board.nboxes; box++) {
        int r = box / board.cols, c = box % board.cols;
        int lineno = out->diagram_line + 2 * r + 1, col = 2 * c + 2;
        const int complete = box_complete(&board, out->diagram.drawn, box);
        char letter = out->diagram.owner[box];
        if (letter != ' ' && letter != 'A' && letter != 'B')
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d, column %d: box letter '%c': a box is taken by A or B",
                            source, lineno, col, letter);
        if (letter != ' ' && !complete)
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d, column %d: box marked %c is not complete (a taken box has all four sides drawn)",
                            source, lineno, col, letter);
        if (letter == ' ' && complete && refuse_unmarked)
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d, column %d: complete box without a letter; mark who took it with A or B",
                            source, lineno, col);
    }
    rdb_problem_count_boxes(&board, out);
    return RDB_OK;
}

static rdb_status parse(const char *text, const char *source, int problem_file,
                        rdb_problem *out, rdb_error *err)
{
    memset(out, 0, sizeof *out);
    out->to_move = 'A';
    char *blanked = strdup(text);
    if (!blanked)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory reading '%s'", source);
    rdb_status st = parse_header(blanked, source, problem_file, out, err);
    if (st == RDB_OK)
        st = dots_diagram_parse(blanked, source, &out->diagram, err);
    free(blanked);
    if (st != RDB_OK)
        return st;
    return check_boxes(out, source, problem_file, err);
}

rdb_status rdb_problem_parse(const char *text, const char *source, rdb_problem *out,
                             rdb_error *err)
{
    return parse(text, source, 1, out, err);
}

rdb_status rdb_problem_parse_position(const char *text, const char *source, rdb_problem *out,
                                      rdb_error *err)
{
    return parse(text, source, 0, out, err);
}

rdb_status rdb_problem_inherit_owners(rdb_problem *pos, const rdb_problem *base,
                                      const char *source, rdb_error *err)
{
    dots_board board;
    rdb_status st = dots_board_init(&board, pos->diagram.rows, pos->diagram.cols, err);
    if (st != RDB_OK)
        return st;
    for (int box = 0; box < board.nboxes; box++) {
        const char mine = pos->diagram.owner[box], theirs = base->diagram.owner[box];
        if (theirs == ' ')
            continue;
        const int complete = box_complete(&board, pos->diagram.drawn, box);
        /* a box still open here is not the position's to be marked: the
         * probe refuses it for lacking lines of the start, and says so */
        if (mine == ' ') {
            if (complete)
                pos->diagram.owner[box] = theirs;
        } else if (mine != theirs) {
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: line %d, column %d: box marked %c here was taken by %c in the problem",
                            source, pos->diagram_line + 2 * (box / pos->diagram.cols) + 1,
                            2 * (box % pos->diagram.cols) + 2, mine, theirs);
        }
    }
    return check_boxes(pos, source, 0, err);
}

int rdb_problem_diff(const rdb_problem *a, const rdb_problem *b, char *buf, size_t bufsize)
{
    if (a->to_move != b->to_move)
        return snprintf(buf, bufsize, "player to move %c differs from %c", a->to_move,
                        b->to_move), 1;
    if (a->diagram.rows != b->diagram.rows || a->diagram.cols != b->diagram.cols)
        return snprintf(buf, bufsize, "board %dx%d differs from %dx%d", a->diagram.rows,
                        a->diagram.cols, b->diagram.rows, b->diagram.cols), 1;
    for (int box = 0; box < a->diagram.rows * a->diagram.cols; box++)
        if (a->diagram.owner[box] != b->diagram.owner[box])
            return snprintf(buf, bufsize, "box in row %d, column %d is marked '%c', not '%c'",
                            box / a->diagram.cols + 1, box % a->diagram.cols + 1,
                            a->diagram.owner[box], b->diagram.owner[box]), 1;
    return 0;
}

int rdb_problem_margin(const rdb_problem *pr, int value, char player)
{
    const int a_margin =
        (pr->taken_a - pr->taken_b) + (pr->to_move == 'A' ? value : -value);
    return player == 'A' ? a_margin : -a_margin;
}
