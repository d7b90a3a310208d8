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
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_view_legal(view, moves, SCOPA_MAX_MOVES);
  if (n <= 0)
    return SCOPA_EINVAL;
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  if (n > 1 && ai_endgame_move(bot, view, move))
    return SCOPA_OK;
  ai_heur h;
  ai_heur_of_view(&h, view, 1);
  *move = moves[ai_heur_best(&h, moves, n, NULL)];
  return SCOPA_OK;
}
