/*
 * signals.c -- does reading the partner's signals place its cards better?
 * (docs/ai.md, "The partner's signals").  Rounds of scientifico with one
 * bot in every seat; at plays 8, 16, 24 and 32 the seat to play draws the
 * scopone worlds chain's worlds (teamworlds.c, best's model) with the
 * partner's lays read as signals at several strengths, and we count the
 * share of the partner's unseen cards, and of all unseen cards, that each
 * world puts in the hand that truly holds them.  Same seeds for every
 * strength, so the columns differ by the reading alone.
 *
 *   bench_ai_signals [--bot NAME] [--rounds N] [--seed S] [--preset P]
 *
 * With --cost MS instead: what giving the signals costs by best's own
 * values.  At every move of rounds of rules bots (all phases) best values
 * the legal moves (scopa_bot_evaluate, a node budget of MS ms); we count
 * how often ai_signal_pick plays another move than the best valued, at
 * margins 0.05, 0.1 and 0.2 points, and the value given up.
 */
#include "signals.h"
#include "heur.h"
#include "scopa.h"
#include "worlds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORLDS 96
#define NSTRENGTH 3
static const double STRENGTH[NSTRENGTH] = {0, 1.5, 3};

#define NMARGIN 3
static const double MARGIN[NMARGIN] = {0.05, 0.1, 0.2};

static int cost(const char *preset, int rounds, uint64_t seed, int ms) {
  scopa_bot *rules, *best;
  if (scopa_bot_new("rules", &rules) != SCOPA_OK ||
      scopa_bot_new("best", &best) != SCOPA_OK)
    return 2;
  scopa_rules r;
  scopa_rules_preset(&r, preset);
  long positions = 0, changed[NMARGIN] = {0}, lays[NMARGIN] = {0};
  long laying = 0, conv_best = 0, conv_pick[NMARGIN] = {0};
  double lost[NMARGIN] = {0};
  for (int k = 0; k < rounds; k++) {
    scopa_state s;
    scopa_rng rng;
    scopa_rng_seed(&rng, seed + (uint64_t)k);
    scopa_state_deal_random(&s, &r, k % 4, &rng);
    while (!scopa_state_over(&s)) {
      scopa_view v;
      scopa_move m, moves[SCOPA_MAX_MOVES];
      double values[SCOPA_MAX_MOVES];
      scopa_bot_limits l = {.nodes = (uint64_t)ms * SCOPA_BOT_NODES_PER_MS,
                            .seed = seed + (uint64_t)k};
      scopa_view_of(&s, s.to_play, NULL, &v);
      int n = scopa_bot_evaluate(best, &v, &l, moves, values, SCOPA_MAX_MOVES);
      if (n >= 2 && n <= SCOPA_MAX_MOVES && values[0] == values[0]) {
        positions++;
        /* Lays: is the lay played the most conventional of the lays? */
        double top = -1e9;
        for (int i = 0; i < n; i++)
          if (!SCOPA_MOVE_TAKES(moves[i]) && ai_signal_move(&v, moves[i]) > top)
            top = ai_signal_move(&v, moves[i]);
        int b = ai_best_index(values, n);
        int lay = !SCOPA_MOVE_TAKES(moves[b]);
        laying += lay;
        conv_best += lay && ai_signal_move(&v, moves[b]) >= top - 1e-9;
        for (int j = 0; j < NMARGIN; j++) {
          int p = ai_signal_pick(&v, moves, values, n, MARGIN[j]);
          conv_pick[j] += lay && ai_signal_move(&v, moves[p]) >= top - 1e-9;
          if (p != ai_best_index(values, n)) {
            changed[j]++;
            lays[j] += !SCOPA_MOVE_TAKES(moves[p]);
            lost[j] += values[ai_best_index(values, n)] - values[p];
          }
        }
      }
      scopa_bot_choose(rules, &v, &l, &m);
      scopa_state_play(&s, m);
    }
  }
  printf("%s, %d rounds of rules bots from seed %llu, best at %d ms of "
         "nodes: %ld positions with 2+ moves\n",
         preset, rounds, (unsigned long long)seed, ms, positions);
  printf("the best valued move is a lay in %ld; of those the most "
         "conventional lay: %.3f\n",
         laying, (double)conv_best / (double)laying);
  printf("margin | moves changed | of them lays | value given up per move "
         "(points) | conventional lays\n");
  for (int j = 0; j < NMARGIN; j++)
    printf("%.2f   | %.3f         | %.3f        | %.4f | %.3f\n", MARGIN[j],
           (double)changed[j] / (double)positions,
           changed[j] ? (double)lays[j] / (double)changed[j] : 0,
           lost[j] / (double)positions, (double)conv_pick[j] / (double)laying);
  scopa_bot_free(rules);
  scopa_bot_free(best);
  return 0;
}

int main(int argc, char **argv) {
  const char *name = "chitarrella", *preset = "scientifico";
  int rounds = 40, cost_ms = 0;
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--bot"))
      name = argv[i + 1];
    else if (!strcmp(argv[i], "--rounds"))
      rounds = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--seed"))
      seed = strtoull(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--preset"))
      preset = argv[i + 1];
    else if (!strcmp(argv[i], "--cost"))
      cost_ms = atoi(argv[i + 1]);
  }
  if (cost_ms > 0)
    return cost(preset, rounds, seed, cost_ms);
  static scopa_state w[WORLDS];
  scopa_bot *bot;
  if (scopa_bot_new(name, &bot) != SCOPA_OK)
    return 2;
  scopa_rules r;
  scopa_rules_preset(&r, preset);
  long partner[4][NSTRENGTH] = {{0}}, all[4][NSTRENGTH] = {{0}};
  long partner_n[4] = {0}, all_n[4] = {0};
  for (int k = 0; k < rounds; k++) {
    scopa_state s;
    scopa_rng rng;
    scopa_rng_seed(&rng, seed + (uint64_t)k);
    scopa_state_deal_random(&s, &r, k % 4, &rng);
    for (int phase = 0; phase < 4; phase++) {
      int at = 8 * (phase + 1);
      while (s.plays < at) {
        scopa_view v;
        scopa_move m;
        scopa_bot_limits l = {.nodes = 2 * SCOPA_BOT_NODES_PER_MS,
                              .seed = seed + (uint64_t)k};
        scopa_view_of(&s, s.to_play, NULL, &v);
        scopa_bot_choose(bot, &v, &l, &m);
        scopa_state_play(&s, m);
      }
      scopa_view v;
      scopa_view_of(&s, s.to_play, NULL, &v);
      int mate = (s.to_play + 2) % 4;
      for (int j = 0; j < NSTRENGTH; j++) {
        ai_team_model model = {0.02, 0.02, 0.3, 0.3,        WORLDS,
                               4,    400,  40,  STRENGTH[j]};
        scopa_rng_seed(&rng, 77 + (uint64_t)k * 4 + (uint64_t)phase);
        if (ai_world_infer(&v, &model, &rng, w, WORLDS, NULL) != WORLDS)
          return 3;
        for (int i = 0; i < WORLDS; i++) {
          partner[phase][j] +=
              __builtin_popcountll(w[i].hand[mate] & s.hand[mate]);
          for (int seat = 0; seat < 4; seat++)
            if (seat != s.to_play)
              all[phase][j] +=
                  __builtin_popcountll(w[i].hand[seat] & s.hand[seat]);
        }
      }
      partner_n[phase] += (long)WORLDS * __builtin_popcountll(s.hand[mate]);
      all_n[phase] += (long)WORLDS * __builtin_popcountll(v.unseen);
    }
  }
  printf("%s, %s, %d rounds from seed %llu, %d worlds: share placed right\n",
         name, preset, rounds, (unsigned long long)seed, WORLDS);
  printf("plays | partner's cards (read 0 / 1.5 / 3) | all unseen (0 / 1.5 / "
         "3)\n");
  for (int p = 0; p < 4; p++) {
    printf("%2d    |", 8 * (p + 1));
    for (int j = 0; j < NSTRENGTH; j++)
      printf(" %.3f", (double)partner[p][j] / (double)partner_n[p]);
    printf("  |");
    for (int j = 0; j < NSTRENGTH; j++)
      printf(" %.3f", (double)all[p][j] / (double)all_n[p]);
    printf("\n");
  }
  scopa_bot_free(bot);
  return 0;
}
