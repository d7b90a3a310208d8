/*
 * write.c -- writing game records (RULES.md "Game records") for games in
 * progress, atomically, so that a crash or a closed terminal never leaves
 * a half-written file.
 *
 * The rules are written in full, every option explicit, so a record means
 * the same game even if a default ever changes.
 */
#include "json_shapes.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  size_t n = strlen(path);
  char *tmp = malloc(n + 16);
  int rc = SCOPA_EIO;
  FILE *fp = NULL;
  if (!tmp)
    goto out;
  snprintf(tmp, n + 16, "%s.tmp%ld", path, (long)getpid());
  fp = fopen(tmp, "w");
  if (!fp)
    goto out;
  int ok = fputs(text, fp) >= 0 && fputc('\n', fp) != EOF;
  ok &= fflush(fp) == 0 && fsync(fileno(fp)) == 0;
  ok &= fclose(fp) == 0;
  if (ok && rename(tmp, path) == 0)
    rc = SCOPA_OK;
  else
    remove(tmp);
out:
  if (rc != SCOPA_OK && msg && msgsize)
    snprintf(msg, msgsize, "cannot save %s", path);
  free(tmp);
  return rc;
}

int scopa_record_save(const scopa_record *rec, const char *path) {
  char *text = scopa_record_json(rec);
  int rc = text ? scopa__file_save(path, text, NULL, 0) : SCOPA_EIO;
  free(text);
  return rc;
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
