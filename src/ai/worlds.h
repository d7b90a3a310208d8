/*
 * worlds.h -- the worlds a seat cannot tell apart: listing all of them
 * late in 2-player scopa (each built with scopa_view_world), and how
 * likely the others' moves so far are in each.  Not API.
 */
#ifndef SCOPA_AI_WORLDS_H
#define SCOPA_AI_WORLDS_H

#include "clock.h"
#include "scopa.h"

/* Every world of a 2-player view whose stock is at most 6 cards: each way
 * to give the opponent its hand and to split the stock between the two
 * seats (the order inside a hand does not matter).  Writes up to cap and
 * returns how many there are, or -1 when the view is not of that kind, or
 * -2 when the clock stopped it (clock may be NULL: never). */
int ai_world_enumerate(const scopa_view *view, scopa_state *out, int cap,
                       ai_clock *clock);

/* How many worlds ai_world_enumerate would list (-1: not enumerable). */
long ai_world_count(const scopa_view *view);

/* The number of the first move played from the hands the seats hold now
 * (RULES.md "The deal (`game`)": hands are dealt again every 3 * players moves
 * with refill 3; with refill 1 a seat draws after every move; the
 * scopone games deal everything at once). */
int ai_hands_start(const scopa_view *view);

/* The likelihood of the moves the other seats made since their hands were
 * last dealt, if the world is the truth and they play like a softened
 * greedy player (heur.c).  Relative: only ratios between worlds mean
 * anything. */
double ai_world_likelihood(const scopa_view *view, const scopa_state *world);

/* The same with the model's softmax temperature (points) and the share of
 * uniformly random play (epsilon) given: ai_world_likelihood is 0.25 and
 * 0.1. */
double ai_world_likelihood_model(const scopa_view *view,
                                 const scopa_state *world, double temperature,
                                 double epsilon);

/* teamworlds.c: the model of the other seats' play (a softmax of the
 * rules bot's values at a temperature, mixed with a uniform choice: the
 * floor) and the Markov chain's schedule. */
typedef struct ai_team_model {
  double temp, floor;                 /* the opponents              */
  double partner_temp, partner_floor; /* the partner                */
  int worlds;                         /* how many to draw           */
  int chains, burn_in, thin;          /* steps: proposed swaps      */
  double partner_signal;              /* reading the partner's lays as signals
                                         (signals.c): the strength of the softmax of
                                         ai_signal_lay, with partner_floor; 0: not
                                         read */
} ai_team_model;

/* Writes m worlds of the view drawn in proportion to the likelihood of
 * the other seats' moves since their hands were dealt under the model
 * (a Markov chain over the placings of the unseen cards).  Returns m, or
 * -1 when the clock stopped it. */
int ai_world_infer(const scopa_view *view, const ai_team_model *model,
                   scopa_rng *rng, scopa_state *out, int m, ai_clock *clock);

#endif
