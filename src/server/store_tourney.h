/*
 * store_tourney.h -- the tournaments' part of both stores (store.h
 * "Tournaments"; store_sqlite_tourney.c, store_pg_tourney.c): what the
 * tables of functions of store_sqlite.c and store_pg.c point to.
 * Private to those files.
 */
#ifndef SCOPA_SERVER_STORE_TOURNEY_H
#define SCOPA_SERVER_STORE_TOURNEY_H

#include "store.h"

int sqr_tourney_put(store *st, const store_tourney *t);
int sqr_tourney_get(store *st, const char *id, store_tourney *out);
int sqr_tourney_list(store *st, int active, int limit, store_tourney **out,
                     int *n);
int sqr_tourney_lock(store *st);
int sqr_game_end(store *st, const char *code, int *finished, int *abandoned);

int pgr_tourney_put(store *st, const store_tourney *t);
int pgr_tourney_get(store *st, const char *id, store_tourney *out);
int pgr_tourney_list(store *st, int active, int limit, store_tourney **out,
                     int *n);
int pgr_tourney_lock(store *st);
int pgr_game_end(store *st, const char *code, int *finished, int *abandoned);

#endif
