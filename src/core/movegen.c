/*
 * movegen.c -- which plays are legal (RULES.md "A turn"): rank matches
 * before sums, sums of two or more cards, quindici, the ace's sweep,
 * fewest_cards and mandatory_capture.
 *
 * The legality of a play depends only on the card, the cards it takes and
 * the table, never on the rest of the hand: "a card that can capture may
 * not be laid" is about that card.  scopa_view_build relies on this to
 * check the other seats' moves on the visible table.
 */
#include "internal.h"

#include <string.h>

/* What a card may do on a table, before mandatory_capture and lays. */
typedef struct capture_rule {
  int sweep;         /* the ace sweeps the whole table              */
  int single;        /* match: a card of the same rank is there     */
  int sum;           /* the sum the taken cards must make           */
  int min_cards;     /* fewest cards a capture may take: 1 or 2     */
} capture_rule;

static int is_ace_sweep(const scopa_rules *r, int card, scopa_cards table) {
  return r->ace_sweeps && SCOPA_RANK(card) == 1 && table &&
         !(table & SCOPA_RANK_CARDS(1));
}

static capture_rule rule_for(const scopa_rules *r, int card,
                             scopa_cards table) {
  capture_rule cr = {0, 0, 0, 2};
  int v = SCOPA_RANK(card);
  if (is_ace_sweep(r, card, table)) {
    cr.sweep = 1;
  } else if (r->capture == SCOPA_CAPTURE_QUINDICI) {
    cr.sum = 15 - v;
    cr.min_cards = 1;
  } else if (table & SCOPA_RANK_CARDS(v)) {
    cr.single = 1;
    cr.sum = v;
    cr.min_cards = 1;
  } else {
    cr.sum = v;
  }
  return cr;
}

/*
 * Subsets of the table cards cand[0..n) summing to `sum`, each with at
 * least `min` cards and, when `exact` is nonzero, exactly `exact` cards.
 * Calls emit for each (through the out buffer) and counts them all.
 */
typedef struct subset_walk {
  const int *cand; /* table cards, ascending rank */
  int n;
  int exact, min;
  scopa_move card_bits;
  scopa_move *out;
  int cap, count;
  int fewest; /* while searching: fewest cards of any subset found */
} subset_walk;

static void walk(subset_walk *w, int from, int left, int used,
                 scopa_cards set) {
  if (left == 0) {
    if (used < w->min || (w->exact && used != w->exact))
      return;
    if (used < w->fewest)
      w->fewest = used;
    if (w->count < w->cap)
      w->out[w->count] = w->card_bits | set;
    w->count++;
    return;
  }
  if (w->exact && used >= w->exact)
    return;
  for (int i = from; i < w->n; i++) {
    int v = SCOPA_RANK(w->cand[i]);
    if (v > left)
      break; /* ascending ranks: nothing later fits either */
    walk(w, i + 1, left - v, used + 1, set | SCOPA_BIT(w->cand[i]));
  }
}

static int table_below(scopa_cards table, int sum, int cand[40]) {
  int n = 0;
  /* Ranks above the sum cannot be part of it. */
  scopa_cards low =
      sum >= 10 ? table : table & (((scopa_cards)1 << (4 * sum)) - 1);
  FOR_EACH_CARD(c, low) cand[n++] = c;
  return n;
}

/* The fewest cards of any capture of `sum` (of at least min cards), or 0
 * if there is none. */
static int fewest_cards_for(scopa_cards table, int sum, int min) {
  int cand[40];
  subset_walk w = {cand, table_below(table, sum, cand), 0, min, 0, NULL,
                   0, 0, 99};
  for (int k = min; k <= w.n; k++) {
    w.exact = k;
    w.count = 0;
    walk(&w, 0, sum, 0, 0);
    if (w.count)
      return k;
  }
  return 0;
}

/* The capture moves of a card (not the lay), into moves[0..cap). */
static int captures(const scopa_rules *r, int card, scopa_cards table,
                    scopa_move *moves, int cap) {
  capture_rule cr = rule_for(r, card, table);
  scopa_move bits = SCOPA_MOVE(card, 0);
  if (cr.sweep) {
    if (cap > 0)
      moves[0] = bits | table;
    return 1;
  }
  if (cr.single) {
    int n = 0;
    FOR_EACH_CARD(c, table & SCOPA_RANK_CARDS(cr.sum)) {
      if (n < cap)
        moves[n] = bits | SCOPA_BIT(c);
      n++;
    }
    return n;
  }
  int cand[40];
  subset_walk w = {cand, table_below(table, cr.sum, cand), 0, cr.min_cards,
                   bits, moves, cap, 0, 99};
  if (r->fewest_cards) {
    w.exact = fewest_cards_for(table, cr.sum, cr.min_cards);
    if (!w.exact)
      return 0;
  }
  walk(&w, 0, cr.sum, 0, 0);
  return w.count;
}

int scopa__card_moves(const scopa_rules *r, int card, scopa_cards table,
                      scopa_move *moves, int cap) {
  int n = captures(r, card, table, moves, cap);
  if (n == 0 || !r->mandatory_capture) {
    if (n < cap)
      moves[n] = SCOPA_MOVE(card, 0);
    n++;
  }
  return n;
}

int scopa_state_legal_card(const scopa_state *s, int card, scopa_move *moves,
                           int cap) {
  if (s->to_play == SCOPA_NO_SEAT || !(s->hand[s->to_play] & SCOPA_BIT(card)))
    return 0;
  return scopa__card_moves(&s->rules, card, s->table, moves, cap);
}

int scopa_state_legal(const scopa_state *s, scopa_move *moves, int cap) {
  if (s->to_play == SCOPA_NO_SEAT)
    return 0;
  int n = 0;
  FOR_EACH_CARD(c, s->hand[s->to_play]) {
    int room = n < cap ? cap - n : 0;
    n += scopa__card_moves(&s->rules, c, s->table, moves + (n < cap ? n : 0),
                           room);
  }
  return n;
}

/* Explains why `takes` is not a capture the card may make. */
static int explain(const scopa_rules *r, int card, scopa_cards table,
                   scopa_cards takes, char *msg, size_t msgsize) {
  capture_rule cr = rule_for(r, card, table);
  char c[SCOPA_CARD_TEXT], t[128], other[128];
  scopa_card_str(card, c);
  scopa__cards_join(takes, "+", t, sizeof t);
  int n = POPCOUNT(takes), sum = cards_sum(takes);
  if (cr.sweep) {
    scopa__msg(msg, msgsize,
               "%s is an ace on a table with no ace: it sweeps the whole "
               "table (ace_sweeps), not %s",
               c, t);
  } else if (cr.single) {
    scopa_cards same = table & SCOPA_RANK_CARDS(cr.sum);
    scopa__cards_join(same, " or ", other, sizeof other);
    scopa__msg(msg, msgsize, "%s cannot capture %s while %s is on the table",
               c, t, other);
  } else if (r->capture == SCOPA_CAPTURE_QUINDICI && sum != cr.sum) {
    scopa__msg(msg, msgsize,
               "%s cannot capture %s: with %s they make %d, not 15", c, t, c,
               sum + SCOPA_RANK(card));
  } else if (sum != cr.sum) {
    scopa__msg(msg, msgsize, "%s cannot capture %s: they add up to %d, not %d",
               c, t, sum, cr.sum);
  } else if (n < cr.min_cards) {
    scopa__msg(msg, msgsize,
               "%s cannot capture %s: a capture by sum takes two or more "
               "cards",
               c, t);
  } else {
    int k = fewest_cards_for(table, cr.sum, cr.min_cards);
    scopa__msg(msg, msgsize,
               "%s must capture with the fewest cards (%d), not %d "
               "(fewest_cards)",
               c, k, n);
  }
  return SCOPA_EILLEGAL;
}

int scopa__check_play(const scopa_rules *r, int card, scopa_cards table,
                      scopa_cards takes, char *msg, size_t msgsize) {
  char c[SCOPA_CARD_TEXT];
  scopa_card_str(card, c);
  if (takes & ~table) {
    char t[128];
    scopa__cards_join(takes & ~table, " and ", t, sizeof t);
    scopa__msg(msg, msgsize, "%s cannot capture %s: not on the table", c, t);
    return SCOPA_EILLEGAL;
  }
  scopa_move first;
  int can = captures(r, card, table, &first, 1);
  if (!takes) {
    if (can && r->mandatory_capture) {
      char m[SCOPA_MOVE_TEXT];
      scopa__msg(msg, msgsize,
                 "%s can capture (%s), so it cannot be laid on the table", c,
                 scopa_move_str(first, m));
      return SCOPA_EILLEGAL;
    }
    return SCOPA_OK;
  }
  capture_rule cr = rule_for(r, card, table);
  int ok;
  if (cr.sweep)
    ok = takes == table;
  else if (cr.single)
    ok = POPCOUNT(takes) == 1 && (takes & SCOPA_RANK_CARDS(cr.sum));
  else
    ok = cards_sum(takes) == cr.sum && POPCOUNT(takes) >= cr.min_cards &&
         (!r->fewest_cards ||
          POPCOUNT(takes) == fewest_cards_for(table, cr.sum, cr.min_cards));
  return ok ? SCOPA_OK : explain(r, card, table, takes, msg, msgsize);
}

int scopa__is_sweep(const scopa_rules *r, int card, scopa_cards table) {
  return is_ace_sweep(r, card, table);
}
