/*
 * server.h -- the server (server.c): its configuration, the state of the
 * one service thread (lws's), the clock and the store batch of the turn.
 * Everything here belongs to that thread; the bot workers see only
 * bots.h, the accounts' thread auth.h, the writer's writer.h.
 *
 * The house (each file includes only the headers of rooms below it;
 * HACKING.md "The server's rooms" draws it):
 *
 *   main.c     flags, signals, start and stop
 *   loop.c     the lws context, the one protocol callback, the service
 *              loop; hands conn.c its hooks (dispatch.h)
 *   http.c     HTTP: request limits, budgets, routes, the web's files
 *   account.c  the accounts' HTTP routes, a WebSocket's session cookie
 *   dispatch.c a connection's messages (the message table), its leaving,
 *              the sweep of the tables
 *   rematch.c  play again: the next table
 *   lobby.c    create, join, resume, watch; leaving a table
 *   seek.c     Play now: seeks, and seating the paired (pairer.c's
 *              thread pairs them, pairing.c's rule, in the store)
 *   offer.c    the rematch offer's state: asked, yes, declined
 *   react.c    reactions: a fixed set of phrases, rate-limited
 *   moves.c    moves from people, bots, away seats and the clock; hints
 *              and reviews
 *   rating.c   which games are rated, the ratings' job at the end
 *   views.c    what each connection is shown, who is here
 *   table.c    the tables in memory (a search tree by code), loading one,
 *              the record, eviction
 *   relay.c    the cluster (PostgreSQL): leases, heartbeats, a client's
 *              messages relayed to its table's owner and back
 *   conn.c     one WebSocket connection: reassembly with a size cap, the
 *              bounded out-queue, the store barrier, closing
 *   answer.c   writing an HTTP answer whole, with its headers
 *   request.c  who asks: the client's address, its page's origin
 *   server.c   the clock, the turn's store batch
 *   below all: src/proto (the pure message parser and writers, the
 *              message list, shared with the local table), limits.c, bots.c,
 * writer.c, auth.c, game.c, glicko.c, listen.c, store*.c
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
#include "listen.h"
#include "proto.h"
#include "store.h"
#include "writer.h"

#define MSG_MAX (64 * 1024) /* the largest message a client may send */

typedef struct server server;
typedef struct table table;
typedef struct conn conn;
typedef struct seek_entry seek_entry; /* seek.c */
struct conn_hooks;

#define TRUSTED_MAX 16
#define ORIGIN_MAX 8    /* --origin URLs              */
#define ORIGIN_TEXT 256 /* one origin, as request_origin_norm writes it */
typedef struct serve_conf {
  const char *host;
  int port;
  const char *db;
  const char *web;  /* web/dist                                   */
  int away_s;       /* default seconds before a bot plays for an away seat */
  int clock_s;      /* default move clock (0 = none)               */
  int idle_s;       /* a table with nobody leaves memory after it  */
  int ping_s;       /* a silent connection is pinged after it, cut at 2.5x */
  int seek_offer_s; /* a seek waits this long before a bot is offered */
  int bot_threads;
  int slow_cap;         /* hints and reviews waiting for the pool at most  */
  int bot_ms;           /* think time of a bot seat without a level    */
  const char *away_bot; /* who plays for an away seat (or on the clock) */
  int hint_ms;          /* a hint's and a review move's work (scopa_bot_hint) */
  size_t soft_bytes, hard_bytes; /* out-queue limits                   */
  int soft_s; /* seconds over the soft limit before a close  */
  int quiet;
  int reports; /* --reports: list the reports of table talk and stop */
  limits_conf limits;
  auth_conf auth; /* Argon2id's cost, the accounts' queue (auth.h) */
  int max_addrs;  /* addresses counted at once (limits.h)        */
  /* --trusted-proxy: peers whose X-Forwarded-For names the client
   * (limits_exact_text form). */
  char trusted[TRUSTED_MAX][LIMITS_KEY_TEXT];
  int ntrusted;
  /* --origin: the pages' origins a browser's request may come from
   * (request_origin_norm form); none: the server's own (request_origin_ok). */
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
  struct auth *auth;         /* accounts, on their own thread (auth.h)        */
  struct pairer *pairer;     /* Play now's thread (pairer.h)               */
  struct tourneys *tourneys; /* the tournaments' thread (tourneys.h)   */
  seek_entry *seeks;         /* this node's seeks waiting (seek.c)          */
  int nseeks;
  limits_table *addrs;
  int64_t addrs_full_logged_ms; /* the last "table full" log line    */
  int64_t addrs_swept_ms;
  /* What a connection's events do (conn.h; loop.c sets them). */
  const struct conn_hooks *hooks;
  uint64_t batch;      /* number of the open store batch (0: none)    */
  uint64_t committed;  /* the last batch committed                    */
  uint64_t last_batch; /* the last batch number handed out           */
  conn *all;           /* every open connection                       */
  conn *wake;          /* connections with messages held by the barrier */
  conn *graveyard;     /* closed, freed after the service call        */
  int nconns;
  lws_sorted_usec_list_t sweep;
  struct relay *relay; /* the cluster (PostgreSQL only; NULL on SQLite)  */
  const struct relay_hooks *relay_hooks; /* the tables, to the cluster  */
  char node[24]; /* this node's name in the cluster ("" on SQLite) */
  volatile int stop;
  int failed; /* a write could not be recorded: exit status 1        */
  /* Tables in memory, by code. */
  void *tables_root;  /* tsearch's tree of the tables in memory, by code */
  void *unrated_root; /* codes of unrated tournaments' tables (table.c) */
  table *tables;      /* the same tables, listed (for the sweep)        */
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
int64_t now_us(void);
/* The wall clock, ms since the epoch: what the store keeps (a move's
 * time, for the time bank), the same on every node of a cluster. */
int64_t wall_ms(void);
/* The loop's longest turn in microseconds since the last call (which
 * starts the next window): /healthz's loop_max_us.  loop.c measures. */
int64_t loop_max_us(server *srv);
/* The per-address table is full: addr was allowed uncounted.  Logged at
 * most once a minute. */
void server_limits_full(server *srv, const char *addr);

/* The number of the batch the turn's writes go into (opened if none). */
uint64_t server_batch(server *srv);

#endif
