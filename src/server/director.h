/*
 * director.h -- the tournaments' director (director.c): one pass over
 * every tournament not finished, each in one batch of the store under
 * the cluster's lock (store_tourney_lock), so that whichever node runs
 * it, and whenever a node dies in the middle, the state in the store is
 * the whole truth: a pass reads the results of the games that ended
 * (tourney_game.h), steps the state (tourney_state.h), makes a table
 * for each new game (its seats the entries' accounts, named, nobody
 * sitting yet) and writes the state back.
 */
#ifndef SCOPA_SERVER_DIRECTOR_H
#define SCOPA_SERVER_DIRECTOR_H

#include "store.h"

/* A table in play in a tournament: which tournament, its code, the
 * accounts seated there (the loop seats their connections: two, or a
 * Scopone table's four, 0 for none), and whether this pass made it. */
typedef struct director_table {
  char tourney[STORE_CODE_MAX + 1];
  char code[STORE_CODE_MAX + 1];
  long long account[4];
  int fresh;
  int rated; /* the tournament is rated (its "rated", true by default) */
} director_table;

/* 1 when account (> 0) sits at t. */
int director_table_has(const director_table *t, long long account);

/* A game nobody is playing is given up after this long without a move
 * beyond its clock (the tables' clocks run only where a node has the
 * table, so a table nobody came to, or whose node died with nobody
 * coming back, would stop its round): both sides lose it. */
#define DIRECTOR_IDLE_MS 120000

/* One pass at now_ms (wall clock, the same on every node).  random_code
 * makes a table code (0, or -1); made(arg, t) is told of each table in
 * play (a game with a table and no result yet) of each tournament
 * stepped, once its batch has committed.  Returns the number of
 * tournaments stepped, or -1 when the store failed (the pass is lost,
 * nothing else: the next one does it again). */
int director_pass(store *st, long long now_ms,
                  int (*random_code)(char code[STORE_CODE_MAX + 1]),
                  void (*made)(void *arg, const director_table *t), void *arg);

#endif
