/*
 * dots_proof.h — proving that a Dots-and-Boxes position has a given value
 * as a set of independent sub-proofs, each recorded in a ledger as it
 * finishes, so that a proof of days (4x5) can be stopped, resumed and
 * shared between processes.
 *
 * value(P) = V is split into value(P) >= V (some move is worth at least
 * V) and value(P) <= V (every move is worth at most V). Each such claim
 * is split again over the moves of the position, `depth` plies down; the
 * claims at the bottom are decided by one zero-window search each. A
 * claim that the ledger already decides is not searched again, and every
 * search's result (and every decided claim above it) is appended to the
 * ledger.
 */
#ifndef RDB_DOTS_PROOF_H
#define RDB_DOTS_PROOF_H

#include <stdint.h>

#include "dots/dots_ledger.h"
#include "dots/dots_solver.h"

typedef struct {
    int depth;          /* plies split before the searches (0: search the claims at once) */
    int part, nparts;   /* search only the leaf claims whose position hashes to part mod nparts */
    int verbose;        /* a line on stderr per leaf claim */
} dots_proof_options;

typedef struct {
    int at_least, at_most;  /* value >= V, value <= V: 1 proved, 0 disproved, -1 undecided */
    int searched;           /* leaf claims searched in this run */
    int from_ledger;        /* claims the ledger decided */
    int skipped;            /* leaf claims left to the other parts */
    uint64_t nodes;
} dots_proof_result;

/* Give the solver every bound of the ledger (dots_solver_add_bound),
 * once they are known to agree: bounds of one position (or of its mirror
 * images) that leave it no value are refused (RDB_E_CORRUPT, naming
 * their lines). */
rdb_status dots_proof_use_ledger(dots_solver *s, const dots_ledger *l, rdb_error *err);

/* Try to prove value(lines) = value, recording in the ledger (whose bounds
 * it gives the solver first). */
rdb_status dots_prove(dots_solver *s, dots_ledger *l, uint64_t lines, int value,
                      const dots_proof_options *opt, dots_proof_result *out, rdb_error *err);

#endif
