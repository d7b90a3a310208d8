/*
 * helpers.h -- building positions for the rules tests: rules from
 * "key=value" words, card sets from "7d 3c", a round state with chosen
 * hands and table, and legal moves as sorted text.
 */
#ifndef SCOPA_TEST_HELPERS_H
#define SCOPA_TEST_HELPERS_H

#include "scopa.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rules from words like "players=3 ace_sweeps=true"; aborts on error. */
static inline scopa_rules rules_of(const char *words) {
  scopa_rules r;
  char buf[512], msg[200];
  scopa_rules_init(&r);
  snprintf(buf, sizeof buf, "%s", words);
  for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
    char *eq = strchr(w, '=');
    assert(eq);
    *eq = 0;
    if (scopa_rules_set_text(&r, w, eq + 1, NULL, msg, sizeof msg) !=
        SCOPA_OK) {
      fprintf(stderr, "rules_of: %s\n", msg);
      abort();
    }
  }
  if (scopa_rules_check(&r, NULL, msg, sizeof msg) != SCOPA_OK) {
    fprintf(stderr, "rules_of: %s\n", msg);
    abort();
  }
  return r;
}

/* A card set from "7d 3c 10b" (or "" for none). */
static inline scopa_cards cards_of(const char *text) {
  scopa_cards set = 0;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", text);
  for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
    int c = scopa_card_parse(w);
    assert(c >= 0);
    set |= SCOPA_BIT(c);
  }
  return set;
}

static inline int card_of(const char *text) {
  int c = scopa_card_parse(text);
  assert(c >= 0);
  return c;
}

static inline scopa_move move_of(const char *text) {
  scopa_move m;
  int rc = scopa_move_parse(text, NULL, &m, NULL, 0);
  assert(rc == SCOPA_OK);
  (void)rc;
  return m;
}

/*
 * A mid-round position: seat 0 to play holding `hand`, seat 1 (and the
 * others) holding `other` split as it comes, `table` on the table, the
 * rest of the cards in the piles of side 1 and the stock empty, unless
 * stock > 0: then that many unplaced cards stay in the stock.  plays is
 * set so that cards are conserved.
 */
static inline scopa_state position(const scopa_rules *r, const char *hand,
                                   const char *other, const char *table,
                                   int stock) {
  scopa_state s;
  uint8_t deck[40];
  for (int i = 0; i < 40; i++)
    deck[i] = (uint8_t)i;
  scopa_state_deal(&s, r, r->players - 1, deck, NULL, 0);
  memset(s.hand, 0, sizeof s.hand);
  memset(s.pile, 0, sizeof s.pile);
  memset(s.dealt, 0, sizeof s.dealt);
  s.hand[0] = cards_of(hand);
  s.table = cards_of(table);
  scopa_cards rest = SCOPA_ALL_CARDS & ~(s.hand[0] | s.table);
  scopa_cards others = cards_of(other);
  assert(!(others & ~rest));
  rest &= ~others;
  for (int seat = 1; others; seat = seat % (r->players - 1) + 1) {
    int c = __builtin_ctzll(others);
    s.hand[seat] |= SCOPA_BIT(c);
    others &= others - 1;
  }
  /* The stock: the last `stock` cards left over, at the deck's end. */
  s.next = (uint8_t)(40 - stock);
  for (int i = 39; i >= s.next; i--) {
    int c = 63 - __builtin_clzll(rest);
    s.deck[i] = (uint8_t)c;
    rest &= ~SCOPA_BIT(c);
  }
  s.pile[1 % s.sides] = rest;
  for (int i = 0; i < r->players; i++)
    s.dealt[i] = s.hand[i];
  s.to_play = 0;
  s.last_capturer = 1;
  int in_hands = 0;
  for (int i = 0; i < r->players; i++)
    in_hands += __builtin_popcountll(s.hand[i]);
  /* Conservation as advance() sees it: dealt to seats = played + held. */
  s.plays =
      (uint8_t)(s.next - __builtin_popcountll(s.initial_table) - in_hands);
  return s;
}

static inline int move_cmp(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}

/* The legal moves as sorted text: "2d 5sx5c 7bx1d+6s". */
static inline const char *legal_text(const scopa_state *s) {
  static char out[4096];
  scopa_move moves[SCOPA_MAX_MOVES];
  static char text[SCOPA_MAX_MOVES][SCOPA_MOVE_TEXT];
  int n = scopa_state_legal(s, moves, SCOPA_MAX_MOVES);
  for (int i = 0; i < n; i++)
    scopa_move_str(moves[i], text[i]);
  qsort(text, (size_t)n, sizeof text[0], move_cmp);
  out[0] = 0;
  for (int i = 0; i < n; i++) {
    strcat(out, i ? " " : "");
    strcat(out, text[i]);
  }
  return out;
}

#endif
