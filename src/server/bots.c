/*
 * bots.c -- bots.h.  Three queues, each a singly linked FIFO under the
 * pool's one mutex: `todo` (moves, loop -> workers, with a condition
 * variable), `slow` (hints and reviews, the same way) and `done` (workers
 * -> loop, with the wake callback).  A worker takes a move first, and a
 * hint or review only while fewer than slow_max workers think about one:
 * with two or more threads one is always left for moves, so no table's
 * play waits behind another table's hints (issue 22, item 3).  The slow
 * queue is bounded (slow_cap): past it bots_submit answers BOTS_BUSY.  A worker
 * keeps its own scopa_bot per bot name (a bot holds scratch memory and is used
 * by one thread at a time, scopa.h), made on first use.
 */
#include "bots.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct job_node {
  struct job_node *next;
  bot_job job;
} job_node;

typedef struct fifo {
  job_node *head, *tail;
} fifo;

#define WORKER_BOTS 16

typedef struct worker {
  pthread_t thread;
  struct bots *pool;
  int nbots;
  scopa_bot *bot[WORKER_BOTS]; /* owned by this worker's thread only */
} worker;

struct bots {
  pthread_mutex_t lock;
  pthread_cond_t more;   /* signalled when todo grows or on stop         */
  fifo todo, slow, done; /* all under lock                            */
  int busy;              /* jobs being thought about (under lock)     */
  int queued;            /* jobs in todo and slow (under lock)        */
  int slow_busy;         /* slow jobs being thought about (under lock) */
  int slow_queued;       /* jobs in slow (under lock)                 */
  int slow_max;          /* slow jobs thought about at once           */
  int slow_cap;          /* slow jobs queued at most                  */
  int stop;              /* under lock                                  */
  int cancel;            /* set at shutdown: searches stop at once (read
                            by the bots without the lock, scopa.h)       */
  void (*wake)(void *);
  void *wake_arg;
  int nthreads;
  worker *workers;
};

static void push(fifo *f, job_node *n) {
  n->next = NULL;
  if (f->tail)
    f->tail->next = n;
  else
    f->head = n;
  f->tail = n;
}

static job_node *pop(fifo *f) {
  job_node *n = f->head;
  if (n) {
    f->head = n->next;
    if (!f->head)
      f->tail = NULL;
  }
  return n;
}

/* This worker's bot of that name (a level name is resolved first). */
static scopa_bot *bot_for(worker *w, const char *name) {
  const char *real = name;
  scopa_bot_level(name, &real, NULL);
  for (int i = 0; i < w->nbots; i++)
    if (strcmp(scopa_bot_name(w->bot[i]), real) == 0)
      return w->bot[i];
  scopa_bot *bot = NULL;
  if (scopa_bot_new(real, &bot) != SCOPA_OK)
    return NULL;
  if (w->nbots == WORKER_BOTS) { /* cannot happen with the library's bots */
    scopa_bot_free(w->bot[--w->nbots]);
  }
  w->bot[w->nbots++] = bot;
  return bot;
}

static void think(worker *w, bot_job *job) {
  scopa_bot *bot = bot_for(w, job->bot);
  scopa_bot_limits limits;
  memset(&limits, 0, sizeof limits);
  limits.movetime_ms = job->movetime_ms;
  limits.seed = job->seed;
  limits.threads = 1;
  limits.deadline_ns = job->deadline_ns;
  limits.cancel = &w->pool->cancel;
  if (!bot) {
    job->rc = SCOPA_EINVAL;
    scopa_match_free(job->match);
    job->match = NULL;
    return;
  }
  if (job->kind == BOTJOB_REVIEW) {
    job->result = scopa_match_review_json(
        job->match, bot, (uint64_t)job->movetime_ms * SCOPA_BOT_NODES_PER_MS,
        -1, NULL, 0);
    scopa_match_free(job->match);
    job->match = NULL;
    job->rc = job->result ? SCOPA_OK : SCOPA_ENOMEM;
    return;
  }
  if (job->kind != BOTJOB_HINT) {
    job->rc = scopa_bot_choose(bot, &job->view, &limits, &job->move);
    return;
  }
  /* The hint at a table: the game's hint seed, and movetime_ms (--hint-ms)
   * as a node budget, the same work on any machine or load. */
  int n = scopa_match_hint(job->match, bot, &limits, job->hints, BOTJOB_HINTS,
                           &job->view);
  scopa_match_free(job->match);
  job->match = NULL;
  job->rc = n < 0 ? n : SCOPA_OK;
  job->nvalues = n < 0 ? 0 : n > BOTJOB_HINTS ? BOTJOB_HINTS : n;
  if (job->nvalues > 0)
    job->move = job->hints[0].move;
}

static int is_slow(const bot_job *job) {
  return job->kind == BOTJOB_HINT || job->kind == BOTJOB_REVIEW;
}

/* Under lock: the next job this worker may take, moves first. */
static job_node *next_job(bots *b) {
  job_node *n = pop(&b->todo);
  if (!n && b->slow_busy < b->slow_max && (n = pop(&b->slow))) {
    b->slow_queued--;
    b->slow_busy++;
  }
  return n;
}

static void *work(void *arg) {
  worker *w = arg;
  bots *b = w->pool;
  pthread_mutex_lock(&b->lock);
  for (;;) {
    job_node *n = NULL;
    while (!b->stop && !(n = next_job(b)))
      pthread_cond_wait(&b->more, &b->lock);
    if (b->stop) {
      if (n)
        push(is_slow(&n->job) ? &b->slow : &b->todo, n); /* freed below */
      break;
    }
    b->queued--;
    b->busy++;
    pthread_mutex_unlock(&b->lock);
    think(w, &n->job);
    pthread_mutex_lock(&b->lock);
    b->busy--;
    if (is_slow(&n->job)) {
      b->slow_busy--;
      pthread_cond_broadcast(&b->more); /* another may take a slow one */
    }
    push(&b->done, n);
    pthread_mutex_unlock(&b->lock);
    b->wake(b->wake_arg);
    pthread_mutex_lock(&b->lock);
  }
  pthread_mutex_unlock(&b->lock);
  for (int i = 0; i < w->nbots; i++)
    scopa_bot_free(w->bot[i]);
  return NULL;
}

bots *bots_new(int threads, int slow_cap, void (*wake)(void *), void *arg) {
  bots *b = calloc(1, sizeof *b);
  if (!b)
    return NULL;
  b->slow_max = threads > 1 ? threads - 1 : 1;
  b->slow_cap = slow_cap;
  b->workers = calloc((size_t)threads, sizeof *b->workers);
  if (!b->workers)
    goto fail_workers;
  pthread_mutex_init(&b->lock, NULL);
  pthread_cond_init(&b->more, NULL);
  b->wake = wake;
  b->wake_arg = arg;
  for (; b->nthreads < threads; b->nthreads++) {
    worker *w = &b->workers[b->nthreads];
    w->pool = b;
    if (pthread_create(&w->thread, NULL, work, w) != 0)
      goto fail_threads;
  }
  return b;
fail_threads:
  bots_free(b);
  return NULL;
fail_workers:
  free(b);
  return NULL;
}

static void drop(fifo *f) {
  job_node *n;
  while ((n = pop(f))) {
    scopa_match_free(n->job.match);
    free(n->job.result);
    free(n);
  }
}

void bots_free(bots *b) {
  if (!b)
    return;
  pthread_mutex_lock(&b->lock);
  __atomic_store_n(&b->cancel, 1, __ATOMIC_SEQ_CST);
  b->stop = 1;
  pthread_cond_broadcast(&b->more);
  pthread_mutex_unlock(&b->lock);
  for (int i = 0; i < b->nthreads; i++)
    pthread_join(b->workers[i].thread, NULL);
  drop(&b->todo);
  drop(&b->slow);
  drop(&b->done);
  pthread_cond_destroy(&b->more);
  pthread_mutex_destroy(&b->lock);
  free(b->workers);
  free(b);
}

int bots_submit(bots *b, const bot_job *job) {
  int slow = is_slow(job);
  pthread_mutex_lock(&b->lock);
  int full = slow && b->slow_queued >= b->slow_cap;
  pthread_mutex_unlock(&b->lock);
  if (full)
    return BOTS_BUSY;
  job_node *n = malloc(sizeof *n);
  if (!n)
    return -1;
  n->job = *job;
  pthread_mutex_lock(&b->lock);
  push(slow ? &b->slow : &b->todo, n);
  b->queued++;
  b->slow_queued += slow;
  pthread_cond_signal(&b->more);
  pthread_mutex_unlock(&b->lock);
  return 0;
}

int bots_take(bots *b, bot_job *out, int cap) {
  int n = 0;
  pthread_mutex_lock(&b->lock);
  job_node *node;
  while (n < cap && (node = pop(&b->done))) {
    out[n++] = node->job;
    free(node);
  }
  pthread_mutex_unlock(&b->lock);
  return n;
}

int bots_pending(bots *b) {
  pthread_mutex_lock(&b->lock);
  int n = b->queued + b->busy;
  pthread_mutex_unlock(&b->lock);
  return n;
}
