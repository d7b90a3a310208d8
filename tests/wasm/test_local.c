/*
 * test_local.c -- the browser's local table (src/wasm/local.c), compiled
 * natively so it runs under the sanitizers: whole games through its
 * messages, checked against a scopa_match of the test's own that plays
 * the same moves (every bot move must be the one scopa_bot_choose gives
 * for that seat's view with the seat's node budget and the match's bot
 * seed, as `scopa engine` would); the record replays to the announced
 * totals; and every refusal the server gives, with its code.  The same
 * module in WebAssembly is checked against the native build in
 * web/wasm/test (docs/wasm.md).
 */
#include "../test.h"
#include "local.h"
#include "scopa.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* Sends text, returns the answer parsed (a JSON array, checked). */
static json_t *send(scopa_local *l, const char *text) {
  char *answer = scopa_local_send(l, text, strlen(text));
  json_t *a = answer ? json_loads(answer, 0, NULL) : NULL;
  CHECK(json_is_array(a));
  free(answer);
  return a ? a : json_array();
}

static json_t *step(scopa_local *l) {
  char *answer = scopa_local_step(l);
  json_t *a = answer ? json_loads(answer, 0, NULL) : NULL;
  CHECK(json_is_array(a));
  free(answer);
  return a ? a : json_array();
}

static const char *type_of(const json_t *m) {
  const char *t = json_string_value(json_object_get(m, "type"));
  return t ? t : "";
}

/* The error code of the only message of an answer ("" if it is not one
 * error). */
static const char *error_code(const json_t *a) {
  json_t *m = json_array_get(a, 0);
  if (json_array_size(a) != 1 || strcmp(type_of(m), "error") != 0)
    return "";
  return json_string_value(json_object_get(m, "code"));
}

/* The test's own game: the same rules, seed and seats. */
typedef struct mirror {
  scopa_match *match;
  const char *bots[SCOPA_MAX_SEATS]; /* seat strings as sent         */
  int me;
  scopa_bot *bot[SCOPA_MAX_SEATS];
} mirror;

/* The node budget the local table must use for a seat (local.h). */
static uint64_t nodes_for(const char *seat, scopa_bot *bot) {
  int ms = SCOPA_LOCAL_BOT_MS;
  if (scopa_bot_level(seat, NULL, &ms) != SCOPA_OK)
    ms = SCOPA_LOCAL_BOT_MS;
  if (ms == 0)
    ms = scopa_bot_movetime(bot);
  return (uint64_t)ms * SCOPA_BOT_NODES_PER_MS;
}

/* What the bot at `seat` must play now. */
static scopa_move expected(mirror *mi, int seat) {
  scopa_view v;
  scopa_move move = 0;
  scopa_match_view(mi->match, seat, &v);
  scopa_bot_limits lim = {.seed = scopa_match_bot_seed(mi->match),
                          .threads = 1,
                          .nodes = nodes_for(mi->bots[seat], mi->bot[seat])};
  CHECK_EQ_INT(scopa_bot_choose(mi->bot[seat], &v, &lim, &move), SCOPA_OK);
  return move;
}

/* The last move of the round in a state message (after a move). */
static scopa_move last_move(const json_t *state) {
  json_t *moves = json_object_get(json_object_get(state, "round"), "moves");
  scopa_move m = 0;
  const char *text = json_string_value(json_array_get(
      moves, json_array_size(moves) ? json_array_size(moves) - 1 : 0));
  CHECK(text && scopa_move_parse(text, NULL, &m, NULL, 0) == SCOPA_OK);
  return m;
}

/* Applies the move the answer's first state announces to the mirror and
 * deals as the table does; returns the game_over message, if any. */
static json_t *follow(mirror *mi, json_t *a, int *rounds_over) {
  json_t *first = json_array_get(a, 0), *over = NULL;
  CHECK_EQ_STR(type_of(first), "state");
  scopa_move m = last_move(first);
  CHECK_EQ_INT(scopa_match_apply(mi->match, m, NULL, NULL, 0), SCOPA_OK);
  for (size_t i = 1; i < json_array_size(a); i++) {
    json_t *msg = json_array_get(a, i);
    if (strcmp(type_of(msg), "round_over") == 0)
      ++*rounds_over;
    if (strcmp(type_of(msg), "game_over") == 0)
      over = msg;
  }
  if (scopa_match_phase(mi->match) == SCOPA_MATCH_DEAL)
    CHECK_EQ_INT(scopa_match_deal(mi->match, NULL), SCOPA_OK);
  return over;
}

/* A move of the person: the first of the state's legal moves. */
static json_t *person_moves(scopa_local *l, const json_t *state) {
  char text[300];
  const char *mv =
      json_string_value(json_array_get(json_object_get(state, "legal"), 0));
  CHECK(mv != NULL);
  snprintf(text, sizeof text, "{\"type\":\"move\",\"move\":\"%s\",\"ply\":%d}",
           mv ? mv : "",
           (int)json_integer_value(json_object_get(state, "ply")));
  return send(l, text);
}

/* The last state of an answer. */
static json_t *last_state(json_t *a, json_t *prev) {
  for (size_t i = 0; i < json_array_size(a); i++)
    if (strcmp(type_of(json_array_get(a, i)), "state") == 0)
      prev = json_array_get(a, i);
  return prev;
}

/* Plays a whole game through the table; checks every bot move and the
 * record.  rules is a JSON object text, seats the seat strings. */
static void whole_game(const char *rules, const char **seats, int n,
                       const char *seed) {
  scopa_local *l = scopa_local_new();
  mirror mi = {0};
  char text[512], seat_list[200] = "";
  for (int i = 0; i < n; i++) {
    snprintf(seat_list + strlen(seat_list),
             sizeof seat_list - strlen(seat_list), "%s\"%s\"", i ? "," : "",
             seats[i]);
    mi.bots[i] = seats[i];
  }
  snprintf(text, sizeof text,
           "{\"type\":\"create\",\"rules\":%s,\"seats\":[%s],\"name\":\"Anna\","
           "\"seed\":\"%s\",\"id\":7}",
           rules, seat_list, seed);
  json_t *a = send(l, text);
  CHECK_EQ_INT(json_array_size(a), 2);
  json_t *seated = json_array_get(a, 0);
  CHECK_EQ_STR(type_of(seated), "seated");
  CHECK_EQ_INT(json_integer_value(json_object_get(seated, "id")), 7);
  mi.me = (int)json_integer_value(json_object_get(seated, "seat"));

  /* The mirror: the rules the state shows, the same seed and seats. */
  json_t *state = json_incref(json_array_get(a, 1));
  char *rules_text = json_dumps(json_object_get(state, "rules"), 0);
  scopa_rules r;
  CHECK_EQ_INT(
      scopa_rules_from_json(&r, rules_text, strlen(rules_text), NULL, NULL, 0),
      SCOPA_OK);
  free(rules_text);
  CHECK_EQ_STR(json_string_value(json_object_get(state, "status")), "playing");
  scopa_seat ss[SCOPA_MAX_SEATS] = {0};
  for (int i = 0; i < n; i++) {
    const char *bot = seats[i];
    if (i == mi.me)
      continue;
    scopa_bot_level(seats[i], &bot, NULL);
    ss[i].kind = SCOPA_SEAT_BOT;
    ss[i].bot = bot;
    CHECK_EQ_INT(scopa_bot_new(bot, &mi.bot[i]), SCOPA_OK);
  }
  CHECK_EQ_INT(scopa_match_new(&r, ss, seed, &mi.match, NULL, 0), SCOPA_OK);
  CHECK_EQ_INT(scopa_match_deal(mi.match, NULL), SCOPA_OK);
  json_decref(a);

  int rounds_over = 0, plies = 0, bot_moves = 0;
  json_t *over = NULL;
  while (!over && plies < 2000) {
    int to_play = scopa_match_to_play(mi.match);
    CHECK_EQ_INT(json_integer_value(json_object_get(state, "to_play")),
                 to_play);
    scopa_move want = to_play != mi.me ? expected(&mi, to_play) : 0;
    a = to_play == mi.me ? person_moves(l, state) : step(l);
    if (to_play != mi.me) {
      CHECK(last_move(json_array_get(a, 0)) == want);
      bot_moves++;
    }
    over = json_incref(follow(&mi, a, &rounds_over));
    json_t *next = json_incref(last_state(a, state));
    json_decref(state);
    state = next;
    json_decref(a);
    plies++;
  }
  CHECK(over != NULL);
  CHECK(bot_moves > 0);
  CHECK_EQ_INT(rounds_over, scopa_match_rounds(mi.match));
  CHECK_EQ_STR(json_string_value(json_object_get(state, "status")), "finished");
  json_t *done = step(l); /* no bot moves after the end */
  CHECK_EQ_INT(json_array_size(done), 0);
  json_decref(done);

  /* The record replays to the totals and the winner announced. */
  char *record = scopa_local_record(l);
  scopa_replay rep;
  scopa_fault fault;
  CHECK(record != NULL);
  CHECK_EQ_INT(scopa_replay_text(record, strlen(record), &rep, &fault),
               SCOPA_OK);
  CHECK(rep.game.finished);
  json_t *totals = json_object_get(over, "totals");
  for (int s = 0; s < rep.game.sides; s++)
    CHECK_EQ_INT(json_integer_value(json_array_get(totals, (size_t)s)),
                 rep.game.totals[s]);
  json_t *winner = json_object_get(over, "winner");
  CHECK_EQ_INT(json_is_null(winner) ? -1 : json_integer_value(winner),
               rep.game.winner);
  CHECK_EQ_STR(json_string_value(json_object_get(over, "seed")), seed);
  scopa_replay_free(&rep);
  char *mine = scopa_match_record_json(mi.match, SCOPA_RECORD_FULL);
  json_t *x = json_loads(record, 0, NULL), *y = json_loads(mine, 0, NULL);
  json_object_del(x, "seats"); /* names: "Anna" there, none here */
  json_object_del(y, "seats");
  json_object_del(x, "bots");
  json_object_del(y, "bots");
  CHECK(json_equal(x, y)); /* the same rounds, decks and moves */
  json_decref(x);
  json_decref(y);
  free(mine);
  free(record);

  json_decref(over);
  json_decref(state);
  for (int i = 0; i < n; i++)
    scopa_bot_free(mi.bot[i]);
  scopa_match_free(mi.match);
  scopa_local_free(l);
}

static void test_games(void) {
  TEST("local-1.1", "a whole game against greedy, bots checked move by move");
  const char *two[] = {"me", "greedy"};
  whole_game("{\"target\":11}", two, 2, "c0ffee");
  TEST("local-1.2", "levels at four seats in teams, the person second");
  const char *four[] = {"principiante", "me", "intermedio", "rules"};
  whole_game("\"scopone\"", four, 4, "5eed");
  TEST("local-1.3", "a searching level by its node budget (esperto, pimc)");
  const char *searching[] = {"me", "esperto"};
  whole_game("{\"target\":11}", searching, 2, "abc123");
}

static void test_refusals(void) {
  scopa_local *l = scopa_local_new();
  json_t *a;
  TEST("local-2.1", "before a create: not seated; ping; unknown types");
  a = send(l, "{\"type\":\"move\",\"move\":\"7d\",\"ply\":0}");
  CHECK_EQ_STR(error_code(a), "not_seated");
  json_decref(a);
  a = send(l, "{\"type\":\"ping\",\"id\":\"p\"}");
  CHECK_EQ_STR(type_of(json_array_get(a, 0)), "pong");
  CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(a, 0), "id")),
               "p");
  json_decref(a);
  a = send(l, "{\"type\":\"dance\"}");
  CHECK_EQ_INT(json_array_size(a), 0);
  json_decref(a);
  a = step(l);
  CHECK_EQ_INT(json_array_size(a), 0);
  json_decref(a);
  CHECK(scopa_local_record(l) == NULL);

  TEST("local-2.2", "bad JSON, bad seats, bad rules, a bad seed");
  const char *cases[][2] = {
      {"{\"type\":", "bad_json"},
      {"[1]", "bad_message"},
      {"{\"type\":\"create\",\"seats\":[\"me\",\"open\"]}", "bad_seats"},
      {"{\"type\":\"create\",\"seats\":[\"greedy\",\"best\"]}", "bad_seats"},
      {"{\"type\":\"create\",\"seats\":[\"me\",\"nobody\"]}", "bad_seats"},
      {"{\"type\":\"create\",\"rules\":\"nada\",\"seats\":[\"me\",\"best\"]}",
       "bad_rules"},
      {"{\"type\":\"create\",\"rules\":{\"players\":4},\"seats\":[\"me\","
       "\"best\"]}",
       "bad_rules"},
      {"{\"type\":\"create\",\"seats\":[\"me\",\"best\"],\"seed\":\"XYZ\"}",
       "bad_message"},
      {"{\"type\":\"create\",\"seats\":[\"me\",\"best\"],\"seed\":7}",
       "bad_message"},
      {"{\"type\":\"join\",\"code\":\"LOCAL\"}", "no_table"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    a = send(l, cases[i][0]);
    CHECK_EQ_STR(error_code(a), cases[i][1]);
    json_decref(a);
  }

  /* rules the library cannot play: the texts name the options by their
   * labels in each language, "options" by name for programs */
  a = send(l, "{\"type\":\"create\",\"rules\":{\"ace_empty_table\":"
              "\"taken\"},\"seats\":[\"me\",\"best\"]}");
  CHECK_EQ_STR(error_code(a), "bad_rules");
  json_t *e = json_array_get(a, 0);
  char *names = json_dumps(json_object_get(e, "options"), JSON_COMPACT);
  CHECK_EQ_STR(names ? names : "", "[\"ace_empty_table\",\"ace_sweeps\"]");
  free(names);
  const char *en = json_string_value(json_object_get(e, "message"));
  const char *it = json_string_value(json_object_get(e, "message_it"));
  CHECK(en && strstr(en, "'Ace on an empty table' needs 'Ace sweeps"));
  CHECK(it && strstr(it, "'Asso a tavolo vuoto' vuole 'Asso piglia tutto'"));
  json_decref(a);
  /* a refusal that is not the check's has no options */
  a = send(l, "{\"type\":\"create\",\"rules\":{\"players\":5},"
              "\"seats\":[\"me\",\"best\"]}");
  CHECK_EQ_STR(error_code(a), "bad_rules");
  CHECK(!json_object_get(json_array_get(a, 0), "options"));
  json_decref(a);

  TEST("local-2.3", "moves refused as the server refuses them");
  a = send(l, "{\"type\":\"create\",\"seats\":[\"me\",\"greedy\"],"
              "\"seed\":\"1\"}");
  json_t *state = json_array_get(a, 1);
  int me_first = json_integer_value(json_object_get(state, "to_play")) == 0;
  json_decref(a);
  if (!me_first) { /* let the bot play first */
    a = step(l);
    json_decref(a);
  }
  const char *moves[][2] = {
      {"{\"type\":\"move\",\"move\":\"7d\",\"ply\":5}", "stale"},
      {"{\"type\":\"move\",\"move\":\"7d\",\"ply\":%d,\"seat\":1}",
       "not_your_seat"},
      {"{\"type\":\"move\",\"move\":\"77\",\"ply\":%d}", "bad_move"},
  };
  int ply = me_first ? 0 : 1;
  for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
    char text[200];
    snprintf(text, sizeof text, moves[i][0], ply);
    a = send(l, text);
    CHECK_EQ_STR(error_code(a), moves[i][1]);
    json_decref(a);
  }
  a = send(l, "{\"type\":\"review\"}");
  CHECK_EQ_STR(error_code(a), "not_playing");
  json_decref(a);

  TEST("local-2.4", "a hint: every legal move valued, best first");
  a = send(l, "{\"type\":\"hint\",\"id\":3,\"lang\":\"it\"}");
  json_t *h = json_array_get(a, 0);
  CHECK_EQ_STR(type_of(h), "hint");
  CHECK_EQ_INT(json_integer_value(json_object_get(h, "id")), 3);
  CHECK_EQ_INT(json_integer_value(json_object_get(h, "ply")), ply);
  json_t *hm = json_object_get(h, "moves");
  CHECK(json_array_size(hm) >= 1);
  CHECK_EQ_STR(
      json_string_value(json_object_get(h, "move")),
      json_string_value(json_object_get(json_array_get(hm, 0), "move")));
  for (size_t i = 1; i < json_array_size(hm); i++)
    CHECK(
        json_real_value(json_object_get(json_array_get(hm, i - 1), "value")) >=
        json_real_value(json_object_get(json_array_get(hm, i), "value")));
  /* issue 33: in the language the message said, the library's words */
  const char *said = json_string_value(json_object_get(h, "words"));
  CHECK(said && (!strncmp(said, "Prendi ", 7) || !strncmp(said, "Cala ", 5)));
  json_decref(a);
  /* a ping with a new language: the pong, then the state in it */
  a = send(l, "{\"type\":\"ping\",\"lang\":\"en\"}");
  CHECK(json_array_size(a) == 2);
  json_t *lw = json_object_get(json_array_get(a, 1), "legal_words");
  const char *w0 = json_string_value(json_array_get(lw, 0));
  CHECK(w0 && (!strncmp(w0, "Take ", 5) || !strncmp(w0, "Lay ", 4)));
  /* issue 33: why each hand card plays so, the library's reason and words
   * (scopa_view_card_reason, scopa_card_reason_words), one per hand card */
  json_t *st = json_array_get(a, 1);
  json_t *why = json_object_get(json_object_get(st, "drawn"), "reasons");
  CHECK(json_array_size(why) == json_array_size(json_object_get(st, "hand")));
  size_t wi;
  json_t *wx;
  json_array_foreach(why, wi, wx) {
    CHECK_EQ_STR(
        json_string_value(json_object_get(wx, "card")),
        json_string_value(json_array_get(json_object_get(st, "hand"), wi)));
    const char *code = json_string_value(json_object_get(wx, "reason"));
    const char *rw = json_string_value(json_object_get(wx, "words"));
    CHECK(code && strcmp(code, "not_playable") != 0); /* it is to play */
    CHECK(rw && strlen(rw) > 10 && rw[strlen(rw) - 1] == '.');
  }
  json_decref(a);
  a = send(l, "{\"type\":\"ping\",\"lang\":\"en\"}");
  CHECK(json_array_size(a) == 1);
  json_decref(a);
  scopa_local_free(l);
  scopa_local_free(NULL);
}

static void test_review(void) {
  TEST("local-3.1", "the review of a finished game, made once");
  scopa_local *l = scopa_local_new();
  json_t *a = send(l, "{\"type\":\"create\",\"rules\":{\"target\":1},"
                      "\"seats\":[\"me\",\"greedy\"],\"seed\":\"2\"}");
  json_t *state = json_incref(json_array_get(a, 1));
  json_decref(a);
  int guard = 0;
  while (strcmp(json_string_value(json_object_get(state, "status")),
                "finished") != 0 &&
         guard++ < 500) {
    int mine = json_integer_value(json_object_get(state, "to_play")) ==
               json_integer_value(json_object_get(state, "seat"));
    a = mine ? person_moves(l, state) : step(l);
    json_t *next = json_incref(last_state(a, state));
    json_decref(state);
    state = next;
    json_decref(a);
  }
  a = send(l, "{\"type\":\"review\",\"id\":1}");
  json_t *r = json_array_get(a, 0);
  CHECK_EQ_STR(type_of(r), "review");
  CHECK_EQ_STR(json_string_value(json_object_get(r, "code")), SCOPA_LOCAL_CODE);
  CHECK(json_array_size(json_object_get(r, "rounds")) >= 1);
  char *once = json_dumps(json_object_get(r, "rounds"), 0);
  json_decref(a);
  a = send(l, "{\"type\":\"review\",\"id\":2}");
  char *twice = json_dumps(json_object_get(json_array_get(a, 0), "rounds"), 0);
  CHECK_EQ_STR(once, twice);
  free(once);
  free(twice);
  json_decref(a);
  /* issue 33: each move in the library's words, in the language said */
  a = send(l, "{\"type\":\"review\",\"lang\":\"it\",\"deck\":\"francesi\"}");
  json_t *m0 = json_array_get(
      json_object_get(
          json_array_get(json_object_get(json_array_get(a, 0), "rounds"), 0),
          "moves"),
      0);
  const char *w0 = json_string_value(json_object_get(m0, "move_words"));
  CHECK(w0 && (!strncmp(w0, "Prendi ", 7) || !strncmp(w0, "Cala ", 5)));
  CHECK(w0 && (strstr(w0, "quadri") || strstr(w0, "cuori") ||
               strstr(w0, "picche") || strstr(w0, "fiori")));
  CHECK(json_string_value(json_object_get(m0, "loss_words")));
  json_decref(a);
  a = send(l, "{\"type\":\"hint\"}");
  CHECK_EQ_STR(error_code(a), "not_your_turn");
  json_decref(a);
  json_decref(state);
  scopa_local_free(l);
}

/* The person's or the bot's next move on table l, whose last state is
 * *state (replaced by the answer's last state); the answer as text. */
static char *play_one(scopa_local *l, json_t **state) {
  int mine = json_integer_value(json_object_get(*state, "to_play")) ==
             json_integer_value(json_object_get(*state, "seat"));
  json_t *a = mine ? person_moves(l, *state) : step(l);
  json_t *next = json_incref(last_state(a, *state));
  json_decref(*state);
  *state = next;
  char *text = json_dumps(a, JSON_COMPACT);
  json_decref(a);
  return text;
}

static int finished(const json_t *state) {
  return strcmp(json_string_value(json_object_get(state, "status")),
                "finished") == 0;
}

/* Plays `plies` moves on a table, restores its record into a second one,
 * and plays both to the end: every answer the same, message for message. */
static void restored_game(int plies) {
  scopa_local *a = scopa_local_new(), *b = scopa_local_new();
  json_t *r = send(a, "{\"type\":\"create\",\"rules\":{\"target\":11},"
                      "\"seats\":[\"esperto\",\"me\",\"intermedio\"],"
                      "\"name\":\"Anna\",\"seed\":\"f00d\"}");
  json_t *sa = json_incref(json_array_get(r, 1));
  json_decref(r);
  for (int i = 0; i < plies && !finished(sa); i++)
    free(play_one(a, &sa));
  char *record = scopa_local_record(a);
  json_t *msg = json_pack("{s:s, s:s, s:i}", "type", "restore", "record",
                          record, "id", 9);
  char *text = json_dumps(msg, 0);
  r = send(b, text);
  CHECK_EQ_INT(json_array_size(r), 2);
  CHECK_EQ_STR(type_of(json_array_get(r, 0)), "seated");
  CHECK_EQ_INT(json_integer_value(json_object_get(json_array_get(r, 0), "id")),
               9);
  CHECK_EQ_INT(
      json_integer_value(json_object_get(json_array_get(r, 0), "seat")), 1);
  json_t *sb = json_incref(json_array_get(r, 1));
  CHECK(json_equal(sa, sb)); /* the state where the game stopped */
  json_decref(r);
  int guard = 0, same = 1;
  while (!finished(sa) && guard++ < 2000) {
    char *x = play_one(a, &sa), *y = play_one(b, &sb);
    same = same && x && y && strcmp(x, y) == 0;
    free(x);
    free(y);
  }
  CHECK(same);
  CHECK(finished(sb));
  char *ra = scopa_local_record(a), *rb = scopa_local_record(b);
  CHECK_EQ_STR(ra, rb);
  free(ra);
  free(rb);
  free(text);
  json_decref(msg);
  free(record);
  json_decref(sa);
  json_decref(sb);
  scopa_local_free(a);
  scopa_local_free(b);
}

static void test_restore(void) {
  TEST("local-4.1",
       "a record restored mid-round plays on as the straight game");
  restored_game(7);
  TEST("local-4.2", "restored after rounds ended (a new round dealt)");
  restored_game(40);
  TEST("local-4.3", "records that are not a local game's: table_damaged");
  scopa_local *l = scopa_local_new();
  json_t *a = send(l, "{\"type\":\"create\",\"seats\":[\"me\",\"greedy\"],"
                      "\"seed\":\"1\"}");
  json_decref(a);
  char *good = scopa_local_record(l);
  json_t *rec = json_loads(good, 0, NULL);
  json_t *noseed = json_deep_copy(rec), *twopeople = json_deep_copy(rec);
  json_object_del(noseed, "seed");
  json_array_set_new(json_object_get(twopeople, "bots"), 1, json_null());
  char *texts[] = {json_dumps(noseed, 0), json_dumps(twopeople, 0),
                   strdup("{\"format\":1}"), strdup("not json")};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    json_t *m = json_pack("{s:s, s:s}", "type", "restore", "record", texts[i]);
    char *t = json_dumps(m, 0);
    a = send(l, t);
    CHECK_EQ_STR(error_code(a), "table_damaged");
    json_decref(a);
    free(t);
    json_decref(m);
    free(texts[i]);
  }
  a = send(l, "{\"type\":\"restore\",\"record\":7}");
  CHECK_EQ_STR(error_code(a), "table_damaged");
  json_decref(a);
  char *still = scopa_local_record(l); /* the game is kept */
  CHECK_EQ_STR(still, good);
  free(still);
  free(good);
  json_decref(rec);
  json_decref(noseed);
  json_decref(twopeople);
  scopa_local_free(l);
}

/* issue 34 ("Player 1" on an Italian page): a person without a name is
 * named in the language of the page, as the server names one. */
static void test_default_name(void) {
  TEST("local-2.5", "a person without a name is named in its language");
  const char *langs[] = {"it", "en"}, *names[] = {"Giocatore 2", "Player 2"};
  for (int k = 0; k < 2; k++) {
    scopa_local *l = scopa_local_new();
    char text[200];
    snprintf(text, sizeof text,
             "{\"type\":\"create\",\"lang\":\"%s\",\"seats\":"
             "[\"greedy\",\"me\"]}",
             langs[k]);
    json_t *a = send(l, text), *m;
    size_t i;
    int seen = 0;
    json_array_foreach(a, i, m) if (!strcmp(type_of(m), "state")) {
      CHECK_EQ_STR(
          json_string_value(json_array_get(json_object_get(m, "seats"), 1)),
          names[k]);
      seen = 1;
    }
    CHECK(seen);
    json_decref(a);
    scopa_local_free(l);
  }
}

int main(void) {
  test_games();
  test_default_name();
  test_refusals();
  test_review();
  test_restore();
  return test_summary("wasm/test_local");
}
