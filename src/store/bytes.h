/*
 * bytes.h — the byte-level pieces of the solvers' table files (Cram's and
 * Dots-and-Boxes' --tt-file): little-endian fields, so that a file reads
 * the same on every machine, and the FNV-1a checksum they end with.
 */
#ifndef RDB_BYTES_H
#define RDB_BYTES_H

#include <stddef.h>
#include <stdint.h>

#define RDB_FNV_START 0xcbf29ce484222325ULL

/* FNV-1a over n bytes, continuing from h (RDB_FNV_START at first). */
uint64_t rdb_fnv1a(uint64_t h, const void *p, size_t n);

/* The low n bytes of v at p, least significant first; and back. */
void rdb_put_le(unsigned char *p, uint64_t v, int n);
uint64_t rdb_get_le(const unsigned char *p, int n);

#endif
