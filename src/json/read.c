/*
 * read.c -- the JSON readers beside their writers (write.c,
 * json_shapes.c): rules and views read from JSON text (scopa.h's
 * scopa_rules_from_json, scopa_view_from_json) and the object readers
 * that `scopa engine` requests (src/engine/request.c) and reviews share.
 * Moved here from src/engine (request.c, support.c) unchanged.
 *
 * Nothing here trusts the input: any bytes may arrive (not JSON, invalid
 * UTF-8, deep nesting, huge numbers, wrong types), and every one of them
 * ends as a checked value or an error message, never a crash.  JSON
 * values have exact types, as in records: 3 is not 3.0 nor "3", true is
 * not 1.  A view is only accepted if it can happen (scopa_view_build
 * replays it on a deck that agrees with everything the seat saw).  A view
 * read here is read as the engine reads a request, so a view printed by
 * scopa_state_view_json reads back to the same view.
 */
#include "json_shapes.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void scopa__json_msg(char *msg, size_t msgsize, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  scopa__vmsg(msg, msgsize, SCOPA_SAFE_ASCII, fmt, ap);
  va_end(ap);
}

#define FAIL(code, ...) (scopa__json_msg(msg, msgsize, __VA_ARGS__), (code))

/* ---- rules ----------------------------------------------------------- */

int scopa__json_read_rules(json_t *obj, scopa_rules *rules, char *msg,
                           size_t msgsize) {
  int rc = scopa__rules_read(obj, rules, msg, msgsize);
  if (rc != SCOPA_OK) /* engine messages are printable ASCII */
    scopa__msg_safe(msg, msgsize, SCOPA_SAFE_ASCII);
  return rc;
}

/* ---- the view fields ------------------------------------------------- */

/* An integer member in lo..hi (json_shapes.h). */
int scopa__json_read_int(json_t *obj, const char *key, long long lo,
                         long long hi, long long *out, char *msg,
                         size_t msgsize) {
  json_t *v = json_object_get(obj, key);
  if (!v)
    return FAIL(SCOPA_EVIEW, "the request needs \"%s\"", key);
  if (!json_is_integer(v) || json_integer_value(v) < lo ||
      json_integer_value(v) > hi)
    return FAIL(SCOPA_EVIEW, "\"%s\" must be a whole number from %lld to %lld",
                key, lo, hi);
  *out = json_integer_value(v);
  return SCOPA_OK;
}

/* A list of at most 40 cards in canonical notation. */
static int read_cards(json_t *round, const char *key, uint8_t *cards, int *n,
                      char *msg, size_t msgsize) {
  json_t *arr = json_object_get(round, key);
  if (!json_is_array(arr))
    return FAIL(SCOPA_EVIEW, "\"round\" needs a \"%s\" list of cards", key);
  if (json_array_size(arr) > 40)
    return FAIL(SCOPA_EVIEW, "\"round.%s\" has more than 40 cards", key);
  *n = (int)json_array_size(arr);
  for (int i = 0; i < *n; i++) {
    json_t *v = json_array_get(arr, (size_t)i);
    const char *s = json_string_value(v);
    int card = s ? scopa_card_parse_n(s, json_string_length(v)) : -1;
    if (card < 0)
      return FAIL(SCOPA_EVIEW, "round.%s[%d] is not a card%s%.12s%s", key, i,
                  s ? " (\"" : "", s ? s : "", s ? "\")" : "");
    cards[i] = (uint8_t)card;
  }
  return SCOPA_OK;
}

static int read_moves(json_t *round, scopa_move *moves, int *n, char *msg,
                      size_t msgsize) {
  json_t *arr = json_object_get(round, "moves");
  char why[200];
  if (!json_is_array(arr))
    return FAIL(SCOPA_EVIEW, "\"round\" needs a \"moves\" list");
  if (json_array_size(arr) > 40)
    return FAIL(SCOPA_EVIEW, "a round has at most 40 moves");
  *n = (int)json_array_size(arr);
  for (int i = 0; i < *n; i++) {
    json_t *v = json_array_get(arr, (size_t)i);
    const char *s = json_string_value(v);
    if (!s || strlen(s) != json_string_length(v))
      return FAIL(SCOPA_EVIEW, "round.moves[%d] is not a string", i);
    if (scopa_move_parse(s, NULL, &moves[i], why, sizeof why) != SCOPA_OK)
      return FAIL(SCOPA_EVIEW, "round.moves[%d]: %s", i, why);
  }
  return SCOPA_OK;
}

static int read_scores(json_t *obj, int sides, int *scores, char *msg,
                       size_t msgsize) {
  json_t *arr = json_object_get(obj, "scores");
  if (!json_is_array(arr) || (int)json_array_size(arr) != sides)
    return FAIL(SCOPA_EVIEW,
                "\"scores\" must list %d game scores, one per "
                "side",
                sides);
  for (int i = 0; i < sides; i++) {
    json_t *v = json_array_get(arr, (size_t)i);
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) > 1000000)
      return FAIL(SCOPA_EVIEW,
                  "scores[%d] must be a whole number from 0 to "
                  "1000000",
                  i);
    scores[i] = (int)json_integer_value(v);
  }
  return SCOPA_OK;
}

int scopa__json_read_view(json_t *obj, scopa_view *view, char *msg,
                          size_t msgsize) {
  scopa_rules rules;
  long long seat, dealer;
  int scores[SCOPA_MAX_SEATS] = {0}, ntable, ndealt, nmoves, rc;
  uint8_t table[40], dealt[40];
  scopa_move moves[40];
  char why[200];
  if (!json_is_object(obj))
    return FAIL(SCOPA_EVIEW, "a request is a JSON object");
  if (!json_object_get(obj, "rules"))
    return FAIL(SCOPA_ERULES, "the request needs a \"rules\" object");
  if ((rc = scopa__json_read_rules(json_object_get(obj, "rules"), &rules, msg,
                                   msgsize)) != SCOPA_OK)
    return rc;
  if ((rc = scopa__json_read_int(obj, "seat", 0, rules.players - 1, &seat, msg,
                                 msgsize)) != SCOPA_OK ||
      (rc = read_scores(obj, scopa_rules_sides(&rules), scores, msg,
                        msgsize)) != SCOPA_OK)
    return rc;
  json_t *round = json_object_get(obj, "round");
  if (!json_is_object(round))
    return FAIL(SCOPA_EVIEW, "the request needs a \"round\" object");
  if ((rc = scopa__json_read_int(round, "dealer", 0, rules.players - 1, &dealer,
                                 msg, msgsize)) != SCOPA_OK ||
      (rc = read_cards(round, "table", table, &ntable, msg, msgsize)) ||
      (rc = read_cards(round, "dealt", dealt, &ndealt, msg, msgsize)) ||
      (rc = read_moves(round, moves, &nmoves, msg, msgsize)))
    return rc;
  scopa_cards tableset = 0;
  char c[SCOPA_CARD_TEXT];
  for (int i = 0; i < ntable; i++) {
    if (tableset & SCOPA_BIT(table[i]))
      return FAIL(SCOPA_EVIEW, "%s is seen twice", scopa_card_str(table[i], c));
    tableset |= SCOPA_BIT(table[i]);
  }
  if (scopa_view_build(view, &rules, (int)seat, (int)dealer, tableset, dealt,
                       ndealt, moves, nmoves, scores, why,
                       sizeof why) != SCOPA_OK)
    return FAIL(SCOPA_EVIEW, "%s", why);
  return SCOPA_OK;
}

/* Parses JSON text (duplicate keys refused) and hands the object to one of
 * the request readers, which fill `out`. */
typedef int (*object_reader)(json_t *obj, void *out, char *msg, size_t msgsize);

/* The JSON text parsed, then read by `read`; jansson's own words in an
 * error stay English, introduced in the caller's language (engine
 * messages are printable ASCII; Italian needs UTF-8). */
static int read_json_text(const char *json, size_t len, const char *lang,
                          object_reader read, void *out, char *msg,
                          size_t msgsize) {
  json_error_t err;
  json_t *obj = json_loadb(json, len, JSON_REJECT_DUPLICATES, &err);
  if (!obj) {
    if (scopa__italian(lang)) {
      if (msg && msgsize) {
        snprintf(msg, msgsize, "non è JSON valido: %s", err.text);
        scopa__msg_safe(msg, msgsize, 0);
      }
    } else {
      scopa__json_msg(msg, msgsize, "not valid JSON: %s", err.text);
    }
    return SCOPA_EJSON;
  }
  int rc = read(obj, out, msg, msgsize);
  json_decref(obj);
  return rc;
}

static int rules_reader(json_t *obj, void *out, char *msg, size_t msgsize) {
  return scopa__json_read_rules(obj, out, msg, msgsize);
}

static int view_reader(json_t *obj, void *out, char *msg, size_t msgsize) {
  return scopa__json_read_view(obj, out, msg, msgsize);
}

/* The rules and the language of the messages about them. */
typedef struct rules_lang {
  scopa_rules *rules;
  const char *lang;
} rules_lang;

static int rules_lang_reader(json_t *obj, void *out, char *msg,
                             size_t msgsize) {
  rules_lang *r = out;
  return scopa__rules_read_lang(obj, r->rules, r->lang, msg, msgsize);
}

int scopa_rules_from_json(scopa_rules *rules, const char *json, size_t len,
                          const char *lang, char *msg, size_t msgsize) {
  if (!scopa__italian(lang)) /* English messages are printable ASCII */
    return read_json_text(json, len, NULL, rules_reader, rules, msg, msgsize);
  rules_lang r = {rules, lang};
  return read_json_text(json, len, lang, rules_lang_reader, &r, msg, msgsize);
}

int scopa_view_from_json(scopa_view *view, const char *json, size_t len,
                         char *msg, size_t msgsize) {
  return read_json_text(json, len, NULL, view_reader, view, msg, msgsize);
}
