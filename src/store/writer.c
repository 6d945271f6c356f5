/*
 * writer.c — the background slice writer; see writer.h. A one-slot
 * hand-over guarded by a mutex and a condition variable: the builder never
 * has more than one finished slice waiting, which bounds memory to one
 * extra compressed slice.
 */
#include "store/writer.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "common/fsutil.h"

struct rdb_writer {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int busy;               /* a slice is waiting or being written */
    int quit;
    rdb_encoded_slice enc;
    rdb_slice slice;
    double seconds;
    rdb_status status;      /* first failure, sticky */
    rdb_error error;
    rdb_manifest *man;
    char dir[RDB_PATH_MAX];
};

static rdb_status commit(rdb_writer *w, rdb_error *err)
{
    char folder[RDB_PATH_MAX];
    snprintf(folder, sizeof folder, "%s", w->enc.path);
    char *slash = strrchr(folder, '/');
    if (slash)
        *slash = '\0';
    rdb_status st = rdb_mkdirs(folder, err);
    if (st == RDB_OK)
        st = rdb_slice_commit(&w->enc, err);
    if (st == RDB_OK)
        st = rdb_manifest_append(w->man, w->dir, &w->slice, w->enc.checksum, w->enc.bytes,
                                 w->seconds, err);
    return st;
}

static void *writer_main(void *arg)
{
    rdb_writer *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->busy && !w->quit)
            pthread_cond_wait(&w->cv, &w->mu);
        if (!w->busy && w->quit)
            break;
        pthread_mutex_unlock(&w->mu);
        rdb_error err;
        rdb_status st = commit(w, &err);
        rdb_encoded_free(&w->enc);
        pthread_mutex_lock(&w->mu);
        if (st != RDB_OK && w->status == RDB_OK) {
            w->status = st;
            w->error = err;
        }
        w->busy = 0;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

rdb_status rdb_writer_start(rdb_writer **out, rdb_manifest *man, const char *dir, rdb_error *err)
{
    rdb_writer *w = calloc(1, sizeof *w);
    if (!w)
        return rdb_fail(err, RDB_E_NOMEM, "out of memory");
    w->man = man;
    snprintf(w->dir, sizeof w->dir, "%s", dir);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pthread_create(&w->thread, NULL, writer_main, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        free(w);
        return rdb_fail(err, RDB_E_NOMEM, "cannot start the writer thread");
    }
    *out = w;
    return RDB_OK;
}

/* Wait until idle; called with the mutex held. */
static rdb_status wait_idle(rdb_writer *w, rdb_error *err)
{
    while (w->busy)
        pthread_cond_wait(&w->cv, &w->mu);
    if (w->status != RDB_OK && err)
        *err = w->error;
    return w->status;
}

rdb_status rdb_writer_submit(rdb_writer *w, rdb_encoded_slice *enc, const rdb_slice *s,
                             double seconds, rdb_error *err)
{
    pthread_mutex_lock(&w->mu);
    rdb_status st = wait_idle(w, err);
    if (st == RDB_OK) {
        w->enc = *enc;
        w->slice = *s;
        w->seconds = seconds;
        w->busy = 1;
        /* the manifest is the writer's until the drain (writer.h) */
        w->man->writer = w->thread;
        __atomic_store_n(&w->man->lent, 1, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&w->cv);
    } else {
        rdb_encoded_free(enc);
    }
    memset(enc, 0, sizeof *enc);
    pthread_mutex_unlock(&w->mu);
    return st;
}

rdb_status rdb_writer_drain(rdb_writer *w, rdb_error *err)
{
    pthread_mutex_lock(&w->mu);
    rdb_status st = wait_idle(w, err);
    __atomic_store_n(&w->man->lent, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&w->mu);
    return st;
}

rdb_status rdb_writer_stop(rdb_writer *w, rdb_error *err)
{
    if (!w)
        return RDB_OK;
    pthread_mutex_lock(&w->mu);
    rdb_status st = wait_idle(w, err);
    __atomic_store_n(&w->man->lent, 0, __ATOMIC_RELEASE);
    w->quit = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w);
    return st;
}
