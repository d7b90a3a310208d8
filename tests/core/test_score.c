/*
 * test_score.c -- RULES.md "Scoring a round" and "End of the game": each
 * category, each primiera scale, the bonuses, and every end rule.
 */
#include "../test.h"
#include "helpers.h"

static scopa_score S;

/* Scores two (or more) sides given as card lists; scope all zero unless
 * given. */
static void score2(const scopa_rules *r, const char *a, const char *b,
                   int scope_a, int scope_b) {
  scopa_cards pile[2] = {cards_of(a), cards_of(b)};
  uint8_t scope[2] = {(uint8_t)scope_a, (uint8_t)scope_b};
  scopa_score_piles(r, 2, pile, scope, &S);
}

/* The rest of the deck, for the other side. */
static const char *rest_of(const char *a) {
  static char buf[200];
  scopa_cards_str(SCOPA_ALL_CARDS & ~cards_of(a), buf, sizeof buf);
  return buf;
}

static void category_tests(void) {
  scopa_rules r = rules_of("");
  TEST("carte-1.1", "RULES.md Scoring: carte to strictly the most cards");
  score2(&r, "1d 2d 3d", "4d 5d", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_CARTE], 1);
  CHECK_EQ_INT(S.side[1].points[SCOPA_CAT_CARTE], 0);
  TEST("carte-1.2", "RULES.md Scoring: 20-20 gives no carte point");
  const char *half = "1d 2d 3d 4d 5d 6d 7d 8d 9d 10d 1c 2c 3c 4c 5c 6c 7c "
                     "8c 9c 10c";
  score2(&r, half, rest_of(half), 0, 0);
  CHECK_EQ_INT(
      S.side[0].points[SCOPA_CAT_CARTE] + S.side[1].points[SCOPA_CAT_CARTE], 0);
  CHECK_EQ_INT(S.side[0].denari, 10);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_DENARI], 1);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_SETTEBELLO], 1);
  TEST("denari-1.1", "RULES.md Scoring: 5-5 coins gives no denari point");
  score2(&r, "1d 2d 3d 4d 5d", "6d 7d 8d 9d 10d", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_DENARI] +
                   S.side[1].points[SCOPA_CAT_DENARI],
               0);
  CHECK_EQ_INT(S.side[1].points[SCOPA_CAT_SETTEBELLO], 1);
  TEST("scope-1.1", "RULES.md Scoring: 1 per scopa");
  score2(&r, "1c", "2c", 3, 1);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_SCOPE], 3);
  CHECK_EQ_INT(S.side[1].points[SCOPA_CAT_SCOPE], 1);
  TEST("total-1.1", "RULES.md Scoring: the round total is the sum of the "
                    "categories");
  for (int i = 0; i < 2; i++) {
    int sum = 0;
    for (int c = 0; c < SCOPA_CAT_COUNT; c++)
      sum += S.side[i].points[c];
    CHECK_EQ_INT(S.side[i].total, sum);
  }
}

static void primiera_tests(void) {
  scopa_rules r = rules_of("");
  TEST("primiera-1.1", "RULES.md primiera: 7c 7d 6b 1s make 76 (seed 000)");
  score2(&r, "7c 7d 6b 1s", "", 0, 0);
  CHECK_EQ_INT(S.side[0].primiera, 76);
  TEST("primiera-1.2", "RULES.md primiera: the best card of each suit");
  score2(&r, "7d 6d 1d 10c 2s 3b 8b", "", 0, 0);
  CHECK_EQ_INT(S.side[0].primiera, 21 + 10 + 12 + 13);
  TEST("primiera-1.3", "RULES.md primiera: complete beats incomplete even "
                       "with a lower sum (seed 001, 002)");
  score2(&r, "10d 10c 10s 10b", "7d 7c 7s", 0, 0);
  CHECK_EQ_INT(S.side[0].primiera, 40);
  CHECK_EQ_INT(S.side[1].primiera, 63);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_PRIMIERA], 1);
  TEST("primiera-1.4", "RULES.md primiera: both incomplete compare sums, "
                       "whatever suits they lack");
  score2(&r, "7d 7c", "6d 6c 6s", 0, 0);
  CHECK_EQ_INT(S.side[1].points[SCOPA_CAT_PRIMIERA], 1);
  TEST("primiera-1.5", "RULES.md primiera: a tie gives no point");
  score2(&r, "7d 7c 6s 6b", "6d 6c 7s 7b", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_PRIMIERA] +
                   S.side[1].points[SCOPA_CAT_PRIMIERA],
               0);
  TEST("primiera-2.1", "RULES.md primiera faces_zero: faces worth 0, a suit "
                       "held through faces still counts");
  r = rules_of("primiera=faces_zero");
  score2(&r, "8d 9c 10s 8b", "7d 7c 7s", 0, 0);
  CHECK_EQ_INT(S.side[0].primiera, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_PRIMIERA], 1);
  score2(&r, "8d 9c 10s 8b 2d", "", 0, 0);
  CHECK_EQ_INT(S.side[0].primiera, 12);
  TEST("primiera-3.1", "RULES.md primiera sevens: most sevens wins");
  r = rules_of("primiera=sevens");
  score2(&r, "7d 7c 7s", "7b 6d 6c 6s 6b", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_PRIMIERA], 1);
  TEST("primiera-3.2", "RULES.md primiera sevens: ties go on to sixes, "
                       "aces, fives...");
  score2(&r, "7d 7c 6d 1d 1c", "7s 7b 6s 1s 5d 5c 5s", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_PRIMIERA], 1);
  score2(&r, "7d 6d 1d 5d 4d 3d 2d 8d", "7c 6c 1c 5c 4c 3c 2c 9c 10c", 0, 0);
  CHECK_EQ_INT(S.side[1].points[SCOPA_CAT_PRIMIERA], 1);
  TEST("primiera-3.3", "RULES.md primiera sevens: a tie to the end gives no "
                       "point");
  score2(&r, "7d 8d", "7c 9c", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_PRIMIERA] +
                   S.side[1].points[SCOPA_CAT_PRIMIERA],
               0);
  TEST("primiera-3.4", "RULES.md primiera sevens, three sides: only the "
                       "sides still tied go on");
  {
    scopa_rules r3 = rules_of("players=3 primiera=sevens");
    scopa_cards pile[3] = {cards_of("7d 6d"), cards_of("7c 6c 1c"),
                           cards_of("7s 6s 6b 1s 1b")};
    uint8_t scope[3] = {0, 0, 0};
    scopa_score_piles(&r3, 3, pile, scope, &S);
    CHECK_EQ_INT(S.side[2].points[SCOPA_CAT_PRIMIERA], 1);
  }
  TEST("primiera-4.1", "RULES.md primiera off: no point");
  r = rules_of("primiera=off");
  score2(&r, "7d 7c 7s 7b", "", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_PRIMIERA], 0);
  CHECK_EQ_INT(S.side[0].primiera, 84);
}

static void bonus_tests(void) {
  scopa_rules r = rules_of("re_bello=true");
  TEST("rebello-1.1", "RULES.md re_bello: 1 to the side holding 10d");
  score2(&r, "10d", "1c", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_RE_BELLO], 1);
  r = rules_of("");
  score2(&r, "10d", "1c", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_RE_BELLO], 0);
  r = rules_of("napola=true");
  TEST("napola-1.1", "RULES.md napola: 1d 2d 3d score 3");
  score2(&r, "1d 2d 3d 5d", "4d", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_NAPOLA], 3);
  TEST("napola-1.2", "RULES.md napola: plus 1 for each next coin in "
                     "unbroken sequence");
  score2(&r, "1d 2d 3d 4d 5d 7d", "6d", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_NAPOLA], 5);
  score2(&r, "1d 2d 3d 4d 5d 6d 7d 8d 9d 10d", "", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_NAPOLA], 10);
  TEST("napola-1.3", "RULES.md napola: without all of 1d 2d 3d, nothing");
  score2(&r, "1d 2d 4d 5d 6d", "3d", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_NAPOLA], 0);
  CHECK_EQ_INT(S.side[1].points[SCOPA_CAT_NAPOLA], 0);
  r = rules_of("");
  score2(&r, "1d 2d 3d", "", 0, 0);
  CHECK_EQ_INT(S.side[0].points[SCOPA_CAT_NAPOLA], 0);
  TEST("teams-1.1", "RULES.md teams: seats 0 and 2 pool their captures");
  {
    scopa_rules t = rules_of("players=4 teams=true");
    CHECK_EQ_INT(scopa_rules_sides(&t), 2);
    CHECK_EQ_INT(scopa_rules_side_of(&t, 2), 0);
    CHECK_EQ_INT(scopa_rules_side_of(&t, 3), 1);
    scopa_rules f = rules_of("players=4");
    CHECK_EQ_INT(scopa_rules_sides(&f), 4);
  }
}

/* Plays rounds with given per-category points through scopa_tally_add. */
static scopa_score round_points(int sides, const int (*pts)[SCOPA_CAT_COUNT]) {
  scopa_score s;
  memset(&s, 0, sizeof s);
  s.sides = sides;
  for (int i = 0; i < sides; i++)
    for (int c = 0; c < SCOPA_CAT_COUNT; c++) {
      s.side[i].points[c] = pts[i][c];
      s.side[i].total += pts[i][c];
    }
  return s;
}

static void game_tests(void) {
  scopa_tally g;
  scopa_score s;
  /* carte, denari, settebello, primiera, scope, re_bello, napola */
  const int a10[2][SCOPA_CAT_COUNT] = {{1, 1, 1, 1, 6, 0, 0}, {0}};
  const int tie[2][SCOPA_CAT_COUNT] = {{0, 0, 0, 0, 1, 0, 0},
                                       {0, 0, 0, 0, 1, 0, 0}};
  const int two_one[2][SCOPA_CAT_COUNT] = {{1, 1, 0, 0, 0, 0, 0},
                                           {0, 0, 1, 0, 0, 0, 0}};
  scopa_rules r = rules_of("");
  TEST("game-1.1", "RULES.md End of the game: a side at the target wins");
  scopa_tally_init(&g, &r, 0);
  s = round_points(2, a10);
  scopa_tally_add(&g, &s);
  CHECK(!g.finished);
  CHECK_EQ_INT(g.totals[0], 10);
  CHECK_EQ_INT(g.dealer, 1);
  s = round_points(2, two_one);
  scopa_tally_add(&g, &s);
  CHECK(g.finished);
  CHECK_EQ_INT(g.winner, 0);
  CHECK(scopa_tally_add(&g, &s) == SCOPA_EOVER);
  TEST("game-1.2", "RULES.md End of the game: tied for the highest, "
                   "another round (extra_round)");
  scopa_tally_init(&g, &r, 0);
  g.totals[0] = 10, g.totals[1] = 10;
  s = round_points(2, tie);
  scopa_tally_add(&g, &s);
  CHECK(!g.finished);
  s = round_points(2, two_one);
  scopa_tally_add(&g, &s);
  CHECK(g.finished && g.winner == 0);
  TEST("game-1.3", "RULES.md End of the game: both over, the highest wins");
  scopa_tally_init(&g, &r, 0);
  g.totals[0] = 9, g.totals[1] = 10;
  s = round_points(2, a10);
  scopa_tally_add(&g, &s);
  CHECK(g.finished && g.winner == 0);
  TEST("game-2.1", "RULES.md win_by_two: a one-point lead plays on");
  r = rules_of("win_by_two=true");
  scopa_tally_init(&g, &r, 0);
  g.totals[0] = 10, g.totals[1] = 10;
  s = round_points(2, two_one);
  scopa_tally_add(&g, &s);
  CHECK(!g.finished);
  CHECK_EQ_INT(g.totals[0], 12);
  s = round_points(2, two_one);
  scopa_tally_add(&g, &s);
  CHECK(g.finished && g.winner == 0);
  TEST("game-3.1", "RULES.md cappotto: ends the game below the target");
  r = rules_of("cappotto=7");
  scopa_tally_init(&g, &r, 0);
  const int seven[2][SCOPA_CAT_COUNT] = {{1, 1, 1, 1, 3, 0, 0}, {0}};
  s = round_points(2, seven);
  scopa_tally_add(&g, &s);
  CHECK(g.finished && g.winner == 0);
  TEST("game-3.2", "RULES.md cappotto: not if the other side has a point");
  scopa_tally_init(&g, &r, 0);
  g.totals[1] = 1;
  scopa_tally_add(&g, &s);
  CHECK(!g.finished);
  TEST("game-3.3", "RULES.md cappotto: checked first, even under "
                   "win_by_two");
  r = rules_of("cappotto=7 win_by_two=true target=21");
  scopa_tally_init(&g, &r, 0);
  scopa_tally_add(&g, &s);
  CHECK(g.finished && g.winner == 0);
  TEST("game-4.1", "RULES.md count_order: carte beats a later scopa (seed "
                   "001)");
  r = rules_of("tiebreak=count_order");
  scopa_tally_init(&g, &r, 0);
  g.totals[0] = 10, g.totals[1] = 10;
  const int carte_vs_scope[2][SCOPA_CAT_COUNT] = {{1, 0, 0, 0, 0, 0, 0},
                                                  {0, 0, 0, 0, 3, 0, 0}};
  s = round_points(2, carte_vs_scope);
  scopa_tally_add(&g, &s);
  CHECK(g.finished && g.winner == 0);
  CHECK_EQ_INT(g.totals[1], 13);
  TEST("game-4.2", "RULES.md count_order: a side already at the target "
                   "counts as first");
  scopa_tally_init(&g, &r, 0);
  g.totals[0] = 9, g.totals[1] = 11;
  const int a3[2][SCOPA_CAT_COUNT] = {{1, 1, 1, 0, 0, 0, 0}, {0}};
  s = round_points(2, a3);
  scopa_tally_add(&g, &s);
  CHECK(g.finished && g.winner == 1);
  TEST("game-4.3", "RULES.md count_order: arriving in the same step, the "
                   "highest total wins, else another round");
  scopa_tally_init(&g, &r, 0);
  g.totals[0] = 10, g.totals[1] = 10;
  const int same[2][SCOPA_CAT_COUNT] = {{0, 0, 0, 0, 1, 0, 0},
                                        {0, 0, 0, 0, 2, 0, 0}};
  s = round_points(2, same);
  scopa_tally_add(&g, &s);
  CHECK(g.finished && g.winner == 1);
  scopa_tally_init(&g, &r, 0);
  g.totals[0] = 10, g.totals[1] = 10;
  s = round_points(2, tie);
  scopa_tally_add(&g, &s);
  CHECK(!g.finished);
  TEST("game-4.4", "RULES.md count_order: only one side over the target "
                   "wins as usual");
  scopa_tally_init(&g, &r, 0);
  g.totals[0] = 10, g.totals[1] = 5;
  s = round_points(2, two_one);
  scopa_tally_add(&g, &s);
  CHECK(g.finished && g.winner == 0);
  TEST("rules-1.1", "RULES.md Game records: rules that cannot be played");
  const char *bad[][2] = {
      {"teams", "true"},  {"players", "1"},     {"refill", "2"},
      {"players", "5"},   {"capture", "somma"}, {"target", "0"},
      {"cappotto", "-1"}, {"nonsense", "1"},    {"mandatory_capture", "1"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    scopa_rules x;
    char msg[200];
    scopa_rules_init(&x);
    int rc =
        scopa_rules_set_text(&x, bad[i][0], bad[i][1], NULL, msg, sizeof msg);
    if (rc == SCOPA_OK)
      rc = scopa_rules_check(&x, NULL, msg, sizeof msg);
    CHECK_EQ_INT(rc, SCOPA_ERULES);
    CHECK(msg[0] != 0);
  }
  TEST("rules-1.2", "RULES.md: scopone with players 2, refill 1 with "
                    "scopone, win_by_two with count_order");
  {
    scopa_rules x;
    scopa_rules_init(&x);
    x.game = SCOPA_GAME_SCOPONE, x.players = 2;
    CHECK_EQ_INT(scopa_rules_check(&x, NULL, NULL, 0), SCOPA_ERULES);
    scopa_rules_init(&x);
    x.game = SCOPA_GAME_SCOPONE, x.refill = 1;
    CHECK_EQ_INT(scopa_rules_check(&x, NULL, NULL, 0), SCOPA_ERULES);
    scopa_rules_init(&x);
    x.game = SCOPA_GAME_SCOPONE, x.teams = 0;
    CHECK_EQ_INT(scopa_rules_check(&x, NULL, NULL, 0), SCOPA_ERULES);
    scopa_rules_init(&x);
    x.win_by_two = 1, x.tiebreak = SCOPA_TIEBREAK_COUNT_ORDER;
    CHECK_EQ_INT(scopa_rules_check(&x, NULL, NULL, 0), SCOPA_ERULES);
  }
  TEST("rules-1.3", "RULES.md: defaults and presets");
  {
    scopa_rules x;
    CHECK(scopa_rules_preset(&x, "scientifico") == SCOPA_OK);
    CHECK_EQ_INT(x.players, 4);
    CHECK_EQ_INT(x.teams, 1);
    CHECK(scopa_rules_preset(&x, "scopa") == SCOPA_OK);
    CHECK_EQ_INT(x.players, 2);
    CHECK_EQ_INT(x.target, 11);
    CHECK_EQ_INT(x.mandatory_capture, 1);
    CHECK_EQ_INT(x.ace_sweep_scopa, 1);
    CHECK(scopa_rules_preset(&x, "nope") == SCOPA_EINVAL);
  }
}

int main(void) {
  category_tests();
  primiera_tests();
  bonus_tests();
  game_tests();
  return test_summary("score");
}
