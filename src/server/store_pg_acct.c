/*
 * store_pg_acct.c -- accounts, sessions, failed logins and what the
 * account page reads, on PostgreSQL (store.h "Accounts and sessions"),
 * so a sign-in made through one node is valid on every node.
 *
 * As on SQLite (store_sqlite_acct.c): only the accounts' thread writes
 * here, on its own connection, each write committed at once (a delete in
 * one transaction); a connection lost between two calls is reset once.
 */
#include "store_pg_acct.h"

#include <jansson.h>
#include <libpq-fe.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONN(st) ((PGconn *)store_pg_conn(st))

/* Runs sql with parameters by `types` ('t' a text, 'i' a long long):
 * the result for the caller to PQclear, or NULL (logged; *constraint set
 * when a unique key refused it). */
static PGresult *exec_v(store *st, int *constraint, const char *sql,
                        const char *types, va_list ap) {
  char nums[8][24];
  const char *vals[8];
  int n = 0;
  for (; types[n] && n < 8; n++)
    if (types[n] == 't')
      vals[n] = va_arg(ap, const char *);
    else {
      snprintf(nums[n], sizeof nums[n], "%lld", va_arg(ap, long long));
      vals[n] = nums[n];
    }
  if (store_pg_ready(st))
    return NULL;
  PGresult *r = PQexecParams(CONN(st), sql, n, NULL, vals, NULL, NULL, 0);
  ExecStatusType s = PQresultStatus(r);
  if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
    return r;
  const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
  if (constraint)
    *constraint = state && strcmp(state, "23505") == 0;
  if (!constraint || !*constraint)
    fprintf(stderr, "scopa serve: store: %s", PQresultErrorMessage(r));
  PQclear(r);
  return NULL;
}

/* exec, telling a unique key's refusal (*taken) from other failures. */
static PGresult *exec_unique(store *st, int *taken, const char *sql,
                             const char *types, ...) {
  va_list ap;
  va_start(ap, types);
  PGresult *r = exec_v(st, taken, sql, types, ap);
  va_end(ap);
  return r;
}

static PGresult *exec(store *st, const char *sql, const char *types, ...) {
  va_list ap;
  va_start(ap, types);
  PGresult *r = exec_v(st, NULL, sql, types, ap);
  va_end(ap);
  return r;
}

/* A statement whose rows nobody reads: 0, or -1. */
static int command(store *st, const char *sql, const char *types, ...) {
  va_list ap;
  va_start(ap, types);
  PGresult *r = exec_v(st, NULL, sql, types, ap);
  va_end(ap);
  PQclear(r);
  return r ? 0 : -1;
}

int pga_account_add(store *st, const char *name, const char *hash,
                    long long *id) {
  int taken = 0;
  PGresult *r = exec_unique(st, &taken,
                            "INSERT INTO accounts(name, name_key, hash, "
                            "created) VALUES ($1, lower($1), $2, extract("
                            "epoch FROM now())::bigint) RETURNING id",
                            "tt", name, hash);
  if (r)
    *id = atoll(PQgetvalue(r, 0, 0));
  PQclear(r);
  return r ? 0 : taken ? 1 : -1;
}

/* The first row of r as an account (id, name, hash, created): 0, 1 for
 * no row, -1 for no result.  Clears r. */
static int read_account(PGresult *r, store_account *out) {
  if (!r)
    return -1;
  int rc = PQntuples(r) == 0;
  if (!rc) {
    out->id = atoll(PQgetvalue(r, 0, 0));
    snprintf(out->name, sizeof out->name, "%s", PQgetvalue(r, 0, 1));
    snprintf(out->hash, sizeof out->hash, "%s", PQgetvalue(r, 0, 2));
    out->created = atoll(PQgetvalue(r, 0, 3));
  }
  PQclear(r);
  return rc;
}

int pga_account_get(store *st, const char *name, store_account *out) {
  return read_account(exec(st,
                           "SELECT id, name, hash, created FROM accounts "
                           "WHERE name_key = lower($1)",
                           "t", name),
                      out);
}

int pga_account_set_hash(store *st, long long id, const char *hash) {
  return command(st, "UPDATE accounts SET hash = $2 WHERE id = $1", "it", id,
                 hash);
}

int pga_account_delete(store *st, long long id, const char *anon) {
  char sql[] = "BEGIN;"
               "UPDATE seats SET name = $2 WHERE account = $1;"
               "DELETE FROM ratings WHERE account = $1;"
               "DELETE FROM rating_log WHERE account = $1;"
               "DELETE FROM sessions WHERE account = $1;"
               "UPDATE accounts SET name = $2, name_key = NULL, hash = '' "
               "WHERE id = $1;"
               "COMMIT";
  /* One statement at a time (PQexecParams takes one): split at ';'. */
  int rc = 0;
  for (char *save = NULL, *q = strtok_r(sql, ";", &save); q && rc == 0;
       q = strtok_r(NULL, ";", &save))
    rc = strstr(q, "$2")   ? command(st, q, "it", id, anon)
         : strstr(q, "$1") ? command(st, q, "i", id)
                           : command(st, q, "");
  if (rc)
    command(st, "ROLLBACK", "");
  return rc;
}

int pga_session_add(store *st, const char *sha256, long long account,
                    long long expires) {
  return command(st,
                 "INSERT INTO sessions(sha256, account, expires) VALUES "
                 "($1, $2, $3)",
                 "tii", sha256, account, expires);
}

int pga_session_get(store *st, const char *sha256, long long now,
                    store_account *out) {
  return read_account(exec(st,
                           "SELECT a.id, a.name, '', a.created FROM sessions "
                           "s JOIN accounts a ON a.id = s.account WHERE "
                           "s.sha256 = $1 AND s.expires > $2 AND a.name_key "
                           "IS NOT NULL",
                           "ti", sha256, now),
                      out);
}

int pga_session_end(store *st, const char *sha256) {
  return command(st, "DELETE FROM sessions WHERE sha256 = $1", "t", sha256);
}

int pga_sessions_end(store *st, long long account, const char *keep) {
  return command(st, "DELETE FROM sessions WHERE account = $1 AND sha256 <> $2",
                 "it", account, keep ? keep : "");
}

int pga_tries_count(store *st, const char *key, long long since) {
  PGresult *r = exec(st, "SELECT count(*) FROM tries WHERE key = $1 AND at >= $2",
                     "ti", key, since);
  int n = r ? atoi(PQgetvalue(r, 0, 0)) : -1;
  PQclear(r);
  return n;
}

/* A try is kept an hour: the longest window a limit looks back over. */
int pga_tries_add(store *st, const char *key, long long now) {
  if (command(st, "DELETE FROM tries WHERE key = $1 AND at < $2", "ti", key,
              now - 3600))
    return -1;
  return command(st, "INSERT INTO tries(key, at) VALUES ($1, $2)", "ti", key,
                 now);
}

/* The rows of r to a JSON text by row(r, i, into): malloc'd, NULL on
 * error.  Clears r. */
static char *collect(PGresult *r, json_t *into,
                     void (*row)(const PGresult *, int, json_t *)) {
  for (int i = 0; r && into && i < PQntuples(r); i++)
    row(r, i, into);
  char *text = r && into ? json_dumps(into, JSON_COMPACT) : NULL;
  PQclear(r);
  json_decref(into);
  return text;
}

static void rating_row(const PGresult *r, int i, json_t *into) {
  double rd = atof(PQgetvalue(r, i, 2));
  json_object_set_new(
      into, PQgetvalue(r, i, 0),
      json_pack("{s:f, s:f, s:i, s:b}", "rating", atof(PQgetvalue(r, i, 1)),
                "rd", rd, "games", atoi(PQgetvalue(r, i, 3)), "provisional",
                rd > STORE_PROVISIONAL_RD));
}

char *pga_account_ratings(store *st, long long account) {
  return collect(exec(st,
                      "SELECT pool, rating, rd, games FROM ratings WHERE "
                      "account = $1 ORDER BY pool",
                      "i", account),
                 json_object(), rating_row);
}

static void history_row(const PGresult *r, int i, json_t *into) {
  const char *pool = PQgetvalue(r, i, 0);
  json_t *list = json_object_get(into, pool);
  if (!list)
    json_object_set_new(into, pool, list = json_array());
  json_array_append_new(
      list, json_pack("{s:I, s:f, s:f, s:s}", "at",
                      (json_int_t)atoll(PQgetvalue(r, i, 1)), "rating",
                      atof(PQgetvalue(r, i, 2)), "rd", atof(PQgetvalue(r, i, 3)),
                      "code", PQgetvalue(r, i, 4)));
}

char *pga_account_history(store *st, long long account) {
  return collect(exec(st,
                      "SELECT pool, at, rating, rd, code FROM rating_log "
                      "WHERE account = $1 ORDER BY pool, at, code",
                      "i", account),
                 json_object(), history_row);
}

static void game_row(const PGresult *r, int i, json_t *into) {
  json_array_append_new(
      into, json_pack("{s:s, s:I, s:i, s:b, s:b}", "code", PQgetvalue(r, i, 0),
                      "at", (json_int_t)atoll(PQgetvalue(r, i, 1)), "seat",
                      atoi(PQgetvalue(r, i, 2)), "finished",
                      atoi(PQgetvalue(r, i, 3)), "rated",
                      atoi(PQgetvalue(r, i, 4))));
}

char *pga_account_games(store *st, long long account, int limit) {
  return collect(exec(st,
                      "SELECT g.code, g.created, s.seat, g.finished, "
                      "g.rated FROM seats s JOIN games g ON g.code = "
                      "s.code WHERE s.account = $1 ORDER BY g.created "
                      "DESC, g.code LIMIT $2",
                      "ii", account, (long long)limit),
                 json_array(), game_row);
}
