/*
 * match_record.c -- a whole game (scopa_match) in JSON: its views in the
 * shape of engine requests, its record written for every kind of reader,
 * and saved to disk.  Reading a record into a match is replay.c's job.
 *
 * Keeps true: no text written for a viewer other than SCOPA_RECORD_FULL
 * holds a card that viewer may not know, nor the seed (which would tell
 * every deck).
 */
#include "../game/match_internal.h"
#include "record.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dump(json_t *obj, size_t flags) {
  char *text = obj ? json_dumps(obj, flags | JSON_PRESERVE_ORDER) : NULL;
  json_decref(obj);
  return text;
}

/* ---- views ----------------------------------------------------------- */

char *scopa_match_view_json(const scopa_match *m, int seat) {
  if (!m->dealt)
    return NULL;
  char *text =
      scopa_state_view_json(&m->state, seat < 0 ? 0 : seat, m->totals_before);
  if (seat >= 0 || !text)
    return text;
  /* The public view: the same request fields with no seat and no dealt
   * cards. */
  json_t *obj = json_loads(text, 0, NULL);
  free(text);
  if (!obj)
    return NULL;
  json_object_set_new(obj, "seat", json_null());
  json_object_del(json_object_get(obj, "round"), "dealt");
  return dump(obj, JSON_COMPACT);
}

/* ---- the record ------------------------------------------------------ */

/* The cards `viewer` may know of the live round. */
static scopa_cards known_cards(const scopa_match *m, int viewer) {
  const scopa_state *s = &m->state;
  scopa_cards known = s->initial_table;
  for (int i = 0; i < s->plays; i++)
    known |=
        SCOPA_BIT(SCOPA_MOVE_CARD(s->moves[i])) | SCOPA_MOVE_TAKES(s->moves[i]);
  for (int seat = 0; seat < s->players; seat++)
    if (viewer == seat || viewer == SCOPA_RECORD_SEEN)
      known |= s->dealt[seat];
  return known;
}

static json_t *deck_json(const uint8_t deck[40], scopa_cards shown) {
  json_t *arr = json_array();
  char c[SCOPA_CARD_TEXT];
  for (int i = 0; i < 40; i++)
    json_array_append_new(arr, shown & SCOPA_BIT(deck[i])
                                   ? json_string(scopa_card_str(deck[i], c))
                                   : json_null());
  return arr;
}

static json_t *round_json(const scopa_match *m, int r, int viewer) {
  const scopa_replay_round *rr = &m->rounds[r];
  int live = r == m->nrounds - 1 && !rr->complete;
  scopa_cards shown = viewer == SCOPA_RECORD_FULL || !live
                          ? SCOPA_ALL_CARDS
                          : known_cards(m, viewer);
  json_t *moves = json_array();
  char text[SCOPA_MOVE_TEXT];
  for (int i = 0; i < rr->nmoves; i++)
    json_array_append_new(moves,
                          json_string(scopa_move_str(rr->moves[i], text)));
  return json_pack("{s:i, s:o, s:o}", "dealer", rr->dealer, "deck",
                   deck_json(rr->deck, shown), "moves", moves);
}

static json_t *seats_json(const scopa_match *m) {
  json_t *names = json_array();
  for (int i = 0; i < m->rules.players; i++)
    json_array_append_new(names,
                          json_stringn(m->seat[i].name, m->seat[i].name_len));
  return names;
}

/* "bots": one entry per seat, null for a person; absent when nobody is a
 * bot. */
static json_t *bots_json(const scopa_match *m) {
  json_t *bots = json_array();
  int any = 0;
  for (int i = 0; i < m->rules.players; i++) {
    const match_seat *s = &m->seat[i];
    if (s->kind != SCOPA_SEAT_BOT) {
      json_array_append_new(bots, json_null());
      continue;
    }
    any = 1;
    json_t *b = json_object();
    if (s->bot)
      json_object_set_new(b, "bot", json_string(s->bot));
    if (s->level)
      json_object_set_new(b, "level", json_string(s->level));
    json_array_append_new(bots, b);
  }
  if (!any)
    json_decref(bots), bots = NULL;
  return bots;
}

static void add_extra(json_t *root, const char *extra) {
  json_t *obj = extra ? json_loads(extra, JSON_ALLOW_NUL, NULL) : NULL;
  const char *key;
  json_t *value;
  json_object_foreach(obj, key, value) {
    if (!json_object_get(root, key))
      json_object_set(root, key, value);
  }
  json_decref(obj);
}

static json_t *record_object(const scopa_match *m, int viewer) {
  json_t *root = json_object(), *rounds = json_array();
  json_object_set_new(root, "format", json_string("scopa-record/1"));
  json_object_set_new(root, "rules", scopa__rules_object(&m->rules));
  json_object_set_new(root, "seats", seats_json(m));
  if (*m->seed) {
    char sha[65];
    if (viewer == SCOPA_RECORD_FULL)
      json_object_set_new(root, "seed", json_string(m->seed));
    if (scopa_seed_sha256(m->seed, sha) == SCOPA_OK)
      json_object_set_new(root, "seed_sha256", json_string(sha));
  }
  json_t *bots = bots_json(m);
  if (bots)
    json_object_set_new(root, "bots", bots);
  for (int r = 0; r < m->nrounds; r++)
    json_array_append_new(rounds, round_json(m, r, viewer));
  json_object_set_new(root, "rounds", rounds);
  add_extra(root, m->extra);
  return root;
}

char *scopa_match_record_json(const scopa_match *m, int viewer) {
  return dump(record_object(m, viewer), JSON_INDENT(1));
}

int scopa_match_save(const scopa_match *m, const char *path, char *msg,
                     size_t msgsize) {
  char *text = scopa_match_record_json(m, SCOPA_RECORD_FULL);
  if (!text) {
    if (msg && msgsize)
      snprintf(msg, msgsize, "out of memory writing the record");
    return SCOPA_ENOMEM;
  }
  int rc = scopa__file_save(path, text, msg, msgsize);
  free(text);
  return rc;
}
