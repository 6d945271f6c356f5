/*
 * dots_quiet_db.c — building and reading a quiet database; see
 * dots_quiet_db.h.
 *
 * A stored position's value is the best over its open lines of the edge
 * rule (b + v(child) when the line completes b > 0 boxes, else
 * -v(child)), where v(child) comes through the capture rules from quiet
 * positions of higher levels, all of them already built. Positions of a
 * level are computed frame state by frame state, shared between threads.
 */
#include "dots/dots_quiet_db.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "dots/dots_capture.h"

struct dots_quiet_db {
    dots_board b;
    uint64_t start, all, open;
    int full_value;
    dots_quiet_index *index;
    uint64_t box_mask[DOTS_MAX_BOXES];
    int8_t across[DOTS_MAX_LINES][2];
    dots_box_graph graph;
    int8_t **values; /* [level]: NULL until the level is built */
};

static int stored_value(void *ctx, uint64_t lines, int *value)
{
    const dots_quiet_db *db = ctx;
    uint64_t c = dots_quiet_canonical(db->index, lines);
    int level = __builtin_popcountll(c & db->open);
    *value = db->values[level][dots_quiet_rank(db->index, c)];
    return 0;
}

int dots_quiet_db_value(const dots_quiet_db *db, uint64_t lines)
{
    int v = 0;
    dots_capture_value(&db->graph, db->all, db->full_value, lines, stored_value, (void *)db, &v);
    return v;
}

int dots_quiet_db_move_value(const dots_quiet_db *db, uint64_t lines, int line)
{
    int b = dots_boxes_completed(&db->b, lines, line);
    int v = dots_quiet_db_value(db, lines | 1ULL << line);
    return b > 0 ? b + v : -v;
}

/* The value of a stored position from the levels above it. */
static int position_value(const dots_quiet_db *db, uint64_t lines)
{
    if (lines == db->all)
        return db->full_value;
    int best = INT_MIN;
    for (uint64_t m = db->all & ~lines; m; m &= m - 1) {
        int v = dots_quiet_db_move_value(db, lines, __builtin_ctzll(m));
        if (v > best)
            best = v;
    }
    return best;
}

typedef struct {
    const dots_quiet_db *db;
    int8_t *out;
    int level;
    int overflow;
} level_work;

static void compute_one(void *ctx, uint64_t index, uint64_t lines)
{
    level_work *w = ctx;
    int v = position_value(w->db, lines);
    if (v < INT8_MIN || v > INT8_MAX)
        w->overflow = 1;
    w->out[index] = (int8_t)v;
}

rdb_status dots_quiet_db_build(const dots_board *b, uint64_t start, int full_value, int threads,
                               void (*progress)(void *ctx, int level, uint64_t positions),
                               void *ctx, dots_quiet_db **out, rdb_error *err)
{
    dots_quiet_db *db = calloc(1, sizeof *db);
    if (!db)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the quiet database");
    db->b = *b;
    db->start = start;
    db->all = dots_all_lines(b);
    db->open = db->all & ~start;
    db->full_value = full_value;
    for (int x = 0; x < b->nboxes; x++)
        for (int s = 0; s < 4; s++)
            db->box_mask[x] |= 1ULL << b->box_line[x][s];
    for (int l = 0; l < b->nlines; l++) {
        db->across[l][0] = (int8_t)b->line_box[l][0];
        db->across[l][1] = (int8_t)(b->line_nboxes[l] == 2 ? b->line_box[l][1] : -1);
    }
    db->graph = (dots_box_graph){b->nboxes, db->box_mask, (const int8_t(*)[2])db->across};
    rdb_status st = dots_quiet_index_new(b, start, &db->index, err);
    if (st != RDB_OK) {
        free(db);
        return st;
    }
    int L = dots_quiet_open_lines(db->index);
    db->values = calloc((size_t)L + 1, sizeof *db->values);
    if (!db->values) {
        dots_quiet_db_free(db);
        return rdb_fail(err, RDB_E_NOMEM, "out of memory for the quiet database");
    }
    if (threads <= 0)
        threads = omp_get_max_threads();
    const int nframes = dots_quiet_frames(db->index);
    for (int level = L; level >= 0; level--) {
        uint64_t n = dots_quiet_level_size(db->index, level);
        db->values[level] = malloc(n ? n : 1);
        if (!db->values[level]) {
            dots_quiet_db_free(db);
            return rdb_fail(err, RDB_E_NOMEM, "out of memory for level %d of the quiet database (%llu positions)",
                            level, (unsigned long long)n);
        }
        int overflow = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(| : overflow)
        for (int f = 0; f < nframes; f++) {
            level_work w = {db, db->values[level], level, 0};
            dots_quiet_each(db->index, level, f, compute_one, &w);
            overflow |= w.overflow;
        }
        if (overflow) {
            dots_quiet_db_free(db);
            return rdb_fail(err, RDB_E_INPUT, "a value at level %d does not fit a byte", level);
        }
        if (progress)
            progress(ctx, level, n);
    }
    *out = db;
    return RDB_OK;
}

void dots_quiet_db_free(dots_quiet_db *db)
{
    if (!db)
        return;
    if (db->values)
        for (int level = 0; level <= dots_quiet_open_lines(db->index); level++)
            free(db->values[level]);
    free(db->values);
    dots_quiet_index_free(db->index);
    free(db);
}

const dots_quiet_index *dots_quiet_db_index(const dots_quiet_db *db)
{
    return db->index;
}

const int8_t *dots_quiet_db_level(const dots_quiet_db *db, int level)
{
    return db->values[level];
}
