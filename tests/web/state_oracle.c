/*
 * state_oracle.c -- what the library says about random rounds, for the
 * web client to be checked against (web/test/agree.test.ts): the review
 * message's steps (each move's seat and the table before it, which the
 * review screen draws) against the states the library played.
 *
 * Usage: state_oracle [ROUNDS [SEED]]   (default 600 rounds, seed 1)
 *
 * Deals ROUNDS rounds under rules drawn at random (a preset, then up to
 * three options set to random values, kept when scopa_rules_check takes
 * them), plays each with uniformly random legal moves, and writes one JSON
 * object per line:
 *
 *   {"rules": {...}, "round": {"dealer", "table", "moves"},
 *    "states": [{"table", "piles", "scope", "hands", "stock", "to_play"}],
 *    "score": [{"cards", "denari", "settebello", "primiera", "sevens",
 *               "scope"}]}
 *
 *   ... "review": the rounds of scopa_match_review_json of that round
 *   played as a scopa_match (bot "greedy", no memory: no estimates, so
 *   it is quick; each move's "seat" and "table" are what matter)}
 *
 * "round" is what a state message carries (the table as first dealt and
 * the moves in record notation); states[k] is the round after its first
 * k moves, read from scopa_state: the table, each side's pile and scope
 * count, each seat's hand size and the stock; "score" is
 * scopa_state_score of the finished round.  Card lists are in card order.
 * The same arguments always write the same bytes.
 */
#include "scopa.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const PRESETS[] = {"scopa",    "scopone",  "scientifico",
                                      "assi",     "quindici", "escoba",
                                      "trentuno", "perdere"};

static json_t *cards_json(scopa_cards set) {
  json_t *arr = json_array();
  char text[SCOPA_CARD_TEXT];
  for (int c = 0; c < 40; c++)
    if (set & SCOPA_BIT(c))
      json_array_append_new(arr, json_string(scopa_card_str(c, text)));
  return arr;
}

static int popcount(scopa_cards set) { return __builtin_popcountll(set); }

/* A preset, then up to three options at random values the check keeps. */
static void random_rules(scopa_rng *rng, scopa_rules *rules) {
  size_t npresets = sizeof PRESETS / sizeof *PRESETS;
  scopa_rules_preset(rules, PRESETS[scopa_rng_below(rng, (uint32_t)npresets)]);
  int changes = (int)scopa_rng_below(rng, 4);
  for (int k = 0; k < changes; k++) {
    scopa_rules tried = *rules;
    const scopa_option_info *o = scopa_option_get(
        (int)scopa_rng_below(rng, (uint32_t)scopa_option_count()));
    long long value;
    if (o->kind == SCOPA_OPT_BOOL) {
      value = scopa_rng_below(rng, 2);
    } else if (o->kind == SCOPA_OPT_INT) {
      /* at most 20 values from min (max may be LLONG_MAX: no overflow) */
      long long span = o->max - o->min >= 19 ? 20 : o->max - o->min + 1;
      value = o->min + (long long)scopa_rng_below(rng, (uint32_t)span);
    } else {
      int n = 0;
      while (o->values[n])
        n++;
      value = scopa_rng_below(rng, (uint32_t)n);
    }
    if (scopa_rules_set(&tried, o->name, value, NULL, NULL, 0) == SCOPA_OK &&
        scopa_rules_check(&tried, NULL, NULL, 0) == SCOPA_OK)
      *rules = tried;
  }
}

static json_t *state_json(const scopa_state *s) {
  json_t *piles = json_array(), *scope = json_array(), *hands = json_array();
  for (int side = 0; side < s->sides; side++) {
    json_array_append_new(piles, cards_json(s->pile[side]));
    json_array_append_new(scope, json_integer(s->scope[side]));
  }
  for (int seat = 0; seat < s->players; seat++)
    json_array_append_new(hands, json_integer(popcount(s->hand[seat])));
  json_t *to_play =
      s->to_play == SCOPA_NO_SEAT ? json_null() : json_integer(s->to_play);
  return json_pack("{s:o, s:o, s:o, s:o, s:i, s:o}", "table",
                   cards_json(s->table), "piles", piles, "scope", scope,
                   "hands", hands, "stock", scopa_state_stock(s), "to_play",
                   to_play);
}

static json_t *score_json(const scopa_state *s) {
  scopa_score score;
  json_t *arr = json_array();
  if (scopa_state_score(s, &score) != SCOPA_OK)
    return arr;
  for (int i = 0; i < score.sides; i++) {
    const scopa_side_score *side = &score.side[i];
    json_array_append_new(
        arr, json_pack("{s:i, s:i, s:b, s:i, s:i, s:i}", "cards", side->cards,
                       "denari", side->denari, "settebello", side->settebello,
                       "primiera", side->primiera, "sevens", side->sevens[0],
                       "scope", side->scope));
  }
  return arr;
}

/* The review's "rounds" of the round dealt from deck and played so, as
 * a scopa_match plays it: a match of its own, apart from the scopa_state
 * the states come from. */
static json_t *review_json(const scopa_rules *rules, int dealer,
                           const uint8_t deck[40], const scopa_move *moves,
                           int n) {
  scopa_match *m = NULL;
  scopa_bot *bot = NULL;
  json_t *out = json_null();
  if (scopa_match_new(rules, NULL, "0", &m, NULL, 0) != SCOPA_OK ||
      scopa_bot_new("greedy", &bot) != SCOPA_OK)
    goto done;
  scopa_match_set_first_dealer(m, dealer);
  if (scopa_match_deal_deck(m, deck, NULL, NULL, 0) != SCOPA_OK)
    goto done;
  for (int i = 0; i < n; i++)
    if (scopa_match_apply(m, moves[i], NULL, NULL, 0) != SCOPA_OK)
      goto done;
  char *text = scopa_match_review_json(m, bot, 1, -1, NULL, 0);
  json_t *doc = text ? json_loads(text, 0, NULL) : NULL;
  scopa_free(text);
  if (doc) {
    json_decref(out);
    out = json_incref(json_object_get(doc, "rounds"));
    json_decref(doc);
  }
done:
  scopa_bot_free(bot);
  scopa_match_free(m);
  return out ? out : json_null();
}

/* One round dealt and played at random; NULL only if no deck deals. */
static json_t *random_round(scopa_rng *rng) {
  scopa_rules rules;
  scopa_state s;
  uint8_t deck[40];
  random_rules(rng, &rules);
  int dealer = (int)scopa_rng_below(rng, (uint32_t)rules.players), rc;
  int tries = 0;
  do {
    scopa_rng_deck(rng, deck);
    rc = scopa_state_deal(&s, &rules, dealer, deck, NULL, 0);
  } while (rc == SCOPA_EVOID && ++tries < 100);
  if (rc != SCOPA_OK)
    return NULL;
  json_t *states = json_array(), *moves = json_array();
  json_array_append_new(states, state_json(&s));
  scopa_move legal[512], played[40];
  int nplayed = 0;
  char text[SCOPA_MOVE_TEXT];
  while (scopa_state_to_play(&s) >= 0 && nplayed < 40) {
    int n = scopa_state_legal(&s, legal, 512);
    if (n <= 0 || n > 512)
      break;
    scopa_move m = legal[scopa_rng_below(rng, (uint32_t)n)];
    played[nplayed++] = m;
    json_array_append_new(moves, json_string(scopa_move_str(m, text)));
    if (scopa_state_apply(&s, m, NULL, 0) != SCOPA_OK)
      break;
    json_array_append_new(states, state_json(&s));
  }
  char *rules_text = scopa_rules_to_json(&s.rules);
  json_t *rules_obj = json_loads(rules_text, 0, NULL);
  scopa_free(rules_text);
  json_t *round = json_pack("{s:i, s:o, s:o}", "dealer", dealer, "table",
                            cards_json(s.initial_table), "moves", moves);
  return json_pack("{s:o, s:o, s:o, s:o, s:o}", "rules", rules_obj, "round",
                   round, "states", states, "score", score_json(&s), "review",
                   review_json(&s.rules, dealer, deck, played, nplayed));
}

int main(int argc, char **argv) {
  long long rounds = 600, seed = 1;
  char msg[200];
  if ((argc > 1 && scopa_parse_int("ROUNDS", argv[1], 1, 100000, &rounds, msg,
                                   sizeof msg) != SCOPA_OK) ||
      (argc > 2 && scopa_parse_int("SEED", argv[2], 0, 1000000000, &seed, msg,
                                   sizeof msg) != SCOPA_OK)) {
    fprintf(stderr, "state_oracle: %s\n", msg);
    return 2;
  }
  scopa_rng rng;
  scopa_rng_seed(&rng, (uint64_t)seed);
  for (long long i = 0; i < rounds; i++) {
    json_t *line = random_round(&rng);
    if (!line)
      continue;
    char *text = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER);
    puts(text);
    free(text);
    json_decref(line);
  }
  return 0;
}
