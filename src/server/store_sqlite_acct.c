/*
 * store_sqlite_acct.c -- accounts, sessions, failed logins and what the
 * account page reads, on SQLite (store.h "Accounts and sessions").
 *
 * Only the accounts' thread (auth.c) writes here, on a connection of its
 * own, outside the game batches: each write commits at once (a delete,
 * which is several, in one transaction).  Statements are prepared at
 * each call: these are a person's clicks, not a game's moves.
 */
#include "store_sqlite_acct.h"

#include <jansson.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB(st) ((sqlite3 *)store_sqlite_db(st))

/* A statement with its parameters bound by `types`: 't' a text, 'i' a
 * long long.  NULL on error (logged). */
static sqlite3_stmt *prep(store *st, const char *sql, const char *types, ...) {
  sqlite3_stmt *q = NULL;
  if (sqlite3_prepare_v2(DB(st), sql, -1, &q, NULL) != SQLITE_OK) {
    fprintf(stderr, "scopa serve: store: %s\n", sqlite3_errmsg(DB(st)));
    return NULL;
  }
  va_list ap;
  va_start(ap, types);
  for (int i = 0; types[i]; i++)
    if (types[i] == 't')
      sqlite3_bind_text(q, i + 1, va_arg(ap, const char *), -1,
                        SQLITE_TRANSIENT);
    else
      sqlite3_bind_int64(q, i + 1, va_arg(ap, long long));
  va_end(ap);
  return q;
}

/* Steps q to its end and frees it: 0, 1 for a constraint (a name taken),
 * -1. */
static int finish(store *st, sqlite3_stmt *q) {
  int rc = q ? sqlite3_step(q) : SQLITE_ERROR;
  if (rc != SQLITE_DONE && q)
    fprintf(stderr, "scopa serve: store: %s\n", sqlite3_errmsg(DB(st)));
  sqlite3_finalize(q);
  return rc == SQLITE_DONE ? 0 : (rc & 0xff) == SQLITE_CONSTRAINT ? 1 : -1;
}

static void text_col(sqlite3_stmt *q, int col, char *out, size_t cap) {
  const unsigned char *s = sqlite3_column_text(q, col);
  snprintf(out, cap, "%s", s ? (const char *)s : "");
}

int sq_account_add(store *st, const char *name, const char *hash,
                   long long *id) {
  int rc = finish(st, prep(st,
                           "INSERT INTO accounts(name, name_key, hash, "
                           "created) VALUES (?1, lower(?1), ?2, "
                           "CAST(strftime('%s','now') AS INTEGER))",
                           "tt", name, hash));
  if (rc == 0)
    *id = (long long)sqlite3_last_insert_rowid(DB(st));
  return rc;
}

/* One account from the row q is on (id, name, hash, created). */
static int read_account(sqlite3_stmt *q, store_account *out) {
  int rc = q ? sqlite3_step(q) : SQLITE_ERROR;
  if (rc == SQLITE_ROW) {
    out->id = sqlite3_column_int64(q, 0);
    text_col(q, 1, out->name, sizeof out->name);
    text_col(q, 2, out->hash, sizeof out->hash);
    out->created = sqlite3_column_int64(q, 3);
  }
  sqlite3_finalize(q);
  return rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : -1;
}

int sq_account_get(store *st, const char *name, store_account *out) {
  return read_account(prep(st,
                           "SELECT id, name, hash, created FROM accounts "
                           "WHERE name_key = lower(?1)",
                           "t", name),
                      out);
}

int sq_account_set_hash(store *st, long long id, const char *hash) {
  return finish(st, prep(st, "UPDATE accounts SET hash = ?2 WHERE id = ?1",
                         "it", id, hash));
}

int sq_account_delete(store *st, long long id, const char *anon) {
  static const char *const SQL[] = {
      "UPDATE seats SET name = ?2 WHERE account = ?1",
      "DELETE FROM ratings WHERE account = ?1",
      "DELETE FROM rating_log WHERE account = ?1",
      "DELETE FROM sessions WHERE account = ?1",
      ("UPDATE accounts SET name = ?2, name_key = NULL, hash = '' "
       "WHERE id = ?1"),
  };
  int rc =
      sqlite3_exec(DB(st), "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK
          ? 0
          : -1;
  for (size_t i = 0; rc == 0 && i < sizeof SQL / sizeof SQL[0]; i++)
    rc = finish(st, prep(st, SQL[i], "it", id, anon));
  if (rc == 0 && sqlite3_exec(DB(st), "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
    return 0;
  sqlite3_exec(DB(st), "ROLLBACK", NULL, NULL, NULL);
  return -1;
}

int sq_session_add(store *st, const char *sha256, long long account,
                   long long expires) {
  return finish(st, prep(st,
                         "INSERT INTO sessions(sha256, account, expires) "
                         "VALUES (?1, ?2, ?3)",
                         "tii", sha256, account, expires)) == 0
             ? 0
             : -1;
}

int sq_session_get(store *st, const char *sha256, long long now,
                   store_account *out) {
  return read_account(prep(st,
                           "SELECT a.id, a.name, '', a.created FROM sessions "
                           "s JOIN accounts a ON a.id = s.account WHERE "
                           "s.sha256 = ?1 AND s.expires > ?2 AND "
                           "a.name_key IS NOT NULL",
                           "ti", sha256, now),
                      out);
}

int sq_session_end(store *st, const char *sha256) {
  return finish(st, prep(st, "DELETE FROM sessions WHERE sha256 = ?1", "t",
                         sha256)) == 0
             ? 0
             : -1;
}

int sq_sessions_end(store *st, long long account, const char *keep) {
  return finish(st, prep(st,
                         "DELETE FROM sessions WHERE account = ?1 AND "
                         "sha256 <> ?2",
                         "it", account, keep ? keep : "")) == 0
             ? 0
             : -1;
}

int sq_tries_count(store *st, const char *key, long long since) {
  sqlite3_stmt *q = prep(st,
                         "SELECT count(*) FROM tries WHERE key = ?1 AND "
                         "at >= ?2",
                         "ti", key, since);
  int n = q && sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int(q, 0) : -1;
  sqlite3_finalize(q);
  return n;
}

/* A try is kept an hour: the longest window a limit looks back over. */
int sq_tries_add(store *st, const char *key, long long now) {
  if (finish(st, prep(st, "DELETE FROM tries WHERE key = ?1 AND at < ?2", "ti",
                      key, now - 3600)) != 0)
    return -1;
  return finish(st, prep(st, "INSERT INTO tries(key, at) VALUES (?1, ?2)", "ti",
                         key, now)) == 0
             ? 0
             : -1;
}

/* Rows of q to a JSON text by row(q, into): malloc'd, NULL on error. */
static char *collect(sqlite3_stmt *q, json_t *into,
                     void (*row)(sqlite3_stmt *, json_t *)) {
  int rc = SQLITE_ERROR;
  while (q && into && (rc = sqlite3_step(q)) == SQLITE_ROW)
    row(q, into);
  sqlite3_finalize(q);
  char *text =
      rc == SQLITE_DONE && into ? json_dumps(into, JSON_COMPACT) : NULL;
  json_decref(into);
  return text;
}

static void rating_row(sqlite3_stmt *q, json_t *into) {
  double rd = sqlite3_column_double(q, 2);
  json_object_set_new(into, (const char *)sqlite3_column_text(q, 0),
                      json_pack("{s:f, s:f, s:i, s:b}", "rating",
                                sqlite3_column_double(q, 1), "rd", rd, "games",
                                sqlite3_column_int(q, 3), "provisional",
                                rd > STORE_PROVISIONAL_RD));
}

char *sq_account_ratings(store *st, long long account) {
  return collect(prep(st,
                      "SELECT pool, rating, rd, games FROM ratings WHERE "
                      "account = ?1 ORDER BY pool",
                      "i", account),
                 json_object(), rating_row);
}

static void history_row(sqlite3_stmt *q, json_t *into) {
  const char *pool = (const char *)sqlite3_column_text(q, 0);
  json_t *list = json_object_get(into, pool);
  if (!list)
    json_object_set_new(into, pool, list = json_array());
  json_array_append_new(list,
                        json_pack("{s:I, s:f, s:f, s:s}", "at",
                                  (json_int_t)sqlite3_column_int64(q, 1),
                                  "rating", sqlite3_column_double(q, 2), "rd",
                                  sqlite3_column_double(q, 3), "code",
                                  (const char *)sqlite3_column_text(q, 4)));
}

char *sq_account_history(store *st, long long account) {
  return collect(prep(st,
                      "SELECT pool, at, rating, rd, code FROM rating_log "
                      "WHERE account = ?1 ORDER BY pool, at, code",
                      "i", account),
                 json_object(), history_row);
}

static void game_row(sqlite3_stmt *q, json_t *into) {
  json_array_append_new(into,
                        json_pack("{s:s, s:I, s:i, s:b, s:b}", "code",
                                  (const char *)sqlite3_column_text(q, 0), "at",
                                  (json_int_t)sqlite3_column_int64(q, 1),
                                  "seat", sqlite3_column_int(q, 2), "finished",
                                  sqlite3_column_int(q, 3), "rated",
                                  sqlite3_column_int(q, 4)));
}

char *sq_account_games(store *st, long long account, int limit) {
  return collect(prep(st,
                      "SELECT g.code, g.created, s.seat, g.finished, "
                      "g.rated FROM seats s JOIN games g ON g.code = "
                      "s.code WHERE s.account = ?1 ORDER BY g.created "
                      "DESC, g.code LIMIT ?2",
                      "ii", account, (long long)limit),
                 json_array(), game_row);
}
