/*
 * memory.c — how much memory is left to take, and tables on huge pages;
 * see memory.h.
 */
#define _GNU_SOURCE /* mremap */
#include "common/memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A number read from the first line of a file ("max" and the like: 0). */
static uint64_t read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned long long v = 0;
    if (fscanf(f, "%llu", &v) != 1)
        v = 0;
    fclose(f);
    return v;
}

/* The value of `name` in a file of "name value" lines, or 0. */
static uint64_t stat_field(const char *path, const char *name)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256];
    const size_t len = strlen(name);
    unsigned long long v = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, name, len) && line[len] == ' ' && sscanf(line + len, "%llu", &v) == 1)
            break;
    fclose(f);
    return v;
}

/* MemAvailable of /proc/meminfo ("MemAvailable:   123 kB"), or UINT64_MAX. */
static uint64_t meminfo_available(void)
{
    const uint64_t kb = stat_field("/proc/meminfo", "MemAvailable:");
    return kb ? kb << 10 : UINT64_MAX;
}

uint64_t rdb_memory_available(void)
{
    const char *forced = getenv("RDB_MEMORY_AVAILABLE_MB");
    if (forced && *forced)
        return (uint64_t)strtoull(forced, NULL, 10) << 20;
    uint64_t avail = meminfo_available();
    /* cgroup v2: the limit less what the group holds but its page cache,
     * which the kernel drops first (memory.max reads "max" when there is
     * no limit) */
    const uint64_t limit = read_number("/sys/fs/cgroup/memory.max");
    if (limit) {
        uint64_t used = read_number("/sys/fs/cgroup/memory.current");
        const uint64_t cache = stat_field("/sys/fs/cgroup/memory.stat", "file");
        used = used > cache ? used - cache : 0;
        const uint64_t left = limit > used ? limit - used : 0;
        if (left < avail)
            avail = left;
    }
    return avail;
}

/* What the rest of the process and the system may still want beside a
 * table: its other tables, a table file's buffers, the page cache a save
 * fills. */
#define MARGIN (512ULL << 20)

int rdb_memory_allows(uint64_t more)
{
    const uint64_t avail = rdb_memory_available();
    return avail == UINT64_MAX || more + MARGIN <= avail;
}

/* The kernel's page sizes asked for, where it has the advice (0: none). */
#ifdef MADV_HUGEPAGE
#define HUGE_PAGES MADV_HUGEPAGE
#else
#define HUGE_PAGES 0
#endif
#ifdef MADV_NOHUGEPAGE
#define SMALL_PAGES MADV_NOHUGEPAGE
#else
#define SMALL_PAGES 0
#endif

/* A fresh mapping of `bytes` (MAP_FAILED: NULL), given the advice. */
static void *advised(void *p, size_t bytes, int advice)
{
    if (p == MAP_FAILED)
        return NULL;
    if (advice)
        madvise(p, bytes, advice);
    return p;
}

static void *new_mapping(size_t bytes, int advice)
{
    if (bytes == 0)
        bytes = 1;
    return advised(mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                   bytes, advice);
}

void *rdb_huge_alloc(size_t bytes)
{
    return new_mapping(bytes, HUGE_PAGES);
}

void *rdb_lazy_alloc(size_t bytes)
{
    return new_mapping(bytes, SMALL_PAGES);
}

void rdb_huge_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes ? bytes : 1);
}

void *rdb_huge_grow(void *p, size_t bytes, size_t new_bytes)
{
    return advised(mremap(p, bytes, new_bytes, MREMAP_MAYMOVE), new_bytes, HUGE_PAGES);
}
