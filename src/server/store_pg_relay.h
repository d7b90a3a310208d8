/*
 * store_pg_relay.h -- the cluster's statements (relay.c) on a PostgreSQL
 * store's connection (store_pg_relay.c): the bus between the nodes (rows
 * of the table `relay`, NOTIFY on each reader's channel), the nodes'
 * heartbeats, a lease's claim and holder, and the per-address limits of every
 * node together.  Only relay.c's courier thread calls these, on a store of its
 * own (store_open): the loop never waits for them.  The tables are store_pg.c's
 * schema.
 */
#ifndef SCOPA_SERVER_STORE_PG_RELAY_H
#define SCOPA_SERVER_STORE_PG_RELAY_H

#include "store.h"

#include <stddef.h>
#include <stdint.h>

/* A row of the bus: written, node is its reader; read, its writer. */
typedef struct spr_row {
  char node[24];
  uint64_t conn;
  int kind;
  char addr[128];
  char *body; /* malloc'd */
} spr_row;

/* The courier's settings on st's connection (no synchronous commit for
 * what is not the game; an index scan for the reads) and LISTEN on
 * scopa_NODE: 0 or -1. */
int spr_setup(store *st, const char *node);
/* The connection's socket, to wait on. */
int spr_socket(store *st);
/* What came on the socket: 1 when a notification did, 0, -1 when the
 * connection is lost. */
int spr_notified(store *st);
/* The server process of the connection: another after a reset (which
 * LISTENs no more). */
int spr_backend(store *st);
/* 1 while the connection is up. */
int spr_up(store *st);

/* Rows v[0, n) written by node src in one INSERT that NOTIFYs each
 * reader once: 0 or -1. */
int spr_write(store *st, const char *src, const spr_row *v, size_t n);
/* Up to `limit` rows for node taken (deleted), in the order they were
 * written, into *out (malloc'd, *n of them): 0, or -1. */
int spr_read(store *st, const char *node, int limit, spr_row **out, size_t *n);

/* node's heartbeat, and the nodes seen within dead_ms (node among them)
 * into *alive (malloc'd, *n): 0 or -1. */
int spr_heartbeat(store *st, const char *node, int dead_ms, char (**alive)[24],
                  int *n);
/* Takes code's lease for node (store_lease_take, committed
 * synchronously), else finds the live holder: 0 (*epoch), 1 (holder
 * set), -1. */
int spr_claim(store *st, const char *code, const char *node, int ttl_s,
              long long *epoch, char holder[24]);

/* The per-address limits across the cluster.  closed: node's closes
 * since the last report, one address a line ("": none).  spr_closed
 * takes them off; spr_conn_open does too, then counts a connection from
 * addr if the live nodes (seen within alive_s) hold fewer than lim:
 * 1 (counted), 0 (refused), -1.  spr_table_create takes a credit of
 * addr's bucket of per_min a minute: 1, 0 (none left), -1. */
int spr_closed(store *st, const char *node, const char *closed);
int spr_conn_open(store *st, const char *addr, const char *node, int lim,
                  const char *closed, int alive_s);
int spr_table_create(store *st, const char *addr, int per_min);

/* Rows of nodes long dead, nodes long gone, leases of no game. */
void spr_purge(store *st);
/* node stops: its leases expire now, its heartbeat goes. */
void spr_leave(store *st, const char *node);

#endif
