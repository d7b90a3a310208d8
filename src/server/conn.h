/*
 * conn.h -- one WebSocket connection (conn.c): reassembly with a size
 * cap, the bounded out-queue, the store barrier (server.h), closing.
 * The transport knows nothing of tables: what a connection's events do
 * is the hooks loop.c hands it (srv->hooks, dispatch.h), as lws hands a
 * protocol its callback.
 */
#ifndef SCOPA_SERVER_CONN_H
#define SCOPA_SERVER_CONN_H

#include "server.h"

/* One message waiting to go out: LWS_PRE bytes of room, then the text. */
typedef struct out_msg {
  struct out_msg *next;
  uint64_t after; /* the store batch it waits for (0: none)             */
  uint64_t table; /* the id of the table it is about (0: none)          */
  size_t len;
  unsigned char buf[]; /* LWS_PRE + len                                */
} out_msg;

struct conn {
  struct lws *wsi; /* NULL once closed (then only in the graveyard)    */
  server *srv;
  char addr[64];
  uint64_t serial; /* this connection's number, never reused          */
  int counted;     /* counted in its address's entry (limits.h)       */
  int refused;     /* over the connections of its address: closing    */
  int ccounted;    /* counted in the cluster's (relay.h)              */
  /* Reassembly of the message being received.                         */
  char *rx;
  size_t rx_len, rx_cap;
  int rx_skip; /* dropping the rest of an oversized message           */
  /* The out-queue: bytes queued, and since when over the soft limit.  */
  out_msg *head, *tail;
  size_t out_bytes;
  int64_t soft_since_ms; /* 0: under the soft limit                    */
  int closing;           /* close at the next writeable               */
  limits_bucket bucket;
  int64_t last_rx_ms;
  /* Our own idle pings (conn_sweep): when the last went out, one to
   * write at the next writeable callback, and a dead peer being cut. */
  int64_t ping_ms;
  int want_ping, hung;
  /* Where it sits: a table and a seat (-1 watching).                   */
  table *table;
  int seat;
  char name[PROTO_NAME_MAX + 1]; /* a spectator's name, as watch gave it */
  /* The language and deck of the sentences it is sent (proto_add_words):
   * the last a message of it said; "" until one does (English, Italian
   * names). */
  char lang[3];
  char deck[16];
  /* The account its session cookie proved at the upgrade (account.c;
   * relayed with it on a cluster), or 0: a guest. */
  long long account;
  char account_name[PROTO_NAME_MAX + 1];
  /* A cluster reads the session off the loop: until it is known the
   * connection's hello waits (and its messages with it, relay.c). */
  int session_wait;
  int64_t react_ms;           /* when its last reaction went out      */
  seek_entry *seek;           /* its Play now seek, or NULL (seek.c)  */
  struct conn *tnext, *tprev; /* the table's connections              */
  struct conn *anext, *aprev; /* every open connection                */
  struct conn *wnext;         /* the wake list (waiting for a commit) */
  int in_wake;
  struct conn *gnext; /* the graveyard                                 */
  /* The cluster (relay.c).  A client of this node whose table another
   * node owns: peer is that owner, and its messages go there.  A remote
   * connection (remote = 1) stands in on the owner for a client of node
   * peer (its number there: rserial): it has no socket, and what it is
   * sent goes back through the relay. */
  int remote;
  int gone;      /* a remote connection closed              */
  int rclose;    /* a remote connection to close at the turn */
  int in_tree;   /* in the relay's tree of connections      */
  char peer[24]; /* "" when none                            */
  uint64_t rserial;
  char *parked; /* an entry waiting for a dead owner's lease */
  char *entry;  /* the resume or watch it was relayed with, to send again */
  int64_t parked_ms;
  struct relay_wait *wait; /* a question out for the courier (relay.c) */
};

/* What a connection's events do (libwebsockets' protocol-callback
 * shape).  Every hook is called on the service thread. */
typedef struct conn_hooks {
  /* A client's connection opened (counted: on this node): with counted,
   * LIMITS_COUNTED or LIMITS_REFUSED when the cluster has its say at
   * once (counted there: c->ccounted), any other value when it answers
   * later or not at all. */
  int (*opened)(conn *c, int counted);
  /* One whole message of c (charged: credits taken here, else already
   * taken by the client's node). */
  void (*message)(conn *c, const char *text, size_t len, int charged);
  /* c is closing: it leaves its table and the cluster forgets it. */
  void (*closed)(conn *c);
  /* A remote connection has messages queued: they go to its node. */
  void (*flush)(conn *c);
  /* For the barrier (server.h): the id of the table c sits at (0: none),
   * and in *last_batch that table's last store batch with writes. */
  uint64_t (*table_of)(const conn *c, uint64_t *last_batch);
} conn_hooks;

conn *conn_new(server *srv, struct lws *wsi);
void conn_closed(conn *c); /* lws closed it: unlink, to the graveyard */
void conn_free_graveyard(server *srv);
/* Queues text (copied) for c; never blocks, never grows past the hard
 * limit (the connection is closed instead).  Takes ownership of nothing. */
void conn_send(conn *c, const char *text);
/* Queues and frees a malloc'd text (NULL: out of memory, ignored). */
void conn_send_owned(conn *c, char *text);
/* An error to c: code, and its detail in English and Italian (detail_it
 * NULL: the library's text, English only; proto_error_set). */
int conn_error(conn *c, const json_t *id, const char *code, const char *detail,
               const char *detail_it); /* returns 0, for handlers */
/* The answer to a ping: a pong with its id (the message table's PING). */
int conn_ping(conn *c, const proto_msg *msg);
void conn_close_soon(conn *c);
int conn_writeable(conn *c); /* the WRITEABLE callback */
int conn_receive(conn *c, const void *in, size_t len); /* RECEIVE */
void conn_release(server *srv); /* after a commit: wake the held */
/* Drops the messages about the table with id table_id still held by the
 * barrier; returns how many. */
int conn_drop_held(conn *c, uint64_t table_id);
void conn_sweep(server *srv, int64_t now);

/* One message of c, to the message hook (charged: credits taken, else
 * already taken by the client's node). */
void conn_deliver(conn *c, const char *text, size_t len, int charged);
/* Who c is, as the relay carries it to its table's node: its address,
 * and its account's id and name when signed in (conn_new_remote reads
 * it back). */
void conn_identity(const conn *c, char *out, size_t cap);
/* A connection standing in for client `rserial` of node `peer`. */
conn *conn_new_remote(server *srv, const char *peer, uint64_t rserial,
                      const char *addr);

#endif
