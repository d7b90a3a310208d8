/*
 * views.c -- what each connection of a table is shown, and who is there.
 *
 * The one place where a recipient's view is built is table_state_obj,
 * on proto_state (shared with the browser's local table, src/wasm): the
 * library's view for that seat (scopa_match_view_json: the seat's own
 * cards, the table, the cards played, nothing else) plus the seat's hand
 * and legal moves for that seat only, and for a spectator the public view
 * (seat -1).  Nothing else in the server writes cards.
 */
#include "views.h"
#include "rating.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Views                                                               */
/* ------------------------------------------------------------------ */

static const char *const STATUS[] = {"waiting", "playing", "finished"};

/* CONTRACTS.md's three values; an open seat (nobody yet) reads "away"
 * and its name "", and the "open" list says which seats those are. */
static const char *presence_of(const table *t, int i) {
  const seat_info *si = &t->seat[i];
  if (si->s.kind == STORE_BOT || si->taken_over)
    return "bot";
  return si->s.kind == STORE_PERSON && si->nconns > 0 ? "here" : "away";
}

/* seats, presence, and for away people (extensions): "away_for", the
 * seconds since they left, and "away_seconds", the seconds left before a
 * bot plays for them (null when no such count runs). */
static void add_seats(json_t *o, const table *t) {
  json_t *names = json_array(), *presence = json_array(), *open = json_array(),
         *away_for = json_array(), *left = json_array();
  int64_t now = now_ms();
  for (int i = 0; i < t->nseats; i++) {
    const seat_info *si = &t->seat[i];
    int away = si->s.kind == STORE_PERSON && si->nconns == 0;
    int64_t gone = (now - si->away_since_ms) / 1000;
    int64_t rest = t->away_s - gone;
    json_array_append_new(names, json_string(si->s.name));
    json_array_append_new(presence, json_string(presence_of(t, i)));
    json_array_append_new(open, json_boolean(si->s.kind == STORE_OPEN));
    json_array_append_new(away_for, away ? json_integer(gone) : json_null());
    json_array_append_new(left,
                          away && !si->taken_over && t->status == T_PLAYING
                              ? json_integer(rest > 0 ? rest : 0)
                              : json_null());
  }
  json_object_set_new(o, "seats", names);
  json_object_set_new(o, "presence", presence);
  json_object_set_new(o, "open", open);
  json_object_set_new(o, "away_for", away_for);
  json_object_set_new(o, "away_seconds", left);
}

/* The move clock ("move_clock": seconds per move, 0 for none;
 * "clock_left": the seconds left to the seat to play, null when no clock
 * runs), the time bank's ("bank" and "increment": its seconds, 0 for
 * none; "bank_ms": every seat's time left, ms, on a bank table, and
 * "bank_wait_ms" how long before the seat to play's starts to run; "clock_left"
 * then the bank of the seat to play) and play again
 * ("rematch": null, or who said yes, seat by seat, once someone asked; "next":
 * the next table's code once it started); and whether the table talks
 * ("talk", talk.c). */
static void add_clock_and_rematch(json_t *o, const table *t) {
  int left = table_clock_left(t, now_ms());
  json_object_set_new(o, "move_clock", json_integer(t->clock_s));
  json_object_set_new(o, "clock_left",
                      left >= 0 ? json_integer(left) : json_null());
  json_object_set_new(o, "bank", json_integer(t->bank_s));
  json_object_set_new(o, "talk", json_boolean(t->talk_on));
  json_object_set_new(o, "increment", json_integer(t->inc_s));
  int64_t banks[PROTO_MAX_SEATS];
  if (table_banks(t, banks)) {
    json_t *a = json_array();
    for (int i = 0; i < t->nseats; i++)
      json_array_append_new(a, json_integer(banks[i]));
    json_object_set_new(o, "bank_ms", a);
    json_object_set_new(
        o, "bank_wait_ms",
        json_integer(t->status == T_PLAYING ? table_bank_wait_ms(t) : 0));
  }
  json_t *yes = json_null();
  if (t->rematch_asked) {
    yes = json_array();
    for (int i = 0; i < t->nseats; i++)
      json_array_append_new(yes, json_boolean(t->rematch_yes[i]));
  }
  json_object_set_new(o, "rematch", yes);
  json_object_set_new(
      o, "next", t->next_code[0] ? json_string(t->next_code) : json_null());
}

/* Who is watching: "watching": {"count": N, "names": [...]}, the names
 * the spectators gave with watch (at most WATCH_NAMES of them; the
 * nameless are only counted). */
#define WATCH_NAMES 12
static void add_watching(json_t *o, const table *t) {
  json_t *names = json_array();
  int count = 0;
  for (const conn *c = t->conns; c; c = c->tnext) {
    if (c->seat >= 0)
      continue;
    count++;
    if (c->name[0] && json_array_size(names) < WATCH_NAMES)
      json_array_append_new(names, json_string(c->name));
  }
  json_object_set_new(o, "watching",
                      json_pack("{s:i, s:o}", "count", count, "names", names));
}

/* A finished game's result, for whoever opens it later and never saw
 * its game_over: "totals" (every side's final points) and "winner" (the
 * side, or null).  "scores" stays what a scopa engine request has: the
 * totals before the last round. */
static void add_result(json_t *o, const table *t) {
  const scopa_tally *tally = scopa_match_tally(t->match);
  json_t *totals = json_array();
  for (int i = 0; i < tally->sides; i++)
    json_array_append_new(totals, json_integer(tally->totals[i]));
  json_object_set_new(o, "totals", totals);
  json_object_set_new(o, "winner",
                      tally->winner >= 0 ? json_integer(tally->winner)
                                         : json_null());
}

/* The state object for one recipient: seat 0..n-1, or -1 watching. */
static json_t *table_state_obj(const table *t, int seat) {
  int to_play = t->status == T_PLAYING ? scopa_match_to_play(t->match) : -1;
  json_t *o = proto_state(t->match, t->code, seat, to_play);
  if (!o)
    return NULL;
  json_object_set_new(o, "status", json_string(STATUS[t->status]));
  add_seats(o, t);
  add_clock_and_rematch(o, t);
  add_watching(o, t);
  json_object_set_new(o, "seed_sha256", json_string(t->seed_sha256));
  json_object_set_new(o, "hints", json_boolean(table_hints_allowed(t)));
  json_object_set_new(o, "rated", json_boolean(table_rated(t)));
  json_object_set_new(o, "tournament",
                      t->tourney[0] ? json_string(t->tourney) : json_null());
  if (t->status == T_FINISHED)
    add_result(o, t);
  return o;
}

char *table_state_json(const table *t, const conn *c, const json_t *id) {
  json_t *o = table_state_obj(t, c->seat);
  if (o)
    proto_add_words(o, c->lang, c->deck);
  return proto_finish(o, id);
}

/* A state to every connection of the table, each its own; `to` gets the
 * id of the message it answers.  One view built per seat and reader's
 * words (issue 33: the seat, its language, its deck: a few at most), and
 * written once for the connections that share them; `to`'s text is the
 * same with its "id" last, as proto_finish puts it. */
#define WORDS_SLOTS 4 /* "en"/"it" x Italian/French names */
void table_broadcast(table *t, conn *to, const json_t *id) {
  json_t *view[(PROTO_MAX_SEATS + 1) * WORDS_SLOTS] = {0};
  char *text[(PROTO_MAX_SEATS + 1) * WORDS_SLOTS] = {0};
  for (conn *c = t->conns; c; c = c->tnext) {
    int words =
        2 * !strcmp(c->lang, "it") + !strcmp(c->deck, SCOPA_DECK_FRENCH);
    int slot = (c->seat + 1) * WORDS_SLOTS + words;
    if (!view[slot]) {
      if (!(view[slot] = table_state_obj(t, c->seat)))
        continue; /* out of memory: this connection misses one state */
      proto_add_words(view[slot], c->lang, c->deck);
    }
    if (c == to && id) {
      json_object_set_new(view[slot], "id", json_deep_copy(id));
      conn_send_owned(c, json_dumps(view[slot], JSON_COMPACT));
      json_object_del(view[slot], "id");
      continue;
    }
    if (!text[slot])
      text[slot] = json_dumps(view[slot], JSON_COMPACT);
    if (text[slot])
      conn_send(c, text[slot]);
  }
  for (int i = 0; i < (PROTO_MAX_SEATS + 1) * WORDS_SLOTS; i++) {
    json_decref(view[i]);
    free(text[i]);
  }
}

void table_send_all(table *t, const char *text) {
  for (conn *c = t->conns; c; c = c->tnext)
    conn_send(c, text);
}
