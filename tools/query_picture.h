/*
 * query_picture.h — `retrodb query --svg FILE` and play's `svg FILE`: the
 * answer to a position drawn into a file (query_picture.c), one call for
 * each game, made after the answer is printed.
 */
#ifndef RDB_TOOLS_QUERY_PICTURE_H
#define RDB_TOOLS_QUERY_PICTURE_H

#include "answer_print.h"

/* The picture of a Dots-and-Boxes answer, written to path: the position
 * (lines drawn, letters of the boxes taken), the value of every move (net
 * future boxes for the player to move), the best ones in green, loony
 * marks when the database has them, and who wins under it. 0, or 1 after
 * a message naming the file (an exit status). */
int rdb_query_dots_svg(const char *path, const rdb_forms_db *db, const rdb_problem *pos,
                       const rdb_dots_ranked *r);

/* The picture of a Cram answer, its moves to nimber 0 in green: as
 * rdb_query_dots_svg. */
int rdb_query_cram_svg(const char *path, const rdb_cram_ranked *r);

#endif
