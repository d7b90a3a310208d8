/*
 * test_tourney_state.c -- a tournament's state (tourney_state.c): made
 * from a create message of each format, bad ones refused with the field
 * named, joined and left, and shown with its standings and rounds.
 * Names: tourney-state-N (docs/serve.md "Tournaments").
 */
#include "../../src/server/store.h"
#include "../../src/server/tourney_rules.h"
#include "../../src/server/tourney_state.h"
#include "../test.h"

#include <stdio.h>
#include <string.h>

#define RULES_JSON "{\"game\":\"scopa\",\"players\":2}"

static json_t *make(const char *text, ts_error *err) {
  json_t *msg = json_loads(text, 0, NULL);
  json_t *st = msg ? ts_new("TID1", msg, RULES_JSON, 7, 1000, err) : NULL;
  json_decref(msg);
  return st;
}

static void add_game(json_t *st, int round, long long a, long long b,
                     int result, const char *code) {
  json_array_append_new(json_object_get(st, "games"),
                        json_pack("{s:i, s:I, s:I, s:i, s:s?}", "round", round,
                                  "a", (json_int_t)a, "b", (json_int_t)b,
                                  "result", result, "code", code));
}

int main(void) {
  ts_error err;
  TEST("tourney-state-1", "CONTRACTS.md Tournaments: tournament_create");
  json_t *st = make("{\"format\":\"swiss\",\"rounds\":3,\"starts_in\":30,"
                    "\"name\":\"Friday\"}",
                    &err);
  CHECK(st != NULL);
  CHECK_EQ_STR(json_string_value(json_object_get(st, "status")), "upcoming");
  CHECK(json_integer_value(json_object_get(st, "starts_at")) == 31000);
  CHECK(json_integer_value(json_object_get(st, "rounds")) == 3);
  CHECK(ts_status(st) == STORE_T_UPCOMING);
  json_t *clock = json_object_get(st, "clock");
  CHECK(json_integer_value(json_object_get(clock, "bank")) == -1 &&
        json_integer_value(json_object_get(clock, "move_clock")) == -1);
  json_t *arena = make("{\"format\":\"arena\",\"minutes\":20}", &err);
  CHECK(arena && json_integer_value(json_object_get(arena, "minutes")) == 20 &&
        json_integer_value(json_object_get(arena, "starts_at")) == 61000);
  json_decref(arena);
  json_t *dup = make("{\"format\":\"duplicate\",\"rounds\":2}", &err);
  CHECK(dup != NULL);
  json_decref(dup);

  TEST("tourney-state-2", "bad creates are refused, naming the field");
  static const char *const BAD[][2] = {
      {"{\"format\":\"knockout\",\"rounds\":3}", "\"format\""},
      {"{\"format\":\"swiss\"}", "\"rounds\""},
      {"{\"format\":\"swiss\",\"rounds\":0}", "\"rounds\""},
      {"{\"format\":\"swiss\",\"rounds\":21}", "\"rounds\""},
      {"{\"format\":\"swiss\",\"rounds\":3,\"minutes\":5}", "\"minutes\""},
      {"{\"format\":\"arena\"}", "\"minutes\""},
      {"{\"format\":\"arena\",\"minutes\":5,\"rounds\":2}", "\"rounds\""},
      {"{\"format\":\"swiss\",\"rounds\":3,\"starts_in\":-1}", "\"starts_in\""},
      {"{\"format\":\"swiss\",\"rounds\":3,\"name\":\"\"}", "\"name\""},
      {"{\"format\":\"swiss\",\"rounds\":3,\"rated\":1}", "\"rated\""},
      {"{\"format\":\"swiss\",\"rounds\":3,\"bank\":5}", "\"bank\""},
      {"{\"format\":\"swiss\",\"rounds\":3,\"seats\":1}", "\"seats\""},
      {"{\"format\":\"swiss\",\"rounds\":3,\"seats\":1025}", "\"seats\""},
  };
  for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
    err.code = NULL;
    json_t *no = make(BAD[i][0], &err);
    CHECK(no == NULL && err.code && !strcmp(err.code, "bad_message") &&
          strstr(err.en, BAD[i][1]));
    json_decref(no);
  }

  TEST("tourney-state-3", "join, leave and come back: one entry each");
  CHECK(ts_join(st, 11, "anna", 1500, &err) == 0);
  CHECK(ts_join(st, 12, "bruno", 1600, &err) == 0);
  CHECK(ts_join(st, 13, "carla", 1400, &err) == 0);
  CHECK(ts_join(st, 11, "anna", 1500, &err) == 0); /* again: the same */
  CHECK(json_array_size(json_object_get(st, "entries")) == 3);
  CHECK(ts_leave(st, 13, &err) == 0);
  CHECK(ts_leave(st, 99, &err) == -1 && !strcmp(err.code, "not_joined"));
  json_t *v = ts_view(st, 1);
  CHECK(v && json_integer_value(json_object_get(v, "players")) == 3 &&
        !json_object_get(v, "standings") &&
        !strcmp(json_string_value(json_object_get(v, "name")), "Friday"));
  json_decref(v);

  TEST("tourney-state-4", "the view: standings by the Swiss rules, rounds");
  CHECK(ts_join(st, 13, "carla", 1400, &err) == 0); /* back */
  json_object_set_new(st, "status", json_string("running"));
  json_object_set_new(st, "round", json_integer(2));
  add_game(st, 1, 12, 11, TR_A_WON, "CODE1");
  add_game(st, 1, 13, 0, TR_BYE, NULL);
  add_game(st, 2, 13, 12, TR_A_WON, "CODE2");
  add_game(st, 2, 11, 0, TR_BYE, NULL);
  v = ts_view(st, 0);
  json_t *s = json_object_get(v, "standings");
  CHECK(json_array_size(s) == 3);
  /* carla: bye + beat bruno = 2; bruno 1 (beat anna); anna 1 (bye).
   * Buchholz: bruno's opponents anna 1 + carla 2 = 3; anna's bruno 1 +
   * bye 0 = 1: bruno ahead of anna. */
  json_t *first = json_array_get(s, 0), *second = json_array_get(s, 1);
  CHECK_EQ_STR(json_string_value(json_object_get(first, "name")), "carla");
  CHECK(json_number_value(json_object_get(first, "points")) == 2.0);
  CHECK_EQ_STR(json_string_value(json_object_get(second, "name")), "bruno");
  CHECK(json_number_value(json_object_get(second, "buchholz")) == 3.0);
  json_t *rounds = json_object_get(v, "rounds");
  CHECK(json_array_size(rounds) == 2);
  json_t *t0 =
      json_array_get(json_object_get(json_array_get(rounds, 0), "tables"), 0);
  CHECK_EQ_STR(json_string_value(json_object_get(t0, "code")), "CODE1");
  CHECK_EQ_STR(
      json_string_value(json_array_get(json_object_get(t0, "seats"), 1)),
      "anna");
  CHECK_EQ_STR(json_string_value(json_object_get(t0, "result")), "a");
  json_t *bye =
      json_array_get(json_object_get(json_array_get(rounds, 0), "tables"), 1);
  CHECK(json_is_null(json_array_get(json_object_get(bye, "seats"), 1)) &&
        !strcmp(json_string_value(json_object_get(bye, "result")), "bye"));
  json_decref(v);

  TEST("tourney-state-5", "a finished tournament takes nobody");
  json_object_set_new(st, "status", json_string("finished"));
  CHECK(ts_status(st) == STORE_T_FINISHED);
  CHECK(ts_join(st, 20, "dario", 1500, &err) == -1 &&
        !strcmp(err.code, "tournament_over"));
  CHECK(ts_leave(st, 11, &err) == -1);
  json_decref(st);

  TEST("tourney-state-6", "a Swiss of 5 runs its 3 rounds: byes, no "
                          "repeats, then the end");
  st = make("{\"format\":\"swiss\",\"rounds\":3,\"starts_in\":10}", &err);
  for (int i = 1; i <= 5; i++) {
    char name[8];
    snprintf(name, sizeof name, "p%d", i);
    CHECK(ts_join(st, i, name, 1500 + i, &err) == 0);
  }
  CHECK(ts_step(st, 5000, 0) == 0 && ts_status(st) == STORE_T_UPCOMING);
  int codes = 0;
  for (int round = 1; round <= 3; round++) {
    CHECK(ts_step(st, 20000 + round, 0) == 2);
    CHECK(json_integer_value(json_object_get(st, "round")) == round);
    CHECK(ts_step(st, 20000 + round, 0) == 0); /* nothing until results */
    int idx[8], n = ts_tableless(st, idx, 8);
    CHECK(n == 2);
    for (int k = 0; k < n; k++) {
      char code[16];
      snprintf(code, sizeof code, "C%d", ++codes);
      CHECK(ts_set_code(st, idx[k], code) == 0);
    }
    CHECK(ts_tableless(st, idx, 8) == 0);
    for (int k = codes - 1; k <= codes; k++) {
      char code[16];
      snprintf(code, sizeof code, "C%d", k);
      CHECK(ts_result(st, code, k % 2 ? TR_A_WON : TR_B_WON) == 0);
      CHECK(ts_result(st, code, TR_A_WON) == 1); /* once */
    }
  }
  CHECK(ts_step(st, 30000, 0) == 0 && ts_status(st) == STORE_T_FINISHED);
  json_t *games = json_object_get(st, "games");
  CHECK(json_array_size(games) == 9); /* 3 rounds of 2 games and a bye */
  int byes[6] = {0};
  for (size_t i = 0; i < json_array_size(games); i++) {
    json_t *g = json_array_get(games, i);
    long long a = json_integer_value(json_object_get(g, "a"));
    long long b = json_integer_value(json_object_get(g, "b"));
    if (!b)
      byes[a]++;
    for (size_t k = 0; b && k < i; k++) {
      json_t *h = json_array_get(games, k);
      long long c = json_integer_value(json_object_get(h, "a"));
      long long d = json_integer_value(json_object_get(h, "b"));
      CHECK(!((a == c && b == d) || (a == d && b == c))); /* no repeat */
    }
  }
  for (int i = 1; i <= 5; i++)
    CHECK(byes[i] <= 1);
  v = ts_view(st, 0);
  CHECK(v && json_array_size(json_object_get(v, "rounds")) == 3 &&
        json_array_size(json_object_get(v, "standings")) == 5);
  json_decref(v);
  json_decref(st);

  TEST("tourney-state-7", "an arena pairs whoever is free until its end");
  st = make("{\"format\":\"arena\",\"minutes\":1,\"starts_in\":0}", &err);
  for (int i = 1; i <= 4; i++)
    CHECK(ts_join(st, i, "x", 1500, &err) == 0);
  CHECK(ts_step(st, 2000, 0) == 2);
  CHECK(json_integer_value(json_object_get(st, "ends_at")) == 62000);
  int idx[4];
  CHECK(ts_tableless(st, idx, 4) == 2);
  CHECK(ts_set_code(st, idx[0], "A1") == 0 &&
        ts_set_code(st, idx[1], "A2") == 0);
  CHECK(ts_step(st, 3000, 0) == 0); /* nobody free */
  CHECK(ts_result(st, "A1", TR_A_WON) == 0);
  CHECK(ts_step(st, 4000, 0) == 1); /* the two of A1 again */
  CHECK(ts_tableless(st, idx, 4) == 1 && ts_set_code(st, idx[0], "A3") == 0);
  CHECK(ts_result(st, "A2", TR_B_WON) == 0);
  CHECK(ts_step(st, 63000, 0) == 0 && ts_status(st) == STORE_T_RUNNING);
  CHECK(ts_result(st, "A3", TR_DRAW) == 0);
  CHECK(ts_step(st, 64000, 0) == 0 && ts_status(st) == STORE_T_FINISHED);
  json_decref(st);

  TEST("tourney-state-8", "too few to play: it waits for a second, then "
                          "is over; its creator may start it early");
  st = make("{\"format\":\"swiss\",\"rounds\":2,\"starts_in\":600}", &err);
  CHECK(ts_join(st, 1, "solo", 1500, &err) == 0);
  long long due = json_integer_value(json_object_get(st, "starts_at"));
  CHECK(ts_step(st, due + 1000, 0) == 0 && ts_status(st) == STORE_T_UPCOMING);
  CHECK(ts_step(st, due + TS_EMPTY_WAIT_MS, 0) == 0 &&
        ts_status(st) == STORE_T_FINISHED);
  json_decref(st);
  st = make("{\"format\":\"swiss\",\"rounds\":2,\"starts_in\":0}", &err);
  CHECK(ts_join(st, 1, "a", 1500, &err) == 0);
  CHECK(ts_step(st, 5000, 0) == 0 && ts_status(st) == STORE_T_UPCOMING);
  CHECK(ts_join(st, 2, "b", 1500, &err) == 0);
  CHECK(ts_step(st, 6000, 0) == 1 && ts_status(st) == STORE_T_RUNNING);
  json_decref(st);
  st = make("{\"format\":\"duplicate\",\"rounds\":1,\"starts_in\":600}", &err);
  CHECK(ts_join(st, 1, "a", 1500, &err) == 0 &&
        ts_join(st, 2, "b", 1500, &err) == 0);
  CHECK(ts_step(st, 2000, 1) == 1 && ts_status(st) == STORE_T_RUNNING);
  json_decref(st);

  TEST("tourney-state-9", "Scopone pairs: a join names the partner and "
                          "waits; the partner's makes the pair's entry");
  json_t *msg = json_loads("{\"format\":\"swiss\",\"rounds\":2}", 0, NULL);
  st = ts_new("TID2", msg,
              "{\"game\":\"scopone\",\"players\":4,"
              "\"teams\":true,\"team_size\":2}",
              7, 1000, &err);
  json_decref(msg);
  CHECK(st && ts_teams(st));
  CHECK(ts_join(st, 1, "ada", 1500, &err) == -1 &&
        !strcmp(err.code, "bad_message")); /* no partner */
  CHECK(ts_join_as(st, 1, "ada", 1500, "ada", &err) == -1);
  CHECK(ts_join_as(st, 1, "ada", 1400, "bea", &err) == 0);
  CHECK(json_array_size(json_object_get(st, "entries")) == 0 &&
        json_array_size(json_object_get(st, "invites")) == 1);
  /* ada changes her mind: one invitation, the last */
  CHECK(ts_join_as(st, 1, "ada", 1400, "bea", &err) == 0 &&
        json_array_size(json_object_get(st, "invites")) == 1);
  /* the partner's name in any case: the same account */
  CHECK(ts_join_as(st, 2, "bea", 1600, "ADA", &err) == 0);
  json_t *pair = json_array_get(json_object_get(st, "entries"), 0);
  CHECK(json_array_size(json_object_get(st, "invites")) == 0);
  CHECK_EQ_STR(json_string_value(json_object_get(pair, "name")), "ada & bea");
  CHECK(json_integer_value(json_object_get(pair, "id")) == 1 &&
        json_integer_value(json_object_get(pair, "mate")) == 2 &&
        json_number_value(json_object_get(pair, "rating")) == 1500);
  long long ids[2];
  const char *who[2];
  CHECK(ts_members(st, 1, ids, who) == 2 && ids[1] == 2 &&
        !strcmp(who[0], "ada") && !strcmp(who[1], "bea"));
  CHECK(ts_join_as(st, 3, "cal", 1500, "Bea", &err) == -1 &&
        !strcmp(err.code, "partner_taken"));
  /* cal asks dan, then leaves before dan answers: nothing left */
  CHECK(ts_join_as(st, 3, "cal", 1500, "dan", &err) == 0 &&
        ts_leave(st, 3, &err) == 0 &&
        json_array_size(json_object_get(st, "invites")) == 0);
  CHECK(ts_leave(st, 3, &err) == -1 && !strcmp(err.code, "not_joined"));
  /* either one of a pair withdraws it, and brings it back */
  CHECK(ts_leave(st, 2, &err) == 0 &&
        json_is_false(json_object_get(pair, "active")));
  CHECK(ts_join_as(st, 1, "ada", 1500, NULL, &err) == 0 &&
        json_is_true(json_object_get(pair, "active")));
  json_t *pv = ts_view(st, 0);
  json_t *line = json_array_get(json_object_get(pv, "standings"), 0);
  CHECK(json_is_true(json_object_get(pv, "pairs")) &&
        json_array_size(json_object_get(line, "members")) == 2);
  json_decref(pv);
  json_decref(st);
  /* a tournament of two has no partners */
  st = make("{\"format\":\"swiss\",\"rounds\":1}", &err);
  CHECK(ts_join_as(st, 1, "ada", 1500, "bea", &err) == -1 &&
        !strcmp(err.code, "bad_message"));
  json_decref(st);

  TEST("tourney-state-10", "\"seats\": the entries it takes at most");
  st = make("{\"format\":\"swiss\",\"rounds\":1,\"seats\":2}", &err);
  CHECK(ts_join(st, 1, "a", 1500, &err) == 0 &&
        ts_join(st, 2, "b", 1500, &err) == 0);
  CHECK(ts_join(st, 3, "c", 1500, &err) == -1 &&
        !strcmp(err.code, "tournament_full"));
  CHECK(ts_leave(st, 2, &err) == 0 && ts_join(st, 2, "b", 1500, &err) == 0);
  pv = ts_view(st, 1);
  CHECK(json_integer_value(json_object_get(pv, "seats")) == 2);
  json_decref(pv);
  json_decref(st);
  return test_summary("test_tourney_state");
}
