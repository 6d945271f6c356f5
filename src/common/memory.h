/*
 * memory.h — memory for big tables: how much this process may still take,
 * as the machine (or the container it runs in) sees it, so that a table
 * that grows as it fills stops growing before the kernel's out-of-memory
 * killer ends a run of hours; and tables on huge pages.
 */
#ifndef RDB_MEMORY_H
#define RDB_MEMORY_H

#include <stddef.h>
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

/* Zeroed memory from the kernel on huge pages where it gives them: for a
 * big table read at random, where small pages cost a TLB miss on most
 * reads. NULL when it cannot be had; freed by rdb_huge_free with the same
 * size. */
void *rdb_huge_alloc(size_t bytes);
void rdb_huge_free(void *p, size_t bytes);

/* Zeroed memory on small pages, each committed when first written: for a
 * big table of which only scattered parts are made (a huge page would
 * commit 2 MB around each). Freed by rdb_huge_free with the same size. */
void *rdb_lazy_alloc(size_t bytes);

/* Such memory made new_bytes long (more), its contents kept where they
 * are and the rest zeroed: the kernel extends or moves the mapping
 * without copying a page, so the growth costs the new bytes alone. NULL
 * (p untouched) when it cannot be had; else p is no longer valid. */
void *rdb_huge_grow(void *p, size_t bytes, size_t new_bytes);

#endif
