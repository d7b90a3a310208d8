/*
 * movetime.c -- how well a bot keeps its time, in process: wall-clock
 * milliseconds per scopa_bot_choose call on positions from every phase of
 * a round (early, middle, last deals), with median, 99th percentile and
 * maximum per phase and overall, as one JSON line.
 *
 *   bench_ai_movetime [--preset NAME] [--bot NAME] [--movetime MS]
 *                     [--nodes N] [--positions P] [--seed S]
 *
 * Positions come from rounds played by the rules bot from seeded deals
 * (P per phase, default 30), so one seed gives the same positions on any
 * machine.  Only the public API is used (and research.h, so --bot can
 * name a research bot).  The bound is the time of the
 * call as a caller sees it (CLOCK_MONOTONIC around scopa_bot_choose); on a
 * shared machine it includes waiting for a core, so say how loaded the
 * machine was next to the numbers.
 */
#include "research.h"
#include "scopa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PHASES 3
#define MAX_POSITIONS 1000

static const char *const PHASE_NAMES[PHASES] = {"early", "middle", "last"};

static double clock_ms(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double now_ms(void) { return clock_ms(CLOCK_MONOTONIC); }

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The q-quantile (0..1) of n sorted values, nearest rank. */
static double quantile(const double *sorted, int n, double q) {
  int k = (int)(q * n + 0.999999) - 1;
  return sorted[k < 0 ? 0 : k >= n ? n - 1 : k];
}

/* Wall-clock statistics of n calls, and the largest CPU time of the
 * calling thread (which a loaded machine does not inflate: a wall time
 * far above it is time spent waiting for a core). */
static void print_stats(const char *name, double *ms, int n, double cpu_max,
                        int last) {
  qsort(ms, (size_t)n, sizeof *ms, cmp_double);
  printf("\"%s\": {\"moves\": %d, \"median_ms\": %.2f, \"p99_ms\": %.2f, "
         "\"max_ms\": %.2f, \"max_cpu_ms\": %.2f}%s",
         name, n, n ? quantile(ms, n, 0.5) : 0, n ? quantile(ms, n, 0.99) : 0,
         n ? ms[n - 1] : 0, cpu_max, last ? "" : ", ");
}

/* The phase of a position: thirds of the round's plays. */
static int phase_of(const scopa_state *s) {
  int total = scopa_state_total_plays(s);
  return s->plays * PHASES / total;
}

int main(int argc, char **argv) {
  const char *preset = "scopa", *bot_name = "best";
  int movetime = 100, per_phase = 30;
  unsigned long long nodes = 0, seed = 1;
  research_add_bots();
  for (int i = 1; i + 1 < argc; i += 2) {
    const char *o = argv[i], *v = argv[i + 1];
    if (strcmp(o, "--preset") == 0)
      preset = v;
    else if (strcmp(o, "--bot") == 0)
      bot_name = v;
    else if (strcmp(o, "--movetime") == 0)
      movetime = atoi(v);
    else if (strcmp(o, "--nodes") == 0)
      nodes = strtoull(v, NULL, 10);
    else if (strcmp(o, "--positions") == 0)
      per_phase = atoi(v);
    else if (strcmp(o, "--seed") == 0)
      seed = strtoull(v, NULL, 10);
    else {
      fprintf(stderr, "bench_ai_movetime: unknown option %s\n", o);
      return 2;
    }
  }
  if (per_phase < 1 || per_phase * PHASES > MAX_POSITIONS) {
    fprintf(stderr, "bench_ai_movetime: --positions 1..%d\n",
            MAX_POSITIONS / PHASES);
    return 2;
  }
  scopa_rules rules;
  scopa_bot *bot, *mover;
  if (scopa_rules_preset(&rules, preset) != SCOPA_OK ||
      scopa_bot_new(bot_name, &bot) != SCOPA_OK ||
      scopa_bot_new("rules", &mover) != SCOPA_OK) {
    fprintf(stderr, "bench_ai_movetime: unknown preset or bot\n");
    return 2;
  }
  static double ms[PHASES][MAX_POSITIONS], all[PHASES * MAX_POSITIONS];
  double cpu_max[PHASES] = {0}, cpu_all = 0;
  int count[PHASES] = {0}, nall = 0, illegal = 0;
  scopa_rng rng;
  scopa_rng_seed(&rng, seed);
  double t_start = now_ms();
  for (int round = 0; nall < PHASES * per_phase && round < 10000; round++) {
    scopa_state s;
    scopa_state_deal_random(&s, &rules, round % rules.players, &rng);
    while (!scopa_state_over(&s)) {
      scopa_view v;
      scopa_move m;
      scopa_view_of(&s, s.to_play, NULL, &v);
      int ph = phase_of(&s);
      /* About one position in three of each round is measured. */
      if (count[ph] < per_phase && scopa_rng_below(&rng, 3) == 0) {
        scopa_bot_limits l;
        memset(&l, 0, sizeof l);
        l.movetime_ms = movetime;
        l.seed = scopa_rng_next(&rng);
        l.threads = 1;
        l.nodes = nodes;
        double t0 = now_ms(), c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
        int rc = scopa_bot_choose(bot, &v, &l, &m);
        double t = now_ms() - t0, c = clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
        cpu_max[ph] = c > cpu_max[ph] ? c : cpu_max[ph];
        cpu_all = c > cpu_all ? c : cpu_all;
        if (rc != SCOPA_OK ||
            scopa_state_check(&s, m, NULL, NULL, 0) != SCOPA_OK)
          illegal++;
        ms[ph][count[ph]++] = t;
        all[nall++] = t;
      }
      scopa_bot_limits quick = {.threads = 1};
      scopa_bot_choose(mover, &v, &quick, &m);
      scopa_state_play(&s, m);
    }
  }
  printf("{\"preset\": \"%s\", \"bot\": \"%s\", \"movetime_ms\": %d, "
         "\"nodes\": %llu, \"seed\": %llu, \"illegal\": %d, "
         "\"seconds\": %.1f, ",
         preset, bot_name, movetime, nodes, seed, illegal,
         (now_ms() - t_start) / 1e3);
  for (int p = 0; p < PHASES; p++)
    print_stats(PHASE_NAMES[p], ms[p], count[p], cpu_max[p], 0);
  print_stats("all", all, nall, cpu_all, 1);
  printf("}\n");
  scopa_bot_free(bot);
  scopa_bot_free(mover);
  return illegal ? 1 : 0;
}
