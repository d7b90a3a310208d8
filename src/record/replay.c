/*
 * replay.c -- reads a game record (RULES.md "Game records") and checks it
 * move by move with the core engine.
 *
 * The first fault met reading in order is the one reported: format, rules,
 * seats, then round by round (dealer, deck, kings on the table, the moves
 * in order, then whether a round may follow at all).  Nothing here trusts
 * the input: every JSON value's type is checked before it is used.
 */
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
  vsnprintf(f->message, sizeof f->message, fmt, ap);
  va_end(ap);
  scopa__utf8_clean(f->message);
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

static int read_seats(json_t *root, scopa_replay *out, scopa_fault *f) {
  json_t *seats = json_object_get(root, "seats");
  if (!seats)
    return SCOPA_OK;
  int players = out->rules.players;
  if (!json_is_array(seats) || (int)json_array_size(seats) != players)
    return fail(f, -1, -1, "\"seats\" must list %d names", players);
  for (int i = 0; i < players; i++) {
    const char *name = json_string_value(json_array_get(seats, (size_t)i));
    if (!name)
      return fail(f, -1, -1, "seat %d's name is not a string", i);
    out->seats[i] = strdup(name);
    if (!out->seats[i])
      return fail(f, -1, -1, "out of memory");
    out->nseats = i + 1;
  }
  return SCOPA_OK;
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

static void seat_label(const scopa_replay *rp, int seat, char *buf, size_t n) {
  if (seat < rp->nseats)
    snprintf(buf, n, "seat %d (%.60s)", seat, rp->seats[seat]);
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

static int read_moves(json_t *moves, scopa_state *st, scopa_replay_round *rr,
                      const scopa_replay *rp, int r, scopa_fault *f) {
  if (!json_is_array(moves))
    return fail(f, r, -1, "the round has no \"moves\" list");
  size_t n = json_array_size(moves);
  for (size_t i = 0; i < n; i++) {
    json_t *v = json_array_get(moves, i);
    const char *text = json_string_value(v);
    char msg[200], who[100];
    scopa_move m;
    int seat = scopa_state_to_play(st);
    if (seat < 0)
      return fail(f, r, (int)i,
                  "the round is over after %d moves; \"%.40s\" "
                  "is one too many",
                  st->plays, text ? text : "?");
    seat_label(rp, seat, who, sizeof who);
    if (!text || strlen(text) != json_string_length(v))
      return fail(f, r, (int)i, "%s: a move must be a string", who);
    if (scopa_move_parse(text, &m, msg, sizeof msg) != SCOPA_OK)
      return fail(f, r, (int)i, "%s: %s", who, msg);
    if (scopa_state_apply(st, m, msg, sizeof msg) != SCOPA_OK) {
      as_written(msg, sizeof msg, m, text);
      return fail(f, r, (int)i, "%s: %s", who, msg);
    }
    rr->moves[rr->nmoves++] = m;
  }
  return SCOPA_OK;
}

static int read_round(json_t *round, scopa_replay *rp, int r, scopa_fault *f) {
  scopa_replay_round *rr = &rp->rounds[r];
  scopa_state st;
  char msg[200];
  if (!json_is_object(round))
    return fail(f, r, -1, "a round must be a JSON object");
  json_t *dealer = json_object_get(round, "dealer");
  int players = rp->rules.players;
  if (!json_is_integer(dealer) || json_integer_value(dealer) < 0 ||
      json_integer_value(dealer) >= players)
    return fail(f, r, -1, "the dealer must be a seat number from 0 to %d",
                players - 1);
  rr->dealer = (int)json_integer_value(dealer);
  if (r > 0 && rr->dealer != rp->game.dealer)
    return fail(f, r, -1, "the dealer must be seat %d, after seat %d",
                rp->game.dealer, rp->rounds[r - 1].dealer);
  if (read_deck(json_object_get(round, "deck"), rr->deck, r, f))
    return SCOPA_ERECORD;
  if (scopa_state_deal(&st, &rp->rules, rr->dealer, rr->deck, msg,
                       sizeof msg) != SCOPA_OK)
    return fail(f, r, -1, "%s", msg);
  if (read_moves(json_object_get(round, "moves"), &st, rr, rp, r, f))
    return SCOPA_ERECORD;
  rr->complete = scopa_state_over(&st);
  if (rr->complete) {
    scopa_state_score(&st, &rr->score);
    scopa_game_add(&rp->game, &rr->score);
    memcpy(rr->totals, rp->game.totals, sizeof rr->totals);
  }
  return SCOPA_OK;
}

static int read_rounds(json_t *root, scopa_replay *rp, scopa_fault *f) {
  json_t *rounds = json_object_get(root, "rounds");
  if (!json_is_array(rounds))
    return fail(f, -1, -1, "the record needs a \"rounds\" list");
  size_t n = json_array_size(rounds);
  rp->rounds = calloc(n ? n : 1, sizeof *rp->rounds);
  if (!rp->rounds)
    return fail(f, -1, -1, "out of memory");
  for (size_t r = 0; r < n; r++) {
    if (r > 0 && rp->game.finished)
      return fail(f, (int)r, -1,
                  "the game ended after round %zu; no round "
                  "may follow",
                  r - 1);
    if (r > 0 && !rp->rounds[r - 1].complete)
      return fail(f, (int)r, -1,
                  "round %zu is unfinished; no round may "
                  "follow it",
                  r - 1);
    if (r == 0) {
      json_t *d = json_object_get(json_array_get(rounds, 0), "dealer");
      int first = json_is_integer(d) ? (int)json_integer_value(d) : 0;
      scopa_game_init(&rp->game, &rp->rules,
                      first >= 0 && first < rp->rules.players ? first : 0);
    }
    rp->nrounds = (int)r + 1;
    if (read_round(json_array_get(rounds, r), rp, (int)r, f))
      return SCOPA_ERECORD;
  }
  if (n == 0)
    scopa_game_init(&rp->game, &rp->rules, 0);
  return SCOPA_OK;
}

int scopa_replay_text(const char *text, size_t len, scopa_replay *out,
                      scopa_fault *f) {
  json_error_t err;
  memset(out, 0, sizeof *out);
  memset(f, 0, sizeof *f);
  /* JSON allows \u0000 in strings; the checks below then name the value
   * it spoils (a card, a move) rather than calling the file not JSON. */
  json_t *root = json_loadb(text, len, JSON_ALLOW_NUL, &err);
  if (!root) {
    fail(f, -1, -1, "not valid JSON: line %d, column %d: %s", err.line,
         err.column, err.text);
    return SCOPA_EJSON;
  }
  int rc = SCOPA_ERECORD;
  const char *format = json_string_value(json_object_get(root, "format"));
  if (!json_is_object(root))
    fail(f, -1, -1, "a record is a JSON object");
  else if (!format || strcmp(format, RECORD_FORMAT) != 0)
    fail(f, -1, -1, "\"format\" must be \"%s\"", RECORD_FORMAT);
  else if (!read_rules(root, &out->rules, f) && !read_seats(root, out, f) &&
           !read_rounds(root, out, f))
    rc = SCOPA_OK;
  json_decref(root);
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
