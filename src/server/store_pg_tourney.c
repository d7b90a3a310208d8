/*
 * store_pg_tourney.c -- tournaments on PostgreSQL (store.h
 * "Tournaments"; the table `tourneys` and the columns `tourney` and
 * `abandoned` of `games`, step 8), shared by every node: any node's
 * director may run a tournament's batch, one at a time in the cluster
 * (a transaction-wide advisory lock, TOURNEY_LOCK), so a node killed in
 * the middle of one loses its batch and nothing else.
 */
#include "store_pg_acct.h"
#include "store_talk.h"
#include "store_tourney.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONN(st) ((PGconn *)store_pg_conn(st))
#define TOURNEY_LOCK "1396920390" /* "SCPF", after the life lock's */

int pgr_tourney_put(store *st, const store_tourney *t) {
  char status[16], created[24];
  snprintf(status, sizeof status, "%d", t->status);
  snprintf(created, sizeof created, "%lld", t->created_ms);
  const char *const v[] = {t->id, status, created, t->state};
  return store_pg_write(st,
                        "INSERT INTO tourneys(id, status, created, state) "
                        "VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO UPDATE "
                        "SET status = EXCLUDED.status, state = EXCLUDED.state",
                        4, v);
}

/* Row i (id, status, created, state) into *t: 0, or -1 without memory. */
static int row(PGresult *r, int i, store_tourney *t) {
  snprintf(t->id, sizeof t->id, "%s", PQgetvalue(r, i, 0));
  t->status = atoi(PQgetvalue(r, i, 1));
  t->created_ms = atoll(PQgetvalue(r, i, 2));
  t->state = strdup(PQgetvalue(r, i, 3));
  return t->state ? 0 : -1;
}

int pgr_tourney_get(store *st, const char *id, store_tourney *out) {
  const char *const v[] = {id};
  PGresult *r = store_pg_run(st,
                             "SELECT id, status, created, state FROM tourneys "
                             "WHERE id = $1",
                             1, v);
  if (!r)
    return -1;
  int rc = PQntuples(r) == 0 ? 1 : row(r, 0, out);
  PQclear(r);
  return rc;
}

int pgr_tourney_list(store *st, int active, int limit, store_tourney **out,
                     int *n) {
  char below[16], lim[16];
  snprintf(below, sizeof below, "%d",
           active ? STORE_T_FINISHED : STORE_T_FINISHED + 1);
  snprintf(lim, sizeof lim, "%d", limit);
  const char *const v[] = {below, lim};
  PGresult *r =
      store_pg_run(st,
                   "SELECT id, status, created, state FROM tourneys WHERE "
                   "status < $1 ORDER BY created DESC, id LIMIT $2",
                   2, v);
  if (!r)
    return -1;
  int m = PQntuples(r);
  store_tourney *t = calloc(m ? (size_t)m : 1, sizeof *t);
  int failed = !t;
  for (int i = 0; t && i < m && !failed; i++)
    failed = row(r, i, &t[(*n)++]);
  PQclear(r);
  if (failed) {
    store_tourney_free_all(t, *n);
    *n = 0;
    return -1;
  }
  *out = t;
  return 0;
}

int pgr_tourney_lock(store *st) {
  if (!store_in_batch(st))
    return -1;
  PGresult *r = store_pg_run(
      st, "SELECT pg_advisory_xact_lock(" TOURNEY_LOCK ")", 0, NULL);
  PQclear(r);
  return r ? 0 : -1;
}

int pgr_game_end(store *st, const char *code, int *finished, int *abandoned) {
  const char *const v[] = {code};
  PGresult *r = store_pg_run(
      st, "SELECT finished, abandoned FROM games WHERE code = $1", 1, v);
  if (!r)
    return -1;
  int rc = PQntuples(r) == 0 ? 1 : 0;
  if (rc == 0) {
    *finished = atoi(PQgetvalue(r, 0, 0));
    *abandoned = atoi(PQgetvalue(r, 0, 1));
  }
  PQclear(r);
  return rc;
}
