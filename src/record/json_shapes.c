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

static const scopa_option_info *find_option(const char *name) {
  for (int i = 0; i < scopa_option_count(); i++)
    if (strcmp(scopa_option_get(i)->name, name) == 0)
      return scopa_option_get(i);
  return NULL;
}

static int fail(char *msg, size_t msgsize, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *msg, size_t msgsize, const char *fmt, ...) {
  if (msg && msgsize) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msgsize, fmt, ap);
    va_end(ap);
    scopa__utf8_clean(msg);
  }
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
                       char *msg, size_t msgsize) {
  const scopa_option_info *info = find_option(key);
  long long v;
  if (!info)
    return fail(msg, msgsize, "unknown rules option \"%.60s\"", key);
  if (info->kind == SCOPA_OPT_BOOL) {
    if (!json_is_boolean(value))
      return fail(msg, msgsize, "rules option \"%s\" must be true or false",
                  key);
    v = json_is_true(value);
  } else if (info->kind == SCOPA_OPT_INT) {
    if (!json_is_integer(value))
      return fail(msg, msgsize, "rules option \"%s\" must be a whole number",
                  key);
    v = json_integer_value(value);
  } else if ((v = enum_value(info, value)) < 0) {
    char names[160] = "";
    for (int i = 0; info->values[i]; i++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s\"%s\"",
               i ? ", " : "", info->values[i]);
    return fail(msg, msgsize, "rules option \"%s\" must be one of %s", key,
                names);
  }
  char why[200];
  if (scopa_rules_set(rules, key, v, why, sizeof why) != SCOPA_OK)
    return fail(msg, msgsize, "%s", why);
  return SCOPA_OK;
}

int scopa__rules_read(json_t *obj, scopa_rules *rules, char *msg,
                      size_t msgsize) {
  const char *key;
  json_t *value;
  char why[200];
  if (!json_is_object(obj))
    return fail(msg, msgsize, "\"rules\" must be a JSON object");
  scopa_rules_init(rules);
  json_object_foreach(obj, key, value) {
    if (read_option(rules, key, value, msg, msgsize) != SCOPA_OK)
      return SCOPA_ERULES;
  }
  if (scopa_rules_check(rules, why, sizeof why) != SCOPA_OK)
    return fail(msg, msgsize, "%s", why);
  return SCOPA_OK;
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

/* The length of the valid UTF-8 sequence at p, or 0. */
static int utf8_len(const unsigned char *p) {
  int n = p[0] < 0x80                    ? 1
          : p[0] >= 0xC2 && p[0] <= 0xDF ? 2
          : p[0] >= 0xE0 && p[0] <= 0xEF ? 3
          : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4
                                         : 0;
  for (int i = 1; i < n; i++)
    if ((p[i] & 0xC0) != 0x80)
      return 0;
  /* Overlong, surrogate and out-of-range forms. */
  if ((n == 3 && p[0] == 0xE0 && p[1] < 0xA0) ||
      (n == 3 && p[0] == 0xED && p[1] >= 0xA0) ||
      (n == 4 && p[0] == 0xF0 && p[1] < 0x90) ||
      (n == 4 && p[0] == 0xF4 && p[1] >= 0x90))
    return 0;
  return n;
}

void scopa__utf8_clean(char *text) {
  unsigned char *p = (unsigned char *)text;
  while (*p) {
    int n = utf8_len(p);
    if (n == 0)
      *p++ = '?';
    else
      p += n;
  }
}
