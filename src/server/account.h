/*
 * account.h -- the accounts' HTTP routes and a WebSocket's session
 * (account.c), between loop.c's callback and the accounts' thread
 * (auth.h).
 */
#ifndef SCOPA_SERVER_ACCOUNT_H
#define SCOPA_SERVER_ACCOUNT_H

#include "conn.h"

typedef struct account_req account_req;

/* 1 when uri is one of the accounts' routes (/api/signup, /api/me, ...). */
int account_route(const char *uri);

/* LWS_CALLBACK_HTTP for an account route: checks the method and the
 * origin, keeps the request in *slot (the connection's state) and, for a
 * GET, hands it to the thread.  Returns what the callback returns. */
int account_begin(struct lws *wsi, server *srv, const char *uri,
                  account_req **slot);
/* LWS_CALLBACK_HTTP_BODY and _BODY_COMPLETION of a POST. */
int account_body(account_req *r, const void *in, size_t len);
int account_body_done(struct lws *wsi, account_req **slot);
/* After the thread's wake-up: each answer's connection asked to write. */
void account_take(server *srv);
/* LWS_CALLBACK_HTTP_WRITEABLE: the answer, written whole. */
int account_writeable(struct lws *wsi, account_req **slot);
/* LWS_CALLBACK_CLOSED_HTTP. */
void account_closed(account_req **slot);

/* The account of a WebSocket's session cookie, if any, into c
 * (c->account, c->account_name), a guest otherwise, and its hello; a
 * connection whose session the cluster reads (c->session_wait) is
 * greeted at the answer instead (account_hello). */
void account_of_ws(struct lws *wsi, server *srv, conn *c);
/* A read of the store for an HTTP GET, answered later as the routes
 * here are (op AUTH_LEADERBOARD or AUTH_RECORD, what its pool or code):
 * 0, or the callback's return of an answer now. */
int account_read(struct lws *wsi, server *srv, int op, const char *what,
                 account_req **slot);
/* The hello of c, with the name of its account (or none). */
void account_hello(conn *c);
/* The SHA-256 of the request's scopa_session token, or "" (none, or not
 * the shape of one). */
void account_session_of(struct lws *wsi, char sha[65]);

#endif
