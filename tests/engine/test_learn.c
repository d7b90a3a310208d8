/*
 * test_learn.c -- the research entry points of scopa.h that were tested
 * only through Python: scopa_state_deck ("A seat's view, and
 * resampling"), scopa_state_infostate and _text ("Learning agents"),
 * scopa_bot_solve ("The exact solver"), the compact features, and the
 * score's JSON as the environments write it once per episode.
 *
 * Random rounds under several rules, with random legal moves: each
 * property is checked against the round itself (the deal replayed, the
 * plays recorded here, the values of the children), never against
 * numbers written in this file.
 */
#include "../../src/json/json_shapes.h"
#include "../test.h"
#include "scopa.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A round being played, with what each seat received after each play
 * (the information state's recall, recorded here independently). */
typedef struct played {
  scopa_state st;
  scopa_cards first_hand[SCOPA_MAX_SEATS];
  scopa_cards got[40][SCOPA_MAX_SEATS];
} played;

static const char *const RULES[][2] = {
    {"players", "2"},           {"players", "3"},
    {"game", "scopone"},        {"capture", "1"},
    {"mandatory_capture", "0"}, {"refill", "1"},
    {"players", "4"},           {"napola", "1"},
};
#define N_RULES (int)(sizeof RULES / sizeof RULES[0])

static void make_rules(int k, scopa_rules *r) {
  char msg[200];
  scopa_rules_init(r);
  if (strcmp(RULES[k][0], "game") == 0)
    scopa_rules_set_text(r, "game", RULES[k][1], NULL, msg, sizeof msg);
  else
    scopa_rules_set(r, RULES[k][0], atoi(RULES[k][1]), NULL, msg, sizeof msg);
  CHECK_EQ_INT(scopa_rules_check(r, NULL, msg, sizeof msg), SCOPA_OK);
}

static void deal(played *p, const scopa_rules *r, scopa_rng *rng) {
  memset(p, 0, sizeof *p);
  scopa_state_deal_random(&p->st, r, (int)scopa_rng_below(rng, 2) % r->players,
                          rng);
  for (int s = 0; s < p->st.players; s++)
    p->first_hand[s] = p->st.hand[s];
}

static void play_random(played *p, scopa_rng *rng) {
  scopa_move moves[SCOPA_MAX_MOVES];
  scopa_cards before[SCOPA_MAX_SEATS];
  int n = scopa_state_legal(&p->st, moves, SCOPA_MAX_MOVES);
  int t = p->st.plays;
  memcpy(before, p->st.dealt, sizeof before);
  scopa_state_play(&p->st, moves[scopa_rng_below(rng, (uint32_t)n)]);
  for (int s = 0; s < p->st.players; s++)
    p->got[t][s] = p->st.dealt[s] & ~before[s];
}

/* The deal of `deck` with the state's rules and dealer, its moves
 * replayed: the state scopa_state_deck promises. */
static int replay(const scopa_state *st, const uint8_t deck[40],
                  scopa_state *out) {
  char msg[200];
  if (scopa_state_deal(out, &st->rules, st->dealer, deck, msg, sizeof msg) !=
      SCOPA_OK)
    return 0;
  for (int t = 0; t < st->plays; t++)
    scopa_state_play(out, st->moves[t]);
  return 1;
}

static int same_round(const scopa_state *a, const scopa_state *b) {
  return memcmp(a->hand, b->hand, sizeof a->hand) == 0 &&
         a->table == b->table &&
         memcmp(a->pile, b->pile, sizeof a->pile) == 0 &&
         memcmp(a->scope, b->scope, sizeof a->scope) == 0 &&
         a->next == b->next && a->to_play == b->to_play &&
         memcmp(a->deck + a->next, b->deck + b->next, 40u - a->next) == 0;
}

/* ---- scopa_state_deck -------------------------------------------------- */

static void test_deck(scopa_rng *rng) {
  TEST("learn-deck-1", "scopa.h scopa_state_deck: the deal replayed");
  int checked = 0, worlds = 0;
  for (int round = 0; round < 120; round++) {
    scopa_rules r;
    make_rules(round % N_RULES, &r);
    played p;
    deal(&p, &r, rng);
    int stop = (int)scopa_rng_below(rng, 41);
    while (!scopa_state_over(&p.st) && p.st.plays < stop)
      play_random(&p, rng);
    uint8_t deck[40];
    scopa_state again;
    CHECK_EQ_INT(scopa_state_deck(&p.st, deck), SCOPA_OK);
    CHECK(replay(&p.st, deck, &again) && same_round(&p.st, &again));
    checked++;
    if (scopa_state_over(&p.st))
      continue;
    /* A world a seat could be in: its deck deals that world. */
    scopa_view v;
    scopa_state w;
    scopa_view_of(&p.st, (int)scopa_rng_below(rng, p.st.players), NULL, &v);
    scopa_view_sample(&v, rng, &w);
    CHECK_EQ_INT(scopa_state_deck(&w, deck), SCOPA_OK);
    CHECK(replay(&w, deck, &again) && same_round(&w, &again));
    worlds++;
  }
  CHECK(checked == 120 && worlds > 60);

  TEST("learn-deck-2", "scopa.h scopa_state_deck: no deal leads there");
  scopa_rules r;
  make_rules(0, &r);
  played p;
  deal(&p, &r, rng);
  uint8_t deck[40];
  scopa_state bad = p.st;
  bad.hand[0] |= bad.table; /* the table's cards twice */
  CHECK_EQ_INT(scopa_state_deck(&bad, deck), SCOPA_EINVAL);
  bad = p.st;
  bad.hand[1] = 0; /* a hand's cards nowhere */
  CHECK_EQ_INT(scopa_state_deck(&bad, deck), SCOPA_EINVAL);
}

/* ---- scopa_state_infostate --------------------------------------------- */

static int cards_equal(const int8_t *out, scopa_cards set) {
  for (int c = 0; c < 40; c++)
    if (out[c] != (int)((set >> c) & 1))
      return 0;
  return 1;
}

static int one_hot(const int8_t *out, int n, int at) {
  for (int k = 0; k < n; k++)
    if (out[k] != (k == at))
      return 0;
  return 1;
}

/* The tensor against the round as recorded here (scopa.h's layout). */
static void check_layout(const played *p, int seat, const int *scores,
                         const int8_t *x) {
  const scopa_state *st = &p->st;
  int P = st->players, first = (st->dealer + 1) % P;
  CHECK(cards_equal(x, st->initial_table));
  CHECK(cards_equal(x + 40, p->first_hand[seat]));
  CHECK(one_hot(x + 80, 6, (seat - first + P) % P));
  int own = scopa_rules_side_of(&st->rules, seat);
  for (int k = 0; k < st->sides; k++)
    CHECK_EQ_INT(x[86 + k], scores[(own + k) % st->sides]);
  for (int t = 0; t < 40; t++) {
    const int8_t *row =
        x + SCOPA_INFOSTATE_HEADER + (size_t)t * SCOPA_INFOSTATE_PLAY;
    if (t >= st->plays) {
      for (int k = 0; k < SCOPA_INFOSTATE_PLAY; k++)
        CHECK_EQ_INT(row[k], 0);
      continue;
    }
    int who = (first + t) % P;
    CHECK(one_hot(row, 6, (who - seat + P) % P));
    CHECK(one_hot(row + 6, 40, SCOPA_MOVE_CARD(st->moves[t])));
    CHECK(cards_equal(row + 46, SCOPA_MOVE_TAKES(st->moves[t])));
    CHECK(cards_equal(row + 86, p->got[t][seat]));
  }
}

static void test_infostate(scopa_rng *rng) {
  TEST("learn-info-1", "scopa.h scopa_state_infostate: the layout");
  static int8_t x[SCOPA_INFOSTATE], y[SCOPA_INFOSTATE];
  char a[4096], b[4096];
  int checked = 0, refills = 0;
  for (int round = 0; round < 40; round++) {
    scopa_rules r;
    make_rules(round % N_RULES, &r);
    played p;
    deal(&p, &r, rng);
    int scores[SCOPA_MAX_SEATS] = {0};
    for (int k = 0; k < p.st.sides; k++)
      scores[k] = (int)scopa_rng_below(rng, 20);
    for (;;) {
      for (int seat = 0; seat < p.st.players; seat++) {
        CHECK_EQ_INT(scopa_state_infostate(&p.st, seat, scores, x),
                     SCOPA_INFOSTATE);
        check_layout(&p, seat, scores, x);
        checked++;
        /* Text and tensor: equal iff equal, here against the next seat. */
        int other = (seat + 1) % p.st.players;
        CHECK(scopa_state_infostate(&p.st, other, scores, y) ==
              SCOPA_INFOSTATE);
        size_t la =
            scopa_state_infostate_text(&p.st, seat, scores, a, sizeof a);
        size_t lb =
            scopa_state_infostate_text(&p.st, other, scores, b, sizeof b);
        CHECK(la > 0 && lb > 0 && la < sizeof a);
        CHECK((strcmp(a, b) == 0) == (memcmp(x, y, sizeof x) == 0));
      }
      if (scopa_state_over(&p.st))
        break;
      play_random(&p, rng);
      for (int s = 0; s < p.st.players; s++)
        refills += p.got[p.st.plays - 1][s] != 0;
    }
  }
  CHECK(checked > 1000 && refills > 40);

  TEST("learn-info-2", "scopa.h scopa_state_infostate: errors");
  scopa_rules r;
  make_rules(0, &r);
  played p;
  deal(&p, &r, rng);
  CHECK_EQ_INT(scopa_state_infostate(&p.st, 2, NULL, x), SCOPA_EINVAL);
  CHECK_EQ_INT(scopa_state_infostate(&p.st, -1, NULL, x), SCOPA_EINVAL);
  CHECK_EQ_INT(scopa_state_infostate_text(&p.st, 2, NULL, a, sizeof a), 0);
  scopa_state bad = p.st;
  bad.hand[0] |= bad.table;
  CHECK_EQ_INT(scopa_state_infostate(&bad, 0, NULL, x), SCOPA_EINVAL);
  CHECK_EQ_INT(scopa_state_infostate(&p.st, 0, NULL, x), SCOPA_INFOSTATE);
  CHECK_EQ_INT(x[86], 0); /* NULL scores: zeros */

  TEST("learn-info-3", "scopa.h: the environment's and the state's agree, "
                       "and its observations are its views' features");
  scopa_env_config cfg = {.learner = -1};
  scopa_env *env;
  CHECK_EQ_INT(scopa_env_new(&r, &cfg, &env), SCOPA_OK);
  int steps = 0;
  for (int e = 0; e < 5; e++) {
    int scores[2] = {(int)scopa_rng_below(rng, 15),
                     (int)scopa_rng_below(rng, 15)};
    scopa_env_reset(env, (uint64_t)e, -1, scores);
    while (scopa_env_to_play(env) >= 0) {
      for (int seat = 0; seat < r.players; seat++) {
        scopa_env_infostate(env, seat, x);
        scopa_state_infostate(scopa_env_state(env), seat, scores, y);
        CHECK(memcmp(x, y, sizeof x) == 0);
        scopa_env_infostate_text(env, seat, a, sizeof a);
        scopa_state_infostate_text(scopa_env_state(env), seat, scores, b,
                                   sizeof b);
        CHECK_EQ_STR(a, b);
        /* the observation: the features of scopa_view_of's view */
        float f[SCOPA_FEATURES], g[SCOPA_FEATURES];
        int8_t c[SCOPA_FEATURES], d[SCOPA_FEATURES];
        scopa_view v;
        scopa_view_of(scopa_env_state(env), seat, scopa_env_scores(env), &v);
        scopa_view_features(&v, f, SCOPA_FEATURES);
        scopa_view_features_compact(&v, c, SCOPA_FEATURES);
        scopa_env_observe(env, seat, g, NULL);
        scopa_env_observe_compact(env, seat, d, NULL);
        CHECK(memcmp(f, g, sizeof f) == 0 && memcmp(c, d, sizeof c) == 0);
      }
      int actions[SCOPA_ACTIONS];
      int n = scopa_env_legal_moves(env, actions, NULL, SCOPA_ACTIONS);
      scopa_env_step(env, actions[scopa_rng_below(rng, (uint32_t)n)], NULL);
      steps++;
    }
  }
  CHECK(steps > 100);
  scopa_env_free(env);
}

/* ---- scopa_bot_solve ---------------------------------------------------- */

static int scope_diff(const scopa_state *st, int side) {
  int mine = st->scope[side], rest = 0;
  for (int k = 0; k < st->sides; k++)
    rest += k == side ? 0 : st->scope[k];
  return mine - rest;
}

/* The round's final point difference for `side` (two sides) under
 * perfect play from st, by the solver's best value. */
static double final_diff(scopa_bot *bot, const scopa_state *st, int side) {
  if (scopa_state_over(st)) {
    scopa_score sc;
    scopa_state_score(st, &sc);
    return sc.side[side].total - sc.side[1 - side].total;
  }
  scopa_move m[SCOPA_MAX_MOVES];
  double v[SCOPA_MAX_MOVES];
  int n = scopa_bot_solve(bot, st, NULL, m, v, SCOPA_MAX_MOVES, NULL);
  CHECK(n > 0);
  int mover = scopa_rules_side_of(&st->rules, st->to_play);
  double best = mover == side ? v[0] : -v[0];
  return scope_diff(st, side) + best;
}

static void test_solve(scopa_rng *rng) {
  TEST("learn-solve-1", "scopa.h scopa_bot_solve: each value is its child's");
  scopa_bot *bot;
  CHECK_EQ_INT(scopa_bot_new("rules", &bot), SCOPA_OK);
  int checked = 0, differ = 0;
  static const int which[] = {0, 3, 7, 2}; /* 2 sides each */
  for (int round = 0; round < 24; round++) {
    scopa_rules r;
    int k = which[round % 4];
    make_rules(k, &r);
    played p;
    deal(&p, &r, rng);
    int from = r.players == 4 ? 30 : 24 + (int)scopa_rng_below(rng, 8);
    while (!scopa_state_over(&p.st) && p.st.plays < from)
      play_random(&p, rng);
    if (scopa_state_over(&p.st))
      continue;
    scopa_move legal[SCOPA_MAX_MOVES], m[SCOPA_MAX_MOVES];
    double v[SCOPA_MAX_MOVES];
    uint64_t nodes = 0;
    int nl = scopa_state_legal(&p.st, legal, SCOPA_MAX_MOVES);
    int n = scopa_bot_solve(bot, &p.st, NULL, m, v, SCOPA_MAX_MOVES, &nodes);
    CHECK_EQ_INT(n, nl);
    CHECK(nodes > 0);
    int side = scopa_rules_side_of(&r, p.st.to_play);
    for (int i = 0; i < n; i++) {
      int found = 0;
      for (int j = 0; j < nl; j++)
        found += legal[j] == m[i];
      CHECK_EQ_INT(found, 1); /* a permutation of the legal moves */
      CHECK(i == 0 || v[i] <= v[i - 1]);
      scopa_state child = p.st;
      scopa_state_play(&child, m[i]);
      double want = final_diff(bot, &child, side) - scope_diff(&p.st, side);
      CHECK(fabs(v[i] - want) < 1e-9);
      checked++;
      differ += v[i] != v[0];
    }
    /* cap below the count: the best ones, the count still returned */
    scopa_move top;
    double tv;
    CHECK_EQ_INT(scopa_bot_solve(bot, &p.st, NULL, &top, &tv, 1, NULL), n);
    CHECK(top == m[0] && tv == v[0]);
  }
  CHECK(checked > 40 && differ > 5);

  TEST("learn-solve-2", "scopa.h scopa_bot_solve: errors and the end");
  scopa_rules r;
  make_rules(0, &r);
  played p;
  deal(&p, &r, rng);
  scopa_move m[SCOPA_MAX_MOVES];
  scopa_bot *greedy;
  CHECK_EQ_INT(scopa_bot_new("greedy", &greedy), SCOPA_OK);
  CHECK_EQ_INT(scopa_bot_solve(greedy, &p.st, NULL, m, NULL, 8, NULL),
               SCOPA_EINVAL);
  while (!scopa_state_over(&p.st))
    play_random(&p, rng);
  CHECK_EQ_INT(scopa_bot_solve(bot, &p.st, NULL, m, NULL, 8, NULL), 0);
  scopa_bot_free(greedy);
  scopa_bot_free(bot);
}

/* ---- the compact features ------------------------------------------------ */

static void test_compact(scopa_rng *rng) {
  TEST("learn-compact-1", "scopa.h scopa_view_features_compact");
  float f[SCOPA_FEATURES], div[SCOPA_FEATURES];
  int8_t c[SCOPA_FEATURES];
  int views = 0, counts = 0;
  for (int round = 0; round < 40; round++) {
    scopa_rules r;
    make_rules(round % N_RULES, &r);
    r.target = round % 3 == 0 ? 500 : 1 + (int)scopa_rng_below(rng, 127);
    scopa_features_divisors(&r, div);
    played p;
    deal(&p, &r, rng);
    int scores[SCOPA_MAX_SEATS] = {0};
    for (int k = 0; k < p.st.sides; k++)
      scores[k] = (int)scopa_rng_below(rng, (uint32_t)r.target + 10);
    while (!scopa_state_over(&p.st)) {
      scopa_view v;
      scopa_view_of(&p.st, (int)scopa_rng_below(rng, p.st.players), scores, &v);
      CHECK_EQ_INT(scopa_view_features(&v, f, SCOPA_FEATURES), SCOPA_FEATURES);
      CHECK_EQ_INT(scopa_view_features_compact(&v, c, SCOPA_FEATURES),
                   SCOPA_FEATURES);
      for (int i = 0; i < SCOPA_FEATURES; i++) {
        int score = (i >= 450 && i <= 453) || i == 644 || i == 645;
        float got = (float)c[i] / div[i];
        if (r.target > SCOPA_COMPACT_MAX && score)
          CHECK(fabsf(got - f[i]) <= 1.0f / SCOPA_COMPACT_MAX);
        else
          CHECK(got == f[i]);
        CHECK(c[i] >= 0 && c[i] <= div[i]);
        counts += c[i] > 1;
      }
      views++;
      play_random(&p, rng);
    }
  }
  CHECK(views > 500 && counts > 1000);
  CHECK_EQ_INT(scopa_view_features_compact(NULL, c, SCOPA_FEATURES - 1),
               SCOPA_ENOSPACE);
}

/* ---- the score's JSON ------------------------------------------------------
 */

static void test_score_json(scopa_rng *rng) {
  TEST("learn-score-1", "CONTRACTS.md: scopa_score_json is the sides' shape");
  static const char *const extra[] = {"re_bello", "napola", "most_sevens",
                                      "all_sevens", "cappotto"};
  int rounds = 0, bonus = 0;
  for (int round = 0; round < 300; round++) {
    scopa_rules r;
    char msg[200];
    make_rules(round % N_RULES, &r);
    for (int k = 0; k < 5; k++)
      if (scopa_rng_below(rng, 2))
        scopa_rules_set(&r, extra[k], 1 + (int)scopa_rng_below(rng, 3), NULL,
                        msg, sizeof msg);
    if (scopa_rules_check(&r, NULL, msg, sizeof msg) != SCOPA_OK)
      make_rules(round % N_RULES, &r);
    played p;
    deal(&p, &r, rng);
    while (!scopa_state_over(&p.st))
      play_random(&p, rng);
    scopa_score sc;
    CHECK_EQ_INT(scopa_state_score(&p.st, &sc), SCOPA_OK);
    json_t *arr = json_array();
    for (int i = 0; i < sc.sides; i++) {
      json_array_append_new(arr, scopa__side_object(&sc.side[i]));
      for (int c = 0; c < SCOPA_CAT_COUNT; c++)
        bonus += c >= SCOPA_CAT_RE_BELLO && sc.side[i].points[c] != 0;
    }
    char *want = scopa__dump(arr), *got = scopa_score_json(&sc);
    CHECK(want && got);
    if (want && got)
      CHECK_EQ_STR(got, want);
    free(want);
    scopa_free(got);
    rounds++;
  }
  CHECK(rounds == 300 && bonus > 20);
}

int main(void) {
  scopa_rng rng;
  scopa_rng_seed(&rng, 37);
  test_deck(&rng);
  test_infostate(&rng);
  test_solve(&rng);
  test_compact(&rng);
  test_score_json(&rng);
  return test_summary("test_learn");
}
