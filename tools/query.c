/*
 * query.c — `retrodb query`: the value of a position and of every move,
 * from a database, as text or as one JSON object; with --batch, a stream of
 * positions answered one a line (query_batch.c); with --pv, the perfect game from
 * the position.
 *
 * The position comes in any form api/position_forms.h reads: a diagram or a
 * problem file (FILE or standard input), a move list (--moves), a DBN
 * string (--dbn), Cram cells (--cells). On a database built from a
 * problem, the answer shows the final scores of players A and B, boxes
 * already taken included, as Wilson's viewer did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer_print.h"
#include "cli.h"
#include "commands.h"
#include "query.h"

#include "common/number.h"
#include "common/text_input.h"
#include "game.h"

enum { OPT_JSON = 1, OPT_MOVES, OPT_DBN, OPT_CELLS, OPT_BOARD, OPT_BATCH, OPT_PV, OPT_RAW, OPT_SVG };

static const rdb_tool_option query_options[] = {
    {RDB_OPT_DIR, "dir", 'd', "DIR", "the database (required)"},
    {OPT_MOVES, "moves", 0, "MOVES",
     "the position after these moves from the database's start: line names\n"
     "as query prints them, 'h0,0 v1,2', or open_spiel action numbers,\n"
     "'0 13' (Dots-and-Boxes); dominoes '0,0-0,1 2,1-2,2' (Cram)"},
    {OPT_DBN, "dbn", 0, "BITS",
     "the lines drawn, one 0 or 1 per line in line-id order (open_spiel's\n"
     "DBN string; Dots-and-Boxes)"},
    {OPT_CELLS, "cells", 0, "CELLS",
     "the covered cells, '0,0 0,1' or one 0 or 1 per cell (Cram)"},
    {OPT_BOARD, "board", 0, "RxC",
     "the board of --moves or --cells on a Cram table (default: the\n"
     "table's); a table answers every board that fits in it"},
    {OPT_BATCH, "batch", 'b', NULL,
     "read many positions from FILE or standard input: one a line (a move\n"
     "list, a DBN string, Cram cells), or diagrams separated by a line\n"
     "'---'; one answer a line (JSON lines with --json)"},
    {RDB_OPT_MEMORY, "memory", 'm', "MB",
     "with --batch, read the whole database into memory first when it\n"
     "takes at most MB megabytes (default 1024): lookups then read no file"},
    {OPT_PV, "pv", 0, NULL, "also the perfect game from the position"},
    {OPT_RAW, "raw", 0, NULL,
     "on a problem's database, also the board of net future boxes"},
    {OPT_SVG, "svg", 0, "FILE",
     "also write a picture of the position, every move's value on it and\n"
     "the best moves in green, as SVG to FILE"},
    {OPT_JSON, "json", 'j', NULL, "one JSON object on stdout (one a line with --batch)"},
    {0, 0, 0, 0, 0}};

const rdb_tool_command rdb_query_command = {
    "query",
    "--dir DIR [--json] [--pv] [--svg FILE] [FILE]\n"
    "--dir DIR [--json] [--pv] [--svg FILE] --moves MOVES | --dbn BITS | --cells CELLS\n"
    "--dir DIR --batch [--json] [FILE]",
    "The value of a position and of every move, from a database, the best\n"
    "moves first and marked '*' on the board. The position is a diagram in\n"
    "FILE or on standard input (FILE '-' or none), or a move list or DBN\n"
    "string there or in an option: for Dots-and-Boxes 2R+1 lines of dots\n"
    "'+', lines '-' and '|', boxes taken 'A' or 'B' and an optional 'A to\n"
    "move' line; for a Cram table R lines of C cells, '.' free and '#'\n"
    "covered (any board that fits in the table's). Values are net future\n"
    "boxes for the player to move (Dots-and-Boxes) or nimbers (Cram).",
    query_options};

/* The position in FILE or on standard input, in any form its game reads
 * (on a Cram table, moves and cells of the rows x cols board). */
static rdb_status read_input(const rdb_query_request *q, const rdb_forms_db *db, int rows,
                             int cols, rdb_query_position *pos, rdb_error *err)
{
    const char *source = q->file ? q->file : "standard input";
    /* typed at a terminal: say what is awaited, not wait silently */
    if ((!q->file || strcmp(q->file, "-") == 0) && isatty(STDIN_FILENO))
        fprintf(stderr, "query: reading a position from the terminal (a diagram, a move list or "
                        "a DBN string; Ctrl-D ends it; --moves or --dbn give one directly)\n");
    char *text;
    rdb_status st = rdb_read_file(q->file, &text, err);
    if (st != RDB_OK)
        return st;
    /* an empty move list is the start, but an empty file is a mistake */
    if (rdb_form_blank(text))
        st = rdb_fail(err, RDB_E_INPUT, "%s: no diagram found (nor a move list)", source);
    else if (db->game == RDB_GAME_CRAM)
        st = rdb_form_cram_any(rows, cols, text, source, &pos->cram, NULL, err);
    else
        st = rdb_form_dots_any(db, text, source, &pos->dots, NULL, err);
    free(text);
    return st;
}

/* The position the options or the input give; 0, or an exit status after
 * a message. */
static int read_position(const rdb_tool_command *cmd, const rdb_query_request *q,
                         const rdb_forms_db *db, rdb_query_position *pos)
{
    rdb_error err;
    rdb_status st;
    pos->game = db->game;
    if (db->game == RDB_GAME_CRAM) {
        int rows = q->board_rows ? q->board_rows : db->rows;
        int cols = q->board_rows ? q->board_cols : db->cols;
        if (q->dbn)
            return rdb_tool_bad(cmd, "--dbn names Dots-and-Boxes lines; give a Cram position with --cells");
        if (q->moves)
            st = rdb_form_cram_moves(rows, cols, q->moves, "--moves", &pos->cram, &err);
        else if (q->cells)
            st = rdb_form_cram_cells(rows, cols, q->cells, "--cells", &pos->cram, &err);
        else
            st = read_input(q, db, rows, cols, pos, &err);
        return st == RDB_OK ? 0 : rdb_tool_report(st, &err);
    }
    if (q->cells || q->board_rows)
        return rdb_tool_bad(cmd, "--cells and --board are for Cram tables; '%s' holds Dots-and-Boxes",
                            q->dir);
    if (q->moves)
        st = rdb_form_dots_moves(db, q->moves, "--moves", &pos->dots, &err);
    else if (q->dbn)
        st = rdb_form_dots_dbn(db, q->dbn, "--dbn", &pos->dots, &err);
    else
        st = read_input(q, db, db->rows, db->cols, pos, &err);
    return st == RDB_OK ? 0 : rdb_tool_report(st, &err);
}

int rdb_cmd_query(int argc, char **argv)
{
    const rdb_tool_command *cmd = &rdb_query_command;
    rdb_query_request q = {.memory_mb = 1024};
    rdb_tool_args args;
    rdb_tool_args_init(&args, cmd, argc, argv);
    int id;
    const char *v;
    while ((id = rdb_tool_next_option(&args, &v)) > 0) {
        switch (id) {
        case RDB_OPT_DIR: q.dir = v; break;
        case OPT_JSON: q.json = 1; break;
        case OPT_MOVES: q.moves = v; break;
        case OPT_DBN: q.dbn = v; break;
        case OPT_CELLS: q.cells = v; break;
        case OPT_BATCH: q.batch = 1; break;
        case OPT_PV: q.pv = 1; break;
        case OPT_RAW: q.raw = 1; break;
        case OPT_SVG: q.svg = v; break;
        case RDB_OPT_MEMORY:
            if (rdb_parse_long(v, 0, 1L << 30, &q.memory_mb) != 0)
                return rdb_tool_bad(cmd, "bad --memory '%s' (megabytes)", v);
            break;
        case OPT_BOARD:
            if (rdb_tool_board(cmd, v, &q.board_rows, &q.board_cols))
                return 2;
            if (q.board_rows * q.board_cols > 64)
                return rdb_tool_bad(cmd, "--board %s has %d cells; a Cram board has at most 64", v,
                                    q.board_rows * q.board_cols);
            break;
        }
    }
    if (id < 0)
        return rdb_tool_args_exit(id);
    if (rdb_tool_args_left(&args) > 1)
        return rdb_tool_bad(cmd, "one position file at a time (got '%s' too)", argv[args.next + 1]);
    if (rdb_tool_args_left(&args) == 1)
        q.file = argv[args.next];
    if (!q.dir)
        return rdb_tool_bad(cmd, "which database? (--dir DIR)");
    int given = (q.moves != NULL) + (q.dbn != NULL) + (q.cells != NULL) + (q.file != NULL);
    if (given > 1)
        return rdb_tool_bad(cmd, "give the position one way: --moves, --dbn, --cells or FILE");
    if (q.batch && given - (q.file != NULL))
        return rdb_tool_bad(cmd, "--batch reads its positions from FILE or standard input");
    if (q.batch && q.svg)
        return rdb_tool_bad(cmd, "--svg draws one position; not with --batch");

    rdb_error err;
    rdb_forms_db db;
    rdb_status st = rdb_forms_db_read(q.dir, &db, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    if (q.batch)
        return rdb_query_batch(cmd, &q, &db);
    rdb_query_position pos;
    int rc = read_position(cmd, &q, &db, &pos);
    if (rc)
        return rc;
    rdb_probe *p;
    st = rdb_probe_open(q.dir, &p, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    rc = rdb_query_answer(p, &q, &db, &pos, NULL, 0);
    rdb_probe_close(p);
    return rc;
}
