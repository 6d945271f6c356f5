/*
 * retrodb/status.h — status codes and the error message buffer shared by
 * every retrodb API.
 */
#ifndef RETRODB_STATUS_H
#define RETRODB_STATUS_H

typedef enum {
    RDB_OK = 0,
    RDB_E_INPUT,    /* malformed or unsuitable input from the user */
    RDB_E_IO,       /* a file system call failed */
    RDB_E_CORRUPT,  /* a database file is damaged or incomplete */
    RDB_E_MISSING,  /* the database does not hold what was asked */
    RDB_E_NOMEM,    /* out of memory or over the memory budget */
    RDB_E_BUSY,     /* another builder holds the database directory */
    RDB_E_STOPPED,  /* stopped by a signal at a safe point */
    RDB_E_NOSPACE   /* the disk is full */
} rdb_status;

typedef struct {
    char msg[1024];
} rdb_error;

#endif
