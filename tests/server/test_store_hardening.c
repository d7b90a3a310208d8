/*
 * test_store_hardening.c -- the store against strangers without sockets
 * (issue 22; the real server's side is test_store_hardening.py):
 * store_claim keeps a file to one claimant and refuses a schema it does
 * not know.  Names: serve-claim-N.
 */
#include "../../src/server/store.h"
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

static void test_claim(void) {
  char path[] = "/tmp/scopa-test-claim-XXXXXX", msg[512], want[64];
  new_file(path);
  TEST("serve-claim-1", "docs/serve.md The database");
  /* serve-claim-1: one claim at a time, the holder named; let go, the
   * file is free again. */
  int lock = store_claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  snprintf(want, sizeof want, "(pid %ld)", (long)getpid());
  CHECK(store_claim(path, msg, sizeof msg) == -1);
  CHECK(strstr(msg, "is already served by another process") &&
        strstr(msg, want) && strstr(msg, path));
  store_release(lock);
  lock = store_claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  store_release(lock);
  TEST("serve-claim-2", "docs/serve.md The database");
  /* serve-claim-2: a newer schema and another program's file are
   * refused; the schema version this server knows is accepted. */
  exec(path, "PRAGMA user_version = 2");
  CHECK(store_claim(path, msg, sizeof msg) == -1);
  CHECK(strstr(msg, "was made by a newer scopa (schema version 2"));
  exec(path, "PRAGMA user_version = 1");
  lock = store_claim(path, msg, sizeof msg);
  CHECK(lock >= 0);
  store_release(lock);
  exec(path, "PRAGMA application_id = 7");
  CHECK(store_claim(path, msg, sizeof msg) == -1);
  CHECK(strstr(msg, "is not a scopa database"));
  remove_files(path);
  char other[] = "/tmp/scopa-test-claim-XXXXXX";
  new_file(other);
  exec(other, "CREATE TABLE notes(text)");
  CHECK(store_claim(other, msg, sizeof msg) == -1);
  CHECK(strstr(msg, "is not a scopa database"));
  remove_files(other);
}

int main(void) {
  test_claim();
  return test_summary("test_store_hardening");
}
