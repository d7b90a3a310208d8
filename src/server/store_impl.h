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

/* A line of the leaderboard, as a store reads it (store.c writes the
 * JSON, once for both stores). */
typedef struct store_leader {
  char name[STORE_NAME_MAX + 1];
  double rating, rd;
  int games;
} store_leader;

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
  int (*add_move)(store *st, const char *code, int number, scopa_move move,
                  int64_t at_ms, int took_ms);
  int (*finish)(store *st, const char *code, int abandoned);
  int (*add_talk)(store *st, const char *code, const store_talk *line);
  int (*add_report)(store *st, const store_report *r);
  int (*talk_load)(store *st, const char *code, store_talk **out, int *n);
  /* every report, oldest first, into *out (malloc'd), *n of them */
  int (*reports)(store *st, store_report **out, int *n);
  int (*has_code)(store *st, const char *code);
  int (*load)(store *st, const char *code, store_game *out, char *msg,
              size_t msgsize);
  int (*rating_get)(store *st, const char *pool, const char *player,
                    store_rating *r);
  int (*rating_put)(store *st, const char *pool, const char *player,
                    const char *name, const store_rating *r);
  int (*is_rated)(store *st, const char *code);
  int (*set_rated)(store *st, const char *code);
  /* The best `limit` of pool into out[0, *n) (at most limit): 0, -1. */
  int (*leaders)(store *st, const char *pool, int limit, store_leader *out,
                 int *n);
  int (*lease_take)(store *st, const char *code, const char *node, int ttl_s,
                    long long *epoch);
  int (*lease_renew)(store *st, const char *node, const char *const *codes,
                     const long long *epochs, int n, int ttl_s, int *held);
  int (*lease_release)(store *st, const char *code, const char *node,
                       long long epoch);
  int (*add_move_fenced)(store *st, const char *code, int number,
                         scopa_move move, int64_t at_ms, int took_ms,
                         const char *node, long long epoch);
  int (*fence)(store *st, const char *code, const char *node, long long epoch);
  int (*lobby)(store *st, int limit, char (*codes)[STORE_CODE_MAX + 1], int *n);
  int (*lobby_drop)(store *st, const char *code);
  int (*seek_add)(store *st, const store_seek *s);
  int (*seek_drop)(store *st, const char *id);
  int (*seek_beat)(store *st, const char *node, long long now_ms,
                   long long stale_ms);
  int (*seek_lock)(store *st);
  int (*seek_waiting)(store *st, store_seek *out, int cap, int *n);
  int (*seek_pair)(store *st, const char *id, const char *code);
  int (*seek_paired)(store *st, const char *node, char (*ids)[33],
                     char (*codes)[STORE_CODE_MAX + 1], int cap, int *n);
  int (*tourney_put)(store *st, const store_tourney *t);
  int (*tourney_get)(store *st, const char *id, store_tourney *out);
  int (*tourney_list)(store *st, int active, int limit, store_tourney **out,
                      int *n);
  int (*tourney_lock)(store *st);
  int (*game_end)(store *st, const char *code, int *finished, int *abandoned);
  int (*rating_log)(store *st, const char *pool, long long account,
                    const char *code, const store_rating *r);
  int (*pair_games)(store *st, const char *pool, long long a, long long b,
                    long long since);
  int (*account_add)(store *st, const char *name, const char *hash,
                     long long *id);
  int (*account_get)(store *st, const char *name, store_account *out);
  int (*account_set_hash)(store *st, long long id, const char *hash);
  int (*account_delete)(store *st, long long id, const char *anon);
  int (*session_add)(store *st, const char *sha256, long long account,
                     long long expires);
  int (*session_get)(store *st, const char *sha256, long long now,
                     store_account *out);
  int (*session_end)(store *st, const char *sha256);
  int (*sessions_end)(store *st, long long account, const char *keep);
  int (*tries_count)(store *st, const char *key, long long since);
  int (*tries_add)(store *st, const char *key, long long now);
  char *(*account_ratings)(store *st, long long account);
  char *(*account_history)(store *st, long long account);
  char *(*account_games)(store *st, long long account, int limit);
} store_ops;

/* The head of every implementation's handle (its first member). */
struct store {
  const store_ops *ops;
};

extern const store_ops store_sqlite_ops, store_pg_ops;

#endif
