/*
 * fuzz_problem.c — fuzz target `problem`: Wilson's problem files and the
 * positions `retrodb query` reads with the same grammar
 * (rdb_problem_parse, rdb_problem_parse_position), then what the query
 * does with the two (rdb_problem_inherit_owners, rdb_problem_diff,
 * rdb_problem_margin).
 *
 * The grammar of a position is the problem file's with every header line
 * optional, so whatever parses as a problem file must parse as a position
 * and read the same: the harness aborts when it does not.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dots/problem.h"
#include "fuzz_util.h"

static void broken(const char *what)
{
    fprintf(stderr, "problem: %s\n", what);
    abort();
}

static void disagree(const char *what)
{
    fprintf(stderr, "a problem file reads differently as a position: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    rdb_problem prob, pos;
    rdb_error err;
    int prob_ok = rdb_problem_parse(text, "fuzz", &prob, &err) == RDB_OK;
    int pos_ok = rdb_problem_parse_position(text, "fuzz", &pos, &err) == RDB_OK;
    free(text);

    if (prob_ok) {
        if (!pos_ok)
            disagree(err.msg);
        if (pos.diagram.rows != prob.diagram.rows || pos.diagram.cols != prob.diagram.cols ||
            pos.diagram.drawn != prob.diagram.drawn)
            disagree("another diagram");
        if (pos.to_move != prob.to_move || pos.full_value != prob.full_value ||
            pos.memory_mb != prob.memory_mb || pos.disk_gb != prob.disk_gb)
            disagree("another header");
        if (pos.taken_a != prob.taken_a || pos.taken_b != prob.taken_b || pos.unmarked != 0)
            disagree("other boxes taken");
        if (prob.full_value < -100 || prob.full_value > 100)
            broken("the value of the full position is out of -100..100");
    }
    if (pos_ok) {
        char buf[256];
        (void)rdb_problem_margin(&pos, pos.full_value, 'A');
        (void)rdb_problem_margin(&pos, -pos.full_value, 'B');
        if (prob_ok) {
            /* what a query does with a position of a problem's database */
            if (rdb_problem_diff(&pos, &prob, buf, sizeof buf) != 0)
                disagree(buf);
            if (rdb_problem_inherit_owners(&pos, &prob, "fuzz", &err) != RDB_OK)
                disagree(err.msg);
        } else {
            /* a position against itself must agree and keep its letters */
            rdb_problem copy = pos;
            if (rdb_problem_diff(&pos, &copy, buf, sizeof buf) != 0)
                broken(buf);
            (void)rdb_problem_inherit_owners(&pos, &copy, "fuzz", &err);
        }
    }
    return 0;
}
