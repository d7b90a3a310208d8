/*
 * match.c -- a whole game (scopa.h "A whole game"): rounds dealt from the
 * seed, moves checked and played, scores added, dealers rotated and the
 * end rules applied, all through the core's scopa_state and scopa_tally.
 * Every front end plays through here; none keeps its own copy of this.
 *
 * Keeps true (see match_internal.h): the history in rounds[] is exactly
 * what was played, so the record written from it replays to this game.
 */
#include "match_internal.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- seats and memory ------------------------------------------------ */

static void say(char *msg, size_t msgsize, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* printf into a message buffer that may be NULL. */
static void say(char *msg, size_t msgsize, const char *fmt, ...) {
  if (!msg || !msgsize)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, msgsize, fmt, ap);
  va_end(ap);
}

static char *dup_bytes(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (d) {
    if (n)
      memcpy(d, s, n);
    d[n] = 0;
  }
  return d;
}

static void free_seat(match_seat *s) {
  free(s->name);
  free(s->bot);
  free(s->level);
  memset(s, 0, sizeof *s);
}

int scopa__match_set_seat(scopa_match *m, int seat, int kind, const char *name,
                          size_t name_len, const char *bot, const char *level) {
  match_seat s = {kind, dup_bytes(name ? name : "", name ? name_len : 0),
                  name ? name_len : 0, NULL, NULL};
  if (kind == SCOPA_SEAT_BOT) {
    s.bot = bot ? dup_bytes(bot, strlen(bot)) : NULL;
    s.level = level ? dup_bytes(level, strlen(level)) : NULL;
  }
  if (!s.name || (bot && kind == SCOPA_SEAT_BOT && !s.bot) ||
      (level && kind == SCOPA_SEAT_BOT && !s.level)) {
    free_seat(&s);
    return SCOPA_ENOMEM;
  }
  free_seat(&m->seat[seat]);
  m->seat[seat] = s;
  return SCOPA_OK;
}

void scopa__match_first_dealer(scopa_match *m, int first_dealer) {
  assert(m->nrounds == 0);
  scopa_tally_init(&m->game, &m->rules, first_dealer);
}

static int check_seats(const scopa_rules *rules, const scopa_seat *seats,
                       char *msg, size_t msgsize) {
  for (int i = 0; seats && i < rules->players; i++) {
    if (seats[i].kind != SCOPA_SEAT_PERSON && seats[i].kind != SCOPA_SEAT_BOT) {
      say(msg, msgsize, "seat %d is neither a person nor a bot", i);
      return SCOPA_EINVAL;
    }
    if (seats[i].kind == SCOPA_SEAT_BOT && seats[i].bot &&
        !scopa_bot_describe(seats[i].bot)) {
      say(msg, msgsize, "seat %d: no bot is named \"%.40s\"", i, seats[i].bot);
      return SCOPA_EINVAL;
    }
  }
  return SCOPA_OK;
}

int scopa_match_new(const scopa_rules *rules, const scopa_seat *seats,
                    const char *seed, scopa_match **out, char *msg,
                    size_t msgsize) {
  char fresh[SCOPA_SEED_TEXT];
  *out = NULL;
  if (seed && scopa_seed_check(seed, msg, msgsize) != SCOPA_OK)
    return SCOPA_EINVAL;
  if (check_seats(rules, seats, msg, msgsize) != SCOPA_OK)
    return SCOPA_EINVAL;
  if (!seed) {
    if (scopa_seed_random(fresh) != SCOPA_OK) {
      say(msg, msgsize, "the operating system gave no random seed");
      return SCOPA_EIO;
    }
    seed = fresh;
  }
  scopa_match *m = calloc(1, sizeof *m);
  if (!m)
    return SCOPA_ENOMEM;
  m->rules = *rules;
  snprintf(m->seed, sizeof m->seed, "%s", seed);
  snprintf(m->deal_seed, sizeof m->deal_seed, "%s", seed);
  for (int i = 0; i < rules->players; i++) {
    const scopa_seat *s = seats ? &seats[i] : NULL;
    const char *name = s && s->name ? s->name : "";
    if (scopa__match_set_seat(m, i, s ? s->kind : SCOPA_SEAT_PERSON, name,
                              strlen(name), s ? s->bot : NULL,
                              s ? s->level : NULL) != SCOPA_OK) {
      scopa_match_free(m);
      return SCOPA_ENOMEM;
    }
  }
  scopa_tally_init(&m->game, rules, scopa_seed_dealer(seed, rules->players));
  *out = m;
  return SCOPA_OK;
}

void scopa_match_free(scopa_match *m) {
  if (!m)
    return;
  for (int i = 0; i < SCOPA_MAX_SEATS; i++)
    free_seat(&m->seat[i]);
  free(m->rounds);
  free(m->extra);
  free(m);
}

int scopa_match_copy(const scopa_match *m, scopa_match **out) {
  scopa_match *c = malloc(sizeof *c);
  *out = NULL;
  if (!c)
    return SCOPA_ENOMEM;
  *c = *m;
  memset(c->seat, 0, sizeof c->seat);
  c->extra = NULL;
  c->rounds = malloc((size_t)(m->cap ? m->cap : 1) * sizeof *c->rounds);
  int ok = c->rounds != NULL;
  if (ok && m->nrounds)
    memcpy(c->rounds, m->rounds, (size_t)m->nrounds * sizeof *c->rounds);
  for (int i = 0; ok && i < m->rules.players; i++) {
    const match_seat *s = &m->seat[i];
    ok = scopa__match_set_seat(c, i, s->kind, s->name, s->name_len, s->bot,
                               s->level) == SCOPA_OK;
  }
  if (ok && m->extra)
    ok = (c->extra = dup_bytes(m->extra, strlen(m->extra))) != NULL;
  if (!ok) {
    scopa_match_free(c);
    return SCOPA_ENOMEM;
  }
  *out = c;
  return SCOPA_OK;
}

/* ---- reading --------------------------------------------------------- */

int scopa_match_phase(const scopa_match *m) {
  if (m->game.finished)
    return SCOPA_MATCH_OVER;
  return m->dealt && !scopa_state_over(&m->state) ? SCOPA_MATCH_PLAY
                                                  : SCOPA_MATCH_DEAL;
}

const scopa_rules *scopa_match_rules(const scopa_match *m) { return &m->rules; }

const char *scopa_match_seed(const scopa_match *m) { return m->seed; }

void scopa_match_seat(const scopa_match *m, int seat, scopa_seat *out,
                      size_t *name_len) {
  assert(seat >= 0 && seat < m->rules.players);
  const match_seat *s = &m->seat[seat];
  out->kind = s->kind;
  out->name = s->name;
  out->bot = s->bot;
  out->level = s->level;
  if (name_len)
    *name_len = s->name_len;
}

const scopa_tally *scopa_match_tally(const scopa_match *m) { return &m->game; }

int scopa_match_rounds(const scopa_match *m) { return m->nrounds; }

const scopa_replay_round *scopa_match_round(const scopa_match *m, int r) {
  assert(r >= 0 && r < m->nrounds);
  return &m->rounds[r];
}

const scopa_state *scopa_match_state(const scopa_match *m) {
  return m->dealt ? &m->state : NULL;
}

int scopa_match_to_play(const scopa_match *m) {
  return scopa_match_phase(m) == SCOPA_MATCH_PLAY
             ? scopa_state_to_play(&m->state)
             : -1;
}

/* ---- dealing and playing --------------------------------------------- */

int scopa_match_set_first_dealer(scopa_match *m, int dealer) {
  assert(dealer >= 0 && dealer < m->rules.players);
  if (m->nrounds)
    return SCOPA_EOVER;
  scopa__match_first_dealer(m, dealer);
  return SCOPA_OK;
}

static int grow(scopa_match *m) {
  if (m->nrounds < m->cap)
    return SCOPA_OK;
  int cap = m->cap ? m->cap * 2 : 4;
  scopa_replay_round *r = realloc(m->rounds, (size_t)cap * sizeof *r);
  if (!r)
    return SCOPA_ENOMEM;
  m->rounds = r;
  m->cap = cap;
  return SCOPA_OK;
}

int scopa_match_deal_deck(scopa_match *m, const uint8_t deck[40],
                          scopa_event *ev, char *msg, size_t msgsize) {
  if (scopa_match_phase(m) != SCOPA_MATCH_DEAL) {
    say(msg, msgsize, "%s",
        m->game.finished ? "the game is over"
                         : "the round in play is not over");
    return SCOPA_EOVER;
  }
  if (grow(m) != SCOPA_OK)
    return SCOPA_ENOMEM;
  scopa_state st;
  int rc = scopa_state_deal(&st, &m->rules, m->game.dealer, deck, msg, msgsize);
  if (rc != SCOPA_OK)
    return rc;
  m->state = st;
  m->dealt = 1;
  memcpy(m->totals_before, m->game.totals, sizeof m->totals_before);
  scopa_replay_round *rr = &m->rounds[m->nrounds++];
  memset(rr, 0, sizeof *rr);
  rr->dealer = m->game.dealer;
  memcpy(rr->deck, st.deck, 40);
  if (ev) {
    memset(ev, 0, sizeof *ev);
    ev->round = m->nrounds - 1;
    ev->ply = -1;
    ev->seat = rr->dealer;
    ev->leftovers_side = -1;
    ev->winner = -1;
  }
  return SCOPA_OK;
}

int scopa_match_deal(scopa_match *m, scopa_event *ev) {
  uint8_t deck[40];
  if (scopa_match_phase(m) != SCOPA_MATCH_DEAL)
    return SCOPA_EOVER;
  scopa_seed_deck(m->deal_seed, m->nrounds, &m->rules, deck);
  return scopa_match_deal_deck(m, deck, ev, NULL, 0);
}

static int scope_made(const scopa_state *s) {
  int n = 0;
  for (int i = 0; i < s->sides; i++)
    n += s->scope[i];
  return n;
}

/* What the move from `before` to m->state did; the round's end is added
 * by end_round. */
static void describe(const scopa_match *m, const scopa_state *before,
                     scopa_move move, scopa_event *ev) {
  const scopa_state *after = &m->state;
  memset(ev, 0, sizeof *ev);
  ev->round = m->nrounds - 1;
  ev->ply = before->plays;
  ev->seat = before->to_play;
  ev->move = move;
  ev->table_before = before->table;
  ev->taken = SCOPA_MOVE_TAKES(move);
  ev->scopa = scope_made(after) > scope_made(before);
  ev->refilled = after->next - before->next;
  ev->leftovers_side = -1;
  ev->winner = -1;
  if (!scopa_state_over(after))
    return;
  ev->round_over = 1;
  /* The cards left on the table: in no pile before, and not taken or
   * played by this move. */
  scopa_cards played = SCOPA_BIT(SCOPA_MOVE_CARD(move));
  scopa_cards table_left =
      (before->table & ~ev->taken) | (ev->taken ? 0 : played);
  ev->leftovers = table_left;
  for (int side = 0; table_left && side < after->sides; side++)
    if ((after->pile[side] & table_left) == table_left)
      ev->leftovers_side = side;
}

static void end_round(scopa_match *m, scopa_event *ev) {
  scopa_replay_round *rr = &m->rounds[m->nrounds - 1];
  scopa_state_score(&m->state, &rr->score);
  scopa_tally_add(&m->game, &rr->score);
  memcpy(rr->totals, m->game.totals, sizeof rr->totals);
  rr->complete = 1;
  if (ev) {
    ev->score = rr->score;
    memcpy(ev->totals, m->game.totals, sizeof ev->totals);
    ev->game_over = m->game.finished;
    ev->winner = m->game.finished ? m->game.winner : -1;
  }
}

int scopa_match_apply(scopa_match *m, scopa_move move, scopa_event *ev,
                      char *msg, size_t msgsize) {
  if (scopa_match_phase(m) != SCOPA_MATCH_PLAY) {
    say(msg, msgsize, "%s",
        m->game.finished ? "the game is over" : "no round is in play");
    return SCOPA_EOVER;
  }
  scopa_state before = m->state;
  int rc = scopa_state_apply(&m->state, move, msg, msgsize);
  if (rc != SCOPA_OK)
    return rc;
  scopa_replay_round *rr = &m->rounds[m->nrounds - 1];
  rr->moves[rr->nmoves++] = move;
  if (ev)
    describe(m, &before, move, ev);
  if (scopa_state_over(&m->state))
    end_round(m, ev);
  return SCOPA_OK;
}

/* ---- views ----------------------------------------------------------- */

void scopa_match_view(const scopa_match *m, int seat, scopa_view *out) {
  assert(seat >= -1 && seat < m->rules.players);
  if (!m->dealt) {
    memset(out, 0, sizeof *out);
    out->rules = m->rules;
    out->seat = seat < 0 ? SCOPA_NO_SEAT : (uint8_t)seat;
    out->dealer = (uint8_t)m->game.dealer;
    out->to_play = out->last_capturer = SCOPA_NO_SEAT;
    out->players = (uint8_t)m->rules.players;
    out->sides = (uint8_t)scopa_rules_sides(&m->rules);
    for (int i = 0; i < SCOPA_MAX_SEATS; i++)
      out->scores[i] = m->game.totals[i];
    return;
  }
  scopa_view_of(&m->state, seat < 0 ? 0 : seat, m->totals_before, out);
  if (seat >= 0)
    return;
  scopa_cards hidden = 0;
  for (int i = 0; i < m->state.players; i++)
    hidden |= m->state.hand[i];
  for (int i = m->state.next; i < 40; i++)
    hidden |= SCOPA_BIT(m->state.deck[i]);
  out->seat = SCOPA_NO_SEAT;
  out->hand = 0;
  out->dealt = 0;
  out->unseen = hidden;
}

uint64_t scopa_match_bot_seed(const scopa_match *m) {
  scopa_rng rng;
  scopa_seed_rng(m->deal_seed, m->nrounds, &rng);
  uint64_t z = rng.s[2] ^ ((uint64_t)(m->dealt ? m->state.plays : 0) << 32);
  return z ^ scopa_rng_next(&rng);
}

uint64_t scopa_match_hint_seed(const scopa_match *m) {
  scopa_view v;
  int seat = scopa_match_to_play(m);
  scopa_match_view(m, seat < 0 ? 0 : seat, &v);
  return scopa_hint_seed(m->seed, m->nrounds - 1, &v);
}

int scopa_match_hint(const scopa_match *m, scopa_bot *bot,
                     const scopa_bot_limits *limits, scopa_hint *out, int cap,
                     scopa_view *view) {
  int seat = scopa_match_to_play(m);
  if (seat < 0)
    return SCOPA_EOVER;
  scopa_view v;
  scopa_match_view(m, seat, &v);
  if (view)
    *view = v;
  scopa_bot_limits lim = {0};
  if (limits)
    lim = *limits;
  lim.seed = scopa_match_hint_seed(m);
  if (lim.deadline_ns == 0)
    lim.deadline_ns = scopa_clock_ns() + SCOPA_HINT_DEADLINE_MS * 1000000ll;
  return scopa_bot_hint(bot, &v, &lim, out, cap, NULL);
}
