/*
 * dots_ledger.h — the ledger of a long Dots-and-Boxes proof: a small text
 * file of bounds proved on positions, one per line, that a search reads
 * at start (as known bounds) and appends to as each sub-proof finishes,
 * so that a proof survives being stopped and moved to another machine.
 *
 * A line:  <R>x<C> <full value> >=|<= <bound> nodes=<N> seconds=<S> lines: <lines>
 * e.g.     4x5 0 <= 0 nodes=123456789 seconds=61.2 lines: h2,1 v1,2
 * meaning: on the R x C board whose full position is worth <full value>,
 * the position with exactly <lines> drawn (line names as `query` prints
 * them; '-' for none) is worth at least (>=) or at most (<=) <bound> to
 * the player to move. <N> and <S> say what the proof of that line cost. Blank lines
 * and lines starting with '#' are comments. The ledger is input like any
 * file: a line that is not of this form, or names a line the board does
 * not have, or a bound no position with its boxes left can meet (>= 7
 * with 6 boxes to play for and a full value of 0), makes the whole ledger
 * refused (RDB_E_CORRUPT, naming the line); lines of other boards or full
 * values are skipped. Bounds of one position that contradict each other
 * are found where positions are made canonical (dots_proof_use_ledger).
 */
#ifndef RDB_DOTS_LEDGER_H
#define RDB_DOTS_LEDGER_H

#include <stdint.h>

#include "common/error.h"
#include "common/path.h"
#include "dots/dots_board.h"

typedef struct {
    uint64_t lines;
    int at_least;      /* 1: value >= bound; 0: value <= bound */
    int bound;
    uint64_t nodes;
    double seconds;
    int lineno;        /* its line in the file; 0: added by this process */
} dots_ledger_entry;

typedef struct {
    dots_board board;
    int full_value;
    dots_ledger_entry *entry;
    int n, cap;
    char path[RDB_PATH_MAX];
} dots_ledger;

/* Read the ledger at path for board b and full_value (a missing file is
 * an empty ledger). */
rdb_status dots_ledger_open(dots_ledger *l, const char *path, const dots_board *b, int full_value,
                            rdb_error *err);
void dots_ledger_close(dots_ledger *l);

/* Read the file again for the lines other processes appended since;
 * *added: how many there were. */
rdb_status dots_ledger_refresh(dots_ledger *l, int *added, rdb_error *err);

/* Append a proved bound (to memory and, durably, to the file: one write
 * under an exclusive lock, then fsync, so that two processes sharing a
 * ledger never interleave their lines). */
rdb_status dots_ledger_add(dots_ledger *l, const dots_ledger_entry *e, rdb_error *err);

#endif
