/*
 * naive_dots.c — the naive reference solver; see naive_dots.h. Nothing here
 * calls the library: the geometry is derived again from the documented line
 * numbering, and the table covers all 2^L line sets.
 */
#include "naive_dots.h"

#include <stdlib.h>
#include <string.h>

int naive_hline(int rows, int cols, int i, int j)
{
    (void)rows;
    return i * cols + j;
}

int naive_vline(int rows, int cols, int i, int j)
{
    return (rows + 1) * cols + i * (cols + 1) + j;
}

void naive_board_init(naive_board *b, int rows, int cols)
{
    memset(b, 0, sizeof *b);
    b->rows = rows;
    b->cols = cols;
    b->nlines = 2 * rows * cols + rows + cols;
    b->nboxes = rows * cols;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            int box = i * cols + j;
            int side[4] = {naive_hline(rows, cols, i, j), naive_hline(rows, cols, i + 1, j),
                           naive_vline(rows, cols, i, j), naive_vline(rows, cols, i, j + 1)};
            for (int s = 0; s < 4; s++) {
                b->box_mask[box] |= 1ULL << side[s];
                b->line_box[side[s]][b->line_nbox[side[s]]++] = box;
            }
        }
}

int naive_boxes(const naive_board *b, uint64_t pos, int line)
{
    uint64_t after = pos | 1ULL << line;
    int n = 0;
    for (int k = 0; k < b->line_nbox[line]; k++) {
        uint64_t m = b->box_mask[b->line_box[line][k]];
        n += (after & m) == m;
    }
    return n;
}

/* Gather the bits of pos at the set bits of mask into the low bits (like
 * pext): the table index of a position. */
uint64_t naive_extract(uint64_t pos, uint64_t mask)
{
    uint64_t out = 0;
    int i = 0;
    for (uint64_t m = mask; m; m &= m - 1, i++)
        if (pos & m & -m)
            out |= 1ULL << i;
    return out;
}

int naive_value(const naive_dots *t, uint64_t pos)
{
    return t->value[naive_extract(pos, t->free_lines)];
}

int naive_move_value(const naive_dots *t, uint64_t pos, int line)
{
    int n = naive_boxes(&t->board, pos, line);
    int v = naive_value(t, pos | 1ULL << line);
    return n > 0 ? n + v : -v;
}

/* Spread the low bits of k over the set bits of mask (like pdep). */
uint64_t naive_deposit(uint64_t k, uint64_t mask)
{
    uint64_t out = 0;
    for (uint64_t m = mask; m && k; m &= m - 1, k >>= 1)
        if (k & 1)
            out |= m & -m;
    return out;
}

/* Set up t for the positions containing start and allocate its value
 * table (and, with who, the loony table). Fills line_of with the lines
 * open at the start; returns their number, or -1. */
static int naive_setup(naive_dots *t, int rows, int cols, uint64_t start, int full_value,
                       int who, int *line_of)
{
    memset(t, 0, sizeof *t);
    naive_board_init(&t->board, rows, cols);
    int L = t->board.nlines;
    uint64_t all = L == 64 ? ~0ULL : (1ULL << L) - 1;
    t->start = start;
    t->full_value = full_value;
    uint64_t free_lines = all & ~start;
    int F = __builtin_popcountll(free_lines);
    if (F > NAIVE_MAX_LINES)
        return -1;
    t->free_lines = free_lines;
    t->value = malloc((size_t)1 << F);
    if (who)
        t->who = malloc((size_t)1 << F);
    if (!t->value || (who && !t->who))
        return -1;
    int j = 0;
    for (uint64_t m = free_lines; m; m &= m - 1)
        line_of[j++] = __builtin_ctzll(m);
    return F;
}

int naive_solve(naive_dots *t, int rows, int cols, uint64_t start, int full_value)
{
    int line_of[64];
    int F = naive_setup(t, rows, cols, start, full_value, 0, line_of);
    if (F < 0)
        return -1;
    const uint64_t free_lines = t->free_lines;
    /* Index k stands for the position start + the free lines at k's set
     * bits. Drawing free line j sets bit j, so every child has a larger
     * index: running k down solves children first. */
    for (uint64_t k = (1ULL << F); k-- > 0;) {
        if (k == (1ULL << F) - 1) {
            t->value[k] = (int8_t)full_value;
            continue;
        }
        uint64_t pos = start == 0 ? k : start | naive_deposit(k, free_lines);
        int best = -1000;
        for (uint64_t open = ~k & ((1ULL << F) - 1); open; open &= open - 1) {
            int i = __builtin_ctzll(open);
            int n = naive_boxes(&t->board, pos, line_of[i]);
            int v = t->value[k | 1ULL << i];
            int c = n > 0 ? n + v : -v;
            if (c > best)
                best = c;
        }
        t->value[k] = (int8_t)best;
    }
    return 0;
}

void naive_free(naive_dots *t)
{
    free(t->value);
    free(t->who);
    t->value = NULL;
    t->who = NULL;
}

/* Sides of box k drawn in pos. */
static int sides(const naive_board *b, uint64_t pos, int k)
{
    return __builtin_popcountll(pos & b->box_mask[k]);
}

/* Wilson's test: can the mover capture a box with a line whose box on the
 * other side has exactly two other sides drawn? */
static int loony_offered(const naive_board *b, uint64_t pos)
{
    for (int l = 0; l < b->nlines; l++) {
        if ((pos >> l & 1) || b->line_nbox[l] != 2)
            continue;
        int s0 = sides(b, pos, b->line_box[l][0]), s1 = sides(b, pos, b->line_box[l][1]);
        if ((s0 == 3 && s1 == 2) || (s0 == 2 && s1 == 3))
            return 1;
    }
    return 0;
}

/* How much the mover likes who: the opponent next loony best. */
static int preference(int who)
{
    return who == NAIVE_LOONY_OPPONENT ? 2 : who == NAIVE_LOONY_NONE ? 1 : 0;
}

static int swap_who(int who)
{
    return who == NAIVE_LOONY_MOVER ? NAIVE_LOONY_OPPONENT
         : who == NAIVE_LOONY_OPPONENT ? NAIVE_LOONY_MOVER : NAIVE_LOONY_NONE;
}

static void loony_candidate(const naive_dots *t, uint64_t pos, int line, int child_score,
                            int child_who, int *score, int *who)
{
    int n = naive_boxes(&t->board, pos, line);
    if (n > 0) {
        *score = n + child_score;
        *who = child_who;
    } else {
        *score = -child_score;
        *who = swap_who(child_who);
    }
}

int naive_solve_loony(naive_dots *t, int rows, int cols, uint64_t start, int full_value)
{
    int line_of[64];
    int F = naive_setup(t, rows, cols, start, full_value, 1, line_of);
    if (F < 0)
        return -1;
    const uint64_t free_lines = t->free_lines;
    for (uint64_t k = (1ULL << F); k-- > 0;) {
        if (k == (1ULL << F) - 1) {
            t->value[k] = (int8_t)full_value;
            t->who[k] = NAIVE_LOONY_NONE;
            continue;
        }
        uint64_t pos = start | naive_deposit(k, free_lines);
        int best = -1000, best_who = NAIVE_LOONY_NONE;
        for (uint64_t open = ~k & ((1ULL << F) - 1); open; open &= open - 1) {
            int i = __builtin_ctzll(open);
            int c, w;
            loony_candidate(t, pos, line_of[i], t->value[k | 1ULL << i], t->who[k | 1ULL << i],
                            &c, &w);
            if (c > best || (c == best && preference(w) > preference(best_who))) {
                best = c;
                best_who = w;
            }
        }
        if (loony_offered(&t->board, pos))
            best_who = NAIVE_LOONY_OPPONENT;
        t->value[k] = (int8_t)best;
        t->who[k] = (int8_t)best_who;
    }
    return 0;
}

void naive_loony_value(const naive_dots *t, uint64_t pos, int *score, int *who)
{
    uint64_t k = naive_extract(pos, t->free_lines);
    *score = t->value[k];
    *who = t->who[k];
}

void naive_loony_move(const naive_dots *t, uint64_t pos, int line, int *score, int *who)
{
    int s, w;
    naive_loony_value(t, pos | 1ULL << line, &s, &w);
    loony_candidate(t, pos, line, s, w, score, who);
}

uint64_t naive_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

uint64_t naive_random_position(uint64_t *state, int nlines, uint64_t start)
{
    int open[64], n = 0;
    for (int l = 0; l < nlines; l++)
        if (!(start >> l & 1))
            open[n++] = l;
    int k = (int)(naive_rand(state) % (uint64_t)(n + 1));
    uint64_t pos = start;
    for (int i = 0; i < k; i++) {
        int j = i + (int)(naive_rand(state) % (uint64_t)(n - i));
        int tmp = open[i];
        open[i] = open[j];
        open[j] = tmp;
        pos |= 1ULL << open[i];
    }
    return pos;
}

/* Line joining dots (r1,c1) and (r2,c2) (adjacent), or -1. */
static int line_between(int rows, int cols, int r1, int c1, int r2, int c2)
{
    if (r1 == r2 && (c2 == c1 + 1 || c1 == c2 + 1)) {
        int c = c1 < c2 ? c1 : c2;
        return naive_hline(rows, cols, r1, c);
    }
    if (c1 == c2 && (r2 == r1 + 1 || r1 == r2 + 1)) {
        int r = r1 < r2 ? r1 : r2;
        return naive_vline(rows, cols, r, c1);
    }
    return -1;
}

int naive_symmetries(int rows, int cols, uint8_t perm[8][64])
{
    int nlines = 2 * rows * cols + rows + cols;
    int n = 0;
    /* a dot (r, c) moves to: kind 0..3 flips; 4..7 (square only) transpose
     * followed by the flips */
    for (int kind = 0; kind < (rows == cols ? 8 : 4); kind++) {
        for (int l = 0; l < nlines; l++) {
            int r1, c1, r2, c2;
            int nh = (rows + 1) * cols;
            if (l < nh) {
                r1 = r2 = l / cols;
                c1 = l % cols;
                c2 = c1 + 1;
            } else {
                int v = l - nh;
                r1 = v / (cols + 1);
                r2 = r1 + 1;
                c1 = c2 = v % (cols + 1);
            }
            int ends[2][2] = {{r1, c1}, {r2, c2}};
            for (int e = 0; e < 2; e++) {
                int r = ends[e][0], c = ends[e][1];
                if (kind >= 4) {
                    int t = r;
                    r = c;
                    c = t;
                }
                if (kind & 1)
                    r = rows - r;
                if (kind & 2)
                    c = cols - c;
                ends[e][0] = r;
                ends[e][1] = c;
            }
            perm[n][l] = (uint8_t)line_between(rows, cols, ends[0][0], ends[0][1], ends[1][0], ends[1][1]);
        }
        n++;
    }
    return n;
}
