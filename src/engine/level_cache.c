/*
 * level_cache.c — see level_cache.h. A level has at most a few thousand
 * slices and each lookup is followed by work on millions of positions, so a
 * linear search is all the index this needs.
 */
#include "engine/level_cache.h"

#include <stdlib.h>
#include <string.h>

void rdb_level_cache_init(rdb_level_cache *c, int ngroups, uint64_t limit)
{
    memset(c, 0, sizeof *c);
    c->ngroups = ngroups;
    c->limit = limit;
}

void rdb_level_cache_put(rdb_level_cache *c, const rdb_slice *s, const int8_t *values)
{
    if (c->bytes + s->size > c->limit || rdb_level_cache_get(c, s))
        return;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        rdb_cached_slice *ne = realloc(c->e, cap * sizeof *ne);
        if (!ne)
            return;
        c->e = ne;
        c->cap = cap;
    }
    int8_t *copy = malloc(s->size ? s->size : 1);
    if (!copy)
        return;
    memcpy(copy, values, s->size);
    c->e[c->n].slice = *s;
    c->e[c->n].values = copy;
    c->n++;
    c->bytes += s->size;
}

const int8_t *rdb_level_cache_get(const rdb_level_cache *c, const rdb_slice *s)
{
    for (size_t i = 0; i < c->n; i++)
        if (rdb_slice_equal(&c->e[i].slice, s, c->ngroups))
            return c->e[i].values;
    return NULL;
}

void rdb_level_cache_drop_above(rdb_level_cache *c, int level)
{
    size_t kept = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (c->e[i].slice.level > level) {
            c->bytes -= c->e[i].slice.size;
            free(c->e[i].values);
        } else {
            c->e[kept++] = c->e[i];
        }
    }
    c->n = kept;
}

void rdb_level_cache_free(rdb_level_cache *c)
{
    rdb_level_cache_drop_above(c, -1);
    free(c->e);
    memset(c, 0, sizeof *c);
}
