/*
 * http.c -- the HTTP side of `scopa serve`: what a request must keep, the
 * routes (/healthz, /api/tables/CODE/record, /api/leaderboard, /api/rules)
 * and the web client's files from conf.web (web/dist; /t/CODE is its
 * index.html).
 *
 * An answer from memory (JSON, a short text) leaves whole: headers and
 * body in one lws_write inside the callback that asked for it, and the
 * transaction completed there, as lws's own lws_return_http_status does;
 * what the socket does not take at once lws keeps and sends before it
 * reads the next request.  So no answer waits in a connection's state and
 * nothing is left to free when lws ends a transaction early (the 405 of a
 * POST with a body once leaked that way: lws read the body and freed the
 * connection's state without a WRITEABLE).  A file goes through
 * lws_serve_http_file, which sends it in chunks as the socket drains.
 *
 * What a request must keep (docs/serve.md "HTTP limits"):
 *   - from this site's pages (request_origin_ok): a WebSocket upgrade or a
 *     POST with a foreign Origin gets 403 before anything else;
 *   - its address's HTTP budget (limits_http_take: 429, Retry-After), and
 *     for the record route its budget of unknown codes;
 *   - GET or HEAD; another method gets 405, and the connection is closed
 *     (its body is never read); lws turns a CONNECT into a raw socket,
 *     which gets the same 405 as raw bytes (http_raw);
 *   - no body: a GET or HEAD with one gets 400 and is closed;
 *   - its path and query at most TOKEN_MAX bytes (414), each header's value
 *     at most TOKEN_MAX (431).  lws cuts a token at the limit we give it
 *     and parses on, so an over-long one arrives here one byte over the
 *     limit and gets its answer.  What does not fit lws's buffer for the
 *     whole request head (HEAD_MAX: unknown headers, which lws keeps
 *     whole, and more than about 90 header lines and query arguments) lws
 *     drops without an answer: 4.1.6 calls nothing there.
 *
 * Files: only regular ones whose real path is inside the real --web
 * (inside_web: no symbolic link leads out).
 *
 * Caching: /assets/... (vite names each after its content's hash) for a
 * year, immutable; the other files revalidated (no-cache); the API and
 * errors never stored (no-store).  A text file with FILE.gz beside it
 * (web/tools/precompress.mjs, run by the vite build) goes gzipped to a
 * client whose Accept-Encoding takes gzip, with Vary: Accept-Encoding.
 */
#include "http.h"
#include "account.h"
#include "answer.h"
#include "auth.h"
#include "request.h"
#include "table.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

enum {
  TOKEN_MAX = 8192, /* the request's path and query; one header's value */
  HEAD_MAX = 32768, /* lws's buffer for everything before the body      */
  HEADERS_ROOM = 2048,
};

static struct lws_token_limits LIMITS;

void http_limits(struct lws_context_creation_info *info) {
  for (int t = 0; t < WSI_TOKEN_COUNT; t++)
    LIMITS.token_limit[t] = TOKEN_MAX + 1; /* one over: "too long" */
  info->token_limits = &LIMITS;
  info->max_http_header_data = HEAD_MAX;
}

/* ------------------------------------------------------------------ */
/* Limits                                                              */
/* ------------------------------------------------------------------ */

/* 414 when the path and query are over TOKEN_MAX, 431 when a header
 * reached the limit lws cut it at, else 0. */
static unsigned over_limits(struct lws *wsi) {
  char *uri;
  int len, method = lws_http_get_uri_and_method(wsi, &uri, &len);
  if (method >= 0 &&
      len + lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS) > TOKEN_MAX)
    return 414;
  for (int t = 0; t < WSI_TOKEN_COUNT; t++)
    if (lws_hdr_total_length(wsi, (enum lws_token_indexes)t) > TOKEN_MAX)
      return 431;
  return 0;
}

/* Transfer-Encoding, or a Content-Length that is not all zeros (a number
 * too long for n counts as a body too). */
static int has_body(struct lws *wsi) {
  char n[32];
  if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0)
    return 1;
  if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) == 0)
    return 0;
  int k = lws_hdr_copy(wsi, n, sizeof n, WSI_TOKEN_HTTP_CONTENT_LENGTH);
  return k < 0 || strspn(n, "0") != (size_t)k;
}

/* The answer to a request that breaks a rule (414, 431, 403 for a POST
 * or another method from a foreign page, 405, 400), sent with the
 * connection closed; 0 when it keeps them all. */
static int refuse(struct lws *wsi, const server *srv) {
  char *uri;
  int len, method = lws_http_get_uri_and_method(wsi, &uri, &len);
  unsigned limit = over_limits(wsi);
  if (limit == 414)
    return answer_text(wsi, 414, "URI too long\n", ANSWER_CLOSE);
  if (limit)
    return answer_text(wsi, 431, "request header fields too large\n",
                       ANSWER_CLOSE);
  int get = method == LWSHUMETH_GET || method == LWSHUMETH_HEAD;
  if (!get && !request_origin_ok(wsi, srv))
    return answer_text(wsi, 403, "not from this site's pages\n", ANSWER_CLOSE);
  if (!get)
    return answer_text(wsi, 405, "GET and HEAD only\n",
                       ANSWER_CLOSE | ANSWER_ALLOW);
  if (has_body(wsi))
    return answer_text(wsi, 400, "a request body is not accepted\n",
                       ANSWER_CLOSE);
  return 0;
}

int http_upgrade(struct lws *wsi, server *srv, const char *protocol) {
  char uri[8], addr[LIMITS_KEY_TEXT];
  if (!protocol || (strcasecmp(protocol, "websocket") != 0 &&
                    strcasecmp(protocol, "h2c") != 0))
    return -1; /* lws has answered 403 already, and goes on to ask us */
  int rc = refuse(wsi, srv); /* the sizes first: 414 and 431 */
  if (rc)
    return rc;
  /* A foreign page's socket would play with its visitor's cookie: refused
   * before it is counted or says anything (CONTRACTS.md "Origins"). */
  if (!request_origin_ok(wsi, srv))
    return answer_text(wsi, 403, "not from this site's pages\n", ANSWER_CLOSE);
  if (request_client_addr(wsi, srv, addr, sizeof addr) != 0)
    return answer_text(wsi, 400, "no client address from the proxy\n",
                       ANSWER_CLOSE);
  int ws = strcasecmp(protocol, "websocket") == 0;
  if (ws && lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) > 0 &&
      strcmp(uri, "/ws") == 0)
    return 0;
  /* A WebSocket elsewhere, or h2c (no HTTP/2 here: lws would splice our
   * raw headers into it). */
  return answer_text(wsi, ws ? 404 : 400, "no such upgrade here\n",
                     ANSWER_CLOSE);
}

int http_raw(struct lws *wsi) {
  static const char TEXT[] = "HTTP/1.1 405 Method Not Allowed\r\n"
                             "content-type: text/plain; charset=utf-8\r\n"
                             "content-length: 18\r\n"
                             "allow: GET, HEAD\r\n"
                             "connection: close\r\n\r\n"
                             "GET and HEAD only\n";
  unsigned char buf[LWS_PRE + sizeof TEXT];
  memcpy(buf + LWS_PRE, TEXT, sizeof TEXT - 1);
  lws_write(wsi, buf + LWS_PRE, sizeof TEXT - 1, LWS_WRITE_RAW);
  return -1;
}

/* ------------------------------------------------------------------ */
/* The web client's files                                              */
/* ------------------------------------------------------------------ */

static const struct file_type {
  const char *ext, *type;
  int text; /* worth gzip: the build writes FILE.gz beside it */
} TYPES[] = {
    {".html", "text/html; charset=utf-8", 1},
    {".js", "text/javascript; charset=utf-8", 1},
    {".mjs", "text/javascript; charset=utf-8", 1},
    {".css", "text/css; charset=utf-8", 1},
    {".json", "application/json", 1},
    {".map", "application/json", 1},
    {".webmanifest", "application/manifest+json", 1},
    {".svg", "image/svg+xml", 1},
    {".txt", "text/plain; charset=utf-8", 1},
    {".png", "image/png", 0},
    {".jpg", "image/jpeg", 0},
    {".ico", "image/x-icon", 0},
    {".woff2", "font/woff2", 0},
    {".woff", "font/woff", 0},
    {".wasm", "application/wasm", 0},
};

static const struct file_type *type_of(const char *path) {
  static const struct file_type OTHER = {"", "application/octet-stream", 0};
  const char *dot = strrchr(path, '.');
  for (size_t i = 0; dot && i < sizeof TYPES / sizeof TYPES[0]; i++)
    if (strcmp(dot, TYPES[i].ext) == 0)
      return &TYPES[i];
  return &OTHER;
}

static const char NO_CLIENT[] =
    "<!doctype html><meta charset=utf-8><title>scopa serve</title>"
    "<h1>scopa serve</h1>"
    "<p>The server is running, but the web client is not built: there is "
    "no <code>web/dist</code> (or the folder given with <code>--web</code>)."
    " Build it (see <code>docs/web.md</code>), or play through the "
    "WebSocket at <code>/ws</code> (docs/serve.md).</p>"
    "<p lang=it>Il server funziona, ma il client web non è stato costruito:"
    " manca <code>web/dist</code>. Costruiscilo (vedi "
    "<code>docs/web.md</code>) o gioca tramite il WebSocket "
    "<code>/ws</code>.</p>";

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

/* Whether q (the text after a coding's ';') sets q=0: refused. */
static int q_zero(const char *params) {
  const char *q = strstr(params, "q=");
  if (!q)
    q = strstr(params, "Q=");
  if (!q)
    return 0;
  q += 2;
  if (*q++ != '0')
    return 0;
  if (*q == '.')
    q += 1 + strspn(q + 1, "0");
  return *q == 0 || *q == ' ' || *q == '\t' || *q == ';';
}

/* Whether Accept-Encoding takes gzip (RFC 9110 12.5.3): "gzip", "x-gzip"
 * or "*" with a q above 0; "gzip;q=0" refuses it even beside "*". */
static int accepts_gzip(struct lws *wsi) {
  char v[512], *save = NULL;
  int gzip = -1, star = -1;
  if (lws_hdr_copy(wsi, v, sizeof v, WSI_TOKEN_HTTP_ACCEPT_ENCODING) <= 0)
    return 0;
  for (char *item = strtok_r(v, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    char *params = strchr(item, ';');
    if (params)
      *params++ = 0;
    item += strspn(item, " \t");
    item[strcspn(item, " \t")] = 0;
    int ok = !params || !q_zero(params);
    if (strcasecmp(item, "gzip") == 0 || strcasecmp(item, "x-gzip") == 0)
      gzip = ok;
    else if (strcmp(item, "*") == 0)
      star = ok;
  }
  return gzip >= 0 ? gzip : star > 0;
}

/* FILE.gz beside a text file, no older than it, when the client takes
 * gzip: its path in gz. */
static int gzipped(struct lws *wsi, const char *path, const struct stat *sb,
                   char *gz, size_t cap) {
  struct stat zb;
  int n = snprintf(gz, cap, "%s.gz", path);
  if (n <= 0 || (size_t)n >= cap || stat(gz, &zb) != 0 || !S_ISREG(zb.st_mode))
    return 0;
  if (zb.st_mtim.tv_sec < sb->st_mtim.tv_sec ||
      (zb.st_mtim.tv_sec == sb->st_mtim.tv_sec &&
       zb.st_mtim.tv_nsec < sb->st_mtim.tv_nsec))
    return 0; /* stale: the file changed after its .gz was written */
  return accepts_gzip(wsi);
}

static int not_found(struct lws *wsi, server *srv, const char *uri) {
  char index[1024];
  struct stat sb;
  snprintf(index, sizeof index, "%s/index.html", srv->conf.web);
  if (strcmp(uri, "/") == 0 || stat(index, &sb) != 0)
    return answer(wsi, strcmp(uri, "/") == 0 ? 200 : 404,
                  "text/html; charset=utf-8", ANSWER_NO_STORE, NO_CLIENT,
                  sizeof NO_CLIENT - 1, 0);
  return answer_text(wsi, 404, "not found\n", 0);
}

/* The real path of path (every symbolic link resolved) into real, when
 * that is a regular file inside the real --web folder: a link in --web
 * may point elsewhere in it, never out (one once served /etc/passwd).
 * Only who can write --web can change a link between this check and the
 * open, and they could put any file there anyway. */
static int inside_web(const server *srv, const char *path,
                      char real[PATH_MAX]) {
  char root[PATH_MAX];
  struct stat sb;
  if (!realpath(srv->conf.web, root) || !realpath(path, real))
    return -1;
  size_t n = strlen(root);
  if (strncmp(real, root, n) != 0 || (n > 1 && real[n] != '/'))
    return -1;
  return stat(real, &sb) == 0 && S_ISREG(sb.st_mode) ? 0 : -1;
}

static int serve_file(struct lws *wsi, server *srv, const char *uri) {
  char path[1024], gz[1040], headers[1024], real[PATH_MAX], realgz[PATH_MAX];
  struct stat sb;
  if (web_path(srv, uri, path, sizeof path) || stat(path, &sb) ||
      !S_ISREG(sb.st_mode) || inside_web(srv, path, real))
    return not_found(wsi, srv, uri);
  const struct file_type *t = type_of(path);
  int zip = t->text && gzipped(wsi, path, &sb, gz, sizeof gz) &&
            inside_web(srv, gz, realgz) == 0;
  int n = answer_security_text(headers, sizeof headers);
  if (n < 0)
    return -1;
  n += snprintf(
      headers + n, sizeof headers - (size_t)n, "cache-control: %s\r\n%s%s",
      strncmp(uri, "/assets/", 8) == 0 ? ANSWER_IMMUTABLE : ANSWER_REVALIDATE,
      t->text ? "vary: accept-encoding\r\n" : "",
      zip ? "content-encoding: gzip\r\n" : "");
  if ((size_t)n >= sizeof headers)
    return -1;
  n = lws_serve_http_file(wsi, zip ? realgz : real, t->type, headers, n);
  if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi)))
    return -1;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Routes                                                              */
/* ------------------------------------------------------------------ */

static int healthz(struct lws *wsi, server *srv) {
  writer_stats(srv->w, &srv->commits, &srv->commit_us);
  return answer_json(
      wsi, 200,
      proto_finish(
          json_pack(
              "{s:b, s:s, s:I, s:I, s:I, s:i, s:I, s:I, s:I, "
              "s:I, s:I, s:I, s:I}",
              "ok", 1, "node", srv->node, "tables", (json_int_t)srv->ntables,
              "connections", (json_int_t)srv->nconns, "moves",
              (json_int_t)srv->moves, "bots_pending", bots_pending(srv->bots),
              "messages_in", (json_int_t)srv->messages_in, "messages_out",
              (json_int_t)srv->messages_out, "commits",
              (json_int_t)srv->commits, "commit_us", (json_int_t)srv->commit_us,
              "hint_jobs", (json_int_t)srv->hint_jobs, "loop_max_us",
              (json_int_t)loop_max_us(srv), "loop_turns_over_10ms",
              (json_int_t)srv->turns_over_10ms),
          NULL));
}

/* ?pool=2p|3p|4p|6p (another or none: 2p).  lws_get_urlarg_by_name
 * returns the value inside buf, after "pool=" (the bug of issue 22 read
 * buf itself), and stops at the first argument buf cannot hold: the
 * query is at most TOKEN_MAX (refuse), so buf holds any. */
static const char *pool_arg(struct lws *wsi) {
  static const char *const POOLS[] = {"2p", "3p", "4p", "6p"};
  char buf[TOKEN_MAX + 1];
  const char *v = lws_get_urlarg_by_name(wsi, "pool=", buf, sizeof buf);
  for (size_t i = 0; v && i < sizeof POOLS / sizeof POOLS[0]; i++)
    if (strcmp(v, POOLS[i]) == 0)
      return POOLS[i];
  return POOLS[0];
}

/* Read off the loop (account_read), on every store. */
static int leaderboard(struct lws *wsi, server *srv, account_req **slot) {
  return account_read(wsi, srv, AUTH_LEADERBOARD, pool_arg(wsi), slot);
}

static int record(struct lws *wsi, server *srv, const char *rest,
                  account_req **slot) {
  char code[PROTO_CODE_MAX + 1];
  const char *slash = strchr(rest, '/');
  size_t n = slash ? (size_t)(slash - rest) : 0;
  if (!slash || strcmp(slash, "/record") != 0 || n == 0 || n > PROTO_CODE_MAX)
    return answer_text(wsi, 404, "not found\n", 0);
  memcpy(code, rest, n);
  code[n] = 0;
  /* Unknown codes are limited per address (docs/serve.md "Table codes"):
   * past the budget every code gets 429, so a guess learns nothing. */
  char addr[LIMITS_KEY_TEXT];
  int status = 500, retry_ms = 0;
  request_client_addr(wsi, srv, addr, sizeof addr);
  if (!limits_code_check(srv->addrs, &srv->conf.limits, addr, now_ms(),
                         &retry_ms))
    return answer_too_many(wsi, retry_ms, "too many unknown table codes");
  char norm[PROTO_CODE_MAX + 1];
  for (size_t i = 0; i <= n; i++)
    norm[i] = (char)toupper((unsigned char)code[i]);
  const table *t = table_find(srv, norm);
  if ((srv->relay && !t) || (t && t->tourney[0] == 'D'))
    return account_read(wsi, srv, AUTH_RECORD, norm, slot); /* off the loop;
      a duplicate round's tables are sealed until it is over (the store's
      tournament row says) */
  char *text = table_record(srv, code, &status);
  if (status == 404)
    limits_code_miss(srv->addrs, &srv->conf.limits, addr, now_ms());
  return answer_json(wsi, (unsigned)status, text);
}

/* GET /api/tournaments/ID: an id of letters and digits (a wrong one is
 * unknown, as a table code, and costs the same budget). */
static int tournament(struct lws *wsi, server *srv, const char *id,
                      account_req **slot) {
  char addr[LIMITS_KEY_TEXT];
  int retry_ms = 0;
  size_t n = strlen(id);
  request_client_addr(wsi, srv, addr, sizeof addr);
  if (!limits_code_check(srv->addrs, &srv->conf.limits, addr, now_ms(),
                         &retry_ms))
    return answer_too_many(wsi, retry_ms, "too many unknown tournaments");
  int ok = n > 0 && n <= STORE_CODE_MAX;
  for (size_t i = 0; ok && i < n; i++)
    ok = isalnum((unsigned char)id[i]);
  if (!ok) {
    proto_error e;
    limits_code_miss(srv->addrs, &srv->conf.limits, addr, now_ms());
    proto_error_set(&e, "no_tourney", "", "");
    return answer_json(wsi, 404, proto_error_json(NULL, &e));
  }
  char norm[STORE_CODE_MAX + 1];
  for (size_t i = 0; i <= n; i++)
    norm[i] = (char)toupper((unsigned char)id[i]);
  return account_read(wsi, srv, AUTH_TOURNEY, norm, slot);
}

/* Every route costs one credit of the address's HTTP bucket: a page
 * load of the web client is about 30 requests, the burst is 200. */
static int over_budget(struct lws *wsi, server *srv, int *retry_ms) {
  char addr[LIMITS_KEY_TEXT];
  /* A trusted proxy with no X-Forwarded-For: counted as the proxy (the
   * WebSocket refuses it; a local monitor asks /healthz that way). */
  request_client_addr(wsi, srv, addr, sizeof addr);
  return !limits_http_take(srv->addrs, &srv->conf.limits, addr, now_ms(),
                           retry_ms);
}

int http_request(struct lws *wsi, server *srv, const char *uri,
                 struct account_req **slot) {
  int retry_ms = 0;
  if (!over_limits(wsi) && account_route(uri)) { /* POST allowed there */
    if (!request_origin_ok(wsi, srv))
      return answer_text(wsi, 403, "requests from another site are refused\n",
                         ANSWER_CLOSE);
    if (over_budget(wsi, srv, &retry_ms))
      return answer_too_many(wsi, retry_ms, "too many requests");
    return account_begin(wsi, srv, uri, slot);
  }
  int rc = refuse(wsi, srv);
  if (rc)
    return rc;
  if (over_budget(wsi, srv, &retry_ms))
    return answer_too_many(wsi, retry_ms, "too many requests");
  if (strcmp(uri, "/healthz") == 0)
    return healthz(wsi, srv);
  if (strcmp(uri, "/api/leaderboard") == 0)
    return leaderboard(wsi, srv, slot);
  if (strcmp(uri, "/api/lobby") == 0) /* the store's, off the loop */
    return account_read(wsi, srv, AUTH_LOBBY, "", slot);
  if (strcmp(uri, "/api/tournaments") == 0)
    return account_read(wsi, srv, AUTH_TOURNEYS, "", slot);
  if (strncmp(uri, "/api/tournaments/", 17) == 0)
    return tournament(wsi, srv, uri + 17, slot);
  if (strcmp(uri, "/api/rules") == 0) /* the library's catalogue */
    return answer_json(wsi, 200, scopa_rules_catalogue_json());
  if (strncmp(uri, "/api/tables/", 12) == 0)
    return record(wsi, srv, uri + 12, slot);
  if (strcmp(uri, "/account") == 0 || strcmp(uri, "/account/login") == 0)
    return serve_file(wsi, srv, "/index.html"); /* the client's routes */
  if (strncmp(uri, "/t/", 3) == 0 || strcmp(uri, "/tournaments") == 0 ||
      strncmp(uri, "/tournament/", 12) == 0)
    return serve_file(wsi, srv, "/index.html");
  return serve_file(wsi, srv, uri);
}
