/*
 * catalogue.c -- what a front end offers a person who sets up a game, as
 * JSON: every rules option (from the option table of src/core/rules.c,
 * with its label in English and Italian and its group, kept there too),
 * the presets (the options each
 * sets, computed from scopa_rules_preset), the levels (from level.c) and
 * the ids of the quick reactions a person at a table may send (scopa
 * serve's react; the clients say each in their language).
 * The server serves it (GET /api/rules) and the web client is built from
 * it, so no front end keeps a copy of the table.
 *
 * What must stay true: every option of the table has a label in both
 * languages (the test walks the table), and a preset's "rules" object,
 * read by scopa_rules_from_json, gives exactly scopa_rules_preset.
 */
#include "json_shapes.h"

#include <string.h>

static const struct {
  const char *name, *en, *it;
} PRESET_LABELS[] = {
    {"scopa", "Scopa", "Scopa"},
    {"scopone", "Scopone", "Scopone"},
    {"scientifico", "Scopone scientifico", "Scopone scientifico"},
    {"assi", "Scopa d'assi", "Scopa d'assi"},
    {"quindici", "Scopa a quindici", "Scopa a quindici"},
    {"escoba", "Escoba", "Escoba"},
    {"trentuno", "Scopone a trentuno", "Scopone a trentuno"},
    {"perdere", "Scopa a perdere", "Scopa a perdere"},
};

static json_t *label(const char *en, const char *it) {
  return json_pack("{s:s, s:s}", "en", en, "it", it);
}

/* One option: its kind, its group, values or range (an integer option's
 * values listed when there are few: players 2, 3, 4, 6), the default of
 * game scopa and its labels. */
static json_t *option_object(const scopa_option_info *o, int i) {
  static const char *const KINDS[] = {"bool", "int", "enum"};
  json_t *obj =
      json_pack("{s:s, s:s, s:s, s:o, s:s}", "name", o->name, "kind",
                KINDS[o->kind], "group", scopa_option_group(o->name), "label",
                label(scopa_option_label(o->name, "en"),
                      scopa_option_label(o->name, "it")),
                "help", o->help ? o->help : "");
  json_t *values = NULL;
  if (o->kind == SCOPA_OPT_ENUM) {
    values = json_array();
    for (int v = 0; o->values[v]; v++)
      json_array_append_new(values, json_string(o->values[v]));
  } else if (o->kind == SCOPA_OPT_INT && o->max - o->min < 8) {
    values = json_array();
    scopa_rules probe;
    for (long long v = o->min; v <= o->max; v++) {
      scopa_rules_init(&probe);
      if (scopa_rules_set(&probe, o->name, v, NULL, NULL, 0) == SCOPA_OK)
        json_array_append_new(values, json_integer(v));
    }
  } else if (o->kind == SCOPA_OPT_INT) {
    json_object_set_new(obj, "min", json_integer(o->min));
    if (o->max < (1LL << 53)) /* beyond it: no maximum a person meets */
      json_object_set_new(obj, "max", json_integer(o->max));
  }
  if (values)
    json_object_set_new(obj, "values", values);
  scopa_rules init; /* the default of game scopa, players and teams too */
  scopa_rules_init(&init);
  scopa_rules_check(&init, NULL, NULL, 0);
  long long v = scopa_rules_value(&init, i);
  json_object_set_new(obj, "default",
                      o->kind == SCOPA_OPT_BOOL   ? json_boolean(v)
                      : o->kind == SCOPA_OPT_ENUM ? json_string(o->values[v])
                                                  : json_integer(v));
  return obj;
}

json_t *scopa__preset_rules_object(const char *name) {
  scopa_rules preset, base;
  if (scopa_rules_preset(&preset, name) != SCOPA_OK)
    return NULL;
  /* What the preset sets: the options where it differs from the defaults
   * of its game (players and teams follow the game, RULES.md "Presets"). */
  scopa_rules_init(&base);
  base.game = preset.game;
  scopa_rules_check(&base, NULL, NULL, 0);
  json_t *all = scopa__rules_object(&preset), *obj = json_object();
  for (int i = 0; all && obj && i < scopa_option_count(); i++) {
    const char *key = scopa_option_get(i)->name;
    if (scopa_rules_value(&preset, i) != scopa_rules_value(&base, i) ||
        (strcmp(key, "game") == 0 && preset.game != SCOPA_GAME_SCOPA))
      json_object_set(obj, key, json_object_get(all, key));
  }
  json_decref(all);
  return obj;
}

char *scopa_rules_preset_json(const char *name) {
  json_t *obj = scopa__preset_rules_object(name);
  return obj ? scopa__dump(obj) : NULL;
}

/* The reactions' ids, in the order a front end offers them (docs/serve.md
 * "react"; tests/server serve-1.9 checks that the server takes exactly
 * these). */
static const char *const REACTIONS[] = {
    "bella",    "scopa", "ben_giocata", "peccato", "grazie",
    "applause", "laugh", "wow",         "think",
};

char *scopa_rules_catalogue_json(void) {
  json_t *options = json_array(), *presets = json_array(),
         *levels = json_array(), *reactions = json_array();
  for (size_t i = 0; i < sizeof REACTIONS / sizeof REACTIONS[0]; i++)
    json_array_append_new(reactions, json_string(REACTIONS[i]));
  for (int i = 0; i < scopa_option_count(); i++)
    json_array_append_new(options, option_object(scopa_option_get(i), i));
  for (size_t i = 0; i < sizeof PRESET_LABELS / sizeof PRESET_LABELS[0]; i++)
    json_array_append_new(
        presets,
        json_pack("{s:s, s:o, s:o*}", "name", PRESET_LABELS[i].name, "label",
                  label(PRESET_LABELS[i].en, PRESET_LABELS[i].it), "rules",
                  scopa__preset_rules_object(PRESET_LABELS[i].name)));
  const char *it, *en, *bot;
  int ms;
  for (int i = 0; scopa_bot_level_get(i, &it, &en, &bot, &ms) == SCOPA_OK; i++)
    json_array_append_new(levels, json_pack("{s:s, s:s, s:s, s:i}", "name", it,
                                            "english", en, "bot", bot,
                                            "movetime_ms", ms));
  return scopa__dump(json_pack("{s:o, s:o, s:o, s:o}", "options", options,
                               "presets", presets, "levels", levels,
                               "reactions", reactions));
}
