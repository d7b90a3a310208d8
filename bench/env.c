/*
 * env.c -- steps per second of scopa_vecenv (the batched learning
 * environment, docs/env.md "Speed") from C: every step writes each
 * environment's observation (SCOPA_FEATURES floats, or int8 values with
 * --compact 1: scopa_vecenv_step_compact) and mask, and the
 * action of each environment is a uniformly random legal one read from
 * its mask.  Reports wall-clock and CPU-time rates, so a busy machine
 * shows in the gap between them.
 *
 *   bench_env [--envs N] [--threads T] [--seconds S] [--opponent BOT]
 *             [--compact 0|1]
 */
#include "scopa.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A uniformly random legal action of one mask (reservoir sampling),
 * reading the mask 8 bytes at a time. */
static int64_t pick(const uint8_t *mask, scopa_rng *rng) {
  int64_t chosen = 0;
  uint32_t seen = 0;
  for (int w = 0; w < SCOPA_ACTIONS; w += 8) {
    uint64_t word;
    memcpy(&word, mask + w, sizeof word);
    if (!word)
      continue;
    for (int a = w; a < w + 8; a++)
      if (mask[a] && scopa_rng_below(rng, ++seen) == 0)
        chosen = a;
  }
  return chosen;
}

int main(int argc, char **argv) {
  int envs = 256, threads = 2, compact = 0;
  double seconds = 3;
  const char *opponent = "random";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--envs") == 0)
      envs = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--threads") == 0)
      threads = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--seconds") == 0)
      seconds = atof(argv[i + 1]);
    else if (strcmp(argv[i], "--opponent") == 0)
      opponent = argv[i + 1];
    else if (strcmp(argv[i], "--compact") == 0)
      compact = atoi(argv[i + 1]);
  }
  scopa_rules rules;
  scopa_rules_init(&rules);
  scopa_rules_check(&rules, NULL, NULL, 0);
  scopa_env_config config = {.learner = 0, .opponent = opponent};
  scopa_vecenv *vec;
  if (envs < 1 || scopa_vecenv_new(&rules, &config, envs, threads, &vec)) {
    fprintf(stderr, "bench_env: cannot make %d environments\n", envs);
    return 1;
  }
  float *obs = malloc(sizeof *obs * SCOPA_FEATURES * (size_t)envs);
  int8_t *small = (int8_t *)obs; /* the compact observations, if asked */
  uint8_t *mask = malloc(SCOPA_ACTIONS * (size_t)envs);
  double *rewards = malloc(sizeof *rewards * (size_t)envs);
  uint8_t *term = malloc((size_t)envs), *trunc = malloc((size_t)envs);
  int64_t *actions = malloc(sizeof *actions * (size_t)envs);
  scopa_rng rng;
  scopa_rng_seed(&rng, 1);
  if (compact)
    scopa_vecenv_reset_compact(vec, 1, small, mask);
  else
    scopa_vecenv_reset(vec, 1, obs, mask);
  long steps = 0, episodes = 0;
  double start = scopa_clock_ns() / 1e9, cpu = cpu_now(), elapsed = 0;
  while (elapsed < seconds) {
    for (int i = 0; i < envs; i++)
      actions[i] = pick(mask + (size_t)i * SCOPA_ACTIONS, &rng);
    if (compact)
      scopa_vecenv_step_compact(vec, actions, small, mask, rewards, term,
                                trunc);
    else
      scopa_vecenv_step(vec, actions, obs, mask, rewards, term, trunc);
    steps += envs;
    for (int i = 0; i < envs; i++)
      episodes += term[i];
    elapsed = scopa_clock_ns() / 1e9 - start;
  }
  double cpu_used = cpu_now() - cpu;
  printf("{\"envs\": %d, \"threads\": %d, \"compact\": %d, "
         "\"opponent\": \"%s\", "
         "\"steps_per_s\": %.0f, \"steps_per_cpu_s\": %.0f, "
         "\"episodes_per_s\": %.0f}\n",
         envs, threads, compact, opponent, steps / elapsed, steps / cpu_used,
         episodes / elapsed);
  scopa_vecenv_free(vec);
  free(obs);
  free(mask);
  free(rewards);
  free(term);
  free(trunc);
  free(actions);
  return 0;
}
