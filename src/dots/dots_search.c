/*
 * dots_search.c — see dots_search.h. Open addressing on canonical
 * positions, grown by doubling; recursion depth is at most the number of
 * open lines.
 */
#include "dots/dots_search.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const rdb_layout *lay;
    const dots_rules *rules;
    rdb_stored_fn stored;
    void *ctx;
    uint64_t *key;          /* canonical position + 1; 0 = empty slot */
    int8_t *val;
    size_t cap, n;
} memo;

static size_t slot(const memo *m, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ULL;
    size_t i = (size_t)(h >> 20) & (m->cap - 1);
    while (m->key[i] && m->key[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static int grow(memo *m)
{
    memo big = *m;
    big.cap = m->cap ? 2 * m->cap : 1 << 12;
    big.key = calloc(big.cap, sizeof *big.key);
    big.val = malloc(big.cap);
    if (!big.key || !big.val) {
        free(big.key);
        free(big.val);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->key[i]) {
            size_t j = slot(&big, m->key[i]);
            big.key[j] = m->key[i];
            big.val[j] = m->val[i];
        }
    free(m->key);
    free(m->val);
    *m = big;
    return 0;
}

static rdb_status solve(memo *m, uint64_t pos, int *value, rdb_error *err)
{
    const rdb_layout *lay = m->lay;
    uint64_t canon = rdb_layout_canonical(lay, pos);
    if (canon == (lay->nbits == 64 ? ~0ULL : (1ULL << lay->nbits) - 1)) {
        *value = m->rules->full_value;
        return RDB_OK;
    }
    rdb_status st = m->stored(m->ctx, canon, value, err);
    if (st != RDB_E_MISSING)
        return st;
    if (2 * (m->n + 1) > m->cap && grow(m) != 0)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory solving a position");
    size_t i = slot(m, canon + 1);
    if (m->key[i]) {
        *value = m->val[i];
        return RDB_OK;
    }
    int best = -128;
    for (int b = 0; b < lay->nbits; b++) {
        if (pos >> b & 1)
            continue;
        int v;
        st = solve(m, pos | 1ULL << b, &v, err);
        if (st != RDB_OK)
            return st;
        int c = dots_rules_move(m->rules, pos, b, v);
        if (c > best)
            best = c;
    }
    best = dots_rules_key(m->rules, pos, best);
    /* the recursion may have grown the table: find the slot again */
    i = slot(m, canon + 1);
    m->key[i] = canon + 1;
    m->val[i] = (int8_t)best;
    m->n++;
    *value = best;
    return RDB_OK;
}

rdb_status dots_search_value(const dots_rules *r, const rdb_layout *lay, uint64_t pos,
                             rdb_stored_fn stored, void *ctx, int *value, rdb_error *err)
{
    int open = lay->nbits - __builtin_popcountll(pos);
    if (open > DOTS_SEARCH_MAX_OPEN)
        return rdb_fail(err, RDB_E_MISSING,
                        "the position has %d open lines and its level is not stored; on-the-spot search handles at most %d",
                        open, DOTS_SEARCH_MAX_OPEN);
    memo m;
    memset(&m, 0, sizeof m);
    m.lay = lay;
    m.rules = r;
    m.stored = stored;
    m.ctx = ctx;
    rdb_status st = grow(&m) == 0 ? solve(&m, pos, value, err)
                                  : rdb_fail(err, RDB_E_NOMEM, "out of memory solving a position");
    free(m.key);
    free(m.val);
    return st;
}
