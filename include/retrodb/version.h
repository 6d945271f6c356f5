/*
 * retrodb/version.h — the version of retrodb this header came with, for
 * programs that must know which API they compile against (the numbers
 * follow semantic versioning: a new minor version only adds), and the
 * version of the library a program runs with, which may be newer.
 */
#ifndef RETRODB_VERSION_H
#define RETRODB_VERSION_H

#include "retrodb/api.h"

#define RETRODB_VERSION_MAJOR 0
#define RETRODB_VERSION_MINOR 8
#define RETRODB_VERSION_PATCH 0
#define RETRODB_VERSION "0.8.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library the program runs with, "0.8.0": the
 * RETRODB_VERSION its headers had when it was built (with a shared library,
 * not necessarily the one the program was compiled against). A static
 * string; never fails; safe from any thread. */
RDB_API const char *rdb_version(void);

#ifdef __cplusplus
}
#endif

#endif
