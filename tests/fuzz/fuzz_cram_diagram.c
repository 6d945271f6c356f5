/*
 * fuzz_cram_diagram.c — fuzz target `cram_diagram`: the Cram diagram parser
 * of `retrodb solve cram --position` and of queries of Cram databases
 * (cram_diagram_parse).
 *
 * A diagram that parses must also describe a board cram_board_init sets
 * up, with no covered cell outside it, and must come back unchanged from
 * its own printout (solve and query print the positions they read).
 */
#include <stdio.h>
#include <stdlib.h>

#include "cram/cram_board.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    int rows, cols;
    uint64_t covered;
    rdb_error err;
    rdb_status st = cram_diagram_parse(text, "fuzz", &rows, &cols, &covered, &err);
    free(text);
    if (st != RDB_OK)
        return 0;

    cram_board b;
    if (cram_board_init(&b, rows, cols, &err) != RDB_OK) {
        fprintf(stderr, "parsed a %dx%d board that cannot be set up: %s\n", rows, cols, err.msg);
        abort();
    }
    if (b.ncells < 64 && covered >> b.ncells) {
        fprintf(stderr, "parsed covered cells beyond the board's %d\n", b.ncells);
        abort();
    }

    char *printed = NULL;
    size_t printed_len = 0;
    FILE *f = open_memstream(&printed, &printed_len);
    if (!f)
        abort();
    cram_diagram_print(f, rows, cols, covered);
    fclose(f);
    int rows2, cols2;
    uint64_t covered2;
    if (cram_diagram_parse(printed, "printout", &rows2, &cols2, &covered2, &err) != RDB_OK) {
        fprintf(stderr, "the printout of a parsed diagram does not parse: %s\n%s", err.msg, printed);
        abort();
    }
    if (rows2 != rows || cols2 != cols || covered2 != covered) {
        fprintf(stderr, "the printout of a parsed diagram reads differently:\n%s", printed);
        abort();
    }
    free(printed);
    return 0;
}
