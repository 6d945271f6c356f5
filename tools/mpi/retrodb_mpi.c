/*
 * retrodb_mpi.c — bin/retrodb-mpi, the build subcommands run as the ranks
 * of an MPI job:
 *
 *   mpirun -np 64 --hostfile hosts bin/retrodb-mpi build dots 3x6 --dir /shared/db/3x6
 *
 * Every rank parses the same command line (the same tools/build.c and
 * tools/build_cram.c as bin/retrodb) and runs the builder with the MPI
 * distribution (mpi_distribution.c): the folder, its files, resume and
 * result are those of `retrodb build`. Rank 0 speaks for the job; the
 * other ranks' output goes nowhere (their failures reach rank 0 as
 * messages), so a job of 64 ranks prints one report.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "mpi_distribution.h"
#include "retrodb/version.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: mpirun [mpirun options] retrodb-mpi build dots|cram [options]\n"
               "\n"
               "The options of `retrodb build dots` and `retrodb build cram`; --threads\n"
               "and --memory are per rank. Query and watch the folder with retrodb.\n");
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *first = argv[1];
    if (strcmp(first, "-V") == 0 || strcmp(first, "--version") == 0) {
        printf("retrodb-mpi %s\n", RETRODB_VERSION);
        return 0;
    }
    if (strcmp(first, "-h") == 0 || strcmp(first, "--help") == 0 || strcmp(first, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(first, "build") != 0 || argc < 3) {
        fprintf(stderr, "retrodb-mpi: only builds run under MPI ('%s')\n", first);
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[2], "dots") == 0)
        return rdb_cmd_build_dots(argc - 2, argv + 2);
    if (strcmp(argv[2], "cram") == 0)
        return rdb_cmd_build_cram(argc - 2, argv + 2);
    fprintf(stderr, "retrodb-mpi build: unknown game '%s' (dots or cram)\n", argv[2]);
    return 2;
}

int main(int argc, char **argv)
{
    rdb_tool_wait_passively(argv);
    /* only the main thread calls MPI; the writer and OpenMP threads never */
    int provided;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "retrodb-mpi: cannot start MPI\n");
        return 1;
    }
    rdb_distribution *d = rdb_mpi_distribution_new();
    if (!d) {
        fprintf(stderr, "retrodb-mpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (d->rank != 0) {
        int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
            close(null);
        }
    }
    rdb_tool_distribution = d;
    int rc = run(argc, argv);
    fflush(stdout);
    rdb_tool_distribution = NULL;
    rdb_mpi_distribution_free(d);
    MPI_Finalize();
    return rc;
}
