/*
 * internal.h -- helpers shared by the files of the core engine.  Not API:
 * only src/core (and, for speed, src/ai) may include it.
 *
 * Everything here is about card sets as 64-bit masks (see scopa.h for the
 * encoding): iterating them, counting them, and the per-rank layout that
 * puts the four cards of a rank in one nibble.
 */
#ifndef SCOPA_CORE_INTERNAL_H
#define SCOPA_CORE_INTERNAL_H

#include "scopa.h"

#include <stdarg.h>
#include <stddef.h>

#define POPCOUNT(x) __builtin_popcountll(x)
#define LOWEST(x) __builtin_ctzll(x)

/* Iterate the cards of a set: for (int c; set && ((c = LOWEST(set)), 1);
 * set &= set - 1) is easy to get wrong, so spell it once. */
#define FOR_EACH_CARD(card, set)                                               \
  for (scopa_cards card##_rest_ = (set); card##_rest_;                         \
       card##_rest_ &= card##_rest_ - 1)                                       \
    for (int card = LOWEST(card##_rest_), card##_once_ = 1; card##_once_;      \
         card##_once_ = 0)

/* The suit of a card set: the ten cards of suit s. */
#define SUIT_CARDS(s) ((scopa_cards)0x1111111111ull << (s))

/* The sum of the ranks of a card set. */
static inline int cards_sum(scopa_cards set) {
  int sum = 0;
  for (int r = 1; r <= 10; r++)
    sum += r * POPCOUNT(set & SCOPA_RANK_CARDS(r));
  return sum;
}

/* printf into a message buffer that may be NULL. */
void scopa__msg(char *msg, size_t msgsize, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The library's own words in Italian (lang "it...") rather than English
 * (anything else, NULL included), as scopa_card_name reads lang. */
int scopa__italian(const char *lang);
#define SCOPA__TR(it, en, italian) ((it) ? (italian) : (en))

/* Cards of a set as "4b+1c" (join with sep) into buf. */
size_t scopa__cards_join(scopa_cards set, const char *sep, char *buf,
                         size_t bufsize);

/* Table cards of a deal, and hand size, for the game of the rules. */
int scopa__deal_hand_size(const scopa_rules *rules);
int scopa__deal_table_size(const scopa_rules *rules);

/* movegen.c: the legal moves of one card on a table (lay included when
 * allowed), the check of one play, and what an ace does.  first: this is
 * the round's first play (ace_first_play); hand: the hand the card is
 * played from (ace_first_play "no_ace" looks at it). */
int scopa__card_moves(const scopa_rules *r, int card, scopa_cards table,
                      int first, scopa_cards hand, scopa_move *moves, int cap);
/* All the legal moves of a hand on a table. */
int scopa__hand_moves(const scopa_rules *r, scopa_cards hand, scopa_cards table,
                      int first, scopa_move *moves, int cap);
int scopa__check_play(const scopa_rules *r, int card, scopa_cards table,
                      scopa_cards takes, int first, scopa_cards hand, int it,
                      char *msg, size_t msgsize);
/* Taking the whole table with this card is an ace's sweep (scored under
 * ace_sweep_scopa), not an ordinary capture. */
int scopa__is_sweep(const scopa_rules *r, int card, scopa_cards table,
                    int first);
/* The card, played alone, is an ace taken from an empty table
 * (ace_empty_table "taken"): a capture of itself. */
int scopa__ace_taken(const scopa_rules *r, int card, scopa_cards table,
                     int first);

/* The rules take the lean default-rules move loop (scopa_state.plain). */
int scopa__plain_match(const scopa_rules *r);

/* deal.c: who receives deck[i] (a seat, or DEAL_TABLE), for a whole round
 * of these rules and this dealer.  Play does not change it. */
#define DEAL_TABLE 0xFE
void scopa__deal_owners(const scopa_rules *r, int dealer, uint8_t owner[40]);
#endif
