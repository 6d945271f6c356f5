/*
 * probe.c — a program outside retrodb that uses its installed library:
 * open a Dots-and-Boxes database, take a position as line names or as a
 * diagram file, print its value and the value of every move.
 *
 *   cc probe.c $(pkg-config --cflags --libs retrodb) -o probe
 *   ./probe DIR [LINE ...]    the position with these lines drawn ("h0,0"
 *                             "v1,2"; the start position's lines always are)
 *   ./probe DIR -f FILE       the position drawn in FILE (a diagram)
 *
 * It prints "value V", V the best net score of future boxes for the
 * player to move, then "LINE V" for every open line, V the value of
 * drawing it. Exit status: 0 done, 1 failure, 2 bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <retrodb/probe.h>

/* Report a failure; bad input is exit status 2, anything else 1. */
static int fail(rdb_status st, const rdb_error *err)
{
    fprintf(stderr, "probe: %s\n", err->msg);
    return st == RDB_E_INPUT ? 2 : 1;
}

/* The whole of a small text file, or NULL. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = malloc(65536);
    size_t n = text ? fread(text, 1, 65535, f) : 0;
    fclose(f);
    if (text)
        text[n] = '\0';
    return text;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (argc > 2 && strcmp(argv[2], "-f") == 0 && argc != 4)) {
        fprintf(stderr, "usage: probe DIR [LINE ...] | probe DIR -f FILE\n");
        return 2;
    }
    rdb_error err;
    rdb_probe *p;
    rdb_status st = rdb_probe_open(argv[1], &p, &err);
    if (st != RDB_OK)
        return fail(st, &err);
    rdb_db_info info;
    rdb_probe_info(p, &info);
    if (strcmp(info.game, "dots") != 0) {
        fprintf(stderr, "probe: '%s' is a %s table, not a Dots-and-Boxes database\n", argv[1],
                info.game);
        rdb_probe_close(p);
        return 2;
    }

    uint64_t lines = 0;
    if (argc == 4 && strcmp(argv[2], "-f") == 0) {
        char *text = read_text(argv[3]);
        if (!text) {
            fprintf(stderr, "probe: cannot read '%s'\n", argv[3]);
            rdb_probe_close(p);
            return 1;
        }
        int rows, cols;
        st = rdb_dots_parse_diagram(text, argv[3], &rows, &cols, &lines, &err);
        free(text);
        if (st == RDB_OK && (rows != info.rows || cols != info.cols)) {
            fprintf(stderr, "probe: '%s' is a %dx%d board, the database %dx%d\n", argv[3], rows,
                    cols, info.rows, info.cols);
            rdb_probe_close(p);
            return 2;
        }
    } else {
        /* the names as one list: "h0,0 v1,2" */
        size_t len = 1;
        for (int i = 2; i < argc; i++)
            len += strlen(argv[i]) + 1;
        char *names = malloc(len);
        if (!names) {
            rdb_probe_close(p);
            return 1;
        }
        names[0] = '\0';
        for (int i = 2; i < argc; i++)
            strcat(strcat(names, argv[i]), " ");
        st = rdb_dots_parse_lines(info.rows, info.cols, names, &lines, &err);
        free(names);
        lines |= info.start;
    }
    rdb_dots_answer a;
    if (st == RDB_OK)
        st = rdb_probe_moves(p, lines, &a, &err);
    rdb_probe_close(p);
    if (st != RDB_OK)
        return fail(st, &err);

    printf("value %d\n", a.value);
    for (int i = 0; i < a.nmoves; i++) {
        char name[RDB_LINE_NAME_MAX];
        st = rdb_dots_line_name(info.rows, info.cols, a.line[i], name, sizeof name, &err);
        if (st != RDB_OK)
            return fail(st, &err);
        printf("%s %d\n", name, a.move_value[i]);
    }
    return 0;
}
