/*
 * human.h — numbers as people read them in progress lines and reports:
 * counts with thousands separators, durations as h:mm:ss and days, sizes
 * in MB and GB, and "1 slice" against "2 slices". Machine output (JSON)
 * keeps plain numbers.
 */
#ifndef RDB_HUMAN_H
#define RDB_HUMAN_H

#include <stddef.h>
#include <stdint.h>

/* Room every formatter below needs at most. */
#define RDB_HUMAN_MAX 48

/* 1234567 -> "1,234,567". Returns buf. */
char *rdb_human_count(uint64_t n, char *buf, size_t size);

/* Seconds -> "0.42 s", "42 s", "3:25" (minutes), "1:02:03" (hours) or
 * "2 days 1:02:03". Returns buf. */
char *rdb_human_duration(double seconds, char *buf, size_t size);

/* Bytes -> "512 bytes", "4.1 kB", "12.3 MB", "4.56 GB" (powers of 1000, as disks
 * are sold). Returns buf. */
char *rdb_human_bytes(uint64_t bytes, char *buf, size_t size);

/* "1 slice", "2 slices": the count with thousands separators and the noun,
 * plural with an "s" unless n is 1. Returns buf. */
char *rdb_human_plural(uint64_t n, const char *noun, char *buf, size_t size);

#endif
