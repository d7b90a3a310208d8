/*
 * greedy.c -- the `greedy` bot: the move of highest traditional value
 * (heur.c) without counting cards: the best capture, or the lay that
 * leaves the least to the next seat.  No randomness: the seed is unused.
 */
#include "bots.h"
#include "heur.h"

int bot_greedy_choose(scopa_bot *bot, const scopa_view *view,
                      const scopa_bot_limits *limits, scopa_move *move) {
  (void)bot;
  (void)limits;
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_view_legal(view, moves, SCOPA_MAX_MOVES);
  if (n <= 0)
    return SCOPA_EINVAL;
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  ai_heur h;
  ai_heur_of_view(&h, view, 0);
  *move = moves[ai_heur_best(&h, moves, n, NULL)];
  return SCOPA_OK;
}
