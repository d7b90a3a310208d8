/*
 * solve.c -- the exact solver as API (scopa.h scopa_bot_solve): every
 * legal move of a fully known round valued to the end of the round by the
 * solver of src/ai (solver.c), in the bot's memory, within the call's
 * clock.  For search and learning research (perfect-information values,
 * targets for value networks); the bots themselves never call it.
 *
 * What must stay true: a value written is exact (the search ran to the
 * end of the round with a full window); a solve the clock stopped writes
 * no value and says so (SCOPA_ESTOPPED).
 */
#include "bots.h"
#include "solver.h"

#include <assert.h>

/* Sorts moves and values together, best value first (stable: among equal
 * values, the order of scopa_state_legal). */
static void best_first(scopa_move *moves, int *values, int n) {
  for (int i = 1; i < n; i++) {
    scopa_move m = moves[i];
    int v = values[i], j = i;
    for (; j > 0 && values[j - 1] < v; j--) {
      moves[j] = moves[j - 1];
      values[j] = values[j - 1];
    }
    moves[j] = m;
    values[j] = v;
  }
}

int scopa_bot_solve(scopa_bot *bot, const scopa_state *state,
                    const scopa_bot_limits *limits, scopa_move *moves,
                    double *values, int cap, uint64_t *nodes) {
  assert(bot && state);
  if (nodes)
    *nodes = 0;
  if (state->to_play == SCOPA_NO_SEAT)
    return 0;
  scopa_bot_limits l = {0};
  if (limits)
    l = *limits;
  l.nodes = 0;                        /* an exact solve has no node budget */
  ai_clock_start(&bot->clock, &l, 0); /* movetime_ms 0: no time limit */
  ai_solver *S = ai_bot_solver(bot, 0, 1);
  if (!S)
    return SCOPA_EINVAL; /* random and greedy hold no memory */
  scopa_move all[SCOPA_MAX_MOVES];
  int v[SCOPA_MAX_MOVES];
  int n = scopa_state_legal(state, all, SCOPA_MAX_MOVES);
  if (n > SCOPA_MAX_MOVES)
    return SCOPA_ENOSPACE; /* only positions built on purpose */
  uint64_t before = ai_solver_nodes(S);
  int rc = ai_solver_root(S, state, all, n, AI_DEPTH_END, v);
  if (nodes)
    *nodes = ai_solver_nodes(S) - before;
  if (rc != 0)
    return SCOPA_ESTOPPED;
  best_first(all, v, n);
  /* Solver units (solver.h) to points: the side's points minus the mean
   * of the others'. */
  double unit = (double)AI_UNIT * (state->sides - 1);
  for (int i = 0; i < n && i < cap; i++) {
    moves[i] = all[i];
    if (values)
      values[i] = v[i] / unit;
  }
  return n;
}
