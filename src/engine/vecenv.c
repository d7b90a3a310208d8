/*
 * vecenv.c -- scopa_vecenv: many single-agent environments (learn.c)
 * stepped together, each thread a fixed slice of them, writing the
 * observations, masks, rewards and flags into the caller's arrays
 * (bindings/python's scopa.vector.VecEnv hands numpy's).
 *
 * What must stay true: environment i is exactly a scopa_env reset with
 * seed + i and then stepped with the same actions (auto-reset goes on
 * with its own stream), whatever the number of threads; a thread touches
 * only its own slice and its own scratch buffer; nothing is allocated
 * after scopa_vecenv_new.  The workers wait on one condition variable
 * between batches (created once, joined by scopa_vecenv_free).
 */
#include "learn.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { JOB_NONE, JOB_RESET, JOB_STEP, JOB_QUIT };

typedef struct slice {
  struct scopa_vecenv *v;
  int first, end; /* environments first..end-1 */
  pthread_t tid;
  int started;
} slice;

struct scopa_vecenv {
  int n, players, threads;
  scopa_env **envs;
  uint8_t *ended; /* episode over at the last step: reset at the next */
  scopa_move *work;
  slice *slices;
  /* The batch in progress; written by the caller's thread before a
   * generation starts, read by the workers (mu orders both). */
  int job;
  uint64_t seed;
  const int64_t *actions;
  float *obs;
  uint8_t *mask;
  double *rewards;
  uint8_t *terminated, *truncated;
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  unsigned generation;
  int running; /* workers still on this generation */
};

static void observe(scopa_vecenv *v, int i) {
  scopa_env *env = v->envs[i];
  scopa_env_observe(env, scopa__env_learner(env),
                    v->obs + (size_t)i * SCOPA_FEATURES,
                    v->mask + (size_t)i * SCOPA_ACTIONS);
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

static void run_slice(scopa_vecenv *v, const slice *s, int job) {
  for (int i = s->first; i < s->end; i++)
    if (job == JOB_RESET)
      reset_one(v, i);
    else
      step_one(v, i);
}

static void *worker(void *arg) {
  slice *s = arg;
  scopa_vecenv *v = s->v;
  unsigned seen = 0;
  pthread_mutex_lock(&v->mu);
  for (;;) {
    while (v->generation == seen)
      pthread_cond_wait(&v->go, &v->mu);
    seen = v->generation;
    int job = v->job;
    pthread_mutex_unlock(&v->mu);
    if (job == JOB_QUIT)
      return NULL;
    run_slice(v, s, job);
    pthread_mutex_lock(&v->mu);
    if (--v->running == 0)
      pthread_cond_signal(&v->done);
  }
}

/* Runs a job on every slice: slice 0 on the caller's thread. */
static void run(scopa_vecenv *v, int job) {
  if (v->threads > 1) {
    pthread_mutex_lock(&v->mu);
    v->job = job;
    v->running = v->threads - 1;
    v->generation++;
    pthread_cond_broadcast(&v->go);
    pthread_mutex_unlock(&v->mu);
  }
  if (job != JOB_QUIT)
    run_slice(v, &v->slices[0], job);
  if (v->threads > 1 && job != JOB_QUIT) {
    pthread_mutex_lock(&v->mu);
    while (v->running > 0)
      pthread_cond_wait(&v->done, &v->mu);
    pthread_mutex_unlock(&v->mu);
  }
}

static int make_envs(scopa_vecenv *v, const scopa_rules *rules,
                     const scopa_env_config *config) {
  for (int t = 0; t < v->threads; t++) {
    slice *s = &v->slices[t];
    s->v = v;
    s->first = (int)((long)v->n * t / v->threads);
    s->end = (int)((long)v->n * (t + 1) / v->threads);
    for (int i = s->first; i < s->end; i++) {
      int rc = scopa__env_new(
          rules, config, v->work + (size_t)t * SCOPA_ACTION_WORK, &v->envs[i]);
      if (rc != SCOPA_OK)
        return rc;
    }
  }
  return SCOPA_OK;
}

static int start_workers(scopa_vecenv *v) {
  for (int t = 1; t < v->threads; t++) {
    if (pthread_create(&v->slices[t].tid, NULL, worker, &v->slices[t]) != 0)
      return SCOPA_ENOMEM;
    v->slices[t].started = 1;
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
  v->players = rules->players;
  pthread_mutex_init(&v->mu, NULL);
  pthread_cond_init(&v->go, NULL);
  pthread_cond_init(&v->done, NULL);
  v->envs = calloc((size_t)num_envs, sizeof *v->envs);
  v->ended = calloc((size_t)num_envs, 1);
  v->slices = calloc((size_t)threads, sizeof *v->slices);
  v->work = malloc(sizeof *v->work * SCOPA_ACTION_WORK * (size_t)threads);
  int rc =
      v->envs && v->ended && v->slices && v->work ? SCOPA_OK : SCOPA_ENOMEM;
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
  if (v->slices) {
    pthread_mutex_lock(&v->mu);
    v->job = JOB_QUIT;
    v->generation++;
    pthread_cond_broadcast(&v->go);
    pthread_mutex_unlock(&v->mu);
    for (int t = 1; t < v->threads; t++)
      if (v->slices[t].started)
        pthread_join(v->slices[t].tid, NULL);
  }
  for (int i = 0; v->envs && i < v->n; i++)
    scopa_env_free(v->envs[i]);
  pthread_cond_destroy(&v->go);
  pthread_cond_destroy(&v->done);
  pthread_mutex_destroy(&v->mu);
  free(v->envs);
  free(v->ended);
  free(v->slices);
  free(v->work);
  free(v);
}

int scopa_vecenv_size(const scopa_vecenv *v) { return v->n; }

scopa_env *scopa_vecenv_env(scopa_vecenv *v, int i) {
  return i >= 0 && i < v->n ? v->envs[i] : NULL;
}

void scopa_vecenv_reset(scopa_vecenv *v, uint64_t seed, float *obs,
                        uint8_t *mask) {
  v->seed = seed;
  v->obs = obs;
  v->mask = mask;
  run(v, JOB_RESET);
}

void scopa_vecenv_step(scopa_vecenv *v, const int64_t *actions, float *obs,
                       uint8_t *mask, double *rewards, uint8_t *terminated,
                       uint8_t *truncated) {
  v->actions = actions;
  v->obs = obs;
  v->mask = mask;
  v->rewards = rewards;
  v->terminated = terminated;
  v->truncated = truncated;
  run(v, JOB_STEP);
}
