/*
 * test_store_lease.c -- the leases of store.h on a real PostgreSQL
 * (issue 24; docs/serve.md "Any node serves any table"), two nodes as
 * two connections: a live lease is one node's; a node that never had
 * it, or lost it, can never write a move (the fenced write checks node
 * and epoch in its own transaction: a failure local to the table); the
 * epoch grows when the owner changes; a takeover waits for the batch
 * in flight of the old owner, and that batch's move stands.  And a
 * write that meets another program's lock fails after 5 s as the
 * database's fault ("busy"), as on SQLite, never stalls.  A renewal
 * of a lease does not wait for its owner's batch in flight.  Every
 * other write of a table (a new game, a seat, its end, its ratings) goes
 * through the same fence in the writer: a node that lost the lease
 * stores none of them (serve-lease-5).  Run by
 * test_store_pg.py with the URL of a fresh database.  Names:
 * serve-lease-N.
 */
#include "../../src/server/store.h"
#include "../../src/server/writer.h"
#include "../test.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char CODE[] = "LEASE1";

static store *open_store(const char *url) {
  char msg[512];
  store *st = NULL;
  if (store_open(url, &st, msg, sizeof msg))
    fprintf(stderr, "%s\n", msg);
  CHECK(st != NULL);
  if (!st)
    exit(1);
  return st;
}

static scopa_move move_of(const char *text) {
  scopa_move m;
  CHECK(scopa_move_parse(text, NULL, &m, NULL, 0) == SCOPA_OK);
  return m;
}

/* CODE's lease renewed as the server renews them, all of a node's at
 * once (store_lease_renew): beside it a code nobody holds, never
 * renewed.  0 (CODE's renewed), 1 (lost), -1. */
static int renew1(store *st, const char *node, long long epoch, int ttl_s) {
  const char *const codes[] = {"NOBODY", CODE};
  const long long epochs[] = {1, epoch};
  int held[] = {-1, -1};
  if (store_lease_renew(st, node, codes, epochs, 2, ttl_s, held))
    return -1;
  CHECK_EQ_INT(held[0], 0);
  return held[1] ? 0 : 1;
}

/* One move in a batch of its own: 0, or -1 with the batch rolled back
 * (and *local: whether the failure was the table's own). */
static int fenced(store *st, int number, const char *node, long long epoch,
                  int *local) {
  char msg[256];
  if (store_add_move_fenced(st, CODE, number, move_of("1d"), 0, 0, node,
                            epoch)) {
    *local = store_failure_is_local(st);
    store_rollback(st);
    return -1;
  }
  return store_commit(st, msg, sizeof msg);
}

typedef struct takeover {
  store *st;
  long long epoch;
  int rc, done;
} takeover;

static void *take_async(void *arg) {
  takeover *t = arg;
  t->rc = store_lease_take(t->st, CODE, "A", 10, &t->epoch);
  __atomic_store_n(&t->done, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

static int stored_moves(store *st) {
  store_game g;
  char msg[256];
  if (store_load(st, CODE, &g, msg, sizeof msg))
    return -1;
  int n = g.nmoves;
  store_game_free(&g);
  return n;
}

static void wake(void *arg) { (void)arg; }

static int64_t now_ms_test(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Commits store arg's batch 300 ms from now (another node's director). */
static void *commit_later(void *arg) {
  char msg[256];
  usleep(300 * 1000);
  store_commit(arg, msg, sizeof msg);
  return NULL;
}

/* Waits (10 s at most) for the writer to settle batch. */
static int settled(writer *w, uint64_t batch) {
  for (int i = 0; i < 1000 && writer_committed(w) < batch; i++)
    usleep(10000);
  return writer_committed(w) >= batch;
}

/* One value of a query on a connection of its own ("" when no row). */
static void query1(const char *url, const char *sql, char *out, size_t n) {
  PGconn *c = PQconnectdb(url);
  PGresult *r = PQexec(c, sql);
  snprintf(out, n, "%s",
           PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1
               ? PQgetvalue(r, 0, 0)
               : "");
  PQclear(r);
  PQfinish(c);
}

/* Flushes batch: its one write, of table id, must have failed for the
 * lease and left sql's value at expect; then the table is forgotten. */
static void refused(writer *w, uint64_t batch, uint64_t id, const char *url,
                    const char *sql, const char *expect) {
  writer_failure f[4];
  char got[64];
  writer_flush(w, batch);
  CHECK(settled(w, batch));
  CHECK(writer_take_failed(w, f, 4) == 1 && f[0].table == id);
  CHECK_EQ_STR(f[0].why_en, "another server took the table over");
  query1(url, sql, got, sizeof got);
  CHECK_EQ_STR(got, expect);
  writer_forget(w, id);
}

/* serve-lease-5: node A took a table's lease (epoch e) and lost it to B
 * (the lease expired while A was slow); A's writer then writes, for
 * that table, a seat (a join taken in the second before A's renewal
 * found the loss), the game's end and its ratings, and a new game
 * (a rematch) under the same lost lease: each fails as the table's own
 * failure, and nothing of it is stored.  Under B's lease the same
 * writes go in. */
static void writes_after_a_lost_lease(const char *url, store *a, store *b) {
  static const char CODE5[] = "LEASE5";
  char msg[512], got[64];
  long long ea = 0, eb = 0;
  writer_failure f[4];
  store_game g = {.seed = "0123456789abcdef0123456789abcdef",
                  .rules_json = "{\"players\":2}",
                  .nseats = 2};
  snprintf(g.code, sizeof g.code, "%s", CODE5);
  g.seat[0].kind = STORE_PERSON;
  g.seat[1].kind = STORE_OPEN;
  writer *w = writer_new(url, wake, NULL, msg, sizeof msg);
  CHECK(w != NULL);
  if (!w)
    return;
  CHECK(store_lease_take(a, CODE5, "A", 1, &ea) == 0);
  writer_add_game(w, 1, &g, "A", ea);
  writer_flush(w, 1);
  CHECK(settled(w, 1) && writer_take_failed(w, f, 4) == 0);
  usleep(1200 * 1000); /* A's lease expires; B takes the table */
  CHECK(store_lease_take(b, CODE5, "B", 10, &eb) == 0);
  CHECK_EQ_INT(eb, ea + 1);
  long long owner = eb;

  store_seat joined = {.kind = STORE_PERSON, .name = "Late"};
  writer_set_seat(w, 1, CODE5, 1, &joined, "A", ea);
  refused(w, 2, 1, url, /* the open seat stays open */
          "SELECT name FROM seats WHERE code = 'LEASE5' AND seat = 1", "");
  writer_finish(w, 2, CODE5, 0, "A", ea);
  refused(w, 3, 2, url, "SELECT finished FROM games WHERE code = 'LEASE5'",
          "0");

  rate_job job = {.sides = 2, .nseats = 2, .account = {1, 2}};
  snprintf(job.code, sizeof job.code, "%s", CODE5);
  snprintf(job.pool, sizeof job.pool, "2p");
  job.score[0][1] = 1;
  writer_rate(w, 3, &job, "A", ea);
  refused(w, 4, 3, url, "SELECT count(*) FROM ratings", "0");

  store_game next = g; /* a rematch's new table, under the lost lease */
  snprintf(next.code, sizeof next.code, "LEASE6");
  CHECK(store_lease_take(a, "LEASE6", "A", 1, &ea) == 0);
  usleep(1200 * 1000);
  CHECK(store_lease_take(b, "LEASE6", "B", 10, &eb) == 0);
  writer_add_game(w, 4, &next, "A", ea);
  refused(w, 5, 4, url, "SELECT count(*) FROM games WHERE code = 'LEASE6'",
          "0");

  /* The owner's writes go in. */
  writer_set_seat(w, 5, CODE5, 1, &joined, "B", owner);
  writer_finish(w, 5, CODE5, 0, "B", owner);
  writer_flush(w, 6);
  CHECK(settled(w, 6) && writer_take_failed(w, f, 4) == 0);
  query1(url, "SELECT name FROM seats WHERE code = 'LEASE5' AND seat = 1", got,
         sizeof got);
  CHECK_EQ_STR(got, "Late");
  writer_free(w);
}

int main(int argc, char **argv) {
  char msg[512];
  int lock, local = 0;
  long long ea = 0, eb = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: test_store_lease postgresql://...\n");
    return 2;
  }
  CHECK(store_claim(argv[1], &lock, msg, sizeof msg) == 0 && lock == -1);
  store *a = open_store(argv[1]), *b = open_store(argv[1]);
  store_game g = {.seed = "0123456789abcdef0123456789abcdef",
                  .rules_json = "{\"players\":2}",
                  .nseats = 2};
  snprintf(g.code, sizeof g.code, "%s", CODE);
  g.seat[0].kind = g.seat[1].kind = STORE_BOT;
  CHECK(store_add_game(a, &g) == 0 && store_commit(a, msg, sizeof msg) == 0);

  TEST("serve-lease-1", "a live lease is one node's; only it writes");
  CHECK(store_lease_take(a, CODE, "A", 10, &ea) == 0);
  CHECK_EQ_INT(ea, 1);
  CHECK(store_lease_take(b, CODE, "B", 10, &eb) == 1);
  CHECK(fenced(a, 0, "A", 1, &local) == 0);
  CHECK(fenced(b, 1, "B", 1, &local) == -1 && local == 1);
  const char *en, *it;
  store_why(b, &en, &it);
  CHECK_EQ_STR(en, "another server took the table over");
  CHECK(store_lease_take(a, CODE, "A", 10, &ea) == 0 && ea == 1);

  TEST("serve-lease-2", "an expired lease moves on, the epoch grows, the "
                        "old owner is fenced");
  CHECK(renew1(a, "A", 1, 1) == 0);
  usleep(1200 * 1000);
  CHECK(store_lease_take(b, CODE, "B", 10, &eb) == 0);
  CHECK_EQ_INT(eb, 2);
  CHECK(renew1(a, "A", 1, 10) == 1);
  CHECK(fenced(a, 1, "A", 1, &local) == -1 && local == 1);
  CHECK(fenced(b, 1, "B", 2, &local) == 0);

  TEST("serve-lease-3", "a takeover waits for the batch in flight, whose "
                        "move stands; then the old owner is fenced");
  CHECK(renew1(b, "B", 2, 1) == 0);
  usleep(1200 * 1000); /* expired, but nobody took it: still B's */
  CHECK(store_add_move_fenced(b, CODE, 2, move_of("2d"), 0, 0, "B", 2) == 0);
  takeover t = {.st = a};
  pthread_t th;
  CHECK(pthread_create(&th, NULL, take_async, &t) == 0);
  usleep(500 * 1000);
  CHECK(__atomic_load_n(&t.done, __ATOMIC_SEQ_CST) == 0); /* it waits */
  CHECK(store_commit(b, msg, sizeof msg) == 0);
  pthread_join(th, NULL);
  CHECK(t.rc == 0);
  CHECK_EQ_INT(t.epoch, 3);
  CHECK(fenced(b, 3, "B", 2, &local) == -1 && local == 1);
  CHECK(fenced(a, 3, "A", 3, &local) == 0);
  CHECK_EQ_INT(stored_moves(a), 4);

  TEST("serve-lease-3b", "a renewal does not wait for the batch in flight");
  CHECK(store_add_move_fenced(a, CODE, 4, move_of("2c"), 0, 0, "A", 3) == 0);
  int64_t t0 = scopa_clock_ns(); /* a batch open, its lease row locked */
  CHECK(renew1(b, "A", 3, 10) == 0);
  CHECK((scopa_clock_ns() - t0) / 1000000 < 1000); /* not lock_timeout */
  CHECK(store_commit(a, msg, sizeof msg) == 0);
  CHECK_EQ_INT(stored_moves(a), 5);

  TEST("serve-lease-4", "a released lease is free at once, epoch kept");
  CHECK(store_lease_release(a, CODE, "A", 3) == 0);
  CHECK(store_lease_take(b, CODE, "B", 10, &eb) == 0);
  CHECK_EQ_INT(eb, 4);
  CHECK(fenced(a, 5, "A", 3, &local) == -1 && local == 1);

  TEST("serve-pg-busy", "a lock held elsewhere fails the write in 5 s");
  PGconn *other = PQconnectdb(argv[1]);
  PGresult *r = PQexec(other, "BEGIN; LOCK TABLE moves IN EXCLUSIVE MODE");
  CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
  PQclear(r);
  CHECK(store_add_move(a, CODE, 5, move_of("3d"), 0, 0) == -1);
  CHECK(store_failure_is_local(a) == 0);
  store_why(a, &en, &it);
  CHECK_EQ_STR(en, "the database is busy");
  store_rollback(a);
  PQclear(PQexec(other, "ROLLBACK"));
  PQfinish(other);

  TEST("serve-lease-5", "every write of a table goes through its lease");
  writes_after_a_lost_lease(argv[1], a, b);

  TEST("serve-pg-tourney", "docs/serve.md Tournaments: rows on PostgreSQL; "
                           "one director's batch at a time");
  store_tourney pt = {.id = "PT1",
                      .status = STORE_T_UPCOMING,
                      .created_ms = 5,
                      .state = "{\"x\":1}"},
                got;
  CHECK(store_begin(a) == 0 && store_tourney_lock(a) == 0);
  CHECK(store_tourney_put(a, &pt) == 0);
  pt.status = STORE_T_RUNNING; /* replaced in the same batch */
  CHECK(store_tourney_put(a, &pt) == 0);
  CHECK(store_begin(b) == 0);
  int64_t since = now_ms_test();
  pthread_t director;
  CHECK(pthread_create(&director, NULL, commit_later, a) == 0);
  CHECK(store_tourney_lock(b) == 0); /* waits for a's batch */
  CHECK(now_ms_test() - since >= 250);
  pthread_join(director, NULL);
  CHECK(store_tourney_get(b, "PT1", &got) == 0 &&
        got.status == STORE_T_RUNNING && !strcmp(got.state, "{\"x\":1}"));
  free(got.state);
  store_rollback(b);
  store_tourney *list = NULL;
  int n = 0, fin = -1, ab = -1;
  CHECK(store_tourney_list(b, 1, 10, &list, &n) == 0 && n == 1);
  store_tourney_free_all(list, n);
  CHECK(store_tourney_get(b, "NONE", &got) == 1);
  CHECK(store_game_end(b, CODE, &fin, &ab) == 0 && ab == 0);
  CHECK(store_game_end(b, "NONE", &fin, &ab) == 1);

  store_close(a);
  store_close(b);
  return test_summary("test_store_lease");
}
