/*
 * mpi_distribution.h — a build shared among the ranks of an MPI job
 * (engine/distribution.h), for bin/retrodb-mpi only: nothing else is
 * compiled with mpi.h.
 */
#ifndef RDB_MPI_DISTRIBUTION_H
#define RDB_MPI_DISTRIBUTION_H

#include "engine/distribution.h"

/* The distribution of MPI_COMM_WORLD, after MPI_Init; NULL when out of
 * memory. Freed by rdb_mpi_distribution_free, before MPI_Finalize. */
rdb_distribution *rdb_mpi_distribution_new(void);
void rdb_mpi_distribution_free(rdb_distribution *d);

#endif
