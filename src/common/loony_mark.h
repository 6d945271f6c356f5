/*
 * loony_mark.h — who must make the next loony move under best play: the
 * mark a database built with loony analysis keeps in each stored key's
 * two low bits, and the mark a game without loony analysis reports.
 *
 * The games and the engine write and read these; programs see the same
 * numbers as RDB_LOONY_* in retrodb/probe.h, which the probe checks are
 * equal (the games stay below the public API and never include it).
 */
#ifndef RDB_LOONY_MARK_H
#define RDB_LOONY_MARK_H

#define LOONY_MARK_MOVER 0    /* the player to move */
#define LOONY_MARK_NONE 1     /* neither player */
#define LOONY_MARK_OPPONENT 2 /* the other player */

#endif
