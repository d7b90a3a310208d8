/*
 * store_pg_seek.c -- the seeks of Play now on PostgreSQL (store.h "Play
 * now"; the table `seeks`, step 5), shared by every node: each node's
 * pairer writes its own seeks and beats them, and any node's pass may
 * pair any node's seeks, one pass at a time in the cluster (a
 * transaction-wide advisory lock, SEEKS_LOCK).  A node that died stops
 * beating; its seeks are not paired once stale and go soon after.
 */
#include "store_pg_acct.h"
#include "store_seek.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONN(st) ((PGconn *)store_pg_conn(st))
#define SEEKS_LOCK "1396920388" /* after store_pg.c's "SCPA", "SCPB", ... */

static int command(store *st, const char *sql, int n, const char *const *vals) {
  PGresult *r = store_pg_run(st, sql, n, vals);
  PQclear(r);
  return r ? 0 : -1;
}

static void text_col(PGresult *r, int row, int col, char *out, size_t cap) {
  snprintf(out, cap, "%s", PQgetvalue(r, row, col));
}

int pgs_seek_add(store *st, const store_seek *s) {
  char players[16], away[16], clock[16], rating[32], account[24], since[24],
      bank[16], inc[16];
  snprintf(players, sizeof players, "%d", s->players);
  snprintf(away, sizeof away, "%d", s->away_s);
  snprintf(clock, sizeof clock, "%d", s->clock_s);
  snprintf(rating, sizeof rating, "%.17g", s->rating);
  snprintf(account, sizeof account, "%lld", s->account);
  snprintf(since, sizeof since, "%lld", s->since_ms);
  snprintf(bank, sizeof bank, "%d", s->bank_s);
  snprintf(inc, sizeof inc, "%d", s->inc_s);
  const char *const v[] = {s->id,   s->node, s->key, s->rules_json,
                           players, away,    clock,  rating,
                           account, since,   bank,   inc};
  return command(st,
                 "INSERT INTO seeks(id, node, key, rules, players, away_s, "
                 "clock_s, rating, account, since, beat, bank_s, inc_s) "
                 "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, "
                 "$12)",
                 12, v);
}

int pgs_seek_drop(store *st, const char *id) {
  const char *const v[] = {id};
  return command(st, "DELETE FROM seeks WHERE id = $1", 1, v);
}

int pgs_seek_beat(store *st, const char *node, long long now_ms,
                  long long stale_ms) {
  char now[24], stale[24];
  snprintf(now, sizeof now, "%lld", now_ms);
  snprintf(stale, sizeof stale, "%lld", stale_ms);
  const char *const b[] = {node, now}, *const d[] = {stale};
  int rc = command(st,
                   "UPDATE seeks SET beat = $2 WHERE node = $1 AND code IS "
                   "NULL",
                   2, b);
  return command(st, "DELETE FROM seeks WHERE beat < $1", 1, d) || rc ? -1 : 0;
}

int pgs_seek_lock(store *st) {
  if (!store_in_batch(st))
    return -1;
  return command(st, "SELECT pg_advisory_xact_lock(" SEEKS_LOCK ")", 0, NULL);
}

int pgs_seek_waiting(store *st, store_seek *out, int cap, int *n) {
  char limit[16];
  snprintf(limit, sizeof limit, "%d", cap);
  const char *const v[] = {limit};
  PGresult *r =
      store_pg_run(st,
                   "SELECT id, node, key, rules, players, away_s, clock_s, "
                   "rating, account, since, beat, bank_s, inc_s FROM seeks "
                   "WHERE code IS "
                   "NULL ORDER BY since, id LIMIT $1",
                   1, v);
  if (!r)
    return -1;
  int rows = PQntuples(r), rc = 0;
  for (int i = 0; i < rows && *n < cap; i++) {
    store_seek *s = &out[*n];
    memset(s, 0, sizeof *s);
    text_col(r, i, 0, s->id, sizeof s->id);
    text_col(r, i, 1, s->node, sizeof s->node);
    text_col(r, i, 2, s->key, sizeof s->key);
    s->rules_json = strdup(PQgetvalue(r, i, 3));
    s->players = atoi(PQgetvalue(r, i, 4));
    s->away_s = atoi(PQgetvalue(r, i, 5));
    s->clock_s = atoi(PQgetvalue(r, i, 6));
    s->rating = strtod(PQgetvalue(r, i, 7), NULL);
    s->account = strtoll(PQgetvalue(r, i, 8), NULL, 10);
    s->since_ms = strtoll(PQgetvalue(r, i, 9), NULL, 10);
    s->beat_ms = strtoll(PQgetvalue(r, i, 10), NULL, 10);
    s->bank_s = atoi(PQgetvalue(r, i, 11));
    s->inc_s = atoi(PQgetvalue(r, i, 12));
    ++*n;
    if (!s->rules_json) {
      rc = -1;
      break;
    }
  }
  PQclear(r);
  return rc;
}

int pgs_seek_pair(store *st, const char *id, const char *code) {
  const char *const v[] = {id, code};
  PGresult *r =
      store_pg_run(st,
                   "UPDATE seeks SET code = $2 WHERE id = $1 AND code IS "
                   "NULL",
                   2, v);
  int rc = r && strcmp(PQcmdTuples(r), "1") == 0 ? 0 : -1;
  PQclear(r);
  return rc;
}

int pgs_seek_paired(store *st, const char *node, char (*ids)[33],
                    char (*codes)[STORE_CODE_MAX + 1], int cap, int *n) {
  char limit[16];
  snprintf(limit, sizeof limit, "%d", cap);
  const char *const v[] = {node, limit};
  PGresult *r =
      store_pg_run(st,
                   "DELETE FROM seeks WHERE id IN (SELECT id FROM seeks "
                   "WHERE node = $1 AND code IS NOT NULL LIMIT $2) "
                   "RETURNING id, code",
                   2, v);
  if (!r)
    return -1;
  for (int i = 0; i < PQntuples(r) && *n < cap; i++, ++*n) {
    text_col(r, i, 0, ids[*n], 33);
    text_col(r, i, 1, codes[*n], STORE_CODE_MAX + 1);
  }
  PQclear(r);
  return 0;
}
