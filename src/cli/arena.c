/*
 * arena.c -- `scopa arena` (CONTRACTS.md): two bots on duplicate deals.
 *
 * Each deal is played once per seating with the same deck and dealer: two
 * sides swap seats (A on side 0, then on side 1); with three players A
 * takes each seat in turn and B the other two.  A deal's figure is A's
 * points minus B's (B's mean over its seats), averaged over the seatings,
 * so luck of the cards cancels out.  Deal d is the first round of a game
 * (scopa_match) whose seed comes from the arena's seed and d only, and the
 * bots' seeds from the game's: any thread count gives the same games, as
 * the bots search by node budgets (their time budget at
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

/* Which bot (0 = A, 1 = B) plays each seat in seating k: with two sides
 * A plays side k; with more, A plays every seat of side k and B the
 * others, so each side is A's once. */
static void seating(const scopa_rules *r, int k, int who[SCOPA_MAX_SEATS]) {
  int sides = scopa_rules_sides(r);
  for (int seat = 0; seat < r->players; seat++) {
    if (sides == 2)
      who[seat] = (scopa_rules_side_of(r, seat) + k) % 2;
    else
      who[seat] = scopa_rules_side_of(r, seat) == k ? 0 : 1;
  }
}

static int seatings(const scopa_rules *r) { return scopa_rules_sides(r); }

/* Plays the match's round in play to its end; per-bot time and move
 * counts go to ms/moves, and the last move's event (the round's score,
 * the game's end) to *end. */
static int play_round(scopa_match *m, scopa_bot *bots[2], const int *who,
                      const arena *a, uint64_t salt, double ms[4],
                      long moves[2], scopa_event *end) {
  while (scopa_match_phase(m) == SCOPA_MATCH_PLAY) {
    int seat = scopa_match_to_play(m), b = who[seat];
    scopa_view v;
    scopa_match_view(m, seat, &v);
    scopa_bot_limits l = {.movetime_ms = a->movetime[b],
                          .seed = mix(scopa_match_bot_seed(m) ^ salt),
                          .threads = a->bot_threads};
    int budget = a->movetime[b] ? a->movetime[b] : scopa_bot_movetime(bots[b]);
    if (!a->by_clock)
      l.nodes = (uint64_t)budget * SCOPA_BOT_NODES_PER_MS;
    scopa_move mv;
    double t0 = clock_ms(CLOCK_MONOTONIC),
           c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
    int rc = scopa_bot_choose(bots[b], &v, &l, &mv);
    ms[b] += clock_ms(CLOCK_MONOTONIC) - t0;
    ms[2 + b] += clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
    moves[b]++;
    if (rc != SCOPA_OK || scopa_match_apply(m, mv, end, NULL, 0) != SCOPA_OK)
      return -1;
  }
  return 0;
}

/* A's points minus B's in a scored round under a seating. */
static double round_diff(const scopa_score *sc, const scopa_rules *r,
                         const int *who) {
  double pts[2] = {0, 0};
  int count[2] = {0, 0};
  int sides = scopa_rules_sides(r);
  for (int seat = 0; seat < r->players; seat++) {
    int side = scopa_rules_side_of(r, seat);
    if (seat >= sides)
      continue; /* a team's points once: seats 0..sides-1 are each side */
    pts[who[seat]] += sc->side[side].total;
    count[who[seat]]++;
  }
  return pts[0] / count[0] - pts[1] / count[1];
}

/* The game of deal or game number n: its seed follows from the arena's
 * seed and n alone, and seat n % players deals first. */
static scopa_match *new_match(const arena *a, long n, uint64_t salt) {
  char seed[SCOPA_SEED_TEXT];
  scopa_match *m = NULL;
  snprintf(seed, sizeof seed, "%016llx",
           (unsigned long long)mix(a->seed ^ mix((uint64_t)n + salt)));
  if (scopa_match_new(&a->rules, NULL, seed, &m, NULL, 0) != SCOPA_OK)
    return NULL;
  scopa_match_set_first_dealer(m, (int)(n % a->rules.players));
  return m;
}

static double play_deal(arena *a, scopa_bot *bots[2], long d, double ms[4],
                        long moves[2]) {
  scopa_match *deal = new_match(a, d, 0), *m = NULL;
  double sum = 0;
  int k_count = seatings(&a->rules);
  if (!deal || scopa_match_deal(deal, NULL) != SCOPA_OK)
    goto fail;
  for (int k = 0; k < k_count; k++) {
    int who[SCOPA_MAX_SEATS];
    scopa_event end;
    seating(&a->rules, k, who);
    if (scopa_match_copy(deal, &m) != SCOPA_OK ||
        play_round(m, bots, who, a, (uint64_t)k, ms, moves, &end) ||
        !end.round_over)
      goto fail;
    sum += round_diff(&end.score, &a->rules, who);
    scopa_match_free(m);
    m = NULL;
  }
  scopa_match_free(deal);
  return sum / k_count;
fail:
  scopa_match_free(m);
  scopa_match_free(deal);
  return a->error = 1, 0;
}

/* One game to the target: +1 A wins, -1 B wins, 0 unfinished. */
static double play_game(arena *a, scopa_bot *bots[2], long g, double ms[4],
                        long moves[2]) {
  int who[SCOPA_MAX_SEATS];
  seating(&a->rules, (int)(g % seatings(&a->rules)), who);
  scopa_match *m = new_match(a, g, 77);
  if (!m)
    return a->error = 1, 0;
  for (int r = 0; r < MAX_GAME_ROUNDS; r++) {
    scopa_event end;
    if (scopa_match_deal(m, NULL) != SCOPA_OK)
      break; /* the game is over */
    if (play_round(m, bots, who, a, 0, ms, moves, &end)) {
      scopa_match_free(m);
      return a->error = 1, 0;
    }
  }
  const scopa_game *game = scopa_match_game(m);
  double result = 0;
  for (int seat = 0; game->finished && game->winner >= 0 &&
                     seat < a->rules.players;
       seat++)
    if (scopa_rules_side_of(&a->rules, seat) == game->winner) {
      result = who[seat] == 0 ? 1 : -1;
      break;
    }
  scopa_match_free(m);
  return result;
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
          "  --preset NAME  scopa, scopone, scientifico, assi, quindici,\n"
          "                 escoba, trentuno, perdere\n"
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
    /* "gain": A's advantage per deal, which is -diff under lowest_wins
     * (Scopa a perdere: points are what a side tries not to take). */
    printf("{\"a\": \"%s\", \"b\": \"%s\", \"deals\": %ld, \"diff\": %.4f, "
           "\"ci95\": %.4f, \"sd\": %.4f, \"gain\": %.4f, ",
           a->bot_name[0], a->bot_name[1], a->count, st.mean,
           cli_stats_ci95(&st), cli_stats_sd(&st),
           a->rules.lowest_wins ? -st.mean : st.mean);
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
           "deals%s\n",
           a->bot_name[0], a->bot_name[1], st.mean, cli_stats_ci95(&st),
           a->count,
           a->rules.lowest_wins ? " (lowest_wins: fewer is better)" : "");
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
