/*
 * score.c -- scoring a round (RULES.md "Scoring a round", with the
 * primiera scales, most_sevens and all_sevens) and ending a game (RULES.md
 * "End of the game": all_coins_wins, cappotto, then the target with
 * lowest_wins, the tiebreaks and win_by_two).
 *
 * A category's point goes to the one side strictly ahead of every other;
 * a tie gives it to no one.  A round's total is the sum of its categories.
 */
#include "internal.h"

#include <string.h>

static const char *const CATEGORY_NAMES[SCOPA_CAT_COUNT] = {
    "carte",    "denari", "settebello", "primiera",  "scope",
    "re_bello", "napola", "sevens",     "all_sevens"};

const char *scopa_category_name(int category) {
  return category >= 0 && category < SCOPA_CAT_COUNT ? CATEGORY_NAMES[category]
                                                     : "?";
}

/* Primiera value of each rank, standard and faces_zero (index 1..10). */
static const int PRIMIERA_VALUE[2][11] = {
    {0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10},
    {0, 16, 12, 13, 14, 15, 18, 21, 0, 0, 0}};

/* Ranks from the best primiera card to the worst. */
static const int PRIMIERA_ORDER[10] = {7, 6, 1, 5, 4, 3, 2, 8, 9, 10};

/* Ranks in the order of the "sevens" count; faces counted together. */
static const int SEVENS_ORDER[7] = {7, 6, 1, 5, 4, 3, 2};

/* Bits 1..3 of every rank's nibble: with the denari (bit 0) of a pile
 * added, the trailing ones run up to the first missing denaro. */
#define DENARI_GAPS 0xEEEEEEEEEEull

static void describe_pile(const scopa_rules *r, scopa_cards pile,
                          scopa_side_score *out) {
  const int *value = PRIMIERA_VALUE[r->primiera == SCOPA_PRIMIERA_FACES_ZERO];
  out->cards = POPCOUNT(pile);
  out->denari = POPCOUNT(pile & SCOPA_DENARI_CARDS);
  out->settebello = (pile & SCOPA_BIT(SCOPA_SETTEBELLO)) != 0;
  /* The best card of each suit: rank by rank in primiera order, the suits
   * (a nibble) holding that rank and no better one. */
  unsigned done = 0;
  int primiera = 0;
  for (int k = 0; k < 10; k++) {
    int rank = PRIMIERA_ORDER[k];
    unsigned held = (unsigned)(pile >> (4 * (rank - 1))) & 0xF;
    primiera += value[rank] * __builtin_popcount(held & ~done);
    done |= held;
  }
  out->primiera = primiera;
  out->suits = __builtin_popcount(done);
  for (int i = 0; i < 7; i++)
    out->sevens[i] = POPCOUNT(pile & SCOPA_RANK_CARDS(SEVENS_ORDER[i]));
  out->sevens[7] = POPCOUNT(pile & (SCOPA_RANK_CARDS(8) | SCOPA_RANK_CARDS(9) |
                                    SCOPA_RANK_CARDS(10)));
  /* The run of denari from the ace: 1d, 2d, 3d, ... */
  int run = LOWEST(~((pile & SCOPA_DENARI_CARDS) | DENARI_GAPS)) / 4;
  out->napola = run >= 3 ? run : 0;
}

/* The one side whose key is strictly highest, or -1 on a tie at the top. */
static int strict_best(const int *key, int sides) {
  int best = 0, count = 0;
  for (int i = 1; i < sides; i++)
    if (key[i] > key[best])
      best = i;
  for (int i = 0; i < sides; i++)
    count += key[i] == key[best];
  return count == 1 ? best : -1;
}

/* What primiera compares, as one number (higher is better): under
 * "standard" and "faces_zero", a complete primiera (all four suits) above
 * any incomplete one, then the sum; under "sum" the sum alone; under
 * "complete_only" the sum of a complete primiera, 0 (never scoring) for
 * an incomplete one; under "sevens", the counts in order, four bits each
 * (a count is at most 12). */
static int primiera_key(const scopa_rules *r, const scopa_side_score *x) {
  int complete = x->suits == 4;
  switch (r->primiera) {
  case SCOPA_PRIMIERA_SEVENS: {
    int key = 0;
    for (int k = 0; k < 8; k++)
      key = key << 4 | x->sevens[k];
    return key;
  }
  case SCOPA_PRIMIERA_SUM:
    return x->primiera;
  case SCOPA_PRIMIERA_COMPLETE_ONLY:
    return complete ? x->primiera : 0;
  default:
    return complete << 16 | x->primiera;
  }
}

/* The category's point to the one side strictly ahead on key[]. */
static void award(scopa_score *s, int category, const int *key) {
  if (s->sides == 2) {
    /* The usual case, without branches: ties give no one the point. */
    s->side[0].points[category] = key[0] > key[1];
    s->side[1].points[category] = key[1] > key[0];
    return;
  }
  int w = strict_best(key, s->sides);
  if (w >= 0)
    s->side[w].points[category] = 1;
}

void scopa_score_piles(const scopa_rules *r, int sides, const scopa_cards *pile,
                       const uint8_t *scope, scopa_score *s) {
  int cards[SCOPA_MAX_SEATS], denari[SCOPA_MAX_SEATS], prim[SCOPA_MAX_SEATS];
  int sevens[SCOPA_MAX_SEATS];
  memset(s, 0, sizeof *s);
  s->sides = sides;
  for (int i = 0; i < sides; i++) {
    scopa_side_score *x = &s->side[i];
    describe_pile(r, pile[i], x);
    x->scope = scope[i];
    x->points[SCOPA_CAT_SCOPE] = scope[i];
    x->points[SCOPA_CAT_SETTEBELLO] = x->settebello;
    x->points[SCOPA_CAT_RE_BELLO] =
        r->re_bello && (pile[i] & SCOPA_BIT(SCOPA_RE_BELLO));
    x->points[SCOPA_CAT_NAPOLA] = r->napola ? x->napola : 0;
    x->points[SCOPA_CAT_ALL_SEVENS] = x->sevens[0] == 4 ? r->all_sevens : 0;
    sevens[i] = x->sevens[0];
    cards[i] = x->cards;
    denari[i] = x->denari;
    prim[i] = primiera_key(r, x);
  }
  award(s, SCOPA_CAT_CARTE, cards);
  award(s, SCOPA_CAT_DENARI, denari);
  if (r->primiera != SCOPA_PRIMIERA_OFF)
    award(s, SCOPA_CAT_PRIMIERA, prim);
  if (r->most_sevens)
    award(s, SCOPA_CAT_SEVENS, sevens);
  for (int i = 0; i < sides; i++)
    for (int c = 0; c < SCOPA_CAT_COUNT; c++)
      s->side[i].total += s->side[i].points[c];
}

int scopa_state_score(const scopa_state *st, scopa_score *score) {
  if (!scopa_state_over(st))
    return SCOPA_EINVAL;
  scopa_score_piles(&st->rules, st->sides, st->pile, st->scope, score);
  return SCOPA_OK;
}

/* ---- end of the game ---------------------------------------------- */

void scopa_tally_init(scopa_tally *g, const scopa_rules *rules,
                      int first_dealer) {
  memset(g, 0, sizeof *g);
  g->rules = *rules;
  g->sides = scopa_rules_sides(rules);
  g->dealer = first_dealer;
  g->winner = -1;
}

/* RULES.md "End of the game", cappotto: one side at or over it, every
 * other side at 0. */
static int cappotto_winner(const scopa_tally *g) {
  if (g->rules.cappotto <= 0)
    return -1;
  int w = -1;
  for (int i = 0; i < g->sides; i++) {
    if (g->totals[i] >= g->rules.cappotto && w < 0)
      w = i;
    else if (g->totals[i] != 0)
      return -1;
  }
  return w;
}

/* The side with the strictly highest of `totals`, or -1 on a tie. */
static int highest(const int *totals, int sides, const int *among) {
  int best = -1, tie = 0;
  for (int i = 0; i < sides; i++) {
    if (among && !among[i])
      continue;
    if (best < 0 || totals[i] > totals[best])
      best = i, tie = 0;
    else if (totals[i] == totals[best])
      tie = 1;
  }
  return tie ? -1 : best;
}

/* tiebreak "count_order": add the round category by category; the first
 * side to reach the target wins (a side already there counts as first).
 * Sides arriving in the same step compare their totals after the whole
 * round: comparing at that step would, for sides already at the target
 * (who can only be tied there), never decide. */
static int count_order_winner(const scopa_tally *g, const int *before,
                              const scopa_score *s) {
  int run[SCOPA_MAX_SEATS], there[SCOPA_MAX_SEATS];
  memcpy(run, before, sizeof run);
  for (int step = -1; step < SCOPA_CAT_COUNT; step++) {
    int any = 0;
    for (int i = 0; i < g->sides; i++) {
      if (step >= 0)
        run[i] += s->side[i].points[step];
      there[i] = run[i] >= g->rules.target;
      any |= there[i];
    }
    if (any)
      return highest(g->totals, g->sides, there);
  }
  return -1;
}

/* tiebreak "count_order_on_tie": among the sides tied at the top, add
 * the round category by category from the totals before it; the first
 * one at or over the target and strictly ahead of the other tied sides
 * wins (looked at before the first category too). */
static int on_tie_winner(const scopa_tally *g, const int *before,
                         const scopa_score *s) {
  int top = g->totals[0], tied[SCOPA_MAX_SEATS], run[SCOPA_MAX_SEATS];
  for (int i = 1; i < g->sides; i++)
    if (g->totals[i] > top)
      top = g->totals[i];
  memcpy(run, before, sizeof run);
  for (int i = 0; i < g->sides; i++)
    tied[i] = g->totals[i] == top;
  for (int step = -1; step < SCOPA_CAT_COUNT; step++) {
    for (int i = 0; i < g->sides; i++)
      if (step >= 0)
        run[i] += s->side[i].points[step];
    int w = highest(run, g->sides, tied);
    if (w >= 0 && run[w] >= g->rules.target)
      return w;
  }
  return -1;
}

/* The side with the strictly lowest total, or -1 on a tie (lowest_wins). */
static int lowest(const int *totals, int sides) {
  int neg[SCOPA_MAX_SEATS];
  for (int i = 0; i < sides; i++)
    neg[i] = -totals[i];
  return highest(neg, sides, NULL);
}

/* all_coins_wins: the side whose pile holds the ten coins. */
static int all_coins_winner(const scopa_tally *g, const scopa_score *s) {
  if (!g->rules.all_coins_wins)
    return -1;
  for (int i = 0; i < g->sides; i++)
    if (s->side[i].denari == 10)
      return i;
  return -1;
}

static int leads_by_two(const scopa_tally *g, int w) {
  for (int i = 0; i < g->sides; i++)
    if (i != w && g->totals[w] - g->totals[i] < 2)
      return 0;
  return 1;
}

/* The target's rule, once some side has reached it (RULES.md "End of the
 * game"): the highest total, or the lowest under lowest_wins, with the
 * tiebreak and win_by_two. */
static int target_winner(const scopa_tally *g, const int *before,
                         const scopa_score *s, int at_target) {
  const scopa_rules *r = &g->rules;
  if (r->lowest_wins)
    return lowest(g->totals, g->sides);
  if (at_target >= 2 && r->tiebreak == SCOPA_TIEBREAK_COUNT_ORDER)
    return count_order_winner(g, before, s);
  int w = highest(g->totals, g->sides, NULL);
  if (w < 0 && r->tiebreak == SCOPA_TIEBREAK_COUNT_ORDER_ON_TIE)
    return on_tie_winner(g, before, s);
  if (w >= 0 && r->win_by_two && !leads_by_two(g, w))
    return -1;
  return w;
}

int scopa_tally_add(scopa_tally *g, const scopa_score *s) {
  if (g->finished)
    return SCOPA_EOVER;
  int before[SCOPA_MAX_SEATS] = {0}, at_target = 0;
  for (int i = 0; i < g->sides; i++) {
    before[i] = g->totals[i];
    g->totals[i] += s->side[i].total;
    at_target += g->totals[i] >= g->rules.target;
  }
  g->rounds++;
  g->dealer = (g->dealer + 1) % g->rules.players;
  int w = all_coins_winner(g, s);
  if (w < 0)
    w = cappotto_winner(g);
  if (w < 0 && at_target >= 1)
    w = target_winner(g, before, s, at_target);
  if (w >= 0) {
    g->finished = 1;
    g->winner = w;
  }
  return SCOPA_OK;
}
