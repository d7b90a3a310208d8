/*
 * teamworlds.c -- worlds of a view drawn in proportion to how likely the
 * other seats' moves are in them, for games where the hidden hands are
 * large (scopone, scientifico: thirty unseen cards in three hands, 10^12
 * ways to hold them).  There, sampling worlds uniformly and weighing them
 * (worlds.c) leaves nearly all the weight on one or two of the samples
 * once a few moves are known; instead a Markov chain walks over the
 * assignments of the unseen cards (Metropolis: swap two cards between two
 * places, accept with the ratio of the likelihoods), so every world it
 * returns already fits the moves seen.
 *
 * The model of a seat: it plays as the rules bot would from its own view
 * at that time (heur.c with counting: its hand then, the table, the
 * piles, the cards it could not place), softened: a softmax of those
 * values at a temperature, mixed with a uniform choice (a floor, so a
 * world is never impossible and a player of another school is not
 * mistaken for nobody).  The partner gets a softer model than the
 * opponents: it is ourselves, a searcher, whose moves a counting player
 * explains less well.
 *
 * What must stay true: only the view is read; the chain's every random
 * choice comes from the rng, so one seed gives the same worlds; every
 * world returned agrees with the view (scopa_view_world).
 */
#include "worlds.h"

#include "heur.h"
#include "internal.h"
#include "signals.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#define STOCK_PLACE SCOPA_MAX_SEATS /* the stock, as a place of cards */
#define NPLACES (SCOPA_MAX_SEATS + 1)

/* One move of another seat since its hand was dealt, with what that seat
 * saw when it made it. */
typedef struct event {
  int seat;
  scopa_move move;
  scopa_cards table, mine, theirs;
  scopa_cards later; /* cards the seat played from this move on */
  int next_hand;     /* cards the next seat held then */
  int first, last_play;
  int dealer_team;
} event;

typedef struct chain {
  const scopa_view *v;
  const ai_team_model *model;
  event ev[40];
  int nev;
  scopa_cards place[NPLACES]; /* the hidden hands and the stock */
  int count[NPLACES];
  double ll[NPLACES]; /* log-likelihood of each seat's moves */
  int places[NPLACES], nplaces;
} chain;

static int side_of(const scopa_view *v, int seat) {
  return scopa_rules_side_of(&v->rules, seat);
}

static int total_plays(const scopa_view *v) {
  return 40 - POPCOUNT(v->initial_table);
}

/* Replays the round's moves, noting what each other seat saw when it
 * moved. */
static void collect(chain *c) {
  const scopa_view *v = c->v;
  int start = ai_hands_start(v), held[SCOPA_MAX_SEATS];
  scopa_cards table = v->initial_table, pile[SCOPA_MAX_SEATS] = {0};
  int sum = 0;
  FOR_EACH_CARD(x, table) sum += SCOPA_RANK(x);
  if (v->rules.deal_bonus == SCOPA_DEAL_BONUS_FIFTEEN &&
      (sum == 15 || sum == 30))
    table = 0;
  /* Hand sizes at the start of the current hands. */
  for (int s = 0; s < v->players; s++)
    held[s] = v->hand_count[s];
  for (int i = start; i < v->plays; i++)
    held[(v->dealer + 1 + i) % v->players]++;
  c->nev = 0;
  for (int i = 0; i < v->plays; i++) {
    scopa_move m = v->moves[i];
    int seat = (v->dealer + 1 + i) % v->players, side = side_of(v, seat);
    if (i >= start && seat != v->seat) {
      event *e = &c->ev[c->nev++];
      e->seat = seat;
      e->move = m;
      e->table = table;
      e->mine = pile[side];
      e->theirs = 0;
      for (int k = 0; k < v->sides; k++)
        if (k != side)
          e->theirs |= pile[k];
      e->later = 0;
      for (int j = i; j < v->plays; j++)
        if ((v->dealer + 1 + j) % v->players == seat)
          e->later |= SCOPA_BIT(SCOPA_MOVE_CARD(v->moves[j]));
      e->next_hand = held[(seat + 1) % v->players];
      e->first = i == 0;
      e->last_play = i + 1 == total_plays(v);
      e->dealer_team = !v->rules.teams                 ? 0
                       : side == side_of(v, v->dealer) ? 1
                                                       : -1;
    }
    if (i >= start)
      held[seat]--;
    scopa_cards takes = SCOPA_MOVE_TAKES(m);
    if (takes) {
      table &= ~takes;
      pile[side] |= takes | SCOPA_BIT(SCOPA_MOVE_CARD(m));
    } else if (!table &&
               scopa__ace_taken(&v->rules, SCOPA_MOVE_CARD(m), 0, i == 0)) {
      pile[side] |= SCOPA_BIT(SCOPA_MOVE_CARD(m));
    } else {
      table |= SCOPA_BIT(SCOPA_MOVE_CARD(m));
    }
  }
}

/* log P(e's move | the seat then held `hand`). */
static double event_ll(const chain *c, const event *e, scopa_cards hand) {
  const scopa_view *v = c->v;
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa__hand_moves(&v->rules, hand, e->table, e->first, moves,
                            SCOPA_MAX_MOVES);
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  ai_heur h;
  h.rules = &v->rules;
  h.hand = hand;
  h.table = e->table;
  h.mine = e->mine;
  h.theirs = e->theirs;
  h.unseen = SCOPA_ALL_CARDS & ~(hand | e->table | e->mine | e->theirs);
  h.next_hand = e->next_hand;
  h.last_play = e->last_play;
  h.counting = 1;
  h.dealer_team = e->dealer_team;
  int partner = side_of(v, e->seat) == side_of(v, v->seat);
  double temp = partner ? c->model->partner_temp : c->model->temp;
  double floor = partner ? c->model->partner_floor : c->model->floor;
  return log(ai_heur_chance(&h, moves, n, e->move, temp, floor));
}

/* The partner's lays read as the conventional signals (signals.c): a
 * lay from a pair of its rank says the twin is held. */
static double signal_ll(const chain *c, const event *e, scopa_cards hand) {
  const scopa_view *v = c->v;
  if (c->model->partner_signal <= 0 ||
      side_of(v, e->seat) != side_of(v, v->seat) || !ai_signal_game(v))
    return 0;
  return ai_signal_read(&v->rules, hand, e->table, e->first, e->move,
                        c->model->partner_signal, c->model->partner_floor);
}

static double seat_ll(const chain *c, int seat) {
  double ll = 0;
  for (int k = 0; k < c->nev; k++)
    if (c->ev[k].seat == seat) {
      scopa_cards hand = c->place[seat] | c->ev[k].later;
      ll += event_ll(c, &c->ev[k], hand) + signal_ll(c, &c->ev[k], hand);
    }
  return ll;
}

/* A uniformly random card of a set of `count` cards. */
static int nth_card(scopa_cards set, uint32_t k) {
  FOR_EACH_CARD(x, set) {
    if (k-- == 0)
      return x;
  }
  return -1;
}

/* One Metropolis step: two cards of two places swapped, kept with the
 * ratio of the likelihoods. */
static void step(chain *c, scopa_rng *rng) {
  int a = c->places[scopa_rng_below(rng, (uint32_t)c->nplaces)],
      b = c->places[scopa_rng_below(rng, (uint32_t)c->nplaces - 1)];
  if (b == a)
    b = c->places[c->nplaces - 1];
  int x = nth_card(c->place[a], scopa_rng_below(rng, (uint32_t)c->count[a]));
  int y = nth_card(c->place[b], scopa_rng_below(rng, (uint32_t)c->count[b]));
  scopa_cards pa = c->place[a], pb = c->place[b];
  c->place[a] = (pa & ~SCOPA_BIT(x)) | SCOPA_BIT(y);
  c->place[b] = (pb & ~SCOPA_BIT(y)) | SCOPA_BIT(x);
  double la = a == STOCK_PLACE ? 0 : seat_ll(c, a),
         lb = b == STOCK_PLACE ? 0 : seat_ll(c, b);
  double delta = la + lb - c->ll[a] - c->ll[b];
  double u = (double)(scopa_rng_next(rng) >> 11) / 9007199254740992.0;
  if (delta >= 0 || u < exp(delta)) {
    c->ll[a] = la;
    c->ll[b] = lb;
  } else {
    c->place[a] = pa;
    c->place[b] = pb;
  }
}

static void start_chain(chain *c, scopa_rng *rng) {
  const scopa_view *v = c->v;
  scopa_state s;
  scopa_view_sample(v, rng, &s);
  c->nplaces = 0;
  memset(c->place, 0, sizeof c->place);
  memset(c->count, 0, sizeof c->count);
  memset(c->ll, 0, sizeof c->ll);
  for (int seat = 0; seat < v->players; seat++) {
    if (seat == v->seat || !v->hand_count[seat])
      continue;
    c->place[seat] = s.hand[seat];
    c->count[seat] = v->hand_count[seat];
    c->places[c->nplaces++] = seat;
    c->ll[seat] = seat_ll(c, seat);
  }
  if (v->stock) {
    for (int i = s.next; i < 40; i++)
      c->place[STOCK_PLACE] |= SCOPA_BIT(s.deck[i]);
    c->count[STOCK_PLACE] = v->stock;
    c->places[c->nplaces++] = STOCK_PLACE;
  }
}

/* The chain's current world, the stock in a random order. */
static void emit(const chain *c, scopa_rng *rng, scopa_state *out) {
  const scopa_view *v = c->v;
  uint8_t stock[40];
  int n = 0;
  FOR_EACH_CARD(x, c->place[STOCK_PLACE]) stock[n++] = (uint8_t)x;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)scopa_rng_below(rng, (uint32_t)i + 1);
    uint8_t t = stock[i];
    stock[i] = stock[j];
    stock[j] = t;
  }
  int rc = scopa_view_world(v, c->place, stock, out);
  assert(rc == SCOPA_OK); /* every placing keeps each place's count */
  (void)rc;
}

int ai_world_infer(const scopa_view *v, const ai_team_model *model,
                   scopa_rng *rng, scopa_state *out, int m, ai_clock *clock) {
  chain c;
  c.v = v;
  c.model = model;
  collect(&c);
  int chains = model->chains < 1 ? 1 : model->chains;
  int made = 0;
  for (int k = 0; k < chains && made < m; k++) {
    start_chain(&c, rng);
    int want = (m - made) / (chains - k);
    if (c.nplaces < 2 || c.nev == 0) {
      for (int i = 0; i < want; i++)
        emit(&c, rng, &out[made++]), start_chain(&c, rng);
      continue;
    }
    for (int i = 0; i < model->burn_in; i++) {
      if (i % 16 == 0 && ai_clock_check(clock))
        return -1;
      step(&c, rng);
    }
    for (int w = 0; w < want; w++) {
      for (int i = 0; w && i < model->thin; i++) {
        if (i % 16 == 0 && ai_clock_check(clock))
          return -1;
        step(&c, rng);
      }
      emit(&c, rng, &out[made++]);
    }
  }
  return made;
}
