/*
 * cram_window.c — the boxes and regions of cram_window.h.
 */
#include "cram/cram_window.h"

#include "cram/cram_board.h"

/* The cells of the free dominoes: those with a free neighbour. */
static cram_wset domino_cells(int rows, int cols, cram_wset free_cells)
{
    cram_wset in = 0;
    for (cram_wset y = free_cells; y; y &= y - 1) {
        const int i = cram_wlowest(y), r = i / cols, c = i % cols;
        if ((c + 1 < cols && (free_cells >> (i + 1) & 1)) || (c > 0 && (free_cells >> (i - 1) & 1)) ||
            (r + 1 < rows && (free_cells >> (i + cols) & 1)) || (r > 0 && (free_cells >> (i - cols) & 1)))
            in |= cram_wbit(i);
    }
    return in;
}

void cram_window_of(int rows, int cols, cram_wset free_cells, cram_window *w)
{
    int top = rows, bottom = -1, left = cols, right = -1;
    for (cram_wset y = domino_cells(rows, cols, free_cells); y; y &= y - 1) {
        const int i = cram_wlowest(y), r = i / cols, c = i % cols;
        top = r < top ? r : top;
        bottom = r > bottom ? r : bottom;
        left = c < left ? c : left;
        right = c > right ? c : right;
    }
    *w = (cram_window){.rows = rows, .cols = cols, .top = 0, .left = 0, .height = 1, .width = 1};
    if (bottom >= 0) {
        w->top = top, w->left = left;
        w->height = bottom - top + 1, w->width = right - left + 1;
    }
}

int cram_window_needed(int rows, int cols)
{
    return rows > CRAM_WINDOW_MAX_ACROSS && cols > CRAM_WINDOW_MAX_ACROSS;
}

/* The cells of `cells` joined to cell `seed` through neighbours in
 * `cells`: with the cells of free dominoes, a region (two neighbours that
 * are both free are a free domino). */
static cram_wset region_of(int rows, int cols, cram_wset cells, int seed)
{
    cram_wset region = cram_wbit(seed), frontier = region;
    while (frontier) {
        cram_wset next = 0;
        for (cram_wset y = frontier; y; y &= y - 1) {
            const int i = cram_wlowest(y), r = i / cols, c = i % cols;
            next |= (c + 1 < cols ? cram_wbit(i + 1) : 0) | (c > 0 ? cram_wbit(i - 1) : 0) |
                    (r + 1 < rows ? cram_wbit(i + cols) : 0) | (r > 0 ? cram_wbit(i - cols) : 0);
        }
        frontier = next & cells & ~region;
        region |= frontier;
    }
    return region;
}

int cram_window_split(int rows, int cols, cram_wset free_cells, int by_region,
                      cram_window w[CRAM_WINDOW_MAX_REGIONS], cram_wset box_free[CRAM_WINDOW_MAX_REGIONS])
{
    if (!cram_window_needed(rows, cols)) {
        w[0] = (cram_window){.rows = rows, .cols = cols, .top = 0, .left = 0, .height = rows, .width = cols};
        box_free[0] = free_cells;
        return 1;
    }
    cram_window_of(rows, cols, free_cells, &w[0]);
    if (!cram_window_needed(w[0].height, w[0].width) || !by_region) {
        box_free[0] = cram_window_cells(&w[0], free_cells);
        return 1;
    }
    /* each region in its own box: at least two cells each, so at most
     * 64 of them on 128 cells */
    int n = 0;
    for (cram_wset left = domino_cells(rows, cols, free_cells); left; n++) {
        const cram_wset region = region_of(rows, cols, left, cram_wlowest(left));
        left &= ~region;
        cram_window_of(rows, cols, region, &w[n]);
        box_free[n] = cram_window_cells(&w[n], region);
    }
    return n;
}

cram_wset cram_window_cells(const cram_window *w, cram_wset board_cells)
{
    cram_wset in = 0;
    for (cram_wset y = domino_cells(w->rows, w->cols, board_cells); y; y &= y - 1) {
        const int i = cram_wlowest(y), r = i / w->cols - w->top, c = i % w->cols - w->left;
        in |= cram_wbit(r * w->width + c);
    }
    return in;
}

int cram_window_board_cell(const cram_window *w, int cell)
{
    return (cell / w->width + w->top) * w->cols + cell % w->width + w->left;
}

int cram_window_board_domino(const cram_window *w, int domino)
{
    int cell[2];
    if (!cram_domino_cells(w->height, w->width, domino, cell))
        return -1;
    const int a = cram_window_board_cell(w, cell[0]), b = cram_window_board_cell(w, cell[1]);
    /* cram_board.h's order: the horizontal ones, then the vertical */
    if (b == a + 1)
        return a / w->cols * (w->cols - 1) + a % w->cols;
    return w->rows * (w->cols - 1) + a;
}
