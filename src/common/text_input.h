/*
 * text_input.h — reading what a user gives as text (a diagram, a problem
 * file, a start position) whole into memory, from a file or standard
 * input. The text is refused when it holds a NUL byte or passes 16 MB, so
 * a parser never sees a binary or an endless stream.
 */
#ifndef RDB_TEXT_INPUT_H
#define RDB_TEXT_INPUT_H

#include <stdio.h>

#include "common/error.h"

/* Read a whole stream into a NUL-terminated malloc'd buffer; name is the
 * stream's name for messages. */
rdb_status rdb_read_stream(FILE *f, const char *name, char **text, rdb_error *err);

/* Read a whole file (or standard input when path is NULL or "-"). */
rdb_status rdb_read_file(const char *path, char **text, rdb_error *err);

#endif
