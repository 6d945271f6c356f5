/*
 * test_human.c — numbers for people (src/common/human.c): thousands
 * separators, durations across seconds, minutes, hours and days, sizes,
 * and plurals, including the edges where one form hands over to the next.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "common/human.h"
#include "test_util.h"

START_TEST(test_count)
{
    char b[RDB_HUMAN_MAX];
    ck_assert_str_eq(rdb_human_count(0, b, sizeof b), "0");
    ck_assert_str_eq(rdb_human_count(999, b, sizeof b), "999");
    ck_assert_str_eq(rdb_human_count(1000, b, sizeof b), "1,000");
    ck_assert_str_eq(rdb_human_count(692388, b, sizeof b), "692,388");
    ck_assert_str_eq(rdb_human_count(1234567, b, sizeof b), "1,234,567");
    ck_assert_str_eq(rdb_human_count(UINT64_MAX, b, sizeof b), "18,446,744,073,709,551,615");
}
END_TEST

START_TEST(test_duration)
{
    char b[RDB_HUMAN_MAX];
    ck_assert_str_eq(rdb_human_duration(0.423, b, sizeof b), "0.42 s");
    ck_assert_str_eq(rdb_human_duration(42, b, sizeof b), "42 s");
    ck_assert_str_eq(rdb_human_duration(59.4, b, sizeof b), "59 s");
    ck_assert_str_eq(rdb_human_duration(60, b, sizeof b), "1:00");
    ck_assert_str_eq(rdb_human_duration(205, b, sizeof b), "3:25");
    ck_assert_str_eq(rdb_human_duration(3599.6, b, sizeof b), "1:00:00");
    ck_assert_str_eq(rdb_human_duration(3723, b, sizeof b), "1:02:03");
    ck_assert_str_eq(rdb_human_duration(86400, b, sizeof b), "1 day 0:00:00");
    ck_assert_str_eq(rdb_human_duration(2 * 86400 + 3723, b, sizeof b), "2 days 1:02:03");
    /* a rate near zero gives an absurd time left: bounded, never garbage */
    ck_assert_str_eq(rdb_human_duration(-1, b, sizeof b), "0.00 s");
    ck_assert_str_eq(rdb_human_duration(NAN, b, sizeof b), "0.00 s");
    ck_assert_str_eq(rdb_human_duration(INFINITY, b, sizeof b), "11574 days 1:46:40");
}
END_TEST

START_TEST(test_bytes_and_plural)
{
    char b[RDB_HUMAN_MAX];
    ck_assert_str_eq(rdb_human_bytes(512, b, sizeof b), "512 bytes");
    ck_assert_str_eq(rdb_human_bytes(4096, b, sizeof b), "4.1 kB");
    ck_assert_str_eq(rdb_human_bytes(12345678, b, sizeof b), "12.3 MB");
    ck_assert_str_eq(rdb_human_bytes(4560000000ULL, b, sizeof b), "4.56 GB");
    ck_assert_str_eq(rdb_human_plural(1, "slice", b, sizeof b), "1 slice");
    ck_assert_str_eq(rdb_human_plural(0, "slice", b, sizeof b), "0 slices");
    ck_assert_str_eq(rdb_human_plural(1055, "slice", b, sizeof b), "1,055 slices");
    /* a small buffer is cut, not overrun */
    char small[6];
    ck_assert_str_eq(rdb_human_count(1234567, small, sizeof small), "1,234");
}
END_TEST

Suite *human_suite(void)
{
    Suite *s = suite_create("human");
    TCase *tc = tcase_create("human");
    tcase_add_test(tc, test_count);
    tcase_add_test(tc, test_duration);
    tcase_add_test(tc, test_bytes_and_plural);
    suite_add_tcase(s, tc);
    return s;
}
