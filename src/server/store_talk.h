/*
 * store_talk.h -- table talk's part of both stores (store.h "Table
 * talk"; store_sqlite_talk.c, store_pg_talk.c): what the tables of
 * functions of store_sqlite.c and store_pg.c point to, and the one write
 * each store lends them.  Private to those files.
 */
#ifndef SCOPA_SERVER_STORE_TALK_H
#define SCOPA_SERVER_STORE_TALK_H

#include "store.h"

/* A write of the open batch (joined first) by a statement prepared by
 * the caller (an sqlite3_stmt, finalized here; NULL: failed to
 * prepare), its failure noted as the store's own statements' are, so
 * the writer can tell a constraint from a full disk: 0, or -1. */
int store_sqlite_write(store *st, void *stmt);
/* The same on PostgreSQL: sql with n text parameters in the batch. */
int store_pg_write(store *st, const char *sql, int n, const char *const *vals);

int sqt_add_talk(store *st, const char *code, const store_talk *line);
int sqt_add_report(store *st, const store_report *r);
int sqt_talk_load(store *st, const char *code, store_talk **out, int *n);
int sqt_reports(store *st, store_report **out, int *n);

int pgt_add_talk(store *st, const char *code, const store_talk *line);
int pgt_add_report(store *st, const store_report *r);
int pgt_talk_load(store *st, const char *code, store_talk **out, int *n);
int pgt_reports(store *st, store_report **out, int *n);

#endif
