/*
 * store_pg_acct.h -- the accounts' part of store_pg.c (store.h,
 * "Accounts and sessions"; store_pg_acct.c): what the table of
 * functions of the PostgreSQL store points to.  Private to those two files.
 */
#ifndef SCOPA_SERVER_STORE_PG_ACCT_H
#define SCOPA_SERVER_STORE_PG_ACCT_H

#include <libpq-fe.h>

#include "store.h"

/* A node's life lock (docs/serve.md "Any node serves any table"): a
 * session advisory lock (LIFE_LOCK, LIFE_KEY(node)) its courier's
 * connection holds, gone the instant the node's process dies.  A node
 * name is 16 hex digits: its first 8, as 31 bits, are the key (two names
 * that share it only make a failover wait for the lease, never unsafe:
 * every write is fenced).  LIFE_HELD(node) is a condition on pg_locks. */
#define LIFE_LOCK "1396920389" /* "SCPE", after store_pg.c's keys */
#define LIFE_KEY(node)                                                         \
  "(('x' || substr(" node ", 1, 8))::bit(32)::int & 2147483647)"
#define LIFE_HELD(node)                                                        \
  "locktype = 'advisory' AND classid = " LIFE_LOCK " AND objsubid = 2 AND "    \
  "granted AND objid::bigint = " LIFE_KEY(node)

/* The store's PGconn (store_pg.c). */
void *store_pg_conn(store *st);
/* 0 when the connection is up (reset once if it was lost), else -1. */
int store_pg_ready(store *st);
/* sql with n text parameters, once the connection is up: its result
 * for the caller to PQclear, or NULL (the error logged). */
PGresult *store_pg_run(store *st, const char *sql, int n,
                       const char *const *vals);

int pga_account_add(store *st, const char *name, const char *hash,
                    long long *id);
int pga_account_get(store *st, const char *name, store_account *out);
int pga_account_set_hash(store *st, long long id, const char *hash);
int pga_account_delete(store *st, long long id, const char *anon);
int pga_session_add(store *st, const char *sha256, long long account,
                    long long expires);
int pga_session_get(store *st, const char *sha256, long long now,
                    store_account *out);
int pga_session_end(store *st, const char *sha256);
int pga_sessions_end(store *st, long long account, const char *keep);
int pga_tries_count(store *st, const char *key, long long since);
int pga_tries_add(store *st, const char *key, long long now);
char *pga_account_ratings(store *st, long long account);
char *pga_account_history(store *st, long long account);
char *pga_account_games(store *st, long long account, int limit);

#endif
