/*
 * answer.h -- an HTTP answer from memory, written whole (answer.c):
 * headers and body in one lws_write inside the callback that asked for
 * it, the transaction completed there (http.c's head comment says why),
 * with the server's security headers on every answer.
 */
#ifndef SCOPA_SERVER_ANSWER_H
#define SCOPA_SERVER_ANSWER_H

#include <libwebsockets.h>

/* Cache-Control values: /assets/... (named after their content's hash),
 * the other files, the API and errors. */
extern const char ANSWER_IMMUTABLE[], ANSWER_REVALIDATE[], ANSWER_NO_STORE[];

enum { ANSWER_CLOSE = 1, ANSWER_ALLOW = 2 };

/* Writes a whole answer from memory (the body copied; none for HEAD) and
 * ends the transaction; ANSWER_CLOSE closes the connection after it (-1),
 * ANSWER_ALLOW adds "allow: GET, HEAD", extra more headers (name, value
 * pairs, NULL after the last).  Returns what the callback returns. */
int answer_with(struct lws *wsi, unsigned status, const char *type,
                const char *cache, const char *body, size_t len, int flags,
                const char *const *extra);
int answer(struct lws *wsi, unsigned status, const char *type,
           const char *cache, const char *body, size_t len, int flags);
/* A JSON answer written whole, with extra headers: pairs of name
 * ("set-cookie:") and value, NULL after the last. */
int answer_api(struct lws *wsi, unsigned status, const char *json,
               const char *const *headers);
int answer_text(struct lws *wsi, unsigned status, const char *text, int flags);
/* A malloc'd JSON text (NULL: out of memory, a 500), freed here. */
int answer_json(struct lws *wsi, unsigned status, char *text);
/* 429 `too_many` (the API's error shape, CONTRACTS.md "Accounts"), with
 * Retry-After in whole seconds, rounded up. */
int answer_too_many(struct lws *wsi, int retry_ms, const char *what);
/* The security headers as raw text, for lws_serve_http_file (HTTP/1
 * only: the server has no TLS, so no HTTP/2).  Its length, or -1. */
int answer_security_text(char *out, size_t cap);

#endif
