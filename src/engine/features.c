/*
 * features.c -- a seat's view as a fixed vector of SCOPA_FEATURES floats,
 * and the legal moves as a mask over SCOPA_ACTIONS fixed actions, for
 * learning agents (bindings/python's environment).
 *
 * Everything is relative to the viewing seat: seat k below means the k-th
 * seat after it in play order (k = 0 is the seat itself), side k the k-th
 * side after its own.  So one agent can play every seat.  The layout is
 * documented in docs/engine.md and must not change without saying so
 * there: trained agents depend on it.
 */
#include "scopa.h"

#include <string.h>

enum {
  F_HAND = 0,        /* 40: the seat's hand                       */
  F_TABLE = 40,      /* 40: the table                             */
  F_PILES = 80,      /* 4 x 40: each side's pile, own side first  */
  F_UNSEEN = 240,    /* 40: cards in other hands or the stock     */
  F_PLAYED = 280,    /* 4 x 40: cards each seat played this round */
  F_SCALARS = 440,   /* the rest, below                           */
  /* Added with six seats and the variants (the layout above is kept): */
  F_PILES_45 = 480,  /* 2 x 40: the piles of sides 4 and 5          */
  F_PLAYED_45 = 560, /* 2 x 40: the cards seats 4 and 5 played      */
  F_MORE = 640,      /* 32 more scalars, below                      */
};

static void set_cards(float *out, scopa_cards set) {
  for (int c = 0; c < 40; c++)
    out[c] = (set >> c) & 1 ? 1.0f : 0.0f;
}

int scopa_view_features(const scopa_view *v, float *out, int cap) {
  if (cap < SCOPA_FEATURES)
    return SCOPA_ENOSPACE;
  memset(out, 0, sizeof *out * SCOPA_FEATURES);
  const scopa_rules *r = &v->rules;
  int P = v->players, S = v->sides;
  int own = scopa_rules_side_of(r, v->seat);
  scopa_cards played[SCOPA_MAX_SEATS] = {0};
  for (int i = 0; i < v->plays; i++)
    played[(v->dealer + 1 + i) % P] |= SCOPA_BIT(SCOPA_MOVE_CARD(v->moves[i]));
  set_cards(out + F_HAND, v->hand);
  set_cards(out + F_TABLE, v->table);
  for (int k = 0; k < S; k++)
    set_cards(out + (k < 4 ? F_PILES + 40 * k : F_PILES_45 + 40 * (k - 4)),
              v->pile[(own + k) % S]);
  set_cards(out + F_UNSEEN, v->unseen);
  for (int k = 0; k < P; k++)
    set_cards(out + (k < 4 ? F_PLAYED + 40 * k : F_PLAYED_45 + 40 * (k - 4)),
              played[(v->seat + k) % P]);
  float *x = out + F_SCALARS, *y = out + F_MORE;
  float target = r->target > 0 ? (float)r->target : 1.0f;
  for (int k = 0; k < P; k++) /* 440..443, then 640..641 */
    *(k < 4 ? &x[k] : &y[k - 4]) = v->hand_count[(v->seat + k) % P] / 10.0f;
  x[4] = v->stock / 40.0f;                            /* 444 */
  x[5] = v->plays / 40.0f;                            /* 445 */
  for (int k = 0; k < S; k++) { /* 446..453, then 642..645 */
    *(k < 4 ? &x[6 + k] : &y[2 + k - 4]) = v->scope[(own + k) % S] / 10.0f;
    *(k < 4 ? &x[10 + k] : &y[4 + k - 4]) = v->scores[(own + k) % S] / target;
  }
  /* 454..458: who captured last, relative; 458 = nobody yet; 646..647 */
  if (v->last_capturer == SCOPA_NO_SEAT) {
    x[18] = 1;
  } else {
    int k = (v->last_capturer - v->seat + P) % P;
    *(k < 4 ? &x[14 + k] : &y[6 + k - 4]) = 1;
  }
  if (P <= 4)
    x[19 + (P - 2)] = 1;                              /* 459..461 players */
  else
    y[8] = 1;                                         /* 648: 6 players */
  x[22] = (float)r->teams;                            /* 462 */
  x[23 + r->game] = 1;                                /* 463..465 */
  x[26] = (float)r->mandatory_capture;                /* 466 */
  x[27] = (float)r->fewest_cards;                     /* 467 */
  x[28] = (float)r->ace_sweeps;                       /* 468 */
  x[29] = (float)r->ace_sweep_scopa;                  /* 469 */
  x[30] = r->capture == SCOPA_CAPTURE_QUINDICI;       /* 470 */
  if (r->primiera <= SCOPA_PRIMIERA_OFF)
    x[31 + r->primiera] = 1;                          /* 471..474 */
  else
    y[10 + r->primiera - SCOPA_PRIMIERA_SUM] = 1;     /* 650..651 */
  x[35] = (float)r->re_bello;                         /* 475 */
  x[36] = (float)r->napola;                           /* 476 */
  x[37] = r->refill == 1;                             /* 477 */
  x[38] = r->target / 32.0f;                          /* 478 */
  x[39] = (float)(v->dealer == v->seat);              /* 479 */
  y[9] = r->teams && r->team_size == 3;               /* 649 */
  y[12] = (float)r->deal_bonus;                       /* 652 */
  y[13] = (float)!r->single_match_first;              /* 653 */
  y[14] = r->max_capture != 0;                        /* 654 */
  y[15] = (float)r->last_card_scopa;                  /* 655 */
  y[16] = r->ace_sweep_with_ace == SCOPA_ACE_WITH_ACE_YES;    /* 656 */
  y[17] = r->ace_sweep_with_ace == SCOPA_ACE_WITH_ACE_CHOICE; /* 657 */
  y[18] = r->ace_first_play == SCOPA_ACE_FIRST_NO_SWEEP;      /* 658 */
  y[19] = r->ace_first_play == SCOPA_ACE_FIRST_NO_ACE;        /* 659 */
  y[20] = (float)r->ace_empty_table;                  /* 660 */
  y[21] = (float)r->ace_sweep_optional;               /* 661 */
  y[22] = r->leftovers == SCOPA_LEFTOVERS_DEALER;     /* 662 */
  y[23] = r->leftovers == SCOPA_LEFTOVERS_NOBODY;     /* 663 */
  y[24] = (float)r->most_sevens;                      /* 664 */
  y[25] = r->all_sevens / 4.0f;                       /* 665 */
  y[26] = (float)r->all_coins_wins;                   /* 666 */
  y[27] = (float)r->lowest_wins;                      /* 667 */
  y[28] = r->tiebreak == SCOPA_TIEBREAK_COUNT_ORDER;  /* 668 */
  y[29] = r->tiebreak == SCOPA_TIEBREAK_COUNT_ORDER_ON_TIE; /* 669 */
  y[30] = (float)r->win_by_two;                       /* 670 */
  y[31] = r->cappotto > 0;                            /* 671 */
  return SCOPA_FEATURES;
}

int scopa_state_actions(const scopa_state *s, scopa_move *table,
                        uint8_t *mask, int *actions) {
  memset(mask, 0, SCOPA_ACTIONS);
  if (table)
    memset(table, 0, sizeof *table * SCOPA_ACTIONS);
  int seat = scopa_state_to_play(s), count = 0;
  if (seat < 0)
    return 0;
  scopa_move moves[SCOPA_MAX_MOVES];
  for (int card = 0; card < 40; card++) {
    if (!(s->hand[seat] & SCOPA_BIT(card)))
      continue;
    int n = scopa_state_legal_card(s, card, moves, SCOPA_MAX_MOVES);
    if (n > SCOPA_MAX_MOVES)
      n = SCOPA_MAX_MOVES; /* only the first ones were written */
    /* Slots in increasing order of the move's integer (insertion sort:
     * n is small in play). */
    for (int i = 1; i < n; i++)
      for (int j = i; j > 0 && moves[j] < moves[j - 1]; j--) {
        scopa_move t = moves[j];
        moves[j] = moves[j - 1];
        moves[j - 1] = t;
      }
    if (n > SCOPA_ACTION_SLOTS)
      n = SCOPA_ACTION_SLOTS;
    for (int i = 0; i < n; i++) {
      int a = card * SCOPA_ACTION_SLOTS + i;
      mask[a] = 1;
      if (table)
        table[a] = moves[i];
      if (actions)
        actions[count + i] = a;
    }
    count += n;
  }
  return count;
}
