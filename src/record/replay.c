/*
 * replay.c -- reads a game record (RULES.md "Game records") and checks it
 * move by move with the core engine.
 *
 * The first fault met reading in order is the one reported: format, rules,
 * seats, then round by round (dealer, deck, kings on the table, the moves
 * in order, then whether a round may follow at all).  Nothing here trusts
 * the input: every JSON value's type is checked before it is used.
 */
#include "../game/match_internal.h"
#include "json_shapes.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_FORMAT "scopa-record/1"

static int fail(scopa_fault *f, int round, int move, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(scopa_fault *f, int round, int move, const char *fmt, ...) {
  f->round = round;
  f->move = move;
  va_list ap;
  va_start(ap, fmt);
  scopa__vmsg(f->message, sizeof f->message, 0, fmt, ap);
  va_end(ap);
  return SCOPA_ERECORD;
}

static int read_rules(json_t *root, scopa_rules *rules, scopa_fault *f) {
  json_t *obj = json_object_get(root, "rules");
  char msg[200];
  if (!json_is_object(obj))
    return fail(f, -1, -1, "the record needs a \"rules\" object");
  if (scopa__rules_read(obj, rules, msg, sizeof msg) != SCOPA_OK)
    return fail(f, -1, -1, "%s", msg);
  return SCOPA_OK;
}

/* "seats" (names, which may hold NUL bytes) and our "bots" extension: a
 * seat whose "bots" entry is an object with a string "bot" is a bot. */
static int read_seats(json_t *root, scopa_match *m, int *named,
                      scopa_fault *f) {
  json_t *seats = json_object_get(root, "seats");
  json_t *bots = json_object_get(root, "bots");
  int players = m->rules.players;
  *named = seats != NULL;
  if (seats &&
      (!json_is_array(seats) || (int)json_array_size(seats) != players))
    return fail(f, -1, -1, "\"seats\" must list %d names", players);
  for (int i = 0; i < players; i++) {
    json_t *v = seats ? json_array_get(seats, (size_t)i) : NULL;
    if (seats && !json_is_string(v))
      return fail(f, -1, -1, "seat %d's name is not a string", i);
    json_t *b = json_is_array(bots) && (int)json_array_size(bots) == players
                    ? json_array_get(bots, (size_t)i)
                    : NULL;
    const char *bot = json_string_value(json_object_get(b, "bot"));
    const char *level = json_string_value(json_object_get(b, "level"));
    if (scopa__match_set_seat(m, i, bot ? SCOPA_SEAT_BOT : SCOPA_SEAT_PERSON,
                              v ? json_string_value(v) : "",
                              v ? json_string_length(v) : 0, bot,
                              level) != SCOPA_OK)
      return fail(f, -1, -1, "out of memory");
  }
  return SCOPA_OK;
}

/* "seed" (RULES.md "Game records"): 1 to 64 lowercase hex digits. */
static int read_seed(json_t *root, char seed[SCOPA_SEED_TEXT], scopa_fault *f) {
  json_t *v = json_object_get(root, "seed");
  seed[0] = 0;
  if (!v)
    return SCOPA_OK;
  const char *text = json_string_value(v);
  char msg[120];
  if (!text || strlen(text) != json_string_length(v) ||
      scopa_seed_check(text, msg, sizeof msg) != SCOPA_OK)
    return fail(f, -1, -1,
                "\"seed\" must be a string of 1 to %d lowercase "
                "hexadecimal digits",
                SCOPA_SEED_MAX);
  snprintf(seed, SCOPA_SEED_TEXT, "%s", text);
  return SCOPA_OK;
}

/* The top-level fields this library does not know, kept to be written
 * back as they were. */
static int keep_extra(json_t *root, scopa_match *m) {
  static const char *const KNOWN[] = {"format", "rules", "seats",
                                      "rounds", "seed",  "seed_sha256",
                                      "bots",   NULL};
  json_t *extra = json_object();
  const char *key;
  json_t *value;
  json_object_foreach(root, key, value) {
    int known = 0;
    for (int i = 0; KNOWN[i]; i++)
      known |= strcmp(key, KNOWN[i]) == 0;
    if (!known)
      json_object_set(extra, key, value);
  }
  int want = json_object_size(extra) > 0;
  if (want)
    m->extra = json_dumps(extra, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(extra);
  return !want || m->extra ? SCOPA_OK : SCOPA_ENOMEM;
}

static int read_deck(json_t *deck, uint8_t out[40], int r, scopa_fault *f) {
  if (!json_is_array(deck))
    return fail(f, r, -1, "the round has no \"deck\" list");
  if (json_array_size(deck) != 40)
    return fail(f, r, -1, "the deck has %zu cards, not 40",
                json_array_size(deck));
  scopa_cards seen = 0;
  for (int i = 0; i < 40; i++) {
    json_t *v = json_array_get(deck, (size_t)i);
    const char *s = json_string_value(v);
    int card = s ? scopa_card_parse_n(s, json_string_length(v)) : -1;
    if (card < 0)
      return fail(f, r, -1, "deck position %d is not a card%s%.20s%s", i,
                  s ? " (\"" : "", s ? s : "", s ? "\")" : "");
    if (seen & SCOPA_BIT(card))
      return fail(f, r, -1, "%s appears twice in the deck", s);
    seen |= SCOPA_BIT(card);
    out[i] = (uint8_t)card;
  }
  return SCOPA_OK;
}

static void seat_label(const scopa_match *m, int named, int seat, char *buf,
                       size_t n) {
  if (named)
    snprintf(buf, n, "seat %d (%.60s)", seat, m->seat[seat].name);
  else
    snprintf(buf, n, "seat %d", seat);
}

/* Messages name the captured cards as the record wrote them ("4b+1c"),
 * not in card order, so a player recognises the move. */
static void as_written(char *msg, size_t size, scopa_move m, const char *text) {
  const char *x = strchr(text, 'x');
  char canon[SCOPA_MOVE_TEXT], out[256];
  scopa_move_str(m, canon);
  const char *ctakes = strchr(canon, 'x');
  if (!x || !ctakes || strcmp(x, ctakes) == 0)
    return;
  char *at = strstr(msg, ctakes + 1);
  if (!at)
    return;
  snprintf(out, sizeof out, "%.*s%s%s", (int)(at - msg), msg, x + 1,
           at + strlen(ctakes + 1));
  snprintf(msg, size, "%s", out);
}

static int read_moves(json_t *moves, scopa_match *m, int named, int r,
                      scopa_fault *f) {
  if (!json_is_array(moves))
    return fail(f, r, -1, "the round has no \"moves\" list");
  size_t n = json_array_size(moves);
  for (size_t i = 0; i < n; i++) {
    json_t *v = json_array_get(moves, i);
    const char *text = json_string_value(v);
    char msg[200], who[100];
    scopa_move mv;
    int seat = scopa_match_to_play(m);
    if (seat < 0)
      return fail(f, r, (int)i,
                  "the round is over after %d moves; \"%.40s\" "
                  "is one too many",
                  m->state.plays, text ? text : "?");
    seat_label(m, named, seat, who, sizeof who);
    if (!text || strlen(text) != json_string_length(v))
      return fail(f, r, (int)i, "%s: a move must be a string", who);
    if (scopa_move_parse(text, NULL, &mv, msg, sizeof msg) != SCOPA_OK)
      return fail(f, r, (int)i, "%s: %s", who, msg);
    if (scopa_match_apply(m, mv, NULL, msg, sizeof msg) != SCOPA_OK) {
      as_written(msg, sizeof msg, mv, text);
      return fail(f, r, (int)i, "%s: %s", who, msg);
    }
  }
  return SCOPA_OK;
}

static int read_round(json_t *round, scopa_match *m, int named, int r,
                      scopa_fault *f) {
  uint8_t deck[40];
  char msg[200];
  if (!json_is_object(round))
    return fail(f, r, -1, "a round must be a JSON object");
  json_t *dealer = json_object_get(round, "dealer");
  int players = m->rules.players;
  if (!json_is_integer(dealer) || json_integer_value(dealer) < 0 ||
      json_integer_value(dealer) >= players)
    return fail(f, r, -1, "the dealer must be a seat number from 0 to %d",
                players - 1);
  int d = (int)json_integer_value(dealer);
  if (r == 0)
    scopa__match_first_dealer(m, d);
  else if (d != m->game.dealer)
    return fail(f, r, -1, "the dealer must be seat %d, after seat %d",
                m->game.dealer, m->rounds[r - 1].dealer);
  if (read_deck(json_object_get(round, "deck"), deck, r, f))
    return SCOPA_ERECORD;
  int rc = scopa_match_deal_deck(m, deck, NULL, msg, sizeof msg);
  if (rc == SCOPA_ENOMEM)
    return fail(f, r, -1, "out of memory");
  if (rc != SCOPA_OK)
    return fail(f, r, -1, "%s", msg);
  return read_moves(json_object_get(round, "moves"), m, named, r, f);
}

static int read_rounds(json_t *root, scopa_match *m, int named,
                       scopa_fault *f) {
  json_t *rounds = json_object_get(root, "rounds");
  if (!json_is_array(rounds))
    return fail(f, -1, -1, "the record needs a \"rounds\" list");
  size_t n = json_array_size(rounds);
  for (size_t r = 0; r < n; r++) {
    if (r > 0 && m->game.finished)
      return fail(f, (int)r, -1,
                  "the game ended after round %zu; no round "
                  "may follow",
                  r - 1);
    if (r > 0 && !m->rounds[r - 1].complete)
      return fail(f, (int)r, -1,
                  "round %zu is unfinished; no round may "
                  "follow it",
                  r - 1);
    if (read_round(json_array_get(rounds, r), m, named, (int)r, f))
      return SCOPA_ERECORD;
  }
  return SCOPA_OK;
}

/* Reads a whole record into a new match, checking it in the order of
 * RULES.md: format, rules, seats, seed, then round by round. */
static int read_record(json_t *root, scopa_match **out, scopa_fault *f) {
  scopa_rules rules;
  char seed[SCOPA_SEED_TEXT];
  int named = 0;
  const char *format = json_string_value(json_object_get(root, "format"));
  *out = NULL;
  if (!json_is_object(root))
    return fail(f, -1, -1, "a record is a JSON object");
  if (!format || strcmp(format, RECORD_FORMAT) != 0)
    return fail(f, -1, -1, "\"format\" must be \"%s\"", RECORD_FORMAT);
  if (read_rules(root, &rules, f))
    return SCOPA_ERECORD;
  scopa_match *m = NULL;
  char msg[160];
  int rc = scopa_match_new(&rules, NULL, NULL, &m, msg, sizeof msg);
  if (rc != SCOPA_OK)
    return fail(f, -1, -1, "%s", rc == SCOPA_ENOMEM ? "out of memory" : msg);
  if (read_seats(root, m, &named, f) || read_seed(root, seed, f))
    goto fail;
  if (*seed) {
    snprintf(m->seed, sizeof m->seed, "%s", seed);
    snprintf(m->deal_seed, sizeof m->deal_seed, "%s", seed);
    scopa__match_first_dealer(m, scopa_seed_dealer(seed, rules.players));
  } else {
    m->seed[0] = 0; /* new rounds come from the fresh deal_seed, unrecorded */
    scopa__match_first_dealer(m, 0);
  }
  if (keep_extra(root, m) != SCOPA_OK) {
    fail(f, -1, -1, "out of memory");
    goto fail;
  }
  if (read_rounds(root, m, named, f))
    goto fail;
  *out = m;
  return SCOPA_OK;
fail:
  scopa_match_free(m);
  return SCOPA_ERECORD;
}

static int load(const char *text, size_t len, json_t **root, scopa_fault *f) {
  json_error_t err;
  memset(f, 0, sizeof *f);
  f->round = f->move = -1;
  if (len > SCOPA_RECORD_MAX) {
    fail(f, -1, -1,
         "the record is %zu bytes long, more than the %d MiB any real "
         "game needs: not read",
         len, SCOPA_RECORD_MAX >> 20);
    return SCOPA_ERECORD;
  }
  /* JSON allows \u0000 in strings; the checks then name the value it
   * spoils (a card, a move) rather than calling the file not JSON.  A key
   * given twice is refused, as the engine refuses it: which of the two
   * counts would be a guess. */
  *root = json_loadb(text, len, JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, &err);
  if (*root)
    return SCOPA_OK;
  fail(f, -1, -1, "not valid JSON: line %d, column %d: %s", err.line,
       err.column, err.text);
  return SCOPA_EJSON;
}

int scopa_match_from_record(const char *text, size_t len, scopa_match **out,
                            scopa_fault *f) {
  json_t *root;
  *out = NULL;
  int rc = load(text, len, &root, f);
  if (rc != SCOPA_OK)
    return rc;
  rc = read_record(root, out, f);
  json_decref(root);
  return rc;
}

/* The replay struct is the match's history, with the names as C strings. */
static int fill_replay(const scopa_match *m, int named, scopa_replay *out,
                       scopa_fault *f) {
  out->rules = m->rules;
  out->game = m->game;
  out->nrounds = m->nrounds;
  out->rounds =
      calloc(m->nrounds ? (size_t)m->nrounds : 1, sizeof *out->rounds);
  if (!out->rounds)
    return fail(f, -1, -1, "out of memory");
  if (m->nrounds)
    memcpy(out->rounds, m->rounds, (size_t)m->nrounds * sizeof *out->rounds);
  for (int i = 0; named && i < m->rules.players; i++) {
    out->seats[i] = strdup(m->seat[i].name);
    if (!out->seats[i])
      return fail(f, -1, -1, "out of memory");
    out->nseats = i + 1;
  }
  return SCOPA_OK;
}

int scopa_replay_text(const char *text, size_t len, scopa_replay *out,
                      scopa_fault *f) {
  json_t *root;
  scopa_match *m = NULL;
  memset(out, 0, sizeof *out);
  int rc = load(text, len, &root, f);
  if (rc != SCOPA_OK)
    return rc;
  rc = read_record(root, &m, f);
  if (rc == SCOPA_OK)
    rc = fill_replay(m, json_object_get(root, "seats") != NULL, out, f);
  json_decref(root);
  scopa_match_free(m);
  if (rc != SCOPA_OK)
    scopa_replay_free(out);
  return rc;
}

void scopa_replay_free(scopa_replay *rp) {
  if (!rp)
    return;
  for (int i = 0; i < SCOPA_MAX_SEATS; i++)
    free(rp->seats[i]);
  free(rp->rounds);
  memset(rp, 0, sizeof *rp);
}
