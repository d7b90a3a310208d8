/*
 * test_engine.c -- `scopa engine` answers and the bindings support
 * functions (CONTRACTS.md "scopa engine"; scopa.h "JSON shapes").
 *
 * Random rounds under random rules: at every turn the seat to play's view
 * is printed as a request (scopa_state_view_json), sent through
 * scopa_engine_answer, and "legal" must list exactly the moves of
 * scopa_state_legal, "go" must answer one of them, "hint" must list each
 * once.  Every seat's view reads back to scopa_view_of's view.  Broken
 * requests (mutated views, wrong types, bad JSON) must be errors that
 * echo the id.
 */
#include "../test.h"
#include "scopa.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static scopa_engine *engine;

/* Sends a request, returns the parsed answer (caller decrefs). */
static json_t *ask(const char *line) {
  int quit = 0;
  char *text = scopa_engine_answer(engine, line, strlen(line), &quit);
  CHECK(text != NULL);
  json_t *ans = text ? json_loads(text, 0, NULL) : NULL;
  CHECK(ans != NULL && json_is_object(ans));
  scopa_free(text);
  return ans;
}

static int is_error(json_t *ans) {
  return json_is_string(json_object_get(ans, "error"));
}

static void random_rules(scopa_rng *rng, scopa_rules *r) {
  static const char *const games[] = {"scopa", "scopa", "scopa", "scopone",
                                      "scopone_scientifico"};
  char msg[200];
  do {
    scopa_rules_init(r);
    const char *game = games[scopa_rng_below(rng, 5)];
    scopa_rules_set_text(r, "game", game, NULL, msg, sizeof msg);
    if (strcmp(game, "scopa") == 0) {
      int players = 2 + (int)scopa_rng_below(rng, 3);
      scopa_rules_set(r, "players", players, NULL, msg, sizeof msg);
      if (players == 4)
        scopa_rules_set(r, "teams", scopa_rng_below(rng, 2), NULL, msg,
                        sizeof msg);
      if (scopa_rng_below(rng, 3) == 0)
        scopa_rules_set(r, "refill", 1, NULL, msg, sizeof msg);
    }
    static const char *const bools[] = {
        "mandatory_capture", "fewest_cards", "ace_sweeps", "ace_sweep_scopa",
        "kings_redeal",      "re_bello",     "napola"};
    for (int i = 0; i < 7; i++)
      if (scopa_rng_below(rng, 3) == 0)
        scopa_rules_set(r, bools[i], scopa_rng_below(rng, 2), NULL, msg,
                        sizeof msg);
    if (scopa_rng_below(rng, 3) == 0)
      scopa_rules_set(r, "capture", SCOPA_CAPTURE_QUINDICI, NULL, msg,
                      sizeof msg);
    scopa_rules_set(r, "primiera", scopa_rng_below(rng, 4), NULL, msg,
                    sizeof msg);
  } while (scopa_rules_check(r, NULL, msg, sizeof msg) != SCOPA_OK);
}

/* A request line: cmd + the view fields of json (an object text). */
static char *request(const char *cmd, const char *view, const char *extra) {
  size_t n = strlen(view) + strlen(cmd) + strlen(extra) + 64;
  char *line = malloc(n);
  snprintf(line, n, "{\"cmd\":\"%s\",\"id\":42,%s%s", cmd, extra, view + 1);
  return line;
}

static void check_legal(const scopa_state *st, json_t *ans) {
  json_t *moves = json_object_get(ans, "moves");
  char *want = scopa_state_legal_text(st);
  size_t n = 0;
  CHECK(json_is_array(moves));
  CHECK_EQ_INT(json_integer_value(json_object_get(ans, "id")), 42);
  for (size_t i = 0; i < json_array_size(moves); i++) {
    scopa_move m;
    const char *s = json_string_value(json_array_get(moves, i));
    CHECK(s && scopa_move_parse(s, NULL, &m, NULL, 0) == SCOPA_OK);
    CHECK(s && scopa_state_check(st, m, NULL, NULL, 0) == SCOPA_OK);
    n++;
  }
  /* Same count, each legal (and the C list has no duplicates). */
  size_t words = want[0] ? 1 : 0;
  for (char *p = want; *p; p++)
    words += *p == ' ';
  CHECK_EQ_INT(n, words);
  scopa_free(want);
}

static void check_view_roundtrip(const scopa_state *st, const int *scores) {
  for (int seat = 0; seat < st->players; seat++) {
    char *json = scopa_state_view_json(st, seat, scores), msg[300];
    scopa_view a, b;
    scopa_view_of(st, seat, scores, &a);
    int rc = scopa_view_from_json(&b, json, strlen(json), msg, sizeof msg);
    if (rc != SCOPA_OK)
      fprintf(stderr, "view %s: %s\n", json, msg);
    CHECK_EQ_INT(rc, SCOPA_OK);
    CHECK(rc != SCOPA_OK || memcmp(&a, &b, sizeof a) == 0);
    scopa_free(json);
  }
}

/* Breaks a correct request in one way; the answer must be an error. */
static void check_broken(const char *view) {
  static const char *const breaks[][2] = {
      {"\"seat\":", "\"seat\":\"0\",\"x\":"},
      {"\"dealer\":", "\"dealer\":7,\"x\":"},
      {"\"rules\":{", "\"rules\":{\"bogus\":true,"},
      {"\"kings_redeal\":true", "\"kings_redeal\":1"},
      {"\"kings_redeal\":false", "\"kings_redeal\":0"},
      {"\"table\":[", "\"table\":[\"11d\"],\"x\":["},
      {"\"dealt\":[", "\"dealt\":[\"1d\",\"1d\"],\"x\":["},
      {"\"moves\":[", "\"moves\":[\"zz\"],\"x\":["},
      {"\"dealt\":[", "\"dealt\":[\"zz\"],\"x\":["},
      {"\"scores\":[", "\"scores\":[-1,"},
      {"\"round\":", "\"round\":null,\"x\":"},
  };
  for (size_t i = 0; i < sizeof breaks / sizeof *breaks; i++) {
    const char *at = strstr(view, breaks[i][0]);
    if (!at)
      continue;
    size_t n = strlen(view) + 100;
    char *bad = malloc(n), *line;
    snprintf(bad, n, "%.*s%s%s", (int)(at - view), view, breaks[i][1],
             at + strlen(breaks[i][0]));
    line = request("legal", bad, "");
    json_t *ans = ask(line);
    if (!is_error(ans) || !json_object_get(ans, "id"))
      fprintf(stderr, "not an error with an id: %s -> %s\n", line,
              json_string_value(json_object_get(ans, "error")));
    CHECK(is_error(ans));
    CHECK_EQ_INT(json_integer_value(json_object_get(ans, "id")), 42);
    json_decref(ans);
    free(line);
    free(bad);
  }
}

static void play_round(scopa_rng *rng, int round) {
  scopa_rules rules;
  scopa_state st;
  scopa_move moves[SCOPA_MAX_MOVES];
  int scores[SCOPA_MAX_SEATS] = {3, 5, 1, 0};
  random_rules(rng, &rules);
  scopa_state_deal_random(&st, &rules,
                          (int)scopa_rng_below(rng, 4) % rules.players, rng);
  while (!scopa_state_over(&st)) {
    int seat = scopa_state_to_play(&st);
    char *view = scopa_state_view_json(&st, seat, scores);
    char *line = request("legal", view, "");
    json_t *ans = ask(line);
    check_legal(&st, ans);
    json_decref(ans);
    free(line);
    if (round % 4 == 0) {
      line = request("go", view, "\"bot\":\"random\",\"seed\":3,");
      ans = ask(line);
      const char *m = json_string_value(json_object_get(ans, "move"));
      scopa_move mv;
      CHECK(m && scopa_move_parse(m, NULL, &mv, NULL, 0) == SCOPA_OK &&
            scopa_state_check(&st, mv, NULL, NULL, 0) == SCOPA_OK);
      json_decref(ans);
      free(line);
      /* Another seat asking is an error: it is not its turn. */
      char *other = scopa_state_view_json(&st, (seat + 1) % st.players, scores);
      line = request("go", other, "");
      ans = ask(line);
      CHECK(is_error(ans));
      json_decref(ans);
      free(line);
      scopa_free(other);
    }
    if (round % 8 == 0) {
      check_view_roundtrip(&st, scores);
      check_broken(view);
    }
    scopa_free(view);
    int n = scopa_state_legal(&st, moves, SCOPA_MAX_MOVES);
    if (n > SCOPA_MAX_MOVES)
      n = SCOPA_MAX_MOVES;
    scopa_state_play(&st, moves[scopa_rng_below(rng, (uint32_t)n)]);
  }
  /* Over: legal is an error, the score prints. */
  char *view = scopa_state_view_json(&st, 0, scores);
  char *line = request("legal", view, "");
  json_t *ans = ask(line);
  CHECK(is_error(ans));
  json_decref(ans);
  char *score = scopa_state_score_json(&st);
  CHECK(score && score[0] == '[');
  scopa_free(score);
  free(line);
  scopa_free(view);
}

static void test_malformed(void) {
  TEST("engine-malformed-1", "CONTRACTS.md: a wrong request gets an error");
  static const char *const lines[] = {
      "",
      " ",
      "{",
      "}",
      "[]",
      "null",
      "42",
      "\"go\"",
      "{\"cmd\":null}",
      "{\"cmd\":\"GO\"}",
      "{\"cmd\":\"go\"}",
      "{\"cmd\":\"legal\",\"rules\":1}",
      "{\"cmd\":\"go\",\"rules\":{},\"seat\":0,\"scores\":[0,0],"
      "\"round\":{\"dealer\":1,\"table\":[],\"dealt\":[],\"moves\":[]}}",
      "{\"cmd\":\"go\",\"bot\":\"nobody\",\"rules\":{}}",
      "{\"cmd\":\"go\",\"movetime_ms\":-1,\"rules\":{}}",
      "{\"cmd\":\"hello\",\"cmd\":\"quit\"}",
      "{\"cmd\":\"hello\"} x",
      "{\"cmd\":\"\xff\"}",
      "{\"cmd\":\"hello\\u0000\"}",
      "{\"cmd\":\"legal\",\"seat\":99999999999999999999}",
  };
  for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
    json_t *ans = ask(lines[i]);
    if (!is_error(ans))
      fprintf(stderr, "not an error: %s\n", lines[i]);
    CHECK(is_error(ans));
    json_decref(ans);
  }
  /* Deep nesting and a long line are errors too, not crashes. */
  size_t n = 100000;
  char *deep = malloc(n + 1);
  memset(deep, '[', n);
  deep[n] = 0;
  json_t *ans = ask(deep);
  CHECK(is_error(ans));
  json_decref(ans);
  free(deep);
}

static void test_hello_quit(void) {
  TEST("engine-hello-1", "CONTRACTS.md: hello names the bots");
  json_t *ans = ask("{\"cmd\":\"hello\",\"id\":[1,\"a\"]}");
  CHECK_EQ_STR(json_string_value(json_object_get(ans, "name")), "scopa");
  CHECK_EQ_STR(json_string_value(json_object_get(ans, "version")),
               SCOPA_VERSION);
  json_t *bots = json_object_get(ans, "bots");
  CHECK(json_is_array(bots) && json_array_size(bots) >= 2);
  CHECK(json_is_array(json_object_get(ans, "id")));
  json_decref(ans);
  TEST("engine-quit-1", "CONTRACTS.md: quit ends the engine");
  int quit = 0;
  char *text = scopa_engine_answer(engine, "{\"cmd\":\"quit\"}", 14, &quit);
  CHECK(text == NULL && quit == 1);
}

static void test_example(void) {
  TEST("engine-example-1", "CONTRACTS.md: the go example");
  json_t *ans = ask(
      "{\"cmd\": \"legal\", \"rules\": {}, \"seat\": 0, \"scores\": [3, 5], "
      "\"round\": {\"dealer\": 1, \"table\": [\"1c\", \"5c\", \"6s\", "
      "\"9d\"], \"dealt\": [\"2d\", \"5s\", \"7b\"], \"moves\": []}}");
  json_t *moves = json_object_get(ans, "moves");
  CHECK_EQ_INT(json_array_size(moves), 3);
  json_decref(ans);
  TEST("engine-hint-1", "CONTRACTS.md: hint lists every legal move once");
  ans = ask("{\"cmd\": \"hint\", \"rules\": {}, \"seat\": 0, \"scores\": "
            "[3, 5], \"round\": {\"dealer\": 1, \"table\": [\"1c\", \"5c\", "
            "\"6s\", \"9d\"], \"dealt\": [\"2d\", \"5s\", \"7b\"], "
            "\"moves\": []}}");
  moves = json_object_get(ans, "moves");
  CHECK_EQ_INT(json_array_size(moves), 3);
  double prev = 1e300;
  for (size_t i = 0; i < json_array_size(moves); i++) {
    json_t *m = json_array_get(moves, i);
    CHECK(json_is_string(json_object_get(m, "move")));
    CHECK(json_is_number(json_object_get(m, "value")));
    double v = json_number_value(json_object_get(m, "value"));
    CHECK(v <= prev);
    prev = v;
  }
  json_decref(ans);
  TEST("engine-hint-2", "docs/engine.md: a bot without values says "
                        "\"estimated\": false, its choice first");
  ans = ask("{\"cmd\": \"hint\", \"bot\": \"greedy\", \"rules\": {}, "
            "\"seat\": 0, \"scores\": [3, 5], \"round\": {\"dealer\": 1, "
            "\"table\": [\"1c\", \"5c\", \"6s\", \"9d\"], \"dealt\": "
            "[\"2d\", \"5s\", \"7b\"], \"moves\": []}}");
  CHECK(json_is_false(json_object_get(ans, "estimated")));
  moves = json_object_get(ans, "moves");
  CHECK_EQ_INT(json_array_size(moves), 3);
  /* greedy's choice first: what "go" answers */
  json_t *go = ask("{\"cmd\": \"go\", \"bot\": \"greedy\", \"rules\": {}, "
                   "\"seat\": 0, \"scores\": [3, 5], \"round\": {\"dealer\": "
                   "1, \"table\": [\"1c\", \"5c\", \"6s\", \"9d\"], "
                   "\"dealt\": [\"2d\", \"5s\", \"7b\"], \"moves\": []}}");
  CHECK(json_equal(json_object_get(go, "move"),
                   json_object_get(json_array_get(moves, 0), "move")));
  json_decref(go);
  for (size_t i = 0; i < json_array_size(moves); i++)
    CHECK(json_number_value(
              json_object_get(json_array_get(moves, i), "value")) == 0);
  json_decref(ans);
  ans = ask("{\"cmd\": \"hint\", \"bot\": \"best\", \"nodes\": 250000, "
            "\"rules\": {}, \"seat\": 0, \"scores\": [3, 5], \"round\": "
            "{\"dealer\": 1, \"table\": [\"1c\", \"5c\", \"6s\", \"9d\"], "
            "\"dealt\": [\"2d\", \"5s\", \"7b\"], \"moves\": []}}");
  CHECK(json_is_true(json_object_get(ans, "estimated")));
  json_decref(ans);
}

/* Every legal move of the position on exactly one action of one page;
 * an action names its own card's move, or a free action of a card not
 * in the hand (scopa.h "Learning agents"). */
static void check_pages(const scopa_state *st) {
  static scopa_move work[SCOPA_ACTION_WORK], table[SCOPA_ACTIONS];
  static scopa_move legal[SCOPA_MAX_MOVES], shown[SCOPA_MAX_MOVES];
  static uint8_t mask[SCOPA_ACTIONS];
  static int list[SCOPA_ACTIONS];
  int n = scopa_state_legal(st, legal, SCOPA_MAX_MOVES), nshown = 0;
  scopa_cards hand = st->hand[st->to_play];
  for (int page = 0;; page++) {
    int k = scopa_state_actions_page(st, page, work, table, mask, list);
    int more = 0;
    for (int i = 0; i < k; i++) {
      int a = list[i], card = a / SCOPA_ACTION_SLOTS;
      CHECK(mask[a] && (i == 0 || a > list[i - 1]));
      if (table[a] == SCOPA_ACTION_MORE) {
        more = 1;
        continue;
      }
      CHECK(scopa_state_check(st, table[a], NULL, NULL, 0) == SCOPA_OK);
      CHECK(SCOPA_MOVE_CARD(table[a]) == card || !(hand & SCOPA_BIT(card)));
      if (nshown < SCOPA_MAX_MOVES)
        shown[nshown++] = table[a];
    }
    if (!more)
      break;
  }
  CHECK_EQ_INT(nshown, n);
  for (int i = 0; i < n && i < SCOPA_MAX_MOVES; i++) {
    int found = 0;
    for (int j = 0; j < nshown; j++)
      found += shown[j] == legal[i];
    CHECK_EQ_INT(found, 1);
  }
}

static void test_actions(scopa_rng *rng) {
  TEST("engine-actions-1", "scopa.h: every legal move has one action");
  static uint8_t mask[SCOPA_ACTIONS];
  static scopa_move table[SCOPA_ACTIONS];
  float features[SCOPA_FEATURES];
  for (int r = 0; r < 50; r++) {
    scopa_rules rules;
    scopa_state st;
    random_rules(rng, &rules);
    scopa_state_deal_random(&st, &rules, 0, rng);
    while (!scopa_state_over(&st)) {
      check_pages(&st);
      scopa_state_actions(&st, table, mask, NULL);
      scopa_view v;
      scopa_view_of(&st, scopa_state_to_play(&st), NULL, &v);
      CHECK_EQ_INT(scopa_view_features(&v, features, SCOPA_FEATURES),
                   SCOPA_FEATURES);
      for (int i = 0; i < SCOPA_FEATURES; i++)
        CHECK(features[i] >= 0.0f && features[i] <= 1.0f);
      int a;
      do
        a = (int)scopa_rng_below(rng, SCOPA_ACTIONS);
      while (!mask[a]);
      scopa_state_play(&st, table[a]);
    }
  }
}

/* The first legal action of a mask chosen by rng (any one would do). */
static int64_t some_action(const uint8_t *mask, scopa_rng *rng) {
  int legal[SCOPA_ACTIONS], n = 0;
  for (int a = 0; a < SCOPA_ACTIONS; a++)
    if (mask[a])
      legal[n++] = a;
  return n ? legal[scopa_rng_below(rng, (uint32_t)n)] : 0;
}

enum { VEC_N = 20, VEC_STEPS = 250 };

typedef struct vec_out {
  float obs[VEC_N][SCOPA_FEATURES];
  uint8_t mask[VEC_N][SCOPA_ACTIONS];
  double rewards[VEC_N];
  uint8_t term[VEC_N], trunc[VEC_N];
} vec_out;

/* Steps VEC_N environments with `threads` threads; checks every batch
 * against single environments (environment i reset with seed + i, the
 * next-step auto-reset) and returns a checksum of all the outputs. */
static uint64_t run_vec(const scopa_rules *rules, int threads) {
  static vec_out out;
  scopa_env_config cfg = {
      .learner = 1, .opponent = "greedy", .illegal_reward = -5};
  scopa_vecenv *vec;
  scopa_env *one[VEC_N];
  int ended[VEC_N] = {0};
  CHECK(scopa_vecenv_new(rules, &cfg, VEC_N, threads, &vec) == SCOPA_OK);
  for (int i = 0; i < VEC_N; i++) {
    CHECK(scopa_env_new(rules, &cfg, &one[i]) == SCOPA_OK);
    scopa_env_reset(one[i], 40 + (uint64_t)i, -1, NULL);
  }
  scopa_vecenv_reset(vec, 40, out.obs[0], out.mask[0]);
  scopa_rng rng;
  scopa_rng_seed(&rng, 7);
  uint64_t sum = 0;
  for (int step = 0; step < VEC_STEPS; step++) {
    int64_t actions[VEC_N];
    for (int i = 0; i < VEC_N; i++)
      actions[i] = step == 30 && i == 3 ? SCOPA_ACTIONS + 1
                                        : some_action(out.mask[i], &rng);
    scopa_vecenv_step(vec, actions, out.obs[0], out.mask[0], out.rewards,
                      out.term, out.trunc);
    for (int i = 0; i < VEC_N; i++) {
      float obs[SCOPA_FEATURES];
      uint8_t mask[SCOPA_ACTIONS];
      double r[SCOPA_MAX_SEATS] = {0};
      int rc = SCOPA_ENV_PLAYED;
      if (ended[i])
        scopa_env_reset(one[i], SCOPA_ENV_NEXT, -1, NULL);
      else
        rc = scopa_env_step(one[i], (int)actions[i], r);
      ended[i] = rc == SCOPA_ENV_OVER || rc == SCOPA_ENV_ILLEGAL;
      scopa_env_observe(one[i], 1, obs, mask);
      CHECK(memcmp(obs, out.obs[i], sizeof obs) == 0);
      CHECK(memcmp(mask, out.mask[i], sizeof mask) == 0);
      CHECK(out.rewards[i] == r[1] && out.term[i] == ended[i] && !out.trunc[i]);
      sum = sum * 1000003 + (uint64_t)(out.rewards[i] * 8) + out.term[i];
      for (int a = 0; a < SCOPA_ACTIONS; a++)
        sum += (uint64_t)mask[a] * (uint64_t)a;
    }
  }
  for (int i = 0; i < VEC_N; i++)
    scopa_env_free(one[i]);
  scopa_vecenv_free(vec);
  return sum;
}

static void test_vecenv(void) {
  TEST("engine-vecenv-1", "scopa.h: the batch is the single environments, "
                          "whatever the threads");
  scopa_rules rules;
  scopa_rules_init(&rules);
  rules.players = 3;
  CHECK(scopa_rules_check(&rules, NULL, NULL, 0) == SCOPA_OK);
  uint64_t one = run_vec(&rules, 1);
  CHECK(run_vec(&rules, 3) == one);
  CHECK(run_vec(&rules, VEC_N + 5) == one);
  scopa_vecenv *vec;
  scopa_env_config multi = {.learner = -1};
  CHECK(scopa_vecenv_new(&rules, &multi, 4, 2, &vec) == SCOPA_EINVAL);
  scopa_vecenv_free(NULL);
}

int main(void) {
  scopa_rng rng;
  scopa_rng_seed(&rng, 2026);
  if (scopa_engine_new(&engine) != SCOPA_OK)
    return 1;
  test_hello_quit();
  test_example();
  test_malformed();
  TEST("engine-random-1", "CONTRACTS.md: legal/go on random rounds");
  for (int r = 0; r < 100; r++)
    play_round(&rng, r);
  test_actions(&rng);
  test_vecenv();
  TEST("engine-sizeof-1", "scopa.h: struct sizes");
  CHECK_EQ_INT(scopa_sizeof("state"), sizeof(scopa_state));
  CHECK_EQ_INT(scopa_sizeof("nothing"), 0);
  scopa_engine_free(engine);
  return test_summary("test_engine");
}
