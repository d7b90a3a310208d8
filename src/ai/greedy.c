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
  int n = ai_heur_choose(view, 0, move);
  return n < 0 ? n : SCOPA_OK;
}
