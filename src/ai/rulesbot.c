/*
 * rulesbot.c -- the `rules` bot: greedy's values with exact counting of
 * the unseen cards (heur.c with counting), and, once nothing is unknown
 * (the last deal of 2-player scopa), the exact solver's move.
 */
#include "bots.h"
#include "heur.h"

int bot_rules_choose(scopa_bot *bot, const scopa_view *view,
                     const scopa_bot_limits *limits, scopa_move *move) {
  (void)limits;
  int n = ai_heur_choose(view, 1, move);
  if (n < 0)
    return n;
  /* Nothing unknown: the solver's move replaces the estimate. */
  if (n > 1)
    ai_endgame_move(bot, view, move);
  return SCOPA_OK;
}
