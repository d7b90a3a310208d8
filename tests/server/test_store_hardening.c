/*
 * test_store_hardening.c -- the store against strangers without sockets
 * (issue 22; the real server's side is test_store_hardening.py):
 * store_claim keeps a file to one claimant and refuses a schema it does
 * not know; the writer, given one group of writes in which one table's
 * write fails for real (a trigger refuses its row), commits the other
 * tables' writes, lists the failed table once, drops its later writes
 * until it is forgotten; a fault of the database's own (its write lock
 * held elsewhere) fails every table of the group.  Names: serve-claim-N,
 * serve-writer-N.
 */
#include "../../src/server/store.h"
#include "../../src/server/writer.h"
#include "../test.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void new_file(char *path) {
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
}

static void remove_files(const char *path) {
  char side[256];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
}

/* Runs sql on a connection of its own, as another program would. */
static void exec(const char *path, const char *sql) {
  sqlite3 *db = NULL;
  CHECK(sqlite3_open(path, &db) == SQLITE_OK);
  sqlite3_busy_timeout(db, 10000);
  CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
  sqlite3_close(db);
}

/* store_claim's lock, or -1 when it refused the file. */
static int claim(const char *path, char *msg, size_t n) {
  int lock = -1;
  return store_claim(path, &lock, msg, n) ? -1 : lock;
}

static void test_claim(void) {
  char path[] = "/tmp/scopa-test-claim-XXXXXX", msg[512], want[64];
  new_file(path);
  TEST("serve-claim-1", "docs/serve.md The database");
  /* serve-claim-1: one claim at a time, the holder named; let go, the
   * file is free again. */
  int lock = claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  snprintf(want, sizeof want, "(pid %ld)", (long)getpid());
  CHECK(claim(path, msg, sizeof msg) == -1);
  CHECK(strstr(msg, "is already served by another process") &&
        strstr(msg, want) && strstr(msg, path));
  store_release(lock);
  lock = claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  store_release(lock);
  TEST("serve-claim-2", "docs/serve.md The database");
  /* serve-claim-2: a newer schema and another program's file are
   * refused; the schema version this server knows is accepted. */
  exec(path, "PRAGMA user_version = 8");
  CHECK(claim(path, msg, sizeof msg) == -1);
  CHECK(strstr(msg, "was made by a newer scopa (schema version 8"));
  exec(path, "PRAGMA user_version = 7");
  lock = claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  store_release(lock);
  exec(path, "PRAGMA user_version = 6"); /* before tournaments: moves on */
  lock = claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  store_release(lock);
  exec(path, "PRAGMA user_version = 5"); /* before table talk: moves on */
  lock = claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  store_release(lock);
  exec(path, "PRAGMA user_version = 4"); /* before the bank: moves on */
  lock = claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  store_release(lock);
  exec(path, "PRAGMA user_version = 3"); /* before the seeks: moves on */
  lock = claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  store_release(lock);
  exec(path, "PRAGMA user_version = 2"); /* before the lobby: moves on */
  lock = claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  store_release(lock);
  exec(path, "PRAGMA application_id = 7");
  CHECK(claim(path, msg, sizeof msg) == -1);
  CHECK(strstr(msg, "is not a scopa database"));
  remove_files(path);
  char other[] = "/tmp/scopa-test-claim-XXXXXX";
  new_file(other);
  exec(other, "CREATE TABLE notes(text)");
  CHECK(claim(other, msg, sizeof msg) == -1);
  CHECK(strstr(msg, "is not a scopa database"));
  remove_files(other);
}

static void wake(void *arg) { (void)arg; }

/* Waits (10 s at most) for the writer to settle batch. */
static int settled(writer *w, uint64_t batch) {
  for (int i = 0; i < 1000 && writer_committed(w) < batch; i++)
    usleep(10000);
  return writer_committed(w) >= batch;
}

static store_game game(const char *code) {
  store_game g = {.seed = "0123456789abcdef0123456789abcdef",
                  .rules_json = "{\"players\":2}",
                  .nseats = 2,
                  .away_s = 60};
  snprintf(g.code, sizeof g.code, "%s", code);
  g.seat[0].kind = STORE_PERSON;
  strcpy(g.seat[0].name, "Anna");
  g.seat[1].kind = STORE_BOT;
  strcpy(g.seat[1].bot, "greedy");
  return g;
}

/* How many moves of code are stored (-1: no such game). */
static int stored_moves(const char *path, const char *code) {
  store *st = NULL;
  store_game g;
  char msg[256];
  if (store_open(path, &st, msg, sizeof msg))
    return -2;
  int rc = store_load(st, code, &g, msg, sizeof msg);
  int n = rc == 0 ? g.nmoves : -1;
  if (rc == 0)
    store_game_free(&g);
  store_close(st);
  return n;
}

static void test_writer(void) {
  char path[] = "/tmp/scopa-test-writer-XXXXXX", msg[512];
  writer_failure f[4];
  scopa_move m0, m1;
  scopa_move_parse("7dx3c+4s", NULL, &m0, NULL, 0);
  scopa_move_parse("10b", NULL, &m1, NULL, 0);
  new_file(path);
  int lock = claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  writer *w = writer_new(path, wake, NULL, msg, sizeof msg);
  CHECK(w != NULL);
  if (!w)
    return;
  store_game a = game("AAAAAA"), b = game("BBBBBB");
  writer_add_game(w, 1, &a, "", 0);
  writer_add_game(w, 2, &b, "", 0);
  writer_flush(w, 1);
  CHECK(settled(w, 1) && writer_take_failed(w, f, 4) == 0);
  exec(path, "CREATE TRIGGER refuse BEFORE INSERT ON moves WHEN NEW.code = "
             "'AAAAAA' BEGIN SELECT RAISE(ABORT, 'refused'); END");
  TEST("serve-writer-1", "server.h The barrier");
  /* serve-writer-1: one batch with writes of A and B; A's is refused:
   * B's is committed, A is listed once, with why, and nothing of A is
   * stored. */
  writer_add_move(w, 1, "AAAAAA", 0, m0, 0, 0, NULL, 0);
  writer_add_move(w, 2, "BBBBBB", 0, m0, 0, 0, NULL, 0);
  writer_add_move(w, 1, "AAAAAA", 1, m1, 0, 0, NULL, 0);
  writer_add_move(w, 2, "BBBBBB", 1, m1, 0, 0, NULL, 0);
  writer_flush(w, 2);
  CHECK(settled(w, 2));
  CHECK(writer_take_failed(w, f, 4) == 1);
  CHECK(f[0].table == 1 && strcmp(f[0].code, "AAAAAA") == 0);
  CHECK_EQ_STR(f[0].why_en, "the database refused the write");
  CHECK_EQ_INT(stored_moves(path, "BBBBBB"), 2);
  CHECK_EQ_INT(stored_moves(path, "AAAAAA"), 0);
  CHECK(!writer_failed(w));
  TEST("serve-writer-2", "server.h The barrier");
  /* serve-writer-2: the failed table's later writes are dropped (they
   * would leave a gap), even once the database would take them, until it
   * is forgotten; a new load of the table (a new id) writes again. */
  exec(path, "DROP TRIGGER refuse");
  writer_add_move(w, 1, "AAAAAA", 1, m1, 0, 0, NULL, 0);
  writer_add_move(w, 2, "BBBBBB", 2, m0, 0, 0, NULL, 0);
  writer_flush(w, 3);
  CHECK(settled(w, 3) && writer_take_failed(w, f, 4) == 0);
  CHECK_EQ_INT(stored_moves(path, "AAAAAA"), 0);
  CHECK_EQ_INT(stored_moves(path, "BBBBBB"), 3);
  writer_forget(w, 1);
  writer_add_move(w, 3, "AAAAAA", 0, m0, 0, 0, NULL, 0);
  writer_flush(w, 4);
  CHECK(settled(w, 4) && writer_take_failed(w, f, 4) == 0);
  CHECK_EQ_INT(stored_moves(path, "AAAAAA"), 1);
  TEST("serve-writer-3", "server.h The barrier");
  /* serve-writer-3: the database's own fault (its write lock held by
   * another program past the busy timeout): every table of the group
   * fails, nothing is stored, and the writer goes on afterwards. */
  sqlite3 *other = NULL;
  CHECK(sqlite3_open(path, &other) == SQLITE_OK);
  CHECK(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK);
  writer_add_move(w, 3, "AAAAAA", 1, m1, 0, 0, NULL, 0);
  writer_add_move(w, 2, "BBBBBB", 3, m1, 0, 0, NULL, 0);
  writer_flush(w, 5);
  CHECK(settled(w, 5));
  sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_close(other);
  CHECK(writer_take_failed(w, f, 4) == 2);
  CHECK(f[0].table + f[1].table == 5);
  CHECK_EQ_STR(f[0].why_en, "the database is busy");
  CHECK_EQ_INT(stored_moves(path, "AAAAAA"), 1);
  CHECK_EQ_INT(stored_moves(path, "BBBBBB"), 3);
  store_game c = game("CCCCCC");
  writer_add_game(w, 4, &c, "", 0);
  writer_flush(w, 6);
  CHECK(settled(w, 6) && writer_take_failed(w, f, 4) == 0);
  CHECK_EQ_INT(stored_moves(path, "CCCCCC"), 0);
  writer_free(w);
  store_release(lock);
  remove_files(path);
}

int main(void) {
  test_claim();
  test_writer();
  return test_summary("test_store_hardening");
}
