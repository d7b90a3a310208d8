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
 * by the wall clock.  `--games N` plays games to the target instead:
 * duplicate games too, one per seating with the same seed and first
 * dealer, so each side deals first in its share of them.
 *
 * `--shard I/N` plays only the deals (games) d with d % N == I, with the
 * same seeds as the whole run; the JSON then carries exact sums (deal
 * figures times ARENA_SCALE are integers) so that `--merge A.json ...`
 * adds shards from any machines up to the very figures of the whole run:
 * both paths report from the same integer tally (see report()).
 */
#include "cli.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ARENA_THREADS 16
#define MAX_GAME_ROUNDS 60
/* Every deal figure times this is an integer: a figure is a mean over at
 * most 6 seatings of a difference with B's points a mean over at most 5
 * seats. */
#define ARENA_SCALE 360

/* What a run (or a shard of it) adds up; merging adds these field by
 * field, so a merged report equals the whole run's. */
typedef struct arena_tally {
  long n;              /* deals or games played */
  long long sum, sum2; /* sum of figure * ARENA_SCALE, and of its square */
  long wins[3]; /* A, B, unfinished (games) or none (deals: A>0, B<0, 0) */
  double ms[2], cpu[2]; /* time choosing, per bot */
  long moves[2];
} arena_tally;

typedef struct arena {
  const char *bot_name[2]; /* A, B */
  int movetime[2], bot_threads;
  int by_clock; /* --clock: wall-clock budgets; else node budgets   */
  scopa_rules rules;
  uint64_t seed;
  long count; /* deals or games */
  int games;  /* nonzero: games to the target */
  int threads;
  long shard, shards; /* play d with d % shards == shard (1 shard: all) */
  long next;          /* next deal to play (under lock) */
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
    if (!a->by_clock)
      l.nodes = (uint64_t)a->movetime[b] * SCOPA_BOT_NODES_PER_MS;
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
  /* Games come in sets of one per seating, all with the same seed and
   * first dealer (game set p = g / seatings, dealer seat p % players):
   * duplicate games, the same decks round by round, and A's side deals
   * first in one game of each set, not always (in plain scopone the side
   * that deals first loses some 60% of mirror games). */
  int who[SCOPA_MAX_SEATS], k_count = seatings(&a->rules);
  seating(&a->rules, (int)(g % k_count), who);
  scopa_match *m = new_match(a, g / k_count, 77);
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
  const scopa_tally *game = scopa_match_tally(m);
  double result = 0;
  for (int seat = 0;
       game->finished && game->winner >= 0 && seat < a->rules.players; seat++)
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
    long d = -1;
    while (a->next < a->count && !a->error && d < 0) {
      d = a->next++;
      if (d % a->shards != a->shard)
        d = -1;
    }
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
  char *text, why[300];
  int rc = scopa_record_read_file(path, &text, &len, why, sizeof why);
  if (rc != SCOPA_OK) {
    snprintf(msg, msgsize, "--rules: %s", why);
    return rc;
  }
  rc = scopa_rules_from_json(rules, text, len, NULL, why, sizeof why);
  scopa_free(text);
  if (rc != SCOPA_OK) {
    char shown[200];
    snprintf(msg, msgsize, "--rules %s: %s",
             cli_shown(path, shown, sizeof shown), why);
  }
  return rc;
}

static const char USAGE[] =
    "usage: scopa arena --a BOT --b BOT (--deals N | --games N)\n"
    "                   [--rules FILE] [--preset NAME] [--seed S]\n"
    "                   [--threads T] [--bot-threads T] [--movetime MS]\n"
    "                   [--movetime-a MS] [--movetime-b MS] [--clock]\n"
    "                   [--shard I/N] [--json]\n"
    "       scopa arena --merge [--json] SHARD.json...\n"
    "  --a, --b BOT   the two bots, as `scopa --help` lists them; the\n"
    "                 research bots (docs/research.md) play in\n"
    "                 `scopa-research arena`\n"
    "  --deals N      duplicate deals to play (1 to 10000000)\n"
    "  --games N      or whole games to the target (1 to 10000000)\n"
    "  --rules FILE   a rules object as in a record (JSON)\n"
    "  --preset NAME  scopa, scopone, scientifico, assi, quindici,\n"
    "                 escoba, trentuno, perdere\n"
    "                 (the last of --rules and --preset decides)\n"
    "  --threads T    games played at once (up to 16 are used)\n"
    "  --clock        bots keep their movetime by the wall clock (moves\n"
    "                 then depend on the machine and its load); by\n"
    "                 default it is a node budget and only the seed\n"
    "                 decides the games\n"
    "  --shard I/N    play only deals (games) d with d %% N == I, same\n"
    "                 seeds as the whole run; print with --json and add\n"
    "                 the shards up with --merge\n";

/* A usage error: what is wrong in one line, and where to read more. */
static int usage_error(const char *what, const char *arg) {
  char shown[80];
  fprintf(stderr, "scopa arena: %s%s%s (scopa arena --help)\n", what,
          arg ? " " : "", arg ? cli_shown(arg, shown, sizeof shown) : "");
  return 2;
}

#define MAX_COUNT 10000000

/* The usage, for --help and for --merge without files. */
static int usage(void) {
  fputs(USAGE, stderr);
  return 2;
}

/* "I/N" with 0 <= I < N: the shard of a run. */
static int parse_shard(const char *v, long *shard, long *shards) {
  char *end;
  long i = strtol(v, &end, 10);
  if (end == v || *end != '/')
    return -1;
  const char *w = end + 1;
  long n = strtol(w, &end, 10);
  if (end == w || *end || n < 1 || i < 0 || i >= n)
    return -1;
  *shard = i;
  *shards = n;
  return 0;
}

/* One numeric flag into *out (an int or a long). */
static int number_flag(const char *o, const char *v, long long min,
                       long long max, long long *out) {
  return cli_int("arena", o, v, min, max, out);
}

/* One flag and its value; returns 0 or the exit status. */
static int one_flag(arena *a, const char *o, const char *v, char *msg,
                    size_t msgsize) {
  long long n = 0;
  int rc = 0;
  if (strcmp(o, "--a") == 0 || strcmp(o, "--b") == 0) {
    a->bot_name[o[2] == 'b'] = v;
  } else if (strcmp(o, "--deals") == 0 || strcmp(o, "--games") == 0) {
    if (!(rc = number_flag(o, v, 1, MAX_COUNT, &n)))
      a->count = (long)n, a->games = o[2] == 'g';
  } else if (strcmp(o, "--seed") == 0) {
    if (!(rc = number_flag(o, v, 0, LLONG_MAX, &n)))
      a->seed = (uint64_t)n;
  } else if (strcmp(o, "--threads") == 0) {
    if (!(rc = number_flag(o, v, 0, 1024, &n)))
      a->threads = (int)n;
  } else if (strcmp(o, "--bot-threads") == 0) {
    if (!(rc = number_flag(o, v, 0, 64, &n)))
      a->bot_threads = (int)n;
  } else if (strcmp(o, "--movetime") == 0 || strcmp(o, "--movetime-a") == 0 ||
             strcmp(o, "--movetime-b") == 0) {
    /* --movetime sets both bots, --movetime-a and --movetime-b one. */
    if (!(rc = number_flag(o, v, 0, 600000, &n))) {
      if (strcmp(o, "--movetime-b") != 0)
        a->movetime[0] = (int)n;
      if (strcmp(o, "--movetime-a") != 0)
        a->movetime[1] = (int)n;
    }
  } else if (strcmp(o, "--shard") == 0) {
    if (parse_shard(v, &a->shard, &a->shards))
      return usage_error("--shard wants I/N with 0 <= I < N, not", v);
  } else if (strcmp(o, "--preset") == 0) {
    if (scopa_rules_preset(&a->rules, v) != SCOPA_OK)
      return usage_error("unknown --preset (scopa, scopone, scientifico, "
                         "assi, quindici, escoba, trentuno, perdere):",
                         v);
  } else if (strcmp(o, "--rules") == 0) {
    if (read_rules(v, &a->rules, msg, msgsize) != SCOPA_OK) {
      fprintf(stderr, "scopa arena: %s\n", msg);
      return 2;
    }
  } else {
    return usage_error("unknown option", o);
  }
  return rc;
}

static int parse(arena *a, int argc, char **argv, int *json) {
  char msg[512] = "";
  scopa_rules_init(&a->rules);
  a->shards = 1;
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
    if (strcmp(o, "--help") == 0) {
      fputs(USAGE, stdout);
      return -1;
    }
    if (strncmp(o, "--", 2) != 0)
      return usage_error("unexpected argument", o);
    if (!v)
      return usage_error("a value must follow", o);
    i++;
    int rc = one_flag(a, o, v, msg, sizeof msg);
    if (rc)
      return rc;
  }
  if (!a->bot_name[0] || !a->bot_name[1])
    return usage_error("--a BOT and --b BOT name the two bots", NULL);
  if (a->count <= 0)
    return usage_error("--deals N or --games N says how much to play", NULL);
  for (int b = 0; b < 2; b++) {
    scopa_bot *bot;
    if (!scopa_bot_describe(a->bot_name[b]) ||
        scopa_bot_new(a->bot_name[b], &bot) != SCOPA_OK)
      return usage_error(b ? "unknown bot for --b:" : "unknown bot for --a:",
                         a->bot_name[b]);
    if (!a->movetime[b]) /* the bot's own default, reported as such */
      a->movetime[b] = scopa_bot_movetime(bot);
    scopa_bot_free(bot);
  }
  if (scopa_rules_check(&a->rules, NULL, msg, sizeof msg) != SCOPA_OK) {
    fprintf(stderr, "scopa arena: %s\n", msg);
    return 2;
  }
  if (a->threads < 1)
    a->threads = 1;
  if (a->threads > MAX_ARENA_THREADS)
    a->threads = MAX_ARENA_THREADS;
  return 0;
}

/* What a run reports besides its tally; a merge reads it from the shards. */
typedef struct arena_head {
  const char *a, *b;
  int games, threads, bot_threads, by_clock;
  int movetime[2]; /* each bot's budget, ms (--movetime-a/-b or its own) */
  int lowest_wins; /* Scopa a perdere: A's gain is -diff */
  long count;      /* the whole run's deals or games */
  unsigned long long seed;
} arena_head;

static arena_tally tally_of(const arena *a) {
  arena_tally t;
  memset(&t, 0, sizeof t);
  for (long d = a->shard; d < a->count; d += a->shards) {
    long long x = llround(a->result[d] * ARENA_SCALE);
    t.n++;
    t.sum += x;
    t.sum2 += x * x;
    t.wins[x > 0 ? 0 : x < 0 ? 1 : 2]++;
  }
  for (int b = 0; b < 2; b++) {
    t.ms[b] = a->ms[b];
    t.cpu[b] = a->cpu[b];
    t.moves[b] = a->moves[b];
  }
  return t;
}

/* Mean, sample sd and 95% half-width of the figures (or of the 0/1 wins
 * with `wins`), from integers only: any order of adding gives the same. */
static void tally_stats(const arena_tally *t, int wins, double *mean,
                        double *sd, double *ci) {
  double n = (double)t->n, s, s2;
  if (wins)
    s = s2 = (double)t->wins[0];
  else {
    s = (double)t->sum / ARENA_SCALE;
    s2 = (double)t->sum2 / ((double)ARENA_SCALE * ARENA_SCALE);
  }
  *mean = t->n ? s / n : 0;
  double var = t->n > 1 ? (s2 - s * s / n) / (n - 1) : 0;
  *sd = var > 0 ? sqrt(var) : 0;
  *ci = t->n > 1 ? 1.96 * *sd / sqrt(n) : 0;
}

static double per_move(double ms, long moves) {
  return moves ? ms / (double)moves : 0;
}

/* The exact sums a merge adds, and which part of the run this is. */
static void print_sums(const arena_head *h, const arena_tally *t, long shard,
                       long shards) {
  printf(", \"shard\": {\"index\": %ld, \"of\": %ld, \"count\": %ld}, "
         "\"sums\": {\"scale\": %d, \"n\": %ld, \"sum\": %lld, \"sum2\": %lld, "
         "\"wins\": [%ld, %ld, %ld], \"ms\": [%.6f, %.6f], "
         "\"cpu_ms\": [%.6f, %.6f], \"moves\": [%ld, %ld]}",
         shard, shards, h->count, ARENA_SCALE, t->n, t->sum, t->sum2,
         t->wins[0], t->wins[1], t->wins[2], t->ms[0], t->ms[1], t->cpu[0],
         t->cpu[1], t->moves[0], t->moves[1]);
}

static void report(const arena_head *h, const arena_tally *t, int json,
                   const char *rules_json, long shard, long shards) {
  double mean, sd, ci, rate, rsd, rci;
  tally_stats(t, 0, &mean, &sd, &ci);
  tally_stats(t, 1, &rate, &rsd, &rci);
  double msa = per_move(t->ms[0], t->moves[0]);
  double msb = per_move(t->ms[1], t->moves[1]);
  if (json && h->games)
    printf("{\"a\": \"%s\", \"b\": \"%s\", \"games\": %ld, \"a_wins\": %ld, "
           "\"b_wins\": %ld, \"unfinished\": %ld, \"a_win_rate\": %.4f, "
           "\"ci95\": %.4f, ",
           h->a, h->b, t->n, t->wins[0], t->wins[1], t->wins[2], rate, rci);
  else if (json)
    /* "gain": A's advantage per deal, which is -diff under lowest_wins
     * (Scopa a perdere: points are what a side tries not to take). */
    printf("{\"a\": \"%s\", \"b\": \"%s\", \"deals\": %ld, \"diff\": %.4f, "
           "\"ci95\": %.4f, \"sd\": %.4f, \"gain\": %.4f, ",
           h->a, h->b, t->n, mean, ci, sd, h->lowest_wins ? -mean : mean);
  if (json) {
    printf("\"a_ms_per_move\": %.3f, \"b_ms_per_move\": %.3f, "
           "\"a_cpu_ms_per_move\": %.3f, \"b_cpu_ms_per_move\": %.3f, "
           "\"threads\": %d, \"bot_threads\": %d, \"budget\": \"%s\", "
           "\"movetime_ms\": [%d, %d], \"seed\": %llu",
           msa, msb, per_move(t->cpu[0], t->moves[0]),
           per_move(t->cpu[1], t->moves[1]), h->threads,
           h->bot_threads < 1 ? 1 : h->bot_threads,
           h->by_clock ? "clock" : "nodes", h->movetime[0], h->movetime[1],
           h->seed);
    if (rules_json)
      printf(", \"rules\": %s", rules_json);
    print_sums(h, t, shard, shards);
    printf("}\n");
    return;
  }
  if (h->games)
    printf("%s vs %s: %ld games, %s won %ld, %s won %ld, %ld unfinished\n",
           h->a, h->b, t->n, h->a, t->wins[0], h->b, t->wins[1], t->wins[2]);
  else
    printf("%s vs %s: %+.3f +- %.3f points per deal over %ld duplicate "
           "deals%s\n",
           h->a, h->b, mean, ci, t->n,
           h->lowest_wins ? " (lowest_wins: fewer is better)" : "");
  printf("ms per move: %s %.3f, %s %.3f; budgets %d and %d ms by the %s; "
         "%d thread(s)\n",
         h->a, msa, h->b, msb, h->movetime[0], h->movetime[1],
         h->by_clock ? "clock" : "node count", h->threads);
}

/* ---- --merge ----------------------------------------------------------- */

static int merge_fail(const char *path, const char *why) {
  fprintf(stderr, "scopa arena --merge: %s: %s\n", path, why);
  return 1;
}

/* The fields of one shard that must agree with the first one's. */
static int same_run(json_t *first, json_t *o) {
  static const char *keys[] = {"a",           "b",    "budget",
                               "movetime_ms", "seed", "rules"};
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
    if (!json_equal(json_object_get(first, keys[k]),
                    json_object_get(o, keys[k])))
      return 0;
  return json_equal(json_object_get(json_object_get(first, "shard"), "of"),
                    json_object_get(json_object_get(o, "shard"), "of")) &&
         json_equal(json_object_get(json_object_get(first, "shard"), "count"),
                    json_object_get(json_object_get(o, "shard"), "count")) &&
         !json_object_get(first, "games") == !json_object_get(o, "games");
}

/* Adds one shard's sums to t; marks its index in seen. */
static int add_shard(json_t *o, arena_tally *t, char *seen, long shards) {
  json_t *s = json_object_get(o, "sums");
  long long idx =
      json_integer_value(json_object_get(json_object_get(o, "shard"), "index"));
  json_int_t n, sum, sum2, scale, w0, w1, w2, m0, m1;
  double ms0, ms1, c0, c1;
  if (!s ||
      json_unpack(s,
                  "{s:I, s:I, s:I, s:I, s:[III], s:[FF], s:[FF], "
                  "s:[II]}",
                  "scale", &scale, "n", &n, "sum", &sum, "sum2", &sum2, "wins",
                  &w0, &w1, &w2, "ms", &ms0, &ms1, "cpu_ms", &c0, &c1, "moves",
                  &m0, &m1) ||
      scale != ARENA_SCALE || idx < 0 || idx >= shards)
    return -1;
  if (seen[idx])
    return -2;
  seen[idx] = 1;
  t->n += (long)n;
  t->sum += sum;
  t->sum2 += sum2;
  t->wins[0] += (long)w0;
  t->wins[1] += (long)w1;
  t->wins[2] += (long)w2;
  t->ms[0] += ms0;
  t->ms[1] += ms1;
  t->cpu[0] += c0;
  t->cpu[1] += c1;
  t->moves[0] += (long)m0;
  t->moves[1] += (long)m1;
  return 0;
}

static int cli_arena_merge(int argc, char **argv) {
  int json = 0, files = 0, rc = 1;
  json_t *loaded[256], *first = NULL;
  arena_tally t;
  memset(&t, 0, sizeof t);
  char *seen = NULL;
  long shards = 0;
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
      continue;
    }
    if (files == 256) {
      fprintf(stderr, "scopa arena --merge: at most 256 shards\n");
      goto done;
    }
    json_error_t err;
    json_t *o = json_load_file(argv[i], 0, &err);
    if (!json_is_object(o) || !json_object_get(o, "sums")) {
      json_decref(o);
      merge_fail(argv[i], o ? "not an arena --json result" : err.text);
      goto done;
    }
    loaded[files++] = o;
    if (!first) {
      first = o;
      shards = (long)json_integer_value(
          json_object_get(json_object_get(o, "shard"), "of"));
      if (shards < 1 || !(seen = calloc((size_t)shards, 1))) {
        merge_fail(argv[i], "bad shard count");
        goto done;
      }
    }
    if (!same_run(first, o)) {
      merge_fail(argv[i], "not a shard of the same run as the first file");
      goto done;
    }
    int r = add_shard(o, &t, seen, shards);
    if (r) {
      merge_fail(argv[i], r == -2 ? "the same shard twice" : "bad sums");
      goto done;
    }
  }
  if (!first) {
    usage();
    rc = 2;
    goto done;
  }
  for (long i = 0; i < shards; i++)
    if (!seen[i]) {
      fprintf(stderr, "scopa arena --merge: shard %ld/%ld is missing\n", i,
              shards);
      goto done;
    }
  arena_head h = {
      .a = json_string_value(json_object_get(first, "a")),
      .b = json_string_value(json_object_get(first, "b")),
      .games = json_object_get(first, "games") != NULL,
      .threads = (int)json_integer_value(json_object_get(first, "threads")),
      .bot_threads =
          (int)json_integer_value(json_object_get(first, "bot_threads")),
      .by_clock =
          strcmp(json_string_value(json_object_get(first, "budget"))
                     ? json_string_value(json_object_get(first, "budget"))
                     : "",
                 "clock") == 0,
      .lowest_wins = json_is_true(
          json_object_get(json_object_get(first, "rules"), "lowest_wins")),
      .count = (long)json_integer_value(
          json_object_get(json_object_get(first, "shard"), "count")),
      .movetime = {(int)json_integer_value(json_array_get(
                       json_object_get(first, "movetime_ms"), 0)),
                   (int)json_integer_value(json_array_get(
                       json_object_get(first, "movetime_ms"), 1))},
      .seed = (unsigned long long)json_integer_value(
          json_object_get(first, "seed"))};
  if (!h.a || !h.b) {
    merge_fail(argv[2], "no bot names");
    goto done;
  }
  char *rules = json_object_get(first, "rules")
                    ? json_dumps(json_object_get(first, "rules"),
                                 JSON_COMPACT | JSON_PRESERVE_ORDER)
                    : NULL;
  report(&h, &t, json, rules, 0, 1);
  free(rules);
  rc = 0;
done:
  for (int i = 0; i < files; i++)
    json_decref(loaded[i]);
  free(seen);
  return rc;
}

int cli_arena(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--merge") == 0)
    return cli_arena_merge(argc, argv);
  arena a;
  memset(&a, 0, sizeof a);
  int json = 0, rc = parse(&a, argc, argv, &json);
  if (rc)
    return rc < 0 ? 0 : rc;
  a.result = calloc((size_t)a.count, sizeof *a.result);
  if (!a.result) {
    fprintf(stderr, "scopa arena: out of memory for %ld results\n", a.count);
    return 1;
  }
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
  arena_head h = {.a = a.bot_name[0],
                  .b = a.bot_name[1],
                  .games = a.games,
                  .threads = a.threads,
                  .bot_threads = a.bot_threads,
                  .by_clock = a.by_clock,
                  .movetime = {a.movetime[0], a.movetime[1]},
                  .lowest_wins = a.rules.lowest_wins,
                  .count = a.count,
                  .seed = (unsigned long long)a.seed};
  arena_tally t = tally_of(&a);
  char *rules = scopa_rules_to_json(&a.rules);
  report(&h, &t, json, rules, a.shard, a.shards);
  scopa_free(rules);
  free(a.result);
  return 0;
}
