/*
 * heur.h -- the traditional move values shared by the greedy and rules
 * bots and by the opponent model of the inference bot.  Not API.
 *
 * A move's value is in points for the mover's side, roughly: what it takes
 * (a scopa 1, the settebello 1, a seven a third of the primiera, coins and
 * cards a share of their majorities), less what it leaves the next seat
 * (a sweep, exposed sevens and coins).
 */
#ifndef SCOPA_AI_HEUR_H
#define SCOPA_AI_HEUR_H

#include "scopa.h"

typedef struct ai_heur {
  const scopa_rules *rules;
  scopa_cards hand, table;
  scopa_cards mine, theirs; /* the mover's side's pile; all the others' */
  scopa_cards unseen;       /* cards the mover cannot place             */
  int next_hand;            /* cards the next seat will hold on its turn */
  int last_play;            /* nonzero: this is the round's last play    */
  int counting;             /* rules: exact odds from unseen cards       */
  int dealer_team;          /* teams: 1 the mover's side dealt, -1 not,
                               0 no teams                                 */
} ai_heur;

/* Fills the context of a view's seat (counting as asked). */
void ai_heur_of_view(ai_heur *h, const scopa_view *view, int counting);

/* The value of one legal move. */
double ai_heur_move(const ai_heur *h, scopa_move move);

/* The index of the best of n moves by ai_heur_move (the first on ties). */
int ai_heur_best(const ai_heur *h, const scopa_move *moves, int n,
                 double *best_value);

/* The softened heur.c player, the opponent model of the searching bots:
 * the chance of each move is a softmax of ai_heur_move over the mover's n
 * legal moves at `temperature` (points), mixed with a uniform share
 * `floor` (so no move is impossible): floor / n + (1 - floor) x softmax.
 * With one move or none the chance is 1. */
double ai_heur_chance(const ai_heur *h, const scopa_move *moves, int n,
                      scopa_move move, double temperature, double floor);

/* The same for every move at once: p[i] for moves[i]. */
void ai_heur_chances(const ai_heur *h, const scopa_move *moves, int n,
                     double temperature, double floor, double *p);

/* The same in two steps, for a caller that asks the chance of a few moves
 * of one list: the softmax's top score and sum once, then one move's
 * chance (the same floats as ai_heur_chance). */
typedef struct ai_heur_softmax {
  double top, sum;
  int n;
} ai_heur_softmax;
void ai_heur_softmax_of(const ai_heur *h, const scopa_move *moves, int n,
                        double temperature, ai_heur_softmax *sm);
double ai_heur_softmax_chance(const ai_heur *h, const ai_heur_softmax *sm,
                              scopa_move move, double temperature,
                              double floor);

/* The best legal move of a view's seat by these values (counting as
 * asked) into *move; returns how many legal moves there were, or
 * SCOPA_EINVAL when there is none. */
int ai_heur_choose(const scopa_view *view, int counting, scopa_move *move);

/* The chance that a hand of h cards drawn from u unseen cards holds at
 * least one of k given cards. */
double ai_holds(int k, int u, int h);

/* The index of the highest value (the first of equals, to 1e-12): the
 * move the searching bots play from their averaged values. */
static inline int ai_best_index(const double *values, int n) {
  int best = 0;
  for (int i = 1; i < n; i++)
    if (values[i] > values[best] + 1e-12)
      best = i;
  return best;
}

#endif
