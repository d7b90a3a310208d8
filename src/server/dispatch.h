/*
 * dispatch.h -- what a connection's events do at the tables (dispatch.c):
 * the hooks conn.h calls (a message through the message table, a
 * connection closing), and the sweep of the tables.  The top room of the
 * service thread under loop.c.
 */
#ifndef SCOPA_SERVER_DISPATCH_H
#define SCOPA_SERVER_DISPATCH_H

#include "conn.h"

/* The hooks of every connection of srv, and the cluster's (relay.h). */
extern const conn_hooks DISPATCH_HOOKS;
extern const struct relay_hooks DISPATCH_RELAY_HOOKS;
/* The sweep: away seats, move clocks, tables leaving memory. */
void dispatch_sweep(server *srv, int64_t now);

#endif
