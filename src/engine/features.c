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
    set_cards(out + F_PILES + 40 * k, v->pile[(own + k) % S]);
  set_cards(out + F_UNSEEN, v->unseen);
  for (int k = 0; k < P; k++)
    set_cards(out + F_PLAYED + 40 * k, played[(v->seat + k) % P]);
  float *x = out + F_SCALARS;
  float target = r->target > 0 ? (float)r->target : 1.0f;
  for (int k = 0; k < P; k++)                         /* 440..443 */
    x[k] = v->hand_count[(v->seat + k) % P] / 10.0f;
  x[4] = v->stock / 40.0f;                            /* 444 */
  x[5] = v->plays / 40.0f;                            /* 445 */
  for (int k = 0; k < S; k++) {                       /* 446..453 */
    x[6 + k] = v->scope[(own + k) % S] / 10.0f;
    x[10 + k] = v->scores[(own + k) % S] / target;
  }
  /* 454..458: who captured last, relative; 458 = nobody yet */
  if (v->last_capturer == SCOPA_NO_SEAT)
    x[18] = 1;
  else
    x[14 + (v->last_capturer - v->seat + P) % P] = 1;
  x[19 + (P - 2)] = 1;                                /* 459..461 players */
  x[22] = (float)r->teams;                            /* 462 */
  x[23 + r->game] = 1;                                /* 463..465 */
  x[26] = (float)r->mandatory_capture;                /* 466 */
  x[27] = (float)r->fewest_cards;                     /* 467 */
  x[28] = (float)r->ace_sweeps;                       /* 468 */
  x[29] = (float)r->ace_sweep_scopa;                  /* 469 */
  x[30] = r->capture == SCOPA_CAPTURE_QUINDICI;       /* 470 */
  x[31 + r->primiera] = 1;                            /* 471..474 */
  x[35] = (float)r->re_bello;                         /* 475 */
  x[36] = (float)r->napola;                           /* 476 */
  x[37] = r->refill == 1;                             /* 477 */
  x[38] = r->target / 32.0f;                          /* 478 */
  x[39] = (float)(v->dealer == v->seat);              /* 479 */
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
