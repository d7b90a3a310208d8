/*
 * hint.c -- the one hint procedure (scopa.h scopa_bot_hint): the legal
 * moves of a view valued by playouts over worlds drawn uniformly from what
 * the seat knows, each value with its uncertainty, each move's loss
 * against the best measured so that choosing the best does not inflate
 * it, and the review's marks.  The terminal, the server (hints and
 * reviews), the engine's `hint`, `scopa review` and Python all call it;
 * bench/ai/rollout.c checks it against play (docs/ai.md, "Hints").
 *
 * A world's value of a move: the move, then the rules bot for every seat
 * to the end of the round (each counting only what it could see there),
 * the last deal of two players solved exactly; where the view leaves
 * nothing unknown (two players, the stock empty) the one world is solved
 * exactly and the values are exact.  Playouts, not a solve of each world,
 * because a solve lets both sides see every card (a move that needs the
 * other's hand to be refuted looks lost), and because they are cheap:
 * a thousand worlds a hint (HINT_MAX_WORLDS), so no value comes in steps
 * of a world.
 *
 * What must stay true: everything is a function of the view, the rules,
 * the node budget and the seed.  World w comes from its own generator
 * (the seed and w) and is valued the same on any thread (every solver of
 * a hint has a table of the same size, HINT_SLICES of the bot's); threads
 * take worlds in order, and the plan ends at the first world where the
 * nodes of the worlds before it reach the budget, which depends on each
 * world's nodes only: the same worlds, and so the same answer, with any
 * number of threads on any machine.  The clock (deadline_ns, cancel) is a
 * safety net: the worlds after one it interrupts are dropped.
 */
#include "hint.h"
#include "bots.h"
#include "heur.h"
#include "internal.h"
#include "solver.h"
#include "worlds.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Worlds a hint values at most: past about a thousand the sampling's
 * doubt (0.07 points in a loss) is small beside the playouts' own
 * (HINT_MODEL_SD), and a whole game's review stays near 1.5 s of CPU. */
#define HINT_MAX_WORLDS 1024
#define HINT_MAX_MOVES                                                         \
  64 /* more legal moves: no estimate (pimc.c's too_big)                       \
      */
#define HINT_MAX_TABLE 12
#define HINT_SLICES 8 /* solver tables, whatever the threads      */
/* The work of a world in nodes, the solver's unit (SCOPA_BOT_NODES_PER_MS
 * of them a millisecond, on the reference machine): a ply of a playout
 * takes about 0.24 us, 0.6 of a solver node, and the small solves of a
 * playout's last deal a quarter of a search's node each. */
#define PLY_COST_NUM 3
#define PLY_COST_DEN 5
#define LAST_DEAL_COST_DEN 4
#define Z95 1.96
/* The playouts' own error in a loss, beyond the sampling: the rules bot
 * playing the rest of the round is not the strongest bot.  Against
 * rollouts of `best` on both sides (bench_ai_rollout, docs/ai.md "Hints
 * checked against play"), the claimed losses of the first 21 positions
 * (every legal move) missed the rollouts' by a root mean square of 0.25
 * points, 0.21 beyond what both sides' sampling explains. */
#define HINT_MODEL_SD 0.2
/* The playouts overstate a loss: against the same rollouts (all 200
 * positions, every legal move, 512), the least-squares slope of the true
 * loss on the claimed one is 0.88 (0.875 over the 136 claimed at 0.3 or
 * more, 0.884 over all); claimed - true was +0.09 where a mark is at
 * stake (claimed 0.3 or more) and +0.13 from 0.5.  So a sampled loss is
 * scaled by it; the model error above, measured again after the scaling
 * on the moves claimed at 0.3 or more, is 0.19 (docs/ai.md). */
#define HINT_LOSS_SCALE 0.88

typedef struct hint_ctx {
  scopa_bot *bot;
  const scopa_view *view;
  const scopa_move *moves;
  int n, threads;
  uint64_t seed;
  const scopa_state *exact; /* the one world, when nothing is unknown */
  int *values;              /* values[w * n + i], solver units      */
  uint64_t *nodes;          /* nodes[w]                              */
  uint8_t *done;            /* done[w]: world w is valued            */
  int max_worlds;
  uint64_t budget;
  /* Shared by the threads, under lock: worlds are taken in order
   * (next); the frontier is the first world not yet valued, spent the
   * nodes of the worlds before it; the plan ends at `end`, the first
   * frontier whose nodes reach the budget (or max_worlds), or where a
   * world was stopped by the clock. */
  pthread_mutex_t lock;
  int next, frontier, end;
  uint64_t spent;
} hint_ctx;

/* ---- one world --------------------------------------------------- */

static uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* The rest of the round played by the rules bot for every seat (each
 * counting what it could see), the last deal of 2 players solved. */
static int world_playout(hint_ctx *c, ai_solver *S, const scopa_state *w,
                         int *values, uint64_t *nodes) {
  int root = scopa_rules_side_of(&w->rules, w->to_play);
  uint64_t start = S ? ai_solver_nodes(S) : 0, plies = 0;
  scopa_rng rng;
  scopa_rng_seed(&rng, 1); /* epsilon 0: its draws never matter */
  for (int i = 0; i < c->n; i++) {
    scopa_state s = *w;
    int v = ai_move_gain(&s, c->moves[i], root);
    scopa_state_play(&s, c->moves[i]);
    while (!scopa_state_over(&s)) {
      if (S && s.players == 2 && s.next == 40) {
        ai_solver_begin(S, root);
        v += ai_solver_value(S, &s, 0, AI_DEPTH_END);
        if (ai_solver_stopped(S))
          return -1;
        break;
      }
      if ((++plies & 63) == 0 && ai_clock_check(&c->bot->clock))
        return -1;
      scopa_move m = ai_rollout_policy(&s, &rng, 0);
      v += ai_move_gain(&s, m, root);
      scopa_state_play(&s, m);
    }
    if (scopa_state_over(&s))
      v += ai_leaf_value(&s, root);
    values[i] = v;
  }
  *nodes = plies * PLY_COST_NUM / PLY_COST_DEN +
           (S ? ai_solver_nodes(S) - start : 0) / LAST_DEAL_COST_DEN;
  return 0;
}

static int world_exact(hint_ctx *c, ai_solver *S, const scopa_state *w,
                       int *values, uint64_t *nodes) {
  if (!S)
    return -1;
  uint64_t start = ai_solver_nodes(S);
  int rc = ai_solver_root(S, w, c->moves, c->n, AI_DEPTH_END, values);
  *nodes = ai_solver_nodes(S) - start;
  return rc;
}

static int value_world(hint_ctx *c, ai_solver *S, int k) {
  int *values = &c->values[(size_t)k * (size_t)c->n];
  uint64_t *nodes = &c->nodes[k];
  if (c->exact)
    return world_exact(c, S, c->exact, values, nodes);
  scopa_state world;
  scopa_rng rng;
  scopa_rng_seed(&rng, mix(c->seed ^ mix((uint64_t)k + 1)));
  scopa_view_sample(c->view, &rng, &world);
  return world_playout(c, S, &world, values, nodes);
}

typedef struct hint_thread {
  hint_ctx *ctx;
  ai_solver *solver;
} hint_thread;

/* Under lock: world k is valued (ok) or was stopped; moves the frontier
 * over the worlds valued in order and ends the plan where the budget is
 * reached.  The end depends only on each world's nodes, never on which
 * thread valued what or when. */
static void world_done(hint_ctx *c, int k, int ok) {
  if (!ok && k < c->end)
    c->end = k;
  c->done[k] = 1;
  while (c->frontier < c->end && c->done[c->frontier]) {
    c->spent += c->nodes[c->frontier++];
    if (c->spent >= c->budget)
      c->end = c->frontier;
  }
}

static void *value_some(void *arg) {
  hint_thread *h = arg;
  hint_ctx *c = h->ctx;
  pthread_mutex_lock(&c->lock);
  while (c->next < c->end) {
    int k = c->next++;
    pthread_mutex_unlock(&c->lock);
    int ok = value_world(c, h->solver, k) == 0;
    pthread_mutex_lock(&c->lock);
    world_done(c, k, ok);
  }
  pthread_mutex_unlock(&c->lock);
  return NULL;
}

/* ---- the plan ------------------------------------------------------- */

/* Values the worlds of the plan, on c->threads threads taking worlds in
 * order, until the budget is spent.  Returns how many worlds, in order
 * from 0, were valued. */
static int value_worlds(hint_ctx *c, uint64_t *spent) {
  hint_thread th[HINT_SLICES];
  pthread_t tid[HINT_SLICES];
  pthread_mutex_init(&c->lock, NULL);
  c->next = c->frontier = 0;
  c->end = c->max_worlds;
  c->spent = 0;
  for (int t = 0; t < c->threads; t++)
    th[t] = (hint_thread){c, ai_bot_solver(c->bot, t, HINT_SLICES)};
  int started = 1;
  for (int t = 1; t < c->threads; t++)
    if (pthread_create(&tid[t], NULL, value_some, &th[t]) == 0)
      started++;
    else
      break;
  value_some(&th[0]);
  for (int t = 1; t < started; t++)
    pthread_join(tid[t], NULL);
  pthread_mutex_destroy(&c->lock);
  *spent = c->spent;
  return c->frontier;
}

/* ---- statistics ----------------------------------------------------- */

typedef struct moment {
  double sum, sum2;
  int n;
} moment;

static void moment_add(moment *m, double x) {
  m->sum += x;
  m->sum2 += x * x;
  m->n++;
}

static double moment_mean(const moment *m) { return m->n ? m->sum / m->n : 0; }

/* The variance of the mean. */
static double moment_var(const moment *m) {
  if (m->n < 2)
    return 0;
  double mean = m->sum / m->n;
  double var = (m->sum2 - m->n * mean * mean) / (m->n - 1);
  return var > 0 ? var / m->n : 0;
}

/* The best move by the mean over the worlds of one parity (0, 1), or over
 * all (-1). */
static int best_of(const int *values, int nw, int n, int parity) {
  int best = 0;
  double top = -INFINITY;
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k < nw; k++)
      if (parity < 0 || k % 2 == parity)
        s += values[(size_t)k * (size_t)n + i];
    if (s > top + 1e-9)
      top = s, best = i;
  }
  return best;
}

/* Each move's value and error, and its loss: chosen on one half of the
 * worlds, measured on the other, both ways (cross-fitting), so the noise
 * that made a move look best does not also make the others look worse.
 * exact: the worlds are every world there is (no sampling error). */
static void summarise(const int *values, int nw, int n, double unit, int exact,
                      scopa_hint *out) {
  int half[2] = {best_of(values, nw, n, 0), best_of(values, nw, n, 1)};
  int best = best_of(values, nw, n, -1);
  for (int i = 0; i < n; i++) {
    moment v, d[2], all;
    memset(&v, 0, sizeof v);
    memset(d, 0, sizeof d);
    memset(&all, 0, sizeof all);
    for (int k = 0; k < nw; k++) {
      const int *w = &values[(size_t)k * (size_t)n];
      moment_add(&v, w[i] / unit);
      /* worlds of parity p measure the move chosen on the other half */
      moment_add(&d[k % 2], (w[half[1 - k % 2]] - w[i]) / unit);
      moment_add(&all, (w[best] - w[i]) / unit);
    }
    out[i].value = moment_mean(&v);
    out[i].margin = exact ? 0 : Z95 * sqrt(moment_var(&v));
    if (exact || nw < 4) {
      out[i].loss = moment_mean(&all);
      out[i].loss_margin = exact ? 0 : Z95 * sqrt(moment_var(&all));
    } else {
      /* Scaled to what play loses (HINT_LOSS_SCALE); the sampling's
       * doubt, and the playouts' own against the play of the strongest
       * bot (none for the move chosen on both halves). */
      double model = i == half[0] && i == half[1] ? 0 : HINT_MODEL_SD;
      double k = HINT_LOSS_SCALE;
      out[i].loss = k * (moment_mean(&d[0]) + moment_mean(&d[1])) / 2;
      out[i].loss_margin =
          Z95 * sqrt(k * k * (moment_var(&d[0]) + moment_var(&d[1])) / 4 +
                     model * model);
    }
    /* A move that did better than the one chosen on the other half lost
     * nothing. */
    if (out[i].loss < 0)
      out[i].loss = 0;
  }
}

/* ---- the calibration ------------------------------------------------ */

/* Fitted on the default 2-player rules only (docs/ai.md). */
static int calibrated_rules(const scopa_view *v) {
  const scopa_rules *r = &v->rules;
  return v->players == 2 && r->game == SCOPA_GAME_SCOPA && r->refill == 3 &&
         r->capture == SCOPA_CAPTURE_MATCH && !r->ace_sweeps && !r->lowest_wins;
}

/* What the hints add at a deal's first play (not the last deal's, which
 * is exact).  bench_ai_calibrate --rounds 300 --every 3 --seed 1 (2,433
 * positions of self-play of best, node budget 250,000): the playouts'
 * values are right on the whole (predicted - realised +0.033 +- 0.086,
 * fitted slope 1.05) and per deal (|bias| 0.10 at most, each within its
 * interval of 0), except at the first play of deals 1-5 (hands full):
 * +0.223 +- 0.200 over 542 positions, slope 1.04: optimistic there, so
 * that is taken off.  (Whole-round solves, which the hints used before
 * the playouts, were pessimistic there: they needed +0.403, docs/ai.md.) */
#define HINT_FIRST_PLAY (-0.223)

double ai_hint_correction(const scopa_view *v) {
  if (!calibrated_rules(v))
    return 0;
  /* The last deal (stock empty) is solved exactly. */
  return v->plays % 6 == 0 && v->stock > 0 ? HINT_FIRST_PLAY : 0;
}

/* ---- the procedure -------------------------------------------------- */

static int mark_of(const scopa_hint *h) {
  double sure = h->loss - h->loss_margin; /* the loss beyond its doubt */
  return sure >= SCOPA_HINT_BLUNDER ? SCOPA_MARK_BLUNDER
         : sure >= SCOPA_HINT_SLIP  ? SCOPA_MARK_SLIP
                                    : SCOPA_MARK_NONE;
}

const char *scopa_hint_mark_text(int mark) {
  return mark == SCOPA_MARK_BLUNDER ? "??" : mark == SCOPA_MARK_SLIP ? "?" : "";
}

/* Best first (by value; equal values by traditional play), each legal move
 * once. */
static void rank(const scopa_view *v, scopa_hint *h, int n) {
  ai_heur heur;
  ai_heur_of_view(&heur, v, 1);
  double tie[HINT_MAX_MOVES];
  for (int i = 0; i < n; i++)
    tie[i] = ai_heur_move(&heur, h[i].move);
  for (int i = 1; i < n; i++) {
    scopa_hint x = h[i];
    double t = tie[i];
    int j = i;
    for (;
         j > 0 && (h[j - 1].value < x.value - 1e-12 ||
                   (fabs(h[j - 1].value - x.value) <= 1e-12 && tie[j - 1] < t));
         j--) {
      h[j] = h[j - 1];
      tie[j] = tie[j - 1];
    }
    h[j] = x;
    tie[j] = t;
  }
}

/* No estimate: the rules bot's move first, every number NAN. */
static int no_estimate(scopa_bot *bot, const scopa_view *v,
                       const scopa_bot_limits *l, scopa_hint *h, int n) {
  scopa_move best = h[0].move;
  int rc = bot_rules_choose(bot, v, l, &best);
  for (int i = 0; i < n; i++) {
    if (h[i].move == best) {
      scopa_hint t = h[i];
      memmove(h + 1, h, sizeof *h * (size_t)i);
      h[0] = t;
    }
  }
  for (int i = 0; i < n; i++)
    h[i].value = h[i].margin = h[i].loss = h[i].loss_margin = NAN,
    h[i].mark = SCOPA_MARK_NONE;
  return rc;
}

static uint64_t budget_of(const scopa_bot_limits *l) {
  if (l->nodes)
    return l->nodes;
  int ms = l->movetime_ms > 0 ? l->movetime_ms : SCOPA_HINT_MS;
  return (uint64_t)ms * SCOPA_BOT_NODES_PER_MS;
}

/* Two players and the stock empty: the other hand is every unseen card,
 * one world, which any draw gives. */
static int one_world(const scopa_view *v) {
  return v->players == 2 && v->stock == 0;
}

/* Values the n moves in h (moves set) over the worlds; 0, or -1 when none
 * was valued. */
static int hint_values(scopa_bot *bot, const scopa_view *v,
                       const scopa_bot_limits *l, scopa_hint *h, int n,
                       scopa_hint_info *info) {
  scopa_state world;
  scopa_rng rng;
  int exact = one_world(v);
  scopa_rng_seed(&rng, l->seed);
  if (exact)
    scopa_view_sample(v, &rng, &world);
  scopa_move moves[HINT_MAX_MOVES];
  for (int i = 0; i < n; i++)
    moves[i] = h[i].move;
  hint_ctx c = {.bot = bot,
                .view = v,
                .moves = moves,
                .n = n,
                .threads = l->threads < 1             ? 1
                           : l->threads > HINT_SLICES ? HINT_SLICES
                                                      : l->threads,
                .seed = l->seed,
                .exact = exact ? &world : NULL};
  c.max_worlds = exact ? 1 : HINT_MAX_WORLDS;
  c.budget = exact ? UINT64_MAX : budget_of(l);
  c.values = malloc(sizeof *c.values * (size_t)c.max_worlds * (size_t)n);
  c.nodes = malloc(sizeof *c.nodes * (size_t)c.max_worlds);
  c.done = calloc((size_t)c.max_worlds, 1);
  uint64_t spent = 0;
  int nw = c.values && c.nodes && c.done ? value_worlds(&c, &spent) : 0;
  if (nw > 0)
    summarise(c.values, nw, n, AI_UNIT * (v->sides - 1), exact, h);
  free(c.values);
  free(c.nodes);
  free(c.done);
  if (info)
    *info = (scopa_hint_info){nw, exact && nw == 1, spent};
  if (nw <= 0)
    return -1;
  for (int i = 0; i < n; i++) {
    h[i].value += ai_hint_correction(v);
    h[i].mark = mark_of(&h[i]);
  }
  return 0;
}

int scopa_bot_hint(scopa_bot *bot, const scopa_view *view,
                   const scopa_bot_limits *limits, scopa_hint *out, int cap,
                   scopa_hint_info *info) {
  if (info)
    *info = (scopa_hint_info){0, 0, 0};
  if (view->to_play != view->seat)
    return SCOPA_EINVAL;
  scopa_bot_limits l = {0};
  if (limits)
    l = *limits;
  l.nodes = budget_of(&l); /* the clock never plans a hint's work */
  ai_clock_start(&bot->clock, &l, 0);
  scopa_move moves[HINT_MAX_MOVES];
  int total = scopa_view_legal(view, moves, HINT_MAX_MOVES);
  if (total <= 0)
    return SCOPA_EINVAL;
  int n = total > HINT_MAX_MOVES ? HINT_MAX_MOVES : total;
  scopa_hint h[HINT_MAX_MOVES];
  for (int i = 0; i < n; i++)
    h[i] = (scopa_hint){moves[i], 0, 0, 0, 0, SCOPA_MARK_NONE};
  /* A bot without a solver (random, greedy) lends no memory. */
  int valued = total <= HINT_MAX_MOVES &&
               POPCOUNT(view->table) <= HINT_MAX_TABLE &&
               ai_bot_solver(bot, 0, HINT_SLICES) &&
               hint_values(bot, view, &l, h, n, info) == 0;
  if (valued)
    rank(view, h, n);
  else if (no_estimate(bot, view, &l, h, n) != SCOPA_OK)
    return SCOPA_EINVAL;
  for (int i = 0; i < n && i < cap; i++)
    out[i] = h[i];
  return total;
}

/* ---- the seed ------------------------------------------------------- */

/* Appends to buf[*len..cap) what printf would print. */
#define APPEND(buf, len, cap, ...)                                             \
  do {                                                                         \
    if (*(len) < (cap))                                                        \
      *(len) += (size_t)snprintf((buf) + *(len), (cap) - *(len), __VA_ARGS__); \
  } while (0)

/* The position as text: every option of the rules, the seats, the scores,
 * the table as first dealt, the seat's dealt cards and the moves. */
static void position_text(const scopa_view *v, char *buf, size_t cap) {
  size_t len = 0;
  APPEND(buf, &len, cap, "position");
  for (int i = 0; i < scopa_option_count(); i++)
    APPEND(buf, &len, cap, "|%s=%lld", scopa_option_get(i)->name,
           scopa_rules_value(&v->rules, i));
  APPEND(buf, &len, cap, "|seat=%d|dealer=%d|scores=", v->seat, v->dealer);
  for (int i = 0; i < v->sides; i++)
    APPEND(buf, &len, cap, "%d,", (int)v->scores[i]);
  APPEND(buf, &len, cap,
         "|table=%llx|dealt=%llx|moves=", (unsigned long long)v->initial_table,
         (unsigned long long)v->dealt);
  for (int i = 0; i < v->plays; i++)
    APPEND(buf, &len, cap, "%llx,", (unsigned long long)v->moves[i]);
}

uint64_t scopa_hint_seed(const char *game_seed, int round,
                         const scopa_view *view) {
  char text[4096], digest[65];
  if (game_seed && *game_seed)
    snprintf(text, sizeof text, "scopa hint|seed=%.64s|round=%d|ply=%d",
             game_seed, round, view->plays);
  else
    position_text(view, text, sizeof text);
  if (scopa_seed_sha256(text, digest) != SCOPA_OK)
    return 0;
  digest[16] = 0;
  return strtoull(digest, NULL, 16);
}
