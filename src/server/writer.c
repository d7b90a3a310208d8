/*
 * writer.c -- writer.h.  The loop thread appends operations to `open`
 * (its own, no lock); writer_flush moves them, tagged with the batch
 * number, onto `queue` under the lock.  The thread takes everything
 * queued (a group), runs it in one BEGIN IMMEDIATE ... COMMIT on its own
 * SQLite connection, then publishes the highest batch number it settled.
 * Ratings are read and written inside that transaction (read-then-write,
 * hence IMMEDIATE), so two games ending together never lose an update.
 *
 * A failed write (commit_group): the transaction is rolled back; when
 * the fault is the write's own, its table joins `dropped` and the group
 * runs again without that table's writes, else every table of the group
 * joins it.  Each failed table is listed once in `failures` (under the
 * lock) before the group's batch number is published, so the loop never
 * releases what is held for it.  A table leaves `dropped` at its
 * OP_FORGET (writer_forget), once the group holding it is settled: by
 * then no write of that table in memory is left in the queue.
 */
#include "writer.h"

#include "glicko.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
  OP_GAME,
  OP_SEAT,
  OP_MOVE,
  OP_FINISH,
  OP_RATE,
  OP_TALK,
  OP_REPORT,
  OP_FORGET,
  OP_END
};

typedef struct op {
  struct op *next;
  int kind;
  uint64_t batch; /* OP_END: the batch this op closes                  */
  uint64_t table; /* the table in memory it is for (OP_END: 0)         */
  char code[STORE_CODE_MAX + 1];
  int number; /* OP_SEAT: the seat; OP_MOVE: its number; OP_FINISH: abandoned */
  scopa_move move;
  int64_t at_ms;   /* OP_MOVE: when it was made (ms, wall clock) */
  int took_ms;     /* ... and the time its turn took (the bank's) */
  long long epoch; /* a write through the table's lease: its epoch  */
  char node[24];   /* ... and the node holding it (epoch 0: none)   */
  store_seat seat;
  store_game *game;     /* OP_GAME: a deep copy                             */
  rate_job *rate;       /* OP_RATE                                          */
  store_talk talk;      /* OP_TALK: its text malloc'd                       */
  store_report *report; /* OP_REPORT                                    */
} op;

typedef struct list {
  op *head, *tail;
} list;

typedef struct ids { /* a small set: the failed tables not yet forgotten */
  uint64_t *id;
  size_t n, cap;
} ids;

struct writer {
  store *st; /* the thread's own connection                          */
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t more;
  list open;          /* loop thread only                              */
  list queue;         /* under lock                                    */
  int stop;           /* under lock                                    */
  uint64_t committed; /* atomic: the last batch settled                */
  int failed;         /* atomic                                        */
  uint64_t commits, commit_us; /* atomic                                */
  void (*wake)(void *);
  void *wake_arg;

  ids dropped; /* thread only: the tables whose writes are dropped     */
  writer_failure *failures; /* under lock: for the loop to take  */
  int nfailures, capfailures;
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
  free(o->talk.text);
  free(o->report);
  free(o);
}

static op *new_op(writer *w, int kind, uint64_t table_id, const char *code) {
  op *o = calloc(1, sizeof *o);
  if (!o) { /* cannot record the write: nothing of this batch may go out */
    __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
    return NULL;
  }
  o->kind = kind;
  o->table = table_id;
  if (code)
    snprintf(o->code, sizeof o->code, "%s", code);
  return o;
}

/* The table's lease, which every write of the table goes through. */
static void fence(op *o, const char *node, long long epoch) {
  o->epoch = epoch;
  snprintf(o->node, sizeof o->node, "%s", node ? node : "");
}

void writer_add_game(writer *w, uint64_t table_id, const store_game *g,
                     const char *node, long long epoch) {
  op *o = new_op(w, OP_GAME, table_id, g->code);
  if (!o)
    return;
  fence(o, node, epoch);
  o->game = malloc(sizeof *o->game);
  if (o->game) {
    *o->game = *g;
    o->game->moves = NULL;
    o->game->move_at = NULL;
    o->game->move_took = NULL;
    o->game->nmoves = 0;
    o->game->talk = NULL;
    o->game->ntalk = 0;
    o->game->rules_json = strdup(g->rules_json);
  }
  if (!o->game || !o->game->rules_json) {
    free_op(o);
    __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
    return;
  }
  append(&w->open, o);
}

void writer_set_seat(writer *w, uint64_t table_id, const char *code, int seat,
                     const store_seat *s, const char *node, long long epoch) {
  op *o = new_op(w, OP_SEAT, table_id, code);
  if (o) {
    fence(o, node, epoch);
    o->number = seat;
    o->seat = *s;
    append(&w->open, o);
  }
}

void writer_add_move(writer *w, uint64_t table_id, const char *code, int number,
                     scopa_move move, int64_t at_ms, int took_ms,
                     const char *node, long long epoch) {
  op *o = new_op(w, OP_MOVE, table_id, code);
  if (o) {
    o->number = number;
    o->move = move;
    o->at_ms = at_ms;
    o->took_ms = took_ms;
    fence(o, node, epoch);
    append(&w->open, o);
  }
}

void writer_finish(writer *w, uint64_t table_id, const char *code,
                   int abandoned, const char *node, long long epoch) {
  op *o = new_op(w, OP_FINISH, table_id, code);
  if (o) {
    o->number = abandoned;
    fence(o, node, epoch);
    append(&w->open, o);
  }
}

void writer_rate(writer *w, uint64_t table_id, const rate_job *job,
                 const char *node, long long epoch) {
  op *o = new_op(w, OP_RATE, table_id, job->code);
  if (!o)
    return;
  fence(o, node, epoch);
  o->rate = malloc(sizeof *o->rate);
  if (!o->rate) {
    free_op(o);
    __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
    return;
  }
  *o->rate = *job;
  append(&w->open, o);
}

void writer_add_talk(writer *w, uint64_t table_id, const char *code,
                     const store_talk *line, const char *node,
                     long long epoch) {
  op *o = new_op(w, OP_TALK, table_id, code);
  if (!o)
    return;
  fence(o, node, epoch);
  o->talk = *line;
  if (!(o->talk.text = strdup(line->text))) {
    free_op(o);
    __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
    return;
  }
  append(&w->open, o);
}

void writer_add_report(writer *w, uint64_t table_id, const store_report *r,
                       const char *node, long long epoch) {
  op *o = new_op(w, OP_REPORT, table_id, r->code);
  if (!o)
    return;
  fence(o, node, epoch);
  if (!(o->report = malloc(sizeof *o->report))) {
    free_op(o);
    __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
    return;
  }
  *o->report = *r;
  append(&w->open, o);
}

void writer_forget(writer *w, uint64_t table_id) {
  op *o = calloc(1, sizeof *o); /* out of memory: the id is kept, no harm */
  if (o) {
    o->kind = OP_FORGET;
    o->table = table_id;
    append(&w->open, o);
  }
}

int writer_take_failed(writer *w, writer_failure *out, int cap) {
  pthread_mutex_lock(&w->lock);
  int n = w->nfailures < cap ? w->nfailures : cap;
  if (n > 0) {
    memcpy(out, w->failures, (size_t)n * sizeof *out);
    memmove(w->failures, w->failures + n,
            (size_t)(w->nfailures - n) * sizeof *out);
    w->nfailures -= n;
  }
  pthread_mutex_unlock(&w->lock);
  return n;
}

void writer_flush(writer *w, uint64_t batch) {
  op *end = new_op(w, OP_END, 0, NULL);
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

/* Whether two accounts on different sides already had their
 * RATE_PAIR_PER_DAY rated games in the last day: 1, 0, or -1. */
static int pair_capped(store *st, const rate_job *j) {
  long long since = (long long)time(NULL) - 86400;
  for (int a = 0; a < j->nseats; a++)
    for (int b = a + 1; b < j->nseats; b++) {
      if (a % j->sides == b % j->sides)
        continue; /* partners */
      int n =
          store_pair_games(st, j->pool, j->account[a], j->account[b], since);
      if (n < 0 || n >= RATE_PAIR_PER_DAY)
        return n < 0 ? -1 : 1;
    }
  return 0;
}

/* Side o as one opponent: its members' mean rating and deviation. */
static rating side_mean(const rate_job *j, const rating *before, int o) {
  rating m = {0, 0, RATING_START_VOL};
  int n = 0;
  for (int i = o; i < j->nseats; i += j->sides, n++) {
    m.r += before[i].r;
    m.rd += before[i].rd;
  }
  m.r /= n;
  m.rd /= n;
  return m;
}

static int put(store *st, const rate_job *j, int seat, rating after,
               int games) {
  char key[32];
  store_rating r = {after.r, after.rd, after.vol, games, j->account[seat]};
  snprintf(key, sizeof key, "a:%lld", j->account[seat]);
  return store_rating_put(st, j->pool, key, j->name[seat], &r) ||
         store_rating_log(st, j->pool, j->account[seat], j->code, &r);
}

/* Glicko-2 for every account against every other side (a team as the
 * mean of its members), from the ratings before the game (all read
 * first: one rating period).  A side that left (a bot played for it at
 * the end) loses against the others, but they gain nothing from it: so
 * accounts made to lose on purpose raise nobody.  0, or -1 when a read or a
 * write failed. */
static int run_rate(store *st, const rate_job *j) {
  rating before[STORE_MAX_SEATS];
  int games[STORE_MAX_SEATS];
  int rated = store_is_rated(st, j->code), capped = 0;
  if (rated != 0)
    return rated == 1 ? 0 : -1;
  if ((capped = pair_capped(st, j)) != 0)
    return capped < 0 ? -1 : store_set_rated(st, j->code);
  for (int s = 0; s < j->nseats; s++) {
    char key[32];
    store_rating r = {RATING_START, RATING_START_RD, RATING_START_VOL, 0, 0};
    snprintf(key, sizeof key, "a:%lld", j->account[s]);
    if (store_rating_get(st, j->pool, key, &r) < 0)
      return -1;
    before[s] = (rating){r.rating, r.rd, r.vol};
    games[s] = r.games;
  }
  for (int s = 0; s < j->nseats; s++) {
    rating opp[STORE_MAX_SEATS];
    double score[STORE_MAX_SEATS];
    int n = 0, side = s % j->sides;
    for (int o = 0; o < j->sides; o++)
      if (o != side && !(j->abandoned[o] && !j->abandoned[side])) {
        opp[n] = side_mean(j, before, o);
        score[n++] = j->score[side][o];
      }
    if (n == 0)
      continue; /* won only because the others left: nothing to gain */
    if (put(st, j, s, rating_update(before[s], opp, score, n, 0.5),
            games[s] + 1))
      return -1;
  }
  return store_set_rated(st, j->code);
}

static int is_write(const op *o) { return o->kind < OP_FORGET; }

/* Runs one write inside the open transaction: 0, or -1 when it failed.
 * A write of a table with a lease goes through its fence (a move's is
 * in its own statement), so a node that lost the lease writes nothing
 * of the table: no seat, no game, no end, no rating. */
static int run_op(store *st, const op *o) {
  if (o->epoch > 0 && o->kind != OP_MOVE && is_write(o) &&
      store_fence(st, o->code, o->node, o->epoch))
    return -1;
  switch (o->kind) {
  case OP_GAME:
    return store_add_game(st, o->game);
  case OP_SEAT:
    return store_set_seat(st, o->code, o->number, &o->seat);
  case OP_MOVE:
    return o->epoch > 0
               ? store_add_move_fenced(st, o->code, o->number, o->move,
                                       o->at_ms, o->took_ms, o->node, o->epoch)
               : store_add_move(st, o->code, o->number, o->move, o->at_ms,
                                o->took_ms);
  case OP_FINISH:
    return store_finish(st, o->code, o->number);
  case OP_RATE:
    return run_rate(st, o->rate);
  case OP_TALK:
    return store_add_talk(st, o->code, &o->talk);
  case OP_REPORT:
    return store_add_report(st, o->report);
  }
  return 0; /* OP_FORGET, OP_END: no write */
}

static int has_id(const ids *s, uint64_t id) {
  for (size_t i = 0; i < s->n; i++)
    if (s->id[i] == id)
      return 1;
  return 0;
}

static void forget_id(ids *s, uint64_t id) {
  for (size_t i = 0; i < s->n; i++)
    if (s->id[i] == id)
      s->id[i--] = s->id[--s->n];
}

static int add_id(ids *s, uint64_t id) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    uint64_t *more = realloc(s->id, cap * sizeof *more);
    if (!more)
      return -1;
    s->id = more;
    s->cap = cap;
  }
  s->id[s->n++] = id;
  return 0;
}

static int push_failure(writer *w, const writer_failure *f) {
  int rc = 0;
  pthread_mutex_lock(&w->lock);
  if (w->nfailures == w->capfailures) {
    int cap = w->capfailures ? 2 * w->capfailures : 16;
    writer_failure *more = realloc(w->failures, (size_t)cap * sizeof *more);
    if (more) {
      w->failures = more;
      w->capfailures = cap;
    }
  }
  if (w->nfailures < w->capfailures)
    w->failures[w->nfailures++] = *f;
  else
    rc = -1;
  pthread_mutex_unlock(&w->lock);
  return rc;
}

/* Stops the table of write o (once): its writes are dropped from now on
 * and the loop hears why.  Without memory to say so, the server stops. */
static void fail_table(writer *w, const op *o) {
  if (has_id(&w->dropped, o->table))
    return;
  writer_failure f = {.table = o->table};
  snprintf(f.code, sizeof f.code, "%s", o->code);
  store_why(w->st, &f.why_en, &f.why_it);
  fprintf(stderr, "scopa serve: table %s stopped: a write failed (%s)\n",
          o->code, f.why_en);
  if (add_id(&w->dropped, o->table) || push_failure(w, &f))
    __atomic_store_n(&w->failed, 1, __ATOMIC_SEQ_CST);
}

static void fail_group(writer *w, const op *todo) {
  for (const op *o = todo; o; o = o->next)
    if (is_write(o))
      fail_table(w, o);
}

/* The group's writes, but the dropped tables'; the write that failed, or
 * NULL. */
static const op *run_group(writer *w, const op *todo) {
  for (const op *o = todo; o; o = o->next)
    if (is_write(o) && !has_id(&w->dropped, o->table) && run_op(w->st, o))
      return o;
  return NULL;
}

/* One group in one transaction, again without a table whose own write
 * failed (each round drops one table more, so it ends). */
static void commit_group(writer *w, const op *todo) {
  char msg[256];
  for (;;) {
    if (store_begin(w->st) != 0)
      return fail_group(w, todo);
    const op *bad = run_group(w, todo);
    if (!bad) {
      if (store_commit(w->st, msg, sizeof msg) == 0)
        return;
      fprintf(stderr, "scopa serve: the store failed: %s\n", msg);
      return fail_group(w, todo);
    }
    int local = store_failure_is_local(w->st);
    store_rollback(w->st);
    if (!local)
      return fail_group(w, todo);
    fail_table(w, bad);
  }
}

/* Commits a group, then publishes its last batch as settled (after its
 * failures, writer.h) and forgets the tables the loop let go of. */
static void settle(writer *w, const op *todo) {
  int64_t start = scopa_clock_ns();
  size_t dropped_before = w->dropped.n;
  uint64_t last = 0;
  commit_group(w, todo);
  __atomic_add_fetch(&w->commits, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&w->commit_us, (uint64_t)(scopa_clock_ns() - start) / 1000,
                     __ATOMIC_RELAXED);
  int news = w->dropped.n != dropped_before;
  for (const op *o = todo; o; o = o->next)
    if (o->kind == OP_END)
      last = o->batch;
    else if (o->kind == OP_FORGET)
      forget_id(&w->dropped, o->table);
  if (last)
    __atomic_store_n(&w->committed, last, __ATOMIC_RELEASE);
  if (last || news || writer_failed(w))
    w->wake(w->wake_arg);
}

static void *work(void *arg) {
  writer *w = arg;
  pthread_mutex_lock(&w->lock);
  for (;;) {
    while (!w->stop && !w->queue.head)
      pthread_cond_wait(&w->more, &w->lock);
    op *todo = w->queue.head;
    w->queue.head = w->queue.tail = NULL;
    int stop = w->stop;
    pthread_mutex_unlock(&w->lock);
    if (todo)
      settle(w, todo);
    while (todo) {
      op *next = todo->next;
      free_op(todo);
      todo = next;
    }
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
  free(w->dropped.id);
  free(w->failures);
  free(w);
}
