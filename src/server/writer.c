/*
 * writer.c -- writer.h.  The loop thread appends operations to `open`
 * (its own, no lock); writer_flush moves them, tagged with the batch
 * number, onto `queue` under the lock.  The thread takes everything
 * queued, runs it in one BEGIN IMMEDIATE ... COMMIT on its own SQLite
 * connection, then publishes the highest batch number it committed.
 * Ratings are read and written inside that transaction (read-then-write,
 * hence IMMEDIATE), so two games ending together never lose an update.
 */
#include "writer.h"

#include "rating.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OP_GAME, OP_SEAT, OP_MOVE, OP_FINISH, OP_RATE, OP_END };

typedef struct op {
  struct op *next;
  int kind;
  uint64_t batch; /* OP_END: the batch this op closes                  */
  char code[PROTO_CODE_MAX + 1];
  int number; /* OP_SEAT: the seat; OP_MOVE: the move's number     */
  scopa_move move;
  store_seat seat;
  store_game *game; /* OP_GAME: a deep copy                             */
  rate_job *rate;   /* OP_RATE                                          */
} op;

typedef struct list {
  op *head, *tail;
} list;

struct writer {
  store *st; /* the thread's own connection                          */
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t more;
  list open;          /* loop thread only                              */
  list queue;         /* under lock                                    */
  int stop;           /* under lock                                    */
  uint64_t committed; /* atomic: the last batch committed              */
  int failed;         /* atomic                                        */
  uint64_t commits, commit_us; /* atomic                                */
  void (*wake)(void *);
  void *wake_arg;
};

static void append(list *l, op *o) {
  o->next = NULL;
  if (l->tail)
    l->tail->next = o;
  else
    l->head = o;
  l->tail = o;
}

static void free_op(op *o) {
  if (o->game) {
    store_game_free(o->game);
    free(o->game);
  }
  free(o->rate);
  free(o);
}

static op *new_op(writer *w, int kind, const char *code) {
  op *o = calloc(1, sizeof *o);
  if (!o) { /* cannot record the write: nothing of this batch may go out */
    __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
    return NULL;
  }
  o->kind = kind;
  if (code)
    snprintf(o->code, sizeof o->code, "%s", code);
  return o;
}

void writer_add_game(writer *w, const store_game *g) {
  op *o = new_op(w, OP_GAME, g->code);
  if (!o)
    return;
  o->game = malloc(sizeof *o->game);
  if (o->game) {
    *o->game = *g;
    o->game->moves = NULL;
    o->game->nmoves = 0;
    o->game->rules_json = strdup(g->rules_json);
  }
  if (!o->game || !o->game->rules_json) {
    free_op(o);
    __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
    return;
  }
  append(&w->open, o);
}

void writer_set_seat(writer *w, const char *code, int seat,
                     const store_seat *s) {
  op *o = new_op(w, OP_SEAT, code);
  if (o) {
    o->number = seat;
    o->seat = *s;
    append(&w->open, o);
  }
}

void writer_add_move(writer *w, const char *code, int number, scopa_move move) {
  op *o = new_op(w, OP_MOVE, code);
  if (o) {
    o->number = number;
    o->move = move;
    append(&w->open, o);
  }
}

void writer_finish(writer *w, const char *code) {
  op *o = new_op(w, OP_FINISH, code);
  if (o)
    append(&w->open, o);
}

void writer_rate(writer *w, const rate_job *job) {
  op *o = new_op(w, OP_RATE, job->code);
  if (!o)
    return;
  o->rate = malloc(sizeof *o->rate);
  if (!o->rate) {
    free_op(o);
    __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
    return;
  }
  *o->rate = *job;
  append(&w->open, o);
}

void writer_flush(writer *w, uint64_t batch) {
  op *end = new_op(w, OP_END, NULL);
  if (!end)
    return;
  end->batch = batch;
  append(&w->open, end);
  pthread_mutex_lock(&w->lock);
  if (w->queue.tail)
    w->queue.tail->next = w->open.head;
  else
    w->queue.head = w->open.head;
  w->queue.tail = w->open.tail;
  pthread_cond_signal(&w->more);
  pthread_mutex_unlock(&w->lock);
  w->open.head = w->open.tail = NULL;
}

uint64_t writer_committed(writer *w) {
  return __atomic_load_n(&w->committed, __ATOMIC_ACQUIRE);
}

void writer_stats(writer *w, uint64_t *commits, uint64_t *us) {
  *commits = __atomic_load_n(&w->commits, __ATOMIC_RELAXED);
  *us = __atomic_load_n(&w->commit_us, __ATOMIC_RELAXED);
}

int writer_failed(writer *w) {
  return __atomic_load_n(&w->failed, __ATOMIC_ACQUIRE);
}

/* Glicko-2 for every side against every other, from the ratings before
 * the game (all read first: one rating period). */
static void run_rate(store *st, const rate_job *j) {
  rating before[PROTO_MAX_SEATS];
  int games[PROTO_MAX_SEATS];
  if (store_is_rated(st, j->code) == 1)
    return;
  for (int s = 0; s < j->sides; s++) {
    store_rating r = {RATING_START, RATING_START_RD, RATING_START_VOL, 0};
    store_rating_get(st, j->pool, j->key[s], &r);
    before[s] = (rating){r.rating, r.rd, r.vol};
    games[s] = r.games;
  }
  for (int s = 0; s < j->sides; s++) {
    rating opp[PROTO_MAX_SEATS];
    double score[PROTO_MAX_SEATS];
    int n = 0;
    for (int o = 0; o < j->sides; o++)
      if (o != s) {
        opp[n] = before[o];
        score[n++] = j->score[s][o];
      }
    rating after = rating_update(before[s], opp, score, n, 0.5);
    store_rating r = {after.r, after.rd, after.vol, games[s] + 1};
    store_rating_put(st, j->pool, j->key[s], j->name[s], &r);
  }
  store_set_rated(st, j->code);
}

/* Runs one op inside the open transaction; returns its batch if it is an
 * OP_END, else 0. */
static uint64_t run_op(store *st, const op *o) {
  switch (o->kind) {
  case OP_GAME:
    store_add_game(st, o->game);
    break;
  case OP_SEAT:
    store_set_seat(st, o->code, o->number, &o->seat);
    break;
  case OP_MOVE:
    store_add_move(st, o->code, o->number, o->move);
    break;
  case OP_FINISH:
    store_finish(st, o->code);
    break;
  case OP_RATE:
    run_rate(st, o->rate);
    break;
  case OP_END:
    return o->batch;
  }
  return 0;
}

static void *work(void *arg) {
  writer *w = arg;
  char msg[256];
  pthread_mutex_lock(&w->lock);
  for (;;) {
    while (!w->stop && !w->queue.head)
      pthread_cond_wait(&w->more, &w->lock);
    op *todo = w->queue.head;
    w->queue.head = w->queue.tail = NULL;
    int stop = w->stop;
    pthread_mutex_unlock(&w->lock);
    uint64_t last = 0;
    int64_t start = scopa_clock_ns();
    if (todo && store_begin(w->st) == 0) {
      for (op *o = todo; o; o = o->next) {
        uint64_t b = run_op(w->st, o);
        last = b ? b : last;
      }
      if (store_commit(w->st, msg, sizeof msg) != 0) {
        fprintf(stderr, "scopa serve: the store failed: %s\n", msg);
        __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
      } else if (last) {
        __atomic_store_n(&w->committed, last, __ATOMIC_RELEASE);
      }
      __atomic_add_fetch(&w->commits, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch(&w->commit_us,
                         (uint64_t)(scopa_clock_ns() - start) / 1000,
                         __ATOMIC_RELAXED);
    } else if (todo) {
      __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
    }
    while (todo) {
      op *next = todo->next;
      free_op(todo);
      todo = next;
    }
    if (last || writer_failed(w))
      w->wake(w->wake_arg);
    pthread_mutex_lock(&w->lock);
    if (stop && !w->queue.head)
      break;
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

writer *writer_new(const char *path, void (*wake)(void *), void *arg, char *msg,
                   size_t msgsize) {
  writer *w = calloc(1, sizeof *w);
  if (!w) {
    snprintf(msg, msgsize, "out of memory");
    return NULL;
  }
  if (store_open(path, &w->st, msg, msgsize))
    goto fail_store;
  pthread_mutex_init(&w->lock, NULL);
  pthread_cond_init(&w->more, NULL);
  w->wake = wake;
  w->wake_arg = arg;
  if (pthread_create(&w->thread, NULL, work, w) != 0) {
    snprintf(msg, msgsize, "cannot start the writer thread");
    goto fail_thread;
  }
  return w;
fail_thread:
  pthread_cond_destroy(&w->more);
  pthread_mutex_destroy(&w->lock);
  store_close(w->st);
fail_store:
  free(w);
  return NULL;
}

void writer_free(writer *w) {
  if (!w)
    return;
  pthread_mutex_lock(&w->lock);
  w->stop = 1;
  pthread_cond_signal(&w->more);
  pthread_mutex_unlock(&w->lock);
  pthread_join(w->thread, NULL);
  while (w->open.head) { /* written but never flushed: never announced */
    op *next = w->open.head->next;
    free_op(w->open.head);
    w->open.head = next;
  }
  pthread_cond_destroy(&w->more);
  pthread_mutex_destroy(&w->lock);
  store_close(w->st);
  free(w);
}
