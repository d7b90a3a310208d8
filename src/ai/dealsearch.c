/*
 * dealsearch.c -- `best` in 2-player scopa: one search over all the
 * weighed worlds of the current deal, against a learned model of the
 * opponent.  The rest of the current deal is searched and every deal
 * boundary valued by the learned network (value.h); instead of one
 * alpha-beta search per world, in which both sides would know each
 * other's hand (strategy fusion), one search runs over the set of worlds
 * (the opponent's possible hands, each weighed by the likelihood of the
 * opponent's moves seen):
 *
 *   - a node is the public position, our hand, and the worlds still
 *     possible; its value is a vector, one value per world;
 *   - at our node the legal moves are the same in every world: each move is
 *     searched over the whole set and the move of best weighted sum is
 *     taken, for every world at once (we cannot tell them apart);
 *   - at the opponent's node the worlds are split by the move the opponent
 *     makes (the card it plays is seen by us), a child for each distinct
 *     move with the worlds whose hand holds that card; each world's value
 *     is the mean over its own moves under the opponent model (a player
 *     who does not see our hand), or, with a mix, a blend with the minimum
 *     (an opponent that sees our hand, as plain minimax assumes).  Below a
 *     move the worlds are weighed by the prior times the model's chance of
 *     that move in each (DS_BAYES): our later choices are made per
 *     observed history;
 *   - at a boundary both hands are empty and everything but the stock
 *     order is public: one network call values the whole group.
 *
 * The opponent model is the learned one (oppmodel.h: a mixture of player
 * types, its weights a posterior from the opponent's moves of the deals
 * played out), or, for the research bot `dealset` (research/), a softened
 * heur.c player.
 *
 * Worlds: when the opponent's hands consistent with the view are at most
 * DS_WORLDS, every one is listed; else (a hand of three at the start of a
 * deal, up to 5,456 hands, all equally likely since the opponent has not
 * yet played from it) DS_SAMPLE distinct hands are drawn.  Work: a first
 * pass over the DS_FIRST heaviest worlds, then one over all, each counted
 * in nodes (a boundary valued DS_LEAF_COST); the clock and the cancel flag
 * are checked every 64 nodes.  A pass cut short is dropped: the move is
 * the last finished pass's, else the rules bot's.  Always a legal move.
 *
 * Where: deals 1-4 (the stock holds more than six cards).  The fifth deal
 * is infer's (pimc.c), its worlds weighed by the learned model; the last
 * (the stock empty) is searched to the round's end with the opponent's
 * nodes valued by the posterior: the minimum for the counting types, the
 * model's mean for the others.  Other games are infer's.  Reads only the
 * view.  Values (scopa_bot_evaluate: hints, reviews) are infer's, on which
 * the hints' calibration was measured.
 */
#include "dealsearch.h"
#include "heur.h"
#include "internal.h"
#include "oppmodel.h"
#include "solver.h"
#include "value.h"
#include "worlds.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DS_WORLDS 528  /* list every hand up to this many (C(33,2))   */
#define DS_SAMPLE 400  /* hands drawn when there are more             */
#define DS_FIRST 48    /* worlds of the first, safe pass              */
#define DS_LEAF_COST 4 /* nodes a boundary evaluation counts for      */
#define DS_MOVES AI_DEAL_SEARCH_MOVES
#define DS_TIEBREAK 0.01
/* The opponent's node: MIX x each world's minimum plus (1 - MIX) x its
 * mean over the opponent model.  0 (shipped): the model alone;
 * docs/research.md has 1 (minimax) and 0.5 measured. */
#ifndef DS_MIX
#define DS_MIX 0.0
#endif
/* 1: below an opponent's move each world's weight is multiplied by the
 * model's chance of that move in it (Bayes); 0: the prior weights. */
#ifndef DS_BAYES
#define DS_BAYES 1
#endif
/* The opponent model, for the weights of the worlds and at its nodes: the
 * softmax temperature over heur.c's values (points) and the share of
 * uniformly random play.  infer's: 0.25 and 0.1. */
#ifndef DS_MODEL_TEMPERATURE
#define DS_MODEL_TEMPERATURE 0.1
#endif
#ifndef DS_MODEL_EPSILON
#define DS_MODEL_EPSILON 0.03
#endif

typedef struct ds_search {
  int root;                /* our side                              */
  int opp;                 /* the opponent's seat                   */
  const scopa_cards *hand; /* each world's opponent hand at the root */
  uint64_t nodes, budget;
  ai_clock *clock;
  int stopped;
  const ai_opp *model; /* the learned model, or NULL: the softened
                          heur.c player (research's dealset)     */
  double mix;          /* the opponent's node: mix x the minimum
                          plus (1 - mix) x the model's mean       */
} ds_search;

static int tick(ds_search *d, uint64_t cost) {
  d->nodes += cost;
  if ((d->nodes & 63) < cost && ai_clock_check(d->clock))
    d->stopped = 1;
  if (d->nodes > d->budget)
    d->stopped = 1;
  return d->stopped;
}

static void node(ds_search *d, const scopa_state *s, const int *set,
                 const double *w, int n, scopa_cards gone, int *out);

/* The vector of values of playing m in s (the mover's hand in s as the
 * caller set it): its scopa, then the rest of the deal over the worlds. */
static void after(ds_search *d, const scopa_state *s, scopa_move m,
                  const int *set, const double *w, int n, scopa_cards gone,
                  int *out) {
  scopa_state c = *s;
  int gain = ai_move_gain(s, m, d->root), leaf;
  scopa_state_play(&c, m);
  if (scopa_state_over(&c)) {
    leaf = gain + ai_leaf_value(&c, d->root);
  } else if (c.plays % 6 == 0) {
    tick(d, DS_LEAF_COST);
    leaf = gain + ai_value_boundary(&c, d->root);
  } else {
    node(d, &c, set, w, n, gone, out);
    for (int k = 0; k < n; k++)
      out[k] += gain;
    return;
  }
  for (int k = 0; k < n; k++)
    out[k] = leaf;
}

static double weighted(const int *v, const double *w, int n) {
  double sum = 0;
  for (int k = 0; k < n; k++)
    sum += w[k] * v[k];
  return sum;
}

/* Our node: one move for every world of the set. */
static void ours(ds_search *d, const scopa_state *s, const int *set,
                 const double *w, int n, scopa_cards gone, int *out) {
  scopa_move moves[DS_MOVES];
  int m = scopa_state_legal(s, moves, DS_MOVES), tmp[DS_WORLDS];
  if (m > DS_MOVES)
    m = DS_MOVES;
  double best = -INFINITY;
  for (int i = 0; i < m && !d->stopped; i++) {
    after(d, s, moves[i], set, w, n, gone, tmp);
    double sum = weighted(tmp, w, n);
    if (sum > best) {
      best = sum;
      memcpy(out, tmp, sizeof *out * (size_t)n);
    }
  }
}

/* The opponent model for the mover of s holding `hand`: the learned model
 * from the mover's view (the next seat's hand size and what the mover
 * cannot place), or the softened heur.c player (model NULL). */
typedef union ds_model {
  ai_heur_softmax heur;
  ai_opp_softmax learned;
} ds_model;

static void model_context(const ds_search *d, const scopa_state *s,
                          scopa_cards hand, ai_heur *h) {
  int side = scopa_rules_side_of(&s->rules, s->to_play);
  if (d->model) {
    int next = POPCOUNT(s->hand[1 - s->to_play]);
    if (next == 0 && s->next < 40)
      next = 3;
    ai_opp_context(h, &s->rules, hand, s->table, s->pile[side],
                   s->pile[1 - side], next, 0);
    return;
  }
  memset(h, 0, sizeof *h);
  h->rules = &s->rules;
  h->hand = hand;
  h->table = s->table;
  h->mine = s->pile[side];
  h->theirs = s->pile[1 - side];
  h->next_hand = 3;
}

/* The model's softmax over the moves of `hand` in s. */
static void model_of(const ds_search *d, const scopa_state *s, scopa_cards hand,
                     ds_model *md) {
  scopa_move moves[DS_MOVES];
  ai_heur h;
  int n = scopa__hand_moves(&s->rules, hand, s->table, s->plays == 0, moves,
                            DS_MOVES);
  if (n > DS_MOVES)
    n = DS_MOVES;
  model_context(d, s, hand, &h);
  if (d->model)
    ai_opp_softmax_of(d->model, &h, moves, n, &md->learned);
  else
    ai_heur_softmax_of(&h, moves, n, DS_MODEL_TEMPERATURE, &md->heur);
}

static double model_chance(const ds_search *d, const scopa_state *s,
                           scopa_cards hand, const ds_model *md, scopa_move m) {
  ai_heur h;
  model_context(d, s, hand, &h);
  if (d->model)
    return ai_opp_softmax_chance(d->model, &h, &md->learned, m);
  return ai_heur_softmax_chance(&h, &md->heur, m, DS_MODEL_TEMPERATURE,
                                DS_MODEL_EPSILON);
}

#define DS_MODEL_USED (DS_MIX < 1 || DS_BAYES)

/* The opponent's node: the worlds split by the card it plays. */
static void theirs(ds_search *d, const scopa_state *s, const int *set,
                   const double *w, int n, scopa_cards gone, int *out) {
  int sub[DS_WORLDS], pos[DS_WORLDS], vals[DS_WORLDS];
  double subw[DS_WORLDS], mean[DS_WORLDS];
  ds_model md[DS_MODEL_USED ? DS_WORLDS : 1];
  scopa_cards cards = 0;
  for (int k = 0; k < n; k++) {
    cards |= d->hand[set[k]] & ~gone;
    out[k] = AI_INF;
    mean[k] = 0;
    if (DS_MODEL_USED)
      model_of(d, s, d->hand[set[k]] & ~gone, &md[k]);
  }
  FOR_EACH_CARD(c, cards) {
    if (d->stopped)
      return;
    int ns = 0;
    for (int k = 0; k < n; k++)
      if (d->hand[set[k]] >> c & 1)
        pos[ns] = k, sub[ns++] = set[k];
    scopa_move moves[DS_MOVES];
    int m = scopa__hand_moves(&s->rules, SCOPA_BIT(c), s->table, s->plays == 0,
                              moves, DS_MOVES);
    if (m > DS_MOVES)
      m = DS_MOVES;
    scopa_state c1 = *s;
    c1.hand[d->opp] = d->hand[sub[0]] & ~gone;
    for (int i = 0; i < m && !d->stopped; i++) {
      double p[DS_WORLDS];
      for (int j = 0; j < ns; j++) {
        int k = pos[j];
        p[j] = DS_MODEL_USED ? model_chance(d, s, d->hand[set[k]] & ~gone,
                                            &md[k], moves[i])
                             : 1;
        subw[j] = DS_BAYES ? w[k] * p[j] : w[k];
      }
      after(d, &c1, moves[i], sub, subw, ns, gone | SCOPA_BIT(c), vals);
      for (int j = 0; j < ns; j++) {
        int k = pos[j];
        if (vals[j] < out[k])
          out[k] = vals[j];
        mean[k] += p[j] * vals[j];
      }
    }
  }
  if (d->mix < 1)
    for (int k = 0; k < n; k++)
      out[k] = (int)lround(d->mix * out[k] + (1 - d->mix) * mean[k]);
}

static void node(ds_search *d, const scopa_state *s, const int *set,
                 const double *w, int n, scopa_cards gone, int *out) {
  if (tick(d, 1))
    return;
  if (s->to_play == d->opp)
    theirs(d, s, set, w, n, gone, out);
  else
    ours(d, s, set, w, n, gone, out);
}

/* ---- the worlds ---------------------------------------------------------- */

/* The stock the search needs at least: 7, deals 1-4 (6: the fifth deal
 * too, valued by the network at its end instead of infer's exact solves). */
#ifndef DS_MIN_STOCK
#define DS_MIN_STOCK 7
#endif

int ai_deal_search_applies(const scopa_view *v) {
  return v->players == 2 && v->rules.game == SCOPA_GAME_SCOPA &&
         v->rules.refill == 3 && v->stock >= DS_MIN_STOCK;
}

static long choose_count(int n, int k) {
  long r = 1;
  for (int i = 0; i < k; i++)
    r = r * (n - i) / (i + 1);
  return r;
}

/* The world of opponent hand `hand` (the stock in any order: the search
 * never reaches it), and its weight. */
static double weigh(const scopa_view *v, const ai_opp *model, scopa_cards hand,
                    scopa_state *w) {
  scopa_cards hands[SCOPA_MAX_SEATS] = {0};
  uint8_t stock[40];
  int k = 0, opp = 1 - v->seat;
  hands[opp] = hand;
  FOR_EACH_CARD(c, v->unseen & ~hand) stock[k++] = (uint8_t)c;
  if (scopa_view_world(v, hands, stock, w) != SCOPA_OK)
    return 0;
  if (model)
    return ai_opp_likelihood(model, v, w);
  return ai_world_likelihood_model(v, w, DS_MODEL_TEMPERATURE,
                                   DS_MODEL_EPSILON);
}

/* Every opponent hand of the view (at most DS_WORLDS), or DS_SAMPLE
 * distinct ones drawn at random; their weights.  Returns how many, 0 when
 * the clock stopped it; *base is one of the worlds. */
static int worlds_of(const scopa_view *v, const ai_opp *model, scopa_rng *rng,
                     ai_clock *clock, scopa_cards *hand, double *weight,
                     scopa_state *base) {
  int opp = 1 - v->seat, h = v->hand_count[opp], u = 0, cards[40], n = 0;
  FOR_EACH_CARD(c, v->unseen) cards[u++] = c;
  if (choose_count(u, h) <= DS_WORLDS) {
    /* Gosper's hack over the subsets of h of the u unseen cards. */
    for (uint64_t x = (1ull << h) - 1; x < (1ull << u);) {
      scopa_cards set = 0;
      for (int i = 0; i < u; i++)
        if (x >> i & 1)
          set |= SCOPA_BIT(cards[i]);
      hand[n++] = set;
      if (h == 0)
        break;
      uint64_t c = x & -x, r = x + c;
      x = (((r ^ x) >> 2) / c) | r;
    }
  } else {
    for (int t = 0; t < 4 * DS_SAMPLE && n < DS_SAMPLE; t++) {
      scopa_cards set = 0;
      for (int got = 0; got < h;) {
        int c = cards[scopa_rng_below(rng, (uint32_t)u)];
        if (!(set >> c & 1))
          set |= SCOPA_BIT(c), got++;
      }
      int dup = 0;
      for (int k = 0; k < n && !dup; k++)
        dup = hand[k] == set;
      if (!dup)
        hand[n++] = set;
    }
  }
  int kept = 0;
  for (int k = 0; k < n; k++) {
    if (k % 32 == 0 && ai_clock_check(clock))
      return 0;
    scopa_state w;
    double p = weigh(v, model, hand[k], &w);
    if (p <= 0)
      continue;
    if (kept == 0)
      *base = w;
    hand[kept] = hand[k];
    weight[kept++] = p;
  }
  return kept;
}

/* ---- the root ------------------------------------------------------------ */

/* One pass over the first n worlds of set: each root move's weighted mean
 * into avg.  0, or -1 when cut short. */
static int pass(ds_search *d, const scopa_state *base, const scopa_move *moves,
                int nm, const int *set, const double *w, int n, double *avg) {
  int vals[DS_WORLDS];
  double total = 0;
  for (int k = 0; k < n; k++)
    total += w[k];
  for (int i = 0; i < nm && !d->stopped; i++) {
    after(d, base, moves[i], set, w, n, 0, vals);
    avg[i] = weighted(vals, w, n) / (total * AI_UNIT);
  }
  return d->stopped ? -1 : 0;
}

typedef struct ds_rank {
  double w;
  int k;
} ds_rank;

static int heavier(const void *a, const void *b) {
  const ds_rank *x = a, *y = b;
  return x->w > y->w ? -1 : x->w < y->w ? 1 : x->k - y->k;
}

int ai_deal_search_values(scopa_bot *bot, const scopa_view *v,
                          const scopa_bot_limits *l, const scopa_move *moves,
                          int nm, double *avg, const ai_opp *model,
                          double mix) {
  scopa_rng rng;
  scopa_rng_seed(&rng, l->seed ^ v->hand * 0x9E3779B97F4A7C15ull ^
                           (uint64_t)v->plays << 50 ^ v->table);
  int ms = l->movetime_ms > 0 ? l->movetime_ms : scopa_bot_movetime(bot);
  ds_search d = {scopa_rules_side_of(&v->rules, v->seat),
                 1 - v->seat,
                 NULL,
                 0,
                 l->nodes ? l->nodes : (uint64_t)ms * SCOPA_BOT_NODES_PER_MS,
                 &bot->clock,
                 0,
                 model,
                 mix};
  scopa_cards hand[DS_WORLDS];
  double weight[DS_WORLDS], w[DS_WORLDS], got[SCOPA_MAX_MOVES];
  int set[DS_WORLDS];
  scopa_state base;
  int n = worlds_of(v, model, &rng, &bot->clock, hand, weight, &base);
  if (n == 0)
    return 1;
  d.hand = hand;
  /* The worlds heaviest first: the first pass takes the likeliest. */
  ds_rank rank[DS_WORLDS];
  for (int k = 0; k < n; k++)
    rank[k].w = weight[k], rank[k].k = k;
  qsort(rank, (size_t)n, sizeof *rank, heavier);
  for (int k = 0; k < n; k++)
    set[k] = rank[k].k, w[k] = rank[k].w;
  base.hand[d.opp] = hand[set[0]];
  int done = 0;
  for (int p = 0; p < 2; p++) {
    int size = p == 0 ? (n < DS_FIRST ? n : DS_FIRST) : n;
    if (p == 1 && size <= DS_FIRST)
      break;
    if (pass(&d, &base, moves, nm, set, w, size, got) != 0)
      break;
    memcpy(avg, got, sizeof *avg * (size_t)nm);
    done = 1;
  }
  if (!done)
    return 1;
  ai_heur h;
  ai_heur_of_view(&h, v, 1);
  for (int i = 0; i < nm; i++)
    avg[i] += DS_TIEBREAK * ai_heur_move(&h, moves[i]);
  return 0;
}

/* The learned opponent model (oppmodel.h), its mixture of player types
 * updated from the opponent's moves of the deals played out. */
static int learned_values(scopa_bot *bot, const scopa_view *v,
                          const scopa_bot_limits *l, const scopa_move *moves,
                          int nm, double *avg) {
  ai_opp model;
  ai_opp_of_view(&model, v);
  return ai_deal_search_values(bot, v, l, moves, nm, avg, &model, DS_MIX);
}

/* The last deal (the stock empty: the opponent holds every unseen card,
 * so both sides see the whole position).  The counting types solve it:
 * the rules bot plays the last deal by exact solving (endgame.c), as the
 * searching bots do, and fitted to last-deal moves the two types predict
 * each other's moves as well as their own (docs/research.md).  So their
 * share of the posterior is the weight of the minimum at the opponent's
 * nodes (a player who finds the best reply), and the heuristic types'
 * mixture (greedy, chitarrella), renormalised, the weight of its mean. */
static int last_deal_values(scopa_bot *bot, const scopa_view *v,
                            const scopa_bot_limits *l, const scopa_move *moves,
                            int nm, double *avg) {
  ai_opp model;
  ai_opp_of_view(&model, v);
  double solver = model.post[AI_OPP_RULES] + model.post[AI_OPP_SEARCH];
  if (solver < 1 - 1e-9) {
    model.post[AI_OPP_RULES] = model.post[AI_OPP_SEARCH] = 0;
    for (int t = 0; t < AI_OPP_TYPES; t++)
      model.post[t] /= 1 - solver;
  } else {
    solver = 1;
  }
  return ai_deal_search_values(bot, v, l, moves, nm, avg, &model, solver);
}

/* 1: the fifth deal (and the last, with DS_LAST_DEAL 0) is infer's with
 * the worlds weighed by the learned model too; 0: infer's own weights. */
#ifndef DS_LEARNED_LAST
#define DS_LEARNED_LAST 1
#endif

/* 1: the last deal (the stock empty: the opponent's hand is every unseen
 * card, one world) is played by this search to the round's end, valuing
 * the opponent's nodes as last_deal_values says, instead of by infer's
 * minimax; 0: infer's (docs/research.md has both measured). */
#ifndef DS_LAST_DEAL
#define DS_LAST_DEAL 1
#endif

static int last_deal(const scopa_view *v) {
  return v->players == 2 && v->rules.game == SCOPA_GAME_SCOPA &&
         v->rules.refill == 3 && v->stock == 0;
}

int bot_best_choose(scopa_bot *bot, const scopa_view *v,
                    const scopa_bot_limits *l, scopa_move *move) {
  int applies = ai_deal_search_applies(v);
  if (DS_LAST_DEAL && last_deal(v))
    return ai_deal_choose(bot, v, l, move, 1, AI_DEAL_SEARCH_MOVES,
                          last_deal_values);
  if (DS_LEARNED_LAST && !applies)
    return ai_infer_learned_choose(bot, v, l, move);
  return ai_deal_choose(bot, v, l, move, applies, AI_DEAL_SEARCH_MOVES,
                        learned_values);
}
