/*
 * write.c -- the public JSON writers of scopa.h's "JSON shapes": a
 * rules object, a seat's view of a round as an engine request, and a
 * round's score as `scopa replay --json` prints it (CONTRACTS.md).  The
 * shapes themselves are json_shapes.c's; a view written here reads back
 * with scopa_view_from_json (src/engine) to the same view, and is a valid
 * engine request once a "cmd" is added.
 */
#include "json_shapes.h"

#include <stdio.h>
#include <stdlib.h>

char *scopa_rules_to_json(const scopa_rules *rules) {
  return scopa__dump(scopa__rules_object(rules));
}

static json_t *cards_json(const uint8_t *cards, int n) {
  json_t *arr = json_array();
  char c[SCOPA_CARD_TEXT];
  for (int i = 0; i < n; i++)
    json_array_append_new(arr, json_string(scopa_card_str(cards[i], c)));
  return arr;
}

static json_t *set_json(scopa_cards set) {
  uint8_t cards[40];
  int n = 0;
  for (int c = 0; c < 40; c++)
    if (set & SCOPA_BIT(c))
      cards[n++] = (uint8_t)c;
  return cards_json(cards, n);
}

char *scopa_state_view_json(const scopa_state *s, int seat, const int *scores) {
  /* The deck is dealt top first, so a seat receives its cards in deck
   * order: its dealt cards in deck order are the order received. */
  uint8_t dealt[40];
  int n = 0;
  for (int i = 0; i < 40; i++)
    if (s->dealt[seat] & SCOPA_BIT(s->deck[i]))
      dealt[n++] = s->deck[i];
  json_t *moves = json_array(), *score = json_array();
  char m[SCOPA_MOVE_TEXT];
  for (int i = 0; i < s->plays; i++)
    json_array_append_new(moves, json_string(scopa_move_str(s->moves[i], m)));
  for (int i = 0; i < s->sides; i++)
    json_array_append_new(score, json_integer(scores ? scores[i] : 0));
  json_t *round = json_pack("{s:i, s:o, s:o, s:o}", "dealer", s->dealer,
                            "table", set_json(s->initial_table), "dealt",
                            cards_json(dealt, n), "moves", moves);
  return scopa__dump(json_pack("{s:o, s:i, s:o, s:o}", "rules",
                               scopa__rules_object(&s->rules), "seat", seat,
                               "scores", score, "round", round));
}

/* One side's score as scopa__side_object writes it, dumped compact
 * (JSON_COMPACT, keys in order): the same bytes, printed straight
 * (the learning environments write one per episode; building and
 * dumping the object took most of their time; test_learn.c learn-score-1
 * compares the two).  Returns the length. */
static int side_text(const scopa_side_score *sd, char *out, size_t size) {
  int n = snprintf(out, size,
                   "{\"cards\":%d,\"denari\":%d,\"settebello\":%s,"
                   "\"primiera\":%d,\"scope\":%d,\"sevens\":%d,"
                   "\"points\":{\"scope\":%d",
                   sd->cards, sd->denari, sd->settebello ? "true" : "false",
                   sd->primiera, sd->scope, sd->sevens[0],
                   sd->points[SCOPA_CAT_SCOPE]);
  for (int c = 0; c < SCOPA_CAT_COUNT; c++)
    if (c != SCOPA_CAT_SCOPE)
      n += snprintf(out + n, size - (size_t)n, ",\"%s\":%d",
                    scopa_category_name(c), sd->points[c]);
  n += snprintf(out + n, size - (size_t)n, "},\"round_total\":%d}", sd->total);
  return n;
}

#define SIDE_TEXT 512 /* room for one side: 20 ints and the names */

char *scopa_score_json(const scopa_score *score) {
  size_t size = (size_t)score->sides * SIDE_TEXT + 3;
  char *out = malloc(size);
  if (!out)
    return NULL;
  size_t at = 0;
  out[at++] = '[';
  for (int i = 0; i < score->sides; i++) {
    if (i)
      out[at++] = ',';
    at += (size_t)side_text(&score->side[i], out + at, size - at);
  }
  out[at++] = ']';
  out[at] = '\0';
  return out;
}

char *scopa_state_score_json(const scopa_state *state) {
  scopa_score score;
  if (scopa_state_score(state, &score) != SCOPA_OK)
    return NULL;
  return scopa_score_json(&score);
}
