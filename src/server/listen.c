/*
 * listen.c -- where `scopa serve` listens: --host read as addresses.
 *
 * lws reads a vhost's "iface" as a network interface's name first and as
 * an address only when no interface has that name; and with IPv6 built in
 * it opens an IPv6 socket and writes an IPv4 literal where that socket's
 * address does not look, so "127.0.0.1" bound [::]:8080, every address of
 * the machine (issue 22).  So the host is resolved here, each address is
 * checked by binding it once, and loop.c gives lws one vhost per address
 * as a numeric string, with IPv6 off for an IPv4 one.
 *
 *   an IPv4 or IPv6 literal  that address only; 0.0.0.0 every IPv4
 *                            address, :: every address (IPv4 too)
 *   localhost                the loopback: 127.0.0.1, and ::1 when this
 *                            machine has IPv6 (RFC 6761: never the resolver)
 *   another name             each address the resolver gives that is on
 *                            this machine; none: an error
 *
 * Whatever cannot be bound (not an address of this machine, the port in
 * use, a port under 1024 without the right) is a message for the person
 * who started the server, before the database is opened.
 */
#include "listen.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

/* 0 if a socket can be bound to sa (then closed at once), else errno. */
static int try_bind(const struct sockaddr *sa, socklen_t len) {
  int fd = socket(sa->sa_family, SOCK_STREAM, 0), one = 1, err = 0;
  if (fd < 0)
    return errno;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (sa->sa_family == AF_INET6) /* as lws will: [::] alone takes IPv4 */
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (bind(fd, sa, len) != 0)
    err = errno;
  close(fd);
  return err;
}

static const char *why(int err) {
  switch (err) {
  case EADDRNOTAVAIL:
    return "not an address of this machine";
  case EADDRINUSE:
    return "the port is in use";
  case EACCES:
    return "permission denied (a port under 1024?)";
  case EAFNOSUPPORT:
    return "this machine has no IPv6";
  default:
    return strerror(err);
  }
}

/* Adds ai's address to the list unless it is there already; -1 when the
 * list is full. */
static int add(listen_list *l, const struct addrinfo *ai) {
  listen_addr a = {.family = ai->ai_family};
  if (getnameinfo(ai->ai_addr, ai->ai_addrlen, a.ip, sizeof a.ip, NULL, 0,
                  NI_NUMERICHOST) != 0)
    return 0;
  for (int i = 0; i < l->n; i++)
    if (strcmp(l->addr[i].ip, a.ip) == 0)
      return 0;
  if (l->n == LISTEN_MAX)
    return -1;
  l->addr[l->n++] = a;
  return 0;
}

/* The addresses host names, in the resolver's order, with the port. */
static int resolve(const char *host, int port, int numeric,
                   struct addrinfo **out) {
  char service[8];
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | (numeric ? AI_NUMERICHOST : 0);
  snprintf(service, sizeof service, "%d", port);
  return getaddrinfo(host, service, &hints, out);
}

/* Keeps the addresses of ai that bind; a literal must, a name's may be
 * elsewhere (skipped).  -1 with the reason in err. */
static int keep_bindable(listen_list *l, const char *host,
                         const struct addrinfo *ai, int literal, char *err,
                         size_t cap) {
  for (; ai; ai = ai->ai_next) {
    if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
      continue;
    int e = try_bind(ai->ai_addr, ai->ai_addrlen);
    if (e == 0 && add(l, ai) == 0)
      continue;
    if (e == 0) {
      snprintf(err, cap, "%s names more than %d addresses", host, LISTEN_MAX);
      return -1;
    }
    if (!literal && (e == EADDRNOTAVAIL || e == EAFNOSUPPORT))
      continue; /* an address of the name that is not on this machine */
    char ip[64] = "?";
    getnameinfo(ai->ai_addr, ai->ai_addrlen, ip, sizeof ip, NULL, 0,
                NI_NUMERICHOST);
    snprintf(err, cap, "cannot listen on %s (%s): %s", host, ip, why(e));
    return -1;
  }
  return 0;
}

int listen_resolve(const char *host, int port, listen_list *out, char *err,
                   size_t cap) {
  memset(out, 0, sizeof *out);
  int loopback = strcasecmp(host, "localhost") == 0;
  const char *names[2] = {loopback ? "127.0.0.1" : host, "::1"};
  for (int i = 0; i < 1 + loopback; i++) {
    struct addrinfo *ai = NULL;
    int literal = 1, rc = resolve(names[i], port, 1, &ai);
    if (rc == EAI_NONAME && !loopback) {
      literal = 0;
      rc = resolve(names[i], port, 0, &ai);
    }
    if (rc != 0) {
      snprintf(err, cap, "cannot listen on %s: %s", host, gai_strerror(rc));
      return -1;
    }
    /* localhost's ::1 is skipped where the machine has no IPv6. */
    rc = keep_bindable(out, host, ai, literal && i == 0, err, cap);
    freeaddrinfo(ai);
    if (rc)
      return -1;
  }
  if (out->n == 0) {
    snprintf(err, cap,
             "cannot listen on %s: none of its addresses is on "
             "this machine",
             host);
    return -1;
  }
  return 0;
}

void listen_url(const listen_addr *a, int port, char *out, size_t cap) {
  snprintf(out, cap,
           a->family == AF_INET6 ? "http://[%s]:%d/" : "http://%s:%d/", a->ip,
           port);
}
