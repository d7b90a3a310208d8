/*
 * support.c -- the functions of scopa.h's "JSON shapes" section that are not
 * the protocol: struct sizes, rules and views read from JSON text, legal
 * moves as text.  Their writers (rules, views and scores as JSON) are in
 * src/json/write.c.
 *
 * A view read here is read as the engine reads a request, so a view
 * printed by scopa_state_view_json reads back to the same view.
 */
#include "engine.h"
#include "json_shapes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t scopa_sizeof(const char *type) {
  static const struct {
    const char *name;
    size_t size;
  } SIZES[] = {
      {"rules", sizeof(scopa_rules)},
      {"state", sizeof(scopa_state)},
      {"view", sizeof(scopa_view)},
      {"score", sizeof(scopa_score)},
      {"tally", sizeof(scopa_tally)},
      {"game", sizeof(scopa_tally)},
      {"rng", sizeof(scopa_rng)},
      {"replay", sizeof(scopa_replay)},
      {"fault", sizeof(scopa_fault)},
      {"bot_limits", sizeof(scopa_bot_limits)},
      {"hint", sizeof(scopa_hint)},
      {"hint_info", sizeof(scopa_hint_info)},
      {"env_config", sizeof(scopa_env_config)},
      {"why", sizeof(scopa_why)}, /* what a move does (scopa_move_why) */
  };
  for (size_t i = 0; type && i < sizeof SIZES / sizeof *SIZES; i++)
    if (strcmp(SIZES[i].name, type) == 0)
      return SIZES[i].size;
  return 0;
}

void scopa_free(void *p) { free(p); }

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
      scopa__engine_msg(msg, msgsize, "not valid JSON: %s", err.text);
    }
    return SCOPA_EJSON;
  }
  int rc = read(obj, out, msg, msgsize);
  json_decref(obj);
  return rc;
}

static int rules_reader(json_t *obj, void *out, char *msg, size_t msgsize) {
  return scopa__engine_read_rules(obj, out, msg, msgsize);
}

static int view_reader(json_t *obj, void *out, char *msg, size_t msgsize) {
  return scopa__engine_read_view(obj, out, msg, msgsize);
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

char *scopa_state_legal_text(const scopa_state *state) {
  int cap = 256, n;
  scopa_move *moves = malloc(sizeof *moves * (size_t)cap);
  if (!moves)
    return NULL;
  n = scopa_state_legal(state, moves, cap);
  if (n > cap) {
    scopa_move *more = realloc(moves, sizeof *moves * (size_t)n);
    if (!more) {
      free(moves);
      return NULL;
    }
    moves = more;
    scopa_state_legal(state, moves, n);
  }
  char *text = malloc((size_t)n * SCOPA_MOVE_TEXT + 1), *p = text;
  if (text) {
    *p = 0;
    for (int i = 0; i < n; i++) {
      if (i)
        *p++ = ' ';
      scopa_move_str(moves[i], p);
      p += strlen(p);
    }
  }
  free(moves);
  return text;
}
