/*
 * tourney_lobby.c -- tournaments on the loop (tourney_lobby.h).
 */
#include "tourney_lobby.h"

#include "lobby.h"
#include "tourneys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A request of c's to the thread; answered when it comes back. */
static int ask(conn *c, const proto_msg *msg, int op, const char *what,
               const char *what_it) {
  server *srv = c->srv;
  if (c->account <= 0)
    return conn_error(c, msg->id, "sign_in", what, what_it);
  tourneys_req r = {.op = op, .serial = c->serial, .account = c->account};
  snprintf(r.name, sizeof r.name, "%s", c->account_name);
  snprintf(r.id, sizeof r.id, "%s", msg->code);
  if (op == TQ_JOIN) /* a Scopone pair's partner, or "" */
    snprintf(r.partner, sizeof r.partner, "%s", msg->partner);
  scopa_rules rules;
  proto_error err;
  int failed = 0;
  if (op == TQ_CREATE) {
    if (proto_seek_check(msg, &rules, &err)) { /* the rules as a seek's */
      conn_send_owned(c, proto_error_json(msg->id, &err));
      return 0;
    }
    if (!lobby_create_allowed(c, msg->id)) /* the tables' budget */
      return 0;
    r.rules_json = scopa_rules_to_json(&rules);
    r.body = json_dumps(msg->body, JSON_COMPACT);
    failed = !r.rules_json || !r.body;
  } else {
    int retry_ms = 0; /* unknown ids are limited as unknown codes are */
    if (!limits_code_check(srv->addrs, &srv->conf.limits, c->addr, now_ms(),
                           &retry_ms))
      return conn_error(c, msg->id, "limit", "too many unknown tournaments",
                        "troppi tornei sconosciuti");
  }
  if (msg->id && !failed)
    failed = !(r.echo = json_dumps(msg->id, JSON_COMPACT | JSON_ENCODE_ANY));
  if (!failed)
    failed = !srv->tourneys || tourneys_ask(srv->tourneys, &r) != 0;
  free(r.rules_json);
  free(r.body);
  free(r.echo);
  if (failed)
    return conn_error(c, msg->id, "busy", "tournaments", "tornei");
  return 0;
}

int tourney_create(conn *c, const proto_msg *msg) {
  return ask(c, msg, TQ_CREATE, "run a tournament", "creare un torneo");
}

int tourney_join(conn *c, const proto_msg *msg) {
  return ask(c, msg, TQ_JOIN, "play in a tournament", "giocare un torneo");
}

int tourney_leave(conn *c, const proto_msg *msg) {
  return ask(c, msg, TQ_LEAVE, "leave a tournament", "lasciare un torneo");
}

int tourney_start(conn *c, const proto_msg *msg) {
  return ask(c, msg, TQ_START, "start a tournament", "avviare un torneo");
}

/* c is to sit at table `code` of a tournament: a join made for it. */
static void seat(conn *c, const char *code) {
  if (c->table && strcmp(c->table->code, code) == 0 && c->seat >= 0)
    return; /* there already */
  char text[64 + PROTO_CODE_MAX];
  int n = snprintf(text, sizeof text, "{\"type\":\"join\",\"code\":\"%s\"}",
                   code); /* a code is letters and digits (director.c) */
  c->srv->hooks->message(c, text, (size_t)n, 0);
}

void tourney_where(conn *c) {
  tourneys_req r = {.op = TQ_WHERE, .serial = c->serial, .account = c->account};
  if (c->account > 0 && !c->remote && c->srv->tourneys)
    tourneys_ask(c->srv->tourneys, &r); /* lost when full: the page's
                                           list still shows the table */
}

static void news(server *srv, tourneys_news *n) {
  if (n->serial && !n->text) { /* a table in play, for one connection */
    for (conn *c = srv->all; c; c = c->anext)
      if (c->serial == n->serial && c->wsi && c->account > 0 &&
          director_table_has(&n->table, c->account)) {
        if (!n->table.rated)
          table_unrated(srv, n->table.code);
        seat(c, n->table.code);
        return;
      }
    return;
  }
  if (n->serial) {
    for (conn *c = srv->all; c; c = c->anext)
      if (c->serial == n->serial && c->wsi) {
        if (n->miss)
          limits_code_miss(srv->addrs, &srv->conf.limits, c->addr, now_ms());
        conn_send_owned(c, n->text);
        return;
      }
    free(n->text); /* it closed meanwhile */
    return;
  }
  if (!n->table.rated)
    table_unrated(srv, n->table.code);
  /* Every connection of the table's accounts (listed first: a join may
   * add to or reorder nothing of srv->all, but stays on the safe side). */
  conn *to[64];
  int k = 0;
  for (conn *c = srv->all; c && k < 64; c = c->anext)
    if (!c->remote && c->wsi && c->account > 0 &&
        director_table_has(&n->table, c->account))
      to[k++] = c;
  for (int i = 0; i < k; i++)
    seat(to[i], n->table.code);
}

void tourney_take(server *srv) {
  tourneys_news got[64];
  int n;
  if (!srv->tourneys)
    return;
  while ((n = tourneys_take(srv->tourneys, got, 64)) > 0)
    for (int i = 0; i < n; i++)
      news(srv, &got[i]);
}
