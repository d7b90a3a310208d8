/*
 * write.c -- writing game records (RULES.md "Game records") for games in
 * progress, atomically, so that a crash or a closed terminal never leaves
 * a half-written file.
 *
 * The rules are written in full, every option explicit, so a record means
 * the same game even if a default ever changes.  Saving goes through
 * scopa_file_save (file.c): durable, atomic, no temporary file left.
 */
#include "record.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scopa_record {
  json_t *root;   /* the whole record                         */
  json_t *rounds; /* borrowed: root["rounds"]                 */
  json_t *moves;  /* borrowed: the current round's "moves"    */
};

scopa_record *scopa_record_new(const scopa_rules *rules,
                               const char *const *names) {
  scopa_record *rec = calloc(1, sizeof *rec);
  if (!rec)
    return NULL;
  rec->root = json_object();
  rec->rounds = json_array();
  if (!rec->root || !rec->rounds)
    goto fail;
  json_object_set_new(rec->root, "format", json_string("scopa-record/1"));
  json_object_set_new(rec->root, "rules", scopa__rules_object(rules));
  if (names) {
    json_t *seats = json_array();
    for (int i = 0; i < rules->players; i++)
      json_array_append_new(seats, json_string(names[i] ? names[i] : ""));
    json_object_set_new(rec->root, "seats", seats);
  }
  json_object_set_new(rec->root, "rounds", rec->rounds);
  return rec;
fail:
  json_decref(rec->rounds);
  json_decref(rec->root);
  free(rec);
  return NULL;
}

void scopa_record_free(scopa_record *rec) {
  if (!rec)
    return;
  json_decref(rec->root);
  free(rec);
}

int scopa_record_round(scopa_record *rec, int dealer, const uint8_t deck[40]) {
  json_t *round = json_object(), *cards = json_array(), *moves = json_array();
  if (!round || !cards || !moves) {
    json_decref(round), json_decref(cards), json_decref(moves);
    return SCOPA_ENOMEM;
  }
  for (int i = 0; i < 40; i++) {
    char c[SCOPA_CARD_TEXT];
    json_array_append_new(cards, json_string(scopa_card_str(deck[i], c)));
  }
  json_object_set_new(round, "dealer", json_integer(dealer));
  json_object_set_new(round, "deck", cards);
  json_object_set_new(round, "moves", moves);
  json_array_append_new(rec->rounds, round);
  rec->moves = moves;
  return SCOPA_OK;
}

int scopa_record_move(scopa_record *rec, scopa_move move) {
  char m[SCOPA_MOVE_TEXT];
  if (!rec->moves)
    return SCOPA_EINVAL;
  return json_array_append_new(rec->moves, json_string(scopa_move_str(move, m)))
             ? SCOPA_ENOMEM
             : SCOPA_OK;
}

char *scopa_record_json(const scopa_record *rec) {
  return json_dumps(rec->root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
}

int scopa__file_save(const char *path, const char *text, char *msg,
                     size_t msgsize) {
  size_t len = strlen(text);
  char *line = malloc(len + 1); /* the text and its last newline */
  if (!line) {
    if (msg && msgsize)
      snprintf(msg, msgsize, "out of memory saving %s", path);
    return SCOPA_ENOMEM;
  }
  memcpy(line, text, len);
  line[len] = '\n';
  int rc = scopa_file_save(path, line, len + 1, msg, msgsize);
  free(line);
  return rc;
}

int scopa_record_write_file(const scopa_record *rec, const char *path,
                            char *msg, size_t msgsize) {
  char *text = scopa_record_json(rec);
  if (!text) {
    if (msg && msgsize)
      snprintf(msg, msgsize, "out of memory saving %s", path);
    return SCOPA_ENOMEM;
  }
  int rc = scopa__file_save(path, text, msg, msgsize);
  free(text);
  return rc;
}

int scopa_record_save(const scopa_record *rec, const char *path) {
  return scopa_record_write_file(rec, path, NULL, 0);
}

scopa_record *scopa_record_from_replay(const scopa_replay *rp) {
  const char *names[SCOPA_MAX_SEATS];
  for (int i = 0; i < rp->nseats; i++)
    names[i] = rp->seats[i];
  scopa_record *rec = scopa_record_new(&rp->rules, rp->nseats ? names : NULL);
  for (int r = 0; rec && r < rp->nrounds; r++) {
    scopa_record_round(rec, rp->rounds[r].dealer, rp->rounds[r].deck);
    for (int i = 0; i < rp->rounds[r].nmoves; i++)
      scopa_record_move(rec, rp->rounds[r].moves[i]);
  }
  return rec;
}
