/*
 * position_forms.c — reading a position in any of the forms a user writes
 * it; see position_forms.h. Each form is parsed by its own function, and
 * the `_any` functions only tell the forms apart by their look, so that a
 * batch of mixed lines is read as the single options read them.
 */
#define _GNU_SOURCE
#include "api/position_forms.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "common/text_input.h"
#include "cram/cram.h"
#include "cram/cram_board.h"
#include "dots/dots.h"
#include "dots/dots_board.h"
#include "dots/dots_diagram.h"

int rdb_form_blank(const char *text)
{
    for (; *text; text++)
        if (!isspace((unsigned char)*text))
            return 0;
    return 1;
}

/* The database's problem, when its folder holds one: *has is 0 when not. */
static rdb_status read_problem(const char *dir, rdb_problem *prob, int *has, rdb_error *err)
{
    char path[RDB_PATH_MAX];
    *has = 0;
    rdb_status st = rdb_path_format(path, sizeof path, err, "%s/%s", dir, RDB_PROBLEM_FILE);
    if (st != RDB_OK)
        return st;
    FILE *f = fopen(path, "r");
    *has = f != NULL;
    if (!f)
        return errno == ENOENT ? RDB_OK : rdb_fail_errno(err, RDB_E_IO, "cannot open '%s'", path);
    char *text;
    st = rdb_read_stream(f, path, &text, err);
    fclose(f);
    if (st != RDB_OK)
        return st;
    st = rdb_problem_parse(text, path, prob, err);
    free(text);
    /* the file is the database's, not the user's input */
    return st == RDB_E_INPUT ? RDB_E_CORRUPT : st;
}

rdb_status rdb_forms_db_read(const char *dir, rdb_forms_db *db, rdb_error *err)
{
    memset(db, 0, sizeof *db);
    rdb_params params;
    rdb_status st = rdb_params_read(dir, &params, err);
    if (st != RDB_OK)
        return st;
    db->game = params.game;
    db->rows = params.rows;
    db->cols = params.cols;
    db->start = params.start;
    db->full_value = params.full_value;
    db->chains = params.chains;
    if (db->game != RDB_GAME_DOTS)
        return RDB_OK;
    return read_problem(dir, &db->problem, &db->has_problem, err);
}

/* ---- Dots-and-Boxes ---- */

/* A fresh position on the database's start: its lines, the problem's
 * letters and player to move, or A to move. */
static void start_position(const rdb_forms_db *db, rdb_problem *pos)
{
    if (db->has_problem) {
        *pos = db->problem;
        return;
    }
    memset(pos, 0, sizeof *pos);
    pos->full_value = db->full_value;
    pos->to_move = 'A';
    pos->diagram.rows = db->rows;
    pos->diagram.cols = db->cols;
    pos->diagram.drawn = db->start;
    memset(pos->diagram.owner, ' ', sizeof pos->diagram.owner);
}

static int play_on(const dots_board *b, rdb_problem *pos, int l)
{
    int took = 0;
    for (int k = 0; k < b->line_nboxes[l]; k++) {
        int box = b->line_box[l][k], complete = 1;
        for (int s = 0; s < 4; s++) {
            int side = b->box_line[box][s];
            complete &= side == l || (int)(pos->diagram.drawn >> side & 1);
        }
        if (complete) {
            pos->diagram.owner[box] = pos->to_move;
            took++;
        }
    }
    pos->diagram.drawn |= 1ULL << l;
    if (pos->to_move == 'A')
        pos->taken_a += took;
    else
        pos->taken_b += took;
    if (!took)
        pos->to_move = pos->to_move == 'A' ? 'B' : 'A';
    return took;
}

int rdb_form_dots_play(rdb_problem *pos, int l)
{
    dots_board b;
    rdb_error ignored;
    if (dots_board_init(&b, pos->diagram.rows, pos->diagram.cols, &ignored) != RDB_OK)
        return 0;
    return play_on(&b, pos, l);
}

int rdb_form_dots_nlines(int rows, int cols)
{
    return 2 * rows * cols + rows + cols;
}

int rdb_form_dots_full(const rdb_problem *pos)
{
    dots_board b;
    rdb_error ignored;
    return dots_board_init(&b, pos->diagram.rows, pos->diagram.cols, &ignored) == RDB_OK &&
           pos->diagram.drawn == dots_all_lines(&b);
}

void rdb_form_dots_print(FILE *f, const rdb_problem *pos, const char (*label)[RDB_FORM_LABEL_MAX])
{
    dots_board b;
    rdb_error ignored;
    if (dots_board_init(&b, pos->diagram.rows, pos->diagram.cols, &ignored) != RDB_OK)
        return;
    if (label)
        dots_diagram_print_labels(f, &b, pos->diagram.drawn, pos->diagram.owner, label);
    else
        dots_diagram_print(f, &b, pos->diagram.drawn, pos->diagram.owner);
}

void rdb_form_dots_box_sides(int rows, int cols, int box, int side[4])
{
    dots_board b;
    rdb_error ignored;
    if (dots_board_init(&b, rows, cols, &ignored) != RDB_OK || box < 0 || box >= b.nboxes)
        return;
    memcpy(side, b.box_line[box], sizeof b.box_line[box]);
}

void rdb_form_cram_print(FILE *f, const rdb_form_cram *pos)
{
    cram_diagram_print(f, pos->rows, pos->cols, pos->covered);
}

/* One token of a move list: a line name, or action numbers separated by
 * commas ("0,13," of open_spiel's "0, 13"). Appends the lines to line[]. */
static rdb_status move_token(const dots_board *b, const char *tok, const char *source,
                             int *line, int *n, rdb_error *err)
{
    if (tok[0] == 'h' || tok[0] == 'v') {
        int l = dots_parse_line_name(b, tok);
        if (l < 0)
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: '%s' is no line of the %dx%d board (h0,0 .. h%d,%d, v0,0 .. v%d,%d)",
                            source, tok, b->rows, b->cols, b->rows, b->cols - 1, b->rows - 1,
                            b->cols);
        line[(*n)++] = l;
        return RDB_OK;
    }
    for (const char *p = tok; *p;) {
        if (*p == ',') {
            p++;
            continue;
        }
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || !isdigit((unsigned char)*p) || (*end && *end != ','))
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: '%s' is neither a line name (h0,0, v1,2) nor an action number",
                            source, tok);
        if (errno || v >= b->nlines)
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: action %s is no line of the %dx%d board (0 .. %d)", source, p,
                            b->rows, b->cols, b->nlines - 1);
        if (*n == DOTS_MAX_LINES)
            return rdb_fail(err, RDB_E_INPUT, "%s: more moves than the board has lines",
                            source);
        line[(*n)++] = (int)v;
        p = end;
    }
    return RDB_OK;
}

rdb_status rdb_form_dots_moves(const rdb_forms_db *db, const char *text, const char *source,
                               rdb_problem *pos, rdb_error *err)
{
    dots_board b;
    rdb_status st = dots_board_init(&b, db->rows, db->cols, err);
    if (st != RDB_OK)
        return st;
    int line[DOTS_MAX_LINES + 1], n = 0;
    const char *p = text;
    while (*p) {
        /* brackets: open_spiel's history as a Python list prints it, "[0, 13]" */
        while (*p && (isspace((unsigned char)*p) || *p == ';' || *p == '[' || *p == ']'))
            p++;
        if (!*p)
            break;
        char tok[64];
        size_t len = strcspn(p, " \t\r\n;[]");
        if (len >= sizeof tok)
            return rdb_fail(err, RDB_E_INPUT, "%s: '%.20s...' is no move", source, p);
        memcpy(tok, p, len);
        tok[len] = '\0';
        p += len;
        if (n == DOTS_MAX_LINES)
            return rdb_fail(err, RDB_E_INPUT, "%s: more moves than the board has lines", source);
        st = move_token(&b, tok, source, line, &n, err);
        if (st != RDB_OK)
            return st;
    }
    start_position(db, pos);
    pos->has_to_move = 1;
    for (int i = 0; i < n; i++) {
        char name[32];
        dots_line_name(&b, line[i], name);
        if (pos->diagram.drawn >> line[i] & 1)
            return rdb_fail(err, RDB_E_INPUT, "%s: move %d, %s: the line is drawn already%s",
                            source, i + 1, name,
                            (db->start & ~db->played) >> line[i] & 1 ? " (in the database's start)"
                                                                     : "");
        play_on(&b, pos, line[i]);
    }
    rdb_problem_count_boxes(&b, pos);
    return RDB_OK;
}

/* The length of text when it is one word of 0s and 1s, else -1. */
static int bits_word(const char *text)
{
    while (isspace((unsigned char)*text))
        text++;
    int n = 0;
    for (; *text == '0' || *text == '1'; text++)
        n++;
    return n > 0 && rdb_form_blank(text) ? n : -1;
}

/* Whether text is one word of exactly `len` 0s and 1s. */
static int is_bits(const char *text, int len)
{
    return bits_word(text) == len;
}

/* The set of a 0/1 string (bit i for character i), which is_bits checked. */
static uint64_t bits_set(const char *text)
{
    while (isspace((unsigned char)*text))
        text++;
    uint64_t set = 0;
    for (int i = 0; text[i] == '0' || text[i] == '1'; i++)
        if (text[i] == '1')
            set |= 1ULL << i;
    return set;
}

/* A position given as its lines alone: letters and the player to move come
 * from the database's problem (as for a diagram without them). */
static rdb_status lines_position(const rdb_forms_db *db, const dots_board *b, uint64_t lines,
                                 rdb_problem *pos)
{
    start_position(db, pos);
    pos->has_to_move = 0;
    pos->diagram.drawn = lines;
    if (!db->has_problem)
        memset(pos->diagram.owner, ' ', sizeof pos->diagram.owner);
    rdb_problem_count_boxes(b, pos);
    return RDB_OK;
}

rdb_status rdb_form_dots_dbn(const rdb_forms_db *db, const char *text, const char *source,
                             rdb_problem *pos, rdb_error *err)
{
    dots_board b;
    rdb_status st = dots_board_init(&b, db->rows, db->cols, err);
    if (st != RDB_OK)
        return st;
    if (!is_bits(text, b.nlines))
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: a DBN string of the %dx%d board is %d characters '0' or '1', one per line in line-id order",
                        source, db->rows, db->cols, b.nlines);
    return lines_position(db, &b, bits_set(text), pos);
}

rdb_status rdb_form_dots_diagram(const rdb_forms_db *db, const char *text, const char *source,
                                 rdb_problem *pos, rdb_error *err)
{
    rdb_status st = rdb_problem_parse_position(text, source, pos, err);
    if (st != RDB_OK)
        return st;
    if (pos->has_value && pos->full_value != db->full_value)
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: the value of the full position %d differs from the database's %d",
                        source, pos->full_value, db->full_value);
    pos->full_value = db->full_value;
    if (!db->has_problem)
        return RDB_OK;
    if (!pos->has_to_move)
        pos->to_move = db->problem.to_move;
    if (pos->diagram.rows != db->rows || pos->diagram.cols != db->cols)
        return RDB_OK; /* the lookup names both sizes */
    return rdb_problem_inherit_owners(pos, &db->problem, source, err);
}

/* Whether the text is a diagram or a problem file: only those hold dots
 * '+' (a move list or a DBN string never does). */
static int looks_like_diagram(const char *text)
{
    return strchr(text, '+') != NULL;
}

/* Whether text is a Cram diagram: rows of '.' (free) and '#' (covered)
 * cells, and nothing else. */
static int looks_like_cram(const char *text)
{
    int cells = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '.' || *p == '#')
            cells++;
        else if (!isspace((unsigned char)*p))
            return 0;
    }
    return cells > 1;
}

rdb_status rdb_form_dots_any(const rdb_forms_db *db, const char *text, const char *source,
                             rdb_problem *pos, rdb_form *form, rdb_error *err)
{
    if (looks_like_cram(text))
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: this is a Cram diagram ('.' and '#' cells); a Dots-and-Boxes "
                        "position is a diagram of '+' dots and lines, a move list or a DBN string",
                        source);
    const int nlines = (db->rows + 1) * db->cols + db->rows * (db->cols + 1);
    const int bits = bits_word(text);
    if (bits > 3 && bits != nlines)
        /* a word of 0s and 1s longer than any line's action number: a DBN
         * string of another board, said so rather than read as a move */
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: a DBN string of the %dx%d board is %d characters, not %d", source,
                        db->rows, db->cols, nlines, bits);
    rdb_form f = looks_like_diagram(text) ? RDB_FORM_DIAGRAM
                    : bits == nlines ? RDB_FORM_DBN
                                     : RDB_FORM_MOVES;
    if (form)
        *form = f;
    if (f == RDB_FORM_DIAGRAM)
        return rdb_form_dots_diagram(db, text, source, pos, err);
    if (f == RDB_FORM_DBN)
        return rdb_form_dots_dbn(db, text, source, pos, err);
    return rdb_form_dots_moves(db, text, source, pos, err);
}

/* ---- Cram ---- */

/* A cell "r,c" (parentheses allowed) at *p: advances *p past it. */
static int parse_cell(const char **p, int rows, int cols, int *cell)
{
    const char *s = *p;
    int paren = *s == '(';
    if (paren)
        s++;
    char *end;
    if (!isdigit((unsigned char)*s))
        return 0;
    long r = strtol(s, &end, 10);
    if (*end != ',' || !isdigit((unsigned char)end[1]))
        return 0;
    long c = strtol(end + 1, &end, 10);
    if (paren && *end++ != ')')
        return 0;
    if (r >= rows || c >= cols)
        return 0;
    *cell = (int)(r * cols + c);
    *p = end;
    return 1;
}

/* The next word of a list (separators: white space and ';'), copied into
 * tok; 0 at the end, -1 for a word too long to be a cell or a domino. */
static int next_word(const char **p, char *tok, size_t size)
{
    while (**p && (isspace((unsigned char)**p) || **p == ';'))
        (*p)++;
    if (!**p)
        return 0;
    size_t len = strcspn(*p, " \t\r\n;");
    if (len >= size)
        return -1;
    memcpy(tok, *p, len);
    tok[len] = '\0';
    *p += len;
    return 1;
}

rdb_status rdb_form_cram_moves(int rows, int cols, const char *text, const char *source,
                               rdb_form_cram *pos, rdb_error *err)
{
    pos->rows = rows;
    pos->cols = cols;
    pos->covered = 0;
    char tok[64];
    const char *p = text;
    int w;
    for (int move = 1; (w = next_word(&p, tok, sizeof tok)) != 0; move++) {
        if (w < 0)
            return rdb_fail(err, RDB_E_INPUT, "%s: move %d: '%.20s...' is no domino", source,
                            move, p);
        const char *s = tok;
        int a, b;
        if (!parse_cell(&s, rows, cols, &a) || *s++ != '-' || !parse_cell(&s, rows, cols, &b) ||
            *s)
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: move %d, '%s': a domino is two cells of the %dx%d board, 'r,c-r,c' (0,0-0,1)",
                            source, move, tok, rows, cols);
        int ra = a / cols, ca = a % cols, rb = b / cols, cb = b % cols;
        if (abs(ra - rb) + abs(ca - cb) != 1)
            return rdb_fail(err, RDB_E_INPUT, "%s: move %d, '%s': the two cells are not side by side",
                            source, move, tok);
        uint64_t cells = 1ULL << a | 1ULL << b;
        if (pos->covered & cells)
            return rdb_fail(err, RDB_E_INPUT, "%s: move %d, '%s': a cell is covered already",
                            source, move, tok);
        pos->covered |= cells;
    }
    return RDB_OK;
}

rdb_status rdb_form_cram_cells(int rows, int cols, const char *text, const char *source,
                               rdb_form_cram *pos, rdb_error *err)
{
    pos->rows = rows;
    pos->cols = cols;
    pos->covered = 0;
    if (is_bits(text, rows * cols)) {
        pos->covered = bits_set(text);
        return RDB_OK;
    }
    char tok[64];
    const char *p = text;
    int w;
    while ((w = next_word(&p, tok, sizeof tok)) != 0) {
        if (w < 0)
            return rdb_fail(err, RDB_E_INPUT, "%s: '%.20s...' is no cell", source, p);
        const char *s = tok;
        int cell;
        if (!parse_cell(&s, rows, cols, &cell) || *s)
            return rdb_fail(err, RDB_E_INPUT,
                            "%s: '%s' is no cell of the %dx%d board ('r,c'), and the text is not %d characters 0 or 1",
                            source, tok, rows, cols, rows * cols);
        if (pos->covered >> cell & 1)
            return rdb_fail(err, RDB_E_INPUT, "%s: cell %s is named twice", source, tok);
        pos->covered |= 1ULL << cell;
    }
    return RDB_OK;
}

rdb_status rdb_form_cram_any(int rows, int cols, const char *text, const char *source,
                             rdb_form_cram *pos, rdb_form *form, rdb_error *err)
{
    const char *s = text;
    while (isspace((unsigned char)*s))
        s++;
    if (strchr(s, '+'))
        return rdb_fail(err, RDB_E_INPUT,
                        "%s: a Dots-and-Boxes diagram, but the database is a Cram table: a position is R lines of C cells, '.' free and '#' covered",
                        source);
    rdb_form f = (*s == '.' || *s == '#') ? RDB_FORM_DIAGRAM
                    : strchr(s, '-') ? RDB_FORM_MOVES : RDB_FORM_DBN;
    if (form)
        *form = f;
    if (f == RDB_FORM_MOVES)
        return rdb_form_cram_moves(rows, cols, text, source, pos, err);
    if (f == RDB_FORM_DBN)
        return rdb_form_cram_cells(rows, cols, text, source, pos, err);
    return cram_diagram_parse(text, source, &pos->rows, &pos->cols, &pos->covered, err);
}
