/*
 * data.c -- `value_data`: training data for the learned value of a deal
 * boundary (src/ai/value.h), which train.py next to it fits.
 *
 *   value_data gen [--rounds N] [--seed S] [--shard I/N] [--orders K]
 *       plays 2-player scopa rounds (seat policy: the playouts' rules policy
 *       with a per-round share of random moves), and at every deal boundary
 *       but the first deal's start (after plays 6, 12, ... 30) writes one
 *       line: plays last table mine theirs label sd
 *       (last: 0 none, 1 the leader, 2 the other; the three card sets in
 *       hex, from the leader's side), label the mean over K stock orders
 *       drawn anew of the exact value of the rest of the round for the side
 *       to lead (points to come, scope included), sd their standard
 *       deviation.  Round r belongs to shard r % N == I and its seed is a
 *       function of S and r only, so shards on any machines add up to the
 *       whole run.  With --rollouts R the label is instead the mean of R
 *       playouts of the rules policy (each seat counting what it sees),
 *       each over its own stock order: play after the boundary that does
 *       not know the refills.
 *   value_data features [--augment] < lines > records.f32
 *       the lines' features (value.h) as float32 records [label, features];
 *       --augment adds the five states with the suits other than coins
 *       permuted (they have the same value).
 *   value_data predict < lines
 *       the line and the network's value of it.
 */
#include "solver.h"
#include "value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* The boundary state s with its hands and stock dealt from a fresh
 * shuffle of the same cards. */
static void redraw(const scopa_state *s, scopa_rng *rng, scopa_state *out) {
  uint8_t cards[40];
  int n = 0, first = s->next - 6;
  for (int i = first; i < 40; i++)
    cards[n++] = s->deck[i];
  for (int i = n - 1; i > 0; i--) {
    int j = (int)scopa_rng_below(rng, (uint32_t)(i + 1));
    uint8_t t = cards[i];
    cards[i] = cards[j];
    cards[j] = t;
  }
  *out = *s;
  for (int seat = 0; seat < 2; seat++) {
    out->dealt[seat] &= ~s->hand[seat];
    out->hand[seat] = 0;
  }
  for (int i = 0; i < n; i++) {
    out->deck[first + i] = cards[i];
    if (i < 6) {
      int seat = i < 3 ? 0 : 1;
      out->hand[seat] |= SCOPA_BIT(cards[i]);
      out->dealt[seat] |= SCOPA_BIT(cards[i]);
    }
  }
}

/* The points to come for root in t played out by the rules policy
 * (each seat counting only what it sees; 10% random moves). */
static double playout(const scopa_state *t, int root, scopa_rng *rng) {
  scopa_state s = *t;
  int v = 0;
  while (!scopa_state_over(&s)) {
    scopa_move m = ai_rollout_policy(&s, rng, 100);
    v += ai_move_gain(&s, m, root);
    scopa_state_play(&s, m);
  }
  return (v + ai_leaf_value(&s, root)) / (double)AI_UNIT;
}

/* rollouts 0: exact solves (clairvoyant play after the boundary); else
 * that many playouts, each over its own stock order. */
static void label(ai_solver *S, const scopa_state *s, int orders, int rollouts,
                  scopa_rng *rng) {
  int me = scopa_rules_side_of(&s->rules, s->to_play);
  double sum = 0, sq = 0;
  ai_solver_begin(S, me);
  if (rollouts)
    orders = rollouts;
  for (int k = 0; k < orders; k++) {
    scopa_state t;
    redraw(s, rng, &t);
    double v = rollouts
                   ? playout(&t, me, rng)
                   : ai_solver_value(S, &t, 0, AI_DEPTH_END) / (double)AI_UNIT;
    sum += v, sq += v * v;
  }
  double mean = sum / orders;
  double var = orders > 1 ? (sq - orders * mean * mean) / (orders - 1) : 0;
  ai_boundary b;
  ai_boundary_of_state(s, &b);
  printf("%d %d %010llx %010llx %010llx %.4f %.4f\n", b.plays, b.last,
         (unsigned long long)b.table, (unsigned long long)b.mine,
         (unsigned long long)b.theirs, mean, sqrt(var > 0 ? var : 0));
}

static int gen(int rounds, uint64_t seed, int shard, int shards, int orders,
               int rollouts) {
  scopa_rules r;
  scopa_rules_preset(&r, "scopa");
  ai_solver *S = ai_solver_new(20);
  if (!S)
    return 1;
  for (int round = 0; round < rounds; round++) {
    if (round % shards != shard)
      continue;
    scopa_rng rng;
    scopa_rng_seed(&rng, mix(seed * 0x100000001B3ull ^ (uint64_t)round));
    scopa_state s;
    scopa_state_deal_random(&s, &r, round % 2, &rng);
    /* From nearly the rules bot to nearly random, a range of play. */
    int eps = 40 + (int)scopa_rng_below(&rng, 400);
    while (!scopa_state_over(&s)) {
      scopa_state_play(&s, ai_rollout_policy(&s, &rng, eps));
      if (s.plays % 6 == 0 && s.plays <= 30 && !scopa_state_over(&s))
        label(S, &s, orders, rollouts, &rng);
    }
    fflush(stdout);
  }
  ai_solver_free(S);
  return 0;
}

static int read_line(ai_boundary *b, double *lab, char *line) {
  unsigned long long t, m, o;
  double sd;
  if (sscanf(line, "%d %d %llx %llx %llx %lf %lf", &b->plays, &b->last, &t, &m,
             &o, lab, &sd) != 7)
    return -1;
  b->table = t, b->mine = m, b->theirs = o;
  return 0;
}

/* The set with suits 1..3 permuted by perm (coins, suit 0, stays). */
static scopa_cards permute(scopa_cards set, const int *perm) {
  scopa_cards out = 0;
  for (int c = 0; c < 40; c++)
    if (set & SCOPA_BIT(c))
      out |= SCOPA_BIT(SCOPA_CARD(SCOPA_RANK(c), perm[SCOPA_SUIT(c)]));
  return out;
}

static int features(int augment) {
  static const int PERMS[6][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3},
                                  {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1}};
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    ai_boundary b;
    double lab;
    if (read_line(&b, &lab, line) != 0)
      continue;
    for (int p = 0; p < (augment ? 6 : 1); p++) {
      ai_boundary q = b;
      q.table = permute(b.table, PERMS[p]);
      q.mine = permute(b.mine, PERMS[p]);
      q.theirs = permute(b.theirs, PERMS[p]);
      float rec[1 + AI_VALUE_FEATURES];
      rec[0] = (float)lab;
      ai_value_features(&q, rec + 1);
      fwrite(rec, sizeof rec, 1, stdout);
    }
  }
  return 0;
}

static int predict(void) {
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    ai_boundary b;
    double lab;
    if (read_line(&b, &lab, line) != 0)
      continue;
    float x[AI_VALUE_FEATURES];
    ai_value_features(&b, x);
    line[strcspn(line, "\n")] = 0;
    printf("%s %.6f\n", line, ai_value_net(x));
  }
  return 0;
}

int main(int argc, char **argv) {
  int rounds = 1000, shard = 0, shards = 1, orders = 4, augment = 0,
      rollouts = 0;
  uint64_t seed = 1;
  const char *verb = argc > 1 ? argv[1] : "";
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--orders") && i + 1 < argc)
      orders = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--shard") && i + 1 < argc &&
             sscanf(argv[++i], "%d/%d", &shard, &shards) == 2)
      ;
    else if (!strcmp(argv[i], "--rollouts") && i + 1 < argc)
      rollouts = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--augment"))
      augment = 1;
    else {
      fprintf(stderr, "value_data: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (shards < 1 || shard < 0 || shard >= shards || orders < 1 || rounds < 0 ||
      rollouts < 0) {
    fprintf(stderr, "value_data: bad --shard, --orders or --rounds\n");
    return 2;
  }
  if (!strcmp(verb, "gen"))
    return gen(rounds, seed, shard, shards, orders, rollouts);
  if (!strcmp(verb, "features"))
    return features(augment);
  if (!strcmp(verb, "predict"))
    return predict();
  fprintf(stderr, "usage: value_data gen|features|predict [options]\n");
  return 2;
}
