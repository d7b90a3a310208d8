/*
 * data.c -- `oppmodel_data`: training data for the learned opponent model
 * (src/ai/oppmodel.h), which train.py next to it fits.  Links the
 * research bots (research/): retrain.sh's games are played against
 * dealset.
 *
 *   oppmodel_data gen --a BOT --b BOT [--rounds N] [--seed S]
 *       [--nodes K] [--record a|b|both] [--type T] [--deals F-L]
 *       plays N rounds of 2-player scopa, BOT a on seat 0 and b on seat 1
 *       (the dealer alternating), the searching bots on a node budget of K
 *       (deterministic), and for every move of a recorded seat in deals
 *       F to L (default 1-4; 6-6 the last deal) with more than one legal
 *       move writes one line per legal move:
 *         decision type chosen f0 ... f24
 *       (decision: a number shared by the lines of one choice, unique in the
 *       run; type: T, the label of the player; chosen 1 for the move
 *       played; f: ai_opp_features from the mover's view).  Round r's deal
 *       and seeds depend only on S and r.
 */
#include "oppmodel.h"
#include "research.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static long decision;

static void record(const scopa_view *v, scopa_move chosen, int type) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_view_legal(v, moves, SCOPA_MAX_MOVES);
  if (n <= 1 || n > 128)
    return;
  int next = 1 - v->seat, next_hand = v->hand_count[next];
  if (next_hand == 0 && v->stock > 0)
    next_hand = 3;
  int side = scopa_rules_side_of(&v->rules, v->seat);
  ai_heur h;
  ai_opp_context(&h, &v->rules, v->hand, v->table, v->pile[side],
                 v->pile[1 - side], next_hand, v->plays + 1 == 36);
  ai_opp_top top;
  ai_opp_top_of(&h, moves, n, &top);
  for (int i = 0; i < n; i++) {
    double f[AI_OPP_FEATURES];
    ai_opp_features(&h, &top, moves[i], f);
    printf("%ld %d %d", decision, type, moves[i] == chosen);
    for (int j = 0; j < AI_OPP_FEATURES; j++)
      printf(" %.6g", f[j]);
    printf("\n");
  }
  decision++;
}

static int gen(const char *a, const char *b, int rounds, uint64_t seed,
               uint64_t nodes, int rec, int type, int first, int last) {
  scopa_rules r;
  scopa_rules_preset(&r, "scopa");
  scopa_bot *bot[2];
  if (scopa_bot_new(a, &bot[0]) || scopa_bot_new(b, &bot[1])) {
    fprintf(stderr, "oppmodel_data: unknown bot\n");
    return 2;
  }
  for (int round = 0; round < rounds; round++) {
    scopa_rng rng;
    scopa_rng_seed(&rng, mix(seed * 0x100000001B3ull ^ (uint64_t)round));
    scopa_state s;
    scopa_state_deal_random(&s, &r, round % 2, &rng);
    /* Deals first to last only (where that table of the model is used):
     * the rest is played, not recorded. */
    while (!scopa_state_over(&s) && s.plays < 6 * last) {
      int seat = s.to_play;
      scopa_view v;
      scopa_view_of(&s, seat, NULL, &v);
      scopa_bot_limits l = {
          0, mix(seed ^ (uint64_t)round << 8 ^ s.plays), 1, nodes, 0, NULL};
      scopa_move m;
      if (scopa_bot_choose(bot[seat], &v, &l, &m) != SCOPA_OK)
        return 1;
      if (rec & (1 << seat) && s.plays >= 6 * (first - 1))
        record(&v, m, type);
      scopa_state_play(&s, m);
    }
    fflush(stdout);
  }
  scopa_bot_free(bot[0]);
  scopa_bot_free(bot[1]);
  return 0;
}

int main(int argc, char **argv) {
  const char *a = "greedy", *b = "greedy";
  int rounds = 100, rec = 3, type = 0, first = 1, last = 4;
  uint64_t seed = 1, nodes = 50000;
  research_add_bots(); /* dealset, the opponent of retrain.sh's games */
  if (argc < 2 || strcmp(argv[1], "gen") != 0) {
    fprintf(stderr, "usage: oppmodel_data gen [options]\n");
    return 2;
  }
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--a") && i + 1 < argc)
      a = argv[++i];
    else if (!strcmp(argv[i], "--b") && i + 1 < argc)
      b = argv[++i];
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--nodes") && i + 1 < argc)
      nodes = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--deals") && i + 1 < argc) {
      if (sscanf(argv[++i], "%d-%d", &first, &last) != 2 || first < 1 ||
          last > 6 || first > last) {
        fprintf(stderr, "oppmodel_data: --deals wants F-L in 1-6\n");
        return 2;
      }
    } else if (!strcmp(argv[i], "--type") && i + 1 < argc)
      type = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--record") && i + 1 < argc) {
      i++;
      rec = !strcmp(argv[i], "a") ? 1 : !strcmp(argv[i], "b") ? 2 : 3;
    } else {
      fprintf(stderr, "oppmodel_data: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (rounds < 0 || nodes < 1) {
    fprintf(stderr, "oppmodel_data: bad --rounds or --nodes\n");
    return 2;
  }
  return gen(a, b, rounds, seed, nodes, rec, type, first, last);
}
