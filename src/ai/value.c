/*
 * value.c -- the learned value of a deal boundary (value.h): the features
 * of a public boundary state and a small network over them, in plain C.
 *
 * The network (value_weights.h, written by tools/value/train.py):
 *   h = relu(W1 x + b1)  (AI_VALUE_HIDDEN units)
 *   y = w2 . h + b2 + wl . x   (a linear skip term)
 * x the features (value.h), y points for the leader.  Floats throughout,
 * summed in the same order as numpy's float32 matmul up to rounding: the
 * unit test allows 1e-4.
 */
#include "value.h"

#include "internal.h"
#include "solver.h"
#include "value_weights.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

_Static_assert(AI_VALUE_WEIGHTS_FEATURES == AI_VALUE_FEATURES,
               "value_weights.h was fitted to another feature layout");

static const int PRIMIERA[11] = {0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10};

void ai_boundary_of_state(const scopa_state *s, ai_boundary *b) {
  int me = scopa_rules_side_of(&s->rules, s->to_play);
  b->table = s->table;
  b->mine = s->pile[me];
  b->theirs = s->pile[1 - me];
  b->last = s->last_capturer == SCOPA_NO_SEAT                        ? 0
            : scopa_rules_side_of(&s->rules, s->last_capturer) == me ? 1
                                                                     : 2;
  b->plays = s->plays;
}

static int best_of_suit(scopa_cards pile, int suit) {
  int best = 0;
  FOR_EACH_CARD(c, pile & SUIT_CARDS(suit)) {
    if (PRIMIERA[SCOPA_RANK(c)] > best)
      best = PRIMIERA[SCOPA_RANK(c)];
  }
  return best;
}

/* Counts, majorities, primiera and sevens of one pile, at f[0..]. */
static void pile_features(scopa_cards p, float *cards, float *coins,
                          float *won_cards, float *won_coins, float *prim,
                          float *sevens, float *suits) {
  int n = POPCOUNT(p), d = POPCOUNT(p & SCOPA_DENARI_CARDS);
  *cards = n / 20.0f;
  *coins = d / 10.0f;
  *won_cards = n > 20;
  *won_coins = d > 5;
  int held = 0;
  for (int suit = 0; suit < 4; suit++) {
    int b = best_of_suit(p, suit);
    prim[suit] = b / 21.0f;
    held += b > 0;
  }
  *sevens = POPCOUNT(p & SCOPA_RANK_CARDS(7)) / 4.0f;
  *suits = held / 4.0f;
}

void ai_value_features(const ai_boundary *b, float *f) {
  memset(f, 0, sizeof *f * AI_VALUE_FEATURES);
  scopa_cards unseen = SCOPA_ALL_CARDS & ~(b->table | b->mine | b->theirs);
  for (int c = 0; c < 40; c++) {
    scopa_cards bit = SCOPA_BIT(c);
    f[c] = (b->mine & bit) ? 1.0f : (b->theirs & bit) ? -1.0f : 0.0f;
    f[40 + c] = (b->table & bit) != 0;
    f[80 + c] = (unseen & bit) != 0;
  }
  pile_features(b->mine, &f[120], &f[123], &f[125], &f[127], &f[129], &f[138],
                &f[153]);
  pile_features(b->theirs, &f[121], &f[124], &f[126], &f[128], &f[133], &f[139],
                &f[154]);
  f[122] = POPCOUNT(unseen) / 30.0f;
  float pm = 0, pt = 0;
  for (int suit = 0; suit < 4; suit++)
    pm += f[129 + suit], pt += f[133 + suit];
  f[137] = (pm - pt) * 21.0f / 84.0f;
  f[140] = b->last == 1;
  f[141] = b->last == 2;
  int deal = b->plays / 6; /* deals played: 1..5 */
  if (deal >= 1 && deal <= 5)
    f[141 + deal] = 1;
  f[147] = POPCOUNT(b->table) / 8.0f;
  int sum = cards_sum(b->table);
  f[148] = sum / 40.0f;
  f[149] = b->table && sum <= 10;
  f[150] = b->table == 0;
  f[151] = f[120] - f[121];
  f[152] = f[123] - f[124];
  f[155] = POPCOUNT(unseen & SCOPA_DENARI_CARDS) / 10.0f;
  f[156] = POPCOUNT(unseen & SCOPA_RANK_CARDS(7)) / 4.0f;
  f[157] = 1.0f;
  f[158] = (6 - deal) / 5.0f;
  f[159] = (unseen & SCOPA_BIT(SCOPA_SETTEBELLO)) != 0;
}

/* The first layer feature by feature (W1 transposed, made once): a
 * feature that is zero (most of them: a card is in one place only) is
 * skipped, and the 32 units of a feature are added side by side, which
 * the compiler vectorises.  Each sum takes its terms in the same order as
 * the plain matrix product and a skipped term is an exact zero, so the
 * result is the same float for float (tests/ai value-1.3). */
static float W1T[AI_VALUE_FEATURES][AI_VALUE_HIDDEN];
static pthread_once_t W1T_ONCE = PTHREAD_ONCE_INIT;

static void transpose(void) {
  for (int j = 0; j < AI_VALUE_HIDDEN; j++)
    for (int i = 0; i < AI_VALUE_FEATURES; i++)
      W1T[i][j] = AI_VALUE_W1[j][i];
}

double ai_value_net(const float *x) {
  float y = AI_VALUE_B2, h[AI_VALUE_HIDDEN];
  pthread_once(&W1T_ONCE, transpose);
  memcpy(h, AI_VALUE_B1, sizeof h);
  for (int i = 0; i < AI_VALUE_FEATURES; i++) {
    if (x[i] == 0)
      continue;
    y += AI_VALUE_WL[i] * x[i];
    const float *w = W1T[i];
    for (int j = 0; j < AI_VALUE_HIDDEN; j++)
      h[j] += w[j] * x[i];
  }
  for (int j = 0; j < AI_VALUE_HIDDEN; j++)
    if (h[j] > 0)
      y += AI_VALUE_W2[j] * h[j];
  return y;
}

double ai_value_net_dense(const float *x) {
  float y = AI_VALUE_B2;
  for (int i = 0; i < AI_VALUE_FEATURES; i++)
    y += AI_VALUE_WL[i] * x[i];
  for (int j = 0; j < AI_VALUE_HIDDEN; j++) {
    float h = AI_VALUE_B1[j];
    const float *w = AI_VALUE_W1[j];
    for (int i = 0; i < AI_VALUE_FEATURES; i++)
      h += w[i] * x[i];
    if (h > 0)
      y += AI_VALUE_W2[j] * h;
  }
  return y;
}

int ai_value_boundary(const scopa_state *s, int root) {
  ai_boundary b;
  float x[AI_VALUE_FEATURES];
  ai_boundary_of_state(s, &b);
  ai_value_features(&b, x);
  double v = ai_value_net(x);
  if (scopa_rules_side_of(&s->rules, s->to_play) != root)
    v = -v;
  return (int)lround(AI_UNIT * v);
}
