/*
 * retrodb/status.h — status codes and the error message buffer shared by
 * every retrodb API.
 *
 * Every function that can fail returns an rdb_status and, when it is not
 * RDB_OK, writes a one-line, lower-case message into the rdb_error the
 * caller passed (which must not be NULL), naming what failed: "cannot open
 * 'db/3x3/PARAMS': Permission denied". The message is meant for people;
 * programs decide on the status.
 */
#ifndef RETRODB_STATUS_H
#define RETRODB_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif
