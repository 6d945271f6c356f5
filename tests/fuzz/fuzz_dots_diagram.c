/*
 * fuzz_dots_diagram.c — fuzz target `dots_diagram`: the Dots-and-Boxes
 * diagram parser that `retrodb query` and `build --start` read positions
 * with (dots_diagram_parse).
 *
 * Beyond not crashing, a diagram that parses must come back unchanged from
 * its own printout: the query prints the positions it reads, and a user
 * pasting one back must get the same lines and letters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dots/dots_board.h"
#include "dots/dots_diagram.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    dots_diagram d;
    rdb_error err;
    if (dots_diagram_parse(text, "fuzz", &d, &err) != RDB_OK) {
        free(text);
        return 0;
    }
    free(text);

    /* A board the parser accepted must be one the rest of the program can
     * set up: the query initialises it again to print its answer. */
    dots_board b;
    if (dots_board_init(&b, d.rows, d.cols, &err) != RDB_OK) {
        fprintf(stderr, "parsed a %dx%d board that cannot be set up: %s\n", d.rows, d.cols, err.msg);
        abort();
    }
    if (b.nlines < 64 && d.drawn >> b.nlines) {
        fprintf(stderr, "parsed lines beyond the board's %d\n", b.nlines);
        abort();
    }

    char *printed = NULL;
    size_t printed_len = 0;
    FILE *f = open_memstream(&printed, &printed_len);
    if (!f)
        abort();
    dots_diagram_print(f, &b, d.drawn, d.owner);
    fclose(f);
    dots_diagram again;
    if (dots_diagram_parse(printed, "printout", &again, &err) != RDB_OK) {
        fprintf(stderr, "the printout of a parsed diagram does not parse: %s\n%s", err.msg, printed);
        abort();
    }
    if (again.rows != d.rows || again.cols != d.cols || again.drawn != d.drawn ||
        memcmp(again.owner, d.owner, (size_t)(d.rows * d.cols)) != 0) {
        fprintf(stderr, "the printout of a parsed diagram reads differently:\n%s", printed);
        abort();
    }
    free(printed);
    return 0;
}
