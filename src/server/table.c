/*
 * table.c -- the tables in memory: the registry by code, loading a table
 * from the store, who is here, the move clock's time left, eviction, the
 * record, and a table stopped by a failed write or a lost lease.  The
 * router of client messages is dispatch.c, sitting down lobby.c, what
 * each connection is shown views.c, moves and bots moves.c.
 *
 * Tables live in a search tree by code.  One that nobody is at leaves memory
 * after a while (finished ones quickly), never the database: table_get
 * loads it again from its seed and moves.
 */
#include "table.h"
#include "game.h"
#include "relay.h"

#include <ctype.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Tables in memory are in libc's search tree (tsearch) by code, for
 * lookups in O(log n) whatever the codes, and on a list for the sweep. */
static int by_code(const void *a, const void *b) {
  return strcmp(((const table *)a)->code, ((const table *)b)->code);
}

static table *find_loaded(server *srv, const char *code) {
  table probe;
  snprintf(probe.code, sizeof probe.code, "%s", code);
  table **found = tfind(&probe, &srv->tables_root, by_code);
  return found ? *found : NULL;
}

static int by_text(const void *a, const void *b) { return strcmp(a, b); }

void table_unrated(server *srv, const char *code) {
  if (!tfind(code, &srv->unrated_root, by_text)) {
    char *key = strdup(code);
    if (key && !tsearch(key, &srv->unrated_root, by_text))
      free(key); /* without memory: its game may be rated */
  }
  table *t = find_loaded(srv, code);
  if (t)
    t->unrated = 1;
}

void table_unrated_free(server *srv) {
  while (srv->unrated_root) {
    char *key = *(char **)srv->unrated_root;
    tdelete(key, &srv->unrated_root, by_text);
    free(key);
  }
}

/* 0, or -1 out of memory (then t is not registered). */
int table_insert(server *srv, table *t) {
  if (!tsearch(t, &srv->tables_root, by_code))
    return -1;
  t->next = srv->tables;
  t->prev = NULL;
  if (srv->tables)
    srv->tables->prev = t;
  srv->tables = t;
  srv->ntables++;
  return 0;
}

void table_free(table *t) {
  for (int i = 0; i < PROTO_MAX_SEATS; i++)
    free(t->seat[i].hint_text);
  scopa_match_free(t->match);
  free(t->bank);
  store_talk_free(t->talk, t->ntalk);
  free(t->review);
  free(t->rules_json);
  free(t);
}

static void evict(server *srv, table *t) {
  relay_release(srv, t->code, t->epoch);
  tdelete(t, &srv->tables_root, by_code);
  if (t->prev)
    t->prev->next = t->next;
  else
    srv->tables = t->next;
  if (t->next)
    t->next->prev = t->prev;
  srv->ntables--;
  table_free(t);
}

void tables_free(server *srv) {
  while (srv->tables)
    evict(srv, srv->tables);
}

int table_new_match(table *t, scopa_match **out, char *msg, size_t msgsize) {
  store_seat seats[PROTO_MAX_SEATS];
  for (int i = 0; i < t->nseats; i++)
    seats[i] = t->seat[i].s;
  return game_match(&t->rules, t->seed, seats, t->nseats, out, msg, msgsize);
}

static int open_seats(const table *t) {
  int n = 0;
  for (int i = 0; i < t->nseats; i++)
    n += t->seat[i].s.kind == STORE_OPEN;
  return n;
}

void table_set_status(table *t) {
  if (scopa_match_phase(t->match) == SCOPA_MATCH_OVER)
    t->status = T_FINISHED;
  else
    t->status = open_seats(t) ? T_WAITING : T_PLAYING;
  /* the game's first turn begins (or, loaded before it, begins again) */
  if (t->status == T_PLAYING && t->nmoves == 0 && t->bank_start_ms == 0)
    t->bank_start_ms = wall_ms();
}

int table_turn_ms(const table *t) {
  const scopa_state *s = scopa_match_state(t->match);
  return bank_turn_ms(t->bank, t->nmoves, t->bank_start_ms, s && s->plays == 0,
                      wall_ms());
}

int table_bank_wait_ms(const table *t) {
  const scopa_state *s = scopa_match_state(t->match);
  return bank_wait_ms(t->bank, t->nmoves, t->bank_start_ms, s && s->plays == 0,
                      wall_ms());
}

int table_note_move(table *t, int seat, int first, int64_t at_ms, int took_ms) {
  if (t->nmoves >= t->bank_cap) {
    int cap = t->bank_cap ? t->bank_cap * 2 : 64;
    bank_move *more = realloc(t->bank, (size_t)cap * sizeof *more);
    if (!more)
      return -1;
    t->bank = more;
    t->bank_cap = cap;
  }
  t->bank[t->nmoves] = (bank_move){.at_ms = at_ms,
                                   .took_ms = took_ms,
                                   .seat = (signed char)seat,
                                   .first = !!first};
  return 0;
}

/* Replays the stored moves on a new match; the deals follow from the
 * seed.  -1 if the stored game does not replay (then it stays stored).
 * game.c's replay, one move at a time, so that the bank notes each
 * one's seat and round. */
static int replay_moves(table *t, const store_game *g, char *msg, size_t n) {
  char why[200];
  for (int i = 0; i < g->nmoves; i++) {
    if (scopa_match_phase(t->match) == SCOPA_MATCH_DEAL)
      scopa_match_deal(t->match, NULL);
    const scopa_state *s = scopa_match_state(t->match);
    if (table_note_move(t, scopa_match_to_play(t->match), s && s->plays == 0,
                        g->move_at ? g->move_at[i] : 0,
                        g->move_took ? g->move_took[i] : 0)) {
      snprintf(msg, n, "out of memory");
      return -1;
    }
    if (scopa_match_apply(t->match, g->moves[i], NULL, why, sizeof why)) {
      snprintf(msg, n, "stored move %d does not replay: %s", i, why);
      return -1;
    }
    t->nmoves = i + 1;
  }
  if (scopa_match_phase(t->match) == SCOPA_MATCH_DEAL)
    scopa_match_deal(t->match, NULL);
  t->nmoves = g->nmoves;
  return 0;
}

table *table_alloc(server *srv) {
  table *t = calloc(1, sizeof *t);
  if (t) {
    t->id = ++srv->next_table_id;
    t->job_number = -1;
    t->turn_since_ms = t->empty_since_ms = now_ms();
  }
  return t;
}

void table_seat_defaults(server *srv, seat_info *si) {
  si->away_since_ms = now_ms();
  if (si->s.kind == STORE_BOT &&
      scopa_bot_level(si->s.bot, NULL, &si->think_ms) != SCOPA_OK)
    si->think_ms = srv->conf.bot_ms;
}

/* A table from the store, or NULL with *fault the error code to answer:
 * "no_table" when there is none, "table_damaged" when it is stored but
 * cannot be loaded (a row SQLite cannot read, a move missing or against
 * the rules: never passed off as unknown; logged), "server" without
 * memory or, in a cluster, when another node holds its lease (relay.h).
 * The table is this node's, registered, with its lease (taken before
 * the load, so that no other node writes after it; on a cluster the
 * courier took it and read the table, relay_loaded). */
static table *load(server *srv, const char *code, const char **fault) {
  store_game g;
  char msg[256] = "";
  table *t = NULL;
  long long epoch = 0;
  if (relay_claim(srv, code, &epoch) != 0) {
    *fault = "server";
    return NULL;
  }
  int rc = relay_loaded(srv, code, &g, msg, sizeof msg);
  if (rc == -2) /* SQLite; or no claim asked: read here */
    rc = store_load(srv->st, code, &g, msg, sizeof msg);
  *fault = rc == 1 ? "no_table" : "table_damaged";
  if (rc != 0)
    goto fail;
  if (!(t = table_alloc(srv))) {
    *fault = "server";
    snprintf(msg, sizeof msg, "out of memory");
    goto fail;
  }
  snprintf(t->code, sizeof t->code, "%s", g.code);
  snprintf(t->seed, sizeof t->seed, "%s", g.seed);
  snprintf(t->tourney, sizeof t->tourney, "%s", g.tourney);
  t->unrated = tfind(t->code, &srv->unrated_root, by_text) != NULL;
  scopa_seed_sha256(t->seed, t->seed_sha256);
  t->rules_json = g.rules_json;
  g.rules_json = NULL;
  t->away_s = g.away_s;
  t->clock_s = g.clock_s;
  t->bank_s = g.bank_s;
  t->inc_s = g.inc_s;
  t->talk_on = g.talk_on;
  t->talk = g.talk; /* what was said: the table's now */
  t->ntalk = t->talk_cap = g.ntalk;
  g.talk = NULL;
  g.ntalk = 0;
  t->rated = g.finished;
  t->epoch = epoch;
  t->nseats = g.nseats;
  for (int i = 0; i < g.nseats; i++) {
    t->seat[i].s = g.seat[i];
    table_seat_defaults(srv, &t->seat[i]);
  }
  if (scopa_rules_from_json(&t->rules, t->rules_json, strlen(t->rules_json),
                            NULL, msg, sizeof msg) != SCOPA_OK ||
      table_new_match(t, &t->match, msg, sizeof msg) ||
      replay_moves(t, &g, msg, sizeof msg)) {
    table_free(t);
    goto fail;
  }
  table_set_status(t);
  store_game_free(&g);
  if (table_insert(srv, t)) {
    table_free(t);
    *fault = "server";
    return NULL;
  }
  return t;
fail:
  if (rc != 1) { /* what was sent and stored, made safe for the log */
    char safe[300], safe_code[4 * PROTO_CODE_MAX + 1];
    scopa_text_safe(safe, sizeof safe, msg, strlen(msg), 0);
    scopa_text_safe(safe_code, sizeof safe_code, code, strlen(code), 0);
    lwsl_err("table %s cannot be loaded (%s): %s\n", safe_code, *fault, safe);
  }
  store_game_free(&g);
  return NULL;
}

table *table_find(server *srv, const char *code) {
  return find_loaded(srv, code);
}

table *table_get(server *srv, const char *code, const char **fault) {
  char norm[PROTO_CODE_MAX + 1];
  normalize_code(code, norm);
  table *t = find_loaded(srv, norm);
  return t ? t : load(srv, norm, fault);
}

/* Takes c off its table's list, telling nobody. */
void table_unlink_conn(conn *c) {
  table *t = c->table;
  if (c->tprev)
    c->tprev->tnext = c->tnext;
  else
    t->conns = c->tnext;
  if (c->tnext)
    c->tnext->tprev = c->tprev;
  t->nconns--;
  c->table = NULL;
  c->tnext = c->tprev = NULL;
}

/* ------------------------------------------------------------------ */
/* Who is here                                                         */
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
         (si->taken_over && (table_someone_here(t, i) || t->tourney[0]));
}

/* Every seat's bank now, ms (bank.h); 0 on a table without one. */
int table_banks(const table *t, int64_t *left_ms) {
  if (t->bank_s <= 0)
    return 0;
  int to_play = t->status == T_PLAYING ? scopa_match_to_play(t->match) : -1;
  const scopa_state *s = scopa_match_state(t->match);
  bank_left(t->bank_s, t->inc_s, t->nseats, t->bank, t->nmoves,
            t->bank_start_ms, to_play, s && s->plays == 0, wall_ms(), left_ms);
  return 1;
}

/* Like a bot for an away seat, the clock runs only while someone is at
 * the table (a table everybody left waits for them), and only for a
 * person whose move no bot is making.
 * On the time bank, it is the seat to play's bank (which runs whoever is
 * here, bank.h; its end is acted on only while someone is). */
int table_clock_left(const table *t, int64_t now) {
  if (t->status != T_PLAYING || (t->clock_s <= 0 && t->bank_s <= 0) ||
      (!table_someone_here(t, -1) && !t->tourney[0]))
    return -1;
  int seat = scopa_match_to_play(t->match);
  if (seat < 0 || t->seat[seat].s.kind != STORE_PERSON ||
      table_bot_may_play(t, seat))
    return -1;
  int64_t banks[PROTO_MAX_SEATS];
  int64_t left_ms = table_banks(t, banks)
                        ? banks[seat]
                        : (int64_t)t->clock_s * 1000 - (now - t->turn_since_ms);
  return left_ms > 0 ? (int)((left_ms + 999) / 1000) : 0;
}

/* ------------------------------------------------------------------ */
/* The sweep                                                           */
/* ------------------------------------------------------------------ */

/* Nobody here, nothing out, everything stored: it may leave memory. */
static int evictable(const server *srv, const table *t) {
  return t->nconns == 0 && t->job_number < 0 && !t->review_pending &&
         t->last_batch <= srv->committed &&
         (!t->tourney[0] || t->status == T_FINISHED);
}

void table_forget_account(server *srv, long long account, const char *anon) {
  table *next;
  for (table *t = srv->tables; t; t = next) {
    int mine = 0;
    next = t->next;
    for (int i = 0; i < t->nseats; i++)
      if (t->seat[i].s.account == account) {
        mine = 1;
        snprintf(t->seat[i].s.name, sizeof t->seat[i].s.name, "%s", anon);
      }
    if (mine && evictable(srv, t))
      evict(srv, t); /* loaded again, its match named as stored */
  }
}

void table_sweep(server *srv, int64_t now) {
  table *next;
  for (table *t = srv->tables; t; t = next) {
    next = t->next;
    if (evictable(srv, t) &&
        (t->status == T_FINISHED
             ? now - t->empty_since_ms > 5000
             : now - t->empty_since_ms > (int64_t)srv->conf.idle_s * 1000))
      evict(srv, t);
  }
}

/* ------------------------------------------------------------------ */
/* The record                                                          */
/* ------------------------------------------------------------------ */

/* 404 unknown, 500 damaged (table_damaged), 403 while in play and until
 * its last move is stored, else 200 and the record. */
char *table_record(server *srv, const char *code, int *status) {
  const char *fault = "no_table";
  table *t = table_get(srv, code, &fault);
  proto_error e;
  char *answer;
  if (!t) {
    *status = strcmp(fault, "no_table") == 0 ? 404 : 500;
    proto_error_set(&e, fault, code, code);
    return proto_error_json(NULL, &e);
  }
  if (t->status != T_FINISHED || t->last_batch > srv->committed) {
    *status = 403;
    proto_error_set(&e, "in_progress", t->code, t->code);
    answer = proto_error_json(NULL, &e);
  } else {
    *status = 200;
    answer = scopa_match_record_json(t->match, SCOPA_RECORD_FULL);
  }
  return answer;
}

/* ------------------------------------------------------------------ */
/* A lost lease                                                        */
/* ------------------------------------------------------------------ */

/* Another node owns t now (relay.h): nothing held for it goes out, its
 * connections hear why and close (their clients connect again, to
 * whichever node, and resume from what is stored), and it leaves memory
 * (its writes still queued fail on the lease's epoch: table_store_failed
 * finds no table of that id any more). */
void table_lost(server *srv, table *t) {
  lwsl_warn("table %s: its lease was lost; it leaves this node\n", t->code);
  for (conn *c = srv->all; c; c = c->anext) {
    conn_drop_held(c, t->id);
    if (c->table != t)
      continue;
    table_unlink_conn(c);
    c->seat = -1;
    conn_error(c, NULL, "server", "another server took this table over",
               "un altro server ha preso il tavolo");
    conn_close_soon(c);
  }
  t->epoch = 0; /* not ours to release */
  evict(srv, t);
}

/* ------------------------------------------------------------------ */
/* A failed write                                                      */
/* ------------------------------------------------------------------ */

/* The writer could not store a write of table f->table: nothing held for
 * it goes out (conn_drop_held), every connection that was there or was
 * waiting for it hears why (store_failed), and the table leaves memory,
 * so that the next join, resume or watch loads what is really stored.
 * Other tables go on. */
void table_store_failed(server *srv, const writer_failure *f) {
  table *t = find_loaded(srv, f->code);
  char en[160], it[160];
  if (t && t->id != f->table)
    t = NULL; /* a later load of the same code: not the one that failed */
  snprintf(en, sizeof en, "%s (%s)", f->code, f->why_en);
  snprintf(it, sizeof it, "%s (%s)", f->code, f->why_it);
  for (conn *c = srv->all; c; c = c->anext) {
    int dropped = conn_drop_held(c, f->table);
    int here = t && c->table == t;
    if (here) {
      table_unlink_conn(c);
      c->seat = -1;
    }
    if (dropped || here)
      conn_error(c, NULL, "store_failed", en, it);
  }
  if (t)
    evict(srv, t);
  writer_forget(srv->w, f->table);
}
