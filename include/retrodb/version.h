/*
 * retrodb/version.h — the version of retrodb this header came with, for
 * programs that must know which API they compile against (the numbers
 * follow semantic versioning: a new minor version only adds).
 */
#ifndef RETRODB_VERSION_H
#define RETRODB_VERSION_H

#define RETRODB_VERSION_MAJOR 0
#define RETRODB_VERSION_MINOR 5
#define RETRODB_VERSION_PATCH 0
#define RETRODB_VERSION "0.5.0"

#endif
