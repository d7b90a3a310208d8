/*
 * request.h -- who asks (request.c): the address a client is counted
 * under, whether its page is this site's, whether it came over https.
 * For an HTTP request and for a WebSocket's upgrade alike.
 */
#ifndef SCOPA_SERVER_REQUEST_H
#define SCOPA_SERVER_REQUEST_H

#include "server.h"

/* A request's path and query, and one header's value, at most this
 * (http.c refuses longer ones: 414, 431). */
#define REQUEST_TOKEN_MAX 8192

/* The address a client is counted under (limits.h): its TCP peer's, or,
 * when the peer is a trusted proxy (conf.trusted), the last entry of the
 * request's X-Forwarded-For.  0, or -1 when a trusted proxy sent none
 * that is an address (then the client is refused, never counted under
 * the proxy's address, which every client behind it shares). */
int request_client_addr(struct lws *wsi, const server *srv, char *out,
                        size_t cap);
/* Whether a browser's request comes from this site's pages: 1 when it has
 * no Origin (not a browser, or a same-origin GET), or its Origin is one of
 * --origin, or, without --origin, the server's own (the Host it was sent
 * to, over http or a trusted proxy's https, when that host is an address
 * literal or localhost: docs/serve.md "Origins").  0: answer 403 before
 * anything else.  "null" is never allowed.  For upgrades and every POST. */
int request_origin_ok(struct lws *wsi, const server *srv);
/* 1 when the request reached us over https: a trusted proxy says so
 * (X-Forwarded-Proto); the server itself has no TLS. */
int request_secure(struct lws *wsi, const server *srv);
/* --origin URL in the form browsers send: "scheme://host[:port]" in lower
 * case, the default port left out, a final "/" dropped.  0, or -1 when
 * url is not http(s)://HOST[:PORT] with nothing after. */
int request_origin_norm(const char *url, char out[ORIGIN_TEXT]);

#endif
