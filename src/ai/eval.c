/*
 * eval.c -- an estimate of the points still to come in an unfinished
 * round, from the piles so far: what a depth-limited search (early
 * scopone) uses at its horizon.  Only the categories are estimated
 * (with most_sevens and all_sevens, and the sign of lowest_wins); a
 * majority already past half is counted as won.  Two sides only (three
 * sides get 0: their rounds are solved to the end).
 */
#include "solver.h"

#include "internal.h"

#include <math.h>

/* A lead of `lead` with `open` still to share: a soft 1/0/-1. */
static double soft(double lead, double open) {
  return tanh(lead / (0.35 * open + 1.5));
}

static double majority(int mine, int theirs, int total) {
  if (2 * mine > total)
    return 1;
  if (2 * theirs > total)
    return -1;
  return soft(mine - theirs, total - mine - theirs);
}

static int primiera_points(scopa_cards pile) {
  static const int V[11] = {0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10};
  int sum = 0;
  for (int suit = 0; suit < 4; suit++) {
    int best = 0;
    FOR_EACH_CARD(c, pile & SUIT_CARDS(suit)) {
      if (V[SCOPA_RANK(c)] > best)
        best = V[SCOPA_RANK(c)];
    }
    sum += best;
  }
  return sum;
}

int ai_eval_state(const scopa_state *s, int root) {
  if (s->sides != 2)
    return 0;
  scopa_cards me = s->pile[root], them = s->pile[1 - root];
  double v = 0;
  v += majority(POPCOUNT(me), POPCOUNT(them), 40);
  v += majority(POPCOUNT(me & SCOPA_DENARI_CARDS),
                POPCOUNT(them & SCOPA_DENARI_CARDS), 10);
  if (me & SCOPA_BIT(SCOPA_SETTEBELLO))
    v += 1;
  if (them & SCOPA_BIT(SCOPA_SETTEBELLO))
    v -= 1;
  int sevens =
      POPCOUNT(me & SCOPA_RANK_CARDS(7)) - POPCOUNT(them & SCOPA_RANK_CARDS(7));
  if (s->rules.primiera != SCOPA_PRIMIERA_OFF)
    v += tanh(0.6 * sevens +
              (primiera_points(me) - primiera_points(them)) / 40.0);
  /* most_sevens: a majority of four; all_sevens: all four in one pile. */
  if (s->rules.most_sevens)
    v += majority(POPCOUNT(me & SCOPA_RANK_CARDS(7)),
                  POPCOUNT(them & SCOPA_RANK_CARDS(7)), 4);
  if (s->rules.all_sevens &&
      !(me & SCOPA_RANK_CARDS(7)) != !(them & SCOPA_RANK_CARDS(7)))
    v += 0.5 * s->rules.all_sevens * (me & SCOPA_RANK_CARDS(7) ? 1 : -1);
  /* The scoring in force: under lowest_wins points are to be avoided. */
  if (s->rules.lowest_wins)
    v = -v;
  return (int)lround(AI_UNIT * v);
}
