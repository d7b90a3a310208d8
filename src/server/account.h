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
 * (c->account, c->account_name); a guest otherwise. */
void account_of_ws(struct lws *wsi, server *srv, conn *c);

#endif
