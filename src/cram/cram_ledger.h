/*
 * cram_ledger.h — the ledger of a long Cram solve: what the root's trials
 * have found about its moves, one line per answer, read when a solve
 * starts and appended to as each answer comes (cram_solver_set_ledger).
 * A solve of days loses, when stopped, only the root moves it was
 * searching; its ledger, small enough to keep under version control,
 * carries the rest to another machine even without the transposition
 * table. The file's locking and durability: common/ledger_file.h.
 *
 * A line:  <R>x<C> root=<hex> move=(<r>,<c>)-(<r>,<c>) is|not <v> nodes=<N> seconds=<S>
 * e.g.     3x23 root=000000000000001fffffffffffffffff move=(1,10)-(1,11) not 2 nodes=8123 seconds=6.1
 * meaning: on the R x C board, the move covering those two cells in the
 * root component <hex> leaves a position of nimber v (is) or of a nimber
 * other than v (not). The root is the component the solve searched at its
 * root, as 32 hex digits of the set of its cells in the solver's layout
 * (cram_root.c: canonical form, long side down); the cells are
 * (row, column) from 0 in the board's orientation, which for a whole
 * empty board are the board's own cells (and otherwise those of the
 * component's canonical form). <N> and <S> say what finding it cost one
 * thread. Blank lines and lines starting with '#' are comments.
 *
 * The ledger is input like any file: a line not of this form is refused
 * (RDB_E_CORRUPT, naming the line); lines of other boards are skipped. Its
 * claims are trusted as the record of earlier runs of the same search, so
 * a second, independent route to a value keeps a ledger of its own.
 */
#ifndef RDB_CRAM_LEDGER_H
#define RDB_CRAM_LEDGER_H

#include <stdint.h>

#include "common/error.h"
#include "common/path.h"
#include "cram/cram_wide.h"

typedef struct {
    cram_wset root;     /* the root component's cells, in the solver's layout */
    uint8_t cell[2][2]; /* the move's cells: (row, column) on the board */
    int is;             /* 1: the child's nimber is value; 0: it is not */
    int value;
    uint64_t nodes;
    double seconds;
    int lineno;         /* its line in the file (0: added by this process) */
} cram_ledger_entry;

typedef struct {
    int rows, cols;
    cram_ledger_entry *entry;
    int n, cap;
    char path[RDB_PATH_MAX];
} cram_ledger;

/* Read the ledger at path for the rows x cols board (a missing file is an
 * empty ledger, made there now): RDB_E_IO when it cannot be appended to
 * (a missing folder, a symbolic link), since a solve appends to it. */
rdb_status cram_ledger_open(cram_ledger *l, const char *path, int rows, int cols, rdb_error *err);
void cram_ledger_close(cram_ledger *l);

/* Append an answer, to memory and durably to the file. */
rdb_status cram_ledger_add(cram_ledger *l, const cram_ledger_entry *e, rdb_error *err);

#endif
