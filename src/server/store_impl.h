/*
 * store_impl.h -- what a store implementation provides (store.c
 * dispatches through it): the table of its functions, one per call of
 * store.h, and the head every implementation's handle starts with.
 *
 * Two implementations: store_sqlite.c (a file: the default) and
 * store_pg.c (a PostgreSQL URL: several nodes on one database).
 * store_open and store_claim choose one by the text of `where`.
 */
#ifndef SCOPA_SERVER_STORE_IMPL_H
#define SCOPA_SERVER_STORE_IMPL_H

#include "store.h"

typedef struct store_ops {
  int (*claim)(const char *where, int *lock, char *msg, size_t msgsize);
  int (*open)(const char *where, store **out, char *msg, size_t msgsize);
  void (*close)(store *st);
  int (*begin)(store *st);
  int (*commit)(store *st, char *msg, size_t msgsize);
  void (*rollback)(store *st);
  int (*in_batch)(const store *st);
  void (*why)(const store *st, const char **en, const char **it);
  int (*failure_is_local)(const store *st);
  int (*add_game)(store *st, const store_game *game);
  int (*set_seat)(store *st, const char *code, int seat, const store_seat *s);
  int (*add_move)(store *st, const char *code, int number, scopa_move move);
  int (*finish)(store *st, const char *code);
  int (*has_code)(store *st, const char *code);
  int (*load)(store *st, const char *code, store_game *out, char *msg,
              size_t msgsize);
  int (*rating_get)(store *st, const char *pool, const char *player,
                    store_rating *r);
  int (*rating_put)(store *st, const char *pool, const char *player,
                    const char *name, const store_rating *r);
  int (*is_rated)(store *st, const char *code);
  int (*set_rated)(store *st, const char *code);
  char *(*leaderboard)(store *st, const char *pool, int limit);
  int (*lease_take)(store *st, const char *code, const char *node, int ttl_s,
                    long long *epoch);
  int (*lease_renew)(store *st, const char *code, const char *node,
                     long long epoch, int ttl_s);
  int (*lease_release)(store *st, const char *code, const char *node,
                       long long epoch);
  int (*add_move_fenced)(store *st, const char *code, int number,
                         scopa_move move, const char *node, long long epoch);
  int (*fence)(store *st, const char *code, const char *node, long long epoch);
} store_ops;

/* The head of every implementation's handle (its first member). */
struct store {
  const store_ops *ops;
};

extern const store_ops store_sqlite_ops, store_pg_ops;

#endif
