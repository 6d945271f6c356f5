/*
 * loony_offers.h — marking, slice by slice, the positions that follow a
 * loony move (dots_rules_loony_offered), for loony-move analysis.
 *
 * Every position of every slice is tested, so the test is done for a whole
 * row at once: a line m joining two boxes reveals an offer when it is open
 * and the other six sides of its two boxes hold exactly five drawn lines
 * (then one box has three sides and the other two). Per row, the outer
 * groups fix how many of those five must come from the inner group; a
 * table gives, per inner count, line and number, the set of inner states
 * (as a bitset over their ranks) that supply exactly that many, so a row
 * costs one OR of bitsets per interior line instead of a test per position.
 */
#ifndef RDB_LOONY_OFFERS_H
#define RDB_LOONY_OFFERS_H

#include <stdint.h>

#include "dots/dots_rules.h"
#include "layout/layout.h"

typedef struct loony_offers loony_offers;

/* Tables for the rules r (which must have loony analysis) in the bit order
 * of lay (both must outlive the tables); NULL when out of memory. */
loony_offers *loony_offers_new(const rdb_layout *lay, const dots_rules *r);
void loony_offers_free(loony_offers *t);

/* Set the loony state of every position of slice s that follows a loony
 * move to LOONY_MARK_OPPONENT. */
void loony_offers_mark(const loony_offers *t, const rdb_slice *s, int8_t *best);

#endif
