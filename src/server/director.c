/*
 * director.c -- the tournaments' director's pass (director.h).
 */
#include "director.h"

#include "tourney_game.h"
#include "tourney_rules.h"
#include "tourney_state.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PASS_READ 64     /* tournaments stepped in one pass at most      */
#define PASS_TABLES 1024 /* tables one tournament's step makes at most */

static long clock_field(const json_t *state, const char *key) {
  long v = (long)json_integer_value(
      json_object_get(json_object_get(state, "clock"), key));
  return v > 0 ? v : 0;
}

/* Whether pending game g (table `code`) has had no move for longer than
 * its clock allows and DIRECTOR_IDLE_MS more: 1, 0, or -1. */
static int idle(store *st, const json_t *state, json_t *g, const char *code,
                long long now_ms) {
  long long made = json_integer_value(json_object_get(g, "made"));
  if (!made) { /* made before it was noted: from now */
    json_object_set_new(g, "made", json_integer(now_ms));
    return 0;
  }
  long turn = clock_field(state, "move_clock"),
       away = clock_field(state, "away_timeout");
  long long limit = DIRECTOR_IDLE_MS + 1000LL * ((turn > away ? turn : away) +
                                                 clock_field(state, "bank"));
  if (now_ms - made <= limit)
    return 0;
  store_game sg;
  char msg[256];
  int rc = store_load(st, code, &sg, msg, sizeof msg);
  if (rc)
    return rc < 0 ? -1 : 0;
  long long last = made;
  for (int k = 0; sg.move_at && k < sg.nmoves; k++)
    if (sg.move_at[k] > last)
      last = sg.move_at[k];
  store_game_free(&sg);
  return now_ms - last > limit;
}

/* The results of the pending games of st that ended, and of those given
 * up (idle). */
static int read_results(store *st, json_t *state, long long now_ms) {
  size_t i;
  json_t *g;
  const char *f = json_string_value(json_object_get(state, "format"));
  int arena = f && strcmp(f, "arena") == 0;
  json_array_foreach(json_object_get(state, "games"), i, g) {
    const char *code = json_string_value(json_object_get(g, "code"));
    if (!code || json_integer_value(json_object_get(g, "result")) != TR_PENDING)
      continue;
    int finished, abandoned;
    int rc = store_game_end(st, code, &finished, &abandoned);
    if (rc < 0)
      return -1;
    if (rc == 0 && !finished) {
      int given_up = idle(st, state, g, code, now_ms);
      if (given_up < 0)
        return -1;
      if (given_up) {
        json_object_set_new(g, "idle", json_true());
        if (arena)
          ts_result(state, code, TR_BOTH_LOST);
        else
          json_object_set_new(g, "result", json_integer(TR_BOTH_LOST));
      }
      continue;
    }
    if (rc == 1)
      continue;
    store_game sg;
    char msg[256];
    if (store_load(st, code, &sg, msg, sizeof msg))
      return -1;
    tg_result r;
    int bad = tg_read(&sg, &r, msg, sizeof msg);
    store_game_free(&sg);
    if (bad) { /* a game that does not replay counts for nobody */
      fprintf(stderr, "scopa serve: director: %s\n", msg);
      r.result = TR_BOTH_LOST;
    }
    if (arena) /* numbered in the order they end */
      ts_result(state, code, r.result);
    else
      json_object_set_new(g, "result", json_integer(r.result));
    json_t *deals = json_array();
    for (int d = 0; deals && !bad && d < r.ndeals; d++)
      json_array_append_new(
          deals, json_pack("[i, i]", r.points[d][0], r.points[d][1]));
    if (deals)
      json_object_set_new(g, "deals", deals);
    json_object_set_new(g, "totals",
                        json_pack("[i, i]", r.totals[0], r.totals[1]));
  }
  return 0;
}

int director_table_has(const director_table *t, long long account) {
  for (int i = 0; i < 4; i++)
    if (account > 0 && t->account[i] == account)
      return 1;
  return 0;
}

/* The seat of account id, named. */
static void seat_of(long long id, const char *name, store_seat *s) {
  memset(s, 0, sizeof *s);
  s->kind = STORE_PERSON;
  s->account = id;
  snprintf(s->player, sizeof s->player, "a:%lld", id);
  snprintf(s->name, sizeof s->name, "%s", name ? name : "");
}

/* Game g's seats: entry a at seat 0 and b at 1, or (pairs) a's two at 0
 * and 2, b's at 1 and 3, as Scopone's partners sit: how many. */
static int seats_of(const json_t *state, const json_t *g, store_seat *seat,
                    long long account[4]) {
  long long id[2][2];
  const char *name[2][2];
  static const char *const AB[] = {"a", "b"};
  int pairs = ts_teams(state);
  for (int side = 0; side < 2; side++) {
    long long e = json_integer_value(json_object_get(g, AB[side]));
    ts_members(state, e, id[side], name[side]);
    for (int k = 0; k < 1 + pairs; k++) {
      account[side + 2 * k] = id[side][k];
      if (seat)
        seat_of(id[side][k], name[side][k], &seat[side + 2 * k]);
    }
  }
  return pairs ? 4 : 2;
}

/* The seed of round r of a duplicate tournament: one for every table of
 * the round, drawn at the round's first table. */
static int round_seed(json_t *state, int round, char seed[SCOPA_SEED_TEXT]) {
  json_t *seeds = json_object_get(state, "seeds");
  if (!seeds) {
    seeds = json_object();
    if (!seeds || json_object_set_new(state, "seeds", seeds))
      return -1;
  }
  char key[16];
  snprintf(key, sizeof key, "%d", round);
  const char *have = json_string_value(json_object_get(seeds, key));
  if (have) {
    snprintf(seed, SCOPA_SEED_TEXT, "%s", have);
    return 0;
  }
  if (scopa_seed_random(seed) != SCOPA_OK)
    return -1;
  return json_object_set_new(seeds, key, json_string(seed));
}

/* A table for each game of state that has none: -1 on failure. */
static int make_tables(store *st, json_t *state, const char *id,
                       long long now_ms,
                       int (*random_code)(char code[STORE_CODE_MAX + 1]),
                       int *nout) {
  int idx[64], n;
  const char *format = json_string_value(json_object_get(state, "format"));
  int dup = format && strcmp(format, "duplicate") == 0;
  json_t *clock = json_object_get(state, "clock");
  char *rules = json_dumps(json_object_get(state, "rules"), JSON_COMPACT);
  if (!rules)
    return -1;
  while ((n = ts_tableless(state, idx, 64)) > 0 && *nout < PASS_TABLES) {
    for (int k = 0; k < n && *nout < PASS_TABLES; k++) {
      json_t *g =
          json_array_get(json_object_get(state, "games"), (size_t)idx[k]);
      int round = (int)json_integer_value(json_object_get(g, "round"));
      long bank = (long)json_integer_value(json_object_get(clock, "bank"));
      long mc = (long)json_integer_value(json_object_get(clock, "move_clock"));
      long away =
          (long)json_integer_value(json_object_get(clock, "away_timeout"));
      long inc = (long)json_integer_value(json_object_get(clock, "increment"));
      store_game sg = {.rules_json = rules,
                       .away_s = away >= 0 ? (int)away : 60,
                       .clock_s = bank > 0  ? 0
                                  : mc >= 0 ? (int)mc
                                            : 60,
                       .bank_s = bank > 0 ? (int)bank : 0,
                       .inc_s = bank > 0 && inc > 0 ? (int)inc : 0};
      snprintf(sg.tourney, sizeof sg.tourney, "%s", id);
      int found = 0;
      for (int attempt = 0; attempt < 20 && !found; attempt++)
        found = random_code(sg.code) == 0 && store_has_code(st, sg.code) == 0;
      int seeded = dup ? round_seed(state, round, sg.seed) == 0
                       : scopa_seed_random(sg.seed) == SCOPA_OK;
      long long seated[4] = {0};
      sg.nseats = seats_of(state, g, sg.seat, seated);
      if (!found || !seeded || store_add_game(st, &sg) ||
          ts_set_code(state, idx[k], sg.code) ||
          json_object_set_new(g, "made", json_integer(now_ms))) {
        free(rules);
        return -1;
      }
      (*nout)++;
    }
  }
  free(rules);
  return 0;
}

/* The tables in play of state into out; the last `fresh` of them were
 * made by this pass. */
static void in_play(const json_t *state, const char *id, int fresh,
                    director_table *out, int *nout) {
  size_t i;
  json_t *g;
  int total = 0;
  json_array_foreach(json_object_get(state, "games"), i, g) {
    const char *code = json_string_value(json_object_get(g, "code"));
    if (code && json_integer_value(json_object_get(g, "result")) == TR_PENDING)
      total++;
  }
  *nout = 0;
  json_array_foreach(json_object_get(state, "games"), i, g) {
    const char *code = json_string_value(json_object_get(g, "code"));
    if (!code ||
        json_integer_value(json_object_get(g, "result")) != TR_PENDING ||
        *nout >= PASS_TABLES)
      continue;
    director_table *t = &out[(*nout)++];
    snprintf(t->tourney, sizeof t->tourney, "%s", id);
    snprintf(t->code, sizeof t->code, "%s", code);
    memset(t->account, 0, sizeof t->account);
    seats_of(state, g, NULL, t->account);
    t->fresh = *nout > total - fresh;
    t->rated = !json_is_false(json_object_get(state, "rated"));
  }
}

/* One tournament's step in its own batch: 0, or -1 (rolled back). */
static int step_one(store *st, const char *id, long long now_ms,
                    int (*random_code)(char code[STORE_CODE_MAX + 1]),
                    director_table *made, int *nmade) {
  store_tourney row;
  char err[256];
  if (store_begin(st) || store_tourney_lock(st))
    return -1;
  int rc = store_tourney_get(st, id, &row); /* read again, under the lock */
  if (rc) {
    store_rollback(st);
    return rc < 0 ? -1 : 0;
  }
  json_t *state = json_loads(row.state, 0, NULL);
  int fresh = 0;
  int ok = state && read_results(st, state, now_ms) == 0 &&
           ts_step(state, now_ms,
                   json_is_true(json_object_get(state, "start_now"))) >= 0 &&
           make_tables(st, state, id, now_ms, random_code, &fresh) == 0;
  json_object_del(state, "start_now");
  char *text = ok ? json_dumps(state, JSON_COMPACT) : NULL;
  store_tourney put = {.status = state ? ts_status(state) : 0,
                       .created_ms = row.created_ms,
                       .state = text};
  snprintf(put.id, sizeof put.id, "%s", id);
  if (text && strcmp(text, row.state) == 0) { /* nothing new: no write */
    store_rollback(st);
    in_play(state, id, 0, made, nmade);
    free(text);
    free(row.state);
    json_decref(state);
    return 0;
  }
  free(row.state);
  ok = text && store_tourney_put(st, &put) == 0 &&
       store_commit(st, err, sizeof err) == 0;
  free(text);
  if (ok)
    in_play(state, id, fresh, made, nmade);
  json_decref(state);
  if (!ok) {
    if (store_in_batch(st))
      store_rollback(st);
    *nmade = 0;
    return -1;
  }
  return 0;
}

int director_pass(store *st, long long now_ms,
                  int (*random_code)(char code[STORE_CODE_MAX + 1]),
                  void (*made)(void *arg, const director_table *t), void *arg) {
  store_tourney *list = NULL;
  int n = 0, stepped = 0, failed = 0;
  if (store_tourney_list(st, 1, PASS_READ, &list, &n))
    return -1;
  director_table *tables = calloc(PASS_TABLES, sizeof *tables);
  for (int i = 0; tables && i < n; i++) {
    int nmade = 0;
    if (step_one(st, list[i].id, now_ms, random_code, tables, &nmade)) {
      failed = 1;
      continue;
    }
    stepped++;
    for (int k = 0; made && k < nmade; k++)
      made(arg, &tables[k]);
  }
  free(tables);
  store_tourney_free_all(list, n);
  return failed || !tables ? -1 : stepped;
}
