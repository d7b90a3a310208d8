/*
 * chitarrella.c -- `chitarrella`: a rule player after the traditional
 * precepts of scopone (Chitarrella's rules of 1750 with Saracino's
 * commentary, as the literature summarises them; the traditional
 * opponent Di Palma and Lanzi measured against).  No search:
 * every legal move gets a score from an ordered list of precepts, each
 * weighted far above the next, and the best is played.  Reads only the
 * view, counts the cards gone (every card not in `unseen` or the hand).
 *
 * The precepts, strongest first:
 *  1. a scopa whenever there is one;
 *  2. never leave the next opponent a table it can sweep (a total of ten
 *     or less of which an unseen card is left), nor the settebello where
 *     an unseen seven takes it;
 *  3. capture when one can ("chi può prendere prenda"), the settebello
 *     first, then sevens, then coins, then primiera cards (sixes, aces),
 *     then the number of cards; majorities already decided stop counting;
 *  4. spariglio: the side that did not deal breaks the pairs of ranks
 *     (captures by sum), the dealer's side keeps them paired (captures a
 *     single card of its own rank);
 *  5. when laying: a card of a rank already gone (three of its four seen,
 *     it cannot be matched), or one held twice (the second retakes the
 *     first, "la carta doppia"); never a seven or a coin if another will
 *     do, faces before the cards of primiera;
 *  6. the dealer's side plays last: in the round's last deal it keeps a
 *     card that captures for the end, to take the leftovers;
 *  7. the partner's signals (signals.c), given and read: a seven is laid
 *     only from a pair of sevens, the plain one first (a lone seven never
 *     if another card will do); the first card of the round is neither a
 *     coin nor a card of primiera; the side that did not deal leaves the
 *     card its partner has just laid (laid from a pair, its twin will
 *     take it back) and takes another if it can.
 *
 * Rules it does not model (capture by fifteen or eleven, ace sweeps,
 * lowest wins) are left to the rules bot.  Usable with any number of
 * seats; in 2-player scopa "the dealer's side" is the dealer.
 */
#include "bots.h"
#include "heur.h"
#include "signals.h"

#include "internal.h"

static const int PRIMIERA[11] = {0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10};

typedef struct chit {
  const scopa_view *v;
  scopa_cards gone; /* cards on the table or in piles: seen, out of hands */
  scopa_cards mine, theirs;
  int dealer_side; /* 1: our side dealt                              */
  int next_hand;   /* cards the next (opposing) seat will hold       */
  int last_play;   /* this is the round's last play                  */
  int last_deal;   /* no stock left                                  */
  int signals;     /* four seats in two teams: the partner's signals */
} chit;

static double next_holds_rank(const chit *c, int r) {
  if (r < 1 || r > 10)
    return 0;
  return ai_holds(POPCOUNT(c->v->unseen & SCOPA_RANK_CARDS(r)),
                  POPCOUNT(c->v->unseen), c->next_hand);
}

/* Precept 2: what the table left offers the next opponent (0..~2). */
static double exposure(const chit *c, scopa_cards left) {
  if (!left || c->last_play)
    return 0;
  double d = 0;
  int sum = cards_sum(left);
  if (sum <= 10)
    d += next_holds_rank(c, sum);
  if (left & SCOPA_BIT(SCOPA_SETTEBELLO))
    d += 0.5 * next_holds_rank(c, 7);
  FOR_EACH_CARD(x, left & SCOPA_RANK_CARDS(7)) {
    (void)x;
    d += 0.2 * next_holds_rank(c, 7);
  }
  return d;
}

/* Precept 3: the worth of cards taken, majorities decided aside. */
static double taken(const chit *c, scopa_cards got) {
  int cards_open = POPCOUNT(c->mine) <= 20 && POPCOUNT(c->theirs) <= 20;
  int coins_open = POPCOUNT(c->mine & SCOPA_DENARI_CARDS) <= 5 &&
                   POPCOUNT(c->theirs & SCOPA_DENARI_CARDS) <= 5;
  double v = 0;
  if (got & SCOPA_BIT(SCOPA_SETTEBELLO))
    v += 40;
  v += 12 * POPCOUNT(got & SCOPA_RANK_CARDS(7));
  if (coins_open)
    v += 5 * POPCOUNT(got & SCOPA_DENARI_CARDS);
  v += 3 * POPCOUNT(got & (SCOPA_RANK_CARDS(6) | SCOPA_RANK_CARDS(1)));
  if (cards_open)
    v += 1.5 * POPCOUNT(got);
  return v;
}

/* Precept 5: the worth of laying `card` (higher is better). */
static double lay(const chit *c, int card) {
  int r = SCOPA_RANK(card);
  scopa_cards rank = SCOPA_RANK_CARDS(r);
  double v = 0;
  if (!(c->v->unseen & rank))
    v += 12; /* nobody can match it */
  else if (POPCOUNT(c->gone & rank) >= 2)
    v += 4;
  if (POPCOUNT(c->v->hand & rank) >= 2)
    v += 8; /* la carta doppia */
  /* A seven: never alone (-15); from a pair of sevens it says so to the
   * partner (precept 7), the settebello kept for last. */
  if (r == 7)
    v -= POPCOUNT(c->v->hand & rank) >= 2 ? 6 : 15;
  if (card == SCOPA_SETTEBELLO)
    v -= 30;
  if (SCOPA_BIT(card) & SCOPA_DENARI_CARDS)
    v -= 4;
  v -= PRIMIERA[r] / 6.0; /* faces (10) before sixes and aces */
  return v;
}

/* Precept 6: after this move, can our hand still capture at the end? */
static double keeps_last(const chit *c, scopa_move m) {
  if (!c->dealer_side || !c->last_deal || POPCOUNT(c->v->hand) < 2)
    return 0;
  scopa_cards rest = c->v->hand & ~SCOPA_BIT(SCOPA_MOVE_CARD(m));
  scopa_cards table = (c->v->table & ~SCOPA_MOVE_TAKES(m)) |
                      (SCOPA_MOVE_TAKES(m) ? 0 : SCOPA_BIT(SCOPA_MOVE_CARD(m)));
  FOR_EACH_CARD(x, rest) {
    if (table & SCOPA_RANK_CARDS(SCOPA_RANK(x)))
      return 3;
  }
  return 0;
}

static double score(const chit *c, scopa_move m) {
  int card = SCOPA_MOVE_CARD(m);
  scopa_cards takes = SCOPA_MOVE_TAKES(m);
  scopa_cards left = c->v->table;
  double v = 0;
  if (takes) {
    left &= ~takes;
    if (!left && (!c->last_play || c->v->rules.last_card_scopa))
      v += 1000;                                  /* 1 */
    v += 100 + taken(c, takes | SCOPA_BIT(card)); /* 3 */
    int by_sum = POPCOUNT(takes) > 1;             /* 4 */
    v += (c->dealer_side ? !by_sum : by_sum) * 6;
    if (c->signals) /* 7: for a capture, whether it takes the partner's */
      v += 8 * ai_signal_move(c->v, m);
  } else {
    left |= SCOPA_BIT(card);
    v += lay(c, card); /* 5 */
    if (c->signals && c->v->plays == 0)
      v += 8 * (ai_signal_lay(c->v->hand, 1, m) -
                ai_signal_lay(c->v->hand, 0, m)); /* 7: the first card */
  }
  v -= 300 * exposure(c, left); /* 2 */
  return v + keeps_last(c, m);
}

static int modelled(const scopa_rules *r) {
  return r->capture == SCOPA_CAPTURE_MATCH && !r->ace_sweeps && !r->lowest_wins;
}

int bot_chitarrella_choose(scopa_bot *bot, const scopa_view *v,
                           const scopa_bot_limits *l, scopa_move *move) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_view_legal(v, moves, SCOPA_MAX_MOVES);
  if (n <= 0)
    return SCOPA_EINVAL;
  if (n > SCOPA_MAX_MOVES || !modelled(&v->rules))
    return bot_rules_choose(bot, v, l, move);
  chit c = {v, 0, 0, 0, 0, 0, 0, v->stock == 0, ai_signal_game(v)};
  int side = scopa_rules_side_of(&v->rules, v->seat);
  c.mine = v->pile[side];
  for (int k = 0; k < v->sides; k++)
    if (k != side)
      c.theirs |= v->pile[k];
  c.gone = SCOPA_ALL_CARDS & ~(v->unseen | v->hand);
  c.dealer_side = side == scopa_rules_side_of(&v->rules, v->dealer);
  int next = (v->seat + 1) % v->players;
  c.next_hand = v->hand_count[next];
  if (!c.next_hand && v->stock > 0)
    c.next_hand = v->rules.refill == 1 ? 1 : 3;
  c.last_play = v->plays + 1 == 40 - POPCOUNT(v->initial_table);
  int best = 0;
  double bv = score(&c, moves[0]);
  for (int i = 1; i < n; i++) {
    double s = score(&c, moves[i]);
    if (s > bv + 1e-9)
      bv = s, best = i;
  }
  *move = moves[best];
  return SCOPA_OK;
}
