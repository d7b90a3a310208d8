/*
 * calibrate.c -- are the hints' values right?  Self-play rounds of
 * 2-player scopa; at sampled positions the library's hint values the
 * moves from the mover's view (scopa_bot_hint, a node budget: the same
 * work as a hint) and the value it gave the move actually played is set
 * against what that move then brought: the mover's side's points minus
 * the other's from that position to the end of the round (scope already
 * made excluded, as the values exclude them).  Per deal of the round
 * (six in 2-player scopa) and overall: mean predicted, mean realised,
 * their difference with a 95% interval, and the least-squares line
 * realised = a + b * predicted (also as a C table on stderr).  The hints
 * are corrected (src/ai/hint.h); by default this measures them without
 * the correction (to fit it), with --calibrated as the hints show them
 * (to check it: use another seed than the one it was fitted on).
 *
 *   bench_ai_calibrate [--rounds N] [--nodes N] [--every K] [--seed S]
 *                      [--mover NAME] [--calibrated]
 *
 * Bounded by --rounds (default 60) and --every (one position in K valued,
 * default 3); node budgets only, so the figures do not depend on the
 * machine or its load.  Public API, plus the correction (src/ai/hint.h).
 */
#include "scopa.h"

#include "hint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEALS 6
#define MAX_SAMPLES 200000

typedef struct sample {
  int deal;  /* 0..5: which deal of the round                */
  int first; /* the first play of a deal (hands full)         */
  int seat, side, scope_mine, scope_other;
  double predicted, realised;
} sample;

typedef struct acc {
  long n;
  double sp, sr, sd, sdd, spp, spr;
} acc;

static void acc_add(acc *a, double p, double r) {
  a->n++;
  a->sp += p;
  a->sr += r;
  a->sd += p - r;
  a->sdd += (p - r) * (p - r);
  a->spp += p * p;
  a->spr += p * r;
}

/* Prints one group; its fitted line in *a_out, *b_out. */
static void acc_print(const char *name, const acc *a, double *a_out,
                      double *b_out, int last) {
  double n = (double)a->n;
  double mp = n ? a->sp / n : 0, mr = n ? a->sr / n : 0, md = n ? a->sd / n : 0;
  double var = n > 1 ? (a->sdd - n * md * md) / (n - 1) : 0;
  double ci = n > 1 ? 1.96 * sqrt(var > 0 ? var : 0) / sqrt(n) : 0;
  double vp = n ? a->spp / n - mp * mp : 0;
  double b = vp > 1e-9 ? (a->spr / n - mp * mr) / vp : 1;
  double c = mr - b * mp;
  *a_out = c;
  *b_out = b;
  printf("    \"%s\": {\"n\": %ld, \"predicted\": %.3f, \"realised\": %.3f, "
         "\"bias\": %.3f, \"ci95\": %.3f, \"fit_a\": %.3f, \"fit_b\": "
         "%.3f}%s\n",
         name, a->n, mp, mr, md, ci, c, b, last ? "" : ",");
}

int main(int argc, char **argv) {
  const char *mover_name = "best";
  int rounds = 60, every = 3, calibrated = 0;
  unsigned long long nodes = (unsigned long long)SCOPA_HINT_MS *
                             SCOPA_BOT_NODES_PER_MS,
                     seed = 1;
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(o, "--calibrated") == 0) {
      calibrated = 1;
      continue;
    }
    if (!v) {
      fprintf(stderr, "bench_ai_calibrate: %s wants a value\n", o);
      return 2;
    }
    i++;
    if (strcmp(o, "--rounds") == 0)
      rounds = atoi(v);
    else if (strcmp(o, "--nodes") == 0)
      nodes = strtoull(v, NULL, 10);
    else if (strcmp(o, "--every") == 0)
      every = atoi(v);
    else if (strcmp(o, "--seed") == 0)
      seed = strtoull(v, NULL, 10);
    else if (strcmp(o, "--mover") == 0)
      mover_name = v;
    else {
      fprintf(stderr, "bench_ai_calibrate: unknown option %s\n", o);
      return 2;
    }
  }
  if (rounds < 1 || every < 1) {
    fprintf(stderr, "bench_ai_calibrate: --rounds and --every are >= 1\n");
    return 2;
  }
  scopa_rules rules;
  scopa_bot *bot, *mover;
  if (scopa_rules_preset(&rules, "scopa") != SCOPA_OK ||
      scopa_bot_new("best", &bot) != SCOPA_OK ||
      scopa_bot_new(mover_name, &mover) != SCOPA_OK) {
    fprintf(stderr, "bench_ai_calibrate: unknown bot\n");
    return 2;
  }
  static sample S[MAX_SAMPLES];
  int ns = 0;
  scopa_rng rng;
  scopa_rng_seed(&rng, seed);
  for (int round = 0; round < rounds; round++) {
    scopa_state s;
    scopa_state_deal_random(&s, &rules, round % 2, &rng);
    int first_sample = ns;
    while (!scopa_state_over(&s)) {
      scopa_view v;
      scopa_move m;
      scopa_view_of(&s, s.to_play, NULL, &v);
      scopa_bot_limits l = {
          .seed = scopa_rng_next(&rng), .threads = 1, .nodes = nodes};
      if (scopa_bot_choose(mover, &v, &l, &m) != SCOPA_OK)
        return 1;
      static scopa_hint hints[SCOPA_MAX_MOVES];
      int want = scopa_rng_below(&rng, (uint32_t)every) == 0;
      static scopa_move legal[SCOPA_MAX_MOVES];
      int n = want ? scopa_state_legal(&s, legal, SCOPA_MAX_MOVES) : 0;
      if (n > 1 && ns < MAX_SAMPLES) { /* forced moves are not hinted */
        scopa_bot_limits e = {
            .seed = scopa_rng_next(&rng), .threads = 1, .nodes = nodes};
        n = scopa_bot_hint(bot, &v, &e, hints, SCOPA_MAX_MOVES, NULL);
        int side = scopa_rules_side_of(&rules, s.to_play);
        sample *x = &S[ns];
        x->deal = s.plays / 6;
        x->first = s.plays % 6 == 0;
        x->seat = s.to_play;
        x->side = side;
        x->scope_mine = s.scope[side];
        x->scope_other = s.scope[1 - side];
        x->predicted = NAN;
        for (int i = 0; i < n && i < SCOPA_MAX_MOVES; i++)
          if (hints[i].move == m)
            x->predicted = calibrated ? hints[i].value
                                      : hints[i].value - ai_hint_correction(&v);
        if (!isnan(x->predicted))
          ns++;
      }
      scopa_state_play(&s, m);
    }
    scopa_score sc;
    scopa_state_score(&s, &sc);
    for (int k = first_sample; k < ns; k++) {
      sample *x = &S[k];
      x->realised = (sc.side[x->side].total - x->scope_mine) -
                    (sc.side[1 - x->side].total - x->scope_other);
    }
  }
  acc all = {0}, deal[DEALS], first = {0}, corrected = {0};
  memset(deal, 0, sizeof deal);
  for (int k = 0; k < ns; k++) {
    acc_add(&all, S[k].predicted, S[k].realised);
    acc_add(&deal[S[k].deal < DEALS ? S[k].deal : DEALS - 1], S[k].predicted,
            S[k].realised);
    if (S[k].first)
      acc_add(&first, S[k].predicted, S[k].realised);
    if (S[k].first && S[k].deal < DEALS - 1) /* where the hints correct */
      acc_add(&corrected, S[k].predicted, S[k].realised);
  }
  double fa[DEALS], fb[DEALS], ga, gb;
  printf("{\"hint\": \"scopa_bot_hint\", \"mover\": \"%s\", \"rounds\": %d, "
         "\"every\": %d, "
         "\"nodes\": %llu, \"seed\": %llu, \"calibrated\": %s,\n"
         "  \"groups\": {\n",
         mover_name, rounds, every, nodes, seed, calibrated ? "true" : "false");
  acc_print("all", &all, &ga, &gb, 0);
  acc_print("first_play_of_a_deal", &first, &ga, &gb, 0);
  acc_print("first_play_deals_1_5", &corrected, &ga, &gb, 0);
  for (int d = 0; d < DEALS; d++) {
    char name[16];
    snprintf(name, sizeof name, "deal%d", d + 1);
    acc_print(name, &deal[d], &fa[d], &fb[d], d == DEALS - 1);
  }
  printf("  }}\n");
  /* The per-deal lines as a C table, from these positions. */
  fprintf(stderr, "static const double HINT_CALIB[6][2] = {");
  for (int d = 0; d < DEALS; d++)
    fprintf(stderr, "%s{%.3f, %.3f}", d ? ", " : "", fa[d], fb[d]);
  fprintf(stderr, "};\n");
  scopa_bot_free(bot);
  scopa_bot_free(mover);
  return 0;
}
