/*
 * arena.c -- `scopa arena` (CONTRACTS.md): two bots on duplicate deals.
 *
 * Each deal is played once per seating with the same deck and dealer: two
 * sides swap seats (A on side 0, then on side 1); with three players A
 * takes each seat in turn and B the other two.  A deal's figure is A's
 * points minus B's (B's mean over its seats), averaged over the seatings,
 * so luck of the cards cancels out.  Deal d's deck and the bots' seeds
 * come from the seed and d only: any thread count gives the same games,
 * as the bots search by node budgets (their time budget at
 * SCOPA_BOT_NODES_PER_MS nodes a ms) unless `--clock` has them keep time
 * by the wall clock.  `--games N` plays games to the target instead, sides
 * alternating.
 */
#include "cli.h"

#include "stats.h"

#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ARENA_THREADS 16
#define MAX_GAME_ROUNDS 60

typedef struct arena {
  const char *bot_name[2]; /* A, B */
  int movetime[2], bot_threads;
  int by_clock; /* --clock: wall-clock budgets; else node budgets   */
  scopa_rules rules;
  uint64_t seed;
  long count; /* deals or games */
  int games;  /* nonzero: games to the target */
  int threads;
  long next; /* next deal to play (under lock) */
  pthread_mutex_t lock;
  double *result; /* per deal: A - B; per game: 1 A won, -1 B, 0 none */
  double ms[2];   /* time spent choosing, per bot (wall clock) */
  double cpu[2];  /* the same in the choosing thread's CPU time */
  long moves[2];
  int error;
} arena;

static double clock_ms(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* Which bot (0 = A, 1 = B) plays each seat in seating k. */
static void seating(const scopa_rules *r, int k, int who[SCOPA_MAX_SEATS]) {
  int sides = scopa_rules_sides(r);
  for (int seat = 0; seat < r->players; seat++) {
    if (sides == 2)
      who[seat] = (scopa_rules_side_of(r, seat) + k) % 2;
    else
      who[seat] = seat == k ? 0 : 1;
  }
}

static int seatings(const scopa_rules *r) {
  return scopa_rules_sides(r) == 2 ? 2 : r->players;
}

/* Plays one round to the end; per-bot time and move counts go to ms/moves. */
static int play_round(scopa_state *s, scopa_bot *bots[2], const int *who,
                      const arena *a, uint64_t seed, const int *scores,
                      double ms[4], long moves[2]) {
  while (!scopa_state_over(s)) {
    int seat = scopa_state_to_play(s), b = who[seat];
    scopa_view v;
    scopa_view_of(s, seat, scores, &v);
    scopa_bot_limits l = {
        .movetime_ms = a->movetime[b],
        .seed = mix(seed ^ (uint64_t)s->plays << 8 ^ (uint64_t)seat),
        .threads = a->bot_threads};
    int budget = a->movetime[b] ? a->movetime[b] : scopa_bot_movetime(bots[b]);
    if (!a->by_clock)
      l.nodes = (uint64_t)budget * SCOPA_BOT_NODES_PER_MS;
    scopa_move m;
    double t0 = clock_ms(CLOCK_MONOTONIC),
           c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
    int rc = scopa_bot_choose(bots[b], &v, &l, &m);
    ms[b] += clock_ms(CLOCK_MONOTONIC) - t0;
    ms[2 + b] += clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
    moves[b]++;
    if (rc != SCOPA_OK || scopa_state_apply(s, m, NULL, 0) != SCOPA_OK)
      return -1;
  }
  return 0;
}

/* A's points minus B's in a scored round under a seating. */
static double round_diff(const scopa_score *sc, const scopa_rules *r,
                         const int *who) {
  double pts[2] = {0, 0};
  int count[2] = {0, 0};
  for (int seat = 0; seat < r->players; seat++) {
    int side = scopa_rules_side_of(r, seat);
    if (r->teams && seat >= 2)
      continue; /* a team's points once */
    pts[who[seat]] += sc->side[side].total;
    count[who[seat]]++;
  }
  return pts[0] / count[0] - pts[1] / count[1];
}

static double play_deal(arena *a, scopa_bot *bots[2], long d, double ms[4],
                        long moves[2]) {
  scopa_rng rng;
  scopa_rng_seed(&rng, mix(a->seed ^ mix((uint64_t)d)));
  scopa_state deal, s;
  scopa_state_deal_random(&deal, &a->rules, (int)(d % a->rules.players), &rng);
  double sum = 0;
  int k_count = seatings(&a->rules);
  for (int k = 0; k < k_count; k++) {
    int who[SCOPA_MAX_SEATS];
    seating(&a->rules, k, who);
    s = deal;
    scopa_score sc;
    if (play_round(&s, bots, who, a, mix(a->seed + (uint64_t)d * 7 + k), NULL,
                   ms, moves) ||
        scopa_state_score(&s, &sc))
      return a->error = 1, 0;
    sum += round_diff(&sc, &a->rules, who);
  }
  return sum / k_count;
}

/* One game to the target: +1 A wins, -1 B wins, 0 unfinished. */
static double play_game(arena *a, scopa_bot *bots[2], long g, double ms[4],
                        long moves[2]) {
  scopa_rng rng;
  scopa_rng_seed(&rng, mix(a->seed ^ mix((uint64_t)g + 77)));
  int who[SCOPA_MAX_SEATS];
  seating(&a->rules, (int)(g % seatings(&a->rules)), who);
  scopa_game game;
  scopa_game_init(&game, &a->rules, (int)(g % a->rules.players));
  for (int r = 0; r < MAX_GAME_ROUNDS && !game.finished; r++) {
    scopa_state s;
    scopa_score sc;
    scopa_state_deal_random(&s, &a->rules, game.dealer, &rng);
    if (play_round(&s, bots, who, a, mix(a->seed ^ (uint64_t)g << 20 ^ r),
                   game.totals, ms, moves) ||
        scopa_state_score(&s, &sc) || scopa_game_add(&game, &sc))
      return a->error = 1, 0;
  }
  if (!game.finished || game.winner < 0)
    return 0;
  for (int seat = 0; seat < a->rules.players; seat++)
    if (scopa_rules_side_of(&a->rules, seat) == game.winner)
      return who[seat] == 0 ? 1 : -1;
  return 0;
}

static void *worker(void *arg) {
  arena *a = arg;
  scopa_bot *bots[2] = {NULL, NULL};
  double ms[4] = {0, 0, 0, 0};
  long moves[2] = {0, 0};
  if (scopa_bot_new(a->bot_name[0], &bots[0]) ||
      scopa_bot_new(a->bot_name[1], &bots[1])) {
    a->error = 1;
    goto done;
  }
  for (;;) {
    pthread_mutex_lock(&a->lock);
    long d = a->next < a->count && !a->error ? a->next++ : -1;
    pthread_mutex_unlock(&a->lock);
    if (d < 0)
      break;
    a->result[d] = a->games ? play_game(a, bots, d, ms, moves)
                            : play_deal(a, bots, d, ms, moves);
  }
done:
  pthread_mutex_lock(&a->lock);
  for (int b = 0; b < 2; b++) {
    a->ms[b] += ms[b];
    a->cpu[b] += ms[2 + b];
    a->moves[b] += moves[b];
  }
  pthread_mutex_unlock(&a->lock);
  scopa_bot_free(bots[0]);
  scopa_bot_free(bots[1]);
  return NULL;
}

/* ---- options ---------------------------------------------------------- */

/* --rules FILE: a rules object as in a record (RULES.md), read by the
 * library's own reader, so the arena and records agree on every option. */
static int read_rules(const char *path, scopa_rules *rules, char *msg,
                      size_t msgsize) {
  size_t len;
  char *text = cli_read_file(path, &len);
  if (!text) {
    snprintf(msg, msgsize, "cannot read %s", path);
    return SCOPA_EIO;
  }
  char why[200];
  int rc = scopa_rules_from_json(rules, text, len, why, sizeof why);
  free(text);
  if (rc != SCOPA_OK)
    snprintf(msg, msgsize, "%s: %s", path, why);
  return rc;
}

static int usage(void) {
  fprintf(stderr,
          "usage: scopa arena --a BOT --b BOT (--deals N | --games N)\n"
          "                   [--rules FILE] [--preset NAME] [--seed S]\n"
          "                   [--threads T] [--bot-threads T] [--movetime MS]\n"
          "                   [--movetime-a MS] [--movetime-b MS] [--clock]\n"
          "                   [--json]\n"
          "  --rules FILE   a rules object as in a record (JSON)\n"
          "  --preset NAME  scopa, scopone, scientifico, assi, quindici\n"
          "                 (the last of --rules and --preset decides)\n"
          "  --clock        bots keep their movetime by the wall clock (moves\n"
          "                 then depend on the machine and its load); by\n"
          "                 default it is a node budget and only the seed\n"
          "                 decides the games\n");
  return 2;
}

static int parse(arena *a, int argc, char **argv, int *json) {
  char msg[256] = "";
  scopa_rules_init(&a->rules);
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(o, "--json") == 0) {
      *json = 1;
      continue;
    }
    if (strcmp(o, "--clock") == 0) {
      a->by_clock = 1;
      continue;
    }
    if (!v)
      return usage();
    i++;
    if (strcmp(o, "--a") == 0)
      a->bot_name[0] = v;
    else if (strcmp(o, "--b") == 0)
      a->bot_name[1] = v;
    else if (strcmp(o, "--deals") == 0 || strcmp(o, "--games") == 0) {
      a->count = atol(v);
      a->games = o[2] == 'g';
    } else if (strcmp(o, "--seed") == 0)
      a->seed = strtoull(v, NULL, 10);
    else if (strcmp(o, "--threads") == 0)
      a->threads = atoi(v);
    else if (strcmp(o, "--bot-threads") == 0)
      a->bot_threads = atoi(v);
    else if (strcmp(o, "--movetime") == 0)
      a->movetime[0] = a->movetime[1] = atoi(v);
    else if (strcmp(o, "--movetime-a") == 0)
      a->movetime[0] = atoi(v);
    else if (strcmp(o, "--movetime-b") == 0)
      a->movetime[1] = atoi(v);
    else if (strcmp(o, "--preset") == 0) {
      if (scopa_rules_preset(&a->rules, v) != SCOPA_OK) {
        fprintf(stderr, "scopa arena: unknown preset %s\n", v);
        return 2;
      }
    } else if (strcmp(o, "--rules") == 0) {
      if (read_rules(v, &a->rules, msg, sizeof msg) != SCOPA_OK) {
        fprintf(stderr, "scopa arena: %s\n", msg);
        return 2;
      }
    } else
      return usage();
  }
  if (!a->bot_name[0] || !a->bot_name[1] || a->count <= 0)
    return usage();
  for (int b = 0; b < 2; b++)
    if (!scopa_bot_describe(a->bot_name[b])) {
      fprintf(stderr, "scopa arena: unknown bot %s\n", a->bot_name[b]);
      return 2;
    }
  if (scopa_rules_check(&a->rules, msg, sizeof msg) != SCOPA_OK) {
    fprintf(stderr, "scopa arena: %s\n", msg);
    return 2;
  }
  if (a->threads < 1)
    a->threads = 1;
  if (a->threads > MAX_ARENA_THREADS)
    a->threads = MAX_ARENA_THREADS;
  return 0;
}

static void report(const arena *a, int json) {
  cli_stats st = {0}, won = {0};
  long wins[3] = {0, 0, 0}; /* A, B, unfinished */
  for (long i = 0; i < a->count; i++) {
    cli_stats_add(&st, a->result[i]);
    cli_stats_add(&won, a->result[i] > 0);
    wins[a->result[i] > 0 ? 0 : a->result[i] < 0 ? 1 : 2]++;
  }
  double msa = a->moves[0] ? a->ms[0] / a->moves[0] : 0;
  double msb = a->moves[1] ? a->ms[1] / a->moves[1] : 0;
  if (json && a->games)
    printf("{\"a\": \"%s\", \"b\": \"%s\", \"games\": %ld, \"a_wins\": %ld, "
           "\"b_wins\": %ld, \"unfinished\": %ld, \"a_win_rate\": %.4f, "
           "\"ci95\": %.4f, ",
           a->bot_name[0], a->bot_name[1], a->count, wins[0], wins[1], wins[2],
           won.mean, cli_stats_ci95(&won));
  else if (json)
    printf("{\"a\": \"%s\", \"b\": \"%s\", \"deals\": %ld, \"diff\": %.4f, "
           "\"ci95\": %.4f, \"sd\": %.4f, ",
           a->bot_name[0], a->bot_name[1], a->count, st.mean,
           cli_stats_ci95(&st), cli_stats_sd(&st));
  if (json) {
    printf("\"a_ms_per_move\": %.3f, \"b_ms_per_move\": %.3f, "
           "\"a_cpu_ms_per_move\": %.3f, \"b_cpu_ms_per_move\": %.3f, "
           "\"threads\": %d, \"bot_threads\": %d, \"budget\": \"%s\", "
           "\"seed\": %llu}\n",
           msa, msb, a->moves[0] ? a->cpu[0] / a->moves[0] : 0,
           a->moves[1] ? a->cpu[1] / a->moves[1] : 0, a->threads,
           a->bot_threads < 1 ? 1 : a->bot_threads,
           a->by_clock ? "clock" : "nodes", (unsigned long long)a->seed);
    return;
  }
  if (a->games)
    printf("%s vs %s: %ld games, %s won %ld, %s won %ld, %ld unfinished\n",
           a->bot_name[0], a->bot_name[1], a->count, a->bot_name[0], wins[0],
           a->bot_name[1], wins[1], wins[2]);
  else
    printf("%s vs %s: %+.3f +- %.3f points per deal over %ld duplicate "
           "deals\n",
           a->bot_name[0], a->bot_name[1], st.mean, cli_stats_ci95(&st),
           a->count);
  printf("ms per move: %s %.3f, %s %.3f; %d thread(s)\n", a->bot_name[0], msa,
         a->bot_name[1], msb, a->threads);
}

int cli_arena(int argc, char **argv) {
  arena a;
  memset(&a, 0, sizeof a);
  int json = 0, rc = parse(&a, argc, argv, &json);
  if (rc)
    return rc;
  a.result = calloc((size_t)a.count, sizeof *a.result);
  if (!a.result)
    return 1;
  pthread_mutex_init(&a.lock, NULL);
  pthread_t tid[MAX_ARENA_THREADS];
  for (int t = 1; t < a.threads; t++)
    pthread_create(&tid[t], NULL, worker, &a);
  worker(&a);
  for (int t = 1; t < a.threads; t++)
    pthread_join(tid[t], NULL);
  pthread_mutex_destroy(&a.lock);
  if (a.error) {
    fprintf(stderr, "scopa arena: a bot failed to move\n");
    free(a.result);
    return 1;
  }
  report(&a, json);
  free(a.result);
  return 0;
}
