/*
 * number.h — reading numbers from the command line and from files.
 *
 * Every number retrodb reads goes through here, so that none can wrap:
 * "4294967299x3" must be refused, not read as a 3x3 board. Each function
 * reads the whole string (no trailing text, no empty string), checks for
 * overflow and for the range the caller allows, and returns 0 on success
 * or -1 with *out untouched.
 */
#ifndef RDB_NUMBER_H
#define RDB_NUMBER_H

#include <stdint.h>

/* A decimal integer in [lo, hi]. */
int rdb_parse_long(const char *s, long lo, long hi, long *out);
int rdb_parse_int(const char *s, int lo, int hi, int *out);

/* An unsigned integer in base 10 or 16 (with or without "0x"), up to
 * max. */
int rdb_parse_u64(const char *s, int base, uint64_t max, uint64_t *out);

/* A board size "RxC" with 1 <= R, C <= max. */
int rdb_parse_board(const char *s, int max, int *rows, int *cols);

#endif
