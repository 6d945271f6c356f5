/*
 * version.c — the version of the library a program runs with
 * (retrodb/version.h), which with a shared library may differ from the
 * headers it was compiled against.
 */
#include "retrodb/version.h"

const char *rdb_version(void)
{
    return RETRODB_VERSION;
}
