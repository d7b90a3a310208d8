/*
 * http.h -- the HTTP side of `scopa serve` (http.c): the request's
 * limits, the routes, the web client's files, the WebSocket upgrade.
 */
#ifndef SCOPA_SERVER_HTTP_H
#define SCOPA_SERVER_HTTP_H

#include "server.h"

/* lws's header buffer and per-header limits (the context's info). */
void http_limits(struct lws_context_creation_info *info);
/* LWS_CALLBACK_HTTP: answers the request (uri: lws's decoded path), or
 * for an account route keeps it in *slot to answer later (account.h). */
struct account_req;
int http_request(struct lws *wsi, server *srv, const char *uri,
                 struct account_req **slot);
/* LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: 0 lets a WebSocket to /ws within the
 * limits through; anything else is answered and closed (-1). */
int http_upgrade(struct lws *wsi, server *srv, const char *protocol);

/* LWS_CALLBACK_RAW_ADOPT (lws makes a CONNECT raw): 405, closed (-1). */
int http_raw(struct lws *wsi);

#endif
