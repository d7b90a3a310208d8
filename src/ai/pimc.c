/*
 * pimc.c -- the search bots: `pimc` (perfect-information Monte Carlo:
 * worlds sampled uniformly from the view, each solved exactly, the move of
 * best average) and `infer`, the same over worlds weighed by how likely
 * the others' moves are in them (worlds.c), with every world listed in
 * the last two deals of 2-player scopa, and in scopone and scientifico
 * drawn by a Markov chain that keeps only worlds fitting the moves seen
 * (teamworlds.c).  Where a tree is too big (early scopone, 3 and 4
 * players) moves are valued by playouts (rollout.c).
 *
 * What must stay true: the bots read only the view; every random choice
 * comes from the seed and the view; the work planned is fixed by counts
 * (worlds, and nodes: limits->nodes, or the time budget at
 * SCOPA_BOT_NODES_PER_MS), so with limits->nodes one seed and one thread
 * count always give the same move.  The bot's clock (clock.h) can only
 * cut the plan short: a world it interrupts is dropped, and with no world
 * finished the rules bot's move is played.  Always a legal move.
 */
#include "bots.h"
#include "heur.h"
#include "internal.h"
#include "oppmodel.h"
#include "signals.h"
#include "solver.h"
#include "worlds.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 8
#define TIEBREAK 0.01   /* weight of heur.c's value among equal averages */
#define AI_ROLLOUT (-1) /* depth: playouts instead of search */

typedef struct pimc_config {
  int worlds;       /* worlds solved when sampling                     */
  int candidates;   /* worlds sampled and weighed before choosing (infer) */
  int infer;        /* weigh worlds by the likelihood of the moves seen */
  long enumerate;   /* list every world when there are at most this many */
  int search_stock; /* 2-player scopa: search only once the stock holds at
                       most this many cards, play the rules bot before (-1:
                       search always) */
  const ai_team_model *team; /* four seats in two teams: the worlds are
                                drawn by teamworlds.c's chain under this
                                model instead (NULL: sampled, weighed) */
  int learned; /* 2-player scopa: weigh by the learned opponent model
                  (oppmodel.h) instead of the softened greedy player */
} pimc_config;

static const pimc_config PIMC = {16, 0, 0, 0, -1, NULL, 0};
/* Scopone and scientifico, against a pair of rules bots (docs/research.md,
 * "Scopone: tuning the worlds"): the chain's worlds took `infer`
 * from +0.99 to +1.94 points per deal on the same 200 deals; a sharp
 * model of the opponents (a softmax at 0.02 of the rules bot's values,
 * a floor of 2% uniform) did better than a softer one (0.05: +1.75). The
 * partner is `best` itself, which the counting model explains less well:
 * 0.3 and 30% (sharper, 0.02: +1.58; softer, 1.0 and 50%: +1.73).  96
 * worlds, fewer playouts each: +2.30 (48: +2.19; 24: +1.94). */
#ifndef AI_PARTNER_SIGNAL
#define AI_PARTNER_SIGNAL 3.0
#endif
static const ai_team_model TEAM = {
    0.02, 0.02, 0.3, 0.3, 96, 4, 400, 40, AI_PARTNER_SIGNAL};
/* In the team games `best` plays the conventional move (signals.c) among
 * the moves of the kind of the best whose values are within this many
 * points of it, so that a partner recognises its play (docs/ai.md, "The
 * partner's signals": what it cost). */
#ifndef AI_SIGNAL_MARGIN
#define AI_SIGNAL_MARGIN 0.1
#endif
/* Against greedy, the rules bot's counting (+0.80 on 400 deals) did better
 * than searching sampled worlds in the first four deals (+0.71 on the same
 * 200); searching the last two deals over every world on top of rules
 * gave +0.93 on those 400 (docs/research.md). */
static const pimc_config INFER = {24, 240, 1, 2000, 6, &TEAM, 0};
/* best's fifth deal, and other games: infer, its worlds weighed by the
 * learned opponent model where it applies (2-player scopa). */
static const pimc_config INFER_LEARNED = {24, 240, 1, 2000, 6, &TEAM, 1};

typedef struct job {
  scopa_bot *bot;
  ai_solver *solver; /* this thread's; NULL for playouts              */
  const scopa_state *worlds;
  const double *weight;
  const ai_ranked *rank; /* the order to solve them in; NULL: as they are */
  int nworlds, thread, threads, depth;
  const scopa_move *moves;
  int n;
  uint64_t budget, seed;
  double sum[SCOPA_MAX_MOVES];
  double wsum;
} job;

/* Each move's mean playout value in one world (depth AI_ROLLOUT); -1 when
 * the clock stopped it (the world is then dropped). */
static int rollout_world(job *j, int w, int *values) {
  const scopa_state *s = &j->worlds[w];
  int root = scopa_rules_side_of(&s->rules, s->to_play);
  int left = scopa_state_total_plays(s) - s->plays;
  long per = (long)(j->budget / (uint64_t)(left * j->n * j->nworlds + 1));
  int reps = per < 1 ? 1 : per > 400 ? 400 : (int)per;
  scopa_rng rng;
  scopa_rng_seed(&rng, j->seed ^ (uint64_t)w * 0x9E3779B97F4A7C15ull);
  for (int i = 0; i < j->n; i++) {
    long sum = 0;
    int plies = 0;
    for (int r = 0; r < reps; r++) {
      if (ai_clock_check(&j->bot->clock))
        return -1;
      sum += ai_rollout(s, j->moves[i], root, &rng, &plies);
    }
    values[i] = (int)lround((double)sum / reps);
  }
  return 0;
}

/* Solves this thread's share of the worlds, in order, until they are done,
 * the node budget is spent (checked between worlds, so it is the same on
 * every machine) or the clock stops (the unfinished world is dropped). */
static void *solve_worlds(void *arg) {
  job *j = arg;
  ai_solver *S = j->solver;
  if (j->depth != AI_ROLLOUT && !S)
    return NULL;
  uint64_t start = S ? ai_solver_nodes(S) : 0;
  int values[SCOPA_MAX_MOVES];
  for (int k = j->thread; k < j->nworlds; k += j->threads) {
    int w = j->rank ? j->rank[k].index : k;
    int rc =
        S ? ai_solver_root(S, &j->worlds[w], j->moves, j->n, j->depth, values)
          : rollout_world(j, w, values);
    if (rc != 0)
      break;
    for (int i = 0; i < j->n; i++)
      j->sum[i] += j->weight[w] * values[i];
    j->wsum += j->weight[w];
    if (S && ai_solver_nodes(S) - start > j->budget)
      break;
  }
  return NULL;
}

static uint64_t view_hash(const scopa_view *v) {
  uint64_t h = v->hand * 0x9E3779B97F4A7C15ull ^ v->table;
  h ^= (uint64_t)v->plays << 56 ^ (uint64_t)v->seat << 52;
  for (int i = 0; i < v->plays; i++)
    h = (h ^ v->moves[i]) * 0xff51afd7ed558ccdull;
  return h;
}

/* Keeps k of the n worlds, each drawn with chance proportional to its
 * weight (systematic resampling); the kept ones weigh 1. */
static int resample(scopa_state *w, double *weight, int n, int k,
                    scopa_rng *rng) {
  double total = 0;
  for (int i = 0; i < n; i++)
    total += weight[i];
  if (n <= k || total <= 0)
    return n;
  int pickv[512], m = 0;
  double step = total / k,
         u = step * (double)(scopa_rng_next(rng) >> 11) / 9007199254740992.0,
         acc = 0;
  for (int i = 0; i < n && m < k; i++) {
    acc += weight[i];
    while (u < acc && m < k) {
      pickv[m++] = i;
      u += step;
    }
  }
  for (int i = 0; i < m; i++) {
    if (i != pickv[i])
      w[i] = w[pickv[i]];
    weight[i] = 1;
  }
  return m;
}

static int heavier_first(const void *a, const void *b) {
  const ai_ranked *x = a, *y = b;
  if (x->weight != y->weight)
    return x->weight < y->weight ? 1 : -1;
  return x->index - y->index;
}

/* Ranks the listed worlds heaviest first, so that a search the clock stops
 * has solved the likeliest ones (a prefix of the listing order would be a
 * lopsided sample: hands that share their lowest cards). */
static void heaviest_first(ai_worlds *w, int n) {
  for (int i = 0; i < n; i++)
    w->rank[i] = (ai_ranked){w->weight[i], i};
  qsort(w->rank, (size_t)n, sizeof *w->rank, heavier_first);
}

/* Fills out[0..m) with worlds of the view (listed or sampled) and their
 * weights; 0 on success, -1 when the clock stopped it. */
static int fill_worlds(scopa_bot *bot, const scopa_view *v,
                       const pimc_config *cfg, int listed, scopa_rng *rng,
                       scopa_state *out, double *weight, int m) {
  if (listed && ai_world_enumerate(v, out, m, &bot->clock) != m)
    return -1;
  for (int i = 0; !listed && i < m; i++) {
    if (i % 16 == 0 && ai_clock_check(&bot->clock))
      return -1;
    scopa_view_sample(v, rng, &out[i]);
  }
  ai_opp model;
  int learned = cfg->learned && ai_opp_modelled(v);
  if (learned)
    ai_opp_of_view(&model, v);
  for (int i = 0; i < m; i++) {
    if (i % 8 == 0 && ai_clock_check(&bot->clock))
      return -1;
    weight[i] = !cfg->infer ? 1
                : learned   ? ai_opp_likelihood(&model, v, &out[i])
                            : ai_world_likelihood(v, &out[i]);
  }
  return 0;
}

/* Four seats in two teams: thirty unseen cards in three hands, too many
 * placings for weighing uniform samples (a few moves in, one or two of
 * them carry all the weight). */
static int team_game(const scopa_view *v) {
  return v->players == 4 && v->sides == 2;
}

/* The worlds to solve, in the bot's buffer, with their weights and, when
 * listed, their ranking (*ranked); returns how many (0: none, for want of
 * memory or time).  A bot whose memory holds fewer worlds than a listing
 * samples instead, and samples at most what it holds. */
static int make_worlds(scopa_bot *bot, const scopa_view *v,
                       const pimc_config *cfg, scopa_rng *rng, ai_worlds **out,
                       int *ranked) {
  ai_worlds *w = *out = ai_bot_worlds(bot);
  *ranked = 0;
  if (!w)
    return 0;
  if (cfg->team && team_game(v)) {
    int m = cfg->team->worlds < w->cap ? cfg->team->worlds : w->cap;
    if (ai_world_infer(v, cfg->team, rng, w->state, m, &bot->clock) != m)
      return 0;
    for (int i = 0; i < m; i++)
      w->weight[i] = 1; /* drawn in proportion to their likelihood */
    return m;
  }
  long count = cfg->enumerate > 0 ? ai_world_count(v) : -1;
  int listed = count >= 0 && count <= cfg->enumerate && count <= w->cap;
  int m = listed ? (int)count : cfg->infer ? cfg->candidates : cfg->worlds;
  if (m > w->cap)
    m = w->cap;
  if (fill_worlds(bot, v, cfg, listed, rng, w->state, w->weight, m) != 0)
    return 0;
  if (!listed && cfg->infer)
    m = resample(w->state, w->weight, m, cfg->worlds, rng);
  if (listed)
    heaviest_first(w, m);
  *ranked = listed;
  return m;
}

static int search_depth(const scopa_view *v) {
  int total = v->rules.game == SCOPA_GAME_SCIENTIFICO ? 40 : 36;
  if (v->players == 2 || total - v->plays <= 16)
    return AI_DEPTH_END;
  return AI_ROLLOUT;
}

/* Average values of the n moves over the worlds, in points.  Returns
 * SCOPA_OK, or 1 when no world was finished (out of time or memory): the
 * caller then plays as the rules bot. */
static int pimc_values(scopa_bot *bot, const scopa_view *v,
                       const scopa_bot_limits *l, const pimc_config *cfg,
                       const scopa_move *moves, int n, double *avg) {
  scopa_rng rng;
  scopa_rng_seed(&rng, l->seed ^ view_hash(v));
  ai_worlds *w = NULL;
  int ranked = 0;
  int nw = make_worlds(bot, v, cfg, &rng, &w, &ranked);
  int threads = l->threads < 1             ? 1
                : l->threads > MAX_THREADS ? MAX_THREADS
                                           : l->threads;
  int ms = l->movetime_ms > 0 ? l->movetime_ms : scopa_bot_movetime(bot);
  /* Every listed world is solved (until the clock stops): stopping early
   * by count would drop some. */
  uint64_t budget = ranked     ? UINT64_MAX
                    : l->nodes ? l->nodes
                               : (uint64_t)ms * SCOPA_BOT_NODES_PER_MS;
  int depth = search_depth(v);
  job jobs[MAX_THREADS];
  pthread_t tid[MAX_THREADS];
  for (int t = 0; t < threads; t++) {
    memset(&jobs[t], 0, sizeof jobs[t]);
    jobs[t] = (job){.bot = bot,
                    .worlds = w ? w->state : NULL,
                    .weight = w ? w->weight : NULL,
                    .rank = ranked ? w->rank : NULL,
                    .nworlds = nw,
                    .thread = t,
                    .threads = threads,
                    .depth = depth,
                    .moves = moves,
                    .n = n,
                    .budget = budget,
                    .seed = l->seed};
    /* Made here, before any thread starts: the bot is not shared. */
    if (depth != AI_ROLLOUT)
      jobs[t].solver = ai_bot_solver(bot, t, threads);
  }
  for (int t = 1; t < threads; t++)
    if (pthread_create(&tid[t], NULL, solve_worlds, &jobs[t]) != 0)
      jobs[t].nworlds = 0, tid[t] = 0;
  if (nw > 0)
    solve_worlds(&jobs[0]);
  double wsum = jobs[0].wsum;
  for (int i = 0; i < n; i++)
    avg[i] = jobs[0].sum[i];
  for (int t = 1; t < threads; t++) {
    if (tid[t])
      pthread_join(tid[t], NULL);
    for (int i = 0; i < n; i++)
      avg[i] += jobs[t].sum[i];
    wsum += jobs[t].wsum;
  }
  double scale = wsum * AI_UNIT * (v->sides - 1);
  /* Moves the worlds cannot tell apart are ordered by traditional play. */
  ai_heur h;
  ai_heur_of_view(&h, v, 1);
  for (int i = 0; i < n; i++)
    avg[i] = (scale > 0 ? avg[i] / scale : 0) +
             TIEBREAK * ai_heur_move(&h, moves[i]);
  return wsum > 0 ? SCOPA_OK : 1;
}

static int legal(const scopa_view *v, scopa_move *moves) {
  int n = scopa_view_legal(v, moves, SCOPA_MAX_MOVES);
  return n > SCOPA_MAX_MOVES ? SCOPA_MAX_MOVES : n;
}

/* Tables of real play hold 3.4 cards on average and rarely more than 8;
 * with mandatory_capture false they can be built up to 30, where every
 * node has thousands of moves and a search of fixed node counts would take
 * many seconds.  There the rules bot plays instead. */
#define SEARCH_MAX_TABLE 12
#define SEARCH_MAX_MOVES 64

static int too_big(const scopa_view *v, int n) {
  return __builtin_popcountll(v->table) > SEARCH_MAX_TABLE ||
         n > SEARCH_MAX_MOVES;
}

/* No estimate (scopa_bot_evaluate): where there is no search, or no world
 * was finished in time, the rules bot's move first and the others after
 * it, every value NAN. */
static int rules_values(scopa_bot *bot, const scopa_view *v,
                        const scopa_bot_limits *l, scopa_move *moves, int n,
                        double *avg) {
  scopa_move best;
  int rc = bot_rules_choose(bot, v, l, &best);
  for (int i = 0; i < n; i++) {
    if (moves[i] == best) {
      memmove(moves + 1, moves, sizeof *moves * (size_t)i);
      moves[0] = best;
    }
    avg[i] = NAN;
  }
  return rc;
}

static int choose(scopa_bot *bot, const scopa_view *v,
                  const scopa_bot_limits *l, const pimc_config *cfg,
                  scopa_move *move) {
  scopa_move moves[SCOPA_MAX_MOVES];
  double avg[SCOPA_MAX_MOVES];
  int n = legal(v, moves);
  if (n <= 0)
    return SCOPA_EINVAL;
  *move = moves[0];
  if (n == 1 || ai_endgame_move(bot, v, move))
    return SCOPA_OK;
  if (too_big(v, n) ||
      (cfg->search_stock >= 0 && v->players == 2 &&
       v->stock > cfg->search_stock) ||
      pimc_values(bot, v, l, cfg, moves, n, avg) != SCOPA_OK)
    return bot_rules_choose(bot, v, l, move);
  *move = moves[cfg->team ? ai_signal_pick(v, moves, avg, n, AI_SIGNAL_MARGIN)
                          : ai_best_index(avg, n)];
  return SCOPA_OK;
}

static int evaluate(scopa_bot *bot, const scopa_view *v,
                    const scopa_bot_limits *l, const pimc_config *cfg,
                    scopa_move *out, double *values, int cap) {
  scopa_move moves[SCOPA_MAX_MOVES];
  double avg[SCOPA_MAX_MOVES];
  int n = legal(v, moves);
  if (n <= 0)
    return SCOPA_EINVAL;
  int valued =
      !too_big(v, n) && pimc_values(bot, v, l, cfg, moves, n, avg) == SCOPA_OK;
  if (!valued) {
    int rc = rules_values(bot, v, l, moves, n, avg);
    if (rc != SCOPA_OK)
      return rc;
  }
  for (int i = 1; valued && i < n; i++) { /* best first, stable */
    scopa_move m = moves[i];
    double a = avg[i];
    int j = i;
    for (; j > 0 && avg[j - 1] < a; j--) {
      moves[j] = moves[j - 1];
      avg[j] = avg[j - 1];
    }
    moves[j] = m;
    avg[j] = a;
  }
  for (int i = 0; i < n && i < cap; i++) {
    out[i] = moves[i];
    values[i] = avg[i];
  }
  return n;
}

int bot_pimc_choose(scopa_bot *bot, const scopa_view *view,
                    const scopa_bot_limits *limits, scopa_move *move) {
  return choose(bot, view, limits, &PIMC, move);
}

int bot_pimc_evaluate(scopa_bot *bot, const scopa_view *view,
                      const scopa_bot_limits *limits, scopa_move *moves,
                      double *values, int cap) {
  return evaluate(bot, view, limits, &PIMC, moves, values, cap);
}

int bot_infer_choose(scopa_bot *bot, const scopa_view *view,
                     const scopa_bot_limits *limits, scopa_move *move) {
  return choose(bot, view, limits, &INFER, move);
}

int ai_infer_learned_choose(scopa_bot *bot, const scopa_view *view,
                            const scopa_bot_limits *limits, scopa_move *move) {
  return choose(bot, view, limits, &INFER_LEARNED, move);
}

int bot_infer_evaluate(scopa_bot *bot, const scopa_view *view,
                       const scopa_bot_limits *limits, scopa_move *moves,
                       double *values, int cap) {
  return evaluate(bot, view, limits, &INFER, moves, values, cap);
}
