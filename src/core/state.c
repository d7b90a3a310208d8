/*
 * state.c -- one round: the deal (RULES.md "The deal", with deal_bonus),
 * playing a card (RULES.md "A turn"), refilling hands, and the end of the
 * round (leftovers).
 *
 * Invariant, after every function here: each of the 40 cards is in exactly
 * one place (a hand, the table, a side's pile, or the stock
 * deck[next..39]); to_play is SCOPA_NO_SEAT exactly when every hand and
 * the stock are empty; plays counts the cards played.
 */
#include "internal.h"

#include <assert.h>
#include <string.h>

int scopa__deal_hand_size(const scopa_rules *r) {
  static const int HAND[] = {3, 9, 10};
  return HAND[r->game];
}

int scopa__deal_table_size(const scopa_rules *r) {
  return r->game == SCOPA_GAME_SCIENTIFICO ? 0 : 4;
}

/* One card at a time to each seat in play order from the seat after the
 * dealer, then the table; later deals (3 each, or 1 per turn with refill
 * 1, which also goes round in play order) the same way. */
void scopa__deal_owners(const scopa_rules *r, int dealer, uint8_t owner[40]) {
  int players = r->players, hand = scopa__deal_hand_size(r);
  int table = scopa__deal_table_size(r), i = 0;
  for (; i < hand * players; i++)
    owner[i] = (uint8_t)((dealer + 1 + i) % players);
  for (int t = 0; t < table; t++, i++)
    owner[i] = DEAL_TABLE;
  for (int k = 0; i < 40; i++, k++)
    owner[i] = (uint8_t)((dealer + 1 + k) % players);
}

/* Without teams a seat is its side: no division on the usual path. */
static int side_of(const scopa_state *s, int seat) {
  if (__builtin_expect(s->rules.teams, 0))
    return seat % s->sides;
  return seat;
}

static void give(scopa_state *s, int seat, int n) {
  for (int i = 0; i < n; i++) {
    scopa_cards bit = SCOPA_BIT(s->deck[s->next++]);
    s->hand[seat] |= bit;
    s->dealt[seat] |= bit;
  }
}

/* Deals `per_seat` cards to every seat, one at a time, in play order:
 * the seat k places after the dealer gets deck[next + k - 1 + i * players]
 * for i below per_seat. */
static void deal_round_robin(scopa_state *s, int per_seat) {
  int players = s->players, seat = s->dealer;
  for (int k = 0; k < players; k++) {
    if (++seat == players)
      seat = 0;
    scopa_cards got = 0;
    for (int i = k; i < per_seat * players; i += players)
      got |= SCOPA_BIT(s->deck[s->next + i]);
    s->hand[seat] |= got;
    s->dealt[seat] |= got;
  }
  s->next = (uint8_t)(s->next + per_seat * players);
}

static int check_deck(const uint8_t deck[40], char *msg, size_t msgsize) {
  scopa_cards seen = 0;
  for (int i = 0; i < 40; i++) {
    if (deck[i] >= 40) {
      scopa__msg(msg, msgsize, "deck position %d holds no card", i);
      return SCOPA_EDECK;
    }
    if (seen & SCOPA_BIT(deck[i])) {
      char c[SCOPA_CARD_TEXT];
      scopa__msg(msg, msgsize, "%s is twice in the deck",
                 scopa_card_str(deck[i], c));
      return SCOPA_EDECK;
    }
    seen |= SCOPA_BIT(deck[i]);
  }
  return SCOPA_OK;
}

/* deal_bonus "fifteen" (RULES.md "The deal"): a table dealt adding up to
 * 15 or 30 is the dealer's side's capture, with one scopa per 15.  It is
 * not a play; initial_table keeps the cards as dealt. */
static void deal_bonus(scopa_state *s) {
  int sum = cards_sum(s->table);
  if (sum != 15 && sum != 30)
    return;
  int side = side_of(s, s->dealer);
  s->pile[side] |= s->table;
  s->scope[side] = (uint8_t)(s->scope[side] + sum / 15);
  s->last_capturer = s->dealer;
  s->table = 0;
}

/* The deal of a deck known to hold the 40 cards once each. */
static int deal_checked_deck(scopa_state *s, const scopa_rules *rules,
                             int dealer, const uint8_t deck[40], char *msg,
                             size_t msgsize) {
  /* moves[] is only meaningful below plays: leave it uncleared. */
  memset(s, 0, offsetof(scopa_state, moves));
  s->rules = *rules;
  memcpy(s->deck, deck, 40);
  s->dealer = (uint8_t)dealer;
  s->players = (uint8_t)rules->players;
  s->sides = (uint8_t)scopa_rules_sides(rules);
  s->plain = (uint8_t)scopa__plain_match(rules);
  s->last_capturer = SCOPA_NO_SEAT;
  deal_round_robin(s, scopa__deal_hand_size(rules));
  for (int t = scopa__deal_table_size(rules); t > 0; t--)
    s->table |= SCOPA_BIT(s->deck[s->next++]);
  s->initial_table = s->table;
  s->to_play = (uint8_t)((dealer + 1) % s->players);
  if (rules->kings_redeal && POPCOUNT(s->table & SCOPA_RANK_CARDS(10)) >= 3) {
    char t[64];
    scopa_cards_str(s->table, t, sizeof t);
    scopa__msg(msg, msgsize,
               "void deal: the table (%s) has %d kings; the cards must be "
               "dealt again",
               t, POPCOUNT(s->table & SCOPA_RANK_CARDS(10)));
    return SCOPA_EVOID;
  }
  if (rules->deal_bonus == SCOPA_DEAL_BONUS_FIFTEEN)
    deal_bonus(s);
  return SCOPA_OK;
}

int scopa_state_deal(scopa_state *s, const scopa_rules *rules, int dealer,
                     const uint8_t deck[40], char *msg, size_t msgsize) {
  assert(dealer >= 0 && dealer < rules->players);
  int rc = check_deck(deck, msg, msgsize);
  if (rc == SCOPA_OK)
    rc = deal_checked_deck(s, rules, dealer, deck, msg, msgsize);
  return rc;
}

void scopa_state_deal_random(scopa_state *s, const scopa_rules *rules,
                             int dealer, scopa_rng *rng) {
  uint8_t deck[40];
  assert(dealer >= 0 && dealer < rules->players);
  do
    scopa_rng_deck(rng, deck);
  while (deal_checked_deck(s, rules, dealer, deck, NULL, 0) != SCOPA_OK);
}

int scopa_state_to_play(const scopa_state *s) {
  return s->to_play == SCOPA_NO_SEAT ? -1 : s->to_play;
}

int scopa_state_over(const scopa_state *s) {
  return s->to_play == SCOPA_NO_SEAT;
}

int scopa_state_total_plays(const scopa_state *s) {
  return 40 - scopa__deal_table_size(&s->rules);
}

int scopa_state_stock(const scopa_state *s) { return 40 - s->next; }

/* Whether a capture that empties the table, made now, scores a scopa:
 * never with the round's last card unless last_card_scopa (RULES.md "A
 * turn"), and an ace's sweep or an ace taken from an empty table only
 * under ace_sweep_scopa.  `plays` counts the play itself. */
static int scores_scopa(const scopa_state *s, int plays, int card,
                        scopa_cards table) {
  if (plays == scopa_state_total_plays(s) && !s->rules.last_card_scopa)
    return 0;
  if (!s->rules.ace_sweeps)
    return 1;
  if (!table || scopa__is_sweep(&s->rules, card, table, plays == 1))
    return s->rules.ace_sweep_scopa;
  return 1;
}

int scopa_state_is_scopa(const scopa_state *s, scopa_move move) {
  scopa_cards takes = SCOPA_MOVE_TAKES(move);
  int card = SCOPA_MOVE_CARD(move);
  if (!takes && !s->table)
    return scopa__ace_taken(&s->rules, card, 0, s->plays == 0) &&
           scores_scopa(s, s->plays + 1, card, 0);
  if (!takes || takes != s->table)
    return 0;
  return scores_scopa(s, s->plays + 1, card, s->table);
}

/* Cards in the hands: those dealt to seats less those played. */
static int cards_in_hands(const scopa_state *s) {
  return s->next - POPCOUNT(s->initial_table) - s->plays;
}

/* leftovers (RULES.md "End of the round"): the cards left on the table
 * go to the last capturer's side, the dealer's, or stay where they are,
 * in no pile (and so count for nobody). */
static void take_leftovers(scopa_state *s) {
  int seat = s->rules.leftovers == SCOPA_LEFTOVERS_DEALER   ? s->dealer
             : s->rules.leftovers == SCOPA_LEFTOVERS_NOBODY ? SCOPA_NO_SEAT
                                                            : s->last_capturer;
  if (seat != SCOPA_NO_SEAT) {
    s->pile[side_of(s, seat)] |= s->table;
    s->table = 0;
  }
}

/* An ace laid on an empty table under ace_empty_table "taken" goes to the
 * player's pile instead: a capture of itself (RULES.md "A turn"). */
static void take_ace(scopa_state *s, int seat, int card) {
  int side = side_of(s, seat);
  s->table &= ~SCOPA_BIT(card);
  s->pile[side] |= SCOPA_BIT(card);
  s->last_capturer = (uint8_t)seat;
  if (scores_scopa(s, s->plays, card, 0))
    s->scope[side]++;
}

/* The hands refilled, or the round ended with the leftovers taken
 * (RULES.md "End of the round"); with refill 1, a seat with an empty hand
 * drawing at the start of its turn. */
static void after_turn(scopa_state *s) {
  int any = cards_in_hands(s) != 0;
  if (!any && s->next == 40) {
    take_leftovers(s);
    s->to_play = SCOPA_NO_SEAT;
    return;
  }
  if (!any && s->rules.refill == 3)
    deal_round_robin(s, 3);
  if (s->rules.refill == 1 && !s->hand[s->to_play] && s->next < 40)
    give(s, s->to_play, 1);
}

/* What follows some plays only (out of line, so that the usual play saves
 * no registers): a scopa counted (a capture emptying the table, or an ace
 * taken from an empty one), then after_turn.  to_play already names the
 * next seat; `table` is the table the card met. */
__attribute__((noinline)) static void after_play(scopa_state *s, int seat,
                                                 int card, scopa_cards table,
                                                 scopa_cards takes) {
  if (takes && takes == table) {
    if (scores_scopa(s, s->plays, card, table))
      s->scope[side_of(s, seat)]++;
  } else if (!table && s->rules.ace_sweeps &&
             scopa__ace_taken(&s->rules, card, 0, s->plays == 1)) {
    take_ace(s, seat, card);
  }
  after_turn(s);
}

void scopa_state_play(scopa_state *s, scopa_move move) {
  int seat = s->to_play, card = SCOPA_MOVE_CARD(move), side = 0;
  scopa_cards takes = SCOPA_MOVE_TAKES(move), bit = SCOPA_BIT(card);
  scopa_cards table = s->table;
  assert(seat != SCOPA_NO_SEAT && (s->hand[seat] & bit));
  s->hand[seat] &= ~bit;
  if (takes) {
    side = side_of(s, seat);
    s->table = table & ~takes;
    s->pile[side] |= takes | bit;
    s->last_capturer = (uint8_t)seat;
  } else {
    s->table = table | bit;
  }
  s->moves[s->plays++] = move;
  /* The next seat (no division: this runs after every play). */
  s->to_play = (uint8_t)(seat + 1 == s->players ? 0 : seat + 1);
  if (__builtin_expect(
          takes == table || !cards_in_hands(s) || s->rules.refill == 1, 0))
    after_play(s, seat, card, table, takes);
}

int scopa_state_check(const scopa_state *s, scopa_move move, const char *lang,
                      char *msg, size_t msgsize) {
  int it = scopa__italian(lang);
  if (s->to_play == SCOPA_NO_SEAT) {
    scopa__msg(msg, msgsize, "%s",
               SCOPA__TR(it, "the round is over: no more moves",
                         "la mano è finita: non ci sono altre mosse"));
    return SCOPA_EOVER;
  }
  int card = SCOPA_MOVE_CARD(move);
  if (card >= 40 || (move & ~(SCOPA_ALL_CARDS | ((scopa_move)0x3F << 48)))) {
    scopa__msg(msg, msgsize, "%s",
               SCOPA__TR(it, "not a move", "non è una mossa"));
    return SCOPA_EILLEGAL;
  }
  if (!(s->hand[s->to_play] & SCOPA_BIT(card))) {
    char c[SCOPA_CARD_TEXT];
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "%s is not in the hand of the seat to play",
                         "%s non è nella mano di chi gioca"),
               scopa_card_str(card, c));
    return SCOPA_EILLEGAL;
  }
  return scopa__check_play(&s->rules, card, s->table, SCOPA_MOVE_TAKES(move),
                           s->plays == 0, s->hand[s->to_play], it, msg,
                           msgsize);
}

int scopa_state_apply(scopa_state *s, scopa_move move, char *msg,
                      size_t msgsize) {
  int rc = scopa_state_check(s, move, NULL, msg, msgsize);
  if (rc == SCOPA_OK)
    scopa_state_play(s, move);
  return rc;
}
