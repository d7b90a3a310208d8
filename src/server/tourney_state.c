/*
 * tourney_state.c -- a tournament's state as JSON (tourney_state.h):
 * made from the create message, joined and left, and shown, its
 * standings worked out by the formats' rules (tourney_rules.h).
 */
#include "tourney_state.h"

#include "store.h"
#include "tourney_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int refuse(ts_error *err, const char *code, const char *en,
                  const char *it) {
  err->code = code;
  err->en = en;
  err->it = it;
  return -1;
}

/* An integer field of msg in [lo, hi], or `absent` when missing: 0, or
 * -1 (not a whole number in range). */
static int int_field(const json_t *msg, const char *key, long lo, long hi,
                     long absent, long *out) {
  const json_t *v = json_object_get(msg, key);
  *out = absent;
  if (!v)
    return 0;
  if (!json_is_integer(v) || json_integer_value(v) < lo ||
      json_integer_value(v) > hi)
    return -1;
  *out = (long)json_integer_value(v);
  return 0;
}

json_t *ts_new(const char *id, const json_t *msg, const char *rules_json,
               long long creator, long long now_ms, ts_error *err) {
  const char *format = json_string_value(json_object_get(msg, "format"));
  const json_t *name = json_object_get(msg, "name");
  const json_t *rated = json_object_get(msg, "rated");
  long rounds, minutes, starts_in;
  int arena = format && strcmp(format, "arena") == 0;
  if (!format || (!arena && strcmp(format, "swiss") != 0 &&
                  strcmp(format, "duplicate") != 0)) {
    refuse(err, "bad_message",
           "\"format\" is \"swiss\", \"arena\" or \"duplicate\"",
           "\"format\" è \"swiss\", \"arena\" o \"duplicate\"");
    return NULL;
  }
  if (int_field(msg, "rounds", 1, TS_ROUNDS_MAX, arena ? 0 : -1, &rounds) ||
      (!arena && rounds < 0) || (arena && json_object_get(msg, "rounds"))) {
    refuse(err, "bad_message",
           arena ? "an arena has \"minutes\", not \"rounds\""
                 : "\"rounds\" is a whole number from 1 to 20",
           arena ? "un'arena ha \"minutes\", non \"rounds\""
                 : "\"rounds\" è un numero intero da 1 a 20");
    return NULL;
  }
  if (int_field(msg, "minutes", 1, TS_MINUTES_MAX, arena ? -1 : 0, &minutes) ||
      (arena && minutes < 0) || (!arena && json_object_get(msg, "minutes"))) {
    refuse(err, "bad_message",
           arena ? "\"minutes\" is a whole number from 1 to 720"
                 : "only an arena has \"minutes\"",
           arena ? "\"minutes\" è un numero intero da 1 a 720"
                 : "solo un'arena ha \"minutes\"");
    return NULL;
  }
  if (int_field(msg, "starts_in", 0, TS_STARTS_IN_MAX, 60, &starts_in)) {
    refuse(err, "bad_message", "\"starts_in\" is seconds from now, 0 to 604800",
           "\"starts_in\" è in secondi da ora, da 0 a 604800");
    return NULL;
  }
  if (name && (!json_is_string(name) || json_string_length(name) < 1 ||
               json_string_length(name) > STORE_NAME_MAX)) {
    refuse(err, "bad_message", "\"name\" is a text of 1 to 64 bytes",
           "\"name\" è un testo da 1 a 64 byte");
    return NULL;
  }
  long seats;
  if (int_field(msg, "seats", 2, TS_ENTRIES_MAX, TS_ENTRIES_MAX, &seats)) {
    refuse(err, "bad_message", "\"seats\" is a whole number from 2 to 1024",
           "\"seats\" è un numero intero da 2 a 1024");
    return NULL;
  }
  if (rated && !json_is_boolean(rated)) {
    refuse(err, "bad_message", "\"rated\" is true or false",
           "\"rated\" è true o false");
    return NULL;
  }
  /* The tables' clock: create's fields, the server's defaults where absent
   * (-1). */
  static const char *const CLOCK[][2] = {{"move_clock", "86400"},
                                         {"away_timeout", "86400"},
                                         {"bank", "86400"},
                                         {"increment", "3600"}};
  long clock[4];
  for (int k = 0; k < 4; k++)
    if (int_field(msg, CLOCK[k][0], k == 2 ? 10 : 0, atol(CLOCK[k][1]), -1,
                  &clock[k])) {
      refuse(err, "bad_message",
             "\"move_clock\", \"away_timeout\", \"bank\" and "
             "\"increment\" are seconds, as in create",
             "\"move_clock\", \"away_timeout\", \"bank\" e \"increment\" "
             "sono secondi, come in create");
      return NULL;
    }
  json_t *rules = json_loads(rules_json, 0, NULL);
  json_t *st = rules ? json_object() : NULL;
  if (st) {
    json_object_set_new(st, "id", json_string(id));
    json_object_set_new(st, "name",
                        name ? json_copy((json_t *)name) : json_string(format));
    json_object_set_new(st, "format", json_string(format));
    json_object_set(st, "rules", rules);
    if (arena)
      json_object_set_new(st, "minutes", json_integer(minutes));
    else
      json_object_set_new(st, "rounds", json_integer(rounds));
    json_object_set_new(st, "starts_at",
                        json_integer(now_ms + starts_in * 1000LL));
    json_object_set_new(st, "rated",
                        json_boolean(!rated || json_is_true(rated)));
    json_object_set_new(st, "creator", json_integer(creator));
    json_object_set_new(st, "seats", json_integer(seats));
    json_object_set_new(st, "status", json_string("upcoming"));
    json_object_set_new(st, "round", json_integer(0));
    json_object_set_new(st, "entries", json_array());
    json_object_set_new(st, "games", json_array());
    json_object_set_new(
        st, "clock",
        json_pack("{s:I, s:I, s:I, s:I}", "move_clock", (json_int_t)clock[0],
                  "away_timeout", (json_int_t)clock[1], "bank",
                  (json_int_t)clock[2], "increment", (json_int_t)clock[3]));
  }
  json_decref(rules);
  if (!st || json_object_size(st) < 13) {
    json_decref(st);
    refuse(err, "server", "no memory for the tournament",
           "non c'è memoria per il torneo");
    return NULL;
  }
  return st;
}

static const char *status_of(const json_t *st) {
  const char *s = json_string_value(json_object_get(st, "status"));
  return s ? s : "finished";
}

int ts_sealed(const json_t *st, const char *code) {
  const char *format = json_string_value(json_object_get(st, "format"));
  if (!format || strcmp(format, "duplicate") != 0)
    return 0;
  const json_t *games = json_object_get(st, "games");
  size_t i;
  json_t *g;
  long long round = -1;
  json_array_foreach(games, i, g) {
    const char *c = json_string_value(json_object_get(g, "code"));
    if (c && strcmp(c, code) == 0)
      round = json_integer_value(json_object_get(g, "round"));
  }
  if (round < 0)
    return 1;
  json_array_foreach(games, i, g) {
    if (json_integer_value(json_object_get(g, "round")) == round &&
        json_integer_value(json_object_get(g, "result")) == TR_PENDING)
      return 1;
  }
  return 0;
}

int ts_status(const json_t *st) {
  const char *s = status_of(st);
  return strcmp(s, "upcoming") == 0  ? STORE_T_UPCOMING
         : strcmp(s, "running") == 0 ? STORE_T_RUNNING
                                     : STORE_T_FINISHED;
}

/* The entries a tournament takes at most (its "seats"). */
static size_t seats_of(const json_t *st) {
  json_int_t n = json_integer_value(json_object_get(st, "seats"));
  return n >= 2 && n <= TS_ENTRIES_MAX ? (size_t)n : TS_ENTRIES_MAX;
}

static json_t *entry_of(const json_t *st, long long id) {
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(st, "entries"), i, e) {
    if (json_integer_value(json_object_get(e, "id")) == id)
      return e;
  }
  return NULL;
}

int ts_teams(const json_t *st) {
  const json_t *r = json_object_get(st, "rules");
  return json_integer_value(json_object_get(r, "players")) == 4 &&
         json_is_true(json_object_get(r, "teams"));
}

/* The entry account `id` plays in: its own, or the pair's it is the
 * second of; NULL when none. */
static json_t *member_of(const json_t *st, long long id) {
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(st, "entries"), i, e) {
    if (json_integer_value(json_object_get(e, "id")) == id ||
        json_integer_value(json_object_get(e, "mate")) == id)
      return e;
  }
  return NULL;
}

int ts_members(const json_t *st, long long entry, long long id[2],
               const char *name[2]) {
  const json_t *e = entry_of(st, entry);
  const json_t *m = json_object_get(e, "members");
  id[0] = entry;
  id[1] = json_integer_value(json_object_get(e, "mate"));
  name[0] = json_string_value(json_array_get(m, 0));
  name[1] = json_string_value(json_array_get(m, 1));
  if (!name[0]) /* a player alone */
    name[0] = json_string_value(json_object_get(e, "name"));
  return e ? (id[1] ? 2 : 1) : 0;
}

/* Removes the invitations of account id (0: none removed). */
static void drop_invites(json_t *invites, long long id) {
  for (size_t i = json_array_size(invites); i-- > 0;)
    if (json_integer_value(json_object_get(json_array_get(invites, i), "id")) ==
        id)
      json_array_remove(invites, i);
}

/* A Scopone pair's join (tourney_state.h ts_join_as). */
static int join_pair(json_t *st, long long id, const char *name, double rating,
                     const char *partner, ts_error *err) {
  json_t *e = member_of(st, id);
  if (e) { /* back after a leave: the pair again */
    json_object_set_new(e, "active", json_true());
    return 0;
  }
  if (!partner || !*partner)
    return refuse(err, "bad_message",
                  "a Scopone pair joins with \"partner\": the other one's "
                  "account name",
                  "una coppia di Scopone si iscrive con \"partner\": il nome "
                  "dell'account del compagno");
  /* account names are one account whatever their case (store.h) */
  if (strcasecmp(partner, name) == 0)
    return refuse(err, "bad_message", "your partner is another account",
                  "il compagno è un altro account");
  size_t i;
  json_t *x;
  json_array_foreach(json_object_get(st, "entries"), i, x) {
    const json_t *m = json_object_get(x, "members");
    for (size_t k = 0; k < json_array_size(m); k++)
      if (strcasecmp(json_string_value(json_array_get(m, k)), partner) == 0)
        return refuse(err, "partner_taken", "your partner is in another pair",
                      "il tuo compagno è in un'altra coppia");
  }
  json_t *invites = json_object_get(st, "invites");
  if (!invites) {
    invites = json_array();
    if (!invites || json_object_set_new(st, "invites", invites))
      return refuse(err, "server", "no memory to join",
                    "non c'è memoria per iscriversi");
  }
  json_array_foreach(invites, i, x) {
    const char *by = json_string_value(json_object_get(x, "name"));
    const char *asks = json_string_value(json_object_get(x, "partner"));
    if (!by || !asks || strcasecmp(by, partner) || strcasecmp(asks, name))
      continue;
    /* the partner named this account: the pair is an entry, the first
     * to ask its captain (seat 0 and 2 go to a pair: director.c) */
    json_t *entries = json_object_get(st, "entries");
    if (json_array_size(entries) >= seats_of(st))
      return refuse(err, "tournament_full", "the tournament is full",
                    "il torneo è al completo");
    char both[2 * STORE_NAME_MAX + 4];
    snprintf(both, sizeof both, "%s & %s", by, name);
    double mean =
        (json_number_value(json_object_get(x, "rating")) + rating) / 2;
    e = json_pack("{s:I, s:s, s:f, s:b, s:I, s:[s, s]}", "id",
                  json_integer_value(json_object_get(x, "id")), "name", both,
                  "rating", mean, "active", 1, "mate", (json_int_t)id,
                  "members", by, name);
    if (!e || json_array_append_new(entries, e))
      return refuse(err, "server", "no memory to join",
                    "non c'è memoria per iscriversi");
    json_array_remove(invites, i);
    drop_invites(invites, id);
    return 0;
  }
  /* this account asks first: its invitation waits for the partner's */
  drop_invites(invites, id);
  x = json_pack("{s:I, s:s, s:s, s:f}", "id", (json_int_t)id, "name", name,
                "partner", partner, "rating", rating);
  if (!x || json_array_append_new(invites, x))
    return refuse(err, "server", "no memory to join",
                  "non c'è memoria per iscriversi");
  return 0;
}

int ts_join(json_t *st, long long id, const char *name, double rating,
            ts_error *err) {
  return ts_join_as(st, id, name, rating, NULL, err);
}

int ts_join_as(json_t *st, long long id, const char *name, double rating,
               const char *partner, ts_error *err) {
  if (ts_status(st) == STORE_T_FINISHED)
    return refuse(err, "tournament_over", "the tournament is over",
                  "il torneo è finito");
  if (ts_teams(st))
    return join_pair(st, id, name, rating, partner, err);
  if (partner && *partner)
    return refuse(err, "bad_message",
                  "only a Scopone tournament's pairs have \"partner\"",
                  "solo le coppie di un torneo di Scopone hanno \"partner\"");
  json_t *e = entry_of(st, id);
  if (e) { /* back after a leave, or joined again: the same entry */
    json_object_set_new(e, "active", json_true());
    return 0;
  }
  json_t *entries = json_object_get(st, "entries");
  if (json_array_size(entries) >= seats_of(st))
    return refuse(err, "tournament_full", "the tournament is full",
                  "il torneo è al completo");
  e = json_pack("{s:I, s:s, s:f, s:b}", "id", (json_int_t)id, "name", name,
                "rating", rating, "active", 1);
  if (!e || json_array_append_new(entries, e))
    return refuse(err, "server", "no memory to join",
                  "non c'è memoria per iscriversi");
  return 0;
}

int ts_leave(json_t *st, long long id, ts_error *err) {
  if (ts_status(st) == STORE_T_FINISHED)
    return refuse(err, "tournament_over", "the tournament is over",
                  "il torneo è finito");
  json_t *e = member_of(st, id);
  json_t *invites = json_object_get(st, "invites");
  size_t asked = json_array_size(invites);
  if (!e && invites)
    drop_invites(invites, id); /* a pair's first half: no longer asks */
  if (!e && json_array_size(invites) < asked)
    return 0;
  if (!e)
    return refuse(err, "not_joined", "you are not in this tournament",
                  "non sei iscritto a questo torneo");
  json_object_set_new(e, "active", json_false()); /* a pair: both of it */
  return 0;
}

/* The entries and games of st as the formats' rules take them: *ne and
 * *ng of them (malloc'd; the caller frees both): 0, or -1. */
static int rules_input(const json_t *st, tr_entry **pe, int *ne, tr_game **pg,
                       int *ng) {
  const json_t *entries = json_object_get(st, "entries");
  const json_t *games = json_object_get(st, "games");
  size_t n = json_array_size(entries), m = json_array_size(games), i;
  tr_entry *e = calloc(n ? n : 1, sizeof *e);
  tr_game *g = calloc(m ? m : 1, sizeof *g);
  if (!e || !g) {
    free(e);
    free(g);
    return -1;
  }
  json_t *x;
  json_array_foreach(entries, i, x) {
    e[i].id = json_integer_value(json_object_get(x, "id"));
    e[i].rating = json_number_value(json_object_get(x, "rating"));
    e[i].active = json_is_true(json_object_get(x, "active"));
  }
  json_array_foreach(games, i, x) {
    g[i].round = (int)json_integer_value(json_object_get(x, "round"));
    g[i].a = json_integer_value(json_object_get(x, "a"));
    g[i].b = json_integer_value(json_object_get(x, "b"));
    g[i].result = (int)json_integer_value(json_object_get(x, "result"));
  }
  *pe = e;
  *pg = g;
  *ne = (int)n;
  *ng = (int)m;
  return 0;
}

static const char *name_of(const json_t *st, long long id) {
  const json_t *e = entry_of(st, id);
  const char *s = e ? json_string_value(json_object_get(e, "name")) : NULL;
  return s ? s : "";
}

/* Duplicate: a line per deal and seat of every finished game (its
 * "deals", [points of a, points of b] each), malloc'd, *nd of them; NULL
 * without memory. */
static tr_deal *deal_lines(const json_t *st, int *nd) {
  size_t i, k, total = 0;
  json_t *g, *deal;
  json_array_foreach(json_object_get(st, "games"), i, g) {
    total += 2 * json_array_size(json_object_get(g, "deals"));
  }
  tr_deal *d = calloc(total ? total : 1, sizeof *d);
  if (!d)
    return NULL;
  *nd = 0;
  json_array_foreach(json_object_get(st, "games"), i, g) {
    int round = (int)json_integer_value(json_object_get(g, "round"));
    long long id[2] = {json_integer_value(json_object_get(g, "a")),
                       json_integer_value(json_object_get(g, "b"))};
    json_array_foreach(json_object_get(g, "deals"), k, deal) {
      for (int seat = 0; seat < 2; seat++)
        d[(*nd)++] = (tr_deal){.round = round,
                               .deal = (int)k,
                               .seat = seat,
                               .id = id[seat],
                               .points = (int)json_integer_value(
                                   json_array_get(deal, (size_t)seat))};
    }
  }
  return d;
}

/* The standings: [{"rank", "name", "points", ...}] in rank order. */
static json_t *standings(const json_t *st) {
  tr_entry *e;
  tr_game *g;
  int ne, ng;
  if (rules_input(st, &e, &ne, &g, &ng))
    return NULL;
  const char *format = json_string_value(json_object_get(st, "format"));
  int arena = format && strcmp(format, "arena") == 0;
  int dup = format && strcmp(format, "duplicate") == 0;
  tr_standing *s = calloc(ne ? (size_t)ne : 1, sizeof *s);
  json_t *out = s ? json_array() : NULL;
  if (out && !dup)
    (arena ? tr_arena_standings : tr_swiss_standings)(e, ne, g, ng, s);
  else if (out) { /* each deal's points, as the director read them */
    int nd = 0;
    tr_deal *d = deal_lines(st, &nd);
    if (!d || tr_dup_score(d, nd) ||
        tr_dup_standings(e, ne, d, nd, g, ng, s) < 0) {
      json_decref(out);
      out = NULL;
    }
    free(d);
  }
  for (int i = 0; out && i < ne; i++) {
    json_t *line = json_pack(
        "{s:i, s:s, s:f, s:i, s:i, s:b}", "rank", s[i].rank, "name",
        name_of(st, s[i].id), "points", dup ? s[i].dup : s[i].points2 / 2.0,
        "games", s[i].games, "wins", s[i].wins, "active",
        json_is_true(json_object_get(entry_of(st, s[i].id), "active")));
    if (line && !arena && !dup) {
      json_object_set_new(line, "buchholz", json_real(s[i].buchholz2 / 2.0));
      json_object_set_new(line, "sonneborn_berger", json_real(s[i].sb4 / 4.0));
    }
    if (line && arena)
      json_object_set_new(line, "streak", json_integer(s[i].streak));
    const json_t *members = json_object_get(entry_of(st, s[i].id), "members");
    if (line && members) /* a pair: who is in it */
      json_object_set(line, "members", (json_t *)members);
    if (!line || json_array_append_new(out, line)) {
      json_decref(out);
      out = NULL;
    }
  }
  free(e);
  free(g);
  free(s);
  return out;
}

static const char *RESULTS[] = {"a", "b", "draw", "both_lost", "bye", NULL};

static int max_round(const json_t *st);

/* The rounds: [{"round", "tables": [{"code", "seats", "result"}]}]. */
static json_t *rounds_of(const json_t *st) {
  json_t *out = json_array();
  const char *f = json_string_value(json_object_get(st, "format"));
  int arena = f && strcmp(f, "arena") == 0;
  /* an arena's games are each a "round" of their own, in the order they
   * ended (those in play last) */
  int last = arena ? max_round(st)
                   : (int)json_integer_value(json_object_get(st, "round"));
  for (int r = 1; out && r <= last; r++) {
    json_t *tables = json_array(), *round = json_pack("{s:i}", "round", r);
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(st, "games"), i, g) {
      if (json_integer_value(json_object_get(g, "round")) != r || !tables)
        continue;
      long long b = json_integer_value(json_object_get(g, "b"));
      int result = (int)json_integer_value(json_object_get(g, "result"));
      const char *code = json_string_value(json_object_get(g, "code"));
      json_t *t = json_pack(
          "{s:s?, s:[s, s?], s:s?}", "code", code, "seats",
          name_of(st, json_integer_value(json_object_get(g, "a"))),
          b ? name_of(st, b) : NULL, "result",
          result >= 0 && result < TR_PENDING ? RESULTS[result] : NULL);
      if (!t || json_array_append_new(tables, t)) {
        json_decref(tables);
        tables = NULL;
      }
    }
    if (arena && tables && json_array_size(tables) == 0) {
      json_decref(tables);
      json_decref(round);
      continue;
    }
    if (!round || !tables || json_object_set_new(round, "tables", tables) ||
        json_array_append_new(out, round)) {
      json_decref(round);
      json_decref(out);
      out = NULL;
    }
  }
  return out;
}

json_t *ts_view(const json_t *st, int brief) {
  static const char *const KEEP[] = {
      "id",      "name",   "format", "rules", "rounds", "minutes", "starts_at",
      "ends_at", "status", "round",  "rated", "clock",  "seats",   NULL};
  json_t *v = json_object();
  for (int k = 0; v && KEEP[k]; k++) {
    json_t *x = json_object_get(st, KEEP[k]);
    if (x)
      json_object_set(v, KEEP[k], x);
  }
  if (!v)
    return NULL;
  json_object_set_new(v, "players",
                      json_integer((json_int_t)json_array_size(
                          json_object_get(st, "entries"))));
  /* the creator by name (the page offers them "start now") */
  json_t *by = json_object_get(st, "creator_name");
  if (json_is_string(by))
    json_object_set(v, "creator", by);
  if (ts_teams(st)) /* entries are pairs: "invites" wait for partners */
    json_object_set_new(v, "pairs", json_true());
  if (brief)
    return v;
  if (ts_teams(st)) {
    json_t *asks = json_array();
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(st, "invites"), i, x) {
      json_array_append_new(
          asks, json_pack("{s:O, s:O}", "name", json_object_get(x, "name"),
                          "partner", json_object_get(x, "partner")));
    }
    json_object_set_new(v, "invites", asks);
  }
  /* "rounds" is the rounds played below: the planned count is kept */
  json_t *planned = json_object_get(st, "rounds");
  if (planned)
    json_object_set(v, "rounds_planned", planned);
  json_t *s = standings(st), *r = rounds_of(st);
  if (!s || !r || json_object_set_new(v, "standings", s) ||
      json_object_set_new(v, "rounds", r)) {
    json_decref(v);
    return NULL;
  }
  return v;
}

/* ------------------------------------------------------------------ */
/* The director's steps                                                */
/* ------------------------------------------------------------------ */

static int add_pair(json_t *st, int round, const tr_pair *p) {
  json_t *g = json_pack("{s:i, s:I, s:I, s:i, s:n}", "round", round, "a",
                        (json_int_t)p->a, "b", (json_int_t)p->b, "result",
                        p->b ? TR_PENDING : TR_BYE, "code");
  return g ? json_array_append_new(json_object_get(st, "games"), g) : -1;
}

/* The highest "round" of any game: an arena numbers its games by it, in
 * the order made, then again in the order they finish (tourney_rules.h). */
static int max_round(const json_t *st) {
  size_t i;
  json_t *g;
  int m = 0;
  json_array_foreach(json_object_get(st, "games"), i, g) {
    int r = (int)json_integer_value(json_object_get(g, "round"));
    m = r > m ? r : m;
  }
  return m;
}

static int pending(const json_t *st, int round) {
  size_t i;
  json_t *g;
  int n = 0;
  json_array_foreach(json_object_get(st, "games"), i, g) {
    if ((round == 0 ||
         json_integer_value(json_object_get(g, "round")) == round) &&
        json_integer_value(json_object_get(g, "result")) == TR_PENDING)
      n++;
  }
  return n;
}

static int active_entries(const json_t *st) {
  size_t i;
  json_t *e;
  int n = 0;
  json_array_foreach(json_object_get(st, "entries"), i, e) {
    n += json_is_true(json_object_get(e, "active"));
  }
  return n;
}

/* The next round's pairs (Swiss and duplicate), or the arena's pairs of
 * the free entries: how many games need a table, or -1. */
static int pair(json_t *st, int arena) {
  tr_entry *e;
  tr_game *g;
  int ne, ng, made = 0;
  if (rules_input(st, &e, &ne, &g, &ng))
    return -1;
  tr_pair *p = calloc((size_t)ne / 2 + 2, sizeof *p);
  long long *free_ids = calloc(ne ? (size_t)ne : 1, sizeof *free_ids);
  int np = -1;
  int round = (int)json_integer_value(json_object_get(st, "round")) + 1;
  if (p && free_ids && !arena) {
    np = tr_swiss_pair(e, ne, g, ng, p, ne / 2 + 2);
  } else if (p && free_ids) {
    int nfree = 0;
    for (int i = 0; i < ne; i++) {
      int busy = 0;
      for (int k = 0; k < ng && !busy; k++)
        busy = g[k].result == TR_PENDING &&
               (g[k].a == e[i].id || g[k].b == e[i].id);
      if (e[i].active && !busy)
        free_ids[nfree++] = e[i].id;
    }
    np = nfree >= 2
             ? tr_arena_pair(e, ne, g, ng, free_ids, nfree, p, ne / 2 + 2)
             : 0;
    round = max_round(st) + 1; /* an arena's games, in the order made */
  }
  for (int i = 0; i < np && made >= 0; i++)
    made = add_pair(st, arena ? round + i : round, &p[i])
               ? -1
               : made + (p[i].b != 0);
  if (np > 0 && !arena && made >= 0)
    json_object_set_new(st, "round", json_integer(round));
  free(e);
  free(g);
  free(p);
  free(free_ids);
  return np < 0 ? -1 : made;
}

static void set_status(json_t *st, const char *status) {
  json_object_set_new(st, "status", json_string(status));
}

int ts_step(json_t *st, long long now_ms, int start_now) {
  const char *format = json_string_value(json_object_get(st, "format"));
  int arena = format && strcmp(format, "arena") == 0;
  int status = ts_status(st);
  if (status == STORE_T_FINISHED)
    return 0;
  if (status == STORE_T_UPCOMING) {
    if (!start_now &&
        now_ms < json_integer_value(json_object_get(st, "starts_at")))
      return 0;
    if (active_entries(st) < 2) { /* waits for a second, then over */
      if (now_ms >= json_integer_value(json_object_get(st, "starts_at")) +
                        TS_EMPTY_WAIT_MS)
        set_status(st, "finished");
      return 0;
    }
    set_status(st, "running");
    json_object_set_new(st, "started_at", json_integer(now_ms));
    if (arena)
      json_object_set_new(
          st, "ends_at",
          json_integer(now_ms +
                       json_integer_value(json_object_get(st, "minutes")) *
                           60000LL));
    return pair(st, arena);
  }
  if (arena) {
    if (now_ms < json_integer_value(json_object_get(st, "ends_at")))
      return pair(st, 1);
    if (pending(st, 0) == 0)
      set_status(st, "finished");
    return 0;
  }
  int round = (int)json_integer_value(json_object_get(st, "round"));
  if (pending(st, round) > 0)
    return 0;
  if (round >= json_integer_value(json_object_get(st, "rounds")) ||
      active_entries(st) < 2) {
    set_status(st, "finished");
    return 0;
  }
  return pair(st, 0);
}

int ts_tableless(const json_t *st, int *idx, int cap) {
  size_t i;
  json_t *g;
  int n = 0;
  json_array_foreach(json_object_get(st, "games"), i, g) {
    if (n < cap && json_is_null(json_object_get(g, "code")) &&
        json_integer_value(json_object_get(g, "result")) == TR_PENDING)
      idx[n++] = (int)i;
  }
  return n;
}

int ts_set_code(json_t *st, int idx, const char *code) {
  json_t *g = json_array_get(json_object_get(st, "games"), (size_t)idx);
  if (!g)
    return 1;
  return json_object_set_new(g, "code", json_string(code)) ? 1 : 0;
}

int ts_result(json_t *st, const char *code, int result) {
  size_t i;
  json_t *g;
  json_array_foreach(json_object_get(st, "games"), i, g) {
    const char *c = json_string_value(json_object_get(g, "code"));
    if (c && strcmp(c, code) == 0 &&
        json_integer_value(json_object_get(g, "result")) == TR_PENDING) {
      json_object_set_new(g, "result", json_integer(result));
      const char *f = json_string_value(json_object_get(st, "format"));
      if (f && strcmp(f, "arena") == 0) /* then in the order they end */
        json_object_set_new(g, "round", json_integer(max_round(st) + 1));
      return 0;
    }
  }
  return 1;
}
