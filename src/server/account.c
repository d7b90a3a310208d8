/*
 * account.c -- the accounts' HTTP routes (docs/CONTRACTS.md "Accounts,
 * sessions and origins"; docs/serve.md "Accounts"), and the session a
 * WebSocket opens with.
 *
 * A request to a route here is answered later, not in its callback: its
 * body (a POST's JSON, at most BODY_MAX bytes) is read, the job goes to
 * the accounts' thread (auth.h), and when the answer comes back the
 * connection is asked for a WRITEABLE, where the answer is written whole
 * (http.c's answer_api).  The request lives in the connection's state
 * (loop.c's pss) until then; if the connection closes first, the answer
 * is dropped when it comes (the job still points at the request, which
 * is freed only once both are done with it).
 */
#include "account.h"
#include "answer.h"
#include "auth.h"
#include "limits.h"
#include "request.h"
#include "table.h"
#include "tourney_lobby.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define BODY_MAX 4096

struct account_req {
  struct lws *wsi; /* NULL once the connection closed                 */
  server *srv;
  int op;
  char *body;
  size_t len;
  int too_big;
  auth_job *job; /* out at the thread (out = 1), or back (out = 0)     */
  int out;
};

static const struct route {
  const char *path;
  int post; /* 1: POST with a JSON body; 0: GET */
  int op;
} ROUTES[] = {
    {"/api/signup", 1, AUTH_SIGNUP},
    {"/api/login", 1, AUTH_LOGIN},
    {"/api/logout", 1, AUTH_LOGOUT},
    {"/api/logout_all", 1, AUTH_LOGOUT_ALL},
    {"/api/password", 1, AUTH_PASSWORD},
    {"/api/delete", 1, AUTH_DELETE},
    {"/api/me", 0, AUTH_ME},
    {"/api/me/history", 0, AUTH_HISTORY},
    {"/api/me/games", 0, AUTH_GAMES},
    {"/api/me/export", 0, AUTH_EXPORT},
};

static const struct route *route_of(const char *uri) {
  for (size_t i = 0; i < sizeof ROUTES / sizeof ROUTES[0]; i++)
    if (strcmp(uri, ROUTES[i].path) == 0)
      return &ROUTES[i];
  return NULL;
}

int account_route(const char *uri) { return route_of(uri) != NULL; }

/* ------------------------------------------------------------------ */
/* Sessions from the cookie                                            */
/* ------------------------------------------------------------------ */

/* The SHA-256 of the request's scopa_session token, or "" (none, or
 * not the shape of one). */
void account_session_of(struct lws *wsi, char sha[65]) {
  char token[128];
  size_t max = sizeof token;
  sha[0] = 0;
  if (lws_http_cookie_get(wsi, "scopa_session", token, &max) != 0)
    return;
  token[max < sizeof token ? max : sizeof token - 1] = 0;
  if (strlen(token) == 64 && strspn(token, "0123456789abcdef") == 64)
    auth_token_sha256(token, sha);
}

void account_of_ws(struct lws *wsi, server *srv, conn *c) {
  char sha[65];
  store_account acc;
  if (c->session_wait)
    return; /* the cluster reads it (relay_conn_open), then greets */
  account_session_of(wsi, sha);
  if (sha[0] && !srv->relay && /* (a cluster that could not ask: a guest) */
      store_session_get(srv->st, sha, (long long)time(NULL), &acc) == 0) {
    c->account = acc.id;
    snprintf(c->account_name, sizeof c->account_name, "%s", acc.name);
  }
  account_hello(c);
}

void account_hello(conn *c) {
  conn_send_owned(c, proto_hello(c->account_name));
  tourney_where(c); /* seated at its tournament's table, if it has one */
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */
/* ------------------------------------------------------------------ */

static void req_free(account_req *r) {
  if (!r)
    return;
  if (r->job) {
    free(r->job->body);
    free(r->job);
  }
  free(r->body);
  free(r);
}

static int refuse(struct lws *wsi, unsigned status, const char *code,
                  const char *text) {
  char body[256];
  snprintf(body, sizeof body, "{\"error\":\"%s\",\"message\":\"%s\"}", code,
           text);
  return answer_api(wsi, status, body, NULL);
}

/* The job for a request: its route, the client, the session, and for a
 * POST the fields of its JSON body. */
static auth_job *job_of(account_req *r, struct lws *wsi) {
  auth_job *j = calloc(1, sizeof *j);
  if (!j)
    return NULL;
  j->op = r->op;
  j->req = r;
  j->secure = request_secure(wsi, r->srv);
  if (request_client_addr(wsi, r->srv, j->addr, sizeof j->addr) != 0)
    snprintf(j->addr, sizeof j->addr, "unknown");
  account_session_of(wsi, j->session);
  if (r->body)
    auth_job_parse(j, r->body, r->len);
  return j;
}

/* An answer now to the request in *slot, freed first: completing the
 * transaction gives lws the connection's state back (the slot with it). */
static int refuse_req(struct lws *wsi, account_req **slot, unsigned status,
                      const char *code, const char *text) {
  req_free(*slot);
  *slot = NULL;
  return refuse(wsi, status, code, text);
}

/* Sends the request's job to the thread: 0 (answered later), or the
 * callback's return of an answer now. */
static int submit(account_req **slot, struct lws *wsi, const char *what) {
  account_req *r = *slot;
  auth_job *j = job_of(r, wsi);
  if (!j)
    return refuse_req(wsi, slot, 500, "server", "out of memory");
  snprintf(j->what, sizeof j->what, "%s", what);
  if (auth_submit(r->srv->auth, j)) {
    free(j);
    return refuse_req(wsi, slot, 503, "busy",
                      "too many requests at once: try again");
  }
  r->job = j;
  r->out = 1;
  return 0;
}

/* A request for op in *slot (the one there before freed); NULL without
 * memory. */
static account_req *new_req(struct lws *wsi, server *srv, int op,
                            account_req **slot) {
  req_free(*slot);
  account_req *r = *slot = calloc(1, sizeof *r);
  if (r) {
    r->wsi = wsi;
    r->srv = srv;
    r->op = op;
  }
  return r;
}

/* The Content-Length a request declares (0: none, or not a number). */
static long long declared_length(struct lws *wsi) {
  char n[32];
  if (lws_hdr_copy(wsi, n, sizeof n, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0)
    return 0;
  return strspn(n, "0123456789") == strlen(n) && strlen(n) < 18 ? atoll(n)
                                                                : LLONG_MAX;
}

/* 413, and the connection closed: the rest of the body is never read. */
static int too_big(struct lws *wsi, account_req **slot) {
  static const char *const CLOSE[] = {"connection:", "close", NULL};
  req_free(*slot);
  *slot = NULL;
  answer_api(wsi, 413,
             "{\"error\":\"too_big\",\"message\":\"the request body is "
             "too large\"}",
             CLOSE);
  return -1;
}

int account_begin(struct lws *wsi, server *srv, const char *uri,
                  account_req **slot) {
  const struct route *rt = route_of(uri);
  char *u;
  int len, method = lws_http_get_uri_and_method(wsi, &u, &len);
  int want = rt->post ? LWSHUMETH_POST : LWSHUMETH_GET;
  if (method != want && !(method == LWSHUMETH_HEAD && !rt->post))
    return refuse(wsi, 405, "method", rt->post ? "POST only" : "GET only");
  if (!new_req(wsi, srv, rt->op, slot))
    return refuse(wsi, 500, "server", "out of memory");
  if (!rt->post)
    return submit(slot, wsi, "");
  if (declared_length(wsi) > BODY_MAX) /* refused before it is read */
    return too_big(wsi, slot);
  if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0 &&
      lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) <= 0)
    return account_body_done(wsi, slot); /* no body is coming */
  return 0; /* the body comes next (account_body) */
}

int account_body(account_req *r, const void *in, size_t len) {
  if (!r || r->out || r->too_big || len == 0)
    return 0;
  if (r->len + len > BODY_MAX) { /* more than it declared: chunked */
    r->too_big = 1;
    return 0;
  }
  char *b = realloc(r->body, r->len + len + 1);
  if (!b)
    return -1;
  memcpy(b + r->len, in, len);
  r->body = b;
  r->len += len;
  r->body[r->len] = 0;
  return 0;
}

int account_body_done(struct lws *wsi, account_req **slot) {
  account_req *r = *slot;
  if (!r || r->out)
    return -1;
  if (r->too_big)
    return refuse_req(wsi, slot, 413, "too_big",
                      "the request body is too large");
  if (!r->body) { /* no body at all: an empty object */
    r->body = strdup("{}");
    r->len = 2;
  }
  return submit(slot, wsi, "");
}

int account_read(struct lws *wsi, server *srv, int op, const char *what,
                 account_req **slot) {
  return new_req(wsi, srv, op, slot)
             ? submit(slot, wsi, what)
             : refuse(wsi, 500, "server", "out of memory");
}

void account_take(server *srv) {
  auth_job *jobs[16];
  int n;
  while ((n = auth_take(srv->auth, jobs, 16)) > 0)
    for (int i = 0; i < n; i++) {
      account_req *r = jobs[i]->req;
      if (jobs[i]->deleted)
        table_forget_account(srv, jobs[i]->deleted, AUTH_ANON);
      if ((jobs[i]->op == AUTH_RECORD || jobs[i]->op == AUTH_TOURNEY) &&
          jobs[i]->status == 404)
        limits_code_miss(srv->addrs, &srv->conf.limits, jobs[i]->addr,
                         now_ms()); /* an unknown code costs its budget */
      r->out = 0;
      if (!r->wsi)
        req_free(r); /* its connection is gone */
      else
        lws_callback_on_writable(r->wsi);
    }
}

int account_writeable(struct lws *wsi, account_req **slot) {
  account_req *r = *slot;
  if (!r || r->out || !r->job)
    return 0;
  auth_job *j = r->job;
  *slot = NULL; /* before the answer: completing it may free the slot */
  char retry[16];
  snprintf(retry, sizeof retry, "%d", j->retry_after);
  const char *headers[] = {j->cookie[0] ? "set-cookie:" : NULL,
                           j->cookie,
                           j->retry_after ? "retry-after:" : NULL,
                           retry,
                           j->disposition ? "content-disposition:" : NULL,
                           j->disposition,
                           NULL};
  /* answer_api skips the pairs whose name is NULL */
  const char *list[8];
  int k = 0;
  for (int i = 0; i < 6; i += 2)
    if (headers[i]) {
      list[k++] = headers[i];
      list[k++] = headers[i + 1];
    }
  list[k] = NULL;
  int rc = answer_api(wsi, (unsigned)j->status, j->body, list);
  req_free(r);
  return rc;
}

void account_closed(account_req **slot) {
  account_req *r = *slot;
  *slot = NULL;
  if (!r)
    return;
  if (r->out)
    r->wsi = NULL; /* freed when its answer comes (account_take) */
  else
    req_free(r);
}
