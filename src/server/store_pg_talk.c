/*
 * store_pg_talk.c -- table talk on PostgreSQL (store.h "Table talk"; the
 * tables `talk` and `reports`, step 7).  A line and a report are writes
 * of the batch (store_pg_write), through the table's lease as every
 * write of a table is (writer.c); a report made twice by the same seat
 * about the same seat is ignored (ON CONFLICT DO NOTHING).
 */
#include "store_pg_acct.h"
#include "store_talk.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONN(st) ((PGconn *)store_pg_conn(st))

int pgt_add_talk(store *st, const char *code, const store_talk *line) {
  char n[16], seat[16], at[24];
  snprintf(n, sizeof n, "%d", line->n);
  snprintf(seat, sizeof seat, "%d", line->seat);
  snprintf(at, sizeof at, "%lld", (long long)line->at_ms);
  const char *const v[] = {code, n, seat, at, line->text};
  return store_pg_write(st,
                        "INSERT INTO talk(code, n, seat, at_ms, text) VALUES "
                        "($1, $2, $3, $4, $5)",
                        5, v);
}

int pgt_add_report(store *st, const store_report *r) {
  char by[16], seat[16], account[24], at[24], through[16];
  snprintf(by, sizeof by, "%d", r->by);
  snprintf(seat, sizeof seat, "%d", r->seat);
  snprintf(account, sizeof account, "%lld", r->account);
  snprintf(at, sizeof at, "%lld", (long long)r->at_ms);
  snprintf(through, sizeof through, "%d", r->through);
  const char *const v[] = {r->code, by, seat, account, at, through, r->reason};
  return store_pg_write(
      st,
      "INSERT INTO reports(code, by_seat, seat, account, at_ms, through, "
      "reason) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
      7, v);
}

int pgt_talk_load(store *st, const char *code, store_talk **out, int *n) {
  const char *const v[] = {code};
  PGresult *r =
      store_pg_run(st,
                   "SELECT n, seat, at_ms, text FROM talk WHERE code = $1 "
                   "ORDER BY n",
                   1, v);
  *n = 0;
  if (!r)
    return -1;
  int rows_n = PQntuples(r);
  store_talk *lines = calloc(rows_n ? (size_t)rows_n : 1, sizeof *lines);
  for (int i = 0; lines && i < rows_n; i++, ++*n) {
    lines[i].n = atoi(PQgetvalue(r, i, 0));
    lines[i].seat = atoi(PQgetvalue(r, i, 1));
    lines[i].at_ms = atoll(PQgetvalue(r, i, 2));
    if (!(lines[i].text = strdup(PQgetvalue(r, i, 3)))) {
      store_talk_free(lines, *n);
      lines = NULL;
    }
  }
  PQclear(r);
  if (!lines) {
    *n = 0;
    return -1;
  }
  *out = lines;
  return 0;
}

int pgt_reports(store *st, store_report **out, int *n) {
  PGresult *r =
      store_pg_run(st,
                   "SELECT code, by_seat, seat, account, at_ms, through, "
                   "reason FROM reports ORDER BY at_ms, code, by_seat, seat",
                   0, NULL);
  *n = 0;
  if (!r)
    return -1;
  int rows_n = PQntuples(r);
  store_report *x = calloc(rows_n ? (size_t)rows_n : 1, sizeof *x);
  for (int i = 0; x && i < rows_n; i++, ++*n) {
    snprintf(x[i].code, sizeof x[i].code, "%s", PQgetvalue(r, i, 0));
    x[i].by = atoi(PQgetvalue(r, i, 1));
    x[i].seat = atoi(PQgetvalue(r, i, 2));
    x[i].account = atoll(PQgetvalue(r, i, 3));
    x[i].at_ms = atoll(PQgetvalue(r, i, 4));
    x[i].through = atoi(PQgetvalue(r, i, 5));
    snprintf(x[i].reason, sizeof x[i].reason, "%s", PQgetvalue(r, i, 6));
  }
  PQclear(r);
  if (!x) {
    *n = 0;
    return -1;
  }
  *out = x;
  return 0;
}
