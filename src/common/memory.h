/*
 * memory.h — how much memory this process may still take, as the machine
 * (or the container it runs in) sees it, so that a table that grows as it
 * fills stops growing before the kernel's out-of-memory killer ends a run
 * of hours.
 */
#ifndef RDB_MEMORY_H
#define RDB_MEMORY_H

#include <stdint.h>

/* Bytes the process can still take: the kernel's MemAvailable (free memory
 * and the page cache it can drop), or less when a cgroup limit (a
 * container's memory.max) leaves less; UINT64_MAX when neither can be
 * read. RDB_MEMORY_AVAILABLE_MB in the environment, when set, is taken
 * instead (to hold a run below what the machine has, and for the tests). */
uint64_t rdb_memory_available(void);

/* Whether a table may grow by `more` bytes: they and a margin for the rest
 * of the process fit in rdb_memory_available(). */
int rdb_memory_allows(uint64_t more);

#endif
