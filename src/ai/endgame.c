/*
 * endgame.c -- the exact move when the view hides nothing that matters:
 * in 2-player scopa with the stock empty, the opponent holds exactly the
 * unseen cards (NOTES: the last deal, ~60 nodes).
 */
#include "bots.h"
#include "solver.h"

int ai_endgame_move(scopa_bot *bot, const scopa_view *v, scopa_move *move) {
  if (v->players != 2 || v->stock != 0)
    return 0;
  ai_solver *S = ai_bot_solver(bot, 0, 0);
  if (!S)
    return 0;
  scopa_rng rng;
  scopa_rng_seed(&rng, 1);
  scopa_state world;
  scopa_view_sample(v, &rng, &world); /* the only world there is */
  scopa_move moves[SCOPA_MAX_MOVES];
  int values[SCOPA_MAX_MOVES];
  int n = scopa_view_legal(v, moves, SCOPA_MAX_MOVES);
  if (n <= 0 || n > SCOPA_MAX_MOVES)
    return 0;
  if (ai_solver_root(S, &world, moves, n, AI_DEPTH_END, values) != 0)
    return 0; /* stopped by the clock: the caller's move stands */
  int best = 0;
  for (int i = 1; i < n; i++)
    if (values[i] > values[best])
      best = i;
  *move = moves[best];
  return 1;
}
