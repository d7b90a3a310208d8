/*
 * loop.c -- the lws context, the one protocol callback (HTTP routes and
 * the WebSocket at /ws), and the service loop.
 *
 * The loop (lws on a libev loop of ours, epoll), per turn: ev_run
 * handles whatever is ready (messages in, bot answers on
 * EVENT_WAIT_CANCELLED, writeable sockets, timers); then
 * the store batch opened during that turn is committed, and only then are
 * the messages queued behind it released (server.h, "the barrier"); then
 * connections closed during the turn are freed.  Data goes out only in
 * the WRITEABLE callback, one lws_write each (conn.c).
 *
 * HTTP: /healthz, /api/tables/CODE/record, /api/leaderboard, the web
 * client's files from conf.web (web/dist), /t/CODE -> its index.html.
 */
#include "table.h"

#include <errno.h>
#include <ev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void server_limits_full(server *srv, const char *addr) {
  int64_t now = now_ms();
  if (srv->addrs_full_logged_ms && now - srv->addrs_full_logged_ms < 60000)
    return;
  srv->addrs_full_logged_ms = now;
  lwsl_warn("scopa serve: %d addresses are counted already (--max-addrs): "
            "%s and other new ones are let in uncounted\n",
            srv->conf.max_addrs, addr);
}

uint64_t server_batch(server *srv) {
  if (!srv->batch)
    srv->batch = ++srv->last_batch;
  return srv->batch;
}

/* Per connection: a WebSocket's conn, or an HTTP answer being sent. */
typedef struct pss {
  conn *c;
  unsigned char *body; /* LWS_PRE + len                                 */
  size_t len;
} pss;

/* ------------------------------------------------------------------ */
/* HTTP                                                                */
/* ------------------------------------------------------------------ */

static const struct {
  const char *ext, *type;
} TYPES[] = {
    {".html", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".json", "application/json"},
    {".map", "application/json"},
    {".webmanifest", "application/manifest+json"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".jpg", "image/jpeg"},
    {".ico", "image/x-icon"},
    {".woff2", "font/woff2"},
    {".woff", "font/woff"},
    {".txt", "text/plain; charset=utf-8"},
    {".wasm", "application/wasm"},
};

static const char *type_of(const char *path) {
  const char *dot = strrchr(path, '.');
  for (size_t i = 0; dot && i < sizeof TYPES / sizeof TYPES[0]; i++)
    if (strcmp(dot, TYPES[i].ext) == 0)
      return TYPES[i].type;
  return "application/octet-stream";
}

static const char NO_CLIENT[] =
    "<!doctype html><meta charset=utf-8><title>scopa serve</title>"
    "<h1>scopa serve</h1>"
    "<p>The server is running, but the web client is not built: there is "
    "no <code>web/dist</code> (or the folder given with <code>--web</code>)."
    " Build it (see <code>web/README.md</code>), or play through the "
    "WebSocket at <code>/ws</code> (docs/serve.md).</p>"
    "<p lang=it>Il server funziona, ma il client web non è stato costruito:"
    " manca <code>web/dist</code>. Costruiscilo (vedi "
    "<code>web/README.md</code>) o gioca tramite il WebSocket "
    "<code>/ws</code>.</p>";

/* Our own security headers (lws's "best practices" CSP forbids the inline
 * style attributes the web client's SVG uses).  'wasm-unsafe-eval' lets
 * the page's engine (web/dist/engine, docs/wasm.md) compile its
 * WebAssembly, and nothing else: eval stays forbidden. */
static const char SECURITY[] =
    "x-content-type-options: nosniff\r\n"
    "referrer-policy: no-referrer\r\n"
    "x-frame-options: deny\r\n"
    "content-security-policy: default-src 'self'; "
    "script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; "
    "frame-ancestors 'none'; base-uri 'none'\r\n";

static int add_security(struct lws *wsi, unsigned char **pos,
                        unsigned char *end) {
  static const struct {
    const char *name, *value;
  } H[] = {{"x-content-type-options:", "nosniff"},
           {"referrer-policy:", "no-referrer"},
           {"x-frame-options:", "deny"}};
  for (size_t i = 0; i < sizeof H / sizeof H[0]; i++)
    if (lws_add_http_header_by_name(wsi, (const unsigned char *)H[i].name,
                                    (const unsigned char *)H[i].value,
                                    (int)strlen(H[i].value), pos, end))
      return -1;
  return 0;
}

/* Sends a whole body from memory (owned: freed when sent). */
static int reply(struct lws *wsi, pss *p, unsigned status, const char *type,
                 const char *text, size_t len) {
  unsigned char head[LWS_PRE + 1024], *start = head + LWS_PRE, *pos = start,
                                      *end = head + sizeof head - 1;
  p->body = malloc(LWS_PRE + len + 1);
  if (!p->body)
    return -1;
  memcpy(p->body + LWS_PRE, text, len);
  p->len = len;
  if (lws_add_http_common_headers(wsi, status, type, len, &pos, end) ||
      lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                   (const unsigned char *)"no-store", 8, &pos,
                                   end) ||
      add_security(wsi, &pos, end) ||
      lws_finalize_write_http_header(wsi, start, &pos, end))
    return -1;
  lws_callback_on_writable(wsi);
  return 0;
}

static int reply_json(struct lws *wsi, pss *p, unsigned status, char *text) {
  if (!text)
    return reply(wsi, p, 500, "text/plain", "out of memory", 13);
  int rc = reply(wsi, p, status, "application/json", text, strlen(text));
  free(text);
  return rc;
}

static int send_body(struct lws *wsi, pss *p) {
  if (!p->body)
    return 0;
  int n = lws_write(wsi, p->body + LWS_PRE, p->len, LWS_WRITE_HTTP_FINAL);
  free(p->body);
  p->body = NULL;
  if (n < (int)p->len)
    return -1;
  return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* A path of the web client's folder, or -1: only plain names, no "..". */
static int web_path(const server *srv, const char *uri, char *out, size_t cap) {
  if (!*uri || strstr(uri, "..") ||
      strspn(uri, "abcdefghijklmnopqrstuvwxyz"
                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                  "0123456789/._-") != strlen(uri))
    return -1;
  int n = snprintf(out, cap, "%s%s%s", srv->conf.web, uri,
                   uri[strlen(uri) - 1] == '/' ? "index.html" : "");
  return n > 0 && (size_t)n < cap ? 0 : -1;
}

static int serve_file(struct lws *wsi, pss *p, server *srv, const char *uri) {
  char path[1024];
  struct stat sb;
  if (web_path(srv, uri, path, sizeof path) || stat(path, &sb) ||
      !S_ISREG(sb.st_mode)) {
    char index[1024];
    snprintf(index, sizeof index, "%s/index.html", srv->conf.web);
    if (strcmp(uri, "/") == 0 || stat(index, &sb) != 0)
      return reply(wsi, p, strcmp(uri, "/") == 0 ? 200 : 404,
                   "text/html; charset=utf-8", NO_CLIENT, sizeof NO_CLIENT - 1);
    return reply(wsi, p, 404, "text/plain; charset=utf-8", "not found\n", 10);
  }
  int n = lws_serve_http_file(wsi, path, type_of(path), SECURITY,
                              sizeof SECURITY - 1);
  if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi)))
    return -1;
  return 0;
}

static int healthz(struct lws *wsi, pss *p, server *srv) {
  writer_stats(srv->w, &srv->commits, &srv->commit_us);
  return reply_json(
      wsi, p, 200,
      proto_finish(json_pack("{s:b, s:I, s:I, s:I, s:i, s:I, s:I, s:I, s:I, "
                             "s:I}",
                             "ok", 1, "tables", (json_int_t)srv->ntables,
                             "connections", (json_int_t)srv->nconns, "moves",
                             (json_int_t)srv->moves, "bots_pending",
                             bots_pending(srv->bots), "messages_in",
                             (json_int_t)srv->messages_in, "messages_out",
                             (json_int_t)srv->messages_out, "commits",
                             (json_int_t)srv->commits, "commit_us",
                             (json_int_t)srv->commit_us, "hint_jobs",
                             (json_int_t)srv->hint_jobs),
                   NULL));
}

static int leaderboard(struct lws *wsi, pss *p, server *srv) {
  char pool[8] = "2p";
  lws_get_urlarg_by_name(wsi, "pool=", pool, sizeof pool);
  if (strcmp(pool, "2p") && strcmp(pool, "3p") && strcmp(pool, "4p") &&
      strcmp(pool, "6p"))
    snprintf(pool, sizeof pool, "2p");
  char *list = store_leaderboard(srv->st, pool, 100);
  json_t *players = list ? json_loads(list, 0, NULL) : NULL;
  free(list);
  return reply_json(
      wsi, p, players ? 200 : 500,
      proto_finish(json_pack("{s:s, s:o*}", "pool", pool, "players", players),
                   NULL));
}

static int route(struct lws *wsi, pss *p, server *srv, const char *uri) {
  char code[PROTO_CODE_MAX + 1];
  if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) == 0)
    return reply(wsi, p, 405, "text/plain", "GET only\n", 9);
  if (strcmp(uri, "/healthz") == 0)
    return healthz(wsi, p, srv);
  if (strcmp(uri, "/api/leaderboard") == 0)
    return leaderboard(wsi, p, srv);
  if (strncmp(uri, "/api/tables/", 12) == 0) {
    const char *slash = strchr(uri + 12, '/');
    size_t n = slash ? (size_t)(slash - (uri + 12)) : 0;
    if (!slash || strcmp(slash, "/record") != 0 || n == 0 || n > PROTO_CODE_MAX)
      return reply(wsi, p, 404, "text/plain", "not found\n", 10);
    memcpy(code, uri + 12, n);
    code[n] = 0;
    int status = 500;
    char *text = table_record(srv, code, &status);
    return reply_json(wsi, p, (unsigned)status, text);
  }
  if (strncmp(uri, "/t/", 3) == 0)
    return serve_file(wsi, p, srv, "/index.html");
  return serve_file(wsi, p, srv, uri);
}

/* ------------------------------------------------------------------ */
/* The callback                                                        */
/* ------------------------------------------------------------------ */

/* Ends the turn's batch: the writer commits it on its own thread. */
static void flush(server *srv) {
  if (srv->batch) {
    writer_flush(srv->w, srv->batch);
    srv->batch = 0;
  }
}

/* What the writer has committed may go out now.  A failed commit stops
 * the server: nothing of that batch was announced, and a restart resumes
 * from what is stored. */
static void take_commits(server *srv) {
  uint64_t done = writer_committed(srv->w);
  if (done > srv->committed) {
    srv->committed = done;
    conn_release(srv);
  }
  if (writer_failed(srv->w) && !srv->stop) {
    lwsl_err("scopa serve: the store failed; stopping\n");
    srv->stop = 1;
    srv->failed = 1;
  }
}

static void take_bot_answers(server *srv) {
  bot_job jobs[16];
  int n;
  do {
    n = bots_take(srv->bots, jobs, 16);
    for (int i = 0; i < n; i++)
      table_bot_done(srv, &jobs[i]);
  } while (n == 16);
}

static int is_ws_path(struct lws *wsi) {
  char uri[16];
  return lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) > 0 &&
         strcmp(uri, "/ws") == 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason,
                    void *user, void *in, size_t len) {
  server *srv = lws_context_user(lws_get_context(wsi));
  pss *p = user;
  switch (reason) {
  case LWS_CALLBACK_HTTP:
    return route(wsi, p, srv, in ? (const char *)in : "/");
  case LWS_CALLBACK_HTTP_WRITEABLE:
    return send_body(wsi, p);
  case LWS_CALLBACK_CLOSED_HTTP:
    if (p) {
      free(p->body);
      p->body = NULL;
    }
    break;
  case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
    return is_ws_path(wsi) ? 0 : 1;
  case LWS_CALLBACK_ESTABLISHED:
    p->c = conn_new(srv, wsi);
    if (!p->c)
      return -1;
    conn_send_owned(p->c, proto_hello());
    if (p->c->refused) {
      conn_error(p->c, NULL, "limit", "too many connections from one address",
                 "troppe connessioni da un solo indirizzo");
      conn_close_soon(p->c);
    }
    return 0;
  case LWS_CALLBACK_RECEIVE:
    return p->c ? conn_receive(p->c, in, len) : -1;
  case LWS_CALLBACK_SERVER_WRITEABLE:
    return p->c ? conn_writeable(p->c) : -1;
  case LWS_CALLBACK_CLOSED:
    if (p->c)
      conn_closed(p->c);
    p->c = NULL;
    return 0;
  case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
    take_commits(srv);
    take_bot_answers(srv);
    return 0;
  default:
    break;
  }
  return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols PROTOCOLS[] = {
    {"scopa", callback, sizeof(pss), MSG_MAX, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

/* lws's idle policy: a ping after 30 s of silence, hang up at 75 s. */
static const lws_retry_bo_t IDLE = {.secs_since_valid_ping = 30,
                                    .secs_since_valid_hangup = 75};

static void sweep(lws_sorted_usec_list_t *sul) {
  server *srv = lws_container_of(sul, server, sweep);
  int64_t now = now_ms();
  take_commits(srv); /* a wake-up lost to a busy turn is not lost */
  take_bot_answers(srv);
  table_sweep(srv, now);
  conn_sweep(srv, now);
  if (now - srv->addrs_swept_ms >= 5000) {
    limits_sweep(srv->addrs, &srv->conf.limits, now);
    srv->addrs_swept_ms = now;
  }
  lws_sul_schedule(srv->ctx, 0, &srv->sweep, sweep, 250 * LWS_US_PER_MS);
}

static void wake(void *arg) {
  server *srv = arg;
  lws_cancel_service(srv->ctx);
}

int loop_run(server *srv) {
  /* lws on a libev loop of ours (epoll): a turn costs what is ready, not a
   * poll() over every connection, which is what holds at 1,000 tables
   * (docs/serve.md, "Load").  lws loads its libev glue as a plugin. */
  struct ev_loop *loop = ev_loop_new(EVFLAG_AUTO);
  if (!loop) {
    fprintf(stderr, "scopa serve: no event loop\n");
    return 1;
  }
  void *foreign[1] = {loop};
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = srv->conf.port;
  info.iface = srv->conf.host;
  info.protocols = PROTOCOLS;
  info.user = srv;
  info.retry_and_idle_policy = &IDLE;
  info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_LIBEV;
  info.foreign_loops = foreign;
  info.vhost_name = "scopa";
  info.fd_limit_per_thread = 0;
  srv->ctx = lws_create_context(&info);
  if (!srv->ctx) {
    fprintf(stderr, "scopa serve: cannot listen on %s:%d\n", srv->conf.host,
            srv->conf.port);
    ev_loop_destroy(loop);
    return 1;
  }
  char msg[256];
  srv->bots = bots_new(srv->conf.bot_threads, srv->conf.slow_cap, wake, srv);
  srv->w = writer_new(srv->conf.db, wake, srv, msg, sizeof msg);
  if (!srv->bots || !srv->w) {
    fprintf(stderr, "scopa serve: %s\n", srv->bots ? msg : "no bot threads");
    bots_free(srv->bots);
    writer_free(srv->w);
    lws_context_destroy(srv->ctx);
    ev_loop_destroy(loop);
    return 1;
  }
  lws_sul_schedule(srv->ctx, 0, &srv->sweep, sweep, 250 * LWS_US_PER_MS);
  if (!srv->conf.quiet)
    fprintf(stderr, "scopa serve: listening on http://%s:%d/\n", srv->conf.host,
            srv->conf.port);
  while (!srv->stop) {
    ev_run(loop, EVRUN_ONCE); /* whatever is ready, at least one thing */
    flush(srv);
    conn_free_graveyard(srv);
  }
  /* First the threads, so that no wake-up reaches a dead context; the
   * writer commits everything flushed before it stops. */
  bots_free(srv->bots);
  srv->bots = NULL;
  writer_free(srv->w);
  srv->w = NULL;
  lws_context_destroy(srv->ctx);
  conn_free_graveyard(srv);
  ev_loop_destroy(loop);
  return srv->failed;
}
