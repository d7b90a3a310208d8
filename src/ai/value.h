/*
 * value.h -- the learned value of a deal boundary in 2-player scopa.  At a
 * boundary both hands are empty (or just refilled), so the state is
 * public except the order of the stock: the table, the two piles, who
 * captured last, who leads and how many deals are left.  This module
 * turns that into a feature vector and a small network's estimate of the
 * points still to come (scope from here on plus the categories), trained
 * on means of exact solves over re-drawn stock orders
 * (tools/value/, docs/research.md).  Not API.
 *
 * What must stay true: ai_value_features is the only definition of the
 * features; tools/value/train.py reads them as this file writes them
 * (value_data features), and the weights (value_weights.h) were fitted
 * to exactly this layout (AI_VALUE_FEATURES is checked against
 * them at compile time).
 */
#ifndef SCOPA_AI_VALUE_H
#define SCOPA_AI_VALUE_H

#include "scopa.h"

/* A boundary as the features see it, from the side to lead's view. */
typedef struct ai_boundary {
  scopa_cards table;
  scopa_cards mine, theirs; /* the leader's pile, the other side's */
  int last;                 /* last capturer: 0 none, 1 leader, 2 other */
  int plays;                /* cards played so far (6, 12, ... 30) */
} ai_boundary;

#define AI_VALUE_FEATURES 160

/* The boundary of a 2-player state whose plays are a multiple of 6 (the
 * hands just refilled or empty): the side to play leads. */
void ai_boundary_of_state(const scopa_state *state, ai_boundary *b);

/* The features of b into f[0..AI_VALUE_FEATURES-1]. */
void ai_value_features(const ai_boundary *b, float *f);

/* The network's estimate, in points for the leader, of the points still to
 * come (scope from here on and the categories) minus the other side's. */
double ai_value_net(const float *features);

/* The same network as a plain matrix product over every feature: the
 * reference that ai_value_net must equal float for float (tests). */
double ai_value_net_dense(const float *features);

/* ai_value_net of the state's boundary, in solver units (AI_UNIT a point)
 * for root_side. */
int ai_value_boundary(const scopa_state *state, int root_side);

#endif
