/*
 * tourney_game.c -- a finished game as a tournament counts it
 * (tourney_game.h).
 */
#include "tourney_game.h"

#include "game.h"
#include "tourney_rules.h"

#include <stdio.h>
#include <string.h>

int tg_read(const store_game *g, tg_result *out, char *msg, size_t msgsize) {
  scopa_match *m = NULL;
  memset(out, 0, sizeof *out);
  if (!g->finished) {
    snprintf(msg, msgsize, "game %s is not finished", g->code);
    return -1;
  }
  if (game_load(g, &m, msg, msgsize))
    return -1;
  const scopa_tally *t = scopa_match_tally(m);
  if (t->sides != 2 || !t->finished) {
    snprintf(msg, msgsize, "game %s: %s", g->code,
             t->sides != 2 ? "not two sides" : "its moves do not end it");
    scopa_match_free(m);
    return -1;
  }
  int before[2] = {0, 0};
  for (int r = 0; r < scopa_match_rounds(m) && out->ndeals < TG_DEALS_MAX;
       r++) {
    const scopa_replay_round *round = scopa_match_round(m, r);
    if (!round->complete)
      continue;
    for (int s = 0; s < 2; s++) {
      out->points[out->ndeals][s] = round->totals[s] - before[s];
      before[s] = round->totals[s];
    }
    out->ndeals++;
  }
  out->totals[0] = t->totals[0];
  out->totals[1] = t->totals[1];
  int gone = g->abandoned & 3;
  out->result = gone == 3        ? TR_BOTH_LOST
                : gone == 1      ? TR_B_WON
                : gone == 2      ? TR_A_WON
                : t->winner == 0 ? TR_A_WON
                : t->winner == 1 ? TR_B_WON
                                 : TR_DRAW;
  scopa_match_free(m);
  return 0;
}
