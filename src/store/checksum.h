/*
 * checksum.h — a fast 64-bit checksum of byte buffers.
 *
 * Used for the per-slice checksum of uncompressed values (what `info`
 * prints and data/ records) and for file headers. It reads 8 bytes at a time
 * in little-endian order, so it is the same on every machine. Not
 * cryptographic; it catches damage, not malice.
 */
#ifndef RDB_CHECKSUM_H
#define RDB_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

uint64_t rdb_checksum64(const void *data, size_t len, uint64_t seed);

/* Fold one checksum into a running one (for per-level checksums). */
uint64_t rdb_checksum_combine(uint64_t acc, uint64_t next);

#endif
