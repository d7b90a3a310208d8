/*
 * store.c -- store.h's calls, each through the table of functions of the
 * store it was opened on (store_impl.h): SQLite for a file path or
 * `sqlite:FILE`, PostgreSQL for a postgresql:// or postgres:// URL.
 */
#include "store_impl.h"

#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int store_is_postgres(const char *where) {
  return strncmp(where, "postgresql://", 13) == 0 ||
         strncmp(where, "postgres://", 11) == 0;
}

/* The implementation for `where`, and what it is given: a file's path
 * without its `sqlite:`, a URL whole. */
static const store_ops *choose(const char *where, const char **arg) {
  *arg = where;
  if (store_is_postgres(where))
    return &store_pg_ops;
  if (strncmp(where, "sqlite:", 7) == 0)
    *arg = where + 7;
  return &store_sqlite_ops;
}

int store_claim(const char *where, int *lock, char *msg, size_t msgsize) {
  const char *arg;
  const store_ops *ops = choose(where, &arg);
  *lock = -1;
  return ops->claim(arg, lock, msg, msgsize);
}

void store_release(int lock) {
  if (lock >= 0)
    close(lock); /* SQLite: the flock goes with it */
}

int store_open(const char *where, store **out, char *msg, size_t msgsize) {
  const char *arg;
  const store_ops *ops = choose(where, &arg);
  return ops->open(arg, out, msg, msgsize);
}

void store_close(store *st) {
  if (st)
    st->ops->close(st);
}

int store_begin(store *st) { return st->ops->begin(st); }

int store_commit(store *st, char *msg, size_t msgsize) {
  return st->ops->commit(st, msg, msgsize);
}

void store_rollback(store *st) { st->ops->rollback(st); }

int store_in_batch(const store *st) { return st->ops->in_batch(st); }

void store_why(const store *st, const char **en, const char **it) {
  st->ops->why(st, en, it);
}

int store_failure_is_local(const store *st) {
  return st->ops->failure_is_local(st);
}

int store_add_game(store *st, const store_game *game) {
  return st->ops->add_game(st, game);
}

int store_set_seat(store *st, const char *code, int seat, const store_seat *s) {
  return st->ops->set_seat(st, code, seat, s);
}

int store_add_move(store *st, const char *code, int number, scopa_move move,
                   int64_t at_ms, int took_ms) {
  return st->ops->add_move(st, code, number, move, at_ms, took_ms);
}

int store_finish(store *st, const char *code, int abandoned) {
  return st->ops->finish(st, code, abandoned);
}

int store_has_code(store *st, const char *code) {
  return st->ops->has_code(st, code);
}

int store_add_talk(store *st, const char *code, const store_talk *line) {
  return st->ops->add_talk(st, code, line);
}

int store_add_report(store *st, const store_report *r) {
  return st->ops->add_report(st, r);
}

int store_talk_load(store *st, const char *code, store_talk **out, int *n) {
  return st->ops->talk_load(st, code, out, n);
}

void store_talk_free(store_talk *lines, int n) {
  for (int i = 0; lines && i < n; i++)
    free(lines[i].text);
  free(lines);
}

/* The game with what was said at it. */
int store_load(store *st, const char *code, store_game *out, char *msg,
               size_t msgsize) {
  int rc = st->ops->load(st, code, out, msg, msgsize);
  if (rc == 0 && st->ops->talk_load(st, code, &out->talk, &out->ntalk)) {
    store_game_free(out);
    snprintf(msg, msgsize, "the talk of table %s cannot be read", code);
    return -1;
  }
  return rc;
}

/* One report as JSON: its table's seats by name, and the lines said up
 * to it. */
static json_t *report_json(store *st, const store_report *r) {
  store_game g = {0};
  char msg[200];
  if (store_load(st, r->code, &g, msg, sizeof msg) != 0)
    return NULL;
  json_t *seats = json_array(), *talk = json_array();
  for (int i = 0; i < g.nseats; i++)
    json_array_append_new(seats,
                          json_pack("{s:s, s:I}", "name", g.seat[i].name,
                                    "account", (json_int_t)g.seat[i].account));
  for (int i = 0; i < g.ntalk && g.talk[i].n < r->through; i++)
    json_array_append_new(talk, json_pack("{s:i, s:i, s:I, s:s}", "n",
                                          g.talk[i].n, "seat", g.talk[i].seat,
                                          "at_ms", (json_int_t)g.talk[i].at_ms,
                                          "text", g.talk[i].text));
  store_game_free(&g);
  return json_pack("{s:s, s:I, s:i, s:I, s:i, s:s, s:o, s:o}", "code", r->code,
                   "at_ms", (json_int_t)r->at_ms, "by", r->by, "by_account",
                   (json_int_t)r->account, "seat", r->seat, "reason", r->reason,
                   "seats", seats, "talk", talk);
}

char *store_reports(store *st) {
  store_report *r = NULL;
  int n = 0;
  if (st->ops->reports(st, &r, &n))
    return NULL;
  json_t *all = json_array();
  for (int i = 0; all && i < n; i++) {
    json_t *one = report_json(st, &r[i]);
    if (!one || json_array_append_new(all, one)) {
      json_decref(all);
      all = NULL;
    }
  }
  free(r);
  char *text = all ? json_dumps(all, JSON_INDENT(2)) : NULL;
  json_decref(all);
  return text;
}

void store_game_free(store_game *g) {
  free(g->rules_json);
  free(g->moves);
  free(g->move_at);
  free(g->move_took);
  store_talk_free(g->talk, g->ntalk);
  g->talk = NULL;
  g->ntalk = 0;
  g->rules_json = NULL;
  g->moves = NULL;
  g->move_at = NULL;
  g->move_took = NULL;
}

int store_rating_get(store *st, const char *pool, const char *player,
                     store_rating *r) {
  return st->ops->rating_get(st, pool, player, r);
}

int store_rating_put(store *st, const char *pool, const char *player,
                     const char *name, const store_rating *r) {
  return st->ops->rating_put(st, pool, player, name, r);
}

int store_is_rated(store *st, const char *code) {
  return st->ops->is_rated(st, code);
}

int store_set_rated(store *st, const char *code) {
  return st->ops->set_rated(st, code);
}

int store_lobby(store *st, int limit, char (*codes)[STORE_CODE_MAX + 1],
                int *n) {
  *n = 0;
  return st->ops->lobby(st, limit, codes, n);
}

int store_lobby_drop(store *st, const char *code) {
  return st->ops->lobby_drop(st, code);
}

int store_seek_add(store *st, const store_seek *s) {
  return st->ops->seek_add(st, s);
}

int store_seek_drop(store *st, const char *id) {
  return st->ops->seek_drop(st, id);
}

int store_seek_beat(store *st, const char *node, long long now_ms,
                    long long stale_ms) {
  return st->ops->seek_beat(st, node, now_ms, stale_ms);
}

int store_seek_lock(store *st) { return st->ops->seek_lock(st); }

int store_seek_waiting(store *st, store_seek *out, int cap, int *n) {
  *n = 0;
  int rc = st->ops->seek_waiting(st, out, cap, n);
  if (rc) {
    store_seek_free_all(out, *n);
    *n = 0;
  }
  return rc;
}

void store_seek_free_all(store_seek *s, int n) {
  for (int i = 0; i < n; i++) {
    free(s[i].rules_json);
    s[i].rules_json = NULL;
  }
}

int store_seek_pair(store *st, const char *id, const char *code) {
  return st->ops->seek_pair(st, id, code);
}

int store_seek_paired(store *st, const char *node, char (*ids)[33],
                      char (*codes)[STORE_CODE_MAX + 1], int cap, int *n) {
  *n = 0;
  return st->ops->seek_paired(st, node, ids, codes, cap, n);
}

char *store_leaderboard(store *st, const char *pool, int limit) {
  int n = 0;
  store_leader *v = malloc((size_t)(limit > 0 ? limit : 1) * sizeof *v);
  if (!v || st->ops->leaders(st, pool, limit, v, &n)) {
    free(v);
    return NULL;
  }
  json_t *list = json_array();
  for (int i = 0; list && i < n; i++)
    json_array_append_new(
        list,
        json_pack("{s:s, s:i, s:i, s:i, s:b}", "name", v[i].name, "rating",
                  (int)(v[i].rating + 0.5), "rd", (int)(v[i].rd + 0.5), "games",
                  v[i].games, "provisional", v[i].rd > STORE_PROVISIONAL_RD));
  free(v);
  char *text = list ? json_dumps(list, JSON_COMPACT) : NULL;
  json_decref(list);
  return text;
}

int store_lease_take(store *st, const char *code, const char *node, int ttl_s,
                     long long *epoch) {
  return st->ops->lease_take(st, code, node, ttl_s, epoch);
}

int store_lease_renew(store *st, const char *node, const char *const *codes,
                      const long long *epochs, int n, int ttl_s, int *held) {
  return st->ops->lease_renew(st, node, codes, epochs, n, ttl_s, held);
}

int store_lease_release(store *st, const char *code, const char *node,
                        long long epoch) {
  return st->ops->lease_release(st, code, node, epoch);
}

int store_add_move_fenced(store *st, const char *code, int number,
                          scopa_move move, int64_t at_ms, int took_ms,
                          const char *node, long long epoch) {
  return st->ops->add_move_fenced(st, code, number, move, at_ms, took_ms, node,
                                  epoch);
}

int store_fence(store *st, const char *code, const char *node,
                long long epoch) {
  return st->ops->fence(st, code, node, epoch);
}

int store_rating_log(store *st, const char *pool, long long account,
                     const char *code, const store_rating *r) {
  return st->ops->rating_log(st, pool, account, code, r);
}

int store_pair_games(store *st, const char *pool, long long a, long long b,
                     long long since) {
  return st->ops->pair_games(st, pool, a, b, since);
}

int store_account_add(store *st, const char *name, const char *hash,
                      long long *id) {
  return st->ops->account_add(st, name, hash, id);
}

int store_account_get(store *st, const char *name, store_account *out) {
  return st->ops->account_get(st, name, out);
}

int store_account_set_hash(store *st, long long id, const char *hash) {
  return st->ops->account_set_hash(st, id, hash);
}

int store_account_delete(store *st, long long id, const char *anon) {
  return st->ops->account_delete(st, id, anon);
}

int store_session_add(store *st, const char *sha256, long long account,
                      long long expires) {
  return st->ops->session_add(st, sha256, account, expires);
}

int store_session_get(store *st, const char *sha256, long long now,
                      store_account *out) {
  return st->ops->session_get(st, sha256, now, out);
}

int store_session_end(store *st, const char *sha256) {
  return st->ops->session_end(st, sha256);
}

int store_sessions_end(store *st, long long account, const char *keep) {
  return st->ops->sessions_end(st, account, keep);
}

int store_tries_count(store *st, const char *key, long long since) {
  return st->ops->tries_count(st, key, since);
}

int store_tries_add(store *st, const char *key, long long now) {
  return st->ops->tries_add(st, key, now);
}

char *store_account_ratings(store *st, long long account) {
  return st->ops->account_ratings(st, account);
}

char *store_account_history(store *st, long long account) {
  return st->ops->account_history(st, account);
}

char *store_account_games(store *st, long long account, int limit) {
  return st->ops->account_games(st, account, limit);
}

/* ------------------------------------------------------------------ */
/* Tournaments                                                         */
/* ------------------------------------------------------------------ */

int store_tourney_put(store *st, const store_tourney *t) {
  return st->ops->tourney_put(st, t);
}

int store_tourney_get(store *st, const char *id, store_tourney *out) {
  memset(out, 0, sizeof *out);
  return st->ops->tourney_get(st, id, out);
}

int store_tourney_list(store *st, int active, int limit, store_tourney **out,
                       int *n) {
  *out = NULL;
  *n = 0;
  return st->ops->tourney_list(st, active, limit, out, n);
}

int store_tourney_lock(store *st) { return st->ops->tourney_lock(st); }

void store_tourney_free_all(store_tourney *t, int n) {
  for (int i = 0; t && i < n; i++)
    free(t[i].state);
  free(t);
}

int store_game_end(store *st, const char *code, int *finished, int *abandoned) {
  *finished = *abandoned = 0;
  return st->ops->game_end(st, code, finished, abandoned);
}
