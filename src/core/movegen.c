/*
 * movegen.c -- which plays are legal (RULES.md "A turn"): rank matches
 * before sums (or not, single_match_first), sums of two or more cards,
 * quindici, max_capture, fewest_cards, the ace under ace_sweeps and its
 * four refinements, and mandatory_capture.
 *
 * The legality of a play depends only on the card, the cards it takes, the
 * table and whether it is the round's first play, and on the rest of the
 * hand in one case only (ace_first_play "no_ace": an ace may lead only
 * from a hand of aces).  scopa_view_build relies on this to check the
 * other seats' moves on the visible table.
 *
 * Default rules take the lean match loop (hand_moves_match); every other
 * rule goes through the general path, which asks ace_case() how an ace
 * plays and ordinary_rule() what the capture rule in force allows.
 */
#include "internal.h"

#include <string.h>

#include "sum_tables.h"

#define ACES SCOPA_RANK_CARDS(1)

/* How a card plays (RULES.md "A turn", an ace under ace_sweeps, cases 1
 * to 4): by the capture rule in force (PLAIN: every card but an ace under
 * ace_sweeps, and the ace in cases 1 and 4), on an empty table (EMPTY:
 * laid, or taken under ace_empty_table "taken"), sweeping (SWEEPS), or
 * sweeping or capturing by the rule in force ("choice" with an ace on the
 * table). */
enum { ACE_PLAIN, ACE_EMPTY, ACE_SWEEPS, ACE_CHOICE };

static int ace_case(const scopa_rules *r, int card, scopa_cards table,
                    int first) {
  if (!r->ace_sweeps || SCOPA_RANK(card) != 1)
    return ACE_PLAIN;
  if (first && r->ace_first_play != SCOPA_ACE_FIRST_SWEEPS)
    return ACE_PLAIN; /* case 1 */
  if (!table)
    return ACE_EMPTY; /* case 2 */
  if (!(table & ACES) || r->ace_sweep_with_ace == SCOPA_ACE_WITH_ACE_YES)
    return ACE_SWEEPS; /* case 3 */
  if (r->ace_sweep_with_ace == SCOPA_ACE_WITH_ACE_CHOICE)
    return ACE_CHOICE; /* case 3, "choice" with an ace on the table */
  return ACE_PLAIN;    /* case 4 */
}

/* Taking the whole table with this ace is a sweep (scored under
 * ace_sweep_scopa) rather than an ordinary capture: never when the table
 * held exactly one card, an ace (RULES.md "A turn"). */
static int is_sweep(const scopa_rules *r, int card, scopa_cards table,
                    int first) {
  int k = ace_case(r, card, table, first);
  return (k == ACE_SWEEPS || k == ACE_CHOICE) &&
         !(POPCOUNT(table) == 1 && (table & ACES));
}

/* ace_first_play "no_ace" (regola del vile): on the first play an ace is
 * not playable from a hand holding any other card. */
static int ace_barred(const scopa_rules *r, int card, scopa_cards hand,
                      int first) {
  return first && r->ace_sweeps &&
         r->ace_first_play == SCOPA_ACE_FIRST_NO_ACE && SCOPA_RANK(card) == 1 &&
         (hand & ~ACES);
}

/* What the capture rule in force allows a card: one card of its rank
 * (single), or sets of min_cards..max_cards table cards adding up to sum
 * (only the smallest with fewest_cards). */
typedef struct capture_rule {
  int single;
  int sum, min_cards, max_cards;
} capture_rule;

static capture_rule ordinary_rule(const scopa_rules *r, int card,
                                  scopa_cards table) {
  int v = SCOPA_RANK(card);
  capture_rule cr = {0, v, 2, r->max_capture ? r->max_capture : 40};
  if (r->capture == SCOPA_CAPTURE_QUINDICI) {
    cr.sum = 15 - v;
    cr.min_cards = 1;
  } else if (!r->single_match_first) {
    cr.min_cards = 1; /* a card of rank v is such a set */
  } else if (table & SCOPA_RANK_CARDS(v)) {
    cr.single = 1;
    cr.min_cards = 1;
  }
  return cr;
}

/*
 * Subsets of the table cards cand[0..n) summing to `sum`, each with
 * min..max cards and, when `exact` is nonzero, exactly `exact` cards.
 * Writes each (through the out buffer) and counts them all.
 */
typedef struct subset_walk {
  const int *cand; /* table cards, ascending rank */
  int n;
  int exact, min, max;
  scopa_move card_bits;
  scopa_move *out;
  int cap, count;
} subset_walk;

static void walk(subset_walk *w, int from, int left, int used,
                 scopa_cards set) {
  if (left == 0) {
    if (used < w->min || (w->exact && used != w->exact))
      return;
    if (w->count < w->cap)
      w->out[w->count] = w->card_bits | set;
    w->count++;
    return;
  }
  if (used >= w->max || (w->exact && used >= w->exact))
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

/* The fewest cards of any capture of `sum` (of min..max cards), or 0 if
 * there is none. */
static int fewest_cards_for(scopa_cards table, int sum, int min, int max) {
  int cand[40];
  subset_walk w = {cand, table_below(table, sum, cand), 0, min, max, 0, NULL, 0,
                   0};
  for (int k = min; k <= w.n && k <= max; k++) {
    w.exact = k;
    w.count = 0;
    walk(&w, 0, sum, 0, 0);
    if (w.count)
      return k;
  }
  return 0;
}

/*
 * The captures by sum of a whole hand, found at once: starting from the
 * empty set, each low table card (ascending rank) extends every subset
 * found so far whose sum stays within the largest sum any card needs.
 * Tables of real play hold 3.4 cards on average and most extensions
 * overflow at once, so the list stays tiny; if it would not fit (tables
 * built on purpose), ok is 0 and the caller falls back to walk().
 */
#define SUMS_MAX 512
typedef struct table_sums {
  int ok;
  int n; /* subsets listed, the empty one included */
  uint8_t sum[SUMS_MAX];
  scopa_cards set[SUMS_MAX];
} table_sums;

/* need: bit v set when some card needs subsets summing to v. */
static void sums_init(table_sums *t, scopa_cards table, unsigned need) {
  int max_sum = 31 - __builtin_clz(need);
  scopa_cards low =
      max_sum >= 10 ? table : table & (((scopa_cards)1 << (4 * max_sum)) - 1);
  t->ok = 1;
  t->n = 1;
  t->sum[0] = 0;
  t->set[0] = 0;
  FOR_EACH_CARD(c, low) {
    int v = SCOPA_RANK(c), n = t->n;
    for (int i = 0; i < n; i++) {
      int sum = t->sum[i] + v;
      if (sum > max_sum)
        continue;
      if (t->n == SUMS_MAX) {
        t->ok = 0;
        return;
      }
      t->sum[t->n] = (uint8_t)sum;
      t->set[t->n++] = t->set[i] | SCOPA_BIT(c);
    }
  }
}

/* The captures the rule cr allows, listed from the table's sums (only the
 * fewest with fewest_cards). */
static int sums_emit(const table_sums *t, const capture_rule *cr, int fewest,
                     scopa_move bits, scopa_move *moves, int cap) {
  int size = 99, n = 0;
  for (int i = 1; fewest && i < t->n; i++) {
    int pc = POPCOUNT(t->set[i]);
    if (t->sum[i] == cr->sum && pc >= cr->min_cards && pc <= cr->max_cards &&
        pc < size)
      size = pc;
  }
  for (int i = 1; i < t->n; i++) {
    if (t->sum[i] != cr->sum)
      continue;
    int pc = POPCOUNT(t->set[i]);
    if (pc < cr->min_cards || pc > cr->max_cards || (fewest && pc != size))
      continue;
    if (n < cap)
      moves[n] = bits | t->set[i];
    n++;
  }
  return n;
}

/* The captures the rule in force allows a card (ace sweeps aside), into
 * moves[0..cap).  sums may be NULL, or the table's sums for this card. */
static int ordinary_captures(const scopa_rules *r, int card, scopa_cards table,
                             const table_sums *sums, scopa_move *moves,
                             int cap) {
  capture_rule cr = ordinary_rule(r, card, table);
  scopa_move bits = SCOPA_MOVE(card, 0);
  if (cr.single) {
    int n = 0;
    FOR_EACH_CARD(c, table & SCOPA_RANK_CARDS(cr.sum)) {
      if (n < cap)
        moves[n] = bits | SCOPA_BIT(c);
      n++;
    }
    return n;
  }
  if (sums && sums->ok)
    return sums_emit(sums, &cr, r->fewest_cards, bits, moves, cap);
  int cand[40];
  subset_walk w = {cand,
                   table_below(table, cr.sum, cand),
                   0,
                   cr.min_cards,
                   cr.max_cards,
                   bits,
                   moves,
                   cap,
                   0};
  if (r->fewest_cards) {
    w.exact = fewest_cards_for(table, cr.sum, cr.min_cards, cr.max_cards);
    if (!w.exact)
      return 0;
  }
  walk(&w, 0, cr.sum, 0, 0);
  return w.count;
}

/* Every capture of a card (not the lay), into moves[0..cap): the sweep
 * first when the ace can sweep, then, by the rule in force, the others
 * ("choice" lists them beside the sweep, without the sweep again). */
static int captures_with(const scopa_rules *r, int card, scopa_cards table,
                         int first, const table_sums *sums, scopa_move *moves,
                         int cap) {
  int k = ace_case(r, card, table, first);
  if (k == ACE_EMPTY)
    return 0;
  if (k == ACE_PLAIN)
    return ordinary_captures(r, card, table, sums, moves, cap);
  scopa_move sweep = SCOPA_MOVE(card, table);
  if (cap > 0)
    moves[0] = sweep;
  if (k == ACE_SWEEPS)
    return 1;
  /* "choice": the rule in force too (an ace's captures are few: one ace
   * of the table, or under quindici sets adding up to 14). */
  scopa_move other[SCOPA_MAX_MOVES];
  int m = ordinary_captures(r, card, table, sums, other, SCOPA_MAX_MOVES);
  if (m > SCOPA_MAX_MOVES) /* only tables built up on purpose */
    m = SCOPA_MAX_MOVES;
  int n = 1;
  for (int i = 0; i < m; i++) {
    if (other[i] == sweep)
      continue;
    if (n < cap)
      moves[n] = other[i];
    n++;
  }
  return n;
}

/* May the card be laid (or, on an empty table under "taken", taken)
 * besides its ncaps captures?  caps[0] is its first capture. */
static int may_lay(const scopa_rules *r, int card, scopa_cards table, int first,
                   int ncaps) {
  if (ncaps == 0 || !r->mandatory_capture)
    return 1;
  /* ace_sweep_optional: the sweep as the only capture may be refused. */
  return r->ace_sweep_optional && ncaps == 1 && is_sweep(r, card, table, first);
}

static int card_moves(const scopa_rules *r, int card, scopa_cards table,
                      int first, scopa_cards hand, const table_sums *sums,
                      scopa_move *moves, int cap) {
  if (ace_barred(r, card, hand, first))
    return 0;
  int n = captures_with(r, card, table, first, sums, moves, cap);
  if (may_lay(r, card, table, first, n)) {
    if (n < cap)
      moves[n] = SCOPA_MOVE(card, 0);
    n++;
  }
  return n;
}

int scopa__card_moves(const scopa_rules *r, int card, scopa_cards table,
                      int first, scopa_cards hand, scopa_move *moves, int cap) {
  return card_moves(r, card, table, first, hand, NULL, moves, cap);
}

/* Bit 4*(r-1) set iff the set holds a card of rank r. */
static inline scopa_cards ranks_held(scopa_cards set) {
  set |= set >> 1;
  set |= set >> 2;
  return set & SCOPA_DENARI_CARDS;
}

/*
 * The default capture rule (match, no ace sweep, no fewest_cards), where
 * the bench and most searches spend their time.  Captures by sum come from
 * generated tables (src/core/sum_tables.h): the partitions of the card's
 * value into two or more ranks that the table's ranks allow.  Those using
 * each rank once are possible as they stand; those using a rank twice or
 * more are checked against the table's per-rank counts at once: with
 * counts and multiplicities in nibbles (at most 4 each),
 * ((C | H) - P) & H == H holds exactly when every count covers its
 * multiplicity.
 */
#define NIBBLE_LOW 0x1111111111ull
#define NIBBLE_HIGH 0x8888888888ull

/* Per-rank counts of a set, one nibble per rank. */
static inline uint64_t rank_counts(scopa_cards x) {
  x = x - ((x >> 1) & 0x5555555555ull);
  return (x & 0x3333333333ull) + ((x >> 2) & 0x3333333333ull);
}

/* Flags at bits 0, 4, ..., 36 gathered into bits 0..9. */
static inline unsigned gather_nibbles(uint64_t p) {
  p = (p | (p >> 3)) & 0x0303030303ull;
  p = (p | (p >> 6)) & 0x000F000F000Full;
  p = (p | (p >> 12)) & 0x000000FF000000FFull;
  p = (p | (p >> 24)) & 0xFFFFull;
  return (unsigned)p;
}

/* The nibbles of a partition that are not zero, as all-ones nibbles. */
static inline uint64_t nibbles_used(uint64_t parts) {
  return ((parts | (parts >> 1) | (parts >> 2)) & NIBBLE_LOW) * 0xF;
}

/* Every capture of the partition `parts` (nibble multiplicities) from the
 * table, appended at moves[n]; returns the new n. */
static int emit_partition(scopa_move base, uint64_t parts, scopa_cards table,
                          scopa_move *moves, int n, int cap) {
  if (!parts) {
    if (n < cap)
      moves[n] = base;
    return n + 1;
  }
  int shift = LOWEST(parts) & ~3;
  unsigned m = (unsigned)(parts >> shift) & 0xF;
  unsigned avail = (unsigned)(table >> shift) & 0xF;
  parts &= ~((uint64_t)0xF << shift);
  for (unsigned sub = avail; sub; sub = (sub - 1) & avail)
    if ((unsigned)__builtin_popcount(sub) == m)
      n = emit_partition(base | ((scopa_cards)sub << shift), parts, table,
                         moves, n, cap);
  return n;
}

/* The captures by sum of a card of value v. */
static int sum_captures(int v, scopa_move bits, scopa_cards table,
                        uint64_t counts, unsigned present, uint64_t doubled,
                        scopa_move *moves, int n, int cap) {
  unsigned below = present & ((1u << (v - 1)) - 1);
  int at = SUM_OFFSET[v] + (int)below;
  /* Ranks below v with two or more cards on the table, as full nibbles. */
  uint64_t doubled_nibbles =
      (doubled & (((uint64_t)1 << (4 * (v - 1))) - 1)) * 0xF;
  for (uint64_t cand = SUM_SINGLE[at]; cand; cand &= cand - 1) {
    uint64_t parts = SUM_PARTS[v][LOWEST(cand)], used = nibbles_used(parts);
    /* One card of each rank on the table: one capture, all of them. */
    if (!(used & doubled_nibbles)) {
      if (n < cap)
        moves[n] = bits | (table & used);
      n++;
    } else {
      n = emit_partition(bits, parts, table, moves, n, cap);
    }
  }
  if (!doubled_nibbles)
    return n;
  for (uint64_t cand = SUM_MULTI[at]; cand; cand &= cand - 1) {
    uint64_t parts = SUM_PARTS[v][LOWEST(cand)];
    if ((((counts | NIBBLE_HIGH) - parts) & NIBBLE_HIGH) == NIBBLE_HIGH)
      n = emit_partition(bits, parts, table, moves, n, cap);
  }
  return n;
}

/* The captures by sum of a card of value v, appended at moves[n] (kept
 * out of line: most cards never need it, and the hand loop stays small). */
__attribute__((noinline)) static int sum_moves(int v, scopa_move bits,
                                               scopa_cards table,
                                               scopa_move *moves, int n,
                                               int cap) {
  uint64_t counts = rank_counts(table);
  unsigned present = gather_nibbles(ranks_held(table));
  uint64_t doubled = (counts >> 1 | counts >> 2) & NIBBLE_LOW;
  return sum_captures(v, bits, table, counts, present, doubled, moves, n, cap);
}

/* The cards of a set that share their rank with another card of it. */
static inline scopa_cards low_doubled(scopa_cards set) {
  uint64_t counts = rank_counts(set);
  return ((counts >> 1 | counts >> 2) & NIBBLE_LOW) * 0xF;
}

/* Of three table cards a < b < c (one bit each) of different ranks, the
 * set of two or three adding up to v, or 0 (there is one at most). */
static inline scopa_cards three_sum(scopa_cards a3, scopa_cards b3,
                                    scopa_cards c3, int v) {
  scopa_cards a = a3 & ~b3, b = b3 & ~c3, c = c3;
  int ra = (LOWEST(a) >> 2) + 1, rb = (LOWEST(b) >> 2) + 1,
      rc = (LOWEST(c) >> 2) + 1;
  scopa_cards take = 0;
  take |= ra + rb == v ? a | b : 0;
  take |= ra + rc == v ? a | c : 0;
  take |= rb + rc == v ? b | c : 0;
  take |= ra + rb + rc == v ? a | b | c : 0;
  return take;
}

/*
 * The hand loop, written for few instructions and few mispredicted
 * branches: a card meets at most one card of its rank on the table nearly
 * always, and whether it may be laid is arithmetic.  With `checked` zero
 * the caller guarantees room for every move.
 */
static inline __attribute__((always_inline)) int
match_moves(scopa_cards hand, scopa_cards table, int mandatory,
            scopa_move *moves, int cap, int checked) {
  int n = 0;
  scopa_move scratch, *slot;
  for (scopa_cards h = hand; h; h &= h - 1) {
    int c = LOWEST(h), start = n;
    scopa_move bits = SCOPA_MOVE(c, 0);
    scopa_cards rank = (scopa_cards)0xF << (c & ~3); /* the card's rank */
    scopa_cards same = table & rank;
    if (same) {
      if (__builtin_expect((same & (same - 1)) != 0, 0)) {
        for (; same; same &= same - 1) {
          slot = !checked || n < cap ? &moves[n] : &scratch;
          *slot = bits | SCOPA_BIT(LOWEST(same));
          n++;
        }
      } else {
        slot = !checked || n < cap ? &moves[n] : &scratch;
        *slot = bits | same;
        n++;
      }
    } else {
      /* A sum takes two or more table cards of lower rank. */
      scopa_cards low = table & (rank - 1), rest = low & (low - 1);
      if (rest) {
        scopa_cards third = rest & (rest - 1);
        slot = !checked || n < cap ? &moves[n] : &scratch;
        if (!third) {
          /* Two: half the cases in play.  They make v or they do not. */
          int sum = (LOWEST(low) >> 2) + (LOWEST(rest) >> 2) + 2;
          *slot = bits | low;
          n += sum == SCOPA_RANK(c);
        } else if (!(third & (third - 1)) && !(low & low_doubled(low))) {
          /* Three of different ranks: one of their four sets at most
           * makes v. */
          *slot = bits | three_sum(low, rest, third, SCOPA_RANK(c));
          n += *slot != bits;
        } else {
          n = sum_moves(SCOPA_RANK(c), bits, table, moves, n, cap);
        }
      }
    }
    slot = !checked || n < cap ? &moves[n] : &scratch;
    *slot = bits;
    n += (n == start) | !mandatory;
  }
  return n;
}

/* Room enough for every move without checks: a card has at most four
 * single captures and a lay, or a lay and as many sums as a table of six
 * has subsets (65), and a hand at most ten cards. */
static inline __attribute__((always_inline)) int
hand_moves_match(scopa_cards hand, scopa_cards table, int mandatory,
                 scopa_move *moves, int cap) {
  if (cap >= 10 * 65 && POPCOUNT(table) <= 6)
    return match_moves(hand, table, mandatory, moves, cap, 0);
  return match_moves(hand, table, mandatory, moves, cap, 1);
}

/* The sum a card's ordinary captures need, or 0 (a rank match). */
static int sum_needed(const scopa_rules *r, int card, scopa_cards table) {
  capture_rule cr = ordinary_rule(r, card, table);
  return cr.single ? 0 : cr.sum;
}

/* Every legal move of a hand, card by card, for any rules: the table's
 * sums are listed once for the whole hand. */
__attribute__((noinline)) static int
hand_moves_any(const scopa_rules *r, scopa_cards hand, scopa_cards table,
               int first, scopa_move *moves, int cap) {
  unsigned need = 0;
  FOR_EACH_CARD(c, hand) {
    int sum = sum_needed(r, c, table);
    if (sum > 0)
      need |= 1u << sum;
  }
  table_sums sums;
  sums.ok = 0;
  if (need)
    sums_init(&sums, table, need);
  int n = 0;
  FOR_EACH_CARD(c, hand) {
    int room = n < cap ? cap - n : 0;
    n += card_moves(r, c, table, first, hand, &sums, moves + (n < cap ? n : 0),
                    room);
  }
  return n;
}

/* The default capture rule, or one the lean loop does not know. */
static inline int plain_match(const scopa_rules *r) {
  return r->capture == SCOPA_CAPTURE_MATCH && !r->ace_sweeps &&
         !r->fewest_cards && r->single_match_first && !r->max_capture;
}

static inline __attribute__((always_inline)) int
hand_moves(const scopa_rules *r, scopa_cards hand, scopa_cards table, int first,
           scopa_move *moves, int cap) {
  if (plain_match(r))
    return hand_moves_match(hand, table, r->mandatory_capture, moves, cap);
  return hand_moves_any(r, hand, table, first, moves, cap);
}

int scopa__hand_moves(const scopa_rules *r, scopa_cards hand, scopa_cards table,
                      int first, scopa_move *moves, int cap) {
  return hand_moves(r, hand, table, first, moves, cap);
}

int scopa_state_legal_card(const scopa_state *s, int card, scopa_move *moves,
                           int cap) {
  int seat = s->to_play;
  if (seat == SCOPA_NO_SEAT || !(s->hand[seat] & SCOPA_BIT(card)))
    return 0;
  return scopa__card_moves(&s->rules, card, s->table, s->plays == 0,
                           s->hand[seat], moves, cap);
}

int scopa_state_legal(const scopa_state *s, scopa_move *moves, int cap) {
  if (s->to_play == SCOPA_NO_SEAT)
    return 0;
  /* s->plain caches plain_match() for the rounds the bench and the
   * searches play: one test instead of five. */
  if (__builtin_expect(s->plain, 1))
    return hand_moves_match(s->hand[s->to_play], s->table,
                            s->rules.mandatory_capture, moves, cap);
  return hand_moves_any(&s->rules, s->hand[s->to_play], s->table, s->plays == 0,
                        moves, cap);
}

int scopa__plain_match(const scopa_rules *r) { return plain_match(r); }

/* Link-time optimisation inlines scopa_state_play here too: the whole
 * round is one loop, with no calls in the usual turn. */
__attribute__((flatten)) int scopa_state_playout(scopa_state *s,
                                                 scopa_rng *rng) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int plays = 0;
  for (; s->to_play != SCOPA_NO_SEAT; plays++) {
    int n = scopa_state_legal(s, moves, SCOPA_MAX_MOVES);
    if (n > SCOPA_MAX_MOVES) /* only tables built up on purpose */
      n = SCOPA_MAX_MOVES;
    scopa_state_play(s, moves[scopa_rng_below(rng, (uint32_t)n)]);
  }
  return plays;
}

/* Explains why `takes` is not a capture the rule in force allows, in
 * Italian when it. */
static int explain(const scopa_rules *r, int card, scopa_cards table,
                   scopa_cards takes, int it, char *msg, size_t msgsize) {
  capture_rule cr = ordinary_rule(r, card, table);
  char c[SCOPA_CARD_TEXT], t[128], other[128];
  scopa_card_str(card, c);
  scopa__cards_join(takes, "+", t, sizeof t);
  int n = POPCOUNT(takes), sum = cards_sum(takes);
  if (cr.single) {
    scopa_cards same = table & SCOPA_RANK_CARDS(cr.sum);
    scopa__cards_join(same, SCOPA__TR(it, " or ", " o "), other, sizeof other);
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "%s cannot capture %s while %s is on the table",
                         "%s non può prendere %s finché in tavola c'è %s"),
               c, t, other);
  } else if (r->capture == SCOPA_CAPTURE_QUINDICI && sum != cr.sum) {
    scopa__msg(msg, msgsize,
               SCOPA__TR(it,
                         "%s cannot capture %s: with %s they make %d, not 15",
                         "%s non può prendere %s: con %s fanno %d, non 15"),
               c, t, c, sum + SCOPA_RANK(card));
  } else if (sum != cr.sum) {
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "%s cannot capture %s: they add up to %d, not %d",
                         "%s non può prendere %s: la somma fa %d, non %d"),
               c, t, sum, cr.sum);
  } else if (n < cr.min_cards) {
    scopa__msg(msg, msgsize,
               SCOPA__TR(it,
                         "%s cannot capture %s: a capture by sum takes two or "
                         "more cards",
                         "%s non può prendere %s: una presa per somma prende "
                         "due o più carte"),
               c, t);
  } else if (n > cr.max_cards) {
    scopa__msg(msg, msgsize,
               SCOPA__TR(it,
                         "%s cannot capture %s: a capture takes at most %d "
                         "cards (max_capture)",
                         "%s non può prendere %s: una presa prende al più %d "
                         "carte (max_capture)"),
               c, t, cr.max_cards);
  } else {
    int k = fewest_cards_for(table, cr.sum, cr.min_cards, cr.max_cards);
    scopa__msg(msg, msgsize,
               SCOPA__TR(it,
                         "%s must capture with the fewest cards (%d), not %d "
                         "(fewest_cards)",
                         "%s deve prendere il minor numero di carte (%d), non "
                         "%d (fewest_cards)"),
               c, k, n);
  }
  return SCOPA_EILLEGAL;
}

/* Whether takes (not empty, on the table) is a capture the rule in force
 * allows the card. */
static int ordinary_ok(const scopa_rules *r, int card, scopa_cards table,
                       scopa_cards takes) {
  capture_rule cr = ordinary_rule(r, card, table);
  int n = POPCOUNT(takes);
  if (cr.single)
    return n == 1 && (takes & SCOPA_RANK_CARDS(cr.sum));
  return cards_sum(takes) == cr.sum && n >= cr.min_cards && n <= cr.max_cards &&
         (!r->fewest_cards ||
          n == fewest_cards_for(table, cr.sum, cr.min_cards, cr.max_cards));
}

/* A card laid (or an ace taken from an empty table): allowed unless it
 * could capture under mandatory_capture. */
static int check_lay(const scopa_rules *r, int card, scopa_cards table,
                     int first, const char *c, int it, char *msg,
                     size_t msgsize) {
  scopa_move caps[2];
  int n = captures_with(r, card, table, first, NULL, caps, 2);
  if (may_lay(r, card, table, first, n))
    return SCOPA_OK;
  char m[SCOPA_MOVE_TEXT];
  scopa__msg(msg, msgsize,
             SCOPA__TR(it,
                       "%s can capture (%s), so it cannot be laid on the "
                       "table",
                       "%s può prendere (%s), quindi non si può lasciare sul "
                       "tavolo"),
             c, scopa_move_str(caps[0], m));
  return SCOPA_EILLEGAL;
}

int scopa__check_play(const scopa_rules *r, int card, scopa_cards table,
                      scopa_cards takes, int first, scopa_cards hand, int it,
                      char *msg, size_t msgsize) {
  char c[SCOPA_CARD_TEXT];
  scopa_card_str(card, c);
  if (takes & ~table) {
    char t[128];
    scopa__cards_join(takes & ~table, SCOPA__TR(it, " and ", " e "), t,
                      sizeof t);
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "%s cannot capture %s: not on the table",
                         "%s non può prendere %s: non è in tavola"),
               c, t);
    return SCOPA_EILLEGAL;
  }
  if (ace_barred(r, card, hand, first)) {
    scopa__msg(msg, msgsize,
               SCOPA__TR(it,
                         "%s: the first play may not be an ace unless every "
                         "card in the hand is one (ace_first_play no_ace)",
                         "%s: la prima giocata non può essere un asso, a meno "
                         "che in mano non ci siano solo assi (ace_first_play "
                         "no_ace)"),
               c);
    return SCOPA_EILLEGAL;
  }
  if (!takes)
    return check_lay(r, card, table, first, c, it, msg, msgsize);
  int k = ace_case(r, card, table, first);
  if (k == ACE_SWEEPS || k == ACE_CHOICE) {
    if (takes == table ||
        (k == ACE_CHOICE && ordinary_ok(r, card, table, takes)))
      return SCOPA_OK;
    char t[128];
    scopa__cards_join(takes, "+", t, sizeof t);
    const char *or_rule = k != ACE_CHOICE ? ""
                          : it ? " o prende secondo la regola in vigore"
                               : " or captures by the rule in force";
    scopa__msg(msg, msgsize,
               SCOPA__TR(it,
                         "%s is an ace that sweeps the whole table "
                         "(ace_sweeps)%s, not %s",
                         "%s è un asso che prende tutto il tavolo "
                         "(ace_sweeps)%s, non %s"),
               c, or_rule, t);
    return SCOPA_EILLEGAL;
  }
  if (ordinary_ok(r, card, table, takes))
    return SCOPA_OK;
  return explain(r, card, table, takes, it, msg, msgsize);
}

int scopa__is_sweep(const scopa_rules *r, int card, scopa_cards table,
                    int first) {
  return is_sweep(r, card, table, first);
}

int scopa__ace_taken(const scopa_rules *r, int card, scopa_cards table,
                     int first) {
  return r->ace_empty_table == SCOPA_ACE_EMPTY_TAKEN &&
         ace_case(r, card, table, first) == ACE_EMPTY;
}

/* ------------------------------------------------------------------ */
/* Why a card plays as it does (scopa.h scopa_view_card_reason)        */
/* ------------------------------------------------------------------ */

/* Would a sum of two or more table cards have made the card's rank, had
 * single_match_first not sent it to the card of its rank? */
static int sum_was_there(const scopa_rules *r, int card, scopa_cards table) {
  scopa_rules any = *r;
  any.single_match_first = 0;
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = ordinary_captures(&any, card, table, NULL, moves, SCOPA_MAX_MOVES);
  return n > POPCOUNT(table & SCOPA_RANK_CARDS(SCOPA_RANK(card)));
}

static const char *const CARD_REASON_CODE[SCOPA_CARD_REASON_COUNT] = {
#define SCOPA__CARD_REASON_CODE(name, code) code,
    SCOPA_CARD_REASON_MAP(SCOPA__CARD_REASON_CODE)
#undef SCOPA__CARD_REASON_CODE
};

const char *scopa_card_reason_code(int reason) {
  return reason >= 0 && reason < SCOPA_CARD_REASON_COUNT
             ? CARD_REASON_CODE[reason]
             : NULL;
}

int scopa_view_card_reason(const scopa_view *v, int card) {
  if (card < 0 || card >= 40 || v->to_play != v->seat ||
      !(v->hand & SCOPA_BIT(card)))
    return SCOPA_CARD_REASON_NOT_PLAYABLE;
  const scopa_rules *r = &v->rules;
  int first = v->plays == 0;
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = card_moves(r, card, v->table, first, v->hand, NULL, moves,
                     SCOPA_MAX_MOVES);
  if (n == 0)
    return SCOPA_CARD_REASON_NOT_PLAYABLE;
  if (n > 1)
    return SCOPA_CARD_REASON_CHOICE;
  scopa_cards takes = SCOPA_MOVE_TAKES(moves[0]);
  if (!takes)
    return scopa__ace_taken(r, card, v->table, first)
               ? SCOPA_CARD_REASON_ACE_TAKEN
               : SCOPA_CARD_REASON_LAY;
  if (takes == v->table && is_sweep(r, card, v->table, first))
    return SCOPA_CARD_REASON_SWEEP;
  capture_rule cr = ordinary_rule(r, card, v->table);
  if (cr.single && r->capture == SCOPA_CAPTURE_MATCH &&
      sum_was_there(r, card, v->table))
    return SCOPA_CARD_REASON_MATCH_FIRST;
  return SCOPA_CARD_REASON_MUST_TAKE;
}
