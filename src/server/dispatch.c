/*
 * dispatch.c -- what a connection's events do at the tables: the hooks
 * conn.c calls (conn.h), set by loop.c.  A message is parsed, charged a
 * credit, and goes to the relay when another node owns its table
 * (relay.h), else to its handler (one per type of proto.h's
 * PROTO_MESSAGES); a closing connection gets up from its table and the
 * cluster forgets it.  Also the sweep of the tables.
 */
#include "dispatch.h"
#include "account.h"
#include "lobby.h"
#include "moves.h"
#include "react.h"
#include "relay.h"
#include "rematch.h"
#include "seek.h"
#include "talk.h"
#include "tourney_lobby.h"
#include "views.h"

#include <string.h>

/* Each message type's handler (proto.h PROTO_MESSAGES): as many as the
 * types (a missing or a doubled one fails the build: -Woverride-init). */
#define HANDLERS(XX)                                                           \
  XX(CREATE, lobby_create)                                                     \
  XX(JOIN, lobby_join)                                                         \
  XX(RESUME, lobby_resume)                                                     \
  XX(WATCH, lobby_watch)                                                       \
  XX(MOVE, play_move)                                                          \
  XX(HINT, play_hint)                                                          \
  XX(PING, conn_ping)                                                          \
  XX(REVIEW, play_review)                                                      \
  XX(REMATCH, rematch_answer)                                                  \
  XX(REACT, react_send)                                                        \
  XX(SEEK, seek_start)                                                         \
  XX(UNSEEK, seek_stop)                                                        \
  XX(SAY, talk_say)                                                            \
  XX(REPORT, talk_report)                                                      \
  XX(TOURNAMENT_CREATE, tourney_create)                                        \
  XX(TOURNAMENT_JOIN, tourney_join)                                            \
  XX(TOURNAMENT_LEAVE, tourney_leave)                                          \
  XX(TOURNAMENT_START, tourney_start)
#define COUNT(type, handler) +1
_Static_assert(0 HANDLERS(COUNT) == PROTO_NTYPES - 1, "a handler per type");
#undef COUNT

/* Unknown types are ignored (CONTRACTS.md).  Returns 1 when it was an
 * accepted move. */
static int table_message(conn *c, const proto_msg *msg) {
  static int (*const TABLE[PROTO_NTYPES])(conn *, const proto_msg *) = {
#define ENTRY(type, handler) [PROTO_##type] = handler,
      HANDLERS(ENTRY)
#undef ENTRY
  };
  int (*handle)(conn *, const proto_msg *) = TABLE[msg->type];
  return handle ? handle(c, msg) : 0;
}

/* The messages a node answers itself, whatever table its client is at:
 * Play now's and the tournaments' (their threads see the whole cluster). */
static int node_own(int type) {
  return type == PROTO_SEEK || type == PROTO_UNSEEK ||
         type == PROTO_TOURNAMENT_CREATE || type == PROTO_TOURNAMENT_JOIN ||
         type == PROTO_TOURNAMENT_LEAVE || type == PROTO_TOURNAMENT_START;
}

/* One whole message: credits, then the parser, then the relay (a table
 * another node owns, relay.h), else the tables. */
static void message(conn *c, const char *text, size_t len, int charged) {
  server *srv = c->srv;
  /* Parsed first (a bounded cost: MSG_MAX bytes), so that even a refusal
   * for speed echoes the message's id. */
  proto_msg msg;
  proto_error err;
  int parsed = proto_parse(text, len, &msg, &err);
  int new_words = (msg.lang[0] && strcmp(msg.lang, c->lang)) ||
                  (msg.deck[0] && strcmp(msg.deck, c->deck));
  if (msg.lang[0])
    memcpy(c->lang, msg.lang, sizeof c->lang);
  if (msg.deck[0])
    memcpy(c->deck, msg.deck, sizeof c->deck);
  int ok = charged ? limits_take(&c->bucket, &srv->conf.limits, now_ms()) : 1;
  if (ok < 0) {
    conn_error(c, msg.id, "too_fast", "closing the connection",
               "chiudo la connessione");
    conn_close_soon(c);
  } else if (ok == 0) {
    conn_error(c, msg.id, "too_fast", "message ignored", "messaggio ignorato");
  } else if (parsed != 0) {
    conn_send_owned(c, proto_error_json(msg.id, &err));
  } else if (lobby_code_limited(c, &msg)) {
    /* answered `limit`: not looked up here nor on another node */
  } else if (!node_own(msg.type) && relay_route(c, &msg, text, len)) {
    /* sent on: its owner answers (a seek stays with its own node) */
  } else if (table_message(c, &msg) == 1 && charged) {
    limits_refund(&c->bucket, &srv->conf.limits);
  } else if (new_words && msg.type == PROTO_PING && c->table) {
    /* the page's language or deck changed: its state again, in them */
    conn_send_owned(c, table_state_json(c->table, c, NULL));
  }
  proto_msg_free(&msg);
}

static int opened(conn *c, int counted) {
  char sha[65];
  account_session_of(c->wsi, sha);
  return relay_conn_open(c, counted, sha);
}

static void closed(conn *c) {
  seek_conn_closed(c);
  table_leave(c);
  relay_conn_closed(c);
  if (c->ccounted)
    relay_conn_close(c->srv, c->addr);
}

static uint64_t table_of(const conn *c, uint64_t *last_batch) {
  *last_batch = c->table ? c->table->last_batch : 0;
  return c->table ? c->table->id : 0;
}

/* The cluster's questions to the tables (relay.h). */
static int here(server *srv, const char *code) {
  return table_find(srv, code) != NULL;
}

static void leases(server *srv,
                   void (*fn)(void *arg, const char *code, long long epoch),
                   void *arg) {
  for (table *t = srv->tables; t; t = t->next)
    if (t->epoch > 0)
      fn(arg, t->code, t->epoch);
}

static void lost(server *srv, const char *code, long long epoch) {
  table *t = table_find(srv, code);
  if (t && t->epoch == epoch)
    table_lost(srv, t);
}

const relay_hooks DISPATCH_RELAY_HOOKS = {.here = here,
                                          .leases = leases,
                                          .lost = lost,
                                          .leave = table_leave,
                                          .greet = account_hello,
                                          .random_code = lobby_random_code};

const conn_hooks DISPATCH_HOOKS = {
    .opened = opened,
    .message = message,
    .closed = closed,
    .flush = relay_out,
    .table_of = table_of,
};

void dispatch_sweep(server *srv, int64_t now) {
  seek_take(srv); /* a wake-up lost to a busy turn is not lost */
  seek_tick(srv, now);
  tourney_take(srv);
  play_sweep(srv, now);
  table_sweep(srv, now);
}
