/*
 * test_hint.c -- the one hint procedure (scopa.h scopa_bot_hint) and its
 * seed (scopa_hint_seed): every value a function of the position, the
 * rules, the budget and the seed (any thread count gives the same
 * numbers), each legal move once with the best first, marks only beyond
 * the uncertainty, exact values where every world is listed, and the
 * seeds the review derives from a record.  Small budgets: the numbers'
 * quality is measured in bench/ai/rollout.c (docs/ai.md).
 */
#include "scopa.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BUDGET 20000 /* nodes: small, the tests check the shape */

/* A round of random moves up to `plays` cards out, in preset's rules. */
static void random_round(scopa_state *s, const char *preset, uint64_t seed,
                         int plays) {
  scopa_rules r;
  scopa_rng rng;
  scopa_rules_preset(&r, preset);
  scopa_rng_seed(&rng, seed);
  scopa_state_deal_random(s, &r, (int)(seed % r.players), &rng);
  while (!scopa_state_over(s) && s->plays < plays) {
    scopa_move m[SCOPA_MAX_MOVES];
    int n = scopa_state_legal(s, m, SCOPA_MAX_MOVES);
    scopa_state_play(s, m[scopa_rng_below(&rng, (uint32_t)n)]);
  }
}

static int same_hint(const scopa_hint *a, const scopa_hint *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i].move != b[i].move ||
        memcmp(&a[i].value, &b[i].value, sizeof a[i].value) ||
        memcmp(&a[i].loss, &b[i].loss, sizeof a[i].loss) ||
        memcmp(&a[i].margin, &b[i].margin, sizeof a[i].margin) ||
        a[i].mark != b[i].mark)
      return 0;
  return 1;
}

/* hint-1.*: the same answer with 1, 2 and 3 threads, and again. */
static void test_threads(scopa_bot *bot) {
  TEST("hint-1.1", "scopa.h Hints: the same answer with any thread count");
  static const char *const PRESETS[] = {"scopa", "scopone", "quindici"};
  for (int k = 0; k < 12; k++) {
    scopa_state s;
    random_round(&s, PRESETS[k % 3], 100 + (uint64_t)k, 3 * k);
    if (scopa_state_over(&s))
      continue;
    scopa_view v;
    scopa_view_of(&s, s.to_play, NULL, &v);
    scopa_hint a[64], b[64];
    scopa_hint_info ia, ib;
    int n = 0;
    for (int threads = 1; threads <= 3; threads++) {
      scopa_bot_limits l = {.seed = 7, .threads = threads, .nodes = BUDGET};
      int m = scopa_bot_hint(bot, &v, &l, threads == 1 ? a : b, 64,
                             threads == 1 ? &ia : &ib);
      if (threads == 1) {
        n = m;
        continue;
      }
      CHECK_EQ_INT(m, n);
      CHECK(same_hint(a, b, n < 64 ? n : 64));
      CHECK_EQ_INT(ib.worlds, ia.worlds);
      CHECK(ib.nodes == ia.nodes);
    }
  }
}

/* hint-2.*: every legal move once, best first, losses and marks as
 * scopa.h says. */
static void test_shape(scopa_bot *bot) {
  TEST("hint-2.1", "scopa.h Hints: each legal move once, best first");
  for (int k = 0; k < 20; k++) {
    scopa_state s;
    random_round(&s, "scopa", 300 + (uint64_t)k, k);
    scopa_view v;
    scopa_view_of(&s, s.to_play, NULL, &v);
    scopa_move legal[SCOPA_MAX_MOVES];
    int n = scopa_view_legal(&v, legal, SCOPA_MAX_MOVES);
    scopa_hint h[64];
    scopa_bot_limits l = {.seed = (uint64_t)k, .nodes = BUDGET};
    CHECK_EQ_INT(scopa_bot_hint(bot, &v, &l, h, 64, NULL), n);
    for (int i = 0; i < n; i++) {
      int found = 0;
      for (int j = 0; j < n; j++)
        found += h[j].move == legal[i];
      CHECK_EQ_INT(found, 1);
      CHECK(isfinite(h[i].value) && isfinite(h[i].loss));
      CHECK(h[i].margin >= 0 && h[i].loss >= 0 && h[i].loss_margin >= 0);
      CHECK(i == 0 || h[i].value <= h[i - 1].value);
    }
  }
  TEST("hint-2.2", "scopa.h Hints: a mark only beyond the uncertainty");
  int marked = 0;
  for (int k = 0; k < 20; k++) {
    scopa_state s;
    random_round(&s, "scopa", 300 + (uint64_t)k, k);
    scopa_view v;
    scopa_view_of(&s, s.to_play, NULL, &v);
    scopa_hint h[64];
    scopa_bot_limits l = {.seed = (uint64_t)k, .nodes = BUDGET};
    int n = scopa_bot_hint(bot, &v, &l, h, 64, NULL);
    for (int i = 0; i < n; i++) {
      double sure = h[i].loss - h[i].loss_margin;
      int want = sure >= SCOPA_HINT_BLUNDER ? SCOPA_MARK_BLUNDER
                 : sure >= SCOPA_HINT_SLIP  ? SCOPA_MARK_SLIP
                                            : SCOPA_MARK_NONE;
      CHECK_EQ_INT(h[i].mark, want);
      marked += want != SCOPA_MARK_NONE;
    }
  }
  CHECK(marked > 0); /* random play leaves some moves to mark */
  TEST("hint-2.3", "scopa.h Hints: the seat to play only");
  scopa_state s;
  random_round(&s, "scopa", 5, 4);
  scopa_view v;
  scopa_view_of(&s, (s.to_play + 1) % 2, NULL, &v);
  scopa_hint h[64];
  CHECK_EQ_INT(scopa_bot_hint(bot, &v, NULL, h, 64, NULL), SCOPA_EINVAL);
  TEST("hint-2.4", "scopa.h Hints: marks in words");
  CHECK(!strcmp(scopa_hint_mark_text(SCOPA_MARK_NONE), ""));
  CHECK(!strcmp(scopa_hint_mark_text(SCOPA_MARK_SLIP), "?"));
  CHECK(!strcmp(scopa_hint_mark_text(SCOPA_MARK_BLUNDER), "??"));
}

/* hint-3.*: the last deal of 2-player scopa lists every world: exact. */
static void test_exact(scopa_bot *bot) {
  TEST("hint-3.1", "scopa.h Hints: the last deal is exact");
  for (int k = 0; k < 6; k++) {
    scopa_state s;
    random_round(&s, "scopa", 500 + (uint64_t)k, 30 + k % 4);
    if (scopa_state_over(&s))
      continue;
    scopa_view v;
    scopa_view_of(&s, s.to_play, NULL, &v);
    scopa_hint h[64];
    scopa_hint_info info;
    int n = scopa_bot_hint(bot, &v, NULL, h, 64, &info);
    CHECK(n > 0 && info.exact && info.worlds == 1);
    for (int i = 0; i < n; i++)
      CHECK(h[i].margin == 0 && h[i].loss_margin == 0 &&
            fabs(h[i].loss - (h[0].value - h[i].value)) < 1e-9);
  }
  TEST("hint-3.2", "scopa.h Hints: enough worlds at a deal's first play");
  scopa_state s;
  random_round(&s, "scopa", 11, 0);
  scopa_view v;
  scopa_view_of(&s, s.to_play, NULL, &v);
  scopa_hint h[64];
  scopa_hint_info info;
  scopa_bot_limits l = {.nodes =
                            (uint64_t)SCOPA_HINT_MS * SCOPA_BOT_NODES_PER_MS};
  CHECK(scopa_bot_hint(bot, &v, &l, h, 64, &info) > 0);
  CHECK(info.worlds >= 1000 && !info.exact);
}

/* hint-4.*: the seeds of a review: from a game's seed, the round and the
 * ply; from the position itself without one. */
static void test_seeds(void) {
  scopa_state s, t;
  random_round(&s, "scopa", 21, 5);
  random_round(&t, "scopa", 21, 6);
  scopa_view v, w, u;
  scopa_view_of(&s, s.to_play, NULL, &v);
  scopa_view_of(&t, t.to_play, NULL, &w);
  TEST("hint-4.1", "scopa.h scopa_hint_seed: seed, round and ply");
  uint64_t a = scopa_hint_seed("abc", 0, &v);
  CHECK(a == scopa_hint_seed("abc", 0, &v));
  CHECK(a != scopa_hint_seed("abd", 0, &v));
  CHECK(a != scopa_hint_seed("abc", 1, &v));
  CHECK(a != scopa_hint_seed("abc", 0, &w));
  TEST("hint-4.2", "scopa.h scopa_hint_seed: the position without a seed");
  /* The same position told as an engine request: the same seed. */
  char *text = scopa_state_view_json(&s, s.to_play, NULL);
  CHECK(text &&
        scopa_view_from_json(&u, text, strlen(text), NULL, 0) == SCOPA_OK);
  scopa_free(text);
  CHECK(scopa_hint_seed(NULL, 0, &v) == scopa_hint_seed("", 3, &u));
  CHECK(scopa_hint_seed(NULL, 0, &v) != scopa_hint_seed(NULL, 0, &w));
  u.scores[1] = 4; /* another game score: another position */
  CHECK(scopa_hint_seed(NULL, 0, &v) != scopa_hint_seed(NULL, 0, &u));
  TEST("hint-4.3", "scopa.h scopa_match_hint_seed: the game's own");
  scopa_rules r;
  scopa_rules_preset(&r, "scopa");
  scopa_match *m = NULL;
  CHECK(scopa_match_new(&r, NULL, "5eed", &m, NULL, 0) == SCOPA_OK);
  CHECK(scopa_match_deal(m, NULL) == SCOPA_OK);
  scopa_match_view(m, scopa_match_to_play(m), &v);
  CHECK(scopa_match_hint_seed(m) == scopa_hint_seed("5eed", 0, &v));
  scopa_match_free(m);
}

/* hint-5.*: no estimate where there is no search: NAN, rules bot first. */
static void test_no_estimate(void) {
  TEST("hint-5.1", "scopa.h Hints: a bot without memory gives no values");
  scopa_bot *greedy = NULL;
  CHECK(scopa_bot_new("greedy", &greedy) == SCOPA_OK);
  scopa_state s;
  random_round(&s, "scopa", 31, 2);
  scopa_view v;
  scopa_view_of(&s, s.to_play, NULL, &v);
  scopa_hint h[64];
  int n = scopa_bot_hint(greedy, &v, NULL, h, 64, NULL);
  CHECK(n > 0);
  for (int i = 0; i < n; i++)
    CHECK(isnan(h[i].value) && isnan(h[i].loss) &&
          h[i].mark == SCOPA_MARK_NONE);
  scopa_bot_free(greedy);
}

int main(void) {
  scopa_bot *bot = NULL;
  if (scopa_bot_new("best", &bot) != SCOPA_OK)
    return 1;
  test_threads(bot);
  test_shape(bot);
  test_exact(bot);
  test_seeds();
  test_no_estimate();
  scopa_bot_free(bot);
  return test_summary("hint");
}
