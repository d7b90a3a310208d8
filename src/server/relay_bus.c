/*
 * relay_bus.c -- the bus between the nodes (relay_impl.h; the whole
 * design in relay.c's opening comment): the rows the loop queues during a
 * turn, handed at its end to the courier, a thread with a store of its
 * own (store_open, LISTEN scopa_NODE) that writes them in one statement
 * that NOTIFYs each reader, reads this node's rows back in the order
 * they were written, and answers the loop's questions in the order they
 * were asked, so that the loop never waits for PostgreSQL.  All the SQL
 * is store_pg_relay.c's (and store.h's for the leases).
 */
#include "relay_impl.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Rows out                                                            */
/* ------------------------------------------------------------------ */

void bus_rows_free(rows *q) {
  for (size_t i = 0; i < q->n; i++)
    free(q->v[i].body);
  free(q->v);
  memset(q, 0, sizeof *q);
}

/* Appends src's rows to dst (src emptied, its bodies moved): 0, or -1
 * without memory (nothing moved). */
static int rows_move(rows *dst, rows *src) {
  if (!src->n)
    return 0;
  if (!dst->n) {
    free(dst->v);
    *dst = *src;
    memset(src, 0, sizeof *src);
    return 0;
  }
  if (dst->n + src->n > dst->cap) {
    size_t cap = dst->n + src->n;
    row *more = realloc(dst->v, cap * sizeof *more);
    if (!more)
      return -1;
    dst->v = more;
    dst->cap = cap;
  }
  memcpy(dst->v + dst->n, src->v, src->n * sizeof *src->v);
  dst->n += src->n;
  src->n = 0;
  return 0;
}

static row *rows_add(rows *q) {
  if (q->n == q->cap) {
    size_t cap = q->cap ? 2 * q->cap : 64;
    row *more = realloc(q->v, cap * sizeof *more);
    if (!more)
      return NULL;
    q->v = more;
    q->cap = cap;
  }
  return &q->v[q->n];
}

void bus_queue_row(relay *r, const char *dst, uint64_t serial, int kind,
                   const char *addr, const char *body, size_t len) {
  if (memchr(body, 0, len) || r->out.n >= OUT_CAP)
    return; /* no NUL in a text column; past the cap, see relay_turn */
  row *o = rows_add(&r->out);
  if (!o || !(o->body = malloc(len + 1)))
    return;
  memcpy(o->body, body, len);
  o->body[len] = 0;
  snprintf(o->node, sizeof o->node, "%s", dst);
  snprintf(o->addr, sizeof o->addr, "%s", addr);
  o->conn = serial;
  o->kind = kind;
  r->out.n++;
}

/* Any thread: the courier looks at its queues now. */
void bus_poke(relay *r) {
  uint64_t one = 1;
  if (write(r->efd, &one, sizeof one) < 0) {
    /* full (it is awake anyway) */
  }
}

/* The loop's rows of this turn go to the courier, after those it has
 * (OUT_CAP rows at most: past it, while the database is away, rows are
 * dropped and their clients resume). */
void bus_hand_over(relay *r) {
  if (!r->out.n)
    return;
  pthread_mutex_lock(&r->mu);
  if (r->sendq.n + r->out.n > OUT_CAP || rows_move(&r->sendq, &r->out))
    bus_rows_free(&r->out);
  pthread_mutex_unlock(&r->mu);
  bus_poke(r);
}

/* The courier: everything handed over, in order, in statements of up to
 * ROWS_PER_INSERT rows; what could not be written goes back to the head
 * of the queue.  0, or -1 when a write failed. */
static int send_rows(relay *r, store *db) {
  rows q;
  pthread_mutex_lock(&r->mu);
  q = r->sendq;
  memset(&r->sendq, 0, sizeof r->sendq);
  pthread_mutex_unlock(&r->mu);
  size_t done = 0;
  while (done < q.n) {
    size_t n = q.n - done;
    if (n > ROWS_PER_INSERT)
      n = ROWS_PER_INSERT;
    if (spr_write(db, r->srv->node, q.v + done, n))
      break;
    done += n;
  }
  for (size_t i = 0; i < done; i++)
    free(q.v[i].body);
  if (done && done < q.n)
    memmove(q.v, q.v + done, (q.n - done) * sizeof *q.v);
  q.n -= done;
  int failed = q.n > 0;
  pthread_mutex_lock(&r->mu); /* the rest, before what came meanwhile */
  if (rows_move(&q, &r->sendq) == 0) {
    free(r->sendq.v);
    r->sendq = q;
  } else {
    bus_rows_free(&q); /* no memory: lost, as past OUT_CAP */
  }
  pthread_mutex_unlock(&r->mu);
  return failed ? -1 : 0;
}

/* The courier: takes up to ROWS_PER_READ rows for this node and hands
 * them to the loop in the order they were written.  1 when there may be
 * more, 0, -1 on error. */
static int fetch_rows(relay *r, store *db) {
  rows got = {0};
  if (spr_read(db, r->srv->node, ROWS_PER_READ, &got.v, &got.n))
    return -1;
  got.cap = got.n;
  if (got.n) {
    pthread_mutex_lock(&r->mu);
    if (rows_move(&r->inq, &got))
      bus_rows_free(&got);
    pthread_mutex_unlock(&r->mu);
    lws_cancel_service(r->srv->ctx);
  }
  int more = got.n >= ROWS_PER_READ;
  free(got.v);
  return more;
}

/* ------------------------------------------------------------------ */
/* Questions and answers                                               */
/* ------------------------------------------------------------------ */

void bus_ask_free(ask *a) {
  store_game_free(&a->game);
  free(a->closed);
  free(a->alive);
  free(a->held);
  free(a->sent);
  free(a);
}

static void askq_push(askq *q, ask *a) {
  a->next = NULL;
  if (q->tail)
    q->tail->next = a;
  else
    q->head = a;
  q->tail = a;
}

void bus_ask(relay *r, ask *a) {
  pthread_mutex_lock(&r->mu);
  askq_push(&r->asks, a);
  pthread_mutex_unlock(&r->mu);
  bus_poke(r);
}

/* The courier: closes to report, the ones a failed statement left first
 * (malloc'd; NULL when none or without memory). */
static char *closes(relay *r, char **mine) {
  char *old = r->unreported, *add = *mine;
  r->unreported = NULL;
  *mine = NULL;
  if (!old || !add)
    return old ? old : add;
  size_t a = strlen(old), b = strlen(add);
  char *both = realloc(old, a + b + 2);
  if (!both) {
    free(add);
    return old; /* those stay counted until the node goes: stricter */
  }
  snprintf(both + a, b + 2, "\n%s", add);
  free(add);
  return both;
}

/* The courier: the tick's renewal (store_lease_renew) of the leases in
 * a->sent, "CODE:EPOCH" each; a->held gets those renewed.  0 or -1. */
static int renew(store *db, const char *node, ask *a) {
  int n = a->nsent;
  size_t m = (size_t)(n ? n : 1);
  const char **codes = malloc(m * sizeof *codes);
  long long *epochs = malloc(m * sizeof *epochs);
  int *kept = malloc(m * sizeof *kept);
  char(*text)[PROTO_CODE_MAX + 1] = malloc(m * sizeof *text);
  a->held = malloc(m * sizeof *a->held);
  int rc = codes && epochs && kept && text && a->held ? 0 : -1;
  for (int i = 0; rc == 0 && i < n; i++) {
    const char *colon = strrchr(a->sent[i], ':');
    snprintf(text[i], sizeof text[i], "%.*s", (int)(colon - a->sent[i]),
             a->sent[i]);
    codes[i] = text[i];
    epochs[i] = atoll(colon + 1);
  }
  if (rc == 0)
    rc = store_lease_renew(db, node, codes, epochs, n, RELAY_LEASE_S, kept);
  for (int i = 0; rc == 0 && i < n; i++)
    if (kept[i])
      a->held[a->nheld++] = a->sent[i]; /* sorted, as sent is */
  free(codes);
  free(epochs);
  free(kept);
  free(text);
  if (rc) {
    free(a->held);
    a->held = NULL;
  }
  return rc;
}

/* The courier: the table of a claim taken here, read at once (the lease
 * is this node's: nobody writes it meanwhile).  A read the connection
 * lost is no answer: the claim fails (the client is told to try again),
 * never "damaged". */
static void load(store *db, ask *a) {
  a->load_rc =
      store_load(db, a->code, &a->game, a->load_msg, sizeof a->load_msg);
  a->loaded = 1;
  if (a->load_rc < 0 && !spr_up(db)) {
    store_game_free(&a->game);
    a->loaded = 0;
    a->rc = -1;
  }
}

/* The courier: a code for a new table, unused in the store, its lease
 * taken by this node (a->fresh; left "" when none could be, and the
 * loop finds one itself). */
static void fresh_code(relay *r, store *db, ask *a) {
  server *srv = r->srv;
  char code[PROTO_CODE_MAX + 1];
  for (int attempt = 0; attempt < 20; attempt++) {
    if (srv->relay_hooks->random_code(code))
      return;
    int used = store_has_code(db, code);
    if (used < 0)
      return;
    if (used == 0 && store_lease_take(db, code, srv->node, RELAY_LEASE_S,
                                      &a->fresh_epoch) == 0) {
      snprintf(a->fresh, sizeof a->fresh, "%s", code);
      return;
    }
  }
}

/* The courier answers one question. */
static void answer(relay *r, store *db, ask *a) {
  server *srv = r->srv;
  char *closed;
  switch (a->kind) {
  case ASK_OPEN:
    if (a->session[0] &&
        store_session_get(db, a->session, (long long)time(NULL), &a->account) !=
            0)
      a->account.id = 0; /* none, or unread: a guest, as on the loop */
    if (!a->count)
      break;
    closed = closes(r, &a->closed);
    a->rc =
        spr_conn_open(db, a->addr, srv->node, srv->conf.limits.conns_per_addr,
                      closed ? closed : "", RELAY_DEAD_MS / 1000);
    if (a->rc < 0)
      r->unreported = closed; /* the statement did nothing: again */
    else
      free(closed);
    break;
  case ASK_CLAIM:
    a->rc =
        spr_claim(db, a->code, srv->node, RELAY_LEASE_S, &a->epoch, a->holder);
    if (a->rc == 1 && !a->holder[0]) /* it expired meanwhile: once more */
      a->rc = spr_claim(db, a->code, srv->node, RELAY_LEASE_S, &a->epoch,
                        a->holder);
    if (a->rc == 1 && !a->holder[0])
      a->rc = -1;
    if (a->rc == 0)
      load(db, a);
    break;
  case ASK_CREATE:
    a->rc = spr_table_create(db, a->addr, srv->conf.limits.tables_per_addr);
    /* a code even when refused here: the loop may let the address in
     * uncounted (its table of addresses full); unused, it is let go */
    fresh_code(r, db, a);
    break;
  case ASK_CODE:
    fresh_code(r, db, a);
    break;
  case ASK_RELEASE:
    a->rc = store_lease_release(db, a->code, srv->node, a->epoch);
    break;
  case ASK_TICK:
    if (spr_heartbeat(db, srv->node, RELAY_DEAD_MS, &a->alive, &a->nalive))
      a->alive = NULL;
    closed = closes(r, &a->closed);
    if (closed && spr_closed(db, srv->node, closed))
      r->unreported = closed;
    else
      free(closed);
    a->renew_ms = now_ms();
    a->rc = renew(db, srv->node, a);
    if (a->purge)
      spr_purge(db);
    break;
  }
}

/* The courier: every question asked so far, answered in order. */
static void answer_all(relay *r, store *db) {
  pthread_mutex_lock(&r->mu);
  ask *a = r->asks.head;
  r->asks.head = r->asks.tail = NULL;
  pthread_mutex_unlock(&r->mu);
  if (!a)
    return;
  askq done = {0};
  for (ask *next; a; a = next) {
    next = a->next;
    if (db)
      answer(r, db, a);
    else
      a->rc = -1; /* no database: the loop decides without it */
    askq_push(&done, a);
  }
  pthread_mutex_lock(&r->mu);
  if (r->answers.tail)
    r->answers.tail->next = done.head;
  else
    r->answers.head = done.head;
  r->answers.tail = done.tail;
  pthread_mutex_unlock(&r->mu);
  lws_cancel_service(r->srv->ctx);
}

/* ------------------------------------------------------------------ */
/* The courier                                                         */
/* ------------------------------------------------------------------ */

/* The courier's store, LISTENing: NULL when the database is away. */
static store *courier_connect(relay *r) {
  char msg[256];
  store *db = NULL;
  if (store_open(r->srv->conf.db, &db, msg, sizeof msg))
    return NULL;
  if (spr_setup(db, r->srv->node) == 0) {
    /* what came while nobody listened */
    __atomic_store_n(&r->want_read, 1, __ATOMIC_RELEASE);
    return db;
  }
  store_close(db);
  return NULL;
}

/* Waits for a notification, a poke or 300 ms; 0, or -1 when the
 * connection is lost. */
static int courier_wait(relay *r, store *db) {
  /* poll, not select: after a reconnection under load the socket's
   * number may be past FD_SETSIZE */
  struct pollfd p[2] = {{.fd = spr_socket(db), .events = POLLIN},
                        {.fd = r->efd, .events = POLLIN}};
  if (poll(p, 2, 300) > 0 && (p[1].revents & POLLIN)) {
    uint64_t n;
    if (read(r->efd, &n, sizeof n) < 0) {
      /* nothing to take */
    }
  }
  int got = spr_notified(db);
  if (got > 0)
    __atomic_store_n(&r->want_read, 1, __ATOMIC_RELEASE);
  return got < 0 ? -1 : 0;
}

/* The courier's round: the rows handed over written, the questions
 * answered, this node's rows read while any may wait.  0, or -1 when a
 * statement failed. */
static int courier_round(relay *r, store *db) {
  int rc = send_rows(r, db);
  answer_all(r, db);
  if (rc)
    return -1;
  while (__atomic_exchange_n(&r->want_read, 0, __ATOMIC_ACQ_REL)) {
    int more = fetch_rows(r, db);
    if (more)
      __atomic_store_n(&r->want_read, 1, __ATOMIC_RELEASE);
    if (more < 0)
      return -1;
  }
  return 0;
}

/* The thread: its own store (LISTEN scopa_NODE), which writes what the
 * loop handed over, answers its questions and reads what came for this
 * node, so that the loop never waits for PostgreSQL.  A lost connection
 * is made again; rows may have been lost with it (a restart of
 * PostgreSQL empties the unlogged table): the loop hears of it
 * (io_reset).  At the end: the last rows, and this node's leases go. */
void *bus_courier(void *arg) {
  relay *r = arg;
  store *db = r->courier_db;
  r->courier_db = NULL;
  int lost = 0, sock = db ? spr_backend(db) : -1;
  while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
    if (!db && !(db = courier_connect(r))) {
      answer_all(r, NULL);
      usleep(200 * 1000);
      continue;
    }
    if (spr_backend(db) != sock) { /* new, or reset by the store: LISTEN */
      if (sock >= 0 && spr_setup(db, r->srv->node)) {
        store_close(db);
        db = NULL;
        continue;
      }
      sock = spr_backend(db);
      lost = 1;
    }
    if (lost) {
      lost = 0;
      __atomic_store_n(&r->io_reset, 1, __ATOMIC_RELEASE);
      lws_cancel_service(r->srv->ctx);
    }
    if (courier_wait(r, db) || courier_round(r, db)) {
      if (!spr_up(db)) {
        store_close(db);
        db = NULL;
        sock = -1;
        lost = 1;
      } else {
        usleep(50 * 1000); /* a statement refused: not at full speed */
      }
    }
  }
  if (db) {
    send_rows(r, db); /* the last turn's rows */
    spr_leave(db, r->srv->node);
  }
  store_close(db);
  return NULL;
}
