/*
 * vecenv.c -- scopa_vecenv: many single-agent environments (learn.c)
 * stepped together, threads taking chunks of them, writing the
 * observations, masks, rewards and flags into the caller's arrays
 * (bindings/python's scopa.vector.VecEnv hands numpy's).
 *
 * What must stay true: environment i is exactly a scopa_env reset with
 * seed + i and then stepped with the same actions (auto-reset goes on
 * with its own stream), whatever the number of threads or which thread
 * steps it (an environment's result depends on its own state only; the
 * scratch buffer it borrows holds nothing between calls); each chunk of
 * environments is taken by exactly one thread; nothing is allocated
 * after scopa_vecenv_new (but the text scopa_vecenv_scores_json
 * returns).  The workers wait on one condition variable between batches
 * (created once, joined by scopa_vecenv_free).
 */
#include "learn.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { JOB_NONE, JOB_RESET, JOB_STEP, JOB_OBSERVE, JOB_QUIT };

/* Environments are handed out in chunks of this many, to whichever
 * thread asks first: a thread the machine does not run for a while
 * leaves its share to the others instead of holding the batch up. */
#define CHUNK 8

typedef struct worker_arg {
  struct scopa_vecenv *v;
  int index; /* its scratch buffer: work + index * SCOPA_ACTION_WORK */
  pthread_t tid;
  int started;
} worker_arg;

struct scopa_vecenv {
  int n, threads, chunks;
  scopa_env **envs;
  uint8_t *ended; /* episode over at the last step: reset at the next */
  scopa_move *work;
  worker_arg *workers;
  /* The batch in progress: written by the caller's thread under mu
   * before the generation changes and the first chunk is handed out,
   * read by the workers after (job atomically, see take_chunks). */
  int job;
  uint64_t seed;
  const int64_t *actions;
  float *obs;
  int8_t *compact; /* the compact observation instead of obs (one is NULL) */
  uint8_t *mask;
  double *rewards;
  uint8_t *terminated, *truncated;
  int next, done; /* chunks handed out, chunks finished (atomics)     */
  int active;     /* workers between taking a batch and leaving it (mu) */
  pthread_mutex_t mu;
  pthread_cond_t go, finished;
  unsigned generation;
};

static void observe(scopa_vecenv *v, int i) {
  scopa_env *env = v->envs[i];
  uint8_t *mask = v->mask + (size_t)i * SCOPA_ACTIONS;
  if (v->compact)
    scopa_env_observe_compact(env, scopa__env_learner(env),
                              v->compact + (size_t)i * SCOPA_FEATURES, mask);
  else
    scopa_env_observe(env, scopa__env_learner(env),
                      v->obs + (size_t)i * SCOPA_FEATURES, mask);
}

static void reset_one(scopa_vecenv *v, int i) {
  uint64_t seed = v->seed == SCOPA_ENV_NEXT ? SCOPA_ENV_NEXT : v->seed + i;
  if (seed == SCOPA_ENV_NEXT && v->seed != SCOPA_ENV_NEXT)
    seed = 0; /* seed + i wrapped onto the "next" marker */
  scopa_env_reset(v->envs[i], seed, -1, NULL);
  v->ended[i] = 0;
  observe(v, i);
}

/* Gymnasium's next-step auto-reset: an environment whose episode ended
 * at the last step starts the next episode of its stream now; its action
 * is ignored and its reward and flags are 0. */
static void step_one(scopa_vecenv *v, int i) {
  scopa_env *env = v->envs[i];
  double rewards[SCOPA_MAX_SEATS];
  v->terminated[i] = v->truncated[i] = 0;
  v->rewards[i] = 0.0;
  if (v->ended[i]) {
    scopa_env_reset(env, SCOPA_ENV_NEXT, -1, NULL);
    v->ended[i] = 0;
  } else {
    int64_t a = v->actions[i];
    int rc =
        scopa_env_step(env, a < 0 || a >= SCOPA_ACTIONS ? -1 : (int)a, rewards);
    v->rewards[i] = rewards[scopa__env_learner(env)];
    v->ended[i] = v->terminated[i] =
        rc == SCOPA_ENV_OVER || rc == SCOPA_ENV_ILLEGAL;
  }
  observe(v, i);
}

/* Takes chunks of the batch until none is left.  The environments of a
 * chunk run on the scratch buffer `work` of the thread that took it.  The
 * job is read after a chunk is taken: a worker late from the last batch
 * that takes a chunk of this one does this one's job (the caller's thread
 * stores the job before it hands out the first chunk). */
static void take_chunks(scopa_vecenv *v, scopa_move *work) {
  for (;;) {
    int c = __atomic_fetch_add(&v->next, 1, __ATOMIC_ACQ_REL);
    if (c >= v->chunks)
      return;
    int job = __atomic_load_n(&v->job, __ATOMIC_ACQUIRE);
    int end = (c + 1) * CHUNK < v->n ? (c + 1) * CHUNK : v->n;
    for (int i = c * CHUNK; i < end; i++) {
      scopa__env_set_work(v->envs[i], work);
      if (job == JOB_RESET)
        reset_one(v, i);
      else if (job == JOB_STEP)
        step_one(v, i);
      else
        observe(v, i);
    }
    if (__atomic_add_fetch(&v->done, 1, __ATOMIC_ACQ_REL) == v->chunks) {
      pthread_mutex_lock(&v->mu);
      pthread_cond_broadcast(&v->finished);
      pthread_mutex_unlock(&v->mu);
    }
  }
}

static void *worker(void *arg) {
  worker_arg *w = arg;
  scopa_vecenv *v = w->v;
  scopa_move *work = v->work + (size_t)w->index * SCOPA_ACTION_WORK;
  unsigned seen = 0;
  pthread_mutex_lock(&v->mu);
  for (;;) {
    while (v->generation == seen)
      pthread_cond_wait(&v->go, &v->mu);
    seen = v->generation;
    if (v->job == JOB_QUIT)
      break;
    v->active++;
    pthread_mutex_unlock(&v->mu);
    take_chunks(v, work);
    pthread_mutex_lock(&v->mu);
    if (--v->active == 0)
      pthread_cond_broadcast(&v->finished);
  }
  pthread_mutex_unlock(&v->mu);
  return NULL;
}

/* Runs a batch: the caller's thread takes chunks too, then waits until
 * every chunk is done and no worker still holds this batch (so none can
 * take a chunk of the next one with this one's job). */
static void run(scopa_vecenv *v, int job) {
  pthread_mutex_lock(&v->mu);
  __atomic_store_n(&v->job, job, __ATOMIC_RELEASE);
  __atomic_store_n(&v->next, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&v->done, 0, __ATOMIC_RELEASE);
  v->generation++;
  pthread_cond_broadcast(&v->go);
  pthread_mutex_unlock(&v->mu);
  take_chunks(v, v->work);
  pthread_mutex_lock(&v->mu);
  while (__atomic_load_n(&v->done, __ATOMIC_ACQUIRE) < v->chunks ||
         v->active > 0)
    pthread_cond_wait(&v->finished, &v->mu);
  pthread_mutex_unlock(&v->mu);
}

static int make_envs(scopa_vecenv *v, const scopa_rules *rules,
                     const scopa_env_config *config) {
  for (int i = 0; i < v->n; i++) {
    int rc = scopa__env_new(rules, config, v->work, &v->envs[i]);
    if (rc != SCOPA_OK)
      return rc;
  }
  return SCOPA_OK;
}

static int start_workers(scopa_vecenv *v) {
  for (int t = 1; t < v->threads; t++) {
    worker_arg *w = &v->workers[t];
    w->v = v;
    w->index = t;
    if (pthread_create(&w->tid, NULL, worker, w) != 0)
      return SCOPA_ENOMEM;
    w->started = 1;
  }
  return SCOPA_OK;
}

int scopa_vecenv_new(const scopa_rules *rules, const scopa_env_config *config,
                     int num_envs, int threads, scopa_vecenv **out) {
  *out = NULL;
  if (num_envs < 1 || !config || config->learner < 0 ||
      config->learner >= rules->players)
    return SCOPA_EINVAL;
  if (threads < 1)
    threads = 1;
  if (threads > num_envs)
    threads = num_envs;
  scopa_vecenv *v = calloc(1, sizeof *v);
  if (!v)
    return SCOPA_ENOMEM;
  v->n = num_envs;
  v->threads = threads;
  v->chunks = (num_envs + CHUNK - 1) / CHUNK;
  pthread_mutex_init(&v->mu, NULL);
  pthread_cond_init(&v->go, NULL);
  pthread_cond_init(&v->finished, NULL);
  v->envs = calloc((size_t)num_envs, sizeof *v->envs);
  v->ended = calloc((size_t)num_envs, 1);
  v->workers = calloc((size_t)threads, sizeof *v->workers);
  v->work = malloc(sizeof *v->work * SCOPA_ACTION_WORK * (size_t)threads);
  int rc =
      v->envs && v->ended && v->workers && v->work ? SCOPA_OK : SCOPA_ENOMEM;
  if (rc == SCOPA_OK)
    rc = make_envs(v, rules, config);
  if (rc == SCOPA_OK)
    rc = start_workers(v);
  if (rc != SCOPA_OK) {
    scopa_vecenv_free(v);
    return rc;
  }
  *out = v;
  return SCOPA_OK;
}

void scopa_vecenv_free(scopa_vecenv *v) {
  if (!v)
    return;
  if (v->workers) {
    pthread_mutex_lock(&v->mu);
    __atomic_store_n(&v->job, JOB_QUIT, __ATOMIC_RELEASE);
    v->generation++;
    pthread_cond_broadcast(&v->go);
    pthread_mutex_unlock(&v->mu);
    for (int t = 1; t < v->threads; t++)
      if (v->workers[t].started)
        pthread_join(v->workers[t].tid, NULL);
  }
  for (int i = 0; v->envs && i < v->n; i++)
    scopa_env_free(v->envs[i]);
  pthread_cond_destroy(&v->go);
  pthread_cond_destroy(&v->finished);
  pthread_mutex_destroy(&v->mu);
  free(v->envs);
  free(v->ended);
  free(v->workers);
  free(v->work);
  free(v);
}

int scopa_vecenv_size(const scopa_vecenv *v) { return v->n; }

scopa_env *scopa_vecenv_env(scopa_vecenv *v, int i) {
  return i >= 0 && i < v->n ? v->envs[i] : NULL;
}

static void reset_into(scopa_vecenv *v, uint64_t seed, float *obs,
                       int8_t *compact, uint8_t *mask) {
  v->seed = seed;
  v->obs = obs;
  v->compact = compact;
  v->mask = mask;
  run(v, JOB_RESET);
}

static void step_into(scopa_vecenv *v, const int64_t *actions, float *obs,
                      int8_t *compact, uint8_t *mask, double *rewards,
                      uint8_t *terminated, uint8_t *truncated) {
  v->actions = actions;
  v->obs = obs;
  v->compact = compact;
  v->mask = mask;
  v->rewards = rewards;
  v->terminated = terminated;
  v->truncated = truncated;
  run(v, JOB_STEP);
}

void scopa_vecenv_reset(scopa_vecenv *v, uint64_t seed, float *obs,
                        uint8_t *mask) {
  reset_into(v, seed, obs, NULL, mask);
}

void scopa_vecenv_reset_compact(scopa_vecenv *v, uint64_t seed, int8_t *obs,
                                uint8_t *mask) {
  reset_into(v, seed, NULL, obs, mask);
}

void scopa_vecenv_step(scopa_vecenv *v, const int64_t *actions, float *obs,
                       uint8_t *mask, double *rewards, uint8_t *terminated,
                       uint8_t *truncated) {
  step_into(v, actions, obs, NULL, mask, rewards, terminated, truncated);
}

void scopa_vecenv_step_compact(scopa_vecenv *v, const int64_t *actions,
                               int8_t *obs, uint8_t *mask, double *rewards,
                               uint8_t *terminated, uint8_t *truncated) {
  step_into(v, actions, NULL, obs, mask, rewards, terminated, truncated);
}

/* ---- opponents played by the caller ---------------------------------- */

static int opponents(scopa_vecenv *v, int32_t *envs, int32_t *seats, float *obs,
                     int8_t *compact, uint8_t *mask) {
  int k = 0;
  for (int i = 0; i < v->n; i++) {
    scopa_env *env = v->envs[i];
    int seat = scopa_env_to_play(env);
    if (seat < 0 || seat == scopa__env_learner(env) ||
        !(scopa__env_external(env) >> seat & 1u))
      continue;
    scopa__env_set_work(env, v->work);
    uint8_t *m = mask ? mask + (size_t)k * SCOPA_ACTIONS : NULL;
    if (compact)
      scopa_env_observe_compact(env, seat, compact + (size_t)k * SCOPA_FEATURES,
                                m);
    else
      scopa_env_observe(env, seat, obs ? obs + (size_t)k * SCOPA_FEATURES : 0,
                        m);
    envs[k] = i;
    seats[k++] = seat;
  }
  return k;
}

int scopa_vecenv_opponents(scopa_vecenv *v, int32_t *envs, int32_t *seats,
                           float *obs, uint8_t *mask) {
  return opponents(v, envs, seats, obs, NULL, mask);
}

int scopa_vecenv_opponents_compact(scopa_vecenv *v, int32_t *envs,
                                   int32_t *seats, int8_t *obs, uint8_t *mask) {
  return opponents(v, envs, seats, NULL, obs, mask);
}

void scopa_vecenv_play(scopa_vecenv *v, int count, const int32_t *envs,
                       const int64_t *actions, double *rewards,
                       uint8_t *terminated) {
  double r[SCOPA_MAX_SEATS];
  for (int j = 0; j < count; j++) {
    int i = envs[j];
    if (i < 0 || i >= v->n || v->ended[i])
      continue;
    scopa_env *env = v->envs[i];
    scopa__env_set_work(env, v->work);
    int64_t a = actions[j];
    int rc = scopa_env_step(env, a < 0 || a >= SCOPA_ACTIONS ? -1 : (int)a, r);
    if (rc < 0)
      continue; /* over already */
    rewards[i] += rc == SCOPA_ENV_ILLEGAL ? 0.0 : r[scopa__env_learner(env)];
    if (rc == SCOPA_ENV_OVER || rc == SCOPA_ENV_ILLEGAL)
      v->ended[i] = terminated[i] = 1;
  }
}

void scopa_vecenv_observe(scopa_vecenv *v, float *obs, uint8_t *mask) {
  v->obs = obs;
  v->compact = NULL;
  v->mask = mask;
  run(v, JOB_OBSERVE);
}

void scopa_vecenv_observe_compact(scopa_vecenv *v, int8_t *obs, uint8_t *mask) {
  v->obs = NULL;
  v->compact = obs;
  v->mask = mask;
  run(v, JOB_OBSERVE);
}

/* ---- scores of the rounds just ended --------------------------------- */

static int append(char **buf, size_t *len, size_t *cap, const char *text) {
  size_t n = strlen(text);
  if (*len + n + 2 > *cap) {
    size_t want = (*cap + n + 2) * 2;
    char *grown = realloc(*buf, want);
    if (!grown)
      return 0;
    *buf = grown;
    *cap = want;
  }
  memcpy(*buf + *len, text, n + 1);
  *len += n;
  return 1;
}

char *scopa_vecenv_scores_json(scopa_vecenv *v, const uint8_t *which) {
  size_t len = 0, cap = 0;
  char *buf = NULL;
  int ok = append(&buf, &len, &cap, "["), first = 1;
  for (int i = 0; ok && i < v->n; i++) {
    if (!which[i])
      continue;
    const scopa_state *st = scopa_env_state(v->envs[i]);
    char *one = scopa_state_over(st) ? scopa_state_score_json(st) : NULL;
    ok = (first || append(&buf, &len, &cap, ",")) &&
         append(&buf, &len, &cap, one ? one : "null");
    scopa_free(one);
    first = 0;
  }
  if (ok && append(&buf, &len, &cap, "]"))
    return buf;
  free(buf);
  return NULL;
}

/* ---- moves by action, for move encodings ----------------------------- */

int scopa_vecenv_legal_moves(scopa_vecenv *v, int cap, int64_t *actions,
                             scopa_move *moves) {
  int most = 0, found[SCOPA_ACTIONS];
  scopa_move m[SCOPA_ACTIONS];
  for (int i = 0; i < v->n; i++) {
    int n = scopa_env_legal_moves(v->envs[i], found, m, SCOPA_ACTIONS);
    most = n > most ? n : most;
    for (int k = 0; k < cap; k++) {
      actions[(size_t)i * cap + k] = k < n ? found[k] : -1;
      moves[(size_t)i * cap + k] = k < n ? m[k] : SCOPA_MOVE_NONE;
    }
  }
  return most;
}

void scopa_vecenv_moves(scopa_vecenv *v, const int64_t *actions,
                        scopa_move *moves) {
  for (int i = 0; i < v->n; i++) {
    int64_t a = actions[i];
    if (a < 0 || a >= SCOPA_ACTIONS ||
        scopa_env_move(v->envs[i], (int)a, &moves[i]) != SCOPA_OK)
      moves[i] = SCOPA_MOVE_NONE;
  }
}
