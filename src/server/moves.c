/*
 * moves.c -- moves at a table, whoever makes them: a person's `move`, a
 * bot's answer from the pool, a bot playing for an away person or when a
 * move clock runs out.  All of them go through commit_move, which plays
 * the move on the match, stores it in the open batch and queues the
 * announcements behind that batch (server.h, "the barrier"); then the
 * next round is dealt, and at the end of the game the ratings move.
 *
 * A move is accepted only for the seat to play, at the ply the sender has
 * seen, and only if the rules allow it: a duplicate or a late copy finds
 * a different ply and changes nothing.
 */
#include "moves.h"
#include "rating.h"
#include "relay.h"
#include "views.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int round_ply(const table *t) {
  const scopa_state *s = scopa_match_state(t->match);
  return s ? s->plays : 0;
}

/* ------------------------------------------------------------------ */
/* Moves                                                               */
/* ------------------------------------------------------------------ */

static void end_of_round(server *srv, table *t, const scopa_event *ev) {
  char *text = proto_round_over(t->code, ev);
  table_send_all(t, text);
  free(text);
  if (ev->game_over) {
    t->status = T_FINISHED;
    writer_finish(srv->w, t->id, t->code, table_abandoned(t), srv->node,
                  t->epoch);
    rating_game_over(srv, t, ev->winner);
    text = proto_game_over(t->code, ev, t->seed, t->seed_sha256);
    table_send_all(t, text);
    free(text);
    return;
  }
  scopa_match_deal(t->match, NULL);
  table_broadcast(t, NULL, NULL);
}

/* Plays, stores and announces a move of the seat to play.  Returns
 * SCOPA_OK or the match's error (then nothing changed). */
static int commit_move(server *srv, table *t, scopa_move move, conn *from,
                       const json_t *id, char *msg, size_t msgsize) {
  scopa_event ev;
  if (relay_cut_off(srv)) { /* it might not be this node's table any more */
    snprintf(msg, msgsize, "the database cannot be reached");
    return SCOPA_EINVAL;
  }
  /* the bank's note first (its memory), the move then stored with it */
  int64_t at = wall_ms();
  int took = table_turn_ms(t);
  if (table_note_move(t, scopa_match_to_play(t->match), round_ply(t) == 0, at,
                      took)) {
    snprintf(msg, msgsize, "out of memory");
    return SCOPA_EINVAL;
  }
  int rc = scopa_match_apply(t->match, move, &ev, msg, msgsize);
  if (rc != SCOPA_OK)
    return rc;
  t->last_batch = server_batch(srv);
  /* a cluster: only while the lease is this node's (epoch above 0) */
  writer_add_move(srv->w, t->id, t->code, t->nmoves++, move, at, took,
                  srv->node, t->epoch);
  srv->moves++;
  t->turn_since_ms = now_ms();
  if (ev.game_over) /* the state after the last move says so (CONTRACTS) */
    t->status = T_FINISHED;
  table_broadcast(t, from, id);
  if (ev.round_over)
    end_of_round(srv, t, &ev);
  play_kick(srv, t);
  return SCOPA_OK;
}

static int refuse(conn *c, const proto_msg *msg, const char *code,
                  const char *detail, const char *detail_it) {
  conn_error(c, msg->id, code, detail, detail_it);
  return 0;
}

/* A refusal the local table gives too (proto.h's checks). */
static int refuse_with(conn *c, const proto_msg *msg, const proto_error *err) {
  conn_send_owned(c, proto_error_json(msg->id, err));
  return 0;
}

/* Out of memory for a hint or a review. */
static int no_memory(conn *c, const proto_msg *msg) {
  proto_error err;
  proto_no_memory(&err, msg->type);
  return refuse_with(c, msg, &err);
}

int play_move(conn *c, const proto_msg *msg) {
  table *t = c->table;
  char detail[300];
  scopa_move move;
  proto_error err;
  if (!t || c->seat < 0)
    return refuse(c, msg, "not_seated", "", "");
  if (relay_cut_off(c->srv)) /* no move while the database is away */
    return refuse(c, msg, "store_failed", "the database cannot be reached",
                  "il database non è raggiungibile");
  if (proto_move_check(msg, t->match, c->seat, t->status == T_WAITING, &move,
                       &err)) {
    conn_send_owned(c, proto_error_json(msg->id, &err));
    return 0;
  }
  if (commit_move(c->srv, t, move, c, msg->id, detail, sizeof detail))
    return refuse(c, msg, "illegal", detail, NULL);
  return 1;
}

/* A level's time, or the server's for a bot named directly. */
static int think_ms(const server *srv, const char *name) {
  int ms = 0;
  if (scopa_bot_level(name, NULL, &ms) != SCOPA_OK || ms == 0)
    ms = srv->conf.bot_ms;
  return ms;
}

/* The job for the seat to play, from its view only; id may be NULL.
 * Returns bots_submit's answer. */
static int submit(server *srv, table *t, int seat, int kind, const char *bot,
                  int ms, const json_t *id) {
  bot_job job;
  memset(&job, 0, sizeof job);
  job.table = t->id;
  snprintf(job.code, sizeof job.code, "%s", t->code);
  job.number = t->nmoves;
  job.seat = seat;
  job.kind = kind;
  char *id_text = id ? json_dumps(id, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
  if (id_text && strlen(id_text) < sizeof job.id) /* else not echoed */
    memcpy(job.id, id_text, strlen(id_text) + 1);
  free(id_text);
  snprintf(job.bot, sizeof job.bot, "%s", bot);
  job.movetime_ms = ms;
  /* The budget runs from now: a job that waited behind others thinks
   * less rather than making its table wait longer.  A hint works by nodes
   * (bots.c), with a wall-clock safety net. */
  int64_t wall_ms = kind == BOTJOB_HINT ? SCOPA_HINT_DEADLINE_MS
                    : ms > 0            ? ms
                                        : 1000;
  job.deadline_ns = scopa_clock_ns() + wall_ms * 1000000;
  /* A hint's seed is the library's (the terminal's too): the same
   * position of the same game gets the same hint everywhere. */
  job.seed = kind == BOTJOB_HINT ? scopa_match_hint_seed(t->match)
                                 : scopa_match_bot_seed(t->match);
  scopa_match_view(t->match, seat, &job.view);
  /* A hint is the library's hint at a table (scopa_match_hint), made by
   * the worker on a copy of the game. */
  if (kind == BOTJOB_HINT && scopa_match_copy(t->match, &job.match) != SCOPA_OK)
    return -1;
  int rc = bots_submit(srv->bots, &job);
  if (rc != 0)
    scopa_match_free(job.match);
  if (rc == 0 && kind != BOTJOB_HINT)
    t->job_number = t->nmoves;
  return rc;
}

void play_kick(server *srv, table *t) {
  if (t->status != T_PLAYING || t->job_number == t->nmoves)
    return;
  int seat = scopa_match_to_play(t->match);
  if (seat < 0 || !table_bot_may_play(t, seat))
    return;
  const seat_info *si = &t->seat[seat];
  if (si->s.kind == STORE_BOT)
    submit(srv, t, seat, BOTJOB_PLAY, si->s.bot, si->think_ms, NULL);
  else
    submit(srv, t, seat, BOTJOB_PLAY, srv->conf.away_bot,
           think_ms(srv, srv->conf.away_bot), NULL);
}

/* The best level plays a move the clock took: a person's move is played
 * as well as the server can, never as a random card. */
static const char *best_level(const server *srv) {
  const char *name, *english, *bot, *last = srv->conf.away_bot;
  int ms;
  for (int i = 0;
       scopa_bot_level_get(i, &name, &english, &bot, &ms) == SCOPA_OK; i++)
    last = name;
  return last;
}

/* At most one job per move (job_number): the clock never plays twice for
 * one turn, and a move from the person that comes first makes the bot's
 * answer stale (table_bot_done). */
static void play_clock(server *srv, table *t, int64_t now) {
  if (table_clock_left(t, now) != 0 || t->job_number == t->nmoves)
    return;
  int seat = scopa_match_to_play(t->match);
  const char *bot = best_level(srv);
  submit(srv, t, seat, BOTJOB_CLOCK, bot, think_ms(srv, bot), NULL);
}

/* A person away past the table's timeout: a bot plays for the seat. */
static void take_over(server *srv, table *t, int64_t now) {
  for (int i = 0; i < t->nseats; i++) {
    seat_info *si = &t->seat[i];
    if (si->s.kind != STORE_PERSON || si->nconns > 0 || si->taken_over ||
        t->status != T_PLAYING ||
        now - si->away_since_ms < (int64_t)t->away_s * 1000 ||
        (!table_someone_here(t, i) && !t->tourney[0]))
      continue;
    si->taken_over = 1;
    char *note = proto_notice("bot_takes_seat", i, si->s.name);
    table_send_all(t, note);
    free(note);
    table_broadcast(t, NULL, NULL);
    play_kick(srv, t);
  }
}

void play_sweep(server *srv, int64_t now) {
  for (table *t = srv->tables; t; t = t->next) {
    take_over(srv, t, now);
    play_clock(srv, t, now);
  }
}

/* ------------------------------------------------------------------ */
/* Hints: one job per seat and move                                    */
/* ------------------------------------------------------------------ */

/* The seat's hint state, made current for the move to play. */
static seat_info *hint_state(table *t, int seat) {
  seat_info *si = &t->seat[seat];
  if (si->hint_for != t->nmoves + 1) {
    free(si->hint_text);
    si->hint_text = NULL;
    si->hint_out = 0;
    si->nhint_ids = 0;
    si->hint_for = t->nmoves + 1;
  }
  return si;
}

/* The answer (hint_text) to c, with the id given as JSON text. */
static int send_hint_to(conn *c, const char *text, const char *id_text) {
  json_t *o = json_loads(text, 0, NULL);
  json_t *id = id_text[0] ? json_loads(id_text, JSON_DECODE_ANY, NULL) : NULL;
  proto_add_words(o, c->lang, c->deck);
  conn_send_owned(c, proto_finish(o, id));
  json_decref(id);
  return 0;
}

/* A hint costs the asking seat at most one bot job per move: a second
 * request while it thinks waits for the same answer, a request after it
 * came is answered from it.  Past HINT_WAITERS requests in flight, and
 * when the pool's queue of hints is full, the request is refused: hints
 * never hold up any table's moves (bots.c). */
int play_hint(conn *c, const proto_msg *msg) {
  table *t = c->table;
  proto_error err;
  if (t && c->seat >= 0 && !table_hints_allowed(t))
    return conn_error(c, msg->id, "no_hints", "", "");
  if (proto_hint_check(t ? t->match : NULL, c->seat,
                       t && t->status == T_PLAYING, &err))
    return refuse_with(c, msg, &err);
  seat_info *si = hint_state(t, c->seat);
  char *id_text =
      msg->id ? json_dumps(msg->id, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
  char id[sizeof si->hint_ids[0]] = "";
  if (id_text && strlen(id_text) < sizeof id) /* else not echoed */
    memcpy(id, id_text, strlen(id_text) + 1);
  free(id_text);
  if (si->hint_text)
    return send_hint_to(c, si->hint_text, id);
  if (si->nhint_ids == HINT_WAITERS)
    return conn_error(c, msg->id, "too_fast", "a hint is on its way",
                      "un consiglio sta arrivando");
  if (!si->hint_out) {
    int rc = submit(c->srv, t, c->seat, BOTJOB_HINT, HINT_BOT,
                    c->srv->conf.hint_ms, NULL);
    if (rc != 0)
      return rc == BOTS_BUSY
                 ? conn_error(c, msg->id, "busy", "hints", "consigli")
                 : no_memory(c, msg);
    si->hint_out = 1;
    c->srv->hint_jobs++;
  }
  memcpy(si->hint_ids[si->nhint_ids++], id, sizeof id);
  return 0;
}

/* The review of a finished game: made once on a bot worker (a node budget
 * per move, so it is the same on any machine), then kept with the table
 * and sent to every connection there. */
static int send_review(table *t, const json_t *id) {
  char *text = proto_review(t->code, t->review, id);
  if (!text)
    return 0;
  for (conn *c = t->conns; c; c = c->tnext) /* in each one's words */
    conn_send_owned(c, proto_words(text, NULL, c->lang, c->deck));
  free(text);
  return 0;
}

int play_review(conn *c, const proto_msg *msg) {
  table *t = c->table;
  proto_error err;
  if (proto_review_check(msg, t ? t->code : NULL, t && t->status == T_FINISHED,
                         &err))
    return refuse_with(c, msg, &err);
  if (t->review)
    return send_review(t, msg->id);
  if (t->review_pending)
    return 0;
  bot_job job;
  memset(&job, 0, sizeof job);
  job.table = t->id;
  snprintf(job.code, sizeof job.code, "%s", t->code);
  job.kind = BOTJOB_REVIEW;
  snprintf(job.bot, sizeof job.bot, "%s", HINT_BOT);
  job.movetime_ms = c->srv->conf.hint_ms; /* as nodes, as a hint's */
  char *id_text =
      msg->id ? json_dumps(msg->id, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
  if (id_text && strlen(id_text) < sizeof job.id)
    memcpy(job.id, id_text, strlen(id_text) + 1);
  free(id_text);
  if (scopa_match_copy(t->match, &job.match) != SCOPA_OK)
    return no_memory(c, msg);
  int rc = bots_submit(c->srv->bots, &job);
  if (rc != 0) {
    scopa_match_free(job.match);
    return rc == BOTS_BUSY ? refuse(c, msg, "busy", "reviews", "revisioni")
                           : no_memory(c, msg);
  }
  t->review_pending = 1;
  return 0;
}

static void review_done(server *srv, const bot_job *job) {
  table *t = table_find(srv, job->code);
  if (!t || t->id != job->table) {
    free(job->result);
    return;
  }
  t->review_pending = 0;
  if (!job->result)
    return;
  free(t->review);
  t->review = job->result;
  json_t *id = job->id[0] ? json_loads(job->id, JSON_DECODE_ANY, NULL) : NULL;
  send_review(t, id);
  json_decref(id);
}

/* The answer of a seat's hint job: kept for the rest of the move, and
 * sent to the seat's connections once for each request waiting. */
static void hint_done(table *t, const bot_job *job) {
  seat_info *si = hint_state(t, job->seat);
  si->hint_out = 0;
  si->hint_text = proto_hint(t->code, round_ply(t), &job->view, job->hints,
                             job->nvalues, NULL);
  for (int k = 0; si->hint_text && k < si->nhint_ids; k++)
    for (conn *c = t->conns; c; c = c->tnext)
      if (c->seat == job->seat) /* the asking seat only */
        send_hint_to(c, si->hint_text, si->hint_ids[k]);
  si->nhint_ids = 0;
}

/* The first legal move: what is played if a bot fails (it should not). */
static scopa_move fallback(const table *t) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int n =
      scopa_state_legal(scopa_match_state(t->match), moves, SCOPA_MAX_MOVES);
  return n > 0 ? moves[0] : 0;
}

void table_bot_done(server *srv, const bot_job *job) {
  if (job->kind == BOTJOB_REVIEW)
    return review_done(srv, job);
  table *t = table_find(srv, job->code);
  if (t && t->id != job->table)
    return; /* the table was reloaded since: the answer is stale */
  if (!t || job->number != t->nmoves || t->status != T_PLAYING ||
      scopa_match_to_play(t->match) != job->seat) {
    if (t && job->kind != BOTJOB_HINT && t->job_number == job->number)
      t->job_number = -1;
    if (t && job->kind == BOTJOB_HINT)
      hint_state(t, job->seat); /* a move passed: its requests lapse */
    return;
  }
  if (job->kind == BOTJOB_HINT)
    return hint_done(t, job);
  t->job_number = -1;
  int seat = job->seat;
  if (job->kind == BOTJOB_PLAY && !table_bot_may_play(t, seat)) {
    play_kick(srv, t); /* the person came back first */
    return;
  }
  char msg[300];
  scopa_move move = job->rc == SCOPA_OK ? job->move : fallback(t);
  if (job->kind == BOTJOB_CLOCK) {
    char *note = proto_notice("clock_bot", seat, t->seat[seat].s.name);
    table_send_all(t, note);
    free(note);
  }
  if (commit_move(srv, t, move, NULL, NULL, msg, sizeof msg) != SCOPA_OK)
    lwsl_err("table %s: the bot's move was refused: %s\n", t->code, msg);
}
