/*
 * position_read.c — rdb_position_read (retrodb/position.h): a position in
 * any form the command line reads, for programs that link the library (the
 * Python package reads its text positions here). The forms themselves are
 * position_forms.c's, the command line's own readers, so that a text
 * means the same thing everywhere; this only picks the game and checks a
 * diagram's board against the one asked for.
 */
#include "retrodb/position.h"

#include <string.h>

#include "api/position_forms.h"
#include "common/error.h"
#include "dots/dots.h"
#include "dots/dots_board.h"

static rdb_status other_board(int rows, int cols, int want_rows, int want_cols, rdb_error *err)
{
    return rdb_fail(err, RDB_E_INPUT, "a %dx%d diagram; the board is %dx%d", rows, cols, want_rows,
                    want_cols);
}

static rdb_status dots_read(int rows, int cols, uint64_t start, const char *text, uint64_t set[2],
                            rdb_written_form *form, rdb_error *err)
{
    if (strchr(text, '+')) {
        /* a diagram: its lines (the letters of boxes taken say who took
         * them, which a set of lines does not hold) */
        int r, c;
        uint64_t lines;
        rdb_status st = rdb_dots_parse_diagram(text, "position", &r, &c, &lines, err);
        if (st == RDB_OK && (r != rows || c != cols))
            st = other_board(r, c, rows, cols, err);
        if (st == RDB_OK)
            set[0] = lines;
        *form = RDB_WRITTEN_DIAGRAM;
        return st;
    }
    const rdb_forms_db db = {.game = RDB_GAME_DOTS, .rows = rows, .cols = cols, .start = start};
    rdb_problem pos;
    rdb_form f;
    rdb_status st = rdb_form_dots_any(&db, text, "position", &pos, &f, err);
    if (st != RDB_OK)
        return st;
    set[0] = pos.diagram.drawn;
    *form = f == RDB_FORM_DBN ? RDB_WRITTEN_SET : RDB_WRITTEN_MOVES;
    return RDB_OK;
}

static rdb_status cram_read(int rows, int cols, const char *text, uint64_t set[2],
                            rdb_written_form *form, rdb_error *err)
{
    const char *s = text + strspn(text, " \t\r\n");
    if (*s == '.' || *s == '#') {
        int r, c;
        uint64_t covered[2];
        rdb_status st = rdb_cram_parse_diagram_wide(text, "position", &r, &c, covered, err);
        if (st == RDB_OK && (r != rows || c != cols))
            st = other_board(r, c, rows, cols, err);
        if (st == RDB_OK)
            memcpy(set, covered, sizeof covered);
        *form = RDB_WRITTEN_DIAGRAM;
        return st;
    }
    if (rows * cols > 64)
        return rdb_fail(err, RDB_E_INPUT,
                        "position: on the %dx%d board (over 64 cells) a position is a diagram "
                        "('.' free, '#' covered)",
                        rows, cols);
    rdb_form_cram pos;
    rdb_form f;
    rdb_status st = rdb_form_cram_any(rows, cols, text, "position", &pos, &f, err);
    if (st != RDB_OK)
        return st;
    set[0] = pos.covered;
    *form = f == RDB_FORM_MOVES ? RDB_WRITTEN_MOVES : RDB_WRITTEN_SET;
    return RDB_OK;
}

rdb_status rdb_position_read(const char *game, int rows, int cols, uint64_t start,
                             const char *text, uint64_t set[2], rdb_written_form *form,
                             rdb_error *err)
{
    rdb_written_form ignored;
    if (!form)
        form = &ignored;
    *form = RDB_WRITTEN_DIAGRAM;
    set[0] = set[1] = 0;
    if (!text)
        return rdb_fail(err, RDB_E_INPUT, "no position (NULL text)");
    rdb_status st;
    if (game && !strcmp(game, "dots")) {
        dots_board b;
        st = dots_board_init(&b, rows, cols, err);
        if (st == RDB_OK && start >> (b.nlines - 1) >> 1)
            st = rdb_fail(err, RDB_E_INPUT, "the start holds lines the %dx%d board has not", rows,
                          cols);
        if (st == RDB_OK)
            st = dots_read(rows, cols, start, text, set, form, err);
    } else if (game && !strcmp(game, "cram")) {
        if (rows < 1 || cols < 1 || rows > 128 || cols > 128 || rows * cols > 128)
            st = rdb_fail(err, RDB_E_INPUT, "no %dx%d Cram board of at most 128 cells", rows, cols);
        else
            st = cram_read(rows, cols, text, set, form, err);
    } else {
        st = rdb_fail(err, RDB_E_INPUT, "no game '%s' (dots or cram)", game ? game : "(NULL)");
    }
    if (st != RDB_OK)
        set[0] = set[1] = 0;
    return st;
}
