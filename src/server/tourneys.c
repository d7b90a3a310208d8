/*
 * tourneys.c -- the tournaments' thread (tourneys.h).  The loop's
 * requests and the thread's news go through two queues under one
 * mutex; everything else is the thread's, on its own store connection:
 *
 *   requests  create (limits: TOURNEYS_ACTIVE_MAX in all, TOURNEYS_PER_
 *             ACCOUNT for one creator), join (with the account's rating
 *             in the rules' pool), leave, start: each read and written
 *             back in one batch under the director's lock, so no pass
 *             of any node runs in between
 *   the pass  every TOURNEYS_TICK_MS, and at once after a start
 *   the news  each table in play this node has not told the loop of
 *             (the codes told are kept: a node that starts tells them
 *             all, and the loop seats whoever of them is connected)
 */
#define _GNU_SOURCE /* tdestroy */
#include "tourneys.h"

#include "glicko.h"
#include "tourney_state.h"

#include <jansson.h>
#include <proto.h>
#include <pthread.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct req {
  tourneys_req r;
  struct req *next;
} req;

struct tourneys {
  store *st;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  req *head, *tail;
  int nreq;
  tourneys_news *news;
  int nnews, capnews;
  int stop;
  int pass_now; /* a start was asked: the next pass at once            */
  int (*random_code)(char code[STORE_CODE_MAX + 1]);
  void (*wake)(void *);
  void *arg;
  void *told; /* tsearch tree of the table codes told (the thread's)  */
  /* The tables in play at the last pass (the thread's), for TQ_WHERE,
   * and the one being filled by the pass under way. */
  director_table *now, *next;
  int nnow, capnow, nnext, capnext, passed;
};

static long long unix_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void req_free(req *q) {
  free(q->r.echo);
  free(q->r.body);
  free(q->r.rules_json);
  free(q);
}

static char *dup_or_null(const char *s, int *failed) {
  char *d = s ? strdup(s) : NULL;
  if (s && !d)
    *failed = 1;
  return d;
}

/* ------------------------------------------------------------------ */
/* The loop's side                                                     */
/* ------------------------------------------------------------------ */

int tourneys_ask(tourneys *t, const tourneys_req *r) {
  req *q = calloc(1, sizeof *q);
  int failed = !q;
  if (q) {
    q->r = *r;
    q->r.echo = dup_or_null(r->echo, &failed);
    q->r.body = dup_or_null(r->body, &failed);
    q->r.rules_json = dup_or_null(r->rules_json, &failed);
  }
  pthread_mutex_lock(&t->mu);
  failed |= t->nreq >= TOURNEYS_QUEUE_MAX;
  if (!failed) {
    if (t->tail)
      t->tail->next = q;
    else
      t->head = q;
    t->tail = q;
    t->nreq++;
    pthread_cond_signal(&t->cv);
  }
  pthread_mutex_unlock(&t->mu);
  if (failed && q)
    req_free(q);
  return failed ? -1 : 0;
}

int tourneys_take(tourneys *t, tourneys_news *out, int cap) {
  pthread_mutex_lock(&t->mu);
  int n = t->nnews < cap ? t->nnews : cap;
  if (n > 0) {
    memcpy(out, t->news, (size_t)n * sizeof *out);
    memmove(t->news, t->news + n, (size_t)(t->nnews - n) * sizeof *out);
    t->nnews -= n;
  }
  pthread_mutex_unlock(&t->mu);
  return n;
}

/* ------------------------------------------------------------------ */
/* The thread                                                          */
/* ------------------------------------------------------------------ */

static void tell(tourneys *t, const tourneys_news *n) {
  pthread_mutex_lock(&t->mu);
  if (t->nnews == t->capnews) {
    int cap = t->capnews ? 2 * t->capnews : 64;
    tourneys_news *v = realloc(t->news, (size_t)cap * sizeof *v);
    if (!v) {
      pthread_mutex_unlock(&t->mu);
      free(n->text);
      return; /* lost: the page's list still shows the table */
    }
    t->news = v;
    t->capnews = cap;
  }
  t->news[t->nnews++] = *n;
  pthread_mutex_unlock(&t->mu);
  t->wake(t->arg);
}

static void answer(tourneys *t, const tourneys_req *r, char *text, int miss) {
  tourneys_news n = {.serial = r->serial, .text = text, .miss = miss};
  if (text)
    tell(t, &n);
}

static json_t *echo_of(const tourneys_req *r) {
  return r->echo ? json_loads(r->echo, JSON_DECODE_ANY, NULL) : NULL;
}

/* An error for r: code with its texts, or (for the codes whose text
 * names the tournament) the tournament's id. */
static void refuse(tourneys *t, const tourneys_req *r, const char *code,
                   const char *en, const char *it) {
  proto_error e;
  int by_id = strcmp(code, "tournament_over") == 0 ||
              strcmp(code, "tournament_full") == 0 ||
              strcmp(code, "not_joined") == 0 ||
              strcmp(code, "no_tourney") == 0;
  proto_error_set(&e, code, by_id ? r->id : en, by_id ? r->id : it);
  json_t *id = echo_of(r);
  answer(t, r, proto_error_json(id, &e), strcmp(code, "no_tourney") == 0);
  json_decref(id);
}

/* The answer to a request that changed (or made) a tournament: its view.
 * Its "id" is the tournament's, never the request's echo (a create's
 * numeric id would hide which tournament it made). */
static void tournament(tourneys *t, const tourneys_req *r,
                       const json_t *state) {
  json_t *o = ts_view(state, 0);
  if (o)
    json_object_set_new(o, "type", json_string("tournament"));
  answer(t, r, proto_finish(o, NULL), 0);
}

static void rollback(store *st) {
  if (store_in_batch(st))
    store_rollback(st);
}

/* Writes state as tournament `id`'s row and commits: 0, or -1. */
static int put(store *st, const char *id, long long created,
               const json_t *state) {
  char *text = json_dumps(state, JSON_COMPACT), err[256];
  store_tourney row = {
      .status = ts_status(state), .created_ms = created, .state = text};
  snprintf(row.id, sizeof row.id, "%s", id);
  int rc = text && store_tourney_put(st, &row) == 0 &&
                   store_commit(st, err, sizeof err) == 0
               ? 0
               : -1;
  free(text);
  return rc;
}

static int players_of(const char *rules_json) {
  json_t *rules = json_loads(rules_json, 0, NULL);
  int players = (int)json_integer_value(json_object_get(rules, "players"));
  json_decref(rules);
  return players;
}

/* 1 when the rules are in teams of two (Scopone's pairs). */
static int pairs_of(const char *rules_json) {
  json_t *rules = json_loads(rules_json, 0, NULL);
  int pairs = json_is_true(json_object_get(rules, "teams")) &&
              json_integer_value(json_object_get(rules, "team_size")) == 2;
  json_decref(rules);
  return pairs;
}

/* A new tournament's id: its format's letter (S, A, D: the tables know
 * a duplicate one by it, lobby.c), then random letters. */
static int new_id(tourneys *t, const char *format,
                  char id[STORE_CODE_MAX + 1]) {
  char letter = format && strcmp(format, "arena") == 0       ? 'A'
                : format && strcmp(format, "duplicate") == 0 ? 'D'
                                                             : 'S';
  for (int attempt = 0; attempt < 20; attempt++) {
    store_tourney row;
    if (t->random_code(id))
      return -1;
    id[0] = letter;
    int rc = store_tourney_get(t->st, id, &row);
    if (rc == 0)
      free(row.state);
    if (rc == 1)
      return 0;
    if (rc < 0)
      return -1;
  }
  return -1;
}

static void do_create(tourneys *t, tourneys_req *r) {
  json_t *msg = json_loads(r->body, 0, NULL);
  const char *format = json_string_value(json_object_get(msg, "format"));
  store_tourney *list = NULL;
  int n = 0, mine = 0;
  int players = players_of(r->rules_json);
  if (players != 2 && !(players == 4 && pairs_of(r->rules_json) && format &&
                        strcmp(format, "swiss") == 0)) {
    json_decref(msg);
    return refuse(t, r, "bad_rules",
                  "tournaments are played by two, or by Scopone pairs "
                  "(four players in two teams) in a Swiss",
                  "i tornei si giocano in due, o a coppie di Scopone "
                  "(quattro giocatori in due squadre) in uno svizzero");
  }
  if (!msg || store_begin(t->st) || store_tourney_lock(t->st) ||
      store_tourney_list(t->st, 1, TOURNEYS_ACTIVE_MAX + 1, &list, &n) ||
      new_id(t, format, r->id)) {
    rollback(t->st);
    store_tourney_free_all(list, n);
    json_decref(msg);
    return refuse(t, r, "server", "the store", "l'archivio");
  }
  for (int i = 0; i < n; i++) {
    json_t *s = json_loads(list[i].state, 0, NULL);
    mine += json_integer_value(json_object_get(s, "creator")) == r->account;
    json_decref(s);
  }
  store_tourney_free_all(list, n);
  if (n >= TOURNEYS_ACTIVE_MAX || mine >= TOURNEYS_PER_ACCOUNT) {
    rollback(t->st);
    json_decref(msg);
    return refuse(t, r, "limit",
                  n >= TOURNEYS_ACTIVE_MAX
                      ? "too many tournaments now"
                      : "you run as many tournaments as one may",
                  n >= TOURNEYS_ACTIVE_MAX ? "troppi tornei ora"
                                           : "hai già tutti i tornei permessi");
  }
  ts_error err;
  long long now = unix_ms();
  json_t *state = ts_new(r->id, msg, r->rules_json, r->account, now, &err);
  json_decref(msg);
  if (!state) {
    rollback(t->st);
    return refuse(t, r, err.code, err.en, err.it);
  }
  json_object_set_new(state, "creator_name", json_string(r->name));
  if (put(t->st, r->id, now, state)) {
    rollback(t->st);
    json_decref(state);
    return refuse(t, r, "server", "the store", "l'archivio");
  }
  tournament(t, r, state);
  json_decref(state);
}

/* Join, leave and start: tournament r->id read, changed, written back. */
static void do_change(tourneys *t, tourneys_req *r) {
  store_tourney row = {0};
  if (store_begin(t->st) || store_tourney_lock(t->st)) {
    rollback(t->st);
    return refuse(t, r, "server", "the store", "l'archivio");
  }
  int rc = store_tourney_get(t->st, r->id, &row);
  json_t *state = rc == 0 ? json_loads(row.state, 0, NULL) : NULL;
  free(row.state);
  if (!state) {
    rollback(t->st);
    return rc == 1 ? refuse(t, r, "no_tourney", "", "")
                   : refuse(t, r, "server", "the store", "l'archivio");
  }
  ts_error err = {0};
  int bad = 0;
  if (r->op == TQ_JOIN) {
    store_rating r_of = {.rating = 1500.0};
    char player[32];
    const char *pool = rating_pool((int)json_integer_value(
        json_object_get(json_object_get(state, "rules"), "players")));
    snprintf(player, sizeof player, "a:%lld", r->account);
    store_rating_get(t->st, pool, player, &r_of);
    bad = ts_join_as(state, r->account, r->name, r_of.rating, r->partner, &err);
  } else if (r->op == TQ_LEAVE) {
    bad = ts_leave(state, r->account, &err);
  } else if (json_integer_value(json_object_get(state, "creator")) !=
             r->account) {
    bad = 1;
    err = (ts_error){"not_creator", "start it", "avviarlo"};
  } else if (ts_status(state) != STORE_T_UPCOMING) {
    bad = 1;
    err = (ts_error){"bad_message", "the tournament has started",
                     "il torneo è già cominciato"};
  } else {
    json_object_set_new(state, "start_now", json_true());
  }
  if (bad) {
    rollback(t->st);
    json_decref(state);
    return refuse(t, r, err.code, err.en, err.it);
  }
  if (put(t->st, r->id, row.created_ms, state)) {
    rollback(t->st);
    json_decref(state);
    return refuse(t, r, "server", "the store", "l'archivio");
  }
  if (r->op == TQ_START)
    t->pass_now = 1;
  tournament(t, r, state);
  json_decref(state);
}

/* TQ_WHERE: the tables in play of r's account, for its connection. */
static void do_where(tourneys *t, const tourneys_req *r) {
  for (int i = 0; i < t->nnow; i++)
    if (director_table_has(&t->now[i], r->account)) {
      tourneys_news n = {.serial = r->serial, .table = t->now[i]};
      tell(t, &n);
    }
}

static int cmp_code(const void *a, const void *b) { return strcmp(a, b); }

/* A table in play from the pass: kept for TQ_WHERE, told to the loop
 * once. */
static void in_play(void *arg, const director_table *d) {
  tourneys *t = arg;
  if (t->nnext == t->capnext) {
    int cap = t->capnext ? 2 * t->capnext : 64;
    director_table *v = realloc(t->next, (size_t)cap * sizeof *v);
    if (v) {
      t->next = v;
      t->capnext = cap;
    }
  }
  if (t->nnext < t->capnext)
    t->next[t->nnext++] = *d;
  if (tfind(d->code, &t->told, cmp_code))
    return;
  char *key = strdup(d->code);
  if (!key || !tsearch(key, &t->told, cmp_code)) {
    free(key);
    return;
  }
  tourneys_news n = {.table = *d};
  tell(t, &n);
}

/* One director's pass; the tables in play it saw become the thread's
 * list (a pass that failed for some tournament keeps the old list). */
static void pass(tourneys *t, long long now) {
  t->nnext = 0;
  if (director_pass(t->st, now, t->random_code, in_play, t) < 0 && t->passed)
    return;
  director_table *v = t->now;
  t->now = t->next;
  t->nnow = t->nnext;
  t->next = v;
  int cap = t->capnext;
  t->capnext = t->capnow;
  t->capnow = cap;
  t->passed = 1;
}

static void *run(void *arg) {
  tourneys *t = arg;
  long long next = 0;
  pthread_mutex_lock(&t->mu);
  while (!t->stop) {
    req *q = t->head;
    t->head = t->tail = NULL;
    t->nreq = 0;
    pthread_mutex_unlock(&t->mu);
    if (!t->passed) /* before any TQ_WHERE is answered */
      pass(t, unix_ms());
    while (q) {
      req *nq = q->next;
      if (q->r.op == TQ_CREATE)
        do_create(t, &q->r);
      else if (q->r.op == TQ_WHERE)
        do_where(t, &q->r);
      else
        do_change(t, &q->r);
      req_free(q);
      q = nq;
    }
    long long now = unix_ms();
    if (now >= next || t->pass_now) {
      t->pass_now = 0;
      pass(t, now);
      next = now + TOURNEYS_TICK_MS;
    }
    pthread_mutex_lock(&t->mu);
    if (!t->stop && !t->head && !t->pass_now) {
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_nsec += TOURNEYS_TICK_MS * 1000000L;
      until.tv_sec += until.tv_nsec / 1000000000L;
      until.tv_nsec %= 1000000000L;
      pthread_cond_timedwait(&t->cv, &t->mu, &until);
    }
  }
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

tourneys *tourneys_new(const char *where,
                       int (*random_code)(char code[STORE_CODE_MAX + 1]),
                       void (*wake)(void *), void *arg, char *msg,
                       size_t msgsize) {
  tourneys *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(msg, msgsize, "tournaments: out of memory");
    return NULL;
  }
  t->random_code = random_code;
  t->wake = wake;
  t->arg = arg;
  if (store_open(where, &t->st, msg, msgsize)) {
    free(t);
    return NULL;
  }
  pthread_mutex_init(&t->mu, NULL);
  pthread_cond_init(&t->cv, NULL);
  if (pthread_create(&t->thread, NULL, run, t)) {
    snprintf(msg, msgsize, "tournaments: no thread");
    store_close(t->st);
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
    free(t);
    return NULL;
  }
  return t;
}

void tourneys_free(tourneys *t) {
  if (!t)
    return;
  pthread_mutex_lock(&t->mu);
  t->stop = 1;
  pthread_cond_signal(&t->cv);
  pthread_mutex_unlock(&t->mu);
  pthread_join(t->thread, NULL);
  for (req *q = t->head, *next; q; q = next) {
    next = q->next;
    req_free(q);
  }
  for (int i = 0; i < t->nnews; i++)
    free(t->news[i].text);
  tdestroy(t->told, free);
  free(t->now);
  free(t->next);
  store_close(t->st);
  pthread_mutex_destroy(&t->mu);
  pthread_cond_destroy(&t->cv);
  free(t->news);
  free(t);
}
