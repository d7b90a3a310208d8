/*
 * relay.h -- any node serves any table (docs/serve.md "More than one
 * machine"): with a PostgreSQL store, one node owns a table at a time
 * (its lease, store.h), and the other nodes relay their clients'
 * messages to the owner and the owner's answers back, through the
 * database: rows of the table `relay` and NOTIFY on the reader's
 * channel.  With SQLite there is one node: srv->relay is NULL and every
 * call here is a no-op (or says "local").
 *
 * The owner runs a relayed client as a remote connection (conn.remote):
 * the same handlers, the same views (each built for that client's own
 * seat, views.c), the same barrier (nothing goes back before it is
 * committed); only the bytes go through the relay instead of a socket.
 * So every connection of a table, whichever node it reached, sees the
 * same states in the same order, and no node sends a client more than
 * its own seat's view.
 */
#ifndef SCOPA_SERVER_RELAY_H
#define SCOPA_SERVER_RELAY_H

#include "conn.h"

#define RELAY_LEASE_S 9    /* a lease's life from its last renewal       */
#define RELAY_TICK_MS 1000 /* heartbeat and renewals                    */
/* A node silent this long is taken as dead: as long as a lease lives, so
 * that a node slowed by its load is not given up before its leases. */
#define RELAY_DEAD_MS (RELAY_LEASE_S * 1000)
#define RELAY_SAFE_MS 6000 /* moves refused once renewals are this old   */

typedef struct relay relay;

/* What the cluster asks of the tables above it (relay.c knows no table:
 * dispatch.c answers, loop.c sets srv->relay_hooks). */
typedef struct relay_hooks {
  /* 1 when table `code` (upper case) is in this node's memory. */
  int (*here)(server *srv, const char *code);
  /* Each table in memory that holds a lease: fn(arg, code, epoch). */
  void (*leases)(server *srv,
                 void (*fn)(void *arg, const char *code, long long epoch),
                 void *arg);
  /* The lease of table `code` at `epoch` is gone: if that table is still
   * in memory at that epoch, it is lost (its connections told, closed). */
  void (*lost)(server *srv, const char *code, long long epoch);
  /* c gets up from its table: it is relayed to another node's. */
  void (*leave)(conn *c);
  /* c's account is known (relay_conn_open): its hello goes out. */
  void (*greet)(conn *c);
  /* A table code, random and unchecked (0, or -1): called by the
   * courier, on its own thread. */
  int (*random_code)(char code[PROTO_CODE_MAX + 1]);
} relay_hooks;

/* PostgreSQL only: this node's name, its own connections to the database
 * and its listener thread; srv->relay set.  0, or -1 with a message.
 * SQLite: 0, nothing started. */
int relay_start(server *srv, char *msg, size_t msgsize);
/* Lets this node's leases go (a rolling upgrade hands tables over at
 * once), stops the thread, closes. */
void relay_stop(server *srv);

/* Before a client's message is handled here: 1 when the relay took it
 * (sent to the owner of its table, parked until a dead owner's lease
 * expires, or held while the courier answers a question of its
 * connection: handled again then, in order), 0 to handle it on this
 * node. */
int relay_route(conn *c, const proto_msg *msg, const char *text, size_t len);
/* c closed: its owner or its client's node hears of it. */
void relay_conn_closed(conn *c);
/* A remote connection's messages that may go out (the barrier passed). */
void relay_out(conn *c);
/* The end of a loop turn: remote connections closed, what is queued for
 * other nodes written and notified. */
void relay_turn(server *srv);
/* A notification came (any thread): poll soon.  On the loop: reads what
 * other nodes sent this one. */
void relay_poll(server *srv);
/* From the sweep: heartbeat, lease renewals, dead nodes, parked entries,
 * every RELAY_TICK_MS. */
void relay_tick(server *srv, int64_t now);

/* The lease of table `code` (new or loaded): 0 (*epoch set; SQLite: 0,
 * epoch 0), 1 held by another node, -1 error.  A join's, resume's or
 * watch's lease was taken by the courier before the message is handled
 * (relay_route), and this returns its answer; so was a new table's
 * (relay_fresh_code).  Nothing is claimed on the loop: without the
 * courier's answer (no memory to ask), -1. */
int relay_claim(server *srv, const char *code, long long *epoch);
/* The code the courier found for the create or rematch being handled
 * (relay_route asks for one: unused in the store, its lease taken by
 * this node): 0 with code set, the first time it is asked; else -1
 * (SQLite, no answer: the caller finds one).  relay_claim of that code
 * then answers its lease at once. */
int relay_fresh_code(server *srv, char code[PROTO_CODE_MAX + 1]);
/* The table `code` as the courier read it right after taking the lease
 * of the join, resume or watch being handled (store_load's answer, the
 * game now the caller's, msg set), or -2 when there is none (SQLite, a
 * new table, no memory to ask): then the caller reads it. */
int relay_loaded(server *srv, const char *code, store_game *g, char *msg,
                 size_t msgsize);
/* A table leaves memory: its lease expires now (epoch 0: none), by the
 * courier. */
void relay_release(server *srv, const char *code, long long epoch);
/* The per-address limits across the cluster (docs/serve.md "Limits
 * across the cluster"): counted in PostgreSQL at a connection's open and
 * a table's creation, never per message, by the courier.
 * relay_conn_open: c (local; counted: on this node) opens: the courier
 * asks (counted: its address's count; session, a SHA-256 or "": the
 * account of the cookie, as store_session_get, so the loop never waits
 * for it), c holds its messages until the answer, its hello waits for
 * its account (c->session_wait; then relay_hooks.greet), and a refusal
 * (over the limit on every live node together) closes it then with a
 * `limit` error; returns -1 (the node's own count stands meanwhile, and
 * for good when the database does not answer).  relay_conn_close: a
 * connection counted there closed.  relay_table_create: the answer the
 * courier gave before the create was handled (relay_route): LIMITS_COUNTED,
 * LIMITS_REFUSED (the address's bucket of the last minute is empty), or
 * -1 (no cluster, no answer: the node's own count decides). */
int relay_conn_open(conn *c, int counted, const char *session);
void relay_conn_close(server *srv, const char *addr);
int relay_table_create(server *srv, const char *addr);

/* 0 while this node may accept moves: its leases were renewed lately
 * (always on SQLite). */
int relay_cut_off(server *srv);

#endif
