/*
 * rematch.c -- play again (lichess's rematch): at a finished table a
 * person asks with `rematch`, every other person answers (accept true or
 * false), bots say yes at once; a person whose last connection leaves
 * says no.  When everybody said yes a new table is made with the same
 * rules, clock and seats (people keep their names and player hashes, with
 * new seat tokens), a new seed whose first dealer is the seat after the
 * old game's first dealer, and everybody moves there: a `rematch` message
 * names the new code, each person's connections get `seated` with their
 * new token.  The old table stays finished with its record; its state
 * names the next table ("next").
 *
 * The next table is a new table: it takes one from the table bucket of
 * the address whose yes completes the offer (lobby_create_allowed), the
 * one whose message makes it, whoever asked first; refused with `limit`,
 * that yes is not counted and the offer stays open (issue 32: one
 * address once made 20 tables a second by rematches).
 *
 * What must stay true: an offer is open only at a finished table and only
 * until it starts or someone says no; the new table and its seats are in
 * the store batch before anyone hears of them (server.h, the barrier).
 */
#include "rematch.h"
#include "lobby.h"
#include "moves.h"
#include "offer.h"
#include "relay.h"
#include "views.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A seed whose first dealer is `dealer`: the deals and dealers of a game
 * follow from its seed (scopa.h, scopa_seed_dealer), so the seed alone
 * says who deals first and `scopa replay` needs nothing more.  A fresh
 * seed (64 digits) has the wanted dealer with odds 1/players; 200 tries
 * all fail with odds below 1e-15. */
static int seed_for_dealer(table *n, int dealer) {
  for (int tries = 0; tries < 200; tries++) {
    if (scopa_seed_random(n->seed))
      return -1;
    if (scopa_seed_dealer(n->seed, n->nseats) == dealer)
      return scopa_seed_sha256(n->seed, n->seed_sha256) ? -1 : 0;
  }
  return -1;
}

/* The next table: old's rules, clock and seats, people with new tokens
 * (tokens[i] for seat i), stored in the open batch.  NULL on failure. */
static table *next_table(server *srv, table *old, char tokens[][33]) {
  table *n = table_alloc(srv);
  if (!n)
    return NULL;
  n->rules = old->rules;
  n->away_s = old->away_s;
  n->clock_s = old->clock_s;
  n->bank_s = old->bank_s;
  n->inc_s = old->inc_s;
  n->talk_on = old->talk_on;
  n->nseats = old->nseats;
  int dealer = (scopa_seed_dealer(old->seed, old->nseats) + 1) % old->nseats;
  if (lobby_new_code(srv, n->code) || relay_claim(srv, n->code, &n->epoch) ||
      seed_for_dealer(n, dealer) || !(n->rules_json = strdup(old->rules_json)))
    goto fail;
  store_game g = {.rules_json = n->rules_json,
                  .nseats = n->nseats,
                  .away_s = n->away_s,
                  .clock_s = n->clock_s,
                  .bank_s = n->bank_s,
                  .inc_s = n->inc_s,
                  .talk_on = n->talk_on};
  for (int i = 0; i < n->nseats; i++) {
    seat_info *si = &n->seat[i];
    si->s = old->seat[i].s;
    if (si->s.kind == STORE_PERSON) {
      if (lobby_token(tokens[i]))
        goto fail;
      lobby_sha256_hex(tokens[i], si->s.token_sha256);
    }
    table_seat_defaults(srv, si);
    g.seat[i] = si->s;
  }
  char msg[200];
  if (table_new_match(n, &n->match, msg, sizeof msg))
    goto fail;
  snprintf(g.code, sizeof g.code, "%s", n->code);
  snprintf(g.seed, sizeof g.seed, "%s", n->seed);
  n->last_batch = server_batch(srv);
  writer_add_game(srv->w, n->id, &g, srv->node, n->epoch);
  table_set_status(n);
  if (table_insert(srv, n))
    goto fail;
  return n;
fail:
  table_free(n);
  return NULL;
}

/* c leaves old quietly (no state goes out: everybody is moving) and
 * sits at n. */
static void move_conn(conn *c, table *old, table *n) {
  int seat = c->seat;
  table_unlink_conn(c);
  if (seat >= 0 && --old->seat[seat].nconns == 0)
    old->seat[seat].away_since_ms = now_ms();
  if (old->nconns == 0)
    old->empty_since_ms = now_ms();
  c->seat = -1;
  lobby_attach(c, n, seat);
}

/* Everybody said yes: the next table, and everybody moves there. */
static int start(conn *asker, table *old, const json_t *id) {
  server *srv = asker->srv;
  char tokens[PROTO_MAX_SEATS][33] = {{0}};
  table *n = next_table(srv, old, tokens);
  if (!n)
    return conn_error(asker, id, "server", "no new table could be made",
                      "non si è potuto fare un nuovo tavolo");
  snprintf(old->next_code, sizeof old->next_code, "%s", n->code);
  offer_close(old);
  char *note = proto_finish(json_pack("{s:s, s:s, s:s}", "type", "rematch",
                                      "code", old->code, "next", n->code),
                            NULL);
  table_send_all(old, note);
  free(note);
  while (old->conns) {
    conn *c = old->conns;
    int seat = c->seat;
    move_conn(c, old, n);
    if (seat >= 0)
      conn_send_owned(c, proto_seated(c == asker ? id : NULL, n->code, seat,
                                      tokens[seat], ""));
  }
  table_broadcast(n, NULL, NULL);
  play_kick(srv, n);
  return 0;
}

static int all_yes(const table *t) {
  for (int i = 0; i < t->nseats; i++)
    if (!t->rematch_yes[i])
      return 0;
  return 1;
}

/* Whether seat's yes would complete the offer (open or about to be). */
static int completes(const table *t, int seat) {
  for (int i = 0; i < t->nseats; i++)
    if (i != seat && !(t->rematch_asked ? t->rematch_yes[i]
                                        : t->seat[i].s.kind != STORE_PERSON))
      return 0;
  return 1;
}

int rematch_answer(conn *c, const proto_msg *msg) {
  table *t = c->table;
  if (!t || c->seat < 0)
    return conn_error(c, msg->id, "not_seated", "", "");
  if (t->status != T_FINISHED)
    return conn_error(c, msg->id, "not_over", t->code, t->code);
  if (t->tourney[0]) /* the director seats the next game */
    return conn_error(c, msg->id, "bad_message",
                      "a tournament's game has no rematch",
                      "una partita di torneo non ha rivincita");
  if (t->next_code[0]) /* it started: that connection is already there */
    return conn_error(c, msg->id, "not_over", t->next_code, t->next_code);
  if (!msg->accept) {
    if (t->rematch_asked) {
      offer_close(t);
      offer_notice(t, "rematch_declined", c->seat);
    }
    table_broadcast(t, c, msg->id);
    return 0;
  }
  if (completes(t, c->seat) && !lobby_create_allowed(c, msg->id))
    return 0; /* nothing changed: the offer as it was */
  if (!t->rematch_asked) {
    t->rematch_asked = 1;
    for (int i = 0; i < t->nseats; i++) /* bots and taken seats: yes */
      t->rematch_yes[i] = t->seat[i].s.kind != STORE_PERSON;
    offer_notice(t, "rematch_offered", c->seat);
  }
  t->rematch_yes[c->seat] = 1;
  if (all_yes(t))
    return start(c, t, msg->id);
  table_broadcast(t, c, msg->id);
  return 0;
}
