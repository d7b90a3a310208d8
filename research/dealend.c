/*
 * dealend.c -- `dealend`, research: how much does searching only to the end
 * of the deal cost, with the boundary valued exactly?  In 2-player scopa
 * both hands are empty at every deal boundary, so the only thing hidden
 * there is the order of the stock, a known set of cards.  This bot
 * searches each sampled world (the opponent's hand, weighed by how likely
 * its moves were, as infer does) only to the end of the current deal,
 * by plain alpha-beta, and values every boundary reached by the mean of
 * exact solves of the rest of the round over K stock orders drawn anew
 * (the same K orders for every boundary of a world: common random numbers
 * keep the comparison between moves fair).  So no decision inside the
 * deal can lean on knowing the future refills, the flaw of solving whole
 * rounds per world (PIMC's plateau).
 *
 * Other games, and the last deal (nothing hidden), are played as infer
 * plays them.  Work: a node budget (limits->nodes, or the movetime at
 * SCOPA_BOT_NODES_PER_MS) checked between worlds, as in pimc.c; the bot's
 * clock can cut a world short (it is dropped); with no world finished it
 * plays the rules bot's move.  Reads only the view.
 */
#include "heur.h"
#include "kinds.h"
#include "solver.h"
#include "worlds.h"

#include <stdlib.h>
#include <string.h>

#define DE_CANDIDATES 120 /* worlds sampled and weighed                */
#define DE_WORLDS 8       /* then drawn by weight and searched         */
#define DE_ORDERS 4       /* stock orders per boundary (K)             */
#define DE_CACHE 512      /* boundary values remembered per world      */
#define DE_TIEBREAK 0.01

typedef struct de_leaf {
  uint64_t key;
  int used;
  int value;
} de_leaf;

typedef struct de_world {
  ai_solver *S;
  int root;   /* our side                                 */
  int ncards; /* cards of the stock at the root           */
  uint8_t order[DE_ORDERS][40];
  de_leaf cache[DE_CACHE];
  int stopped;
} de_world;

static uint64_t leaf_key(const scopa_state *s) {
  uint64_t h = s->table * 0x9E3779B97F4A7C15ull;
  h ^= (s->pile[0] + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
  h ^= (s->pile[1] ^ (uint64_t)s->last_capturer << 58) * 0xff51afd7ed558ccdull;
  return h ^ (h >> 29) ^ (uint64_t)s->plays;
}

/* The boundary state s (hands just refilled from the world's stock) with
 * its six new hand cards and the stock taken from order k instead. */
static void redraw(const de_world *w, const scopa_state *s, int k,
                   scopa_state *out) {
  *out = *s;
  int first = s->next - 6, at = 0;
  for (int seat = 0; seat < 2; seat++) {
    out->dealt[seat] &= ~s->hand[seat];
    out->hand[seat] = 0;
  }
  /* Deal three to each seat, then the stock, from the order. */
  for (int i = 0; i < w->ncards; i++) {
    uint8_t c = w->order[k][i];
    if (i < 6) {
      int seat = i < 3 ? 0 : 1;
      out->hand[seat] |= SCOPA_BIT(c);
      out->dealt[seat] |= SCOPA_BIT(c);
      out->deck[first + i] = c;
    } else {
      out->deck[s->next + at++] = c;
    }
  }
}

/* The mean exact value of a boundary over the K orders (solver units for
 * the root side). */
static int boundary_value(de_world *w, const scopa_state *s) {
  uint64_t key = leaf_key(s);
  de_leaf *e = &w->cache[key % DE_CACHE];
  if (e->used && e->key == key)
    return e->value;
  long sum = 0;
  for (int k = 0; k < DE_ORDERS; k++) {
    scopa_state t;
    redraw(w, s, k, &t);
    sum += ai_solver_value(w->S, &t, 0, AI_DEPTH_END);
    if (ai_solver_stopped(w->S)) {
      w->stopped = 1;
      return 0;
    }
  }
  int v = (int)(sum / DE_ORDERS);
  *e = (de_leaf){key, 1, v};
  return v;
}

/* Alpha-beta over the rest of the deal, values for the root side. */
static int deal_search(de_world *w, const scopa_state *s, int alpha, int beta) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_state_legal(s, moves, SCOPA_MAX_MOVES);
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  int ours = scopa_rules_side_of(&s->rules, s->to_play) == w->root;
  int best = ours ? -AI_INF : AI_INF;
  for (int i = 0; i < n && !w->stopped; i++) {
    scopa_state c = *s;
    int gain = ai_move_gain(s, moves[i], w->root);
    scopa_state_play(&c, moves[i]);
    int v;
    if (scopa_state_over(&c))
      v = gain + ai_leaf_value(&c, w->root);
    else if (c.plays % 6 == 0)
      v = gain + boundary_value(w, &c);
    else
      v = gain + deal_search(w, &c, alpha - gain, beta - gain);
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

/* Each root move's value in one world; -1 when the clock stopped it. */
static int world_values(de_world *w, const scopa_state *world,
                        const scopa_move *moves, int n, scopa_rng *rng,
                        int *values) {
  w->ncards = 40 - world->next;
  for (int k = 0; k < DE_ORDERS; k++) {
    memcpy(w->order[k], world->deck + world->next, (size_t)w->ncards);
    for (int i = w->ncards - 1; i > 0; i--) {
      int j = (int)scopa_rng_below(rng, (uint32_t)(i + 1));
      uint8_t t = w->order[k][i];
      w->order[k][i] = w->order[k][j];
      w->order[k][j] = t;
    }
  }
  memset(w->cache, 0, sizeof w->cache);
  w->stopped = 0;
  ai_solver_begin(w->S, w->root);
  for (int i = 0; i < n; i++) {
    scopa_state c = *world;
    int gain = ai_move_gain(world, moves[i], w->root);
    scopa_state_play(&c, moves[i]);
    if (scopa_state_over(&c))
      values[i] = gain + ai_leaf_value(&c, w->root);
    else if (c.plays % 6 == 0)
      values[i] = gain + boundary_value(w, &c);
    else
      values[i] = gain + deal_search(w, &c, -AI_INF, AI_INF);
    if (w->stopped)
      return -1;
  }
  return 0;
}

/* Draws m of the n weighed worlds by weight (systematic), in place. */
static int draw_worlds(scopa_state *st, double *weight, int n, int m,
                       scopa_rng *rng) {
  double total = 0;
  for (int i = 0; i < n; i++)
    total += weight[i];
  if (total <= 0 || n <= m)
    return n;
  double step = total / m,
         u = step * (double)(scopa_rng_next(rng) >> 11) / 9007199254740992.0,
         acc = 0;
  int pick[DE_WORLDS], k = 0;
  for (int i = 0; i < n && k < m; i++) {
    acc += weight[i];
    while (u < acc && k < m) {
      pick[k++] = i;
      u += step;
    }
  }
  for (int i = 0; i < k; i++)
    st[i] = st[pick[i]];
  return k;
}

static int applies(const scopa_view *v) {
  return v->players == 2 && v->rules.game == SCOPA_GAME_SCOPA &&
         v->rules.refill == 3 && v->stock > 0;
}

/* Mean values (points) of the n moves; 0, or 1 when no world was done. */
static int dealend_values(scopa_bot *bot, const scopa_view *v,
                          const scopa_bot_limits *l, const scopa_move *moves,
                          int n, double *avg) {
  ai_worlds *buf = ai_bot_worlds(bot);
  ai_solver *S = ai_bot_solver(bot, 0, 1);
  static _Thread_local de_world w;
  if (!buf || !S || buf->cap < DE_CANDIDATES)
    return 1;
  scopa_rng rng;
  scopa_rng_seed(&rng, l->seed ^ v->hand * 0x9E3779B97F4A7C15ull ^
                           (uint64_t)v->plays << 50 ^ v->table);
  int m = DE_CANDIDATES;
  for (int i = 0; i < m; i++) {
    if (i % 8 == 0 && ai_clock_check(&bot->clock))
      return 1;
    scopa_view_sample(v, &rng, &buf->state[i]);
    buf->weight[i] = ai_world_likelihood(v, &buf->state[i]);
  }
  m = draw_worlds(buf->state, buf->weight, m, DE_WORLDS, &rng);
  int ms = l->movetime_ms > 0 ? l->movetime_ms : scopa_bot_movetime(bot);
  uint64_t budget = l->nodes ? l->nodes : (uint64_t)ms * SCOPA_BOT_NODES_PER_MS;
  uint64_t start = ai_solver_nodes(S);
  w.S = S;
  w.root = scopa_rules_side_of(&v->rules, v->seat);
  double sum[SCOPA_MAX_MOVES] = {0};
  int done = 0, values[SCOPA_MAX_MOVES];
  for (int k = 0; k < m; k++) {
    if (world_values(&w, &buf->state[k], moves, n, &rng, values) != 0)
      break;
    for (int i = 0; i < n; i++)
      sum[i] += values[i];
    done++;
    if (ai_solver_nodes(S) - start > budget)
      break;
  }
  ai_heur h;
  ai_heur_of_view(&h, v, 1);
  for (int i = 0; i < n; i++)
    avg[i] = (done ? sum[i] / ((double)done * AI_UNIT) : 0) +
             DE_TIEBREAK * ai_heur_move(&h, moves[i]);
  return done ? 0 : 1;
}

static int dealend_choose(scopa_bot *bot, const scopa_view *v,
                          const scopa_bot_limits *l, scopa_move *move) {
  return ai_deal_choose(bot, v, l, move, applies(v), 64, dealend_values);
}

const bot_kind research_dealend = {
    .name = "dealend",
    .help =
        "research: each weighed world searched to the end of the deal only, "
        "the boundary valued by exact solves over re-drawn stock orders; "
        "infer elsewhere",
    .choose = dealend_choose,
    .default_ms = 100,
    .memory = SCOPA_BOT_MEMORY_DEFAULT,
    .worlds = 1,
};
