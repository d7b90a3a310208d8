/*
 * test_match.c -- the whole-game object (scopa.h "A whole game") and its
 * seeds: random games under random rules through scopa_match with
 * invariants at every step (cards conserved, scores add up, no view or
 * record holds a card its reader may not know, restore(record(g)) == g,
 * copies play on alike), and seeds that deal the same decks whether a game
 * is played straight or stopped and resumed.
 */
#include "../test.h"
#include "scopa.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static scopa_rng rng;

/* Random checked rules from the option table itself, so every option the
 * library has is met (small targets keep games short). */
static scopa_rules random_rules(void) {
  for (;;) {
    scopa_rules r;
    scopa_rules_init(&r);
    for (int i = 0; i < scopa_option_count(); i++) {
      const scopa_option_info *o = scopa_option_get(i);
      if (scopa_rng_below(&rng, 5))
        continue;
      long long v;
      if (o->kind == SCOPA_OPT_BOOL)
        v = scopa_rng_below(&rng, 2);
      else if (o->kind == SCOPA_OPT_ENUM) {
        int n = 0;
        while (o->values[n])
          n++;
        v = scopa_rng_below(&rng, (uint32_t)n);
      } else {
        long long hi = o->max < o->min + 8 ? o->max : o->min + 8;
        v = o->min +
            (long long)scopa_rng_below(&rng, (uint32_t)(hi - o->min + 1));
      }
      scopa_rules_set(&r, o->name, v, NULL, NULL, 0);
    }
    if (r.target > 8)
      r.target = 8;
    if (scopa_rules_check(&r, NULL, NULL, 0) == SCOPA_OK)
      return r;
  }
}

/* ---- what a reader may know ----------------------------------------- */

static scopa_cards public_cards(const scopa_state *s) {
  scopa_cards k = s->initial_table;
  for (int i = 0; i < s->plays; i++)
    k |=
        SCOPA_BIT(SCOPA_MOVE_CARD(s->moves[i])) | SCOPA_MOVE_TAKES(s->moves[i]);
  return k;
}

static void add_card_text(const char *text, scopa_cards *named) {
  scopa_move m;
  if (!text)
    return;
  int c = scopa_card_parse(text);
  if (c >= 0)
    *named |= SCOPA_BIT(c);
  else if (scopa_move_parse(text, NULL, &m, NULL, 0) == SCOPA_OK)
    *named |= SCOPA_BIT(SCOPA_MOVE_CARD(m)) | SCOPA_MOVE_TAKES(m);
}

/* Every card named anywhere in a JSON value. */
static void cards_named(json_t *v, scopa_cards *named) {
  const char *key;
  json_t *x;
  size_t i;
  if (json_is_string(v))
    add_card_text(json_string_value(v), named);
  else if (json_is_array(v))
    json_array_foreach(v, i, x) cards_named(x, named);
  else if (json_is_object(v))
    json_object_foreach(v, key, x) cards_named(x, named);
}

/* The view JSON of `seat` (-1 public) names only cards it may know. */
static void check_view_json(const scopa_match *m, int seat) {
  const scopa_state *s = scopa_match_state(m);
  char *text = scopa_match_view_json(m, seat);
  json_t *obj = text ? json_loads(text, 0, NULL) : NULL;
  CHECK(obj != NULL);
  scopa_cards known = public_cards(s) | (seat >= 0 ? s->dealt[seat] : 0);
  scopa_cards named = 0;
  cards_named(json_object_get(obj, "round"), &named);
  CHECK((named & ~known) == 0);
  if (seat < 0) {
    CHECK(json_is_null(json_object_get(obj, "seat")));
    CHECK(json_object_get(json_object_get(obj, "round"), "dealt") == NULL);
  } else {
    /* and the view reads back as the engine reads a request */
    scopa_view v, w;
    char msg[200];
    CHECK(scopa_view_from_json(&v, text, strlen(text), msg, sizeof msg) ==
          SCOPA_OK);
    scopa_match_view(m, seat, &w);
    CHECK(v.hand == w.hand && v.table == w.table && v.unseen == w.unseen);
  }
  json_decref(obj);
  free(text);
  scopa_view pv;
  scopa_match_view(m, seat, &pv);
  if (seat < 0) {
    CHECK(pv.hand == 0 && pv.dealt == 0 && pv.seat == SCOPA_NO_SEAT);
    CHECK((pv.unseen & public_cards(s)) == 0);
  } else {
    CHECK(pv.hand == s->hand[seat]);
    CHECK((pv.unseen & (s->dealt[seat] | public_cards(s))) == 0);
  }
}

/* A record for `viewer` holds no seed and, in the live round's deck, no
 * card the viewer may not know. */
static void check_record_for(const scopa_match *m, int viewer) {
  const scopa_state *s = scopa_match_state(m);
  char *text = scopa_match_record_json(m, viewer);
  json_t *obj = text ? json_loads(text, JSON_ALLOW_NUL, NULL) : NULL;
  CHECK(obj != NULL);
  CHECK(json_object_get(obj, "seed") == NULL);
  json_t *rounds = json_object_get(obj, "rounds");
  json_t *live = json_array_get(rounds, json_array_size(rounds) - 1);
  if (s && !scopa_state_over(s)) {
    scopa_cards known = public_cards(s);
    for (int i = 0; i < s->players; i++)
      if (i == viewer || viewer == SCOPA_RECORD_SEEN)
        known |= s->dealt[i];
    scopa_cards named = 0;
    cards_named(json_object_get(live, "deck"), &named);
    CHECK(named == known);
  }
  json_decref(obj);
  free(text);
}

/* restore(record(g)) is g: the same record, phase, seat to play, scores
 * and views. */
static void check_restore(const scopa_match *m) {
  char *text = scopa_match_record_json(m, SCOPA_RECORD_FULL);
  scopa_match *back = NULL;
  scopa_fault f;
  CHECK(scopa_match_from_record(text, strlen(text), &back, &f) == SCOPA_OK);
  if (!back) {
    fprintf(stderr, "restore: %s\n%s\n", f.message, text);
    free(text);
    return;
  }
  char *again = scopa_match_record_json(back, SCOPA_RECORD_FULL);
  CHECK(again && strcmp(text, again) == 0);
  CHECK_EQ_INT(scopa_match_phase(back), scopa_match_phase(m));
  CHECK_EQ_INT(scopa_match_to_play(back), scopa_match_to_play(m));
  CHECK(memcmp(scopa_match_tally(back), scopa_match_tally(m),
               sizeof(scopa_tally)) == 0);
  if (scopa_match_state(m))
    for (int seat = -1; seat < scopa_match_rules(m)->players; seat++) {
      char *a = scopa_match_view_json(m, seat),
           *b = scopa_match_view_json(back, seat);
      CHECK(a && b && strcmp(a, b) == 0);
      free(a), free(b);
    }
  free(again);
  free(text);
  scopa_match_free(back);
}

static void check_cards_conserved(const scopa_state *s) {
  scopa_cards all = s->table, seen = s->table;
  int count = __builtin_popcountll(s->table);
  for (int i = 0; i < s->players; i++)
    all |= s->hand[i], count += __builtin_popcountll(s->hand[i]);
  for (int i = 0; i < s->sides; i++)
    all |= s->pile[i], count += __builtin_popcountll(s->pile[i]);
  for (int i = s->next; i < 40; i++)
    all |= SCOPA_BIT(s->deck[i]), count++;
  (void)seen;
  /* Under leftovers "nobody" the last table cards are in no pile. */
  CHECK(count <= 40 && (count == 40 || scopa_state_over(s)));
  CHECK(__builtin_popcountll(all) == count);
}

/* The event of a move agrees with the game after it. */
static void check_event(const scopa_match *m, const scopa_state *before,
                        scopa_move move, const scopa_event *ev) {
  const scopa_state *s = scopa_match_state(m);
  CHECK_EQ_INT(ev->seat, before->to_play);
  CHECK(ev->move == move && ev->taken == SCOPA_MOVE_TAKES(move));
  CHECK(ev->table_before == before->table);
  CHECK_EQ_INT(ev->ply, before->plays);
  int scope_before = 0, scope_after = 0;
  for (int i = 0; i < s->sides; i++)
    scope_before += before->scope[i], scope_after += s->scope[i];
  CHECK_EQ_INT(ev->scopa, scope_after - scope_before);
  CHECK_EQ_INT(ev->round_over, scopa_state_over(s));
  if (ev->round_over) {
    const scopa_tally *g = scopa_match_tally(m);
    CHECK(memcmp(ev->totals, g->totals, sizeof ev->totals) == 0);
    CHECK_EQ_INT(ev->game_over, g->finished);
    if (ev->leftovers_side >= 0)
      CHECK((s->pile[ev->leftovers_side] & ev->leftovers) == ev->leftovers);
  }
}

/* Totals are the sum of the rounds' points. */
static void check_totals(const scopa_match *m) {
  const scopa_tally *g = scopa_match_tally(m);
  for (int side = 0; side < g->sides; side++) {
    int sum = 0;
    for (int r = 0; r < scopa_match_rounds(m); r++)
      if (scopa_match_round(m, r)->complete)
        sum += scopa_match_round(m, r)->score.side[side].total;
    CHECK_EQ_INT(g->totals[side], sum);
  }
}

static scopa_move pick(const scopa_match *m, uint64_t salt) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_state_legal(scopa_match_state(m), moves, SCOPA_MAX_MOVES);
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  scopa_rng r;
  scopa_rng_seed(&r, salt);
  return moves[scopa_rng_below(&r, (uint32_t)n)];
}

/* One random game through the match, every invariant at every step. */
static void play_random_game(int g) {
  scopa_rules rules = random_rules();
  scopa_match *m = NULL, *twin = NULL;
  char seed[SCOPA_SEED_TEXT], msg[200];
  snprintf(seed, sizeof seed, "%x", g * 7919 + 1);
  CHECK(scopa_match_new(&rules, NULL, seed, &m, msg, sizeof msg) == SCOPA_OK);
  if (!m)
    return;
  for (int step = 0; step < 4000 && scopa_match_phase(m) != SCOPA_MATCH_OVER;
       step++) {
    if (scopa_match_phase(m) == SCOPA_MATCH_DEAL) {
      scopa_event ev;
      CHECK(scopa_match_apply(m, 0, NULL, NULL, 0) == SCOPA_EOVER);
      CHECK(scopa_match_to_play(m) == -1);
      CHECK(scopa_match_deal(m, &ev) == SCOPA_OK);
      CHECK(ev.ply == -1 && ev.seat == scopa_match_round(m, ev.round)->dealer);
      continue;
    }
    CHECK(scopa_match_deal(m, NULL) == SCOPA_EOVER);
    const scopa_state *s = scopa_match_state(m);
    scopa_state before = *s;
    check_cards_conserved(s);
    if (step % 3 == 0) {
      for (int seat = -1; seat < rules.players; seat++)
        check_view_json(m, seat);
      check_record_for(m, SCOPA_RECORD_PUBLIC);
      check_record_for(m, SCOPA_RECORD_SEEN);
      check_record_for(m, (int)scopa_rng_below(&rng, (uint32_t)rules.players));
    }
    if (step % 5 == 0)
      check_restore(m);
    if (!twin && scopa_rng_below(&rng, 40) == 0)
      CHECK(scopa_match_copy(m, &twin) == SCOPA_OK);
    /* an illegal move is refused and changes nothing */
    scopa_move bad = SCOPA_MOVE(SCOPA_MOVE_CARD(pick(m, 1)), SCOPA_ALL_CARDS);
    CHECK(scopa_match_apply(m, bad, NULL, msg, sizeof msg) == SCOPA_EILLEGAL);
    CHECK(memcmp(&before, scopa_match_state(m), sizeof before) == 0);
    scopa_move mv = pick(m, (uint64_t)g << 20 | (uint64_t)step);
    scopa_event ev;
    CHECK(scopa_match_apply(m, mv, &ev, msg, sizeof msg) == SCOPA_OK);
    check_event(m, &before, mv, &ev);
    if (twin) {
      if (scopa_match_phase(twin) == SCOPA_MATCH_DEAL)
        scopa_match_deal(twin, NULL);
      CHECK(scopa_match_apply(twin, mv, NULL, NULL, 0) == SCOPA_OK);
    }
    if (ev.round_over)
      check_totals(m);
  }
  CHECK(scopa_match_phase(m) == SCOPA_MATCH_OVER);
  check_restore(m);
  if (twin) {
    char *a = scopa_match_record_json(m, SCOPA_RECORD_FULL),
         *b = scopa_match_record_json(twin, SCOPA_RECORD_FULL);
    CHECK(a && b && strcmp(a, b) == 0);
    free(a), free(b);
  }
  scopa_match_free(twin);
  scopa_match_free(m);
}

/* ---- seeds ----------------------------------------------------------- */

/* Plays a seeded game to its end; every `stop_every` moves (0: never) it
 * is written to a record and restored from it, as a resumed game is. */
static scopa_match *seeded_game(const scopa_rules *rules, const char *seed,
                                int stop_every) {
  scopa_match *m = NULL;
  scopa_match_new(rules, NULL, seed, &m, NULL, 0);
  for (int step = 0; m && scopa_match_phase(m) != SCOPA_MATCH_OVER; step++) {
    if (stop_every && step % stop_every == stop_every - 1) {
      char *text = scopa_match_record_json(m, SCOPA_RECORD_FULL);
      scopa_match *back = NULL;
      scopa_fault f;
      CHECK(scopa_match_from_record(text, strlen(text), &back, &f) == SCOPA_OK);
      free(text);
      scopa_match_free(m);
      m = back;
      if (!m)
        break;
    }
    if (scopa_match_phase(m) == SCOPA_MATCH_DEAL)
      scopa_match_deal(m, NULL);
    else
      scopa_match_apply(m, pick(m, scopa_match_bot_seed(m)), NULL, NULL, 0);
  }
  return m;
}

static void test_seeds(void) {
  TEST("seed-1.1", "issue 10: a resumed game deals what the straight one did");
  for (int g = 0; g < 30; g++) {
    scopa_rules rules = random_rules();
    char seed[SCOPA_SEED_TEXT];
    snprintf(seed, sizeof seed, "%llx%016llx",
             (unsigned long long)scopa_rng_next(&rng),
             (unsigned long long)scopa_rng_next(&rng));
    scopa_match *straight = seeded_game(&rules, seed, 0);
    scopa_match *resumed =
        seeded_game(&rules, seed, 1 + (int)scopa_rng_below(&rng, 25));
    CHECK(straight && resumed);
    if (!straight || !resumed)
      return;
    char *a = scopa_match_record_json(straight, SCOPA_RECORD_FULL),
         *b = scopa_match_record_json(resumed, SCOPA_RECORD_FULL);
    CHECK(strcmp(a, b) == 0);
    free(a), free(b);
    TEST("seed-1.2", "RULES.md Game records, seed: round k's deck from the "
                     "seed and k alone");
    CHECK_EQ_INT(scopa_match_round(straight, 0)->dealer,
                 scopa_seed_dealer(seed, rules.players));
    for (int r = 0; r < scopa_match_rounds(straight); r++) {
      uint8_t deck[40];
      scopa_seed_deck(seed, r, &rules, deck);
      CHECK(memcmp(deck, scopa_match_round(straight, r)->deck, 40) == 0);
    }
    scopa_match_free(straight);
    scopa_match_free(resumed);
    TEST("seed-1.1", "");
  }
  TEST("seed-1.3", "RULES.md Game records: a seed is 1 to 64 lowercase hex");
  CHECK(scopa_seed_check("0", NULL, 0) == SCOPA_OK);
  CHECK(scopa_seed_check("deadbeef", NULL, 0) == SCOPA_OK);
  CHECK(scopa_seed_check("", NULL, 0) == SCOPA_EINVAL);
  CHECK(scopa_seed_check("DEADBEEF", NULL, 0) == SCOPA_EINVAL);
  CHECK(scopa_seed_check("12g", NULL, 0) == SCOPA_EINVAL);
  char long_seed[80];
  memset(long_seed, 'a', 65);
  long_seed[65] = 0;
  CHECK(scopa_seed_check(long_seed, NULL, 0) == SCOPA_EINVAL);
  long_seed[64] = 0;
  CHECK(scopa_seed_check(long_seed, NULL, 0) == SCOPA_OK);
  /* different seeds, different decks; leading zeros are the same number */
  scopa_rules rules;
  scopa_rules_init(&rules);
  scopa_rules_check(&rules, NULL, NULL, 0);
  uint8_t d1[40], d2[40], d3[40];
  scopa_seed_deck("2a", 0, &rules, d1);
  scopa_seed_deck("2b", 0, &rules, d2);
  scopa_seed_deck("002a", 0, &rules, d3);
  CHECK(memcmp(d1, d2, 40) != 0);
  CHECK(memcmp(d1, d3, 40) == 0);
  scopa_seed_deck("2a", 1, &rules, d2);
  CHECK(memcmp(d1, d2, 40) != 0);

  /* The derivation is a promise (every recorded seed deals with it): these
   * decks must never change.  tests/oracle/seed_deck.py derives them again
   * from scopa.h's words. */
  char deck_text[200] = "";
  size_t at = 0;
  for (int i = 0; i < 40; i++) {
    char c[SCOPA_CARD_TEXT];
    at += (size_t)snprintf(deck_text + at, sizeof deck_text - at, "%s%s",
                           i ? " " : "", scopa_card_str(d1[i], c));
  }
  CHECK_EQ_STR(deck_text, "8c 6c 2c 9d 1s 8b 5s 4c 3b 2d 4d 2b 10b 9c 7b 1b 3s "
                          "7c 9b 10d 4s 4b 3c 6d 7d 8s 10c 1d 9s 5b 3d 7s 5d "
                          "6s 8d 6b 10s 1c 5c 2s");
  CHECK_EQ_INT(scopa_seed_dealer("2a", 2), 1);

  TEST("seed-1.4", "CONTRACTS.md serve: seed_sha256 is SHA-256 of the seed");
  char sha[65], fresh[SCOPA_SEED_TEXT], other[SCOPA_SEED_TEXT];
  CHECK(scopa_seed_sha256("abc", sha) == SCOPA_OK);
  CHECK_EQ_STR(sha, "ba7816bf8f01cfea414140de5dae2223"
                    "b00361a396177a9cb410ff61f20015ad");
  CHECK(scopa_seed_random(fresh) == SCOPA_OK);
  CHECK(scopa_seed_random(other) == SCOPA_OK);
  CHECK(strlen(fresh) == 64 && scopa_seed_check(fresh, NULL, 0) == SCOPA_OK);
  CHECK(strcmp(fresh, other) != 0);

  TEST("seed-1.5", "RULES.md: a fresh seed's first dealer is any seat");
  int dealt[4] = {0, 0, 0, 0};
  for (int i = 0; i < 400; i++) {
    CHECK(scopa_seed_random(fresh) == SCOPA_OK);
    dealt[scopa_seed_dealer(fresh, 4)]++;
  }
  /* Each seat deals first about 100 times in 400; below 50 has odds
   * under 1e-9 for a fair draw (every seed of 32 digits gave one seat). */
  for (int s = 0; s < 4; s++)
    CHECK(dealt[s] >= 50);
}

/* ---- records --------------------------------------------------------- */

static void test_records(void) {
  TEST("match-record-1.1", "issue 14 #9: unknown fields and every name kept");
  const char *text =
      "{\"format\": \"scopa-record/1\", \"rules\": {}, \"client\": {\"v\": 3},"
      " \"seats\": [\"An\\u0000na\", \"Bo\"], \"rounds\": [], \"note\": \"x\"}";
  scopa_match *m = NULL;
  scopa_fault f;
  CHECK(scopa_match_from_record(text, strlen(text), &m, &f) == SCOPA_OK);
  if (!m)
    return;
  char *out = scopa_match_record_json(m, SCOPA_RECORD_FULL);
  json_t *obj = json_loads(out, JSON_ALLOW_NUL, NULL);
  CHECK(json_integer_value(
            json_object_get(json_object_get(obj, "client"), "v")) == 3);
  CHECK_EQ_STR(json_string_value(json_object_get(obj, "note")), "x");
  json_t *name = json_array_get(json_object_get(obj, "seats"), 0);
  CHECK(json_string_length(name) == 5 &&
        memcmp(json_string_value(name), "An\0na", 5) == 0);
  json_decref(obj);
  free(out);
  scopa_match_free(m);

  TEST("match-record-1.2", "RULES.md Game records: a bad seed is refused");
  const char *bad = "{\"format\": \"scopa-record/1\", \"rules\": {}, "
                    "\"seed\": \"XYZ\", \"rounds\": []}";
  CHECK(scopa_match_from_record(bad, strlen(bad), &m, &f) == SCOPA_ERECORD);
  CHECK(strstr(f.message, "seed") != NULL);

  TEST("match-record-1.3", "bots recorded by name and level");
  scopa_rules rules;
  scopa_rules_init(&rules);
  scopa_rules_check(&rules, NULL, NULL, 0);
  scopa_seat seats[2] = {{SCOPA_SEAT_PERSON, "Anna", NULL, NULL},
                         {SCOPA_SEAT_BOT, "Computer", "greedy", "intermedio"}};
  CHECK(scopa_match_new(&rules, seats, "7", &m, NULL, 0) == SCOPA_OK);
  scopa_match_deal(m, NULL);
  out = scopa_match_record_json(m, SCOPA_RECORD_FULL);
  scopa_match *back = NULL;
  CHECK(scopa_match_from_record(out, strlen(out), &back, &f) == SCOPA_OK);
  scopa_seat s;
  if (back) {
    scopa_match_seat(back, 1, &s, NULL);
    CHECK(s.kind == SCOPA_SEAT_BOT && strcmp(s.bot, "greedy") == 0 &&
          strcmp(s.level, "intermedio") == 0);
    scopa_match_seat(back, 0, &s, NULL);
    CHECK(s.kind == SCOPA_SEAT_PERSON && strcmp(s.name, "Anna") == 0);
    CHECK_EQ_STR(scopa_match_seed(back), "7");
  }
  free(out);
  scopa_match_free(back);
  scopa_match_free(m);
  TEST("match-new-1.1", "an unknown bot or a bad seed is refused");
  seats[1].bot = "nobody";
  char msg[200];
  CHECK(scopa_match_new(&rules, seats, "7", &m, msg, sizeof msg) ==
        SCOPA_EINVAL);
  CHECK(strstr(msg, "nobody") != NULL);
  seats[1].bot = "greedy";
  CHECK(scopa_match_new(&rules, seats, "7G", &m, msg, sizeof msg) ==
        SCOPA_EINVAL);
}

int main(void) {
  scopa_rng_seed(&rng, 2026);
  TEST("match-1.1", "random games under random rules, invariants each step");
  for (int g = 0; g < 60; g++)
    play_random_game(g);
  test_seeds();
  test_records();
  return test_summary("game");
}
