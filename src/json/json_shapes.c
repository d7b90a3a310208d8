/*
 * json_shapes.c -- the JSON shapes shared by records, replay output and
 * the engine protocol (see json_shapes.h).  One place for each, so a
 * record, a request and an answer can never disagree on what "rules" or a
 * side's score looks like.
 */
#include "json_shapes.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

char *scopa__dump(json_t *obj) {
  char *text = obj ? json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
  json_decref(obj);
  return text;
}

static const scopa_option_info *find_option(const char *name) {
  for (int i = 0; i < scopa_option_count(); i++)
    if (strcmp(scopa_option_get(i)->name, name) == 0)
      return scopa_option_get(i);
  return NULL;
}

static int fail(char *msg, size_t msgsize, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *msg, size_t msgsize, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  scopa__vmsg(msg, msgsize, 0, fmt, ap);
  va_end(ap);
  return SCOPA_ERULES;
}

/* The index of an enum option's value, or -1. */
static long long enum_value(const scopa_option_info *info, json_t *value) {
  const char *s = json_string_value(value);
  if (!s || strlen(s) != json_string_length(value))
    return -1;
  for (int i = 0; info->values[i]; i++)
    if (strcmp(info->values[i], s) == 0)
      return i;
  return -1;
}

/* One option from its JSON value, with the exact type it needs. */
static int read_option(scopa_rules *rules, const char *key, json_t *value,
                       const char *lang, char *msg, size_t msgsize) {
  const scopa_option_info *info = find_option(key);
  int it = scopa__italian(lang);
  long long v;
  if (!info)
    return fail(msg, msgsize,
                SCOPA__TR(it, "unknown rules option \"%.60s\"",
                          "non c'è un'opzione delle regole \"%.60s\""),
                key);
  if (info->kind == SCOPA_OPT_BOOL) {
    if (!json_is_boolean(value))
      return fail(msg, msgsize,
                  SCOPA__TR(it, "rules option \"%s\" must be true or false",
                            "l'opzione delle regole \"%s\" vale true o false"),
                  key);
    v = json_is_true(value);
  } else if (info->kind == SCOPA_OPT_INT) {
    if (!json_is_integer(value))
      return fail(
          msg, msgsize,
          SCOPA__TR(it, "rules option \"%s\" must be a whole number",
                    "l'opzione delle regole \"%s\" vale un numero intero"),
          key);
    v = json_integer_value(value);
  } else if ((v = enum_value(info, value)) < 0) {
    char names[160] = "";
    for (int i = 0; info->values[i]; i++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s\"%s\"",
               i ? ", " : "", info->values[i]);
    return fail(msg, msgsize,
                SCOPA__TR(it, "rules option \"%s\" must be one of %s",
                          "l'opzione delle regole \"%s\" vale uno fra %s"),
                key, names);
  }
  char why[200];
  if (scopa_rules_set(rules, key, v, lang, why, sizeof why) != SCOPA_OK)
    return fail(msg, msgsize, "%s", why);
  return SCOPA_OK;
}

int scopa__rules_read_lang(json_t *obj, scopa_rules *rules, const char *lang,
                           char *msg, size_t msgsize) {
  const char *key;
  json_t *value;
  char why[200];
  if (!json_is_object(obj))
    return fail(msg, msgsize, "%s",
                SCOPA__TR(scopa__italian(lang),
                          "\"rules\" must be a JSON object",
                          "\"rules\" deve essere un oggetto JSON"));
  scopa_rules_init(rules);
  json_object_foreach(obj, key, value) {
    if (read_option(rules, key, value, lang, msg, msgsize) != SCOPA_OK)
      return SCOPA_ERULES;
  }
  if (scopa_rules_check(rules, lang, why, sizeof why) != SCOPA_OK)
    return fail(msg, msgsize, "%s", why);
  return SCOPA_OK;
}

int scopa__rules_read(json_t *obj, scopa_rules *rules, char *msg,
                      size_t msgsize) {
  return scopa__rules_read_lang(obj, rules, NULL, msg, msgsize);
}

json_t *scopa__rules_object(const scopa_rules *rules) {
  json_t *obj = json_object();
  for (int i = 0; obj && i < scopa_option_count(); i++) {
    const scopa_option_info *info = scopa_option_get(i);
    long long v = scopa_rules_value(rules, i);
    json_t *value = info->kind == SCOPA_OPT_BOOL ? json_boolean(v != 0)
                    : info->kind == SCOPA_OPT_INT
                        ? json_integer(v)
                        : json_string(info->values[(int)v]);
    json_object_set_new(obj, info->name, value);
  }
  return obj;
}

/* scopa_score_json prints these same bytes straight (write.c, for speed;
 * tests/engine/test_learn.c learn-score-1 holds them equal): a change of
 * the shape goes in both. */
json_t *scopa__side_object(const scopa_side_score *s) {
  json_t *points = json_object();
  json_object_set_new(points, "scope",
                      json_integer(s->points[SCOPA_CAT_SCOPE]));
  for (int c = 0; c < SCOPA_CAT_COUNT; c++)
    if (c != SCOPA_CAT_SCOPE)
      json_object_set_new(points, scopa_category_name(c),
                          json_integer(s->points[c]));
  /* "sevens": the sevens in the pile (CONTRACTS.md, added with the
   * variants; present whatever the rules). */
  return json_pack("{s:i, s:i, s:b, s:i, s:i, s:i, s:o, s:i}", "cards",
                   s->cards, "denari", s->denari, "settebello", s->settebello,
                   "primiera", s->primiera, "scope", s->scope, "sevens",
                   s->sevens[0], "points", points, "round_total", s->total);
}

void scopa__vmsg(char *msg, size_t msgsize, unsigned flags, const char *fmt,
                 va_list ap) {
  char raw[1024];
  if (!msg || msgsize == 0)
    return;
  int n = vsnprintf(raw, sizeof raw, fmt, ap);
  size_t len = n < 0 ? 0 : (size_t)n < sizeof raw ? (size_t)n : sizeof raw - 1;
  scopa_text_safe(msg, msgsize, raw, len, flags);
}

void scopa__msg_safe(char *msg, size_t msgsize, unsigned flags) {
  char raw[1024];
  if (!msg || msgsize == 0)
    return;
  size_t len = strnlen(msg, msgsize < sizeof raw ? msgsize : sizeof raw - 1);
  memcpy(raw, msg, len);
  scopa_text_safe(msg, msgsize, raw, len, flags);
}
