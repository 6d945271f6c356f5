/*
 * kernel.c — the slice kernel's driver; see kernel.h.
 *
 * The game combines (game.h); this file decides which neighbour slices a
 * slice needs and brings each into memory once. The game's combine rule is
 * order-free, so the neighbour already in memory goes first: consecutive
 * slices of a level share one, which saves a decompression.
 */
#include "engine/kernel.h"

#include <string.h>

#include "common/job.h"

rdb_status rdb_load_neighbour(const rdb_db *db, const rdb_slice *n, rdb_neighbour *nb,
                              rdb_error *err)
{
    nb->valid = 0;
    nb->damaged = 0;
    nb->slice = *n;
    const int8_t *cached = nb->cache ? rdb_level_cache_get(nb->cache, n) : NULL;
    if (cached) {
        nb->values = cached;
        nb->valid = 1;
        return RDB_OK;
    }
    rdb_slice_file sf;
    rdb_status st = rdb_slice_open_in(db, n, &sf, err);
    if (st == RDB_OK) {
        st = rdb_slice_read_all(&sf, nb->buffer, err);
        nb->read_bytes += sf.file_bytes;
        rdb_slice_close(&sf);
    }
    nb->damaged = st == RDB_E_CORRUPT || st == RDB_E_MISSING;
    nb->values = nb->buffer;
    nb->valid = st == RDB_OK;
    return st;
}

/* The neighbours of s: every slice whose counts add move_bits to s's, the
 * additions listed as groups g[0] <= g[1] <= ... so that each neighbour
 * comes once, in the order of those lists. */
typedef struct {
    const rdb_kernel *kern;
    const rdb_slice *s;
    int step;
    int g[RDB_MAX_BITS];
} neighbours;

/* Whether adding one to each group of nbs->g[0..step-1] gives a slice of
 * the layout into which some move of s leads; that slice in *out. */
static int neighbour(const neighbours *nbs, rdb_slice *out)
{
    const rdb_layout *lay = &nbs->kern->db->lay;
    *out = *nbs->s;
    for (int i = 0; i < nbs->step; i++)
        if (++out->counts[nbs->g[i]] > lay->size[nbs->g[i]])
            return 0;
    rdb_slice_set_size(lay, out);
    return out->size > 0 &&
           nbs->kern->db->game->leads_to(nbs->kern->game_kernel, nbs->s, out);
}

/* Advance nbs->g to the next non-decreasing list of groups; 0 after the
 * last. */
static int next_groups(neighbours *nbs)
{
    const int G = nbs->kern->db->lay.ngroups;
    int i = nbs->step - 1;
    while (i >= 0 && nbs->g[i] == G - 1)
        i--;
    if (i < 0)
        return 0;
    nbs->g[i]++;
    for (int j = i + 1; j < nbs->step; j++)
        nbs->g[j] = nbs->g[i];
    return 1;
}

rdb_status rdb_compute_slice(const rdb_kernel *kern, const rdb_slice *s, int8_t *best,
                             rdb_neighbour *nb, rdb_error *err)
{
    const rdb_db *db = kern->db;
    const rdb_game *game = db->game;
    const int G = db->lay.ngroups;
    neighbours nbs = {.kern = kern, .s = s, .step = game->move_bits};
    rdb_slice n;

    game->slice_begin(kern->game_kernel, s, best);
    if (G == 0) /* a database of the full position alone */
        return game->slice_finish(kern->game_kernel, s, best, err);
    const int in_memory = nb->valid && nb->slice.level == s->level + game->move_bits;
    if (in_memory) {
        memset(nbs.g, 0, sizeof nbs.g);
        do {
            if (neighbour(&nbs, &n) && rdb_slice_equal(&n, &nb->slice, G)) {
                game->slice_relax(kern->game_kernel, s, &n, nb->values, best);
                break;
            }
        } while (next_groups(&nbs));
    }
    const rdb_slice done = in_memory ? nb->slice : (rdb_slice){.level = -1};
    memset(nbs.g, 0, sizeof nbs.g);
    do {
        if (!neighbour(&nbs, &n) || (in_memory && rdb_slice_equal(&n, &done, G)))
            continue;
        double t0 = rdb_now();
        rdb_status st = rdb_load_neighbour(db, &n, nb, err);
        nb->read_seconds += rdb_now() - t0;
        if (st != RDB_OK)
            return st;
        game->slice_relax(kern->game_kernel, s, &n, nb->values, best);
    } while (next_groups(&nbs));
    return game->slice_finish(kern->game_kernel, s, best, err);
}

rdb_status rdb_kernel_init(rdb_kernel *kern, const rdb_db *db, rdb_error *err)
{
    memset(kern, 0, sizeof *kern);
    kern->db = db;
    return db->game->kernel_new(db->state, &db->lay, &kern->game_kernel, err);
}

void rdb_kernel_free(rdb_kernel *kern)
{
    if (kern->db && kern->game_kernel)
        kern->db->game->kernel_free(kern->game_kernel);
    memset(kern, 0, sizeof *kern);
}
