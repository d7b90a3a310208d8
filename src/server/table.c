/*
 * table.c -- tables: creating, joining, resuming and watching them, who
 * sits where and whether they are here, and what each connection is shown.
 *
 * The one place where a recipient's view is built is state_json: the
 * library's view for that seat (scopa_match_view_json: the seat's own
 * cards, the table, the cards played, nothing else) plus the seat's hand
 * and legal moves for that seat only, and for a spectator the public view
 * (seat -1).  Nothing else in the server writes cards.
 *
 * Tables live in a hash by code.  One that nobody is at leaves memory
 * after a while (finished ones quickly), never the database: table_get
 * loads it again from its seed and moves.
 */
#include "table.h"

#include <ctype.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

/* ------------------------------------------------------------------ */
/* Tokens and codes                                                    */
/* ------------------------------------------------------------------ */

static const char CODE_LETTERS[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

static int random_bytes(unsigned char *buf, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = getrandom(buf + got, n - got, 0);
    if (r <= 0)
      return -1;
    got += (size_t)r;
  }
  return 0;
}

/* 32 hex digits (128 bits) from the operating system. */
static int new_token(char out[33]) {
  unsigned char b[16];
  if (random_bytes(b, sizeof b))
    return -1;
  for (int i = 0; i < 16; i++)
    snprintf(out + 2 * i, 3, "%02x", b[i]);
  return 0;
}

/* Tokens are kept only as their SHA-256, so the database never holds a
 * working token. */
static void sha256_hex(const char *text, char out[65]) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  out[0] = 0;
  if (!EVP_Digest(text, strlen(text), md, &n, EVP_sha256(), NULL))
    return;
  for (unsigned i = 0; i < n && i < 32; i++)
    snprintf(out + 2 * i, 3, "%02x", md[i]);
}

/* Codes are read without regard to case. */
static void normalize_code(const char *in, char out[PROTO_CODE_MAX + 1]) {
  size_t n = 0;
  for (; *in && n < PROTO_CODE_MAX; in++)
    out[n++] = (char)toupper((unsigned char)*in);
  out[n] = 0;
}

/* ------------------------------------------------------------------ */
/* The registry                                                        */
/* ------------------------------------------------------------------ */

static size_t bucket_of(const server *srv, const char *code) {
  size_t h = 5381;
  for (; *code; code++)
    h = h * 33 + (unsigned char)*code;
  return h % srv->nbuckets;
}

static table *find_loaded(server *srv, const char *code) {
  for (table *t = srv->buckets[bucket_of(srv, code)]; t; t = t->hnext)
    if (strcmp(t->code, code) == 0)
      return t;
  return NULL;
}

static void insert(server *srv, table *t) {
  size_t b = bucket_of(srv, t->code);
  t->hnext = srv->buckets[b];
  srv->buckets[b] = t;
  srv->ntables++;
}

static void table_free(table *t) {
  for (int i = 0; i < PROTO_MAX_SEATS; i++)
    free(t->seat[i].hint_text);
  scopa_match_free(t->match);
  free(t->review);
  free(t->rules_json);
  free(t);
}

static void evict(server *srv, table *t) {
  for (table **p = &srv->buckets[bucket_of(srv, t->code)]; *p; p = &(*p)->hnext)
    if (*p == t) {
      *p = t->hnext;
      break;
    }
  srv->ntables--;
  table_free(t);
}

void tables_free(server *srv) {
  for (size_t b = 0; b < srv->nbuckets; b++)
    while (srv->buckets[b]) {
      table *t = srv->buckets[b];
      srv->buckets[b] = t->hnext;
      table_free(t);
    }
  srv->ntables = 0;
}

int table_new_match(table *t, scopa_match **out, char *msg, size_t msgsize) {
  scopa_seat seats[PROTO_MAX_SEATS];
  for (int i = 0; i < t->nseats; i++) {
    const store_seat *s = &t->seat[i].s;
    const char *bot = s->bot;
    memset(&seats[i], 0, sizeof seats[i]);
    seats[i].name = s->name;
    if (s->kind == STORE_BOT) {
      seats[i].kind = SCOPA_SEAT_BOT;
      if (scopa_bot_level(s->bot, &bot, NULL) == SCOPA_OK)
        seats[i].level = s->bot;
      seats[i].bot = bot;
    }
  }
  scopa_match *m = NULL;
  int rc = scopa_match_new(&t->rules, seats, t->seed, &m, msg, msgsize);
  if (rc == SCOPA_OK && scopa_match_deal(m, NULL) != SCOPA_OK) {
    snprintf(msg, msgsize, "cannot deal");
    rc = SCOPA_EINVAL;
  }
  if (rc != SCOPA_OK) {
    scopa_match_free(m);
    return -1;
  }
  *out = m;
  return 0;
}

static int open_seats(const table *t) {
  int n = 0;
  for (int i = 0; i < t->nseats; i++)
    n += t->seat[i].s.kind == STORE_OPEN;
  return n;
}

static void set_status(table *t) {
  if (scopa_match_phase(t->match) == SCOPA_MATCH_OVER)
    t->status = T_FINISHED;
  else
    t->status = open_seats(t) ? T_WAITING : T_PLAYING;
}

/* Replays the stored moves on a new match; the deals follow from the
 * seed.  -1 if the stored game does not replay (then it stays stored). */
static int replay_moves(table *t, const store_game *g) {
  char msg[256];
  for (int i = 0; i < g->nmoves; i++) {
    if (scopa_match_phase(t->match) == SCOPA_MATCH_DEAL)
      scopa_match_deal(t->match, NULL);
    if (scopa_match_apply(t->match, g->moves[i], NULL, msg, sizeof msg)) {
      lwsl_err("table %s: stored move %d does not replay: %s\n", t->code, i,
               msg);
      return -1;
    }
  }
  if (scopa_match_phase(t->match) == SCOPA_MATCH_DEAL)
    scopa_match_deal(t->match, NULL);
  t->nmoves = g->nmoves;
  return 0;
}

static table *table_alloc(server *srv) {
  table *t = calloc(1, sizeof *t);
  if (t) {
    t->id = ++srv->next_table_id;
    t->job_number = -1;
    t->turn_since_ms = t->empty_since_ms = now_ms();
  }
  return t;
}

static void seat_defaults(server *srv, seat_info *si) {
  si->away_since_ms = now_ms();
  if (si->s.kind == STORE_BOT &&
      scopa_bot_level(si->s.bot, NULL, &si->think_ms) != SCOPA_OK)
    si->think_ms = srv->conf.bot_ms;
}

/* A table from the store, or NULL. */
static table *load(server *srv, const char *code) {
  store_game g;
  char msg[256];
  if (store_load(srv->st, code, &g) != 0)
    return NULL;
  table *t = table_alloc(srv);
  if (!t)
    goto fail;
  snprintf(t->code, sizeof t->code, "%s", g.code);
  snprintf(t->seed, sizeof t->seed, "%s", g.seed);
  scopa_seed_sha256(t->seed, t->seed_sha256);
  t->rules_json = g.rules_json;
  g.rules_json = NULL;
  t->away_s = g.away_s;
  t->clock_s = g.clock_s;
  t->rated = g.finished;
  t->nseats = g.nseats;
  for (int i = 0; i < g.nseats; i++) {
    t->seat[i].s = g.seat[i];
    seat_defaults(srv, &t->seat[i]);
  }
  if (scopa_rules_from_json(&t->rules, t->rules_json, strlen(t->rules_json),
                            msg, sizeof msg) != SCOPA_OK ||
      table_new_match(t, &t->match, msg, sizeof msg) || replay_moves(t, &g))
    goto fail;
  set_status(t);
  store_game_free(&g);
  insert(srv, t);
  play_kick(srv, t);
  return t;
fail:
  if (t)
    lwsl_err("table %s cannot be loaded: %s\n", code, msg);
  store_game_free(&g);
  if (t)
    table_free(t);
  return NULL;
}

table *table_find(server *srv, const char *code) {
  return find_loaded(srv, code);
}

table *table_get(server *srv, const char *code) {
  char norm[PROTO_CODE_MAX + 1];
  normalize_code(code, norm);
  table *t = find_loaded(srv, norm);
  return t ? t : load(srv, norm);
}

/* ------------------------------------------------------------------ */
/* Views                                                               */
/* ------------------------------------------------------------------ */

static const char *const STATUS[] = {"waiting", "playing", "finished"};

/* CONTRACTS.md's three values; an open seat (nobody yet) reads "away"
 * and its name "", and the "open" list says which seats those are. */
static const char *presence_of(const table *t, int i) {
  const seat_info *si = &t->seat[i];
  if (si->s.kind == STORE_BOT || si->taken_over)
    return "bot";
  return si->s.kind == STORE_PERSON && si->nconns > 0 ? "here" : "away";
}

/* seats, presence, and for away people (extensions): "away_for", the
 * seconds since they left, and "away_seconds", the seconds left before a
 * bot plays for them (null when no such count runs). */
static void add_seats(json_t *o, const table *t) {
  json_t *names = json_array(), *presence = json_array(), *open = json_array(),
         *away_for = json_array(), *left = json_array();
  int64_t now = now_ms();
  for (int i = 0; i < t->nseats; i++) {
    const seat_info *si = &t->seat[i];
    int away = si->s.kind == STORE_PERSON && si->nconns == 0;
    int64_t gone = (now - si->away_since_ms) / 1000;
    int64_t rest = t->away_s - gone;
    json_array_append_new(names, json_string(si->s.name));
    json_array_append_new(presence, json_string(presence_of(t, i)));
    json_array_append_new(open, json_boolean(si->s.kind == STORE_OPEN));
    json_array_append_new(away_for, away ? json_integer(gone) : json_null());
    json_array_append_new(left,
                          away && !si->taken_over && t->status == T_PLAYING
                              ? json_integer(rest > 0 ? rest : 0)
                              : json_null());
  }
  json_object_set_new(o, "seats", names);
  json_object_set_new(o, "presence", presence);
  json_object_set_new(o, "open", open);
  json_object_set_new(o, "away_for", away_for);
  json_object_set_new(o, "away_seconds", left);
}

/* The state message for one recipient: seat 0..n-1, or -1 watching. */
static char *state_json(const table *t, int seat, const json_t *id) {
  int to_play = t->status == T_PLAYING ? scopa_match_to_play(t->match) : -1;
  json_t *o = proto_state(t->match, t->code, seat, to_play);
  if (!o)
    return NULL;
  json_object_set_new(o, "status", json_string(STATUS[t->status]));
  add_seats(o, t);
  json_object_set_new(o, "seed_sha256", json_string(t->seed_sha256));
  json_object_set_new(o, "hints", json_boolean(table_hints_allowed(t)));
  return proto_finish(o, id);
}

/* A state to every connection of the table, each its own; `to` gets the
 * id of the message it answers.  One text per seat, shared by that
 * seat's connections. */
void table_broadcast(table *t, conn *to, const json_t *id) {
  char *text[PROTO_MAX_SEATS + 1] = {0};
  for (conn *c = t->conns; c; c = c->tnext) {
    if (c == to && id) {
      conn_send_owned(c, state_json(t, c->seat, id));
      continue;
    }
    char **slot = &text[c->seat + 1];
    if (!*slot)
      *slot = state_json(t, c->seat, NULL);
    conn_send(c, *slot);
  }
  for (int i = 0; i <= PROTO_MAX_SEATS; i++)
    free(text[i]);
}

void table_send_all(table *t, const char *text) {
  for (conn *c = t->conns; c; c = c->tnext)
    conn_send(c, text);
}

/* ------------------------------------------------------------------ */
/* Sitting down and leaving                                            */
/* ------------------------------------------------------------------ */

int table_someone_here(const table *t, int except) {
  for (int i = 0; i < t->nseats; i++)
    if (i != except && t->seat[i].s.kind == STORE_PERSON &&
        t->seat[i].nconns > 0)
      return 1;
  return 0;
}

int table_hints_allowed(const table *t) {
  for (int i = 0; i < t->nseats; i++)
    if (t->seat[i].s.kind == STORE_BOT)
      return 1;
  return 0;
}

/* A bot plays seat i: a bot's seat, or a person away past the timeout
 * while another person is at the table (a table nobody is at waits). */
int table_bot_may_play(const table *t, int i) {
  const seat_info *si = &t->seat[i];
  return si->s.kind == STORE_BOT ||
         (si->taken_over && table_someone_here(t, i));
}

static void attach(conn *c, table *t, int seat) {
  table_leave(c);
  c->table = t;
  c->seat = seat;
  c->tprev = NULL;
  c->tnext = t->conns;
  if (t->conns)
    t->conns->tprev = c;
  t->conns = c;
  t->nconns++;
  if (seat >= 0) {
    seat_info *si = &t->seat[seat];
    si->nconns++;
    if (t->status == T_PLAYING && scopa_match_to_play(t->match) == seat)
      t->turn_since_ms = now_ms(); /* the move clock starts on return */
    if (si->taken_over) {
      char detail[8];
      snprintf(detail, sizeof detail, "%d", seat);
      si->taken_over = 0;
      char *note = proto_notice("seat_back", seat, detail);
      table_send_all(t, note);
      free(note);
    }
  }
}

void table_leave(conn *c) {
  table *t = c->table;
  if (!t)
    return;
  if (c->tprev)
    c->tprev->tnext = c->tnext;
  else
    t->conns = c->tnext;
  if (c->tnext)
    c->tnext->tprev = c->tprev;
  t->nconns--;
  c->table = NULL;
  c->tnext = c->tprev = NULL;
  int64_t now = now_ms();
  if (t->nconns == 0)
    t->empty_since_ms = now;
  if (c->seat >= 0) {
    seat_info *si = &t->seat[c->seat];
    if (--si->nconns == 0) {
      si->away_since_ms = now;
      table_broadcast(t, NULL, NULL); /* the others see the seat away */
    }
  }
  c->seat = -1;
}

/* Seats a person at seat i with a new token, stored in the open batch. */
static int seat_person(conn *c, table *t, int i, const proto_msg *msg,
                       char token[33], char player[33]) {
  server *srv = c->srv;
  seat_info *si = &t->seat[i];
  if (new_token(token))
    return -1;
  if (msg->player[0])
    snprintf(player, 33, "%.32s", msg->player);
  else if (new_token(player))
    return -1;
  si->s.kind = STORE_PERSON;
  si->taken_by = c->serial;
  if (msg->name[0])
    snprintf(si->s.name, sizeof si->s.name, "%s", msg->name);
  else
    snprintf(si->s.name, sizeof si->s.name, "Player %d", i + 1);
  sha256_hex(token, si->s.token_sha256);
  sha256_hex(player, si->s.player);
  t->last_batch = server_batch(srv);
  writer_set_seat(srv->w, t->code, i, &si->s);
  return 0;
}

static void answer_seated(conn *c, table *t, int seat, const json_t *id,
                          const char *token, const char *player) {
  conn_send_owned(c, proto_seated(id, t->code, seat, token, player));
}

static int new_code(server *srv, char code[PROTO_CODE_MAX + 1]) {
  for (int attempt = 0; attempt < 20; attempt++) {
    unsigned char b[6];
    if (random_bytes(b, sizeof b))
      return -1;
    for (int i = 0; i < 6; i++)
      code[i] = CODE_LETTERS[b[i] % 32];
    code[6] = 0;
    if (!find_loaded(srv, code) && store_has_code(srv->st, code) == 0)
      return 0;
  }
  return -1;
}

static void create(conn *c, const proto_msg *msg) {
  server *srv = c->srv;
  char detail[256] = "", token[33], player[33];
  int me;
  scopa_rules rules;
  proto_error err;
  if (proto_create_check(msg, &me, &rules, &err))
    return conn_send_owned(c, proto_error_json(msg->id, &err));
  int allowed =
      limits_table_create(srv->addrs, &srv->conf.limits, c->addr, now_ms());
  if (allowed == LIMITS_REFUSED)
    return conn_error(c, msg->id, "limit", "too many new tables",
                      "troppi tavoli nuovi");
  if (allowed == LIMITS_UNCOUNTED)
    server_limits_full(srv, c->addr);
  table *t = table_alloc(srv);
  if (!t || new_code(srv, t->code) || scopa_seed_random(t->seed) ||
      scopa_seed_sha256(t->seed, t->seed_sha256) ||
      !(t->rules_json = scopa_rules_to_json(&rules))) {
    if (t)
      table_free(t);
    return conn_error(c, msg->id, "server", "no table could be made",
                      "non si è potuto fare il tavolo");
  }
  t->rules = rules;
  t->away_s = msg->away_s >= 0 ? msg->away_s : srv->conf.away_s;
  t->clock_s = msg->clock_s >= 0 ? msg->clock_s : srv->conf.clock_s;
  t->nseats = msg->nseats;
  for (int i = 0; i < t->nseats; i++) {
    store_seat *s = &t->seat[i].s;
    s->kind = strcmp(msg->seats[i], "open") == 0 ? STORE_OPEN : STORE_BOT;
    if (s->kind == STORE_BOT) {
      snprintf(s->bot, sizeof s->bot, "%s", msg->seats[i]);
      snprintf(s->name, sizeof s->name, "%s", msg->seats[i]);
    }
    seat_defaults(srv, &t->seat[i]);
  }
  store_game g = {.rules_json = t->rules_json,
                  .nseats = t->nseats,
                  .away_s = t->away_s,
                  .clock_s = t->clock_s};
  snprintf(g.code, sizeof g.code, "%s", t->code);
  snprintf(g.seed, sizeof g.seed, "%s", t->seed);
  for (int i = 0; i < t->nseats; i++)
    g.seat[i] = t->seat[i].s;
  t->last_batch = server_batch(srv);
  writer_add_game(srv->w, &g);
  if (seat_person(c, t, me, msg, token, player) ||
      table_new_match(t, &t->match, detail, sizeof detail)) {
    table_free(t);
    return conn_error(c, msg->id, "server", "the table could not be stored",
                      "non si è potuto salvare il tavolo");
  }
  set_status(t);
  insert(srv, t);
  attach(c, t, me);
  answer_seated(c, t, me, msg->id, token, player);
  table_broadcast(t, NULL, NULL);
  play_kick(srv, t);
}

static void join(conn *c, const proto_msg *msg) {
  table *t = table_get(c->srv, msg->code);
  char token[33], player[33], detail[256];
  if (!t)
    return conn_error(c, msg->id, "no_table", msg->code, msg->code);
  /* One seat per connection: not a second one of this table, even after
   * a detour to watch another (a token still gives a seat back: resume). */
  for (int k = 0; k < t->nseats; k++)
    if ((c->table == t && c->seat >= 0) ||
        (t->seat[k].s.kind == STORE_PERSON && t->seat[k].taken_by == c->serial))
      return conn_error(c, msg->id, "already_seated", t->code, t->code);
  int i = 0;
  while (i < t->nseats && t->seat[i].s.kind != STORE_OPEN)
    i++;
  if (i == t->nseats)
    return conn_error(c, msg->id, "table_full", t->code, t->code);
  scopa_match *m = NULL;
  if (seat_person(c, t, i, msg, token, player) ||
      table_new_match(t, &m, detail, sizeof detail)) {
    t->seat[i].s.kind = STORE_OPEN;
    return conn_error(c, msg->id, "server", "the seat could not be stored",
                      "non si è potuto salvare il posto");
  }
  /* Nobody has played while a seat was open: the match is dealt again
   * from the same seed with the new name. */
  scopa_match_free(t->match);
  t->match = m;
  set_status(t);
  t->turn_since_ms = now_ms();
  attach(c, t, i);
  answer_seated(c, t, i, msg->id, token, player);
  table_broadcast(t, NULL, NULL);
  play_kick(c->srv, t);
}

static void resume(conn *c, const proto_msg *msg) {
  table *t = table_get(c->srv, msg->code);
  char hash[65];
  if (!t)
    return conn_error(c, msg->id, "no_table", msg->code, msg->code);
  sha256_hex(msg->token, hash);
  int i = 0;
  while (i < t->nseats && (t->seat[i].s.kind != STORE_PERSON ||
                           strcmp(t->seat[i].s.token_sha256, hash) != 0))
    i++;
  if (i == t->nseats)
    return conn_error(c, msg->id, "bad_token", t->code, t->code);
  attach(c, t, i);
  answer_seated(c, t, i, msg->id, msg->token, "");
  table_broadcast(t, NULL, NULL);
  play_kick(c->srv, t);
}

static void watch(conn *c, const proto_msg *msg) {
  table *t = table_get(c->srv, msg->code);
  if (!t)
    return conn_error(c, msg->id, "no_table", msg->code, msg->code);
  attach(c, t, -1);
  conn_send_owned(c, state_json(t, -1, msg->id));
}

int table_message(conn *c, const proto_msg *msg) {
  switch (msg->type) {
  case PROTO_CREATE:
    create(c, msg);
    break;
  case PROTO_JOIN:
    join(c, msg);
    break;
  case PROTO_RESUME:
    resume(c, msg);
    break;
  case PROTO_WATCH:
    watch(c, msg);
    break;
  case PROTO_MOVE:
    return play_move(c, msg);
  case PROTO_HINT:
    play_hint(c, msg);
    break;
  case PROTO_REVIEW:
    play_review(c, msg);
    break;
  case PROTO_PING:
    conn_send_owned(c,
                    proto_finish(json_pack("{s:s}", "type", "pong"), msg->id));
    break;
  default:
    break; /* unknown types are ignored (CONTRACTS.md) */
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* The sweep                                                           */
/* ------------------------------------------------------------------ */

/* A person away past the table's timeout: a bot plays for the seat. */
static void take_over(server *srv, table *t, int64_t now) {
  for (int i = 0; i < t->nseats; i++) {
    seat_info *si = &t->seat[i];
    if (si->s.kind != STORE_PERSON || si->nconns > 0 || si->taken_over ||
        t->status != T_PLAYING ||
        now - si->away_since_ms < (int64_t)t->away_s * 1000 ||
        !table_someone_here(t, i))
      continue;
    char detail[8];
    snprintf(detail, sizeof detail, "%d", i);
    si->taken_over = 1;
    char *note = proto_notice("bot_takes_seat", i, detail);
    table_send_all(t, note);
    free(note);
    table_broadcast(t, NULL, NULL);
    play_kick(srv, t);
  }
}

void table_sweep(server *srv, int64_t now) {
  for (size_t b = 0; b < srv->nbuckets; b++) {
    table *next;
    for (table *t = srv->buckets[b]; t; t = next) {
      next = t->hnext;
      take_over(srv, t, now);
      play_clock(srv, t, now);
      if (t->nconns == 0 && t->job_number < 0 && !t->review_pending &&
          t->last_batch <= srv->committed &&
          (t->status == T_FINISHED
               ? now - t->empty_since_ms > 5000
               : now - t->empty_since_ms > (int64_t)srv->conf.idle_s * 1000))
        evict(srv, t);
    }
  }
}

/* ------------------------------------------------------------------ */
/* The record                                                          */
/* ------------------------------------------------------------------ */

char *table_record(server *srv, const char *code, int *status) {
  table *t = table_get(srv, code);
  proto_error e;
  if (!t) {
    *status = 404;
    proto_error_set(&e, "no_table", code, code);
    return proto_error_json(NULL, &e);
  }
  if (t->status != T_FINISHED) {
    *status = 403;
    proto_error_set(&e, "in_progress", t->code, t->code);
    return proto_error_json(NULL, &e);
  }
  *status = 200;
  return scopa_match_record_json(t->match, SCOPA_RECORD_FULL);
}
