/*
 * local.c -- the table in the browser (local.h): one person, bots, the
 * library's scopa_match, and the server's messages from the server's own
 * writers and checks (src/proto/proto.c).  What must stay true:
 *
 *   - every message it sends is one the server would send to the
 *     person's connection in the same position (the fields a local table
 *     has no use for keep their server meaning: "open" all false,
 *     "away_for" and "away_seconds" null, "presence" "here" or "bot");
 *   - every move, the person's or a bot's, goes through commit(): played
 *     on the match, then announced, the next round dealt;
 *   - a bot sees only its seat's view (scopa_match_view) and thinks by a
 *     node budget, never the clock, so its move is the same on any
 *     machine and in WebAssembly as natively.
 */
#include "local.h"

#include "../proto/proto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Distinct bots a table may need: one per seat, and the hint bot. */
#define LOCAL_BOTS (PROTO_MAX_SEATS + 1)

struct scopa_local {
  scopa_match *match; /* NULL before a create                           */
  int me;             /* the person's seat                              */
  char seed_sha256[65];
  char *review; /* made once the game is over, then kept              */
  int nbots;
  scopa_bot *bot[LOCAL_BOTS]; /* by name, made when first needed       */
  char lang[3], deck[16];     /* the sentences' words (proto_add_words)     */
};

/* ------------------------------------------------------------------ */
/* The messages of one answer: a JSON array, built as text             */
/* ------------------------------------------------------------------ */

typedef struct outbox {
  char *buf;
  size_t len, cap;
  int failed; /* out of memory: the answer is NULL */
} outbox;

static void out_text(outbox *o, const char *text, size_t n) {
  if (o->len + n + 2 > o->cap) {
    size_t cap = (o->len + n + 2) * 2;
    char *p = realloc(o->buf, cap);
    if (!p) {
      o->failed = 1;
      return;
    }
    o->buf = p;
    o->cap = cap;
  }
  memcpy(o->buf + o->len, text, n);
  o->len += n;
  o->buf[o->len] = 0;
}

/* Adds one message (owned: freed here); NULL means out of memory. */
static void out_add(outbox *o, char *message) {
  if (!message) {
    o->failed = 1;
    return;
  }
  out_text(o, o->len > 1 ? "," : "", o->len > 1);
  out_text(o, message, strlen(message));
  free(message);
}

static void out_error(outbox *o, const json_t *id, const proto_error *err) {
  out_add(o, proto_error_json(id, err));
}

static void out_refuse(outbox *o, const json_t *id, const char *code,
                       const char *detail, const char *detail_it) {
  proto_error err;
  proto_error_set(&err, code, detail, detail_it);
  out_error(o, id, &err);
}

static void out_no_memory(outbox *o, const proto_msg *msg) {
  proto_error err;
  proto_no_memory(&err, msg->type);
  out_error(o, msg->id, &err);
}

static char *out_finish(outbox *o) {
  out_text(o, "]", 1);
  if (o->failed) {
    free(o->buf);
    return NULL;
  }
  return o->buf;
}

/* ------------------------------------------------------------------ */
/* Bots and their budgets                                              */
/* ------------------------------------------------------------------ */

/* The bot called `name` (a bot's name, not a level's), made once. */
static scopa_bot *bot_for(scopa_local *l, const char *name) {
  for (int i = 0; i < l->nbots; i++)
    if (strcmp(scopa_bot_name(l->bot[i]), name) == 0)
      return l->bot[i];
  scopa_bot *bot = NULL;
  if (l->nbots == LOCAL_BOTS || scopa_bot_new(name, &bot) != SCOPA_OK)
    return NULL;
  l->bot[l->nbots++] = bot;
  return bot;
}

/* A seat's or a level's node budget, as the server's time for it: the
 * level's time, SCOPA_LOCAL_BOT_MS for a bot named directly, the bot's
 * own default where a level says 0. */
static uint64_t budget(const scopa_bot *bot, const char *level) {
  int ms = SCOPA_LOCAL_BOT_MS;
  if (level && scopa_bot_level(level, NULL, &ms) != SCOPA_OK)
    ms = SCOPA_LOCAL_BOT_MS;
  if (ms == 0)
    ms = scopa_bot_movetime(bot);
  return (uint64_t)ms * SCOPA_BOT_NODES_PER_MS;
}

static scopa_bot_limits limits_for(const scopa_local *l, uint64_t nodes) {
  scopa_bot_limits limits = {
      .seed = scopa_match_bot_seed(l->match), .threads = 1, .nodes = nodes};
  return limits;
}

/* ------------------------------------------------------------------ */
/* State                                                               */
/* ------------------------------------------------------------------ */

static int game_over(const scopa_local *l) {
  return scopa_match_phase(l->match) == SCOPA_MATCH_OVER;
}

/* The server's seat fields (views.c add_seats) for a table of one person
 * who is here and bots. */
static void add_seats(json_t *o, const scopa_local *l) {
  json_t *names = json_array(), *presence = json_array(), *open = json_array(),
         *away_for = json_array(), *left = json_array();
  int n = scopa_match_rules(l->match)->players;
  for (int i = 0; i < n; i++) {
    scopa_seat s;
    size_t len;
    scopa_match_seat(l->match, i, &s, &len);
    json_array_append_new(names, json_stringn(s.name ? s.name : "", len));
    json_array_append_new(presence, json_string(i == l->me ? "here" : "bot"));
    json_array_append_new(open, json_false());
    json_array_append_new(away_for, json_null());
    json_array_append_new(left, json_null());
  }
  json_object_set_new(o, "seats", names);
  json_object_set_new(o, "presence", presence);
  json_object_set_new(o, "open", open);
  json_object_set_new(o, "away_for", away_for);
  json_object_set_new(o, "away_seconds", left);
}

static char *state_text(const scopa_local *l, const json_t *id) {
  int over = game_over(l);
  json_t *o = proto_state(l->match, SCOPA_LOCAL_CODE, l->me,
                          over ? -1 : scopa_match_to_play(l->match));
  if (!o)
    return NULL;
  json_object_set_new(o, "status", json_string(over ? "finished" : "playing"));
  add_seats(o, l);
  json_object_set_new(o, "seed_sha256", json_string(l->seed_sha256));
  json_object_set_new(o, "hints", json_true()); /* bots sit at the table */
  proto_add_words(o, l->lang, l->deck);
  return proto_finish(o, id);
}

/* ------------------------------------------------------------------ */
/* Moves: every one through commit                                     */
/* ------------------------------------------------------------------ */

static void commit(scopa_local *l, scopa_move move, const json_t *id,
                   outbox *o) {
  scopa_event ev;
  char msg[300];
  if (scopa_match_apply(l->match, move, &ev, msg, sizeof msg) != SCOPA_OK)
    return out_refuse(o, id, "illegal", msg, NULL);
  out_add(o, state_text(l, id));
  if (!ev.round_over)
    return;
  out_add(o, proto_round_over(SCOPA_LOCAL_CODE, &ev));
  if (ev.game_over) {
    out_add(o, proto_game_over(SCOPA_LOCAL_CODE, &ev,
                               scopa_match_seed(l->match), l->seed_sha256));
    return;
  }
  scopa_match_deal(l->match, NULL);
  out_add(o, state_text(l, NULL));
}

/* The first legal move: what is played if a bot fails (it should not). */
static scopa_move fallback(const scopa_local *l) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int n =
      scopa_state_legal(scopa_match_state(l->match), moves, SCOPA_MAX_MOVES);
  return n > 0 ? moves[0] : 0;
}

char *scopa_local_step(scopa_local *l) {
  outbox o = {0};
  out_text(&o, "[", 1);
  int seat = l->match && !game_over(l) ? scopa_match_to_play(l->match) : -1;
  if (seat >= 0 && seat != l->me) {
    scopa_seat s;
    scopa_match_seat(l->match, seat, &s, NULL);
    scopa_bot *bot = bot_for(l, s.bot);
    scopa_view view;
    scopa_move move = 0;
    scopa_match_view(l->match, seat, &view);
    scopa_bot_limits limits = limits_for(l, bot ? budget(bot, s.level) : 0);
    if (!bot || scopa_bot_choose(bot, &view, &limits, &move) != SCOPA_OK)
      move = fallback(l);
    commit(l, move, NULL, &o);
  }
  return out_finish(&o);
}

/* ------------------------------------------------------------------ */
/* The client's messages                                               */
/* ------------------------------------------------------------------ */

/* The "seed" of a create (a local-table extension): 0 with seed[0] = 0
 * when absent, -1 with *err when it is not a seed. */
static int seed_of(const char *text, size_t len, char seed[SCOPA_SEED_TEXT],
                   proto_error *err) {
  char msg[120];
  json_t *obj = json_loadb(text, len, 0, NULL); /* proto_parse read it */
  json_t *v = json_object_get(obj, "seed");
  const char *s = json_string_value(v);
  int rc = 0;
  seed[0] = 0;
  if (v && (!s || scopa_seed_check(s, msg, sizeof msg) != SCOPA_OK)) {
    proto_error_set(err, "bad_message",
                    "\"seed\" is 1 to 64 lowercase hexadecimal digits",
                    "\"seed\" è fatto di 1 a 64 cifre esadecimali minuscole");
    rc = -1;
  } else if (s) {
    memcpy(seed, s, strlen(s) + 1);
  }
  json_decref(obj);
  return rc;
}

/* The seats of a create for the match: the person, bots and levels. */
static int seats_of(const proto_msg *msg, const char *lang, scopa_seat *seats,
                    char *me_name, proto_error *err) {
  for (int i = 0; i < msg->nseats; i++) {
    const char *s = msg->seats[i], *bot = s;
    memset(&seats[i], 0, sizeof seats[i]);
    if (strcmp(s, "open") == 0) {
      proto_error_set(err, "bad_seats",
                      "a game in the browser has no open seats: play with "
                      "friends on a server",
                      "una partita nel browser non ha posti liberi: con gli "
                      "amici si gioca su un server");
      return -1;
    }
    if (strcmp(s, "me") == 0) {
      if (msg->name[0])
        snprintf(me_name, PROTO_NAME_MAX + 1, "%s", msg->name);
      else
        proto_default_name(i, lang, me_name, PROTO_NAME_MAX + 1);
      seats[i].name = me_name;
      continue;
    }
    seats[i].kind = SCOPA_SEAT_BOT;
    seats[i].name = s;
    if (scopa_bot_level(s, &bot, NULL) == SCOPA_OK)
      seats[i].level = s;
    seats[i].bot = bot;
  }
  return 0;
}

/* The table's game is now m (owned), the person at seat me: the old game
 * and its review go; seated and the state answer. */
static void sit(scopa_local *l, scopa_match *m, int me, const json_t *id,
                outbox *o) {
  scopa_match_free(l->match);
  free(l->review);
  l->review = NULL;
  l->match = m;
  l->me = me;
  scopa_seed_sha256(scopa_match_seed(m), l->seed_sha256);
  out_add(o, proto_seated(id, SCOPA_LOCAL_CODE, me, "", ""));
  out_add(o, state_text(l, NULL));
}

static void create(scopa_local *l, const proto_msg *msg, const char *text,
                   size_t len, outbox *o) {
  char seed[SCOPA_SEED_TEXT], me_name[PROTO_NAME_MAX + 1], detail[256];
  scopa_seat seats[PROTO_MAX_SEATS];
  scopa_rules rules;
  scopa_match *m = NULL;
  proto_error err;
  int me;
  if (proto_create_check(msg, &me, &rules, &err) ||
      seats_of(msg, l->lang, seats, me_name, &err) ||
      seed_of(text, len, seed, &err))
    return out_error(o, msg->id, &err);
  if (scopa_match_new(&rules, seats, seed[0] ? seed : NULL, &m, detail,
                      sizeof detail) != SCOPA_OK ||
      scopa_match_deal(m, NULL) != SCOPA_OK) {
    scopa_match_free(m);
    return out_refuse(o, msg->id, "server", "no table could be made",
                      "non si è potuto fare il tavolo");
  }
  sit(l, m, me, msg->id, o);
}

static void move(scopa_local *l, const proto_msg *msg, outbox *o) {
  scopa_move mv;
  proto_error err;
  if (!l->match)
    return out_refuse(o, msg->id, "not_seated", "", "");
  if (proto_move_check(msg, l->match, l->me, 0, &mv, &err))
    return out_error(o, msg->id, &err);
  commit(l, mv, msg->id, o);
}

static void hint(scopa_local *l, const proto_msg *msg, outbox *o) {
  scopa_hint hints[8];
  proto_error err;
  if (proto_hint_check(l->match, l->me, l->match && !game_over(l), &err))
    return out_error(o, msg->id, &err);
  scopa_bot *bot = bot_for(l, SCOPA_LOCAL_HINT_BOT);
  if (!bot)
    return out_no_memory(o, msg);
  /* The library's hint at a table (the game's hint seed): the server's
   * and the terminal's for the same position of the same game. */
  scopa_view view;
  scopa_bot_limits limits = {.threads = 1, .movetime_ms = SCOPA_LOCAL_HINT_MS};
  int n = scopa_match_hint(l->match, bot, &limits, hints, 8, &view);
  n = n < 0 ? 0 : n > 8 ? 8 : n;
  char *text =
      proto_hint(SCOPA_LOCAL_CODE, view.plays, &view, hints, n, msg->id);
  out_add(o, proto_words(text, NULL, l->lang, l->deck));
  free(text);
}

static void review(scopa_local *l, const proto_msg *msg, outbox *o) {
  proto_error err;
  if (proto_review_check(msg, l->match ? SCOPA_LOCAL_CODE : NULL,
                         l->match && game_over(l), &err))
    return out_error(o, msg->id, &err);
  scopa_bot *bot = bot_for(l, SCOPA_LOCAL_HINT_BOT);
  if (!l->review && bot)
    l->review = scopa_match_review_json(
        l->match, bot, (uint64_t)SCOPA_LOCAL_HINT_MS * SCOPA_BOT_NODES_PER_MS,
        -1, NULL, 0);
  if (!l->review)
    return out_no_memory(o, msg);
  char *text = proto_review(SCOPA_LOCAL_CODE, l->review, msg->id);
  out_add(o, proto_words(text, NULL, l->lang, l->deck));
  free(text);
}

/* The one person's seat of a restored match, or -1 when it has none or
 * more than one (not a local table's record). */
static int person_of(const scopa_match *m) {
  int me = -1;
  for (int i = 0; i < scopa_match_rules(m)->players; i++) {
    scopa_seat s;
    scopa_match_seat(m, i, &s, NULL);
    if (s.kind == SCOPA_SEAT_BOT)
      continue;
    if (me >= 0)
      return -1;
    me = i;
  }
  return me;
}

/* {"type": "restore", "record": TEXT} (a local-table extension): the game
 * of a full record saved by the page goes on where it stopped, dealing
 * what the straight game would have dealt (scopa_match_from_record keeps
 * the seed, the seats and their levels).  -> seated, state; or
 * table_damaged (the server's code for a stored table it cannot read),
 * and the table keeps its game. */
static void restore(scopa_local *l, const proto_msg *msg, const char *text,
                    size_t len, outbox *o) {
  json_t *obj = json_loadb(text, len, 0, NULL); /* proto_parse read it */
  json_t *rec = json_object_get(obj, "record");
  scopa_match *m = NULL;
  scopa_fault fault;
  int me = -1;
  if (json_is_string(rec) &&
      scopa_match_from_record(json_string_value(rec), json_string_length(rec),
                              &m, &fault) == SCOPA_OK &&
      scopa_match_seed(m)[0])
    me = person_of(m);
  json_decref(obj);
  if (me < 0 || (scopa_match_phase(m) == SCOPA_MATCH_DEAL &&
                 scopa_match_deal(m, NULL) != SCOPA_OK)) {
    scopa_match_free(m);
    /* the server's code for a stored table it cannot read */
    return out_refuse(o, msg->id, "table_damaged", SCOPA_LOCAL_CODE,
                      SCOPA_LOCAL_CODE);
  }
  sit(l, m, me, msg->id, o);
}

/* The message's "type" is "restore" (PROTO_UNKNOWN to the server). */
static int is_restore(const char *text, size_t len) {
  json_t *obj = json_loadb(text, len, 0, NULL);
  const char *type = json_string_value(json_object_get(obj, "type"));
  int yes = type && strcmp(type, "restore") == 0;
  json_decref(obj);
  return yes;
}

static void answer(scopa_local *l, const proto_msg *msg, const char *text,
                   size_t len, outbox *o) {
  switch (msg->type) {
  case PROTO_CREATE:
    return create(l, msg, text, len, o);
  case PROTO_MOVE:
    return move(l, msg, o);
  case PROTO_HINT:
    return hint(l, msg, o);
  case PROTO_REVIEW:
    return review(l, msg, o);
  case PROTO_PING:
    return out_add(o,
                   proto_finish(json_pack("{s:s}", "type", "pong"), msg->id));
  case PROTO_JOIN:
  case PROTO_RESUME:
  case PROTO_WATCH:
    return out_refuse(o, msg->id, "no_table", "(a game in the browser)",
                      "(una partita nel browser)");
  case PROTO_SEEK: /* strangers are met through a server */
  case PROTO_UNSEEK:
  case PROTO_SAY: /* and talked to there */
  case PROTO_REPORT:
  case PROTO_TOURNAMENT_CREATE: /* and tournaments are run there */
  case PROTO_TOURNAMENT_JOIN:
  case PROTO_TOURNAMENT_LEAVE:
  case PROTO_TOURNAMENT_START:
    return out_refuse(o, msg->id, "no_server", "(a game in the browser)",
                      "(una partita nel browser)");
  default: /* unknown types are ignored (CONTRACTS.md) */
    if (is_restore(text, len))
      restore(l, msg, text, len, o);
    return;
  }
}

char *scopa_local_send(scopa_local *l, const char *text, size_t len) {
  outbox o = {0};
  proto_msg msg;
  proto_error err;
  out_text(&o, "[", 1);
  if (proto_parse(text, len, &msg, &err) != 0)
    out_error(&o, msg.id, &err);
  else {
    int new_words = (msg.lang[0] && strcmp(msg.lang, l->lang)) ||
                    (msg.deck[0] && strcmp(msg.deck, l->deck));
    if (msg.lang[0])
      memcpy(l->lang, msg.lang, sizeof l->lang);
    if (msg.deck[0])
      memcpy(l->deck, msg.deck, sizeof l->deck);
    answer(l, &msg, text, len, &o);
    if (new_words && msg.type == PROTO_PING && l->match)
      out_add(&o, state_text(l, NULL)); /* the state again, in them */
  }
  proto_msg_free(&msg);
  return out_finish(&o);
}

/* ------------------------------------------------------------------ */
/* Life                                                                */
/* ------------------------------------------------------------------ */

scopa_local *scopa_local_new(void) {
  scopa_local *l = calloc(1, sizeof *l);
  if (l)
    l->me = -1;
  return l;
}

void scopa_local_free(scopa_local *l) {
  if (!l)
    return;
  for (int i = 0; i < l->nbots; i++)
    scopa_bot_free(l->bot[i]);
  scopa_match_free(l->match);
  free(l->review);
  free(l);
}

char *scopa_local_hello(void) { return proto_hello(NULL); }

char *scopa_local_record(const scopa_local *l) {
  return l->match ? scopa_match_record_json(l->match, SCOPA_RECORD_FULL) : NULL;
}
