/*
 * solve.c -- bench of the exact solver (NOTES "Exact solving"): whole
 * 2-player rounds with every card known, solved from the deal, and last
 * deals; prints mean and max milliseconds and nodes.
 *
 *   bench_ai_solve [DEALS] [SEED]
 */
#include "solver.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  int deals = argc > 1 ? atoi(argv[1]) : 100;
  uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  scopa_rules r;
  scopa_rules_preset(&r, "scopa");
  ai_solver *S = ai_solver_new(argc > 3 ? atoi(argv[3]) : 20);
  scopa_rng rng;
  scopa_rng_seed(&rng, seed);
  double total = 0, worst = 0, last_total = 0;
  uint64_t nodes = 0, worst_nodes = 0, last_nodes = 0;
  for (int d = 0; d < deals; d++) {
    scopa_state s;
    scopa_state_deal_random(&s, &r, d % 2, &rng);
    uint64_t n0 = ai_solver_nodes(S);
    double t0 = now_ms();
    ai_solver_begin(S, s.to_play);
    ai_solver_value(S, &s, 0, AI_DEPTH_END);
    double t = now_ms() - t0;
    uint64_t n = ai_solver_nodes(S) - n0;
    total += t, nodes += n;
    if (t > worst)
      worst = t;
    if (n > worst_nodes)
      worst_nodes = n;
    /* play greedy-ish (first legal move) to the last deal, solve it */
    while (scopa_state_stock(&s) > 0) {
      scopa_move m[SCOPA_MAX_MOVES];
      scopa_state_legal(&s, m, SCOPA_MAX_MOVES);
      scopa_state_play(&s, m[0]);
    }
    n0 = ai_solver_nodes(S);
    t0 = now_ms();
    ai_solver_begin(S, s.to_play);
    ai_solver_value(S, &s, 0, AI_DEPTH_END);
    last_total += now_ms() - t0;
    last_nodes += ai_solver_nodes(S) - n0;
  }
  printf("{\"deals\": %d, \"round_ms_mean\": %.3f, \"round_ms_max\": %.3f, "
         "\"round_nodes_mean\": %.0f, \"round_nodes_max\": %llu, "
         "\"last_deal_ms_mean\": %.4f, \"last_deal_nodes_mean\": %.1f, "
         "\"nodes_per_ms\": %.0f}\n",
         deals, total / deals, worst, (double)nodes / deals,
         (unsigned long long)worst_nodes, last_total / deals,
         (double)last_nodes / deals, nodes / total);
  ai_solver_free(S);
  return 0;
}
