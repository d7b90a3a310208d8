/*
 * store_sqlite_acct.h -- the accounts' part of store_sqlite.c (store.h,
 * "Accounts and sessions"; store_sqlite_acct.c): what the table of
 * functions of the SQLite store points to.  Private to those two files.
 */
#ifndef SCOPA_SERVER_STORE_SQLITE_ACCT_H
#define SCOPA_SERVER_STORE_SQLITE_ACCT_H

#include "store.h"

/* The store's sqlite3 connection (store_sqlite.c). */
void *store_sqlite_db(store *st);
/* For the statements prepared at each call (store_sqlite_seek.c,
 * store_sqlite_talk.c): sql prepared on it (NULL, logged, when it cannot
 * be), and a text bound (copied). */
struct sqlite3_stmt *store_sqlite_prepare(store *st, const char *sql);
void store_sqlite_text(struct sqlite3_stmt *q, int i, const char *s);

int sq_account_add(store *st, const char *name, const char *hash,
                   long long *id);
int sq_account_get(store *st, const char *name, store_account *out);
int sq_account_set_hash(store *st, long long id, const char *hash);
int sq_account_delete(store *st, long long id, const char *anon);
int sq_session_add(store *st, const char *sha256, long long account,
                   long long expires);
int sq_session_get(store *st, const char *sha256, long long now,
                   store_account *out);
int sq_session_end(store *st, const char *sha256);
int sq_sessions_end(store *st, long long account, const char *keep);
int sq_tries_count(store *st, const char *key, long long since);
int sq_tries_add(store *st, const char *key, long long now);
char *sq_account_ratings(store *st, long long account);
char *sq_account_history(store *st, long long account);
char *sq_account_games(store *st, long long account, int limit);

#endif
