/*
 * query_picture.h — `retrodb query --svg FILE`: the answer to a query
 * drawn into a file (query_picture.c), one call for each game, for
 * whichever code prints the answer.
 */
#ifndef RDB_TOOLS_QUERY_PICTURE_H
#define RDB_TOOLS_QUERY_PICTURE_H

#include <stdint.h>

#include "retrodb/probe.h"

/* The picture of a Dots-and-Boxes answer a, written to path: the position
 * (rows x cols boxes, the lines drawn, owner a letter per box or ' ', or
 * NULL), the value of every move, the best ones (worth a->value) in
 * green, and caption under it (NULL: who wins, in the words of the text
 * answer). mark is the loony mark of each line id ('v', '^', '\0') or
 * NULL, position_mark the position's. 0, or 1 after a message naming the
 * file (an exit status). */
int rdb_query_dots_svg(const char *path, int rows, int cols, uint64_t drawn, const char *owner,
                       const rdb_dots_answer *a, const char *mark, char position_mark,
                       const char *caption);

/* The picture of a Cram answer a for the position `covered`, its moves
 * to nimber 0 in green: as rdb_query_dots_svg. */
int rdb_query_cram_svg(const char *path, int rows, int cols, uint64_t covered,
                       const rdb_cram_answer *a, const char *caption);

#endif
