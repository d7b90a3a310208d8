/*
 * rollout.c -- are the hints and the review right?  Values positions by
 * what happens when the moves are played out, and sets the library's hint
 * values (scopa_bot_hint, the procedure of the terminal, the server, the
 * engine and the review) against them (docs/ai.md, "Hints checked against
 * play").
 *
 *   bench_ai_rollout positions [--games N] [--count K] [--seed S]
 *                              [--nodes N]                  > positions.jsonl
 *   bench_ai_rollout truth --positions FILE --out FILE [--draws D]
 *                          [--nodes N] [--threads T] [--first I] [--last I]
 *   bench_ai_rollout compare --positions FILE --truth FILE [--nodes N]
 *                            [--threads T] [--skip K] [--json] [--check]
 *
 * --nodes: best's node budget a move in positions and truth, the hint's in
 * compare (default 250,000 for all: best's default work, SCOPA_HINT_MS).
 *
 * positions: games of `best` against `greedy` (2-player scopa, seats
 * alternating, node budgets), every position where the stock is not empty
 * and the mover has at least two legal moves; K of them drawn at random,
 * one JSON line each (the mover's view as an engine request, the game's
 * seed, round, ply and the move played), then the first move of issue
 * 28's record (tag "issue28").
 *
 * truth: policy rollouts.  For each position and draw d the hidden cards
 * are drawn uniformly consistent with the mover's view (scopa_view_sample),
 * the same world for every legal move (common random numbers); after the
 * move, `best` plays both seats to the end of the round, each from its own
 * view, with a fixed node budget and seeds that depend on the position,
 * the draw and the ply only.  The value of a draw is the mover's side's
 * points minus the other side's from the position on (scope made before
 * excluded, as the hints exclude them).  One JSON line per position with
 * every draw's value per move, appended to --out as each position ends;
 * positions already in --out are skipped, so an interrupted run goes on
 * where it stopped.  The draws run on --threads threads; the values do
 * not depend on how many.
 *
 * compare: for each position with its truth, the hint (with the review's
 * seed: scopa_hint_seed of the game's seed, round and view) against the
 * rollouts: per move the claimed loss (the hint's) and the true loss (the
 * best move's rollout mean minus the move's), their correlation and mean
 * absolute error, and of the moves the marks would flag how many truly
 * lose what the mark says; --skip K leaves out the first K positions of
 * the truth file (those the hints' model error was measured on).  The
 * tagged position (issue 28's) is reported apart; --check exits 1 when
 * issue 28's bar on the marks fails (ctest ai-hint-rollouts, on the data
 * kept in bench/ai/data).  Public API only.
 */
#include "scopa.h"

#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_DRAWS 2000
#define MAX_THREADS 16
#define MOVES 64 /* legal moves of a position, at most (2 players: ~10) */

static int usage(void) {
  fprintf(stderr,
          "usage: bench_ai_rollout positions [--games N] [--count K] "
          "[--seed S] [--nodes N]\n"
          "       bench_ai_rollout truth --positions FILE --out FILE "
          "[--draws D] [--nodes N] [--threads T] [--first I] [--last I]\n"
          "       bench_ai_rollout compare --positions FILE --truth FILE "
          "[--nodes N] [--threads T] [--skip K] [--json] [--check]\n");
  return 2;
}

/* splitmix64's output function: seeds derived from several numbers. */
static uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* ---- options ----------------------------------------------------------- */

typedef struct opts {
  int games, count, draws, threads, first, last, json, skip, check;
  unsigned long long seed, nodes, hint_nodes;
  const char *positions, *out, *truth;
} opts;

static int parse(int argc, char **argv, opts *o) {
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--json")) {
      o->json = 1;
      continue;
    }
    if (!strcmp(a, "--check")) {
      o->check = 1;
      continue;
    }
    if (!v)
      return usage();
    i++;
    if (!strcmp(a, "--games"))
      o->games = atoi(v);
    else if (!strcmp(a, "--count"))
      o->count = atoi(v);
    else if (!strcmp(a, "--draws"))
      o->draws = atoi(v);
    else if (!strcmp(a, "--threads"))
      o->threads = atoi(v);
    else if (!strcmp(a, "--first"))
      o->first = atoi(v);
    else if (!strcmp(a, "--last"))
      o->last = atoi(v);
    else if (!strcmp(a, "--skip"))
      o->skip = atoi(v);
    else if (!strcmp(a, "--seed"))
      o->seed = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--nodes"))
      o->nodes = o->hint_nodes = strtoull(v, NULL, 10);
    else if (!strcmp(a, "--positions"))
      o->positions = v;
    else if (!strcmp(a, "--out"))
      o->out = v;
    else if (!strcmp(a, "--truth"))
      o->truth = v;
    else
      return usage();
  }
  if (o->games < 1 || o->count < 1 || o->draws < 2 || o->draws > MAX_DRAWS ||
      o->threads < 1 || o->threads > MAX_THREADS)
    return usage();
  return 0;
}

/* ---- positions ----------------------------------------------------------- */

typedef struct candidate {
  char *view; /* the mover's view, engine request fields */
  char seed[SCOPA_SEED_TEXT];
  int game, round, ply, seat, best;
  char played[SCOPA_MOVE_TEXT];
} candidate;

/* Plays one game of best against greedy; every position that qualifies is
 * added to *pool. */
static int play_game(int g, const opts *o, scopa_bot *best, scopa_bot *greedy,
                     candidate **pool, int *npool, int *cap) {
  scopa_rules rules;
  scopa_rules_preset(&rules, "scopa");
  char seed[SCOPA_SEED_TEXT];
  snprintf(seed, sizeof seed, "%016llx%016llx", o->seed, (unsigned long long)g);
  scopa_match *m = NULL;
  if (scopa_match_new(&rules, NULL, seed, &m, NULL, 0) != SCOPA_OK)
    return -1;
  int best_seat = g % 2;
  while (scopa_match_phase(m) != SCOPA_MATCH_OVER) {
    if (scopa_match_phase(m) == SCOPA_MATCH_DEAL &&
        scopa_match_deal(m, NULL) != SCOPA_OK)
      break;
    int seat = scopa_match_to_play(m);
    scopa_view v;
    scopa_match_view(m, seat, &v);
    scopa_move moves[SCOPA_MAX_MOVES], mv;
    int n = scopa_view_legal(&v, moves, SCOPA_MAX_MOVES);
    scopa_bot_limits l = {
        .seed = scopa_match_bot_seed(m), .threads = 1, .nodes = o->nodes};
    if (scopa_bot_choose(seat == best_seat ? best : greedy, &v, &l, &mv) !=
        SCOPA_OK)
      break;
    if (v.stock > 0 && n >= 2) {
      if (*npool == *cap) {
        *cap = *cap ? 2 * *cap : 1024;
        *pool = realloc(*pool, sizeof **pool * (size_t)*cap);
      }
      candidate *c = &(*pool)[(*npool)++];
      c->view = scopa_match_view_json(m, seat);
      snprintf(c->seed, sizeof c->seed, "%s", seed);
      c->game = g;
      c->round = scopa_match_rounds(m) - 1;
      c->ply = v.plays;
      c->seat = seat;
      c->best = seat == best_seat;
      scopa_move_str(mv, c->played);
    }
    scopa_match_apply(m, mv, NULL, NULL, 0);
  }
  scopa_match_free(m);
  return 0;
}

static int by_place(const void *a, const void *b) {
  const candidate *x = a, *y = b;
  if (x->game != y->game)
    return x->game - y->game;
  if (x->round != y->round)
    return x->round - y->round;
  return x->ply - y->ply;
}

/* The first move of issue 28's record: the king of cups taking the 5 of
 * coins and the 5 of swords from 6c 5s 5d 8d, holding 1b 10c 4d. */
static const char ISSUE28[] =
    "{\"rules\": {\"game\": \"scopa\", \"players\": 2}, \"seat\": 0, "
    "\"scores\": [0, 0], \"round\": {\"dealer\": 1, \"table\": [\"6c\", "
    "\"5s\", \"5d\", \"8d\"], \"dealt\": [\"1b\", \"10c\", \"4d\"], "
    "\"moves\": []}}";

static int cmd_positions(const opts *o) {
  scopa_bot *best = NULL, *greedy = NULL;
  if (scopa_bot_new("best", &best) || scopa_bot_new("greedy", &greedy))
    return 1;
  candidate *pool = NULL;
  int npool = 0, cap = 0;
  for (int g = 0; g < o->games; g++)
    if (play_game(g, o, best, greedy, &pool, &npool, &cap) != 0)
      return 1;
  /* K of them drawn without replacement (a partial Fisher-Yates). */
  scopa_rng rng;
  scopa_rng_seed(&rng, mix(o->seed ^ 0x706f73ull));
  int k = o->count < npool ? o->count : npool;
  for (int i = 0; i < k; i++) {
    int j = i + (int)scopa_rng_below(&rng, (uint32_t)(npool - i));
    candidate t = pool[i];
    pool[i] = pool[j];
    pool[j] = t;
  }
  qsort(pool, (size_t)k, sizeof *pool, by_place);
  for (int i = 0; i < k; i++) {
    candidate *c = &pool[i];
    printf("{\"id\": %d, \"game\": %d, \"seed\": \"%s\", \"round\": %d, "
           "\"ply\": %d, \"mover\": \"%s\", \"played\": \"%s\", \"view\": "
           "%s}\n",
           i, c->game, c->seed, c->round, c->ply, c->best ? "best" : "greedy",
           c->played, c->view);
  }
  printf("{\"id\": %d, \"tag\": \"issue28\", \"seed\": \"\", \"round\": 0, "
         "\"ply\": 0, \"played\": \"10cx5d+5s\", \"view\": %s}\n",
         k, ISSUE28);
  fprintf(stderr, "bench_ai_rollout: %d games, %d positions qualify, %d kept\n",
          o->games, npool, k);
  for (int i = 0; i < npool; i++)
    scopa_free(pool[i].view);
  free(pool);
  scopa_bot_free(best);
  scopa_bot_free(greedy);
  return 0;
}

/* ---- reading positions -----------------------------------------------------
 */

typedef struct position {
  int id;
  char seed[SCOPA_SEED_TEXT];
  int round;
  char tag[16];
  char played[SCOPA_MOVE_TEXT];
  char mover[8];
  scopa_view view;
} position;

/* Reads every position of the file; NULL with a message on error. */
static position *read_positions(const char *path, int *n) {
  FILE *f = fopen(path, "r");
  if (!f) {
    perror(path);
    return NULL;
  }
  position *p = NULL;
  int cap = 0;
  char *line = NULL;
  size_t len = 0;
  *n = 0;
  while (getline(&line, &len, f) > 0) {
    json_error_t err;
    json_t *o = json_loads(line, 0, &err);
    if (!o)
      continue;
    if (*n == cap) {
      cap = cap ? 2 * cap : 256;
      p = realloc(p, sizeof *p * (size_t)cap);
    }
    position *q = &p[*n];
    memset(q, 0, sizeof *q);
    q->id = (int)json_integer_value(json_object_get(o, "id"));
    q->round = (int)json_integer_value(json_object_get(o, "round"));
    const char *s = json_string_value(json_object_get(o, "seed"));
    snprintf(q->seed, sizeof q->seed, "%s", s ? s : "");
    s = json_string_value(json_object_get(o, "tag"));
    snprintf(q->tag, sizeof q->tag, "%s", s ? s : "");
    s = json_string_value(json_object_get(o, "played"));
    snprintf(q->played, sizeof q->played, "%s", s ? s : "");
    s = json_string_value(json_object_get(o, "mover"));
    snprintf(q->mover, sizeof q->mover, "%s", s ? s : "");
    char *view = json_dumps(json_object_get(o, "view"), JSON_COMPACT);
    char msg[200];
    int rc = view ? scopa_view_from_json(&q->view, view, strlen(view), msg,
                                         sizeof msg)
                  : SCOPA_EJSON;
    free(view);
    json_decref(o);
    if (rc != SCOPA_OK) {
      fprintf(stderr, "%s: position %d: %s\n", path, q->id, msg);
      continue;
    }
    ++*n;
  }
  free(line);
  fclose(f);
  return p;
}

/* ---- truth: policy rollouts ---------------------------------------------- */

typedef struct truth_job {
  const position *pos;
  const scopa_move *moves;
  int nmoves, draws, threads;
  uint64_t nodes;
  int *values; /* values[i * draws + d] */
  int next;    /* the next draw to take (atomic) */
} truth_job;

/* The mover's side's points from the position on, minus the other's, when
 * `move` is played in `world` and best plays both seats to the end. */
static int playout(scopa_bot *bot, const scopa_view *v,
                   const scopa_state *world, scopa_move move, uint64_t seed,
                   uint64_t nodes) {
  scopa_state s = *world;
  int side = scopa_rules_side_of(&v->rules, v->seat), other = 1 - side;
  int scores[SCOPA_MAX_SEATS];
  for (int i = 0; i < SCOPA_MAX_SEATS; i++)
    scores[i] = v->scores[i];
  scopa_state_play(&s, move);
  while (!scopa_state_over(&s)) {
    scopa_view sv;
    scopa_move m;
    scopa_view_of(&s, s.to_play, scores, &sv);
    scopa_bot_limits l = {.seed = mix(seed ^ (uint64_t)s.plays << 48),
                          .threads = 1,
                          .nodes = nodes};
    if (scopa_bot_choose(bot, &sv, &l, &m) != SCOPA_OK) {
      fprintf(stderr, "bench_ai_rollout: the bot gave no move\n");
      exit(1);
    }
    scopa_state_play(&s, m);
  }
  scopa_score sc;
  scopa_state_score(&s, &sc);
  return (sc.side[side].total - v->scope[side]) -
         (sc.side[other].total - v->scope[other]);
}

static void *truth_worker(void *arg) {
  truth_job *j = arg;
  scopa_bot *bot = NULL;
  if (scopa_bot_new("best", &bot) != SCOPA_OK)
    return NULL;
  for (;;) {
    int d = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
    if (d >= j->draws)
      break;
    uint64_t base = mix(mix((uint64_t)j->pos->id) ^ (uint64_t)d);
    scopa_rng rng;
    scopa_rng_seed(&rng, base);
    scopa_state world;
    scopa_view_sample(&j->pos->view, &rng, &world);
    for (int i = 0; i < j->nmoves; i++)
      j->values[i * j->draws + d] =
          playout(bot, &j->pos->view, &world, j->moves[i], base, j->nodes);
  }
  scopa_bot_free(bot);
  return NULL;
}

/* The ids already in the truth file. */
static int truth_done(const char *path, int id) {
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  char *line = NULL;
  size_t len = 0;
  int found = 0;
  while (!found && getline(&line, &len, f) > 0) {
    json_t *o = json_loads(line, 0, NULL);
    found = o && json_integer_value(json_object_get(o, "id")) == id;
    json_decref(o);
  }
  free(line);
  fclose(f);
  return found;
}

static void truth_write(FILE *out, const position *p, const scopa_move *moves,
                        int n, const int *values, int draws, uint64_t nodes,
                        double seconds) {
  fprintf(out,
          "{\"id\": %d, \"draws\": %d, \"nodes\": %llu, \"seconds\": %.1f, "
          "\"moves\": [",
          p->id, draws, (unsigned long long)nodes, seconds);
  for (int i = 0; i < n; i++) {
    char text[SCOPA_MOVE_TEXT];
    double sum = 0, sum2 = 0;
    for (int d = 0; d < draws; d++) {
      sum += values[i * draws + d];
      sum2 += (double)values[i * draws + d] * values[i * draws + d];
    }
    double mean = sum / draws,
           sd = sqrt(fmax(0, (sum2 - draws * mean * mean) / (draws - 1)));
    fprintf(out,
            "%s{\"move\": \"%s\", \"mean\": %.4f, \"sd\": %.4f, "
            "\"values\": [",
            i ? ", " : "", scopa_move_str(moves[i], text), mean, sd);
    for (int d = 0; d < draws; d++)
      fprintf(out, "%s%d", d ? "," : "", values[i * draws + d]);
    fprintf(out, "]}");
  }
  fprintf(out, "]}\n");
  fflush(out);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The process's CPU time: what a hint costs, whatever the load. */
static double cpu_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static int cmd_truth(const opts *o) {
  int np = 0;
  position *pos = o->positions ? read_positions(o->positions, &np) : NULL;
  if (!pos || !o->out)
    return usage();
  FILE *out = fopen(o->out, "a");
  if (!out) {
    perror(o->out);
    return 1;
  }
  for (int k = 0; k < np; k++) {
    const position *p = &pos[k];
    if (p->id < o->first || (o->last >= 0 && p->id > o->last) ||
        truth_done(o->out, p->id))
      continue;
    scopa_move moves[MOVES];
    int n = scopa_view_legal(&p->view, moves, MOVES);
    if (n > MOVES)
      n = MOVES;
    truth_job job = {p, moves, n, o->draws, o->threads, o->nodes, NULL, 0};
    job.values = calloc((size_t)n * (size_t)o->draws, sizeof *job.values);
    double t0 = now_s();
    pthread_t tid[MAX_THREADS];
    for (int t = 0; t < o->threads; t++)
      pthread_create(&tid[t], NULL, truth_worker, &job);
    for (int t = 0; t < o->threads; t++)
      pthread_join(tid[t], NULL);
    truth_write(out, p, moves, n, job.values, o->draws, o->nodes, now_s() - t0);
    fprintf(stderr, "position %d: %d moves, %.1f s\n", p->id, n, now_s() - t0);
    free(job.values);
  }
  fclose(out);
  free(pos);
  return 0;
}

/* ---- compare: the hints against the rollouts ------------------------------
 */

typedef struct truth_move {
  char move[SCOPA_MOVE_TEXT];
  double mean;
} truth_move;

typedef struct truth {
  int id, n;
  truth_move m[MOVES];
} truth;

static truth *read_truth(const char *path, int *n) {
  FILE *f = fopen(path, "r");
  if (!f) {
    perror(path);
    return NULL;
  }
  truth *t = NULL;
  int cap = 0;
  char *line = NULL;
  size_t len = 0;
  *n = 0;
  while (getline(&line, &len, f) > 0) {
    json_t *o = json_loads(line, 0, NULL), *mv;
    size_t i;
    if (!o)
      continue;
    if (*n == cap) {
      cap = cap ? 2 * cap : 256;
      t = realloc(t, sizeof *t * (size_t)cap);
    }
    truth *q = &t[(*n)++];
    q->id = (int)json_integer_value(json_object_get(o, "id"));
    q->n = 0;
    json_array_foreach(json_object_get(o, "moves"), i, mv) {
      if (q->n == MOVES)
        break;
      const char *s = json_string_value(json_object_get(mv, "move"));
      snprintf(q->m[q->n].move, SCOPA_MOVE_TEXT, "%s", s ? s : "");
      q->m[q->n++].mean = json_number_value(json_object_get(mv, "mean"));
    }
    json_decref(o);
  }
  free(line);
  fclose(f);
  return t;
}

/* Pairs of (claimed, true) losses. */
typedef struct pairs {
  double sx, sy, sxx, syy, sxy, sae;
  int n;
} pairs;

static void pairs_add(pairs *p, double x, double y) {
  p->sx += x, p->sy += y, p->sxx += x * x, p->syy += y * y, p->sxy += x * y;
  p->sae += fabs(x - y);
  p->n++;
}

static void pairs_print(const char *name, const pairs *p) {
  double n = p->n, mx = p->sx / n, my = p->sy / n;
  double vx = p->sxx / n - mx * mx, vy = p->syy / n - my * my;
  double r = vx > 0 && vy > 0 ? (p->sxy / n - mx * my) / sqrt(vx * vy) : 0;
  printf("| %s | %d | %.3f | %.3f | %.2f | %.3f | %+.3f |\n", name, p->n, mx,
         my, r, p->sae / n, mx - my);
}

/* Claimed losses in bins: how many, their mean, the rollouts' mean. */
#define BINS 4
static const double BIN_LOW[BINS] = {0, 0.1, 0.3, 1.0};

typedef struct bins {
  int n[BINS], real[BINS]; /* real: the rollouts' loss is 0.3 or more */
  double claimed[BINS], truth[BINS];
} bins;

static void bins_add(bins *b, double claimed, double rolled) {
  int k = BINS - 1;
  while (k > 0 && claimed < BIN_LOW[k])
    k--;
  b->n[k]++;
  b->real[k] += rolled >= 0.3;
  b->claimed[k] += claimed;
  b->truth[k] += rolled;
}

static void bins_print(const bins *b) {
  printf("| claimed loss | moves | mean claimed | mean true | true >= 0.3 "
         "|\n|---|---|---|---|---|\n");
  for (int k = 0; k < BINS; k++) {
    char range[32];
    if (k < BINS - 1)
      snprintf(range, sizeof range, "%.1f to %.1f", BIN_LOW[k], BIN_LOW[k + 1]);
    else
      snprintf(range, sizeof range, "%.1f or more", BIN_LOW[k]);
    int n = b->n[k];
    printf("| %s | %d | %.3f | %.3f | %d |\n", range, n,
           n ? b->claimed[k] / n : 0, n ? b->truth[k] / n : 0, b->real[k]);
  }
}

typedef struct marks {
  int n[3];     /* moves with each mark                  */
  int right[3]; /* ... that truly lose what the mark says */
  int under01;  /* marked moves that truly lose < 0.1   */
} marks;

static void marks_add(marks *k, int mark, double true_loss) {
  k->n[mark]++;
  if (mark == SCOPA_MARK_BLUNDER && true_loss >= 1.0)
    k->right[mark]++;
  if (mark == SCOPA_MARK_SLIP && true_loss >= 0.3)
    k->right[mark]++;
  if (mark != SCOPA_MARK_NONE && true_loss < 0.1)
    k->under01++;
}

static void marks_print(const char *name, const marks *k) {
  printf("%s: \"??\" %d, %d truly lose >= 1 (%.0f%%); \"?\" %d, %d truly lose "
         ">= 0.3 (%.0f%%); marked moves truly losing < 0.1: %d\n",
         name, k->n[2], k->right[2],
         k->n[2] ? 100.0 * k->right[2] / k->n[2] : 0, k->n[1], k->right[1],
         k->n[1] ? 100.0 * k->right[1] / k->n[1] : 0, k->under01);
}

/* Issue 28's bar on these marks: of the "??" at least 80% truly lose a
 * point or more, of the "?" at least 80% 0.3 or more, none truly loses
 * less than 0.1.  0, or 1 with what failed on stderr. */
static int marks_check(const char *name, const marks *k) {
  int bad = 0;
  for (int m = SCOPA_MARK_SLIP; m <= SCOPA_MARK_BLUNDER; m++)
    if (k->n[m] && 5 * k->right[m] < 4 * k->n[m]) {
      fprintf(stderr, "check: %s: %d of %d \"%s\" are real (under 80%%)\n",
              name, k->right[m], k->n[m], scopa_hint_mark_text(m));
      bad = 1;
    }
  if (k->under01) {
    fprintf(stderr, "check: %s: %d marked moves truly lose under 0.1\n", name,
            k->under01);
    bad = 1;
  }
  return bad;
}

static int cmd_compare(const opts *o) {
  int np = 0, nt = 0;
  position *pos = o->positions ? read_positions(o->positions, &np) : NULL;
  truth *tr = o->truth ? read_truth(o->truth, &nt) : NULL;
  if (!pos || !tr)
    return usage();
  scopa_bot *bot = NULL;
  if (scopa_bot_new("best", &bot) != SCOPA_OK)
    return 1;
  pairs all = {0}, played = {0};
  marks mall = {0}, mplayed = {0};
  bins ball = {{0}, {0}, {0}, {0}};
  char tagged[4096] = "";
  double seconds = 0;
  int valued = 0, tagged_marked = 0;
  for (int k = o->skip; k < nt; k++) {
    const position *p = NULL;
    for (int j = 0; j < np && !p; j++)
      if (pos[j].id == tr[k].id)
        p = &pos[j];
    if (!p)
      continue;
    scopa_hint h[MOVES];
    scopa_hint_info info;
    scopa_bot_limits l = {.seed = scopa_hint_seed(p->seed, p->round, &p->view),
                          .threads = o->threads,
                          .nodes = o->hint_nodes};
    double t0 = cpu_s();
    int n = scopa_bot_hint(bot, &p->view, &l, h, MOVES, &info);
    seconds += cpu_s() - t0;
    valued += !p->tag[0];
    double top = -INFINITY;
    for (int i = 0; i < tr[k].n; i++)
      top = fmax(top, tr[k].m[i].mean);
    for (int i = 0; i < n && i < MOVES; i++) {
      char text[SCOPA_MOVE_TEXT];
      scopa_move_str(h[i].move, text);
      double mean = NAN;
      for (int j = 0; j < tr[k].n; j++)
        if (!strcmp(tr[k].m[j].move, text))
          mean = tr[k].m[j].mean;
      if (isnan(mean) || isnan(h[i].loss))
        continue;
      double true_loss = top - mean;
      int is_played = !strcmp(text, p->played);
      if (!p->tag[0]) { /* a game's position, not a tagged one */
        pairs_add(&all, h[i].loss, true_loss);
        marks_add(&mall, h[i].mark, true_loss);
        bins_add(&ball, h[i].loss, true_loss);
      }
      if (is_played && !p->tag[0]) {
        pairs_add(&played, h[i].loss, true_loss);
        marks_add(&mplayed, h[i].mark, true_loss);
      }
      tagged_marked += p->tag[0] && h[i].mark != SCOPA_MARK_NONE;
      if (p->tag[0] && strlen(tagged) < sizeof tagged - 200)
        snprintf(tagged + strlen(tagged), sizeof tagged - strlen(tagged),
                 "%s %s%s: claimed loss %.2f +- %.2f, mark \"%s\"; rollouts' "
                 "loss %.2f\n",
                 p->tag, text, is_played ? " (played)" : "", h[i].loss,
                 h[i].loss_margin, scopa_hint_mark_text(h[i].mark), true_loss);
      if (o->json || p->tag[0])
        printf("{\"id\": %d, \"tag\": \"%s\", \"ply\": %d, \"move\": \"%s\", "
               "\"played\": %s, \"value\": %.3f, \"margin\": %.3f, \"loss\": "
               "%.3f, \"loss_margin\": %.3f, \"mark\": \"%s\", \"true\": %.3f, "
               "\"true_loss\": %.3f, \"worlds\": %d}\n",
               p->id, p->tag, p->view.plays, text, is_played ? "true" : "false",
               h[i].value, h[i].margin, h[i].loss, h[i].loss_margin,
               scopa_hint_mark_text(h[i].mark), mean, true_loss, info.worlds);
    }
  }
  printf("\n%d positions, hint %.0f ms of CPU each on average\n\n", valued,
         valued ? 1000 * seconds / valued : 0);
  printf("| moves | n | claimed loss | true loss | correlation | MAE | "
         "claimed - true |\n|---|---|---|---|---|---|---|\n");
  pairs_print("every legal move", &all);
  pairs_print("the moves played", &played);
  printf("\n");
  bins_print(&ball);
  printf("\n");
  marks_print("the moves played (the review's marks)", &mplayed);
  marks_print("every legal move", &mall);
  printf("\n%s", tagged);
  int failed = 0;
  if (o->check) {
    failed |= marks_check("the moves played", &mplayed);
    failed |= marks_check("every legal move", &mall);
    if (tagged_marked) {
      fprintf(stderr, "check: %d moves of the tagged positions are marked\n",
              tagged_marked);
      failed = 1;
    }
    if (!valued) {
      fprintf(stderr, "check: no position valued\n");
      failed = 1;
    }
  }
  scopa_bot_free(bot);
  free(pos);
  free(tr);
  return failed;
}

int main(int argc, char **argv) {
  opts o = {.games = 60,
            .count = 200,
            .draws = 300,
            .threads = 2,
            .first = 0,
            .last = -1,
            .seed = 1,
            .nodes = 100 * SCOPA_BOT_NODES_PER_MS,
            .hint_nodes = SCOPA_HINT_MS * SCOPA_BOT_NODES_PER_MS};
  if (argc < 2 || parse(argc, argv, &o))
    return usage();
  if (!strcmp(argv[1], "positions"))
    return cmd_positions(&o);
  if (!strcmp(argv[1], "truth"))
    return cmd_truth(&o);
  if (!strcmp(argv[1], "compare"))
    return cmd_compare(&o);
  return usage();
}
