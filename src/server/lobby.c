/*
 * lobby.c -- sitting down and leaving: the handlers of create, join,
 * resume and watch (the message table, proto.h), seats and their tokens,
 * the rules and seats a create asks for, and a connection joining or
 * leaving a table's list.  A create's seats and rules are checked by
 * proto_create_check, as the browser's local table checks them.
 *
 * What must stay true: a seat's token is kept only as its SHA-256 (the
 * database never holds one); one connection takes at most one seat of a
 * table (seat_info.taken_by); a person's answer `seated` goes out only
 * with the seat stored in the open batch (server.h, the barrier).
 */
#include "lobby.h"
#include "moves.h"
#include "offer.h"
#include "relay.h"
#include "talk.h"
#include "views.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

/* ------------------------------------------------------------------ */
/* Tokens and codes                                                    */
/* ------------------------------------------------------------------ */

static const char CODE_LETTERS[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
/* New codes: 10 of the 32 letters, 50 bits (docs/serve.md "Table codes":
 * against the per-address budget of unknown codes, guessing one of 5,000
 * waiting tables is hopeless).  Codes of 6, made before, still work: the
 * store and the routes take any code up to PROTO_CODE_MAX. */
#define CODE_LEN 10
_Static_assert(CODE_LEN <= PROTO_CODE_MAX, "a code fits the protocol");

static int random_bytes(unsigned char *buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = getrandom(buf + got, n - got, 0);
    if (r <= 0)
      return -1;
    got += (size_t)r;
  }
  return 0;
}

/* 32 hex digits (128 bits) from the operating system. */
int lobby_token(char out[33]) {
  unsigned char b[16];
  if (random_bytes(b, sizeof b))
    return -1;
  for (int i = 0; i < 16; i++)
    snprintf(out + 2 * i, 3, "%02x", b[i]);
  return 0;
}

/* Tokens are kept only as their SHA-256, so the database never holds a
 * working token. */
void lobby_sha256_hex(const char *text, char out[65]) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  out[0] = 0;
  if (!EVP_Digest(text, strlen(text), md, &n, EVP_sha256(), NULL))
    return;
  for (unsigned i = 0; i < n && i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", md[i]);
}

void lobby_attach(conn *c, table *t, int seat) {
  table_leave(c);
  c->table = t;
  c->seat = seat;
  c->tprev = NULL;
  c->tnext = t->conns;
  if (t->conns)
    t->conns->tprev = c;
  t->conns = c;
  t->nconns++;
  if (seat >= 0) {
    seat_info *si = &t->seat[seat];
    si->nconns++;
    if (t->status == T_PLAYING && scopa_match_to_play(t->match) == seat)
      t->turn_since_ms = now_ms(); /* the move clock starts on return */
    if (si->taken_over) {
      si->taken_over = 0;
      char *note = proto_notice("seat_back", seat, si->s.name);
      table_send_all(t, note);
      free(note);
    }
  }
}

void table_leave(conn *c) {
  table *t = c->table;
  if (!t)
    return;
  table_unlink_conn(c);
  int64_t now = now_ms();
  if (t->nconns == 0)
    t->empty_since_ms = now;
  if (c->seat < 0)
    table_broadcast(t, NULL, NULL); /* one spectator fewer */
  if (c->seat >= 0) {
    seat_info *si = &t->seat[c->seat];
    if (--si->nconns == 0) {
      si->away_since_ms = now;
      if (t->status == T_FINISHED)
        offer_left(t, c->seat); /* broadcasts */
      else
        table_broadcast(t, NULL, NULL); /* the others see the seat away */
    }
  }
  c->seat = -1;
}

/* Seats a person at seat i with a new token, stored in the open batch. */
static int seat_person(conn *c, table *t, int i, const proto_msg *msg,
                       char token[33], char player[33]) {
  server *srv = c->srv;
  seat_info *si = &t->seat[i];
  if (lobby_token(token))
    return -1;
  if (msg->player[0])
    snprintf(player, 33, "%.32s", msg->player);
  else if (lobby_token(player))
    return -1;
  si->s.kind = STORE_PERSON;
  si->taken_by = c->serial;
  si->s.account = c->account;
  if (c->account) /* signed in: the account's name, whatever was sent */
    snprintf(si->s.name, sizeof si->s.name, "%s", c->account_name);
  else if (msg->name[0])
    snprintf(si->s.name, sizeof si->s.name, "%s", msg->name);
  else
    proto_default_name(i, c->lang, si->s.name, sizeof si->s.name);
  lobby_sha256_hex(token, si->s.token_sha256);
  if (c->account)
    snprintf(si->s.player, sizeof si->s.player, "a:%lld", c->account);
  else
    lobby_sha256_hex(player, si->s.player);
  t->last_batch = server_batch(srv);
  writer_set_seat(srv->w, t->id, t->code, i, &si->s, srv->node, t->epoch);
  return 0;
}

static void answer_seated(conn *c, table *t, int seat, const json_t *id,
                          const char *token, const char *player) {
  conn_send_owned(c, proto_seated(id, t->code, seat, token, player));
  talk_send_log(c); /* what was said before it sat (or came back) */
}

int lobby_random_code(char code[PROTO_CODE_MAX + 1]) {
  unsigned char b[CODE_LEN];
  if (random_bytes(b, sizeof b))
    return -1;
  for (int i = 0; i < CODE_LEN; i++)
    code[i] = CODE_LETTERS[b[i] % 32]; /* 256 = 8 x 32: no bias */
  code[CODE_LEN] = 0;
  return 0;
}

int lobby_new_code(server *srv, char code[PROTO_CODE_MAX + 1]) {
  if (relay_fresh_code(srv, code) == 0 && !table_find(srv, code))
    return 0; /* the courier's: unused in the store, its lease taken */
  if (srv->relay)
    return -1; /* none (the database away): never asked on the loop */
  for (int attempt = 0; attempt < 20; attempt++) {
    if (lobby_random_code(code))
      return -1;
    if (!table_find(srv, code) && store_has_code(srv->st, code) == 0)
      return 0;
  }
  return -1;
}

int lobby_create_allowed(conn *c, const json_t *id) {
  server *srv = c->srv;
  int allowed =
      limits_table_create(srv->addrs, &srv->conf.limits, c->addr, now_ms());
  if (allowed == LIMITS_COUNTED && /* and on every node together */
      relay_table_create(srv, c->addr) == LIMITS_REFUSED)
    allowed = LIMITS_REFUSED;
  if (allowed == LIMITS_REFUSED) {
    conn_error(c, id, "limit", "too many new tables", "troppi tavoli nuovi");
    return 0;
  }
  if (allowed == LIMITS_UNCOUNTED)
    server_limits_full(srv, c->addr);
  return 1;
}

int lobby_code_limited(conn *c, const proto_msg *msg) {
  int retry_ms = 0;
  if (c->remote || (msg->type != PROTO_JOIN && msg->type != PROTO_RESUME &&
                    msg->type != PROTO_WATCH))
    return 0; /* a relayed client was checked on its own node */
  if (limits_code_check(c->srv->addrs, &c->srv->conf.limits, c->addr, now_ms(),
                        &retry_ms))
    return 0;
  conn_error(c, msg->id, "limit", "too many unknown table codes",
             "troppi codici di tavolo sconosciuti");
  return 1;
}

/* The error for a code that table_get did not find; a miss of the
 * address's budget when there is no such table. */
static int no_table(conn *c, const proto_msg *msg, const char *fault) {
  if (strcmp(fault, "no_table") == 0)
    limits_code_miss(c->srv->addrs, &c->srv->conf.limits, c->addr, now_ms());
  return conn_error(c, msg->id, fault, msg->code, msg->code);
}

int lobby_create(conn *c, const proto_msg *msg) {
  server *srv = c->srv;
  char detail[256] = "", token[33], player[33];
  int me;
  scopa_rules rules;
  proto_error err;
  if (proto_create_check(msg, &me, &rules, &err)) { /* as the page's own */
    conn_send_owned(c, proto_error_json(msg->id, &err));
    return 0;
  }
  if (!lobby_create_allowed(c, msg->id))
    return 0;
  table *t = table_alloc(srv);
  if (!t || lobby_new_code(srv, t->code) ||
      relay_claim(srv, t->code, &t->epoch) || scopa_seed_random(t->seed) ||
      scopa_seed_sha256(t->seed, t->seed_sha256) ||
      !(t->rules_json = scopa_rules_to_json(&rules))) {
    if (t)
      table_free(t);
    return conn_error(c, msg->id, "server", "no table could be made",
                      "non si è potuto fare il tavolo");
  }
  t->rules = rules;
  t->away_s = msg->away_s >= 0 ? msg->away_s : srv->conf.away_s;
  t->clock_s = msg->clock_s >= 0 ? msg->clock_s : srv->conf.clock_s;
  if (msg->bank_s > 0) { /* the bank replaces the move clock */
    t->bank_s = msg->bank_s;
    t->inc_s = msg->inc_s > 0 ? msg->inc_s : 0;
    t->clock_s = 0;
  }
  t->talk_on = talk_default(msg);
  t->nseats = msg->nseats;
  for (int i = 0; i < t->nseats; i++) {
    store_seat *s = &t->seat[i].s;
    s->kind = strcmp(msg->seats[i], "open") == 0 ? STORE_OPEN : STORE_BOT;
    if (s->kind == STORE_BOT) {
      snprintf(s->bot, sizeof s->bot, "%s", msg->seats[i]);
      snprintf(s->name, sizeof s->name, "%s", msg->seats[i]);
    }
    table_seat_defaults(srv, &t->seat[i]);
  }
  store_game g = {.rules_json = t->rules_json,
                  .nseats = t->nseats,
                  .away_s = t->away_s,
                  .clock_s = t->clock_s,
                  .bank_s = t->bank_s,
                  .inc_s = t->inc_s,
                  .talk_on = t->talk_on,
                  .listed = msg->listed};
  snprintf(g.code, sizeof g.code, "%s", t->code);
  snprintf(g.seed, sizeof g.seed, "%s", t->seed);
  for (int i = 0; i < t->nseats; i++)
    g.seat[i] = t->seat[i].s;
  t->last_batch = server_batch(srv);
  writer_add_game(srv->w, t->id, &g, srv->node, t->epoch);
  if (seat_person(c, t, me, msg, token, player) ||
      table_new_match(t, &t->match, detail, sizeof detail)) {
    table_free(t);
    return conn_error(c, msg->id, "server", "the table could not be stored",
                      "non si è potuto salvare il tavolo");
  }
  table_set_status(t);
  if (table_insert(srv, t)) { /* stored: it loads when asked for */
    table_free(t);
    return conn_error(c, msg->id, "server", "no memory for the table",
                      "non c'è memoria per il tavolo");
  }
  lobby_attach(c, t, me);
  answer_seated(c, t, me, msg->id, token, player);
  table_broadcast(t, NULL, NULL);
  play_kick(srv, t);
  return 0;
}

/* A tournament's table keeps a seat for each of its accounts (director.c):
 * the seat of c's, or -1. */
static int reserved_seat(const conn *c, const table *t) {
  if (!t->tourney[0] || c->account <= 0)
    return -1;
  for (int i = 0; i < t->nseats; i++)
    if (t->seat[i].s.kind == STORE_PERSON && t->seat[i].s.account == c->account)
      return i;
  return -1;
}

/* c takes its account's seat i, with a new token (any connection of the
 * account may; one that came earlier comes back by its account: resume).
 * The match was dealt with every name: it goes on as it is. */
static int take_reserved(conn *c, table *t, int i, const proto_msg *msg) {
  char token[33], player[33];
  if (seat_person(c, t, i, msg, token, player))
    return conn_error(c, msg->id, "server", "the seat could not be stored",
                      "non si è potuto salvare il posto");
  lobby_attach(c, t, i);
  answer_seated(c, t, i, msg->id, token, player);
  table_broadcast(t, NULL, NULL);
  play_kick(c->srv, t);
  return 0;
}

int lobby_join(conn *c, const proto_msg *msg) {
  const char *fault = "no_table";
  table *t = table_get(c->srv, msg->code, &fault);
  char token[33], player[33], detail[256];
  if (!t)
    return no_table(c, msg, fault);
  /* One seat per connection: not a second one of this table, even after
   * a detour to watch another (a token still gives a seat back: resume). */
  for (int k = 0; k < t->nseats; k++)
    if ((c->table == t && c->seat >= 0) ||
        (t->seat[k].s.kind == STORE_PERSON && t->seat[k].taken_by == c->serial))
      return conn_error(c, msg->id, "already_seated", t->code, t->code);
  int reserved = reserved_seat(c, t);
  if (reserved >= 0)
    return take_reserved(c, t, reserved, msg);
  int i = 0;
  while (i < t->nseats && t->seat[i].s.kind != STORE_OPEN)
    i++;
  if (i == t->nseats)
    return conn_error(c, msg->id, "table_full", t->code, t->code);
  scopa_match *m = NULL;
  if (seat_person(c, t, i, msg, token, player) ||
      table_new_match(t, &m, detail, sizeof detail)) {
    t->seat[i].s.kind = STORE_OPEN;
    return conn_error(c, msg->id, "server", "the seat could not be stored",
                      "non si è potuto salvare il posto");
  }
  /* Nobody has played while a seat was open: the match is dealt again
   * from the same seed with the new name. */
  scopa_match_free(t->match);
  t->match = m;
  table_set_status(t);
  t->turn_since_ms = now_ms();
  lobby_attach(c, t, i);
  answer_seated(c, t, i, msg->id, token, player);
  table_broadcast(t, NULL, NULL);
  play_kick(c->srv, t);
  return 0;
}

int lobby_resume(conn *c, const proto_msg *msg) {
  const char *fault = "no_table";
  table *t = table_get(c->srv, msg->code, &fault);
  char hash[65];
  if (!t)
    return no_table(c, msg, fault);
  lobby_sha256_hex(msg->token, hash);
  int i = 0;
  while (i < t->nseats && (t->seat[i].s.kind != STORE_PERSON ||
                           strcmp(t->seat[i].s.token_sha256, hash) != 0))
    i++;
  if (i == t->nseats && (i = reserved_seat(c, t)) >= 0)
    return take_reserved(c, t, i, msg); /* a tournament's: by the account */
  if (i < 0 || i == t->nseats)
    return conn_error(c, msg->id, "bad_token", t->code, t->code);
  lobby_attach(c, t, i);
  answer_seated(c, t, i, msg->id, msg->token, "");
  table_broadcast(t, NULL, NULL);
  play_kick(c->srv, t);
  return 0;
}

int lobby_watch(conn *c, const proto_msg *msg) {
  const char *fault = "no_table";
  table *t = table_get(c->srv, msg->code, &fault);
  if (!t)
    return no_table(c, msg, fault);
  if (t->tourney[0] == 'D') /* the same deals as other tables: sealed */
    return conn_error(c, msg->id, "sealed", t->code, t->code);
  snprintf(c->name, sizeof c->name, "%s", msg->name);
  lobby_attach(c, t, -1);
  table_broadcast(t, c, msg->id); /* the players see who is watching */
  play_kick(c->srv, t);           /* loaded for it: a bot may be to play */
  return 0;
}
