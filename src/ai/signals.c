/*
 * signals.c -- the traditional partner signals of scopone, read and given
 * so that a human partner recognises the bot's play.  In scopone talk and
 * gestures are forbidden; partners speak through conventions of play,
 * each one a habit the partner can read.  Those implemented, with where
 * they are written down (docs/ai.md, "The partner's signals", quotes
 * them):
 *
 *  L1 "la carta doppia": lay a card of a rank one holds two or three (or
 *     four) of: the next opponent is less likely to match it, the partner
 *     learns the rank is covered and can leave the card for the twin
 *     (ideefesta.it, "Scopone Scientifico", Consigli: "se ha due o tre
 *     carte dello stesso valore, calerà una di queste ... facilita il suo
 *     compagno"; ludopoli.it, "come si fa lo spariglio": the side that did
 *     not deal plays its pairs; xoomer.virgilio.it, "L'uscita di singola":
 *     laying a single early is a bluff because the others read a lay as
 *     from a double).
 *  L2 the seven is laid only from a pair of sevens, the plain seven
 *     before the settebello (corriere.it, 2018, on scientifico: "Il sette
 *     cade sul tavolo. Chi lo ha giocato ne avrà altri in mano, magari
 *     proprio il sette bello").
 *  L3 the round's first card is neither a coin nor a card of primiera
 *     (ideefesta.it, Consigli: "non bisogna calare mai carte importanti
 *     agli effetti della primiera e nemmeno per prima carta un oro").
 *  C1 the side that did not deal does not take the card its partner has
 *     just laid, while it lies there (ludopoli.it: "non prendere le carte
 *     poggiate dal compagno"), so the partner's twin takes it back.
 *
 * The bots give them (chitarrella as precepts; best by ai_signal_pick,
 * among moves its search values alike) and the scopone worlds chain
 * reads L1-L3 in the partner's lays (ai_signal_read).  Everything here
 * reads a view or a hand only.
 */
#include "signals.h"

#include "heur.h"
#include "internal.h"

#include <math.h>

int ai_signal_game(const scopa_view *v) {
  const scopa_rules *r = &v->rules;
  return v->players == 4 && v->sides == 2 &&
         r->capture == SCOPA_CAPTURE_MATCH && !r->ace_sweeps && !r->lowest_wins;
}

double ai_signal_lay(scopa_cards hand, int first, scopa_move m) {
  if (SCOPA_MOVE_TAKES(m))
    return 0;
  int card = SCOPA_MOVE_CARD(m), r = SCOPA_RANK(card);
  int twins = POPCOUNT(hand & SCOPA_RANK_CARDS(r) & ~SCOPA_BIT(card));
  double s = twins ? 1 : 0; /* L1 */
  if (r == 7) {             /* L2 */
    s = twins ? 1 : -2;
    if (card == SCOPA_SETTEBELLO && twins)
      s -= 1;
  }
  if (first &&
      ((SCOPA_BIT(card) & SCOPA_DENARI_CARDS) || r == 7 || r == 6 || r == 1))
    s -= 0.5; /* L3 */
  return s;
}

/* The card the partner laid with its last play, if it still lies on the
 * table (so the opponent between did not take it); 0 otherwise. */
static scopa_cards partner_laid(const scopa_view *v) {
  if (v->players != 4 || v->plays < 2)
    return 0;
  scopa_move pm = v->moves[v->plays - 2];
  if (SCOPA_MOVE_TAKES(pm))
    return 0;
  return v->table & SCOPA_BIT(SCOPA_MOVE_CARD(pm));
}

double ai_signal_move(const scopa_view *v, scopa_move m) {
  double s = ai_signal_lay(v->hand, v->plays == 0, m);
  int side = scopa_rules_side_of(&v->rules, v->seat);
  int dealt = side == scopa_rules_side_of(&v->rules, v->dealer);
  if (!dealt && (SCOPA_MOVE_TAKES(m) & partner_laid(v)))
    s -= 1; /* C1 */
  return s;
}

int ai_signal_pick(const scopa_view *v, const scopa_move *moves,
                   const double *values, int n, double margin) {
  int best = ai_best_index(values, n);
  if (!ai_signal_game(v))
    return best;
  int kind = SCOPA_MOVE_TAKES(moves[best]) != 0, pick = best;
  double ps = ai_signal_move(v, moves[best]);
  for (int i = 0; i < n; i++) {
    if ((SCOPA_MOVE_TAKES(moves[i]) != 0) != kind ||
        values[i] < values[best] - margin)
      continue;
    double s = ai_signal_move(v, moves[i]);
    if (s > ps + 1e-9 || (s > ps - 1e-9 && values[i] > values[pick] + 1e-12))
      pick = i, ps = s;
  }
  return pick;
}

double ai_signal_read(const scopa_rules *rules, scopa_cards hand,
                      scopa_cards table, int first, scopa_move m, double beta,
                      double floor) {
  if (SCOPA_MOVE_TAKES(m))
    return 0;
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa__hand_moves(rules, hand, table, first, moves, SCOPA_MAX_MOVES);
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  double s[SCOPA_MAX_MOVES], top = -1e9, sum = 0, mine = -1e9;
  int lays = 0;
  for (int i = 0; i < n; i++) {
    if (SCOPA_MOVE_TAKES(moves[i]))
      continue;
    s[lays] = ai_signal_lay(hand, first, moves[i]);
    if (s[lays] > top)
      top = s[lays];
    if (moves[i] == m)
      mine = s[lays];
    lays++;
  }
  if (lays <= 1 || mine < -1e8)
    return 0;
  for (int i = 0; i < lays; i++)
    sum += exp(beta * (s[i] - top));
  /* Relative to a lay drawn at random from the same lays, so that a hand
   * with more lays to choose from is not held less likely for it. */
  double p = exp(beta * (mine - top)) / sum;
  return log(floor + (1 - floor) * p * lays);
}
