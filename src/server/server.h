/*
 * server.h -- what the files of `scopa serve` share: the server, its
 * connections and its tables.  Everything here belongs to the one service
 * thread (lws's); the bot workers see only bots.h.
 *
 *   main.c    flags, signals, start and stop
 *   listen.c  --host resolved to the addresses to listen on
 *   loop.c    the lws context (one vhost per address), the one protocol
 *             callback, the service loop, the sweep
 *   http.c    HTTP: request limits, origins, per-address budgets,
 *             routes, the web client's files
 *   conn.c    one WebSocket connection: reassembly with a size cap, the
 *             bounded out-queue, the store barrier, closing
 *   proto.c   the pure message parser and writers; the message table
 *             (proto.h PROTO_MESSAGES)
 *   table.c   the tables in memory (a search tree by code), loading one,
 *             the router of messages, the sweep, the record
 *   lobby.c   create, join, resume, watch: seats and their tokens
 *   rematch.c play again: the question, the answers, the next table
 *   react.c   reactions: a fixed set of phrases, rate-limited
 *   views.c   what each connection is shown (the one place views are
 *             built), who is here
 *   moves.c   moves from people, bots, away seats and the clock; hints
 *             and reviews; ratings at the end
 *   bots.c    the bots' thread pool (moves before hints and reviews)
 *   writer.c  the store's writes on their own thread, group commit
 *   store.c   SQLite: the claim, the checks, reads and writes
 *   relay.c   the cluster (PostgreSQL): leases, heartbeats, a client's
 *             messages relayed to its table's owner and back (relay.h)
 *   account.c the accounts' HTTP routes, a WebSocket's session cookie
 *   auth.c    accounts on their own thread: Argon2id, sessions, limits
 *   game.c    a stored game as the library's match (tables, accounts)
 *   rating.c  Glicko-2
 *   limits.c  credits and per-address counts and buckets (exact
 *             addresses): connections, tables, unknown codes, HTTP
 *
 * The barrier (Redis's "persist before replying"): every message queued
 * while a store batch is open carries that batch's number, and every
 * message about a table at least the number of that table's last batch
 * with writes; it does not go out before that batch is committed.  So no
 * connection hears of a move, a table or a seat that is not on disk, not
 * even one that sat down after the move was made.  When a batch fails
 * for a table (writer.h), what is held for that table is dropped.
 */
#ifndef SCOPA_SERVER_H
#define SCOPA_SERVER_H

#include <libwebsockets.h>
#include <stdint.h>

#include <scopa.h>

#include "auth.h"
#include "bots.h"
#include "limits.h"
#include "proto.h"
#include "store.h"
#include "writer.h"

#define MSG_MAX (64 * 1024) /* the largest message a client may send */

typedef struct server server;
typedef struct table table;

/* One message waiting to go out: LWS_PRE bytes of room, then the text. */
typedef struct out_msg {
  struct out_msg *next;
  uint64_t after; /* the store batch it waits for (0: none)             */
  uint64_t table; /* the id of the table it is about (0: none)          */
  size_t len;
  unsigned char buf[]; /* LWS_PRE + len                                */
} out_msg;

typedef struct conn {
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
  /* Where it sits: a table and a seat (-1 watching).                   */
  table *table;
  int seat;
  char name[PROTO_NAME_MAX + 1]; /* a spectator's name, as watch gave it */
  /* The account its session cookie proved at the upgrade (account.c;
   * relayed with it on a cluster), or 0: a guest. */
  long long account;
  char account_name[PROTO_NAME_MAX + 1];
  int64_t react_ms;           /* when its last reaction went out      */
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
} conn;

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

#define TRUSTED_MAX 16
#define ORIGIN_MAX 8    /* --origin URLs              */
#define ORIGIN_TEXT 256 /* one origin, as http_origin_norm writes it */
typedef struct serve_conf {
  const char *host;
  int port;
  const char *db;
  const char *web; /* web/dist                                   */
  int away_s;      /* default seconds before a bot plays for an away seat */
  int clock_s;     /* default move clock (0 = none)               */
  int idle_s;      /* a table with nobody leaves memory after it  */
  int bot_threads;
  int slow_cap;         /* hints and reviews waiting for the pool at most  */
  int bot_ms;           /* think time of a bot seat without a level    */
  const char *away_bot; /* who plays for an away seat (or on the clock) */
  int hint_ms;          /* a hint's and a review move's work (scopa_bot_hint) */
  size_t soft_bytes, hard_bytes; /* out-queue limits                   */
  int soft_s; /* seconds over the soft limit before a close  */
  int quiet;
  limits_conf limits;
  auth_conf auth; /* Argon2id's cost, the accounts' queue (auth.h) */
  int max_addrs;  /* addresses counted at once (limits.h)        */
  /* --trusted-proxy: peers whose X-Forwarded-For names the client
   * (limits_exact_text form). */
  char trusted[TRUSTED_MAX][LIMITS_KEY_TEXT];
  int ntrusted;
  /* --origin: the pages' origins a browser's request may come from
   * (http_origin_norm form); none: the server's own (http_origin_ok). */
  char origins[ORIGIN_MAX][ORIGIN_TEXT];
  int norigins;
} serve_conf;

struct server {
  serve_conf conf;
  listen_list listen; /* resolved from conf.host before the store opens */
  struct lws_context *ctx;
  store *st; /* reads, on the loop thread                          */
  writer *w; /* writes, committed on the writer's thread            */
  bots *bots;
  struct auth *auth; /* accounts, on their own thread (auth.h)        */
  limits_table *addrs;
  int64_t addrs_full_logged_ms; /* the last "table full" log line    */
  int64_t addrs_swept_ms;
  uint64_t batch;      /* number of the open store batch (0: none)    */
  uint64_t committed;  /* the last batch committed                    */
  uint64_t last_batch; /* the last batch number handed out           */
  conn *all;           /* every open connection                       */
  conn *wake;          /* connections with messages held by the barrier */
  conn *graveyard;     /* closed, freed after the service call        */
  int nconns;
  lws_sorted_usec_list_t sweep;
  struct relay *relay; /* the cluster (PostgreSQL only; NULL on SQLite)  */
  char node[24];       /* this node's name in the cluster ("" on SQLite) */
  volatile int stop;
  int failed; /* a write could not be recorded: exit status 1        */
  /* Tables in memory, by code. */
  void *tables_root; /* tsearch's tree of the tables in memory, by code */
  table *tables;     /* the same tables, listed (for the sweep)        */
  size_t ntables;
  uint64_t next_table_id;
  uint64_t next_conn_serial;
  /* Counters for /healthz and the benchmark. */
  uint64_t moves, messages_in, messages_out;
  uint64_t hint_jobs; /* hint jobs handed to the pool                   */
  uint64_t commits, commit_us; /* batches committed, time spent in them */
  /* The loop's stalls (loop.c): its longest turn since the last /healthz
   * (reset there), and turns over 10 ms since the start. */
  int64_t turn_start_us, turn_max_us;
  uint64_t turns_over_10ms;
};

int64_t now_ms(void);
/* The loop's longest turn in microseconds since the last call (which
 * starts the next window): /healthz's loop_max_us. */
int64_t loop_max_us(server *srv);
/* The per-address table is full: addr was allowed uncounted.  Logged at
 * most once a minute. */
void server_limits_full(server *srv, const char *addr);

/* conn.c */
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

/* Dispatches one message of c (charged: credits taken, else already
 * taken by the client's node). */
void conn_dispatch(conn *c, const char *text, size_t len, int charged);
/* Who c is, as the relay carries it to its table's node: its address,
 * and its account's id and name when signed in (conn_new_remote reads
 * it back). */
void conn_identity(const conn *c, char *out, size_t cap);
/* A connection standing in for client `rserial` of node `peer`. */
conn *conn_new_remote(server *srv, const char *peer, uint64_t rserial,
                      const char *addr);

/* table.c */
/* A table this node no longer owns (its lease was lost): its
 * connections are told and closed, and it leaves memory. */
void table_lost(server *srv, table *t);
/* Handles one message; returns 1 when it was an accepted move. */
int table_message(conn *c, const proto_msg *msg);
void table_leave(conn *c);
void table_bot_done(server *srv, const bot_job *job);
void table_sweep(server *srv, int64_t now);
void tables_free(server *srv);
/* The record of a game as JSON text for GET /api/tables/CODE/record:
 * 200 with the record, 403 while in play, 404 unknown, 500 damaged. */
char *table_record(server *srv, const char *code, int *status);
/* A write of a table failed (writer_take_failed): it stops there. */
void table_store_failed(server *srv, const writer_failure *f);

/* listen.c */
/* The addresses --host names that this machine can bind at port (0, the
 * list in out), or -1 with the reason in err. */
int listen_resolve(const char *host, int port, listen_list *out, char *err,
                   size_t cap);
/* "http://ADDR:PORT/" ([ADDR] for IPv6) for the listening message. */
void listen_url(const listen_addr *a, int port, char *out, size_t cap);

/* http.c */
/* lws's header buffer and per-header limits (the context's info). */
void http_limits(struct lws_context_creation_info *info);
/* LWS_CALLBACK_HTTP: answers the request (uri: lws's decoded path), or
 * for an account route keeps it in *slot to answer later (account.h). */
struct account_req;
int http_request(struct lws *wsi, server *srv, const char *uri,
                 struct account_req **slot);
/* A JSON answer written whole, with extra headers: pairs of name
 * ("set-cookie:") and value, NULL after the last. */
int http_answer(struct lws *wsi, unsigned status, const char *json,
                const char *const *headers);
/* LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: 0 lets a WebSocket to /ws within the
 * limits through; anything else is answered and closed (-1). */
int http_upgrade(struct lws *wsi, server *srv, const char *protocol);

/* The address a client is counted under (limits.h): its TCP peer's, or,
 * when the peer is a trusted proxy (conf.trusted), the last entry of the
 * request's X-Forwarded-For.  0, or -1 when a trusted proxy sent none
 * that is an address (then the client is refused, never counted under
 * the proxy's address, which every client behind it shares). */
int http_client_addr(struct lws *wsi, const server *srv, char *out, size_t cap);
/* Whether a browser's request comes from this site's pages: 1 when it has
 * no Origin (not a browser, or a same-origin GET), or its Origin is one of
 * --origin, or, without --origin, the server's own (the Host it was sent
 * to, over http or a trusted proxy's https, when that host is an address
 * literal or localhost: docs/serve.md "Origins").  0: answer 403 before
 * anything else.  "null" is never allowed.  For upgrades and every POST. */
int http_origin_ok(struct lws *wsi, const server *srv);
/* 1 when the request reached us over https: a trusted proxy says so
 * (X-Forwarded-Proto); the server itself has no TLS. */
int http_secure(struct lws *wsi, const server *srv);
/* --origin URL in the form browsers send: "scheme://host[:port]" in lower
 * case, the default port left out, a final "/" dropped.  0, or -1 when
 * url is not http(s)://HOST[:PORT] with nothing after. */
int http_origin_norm(const char *url, char out[ORIGIN_TEXT]);
/* LWS_CALLBACK_RAW_ADOPT (lws makes a CONNECT raw): 405, closed (-1). */
int http_raw(struct lws *wsi);

/* loop.c */
int loop_run(server *srv);
/* The number of the batch the turn's writes go into (opened if none). */
uint64_t server_batch(server *srv);

#endif
