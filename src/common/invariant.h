/*
 * invariant.h — checks of what the code relies on, beyond what a test
 * can reach.
 *
 * Policy. `assert` states a local fact that costs nothing to check, and
 * stays on in every build: the project never defines NDEBUG, because a
 * wrong value written into a database that takes days to build is worse
 * than a stop. RDB_INVARIANT states a fact whose check costs real work:
 * a fast path against its reference (a rank from the enumeration's path
 * against a rank from the position alone), a structure walked whole. It
 * is compiled only where RDB_CHECK_INVARIANTS is defined, which `make
 * sanitize` does: every test then runs every such check on every call,
 * under the sanitizers. A failed check names the fact, the file and the
 * line, and aborts.
 */
#ifndef RDB_INVARIANT_H
#define RDB_INVARIANT_H

#ifdef RDB_CHECK_INVARIANTS
#include <stdio.h>
#include <stdlib.h>

#define RDB_CHECKING_INVARIANTS 1
#define RDB_INVARIANT(cond, what)                                                        \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, (what)); \
            abort();                                                                     \
        }                                                                                \
    } while (0)
#else
#define RDB_CHECKING_INVARIANTS 0
/* never run, but compiled (so the checks' functions count as used, and
 * stay correct) */
#define RDB_INVARIANT(cond, what)  \
    do {                           \
        if (0 && !(cond))          \
            (void)(what);          \
    } while (0)
#endif

#endif
