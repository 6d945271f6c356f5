/*
 * cram_tables.h — the Cram solver's window on nimber tables built by
 * `retrodb build cram`: open one, tell its board, look up a position.
 * Kept apart so that the solver depends on the table format only here.
 */
#ifndef RDB_CRAM_TABLES_H
#define RDB_CRAM_TABLES_H

#include <stdint.h>

#include "common/error.h"

typedef struct cram_table cram_table;

/* Open the table in folder dir; a database of another game is RDB_E_INPUT. */
rdb_status cram_table_open(const char *dir, cram_table **out, rdb_error *err);
void cram_table_close(cram_table *t);

/* The table's board. */
/* Whether the table's values are held in memory (then a probe costs a
 * few table lookups; else it decodes part of a compressed frame). */
int cram_table_in_memory(const cram_table *t);

void cram_table_shape(const cram_table *t, int *rows, int *cols);

/* Nimber of the position of the table's board whose covered cells are
 * `covered` (cell (r,c) = bit r*cols + c). */
rdb_status cram_table_value(cram_table *t, uint64_t covered, int *nimber, rdb_error *err);

#endif
