/*
 * store_seek.h -- the seeks' part of both stores (store.h "Play now";
 * store_sqlite_seek.c, store_pg_seek.c): what the tables of functions of
 * store_sqlite.c and store_pg.c point to.  Private to those files.
 */
#ifndef SCOPA_SERVER_STORE_SEEK_H
#define SCOPA_SERVER_STORE_SEEK_H

#include "store.h"

int sqs_seek_add(store *st, const store_seek *s);
int sqs_seek_drop(store *st, const char *id);
int sqs_seek_beat(store *st, const char *node, long long now_ms,
                  long long stale_ms);
int sqs_seek_lock(store *st);
int sqs_seek_waiting(store *st, store_seek *out, int cap, int *n);
int sqs_seek_pair(store *st, const char *id, const char *code);
int sqs_seek_paired(store *st, const char *node, char (*ids)[33],
                    char (*codes)[STORE_CODE_MAX + 1], int cap, int *n);

int pgs_seek_add(store *st, const store_seek *s);
int pgs_seek_drop(store *st, const char *id);
int pgs_seek_beat(store *st, const char *node, long long now_ms,
                  long long stale_ms);
int pgs_seek_lock(store *st);
int pgs_seek_waiting(store *st, store_seek *out, int cap, int *n);
int pgs_seek_pair(store *st, const char *id, const char *code);
int pgs_seek_paired(store *st, const char *node, char (*ids)[33],
                    char (*codes)[STORE_CODE_MAX + 1], int cap, int *n);

#endif
