/*
 * store_sqlite_talk.c -- table talk on SQLite (store.h "Table talk"; the
 * tables `talk` and `reports`, schema version 6).  A line and a report
 * are writes of the batch, as a move is (store_sqlite_write); a report
 * made twice by the same seat about the same seat is ignored (INSERT OR
 * IGNORE), never a failure that would stop the table.
 */
#include "store_sqlite_acct.h"
#include "store_talk.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define prepare(st, sql) store_sqlite_prepare(st, sql)
#define text(q, i, s) store_sqlite_text(q, i, s)

int sqt_add_talk(store *st, const char *code, const store_talk *line) {
  sqlite3_stmt *q = prepare(st, "INSERT INTO talk(code, n, seat, at_ms, text) "
                                "VALUES (?1, ?2, ?3, ?4, ?5)");
  if (q) {
    text(q, 1, code);
    sqlite3_bind_int(q, 2, line->n);
    sqlite3_bind_int(q, 3, line->seat);
    sqlite3_bind_int64(q, 4, line->at_ms);
    text(q, 5, line->text);
  }
  return store_sqlite_write(st, q);
}

int sqt_add_report(store *st, const store_report *r) {
  sqlite3_stmt *q = prepare(
      st, "INSERT OR IGNORE INTO reports(code, by_seat, seat, account, "
          "at_ms, through, reason) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  if (q) {
    text(q, 1, r->code);
    sqlite3_bind_int(q, 2, r->by);
    sqlite3_bind_int(q, 3, r->seat);
    sqlite3_bind_int64(q, 4, r->account);
    sqlite3_bind_int64(q, 5, r->at_ms);
    sqlite3_bind_int(q, 6, r->through);
    text(q, 7, r->reason);
  }
  return store_sqlite_write(st, q);
}

/* Grows *a (of elements of size `size`) to hold one more than n. */
static int room(void **a, int n, int *cap, size_t size) {
  if (n < *cap)
    return 0;
  int more = *cap ? *cap * 2 : 16;
  void *b = realloc(*a, (size_t)more * size);
  if (!b)
    return -1;
  *a = b;
  *cap = more;
  return 0;
}

int sqt_talk_load(store *st, const char *code, store_talk **out, int *n) {
  sqlite3_stmt *q = prepare(st, "SELECT n, seat, at_ms, text FROM talk "
                                "WHERE code = ?1 ORDER BY n");
  store_talk *lines = NULL;
  int cap = 0, rc = SQLITE_ERROR;
  *n = 0;
  if (q) {
    text(q, 1, code);
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
      const unsigned char *s = sqlite3_column_text(q, 3);
      if (room((void **)&lines, *n, &cap, sizeof *lines) ||
          !(lines[*n].text = strdup(s ? (const char *)s : ""))) {
        rc = SQLITE_NOMEM;
        break;
      }
      lines[*n].n = sqlite3_column_int(q, 0);
      lines[*n].seat = sqlite3_column_int(q, 1);
      lines[(*n)++].at_ms = sqlite3_column_int64(q, 2);
    }
  }
  sqlite3_finalize(q);
  if (rc != SQLITE_DONE) {
    store_talk_free(lines, *n);
    *n = 0;
    return -1;
  }
  *out = lines;
  return 0;
}

int sqt_reports(store *st, store_report **out, int *n) {
  sqlite3_stmt *q =
      prepare(st, "SELECT code, by_seat, seat, account, at_ms, through, "
                  "reason FROM reports ORDER BY at_ms, code, by_seat, seat");
  store_report *r = NULL;
  int cap = 0, rc = SQLITE_ERROR;
  *n = 0;
  while (q && (rc = sqlite3_step(q)) == SQLITE_ROW) {
    if (room((void **)&r, *n, &cap, sizeof *r)) {
      rc = SQLITE_NOMEM;
      break;
    }
    store_report *x = &r[(*n)++];
    const unsigned char *code = sqlite3_column_text(q, 0);
    const unsigned char *why = sqlite3_column_text(q, 6);
    snprintf(x->code, sizeof x->code, "%s", code ? (const char *)code : "");
    x->by = sqlite3_column_int(q, 1);
    x->seat = sqlite3_column_int(q, 2);
    x->account = sqlite3_column_int64(q, 3);
    x->at_ms = sqlite3_column_int64(q, 4);
    x->through = sqlite3_column_int(q, 5);
    snprintf(x->reason, sizeof x->reason, "%s", why ? (const char *)why : "");
  }
  sqlite3_finalize(q);
  if (rc != SQLITE_DONE) {
    free(r);
    *n = 0;
    return -1;
  }
  *out = r;
  return 0;
}
