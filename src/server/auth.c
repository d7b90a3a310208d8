/*
 * auth.c -- the accounts' thread (auth.h): signing up, logging in and
 * out, and what the account page reads, each a job done here on the
 * thread's own store connection.  Passwords are hashed and checked with
 * libsodium's Argon2id (crypto_pwhash_str), never by code of ours.
 *
 * Limits (docs/serve.md "Accounts"), counted in the store so that every
 * node of a cluster sees the same counts: failed logins per name
 * (NAME_TRIES in TRIES_WINDOW_S) and per address (ADDR_TRIES), new
 * accounts per address (SIGNUPS per hour).  Over one: 429 too_many with
 * Retry-After.  The loop keeps a cheaper per-address bucket before the
 * queue (account.c), so a flood never even reaches this thread.
 *
 * Three reads that are not of accounts come here too, so that the loop
 * never waits for PostgreSQL: the leaderboard, the lobby's public tables,
 * and a cluster's record of a table no longer in the node's memory.
 */
#include "auth.h"

#include "game.h"
#include "glicko.h"
#include "proto.h"
#include "tourney_state.h"

#include <jansson.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TRIES_WINDOW_S 900 /* failed logins are counted over 15 minutes */
#define NAME_TRIES 10      /* ... at most this many on one name         */
#define ADDR_TRIES 30      /* ... and from one address                  */
#define SIGNUPS 5          /* new accounts from one address in an hour  */
#define GAMES_MAX 200      /* the account page's games, newest first    */
#define LOBBY_READ 100     /* the lobby reads this many newest codes ...  */
#define LOBBY_MAX 50       /* ... and lists at most this many tables     */
#define TOURNEYS_LIST 200  /* GET /api/tournaments: the newest so many   */
#define AUTH_NICE 10       /* the thread's nice value                   */

typedef struct node {
  auth_job *job;
  struct node *next;
} node;

typedef struct list {
  node *head, *tail;
  int n;
} list;

struct auth {
  auth_conf conf;
  store *st;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  list in, out;
  int stop;
  void (*wake)(void *);
  void *arg;
  char dummy[crypto_pwhash_STRBYTES]; /* checked for a name with no account */
};

void auth_conf_default(auth_conf *c) {
  c->opslimit = crypto_pwhash_OPSLIMIT_INTERACTIVE;
  c->memlimit = crypto_pwhash_MEMLIMIT_INTERACTIVE;
  c->queue_max = 64;
}

/* ------------------------------------------------------------------ */
/* Tokens, names                                                       */
/* ------------------------------------------------------------------ */

static void hex(const unsigned char *b, size_t n, char *out) {
  static const char D[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    out[2 * i] = D[b[i] >> 4];
    out[2 * i + 1] = D[b[i] & 15];
  }
  out[2 * n] = 0;
}

int auth_token(char out[65]) {
  unsigned char b[32];
  randombytes_buf(b, sizeof b);
  hex(b, sizeof b, out);
  return 0;
}

void auth_token_sha256(const char *token, char out[65]) {
  unsigned char md[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(md, (const unsigned char *)token, strlen(token));
  hex(md, sizeof md, out);
}

static int password_ok(const char *p) {
  size_t n = strlen(p);
  return n >= AUTH_PASSWORD_MIN && n <= AUTH_PASSWORD_MAX;
}

/* ------------------------------------------------------------------ */
/* Answers                                                             */
/* ------------------------------------------------------------------ */

static void answer(auth_job *j, int status, json_t *body) {
  j->status = status;
  j->body = body ? json_dumps(body, JSON_COMPACT) : NULL;
  json_decref(body);
  if (!j->body) {
    j->status = 500;
    j->body = strdup("{\"error\":\"server\",\"message\":\"out of memory\"}");
  }
}

static void fail(auth_job *j, int status, const char *code, const char *text) {
  answer(j, status, json_pack("{s:s, s:s}", "error", code, "message", text));
}

static void server_error(auth_job *j) {
  fail(j, 500, "server", "the accounts' store could not be read or written");
}

static void set_cookie(auth_job *j, const char *token, int max_age) {
  snprintf(j->cookie, sizeof j->cookie,
           "scopa_session=%s; Path=/; Max-Age=%d; HttpOnly; SameSite=Lax%s",
           token, max_age, j->secure ? "; Secure" : "");
}

/* A new session for the account: the cookie, and 0 (-1: the store). */
static int start_session(auth *a, auth_job *j, long long account) {
  char token[65], sha[65];
  auth_token(token);
  auth_token_sha256(token, sha);
  if (store_session_add(a->st, sha, account,
                        (long long)time(NULL) + AUTH_SESSION_S))
    return -1;
  set_cookie(j, token, AUTH_SESSION_S);
  sodium_memzero(token, sizeof token);
  return 0;
}

/* The request's account: 0, or the answer given (401 or 500) and -1. */
static int signed_in(auth *a, auth_job *j, store_account *acc) {
  int rc = j->session[0] ? store_session_get(a->st, j->session,
                                             (long long)time(NULL), acc)
                         : 1;
  if (rc == 0)
    return 0;
  if (rc < 0)
    server_error(j);
  else
    fail(j, 401, "not_signed_in", "not signed in");
  return -1;
}

/* ------------------------------------------------------------------ */
/* Limits                                                              */
/* ------------------------------------------------------------------ */

static void key_of(char *out, size_t cap, const char *kind, const char *what) {
  snprintf(out, cap, "%s:%s", kind, what);
  for (char *p = out; *p; p++)
    if (*p >= 'A' && *p <= 'Z')
      *p = (char)(*p - 'A' + 'a');
}

/* 1 (answered 429) when key has `most` tries in the last window_s. */
static int over(auth *a, auth_job *j, const char *key, int most, int window_s) {
  int n = store_tries_count(a->st, key, (long long)time(NULL) - window_s);
  if (n < most)
    return 0;
  j->retry_after = window_s / 10;
  fail(j, 429, "too_many", "too many tries: wait and try again");
  return 1;
}

static void failed_try(auth *a, auth_job *j) {
  char key[128];
  long long now = (long long)time(NULL);
  key_of(key, sizeof key, "name", j->name);
  store_tries_add(a->st, key, now);
  key_of(key, sizeof key, "addr", j->addr);
  store_tries_add(a->st, key, now);
}

/* The per-name and per-address limits of a login (or a check of the
 * password by a signed-in account): 1 when refused (answered). */
static int login_limited(auth *a, auth_job *j) {
  char key[128];
  key_of(key, sizeof key, "name", j->name);
  if (over(a, j, key, NAME_TRIES, TRIES_WINDOW_S))
    return 1;
  key_of(key, sizeof key, "addr", j->addr);
  return over(a, j, key, ADDR_TRIES, TRIES_WINDOW_S);
}

/* ------------------------------------------------------------------ */
/* Passwords                                                           */
/* ------------------------------------------------------------------ */

static int hash(auth *a, const char *password, char out[STORE_HASH_MAX + 1]) {
  char h[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str(h, password, strlen(password), a->conf.opslimit,
                        a->conf.memlimit) != 0)
    return -1;
  snprintf(out, STORE_HASH_MAX + 1, "%s", h);
  return 0;
}

/* Checks password against the account's hash, or against the dummy when
 * there is no account (the same work either way): 1 when it matches. */
static int check(auth *a, const store_account *acc, int found,
                 const char *password) {
  const char *h = found && acc->hash[0] ? acc->hash : a->dummy;
  int ok = crypto_pwhash_str_verify(h, password, strlen(password)) == 0;
  return ok && found && acc->hash[0];
}

/* ------------------------------------------------------------------ */
/* The jobs                                                            */
/* ------------------------------------------------------------------ */

static void do_signup(auth *a, auth_job *j) {
  char key[128], h[STORE_HASH_MAX + 1];
  long long id;
  if (j->bad_shape || !auth_name_ok(j->name))
    return fail(j, 400, "bad_name",
                "a name is 3 to 20 letters, digits, _ or -");
  if (!password_ok(j->password))
    return fail(j, 400, "bad_password",
                "a password is at least 8 characters (at most 256)");
  key_of(key, sizeof key, "signup", j->addr);
  if (over(a, j, key, SIGNUPS, 3600))
    return;
  if (hash(a, j->password, h))
    return server_error(j);
  int rc = store_account_add(a->st, j->name, h, &id);
  if (rc == 1)
    return fail(j, 409, "name_taken", "that name is taken");
  if (rc || store_tries_add(a->st, key, (long long)time(NULL)) ||
      start_session(a, j, id))
    return server_error(j);
  answer(j, 201, json_pack("{s:s}", "name", j->name));
}

static void do_login(auth *a, auth_job *j) {
  store_account acc;
  memset(&acc, 0, sizeof acc);
  if (!j->bad_shape && login_limited(a, j))
    return;
  int found = !j->bad_shape && auth_name_ok(j->name) &&
              store_account_get(a->st, j->name, &acc) == 0;
  if (!check(a, &acc, found, j->password)) {
    if (!j->bad_shape)
      failed_try(a, j);
    return fail(j, 401, "bad_login", "wrong name or password");
  }
  if (start_session(a, j, acc.id))
    return server_error(j);
  answer(j, 200, json_pack("{s:s}", "name", acc.name));
}

static void do_logout(auth *a, auth_job *j) {
  if (j->session[0] && store_session_end(a->st, j->session))
    return server_error(j);
  set_cookie(j, "", 0);
  answer(j, 200, json_object());
}

static void do_logout_all(auth *a, auth_job *j) {
  store_account acc;
  if (signed_in(a, j, &acc))
    return;
  if (store_sessions_end(a->st, acc.id, NULL))
    return server_error(j);
  set_cookie(j, "", 0);
  answer(j, 200, json_object());
}

static json_t *loads(char *text) {
  json_t *v = text ? json_loads(text, 0, NULL) : NULL;
  free(text);
  return v;
}

static void do_me(auth *a, auth_job *j) {
  store_account acc;
  if (signed_in(a, j, &acc))
    return;
  json_t *ratings = loads(store_account_ratings(a->st, acc.id));
  if (!ratings)
    return server_error(j);
  answer(j, 200,
         json_pack("{s:s, s:I, s:o}", "name", acc.name, "created",
                   (json_int_t)acc.created, "ratings", ratings));
}

static void do_history(auth *a, auth_job *j) {
  store_account acc;
  if (signed_in(a, j, &acc))
    return;
  json_t *h = loads(store_account_history(a->st, acc.id));
  if (!h)
    return server_error(j);
  answer(j, 200, json_pack("{s:o}", "ratings", h));
}

/* The account's own password, checked (for a change or a delete) under
 * the login limits: 0, or answered and -1. */
static int recheck(auth *a, auth_job *j, store_account *acc) {
  store_account full;
  if (signed_in(a, j, acc))
    return -1;
  snprintf(j->name, sizeof j->name, "%s", acc->name);
  if (login_limited(a, j))
    return -1;
  int found = store_account_get(a->st, acc->name, &full) == 0;
  if (!j->bad_shape && check(a, &full, found, j->password))
    return 0;
  failed_try(a, j);
  fail(j, 401, "bad_login", "wrong password");
  return -1;
}

static void do_password(auth *a, auth_job *j) {
  store_account acc;
  char h[STORE_HASH_MAX + 1];
  if (recheck(a, j, &acc))
    return;
  if (!password_ok(j->fresh))
    return fail(j, 400, "bad_password",
                "a password is at least 8 characters (at most 256)");
  if (hash(a, j->fresh, h) || store_account_set_hash(a->st, acc.id, h) ||
      store_sessions_end(a->st, acc.id, j->session))
    return server_error(j);
  answer(j, 200, json_object());
}

static void do_delete(auth *a, auth_job *j) {
  store_account acc;
  if (recheck(a, j, &acc))
    return;
  if (store_account_delete(a->st, acc.id, AUTH_ANON))
    return server_error(j);
  j->deleted = acc.id;
  set_cookie(j, "", 0);
  answer(j, 200, json_object());
}

/* ------------------------------------------------------------------ */
/* Games: the list with results and statistics, and the export         */
/* ------------------------------------------------------------------ */

typedef struct stats {
  int games, won, scope, settebello, primiera, points;
} stats;

/* One finished game's line for its seat's side, added to the stats. */
static void tally_game(const scopa_match *m, int seat, json_t *g, stats *s) {
  const scopa_tally *t = scopa_match_tally(m);
  int side = seat % t->sides;
  json_t *totals = json_array();
  for (int i = 0; i < t->sides; i++)
    json_array_append_new(totals, json_integer(t->totals[i]));
  json_object_set_new(g, "totals", totals);
  json_object_set_new(g, "winner",
                      t->winner >= 0 ? json_integer(t->winner) : json_null());
  s->games++;
  s->won += t->winner == side;
  s->points += t->totals[side];
  for (int r = 0; r < scopa_match_rounds(m); r++) {
    const scopa_replay_round *round = scopa_match_round(m, r);
    const scopa_side_score *me = &round->score.side[side];
    if (!round->complete)
      continue;
    s->scope += me->scope;
    s->settebello += me->points[SCOPA_CAT_SETTEBELLO] > 0;
    s->primiera += me->points[SCOPA_CAT_PRIMIERA] > 0;
  }
}

/* A game of the list, filled in from its stored record: the seats'
 * names, rules and pool, and once finished its totals. */
static void fill_game(auth *a, json_t *g, stats *s, json_t *records) {
  store_game sg;
  scopa_match *m = NULL;
  char msg[256];
  const char *code = json_string_value(json_object_get(g, "code"));
  int seat = (int)json_integer_value(json_object_get(g, "seat"));
  if (!code || store_load(a->st, code, &sg, msg, sizeof msg) != 0)
    return;
  json_t *seats = json_array();
  for (int i = 0; i < sg.nseats; i++)
    json_array_append_new(seats, json_string(sg.seat[i].name));
  json_object_set_new(g, "seats", seats);
  json_object_set_new(g, "rules", json_loads(sg.rules_json, 0, NULL));
  if (sg.finished && game_load(&sg, &m, msg, sizeof msg) == 0) {
    tally_game(m, seat, g, s);
    char *rec = records ? scopa_match_record_json(m, SCOPA_RECORD_FULL) : NULL;
    if (rec)
      json_array_append_new(records, json_loads(rec, 0, NULL));
    free(rec);
  }
  scopa_match_free(m);
  store_game_free(&sg);
}

static json_t *stats_json(const stats *s) {
  return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:f}", "games", s->games,
                   "won", s->won, "scope", s->scope, "settebello",
                   s->settebello, "primiera", s->primiera, "points", s->points,
                   "points_per_game",
                   s->games ? (double)s->points / s->games : 0.0);
}

static void do_games(auth *a, auth_job *j, int export) {
  store_account acc;
  stats s = {0};
  if (signed_in(a, j, &acc))
    return;
  json_t *games = loads(store_account_games(a->st, acc.id, GAMES_MAX));
  json_t *records = export ? json_array() : NULL;
  if (!games)
    return server_error(j);
  size_t i;
  json_t *g;
  json_array_foreach(games, i, g) fill_game(a, g, &s, records);
  if (export) {
    json_decref(games);
    j->disposition = "attachment; filename=\"scopa-games.json\"";
    return answer(j, 200,
                  json_pack("{s:s, s:o}", "name", acc.name, "games", records));
  }
  answer(j, 200,
         json_pack("{s:o, s:o}", "games", games, "stats", stats_json(&s)));
}

/* ------------------------------------------------------------------ */
/* Reads for the loop                                                  */
/* ------------------------------------------------------------------ */

static void do_leaderboard(auth *a, auth_job *j) {
  char *text = store_leaderboard(a->st, j->what, 100);
  json_t *players = text ? json_loads(text, 0, NULL) : NULL;
  free(text);
  j->status = players ? 200 : 500;
  j->body = proto_finish(
      json_pack("{s:s, s:o*}", "pool", j->what, "players", players), NULL);
  if (!j->body)
    server_error(j);
}

/* One public table for the lobby, or NULL when it no longer waits for
 * people (ended, begun, or every seat taken). */
static json_t *lobby_table(auth *a, const store_game *g) {
  int open = 0;
  for (int i = 0; i < g->nseats; i++)
    open += g->seat[i].kind == STORE_OPEN;
  json_t *rules = json_loads(g->rules_json, 0, NULL);
  if (g->finished || g->nmoves > 0 || open == 0 || !rules) {
    json_decref(rules);
    return NULL;
  }
  json_t *seats = json_array(), *people = json_array();
  const char *pool = rating_pool(g->nseats);
  for (int i = 0; i < g->nseats; i++) {
    const store_seat *s = &g->seat[i];
    json_array_append_new(seats, json_string(s->kind == STORE_OPEN  ? "open"
                                             : s->kind == STORE_BOT ? s->bot
                                                                    : s->name));
    if (s->kind != STORE_PERSON)
      continue;
    store_rating r;
    char player[32];
    snprintf(player, sizeof player, "a:%lld", s->account);
    int rated =
        s->account > 0 && store_rating_get(a->st, pool, player, &r) == 0;
    json_array_append_new(
        people,
        json_pack("{s:i, s:s, s:b, s:o, s:b}", "seat", i, "name", s->name,
                  "account", s->account > 0, "rating",
                  rated ? json_integer((int)(r.rating + 0.5)) : json_null(),
                  "provisional", !rated || r.rd > STORE_PROVISIONAL_RD));
  }
  return json_pack("{s:s, s:o, s:o, s:i, s:i, s:o, s:i, s:i, s:i, s:i}", "code",
                   g->code, "rules", rules, "seats", seats, "open", open,
                   "players", g->nseats, "people", people, "move_clock",
                   g->clock_s, "away_timeout", g->away_s, "bank", g->bank_s,
                   "increment", g->inc_s);
}

/* The newest public tables that wait for people; the codes of those
 * that no longer do leave the list as they are met. */
static void do_lobby(auth *a, auth_job *j) {
  char(*codes)[STORE_CODE_MAX + 1] = calloc(LOBBY_READ, sizeof *codes);
  int n = 0;
  json_t *tables = json_array();
  if (!codes || !tables || store_lobby(a->st, LOBBY_READ, codes, &n)) {
    free(codes);
    json_decref(tables);
    return server_error(j);
  }
  for (int i = 0; i < n && json_array_size(tables) < LOBBY_MAX; i++) {
    store_game g;
    char msg[256];
    int rc = store_load(a->st, codes[i], &g, msg, sizeof msg);
    json_t *t = rc == 0 ? lobby_table(a, &g) : NULL;
    if (rc == 0)
      store_game_free(&g);
    if (t)
      json_array_append_new(tables, t);
    else if (rc >= 0) /* gone, or no longer waiting (a damaged one stays) */
      store_lobby_drop(a->st, codes[i]);
  }
  free(codes);
  j->status = 200;
  j->body = proto_finish(json_pack("{s:o}", "tables", tables), NULL);
  if (!j->body)
    server_error(j);
}

/* Whether the game of a tournament sg is sealed: a duplicate round
 * (the same deals at every table) still in play somewhere. */
static int sealed(auth *a, const store_game *sg) {
  store_tourney row;
  if (!sg->tourney[0])
    return 0;
  if (store_tourney_get(a->st, sg->tourney, &row))
    return 1; /* no row to say it is over: sealed */
  json_t *state = json_loads(row.state, 0, NULL);
  free(row.state);
  int rc = !state || ts_sealed(state, sg->code);
  json_decref(state);
  return rc;
}

/* As table_record answers for a table in memory: 404 unknown, 500
 * damaged, 403 while in play (its end not stored yet) or sealed (a
 * duplicate round in play), else the record. */
static void do_record(auth *a, auth_job *j) {
  store_game sg;
  scopa_match *m = NULL;
  char msg[256];
  proto_error e;
  int rc = store_load(a->st, j->what, &sg, msg, sizeof msg);
  if (rc == 0 && sg.finished && game_load(&sg, &m, msg, sizeof msg) != 0)
    rc = -1;
  int seal = rc == 0 && sg.finished && sealed(a, &sg);
  if (rc != 0 || !sg.finished || seal) {
    j->status = rc == 1 ? 404 : rc < 0 ? 500 : 403;
    proto_error_set(&e,
                    rc == 1  ? "no_table"
                    : rc < 0 ? "table_damaged"
                    : seal   ? "sealed"
                             : "in_progress",
                    j->what, j->what);
    j->body = proto_error_json(NULL, &e);
  } else {
    j->status = 200;
    j->body = scopa_match_record_json(m, SCOPA_RECORD_FULL);
  }
  scopa_match_free(m);
  store_game_free(&sg);
  if (!j->body)
    server_error(j);
}

/* Every tournament (the newest TOURNEYS_LIST), each its list's line, in
 * three lists by status. */
static void do_tourneys(auth *a, auth_job *j) {
  store_tourney *rows = NULL;
  int n = 0;
  static const char *const KEYS[] = {"upcoming", "running", "finished"};
  json_t *o = json_object();
  for (int k = 0; o && k < 3; k++)
    json_object_set_new(o, KEYS[k], json_array());
  if (!o || store_tourney_list(a->st, 0, TOURNEYS_LIST, &rows, &n)) {
    json_decref(o);
    return server_error(j);
  }
  for (int i = 0; i < n; i++) {
    json_t *state = json_loads(rows[i].state, 0, NULL);
    json_t *line = state ? ts_view(state, 1) : NULL;
    int k = rows[i].status;
    if (line && k >= 0 && k < 3)
      json_array_append_new(json_object_get(o, KEYS[k]), line);
    else
      json_decref(line);
    json_decref(state);
  }
  store_tourney_free_all(rows, n);
  j->status = 200;
  if (!(j->body = proto_finish(o, NULL)))
    server_error(j);
}

static void do_tourney(auth *a, auth_job *j) {
  store_tourney row;
  int rc = store_tourney_get(a->st, j->what, &row);
  if (rc) {
    proto_error e;
    j->status = rc == 1 ? 404 : 500;
    proto_error_set(&e, rc == 1 ? "no_tourney" : "server", j->what, j->what);
    j->body = proto_error_json(NULL, &e);
    return;
  }
  json_t *state = json_loads(row.state, 0, NULL);
  free(row.state);
  json_t *view = state ? ts_view(state, 0) : NULL;
  json_decref(state);
  j->status = 200;
  if (!view || !(j->body = proto_finish(view, NULL)))
    server_error(j);
}

static void run(auth *a, auth_job *j) {
  switch (j->op) {
  case AUTH_SIGNUP:
    return do_signup(a, j);
  case AUTH_LOGIN:
    return do_login(a, j);
  case AUTH_LOGOUT:
    return do_logout(a, j);
  case AUTH_LOGOUT_ALL:
    return do_logout_all(a, j);
  case AUTH_ME:
    return do_me(a, j);
  case AUTH_HISTORY:
    return do_history(a, j);
  case AUTH_GAMES:
    return do_games(a, j, 0);
  case AUTH_EXPORT:
    return do_games(a, j, 1);
  case AUTH_PASSWORD:
    return do_password(a, j);
  case AUTH_DELETE:
    return do_delete(a, j);
  case AUTH_LEADERBOARD:
    return do_leaderboard(a, j);
  case AUTH_RECORD:
    return do_record(a, j);
  case AUTH_LOBBY:
    return do_lobby(a, j);
  case AUTH_TOURNEYS:
    return do_tourneys(a, j);
  case AUTH_TOURNEY:
    return do_tourney(a, j);
  }
  fail(j, 404, "not_found", "no such route");
}

/* ------------------------------------------------------------------ */
/* The thread and its queues                                           */
/* ------------------------------------------------------------------ */

static void push(list *l, node *n) {
  n->next = NULL;
  if (l->tail)
    l->tail->next = n;
  else
    l->head = n;
  l->tail = n;
  l->n++;
}

static node *pop(list *l) {
  node *n = l->head;
  if (n) {
    l->head = n->next;
    if (!l->head)
      l->tail = NULL;
    l->n--;
  }
  return n;
}

static void *main_loop(void *arg) {
  auth *a = arg;
  /* Below the loop and the bots: on a busy machine a hash waits, a move
   * does not (Linux: a thread's own nice value). */
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), AUTH_NICE);
  pthread_mutex_lock(&a->mu);
  for (;;) {
    while (!a->stop && !a->in.head)
      pthread_cond_wait(&a->cv, &a->mu);
    node *n = pop(&a->in);
    if (!n)
      break;
    pthread_mutex_unlock(&a->mu);
    run(a, n->job);
    sodium_memzero(n->job->password, sizeof n->job->password);
    sodium_memzero(n->job->fresh, sizeof n->job->fresh);
    pthread_mutex_lock(&a->mu);
    push(&a->out, n);
    pthread_mutex_unlock(&a->mu);
    a->wake(a->arg);
    pthread_mutex_lock(&a->mu);
  }
  pthread_mutex_unlock(&a->mu);
  return NULL;
}

auth *auth_new(const char *where, const auth_conf *conf, void (*wake)(void *),
               void *arg, char *msg, size_t msgsize) {
  auth *a = calloc(1, sizeof *a);
  if (!a || sodium_init() < 0) {
    snprintf(msg, msgsize, "accounts: no memory or no libsodium");
    free(a);
    return NULL;
  }
  a->conf = *conf;
  a->wake = wake;
  a->arg = arg;
  char pw[65];
  auth_token(pw); /* the dummy's password: known to nobody */
  if (crypto_pwhash_str(a->dummy, pw, strlen(pw), conf->opslimit,
                        conf->memlimit) != 0) {
    snprintf(msg, msgsize, "accounts: Argon2id failed (out of memory?)");
    free(a);
    return NULL;
  }
  if (store_open(where, &a->st, msg, msgsize)) {
    free(a);
    return NULL;
  }
  pthread_mutex_init(&a->mu, NULL);
  pthread_cond_init(&a->cv, NULL);
  if (pthread_create(&a->thread, NULL, main_loop, a) != 0) {
    snprintf(msg, msgsize, "accounts: no thread");
    store_close(a->st);
    free(a);
    return NULL;
  }
  return a;
}

static void free_list(list *l) {
  node *n;
  while ((n = pop(l))) {
    free(n->job->body);
    free(n->job);
    free(n);
  }
}

void auth_free(auth *a) {
  if (!a)
    return;
  pthread_mutex_lock(&a->mu);
  a->stop = 1;
  free_list(&a->in); /* their requests are gone with the loop */
  pthread_cond_signal(&a->cv);
  pthread_mutex_unlock(&a->mu);
  pthread_join(a->thread, NULL);
  free_list(&a->out);
  store_close(a->st);
  pthread_mutex_destroy(&a->mu);
  pthread_cond_destroy(&a->cv);
  free(a);
}

int auth_submit(auth *a, auth_job *job) {
  node *n = malloc(sizeof *n);
  if (!n)
    return -1;
  n->job = job;
  pthread_mutex_lock(&a->mu);
  int full = a->in.n >= a->conf.queue_max;
  if (!full) {
    push(&a->in, n);
    pthread_cond_signal(&a->cv);
  }
  pthread_mutex_unlock(&a->mu);
  if (full)
    free(n);
  return full ? -1 : 0;
}

int auth_take(auth *a, auth_job **out, int cap) {
  int k = 0;
  pthread_mutex_lock(&a->mu);
  node *n;
  while (k < cap && (n = pop(&a->out))) {
    out[k++] = n->job;
    free(n);
  }
  pthread_mutex_unlock(&a->mu);
  return k;
}
