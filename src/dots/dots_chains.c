/*
 * dots_chains.c — finding the chains of a start position and tabulating
 * the value of moving into one; see dots_chains.h. Runs once per database
 * setup, so it favours plainness over speed.
 */
#include "dots/dots_chains.h"

#include <stdlib.h>
#include <string.h>

/* Sides of box drawn in `lines`. */
static int box_sides(const dots_board *b, int box, uint64_t lines)
{
    int n = 0;
    for (int s = 0; s < 4; s++)
        n += (int)(lines >> b->box_line[box][s] & 1);
    return n;
}

rdb_status dots_find_chains(const dots_board *b, uint64_t start, dots_chain *out, int *nchains,
                            rdb_error *err)
{
    int chain_of[DOTS_MAX_BOXES];
    int n = 0;
    for (int x = 0; x < b->nboxes; x++)
        chain_of[x] = -1;
    /* Grow each chain from its lowest box through undrawn sides shared with
     * other two-sided boxes; boxes have two undrawn sides, so a chain is a
     * path or a loop and the walk visits it whole. */
    for (int x0 = 0; x0 < b->nboxes; x0++) {
        if (chain_of[x0] >= 0 || box_sides(b, x0, start) != 2)
            continue;
        if (n == DOTS_MAX_CHAINS)
            return rdb_fail(err, RDB_E_INPUT, "the start position has more than %d chains",
                            DOTS_MAX_CHAINS);
        dots_chain *ch = &out[n];
        memset(ch, 0, sizeof *ch);
        int stack[DOTS_MAX_BOXES], top = 0;
        stack[top++] = x0;
        chain_of[x0] = n;
        while (top) {
            int x = stack[--top];
            ch->nboxes++;
            for (int s = 0; s < 4; s++) {
                int l = b->box_line[x][s];
                if (start >> l & 1)
                    continue;
                ch->lines |= 1ULL << l;
                for (int k = 0; k < b->line_nboxes[l]; k++) {
                    int y = b->line_box[l][k];
                    if (y != x && chain_of[y] < 0 && box_sides(b, y, start) == 2) {
                        chain_of[y] = n;
                        stack[top++] = y;
                    }
                }
            }
        }
        int nl = __builtin_popcountll(ch->lines);
        ch->loop = nl == ch->nboxes;
        if (nl > DOTS_CHAIN_MAX_LINES)
            return rdb_fail(err, RDB_E_INPUT,
                            "a chain of the start position has %d lines; chain pseudo-lines handle at most %d",
                            nl, DOTS_CHAIN_MAX_LINES);
        n++;
    }
    /* the boxes just outside each chain, touched by its end lines */
    for (int c = 0; c < n; c++) {
        dots_chain *ch = &out[c];
        for (uint64_t m = ch->lines; m; m &= m - 1) {
            int l = __builtin_ctzll(m);
            for (int k = 0; k < b->line_nboxes[l]; k++) {
                int y = b->line_box[l][k];
                if (chain_of[y] == c)
                    continue;
                int j = 0;
                while (j < ch->nout && ch->out_box[j] != y)
                    j++;
                if (j == ch->nout) {
                    ch->out_box[j] = y;
                    ch->nout++;
                }
                ch->out_nlines[j]++;
            }
        }
    }
    *nchains = n;
    return RDB_OK;
}

rdb_status dots_chain_tabulate(const dots_board *b, const dots_chain *ch, int vmax,
                               dots_chain_rule *rule, rdb_error *err)
{
    /* The little game: local lines 0..n-1, local boxes (the chain's, then
     * the outside ones), each with the mask of its local lines. */
    int line[DOTS_CHAIN_MAX_LINES], n = 0;
    for (uint64_t m = ch->lines; m; m &= m - 1)
        line[n++] = __builtin_ctzll(m);
    int nbox = 0, base[DOTS_MAX_BOXES + 2];
    unsigned side[DOTS_MAX_BOXES + 2];
    for (int x = 0; x < b->nboxes; x++) {
        int is_out = ch->nout > 0 && (ch->out_box[0] == x || (ch->nout > 1 && ch->out_box[1] == x));
        unsigned mask = 0;
        for (int i = 0; i < n; i++)
            for (int k = 0; k < b->line_nboxes[line[i]]; k++)
                if (b->line_box[line[i]][k] == x)
                    mask |= 1u << i;
        if (mask && !is_out) {
            side[nbox] = mask;
            base[nbox++] = 2;
        }
    }
    const int first_out = nbox;
    for (int j = 0; j < ch->nout; j++) {
        unsigned mask = 0;
        for (int i = 0; i < n; i++)
            for (int k = 0; k < b->line_nboxes[line[i]]; k++)
                if (b->line_box[line[i]][k] == ch->out_box[j])
                    mask |= 1u << i;
        side[nbox++] = mask;
    }

    const unsigned full = (1u << n) - 1;
    const int nv = 2 * vmax + 1;
    int16_t *f = malloc(((size_t)full + 1) * (size_t)nv * sizeof *f);
    memset(rule->value, 0, sizeof rule->value);
    if (!f) /* at most 2^14 x 257 x 2 bytes: 8 MB */
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the chain tables");
    for (int d0 = 0; d0 < 4; d0++)
        for (int d1 = 0; d1 < 4; d1++) {
            /* an end state that cannot occur is skipped */
            if ((ch->nout < 1 && d0) || (ch->nout < 2 && d1))
                continue;
            if (ch->nout >= 1 && d0 + __builtin_popcount(side[first_out]) > 4)
                continue;
            if (ch->nout >= 2 && d1 + __builtin_popcount(side[first_out + 1]) > 4)
                continue;
            if (ch->nout >= 1)
                base[first_out] = d0;
            if (ch->nout >= 2)
                base[first_out + 1] = d1;
            for (int v = -vmax; v <= vmax; v++)
                f[(size_t)full * nv + (size_t)(v + vmax)] = (int16_t)v;
            for (unsigned s = full; s-- > 0;) {
                int16_t *fs = f + (size_t)s * nv;
                for (int v = 0; v < nv; v++)
                    fs[v] = INT16_MIN;
                for (int i = 0; i < n; i++) {
                    if (s >> i & 1)
                        continue;
                    int boxes = 0;
                    for (int x = 0; x < nbox; x++)
                        if ((side[x] >> i & 1) &&
                            base[x] + __builtin_popcount(s & side[x]) == 3)
                            boxes++;
                    const int16_t *fc = f + (size_t)(s | 1u << i) * nv;
                    for (int v = 0; v < nv; v++) {
                        int c = boxes ? boxes + fc[v] : -fc[v];
                        if (c > fs[v])
                            fs[v] = (int16_t)c;
                    }
                }
            }
            for (int v = -vmax; v <= vmax; v++) {
                int c = f[v + vmax];
                c = c > INT8_MAX ? INT8_MAX : c < INT8_MIN ? INT8_MIN : c;
                rule->value[d0][d1][(v + 128) & 255] = (int8_t)c;
            }
        }
    free(f);
    return RDB_OK;
}
