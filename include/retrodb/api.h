/*
 * retrodb/api.h — how the public headers mark the library's functions.
 *
 * The installable library is compiled with -fvisibility=hidden, so that
 * only the functions declared RDB_API in include/retrodb/ are exported
 * from libretrodb.so and stay global in libretrodb.a; everything else of
 * the library is internal and may change in any release. In a program
 * that includes these headers the attribute changes nothing.
 */
#ifndef RETRODB_API_H
#define RETRODB_API_H

#if defined(__GNUC__) || defined(__clang__)
#define RDB_API __attribute__((visibility("default")))
#else
#define RDB_API
#endif

#endif
