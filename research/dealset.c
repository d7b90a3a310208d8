/*
 * dealset.c -- `dealset`, research: the deal search of best
 * (src/ai/dealsearch.c, one search over all the weighed worlds of the
 * deal) against a softened heur.c player instead of the learned opponent
 * model: `best` before that model, and the opponent of the model's
 * training games (tools/oppmodel/).  Deals 1-4 of 2-player scopa; infer
 * elsewhere, and for its values.
 */
#include "dealsearch.h"
#include "kinds.h"

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

static int dealset_choose(scopa_bot *bot, const scopa_view *v,
                          const scopa_bot_limits *l, scopa_move *move) {
  return ai_deal_choose(bot, v, l, move, ai_deal_search_applies(v),
                        AI_DEAL_SEARCH_MOVES, dealset_values);
}

const bot_kind research_dealset = {
    .name = "dealset",
    .help = "research: best's one search over the worlds of the deal against a "
            "softened greedy player instead of the learned opponent model; "
            "infer in the last two deals, in other games and for hints",
    .choose = dealset_choose,
    .evaluate = bot_infer_evaluate,
    .default_ms = 100,
    .memory = SCOPA_BOT_MEMORY_DEFAULT,
    .worlds = 1,
};
