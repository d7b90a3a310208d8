/*
 * relay.c -- relay.h: any node serves any table, through PostgreSQL.
 *
 *   naming       this node's name: 16 random hex digits, new at each
 *                start (a restarted node is a new node)
 *   routing      relay_route: a client's join, resume or watch of a
 *                table this node does not hold takes the table's lease
 *                (free, expired or its own: the table is served here),
 *                or goes to the live node that holds it, and so does
 *                every later message of that client; a lease held by a
 *                dead node parks the message until the lease expires
 *   rows         relay(id, dst, src, conn, kind, addr, body): a client's
 *                message or its end, to the owner; an answer or a close,
 *                back to the client's node.  Queued by the loop during a
 *                turn and handed to the courier at its end; the courier
 *                writes everything handed over since its last write in
 *                one statement (up to ROWS_PER_INSERT rows) that also
 *                NOTIFYs each reader's channel (scopa_NODE) once, and
 *                reads this node's rows with DELETE ... RETURNING (an
 *                index scan in id order), handing them back to the loop
 *                in that order.  A courier whose connection was lost
 *                reads again at reconnection, and the tick asks for a
 *                read every second anyway (the notification is a hint,
 *                the rows are the truth).  Rows that cannot be written
 *                stay queued and are tried again.
 *   the courier  a thread of its own with its own store (store_open,
 *                LISTEN), woken by a notification or by the loop (an
 *                eventfd), that wakes the loop (lws_cancel_service).  It
 *                runs every statement of the cluster (store_pg_relay.c):
 *                the rows, and the loop's questions (asks), answered in
 *                the order they were asked.  The loop never waits for
 *                PostgreSQL: a connection with a question out holds its
 *                messages (relay_route) until the answer, then they are
 *                handled in order, as if they had just come
 *   asks         a connection's open (the cluster's count of its
 *                address, and the account of its session cookie: its
 *                hello waits for it), a join's, resume's or watch's
 *                lease (taken, and the table read right after; or the
 *                holder found), a create's credit and code, a rematch's
 *                code (unused in the store, its lease taken; let go if
 *                no table took it), and the tick.  So the loop reads
 *                nothing of PostgreSQL (without memory to ask, the
 *                message is refused); the leaderboard and the record of
 *                a table not in memory are read by the accounts' thread
 *                (auth.h)
 *   the tick     every RELAY_TICK_MS the loop asks for this node's
 *                heartbeat (nodes), the renewal of the leases of its
 *                tables in memory (one statement; a table whose lease
 *                is gone is lost: table_lost), and now and then the
 *                purge of dead nodes' rows; at the answer, the live
 *                nodes (a remote connection of a dead node closes; a
 *                client relayed to a dead owner is told and closed, and
 *                reconnects) and the parked entries
 *   limits       the per-address limits of every node together: a
 *                connection's open and a table's creation counted in
 *                PostgreSQL (one statement each; the node's closes go
 *                with its next open or tick), never a message
 *
 * Two files: this one (routing, leases, liveness, the cluster's limits,
 * the loop's side of each question) and relay_bus.c (the rows and the
 * courier), sharing relay_impl.h.
 *
 * Everything here runs on the loop thread but the courier; the two
 * share only the queues under relay.mu and a few atomic flags.  With SQLite
 * srv->relay is NULL and every entry point returns at once.
 */
#include "relay_impl.h"

#include <ctype.h>
#include <pthread.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Connections by (serial, node)                                       */
/* ------------------------------------------------------------------ */

/* A remote connection is known by its node and its number there; a
 * relayed client of this node by its own number. */
static uint64_t key_serial(const conn *c) {
  return c->remote ? c->rserial : c->serial;
}
static const char *key_node(const conn *c) { return c->remote ? c->peer : ""; }

static int by_key(const void *a, const void *b) {
  const conn *x = a, *y = b;
  uint64_t s = key_serial(x), t = key_serial(y);
  if (s != t)
    return s < t ? -1 : 1;
  return strcmp(key_node(x), key_node(y));
}

static conn *find(relay *r, const char *node, uint64_t serial) {
  static conn probe; /* loop thread only; large for the stack */
  probe.remote = node[0] != 0;
  probe.rserial = probe.serial = serial;
  snprintf(probe.peer, sizeof probe.peer, "%s", node);
  conn **found = tfind(&probe, &r->tree, by_key);
  return found ? *found : NULL;
}

static void tree_add(relay *r, conn *c) {
  if (!c->in_tree && tsearch(c, &r->tree, by_key))
    c->in_tree = 1;
}

static void tree_del(relay *r, conn *c) {
  if (c->in_tree)
    tdelete(c, &r->tree, by_key);
  c->in_tree = 0;
}

/* ------------------------------------------------------------------ */
/* Rows in                                                             */
/* ------------------------------------------------------------------ */

static void from_client(relay *r, const char *src, uint64_t serial,
                        const char *addr, const char *body) {
  conn *c = find(r, src, serial);
  if (!c) {
    c = conn_new_remote(r->srv, src, serial, addr);
    if (!c)
      return;
    tree_add(r, c);
  }
  c->last_rx_ms = now_ms();
  if (!c->closing)
    conn_deliver(c, body, strlen(body), 0);
}

static void handle_row(relay *r, const char *src, uint64_t serial, int kind,
                       const char *addr, const char *body) {
  conn *c;
  switch (kind) {
  case K_CLIENT_MSG:
    from_client(r, src, serial, addr, body);
    break;
  case K_CLIENT_GONE:
    if ((c = find(r, src, serial)) != NULL)
      conn_closed(c);
    break;
  case K_SERVER_MSG:
  case K_SERVER_CLOSE:
    c = find(r, "", serial);
    if (!c || strcmp(c->peer, src) != 0)
      break; /* gone, or an owner it no longer talks to */
    if (kind == K_SERVER_MSG)
      conn_send(c, body);
    else
      conn_close_soon(c);
    break;
  }
}

static void take_answers(relay *r);

/* On the loop: what the courier read, handled in order. */
void relay_poll(server *srv) {
  relay *r = srv->relay;
  if (!r)
    return;
  if (__atomic_exchange_n(&r->io_reset, 0, __ATOMIC_ACQ_REL))
    r->reset = 1;
  rows in;
  pthread_mutex_lock(&r->mu);
  in = r->inq;
  memset(&r->inq, 0, sizeof r->inq);
  pthread_mutex_unlock(&r->mu);
  for (size_t i = 0; i < in.n; i++)
    handle_row(r, in.v[i].node, in.v[i].conn, in.v[i].kind, in.v[i].addr,
               in.v[i].body);
  bus_rows_free(&in);
  take_answers(r);
}

static int by_serial(const void *a, const void *b) {
  uint64_t s = ((const conn *)a)->serial, t = ((const conn *)b)->serial;
  return s < t ? -1 : s > t;
}

static conn *find_waiting(relay *r, uint64_t serial) {
  static conn probe; /* loop thread only; large for the stack */
  probe.serial = serial;
  conn **found = tfind(&probe, &r->waiting, by_serial);
  return found ? *found : NULL;
}

/* A message c holds until its answer: at the back of what it holds, or
 * at the front (the message that asked, handled again first). */
static int hold(struct relay_wait *w, const char *text, size_t len, int front) {
  held *h = malloc(sizeof *h + len + 1);
  if (!h)
    return -1;
  memcpy(h->text, text, len);
  h->text[len] = 0;
  h->len = len;
  h->next = NULL;
  if (front) {
    h->next = w->head;
    w->head = h;
    if (!w->tail)
      w->tail = h;
  } else {
    if (w->tail)
      w->tail->next = h;
    else
      w->head = h;
    w->tail = h;
  }
  return 0;
}

/* The verdict has served its message: a load it carried and nobody
 * took (the table came into memory meanwhile) goes. */
static void verdict_done(server *srv, struct relay_wait *w) {
  if (w->fresh[0] && !w->fresh_taken) /* a code no table took */
    relay_release(srv, w->fresh, w->fresh_epoch);
  w->fresh[0] = 0;
  w->verdict = -1;
  w->loaded = 0;
  store_game_free(&w->game);
}

static void wait_free(conn *c) {
  struct relay_wait *w = c->wait;
  if (!w)
    return;
  verdict_done(c->srv, w);
  for (held *h = w->head, *n; h; h = n) {
    n = h->next;
    free(h);
  }
  free(w);
  c->wait = NULL;
}

/* Asks the courier for c (the message text, if any, held until the
 * answer): 0, or -1 without memory (nothing asked). */
static int ask_for(relay *r, conn *c, int kind, const char *code,
                   const char *text, size_t len) {
  if (!c->wait && (c->wait = malloc(sizeof *c->wait)) != NULL) {
    memset(c->wait, 0, sizeof *c->wait);
    c->wait->asking = c->wait->verdict = -1;
  }
  ask *a = calloc(1, sizeof *a);
  if (!c->wait || !a || (text && hold(c->wait, text, len, 1))) {
    free(a);
    return -1;
  }
  a->kind = kind;
  a->serial = c->serial;
  snprintf(a->code, sizeof a->code, "%s", code ? code : "");
  snprintf(a->addr, sizeof a->addr, "%s", c->addr);
  if (kind == ASK_OPEN && r->opening.count) { /* this node's closes first */
    a->count = 1;
    a->closed = r->closed;
    r->closed = NULL;
  }
  if (kind == ASK_OPEN)
    snprintf(a->session, sizeof a->session, "%s", r->opening.session);
  c->wait->asking = kind;
  tsearch(c, &r->waiting, by_serial);
  bus_ask(r, a);
  return 0;
}

static void apply_tick(relay *r, ask *a);

/* On the loop: c's messages held, handled in order while no new
 * question stops them. */
static void replay(relay *r, conn *c) {
  struct relay_wait *w = c->wait;
  while (w && w->asking < 0 && w->head && !c->closing) {
    held *h = w->head;
    w->head = h->next;
    if (!w->head)
      w->tail = NULL;
    r->now = w;
    r->srv->messages_in--; /* counted when it came, as it was charged */
    conn_deliver(c, h->text, h->len, 0);
    r->now = NULL;
    free(h);
    if (c->wait != w)
      return;                /* closed meanwhile */
    verdict_done(r->srv, w); /* the message it was for has had it */
  }
  if (w && w->asking < 0 && (!w->head || c->closing))
    wait_free(c);
}

/* An answer for connection c (NULL: closed meanwhile). */
static void answered(relay *r, conn *c, ask *a) {
  if (!c) {
    if (a->kind == ASK_OPEN && a->count && a->rc == 1) /* and closed */
      relay_conn_close(r->srv, a->addr);
    return;
  }
  tdelete(c, &r->waiting, by_serial);
  struct relay_wait *w = c->wait;
  w->asking = -1;
  if (a->kind == ASK_OPEN && c->session_wait) { /* the hello first */
    c->session_wait = 0;
    if (a->account.id > 0) {
      c->account = a->account.id;
      snprintf(c->account_name, sizeof c->account_name, "%s", a->account.name);
    }
    r->srv->relay_hooks->greet(c);
  }
  if (a->kind == ASK_OPEN && a->count) {
    if (a->rc == 1) {
      c->ccounted = 1;
    } else if (a->rc == 0) { /* over the limit on every node together */
      server *srv = r->srv;
      if (c->counted)
        limits_conn_close(srv->addrs, &srv->conf.limits, c->addr, now_ms());
      c->counted = 0;
      c->refused = 1;
      conn_error(c, NULL, "limit", "too many connections from one address",
                 "troppe connessioni da un solo indirizzo");
      conn_close_soon(c);
    }
  } else {
    w->verdict = a->kind;
    snprintf(w->code, sizeof w->code, "%s", a->code);
    w->rc = a->rc;
    w->epoch = a->epoch;
    snprintf(w->holder, sizeof w->holder, "%s", a->holder);
    store_game_free(&w->game);
    w->loaded = a->loaded;
    w->load_rc = a->load_rc;
    w->game = a->game; /* the wait's now */
    memset(&a->game, 0, sizeof a->game);
    snprintf(w->load_msg, sizeof w->load_msg, "%s", a->load_msg);
    snprintf(w->fresh, sizeof w->fresh, "%s", a->fresh);
    w->fresh_epoch = a->fresh_epoch;
    w->fresh_taken = 0;
  }
  replay(r, c);
}

/* On the loop: what the courier answered, in the order asked. */
static void take_answers(relay *r) {
  pthread_mutex_lock(&r->mu);
  ask *a = r->answers.head;
  r->answers.head = r->answers.tail = NULL;
  pthread_mutex_unlock(&r->mu);
  for (ask *next; a; a = next) {
    next = a->next;
    if (a->kind == ASK_TICK)
      apply_tick(r, a);
    else if (a->kind != ASK_RELEASE)
      answered(r, find_waiting(r, a->serial), a);
    bus_ask_free(a);
  }
}

/* ------------------------------------------------------------------ */
/* Start and stop                                                      */
/* ------------------------------------------------------------------ */

static int name_node(char out[24]) {
  unsigned char b[8];
  if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
    return -1;
  for (int i = 0; i < 8; i++)
    snprintf(out + 2 * i, 3, "%02x", b[i]);
  return 0;
}

int relay_start(server *srv, char *msg, size_t msgsize) {
  if (!store_is_postgres(srv->conf.db))
    return 0;
  relay *r = calloc(1, sizeof *r);
  if (!r || name_node(srv->node)) {
    free(r);
    snprintf(msg, msgsize, "cluster: no memory or no random bytes");
    return -1;
  }
  r->srv = srv;
  r->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  pthread_mutex_init(&r->mu, NULL);
  /* The first heartbeat before any client, so that the live nodes are
   * known from the first join (the loop serves nobody yet). */
  char why[256] = "";
  store *db = NULL;
  if (r->efd < 0 || store_open(srv->conf.db, &db, why, sizeof why) ||
      spr_setup(db, srv->node) ||
      spr_heartbeat(db, srv->node, RELAY_DEAD_MS, &r->alive, &r->nalive)) {
    snprintf(msg, msgsize, "cluster: the database cannot be reached%s%s",
             why[0] ? ": " : "", why);
    store_close(db);
    if (r->efd >= 0)
      close(r->efd);
    pthread_mutex_destroy(&r->mu);
    free(r);
    return -1;
  }
  r->courier_db = db;
  r->renewed_ms = r->tick_ms = r->purged_ms = now_ms();
  srv->relay = r;
  if (pthread_create(&r->thread, NULL, bus_courier, r) != 0) {
    snprintf(msg, msgsize, "cluster: cannot start the courier thread");
    relay_stop(srv);
    return -1;
  }
  r->thread_started = 1;
  return 0;
}

void relay_stop(server *srv) {
  relay *r = srv->relay;
  if (!r)
    return;
  bus_hand_over(r);
  if (r->thread_started) { /* it writes what was handed over, then ends */
    __atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
    bus_poke(r);
    pthread_join(r->thread, NULL);
  }
  store_close(r->courier_db); /* the thread never started */
  for (conn *c = srv->all; c; c = c->anext)
    wait_free(c); /* (a code it held is let go: an ask, freed below) */
  for (ask *a = r->asks.head, *n; a; a = n) {
    n = a->next;
    bus_ask_free(a);
  }
  for (ask *a = r->answers.head, *n; a; a = n) {
    n = a->next;
    bus_ask_free(a);
  }
  while (r->waiting)
    tdelete(*(conn **)r->waiting, &r->waiting, by_serial);
  free(r->closed);
  free(r->unreported);
  bus_rows_free(&r->out);
  bus_rows_free(&r->sendq);
  bus_rows_free(&r->inq);
  free(r->alive);
  while (r->tree) /* the connections are the server's: only the nodes go */
    tdelete(*(conn **)r->tree, &r->tree, by_key);
  close(r->efd);
  pthread_mutex_destroy(&r->mu);
  free(r);
  srv->relay = NULL;
}

/* ------------------------------------------------------------------ */
/* Leases                                                              */
/* ------------------------------------------------------------------ */

int relay_claim(server *srv, const char *code, long long *epoch) {
  relay *r = srv->relay;
  *epoch = 0;
  if (!r)
    return 0;
  const struct relay_wait *w = r->now;
  if (w && w->verdict == ASK_CLAIM && strcmp(w->code, code) == 0) {
    *epoch = w->epoch; /* the courier's answer to the entry being handled */
    return w->rc;
  }
  if (w && w->fresh_taken && strcmp(w->fresh, code) == 0) {
    *epoch = w->fresh_epoch; /* taken with the code (relay_fresh_code) */
    return 0;
  }
  return -1; /* not asked (no memory to): the loop never waits for it */
}

int relay_fresh_code(server *srv, char code[PROTO_CODE_MAX + 1]) {
  relay *r = srv->relay;
  struct relay_wait *w = r ? r->now : NULL;
  if (!w || (w->verdict != ASK_CREATE && w->verdict != ASK_CODE) ||
      !w->fresh[0] || w->fresh_taken)
    return -1;
  w->fresh_taken = 1;
  snprintf(code, PROTO_CODE_MAX + 1, "%s", w->fresh);
  return 0;
}

int relay_loaded(server *srv, const char *code, store_game *g, char *msg,
                 size_t msgsize) {
  relay *r = srv->relay;
  struct relay_wait *w = r ? r->now : NULL;
  if (!w || w->verdict != ASK_CLAIM || !w->loaded || strcmp(w->code, code))
    return -2;
  *g = w->game;
  memset(&w->game, 0, sizeof w->game);
  w->loaded = 0;
  snprintf(msg, msgsize, "%s", w->load_msg);
  return w->load_rc;
}

void relay_release(server *srv, const char *code, long long epoch) {
  relay *r = srv->relay;
  ask *a = r && epoch > 0 ? calloc(1, sizeof *a) : NULL;
  if (!a)
    return; /* (without memory: it expires in RELAY_LEASE_S) */
  a->kind = ASK_RELEASE;
  snprintf(a->code, sizeof a->code, "%s", code);
  a->epoch = epoch;
  bus_ask(r, a);
}

int relay_cut_off(server *srv) {
  relay *r = srv->relay;
  return r && now_ms() - r->renewed_ms > RELAY_SAFE_MS;
}

/* ------------------------------------------------------------------ */
/* Routing                                                             */
/* ------------------------------------------------------------------ */

static int alive(const relay *r, const char *node) {
  for (int i = 0; i < r->nalive; i++)
    if (strcmp(r->alive[i], node) == 0)
      return 1;
  return 0;
}

static void relay_to(relay *r, conn *c, const char *text, size_t len) {
  char who[128];
  conn_identity(c, who, sizeof who);
  bus_queue_row(r, c->peer, c->serial, K_CLIENT_MSG, who, text, len);
}

/* c stops being relayed: its owner hears that its client left. */
static void unrelay(relay *r, conn *c) {
  if (!c->peer[0])
    return;
  bus_queue_row(r, c->peer, c->serial, K_CLIENT_GONE, c->addr, "", 0);
  tree_del(r, c);
  c->peer[0] = 0;
}

/* Keeps a copy of the resume or watch that relays c (NULL: a join, which
 * must never be sent twice), to send again if its owner dies. */
static void keep_entry(conn *c, const char *text, size_t len, int again) {
  free(c->entry);
  c->entry = again ? malloc(len + 1) : NULL;
  if (c->entry) {
    memcpy(c->entry, text, len);
    c->entry[len] = 0;
  }
}

/* A join, resume or watch of code: here (0), or relayed, parked or held
 * for the courier's answer (1).  The answer (the lease taken: here; or
 * its holder) comes back as c's verdict, and the message is handled
 * again with it.  A client relayed already stays with its owner when
 * that owner holds code too (so its remote connection, and the one seat
 * it may take there, stay the same), else leaves it first. */
static int route_entry(conn *c, const char *code, const char *text, size_t len,
                       int again) {
  server *srv = c->srv;
  relay *r = srv->relay;
  char norm[PROTO_CODE_MAX + 1];
  size_t n = 0;
  for (; code[n] && n < PROTO_CODE_MAX; n++)
    norm[n] = (char)toupper((unsigned char)code[n]);
  norm[n] = 0;
  const struct relay_wait *w = c->wait;
  int have = w && w->verdict == ASK_CLAIM && strcmp(w->code, norm) == 0;
  if (srv->relay_hooks->here(srv, norm) ||
      (!have && ask_for(r, c, ASK_CLAIM, norm, text, len))) {
    unrelay(r, c);
    c->parked_ms = 0;
    return 0; /* here (without memory to ask: the load claims) */
  }
  if (!have)
    return 1; /* held for the answer */
  if (w->rc <= 0) {
    unrelay(r, c);
    c->parked_ms = 0;
    return 0; /* here, with the lease (or its error: the load says so) */
  }
  const char *holder = w->holder;
  if (c->peer[0] && strcmp(holder, c->peer) == 0) {
    keep_entry(c, text, len, again);
    relay_to(r, c, text, len);
    c->parked_ms = 0;
    return 1;
  }
  unrelay(r, c);
  if (!alive(r, holder)) {
    c->parked = malloc(len + 1);
    if (!c->parked)
      return 0;
    memcpy(c->parked, text, len);
    c->parked[len] = 0;
    if (!c->parked_ms) /* parked again: since the first time */
      c->parked_ms = now_ms();
    return 1;
  }
  srv->relay_hooks->leave(c); /* one table per connection, wherever */
  snprintf(c->peer, sizeof c->peer, "%s", holder);
  tree_add(r, c);
  keep_entry(c, text, len, again);
  relay_to(r, c, text, len);
  c->parked_ms = 0;
  return 1;
}

/* A rematch handled here may make a table: its code first, from the
 * courier (held for it), so that the loop never waits for PostgreSQL. */
static int route_rematch(relay *r, conn *c, const char *text, size_t len) {
  const struct relay_wait *w = c->wait;
  if (w && w->verdict == ASK_CODE)
    return 0; /* relay_fresh_code takes the answer */
  return ask_for(r, c, ASK_CODE, NULL, text, len) == 0;
}

int relay_route(conn *c, const proto_msg *msg, const char *text, size_t len) {
  relay *r = c->srv->relay;
  if (!r)
    return 0;
  if (c->wait && c->wait->asking >= 0) { /* after the answer, in order */
    if (hold(c->wait, text, len, 0))
      conn_error(c, msg->id, "server", "message lost: no memory",
                 "messaggio perso: memoria esaurita");
    return 1;
  }
  if (c->remote) /* its node routed it here */
    return msg->type == PROTO_REMATCH ? route_rematch(r, c, text, len) : 0;
  if (c->parked) {
    conn_error(c, msg->id, "server", "the table is moving to another server",
               "il tavolo passa a un altro server");
    return 1;
  }
  int entry = msg->type == PROTO_JOIN || msg->type == PROTO_RESUME ||
              msg->type == PROTO_WATCH;
  if (entry)
    return route_entry(c, msg->code, text, len, msg->type != PROTO_JOIN);
  if (msg->type == PROTO_CREATE) { /* a new table is made here */
    unrelay(r, c);
    const struct relay_wait *w = c->wait;
    if (w && w->verdict == ASK_CREATE)
      return 0; /* relay_table_create takes the answer */
    /* the address's credit of the cluster first, held for it */
    return ask_for(r, c, ASK_CREATE, NULL, text, len) == 0;
  }
  if (!c->peer[0] && msg->type == PROTO_REMATCH)
    return route_rematch(r, c, text, len);
  if (!c->peer[0] || msg->type == PROTO_PING)
    return 0;
  relay_to(r, c, text, len);
  return 1;
}

void relay_conn_closed(conn *c) {
  relay *r = c->srv->relay;
  if (!r)
    return;
  tree_del(r, c);
  if (c->wait) {
    if (c->wait->asking >= 0)
      tdelete(c, &r->waiting, by_serial);
    wait_free(c);
  }
  if (!c->remote && c->peer[0])
    bus_queue_row(r, c->peer, c->serial, K_CLIENT_GONE, c->addr, "", 0);
  c->gone = 1;
}
void relay_out(conn *c) {
  relay *r = c->srv->relay;
  if (!r || c->gone)
    return;
  while (c->head && (c->closing == 2 || c->head->after <= c->srv->committed)) {
    out_msg *m = c->head;
    c->head = m->next;
    if (!c->head)
      c->tail = NULL;
    c->out_bytes -= m->len;
    if (c->closing != 2)
      bus_queue_row(r, c->peer, c->rserial, K_SERVER_MSG, "",
                    (const char *)m->buf + LWS_PRE, m->len);
    free(m);
  }
  if (!c->head && c->closing && !c->rclose) {
    c->rclose = 1;
    r->rclose++;
  }
}

void relay_turn(server *srv) {
  relay *r = srv->relay;
  if (!r)
    return;
  if (r->rclose) {
    conn *next;
    for (conn *c = srv->all; c; c = next) {
      next = c->anext;
      if (c->remote && c->rclose && !c->gone) {
        bus_queue_row(r, c->peer, c->rserial, K_SERVER_CLOSE, "", "", 0);
        conn_closed(c);
      }
    }
    r->rclose = 0;
  }
  bus_hand_over(r);
}

/* ------------------------------------------------------------------ */
/* Per-address limits across the cluster                               */
/* ------------------------------------------------------------------ */

int relay_conn_open(conn *c, int counted, const char *session) {
  relay *r = c->srv->relay;
  if (!r || c->remote)
    return -1;
  r->opening.count = counted && !strchr(c->addr, '\n');
  snprintf(r->opening.session, sizeof r->opening.session, "%s", session);
  if (!r->opening.count && !session[0])
    return -1;
  /* Asked; until the answer c holds its messages (relay_route), its
   * hello waits for its session, and a refusal closes it then
   * (answered). */
  if (ask_for(r, c, ASK_OPEN, NULL, NULL, 0) == 0 && session[0])
    c->session_wait = 1;
  return -1;
}

void relay_conn_close(server *srv, const char *addr) {
  relay *r = srv->relay;
  if (!r)
    return;
  size_t len = strlen(addr), have = r->closed ? strlen(r->closed) : 0;
  char *more = realloc(r->closed, have + len + 2);
  if (!more)
    return; /* counted until the node goes: stricter, never looser */
  snprintf(more + have, len + 2, "%s%s", have ? "\n" : "", addr);
  r->closed = more;
}

int relay_table_create(server *srv, const char *addr) {
  relay *r = srv->relay;
  (void)addr; /* the one asked for (relay_route) */
  const struct relay_wait *w = r ? r->now : NULL;
  if (!w || w->verdict != ASK_CREATE || w->rc < 0)
    return -1;
  return w->rc == 1 ? LIMITS_COUNTED : LIMITS_REFUSED;
}

/* ------------------------------------------------------------------ */
/* The tick                                                            */
/* ------------------------------------------------------------------ */

static int by_text(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of the tick's question, "CODE:EPOCH", in one block. */
enum { KEY = PROTO_CODE_MAX + 24 };
struct sent_keys {
  ask *a;
  char *text;
  size_t cap;
};

static void add_sent(void *arg, const char *code, long long epoch) {
  struct sent_keys *k = arg;
  if ((size_t)k->a->nsent >= k->cap)
    return;
  k->a->sent[k->a->nsent] = k->text + (size_t)k->a->nsent * KEY;
  snprintf(k->a->sent[k->a->nsent++], KEY, "%s:%lld", code, epoch);
}

/* The tick's question: the leases of the tables in memory, as they are
 * now (each "CODE:EPOCH" in sent, sorted), and this node's closes. */
static void ask_tick(relay *r, int64_t now) {
  server *srv = r->srv;
  ask *a = calloc(1, sizeof *a);
  if (!a)
    return;
  a->kind = ASK_TICK;
  a->closed = r->closed;
  r->closed = NULL;
  if (now - r->purged_ms > 60000) {
    r->purged_ms = now;
    a->purge = 1;
  }
  /* Which epoch each table had when asked: a table loaded since, or
   * claimed again (another epoch), is not lost by this answer. */
  a->sent = malloc(srv->ntables * (sizeof *a->sent + KEY) + 1);
  if (!a->sent) {
    bus_ask_free(a);
    return;
  }
  struct sent_keys keys = {a, (char *)(a->sent + srv->ntables), srv->ntables};
  srv->relay_hooks->leases(srv, add_sent, &keys);
  qsort(a->sent, (size_t)a->nsent, sizeof *a->sent, by_text);
  r->ticking = 1;
  bus_ask(r, a);
}

static void drop_dead(relay *r);
static void retry_parked(relay *r, int64_t now);

/* The tick's answer: the live nodes, and the tables whose lease this
 * node does not hold any more (not renewed; of the epoch asked for) are
 * lost. */
static void apply_tick(relay *r, ask *a) {
  server *srv = r->srv;
  r->ticking = 0;
  if (a->alive) {
    free(r->alive);
    r->alive = a->alive;
    r->nalive = a->nalive;
    a->alive = NULL;
  }
  if (a->rc == 0 && a->held) {
    r->renewed_ms = a->renew_ms;
    /* Asked for and not renewed: lost (each key "CODE:EPOCH"). */
    for (int i = 0; i < a->nsent; i++) {
      char *k = a->sent[i], *colon = strrchr(k, ':');
      if (colon &&
          !bsearch(&k, a->held, (size_t)a->nheld, sizeof *a->held, by_text)) {
        *colon = 0;
        srv->relay_hooks->lost(srv, k, atoll(colon + 1));
        *colon = ':';
      }
    }
  }
  drop_dead(r);
  retry_parked(r, now_ms());
}

/* Connections to or from a node that is not alive any more, or every
 * relayed one after the database went away (the relay table is
 * unlogged: a crash of PostgreSQL empties it, so messages may be lost;
 * the clients resume). */
static void drop_dead(relay *r) {
  int all = r->reset;
  r->reset = 0;
  conn *next;
  for (conn *c = r->srv->all; c; c = next) {
    next = c->anext;
    if (!c->peer[0] || (!all && alive(r, c->peer)))
      continue;
    if (c->remote) {
      if (c->gone)
        continue;
      if (alive(r, c->peer)) {
        if (c->closing)
          continue;
        /* its node lives on and must hear it, or its client would
         * wait at a connection no table answers: closed with the
         * reason, through the relay, as any other close */
        conn_error(c, NULL, "server",
                   "the way to this table's server was lost: connect again",
                   "la via al server del tavolo si è persa: riconnettiti");
        conn_close_soon(c);
      } else {
        conn_closed(c);
      }
      continue;
    }
    unrelay(r, c);          /* a live owner lets its remote connection go */
    if (c->entry && !all) { /* its resume or watch, again: to the next owner */
      c->parked = c->entry;
      c->entry = NULL;
      c->parked_ms = now_ms();
      continue;
    }
    conn_error(c, NULL, "server",
               "the way to this table's server was lost: connect again",
               "la via al server del tavolo si è persa: riconnettiti");
    conn_close_soon(c);
  }
}

/* Entries parked for a dead owner's lease: tried again (parked_ms stays,
 * the time of the first parking), given up after twice a lease's life. */
static void retry_parked(relay *r, int64_t now) {
  conn *next;
  for (conn *c = r->srv->all; c; c = next) {
    next = c->anext;
    if (!c->parked)
      continue;
    char *text = c->parked;
    c->parked = NULL;
    if (now - c->parked_ms > 2 * RELAY_LEASE_S * 1000) {
      conn_error(c, NULL, "server", "the table cannot be reached",
                 "il tavolo non è raggiungibile");
      conn_close_soon(c);
    } else {
      conn_deliver(c, text, strlen(text), 0);
    }
    free(text);
  }
}

void relay_tick(server *srv, int64_t now) {
  relay *r = srv->relay;
  if (!r || now - r->tick_ms < RELAY_TICK_MS)
    return;
  r->tick_ms = now;
  if (!r->ticking) /* one at a time: the answer does the rest */
    ask_tick(r, now);
  /* a notification lost is not a row lost: the courier reads anyway */
  __atomic_store_n(&r->want_read, 1, __ATOMIC_RELEASE);
  bus_poke(r);
  relay_poll(srv);
}
