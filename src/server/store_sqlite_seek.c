/*
 * store_sqlite_seek.c -- the seeks of Play now on SQLite (store.h "Play
 * now"; the table `seeks`, schema version 4).  One node: the pairer's
 * thread of this process writes here on its connection; the pairing's
 * batch is a BEGIN IMMEDIATE, which already excludes every other writer,
 * so the lock is the batch itself.  Statements are prepared at each
 * call: a pass is a few of them every half second, and only while
 * somebody seeks.
 */
#include "store_seek.h"
#include "store_sqlite_acct.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DB(st) ((sqlite3 *)store_sqlite_db(st))

#define prepare(st, sql) store_sqlite_prepare(st, sql)
#define text(q, i, s) store_sqlite_text(q, i, s)

/* Steps q to its end and frees it: 0, or -1 (logged). */
static int finish(store *st, sqlite3_stmt *q) {
  int rc = q ? sqlite3_step(q) : SQLITE_ERROR;
  if (rc != SQLITE_DONE && q)
    fprintf(stderr, "scopa serve: store: %s\n", sqlite3_errmsg(DB(st)));
  sqlite3_finalize(q);
  return rc == SQLITE_DONE ? 0 : -1;
}

static void text_col(sqlite3_stmt *q, int col, char *out, size_t cap) {
  const unsigned char *s = sqlite3_column_text(q, col);
  snprintf(out, cap, "%s", s ? (const char *)s : "");
}

int sqs_seek_add(store *st, const store_seek *s) {
  sqlite3_stmt *q = prepare(
      st, "INSERT INTO seeks(id, node, key, rules, players, away_s, clock_s, "
          "rating, account, since, beat, bank_s, inc_s) VALUES (?1, ?2, ?3, "
          "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10, ?11, ?12)");
  if (!q)
    return -1;
  text(q, 1, s->id);
  text(q, 2, s->node);
  text(q, 3, s->key);
  text(q, 4, s->rules_json);
  sqlite3_bind_int(q, 5, s->players);
  sqlite3_bind_int(q, 6, s->away_s);
  sqlite3_bind_int(q, 7, s->clock_s);
  sqlite3_bind_double(q, 8, s->rating);
  sqlite3_bind_int64(q, 9, s->account);
  sqlite3_bind_int64(q, 10, s->since_ms);
  sqlite3_bind_int(q, 11, s->bank_s);
  sqlite3_bind_int(q, 12, s->inc_s);
  return finish(st, q);
}

int sqs_seek_drop(store *st, const char *id) {
  sqlite3_stmt *q = prepare(st, "DELETE FROM seeks WHERE id = ?1");
  if (!q)
    return -1;
  text(q, 1, id);
  return finish(st, q);
}

int sqs_seek_beat(store *st, const char *node, long long now_ms,
                  long long stale_ms) {
  sqlite3_stmt *b = prepare(st, "UPDATE seeks SET beat = ?2 WHERE node = ?1 "
                                "AND code IS NULL");
  sqlite3_stmt *d = prepare(st, "DELETE FROM seeks WHERE beat < ?1");
  if (!b || !d) {
    sqlite3_finalize(b);
    sqlite3_finalize(d);
    return -1;
  }
  text(b, 1, node);
  sqlite3_bind_int64(b, 2, now_ms);
  sqlite3_bind_int64(d, 1, stale_ms);
  int rc = finish(st, b);
  return finish(st, d) || rc ? -1 : 0;
}

int sqs_seek_lock(store *st) {
  return store_in_batch(st) ? 0 : -1; /* BEGIN IMMEDIATE holds the file */
}

int sqs_seek_waiting(store *st, store_seek *out, int cap, int *n) {
  sqlite3_stmt *q = prepare(
      st, "SELECT id, node, key, rules, players, away_s, clock_s, rating, "
          "account, since, beat, bank_s, inc_s FROM seeks WHERE code IS NULL "
          "ORDER BY since, id LIMIT ?1");
  if (!q)
    return -1;
  sqlite3_bind_int(q, 1, cap);
  int rc;
  while (*n < cap && (rc = sqlite3_step(q)) == SQLITE_ROW) {
    store_seek *s = &out[*n];
    memset(s, 0, sizeof *s);
    text_col(q, 0, s->id, sizeof s->id);
    text_col(q, 1, s->node, sizeof s->node);
    text_col(q, 2, s->key, sizeof s->key);
    const unsigned char *rules = sqlite3_column_text(q, 3);
    s->rules_json = strdup(rules ? (const char *)rules : "");
    s->players = sqlite3_column_int(q, 4);
    s->away_s = sqlite3_column_int(q, 5);
    s->clock_s = sqlite3_column_int(q, 6);
    s->rating = sqlite3_column_double(q, 7);
    s->account = sqlite3_column_int64(q, 8);
    s->since_ms = sqlite3_column_int64(q, 9);
    s->beat_ms = sqlite3_column_int64(q, 10);
    s->bank_s = sqlite3_column_int(q, 11);
    s->inc_s = sqlite3_column_int(q, 12);
    ++*n;
    if (!s->rules_json) {
      sqlite3_finalize(q);
      return -1;
    }
  }
  sqlite3_finalize(q);
  return 0;
}

int sqs_seek_pair(store *st, const char *id, const char *code) {
  sqlite3_stmt *q = prepare(st, "UPDATE seeks SET code = ?2 WHERE id = ?1 "
                                "AND code IS NULL");
  if (!q)
    return -1;
  text(q, 1, id);
  text(q, 2, code);
  int rc = finish(st, q);
  return rc || sqlite3_changes(DB(st)) != 1 ? -1 : 0;
}

int sqs_seek_paired(store *st, const char *node, char (*ids)[33],
                    char (*codes)[STORE_CODE_MAX + 1], int cap, int *n) {
  sqlite3_stmt *q = prepare(
      st, "DELETE FROM seeks WHERE id IN (SELECT id FROM seeks WHERE node = "
          "?1 AND code IS NOT NULL LIMIT ?2) RETURNING id, code");
  if (!q)
    return -1;
  text(q, 1, node);
  sqlite3_bind_int(q, 2, cap);
  int rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW && *n < cap) {
    text_col(q, 0, ids[*n], 33);
    text_col(q, 1, codes[*n], STORE_CODE_MAX + 1);
    ++*n;
  }
  sqlite3_finalize(q);
  return rc == SQLITE_DONE ? 0 : -1;
}
