/*
 * cram_tables.h — a nimber table built by `retrodb build cram`, opened
 * through the public probe API as a table the Cram solver can ask
 * (cram_table_source, cram_solver.h). The solver knows no probe: this is
 * where the two meet, above the game.
 */
#ifndef RDB_CRAM_TABLES_H
#define RDB_CRAM_TABLES_H

#include "common/error.h"
#include "cram/cram_solver.h"

/* The table in folder dir (a database of another game is RDB_E_INPUT),
 * held in memory when it fits a few gigabytes; for
 * cram_solver_add_table, which closes it. */
rdb_status cram_table_open(const char *dir, cram_table_source *out, rdb_error *err);

#endif
