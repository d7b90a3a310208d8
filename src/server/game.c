/*
 * game.c -- a stored game as the library's match (game.h).
 */
#include "game.h"

#include <stdio.h>
#include <string.h>

int game_match(const scopa_rules *rules, const char *seed,
               const store_seat *seats, int nseats, scopa_match **out,
               char *msg, size_t msgsize) {
  scopa_seat lib[STORE_MAX_SEATS];
  for (int i = 0; i < nseats; i++) {
    const store_seat *s = &seats[i];
    const char *bot = s->bot;
    memset(&lib[i], 0, sizeof lib[i]);
    lib[i].name = s->name;
    if (s->kind == STORE_BOT) {
      lib[i].kind = SCOPA_SEAT_BOT;
      if (scopa_bot_level(s->bot, &bot, NULL) == SCOPA_OK)
        lib[i].level = s->bot;
      lib[i].bot = bot;
    }
  }
  scopa_match *m = NULL;
  int rc = scopa_match_new(rules, lib, seed, &m, msg, msgsize);
  if (rc == SCOPA_OK && scopa_match_deal(m, NULL) != SCOPA_OK) {
    snprintf(msg, msgsize, "cannot deal");
    rc = SCOPA_EINVAL;
  }
  if (rc != SCOPA_OK) {
    scopa_match_free(m);
    return -1;
  }
  *out = m;
  return 0;
}

int game_replay(scopa_match *m, const scopa_move *moves, int n, char *msg,
                size_t msgsize) {
  char why[200];
  for (int i = 0; i < n; i++) {
    if (scopa_match_phase(m) == SCOPA_MATCH_DEAL)
      scopa_match_deal(m, NULL);
    if (scopa_match_apply(m, moves[i], NULL, why, sizeof why)) {
      snprintf(msg, msgsize, "stored move %d does not replay: %s", i, why);
      return -1;
    }
  }
  if (scopa_match_phase(m) == SCOPA_MATCH_DEAL)
    scopa_match_deal(m, NULL);
  return 0;
}

int game_load(const store_game *g, scopa_match **out, char *msg,
              size_t msgsize) {
  scopa_rules rules;
  if (scopa_rules_from_json(&rules, g->rules_json, strlen(g->rules_json), NULL,
                            msg, msgsize) != SCOPA_OK ||
      game_match(&rules, g->seed, g->seat, g->nseats, out, msg, msgsize))
    return -1;
  if (game_replay(*out, g->moves, g->nmoves, msg, msgsize) == 0)
    return 0;
  scopa_match_free(*out);
  *out = NULL;
  return -1;
}
