/*
 * oppmodel.h -- the learned opponent model of 2-player scopa: the chance
 * of each legal move given the mover's view, never hidden cards.  Not API.
 *
 * A move is described by AI_OPP_FEATURES numbers computed from the mover's
 * context (an ai_heur: its hand, the table, both piles, the cards it
 * cannot place, the next seat's hand size): greedy's and the rules bot's
 * values, which of them each ranks first, and the parts separately (cards,
 * coins, the settebello, sevens, sixes, aces taken, a scopa, a capture by
 * sum, what a lay leaves the next seat, laying from a pair or a dead rank).
 * Each player type t (fitted to games of the project's bots: greedy-like,
 * rules-like, chitarrella-like, search-like) scores a move by a weighted
 * sum of the features, and its chance is a softmax of the scores.  The
 * model in use is a mixture of the types, their weights a posterior
 * updated from the opponent's moves of the deals already played out in
 * this round (whose hands are then known to everyone), mixed with a
 * uniform floor so that no move is impossible:
 *
 *   P(m) = floor / n + (1 - floor) x sum_t post_t softmax_t(m)
 *
 * What must stay true: ai_opp_features is the only definition of the
 * features; tools/oppmodel/train.py fits the weights (oppmodel_weights.h)
 * to exactly what tools/oppmodel/data.c writes with it (the layout is
 * checked at compile time).  Every function reads only the mover's
 * context.
 */
#ifndef SCOPA_AI_OPPMODEL_H
#define SCOPA_AI_OPPMODEL_H

#include "heur.h"
#include "scopa.h"

#define AI_OPP_FEATURES 25
#define AI_OPP_TYPES 4 /* greedy, rules, chitarrella, search */
/* The types, in the order of the weights (oppmodel_weights.h). */
enum { AI_OPP_GREEDY, AI_OPP_RULES, AI_OPP_CHITARRELLA, AI_OPP_SEARCH };

/* The model in use: the mixture's weights (summing to 1) and the floor. */
typedef struct ai_opp {
  double post[AI_OPP_TYPES];
  double floor;
} ai_opp;

/* The context of a 2-player mover who holds `hand` on `table` with the
 * piles given (its side's, the other's): counting, the cards it cannot
 * place are all the others, next_hand the next seat's cards on its turn. */
void ai_opp_context(ai_heur *h, const scopa_rules *rules, scopa_cards hand,
                    scopa_cards table, scopa_cards mine, scopa_cards theirs,
                    int next_hand, int last_play);

/* The top values of greedy and of the rules bot over a list of moves (two
 * features say whether a move is the one each would play). */
typedef struct ai_opp_top {
  double greedy, rules;
} ai_opp_top;
void ai_opp_top_of(const ai_heur *h, const scopa_move *moves, int n,
                   ai_opp_top *top);

/* The features of move m into f[0..AI_OPP_FEATURES-1]. */
void ai_opp_features(const ai_heur *h, const ai_opp_top *top, scopa_move m,
                     double *f);

/* Nonzero when the model describes the view's game: 2-player scopa dealt
 * three at a time (elsewhere ai_opp_of_view is the prior and
 * ai_opp_likelihood 1). */
int ai_opp_modelled(const scopa_view *view);

/* The prior model: the types' prior weights and the shipped floor. */
void ai_opp_prior(ai_opp *o);

/* The model of the opponent of a 2-player view: the prior updated by the
 * opponent's moves of the deals of this round already played out. */
void ai_opp_of_view(ai_opp *o, const scopa_view *view);

/* The chance of each of the n moves into p (summing to 1, each at least
 * floor / n). */
void ai_opp_chances(const ai_opp *o, const ai_heur *h, const scopa_move *moves,
                    int n, double *p);

/* The chance of one move of the n (as ai_opp_chances gives it). */
double ai_opp_chance(const ai_opp *o, const ai_heur *h, const scopa_move *moves,
                     int n, scopa_move m);

/* The same in two steps for a caller asking a few moves of one list: each
 * type's top score and sum once, then one move's chance (the same floats
 * as ai_opp_chance). */
typedef struct ai_opp_softmax {
  double top[AI_OPP_TYPES], sum[AI_OPP_TYPES];
  ai_opp_top best;
  int n;
} ai_opp_softmax;
void ai_opp_softmax_of(const ai_opp *o, const ai_heur *h,
                       const scopa_move *moves, int n, ai_opp_softmax *sm);
double ai_opp_softmax_chance(const ai_opp *o, const ai_heur *h,
                             const ai_opp_softmax *sm, scopa_move m);

/* The likelihood of the opponent's moves of the current deal if the world
 * is the truth, under the model (relative, as ai_world_likelihood). */
double ai_opp_likelihood(const ai_opp *o, const scopa_view *view,
                         const scopa_state *world);

#endif
