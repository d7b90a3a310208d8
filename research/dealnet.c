/*
 * dealnet.c -- `dealnet`, research: `best` before its one search over all
 * the worlds (src/ai/dealsearch.c).  As dealend (dealend.c), each world
 * (the opponent's hand, weighed by how likely its moves were) is searched
 * only to the end of the current deal, by alpha-beta over at most six
 * plies; but a boundary is valued by the learned value of the
 * public state (value.h: microseconds, not K exact solves), so a move
 * sees many worlds.  The stock order never enters: the search reads the
 * world's hands, and at the boundary only what is public.
 *
 * Where: 2-player scopa while the stock holds more than six cards (deals
 * 1-4).  In the last two deals infer plays (every world listed and solved
 * exactly), as in other games.
 *
 * Work: worlds are drawn from the view (scopa_view_sample) and each is
 * weighed by the likelihood of the opponent's moves in it (infer's
 * model); the move is the best weighted mean over the worlds searched.
 * The plan: a node budget (limits->nodes, or the movetime at
 * SCOPA_BOT_NODES_PER_MS), a node being a position of the deal search and
 * a boundary valued counting as DN_LEAF_COST nodes (about the time of one
 * evaluation against one solver node), and at most DN_WORLDS worlds.  The
 * clock and the cancel flag are checked every 64 nodes; a world cut short
 * is dropped, and with none finished the rules bot's move is played.
 * Reads only the view.
 *
 * Values (scopa_bot_evaluate: hints, reviews) are infer's: the hints'
 * calibration (docs/ai.md) was measured on them.
 */
#include "heur.h"
#include "kinds.h"
#include "solver.h"
#include "value.h"
#include "worlds.h"

#include <math.h>

#ifndef DN_WORLDS
#define DN_WORLDS 400 /* worlds searched at most */
#endif
#define DN_LEAF_COST 4 /* nodes a boundary evaluation counts for    */
#define DN_TIEBREAK 0.01
/* The opponent's nodes: MIX x the minimum plus (1 - MIX) x the mean over
 * the opponent model (a softened greedy player, as worlds.c weighs
 * worlds), against the strategy fusion of plain minimax, where the
 * opponent plays as if it saw our hand.  1: plain minimax (shipped; see
 * docs/research.md for what 0.5 measured). */
#ifndef DN_MODEL_MIX
#define DN_MODEL_MIX 1.0
#endif
#define DN_MODEL_TEMPERATURE 0.25
#define DN_MODEL_EPSILON 0.1

typedef struct dn_search {
  int root;        /* our side                                        */
  uint64_t nodes;  /* nodes so far in this call                       */
  uint64_t budget; /* stop past this many                             */
  ai_clock *clock;
  int stopped;
} dn_search;

static int tick(dn_search *d, uint64_t cost) {
  d->nodes += cost;
  if ((d->nodes & 63) < cost && ai_clock_check(d->clock))
    d->stopped = 1;
  return d->stopped;
}

static int search(dn_search *d, const scopa_state *s, int alpha, int beta);

/* The value for the root side of moving m in s: its scopa, then the rest
 * of the deal, a boundary or the end of the round. */
static int after(dn_search *d, const scopa_state *s, scopa_move m, int alpha,
                 int beta) {
  scopa_state c = *s;
  int gain = ai_move_gain(s, m, d->root);
  scopa_state_play(&c, m);
  if (scopa_state_over(&c))
    return gain + ai_leaf_value(&c, d->root);
  if (c.plays % 6 == 0) {
    tick(d, DN_LEAF_COST);
    return gain + ai_value_boundary(&c, d->root);
  }
  return gain + search(d, &c, alpha - gain, beta - gain);
}

/* The opponent model's chance of each of the n moves in s. */
static void model(const scopa_state *s, const scopa_move *moves, int n,
                  double *p) {
  ai_heur h;
  int seat = s->to_play, side = scopa_rules_side_of(&s->rules, seat);
  h.rules = &s->rules;
  h.hand = s->hand[seat];
  h.table = s->table;
  h.mine = s->pile[side];
  h.theirs = s->pile[1 - side];
  h.unseen = 0;
  h.next_hand = 3;
  h.last_play = 0;
  h.counting = 0;
  h.dealer_team = 0;
  ai_heur_chances(&h, moves, n, DN_MODEL_TEMPERATURE, DN_MODEL_EPSILON, p);
}

/* The opponent's node blended with its model (DN_MODEL_MIX < 1). */
static int blended(dn_search *d, const scopa_state *s, const scopa_move *moves,
                   int n) {
  double p[SCOPA_MAX_MOVES], mean = 0;
  int low = AI_INF;
  model(s, moves, n, p);
  for (int i = 0; i < n && !d->stopped; i++) {
    int v = after(d, s, moves[i], -AI_INF, AI_INF);
    mean += p[i] * v;
    if (v < low)
      low = v;
  }
  return (int)lround(DN_MODEL_MIX * low + (1 - DN_MODEL_MIX) * mean);
}

/* Fail-soft alpha-beta over the rest of the deal, for the root side. */
static int search(dn_search *d, const scopa_state *s, int alpha, int beta) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_state_legal(s, moves, SCOPA_MAX_MOVES);
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  if (tick(d, 1))
    return 0;
  int ours = scopa_rules_side_of(&s->rules, s->to_play) == d->root;
  if (!ours && DN_MODEL_MIX < 1)
    return blended(d, s, moves, n);
  int best = ours ? -AI_INF : AI_INF;
  for (int i = 0; i < n && !d->stopped; i++) {
    int v = after(d, s, moves[i], alpha, beta);
    if (ours ? v > best : v < best)
      best = v;
    if (ours && best > alpha)
      alpha = best;
    if (!ours && best < beta)
      beta = best;
    if (alpha >= beta)
      break;
  }
  return best;
}

static int applies(const scopa_view *v) {
  return v->players == 2 && v->rules.game == SCOPA_GAME_SCOPA &&
         v->rules.refill == 3 && v->stock > 6;
}

/* Weighted mean values (points) of the n moves into avg; 0, or 1 when no
 * world was finished. */
static int dealnet_values(scopa_bot *bot, const scopa_view *v,
                          const scopa_bot_limits *l, const scopa_move *moves,
                          int n, double *avg) {
  scopa_rng rng;
  scopa_rng_seed(&rng, l->seed ^ v->hand * 0x9E3779B97F4A7C15ull ^
                           (uint64_t)v->plays << 50 ^ v->table);
  int ms = l->movetime_ms > 0 ? l->movetime_ms : scopa_bot_movetime(bot);
  dn_search d = {scopa_rules_side_of(&v->rules, v->seat), 0,
                 l->nodes ? l->nodes : (uint64_t)ms * SCOPA_BOT_NODES_PER_MS,
                 &bot->clock, 0};
  double sum[SCOPA_MAX_MOVES] = {0}, total = 0;
  int done = 0;
  for (int k = 0; k < DN_WORLDS && d.nodes < d.budget; k++) {
    scopa_state w;
    scopa_view_sample(v, &rng, &w);
    double weight = ai_world_likelihood(v, &w);
    if (tick(&d, 1))
      break;
    if (weight <= 0)
      continue;
    int values[SCOPA_MAX_MOVES];
    for (int i = 0; i < n && !d.stopped; i++)
      values[i] = after(&d, &w, moves[i], -AI_INF, AI_INF);
    if (d.stopped)
      break;
    for (int i = 0; i < n; i++)
      sum[i] += weight * values[i];
    total += weight;
    done++;
  }
  ai_heur h;
  ai_heur_of_view(&h, v, 1);
  for (int i = 0; i < n; i++)
    avg[i] = (done ? sum[i] / (total * AI_UNIT) : 0) +
             DN_TIEBREAK * ai_heur_move(&h, moves[i]);
  return done ? 0 : 1;
}

static int dealnet_choose(scopa_bot *bot, const scopa_view *v,
                          const scopa_bot_limits *l, scopa_move *move) {
  return ai_deal_choose(bot, v, l, move, applies(v), SCOPA_MAX_MOVES,
                        dealnet_values);
}

const bot_kind research_dealnet = {
    .name = "dealnet",
    .help = "research: each weighed world searched to the end of the deal, the "
            "boundary valued by the learned network (400 worlds a move); infer "
            "in the last two deals, in other games and for hints",
    .choose = dealnet_choose,
    .evaluate = bot_infer_evaluate,
    .default_ms = 100,
    .memory = SCOPA_BOT_MEMORY_DEFAULT,
    .worlds = 1,
};
