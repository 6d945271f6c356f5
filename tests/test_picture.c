/*
 * test_picture.c — the SVG writer of the program (tools/picture.c): text
 * escaped for XML, the same picture byte for byte from the same input, a
 * failed write reported. How the pictures look, rendered, is checked by
 * tests/svg.sh.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tools/picture.h"
#include "test_util.h"

/* What rdb_picture_xml_text writes for s, in a string to free. */
static char *escaped(const char *s)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(f);
    rdb_picture_xml_text(f, s);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

/* The Dots-and-Boxes picture of p, in a string to free. */
static char *dots_svg(const rdb_dots_picture *p)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(rdb_picture_dots_svg(f, p), 0);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

START_TEST(test_xml_text)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"", ""},
        {"plain words 3", "plain words 3"},
        {"A & B", "A &amp; B"},
        {"<svg>", "&lt;svg&gt;"},
        {"&amp;", "&amp;amp;"}, /* an entity in the text is text */
        {"say \"hi\" 'x'", "say &quot;hi&quot; &apos;x&apos;"},
        {"a\tb\nc\rd", "a\tb\nc\rd"},
        {"bell\a esc\x1b", "bell? esc?"},     /* no way to write them in XML 1.0 */
        {"\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9"}, /* UTF-8 passes as it is */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = escaped(cases[i].in);
        ck_assert_msg(strcmp(got, cases[i].out) == 0, "'%s' escaped as '%s', want '%s'",
                      cases[i].in, got, cases[i].out);
        free(got);
    }
}
END_TEST

START_TEST(test_caption_escaped_and_deterministic)
{
    int value[64] = {0};
    value[0] = -3;
    value[1] = 2;
    char owner[4] = {'A', ' ', ' ', '<'};
    const rdb_dots_picture p = {2, 2, 1ull << 2, owner, value, 1ull << 1, NULL,
                                "A & B <tied>"};
    char *a = dots_svg(&p), *b = dots_svg(&p);
    ck_assert_str_eq(a, b);
    ck_assert_ptr_nonnull(strstr(a, ">A &amp; B &lt;tied&gt;</text>"));
    ck_assert_ptr_nonnull(strstr(a, ">&lt;</text>")); /* a box's letter too */
    ck_assert_ptr_null(strstr(a, "<tied>"));
    ck_assert_ptr_nonnull(strstr(a, "viewBox=\"0 0 "));
    free(a);
    free(b);
}
END_TEST

START_TEST(test_write_error)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f)
        return; /* no /dev/full here: nothing to try */
    const int nimber[1] = {0};
    const int cell[1][2][2] = {{{0, 0}, {0, 1}}};
    const rdb_cram_picture p = {1, 2, 0, 1, cell, nimber, "caption"};
    ck_assert_int_eq(rdb_picture_cram_svg(f, &p), -1);
    fclose(f);
}
END_TEST

Suite *picture_suite(void)
{
    Suite *s = suite_create("picture");
    TCase *tc = tcase_create("picture");
    tcase_add_test(tc, test_xml_text);
    tcase_add_test(tc, test_caption_escaped_and_deterministic);
    tcase_add_test(tc, test_write_error);
    suite_add_tcase(s, tc);
    return s;
}
