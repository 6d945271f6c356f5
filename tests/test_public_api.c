/*
 * test_public_api.c — the functions a program gets from the installed
 * headers beyond the lookups (tests/test_probe.c has those): the version,
 * Dots-and-Boxes diagrams and line names, Cram diagrams, and the
 * database's parameters (rdb_probe_info). Each is held against the line
 * numbering the headers document, and every bad input must give
 * RDB_E_INPUT with a message that names what is wrong and zeroed
 * out-parameters.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "retrodb/position.h"
#include "retrodb/probe.h"
#include "retrodb/version.h"
#include "test_util.h"

/* The documented line ids of a rows x cols board. */
static int hline(int cols, int i, int j)
{
    return i * cols + j;
}

static int vline(int rows, int cols, int i, int j)
{
    return (rows + 1) * cols + i * (cols + 1) + j;
}

/* Fail unless err holds a message containing every one of the words. */
static void assert_message(const rdb_error *err, const char *w1, const char *w2)
{
    ck_assert_msg(err->msg[0] != '\0', "empty message");
    ck_assert_msg(!w1 || strstr(err->msg, w1), "message '%s' lacks '%s'", err->msg, w1);
    ck_assert_msg(!w2 || strstr(err->msg, w2), "message '%s' lacks '%s'", err->msg, w2);
}

START_TEST(test_version)
{
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", RETRODB_VERSION_MAJOR, RETRODB_VERSION_MINOR,
             RETRODB_VERSION_PATCH);
    ck_assert_str_eq(RETRODB_VERSION, expect);
    ck_assert_str_eq(rdb_version(), RETRODB_VERSION);
}
END_TEST

START_TEST(test_dots_diagram)
{
    rdb_error err;
    int rows, cols;
    uint64_t lines;
    /* the example of the header: 1x2, h0,0 and v0,2 drawn; trailing spaces
     * missing, blank lines around, a letter in a box */
    const char *text = "\n+-+ +\n A  |\n+ + +\n\n";
    ck_assert_int_eq(rdb_dots_parse_diagram(text, NULL, &rows, &cols, &lines, &err), RDB_OK);
    ck_assert_int_eq(rows, 1);
    ck_assert_int_eq(cols, 2);
    ck_assert(lines == (1ULL << hline(2, 0, 0) | 1ULL << vline(1, 2, 0, 2)));
    /* every line of a 2x3 board */
    const char *full = "+-+-+-+\n| | | |\n+-+-+-+\n| | | |\n+-+-+-+\n";
    ck_assert_int_eq(rdb_dots_parse_diagram(full, "full", &rows, &cols, &lines, &err), RDB_OK);
    ck_assert_int_eq(rows, 2);
    ck_assert_int_eq(cols, 3);
    ck_assert(lines == (1ULL << 17) - 1);

    /* bad input: status, message naming the source and the place, zeroes */
    static const struct {
        const char *text, *source, *w1, *w2;
    } bad[] = {
        {"", NULL, "diagram", "no diagram"},
        {"\n\n", "empty.txt", "empty.txt", "no diagram"},
        {"+-+\n| |\n", "pos.txt", "pos.txt", "odd number of lines"},
        {"+-+\n| |\n+-x\n", "pos.txt", "line 3, column 3", "'x'"},
        {"+-+\n|#|\n+-+\n", NULL, "diagram: line 2, column 2", "'#'"},
        {"+-+-+-+-+-+-+\n\n+ + + + + + +\n\n+ + + + + + +\n\n+ + + + + + +\n\n"
         "+ + + + + + +\n\n+ + + + + + +\n",
         NULL, "5x6", "71 lines"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = '\0';
        rows = cols = 7;
        lines = 7;
        ck_assert_int_eq(rdb_dots_parse_diagram(bad[i].text, bad[i].source, &rows, &cols, &lines,
                                                &err),
                         RDB_E_INPUT);
        assert_message(&err, bad[i].w1, bad[i].w2);
        ck_assert(rows == 0 && cols == 0 && lines == 0);
    }
    ck_assert_int_eq(rdb_dots_parse_diagram(NULL, NULL, &rows, &cols, &lines, &err), RDB_E_INPUT);
}
END_TEST

START_TEST(test_dots_line_names)
{
    rdb_error err;
    /* every board that fits: name and id agree with the documented
     * numbering, and RDB_LINE_NAME_MAX holds every name */
    int boards = 0;
    for (int rows = 1; rows <= 64; rows++)
        for (int cols = 1; 2 * rows * cols + rows + cols <= 64; cols++) {
            boards++;
            int nlines = 2 * rows * cols + rows + cols;
            for (int l = 0; l < nlines; l++) {
                char name[RDB_LINE_NAME_MAX], expect[32];
                if (l < (rows + 1) * cols)
                    snprintf(expect, sizeof expect, "h%d,%d", l / cols, l % cols);
                else
                    snprintf(expect, sizeof expect, "v%d,%d", (l - (rows + 1) * cols) / (cols + 1),
                             (l - (rows + 1) * cols) % (cols + 1));
                TU_ASSERT(rdb_dots_line_name(rows, cols, l, name, sizeof name, &err) == RDB_OK);
                TU_ASSERT_MSG(strcmp(name, expect) == 0, "%dx%d line %d: '%s', not '%s'", rows,
                              cols, l, name, expect);
                int id;
                TU_ASSERT(rdb_dots_line_id(rows, cols, name, &id, &err) == RDB_OK);
                TU_ASSERT_EQ(id, l);
            }
            char name[RDB_LINE_NAME_MAX];
            TU_ASSERT(rdb_dots_line_name(rows, cols, nlines, name, sizeof name, &err) ==
                      RDB_E_INPUT);
            TU_ASSERT(name[0] == '\0');
        }
    ck_assert_int_eq(boards, 79);

    char name[RDB_LINE_NAME_MAX];
    int id;
    err.msg[0] = '\0';
    ck_assert_int_eq(rdb_dots_line_name(2, 2, -1, name, sizeof name, &err), RDB_E_INPUT);
    assert_message(&err, "-1", "2x2");
    /* a buffer too small: refused, never cut short */
    err.msg[0] = '\0';
    ck_assert_int_eq(rdb_dots_line_name(2, 2, 0, name, 4, &err), RDB_E_INPUT);
    assert_message(&err, "h0,0", "4 bytes");
    ck_assert_str_eq(name, "");
    ck_assert_int_eq(rdb_dots_line_name(2, 2, 0, name, 5, &err), RDB_OK);
    ck_assert_str_eq(name, "h0,0");
    ck_assert_int_eq(rdb_dots_line_name(0, 2, 0, name, sizeof name, &err), RDB_E_INPUT);
    ck_assert_int_eq(rdb_dots_line_name(5, 6, 0, name, sizeof name, &err), RDB_E_INPUT);
    assert_message(&err, "5x6", NULL);

    static const char *bad_names[] = {"h3,0", "v0,3", "v2,0", "h0,2", "h0", "x0,0", "h0,0,",
                                      "h-1,0", "h 0,0", "", "h4294967296,0",
                                      "h00000000000000000000000000000000,0"};
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
        err.msg[0] = '\0';
        id = 7;
        ck_assert_msg(rdb_dots_line_id(2, 2, bad_names[i], &id, &err) == RDB_E_INPUT,
                      "'%s' read as a line", bad_names[i]);
        ck_assert_int_eq(id, -1);
        assert_message(&err, "is not a line of the 2x2 board", "i 0..2, j 0..1");
    }
    ck_assert_int_eq(rdb_dots_line_id(2, 2, NULL, &id, &err), RDB_E_INPUT);
}
END_TEST

START_TEST(test_dots_parse_lines)
{
    rdb_error err;
    uint64_t lines;
    ck_assert_int_eq(rdb_dots_parse_lines(2, 3, "h0,0 v1,2", &lines, &err), RDB_OK);
    ck_assert(lines == (1ULL << hline(3, 0, 0) | 1ULL << vline(2, 3, 1, 2)));
    ck_assert_int_eq(rdb_dots_parse_lines(2, 3, " \tv1,2\n h2,2\r\n", &lines, &err), RDB_OK);
    ck_assert(lines == (1ULL << vline(2, 3, 1, 2) | 1ULL << hline(3, 2, 2)));
    ck_assert_int_eq(rdb_dots_parse_lines(2, 3, "", &lines, &err), RDB_OK);
    ck_assert(lines == 0);
    ck_assert_int_eq(rdb_dots_parse_lines(2, 3, "  \n", &lines, &err), RDB_OK);
    ck_assert(lines == 0);
    /* the same set as the diagram of it */
    int rows, cols;
    uint64_t drawn;
    ck_assert_int_eq(rdb_dots_parse_diagram("+-+ + +\n\n+ + + +\n    |\n+ + + +\n", NULL, &rows,
                                            &cols, &drawn, &err),
                     RDB_OK);
    ck_assert_int_eq(rdb_dots_parse_lines(rows, cols, "v1,2 h0,0", &lines, &err), RDB_OK);
    ck_assert(lines == drawn);
    /* all 64 lines of the 1x21 board */
    char all[64 * 8] = "";
    size_t n = 0;
    for (int l = 0; l < 64; l++) {
        char name[RDB_LINE_NAME_MAX];
        ck_assert_int_eq(rdb_dots_line_name(1, 21, l, name, sizeof name, &err), RDB_OK);
        n += (size_t)snprintf(all + n, sizeof all - n, "%s ", name);
    }
    ck_assert_int_eq(rdb_dots_parse_lines(1, 21, all, &lines, &err), RDB_OK);
    ck_assert(lines == UINT64_MAX);

    static const struct {
        int rows, cols;
        const char *names, *w1, *w2;
    } bad[] = {
        {2, 3, "h0,0 h3,0", "'h3,0' is not a line of the 2x3 board", "v<i>,<j> with i 0..1, j 0..3"},
        {2, 3, "h0,0,v1,2", "'h0,0,v1,2'", NULL},
        {2, 3, "h0,0;v1,2", "'h0,0;v1,2'", NULL},
        {2, 3, "v1,2 h0,0 v1,2", "line v1,2 is named twice", NULL},
        {2, 3, "h0,0 averyveryveryverylongwordthatgoesonandonandonandonandon",
         "'averyveryveryverylongwordthatgoesonandon'", NULL},
        {0, 3, "h0,0", "0x3", "no boxes"},
        {5, 6, "h0,0", "5x6", "71 lines"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = '\0';
        lines = 7;
        ck_assert_msg(rdb_dots_parse_lines(bad[i].rows, bad[i].cols, bad[i].names, &lines, &err) ==
                          RDB_E_INPUT,
                      "'%s' read", bad[i].names);
        assert_message(&err, bad[i].w1, bad[i].w2);
        ck_assert(lines == 0);
    }
    ck_assert_int_eq(rdb_dots_parse_lines(2, 3, NULL, &lines, &err), RDB_E_INPUT);
}
END_TEST

START_TEST(test_cram_diagram)
{
    rdb_error err;
    int rows, cols;
    uint64_t covered;
    ck_assert_int_eq(rdb_cram_parse_diagram("\n##.\n...\n\n", NULL, &rows, &cols, &covered, &err),
                     RDB_OK);
    ck_assert_int_eq(rows, 2);
    ck_assert_int_eq(cols, 3);
    ck_assert(covered == 3);
    ck_assert_int_eq(rdb_cram_parse_diagram("...\n..#\n", "c.txt", &rows, &cols, &covered, &err),
                     RDB_OK);
    ck_assert(covered == 1ULL << 5);

    static const struct {
        const char *text, *source, *w1, *w2;
    } bad[] = {
        {"", NULL, "diagram", NULL},
        {"...\n..\n", "c.txt", "c.txt: line 2", NULL},
        {"..x\n", NULL, "diagram: line 1, column 3", NULL},
        {"..\n\n..\n", NULL, "blank line", NULL},
        {"........\n........\n........\n........\n........\n........\n........\n........\n"
         "........\n",
         NULL, "64", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = '\0';
        rows = cols = 7;
        covered = 7;
        ck_assert_msg(rdb_cram_parse_diagram(bad[i].text, bad[i].source, &rows, &cols, &covered,
                                             &err) == RDB_E_INPUT,
                      "bad diagram %zu read", i);
        assert_message(&err, bad[i].w1, bad[i].w2);
        ck_assert(rows == 0 && cols == 0 && covered == 0);
    }
    ck_assert_int_eq(rdb_cram_parse_diagram(NULL, NULL, &rows, &cols, &covered, &err),
                     RDB_E_INPUT);
}
END_TEST

/* rdb_position_read: every form query reads, on the boards' documented
 * numbering, and each wrong text refused with its reason and set zeroed. */
START_TEST(test_position_read)
{
    rdb_error err;
    uint64_t set[2];
    rdb_written_form form;
    const uint64_t h00 = 1ULL << hline(2, 0, 0), v12 = 1ULL << vline(2, 2, 1, 2);
    static const struct {
        const char *text;
        uint64_t start;
        int form;
    } dots[] = {
        {"h0,0 v1,2", 0, RDB_WRITTEN_MOVES},
        {"0 11", 0, RDB_WRITTEN_MOVES},
        {"0, 11", 0, RDB_WRITTEN_MOVES},
        {"[0, 11]", 0, RDB_WRITTEN_MOVES},
        {"  v1,2\n", 1, RDB_WRITTEN_MOVES}, /* the start's line 0 and one move */
        {"100000000001", 0, RDB_WRITTEN_SET}, /* DBN: character i is line i */
        {"+-+ +\n    |\n+ + +\n     \n+ + +\n", 0, RDB_WRITTEN_DIAGRAM},
    };
    for (size_t i = 0; i < sizeof dots / sizeof dots[0]; i++) {
        set[0] = set[1] = 7;
        ck_assert_msg(rdb_position_read("dots", 2, 2, dots[i].start, dots[i].text, set, &form,
                                        &err) == RDB_OK,
                      "'%s': %s", dots[i].text, err.msg);
        const uint64_t want = i == 6 ? h00 | 1ULL << vline(2, 2, 0, 2) : h00 | v12;
        ck_assert_msg(set[0] == want && set[1] == 0, "'%s' read as %llx", dots[i].text,
                      (unsigned long long)set[0]);
        ck_assert_int_eq(form, dots[i].form);
    }
    ck_assert_int_eq(rdb_position_read("dots", 2, 2, 0, "", set, NULL, &err), RDB_OK);
    ck_assert(set[0] == 0);

    /* Cram, 3x3: cell (r, c) is bit 3r + c */
    static const struct {
        const char *text;
        uint64_t want;
        int form;
    } cram[] = {
        {"0,0-0,1 2,1-2,2", 0x3 | 0x180, RDB_WRITTEN_MOVES},
        {"(0,0)-(1,0)", 0x9, RDB_WRITTEN_MOVES},
        {"0,0 1,1", 0x11, RDB_WRITTEN_SET},
        {"110000001", 0x103, RDB_WRITTEN_SET},
        {"##.\n...\n..#\n", 0x103, RDB_WRITTEN_DIAGRAM},
    };
    for (size_t i = 0; i < sizeof cram / sizeof cram[0]; i++) {
        ck_assert_msg(rdb_position_read("cram", 3, 3, 0, cram[i].text, set, &form, &err) == RDB_OK,
                      "'%s': %s", cram[i].text, err.msg);
        ck_assert_msg(set[0] == cram[i].want && set[1] == 0, "'%s' read as %llx", cram[i].text,
                      (unsigned long long)set[0]);
        ck_assert_int_eq(form, cram[i].form);
    }
    /* a board of over 64 cells: a diagram, in two words */
    char big[9 * 10 + 1];
    for (int r = 0; r < 9; r++) {
        memset(big + 10 * r, '.', 9);
        big[10 * r + 9] = '\n';
    }
    big[90] = '\0';
    big[10 * 8 + 8] = '#'; /* cell 80 */
    ck_assert_int_eq(rdb_position_read("cram", 9, 9, 0, big, set, &form, &err), RDB_OK);
    ck_assert(set[0] == 0 && set[1] == 1ULL << 16 && form == RDB_WRITTEN_DIAGRAM);

    static const struct {
        const char *game;
        int rows, cols;
        uint64_t start;
        const char *text, *w1, *w2;
    } bad[] = {
        {"dots", 2, 2, 0, "h0,0 h0,0", "drawn already", NULL},
        {"dots", 2, 2, 1, "0", "drawn already", "start"},
        {"dots", 2, 2, 0, "h3,0", "h3,0", "2x2"},
        {"dots", 2, 2, 0, "12", "action 12", NULL},
        {"dots", 2, 2, 0, "1000000000011", "12 characters, not 13", NULL},
        {"dots", 2, 2, 0, "+ +\n   \n+ +\n", "1x1 diagram", "2x2"},
        {"dots", 2, 2, 0, "##.\n...\n", "Cram diagram", NULL},
        {"dots", 2, 2, 1ULL << 12, "", "start", NULL},
        {"dots", 9, 9, 0, "", "64", NULL},
        {"cram", 3, 3, 0, "0,0-1,1", "side by side", NULL},
        {"cram", 3, 3, 0, "0,0-0,1 0,1-1,1", "covered already", NULL},
        {"cram", 3, 3, 0, "3,0", "3,0", "3x3"},
        {"cram", 3, 3, 0, "...\n...\n", "2x3 diagram", "3x3"},
        {"cram", 9, 9, 0, "0,0-0,1", "diagram", "64"},
        {"cram", 12, 12, 0, "", "128", NULL},
        {"chess", 3, 3, 0, "", "chess", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = '\0';
        set[0] = set[1] = 7;
        ck_assert_msg(rdb_position_read(bad[i].game, bad[i].rows, bad[i].cols, bad[i].start,
                                        bad[i].text, set, &form, &err) == RDB_E_INPUT,
                      "bad position %zu '%s' read", i, bad[i].text);
        assert_message(&err, bad[i].w1, bad[i].w2);
        ck_assert(set[0] == 0 && set[1] == 0);
    }
    ck_assert_int_eq(rdb_position_read("dots", 2, 2, 0, NULL, set, &form, &err), RDB_E_INPUT);
    ck_assert_int_eq(rdb_position_read(NULL, 2, 2, 0, "", set, &form, &err), RDB_E_INPUT);
}
END_TEST

static rdb_db_info info_of(const char *dir)
{
    rdb_probe *p;
    rdb_error err;
    ck_assert_msg(rdb_probe_open(dir, &p, &err) == RDB_OK, "open: %s", err.msg);
    rdb_db_info info;
    memset(&info, 0x5a, sizeof info);
    rdb_probe_info(p, &info);
    /* what the older calls say too */
    int rows, cols;
    uint64_t start;
    rdb_probe_board(p, &rows, &cols, &start);
    ck_assert_int_eq(info.rows, rows);
    ck_assert_int_eq(info.cols, cols);
    ck_assert(info.start == start);
    ck_assert_str_eq(info.game, rdb_probe_game(p));
    ck_assert_int_eq(info.loony, rdb_probe_loony(p));
    for (size_t i = 0; i < sizeof info.reserved / sizeof info.reserved[0]; i++)
        ck_assert_int_eq(info.reserved[i], 0);
    rdb_probe_close(p);
    return info;
}

START_TEST(test_info)
{
    char dir[TU_DIR_MAX], path[TU_DIR_MAX + 16];
    rdb_error err;
    rdb_build_options opt;

    /* a Swedish 2x2 board with a last-move penalty of 2 */
    tu_mkdtemp(dir);
    ck_assert_msg(tu_build(dir, 2, 2, tu_border(2, 2), -2, 0, "swedish", 1, &err) == RDB_OK, "%s",
                  err.msg);
    rdb_db_info info = info_of(dir);
    ck_assert_str_eq(info.game, "dots");
    ck_assert_int_eq(info.rows, 2);
    ck_assert_int_eq(info.cols, 2);
    ck_assert_str_eq(info.variant, "swedish");
    ck_assert(info.start == tu_border(2, 2));
    ck_assert_int_eq(info.full_value, -2);
    ck_assert_int_eq(info.loony, 0);
    ck_assert_int_eq(info.chains, 0);
    ck_assert_int_eq(info.complete, 1);
    /* without its record of finished slices the build is not complete */
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(info_of(dir).complete, 0);
    tu_rmrf(dir);

    /* levels not kept still make a finished build */
    tu_mkdtemp(dir);
    ck_assert_msg(tu_build_keep(dir, 2, 2, 0, 0, 0, "empty", 1, 4, &err) == RDB_OK, "%s", err.msg);
    info = info_of(dir);
    ck_assert_str_eq(info.variant, "empty");
    ck_assert_int_eq(info.full_value, 0);
    ck_assert_int_eq(info.complete, 1);
    tu_rmrf(dir);

    /* loony analysis; chain pseudo-lines */
    for (int chains = 0; chains <= 1; chains++) {
        tu_mkdtemp(dir);
        tu_build_options(&opt, dir, RDB_GAME_DOTS, 1, 3);
        opt.params.start = tu_border(1, 3);
        opt.params.loony = !chains;
        opt.params.chains = chains;
        ck_assert_msg(rdb_build(&opt, &err) == RDB_OK, "%s", err.msg);
        info = info_of(dir);
        ck_assert_str_eq(info.variant, "custom");
        ck_assert_int_eq(info.loony, !chains);
        ck_assert_int_eq(info.chains, chains);
        ck_assert_int_eq(info.complete, 1);
        tu_rmrf(dir);
    }

    /* a Cram table */
    tu_mkdtemp(dir);
    tu_build_options(&opt, dir, RDB_GAME_CRAM, 2, 3);
    snprintf(opt.params.variant, sizeof opt.params.variant, "all");
    ck_assert_msg(rdb_build(&opt, &err) == RDB_OK, "%s", err.msg);
    info = info_of(dir);
    ck_assert_str_eq(info.game, "cram");
    ck_assert_int_eq(info.rows, 2);
    ck_assert_int_eq(info.cols, 3);
    ck_assert_str_eq(info.variant, "all");
    ck_assert(info.start == 0);
    ck_assert_int_eq(info.loony, 0);
    ck_assert_int_eq(info.complete, 1);
    tu_rmrf(dir);
}
END_TEST

/* A program's whole path: a diagram and a list of names of the same
 * position probe to the same answer. */
/* The empty 2x2 database built in a new folder `dir`, opened. */
static rdb_probe *open_2x2(char *dir)
{
    rdb_error err;
    tu_mkdtemp(dir);
    ck_assert_msg(tu_build(dir, 2, 2, 0, 0, 0, "empty", 1, &err) == RDB_OK, "%s", err.msg);
    rdb_probe *p;
    ck_assert_int_eq(rdb_probe_open(dir, &p, &err), RDB_OK);
    return p;
}

START_TEST(test_parse_and_probe)
{
    char dir[TU_DIR_MAX];
    rdb_error err;
    rdb_probe *p = open_2x2(dir);
    int rows, cols;
    uint64_t drawn, named;
    ck_assert_int_eq(rdb_dots_parse_diagram("+-+ +\n|\n+ + +\n\n+ + +\n", NULL, &rows, &cols,
                                            &drawn, &err),
                     RDB_OK);
    ck_assert_int_eq(rdb_dots_parse_lines(2, 2, "h0,0 v0,0", &named, &err), RDB_OK);
    ck_assert(drawn == named);
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 2, 2, 0, 0), 0);
    rdb_dots_answer a;
    ck_assert_int_eq(rdb_probe_moves(p, named, &a, &err), RDB_OK);
    ck_assert_int_eq(a.value, naive_value(&nv, named));
    ck_assert_int_eq(a.nmoves, 10);
    for (int i = 0; i < a.nmoves; i++) {
        char name[RDB_LINE_NAME_MAX];
        ck_assert_int_eq(rdb_dots_line_name(2, 2, a.line[i], name, sizeof name, &err), RDB_OK);
        uint64_t one;
        ck_assert_int_eq(rdb_dots_parse_lines(2, 2, name, &one, &err), RDB_OK);
        ck_assert(one == 1ULL << a.line[i]);
        ck_assert(!(named & one));
    }
    naive_free(&nv);
    rdb_probe_close(p);
    tu_rmrf(dir);
}
END_TEST

/* The perfect game of every position of 2x2 against the naive solver:
 * each move a best one, a capture first among the best, then the lowest
 * line id; the boxes each player takes add up to the position's value. */
START_TEST(test_perfect_game)
{
    char dir[TU_DIR_MAX];
    rdb_error err;
    rdb_probe *p = open_2x2(dir);
    naive_dots nv;
    ck_assert_int_eq(naive_solve(&nv, 2, 2, 0, 0), 0);
    const int nlines = 12;
    long captures_first = 0;
    for (uint64_t x = 0; x < 1u << nlines; x++) {
        int ids[12], n = -1;
        uint64_t after[12];
        ck_assert_int_eq(rdb_probe_perfect_game(p, x, ids, after, nlines, &n, &err), RDB_OK);
        ck_assert_int_eq(n, nlines - __builtin_popcountll(x));
        uint64_t at = x;
        int score = 0, sign = 1;
        for (int i = 0; i < n; i++) {
            const int v = naive_value(&nv, at);
            int want = -1, want_capture = 0;
            for (int l = 0; l < nlines; l++) {
                if (at >> l & 1)
                    continue;
                const int b = naive_boxes(&nv.board, at, l);
                const int mv = b ? b + naive_value(&nv, at | 1ULL << l) : -naive_value(&nv, at | 1ULL << l);
                if (mv == v && (want < 0 || (b > 0 && !want_capture))) {
                    want = l;
                    want_capture = b > 0;
                }
            }
            ck_assert_msg(ids[i] == want, "position %#llx, move %d: line %d, not %d",
                          (unsigned long long)x, i, ids[i], want);
            const int b = naive_boxes(&nv.board, at, ids[i]);
            captures_first += b > 0 && ids[i] != __builtin_ctzll(~at);
            score += sign * b;
            if (!b)
                sign = -sign;
            at |= 1ULL << ids[i];
            ck_assert(after[i] == at);
        }
        ck_assert_int_eq(score, naive_value(&nv, x));
    }
    ck_assert_int_gt(captures_first, 0); /* the tie-break was met */
    /* a game longer than the room given */
    int ids[3], n;
    ck_assert_int_eq(rdb_probe_perfect_game(p, 0, ids, NULL, 3, &n, &err), RDB_E_INPUT);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(rdb_probe_perfect_game(p, 0, ids, NULL, -1, &n, &err), RDB_E_INPUT);
    ck_assert_int_eq(n, 0);
    naive_free(&nv);
    rdb_probe_close(p);
    tu_rmrf(dir);
}
END_TEST

Suite *public_api_suite(void)
{
    Suite *s = suite_create("public_api");
    TCase *tc = tcase_create("public_api");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_version);
    tcase_add_test(tc, test_dots_diagram);
    tcase_add_test(tc, test_dots_line_names);
    tcase_add_test(tc, test_dots_parse_lines);
    tcase_add_test(tc, test_cram_diagram);
    tcase_add_test(tc, test_position_read);
    tcase_add_test(tc, test_info);
    tcase_add_test(tc, test_parse_and_probe);
    tcase_add_test(tc, test_perfect_game);
    suite_add_tcase(s, tc);
    return s;
}
