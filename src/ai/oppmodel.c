/*
 * oppmodel.c -- the learned opponent model of oppmodel.h: the features of
 * a move from the mover's context, the types' softmaxes and their mixture,
 * and the posterior over the types from the deals already played out.
 *
 * What must stay true: a chance depends only on the mover's context (its
 * hand, the table, the piles, what it cannot place), never on a hidden
 * card; chances of a list sum to 1 and none is below floor / n.
 */
#include "oppmodel.h"

#include "internal.h"
#include "oppmodel_weights.h"

#include <math.h>
#include <string.h>

_Static_assert(AI_OPP_WEIGHTS_FEATURES == AI_OPP_FEATURES,
               "oppmodel_weights.h was fitted to another feature layout");
_Static_assert(AI_OPP_WEIGHTS_TYPES == AI_OPP_TYPES,
               "oppmodel_weights.h was fitted to other player types");

/* A type whose weight falls below this is dropped from the mixture (and
 * the rest renormalised): it would change chances by less than 1e-4. */
#define AI_OPP_NEGLIGIBLE 1e-4

/* The longest list modelled (a 2-player hand of three gives far fewer);
 * a longer one is cut, as the searches cut theirs (DS_MOVES). */
#define AI_OPP_MAX_MOVES 128

void ai_opp_context(ai_heur *h, const scopa_rules *rules, scopa_cards hand,
                    scopa_cards table, scopa_cards mine, scopa_cards theirs,
                    int next_hand, int last_play) {
  memset(h, 0, sizeof *h);
  h->rules = rules;
  h->hand = hand;
  h->table = table;
  h->mine = mine;
  h->theirs = theirs;
  h->unseen = SCOPA_ALL_CARDS & ~(hand | table | mine | theirs);
  h->next_hand = next_hand;
  h->last_play = last_play;
  h->counting = 1;
}

static double greedy_value(const ai_heur *h, scopa_move m) {
  ai_heur g = *h;
  g.counting = 0;
  return ai_heur_move(&g, m);
}

void ai_opp_top_of(const ai_heur *h, const scopa_move *moves, int n,
                   ai_opp_top *top) {
  top->greedy = top->rules = -1e9;
  for (int i = 0; i < n; i++) {
    double g = greedy_value(h, moves[i]), r = ai_heur_move(h, moves[i]);
    if (g > top->greedy)
      top->greedy = g;
    if (r > top->rules)
      top->rules = r;
  }
}

void ai_opp_features(const ai_heur *h, const ai_opp_top *top, scopa_move m,
                     double *f) {
  int card = SCOPA_MOVE_CARD(m), rank = SCOPA_RANK(card);
  scopa_cards takes = SCOPA_MOVE_TAKES(m), bit = SCOPA_BIT(card);
  int capture = takes != 0;
  scopa_cards got = capture ? takes | bit : 0;
  scopa_cards left = capture ? h->table & ~takes : h->table | bit;
  double g = greedy_value(h, m), r = ai_heur_move(h, m);
  memset(f, 0, sizeof *f * AI_OPP_FEATURES);
  f[0] = g;
  f[1] = r;
  f[2] = g >= top->greedy - 1e-9;
  f[3] = r >= top->rules - 1e-9;
  f[4] = capture;
  f[5] = POPCOUNT(got);
  f[6] = POPCOUNT(got & SCOPA_DENARI_CARDS);
  f[7] = (got >> SCOPA_SETTEBELLO) & 1;
  f[8] = POPCOUNT(got & SCOPA_RANK_CARDS(7));
  f[9] = POPCOUNT(got & SCOPA_RANK_CARDS(6));
  f[10] = POPCOUNT(got & SCOPA_RANK_CARDS(1));
  f[11] = capture && !left;
  f[12] = POPCOUNT(takes) > 1;
  if (!capture) {
    f[13] = rank / 10.0;
    f[14] = (bit & SCOPA_DENARI_CARDS) != 0;
    f[15] = rank == 7;
    f[16] = POPCOUNT(h->hand & SCOPA_RANK_CARDS(rank)) >= 2;
    f[17] = !(h->unseen & SCOPA_RANK_CARDS(rank));
  }
  int sum = cards_sum(left);
  if (left && sum <= 10) {
    f[18] = 1;
    f[19] = ai_holds(POPCOUNT(h->unseen & SCOPA_RANK_CARDS(sum)),
                     POPCOUNT(h->unseen), h->next_hand);
  }
  f[20] = POPCOUNT(left);
  f[21] = (left >> SCOPA_SETTEBELLO) & 1;
  f[22] = POPCOUNT(left & SCOPA_RANK_CARDS(7));
  f[23] = rank / 10.0;
  f[24] = POPCOUNT(left & SCOPA_DENARI_CARDS);
}

/* Each type's score of move m. */
static void scores(const ai_opp *o, const ai_heur *h, const ai_opp_top *top,
                   scopa_move m, double *s) {
  double f[AI_OPP_FEATURES];
  ai_opp_features(h, top, m, f);
  for (int t = 0; t < AI_OPP_TYPES; t++) {
    s[t] = 0;
    if (o->post[t] > 0)
      for (int j = 0; j < AI_OPP_FEATURES; j++)
        s[t] += AI_OPP_W[t][j] * f[j];
  }
}

void ai_opp_softmax_of(const ai_opp *o, const ai_heur *h,
                       const scopa_move *moves, int n, ai_opp_softmax *sm) {
  double sc[AI_OPP_MAX_MOVES][AI_OPP_TYPES];
  if (n > AI_OPP_MAX_MOVES)
    n = AI_OPP_MAX_MOVES;
  sm->n = n;
  ai_opp_top_of(h, moves, n, &sm->best);
  for (int t = 0; t < AI_OPP_TYPES; t++)
    sm->top[t] = -1e300, sm->sum[t] = 0;
  for (int i = 0; i < n; i++) {
    scores(o, h, &sm->best, moves[i], sc[i]);
    for (int t = 0; t < AI_OPP_TYPES; t++)
      if (sc[i][t] > sm->top[t])
        sm->top[t] = sc[i][t];
  }
  for (int i = 0; i < n; i++)
    for (int t = 0; t < AI_OPP_TYPES; t++)
      sm->sum[t] += exp(sc[i][t] - sm->top[t]);
}

double ai_opp_softmax_chance(const ai_opp *o, const ai_heur *h,
                             const ai_opp_softmax *sm, scopa_move m) {
  if (sm->n <= 1)
    return 1;
  double s[AI_OPP_TYPES], mix = 0;
  scores(o, h, &sm->best, m, s);
  for (int t = 0; t < AI_OPP_TYPES; t++)
    if (o->post[t] > 0)
      mix += o->post[t] * exp(s[t] - sm->top[t]) / sm->sum[t];
  return o->floor / sm->n + (1 - o->floor) * mix;
}

void ai_opp_chances(const ai_opp *o, const ai_heur *h, const scopa_move *moves,
                    int n, double *p) {
  ai_opp_softmax sm;
  ai_opp_softmax_of(o, h, moves, n, &sm);
  for (int i = 0; i < n; i++)
    p[i] = ai_opp_softmax_chance(o, h, &sm, moves[i]);
}

double ai_opp_chance(const ai_opp *o, const ai_heur *h, const scopa_move *moves,
                     int n, scopa_move m) {
  ai_opp_softmax sm;
  ai_opp_softmax_of(o, h, moves, n, &sm);
  return ai_opp_softmax_chance(o, h, &sm, m);
}

/* ---- the opponent's moves of a view ------------------------------------ */

static void normalise(ai_opp *o) {
  double sum = 0;
  for (int t = 0; t < AI_OPP_TYPES; t++)
    sum += o->post[t];
  for (int t = 0; t < AI_OPP_TYPES; t++)
    o->post[t] = sum > 0 ? o->post[t] / sum : 1.0 / AI_OPP_TYPES;
  sum = 0;
  for (int t = 0; t < AI_OPP_TYPES; t++) {
    if (o->post[t] < AI_OPP_NEGLIGIBLE)
      o->post[t] = 0;
    sum += o->post[t];
  }
  for (int t = 0; t < AI_OPP_TYPES; t++)
    o->post[t] /= sum;
}

void ai_opp_prior(ai_opp *o) {
  for (int t = 0; t < AI_OPP_TYPES; t++)
    o->post[t] = AI_OPP_PRIOR[t];
  o->floor = AI_OPP_FLOOR;
  normalise(o);
}

int ai_opp_modelled(const scopa_view *v) {
  return v->players == 2 && v->rules.game == SCOPA_GAME_SCOPA &&
         v->rules.refill == 3;
}

/* Calls visit for each move of the other seat among moves [from, to) of
 * the round (the table and piles followed from the deal), with the mover's
 * context and legal moves then: its hand is the cards it played from that move
 * to the end of its deal (or to now), plus `held` (its hand now) for a move of
 * the current deal. */
typedef void (*opp_visit)(void *arg, const ai_heur *h, const scopa_move *moves,
                          int n, scopa_move m);

static void walk(const scopa_view *v, int from, int to, scopa_cards held,
                 opp_visit visit, void *arg) {
  int opp = 1 - v->seat, now = v->plays - v->plays % 6;
  scopa_cards table = v->initial_table, pile[2] = {0, 0};
  int sum = cards_sum(table);
  if (v->rules.deal_bonus == SCOPA_DEAL_BONUS_FIFTEEN &&
      (sum == 15 || sum == 30))
    table = 0;
  for (int i = 0; i < to; i++) {
    scopa_move m = v->moves[i];
    int seat = (v->dealer + 1 + i) % 2,
        side = scopa_rules_side_of(&v->rules, seat);
    if (seat == opp && i >= from) {
      int start = i - i % 6, end = start + 6 < v->plays ? start + 6 : v->plays;
      scopa_cards hand = start == now ? held : 0;
      int next_played = 0;
      for (int j = i; j < end; j++)
        if ((v->dealer + 1 + j) % 2 == seat)
          hand |= SCOPA_BIT(SCOPA_MOVE_CARD(v->moves[j]));
      for (int j = start; j < i; j++)
        if ((v->dealer + 1 + j) % 2 != seat)
          next_played++;
      int next_hand = 3 - next_played;
      if (next_hand == 0 && start + 6 < 36)
        next_hand = 3;
      ai_heur h;
      scopa_move moves[SCOPA_MAX_MOVES];
      ai_opp_context(&h, &v->rules, hand, table, pile[side], pile[1 - side],
                     next_hand, i + 1 == 36);
      int n = scopa__hand_moves(&v->rules, hand, table, i == 0, moves,
                                SCOPA_MAX_MOVES);
      if (n > SCOPA_MAX_MOVES)
        n = SCOPA_MAX_MOVES;
      visit(arg, &h, moves, n, m);
    }
    scopa_cards takes = SCOPA_MOVE_TAKES(m);
    if (takes) {
      table &= ~takes;
      pile[side] |= takes | SCOPA_BIT(SCOPA_MOVE_CARD(m));
    } else if (!table &&
               scopa__ace_taken(&v->rules, SCOPA_MOVE_CARD(m), 0, i == 0)) {
      pile[side] |= SCOPA_BIT(SCOPA_MOVE_CARD(m));
    } else {
      table |= SCOPA_BIT(SCOPA_MOVE_CARD(m));
    }
  }
}

typedef struct type_ll {
  ai_opp one[AI_OPP_TYPES]; /* each type alone */
  double ll[AI_OPP_TYPES];
} type_ll;

static void add_types(void *arg, const ai_heur *h, const scopa_move *moves,
                      int n, scopa_move m) {
  type_ll *a = arg;
  if (n <= 1)
    return;
  for (int t = 0; t < AI_OPP_TYPES; t++)
    a->ll[t] += log(ai_opp_chance(&a->one[t], h, moves, n, m));
}

void ai_opp_of_view(ai_opp *o, const scopa_view *v) {
  ai_opp_prior(o);
  if (!ai_opp_modelled(v) || v->plays < 6)
    return;
  type_ll a;
  for (int t = 0; t < AI_OPP_TYPES; t++) {
    memset(&a.one[t], 0, sizeof a.one[t]);
    a.one[t].post[t] = 1;
    a.one[t].floor = o->floor;
    a.ll[t] = 0;
  }
  walk(v, 0, v->plays - v->plays % 6, 0, add_types, &a);
  double top = -1e300;
  for (int t = 0; t < AI_OPP_TYPES; t++)
    if (AI_OPP_PRIOR[t] > 0 && a.ll[t] > top)
      top = a.ll[t];
  for (int t = 0; t < AI_OPP_TYPES; t++)
    o->post[t] = AI_OPP_PRIOR[t] * exp(a.ll[t] - top);
  normalise(o);
}

typedef struct world_ll {
  const ai_opp *o;
  double p;
} world_ll;

static void add_world(void *arg, const ai_heur *h, const scopa_move *moves,
                      int n, scopa_move m) {
  world_ll *a = arg;
  if (n > 1)
    a->p *= ai_opp_chance(a->o, h, moves, n, m);
}

double ai_opp_likelihood(const ai_opp *o, const scopa_view *v,
                         const scopa_state *w) {
  if (!ai_opp_modelled(v))
    return 1;
  world_ll a = {o, 1};
  /* Only the current deal's moves tell worlds apart: earlier hands are
   * known whatever the world. */
  walk(v, v->plays - v->plays % 6, v->plays, w->hand[1 - v->seat], add_world,
       &a);
  return a.p;
}
