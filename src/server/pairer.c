/*
 * pairer.c -- Play now's thread (pairer.h).  The loop's requests (seeks
 * added, seeks dropped) and the thread's news (ratings read, seeks
 * paired) go through two queues under one mutex; the thread does
 * everything else on its own store connection:
 *
 *   requests  each added seek gets its rating (the account's in the
 *             rules' pool, PAIRER_GUEST for a guest) and its row; each
 *             dropped seek loses its row
 *   the pass  while this node has seeks: its seeks beat, the stale rows
 *             of dead nodes go, then in one batch under the cluster's
 *             lock every unpaired seek is read, grouped (pairing.h; a
 *             seek whose node stopped beating is left out), and each
 *             group gets a new table, every seat open, with its rows
 *             marked by the table's code
 *   the news  this node's paired rows are taken off and handed to the
 *             loop, which seats each person (seek.c)
 */
#include "pairer.h"

#include "glicko.h"
#include "pairing.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct req {
  int drop; /* 1: drop seek.id; 0: add seek                        */
  store_seek seek;
  struct req *next;
} req;

struct pairer {
  store *st;
  char node[24];
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  req *head, *tail; /* the loop's requests, in order                  */
  pairer_news *news;
  int nnews, capnews;
  int stop;
  int (*random_code)(char code[STORE_CODE_MAX + 1]);
  void (*wake)(void *);
  void *arg;
  /* The thread's own: the ids of this node's seeks in the store. */
  char (*own)[33];
  int nown, capown;
};

static long long unix_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void req_free(req *r) {
  free(r->seek.rules_json);
  free(r);
}

/* ------------------------------------------------------------------ */
/* The loop's side                                                     */
/* ------------------------------------------------------------------ */

static void push(pairer *p, req *r) {
  pthread_mutex_lock(&p->mu);
  if (p->tail)
    p->tail->next = r;
  else
    p->head = r;
  p->tail = r;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

int pairer_add(pairer *p, const store_seek *s) {
  req *r = calloc(1, sizeof *r);
  if (!r)
    return -1;
  r->seek = *s;
  r->seek.rules_json = strdup(s->rules_json ? s->rules_json : "");
  if (!r->seek.rules_json) {
    free(r);
    return -1;
  }
  push(p, r);
  return 0;
}

void pairer_drop(pairer *p, const char *id) {
  req *r = calloc(1, sizeof *r);
  if (!r)
    return; /* its row stays until the pass pairs it: seek.c ignores it */
  r->drop = 1;
  snprintf(r->seek.id, sizeof r->seek.id, "%s", id);
  push(p, r);
}

int pairer_take(pairer *p, pairer_news *out, int cap) {
  pthread_mutex_lock(&p->mu);
  int n = p->nnews < cap ? p->nnews : cap;
  if (n > 0) {
    memcpy(out, p->news, (size_t)n * sizeof *out);
    memmove(p->news, p->news + n, (size_t)(p->nnews - n) * sizeof *out);
    p->nnews -= n;
  }
  pthread_mutex_unlock(&p->mu);
  return n;
}

/* ------------------------------------------------------------------ */
/* The thread                                                          */
/* ------------------------------------------------------------------ */

static void tell(pairer *p, const char *id, const char *code, double r) {
  pthread_mutex_lock(&p->mu);
  if (p->nnews == p->capnews) {
    int cap = p->capnews ? 2 * p->capnews : 64;
    pairer_news *v = realloc(p->news, (size_t)cap * sizeof *v);
    if (!v) {
      pthread_mutex_unlock(&p->mu);
      return; /* the person keeps waiting; the table stays unjoined */
    }
    p->news = v;
    p->capnews = cap;
  }
  pairer_news *n = &p->news[p->nnews++];
  snprintf(n->id, sizeof n->id, "%s", id);
  snprintf(n->code, sizeof n->code, "%s", code);
  n->rating = r;
  pthread_mutex_unlock(&p->mu);
  p->wake(p->arg);
}

static int own_find(const pairer *p, const char *id) {
  for (int i = 0; i < p->nown; i++)
    if (strcmp(p->own[i], id) == 0)
      return i;
  return -1;
}

static void own_forget(pairer *p, const char *id) {
  int i = own_find(p, id);
  if (i >= 0)
    memcpy(p->own[i], p->own[--p->nown], sizeof p->own[i]);
}

static int own_add(pairer *p, const char *id) {
  if (p->nown == p->capown) {
    int cap = p->capown ? 2 * p->capown : 64;
    char(*v)[33] = realloc(p->own, (size_t)cap * sizeof *v);
    if (!v)
      return -1;
    p->own = v;
    p->capown = cap;
  }
  snprintf(p->own[p->nown++], 33, "%s", id);
  return 0;
}

static void add(pairer *p, store_seek *s) {
  snprintf(s->node, sizeof s->node, "%s", p->node);
  s->rating = PAIRER_GUEST;
  store_rating r;
  char player[32];
  snprintf(player, sizeof player, "a:%lld", s->account);
  if (s->account > 0 &&
      store_rating_get(p->st, rating_pool(s->players), player, &r) == 0)
    s->rating = r.rating;
  if (own_add(p, s->id) || store_seek_add(p->st, s)) {
    own_forget(p, s->id);
    fprintf(stderr, "scopa serve: pairer: a seek could not be stored\n");
    return; /* it is never paired; the person can seek again */
  }
  tell(p, s->id, "", s->rating);
}

/* A new table for seats[0, n) of w, every seat open: 0, or -1 (the
 * batch is to be rolled back). */
static int new_table(pairer *p, const store_seek *w, const int *seats, int n) {
  const store_seek *s = &w[seats[0]];
  store_game g = {.rules_json = s->rules_json,
                  .nseats = s->players,
                  .away_s = s->away_s,
                  .clock_s = s->bank_s > 0 ? 0 : s->clock_s,
                  .bank_s = s->bank_s,
                  .inc_s = s->inc_s};
  int found = 0;
  for (int attempt = 0; attempt < 20 && !found; attempt++)
    found = p->random_code(g.code) == 0 && store_has_code(p->st, g.code) == 0;
  if (!found || scopa_seed_random(g.seed) != SCOPA_OK)
    return -1;
  for (int i = 0; i < g.nseats; i++)
    g.seat[i].kind = STORE_OPEN;
  if (store_add_game(p->st, &g))
    return -1;
  for (int i = 0; i < n; i++)
    if (store_seek_pair(p->st, w[seats[i]].id, g.code))
      return -1;
  return 0;
}

/* The cluster's seeks grouped into tables, in one batch under the lock. */
static void pass(pairer *p, long long now) {
  store_seek *w = calloc(PAIRER_READ, sizeof *w);
  pairing_seek *ps = calloc(PAIRER_READ, sizeof *ps);
  int *table_of = calloc(PAIRER_READ, sizeof *table_of);
  int n = 0, m = 0;
  if (!w || !ps || !table_of || store_begin(p->st) || store_seek_lock(p->st) ||
      store_seek_waiting(p->st, w, PAIRER_READ, &n))
    goto out;
  /* Only the seeks of live nodes, listed first (w reordered in place). */
  for (int i = 0; i < n; i++)
    if (w[i].beat_ms >= now - PAIRER_STALE_MS) {
      store_seek t = w[m];
      w[m] = w[i];
      w[i] = t;
      ps[m] = (pairing_seek){.key = w[m].key,
                             .players = w[m].players,
                             .rating = w[m].rating,
                             .since_ms = w[m].since_ms,
                             .account = w[m].account};
      m++;
    }
  int tables = pairing_group(ps, m, now, table_of), failed = 0;
  for (int t = 0; t < tables && !failed; t++) {
    int seats[8], k = 0;
    for (int i = 0; i < m && k < 8; i++)
      if (table_of[i] == t)
        seats[k++] = i;
    failed = new_table(p, w, seats, k);
  }
  char err[256];
  if (failed || store_commit(p->st, err, sizeof err))
    fprintf(stderr, "scopa serve: pairer: a pairing pass failed%s\n",
            failed ? "" : " to commit");
out:
  if (store_in_batch(p->st))
    store_rollback(p->st);
  store_seek_free_all(w, n);
  free(w);
  free(ps);
  free(table_of);
}

/* This node's paired seeks, off the store and on to the loop. */
static void deliver(pairer *p) {
  char ids[64][33], codes[64][STORE_CODE_MAX + 1];
  int n = 64;
  while (n == 64 &&
         store_seek_paired(p->st, p->node, ids, codes, 64, &n) == 0) {
    for (int i = 0; i < n; i++) {
      own_forget(p, ids[i]);
      tell(p, ids[i], codes[i], 0);
    }
  }
}

static void *run(void *arg) {
  pairer *p = arg;
  long long next = 0;
  pthread_mutex_lock(&p->mu);
  while (!p->stop) {
    req *r = p->head;
    p->head = p->tail = NULL;
    pthread_mutex_unlock(&p->mu);
    while (r) {
      req *next_r = r->next;
      if (r->drop) {
        own_forget(p, r->seek.id);
        store_seek_drop(p->st, r->seek.id);
      } else
        add(p, &r->seek);
      req_free(r);
      r = next_r;
    }
    long long now = unix_ms();
    if (p->nown > 0 && now >= next) {
      store_seek_beat(p->st, p->node, now, now - PAIRER_GONE_MS);
      pass(p, now);
      deliver(p);
      next = now + PAIRER_TICK_MS;
    }
    pthread_mutex_lock(&p->mu);
    if (!p->stop && !p->head) {
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_nsec += PAIRER_TICK_MS * 1000000L;
      until.tv_sec += until.tv_nsec / 1000000000L;
      until.tv_nsec %= 1000000000L;
      pthread_cond_timedwait(&p->cv, &p->mu, &until);
    }
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

pairer *pairer_new(const char *where, const char *node,
                   int (*random_code)(char code[STORE_CODE_MAX + 1]),
                   void (*wake)(void *), void *arg, char *msg, size_t msgsize) {
  pairer *p = calloc(1, sizeof *p);
  if (!p) {
    snprintf(msg, msgsize, "pairer: out of memory");
    return NULL;
  }
  snprintf(p->node, sizeof p->node, "%s", node);
  p->random_code = random_code;
  p->wake = wake;
  p->arg = arg;
  if (store_open(where, &p->st, msg, msgsize)) {
    free(p);
    return NULL;
  }
  if (!node[0]) { /* one node: every seek in the file is a dead one's */
    long long now = unix_ms();
    store_seek_beat(p->st, "", now, now + 1);
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  if (pthread_create(&p->thread, NULL, run, p)) {
    snprintf(msg, msgsize, "pairer: no thread");
    store_close(p->st);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
    return NULL;
  }
  return p;
}

void pairer_free(pairer *p) {
  if (!p)
    return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
  pthread_join(p->thread, NULL);
  for (int i = 0; i < p->nown; i++) /* this node's seekers are gone */
    store_seek_drop(p->st, p->own[i]);
  for (req *r = p->head, *next; r; r = next) {
    next = r->next;
    req_free(r);
  }
  store_close(p->st);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  free(p->news);
  free(p->own);
  free(p);
}
