/*
 * view.c -- what one seat may know (OpenSpiel's information state), and
 * worlds sampled from it.
 *
 * A view holds the seat's own hand, everything public (table, piles, scope,
 * counts, the moves of the round) and nothing else: no other hand, no
 * stock order.  scopa_view_sample() fills the unknown with a uniformly
 * random assignment of the unseen cards, so bots never need the state.
 */
#include "internal.h"

#include <assert.h>
#include <string.h>

void scopa_view_of(const scopa_state *s, int seat, const int *scores,
                   scopa_view *v) {
  assert(seat >= 0 && seat < s->players);
  memset(v, 0, sizeof *v);
  v->rules = s->rules;
  v->seat = (uint8_t)seat;
  v->dealer = s->dealer;
  v->to_play = s->to_play;
  v->last_capturer = s->last_capturer;
  v->players = s->players;
  v->sides = s->sides;
  v->plays = s->plays;
  v->stock = (uint8_t)(40 - s->next);
  for (int i = 0; i < s->players; i++)
    v->hand_count[i] = (uint8_t)POPCOUNT(s->hand[i]);
  for (int i = 0; i < s->sides; i++) {
    v->pile[i] = s->pile[i];
    v->scope[i] = s->scope[i];
    if (scores)
      v->scores[i] = scores[i];
  }
  v->hand = s->hand[seat];
  v->table = s->table;
  v->initial_table = s->initial_table;
  v->dealt = s->dealt[seat];
  scopa_cards known = v->hand | v->table;
  for (int i = 0; i < s->sides; i++)
    known |= s->pile[i];
  v->unseen = SCOPA_ALL_CARDS & ~known;
  memcpy(v->moves, s->moves, sizeof(scopa_move) * s->plays);
}

int scopa_view_legal(const scopa_view *v, scopa_move *moves, int cap) {
  if (v->to_play != v->seat)
    return 0;
  return scopa__hand_moves(&v->rules, v->hand, v->table, v->plays == 0, moves,
                           cap);
}

int scopa_view_world(const scopa_view *v, const scopa_cards *hands,
                     const uint8_t *stock, scopa_state *s) {
  /* The world must place exactly the unseen cards, each once. */
  scopa_cards placed = 0;
  for (int seat = 0; seat < v->players; seat++) {
    if (seat == v->seat)
      continue;
    if ((hands[seat] & placed) || POPCOUNT(hands[seat]) != v->hand_count[seat])
      return SCOPA_EVIEW;
    placed |= hands[seat];
  }
  for (int i = 0; i < v->stock; i++) {
    if (stock[i] >= 40 || (placed & SCOPA_BIT(stock[i])))
      return SCOPA_EVIEW;
    placed |= SCOPA_BIT(stock[i]);
  }
  if (placed != v->unseen)
    return SCOPA_EVIEW;
  memset(s, 0, sizeof *s);
  s->rules = v->rules;
  s->dealer = v->dealer;
  s->to_play = v->to_play;
  s->last_capturer = v->last_capturer;
  s->plays = v->plays;
  s->players = v->players;
  s->sides = v->sides;
  s->plain = (uint8_t)scopa__plain_match(&v->rules);
  s->table = v->table;
  s->initial_table = v->initial_table;
  memcpy(s->moves, v->moves, sizeof(scopa_move) * v->plays);
  for (int i = 0; i < v->sides; i++) {
    s->pile[i] = v->pile[i];
    s->scope[i] = v->scope[i];
  }
  /* What each seat was dealt: the viewer knows; for the others, their
   * hand and the cards they played. */
  for (int seat = 0; seat < v->players; seat++)
    s->hand[seat] = s->dealt[seat] = seat == v->seat ? v->hand : hands[seat];
  s->dealt[v->seat] = v->dealt;
  for (int i = 0; i < v->plays; i++) {
    int seat = (v->dealer + 1 + i) % v->players;
    if (seat != v->seat)
      s->dealt[seat] |= SCOPA_BIT(SCOPA_MOVE_CARD(v->moves[i]));
  }
  /* Every card not in the stock was dealt: those fill the top of the deck
   * in any order, and the stock follows, top first. */
  scopa_cards in_stock = 0;
  for (int i = 0; i < v->stock; i++)
    in_stock |= SCOPA_BIT(stock[i]);
  int d = 0;
  FOR_EACH_CARD(c, SCOPA_ALL_CARDS & ~in_stock) s->deck[d++] = (uint8_t)c;
  s->next = (uint8_t)d;
  for (int i = 0; i < v->stock; i++)
    s->deck[d++] = stock[i];
  return SCOPA_OK;
}

void scopa_view_sample(const scopa_view *v, scopa_rng *rng, scopa_state *s) {
  int unseen[40], n = 0;
  FOR_EACH_CARD(c, v->unseen) unseen[n++] = c;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)scopa_rng_below(rng, (uint32_t)i + 1);
    int t = unseen[i];
    unseen[i] = unseen[j];
    unseen[j] = t;
  }
  scopa_cards hands[SCOPA_MAX_SEATS] = {0};
  uint8_t stock[40];
  int k = 0;
  for (int seat = 0; seat < v->players; seat++)
    for (int i = 0; seat != v->seat && i < v->hand_count[seat]; i++)
      hands[seat] |= SCOPA_BIT(unseen[k++]);
  for (int i = 0; i < v->stock; i++)
    stock[i] = (uint8_t)unseen[k++];
  int rc = scopa_view_world(v, hands, stock, s);
  assert(rc == SCOPA_OK && k == n);
  (void)rc;
}

/*
 * Rebuilding a view from what the seat was told.  We lay out a deck that
 * agrees with everything the seat saw (its own cards in its deal slots,
 * each card another seat played in that seat's next slot, the table in the
 * table slots, anything else elsewhere), then replay the moves on it with
 * the full checks of scopa_state_apply.  Legality only depends on the card
 * and the table, so any error found is an error in the view itself.
 */
typedef struct layout {
  uint8_t owner[40], deck[40], filled[40];
  scopa_cards placed;
} layout;

/* Puts card into the next free deck slot dealt to `who`. */
static int place(layout *l, int who, int card, char *msg, size_t msgsize) {
  char c[SCOPA_CARD_TEXT];
  if (card < 0 || card >= 40) {
    scopa__msg(msg, msgsize, "not a card: %d", card);
    return SCOPA_EVIEW;
  }
  if (l->placed & SCOPA_BIT(card)) {
    scopa__msg(msg, msgsize, "%s is seen twice", scopa_card_str(card, c));
    return SCOPA_EVIEW;
  }
  for (int i = 0; i < 40; i++)
    if (l->owner[i] == who && !l->filled[i]) {
      l->filled[i] = 1;
      l->deck[i] = (uint8_t)card;
      l->placed |= SCOPA_BIT(card);
      return SCOPA_OK;
    }
  scopa__msg(msg, msgsize, "%s: more cards than the deal gives",
             scopa_card_str(card, c));
  return SCOPA_EVIEW;
}

/* ace_first_play "no_ace": another seat that led an ace held nothing but
 * aces.  Its first hand's free slots get the aces nobody has been seen
 * with, so that the lead is legal whenever it can be (and the replay
 * below rejects it when the seat is known to have held another card). */
static void fill_first_hand_with_aces(layout *l, const scopa_rules *rules,
                                      int seat, int dealer,
                                      const scopa_move *moves, int nmoves) {
  int leader = (dealer + 1) % rules->players;
  if (!rules->ace_sweeps || rules->ace_first_play != SCOPA_ACE_FIRST_NO_ACE ||
      nmoves == 0 || leader == seat ||
      SCOPA_RANK(SCOPA_MOVE_CARD(moves[0])) != 1)
    return;
  int first_deal = scopa__deal_hand_size(rules) * rules->players;
  scopa_cards aces = SCOPA_RANK_CARDS(1) & ~l->placed;
  for (int i = 0; i < first_deal && aces; i++)
    if (l->owner[i] == leader && !l->filled[i]) {
      l->filled[i] = 1;
      l->deck[i] = (uint8_t)LOWEST(aces);
      l->placed |= SCOPA_BIT(LOWEST(aces));
      aces &= aces - 1;
    }
}

static int lay_out(layout *l, const scopa_rules *rules, int seat, int dealer,
                   scopa_cards table, const uint8_t *dealt, int ndealt,
                   const scopa_move *moves, int nmoves, char *msg,
                   size_t msgsize) {
  memset(l, 0, sizeof *l);
  scopa__deal_owners(rules, dealer, l->owner);
  int rc = SCOPA_OK;
  FOR_EACH_CARD(t, table) {
    if (rc == SCOPA_OK)
      rc = place(l, DEAL_TABLE, t, msg, msgsize);
  }
  for (int i = 0; i < ndealt && rc == SCOPA_OK; i++)
    rc = place(l, seat, dealt[i], msg, msgsize);
  for (int i = 0; i < nmoves && rc == SCOPA_OK; i++) {
    int who = (dealer + 1 + i) % rules->players;
    if (who != seat)
      rc = place(l, who, SCOPA_MOVE_CARD(moves[i]), msg, msgsize);
  }
  if (rc != SCOPA_OK)
    return rc;
  fill_first_hand_with_aces(l, rules, seat, dealer, moves, nmoves);
  scopa_cards rest = SCOPA_ALL_CARDS & ~l->placed;
  for (int i = 0; i < 40; i++)
    if (!l->filled[i]) {
      l->deck[i] = (uint8_t)LOWEST(rest);
      rest &= rest - 1;
    }
  return SCOPA_OK;
}

int scopa_view_build(scopa_view *v, const scopa_rules *rules, int seat,
                     int dealer, scopa_cards table, const uint8_t *dealt,
                     int ndealt, const scopa_move *moves, int nmoves,
                     const int *scores, char *msg, size_t msgsize) {
  int players = rules->players;
  if (seat < 0 || seat >= players || dealer < 0 || dealer >= players) {
    scopa__msg(msg, msgsize, "seat and dealer must be 0..%d", players - 1);
    return SCOPA_EVIEW;
  }
  if (nmoves < 0 || nmoves > 40 || ndealt < 0 || ndealt > 40) {
    scopa__msg(msg, msgsize, "too many moves or dealt cards");
    return SCOPA_EVIEW;
  }
  if (POPCOUNT(table) != scopa__deal_table_size(rules)) {
    scopa__msg(msg, msgsize, "the table is dealt %d cards, not %d",
               scopa__deal_table_size(rules), POPCOUNT(table));
    return SCOPA_EVIEW;
  }
  layout l;
  if (lay_out(&l, rules, seat, dealer, table, dealt, ndealt, moves, nmoves, msg,
              msgsize) != SCOPA_OK)
    return SCOPA_EVIEW;
  scopa_state s;
  char why[200], m[SCOPA_MOVE_TEXT];
  if (scopa_state_deal(&s, rules, dealer, l.deck, why, sizeof why)) {
    scopa__msg(msg, msgsize, "%s", why);
    return SCOPA_EVIEW;
  }
  for (int i = 0; i < nmoves; i++)
    if (scopa_state_apply(&s, moves[i], why, sizeof why) != SCOPA_OK) {
      scopa__msg(msg, msgsize, "move %d (%s) by seat %d: %s", i,
                 scopa_move_str(moves[i], m), (dealer + 1 + i) % players, why);
      return SCOPA_EVIEW;
    }
  if (POPCOUNT(s.dealt[seat]) != ndealt) {
    scopa__msg(msg, msgsize,
               "seat %d has been dealt %d cards at this point, not %d", seat,
               POPCOUNT(s.dealt[seat]), ndealt);
    return SCOPA_EVIEW;
  }
  scopa_view_of(&s, seat, scores, v);
  return SCOPA_OK;
}

/*
 * A true deck of a full state: every card a seat played or holds goes to
 * that seat's next deal slot in the order it played them (a seat plays
 * only cards of its latest deal, so the slots of each deal get that
 * deal's cards), the table as dealt to the table's slots, the stock in
 * its order after them.  The deal and replay check the result.
 */
static int same_round(const scopa_state *a, const scopa_state *b) {
  if (a->next != b->next || a->to_play != b->to_play || a->plays != b->plays ||
      a->last_capturer != b->last_capturer || a->table != b->table ||
      a->initial_table != b->initial_table)
    return 0;
  for (int i = 0; i < SCOPA_MAX_SEATS; i++)
    if (a->hand[i] != b->hand[i] || a->pile[i] != b->pile[i] ||
        a->scope[i] != b->scope[i] || a->dealt[i] != b->dealt[i])
      return 0;
  return memcmp(a->deck + a->next, b->deck + b->next, 40u - a->next) == 0;
}

int scopa_state_deck(const scopa_state *s, uint8_t deck[40]) {
  layout l;
  memset(&l, 0, sizeof l);
  scopa__deal_owners(&s->rules, s->dealer, l.owner);
  int rc = SCOPA_OK;
  FOR_EACH_CARD(t, s->initial_table) {
    if (rc == SCOPA_OK)
      rc = place(&l, DEAL_TABLE, t, NULL, 0);
  }
  for (int i = 0; i < s->plays && rc == SCOPA_OK; i++)
    rc = place(&l, (s->dealer + 1 + i) % s->players,
               SCOPA_MOVE_CARD(s->moves[i]), NULL, 0);
  for (int seat = 0; seat < s->players; seat++)
    FOR_EACH_CARD(c, s->hand[seat]) {
      if (rc == SCOPA_OK)
        rc = place(&l, seat, c, NULL, 0);
    }
  for (int i = 0; i < s->next && rc == SCOPA_OK; i++)
    if (!l.filled[i])
      rc = SCOPA_EINVAL; /* fewer cards dealt than the slots before next */
  if (rc != SCOPA_OK)
    return SCOPA_EINVAL;
  memcpy(l.deck + s->next, s->deck + s->next, 40u - s->next);
  scopa_state again;
  if (scopa_state_deal(&again, &s->rules, s->dealer, l.deck, NULL, 0) != 0)
    return SCOPA_EINVAL;
  for (int i = 0; i < s->plays; i++)
    if (scopa_state_apply(&again, s->moves[i], NULL, 0) != SCOPA_OK)
      return SCOPA_EINVAL;
  if (!same_round(&again, s))
    return SCOPA_EINVAL;
  memcpy(deck, l.deck, 40);
  return SCOPA_OK;
}
