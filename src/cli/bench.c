/*
 * bench.c -- `scopa bench --json [--seconds S]` (CONTRACTS.md): random
 * 2-player games under the default rules, every legal move equally likely,
 * each deal played out and scored in full, on one thread.
 */
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Plays one random deal; returns the plays made.  *check accumulates the
 * points so the work cannot be optimised away and runs can be compared. */
static int random_deal(const scopa_rules *rules, scopa_rng *rng, int dealer,
                       long long *check) {
  scopa_state st;
  scopa_score score;
  scopa_state_deal_random(&st, rules, dealer, rng);
  scopa_state_playout(&st, rng);
  scopa_state_score(&st, &score);
  *check += score.side[0].total * 3 + score.side[1].total;
  return st.plays;
}

int cli_bench(int argc, char **argv) {
  double seconds = 3;
  int json = 0;
  for (int i = 1; i < argc; i++)
    json |= strcmp(argv[i], "--json") == 0;
  unsigned long long seed = 1;
  long long limit = 0; /* --deals N: a fixed amount of work, for callgrind */
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    long long n = 0;
    int rc = 0;
    char msg[300];
    if (strcmp(o, "--json") == 0)
      continue;
    if (strcmp(o, "--seconds") == 0) {
      if (!v)
        rc = cli_int("bench", o, v, 0, 0, &n); /* "needs a value" */
      else if (scopa_parse_real(o, v, 0.001, 86400, &seconds, msg,
                                sizeof msg) != SCOPA_OK) {
        fprintf(stderr, "scopa bench: %s\n", msg);
        rc = 2;
      }
    } else if (strcmp(o, "--deals") == 0) {
      if (!(rc = cli_int("bench", o, v, 1, 1000000000000ll, &n)))
        limit = n;
    } else if (strcmp(o, "--seed") == 0) {
      if (!(rc = cli_int("bench", o, v, 0, LLONG_MAX, &n)))
        seed = (unsigned long long)n;
    } else {
      char shown[80];
      fprintf(stderr,
              "scopa bench: unknown option '%s'\n"
              "usage: scopa bench [--json] [--seconds S | --deals N] "
              "[--seed N]\n",
              cli_shown(o, shown, sizeof shown));
      return 2;
    }
    if (rc)
      return rc;
    i++;
  }
  scopa_rules rules;
  scopa_rules_preset(&rules, "scopa");
  scopa_rng rng;
  scopa_rng_seed(&rng, seed);
  long long deals = 0, plays = 0, check = 0;
  double start = now(), elapsed;
  do {
    for (int i = 0; i < 1000; i++, deals++)
      plays += random_deal(&rules, &rng, (int)(deals & 1), &check);
    elapsed = now() - start;
  } while (limit ? deals < limit : elapsed < seconds);
  double dps = (double)deals / elapsed, pps = (double)plays / elapsed;
  if (json)
    printf("{\"random_deals_per_second\": %.0f, \"plays_per_second\": %.0f, "
           "\"deals\": %lld, \"seconds\": %.3f, \"ns_per_deal\": %.1f, "
           "\"checksum\": %lld}\n",
           dps, pps, deals, elapsed, 1e9 / dps, check);
  else
    printf("%.0f random deals/s, %.0f plays/s (%lld deals in %.2f s)\n", dps,
           pps, deals, elapsed);
  return 0;
}
