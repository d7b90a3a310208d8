/*
 * worlds.c -- building, listing and weighing the worlds of worlds.h.
 *
 * What must stay true: every world agrees with the view (the seat's own
 * hand, the table, the piles, the counts of every hand and of the stock),
 * so a world plays on exactly as the real round would if it were so.
 * Weights look only at the others' moves since their current hands were
 * dealt: earlier hands have been played out and are known to everyone.
 */
#include "worlds.h"

#include "heur.h"
#include "internal.h"

#include <math.h>
#include <string.h>

static int enumerable(const scopa_view *v) {
  return v->players == 2 && v->rules.game == SCOPA_GAME_SCOPA &&
         v->rules.refill == 3 && v->stock <= 6 && v->stock % 2 == 0;
}

static long choose(int n, int k) {
  long r = 1;
  for (int i = 0; i < k; i++)
    r = r * (n - i) / (i + 1);
  return r;
}

long ai_world_count(const scopa_view *v) {
  if (!enumerable(v))
    return -1;
  int opp = 1 - v->seat, h = v->hand_count[opp];
  return choose(POPCOUNT(v->unseen), h) * choose(v->stock, v->stock / 2);
}

/* The next subset of the same size (Gosper's hack on indexes). */
static uint32_t next_subset(uint32_t x) {
  uint32_t c = x & -x, r = x + c;
  return (((r ^ x) >> 2) / c) | r;
}

static scopa_cards pick(const int *cards, uint32_t bits) {
  scopa_cards s = 0;
  for (int i = 0; bits; i++, bits >>= 1)
    if (bits & 1)
      s |= SCOPA_BIT(cards[i]);
  return s;
}

int ai_world_enumerate(const scopa_view *v, scopa_state *out, int cap,
                       ai_clock *clock) {
  if (!enumerable(v))
    return -1;
  int opp = 1 - v->seat, h = v->hand_count[opp], u = 0, cards[40];
  FOR_EACH_CARD(c, v->unseen) cards[u++] = c;
  int half = v->stock / 2, count = 0;
  uint32_t limit = (uint32_t)1 << u;
  for (uint32_t hs = (1u << h) - 1; hs < limit;
       hs = h ? next_subset(hs) : limit) {
    scopa_cards hands[SCOPA_MAX_SEATS] = {0};
    hands[opp] = pick(cards, hs);
    int rest[6], nr = 0;
    for (int i = 0; i < u; i++)
      if (!(hs >> i & 1))
        rest[nr++] = cards[i];
    uint32_t slimit = 1u << nr;
    for (uint32_t ss = (1u << half) - 1; ss < slimit;
         ss = half ? next_subset(ss) : slimit) {
      uint8_t stock[6];
      int a = 0, b = 1;
      for (int i = 0; i < nr; i++) {
        if (ss >> i & 1)
          stock[a] = (uint8_t)rest[i], a += 2;
        else
          stock[b] = (uint8_t)rest[i], b += 2;
      }
      if (count % 32 == 0 && ai_clock_check(clock))
        return -2;
      /* Every listed world fits the view by construction. */
      if (count < cap && scopa_view_world(v, hands, stock, &out[count]))
        continue;
      count++;
    }
    if (h == 0)
      break;
  }
  return count;
}

/* ---- weights ------------------------------------------------------------ */

#define MODEL_TEMPERATURE 0.25
#define MODEL_EPSILON 0.1

int ai_hands_start(const scopa_view *v) {
  if (v->rules.game != SCOPA_GAME_SCOPA)
    return 0;
  if (v->rules.refill != 3)
    return v->plays;
  int per_deal = 3 * v->players;
  return v->plays - v->plays % per_deal;
}

/* Chance that a seat holding `hand` on `table` plays `move`. */
static double move_chance(const scopa_view *v, int seat, scopa_cards hand,
                          scopa_cards table, const scopa_cards *pile, int plays,
                          scopa_move move, double temperature, double epsilon) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa__hand_moves(&v->rules, hand, table, plays == 0, moves,
                            SCOPA_MAX_MOVES);
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  ai_heur h;
  memset(&h, 0, sizeof h);
  int side = scopa_rules_side_of(&v->rules, seat);
  h.rules = &v->rules;
  h.hand = hand;
  h.table = table;
  h.mine = pile[side];
  for (int k = 0; k < v->sides; k++)
    if (k != side)
      h.theirs |= pile[k];
  h.next_hand = 3;
  h.last_play =
      plays + 1 == (v->rules.game == SCOPA_GAME_SCIENTIFICO ? 40 : 36);
  return ai_heur_chance(&h, moves, n, move, temperature, epsilon);
}

double ai_world_likelihood(const scopa_view *v, const scopa_state *w) {
  return ai_world_likelihood_model(v, w, MODEL_TEMPERATURE, MODEL_EPSILON);
}

double ai_world_likelihood_model(const scopa_view *v, const scopa_state *w,
                                 double temperature, double epsilon) {
  int start = ai_hands_start(v);
  scopa_cards table = v->initial_table, pile[SCOPA_MAX_SEATS] = {0};
  double p = 1;
  /* deal_bonus: a table of 15 or 30 went to the dealer before move 0. */
  int sum = 0;
  FOR_EACH_CARD(c, table) sum += SCOPA_RANK(c);
  if (v->rules.deal_bonus == SCOPA_DEAL_BONUS_FIFTEEN &&
      (sum == 15 || sum == 30))
    table = 0;
  for (int i = 0; i < v->plays; i++) {
    scopa_move m = v->moves[i];
    int seat = (v->dealer + 1 + i) % v->players;
    if (i >= start && seat != v->seat) {
      scopa_cards hand = w->hand[seat];
      for (int j = i; j < v->plays; j++)
        if ((v->dealer + 1 + j) % v->players == seat)
          hand |= SCOPA_BIT(SCOPA_MOVE_CARD(v->moves[j]));
      p *= move_chance(v, seat, hand, table, pile, i, m, temperature, epsilon);
    }
    scopa_cards takes = SCOPA_MOVE_TAKES(m);
    if (takes) {
      table &= ~takes;
      pile[scopa_rules_side_of(&v->rules, seat)] |=
          takes | SCOPA_BIT(SCOPA_MOVE_CARD(m));
    } else if (!table &&
               scopa__ace_taken(&v->rules, SCOPA_MOVE_CARD(m), 0, i == 0)) {
      pile[scopa_rules_side_of(&v->rules, seat)] |=
          SCOPA_BIT(SCOPA_MOVE_CARD(m));
    } else {
      table |= SCOPA_BIT(SCOPA_MOVE_CARD(m));
    }
  }
  return p;
}
