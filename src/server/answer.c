/*
 * answer.c -- an HTTP answer from memory, written whole (answer.h), with
 * the server's security headers.
 */
#include "answer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HEADERS_ROOM = 2048 };

const char ANSWER_IMMUTABLE[] = "public, max-age=31536000, immutable";
const char ANSWER_REVALIDATE[] = "no-cache";
const char ANSWER_NO_STORE[] = "no-store";

/* Our own security headers (lws's "best practices" CSP forbids the inline
 * style attributes the web client's SVG uses). */
static const struct {
  const char *name, *value;
} SECURITY[] = {
    {"x-content-type-options:", "nosniff"},
    {"referrer-policy:", "no-referrer"},
    {"x-frame-options:", "deny"},
    /* 'wasm-unsafe-eval' lets the page's engine (web/dist/engine,
     * docs/wasm.md) compile its WebAssembly, and nothing else: eval stays
     * forbidden. */
    {"content-security-policy:",
     "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src "
     "'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self' "
     "ws: wss:; frame-ancestors 'none'; base-uri 'none'"},
};

static int add_header(struct lws *wsi, const char *name, const char *value,
                      unsigned char **pos, unsigned char *end) {
  return lws_add_http_header_by_name(wsi, (const unsigned char *)name,
                                     (const unsigned char *)value,
                                     (int)strlen(value), pos, end);
}

static int add_security(struct lws *wsi, unsigned char **pos,
                        unsigned char *end) {
  for (size_t i = 0; i < sizeof SECURITY / sizeof SECURITY[0]; i++)
    if (add_header(wsi, SECURITY[i].name, SECURITY[i].value, pos, end))
      return -1;
  return 0;
}

/* The same headers as raw text, for lws_serve_http_file (HTTP/1 only: the
 * server has no TLS, so no HTTP/2). */
int answer_security_text(char *out, size_t cap) {
  size_t n = 0;
  for (size_t i = 0; i < sizeof SECURITY / sizeof SECURITY[0] && n < cap; i++)
    n += (size_t)snprintf(out + n, cap - n, "%s %s\r\n", SECURITY[i].name,
                          SECURITY[i].value);
  return n < cap ? (int)n : -1;
}

static int add_extra(struct lws *wsi, const char *const *extra,
                     unsigned char **pos, unsigned char *end) {
  for (int i = 0; extra && extra[i]; i += 2)
    if (add_header(wsi, extra[i], extra[i + 1], pos, end))
      return -1;
  return 0;
}

static int is_head(struct lws *wsi) {
  return lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0;
}

/* Writes a whole answer from memory (the body copied; none for HEAD) and
 * ends the transaction; ANSWER_CLOSE closes the connection after it (-1),
 * ANSWER_ALLOW adds "allow: GET, HEAD", extra more headers (name, value pairs,
 * NULL after the last).  Returns what the callback returns. */
int answer_with(struct lws *wsi, unsigned status, const char *type,
                const char *cache, const char *body, size_t len, int flags,
                const char *const *extra) {
  unsigned char *buf = malloc(LWS_PRE + HEADERS_ROOM + len);
  if (!buf)
    return -1;
  unsigned char *start = buf + LWS_PRE, *pos = start,
                *end = start + HEADERS_ROOM;
  int rc = -1;
  if (!lws_add_http_common_headers(wsi, status, type, len, &pos, end) &&
      !add_header(wsi, "cache-control:", cache, &pos, end) &&
      !add_security(wsi, &pos, end) &&
      !((flags & ANSWER_ALLOW) &&
        add_header(wsi, "allow:", "GET, HEAD", &pos, end)) &&
      !((flags & ANSWER_CLOSE) &&
        add_header(wsi, "connection:", "close", &pos, end)) &&
      !add_extra(wsi, extra, &pos, end) &&
      !lws_finalize_http_header(wsi, &pos, end)) {
    if (!is_head(wsi)) {
      memcpy(pos, body, len);
      pos += len;
    }
    int n = (int)(pos - start);
    rc = lws_write(wsi, start, (size_t)n, LWS_WRITE_HTTP_FINAL) == n ? 0 : -1;
  }
  free(buf);
  if (rc || (flags & ANSWER_CLOSE))
    return -1;
  return lws_http_transaction_completed(wsi) ? -1 : 0;
}

int answer(struct lws *wsi, unsigned status, const char *type,
           const char *cache, const char *body, size_t len, int flags) {
  return answer_with(wsi, status, type, cache, body, len, flags, NULL);
}

/* answer with a Retry-After (retry NULL: none). */
static int answer_retry(struct lws *wsi, unsigned status, const char *type,
                        const char *cache, const char *body, size_t len,
                        int flags, const char *retry) {
  const char *const extra[] = {"retry-after:", retry, NULL};
  return answer_with(wsi, status, type, cache, body, len, flags,
                     retry ? extra : NULL);
}

int answer_api(struct lws *wsi, unsigned status, const char *json,
               const char *const *headers) {
  return answer_with(wsi, status, "application/json", ANSWER_NO_STORE, json,
                     strlen(json), 0, headers);
}

int answer_text(struct lws *wsi, unsigned status, const char *text, int flags) {
  return answer(wsi, status, "text/plain; charset=utf-8", ANSWER_NO_STORE, text,
                strlen(text), flags);
}

/* A malloc'd JSON text (NULL: out of memory), freed here. */
int answer_json(struct lws *wsi, unsigned status, char *text) {
  if (!text)
    return answer_text(wsi, 500, "out of memory\n", 0);
  int rc = answer(wsi, status, "application/json", ANSWER_NO_STORE, text,
                  strlen(text), 0);
  free(text);
  return rc;
}

/* 429 `too_many` (the API's error shape, CONTRACTS.md "Accounts"), with
 * Retry-After in whole seconds, rounded up. */
int answer_too_many(struct lws *wsi, int retry_ms, const char *what) {
  char retry[16], body[160];
  int s = (retry_ms + 999) / 1000;
  snprintf(retry, sizeof retry, "%d", s < 1 ? 1 : s);
  snprintf(body, sizeof body,
           "{\"error\": \"too_many\", \"message\": \"%s; try again in %s "
           "s\"}",
           what, retry);
  return answer_retry(wsi, 429, "application/json", ANSWER_NO_STORE, body,
                      strlen(body), 0, retry);
}
