/*
 * query.c — `retrodb query`: read a position, look it up with the probe API
 * and print its value and the value of every move, as a picture or as one
 * JSON object.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "db.h"
#include "dots_board.h"
#include "dots_diagram.h"
#include "commands.h"
#include "retrodb/probe.h"

int rdb_cmd_query(int argc, char **argv)
{
    const char *dir = NULL, *file = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *v;
        if ((v = rdb_tool_opt_value(argc, argv, &i, "--dir")))
            dir = v;
        else if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
            if (file)
                return rdb_tool_usage();
            file = argv[i];
        } else {
            fprintf(stderr, "retrodb: query: unknown argument '%s'\n", argv[i]);
            return rdb_tool_usage();
        }
    }
    if (!dir) {
        fprintf(stderr, "retrodb: query: which database? (--dir DIR)\n");
        return 2;
    }
    rdb_error err;
    char *text;
    rdb_status st = rdb_read_file(file, &text, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    dots_diagram d;
    st = dots_diagram_parse(text, file ? file : "standard input", &d, &err);
    free(text);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    rdb_probe *p;
    st = rdb_probe_open(dir, &p, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);
    int rows, cols;
    uint64_t start;
    rdb_probe_board(p, &rows, &cols, &start);
    if (rows != d.rows || cols != d.cols) {
        fprintf(stderr, "retrodb: the position is a %dx%d board; the database in '%s' is %dx%d\n",
                d.rows, d.cols, dir, rows, cols);
        rdb_probe_close(p);
        return 2;
    }
    rdb_dots_answer a;
    st = rdb_probe_moves(p, d.drawn, &a, &err);
    rdb_probe_close(p);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);

    dots_board b;
    dots_board_init(&b, rows, cols, &err);
    if (json) {
        printf("{\"game\":\"dots\",\"rows\":%d,\"cols\":%d,\"value\":%d,\"moves\":[", rows, cols,
               a.value);
        for (int i = 0; i < a.nmoves; i++) {
            char name[32];
            dots_line_name(&b, a.line[i], name);
            printf("%s{\"line\":\"%s\",\"value\":%d}", i ? "," : "", name, a.move_value[i]);
        }
        printf("]}\n");
    } else {
        int value[DOTS_MAX_LINES] = {0};
        for (int i = 0; i < a.nmoves; i++)
            value[a.line[i]] = a.move_value[i];
        dots_diagram_print_values(stdout, &b, d.drawn, d.owner, value);
        printf("value for the player to move: %+d (net future boxes)\n", a.value);
    }
    return 0;
}

