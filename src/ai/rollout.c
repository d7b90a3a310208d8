/*
 * rollout.c -- playouts for positions too big to solve (early scopone):
 * after the move under test, every seat plays the rules bot's move in the
 * sampled world (each seat counting only what it could see there), with a
 * small chance of a random move so that playouts differ.
 *
 * What must stay true: a playout reads a seat's hand only to play that
 * seat's cards; its value is in solver units for the root side, as the
 * solver's (scope made during it plus the end-of-round categories).
 */
#include "heur.h"
#include "internal.h"
#include "solver.h"

#define EPSILON_PER_1024 100

scopa_move ai_rollout_policy(const scopa_state *s, scopa_rng *rng,
                             int epsilon_per_1024) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_state_legal(s, moves, SCOPA_MAX_MOVES);
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  if (n == 1)
    return moves[0];
  if (scopa_rng_below(rng, 1024) < (uint32_t)epsilon_per_1024)
    return moves[scopa_rng_below(rng, (uint32_t)n)];
  int seat = s->to_play, side = scopa_rules_side_of(&s->rules, seat);
  ai_heur h;
  h.rules = &s->rules;
  h.hand = s->hand[seat];
  h.table = s->table;
  h.mine = s->pile[side];
  h.theirs = 0;
  for (int k = 0; k < s->sides; k++)
    if (k != side)
      h.theirs |= s->pile[k];
  h.unseen = SCOPA_ALL_CARDS & ~(h.hand | h.table | h.mine | h.theirs);
  int next = (seat + 1) % s->players;
  h.next_hand = POPCOUNT(s->hand[next]);
  if (!h.next_hand && s->next < 40)
    h.next_hand = 3;
  h.last_play = s->plays + 1 == scopa_state_total_plays(s);
  h.counting = 1;
  h.dealer_team = !s->rules.teams                                     ? 0
                  : side == scopa_rules_side_of(&s->rules, s->dealer) ? 1
                                                                      : -1;
  return moves[ai_heur_best(&h, moves, n, NULL)];
}

int ai_rollout(const scopa_state *world, scopa_move move, int root,
               scopa_rng *rng, int *plies) {
  scopa_state s = *world;
  int v = ai_move_gain(&s, move, root);
  scopa_state_play(&s, move);
  while (!scopa_state_over(&s)) {
    scopa_move m = ai_rollout_policy(&s, rng, EPSILON_PER_1024);
    v += ai_move_gain(&s, m, root);
    scopa_state_play(&s, m);
    ++*plies;
  }
  return v + ai_leaf_value(&s, root);
}
