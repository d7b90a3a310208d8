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

#include "sum_tables.h"

/* What a card may do on a table, before mandatory_capture and lays. */
typedef struct capture_rule {
  int sweep;     /* the ace sweeps the whole table              */
  int single;    /* match: a card of the same rank is there     */
  int sum;       /* the sum the taken cards must make           */
  int min_cards; /* fewest cards a capture may take: 1 or 2     */
} capture_rule;

static int is_ace_sweep(const scopa_rules *r, int card, scopa_cards table) {
  return r->ace_sweeps && SCOPA_RANK(card) == 1 && table &&
         !(table & SCOPA_RANK_CARDS(1));
}

static inline capture_rule rule_for(const scopa_rules *r, int card,
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
  subset_walk w = {cand, table_below(table, sum, cand), 0, min, 0, NULL, 0, 0,
                   99};
  for (int k = min; k <= w.n; k++) {
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

/* The captures of `sum` listed, with at least min cards (only the fewest
 * with fewest_cards). */
static int sums_emit(const table_sums *t, int sum, int min, int fewest,
                     scopa_move bits, scopa_move *moves, int cap) {
  int size = 99, n = 0;
  if (fewest)
    for (int i = 1; i < t->n; i++)
      if (t->sum[i] == sum && POPCOUNT(t->set[i]) >= min &&
          POPCOUNT(t->set[i]) < size)
        size = POPCOUNT(t->set[i]);
  for (int i = 1; i < t->n; i++) {
    if (t->sum[i] != sum)
      continue;
    int pc = POPCOUNT(t->set[i]);
    if (pc < min || (fewest && pc != size))
      continue;
    if (n < cap)
      moves[n] = bits | t->set[i];
    n++;
  }
  return n;
}

/* The capture moves of a card (not the lay), into moves[0..cap).  sums
 * may be NULL, or the table's sums for the capture rule in force. */
static int captures_with(const scopa_rules *r, int card, scopa_cards table,
                         const table_sums *sums, scopa_move *moves, int cap) {
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
  if (sums && sums->ok)
    return sums_emit(sums, cr.sum, cr.min_cards, r->fewest_cards, bits, moves,
                     cap);
  int cand[40];
  subset_walk w = {cand, table_below(table, cr.sum, cand),
                   0,    cr.min_cards,
                   bits, moves,
                   cap,  0,
                   99};
  if (r->fewest_cards) {
    w.exact = fewest_cards_for(table, cr.sum, cr.min_cards);
    if (!w.exact)
      return 0;
  }
  walk(&w, 0, cr.sum, 0, 0);
  return w.count;
}

static int captures(const scopa_rules *r, int card, scopa_cards table,
                    scopa_move *moves, int cap) {
  return captures_with(r, card, table, NULL, moves, cap);
}

static int card_moves(const scopa_rules *r, int card, scopa_cards table,
                      const table_sums *sums, scopa_move *moves, int cap) {
  int n = captures_with(r, card, table, sums, moves, cap);
  if (n == 0 || !r->mandatory_capture) {
    if (n < cap)
      moves[n] = SCOPA_MOVE(card, 0);
    n++;
  }
  return n;
}

int scopa__card_moves(const scopa_rules *r, int card, scopa_cards table,
                      scopa_move *moves, int cap) {
  return card_moves(r, card, table, NULL, moves, cap);
}

/* Bit 4*(r-1) set iff the set holds a card of rank r. */
static inline scopa_cards ranks_held(scopa_cards set) {
  set |= set >> 1;
  set |= set >> 2;
  return set & SCOPA_DENARI_CARDS;
}

/* Appends a card's capture moves (and the lay when allowed) at moves[n]. */
#define PUSH(m)                                                                \
  do {                                                                         \
    if (n < cap)                                                               \
      moves[n] = (m);                                                          \
    n++;                                                                       \
  } while (0)

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

/* Every legal move of a hand, card by card, for any rules. */
__attribute__((noinline)) static int
hand_moves_any(const scopa_rules *r, scopa_cards hand, scopa_cards table,
               scopa_move *moves, int cap) {
  scopa_cards on_table = ranks_held(table), in_hand = ranks_held(hand);
  int quindici = r->capture == SCOPA_CAPTURE_QUINDICI;
  int sweep = r->ace_sweeps && table && !(on_table & 1);
  /* Sums some card needs: bit v of need. */
  unsigned need = 0;
  scopa_cards by_sum = quindici ? in_hand : in_hand & ~on_table;
  if (sweep)
    by_sum &= ~(scopa_cards)1;
  FOR_EACH_CARD(c, by_sum) {
    int v = SCOPA_RANK(c);
    need |= 1u << (quindici ? 15 - v : v);
  }
  table_sums sums;
  sums.ok = 0;
  if (need)
    sums_init(&sums, table, need);
  int n = 0;
  FOR_EACH_CARD(c, hand) {
    int v = SCOPA_RANK(c), start = n;
    scopa_move bits = SCOPA_MOVE(c, 0);
    if (sweep && v == 1) {
      PUSH(bits | table);
    } else if (!quindici && (on_table & SCOPA_BIT(4 * (v - 1)))) {
      FOR_EACH_CARD(t, table & SCOPA_RANK_CARDS(v)) PUSH(bits | SCOPA_BIT(t));
    } else if (sums.ok) {
      int room = n < cap ? cap - n : 0;
      n += sums_emit(&sums, quindici ? 15 - v : v, quindici ? 1 : 2,
                     r->fewest_cards, bits, moves + (n < cap ? n : 0), room);
    } else {
      int room = n < cap ? cap - n : 0;
      n += captures(r, c, table, moves + (n < cap ? n : 0), room);
    }
    if (n == start || !r->mandatory_capture)
      PUSH(bits);
  }
  return n;
}
#undef PUSH

static inline __attribute__((always_inline)) int
hand_moves(const scopa_rules *r, scopa_cards hand, scopa_cards table,
           scopa_move *moves, int cap) {
  if (r->capture == SCOPA_CAPTURE_MATCH && !r->ace_sweeps && !r->fewest_cards)
    return hand_moves_match(hand, table, r->mandatory_capture, moves, cap);
  return hand_moves_any(r, hand, table, moves, cap);
}

int scopa__hand_moves(const scopa_rules *r, scopa_cards hand, scopa_cards table,
                      scopa_move *moves, int cap) {
  return hand_moves(r, hand, table, moves, cap);
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
  return hand_moves(&s->rules, s->hand[s->to_play], s->table, moves, cap);
}

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
    scopa__msg(msg, msgsize, "%s cannot capture %s while %s is on the table", c,
               t, other);
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
