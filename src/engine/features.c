/*
 * features.c -- a seat's view as a fixed vector of SCOPA_FEATURES floats
 * in 0..1, and the legal moves as a mask over SCOPA_ACTIONS fixed actions,
 * for learning agents (learn.c's environment, bindings/python).
 *
 * Everything is relative to the viewing seat: seat k below means the k-th
 * seat after it in play order (k = 0 is the seat itself), side k the k-th
 * side after its own.  So one agent can play every seat.  The layout and
 * the action encoding are documented in docs/env.md and must not change
 * without saying so there: trained agents depend on them.  What the
 * actions must keep true: every legal move has exactly one action on
 * exactly one page, whatever the rules (scopa.h "Learning agents").
 */
#include "learn.h"

#include <stdlib.h>
#include <string.h>

enum {
  F_HAND = 0,      /* 40: the seat's hand                       */
  F_TABLE = 40,    /* 40: the table                             */
  F_PILES = 80,    /* 4 x 40: each side's pile, own side first  */
  F_UNSEEN = 240,  /* 40: cards in other hands or the stock     */
  F_PLAYED = 280,  /* 4 x 40: cards each seat played this round */
  F_SCALARS = 440, /* the rest, below                           */
  /* Added with six seats and the variants (the layout above is kept): */
  F_PILES_45 = 480,  /* 2 x 40: the piles of sides 4 and 5          */
  F_PLAYED_45 = 560, /* 2 x 40: the cards seats 4 and 5 played      */
  F_MORE = 640,      /* 32 more scalars, below                      */
};

/* The compact observation (scopa_view_features_compact) holds each
 * feature as a small integer: 1 for a 0/1 feature, and for a ratio its
 * count, clamped as the ratio is to 0..1 of its divisor (a game score past
 * the target, a target past 32, more than 10 scope).  The float feature is
 * that count divided by its divisor (divisor below), computed in float
 * as the count over the divisor, so the two agree exactly; only a game
 * score under a target past SCOPA_COMPACT_MAX is scaled to fit an int8. */
static int clamp(int x, int hi) { return x < 0 ? 0 : x > hi ? hi : x; }

static int score_count(int score, int target) {
  int c = clamp(score, target);
  return target <= SCOPA_COMPACT_MAX ? c : c * SCOPA_COMPACT_MAX / target;
}

/* The divisor of feature i under rules r (1 for the 0/1 features). */
static int divisor(const scopa_rules *r, int i) {
  int target = r->target > 0 ? r->target : 1;
  if ((i >= 440 && i <= 443) || (i >= 446 && i <= 449) ||
      (i >= 640 && i <= 643))
    return 10; /* hand counts, scope */
  if (i == 444 || i == 445)
    return 40; /* stock, plays */
  if ((i >= 450 && i <= 453) || i == 644 || i == 645)
    return target <= SCOPA_COMPACT_MAX ? target : SCOPA_COMPACT_MAX;
  if (i == 478)
    return 32;
  if (i == 665)
    return 4;
  return 1;
}

/* The features that are counts, not 0/1: where the float ones divide. */
static const short RATIOS[] = {440, 441, 442, 443, 444, 445, 446, 447,
                               448, 449, 450, 451, 452, 453, 478, 640,
                               641, 642, 643, 644, 645, 665};
#define N_RATIOS (int)(sizeof RATIOS / sizeof RATIOS[0])

/* Sets out[c] to 1 for each card c of set (out is zeroed already): only
 * the set bits are visited, the features' inner loop. */
static void set_cards(int8_t *out, scopa_cards set) {
  for (; set; set &= set - 1)
    out[__builtin_ctzll(set)] = 1;
}

/* What the features read of a seat's knowledge: filled from a view, or
 * from a round and a seat without building a view (the environments'
 * observations: no 600-byte view to clear and copy at every step). */
typedef struct seen {
  const scopa_rules *rules;
  int seat, players, sides, dealer, plays, stock, last_capturer;
  scopa_cards hand, table, unseen;
  const scopa_cards *pile;
  const uint8_t *scope;
  const scopa_move *moves;
  uint8_t hand_count[SCOPA_MAX_SEATS];
  int32_t scores[SCOPA_MAX_SEATS];
} seen;

static void seen_view(const scopa_view *v, seen *s) {
  *s = (seen){.rules = &v->rules,
              .seat = v->seat,
              .players = v->players,
              .sides = v->sides,
              .dealer = v->dealer,
              .plays = v->plays,
              .stock = v->stock,
              .last_capturer = v->last_capturer,
              .hand = v->hand,
              .table = v->table,
              .unseen = v->unseen,
              .pile = v->pile,
              .scope = v->scope,
              .moves = v->moves};
  memcpy(s->hand_count, v->hand_count, sizeof s->hand_count);
  memcpy(s->scores, v->scores, sizeof s->scores);
}

/* As scopa_view_of would see it (core/view.c): the same numbers. */
static void seen_state(const scopa_state *st, int seat, const int *scores,
                       seen *s) {
  scopa_cards known = st->hand[seat] | st->table;
  for (int k = 0; k < st->sides; k++)
    known |= st->pile[k];
  *s = (seen){.rules = &st->rules,
              .seat = seat,
              .players = st->players,
              .sides = st->sides,
              .dealer = st->dealer,
              .plays = st->plays,
              .stock = 40 - st->next,
              .last_capturer = st->last_capturer,
              .hand = st->hand[seat],
              .table = st->table,
              .unseen = SCOPA_ALL_CARDS & ~known,
              .pile = st->pile,
              .scope = st->scope,
              .moves = st->moves};
  for (int k = 0; k < SCOPA_MAX_SEATS; k++) {
    s->hand_count[k] =
        k < st->players ? (uint8_t)__builtin_popcountll(st->hand[k]) : 0;
    s->scores[k] = scores && k < st->sides ? scores[k] : 0;
  }
}

static void compact(const seen *v, int8_t *out) {
  memset(out, 0, SCOPA_FEATURES);
  const scopa_rules *r = v->rules;
  int P = v->players, S = v->sides;
  int own = scopa_rules_side_of(r, v->seat);
  scopa_cards played[SCOPA_MAX_SEATS] = {0};
  for (int i = 0, who = (v->dealer + 1) % P; i < v->plays; i++) {
    played[who] |= SCOPA_BIT(SCOPA_MOVE_CARD(v->moves[i]));
    who = who + 1 == P ? 0 : who + 1; /* seats in turn, no division */
  }
  set_cards(out + F_HAND, v->hand);
  set_cards(out + F_TABLE, v->table);
  for (int k = 0; k < S; k++)
    set_cards(out + (k < 4 ? F_PILES + 40 * k : F_PILES_45 + 40 * (k - 4)),
              v->pile[(own + k) % S]);
  set_cards(out + F_UNSEEN, v->unseen);
  for (int k = 0; k < P; k++)
    set_cards(out + (k < 4 ? F_PLAYED + 40 * k : F_PLAYED_45 + 40 * (k - 4)),
              played[(v->seat + k) % P]);
  int8_t *x = out + F_SCALARS, *y = out + F_MORE;
  int target = r->target > 0 ? r->target : 1;
  for (int k = 0; k < P; k++) /* 440..443, then 640..641: / 10 */
    *(k < 4 ? &x[k] : &y[k - 4]) =
        (int8_t)clamp(v->hand_count[(v->seat + k) % P], 10);
  x[4] = (int8_t)v->stock;      /* 444: / 40 */
  x[5] = (int8_t)v->plays;      /* 445: / 40 */
  for (int k = 0; k < S; k++) { /* 446..453, then 642..645 */
    *(k < 4 ? &x[6 + k] : &y[2 + k - 4]) =
        (int8_t)clamp(v->scope[(own + k) % S], 10);
    *(k < 4 ? &x[10 + k] : &y[4 + k - 4]) =
        (int8_t)score_count(v->scores[(own + k) % S], target);
  }
  /* 454..458: who captured last, relative; 458 = nobody yet; 646..647 */
  if (v->last_capturer == SCOPA_NO_SEAT) {
    x[18] = 1;
  } else {
    int k = (v->last_capturer - v->seat + P) % P;
    *(k < 4 ? &x[14 + k] : &y[6 + k - 4]) = 1;
  }
  if (P <= 4)
    x[19 + (P - 2)] = 1; /* 459..461 players */
  else
    y[8] = 1;                                   /* 648: 6 players */
  x[22] = (int8_t)r->teams;                     /* 462 */
  x[23 + r->game] = 1;                          /* 463..465 */
  x[26] = (int8_t)r->mandatory_capture;         /* 466 */
  x[27] = (int8_t)r->fewest_cards;              /* 467 */
  x[28] = (int8_t)r->ace_sweeps;                /* 468 */
  x[29] = (int8_t)r->ace_sweep_scopa;           /* 469 */
  x[30] = r->capture == SCOPA_CAPTURE_QUINDICI; /* 470 */
  if (r->primiera <= SCOPA_PRIMIERA_OFF)
    x[31 + r->primiera] = 1; /* 471..474 */
  else
    y[10 + r->primiera - SCOPA_PRIMIERA_SUM] = 1;             /* 650..651 */
  x[35] = (int8_t)r->re_bello;                                /* 475 */
  x[36] = (int8_t)r->napola;                                  /* 476 */
  x[37] = r->refill == 1;                                     /* 477 */
  x[38] = (int8_t)clamp(r->target, 32);                       /* 478: / 32 */
  x[39] = (int8_t)(v->dealer == v->seat);                     /* 479 */
  y[9] = r->teams && r->team_size == 3;                       /* 649 */
  y[12] = (int8_t)r->deal_bonus;                              /* 652 */
  y[13] = (int8_t)!r->single_match_first;                     /* 653 */
  y[14] = r->max_capture != 0;                                /* 654 */
  y[15] = (int8_t)r->last_card_scopa;                         /* 655 */
  y[16] = r->ace_sweep_with_ace == SCOPA_ACE_WITH_ACE_YES;    /* 656 */
  y[17] = r->ace_sweep_with_ace == SCOPA_ACE_WITH_ACE_CHOICE; /* 657 */
  y[18] = r->ace_first_play == SCOPA_ACE_FIRST_NO_SWEEP;      /* 658 */
  y[19] = r->ace_first_play == SCOPA_ACE_FIRST_NO_ACE;        /* 659 */
  y[20] = (int8_t)r->ace_empty_table;                         /* 660 */
  y[21] = (int8_t)r->ace_sweep_optional;                      /* 661 */
  y[22] = r->leftovers == SCOPA_LEFTOVERS_DEALER;             /* 662 */
  y[23] = r->leftovers == SCOPA_LEFTOVERS_NOBODY;             /* 663 */
  y[24] = (int8_t)r->most_sevens;                             /* 664 */
  y[25] = (int8_t)clamp(r->all_sevens, 4);                    /* 665: / 4 */
  y[26] = (int8_t)r->all_coins_wins;                          /* 666 */
  y[27] = (int8_t)r->lowest_wins;                             /* 667 */
  y[28] = r->tiebreak == SCOPA_TIEBREAK_COUNT_ORDER;          /* 668 */
  y[29] = r->tiebreak == SCOPA_TIEBREAK_COUNT_ORDER_ON_TIE;   /* 669 */
  y[30] = (int8_t)r->win_by_two;                              /* 670 */
  y[31] = r->cappotto > 0;                                    /* 671 */
}

/* The float features: the counts over their divisors (scores under a
 * target past SCOPA_COMPACT_MAX computed unscaled). */
static void features(const seen *v, float *out) {
  int8_t c[SCOPA_FEATURES];
  compact(v, c);
  for (int i = 0; i < SCOPA_FEATURES; i++)
    out[i] = (float)c[i];
  for (int j = 0; j < N_RATIOS; j++)
    out[RATIOS[j]] /= (float)divisor(v->rules, RATIOS[j]);
  if (v->rules->target > SCOPA_COMPACT_MAX) { /* the scores, unscaled */
    const scopa_rules *r = v->rules;
    int own = scopa_rules_side_of(r, v->seat);
    for (int k = 0; k < v->sides; k++)
      out[k < 4 ? 450 + k : 644 + k - 4] =
          (float)clamp(v->scores[(own + k) % v->sides], r->target) /
          (float)r->target;
  }
}

int scopa_view_features_compact(const scopa_view *view, int8_t *out, int cap) {
  if (cap < SCOPA_FEATURES)
    return SCOPA_ENOSPACE;
  seen s;
  seen_view(view, &s);
  compact(&s, out);
  return SCOPA_FEATURES;
}

int scopa_view_features(const scopa_view *view, float *out, int cap) {
  if (cap < SCOPA_FEATURES)
    return SCOPA_ENOSPACE;
  seen s;
  seen_view(view, &s);
  features(&s, out);
  return SCOPA_FEATURES;
}

void scopa__state_features(const scopa_state *st, int seat, const int *scores,
                           float *out, int8_t *small) {
  seen s;
  seen_state(st, seat, scores, &s);
  if (out)
    features(&s, out);
  if (small)
    compact(&s, small);
}

void scopa_features_divisors(const scopa_rules *rules, float *out) {
  for (int i = 0; i < SCOPA_FEATURES; i++)
    out[i] = (float)divisor(rules, i);
}

/* One page of actions being laid out: where each move of the position
 * goes (see scopa.h "Learning agents").  Overflow moves are numbered in
 * the order they come; a page shows `room` of them from `skip` on. */
typedef struct layout {
  scopa_move *table;
  uint8_t *mask;
  uint16_t *list; /* NULL, or the actions set, in the order set */
  scopa_cards hand;
  long room, skip, overflow;
  int count;
} layout;

static void put(layout *lay, int a, scopa_move m) {
  lay->mask[a] = 1;
  if (lay->table)
    lay->table[a] = m;
  if (lay->list)
    lay->list[lay->count] = (uint16_t)a;
  lay->count++;
}

/* The i-th free action: slot i % 32 of the (i / 32)-th card not held. */
static int free_action(scopa_cards hand, long i) {
  long k = i / SCOPA_ACTION_SLOTS;
  for (int card = 0; card < 40; card++)
    if (!(hand & SCOPA_BIT(card)) && k-- == 0)
      return card * SCOPA_ACTION_SLOTS + (int)(i % SCOPA_ACTION_SLOTS);
  return -1;
}

static void put_overflow(layout *lay, scopa_move m) {
  long i = lay->overflow++ - lay->skip;
  if (i >= 0 && i < lay->room)
    put(lay, free_action(lay->hand, i), m);
}

static int cmp_moves(const void *a, const void *b) {
  scopa_move x = *(const scopa_move *)a, y = *(const scopa_move *)b;
  return (x > y) - (x < y);
}

static void sort_moves(scopa_move *m, int n) {
  if (n > 64) {
    qsort(m, (size_t)n, sizeof *m, cmp_moves);
    return;
  }
  for (int i = 1; i < n; i++) /* insertion sort: n is small in play */
    for (int j = i; j > 0 && m[j] < m[j - 1]; j--) {
      scopa_move t = m[j];
      m[j] = m[j - 1];
      m[j - 1] = t;
    }
}

/* The slot a move asks for: 0 to lay, 1 + suit for one card taken, -1 for
 * the numbered slots. */
static int wanted_slot(scopa_move m) {
  scopa_cards takes = SCOPA_MOVE_TAKES(m);
  if (takes == 0)
    return 0;
  return (takes & (takes - 1)) == 0 ? 1 + SCOPA_SUIT(__builtin_ctzll(takes))
                                    : -1;
}

/* The moves of one card: lay at slot 0, single captures by suit at 1..4,
 * the rest at 5..31 in increasing order, then the overflow.  Page 0 shows
 * the card's slots; later pages only the overflow. */
static void layout_card(layout *lay, int card, scopa_move *moves, int n) {
  int base = card * SCOPA_ACTION_SLOTS, next = 5, page0 = lay->skip == 0;
  uint8_t used[5] = {0};
  sort_moves(moves, n);
  for (int i = 0; i < n; i++) {
    int slot = wanted_slot(moves[i]);
    if (slot >= 0 && !used[slot]) {
      used[slot] = 1;
    } else if (next < SCOPA_ACTION_SLOTS) {
      slot = next++;
    } else {
      put_overflow(lay, moves[i]);
      continue;
    }
    if (page0)
      put(lay, base + slot, moves[i]);
  }
}

int scopa__actions_page(const scopa_state *s, int page, scopa_move *work,
                        int cap, scopa_move *table, uint8_t *mask,
                        uint16_t *list) {
  if (!list)
    memset(mask, 0, SCOPA_ACTIONS);
  int seat = scopa_state_to_play(s);
  if (seat < 0 || page < 0)
    return 0;
  layout lay = {
      .table = table, .mask = mask, .list = list, .hand = s->hand[seat]};
  /* Each page shows room overflow moves on the free actions, and on the
   * last free action the next-page action while more are left. */
  long nfree = (40 - __builtin_popcountll(lay.hand)) * SCOPA_ACTION_SLOTS;
  lay.room = nfree - 1;
  lay.skip = (long)page * lay.room;
  for (int card = 0; card < 40; card++)
    if (lay.hand & SCOPA_BIT(card)) {
      int n = scopa_state_legal_card(s, card, work, cap);
      layout_card(&lay, card, work, n < cap ? n : cap);
    }
  if (lay.overflow - lay.skip > lay.room)
    put(&lay, free_action(lay.hand, lay.room), SCOPA_ACTION_MORE);
  return lay.count;
}

static int actions_page(const scopa_state *s, int page, scopa_move *work,
                        int cap, scopa_move *table, uint8_t *mask,
                        int *actions) {
  if (table)
    memset(table, 0, sizeof *table * SCOPA_ACTIONS);
  int n = scopa__actions_page(s, page, work, cap, table, mask, NULL);
  if (actions)
    for (int a = 0, k = 0; a < SCOPA_ACTIONS; a++)
      if (mask[a])
        actions[k++] = a;
  return n;
}

int scopa_state_actions_page(const scopa_state *s, int page, scopa_move *work,
                             scopa_move *table, uint8_t *mask, int *actions) {
  return actions_page(s, page, work, SCOPA_ACTION_WORK, table, mask, actions);
}

int scopa_state_actions(const scopa_state *s, scopa_move *table, uint8_t *mask,
                        int *actions) {
  scopa_move work[SCOPA_MAX_MOVES];
  return actions_page(s, 0, work, SCOPA_MAX_MOVES, table, mask, actions);
}
