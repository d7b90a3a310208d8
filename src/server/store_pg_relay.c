/*
 * store_pg_relay.c -- store_pg_relay.h: the cluster's SQL, all of it, on
 * the connection of a PostgreSQL store that relay.c's courier opened for
 * itself.  The statements are the ones relay.c ran before (docs/serve.md
 * "More than one machine"); only the thread changed: none of them runs
 * on the loop.
 */
#include "store_pg_relay.h"

#include "store_pg_acct.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static PGconn *db(store *st) { return store_pg_conn(st); }

static int command(PGconn *c, const char *sql) {
  PGresult *r = PQexec(c, sql);
  int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  PQclear(r);
  return ok ? 0 : -1;
}

/* A statement with text parameters: its result when it succeeded, else
 * NULL. */
static PGresult *run(store *st, const char *sql, int n, const char *const *v) {
  PGresult *res = PQexecParams(db(st), sql, n, NULL, v, NULL, NULL, 0);
  ExecStatusType s = PQresultStatus(res);
  if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
    return res;
  PQclear(res);
  return NULL;
}

int spr_setup(store *st, const char *node) {
  char sql[64];
  snprintf(sql, sizeof sql, "LISTEN scopa_%s", node);
  PGconn *c = db(st);
  /* The relay's rows are not the game: a lost one costs a resend or a
   * reconnection, never a move, so they need not wait for the disk.  An
   * index scan reads the rows in id order and marks the entries of rows
   * deleted before as dead as it passes them; a bitmap scan (the
   * planner's choice) walks every one of them again at each read. */
  return PQstatus(c) == CONNECTION_OK &&
                 command(c, "SET synchronous_commit = off") == 0 &&
                 command(c, "SET enable_bitmapscan = off") == 0 &&
                 command(c, sql) == 0
             ? 0
             : -1;
}

int spr_socket(store *st) { return PQsocket(db(st)); }

int spr_backend(store *st) { return PQbackendPID(db(st)); }

int spr_up(store *st) { return PQstatus(db(st)) == CONNECTION_OK; }

int spr_notified(store *st) {
  PGconn *c = db(st);
  if (!PQconsumeInput(c) || PQstatus(c) != CONNECTION_OK)
    return -1;
  int any = 0;
  for (PGnotify *n; (n = PQnotifies(c)) != NULL; PQfreemem(n))
    any = 1;
  return any;
}

/* ------------------------------------------------------------------ */
/* The bus                                                             */
/* ------------------------------------------------------------------ */

int spr_write(store *st, const char *src, const spr_row *q, size_t n) {
  static const char head[] =
      "WITH i AS (INSERT INTO relay(dst, src, conn, kind, addr, body) VALUES ";
  static const char tail[] = " RETURNING dst) SELECT pg_notify('scopa_' || "
                             "dst, '') FROM (SELECT DISTINCT dst FROM i) d";
  enum { EACH = 64 };
  size_t cap = sizeof head + sizeof tail + n * EACH;
  char *sql = malloc(cap);
  const char **v = malloc(n * 6 * sizeof *v);
  char(*nums)[2][24] = malloc(n * sizeof *nums);
  int ok = sql && v && nums;
  if (ok) {
    size_t len = (size_t)snprintf(sql, cap, "%s", head);
    for (size_t i = 0; i < n; i++) {
      const spr_row *o = &q[i];
      int p = (int)i * 6;
      len += (size_t)snprintf(
          sql + len, cap - len,
          "%s($%d, $%d, $%d::bigint, $%d::integer, $%d, $%d)", i ? ", " : "",
          p + 1, p + 2, p + 3, p + 4, p + 5, p + 6);
      snprintf(nums[i][0], sizeof nums[i][0], "%llu",
               (unsigned long long)o->conn);
      snprintf(nums[i][1], sizeof nums[i][1], "%d", o->kind);
      v[p] = o->node;
      v[p + 1] = src;
      v[p + 2] = nums[i][0];
      v[p + 3] = nums[i][1];
      v[p + 4] = o->addr;
      v[p + 5] = o->body;
    }
    snprintf(sql + len, cap - len, "%s", tail);
    PGresult *res =
        PQexecParams(db(st), sql, (int)n * 6, NULL, v, NULL, NULL, 0);
    ok = PQresultStatus(res) == PGRES_TUPLES_OK;
    PQclear(res);
  }
  free(sql);
  free(v);
  free(nums);
  return ok ? 0 : -1;
}

static int by_id(const void *a, const void *b) {
  long long x = ((const long long *)a)[0], y = ((const long long *)b)[0];
  return x < y ? -1 : x > y;
}

/* An index scan in id order, which also marks the index entries of rows
 * taken before as dead, so that the next read does not walk them again;
 * DELETE ... RETURNING does not keep the order: sorted here. */
int spr_read(store *st, const char *node, int limit, spr_row **out,
             size_t *nout) {
  char lim[16];
  snprintf(lim, sizeof lim, "%d", limit);
  const char *const v[] = {node, lim};
  *out = NULL;
  *nout = 0;
  PGresult *res = run(st,
                      "DELETE FROM relay WHERE id IN (SELECT id FROM relay "
                      "WHERE dst = $1 ORDER BY dst, id LIMIT $2::integer) "
                      "RETURNING id, src, conn, kind, addr, body",
                      2, v);
  if (!res)
    return -1;
  int n = PQntuples(res);
  long long(*order)[2] = n ? malloc((size_t)n * sizeof *order) : NULL;
  spr_row *got = n ? calloc((size_t)n, sizeof *got) : NULL;
  if (n && (!order || !got)) {
    free(order);
    free(got);
    PQclear(res);
    return -1; /* no memory: the rows are gone, as in a crash */
  }
  for (int i = 0; i < n; i++) {
    order[i][0] = atoll(PQgetvalue(res, i, 0));
    order[i][1] = i;
  }
  if (n > 1)
    qsort(order, (size_t)n, sizeof *order, by_id);
  size_t k = 0;
  for (int j = 0; j < n; j++) {
    int i = (int)order[j][1];
    spr_row *o = &got[k];
    snprintf(o->node, sizeof o->node, "%s", PQgetvalue(res, i, 1));
    o->conn = strtoull(PQgetvalue(res, i, 2), NULL, 10);
    o->kind = atoi(PQgetvalue(res, i, 3));
    snprintf(o->addr, sizeof o->addr, "%s", PQgetvalue(res, i, 4));
    if ((o->body = strdup(PQgetvalue(res, i, 5))) != NULL)
      k++;
  }
  free(order);
  PQclear(res);
  *out = got;
  *nout = k;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Nodes and leases                                                    */
/* ------------------------------------------------------------------ */

int spr_heartbeat(store *st, const char *node, int dead_ms, char (**alive)[24],
                  int *nalive) {
  char ms[16];
  snprintf(ms, sizeof ms, "%d", dead_ms);
  const char *const v[] = {node, ms};
  /* This connection holds the node's life lock (taken once per
   * session: advisory locks stack), which PostgreSQL lets go the
   * instant the process dies; then the others need not wait for its
   * heartbeat to go stale, nor for its leases to expire. */
  PGresult *res =
      run(st,
          "SELECT pg_try_advisory_lock(" LIFE_LOCK
          ", " LIFE_KEY("$1") ") WHERE NOT EXISTS (SELECT 1 FROM pg_locks "
                              "WHERE " LIFE_HELD("$1") " AND pid = "
                                                       "pg_backend_pid())",
          1, v);
  if (!res)
    return -1;
  PQclear(res);
  res = run(st,
            "WITH h AS (INSERT INTO nodes(node, seen) VALUES ($1, now()) ON "
            "CONFLICT (node) DO UPDATE SET seen = now()) SELECT node FROM "
            "nodes n WHERE seen > now() - make_interval(secs => "
            "$2::integer / 1000.0) AND (n.node = $1 OR EXISTS (SELECT 1 FROM "
            "pg_locks WHERE " LIFE_HELD("n.node") "))",
            2, v);
  if (!res)
    return -1;
  int n = PQntuples(res);
  char(*a)[24] = malloc((size_t)(n + 1) * sizeof *a);
  if (a) {
    for (int i = 0; i < n; i++)
      snprintf(a[i], 24, "%s", PQgetvalue(res, i, 0));
    snprintf(a[n], 24, "%s", node); /* its own, before its first commit */
  }
  PQclear(res);
  *alive = a;
  *nalive = a ? n + 1 : 0;
  return a ? 0 : -1;
}

int spr_claim(store *st, const char *code, const char *node, int ttl_s,
              long long *epoch, char holder[24]) {
  holder[0] = 0;
  PGconn *c = db(st);
  /* A lease, unlike the bus, is committed as the game is. */
  if (command(c, "SET synchronous_commit = on"))
    return -1;
  int rc = store_lease_take(st, code, node, ttl_s, epoch);
  if (command(c, "SET synchronous_commit = off"))
    rc = -1;
  if (rc != 1)
    return rc;
  const char *const v[] = {code};
  PGresult *res = run(st,
                      "SELECT node FROM leases WHERE code = $1 AND "
                      "expires > now()",
                      1, v);
  if (!res)
    return -1;
  if (PQntuples(res) == 1)
    snprintf(holder, 24, "%s", PQgetvalue(res, 0, 0));
  PQclear(res);
  return 1; /* holder "": it expired meanwhile */
}

/* ------------------------------------------------------------------ */
/* Per-address limits across the cluster                               */
/* ------------------------------------------------------------------ */

int spr_closed(store *st, const char *node, const char *closed) {
  const char *const v[] = {node, closed};
  PGresult *res = run(st,
                      "UPDATE addr_conns c SET n = c.n - d.k FROM (SELECT x, "
                      "count(*)::integer AS k FROM unnest(string_to_array($2, "
                      "E'\\n')) x GROUP BY x) d WHERE c.addr = d.x AND "
                      "c.node = $1",
                      2, v);
  PQclear(res);
  return res ? 0 : -1;
}

int spr_conn_open(store *st, const char *addr, const char *node, int lim,
                  const char *closed, int alive_s) {
  char l[16], a[16];
  snprintf(l, sizeof l, "%d", lim);
  snprintf(a, sizeof a, "%d", alive_s);
  const char *const v[] = {addr, node, l, closed, a};
  PGresult *res = run(
      st, "SELECT scopa_conn_open($1, $2, $3::integer, $4, $5::integer)", 5, v);
  if (!res)
    return -1;
  int ok = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "t") == 0;
  PQclear(res);
  return ok;
}

int spr_table_create(store *st, const char *addr, int per_min) {
  char pm[16];
  snprintf(pm, sizeof pm, "%d", per_min);
  const char *const v[] = {addr, pm};
  /* A bucket of per_min credits, coming back evenly over a minute; the
   * row is locked by the upsert, so two nodes take from it in turn. */
  PGresult *res =
      run(st,
          "INSERT INTO addr_tables AS b(addr, credits, at) VALUES ($1, "
          "$2::float8 - 1, clock_timestamp()) ON CONFLICT (addr) DO UPDATE "
          "SET credits = least($2::float8, b.credits + $2::float8 * extract("
          "epoch FROM clock_timestamp() - b.at) / 60) - 1, at = "
          "clock_timestamp() WHERE least($2::float8, b.credits + $2::float8 * "
          "extract(epoch FROM clock_timestamp() - b.at) / 60) >= 1 RETURNING 1",
          2, v);
  if (!res)
    return -1;
  int ok = PQntuples(res) == 1;
  PQclear(res);
  return ok;
}

/* ------------------------------------------------------------------ */
/* Upkeep                                                              */
/* ------------------------------------------------------------------ */

void spr_purge(store *st) {
  PQclear(run(st,
              "DELETE FROM relay WHERE dst <> ALL(SELECT node FROM nodes "
              "WHERE seen > now() - interval '60 seconds')",
              0, NULL));
  PQclear(run(st, "DELETE FROM nodes WHERE seen < now() - interval '1 hour'", 0,
              NULL));
  PQclear(run(st,
              "DELETE FROM addr_conns WHERE n <= 0 OR node <> ALL(SELECT "
              "node FROM nodes WHERE seen > now() - interval '60 seconds')",
              0, NULL));
  PQclear(run(st,
              "DELETE FROM addr_tables WHERE at < now() - interval '2 minutes'",
              0, NULL));
  PQclear(run(st,
              "DELETE FROM leases l WHERE expires < now() - interval '1 hour' "
              "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.code = l.code)",
              0, NULL));
}

void spr_leave(store *st, const char *node) {
  const char *const v[] = {node};
  PQclear(run(st,
              "UPDATE leases SET expires = '-infinity' WHERE node = $1 "
              "AND expires > now()",
              1, v));
  PQclear(run(st, "DELETE FROM nodes WHERE node = $1", 1, v));
}
