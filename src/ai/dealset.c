/*
 * dealset.c -- `dealset`: the deal search of dealsearch.c (one search over
 * all the weighed worlds of the deal) against a softened heur.c player
 * instead of the learned opponent model: `best` before that model.  Deals
 * 1-4 of 2-player scopa; infer elsewhere, and for its values.
 */
#include "dealsearch.h"

/* The opponent's node: MIX x each world's minimum plus (1 - MIX) x its
 * mean over the model.  0: the model alone; docs/research.md has 1
 * (minimax) and 0.5 measured. */
#ifndef DEALSET_MIX
#define DEALSET_MIX 0.0
#endif

static int dealset_values(scopa_bot *bot, const scopa_view *v,
                          const scopa_bot_limits *l, const scopa_move *moves,
                          int nm, double *avg) {
  return ai_deal_search_values(bot, v, l, moves, nm, avg, NULL, DEALSET_MIX);
}

int bot_dealset_choose(scopa_bot *bot, const scopa_view *v,
                       const scopa_bot_limits *l, scopa_move *move) {
  return ai_deal_choose(bot, v, l, move, ai_deal_search_applies(v),
                        AI_DEAL_SEARCH_MOVES, dealset_values);
}
