/*
 * store_sqlite_tourney.c -- tournaments on SQLite (store.h
 * "Tournaments"; the table `tourneys` and the columns `tourney` and
 * `abandoned` of `games`, schema version 7).  One process holds the
 * file, so the director's lock is its batch's BEGIN IMMEDIATE.
 */
#include "store_sqlite_acct.h"
#include "store_talk.h"
#include "store_tourney.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define prepare(st, sql) store_sqlite_prepare(st, sql)
#define text(q, i, s) store_sqlite_text(q, i, s)

int sqr_tourney_put(store *st, const store_tourney *t) {
  sqlite3_stmt *q = prepare(st, "INSERT OR REPLACE INTO tourneys(id, status, "
                                "created, state) VALUES (?1, ?2, ?3, ?4)");
  if (q) {
    text(q, 1, t->id);
    sqlite3_bind_int(q, 2, t->status);
    sqlite3_bind_int64(q, 3, t->created_ms);
    text(q, 4, t->state);
  }
  return store_sqlite_write(st, q);
}

/* A row (id, status, created, state) into *t: 0, or -1 without memory. */
static int row(sqlite3_stmt *q, store_tourney *t) {
  const unsigned char *id = sqlite3_column_text(q, 0);
  const unsigned char *state = sqlite3_column_text(q, 3);
  snprintf(t->id, sizeof t->id, "%s", id ? (const char *)id : "");
  t->status = sqlite3_column_int(q, 1);
  t->created_ms = sqlite3_column_int64(q, 2);
  t->state = strdup(state ? (const char *)state : "{}");
  return t->state ? 0 : -1;
}

int sqr_tourney_get(store *st, const char *id, store_tourney *out) {
  sqlite3_stmt *q = prepare(st, "SELECT id, status, created, state FROM "
                                "tourneys WHERE id = ?1");
  if (!q)
    return -1;
  text(q, 1, id);
  int rc = sqlite3_step(q), got = rc == SQLITE_ROW ? row(q, out) : 0;
  sqlite3_finalize(q);
  if (rc == SQLITE_DONE)
    return 1;
  return rc == SQLITE_ROW && got == 0 ? 0 : -1;
}

int sqr_tourney_list(store *st, int active, int limit, store_tourney **out,
                     int *n) {
  sqlite3_stmt *q = prepare(st, "SELECT id, status, created, state FROM "
                                "tourneys WHERE status < ?1 ORDER BY "
                                "created DESC, id LIMIT ?2");
  store_tourney *t = calloc(limit > 0 ? (size_t)limit : 1, sizeof *t);
  int rc = SQLITE_ERROR;
  if (q && t) {
    sqlite3_bind_int(q, 1, active ? STORE_T_FINISHED : STORE_T_FINISHED + 1);
    sqlite3_bind_int(q, 2, limit);
    while (*n < limit && (rc = sqlite3_step(q)) == SQLITE_ROW)
      if (row(q, &t[(*n)++])) {
        rc = SQLITE_NOMEM;
        break;
      }
    if (rc == SQLITE_ROW)
      rc = SQLITE_DONE; /* the limit reached */
  }
  sqlite3_finalize(q);
  if (rc != SQLITE_DONE) {
    store_tourney_free_all(t, *n);
    *n = 0;
    return -1;
  }
  *out = t;
  return 0;
}

int sqr_tourney_lock(store *st) {
  return store_in_batch(st) ? 0 : -1; /* BEGIN IMMEDIATE holds the file */
}

int sqr_game_end(store *st, const char *code, int *finished, int *abandoned) {
  sqlite3_stmt *q =
      prepare(st, "SELECT finished, abandoned FROM games WHERE code = ?1");
  if (!q)
    return -1;
  text(q, 1, code);
  int rc = sqlite3_step(q);
  if (rc == SQLITE_ROW) {
    *finished = sqlite3_column_int(q, 0);
    *abandoned = sqlite3_column_int(q, 1);
  }
  sqlite3_finalize(q);
  return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
}
