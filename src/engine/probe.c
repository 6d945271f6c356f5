/*
 * probe.c — lookups in a finished database; see retrodb/probe.h.
 *
 * Access pattern: a query asks for a position and its children, which lie in
 * a handful of neighbour slices, so a small LRU of open slice files and one
 * of decoded frames (RDB_FRAME_ENTRIES values each) make a query cost a few
 * frame decodes at most. Positions in levels the build deleted
 * (--keep-lines) are solved on the spot by search.c. Every value comes out of a frame whose zstd
 * content checksum was verified, and from a file whose header names the
 * exact slice asked for, so damage is reported rather than answered.
 */
#include "retrodb/probe.h"

#include <stdlib.h>
#include <string.h>

#include "engine/db.h"
#include "common/error.h"
#include "store/manifest.h"
#include "dots/search.h"

#define FILE_CACHE 16
#define FRAME_CACHE 8

typedef struct {
    int used;
    rdb_slice slice;
    rdb_slice_file sf;
    unsigned long stamp;
} cached_file;

typedef struct {
    int used;
    rdb_slice slice;
    uint32_t frame;
    int8_t *values;
    unsigned long stamp;
} cached_frame;

/* A whole slice held in memory (rdb_probe_preload). */
typedef struct {
    rdb_slice slice;
    int8_t *values;
} loaded_slice;

struct rdb_probe {
    rdb_db db;
    cached_file files[FILE_CACHE];
    cached_frame frames[FRAME_CACHE];
    unsigned long clock;
    uint64_t deleted;        /* levels not kept: solved on the spot */
    loaded_slice *loaded;    /* every kept slice, by (level, counts), or NULL */
    size_t nloaded;
};

rdb_status rdb_probe_open(const char *dir, rdb_probe **out, rdb_error *err)
{
    rdb_probe *p = calloc(1, sizeof *p);
    if (!p)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    rdb_status st = rdb_db_open(&p->db, dir, err);
    if (st != RDB_OK) {
        free(p);
        return st;
    }
    rdb_manifest man;
    st = rdb_manifest_load(&man, dir, p->db.lay.ngroups, err);
    if (st != RDB_OK) {
        rdb_db_free(&p->db);
        free(p);
        return st;
    }
    p->deleted = man.deleted;
    rdb_manifest_free(&man);
    *out = p;
    return RDB_OK;
}

void rdb_probe_close(rdb_probe *p)
{
    if (!p)
        return;
    for (int i = 0; i < FILE_CACHE; i++)
        if (p->files[i].used)
            rdb_slice_close(&p->files[i].sf);
    for (int i = 0; i < FRAME_CACHE; i++)
        free(p->frames[i].values);
    for (size_t i = 0; i < p->nloaded; i++)
        free(p->loaded[i].values);
    free(p->loaded);
    rdb_db_free(&p->db);
    free(p);
}

void rdb_probe_board(const rdb_probe *p, int *rows, int *cols, uint64_t *start_lines)
{
    *rows = p->db.params.rows;
    *cols = p->db.params.cols;
    *start_lines = p->db.params.start;
}

static rdb_status open_slice(rdb_probe *p, const rdb_slice *s, rdb_slice_file **sf, rdb_error *err)
{
    int G = p->db.lay.ngroups, victim = 0;
    for (int i = 0; i < FILE_CACHE; i++) {
        cached_file *c = &p->files[i];
        if (c->used && rdb_slice_equal(&c->slice, s, G)) {
            c->stamp = ++p->clock;
            *sf = &c->sf;
            return RDB_OK;
        }
        if (!c->used || (p->files[victim].used && c->stamp < p->files[victim].stamp))
            victim = i;
    }
    cached_file *c = &p->files[victim];
    if (c->used)
        rdb_slice_close(&c->sf);
    c->used = 0;
    char path[4096];
    rdb_slice_path(&p->db, s, path, sizeof path);
    rdb_slice_id id;
    rdb_slice_identity(&p->db, s, &id);
    rdb_status st = rdb_slice_open(path, &id, &c->sf, err);
    if (st == RDB_E_MISSING)
        return rdb_fail(err, RDB_E_MISSING,
                        "the database in '%s' has no slice file '%s' (build unfinished or level deleted)",
                        p->db.dir, path);
    if (st != RDB_OK)
        return st;
    c->used = 1;
    c->slice = *s;
    c->stamp = ++p->clock;
    *sf = &c->sf;
    return RDB_OK;
}

/* Order of slices by level, then counts: the order rdb_probe_preload
 * stores them in. */
static int slice_cmp(const rdb_slice *a, const rdb_slice *b, int ngroups)
{
    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    for (int g = 0; g < ngroups; g++)
        if (a->counts[g] != b->counts[g])
            return a->counts[g] < b->counts[g] ? -1 : 1;
    return 0;
}

static const loaded_slice *find_loaded(const rdb_probe *p, const rdb_slice *s)
{
    size_t lo = 0, hi = p->nloaded;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = slice_cmp(&p->loaded[mid].slice, s, p->db.lay.ngroups);
        if (c == 0)
            return &p->loaded[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

rdb_status rdb_probe_preload(rdb_probe *p, uint64_t max_bytes, rdb_error *err)
{
    const rdb_layout *lay = &p->db.lay;
    if (p->loaded)
        return RDB_OK;
    uint64_t total = 0;
    size_t n = 0;
    for (int level = 0; level <= lay->nbits; level++) {
        if (p->deleted >> level & 1)
            continue;
        rdb_slice *slices;
        int ns = rdb_level_slices(lay, level, &slices);
        for (int i = 0; i < ns; i++)
            total += slices[i].size;
        n += ns > 0 ? (size_t)ns : 0;
        free(slices);
    }
    if (total > max_bytes)
        return rdb_fail(err, RDB_E_NOMEM,
                        "the database in '%s' holds %llu MB of values, more than the %llu MB allowed in memory",
                        p->db.dir, (unsigned long long)(total >> 20),
                        (unsigned long long)(max_bytes >> 20));
    loaded_slice *loaded = calloc(n ? n : 1, sizeof *loaded);
    if (!loaded)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory loading '%s'", p->db.dir);
    size_t k = 0;
    rdb_status st = RDB_OK;
    for (int level = 0; level <= lay->nbits && st == RDB_OK; level++) {
        if (p->deleted >> level & 1)
            continue;
        rdb_slice *slices;
        int ns = rdb_level_slices(lay, level, &slices);
        for (int i = 0; i < ns && st == RDB_OK; i++) {
            loaded_slice *ls = &loaded[k++];
            ls->slice = slices[i];
            ls->values = malloc(slices[i].size ? slices[i].size : 1);
            if (!ls->values) {
                st = rdb_fail(err, RDB_E_NOMEM, "out of memory loading '%s'", p->db.dir);
                break;
            }
            char path[4096];
            rdb_slice_path(&p->db, &slices[i], path, sizeof path);
            rdb_slice_id id;
            rdb_slice_identity(&p->db, &slices[i], &id);
            rdb_slice_file sf;
            st = rdb_slice_open(path, &id, &sf, err);
            if (st == RDB_OK) {
                st = rdb_slice_read_all(&sf, ls->values, err);
                rdb_slice_close(&sf);
            }
        }
        free(slices);
    }
    if (st != RDB_OK) {
        for (size_t i = 0; i < k; i++)
            free(loaded[i].values);
        free(loaded);
        return st;
    }
    p->loaded = loaded;
    p->nloaded = k;
    return RDB_OK;
}

/* Value at index of slice s. */
static rdb_status lookup(rdb_probe *p, const rdb_slice *s, uint64_t index, int *value, rdb_error *err)
{
    if (p->loaded) {
        const loaded_slice *ls = find_loaded(p, s);
        if (!ls)
            return rdb_fail(err, RDB_E_CORRUPT, "internal error: slice of level %d not loaded",
                            s->level);
        *value = ls->values[index];
        return RDB_OK;
    }
    int G = p->db.lay.ngroups, victim = 0;
    uint32_t frame = (uint32_t)(index / RDB_FRAME_ENTRIES);
    for (int i = 0; i < FRAME_CACHE; i++) {
        cached_frame *c = &p->frames[i];
        if (c->used && c->frame == frame && rdb_slice_equal(&c->slice, s, G)) {
            c->stamp = ++p->clock;
            *value = c->values[index % RDB_FRAME_ENTRIES];
            return RDB_OK;
        }
        if (!c->used || (p->frames[victim].used && c->stamp < p->frames[victim].stamp))
            victim = i;
    }
    rdb_slice_file *sf;
    rdb_status st = open_slice(p, s, &sf, err);
    if (st != RDB_OK)
        return st;
    cached_frame *c = &p->frames[victim];
    c->used = 0;
    if (!c->values && !(c->values = malloc(RDB_FRAME_ENTRIES)))
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    size_t n;
    if (sf->frame_entries != RDB_FRAME_ENTRIES)
        return rdb_fail(err, RDB_E_CORRUPT, "'%s' uses %u values per frame, not %u", sf->path,
                        sf->frame_entries, RDB_FRAME_ENTRIES);
    st = rdb_slice_read_frame(sf, frame, c->values, &n, err);
    if (st != RDB_OK)
        return st;
    c->used = 1;
    c->slice = *s;
    c->frame = frame;
    c->stamp = ++p->clock;
    *value = c->values[index % RDB_FRAME_ENTRIES];
    return RDB_OK;
}

static rdb_status check_position(const rdb_probe *p, uint64_t lines, rdb_error *err)
{
    const dots_game *g = &p->db.game;
    if (lines & ~dots_all_lines(&g->board))
        return rdb_fail(err, RDB_E_INPUT, "position has lines outside the %dx%d board",
                        g->board.rows, g->board.cols);
    uint64_t missing = g->start & ~lines;
    if (missing) {
        char name[32];
        dots_line_name(&g->board, __builtin_ctzll(missing), name);
        return rdb_fail(err, RDB_E_INPUT,
                        "position lacks line %s of the database's start position (%s); it cannot arise in this database",
                        name, p->db.params.variant);
    }
    int c = dots_game_partial_chain(g, lines);
    if (c >= 0) {
        char list[DOTS_MAX_LINES * 8] = "";
        size_t n = 0;
        for (uint64_t m = g->chains[c].lines; m && n < sizeof list - 16; m &= m - 1) {
            char name[32];
            dots_line_name(&g->board, __builtin_ctzll(m), name);
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? " " : "", name);
        }
        return rdb_fail(err, RDB_E_INPUT,
                        "position draws part of chain %d (lines %s); a database with chain pseudo-lines holds only positions where each chain is all drawn or all empty",
                        c + 1, list);
    }
    return RDB_OK;
}

/* rdb_stored_fn for the search: RDB_E_MISSING only for deleted levels, so
 * that a missing file anywhere else is reported, not searched around. */
static rdb_status stored_value(void *ctx, uint64_t canonical, int *value, rdb_error *err)
{
    rdb_probe *p = ctx;
    rdb_slice s;
    uint64_t index;
    rdb_layout_locate(&p->db.lay, canonical, &s, &index);
    if (p->deleted >> s.level & 1)
        return RDB_E_MISSING;
    rdb_status st = lookup(p, &s, index, value, err);
    return st == RDB_E_MISSING ? RDB_E_CORRUPT : st;
}

/* Value of a Cram position (a set of covered cells). */
static rdb_status cram_value(rdb_probe *p, uint64_t covered, int *value, rdb_error *err)
{
    const cram_board *b = &p->db.cram.board;
    if (b->ncells < 64 && covered >> b->ncells)
        return rdb_fail(err, RDB_E_INPUT, "position has cells outside the %dx%d board", b->rows,
                        b->cols);
    const rdb_layout *lay = &p->db.lay;
    uint64_t canon = rdb_layout_canonical(lay, cram_rules_position(&p->db.cram, covered));
    rdb_slice s;
    uint64_t index;
    rdb_layout_locate(lay, canon, &s, &index);
    return lookup(p, &s, index, value, err);
}

const char *rdb_probe_game(const rdb_probe *p)
{
    return rdb_game_name(p->db.params.game);
}

/* The stored value of a Dots-and-Boxes position: a key when the database
 * has loony analysis (dots_rules.h). */
static rdb_status dots_key(rdb_probe *p, uint64_t lines, int *value, rdb_error *err)
{
    rdb_status st = check_position(p, lines, err);
    if (st != RDB_OK)
        return st;
    const rdb_layout *lay = &p->db.lay;
    uint64_t pos = dots_rules_position(&p->db.rules, lines);
    uint64_t canon = rdb_layout_canonical(lay, pos);
    rdb_slice s;
    uint64_t index;
    rdb_layout_locate(lay, canon, &s, &index);
    if (p->deleted >> s.level & 1)
        return rdb_search_value(&p->db, pos, stored_value, p, value, err);
    return lookup(p, &s, index, value, err);
}

int rdb_probe_loony(const rdb_probe *p)
{
    return p->db.params.loony;
}

rdb_status rdb_probe_value(rdb_probe *p, uint64_t lines, int *value, rdb_error *err)
{
    if (p->db.params.game == RDB_GAME_CRAM)
        return cram_value(p, lines, value, err);
    int key;
    rdb_status st = dots_key(p, lines, &key, err);
    if (st == RDB_OK)
        *value = dots_key_score(&p->db.rules, key);
    return st;
}

rdb_status rdb_probe_moves(rdb_probe *p, uint64_t lines, rdb_dots_answer *a, rdb_error *err)
{
    if (p->db.params.game != RDB_GAME_DOTS)
        return rdb_fail(err, RDB_E_INPUT, "the database in '%s' is not a Dots-and-Boxes database",
                        p->db.dir);
    const dots_rules *r = &p->db.rules;
    int key;
    rdb_status st = dots_key(p, lines, &key, err);
    if (st != RDB_OK)
        return st;
    a->value = dots_key_score(r, key);
    a->next_loony = dots_key_loony(r, key);
    const dots_board *b = &p->db.game.board;
    const uint64_t pos = dots_rules_position(r, lines);
    a->nmoves = 0;
    for (int l = 0; l < b->nlines; l++) {
        if (lines >> l & 1)
            continue;
        /* a line of a chain fills the whole chain: every line of it shows
         * the value of that move */
        const int bit = r->bit[l];
        int v;
        st = dots_key(p, lines | r->bit_lines[bit], &v, err);
        if (st != RDB_OK)
            return st;
        int move_key = dots_rules_move(r, pos, bit, v);
        a->line[a->nmoves] = l;
        a->move_value[a->nmoves] = dots_key_score(r, move_key);
        a->move_next_loony[a->nmoves] = dots_key_loony(r, move_key);
        a->nmoves++;
    }
    return RDB_OK;
}

rdb_status rdb_probe_cram_moves(rdb_probe *p, uint64_t covered, rdb_cram_answer *a,
                                rdb_error *err)
{
    if (p->db.params.game != RDB_GAME_CRAM)
        return rdb_fail(err, RDB_E_INPUT, "the database in '%s' is not a Cram table", p->db.dir);
    rdb_status st = cram_value(p, covered, &a->nimber, err);
    if (st != RDB_OK)
        return st;
    const cram_board *b = &p->db.cram.board;
    a->nmoves = 0;
    for (int d = 0; d < b->ndominoes; d++) {
        if (covered & b->domino[d])
            continue;
        int v;
        st = cram_value(p, covered | b->domino[d], &v, err);
        if (st != RDB_OK)
            return st;
        for (int c = 0; c < 2; c++) {
            a->cell[a->nmoves][c][0] = b->domino_cell[d][c] / b->cols;
            a->cell[a->nmoves][c][1] = b->domino_cell[d][c] % b->cols;
        }
        a->move_nimber[a->nmoves++] = v;
    }
    return RDB_OK;
}
