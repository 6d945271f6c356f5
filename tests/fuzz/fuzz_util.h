/*
 * fuzz_util.h — what the fuzz harnesses of tests/fuzz/ share: the entry
 * point each one defines, a private temporary folder for the harnesses that
 * hand their input to code reading files, and the NUL-terminated copy the
 * text parsers expect.
 *
 * A harness is linked either with libFuzzer (clang, `make fuzz`) or with
 * replay_main.c (the project's compiler, `make test`); both call
 * LLVMFuzzerTestOneInput once per input, in one process, so nothing here
 * may keep state that changes what the next input does.
 */
#ifndef RDB_FUZZ_UTIL_H
#define RDB_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Defined by each harness: run one input; always returns 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The process's temporary folder, made on first use and removed (with
 * whatever a harness left in it) when the process exits. Aborts when it
 * cannot be made: a harness without it would test nothing. */
const char *fuzz_temp_dir(void);

/* Write size bytes to path (created or truncated); aborts on failure, which
 * is the machine's fault, not the input's. */
void fuzz_write_file(const char *path, const void *data, size_t size);

/* A malloc'd NUL-terminated copy of the input, or NULL when the input holds
 * a NUL byte: the program reads text through rdb_read_file, which refuses
 * those, so a parser never sees one. */
char *fuzz_text(const uint8_t *data, size_t size);

/* The input as a search's table file (src/search/table_file.h: a head of
 * `head` bytes ending in the u64 count, records of `record` bytes, the
 * FNV-1a of all before), written to `name` in the temporary folder, its
 * path in path: with the right checksum put after the records the head
 * counts, when they and the checksum fit, so that mutations of the
 * records reach the loader's checks instead of stopping at the checksum. */
void fuzz_write_sealed_table(char *path, size_t path_size, const char *name, const uint8_t *data,
                             size_t size, size_t head, size_t record);

#endif
