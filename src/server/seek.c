/*
 * seek.c -- Play now on the loop (seek.h).  Each seek of this node is an
 * entry in srv->seeks, tied to its connection (one seek per connection:
 * a new one replaces the old), and a row in the store that the pairer
 * writes.  What a seek asks is its key: the SHA-256 of the checked
 * rules (as a record has them) and of the clock object with the
 * table's defaults filled in, so that only the same game at the same
 * clock is paired, whatever spelling each client used.
 */
#include "seek.h"

#include "lobby.h"
#include "pairer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct seek_entry {
  char id[33];
  conn *c;
  int64_t since_ms;
  double rating; /* read by the pairer; PAIRER_GUEST until then */
  int offered;
  int players;
  json_t *rules; /* the checked rules, for the answers        */
  json_t *clock; /* the clock asked, the defaults filled in   */
  char name[PROTO_NAME_MAX + 1];
  char player[PROTO_TOKEN_MAX + 1];
  struct seek_entry *next, *prev;
};

const char *seek_offer_level(double rating) {
  return rating < 1350   ? "principiante"
         : rating < 1600 ? "intermedio"
         : rating < 1800 ? "esperto"
                         : "campione";
}

static void unlink_entry(server *srv, seek_entry *e) {
  if (e->prev)
    e->prev->next = e->next;
  else
    srv->seeks = e->next;
  if (e->next)
    e->next->prev = e->prev;
  srv->nseeks--;
  if (e->c)
    e->c->seek = NULL;
  json_decref(e->rules);
  json_decref(e->clock);
  free(e);
}

/* c's seek withdrawn: its row goes. */
static void withdraw(conn *c) {
  seek_entry *e = c->seek;
  if (!e)
    return;
  pairer_drop(c->srv->pairer, e->id);
  unlink_entry(c->srv, e);
}

/* The `seeking` message: what is sought, and a bot offered once due. */
static char *seeking_json(const seek_entry *e, const json_t *id, int64_t now) {
  json_t *o =
      json_pack("{s:s, s:O, s:O, s:i, s:I, s:i}", "type", "seeking", "rules",
                e->rules, "clock", e->clock, "players", e->players, "waited",
                (json_int_t)((now - e->since_ms) / 1000), "offer_after",
                e->c->srv->conf.seek_offer_s);
  if (o)
    json_object_set_new(o, "offer",
                        e->offered ? json_string(seek_offer_level(e->rating))
                                   : json_null());
  return proto_finish(o, id);
}

/* The clock asked, with the table's defaults where it says nothing. */
static json_t *clock_of(const conn *c, const proto_msg *msg) {
  json_t *clock = msg->clock ? json_deep_copy(msg->clock) : json_object();
  if (!clock)
    return NULL;
  json_object_set_new(
      clock, "move_clock",
      json_integer(msg->clock_s >= 0 ? msg->clock_s : c->srv->conf.clock_s));
  json_object_set_new(
      clock, "away_timeout",
      json_integer(msg->away_s >= 0 ? msg->away_s : c->srv->conf.away_s));
  if (msg->bank_s > 0) { /* the bank replaces the move clock */
    json_object_set_new(clock, "move_clock", json_integer(0));
    json_object_set_new(clock, "increment",
                        json_integer(msg->inc_s > 0 ? msg->inc_s : 0));
  }
  return clock;
}

int seek_start(conn *c, const proto_msg *msg) {
  server *srv = c->srv;
  scopa_rules rules;
  proto_error err;
  if (proto_seek_check(msg, &rules, &err)) {
    conn_send_owned(c, proto_error_json(msg->id, &err));
    return 0;
  }
  withdraw(c); /* one seek per connection: the new one replaces it */
  if (srv->nseeks >= SEEK_MAX)
    return conn_error(c, msg->id, "limit", "too many people seek a game now",
                      "troppe persone cercano una partita ora");
  seek_entry *e = calloc(1, sizeof *e);
  char *rules_json = scopa_rules_to_json(&rules);
  json_t *clock = clock_of(c, msg);
  char *clock_text =
      clock ? json_dumps(clock, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
  char *both = NULL;
  store_seek s = {
      .players = rules.players,
      .away_s = (int)json_integer_value(json_object_get(clock, "away_timeout")),
      .clock_s = (int)json_integer_value(json_object_get(clock, "move_clock")),
      .bank_s = msg->bank_s > 0 ? msg->bank_s : 0,
      .inc_s = msg->bank_s > 0 && msg->inc_s > 0 ? msg->inc_s : 0,
      .account = c->account,
      .rules_json = rules_json};
  if (e && rules_json && clock_text &&
      (both = malloc(strlen(rules_json) + strlen(clock_text) + 2))) {
    sprintf(both, "%s\n%s", rules_json, clock_text);
    lobby_sha256_hex(both, s.key);
  }
  if (e && rules_json)
    e->rules = json_loads(rules_json, 0, NULL);
  int ok = e && both && e->rules && s.key[0] && lobby_token(s.id) == 0;
  if (ok) {
    e->since_ms = now_ms();
    struct timespec ts; /* the cluster's clock, as the pairer's */
    clock_gettime(CLOCK_REALTIME, &ts);
    s.since_ms = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    ok = pairer_add(srv->pairer, &s) == 0;
  }
  free(rules_json);
  free(clock_text);
  free(both);
  if (!ok) {
    json_decref(clock);
    if (e)
      json_decref(e->rules);
    free(e);
    return conn_error(c, msg->id, "server", "the seek could not be kept",
                      "non si è potuta tenere la ricerca");
  }
  snprintf(e->id, sizeof e->id, "%s", s.id);
  e->c = c;
  e->clock = clock;
  e->players = rules.players;
  e->rating = PAIRER_GUEST;
  snprintf(e->name, sizeof e->name, "%s", msg->name);
  snprintf(e->player, sizeof e->player, "%s", msg->player);
  e->next = srv->seeks;
  if (srv->seeks)
    srv->seeks->prev = e;
  srv->seeks = e;
  srv->nseeks++;
  c->seek = e;
  conn_send_owned(c, seeking_json(e, msg->id, e->since_ms));
  return 0;
}

int seek_stop(conn *c, const proto_msg *msg) {
  withdraw(c);
  conn_send_owned(
      c, proto_finish(json_pack("{s:s}", "type", "unseeked"), msg->id));
  return 0;
}

void seek_conn_closed(conn *c) { withdraw(c); }

static seek_entry *find(server *srv, const char *id) {
  for (seek_entry *e = srv->seeks; e; e = e->next)
    if (strcmp(e->id, id) == 0)
      return e;
  return NULL;
}

/* e is paired at table code: told, then seated by a join of it made on
 * its behalf (dispatch's path: the relay, the code's budget, the join). */
static void seat(server *srv, seek_entry *e, const char *code) {
  conn *c = e->c;
  json_t *join = json_pack("{s:s, s:s}", "type", "join", "code", code);
  if (join && e->name[0])
    json_object_set_new(join, "name", json_string(e->name));
  if (join && e->player[0])
    json_object_set_new(join, "player", json_string(e->player));
  char *text = join ? json_dumps(join, JSON_COMPACT) : NULL;
  json_decref(join);
  unlink_entry(srv, e);
  conn_send_owned(
      c, proto_finish(json_pack("{s:s, s:s}", "type", "paired", "code", code),
                      NULL));
  if (!text) {
    conn_error(c, NULL, "server", "no memory to seat you",
               "non c'è memoria per farti sedere");
    return;
  }
  srv->hooks->message(c, text, strlen(text), 0);
  free(text);
}

void seek_take(server *srv) {
  pairer_news news[64];
  int n;
  if (!srv->pairer)
    return;
  while ((n = pairer_take(srv->pairer, news, 64)) > 0)
    for (int i = 0; i < n; i++) {
      seek_entry *e = find(srv, news[i].id);
      if (!e)
        continue; /* withdrawn meanwhile */
      if (news[i].code[0])
        seat(srv, e, news[i].code);
      else
        e->rating = news[i].rating;
    }
}

void seek_tick(server *srv, int64_t now) {
  for (seek_entry *e = srv->seeks; e; e = e->next)
    if (!e->offered &&
        now - e->since_ms >= (int64_t)srv->conf.seek_offer_s * 1000) {
      e->offered = 1;
      conn_send_owned(e->c, seeking_json(e, NULL, now));
    }
}
