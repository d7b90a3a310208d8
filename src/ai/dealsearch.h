/*
 * dealsearch.h -- one search over all the weighed worlds of the current
 * deal of 2-player scopa (dealsearch.c): `best`'s search in deals 1-4,
 * and the research bots' (research/) that vary its opponent model.  Not
 * API.
 */
#ifndef SCOPA_AI_DEALSEARCH_H
#define SCOPA_AI_DEALSEARCH_H

#include "bots.h"
#include "oppmodel.h"

/* Moves searched at a node, at most. */
#define AI_DEAL_SEARCH_MOVES 128

/* Nonzero where the search applies: 2-player scopa dealt three at a time,
 * the stock holding more than six cards (deals 1-4). */
int ai_deal_search_applies(const scopa_view *view);

/* Each of the nm root moves' value (points, for the view's side) into avg,
 * by one search over the weighed worlds of the deal.  The opponent's nodes
 * are valued mix x each world's minimum plus (1 - mix) x its mean under
 * the opponent model: `model` (oppmodel.h), or when NULL a softened heur.c
 * player (softmax at 0.1, 3% uniform).  Returns 0, or 1 when no pass over
 * the worlds was finished (the clock, the cancel flag or the budget). */
int ai_deal_search_values(scopa_bot *bot, const scopa_view *view,
                          const scopa_bot_limits *limits,
                          const scopa_move *moves, int nm, double *avg,
                          const ai_opp *model, double mix);

#endif
