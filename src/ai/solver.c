/*
 * solver.c -- exact alpha-beta on a fully known round (NOTES "Exact
 * solving"): minimax for the root side with fail-soft bounds, a
 * transposition table and capture-first move ordering; MTD(f) on top.
 *
 * What must stay true: a table entry is used only by the tree (world and
 * root side) that wrote it, and only at a depth at least the one asked;
 * its key describes everything the rest of the round depends on: where
 * every uncaptured card is, whose turn, the last capturer's side, and a
 * summary of the piles that decides the categories exactly (card and coin
 * counts, who holds 7d and 10d, each side's best primiera card per suit).
 * Scope already made are never part of a value, so they stay out of it.
 */
#include "solver.h"

#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct tt_entry {
  uint64_t key;
  scopa_move move;
  uint32_t id;
  int16_t lo, hi;
  int8_t depth;
} tt_entry;

_Static_assert(sizeof(tt_entry) == AI_TT_ENTRY_BYTES, "AI_TT_ENTRY_BYTES");

struct ai_solver {
  tt_entry *tt;
  uint64_t mask;
  uint32_t id;
  uint32_t *ids;    /* the tree counter of the table's memory          */
  uint32_t own_ids; /* that counter, when the solver owns its table    */
  int owns_table;
  int root_side;
  uint64_t nodes;
  ai_clock *clock; /* NULL: never stops                              */
  int countdown;   /* nodes left before the next check of the clock */
  int stopped;     /* the clock stopped the current search          */
};

ai_solver *ai_solver_new_in(void *table, int bits, uint32_t *ids) {
  ai_solver *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->tt = table;
  s->mask = ((uint64_t)1 << bits) - 1;
  s->ids = ids;
  return s;
}

ai_solver *ai_solver_new(int bits) {
  tt_entry *tt = calloc((size_t)1 << bits, sizeof *tt);
  ai_solver *s = tt ? ai_solver_new_in(tt, bits, NULL) : NULL;
  if (!s) {
    free(tt);
    return NULL;
  }
  s->ids = &s->own_ids;
  s->owns_table = 1;
  return s;
}

void ai_solver_free(ai_solver *s) {
  if (s && s->owns_table)
    free(s->tt);
  free(s);
}

/* A new tree: its id is new to every solver of the table's memory. */
void ai_solver_begin(ai_solver *s, int root_side) {
  s->id = __atomic_add_fetch(s->ids, 1, __ATOMIC_RELAXED);
  s->root_side = root_side;
}

uint64_t ai_solver_nodes(const ai_solver *s) { return s->nodes; }

void ai_solver_set_clock(ai_solver *s, ai_clock *clock) { s->clock = clock; }

int ai_solver_stopped(const ai_solver *s) { return s->stopped; }

/* Counts a node; every CLOCK_CHECK_NODES nodes asks the clock.  Nonzero
 * once the search must stop. */
static inline int tick(ai_solver *S) {
  S->nodes++;
  if (--S->countdown <= 0) {
    S->countdown = CLOCK_CHECK_NODES;
    if (ai_clock_check(S->clock))
      S->stopped = 1;
  }
  return S->stopped;
}

static int side_of(const scopa_state *s, int seat) {
  return s->rules.teams ? seat % s->sides : seat;
}

/* V for one point won by `side`: the scoring in force decides its sign
 * (under lowest_wins a point taken is a point against). */
static int point_for(const scopa_state *s, int side, int root) {
  int v = AI_UNIT * (side == root ? s->sides - 1 : -1);
  return s->rules.lowest_wins ? -v : v;
}

/* A scopa made now, or an ace taken from an empty table that scores. */
int ai_move_gain(const scopa_state *s, scopa_move m, int root) {
  if (!scopa_state_is_scopa(s, m))
    return 0;
  return point_for(s, side_of(s, s->to_play), root);
}

/* all_coins_wins: all ten coins win the game at once, worth as much as
 * the points still missing to the target (at most 11 here, to keep the
 * values of a search in range). */
static int all_coins_value(const scopa_state *s, int root) {
  if (!s->rules.all_coins_wins)
    return 0;
  int worth = s->rules.target < 11 ? s->rules.target : 11;
  for (int k = 0; k < s->sides; k++)
    if ((s->pile[k] & SCOPA_DENARI_CARDS) == SCOPA_DENARI_CARDS)
      return worth * point_for(s, k, root);
  return 0;
}

int ai_leaf_value(const scopa_state *s, int root) {
  static const uint8_t no_scope[SCOPA_MAX_SEATS];
  scopa_score sc;
  scopa_score_piles(&s->rules, s->sides, s->pile, no_scope, &sc);
  int v = 0;
  for (int k = 0; k < s->sides; k++)
    v += sc.side[k].total * point_for(s, k, root);
  return v + all_coins_value(s, root);
}

/* ---- the key --------------------------------------------------------- */

static inline uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ull;
  x ^= x >> 27;
  x *= 0x81dadef4bc2dd44dull;
  x ^= x >> 33;
  return x;
}

/* The best primiera card of a suit in a pile, as a level 0..8 that is
 * monotone in the primiera value on every scale (0: suit not held). */
static int primiera_level(scopa_cards pile, int suit) {
  static const int ORDER[7] = {7, 6, 1, 5, 4, 3, 2};
  scopa_cards x = pile & SUIT_CARDS(suit);
  if (!x)
    return 0;
  for (int i = 0; i < 7; i++)
    if (x & SCOPA_BIT(SCOPA_CARD(ORDER[i], suit)))
      return 8 - i;
  return 1;
}

static uint64_t pile_summary(const scopa_state *s) {
  const scopa_rules *r = &s->rules;
  /* The compact summary decides carte, denari (and all_coins_wins),
   * settebello, re bello and the primiera scales that compare the best
   * card of each suit; anything else hashes the piles themselves. */
  if (s->sides != 2 || r->napola || r->primiera == SCOPA_PRIMIERA_SEVENS ||
      r->most_sevens || r->all_sevens) {
    uint64_t h = 0;
    for (int k = 0; k < s->sides; k++)
      h ^= mix(s->pile[k] + (uint64_t)k);
    return h;
  }
  scopa_cards p = s->pile[0];
  uint64_t x = (uint64_t)POPCOUNT(p) |
               (uint64_t)POPCOUNT(p & SCOPA_DENARI_CARDS) << 6 |
               (uint64_t)((p >> SCOPA_SETTEBELLO) & 1) << 10 |
               (uint64_t)((p >> SCOPA_RE_BELLO) & 1) << 11;
  if (r->primiera != SCOPA_PRIMIERA_OFF)
    for (int suit = 0; suit < 4; suit++)
      x |= (uint64_t)(primiera_level(s->pile[0], suit) |
                      primiera_level(s->pile[1], suit) << 4)
           << (12 + 8 * suit);
  return x;
}

static uint64_t state_key(const scopa_state *s) {
  int lc = s->last_capturer == SCOPA_NO_SEAT ? 7 : side_of(s, s->last_capturer);
  uint64_t h = mix(s->hand[0] + 0x9E3779B97F4A7C15ull);
  for (int seat = 1; seat < s->players; seat++)
    h = mix(h ^ s->hand[seat]);
  h = mix(h ^ s->table ^ (uint64_t)s->next << 40 ^ (uint64_t)s->to_play << 48 ^
          (uint64_t)lc << 56);
  return mix(h ^ pile_summary(s));
}

/* ---- move ordering ------------------------------------------------------ */

static int order_score(const scopa_state *s, scopa_move m) {
  scopa_cards takes = SCOPA_MOVE_TAKES(m);
  int card = SCOPA_MOVE_CARD(m);
  if (!takes) {
    scopa_cards t = s->table | SCOPA_BIT(card);
    return 50 - 4 * SCOPA_RANK(card) + (cards_sum(t) > 10 ? 30 : 0) -
           (card == SCOPA_SETTEBELLO ? 40 : 0);
  }
  scopa_cards got = takes | SCOPA_BIT(card);
  int v = 200 + 20 * POPCOUNT(got) + 30 * POPCOUNT(got & SCOPA_DENARI_CARDS) +
          25 * POPCOUNT(got & SCOPA_RANK_CARDS(7));
  if (got & SCOPA_BIT(SCOPA_SETTEBELLO))
    v += 300;
  if (takes == s->table)
    v += 1000;
  return v;
}

static void order_moves(const scopa_state *s, scopa_move *moves, int n,
                        scopa_move first) {
  int score[SCOPA_MAX_MOVES];
  for (int i = 0; i < n; i++)
    score[i] = moves[i] == first ? 1 << 20 : order_score(s, moves[i]);
  for (int i = 1; i < n; i++) {
    scopa_move m = moves[i];
    int v = score[i], j = i;
    for (; j > 0 && score[j - 1] < v; j--) {
      moves[j] = moves[j - 1];
      score[j] = score[j - 1];
    }
    moves[j] = m;
    score[j] = v;
  }
}

/* ---- search ---------------------------------------------------------------
 */

static void store(ai_solver *S, tt_entry *e, uint64_t key, int depth, int v,
                  int alpha, int beta, scopa_move best) {
  e->key = key;
  e->id = S->id;
  e->depth = (int8_t)depth;
  e->move = best;
  e->lo = (int16_t)(v > alpha ? v : -AI_INF);
  e->hi = (int16_t)(v < beta ? v : AI_INF);
}

/* Once stopped, every call returns 0 at once and nothing more is stored:
 * a stopped search's values are never written to the table. */
int ai_solver_search(ai_solver *S, const scopa_state *s, int alpha, int beta,
                     int depth) {
  if (tick(S))
    return 0;
  if (s->to_play == SCOPA_NO_SEAT)
    return ai_leaf_value(s, S->root_side);
  if (depth <= 0)
    return ai_eval_state(s, S->root_side);
  if (depth > 120)
    depth = 120;
  uint64_t key = state_key(s);
  tt_entry *e = &S->tt[key & S->mask];
  scopa_move first = 0;
  int a = alpha, b = beta;
  if (e->key == key && e->id == S->id) {
    if (e->depth >= depth) {
      if (e->lo >= b || e->lo == e->hi)
        return e->lo;
      if (e->hi <= a)
        return e->hi;
      if (e->lo > a)
        a = e->lo;
      if (e->hi < b)
        b = e->hi;
    }
    first = e->move;
  }
  int lo = a, hi = b;
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_state_legal(s, moves, SCOPA_MAX_MOVES);
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  order_moves(s, moves, n, first);
  int maxing = side_of(s, s->to_play) == S->root_side;
  int best = maxing ? -AI_INF : AI_INF;
  scopa_move best_move = moves[0];
  for (int i = 0; i < n; i++) {
    scopa_state child = *s;
    int gain = ai_move_gain(s, moves[i], S->root_side);
    scopa_state_play(&child, moves[i]);
    int v = gain + ai_solver_search(S, &child, a - gain, b - gain, depth - 1);
    if (S->stopped)
      return 0;
    if (maxing ? v > best : v < best) {
      best = v;
      best_move = moves[i];
    }
    if (maxing && best > a)
      a = best;
    if (!maxing && best < b)
      b = best;
    if (a >= b)
      break;
  }
  store(S, e, key, depth, best, lo, hi, best_move);
  return best;
}

int ai_solver_value(ai_solver *S, const scopa_state *s, int guess, int depth) {
  int lo = -AI_INF, hi = AI_INF, g = guess;
  while (lo < hi && !S->stopped) {
    int beta = g == lo ? g + 1 : g;
    g = ai_solver_search(S, s, beta - 1, beta, depth);
    if (g < beta)
      hi = g;
    else
      lo = g;
  }
  return g;
}

int ai_solver_root(ai_solver *S, const scopa_state *s, const scopa_move *moves,
                   int n, int depth, int *values) {
  int root = side_of(s, s->to_play), guess = 0;
  ai_solver_begin(S, root);
  S->countdown = CLOCK_CHECK_NODES;
  S->stopped = ai_clock_check(S->clock);
  for (int i = 0; i < n && !S->stopped; i++) {
    scopa_state child = *s;
    int gain = ai_move_gain(s, moves[i], root);
    scopa_state_play(&child, moves[i]);
    values[i] = gain + ai_solver_value(S, &child, guess, depth - 1);
    guess = values[i] - gain;
  }
  return S->stopped ? -1 : 0;
}
