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
 *   the courier  a thread of its own with its own connection (LISTEN),
 *                woken by a notification or by the loop (an eventfd),
 *                that wakes the loop (lws_cancel_service): the loop
 *                never waits for the relay's round trips
 *   the tick     every RELAY_TICK_MS: this node's heartbeat (nodes),
 *                the renewal of the leases of its tables in memory (one
 *                statement; a table whose lease is gone is lost:
 *                table_lost), the live nodes (a remote connection of a
 *                dead node closes; a client relayed to a dead owner is
 *                told and closed, and reconnects), the parked entries,
 *                and now and then the rows of dead nodes are dropped
 *   limits       the per-address limits of every node together: a
 *                connection's open and a table's creation counted in
 *                PostgreSQL (one statement each; the node's closes go
 *                with its next open or tick), never a message
 *
 * Everything here runs on the loop thread but the courier; the two
 * share only the queues under relay.mu and a few atomic flags.  With SQLite
 * srv->relay is NULL and every entry point returns at once.
 */
#include "relay.h"
#include "lobby.h"
#include "table.h"

#include <ctype.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <unistd.h>

enum { K_CLIENT_MSG, K_CLIENT_GONE, K_SERVER_MSG, K_SERVER_CLOSE };

#define ROWS_PER_INSERT 500 /* 6 parameters each; PostgreSQL takes 65,535 */
#define ROWS_PER_READ 2000
#define OUT_CAP 200000 /* rows queued at most while the database is away */

/* A row either way: out, dst is its reader; in, src its writer. */
typedef struct row {
  char node[24];
  uint64_t conn;
  int kind;
  char addr[128]; /* the client's address, and its account (conn_identity) */
  char *body;
} row;

typedef struct rows {
  row *v;
  size_t n, cap;
} rows;

struct relay {
  server *srv;
  PGconn *db; /* the loop's connection: heartbeat, leases, holders     */
  pthread_t thread;
  int thread_started;
  int stop; /* atomic                                                   */
  int efd;  /* eventfd: the loop wakes the courier                     */
  /* Between the loop and the courier, under mu. */
  pthread_mutex_t mu;
  rows sendq;    /* to write, in order                                  */
  rows inq;      /* read, in id order                                   */
  int want_read; /* atomic: rows may be waiting for this node           */
  int io_reset;  /* atomic: the courier's connection was reset          */
  /* The loop's own. */
  void *tree; /* connections by (serial, node): relayed and remote     */
  rows out;   /* queued in this turn                                   */
  int rclose; /* remote connections marked to close at the turn       */
  int reset;  /* a connection was reset: rows may have been lost       */
  int64_t tick_ms, renewed_ms, purged_ms;
  char *closed; /* addresses of this node's counted connections closed
                   since the last report, one a line */
  size_t nclosed;
  char (*alive)[24]; /* the live nodes at the last tick                */
  int nalive;
};

/* ------------------------------------------------------------------ */
/* The database                                                        */
/* ------------------------------------------------------------------ */

/* A connection that gives up fast on a database that does not answer,
 * so that the loop is never held long by one. */
static PGconn *connect_db(const char *url) {
  const char *const keys[] = {"connect_timeout",  "client_encoding",
                              "application_name", "tcp_user_timeout",
                              "dbname",           NULL};
  const char *const vals[] = {"3", "UTF8", "scopa relay", "5000", url, NULL};
  return PQconnectdbParams(keys, vals, 1);
}

static int command(PGconn *c, const char *sql) {
  PGresult *r = PQexec(c, sql);
  int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  PQclear(r);
  return ok ? 0 : -1;
}

/* The relay's rows are not the game: a lost one costs a resend or a
 * reconnection, never a move, so they need not wait for the disk. */
static int setup(PGconn *c) {
  return command(c, "SET synchronous_commit = off");
}

/* The loop's connection, reset when found broken: 0 when usable. */
static int db_ready(relay *r) {
  if (PQstatus(r->db) == CONNECTION_OK)
    return 0;
  PQreset(r->db);
  if (PQstatus(r->db) != CONNECTION_OK || setup(r->db))
    return -1;
  r->reset = 1;
  return 0;
}

/* A statement with text parameters: its result when it succeeded, else
 * NULL. */
static PGresult *run(relay *r, const char *sql, int n, const char *const *v) {
  if (db_ready(r))
    return NULL;
  PGresult *res = PQexecParams(r->db, sql, n, NULL, v, NULL, NULL, 0);
  ExecStatusType s = PQresultStatus(res);
  if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
    return res;
  PQclear(res);
  return NULL;
}

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
/* Rows out                                                            */
/* ------------------------------------------------------------------ */

static void rows_free(rows *q) {
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

static void report_closed(relay *r);

static void queue_row(relay *r, const char *dst, uint64_t serial, int kind,
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
static void poke(relay *r) {
  uint64_t one = 1;
  if (write(r->efd, &one, sizeof one) < 0) {
    /* full (it is awake anyway) */
  }
}

/* The loop's rows of this turn go to the courier, after those it has
 * (OUT_CAP rows at most: past it, while the database is away, rows are
 * dropped and their clients resume). */
static void hand_over(relay *r) {
  if (!r->out.n)
    return;
  pthread_mutex_lock(&r->mu);
  if (r->sendq.n + r->out.n > OUT_CAP || rows_move(&r->sendq, &r->out))
    rows_free(&r->out);
  pthread_mutex_unlock(&r->mu);
  poke(r);
}

/* The courier: rows q->v[from, from + n) in one INSERT that NOTIFYs
 * every reader once. */
static int write_rows(relay *r, PGconn *db, const rows *q, size_t from,
                      size_t n) {
  static const char head[] =
      "WITH i AS (INSERT INTO relay(dst, src, conn, kind, addr, body) VALUES ";
  static const char tail[] = " RETURNING dst) SELECT pg_notify('scopa_' || "
                             "dst, '') FROM (SELECT DISTINCT dst FROM i) d";
  enum { EACH = 64 };
  size_t cap = sizeof head + sizeof tail + n * EACH;
  char *sql = malloc(cap);
  const char **v = malloc(n * 6 * sizeof *v);
  char(*nums)[2][24] = malloc(n * sizeof *nums);
  int ok = sql && v && nums;
  if (ok) {
    size_t len = (size_t)snprintf(sql, cap, "%s", head);
    for (size_t i = 0; i < n; i++) {
      const row *o = &q->v[from + i];
      int p = (int)i * 6;
      len += (size_t)snprintf(
          sql + len, cap - len,
          "%s($%d, $%d, $%d::bigint, $%d::integer, $%d, $%d)", i ? ", " : "",
          p + 1, p + 2, p + 3, p + 4, p + 5, p + 6);
      snprintf(nums[i][0], sizeof nums[i][0], "%llu",
               (unsigned long long)o->conn);
      snprintf(nums[i][1], sizeof nums[i][1], "%d", o->kind);
      v[p] = o->node;
      v[p + 1] = r->srv->node;
      v[p + 2] = nums[i][0];
      v[p + 3] = nums[i][1];
      v[p + 4] = o->addr;
      v[p + 5] = o->body;
    }
    snprintf(sql + len, cap - len, "%s", tail);
    PGresult *res = PQexecParams(db, sql, (int)n * 6, NULL, v, NULL, NULL, 0);
    ok = PQresultStatus(res) == PGRES_TUPLES_OK;
    PQclear(res);
  }
  free(sql);
  free(v);
  free(nums);
  return ok ? 0 : -1;
}

/* The courier: everything handed over, in order, in statements of up to
 * ROWS_PER_INSERT rows; what could not be written goes back to the head
 * of the queue.  0, or -1 when a write failed. */
static int send_rows(relay *r, PGconn *db) {
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
    if (write_rows(r, db, &q, done, n))
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
    rows_free(&q); /* no memory: lost, as past OUT_CAP */
  }
  pthread_mutex_unlock(&r->mu);
  return failed ? -1 : 0;
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

static int by_id(const void *a, const void *b) {
  long long x = ((const long long *)a)[0], y = ((const long long *)b)[0];
  return x < y ? -1 : x > y;
}

/* The courier: takes up to ROWS_PER_READ rows for this node (an index
 * scan in id order, which also marks the index entries of rows taken
 * before as dead, so that the next read does not walk them again) and
 * hands them to the loop in the order they were written.  1 when there
 * may be more, 0, -1 on error. */
static int fetch_rows(relay *r, PGconn *db) {
  char lim[16];
  snprintf(lim, sizeof lim, "%d", ROWS_PER_READ);
  const char *const v[] = {r->srv->node, lim};
  PGresult *res = PQexecParams(
      db,
      "DELETE FROM relay WHERE id IN (SELECT id FROM relay WHERE dst = $1 "
      "ORDER BY dst, id LIMIT $2::integer) RETURNING id, src, conn, kind, "
      "addr, body",
      2, NULL, v, NULL, NULL, 0);
  if (PQresultStatus(res) != PGRES_TUPLES_OK) {
    PQclear(res);
    return -1;
  }
  int n = PQntuples(res);
  long long(*order)[2] = n ? malloc((size_t)n * sizeof *order) : NULL;
  rows got = {0};
  if (n && (!order || !(got.v = calloc((size_t)n, sizeof *got.v)))) {
    free(order);
    PQclear(res);
    return -1; /* no memory: the rows are gone, as in a crash */
  }
  for (int i = 0; i < n; i++) {
    order[i][0] = atoll(PQgetvalue(res, i, 0));
    order[i][1] = i;
  }
  if (n > 1)
    qsort(order, (size_t)n, sizeof *order, by_id);
  for (int k = 0; k < n; k++) {
    int i = (int)order[k][1];
    row *o = &got.v[got.n];
    snprintf(o->node, sizeof o->node, "%s", PQgetvalue(res, i, 1));
    o->conn = strtoull(PQgetvalue(res, i, 2), NULL, 10);
    o->kind = atoi(PQgetvalue(res, i, 3));
    snprintf(o->addr, sizeof o->addr, "%s", PQgetvalue(res, i, 4));
    if ((o->body = strdup(PQgetvalue(res, i, 5))) != NULL)
      got.n++;
  }
  free(order);
  PQclear(res);
  got.cap = (size_t)n;
  if (got.n) {
    pthread_mutex_lock(&r->mu);
    if (rows_move(&r->inq, &got))
      rows_free(&got);
    pthread_mutex_unlock(&r->mu);
    lws_cancel_service(r->srv->ctx);
  }
  free(got.v);
  return n >= ROWS_PER_READ;
}

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
  rows_free(&in);
}

/* ------------------------------------------------------------------ */
/* The courier                                                         */
/* ------------------------------------------------------------------ */

static PGconn *courier_connect(relay *r) {
  char sql[64];
  PGconn *c = connect_db(r->srv->conf.db);
  snprintf(sql, sizeof sql, "LISTEN scopa_%s", r->srv->node);
  /* An index scan reads the rows in id order and marks the entries of
   * rows deleted before as dead as it passes them; a bitmap scan (the
   * planner's choice) walks every one of them again at each read. */
  if (PQstatus(c) == CONNECTION_OK && setup(c) == 0 &&
      command(c, "SET enable_bitmapscan = off") == 0 && command(c, sql) == 0) {
    /* what came while nobody listened */
    __atomic_store_n(&r->want_read, 1, __ATOMIC_RELEASE);
    return c;
  }
  PQfinish(c);
  return NULL;
}

/* Waits for a notification, a poke or 300 ms; 0, or -1 when the
 * connection is lost. */
static int courier_wait(relay *r, PGconn *c) {
  /* poll, not select: after a reconnection under load the socket's
   * number may be past FD_SETSIZE */
  struct pollfd p[2] = {{.fd = PQsocket(c), .events = POLLIN},
                        {.fd = r->efd, .events = POLLIN}};
  if (poll(p, 2, 300) > 0 && (p[1].revents & POLLIN)) {
    uint64_t n;
    if (read(r->efd, &n, sizeof n) < 0) {
      /* nothing to take */
    }
  }
  if (!PQconsumeInput(c) || PQstatus(c) != CONNECTION_OK)
    return -1;
  for (PGnotify *n; (n = PQnotifies(c)) != NULL; PQfreemem(n))
    __atomic_store_n(&r->want_read, 1, __ATOMIC_RELEASE);
  return 0;
}

/* The courier's round: the rows handed over written, this node's rows
 * read while any may wait.  0, or -1 when a statement failed. */
static int courier_round(relay *r, PGconn *c) {
  if (send_rows(r, c))
    return -1;
  while (__atomic_exchange_n(&r->want_read, 0, __ATOMIC_ACQ_REL)) {
    int more = fetch_rows(r, c);
    if (more)
      __atomic_store_n(&r->want_read, 1, __ATOMIC_RELEASE);
    if (more < 0)
      return -1;
  }
  return 0;
}

/* The thread: its own connection (LISTEN scopa_NODE), which writes what
 * the loop handed over and reads what came for this node, so that the
 * loop never waits for the relay's round trips.  A lost connection is
 * made again; rows may have been lost with it (a restart of PostgreSQL
 * empties the unlogged table): the loop hears of it (io_reset). */
static void *courier_main(void *arg) {
  relay *r = arg;
  PGconn *c = NULL;
  int lost = 0;
  while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
    if (!c && !(c = courier_connect(r))) {
      usleep(200 * 1000);
      continue;
    }
    if (lost) {
      lost = 0;
      __atomic_store_n(&r->io_reset, 1, __ATOMIC_RELEASE);
      lws_cancel_service(r->srv->ctx);
    }
    if (courier_wait(r, c) || courier_round(r, c)) {
      if (PQstatus(c) != CONNECTION_OK) {
        PQfinish(c);
        c = NULL;
        lost = 1;
      } else {
        usleep(50 * 1000); /* a statement refused: not at full speed */
      }
    }
  }
  if (c)
    send_rows(r, c); /* the last turn's rows */
  PQfinish(c);
  return NULL;
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
  r->db = connect_db(srv->conf.db);
  if (r->efd < 0 || PQstatus(r->db) != CONNECTION_OK || setup(r->db)) {
    snprintf(msg, msgsize, "cluster: the database cannot be reached: %s",
             PQerrorMessage(r->db));
    msg[strcspn(msg, "\n")] = 0;
    PQfinish(r->db);
    if (r->efd >= 0)
      close(r->efd);
    pthread_mutex_destroy(&r->mu);
    free(r);
    return -1;
  }
  r->renewed_ms = now_ms();
  srv->relay = r;
  if (pthread_create(&r->thread, NULL, courier_main, r) != 0) {
    snprintf(msg, msgsize, "cluster: cannot start the courier thread");
    relay_stop(srv);
    return -1;
  }
  r->thread_started = 1;
  r->tick_ms = 0;
  relay_tick(srv, now_ms()); /* the heartbeat, before any client */
  return 0;
}

void relay_stop(server *srv) {
  relay *r = srv->relay;
  if (!r)
    return;
  hand_over(r);
  if (r->thread_started) { /* it writes what was handed over, then ends */
    __atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
    poke(r);
    pthread_join(r->thread, NULL);
  }
  const char *const v[] = {srv->node};
  PQclear(run(r,
              "UPDATE leases SET expires = '-infinity' WHERE node = $1 "
              "AND expires > now()",
              1, v));
  PQclear(run(r, "DELETE FROM nodes WHERE node = $1", 1, v));
  report_closed(r);
  rows_free(&r->out);
  rows_free(&r->sendq);
  rows_free(&r->inq);
  free(r->alive);
  while (r->tree) /* the connections are the server's: only the nodes go */
    tdelete(*(conn **)r->tree, &r->tree, by_key);
  PQfinish(r->db);
  close(r->efd);
  pthread_mutex_destroy(&r->mu);
  free(r);
  srv->relay = NULL;
}

/* ------------------------------------------------------------------ */
/* Leases                                                              */
/* ------------------------------------------------------------------ */

int relay_claim(server *srv, const char *code, long long *epoch) {
  *epoch = 0;
  if (!srv->relay)
    return 0;
  return store_lease_take(srv->st, code, srv->node, RELAY_LEASE_S, epoch);
}

void relay_release(server *srv, const char *code, long long epoch) {
  if (srv->relay && epoch > 0)
    store_lease_release(srv->st, code, srv->node, epoch);
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

/* The node holding code's lease into holder ("" when none or on error). */
static void holder_of(relay *r, const char *code, char holder[24]) {
  const char *const v[] = {code};
  PGresult *res = run(r,
                      "SELECT node FROM leases WHERE code = $1 AND "
                      "expires > now()",
                      1, v);
  holder[0] = 0;
  if (res && PQntuples(res) == 1)
    snprintf(holder, 24, "%s", PQgetvalue(res, 0, 0));
  PQclear(res);
}

static void relay_to(relay *r, conn *c, const char *text, size_t len) {
  char who[128];
  conn_identity(c, who, sizeof who);
  queue_row(r, c->peer, c->serial, K_CLIENT_MSG, who, text, len);
}

/* c stops being relayed: its owner hears that its client left. */
static void unrelay(relay *r, conn *c) {
  if (!c->peer[0])
    return;
  queue_row(r, c->peer, c->serial, K_CLIENT_GONE, c->addr, "", 0);
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

/* A join, resume or watch of code: here (0), or relayed or parked (1).
 * A client relayed already stays with its owner when that owner holds
 * code too (so its remote connection, and the one seat it may take
 * there, stay the same), else leaves it first. */
static int route_entry(conn *c, const char *code, const char *text, size_t len,
                       int again) {
  server *srv = c->srv;
  relay *r = srv->relay;
  char norm[PROTO_CODE_MAX + 1], holder[24];
  size_t n = 0;
  for (; code[n] && n < PROTO_CODE_MAX; n++)
    norm[n] = (char)toupper((unsigned char)code[n]);
  norm[n] = 0;
  long long epoch;
  if (table_find(srv, norm) || relay_claim(srv, norm, &epoch) <= 0) {
    unrelay(r, c);
    return 0; /* here (an error of the claim: the load says so) */
  }
  holder_of(r, norm, holder);
  if (!holder[0] || strcmp(holder, srv->node) == 0) {
    unrelay(r, c);
    return 0; /* it expired meanwhile: the load takes it */
  }
  if (c->peer[0] && strcmp(holder, c->peer) == 0) {
    keep_entry(c, text, len, again);
    relay_to(r, c, text, len);
    return 1;
  }
  unrelay(r, c);
  if (!alive(r, holder)) {
    c->parked = malloc(len + 1);
    if (!c->parked)
      return 0;
    memcpy(c->parked, text, len);
    c->parked[len] = 0;
    c->parked_ms = now_ms();
    return 1;
  }
  table_leave(c); /* one table per connection, wherever it is */
  snprintf(c->peer, sizeof c->peer, "%s", holder);
  tree_add(r, c);
  keep_entry(c, text, len, again);
  relay_to(r, c, text, len);
  return 1;
}

int relay_route(conn *c, const proto_msg *msg, const char *text, size_t len) {
  relay *r = c->srv->relay;
  if (!r || c->remote)
    return 0;
  if (c->parked) {
    conn_error(c, msg->id, "server", "the table is moving to another server",
               "il tavolo passa a un altro server");
    return 1;
  }
  int entry = msg->type == PROTO_JOIN || msg->type == PROTO_RESUME ||
              msg->type == PROTO_WATCH;
  if (entry)
    return route_entry(c, msg->code, text, len, msg->type != PROTO_JOIN);
  if (msg->type == PROTO_CREATE) /* a new table is made here */
    unrelay(r, c);
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
  if (!c->remote && c->peer[0])
    queue_row(r, c->peer, c->serial, K_CLIENT_GONE, c->addr, "", 0);
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
      queue_row(r, c->peer, c->rserial, K_SERVER_MSG, "",
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
        queue_row(r, c->peer, c->rserial, K_SERVER_CLOSE, "", "", 0);
        conn_closed(c);
      }
    }
    r->rclose = 0;
  }
  hand_over(r);
}

/* ------------------------------------------------------------------ */
/* Per-address limits across the cluster                               */
/* ------------------------------------------------------------------ */

/* This node's closes since the last report, taken off its counts (the
 * tick's; a connection's open sends them too, in its one statement). */
static void report_closed(relay *r) {
  if (!r->nclosed)
    return;
  const char *const v[] = {r->srv->node, r->closed};
  PGresult *res = run(r,
                      "UPDATE addr_conns c SET n = c.n - d.k FROM (SELECT x, "
                      "count(*)::integer AS k FROM unnest(string_to_array($2, "
                      "E'\\n')) x GROUP BY x) d WHERE c.addr = d.x AND "
                      "c.node = $1",
                      2, v);
  if (!res)
    return; /* the next tick */
  PQclear(res);
  free(r->closed);
  r->closed = NULL;
  r->nclosed = 0;
}

int relay_conn_open(server *srv, const char *addr) {
  relay *r = srv->relay;
  if (!r || strchr(addr, '\n'))
    return -1;
  char lim[16], alive_s[16];
  snprintf(lim, sizeof lim, "%d", srv->conf.limits.conns_per_addr);
  snprintf(alive_s, sizeof alive_s, "%d", RELAY_DEAD_MS / 1000);
  const char *const v[] = {addr, srv->node, lim, r->closed ? r->closed : "",
                           alive_s};
  PGresult *res = run(
      r, "SELECT scopa_conn_open($1, $2, $3::integer, $4, $5::integer)", 5, v);
  if (!res)
    return -1;
  int ok = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "t") == 0;
  PQclear(res);
  free(r->closed); /* taken off in the same statement */
  r->closed = NULL;
  r->nclosed = 0;
  return ok ? LIMITS_COUNTED : LIMITS_REFUSED;
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
  r->nclosed++;
}

int relay_table_create(server *srv, const char *addr) {
  relay *r = srv->relay;
  if (!r)
    return -1;
  char per_min[16];
  snprintf(per_min, sizeof per_min, "%d", srv->conf.limits.tables_per_addr);
  const char *const v[] = {addr, per_min};
  /* A bucket of per_min credits, coming back evenly over a minute; the
   * row is locked by the upsert, so two nodes take from it in turn. */
  PGresult *res =
      run(r,
          "INSERT INTO addr_tables AS b(addr, credits, at) VALUES ($1, "
          "$2::float8 - 1, clock_timestamp()) ON CONFLICT (addr) DO UPDATE "
          "SET credits = least($2::float8, b.credits + $2::float8 * extract("
          "epoch FROM clock_timestamp() - b.at) / 60) - 1, at = "
          "clock_timestamp() WHERE least($2::float8, b.credits + $2::float8 * "
          "extract(epoch FROM clock_timestamp() - b.at) / 60) >= 1 RETURNING 1",
          2, v);
  if (!res)
    return -1;
  int ok = PQntuples(res) == 1;
  PQclear(res);
  return ok ? LIMITS_COUNTED : LIMITS_REFUSED;
}

/* ------------------------------------------------------------------ */
/* The tick                                                            */
/* ------------------------------------------------------------------ */

/* The heartbeat, and the nodes alive (seen within RELAY_DEAD_MS). */
static void heartbeat(relay *r) {
  char ms[16];
  snprintf(ms, sizeof ms, "%d", RELAY_DEAD_MS);
  const char *const v[] = {r->srv->node, ms};
  PGresult *res =
      run(r,
          "WITH h AS (INSERT INTO nodes(node, seen) VALUES ($1, now()) ON "
          "CONFLICT (node) DO UPDATE SET seen = now()) SELECT node FROM nodes "
          "WHERE seen > now() - make_interval(secs => $2::integer / 1000.0)",
          2, v);
  if (!res)
    return;
  int n = PQntuples(res);
  char(*a)[24] = malloc((size_t)(n + 1) * sizeof *a);
  if (a) {
    for (int i = 0; i < n; i++)
      snprintf(a[i], 24, "%s", PQgetvalue(res, i, 0));
    snprintf(a[n], 24, "%s", r->srv->node);
    free(r->alive);
    r->alive = a;
    r->nalive = n + 1;
  }
  PQclear(res);
}

static int by_text(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Renews the leases of the tables in memory; a table whose lease is not
 * this node's any more (or not of its epoch) is lost. */
static void renew(relay *r, int64_t now) {
  server *srv = r->srv;
  size_t cap = 3 + srv->ntables * (PROTO_CODE_MAX + 1), len = 0;
  char *codes = malloc(cap), ttl[16];
  if (!codes)
    return;
  codes[len++] = '{';
  for (table *t = srv->tables; t; t = t->next)
    if (t->epoch > 0)
      len += (size_t)snprintf(codes + len, cap - len, "%s%s",
                              len > 1 ? "," : "", t->code);
  snprintf(codes + len, cap - len, "}");
  snprintf(ttl, sizeof ttl, "%d", RELAY_LEASE_S);
  const char *const v[] = {srv->node, codes, ttl};
  PGresult *res =
      run(r,
          "UPDATE leases SET expires = now() + make_interval(secs => $3) "
          "WHERE node = $1 AND code = ANY($2::text[]) AND expires > now() "
          "RETURNING code || ':' || epoch",
          3, v);
  free(codes);
  if (!res)
    return;
  r->renewed_ms = now;
  int n = PQntuples(res);
  char **held = malloc((size_t)(n ? n : 1) * sizeof *held);
  if (!held) {
    PQclear(res);
    return;
  }
  for (int i = 0; i < n; i++)
    held[i] = PQgetvalue(res, i, 0);
  qsort(held, (size_t)n, sizeof *held, by_text);
  table *next;
  for (table *t = srv->tables; t; t = next) {
    next = t->next;
    char key[64], *k = key;
    snprintf(key, sizeof key, "%s:%lld", t->code, t->epoch);
    if (t->epoch > 0 && !bsearch(&k, held, (size_t)n, sizeof *held, by_text))
      table_lost(srv, t);
  }
  free(held);
  PQclear(res);
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
      if (!c->gone)
        conn_closed(c);
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

/* Entries parked for a dead owner's lease: tried again, given up after
 * twice a lease's life. */
static void retry_parked(relay *r, int64_t now) {
  conn *next;
  for (conn *c = r->srv->all; c; c = next) {
    next = c->anext;
    if (!c->parked)
      continue;
    char *text = c->parked;
    int64_t since = c->parked_ms;
    c->parked = NULL;
    if (now - since > 2 * RELAY_LEASE_S * 1000) {
      conn_error(c, NULL, "server", "the table cannot be reached",
                 "il tavolo non è raggiungibile");
      conn_close_soon(c);
    } else {
      conn_deliver(c, text, strlen(text), 0);
      if (c->parked)
        c->parked_ms = since;
    }
    free(text);
  }
}

/* Rows for nodes long dead, nodes long gone, leases of no game. */
static void purge(relay *r) {
  PQclear(run(r,
              "DELETE FROM relay WHERE dst <> ALL(SELECT node FROM nodes "
              "WHERE seen > now() - interval '60 seconds')",
              0, NULL));
  PQclear(run(r, "DELETE FROM nodes WHERE seen < now() - interval '1 hour'", 0,
              NULL));
  PQclear(run(r,
              "DELETE FROM addr_conns WHERE n <= 0 OR node <> ALL(SELECT "
              "node FROM nodes WHERE seen > now() - interval '60 seconds')",
              0, NULL));
  PQclear(run(r,
              "DELETE FROM addr_tables WHERE at < now() - interval '2 minutes'",
              0, NULL));
  PQclear(run(r,
              "DELETE FROM leases l WHERE expires < now() - interval '1 hour' "
              "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.code = l.code)",
              0, NULL));
}

void relay_tick(server *srv, int64_t now) {
  relay *r = srv->relay;
  if (!r || now - r->tick_ms < RELAY_TICK_MS)
    return;
  r->tick_ms = now;
  heartbeat(r);
  report_closed(r);
  renew(r, now);
  drop_dead(r);
  retry_parked(r, now);
  if (now - r->purged_ms > 60000) {
    r->purged_ms = now;
    purge(r);
  }
  /* a notification lost is not a row lost: the courier reads anyway */
  __atomic_store_n(&r->want_read, 1, __ATOMIC_RELEASE);
  poke(r);
  relay_poll(srv);
}
