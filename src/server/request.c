/*
 * request.c -- who asks: a client's address (its TCP peer's, or what a
 * trusted proxy says in X-Forwarded-For), its page's origin (docs/serve.md
 * "Origins"), and whether it came over https.
 */
#include "request.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ */
/* Who is asking: the client's address, its page's origin              */
/* ------------------------------------------------------------------ */

/* Whether the TCP peer is a trusted proxy (conf.trusted); peer gets its
 * numeric address. */
static int from_proxy(struct lws *wsi, const server *srv,
                      char peer[LIMITS_KEY_TEXT]) {
  char exact[LIMITS_KEY_TEXT];
  lws_get_peer_simple(wsi, peer, LIMITS_KEY_TEXT);
  if (limits_exact_text(peer, exact) != 0)
    return 0;
  for (int i = 0; i < srv->conf.ntrusted; i++)
    if (strcmp(srv->conf.trusted[i], exact) == 0)
      return 1;
  return 0;
}

int request_client_addr(struct lws *wsi, const server *srv, char *out,
                        size_t cap) {
  char peer[LIMITS_KEY_TEXT], exact[LIMITS_KEY_TEXT],
      xff[REQUEST_TOKEN_MAX + 1];
  int proxy = from_proxy(wsi, srv, peer);
  snprintf(out, cap, "%s", peer);
  if (!proxy)
    return 0;
  if (lws_hdr_copy(wsi, xff, sizeof xff, WSI_TOKEN_X_FORWARDED_FOR) <= 0 ||
      limits_forwarded(xff, exact) != 0)
    return -1;
  snprintf(out, cap, "%s", exact);
  return 0;
}

/* The host of an origin ("http://HOST[:PORT]") is an address literal or
 * localhost: names no DNS answer can move (browsers keep localhost on
 * loopback), so a page there was really loaded from that address. */
static int literal_host(const char *origin) {
  char copy[ORIGIN_TEXT];
  const char *prot, *ads, *path;
  int port;
  unsigned char a[sizeof(struct in6_addr)];
  if ((size_t)snprintf(copy, sizeof copy, "%s", origin) >= sizeof copy ||
      lws_parse_uri(copy, &prot, &ads, &port, &path))
    return 0;
  return strcasecmp(ads, "localhost") == 0 || inet_pton(AF_INET, ads, a) == 1 ||
         inet_pton(AF_INET6, ads, a) == 1;
}

/* Without --origin, the server's own origin: the scheme the request came
 * by (https only when a trusted proxy says so with X-Forwarded-Proto),
 * then exactly the Host it was sent to, when that host is a literal
 * (docs/serve.md "Origins": a browser sets Host from the address it
 * connects to, which a foreign page cannot choose, but a rebound name
 * would make Host and Origin agree on the attacker's name). */
int request_secure(struct lws *wsi, const server *srv) {
  char proto[8] = "", peer[LIMITS_KEY_TEXT];
  if (from_proxy(wsi, srv, peer))
    lws_hdr_custom_copy(wsi, proto, sizeof proto, "x-forwarded-proto:", 18);
  return strcasecmp(proto, "https") == 0;
}

static int own_origin(struct lws *wsi, const server *srv, const char *origin) {
  char host[ORIGIN_TEXT], want[ORIGIN_TEXT + 16];
  if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
    return 0;
  snprintf(want, sizeof want, "%s://%s",
           request_secure(wsi, srv) ? "https" : "http", host);
  return strcasecmp(want, origin) == 0 && literal_host(want);
}

int request_origin_ok(struct lws *wsi, const server *srv) {
  char origin[ORIGIN_TEXT];
  if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
    return 1; /* not a browser's request: nothing a page could forge */
  if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0)
    return 0; /* longer than any origin we would accept */
  if (srv->conf.norigins == 0)
    return own_origin(wsi, srv, origin); /* "null" never matches */
  for (int i = 0; i < srv->conf.norigins; i++)
    if (strcasecmp(origin, srv->conf.origins[i]) == 0)
      return 1;
  return 0;
}

int request_origin_norm(const char *url, char out[ORIGIN_TEXT]) {
  char copy[ORIGIN_TEXT], bare[ORIGIN_TEXT], full[ORIGIN_TEXT];
  const char *prot, *ads, *path;
  int port;
  size_t n = strlen(url);
  if (n >= sizeof copy)
    return -1;
  n -= n && url[n - 1] == '/'; /* "https://a.example/" is that origin */
  memcpy(copy, url, n);
  copy[n] = 0;
  memcpy(bare, copy, n + 1);
  if (lws_parse_uri(copy, &prot, &ads, &port, &path) || !*ads ||
      strcmp(path, "/") != 0 || port < 1 || port > 65535 ||
      (strcasecmp(prot, "http") != 0 && strcasecmp(prot, "https") != 0))
    return -1;
  int dflt = port == (strcasecmp(prot, "https") == 0 ? 443 : 80);
  const char *l = strchr(ads, ':') ? "[" : "", *r = *l ? "]" : "";
  snprintf(out, ORIGIN_TEXT, "%s://%s%s%s", prot, l, ads, r);
  snprintf(full, sizeof full, "%s:%d", out, port);
  /* What lws read must be all of it (lws_parse_uri reads "8x" as 8). */
  if (strcasecmp(bare, full) != 0 && !(dflt && strcasecmp(bare, out) == 0))
    return -1;
  if (!dflt)
    snprintf(out, ORIGIN_TEXT, "%s", full);
  for (char *s = out; *s; s++)
    *s = (char)tolower((unsigned char)*s);
  return 0;
}
