/*
 * serve.c — `retrodb serve`: the explorer page and the JSON API over HTTP,
 * through libmicrohttpd. This file holds the command, the listening socket
 * and the limits; what each request gets is serve_api.c's.
 *
 * Safe by default: it listens on 127.0.0.1 unless --bind says otherwise,
 * answers GET and HEAD only, reads no file after it starts, and bounds
 * every connection: 32 KB of request, 10 s of idleness, 10 s for a request
 * to arrive whole (--request-seconds; see "Slow clients" below), 256
 * connections at once and 32 from one address. libmicrohttpd answers a
 * request too large for its memory with 431 or 414 on its own;
 * serve_api.c refuses targets over RDB_SERVE_URI_MAX.
 *
 * libmicrohttpd is loaded here, when `serve` runs, not when the program
 * starts: it brings in GnuTLS and eight more libraries, which took 1.7 ms
 * of every start (a query, a small search: 6x6 Cram is solved in none).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <libgen.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "serve_api.h"

#include "common/job.h"
#include "common/number.h"

enum { OPT_PORT = 1, OPT_BIND, OPT_WEB, OPT_THREADS, OPT_REQUEST_SECONDS };

static const rdb_tool_option serve_options[] = {
    {RDB_OPT_DIR, "dir", 'd', "DIR", "the database (required): Dots-and-Boxes or a Cram table"},
    {OPT_PORT, "port", 'p', "N", "the TCP port (default 8080; 0: any free one, printed)"},
    {OPT_BIND, "bind", 0, "ADDR",
     "the address to listen on, IPv4 or IPv6 (default 127.0.0.1: this\n"
     "machine only; 0.0.0.0 opens it to the network)"},
    {OPT_WEB, "web", 0, "DIR",
     "the explorer page's folder (default: the installed one,\n"
     "PREFIX/share/retrodb/web, or web/ beside bin/ in the source tree)"},
    {OPT_THREADS, "threads", 't', "N", "threads answering requests (default 2)"},
    {OPT_REQUEST_SECONDS, "request-seconds", 0, "S",
     "how long a request may take to arrive whole, however slowly\n"
     "it comes; a connection that takes longer is closed (default 10)"},
    {0, 0, 0, 0, 0}};

const rdb_tool_command rdb_serve_command = {
    "serve",
    "--dir DIR [--port N] [--bind ADDR] [--web DIR] [--threads N] [--request-seconds S]",
    "Serve the database over HTTP: a page that draws the board, shows every\n"
    "move's value and plays moves on a click (open http://127.0.0.1:8080/),\n"
    "and a JSON API: /api/info, and /api/query?moves=...|dbn=...|cells=...|\n"
    "position=... [&pv=1], which answers with the object `query --json`\n"
    "prints. Read-only; runs until interrupted (Ctrl-C), then exits 0.",
    serve_options};

/* The library's soname, from the one found at build time. */
#ifndef RDB_HTTPD_SONAME
#define RDB_HTTPD_SONAME "libmicrohttpd.so.12"
#endif

/* The functions of libmicrohttpd this file calls, once loaded. */
static struct {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_get_daemon_info) *get_daemon_info;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
    __typeof__(MHD_get_connection_info) *get_connection_info;
} mhd;

/* Load libmicrohttpd and find its functions; 0 (said on stderr) when the
 * library or one of them is missing. */
static int load_httpd(void)
{
    static const char *const names[] = {"MHD_start_daemon", "MHD_stop_daemon",
                                        "MHD_get_daemon_info", "MHD_create_response_from_buffer",
                                        "MHD_add_response_header", "MHD_queue_response",
                                        "MHD_destroy_response", "MHD_get_connection_info"};
    const char *why;
    if (rdb_tool_load_library(RDB_HTTPD_SONAME, names, (void **)&mhd, sizeof names / sizeof *names, &why))
        return 1;
    fprintf(stderr, "retrodb serve: cannot load libmicrohttpd (%s): %s\n", RDB_HTTPD_SONAME, why);
    return 0;
}

/* ---- Slow clients ----
 *
 * libmicrohttpd's timeout counts idleness: a client that sends a byte a
 * second is never idle, and with 32 KB allowed a request it holds a
 * connection for hours; enough of them hold every one. So each connection
 * is watched from its start, and again from the end of each answer, until
 * its next request has arrived whole: past the deadline, the main loop
 * shuts its socket down, and libmicrohttpd, finding it closed, lets it go.
 * (Shut down, not closed: the descriptor stays libmicrohttpd's, and it
 * tells us before it closes one, so no number is ever reused under us.)
 * And no one address may hold more than SERVE_PER_ADDRESS of them, so a
 * few slow clients cannot keep the others out even between deadlines. */
#define SERVE_CONNECTIONS 256
#define SERVE_PER_ADDRESS 32

typedef struct {
    int used, answering, cut;
    int fd;
    double since; /* when the wait for a whole request began */
} watched;

static struct {
    pthread_mutex_t lock;
    watched conn[SERVE_CONNECTIONS + 16]; /* (libmicrohttpd may briefly hold a few more) */
    double deadline;
} guard = {.lock = PTHREAD_MUTEX_INITIALIZER, .deadline = 10};

static void watch_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                             enum MHD_ConnectionNotificationCode toe)
{
    (void)cls;
    pthread_mutex_lock(&guard.lock);
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info =
            mhd.get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = NULL;
        for (size_t i = 0; info && i < sizeof guard.conn / sizeof *guard.conn; i++)
            if (!guard.conn[i].used) {
                guard.conn[i] = (watched){1, 0, 0, info->connect_fd, rdb_now()};
                *socket_context = &guard.conn[i];
                break;
            }
    } else if (*socket_context) {
        ((watched *)*socket_context)->used = 0;
        *socket_context = NULL;
    }
    pthread_mutex_unlock(&guard.lock);
}

/* The connection's request has arrived whole (answering 1: no deadline
 * while it is answered), or its answer is sent (0: the wait for the next
 * begins). */
static void request_arrived(struct MHD_Connection *c, int answering)
{
    const union MHD_ConnectionInfo *info =
        mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (!info || !info->socket_context)
        return;
    pthread_mutex_lock(&guard.lock);
    watched *w = info->socket_context;
    w->answering = answering;
    w->since = rdb_now();
    pthread_mutex_unlock(&guard.lock);
}

/* Shut down the connections whose request is overdue. */
static void cut_slow_clients(void)
{
    const double now = rdb_now();
    pthread_mutex_lock(&guard.lock);
    for (size_t i = 0; i < sizeof guard.conn / sizeof *guard.conn; i++) {
        watched *w = &guard.conn[i];
        if (w->used && !w->answering && !w->cut && now - w->since > guard.deadline) {
            shutdown(w->fd, SHUT_RDWR);
            w->cut = 1;
        }
    }
    pthread_mutex_unlock(&guard.lock);
}

/* A request's state: its target as sent (from the URI callback, before
 * libmicrohttpd decodes it) and whether the handler has seen it once. */
typedef struct {
    int seen, has_body;
    char target[];
} request;

static void *keep_target(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls;
    (void)c;
    size_t n = strlen(uri);
    request *r = malloc(sizeof *r + n + 1);
    if (r) {
        r->seen = r->has_body = 0;
        memcpy(r->target, uri, n + 1);
    }
    return r;
}

static void request_done(void *cls, struct MHD_Connection *c, void **req,
                         enum MHD_RequestTerminationCode why)
{
    (void)cls;
    (void)why;
    free(*req);
    *req = NULL;
    request_arrived(c, 0);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_size, void **req)
{
    (void)url; /* decoded by libmicrohttpd: the raw target is in *req */
    (void)version;
    (void)upload_data;
    const rdb_serve_site *site = cls;
    request *rq = *req;
    if (!rq)
        return MHD_NO; /* no memory for it: drop the connection */
    /* the first call comes with the headers; answering only once the
     * request is read whole lets the connection stay open for the next */
    const int read_only = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    if (!rq->seen && read_only) {
        rq->seen = 1;
        return MHD_YES;
    }
    /* (another method is refused at once, before its body is read: no
     * "100 Continue" asks for a body only to be refused) */
    if (*upload_size) {
        /* a body: nobody asked for one; drop it and refuse at the end */
        *upload_size = 0;
        rq->has_body = 1;
        return MHD_YES;
    }
    request_arrived(c, 1);
    rdb_serve_reply r;
    rdb_serve_answer(site, method, rq->target, rq->has_body, &r);
    struct MHD_Response *resp = mhd.create_response_from_buffer(
        r.len, r.body, r.owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!resp) {
        rdb_serve_reply_free(&r);
        return MHD_NO;
    }
    mhd.add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r.type);
    mhd.add_response_header(resp, "X-Content-Type-Options", "nosniff");
    mhd.add_response_header(resp, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:");
    mhd.add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (r.status == 405)
        mhd.add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result ok = mhd.queue_response(c, (unsigned)r.status, resp);
    mhd.destroy_response(resp);
    return ok;
}

/* The page's folder: --web, else the installed one beside the program
 * (PREFIX/bin/retrodb or PREFIX/libexec/retrodb/retrodb-<level> ->
 * PREFIX/share/retrodb/web), else the source
 * tree's (bin/retrodb -> web/). NULL when none holds index.html. */
static const char *find_web_dir(const char *given, char *buf, size_t size)
{
    if (given)
        return given;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    const char *bin = dirname(exe);
    /* bin/, libexec/retrodb/ (a build for an x86-64 level: cpu_variant.c),
     * and the source tree's bin/ */
    static const char *const tries[] = {"%s/../share/retrodb/web", "%s/../../share/retrodb/web",
                                        "%s/../web"};
    for (int i = 0; i < 3; i++) {
        char index[PATH_MAX + 64];
        struct stat st;
        snprintf(buf, size, tries[i], bin);
        snprintf(index, sizeof index, "%s/index.html", buf);
        if (stat(index, &st) == 0 && S_ISREG(st.st_mode))
            return buf;
    }
    return NULL;
}

int rdb_cmd_serve(int argc, char **argv)
{
    const rdb_tool_command *cmd = &rdb_serve_command;
    const char *dir = NULL, *bind_addr = "127.0.0.1", *web = NULL;
    long port = 8080, threads = 2, request_seconds = 10;
    rdb_tool_args args;
    rdb_tool_args_init(&args, cmd, argc, argv);
    int id;
    const char *v;
    while ((id = rdb_tool_next_option(&args, &v)) > 0) {
        switch (id) {
        case RDB_OPT_DIR: dir = v; break;
        case OPT_BIND: bind_addr = v; break;
        case OPT_WEB: web = v; break;
        case OPT_PORT:
            if (rdb_parse_long(v, 0, 65535, &port) != 0)
                return rdb_tool_bad(cmd, "bad --port '%s' (0..65535)", v);
            break;
        case OPT_THREADS:
            if (rdb_parse_long(v, 1, 64, &threads) != 0)
                return rdb_tool_bad(cmd, "bad --threads '%s' (1..64)", v);
            break;
        case OPT_REQUEST_SECONDS:
            if (rdb_parse_long(v, 1, 3600, &request_seconds) != 0)
                return rdb_tool_bad(cmd, "bad --request-seconds '%s' (1..3600)", v);
            break;
        }
    }
    if (id < 0)
        return rdb_tool_args_exit(id);
    if (rdb_tool_args_left(&args))
        return rdb_tool_bad(cmd, "unexpected argument '%s'", argv[args.next]);
    if (!dir)
        return rdb_tool_bad(cmd, "which database? (--dir DIR)");

    struct sockaddr_storage addr;
    memset(&addr, 0, sizeof addr);
    struct sockaddr_in *a4 = (struct sockaddr_in *)&addr;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&addr;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
    if (inet_pton(AF_INET, bind_addr, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
    } else if (inet_pton(AF_INET6, bind_addr, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        flags |= MHD_USE_IPv6;
    } else {
        return rdb_tool_bad(cmd, "bad --bind '%s': an IPv4 or IPv6 address, such as 127.0.0.1",
                            bind_addr);
    }

    char web_buf[PATH_MAX];
    const char *web_dir = find_web_dir(web, web_buf, sizeof web_buf);
    if (!web_dir)
        fprintf(stderr, "retrodb: the explorer page is not installed; serving the API only "
                        "(give --web DIR)\n");
    rdb_serve_site site;
    rdb_error err;
    rdb_status st = rdb_serve_site_open(&site, dir, web_dir, &err);
    if (st != RDB_OK)
        return rdb_tool_report(st, &err);

    if (!load_httpd()) {
        rdb_serve_site_close(&site);
        return 1;
    }
    rdb_tool_catch_signals();
    guard.deadline = (double)request_seconds;
    struct MHD_Daemon *d = mhd.start_daemon(
        flags, (uint16_t)port, NULL, NULL, handle, &site,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
        MHD_OPTION_URI_LOG_CALLBACK, keep_target, NULL,
        MHD_OPTION_NOTIFY_COMPLETED, request_done, NULL,
        MHD_OPTION_NOTIFY_CONNECTION, watch_connection, NULL,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)threads,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_CONNECTIONS,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)SERVE_PER_ADDRESS,
        MHD_OPTION_CONNECTION_TIMEOUT, 10u,
        MHD_OPTION_END);
    if (!d) {
        rdb_serve_site_close(&site);
        fprintf(stderr, "retrodb: cannot listen on %s port %ld (in use, or not this "
                        "machine's address?)\n", bind_addr, port);
        return 1;
    }
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned bound = info ? info->port : (unsigned)port;
    int v6 = (flags & MHD_USE_IPv6) != 0;
    printf("serving '%s' at http://%s%s%s:%u/ (Ctrl-C stops)\n", dir, v6 ? "[" : "", bind_addr,
           v6 ? "]" : "", bound);
    fflush(stdout);
    while (!rdb_stop_requested) {
        usleep(250000);
        cut_slow_clients();
    }
    mhd.stop_daemon(d);
    rdb_serve_site_close(&site);
    return 0;
}
