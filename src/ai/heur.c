/*
 * heur.c -- the move values of heur.h, from the scoring in force (the
 * primiera only when it counts, sevens under most_sevens and all_sevens,
 * scope under last_card_scopa and the ace options, the sign of
 * lowest_wins).  Greedy reads the table as it is;
 * with `counting` the odds come from the exact unseen cards (hypergeometric
 * chance that the next seat holds a rank), majorities already decided stop
 * counting, and laying from a pair earns its retake.
 */
#include "heur.h"

#include "internal.h"

#include <math.h>

#define SPARIGLIO 0.15

double ai_holds(int k, int u, int h) {
  if (k <= 0 || h <= 0)
    return 0;
  if (h >= u)
    return 1;
  double none = 1;
  for (int i = 0; i < h; i++)
    none *= (double)(u - k - i) / (double)(u - i);
  return none < 0 ? 1 : 1 - none;
}

/* Chance the next seat holds a card of rank r. */
static double has_rank(const ai_heur *h, int r) {
  if (r < 1 || r > 10)
    return 0;
  if (!h->counting)
    return (SCOPA_RANK_CARDS(r) & ~h->hand & ~h->table) ? 0.55 : 0;
  return ai_holds(POPCOUNT(h->unseen & SCOPA_RANK_CARDS(r)),
                  POPCOUNT(h->unseen), h->next_hand);
}

/* The rank that sweeps a table (0: none), ace sweeps aside. */
static int sweep_rank(const scopa_rules *r, scopa_cards t) {
  int s = cards_sum(t);
  if (r->capture == SCOPA_CAPTURE_QUINDICI)
    return s < 15 && s >= 5 ? 15 - s : 0;
  return s <= 10 ? s : 0;
}

/* Value of cards for a side, given its pile and the opponents'. */
static double cards_value(const ai_heur *h, scopa_cards got) {
  int decided = h->counting;
  double card = 0.07, coin = 0.17;
  if (decided && (POPCOUNT(h->mine) > 20 || POPCOUNT(h->theirs) > 20))
    card = 0.01;
  if (decided && (POPCOUNT(h->mine & SCOPA_DENARI_CARDS) > 5 ||
                  POPCOUNT(h->theirs & SCOPA_DENARI_CARDS) > 5))
    coin = 0.01;
  double v = card * POPCOUNT(got) + coin * POPCOUNT(got & SCOPA_DENARI_CARDS);
  if (got & SCOPA_BIT(SCOPA_SETTEBELLO))
    v += 1.0;
  if (h->rules->re_bello && (got & SCOPA_BIT(SCOPA_RE_BELLO)))
    v += 1.0;
  if (h->rules->primiera != SCOPA_PRIMIERA_OFF) {
    double seven = 0.33, six = 0.12, ace = 0.08;
    if (decided && POPCOUNT(h->mine & SCOPA_RANK_CARDS(7)) >= 3)
      seven = six = ace = 0.03;
    if (decided && POPCOUNT(h->theirs & SCOPA_RANK_CARDS(7)) >= 3)
      seven = six = ace = 0.05;
    v += seven * POPCOUNT(got & SCOPA_RANK_CARDS(7)) +
         six * POPCOUNT(got & SCOPA_RANK_CARDS(6)) +
         ace * POPCOUNT(got & SCOPA_RANK_CARDS(1));
  }
  /* most_sevens is a majority of four, all_sevens a bonus for four:
   * under either, sevens are chased for themselves. */
  double sevens = 0;
  if (h->rules->most_sevens)
    sevens += decided && (POPCOUNT(h->mine & SCOPA_RANK_CARDS(7)) >= 3 ||
                          POPCOUNT(h->theirs & SCOPA_RANK_CARDS(7)) >= 3)
                  ? 0.02
                  : 0.3;
  if (h->rules->all_sevens && !(h->theirs & SCOPA_RANK_CARDS(7)))
    sevens += 0.12 * h->rules->all_sevens;
  return v + sevens * POPCOUNT(got & SCOPA_RANK_CARDS(7));
}

/* An ace can sweep this table (RULES.md ace_sweeps, case 3). */
static int ace_can_sweep(const scopa_rules *r, scopa_cards t) {
  return r->ace_sweeps && t &&
         (!(t & SCOPA_RANK_CARDS(1)) ||
          r->ace_sweep_with_ace != SCOPA_ACE_WITH_ACE_NO);
}

/* What the next seat may get from the table we leave. */
static double danger(const ai_heur *h, scopa_cards t) {
  if (!t || h->last_play)
    return 0;
  double d = 0;
  int r = sweep_rank(h->rules, t);
  if (r)
    d += has_rank(h, r) * (1.0 + cards_value(h, t));
  else if (ace_can_sweep(h->rules, t))
    d += has_rank(h, 1) * (h->rules->ace_sweep_scopa + cards_value(h, t));
  /* Valuable cards left where a matching rank takes them. */
  FOR_EACH_CARD(c, t) {
    double v = cards_value(h, SCOPA_BIT(c));
    if (v > 0.15)
      d += 0.6 * has_rank(h, SCOPA_RANK(c)) * v;
  }
  return d;
}

double ai_heur_move(const ai_heur *h, scopa_move m) {
  int card = SCOPA_MOVE_CARD(m);
  scopa_cards takes = SCOPA_MOVE_TAKES(m);
  double v = 0;
  scopa_cards left = h->table;
  /* A scopa counts with the last card only under last_card_scopa. */
  int scopa_now = !h->last_play || h->rules->last_card_scopa;
  if (takes) {
    left &= ~takes;
    v += cards_value(h, takes | SCOPA_BIT(card));
    /* Scopone: a capture by sum breaks the pairing of ranks (spariglio),
     * which helps the side that did not deal; the dealer's side keeps the
     * ranks paired (appariglio), since it plays last. */
    if (h->counting && h->dealer_team && POPCOUNT(takes) > 1)
      v -= SPARIGLIO * h->dealer_team;
    if (!left && scopa_now) {
      int ace_sweep =
          SCOPA_RANK(card) == 1 && ace_can_sweep(h->rules, h->table) &&
          !(POPCOUNT(h->table) == 1 && (h->table & SCOPA_RANK_CARDS(1)));
      int sweep_is_scopa = !ace_sweep || h->rules->ace_sweep_scopa;
      v += sweep_is_scopa ? 1.0 : 0;
    }
  } else if (!h->table && SCOPA_RANK(card) == 1 && h->rules->ace_sweeps &&
             h->rules->ace_empty_table == SCOPA_ACE_EMPTY_TAKEN) {
    /* An ace taken from an empty table (the first play under a
     * no-sweep ace_first_play aside, which the bots do not tell). */
    v += cards_value(h, SCOPA_BIT(card)) +
         (scopa_now && h->rules->ace_sweep_scopa ? 1.0 : 0);
  } else {
    left |= SCOPA_BIT(card);
    /* A card laid from a pair can be taken back by its twin. */
    if (h->counting &&
        POPCOUNT(h->hand & SCOPA_RANK_CARDS(SCOPA_RANK(card))) >= 2)
      v += 0.08;
    /* Low cards are cheap to lay and keep tables sweepable by us. */
    v -= 0.004 * SCOPA_RANK(card);
  }
  v -= danger(h, left);
  /* The scoring in force: under lowest_wins (Scopa a perdere) every point
   * taken counts against the taker, so the values change sign. */
  return h->rules->lowest_wins ? -v : v;
}

int ai_heur_best(const ai_heur *h, const scopa_move *moves, int n,
                 double *best_value) {
  int best = 0;
  double bv = -1e9;
  for (int i = 0; i < n; i++) {
    double v = ai_heur_move(h, moves[i]);
    if (v > bv + 1e-9) {
      bv = v;
      best = i;
    }
  }
  if (best_value)
    *best_value = bv;
  return best;
}

/* ---- the softened player ------------------------------------------------ */

void ai_heur_softmax_of(const ai_heur *h, const scopa_move *moves, int n,
                        double temperature, ai_heur_softmax *sm) {
  double score[SCOPA_MAX_MOVES];
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  sm->top = -1e9;
  sm->sum = 0;
  sm->n = n;
  for (int i = 0; i < n; i++) {
    score[i] = ai_heur_move(h, moves[i]);
    if (score[i] > sm->top)
      sm->top = score[i];
  }
  for (int i = 0; i < n; i++)
    sm->sum += exp((score[i] - sm->top) / temperature);
}

double ai_heur_softmax_chance(const ai_heur *h, const ai_heur_softmax *sm,
                              scopa_move move, double temperature,
                              double floor) {
  if (sm->n <= 1)
    return 1;
  double e = exp((ai_heur_move(h, move) - sm->top) / temperature);
  return floor / sm->n + (1 - floor) * e / sm->sum;
}

void ai_heur_chances(const ai_heur *h, const scopa_move *moves, int n,
                     double temperature, double floor, double *p) {
  double top = -1e9, sum = 0;
  for (int i = 0; i < n; i++) {
    p[i] = ai_heur_move(h, moves[i]);
    if (p[i] > top)
      top = p[i];
  }
  for (int i = 0; i < n; i++)
    sum += p[i] = exp((p[i] - top) / temperature);
  for (int i = 0; i < n; i++)
    p[i] = floor / n + (1 - floor) * p[i] / sum;
}

double ai_heur_chance(const ai_heur *h, const scopa_move *moves, int n,
                      scopa_move move, double temperature, double floor) {
  double p[SCOPA_MAX_MOVES];
  if (n <= 1)
    return 1;
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  ai_heur_chances(h, moves, n, temperature, floor, p);
  for (int i = 0; i < n; i++)
    if (moves[i] == move)
      return p[i];
  return floor / n;
}

void ai_heur_of_view(ai_heur *h, const scopa_view *v, int counting) {
  int side = scopa_rules_side_of(&v->rules, v->seat);
  h->rules = &v->rules;
  h->hand = v->hand;
  h->table = v->table;
  h->mine = v->pile[side];
  h->theirs = 0;
  for (int k = 0; k < v->sides; k++)
    if (k != side)
      h->theirs |= v->pile[k];
  h->unseen = v->unseen;
  int next = (v->seat + 1) % v->players;
  h->next_hand = v->hand_count[next];
  if (h->next_hand == 0 && v->stock > 0)
    h->next_hand = v->rules.refill == 1 ? 1 : 3;
  int total = v->rules.game == SCOPA_GAME_SCIENTIFICO ? 40 : 36;
  h->last_play = v->plays + 1 == total;
  h->counting = counting;
  h->dealer_team = 0;
  if (v->rules.teams)
    h->dealer_team = side == scopa_rules_side_of(&v->rules, v->dealer) ? 1 : -1;
}

int ai_heur_choose(const scopa_view *view, int counting, scopa_move *move) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_view_legal(view, moves, SCOPA_MAX_MOVES);
  if (n <= 0)
    return SCOPA_EINVAL;
  ai_heur h;
  ai_heur_of_view(&h, view, counting);
  *move = moves[ai_heur_best(&h, moves,
                             n < SCOPA_MAX_MOVES ? n : SCOPA_MAX_MOVES, NULL)];
  return n;
}
