/*
 * listen.h -- where `scopa serve` listens (listen.c): --host resolved to
 * numeric addresses, each bound on its own.
 */
#ifndef SCOPA_SERVER_LISTEN_H
#define SCOPA_SERVER_LISTEN_H

#include <stddef.h>

/* Where to listen (listen.c): numeric addresses, each bound on its own. */
#define LISTEN_MAX 8
typedef struct listen_addr {
  int family;  /* AF_INET or AF_INET6 */
  char ip[64]; /* numeric, as lws's iface wants it */
} listen_addr;
typedef struct listen_list {
  listen_addr addr[LISTEN_MAX];
  int n;
} listen_list;

/* The addresses --host names that this machine can bind at port (0, the
 * list in out), or -1 with the reason in err. */
int listen_resolve(const char *host, int port, listen_list *out, char *err,
                   size_t cap);
/* "http://ADDR:PORT/" ([ADDR] for IPv6) for the listening message. */
void listen_url(const listen_addr *a, int port, char *out, size_t cap);

#endif
