/*
 * test_variants.c -- one named test (at least two per option) for each
 * option RULES.md gained with the variants: six seats and team_size,
 * deal_bonus, single_match_first, max_capture, last_card_scopa, the four
 * ace refinements, leftovers, primiera "sum" and "complete_only",
 * most_sevens, all_sevens, all_coins_wins, lowest_wins, tiebreak
 * "count_order_on_tie", the new presets and the rules that cannot be
 * played.  Each TEST quotes the RULES.md text it checks.
 */
#include "../test.h"
#include "helpers.h"

static scopa_rules R;

/* A deck whose first deal puts `table` on the table (the other cards in
 * card order), for these rules' players. */
static void deck_with_table(const scopa_rules *r, const char *table,
                            uint8_t deck[40]) {
  scopa_cards t = cards_of(table);
  int at = 3 * r->players, k = 0;
  for (int c = 0; c < 40; c++)
    if (!(t & SCOPA_BIT(c))) {
      if (k == at)
        k += 4;
      deck[k++] = (uint8_t)c;
    }
  for (int c = 0; c < 40; c++)
    if (t & SCOPA_BIT(c))
      deck[at++] = (uint8_t)c;
}

/* Whether rules words can be played. */
static int playable(const char *words) {
  scopa_rules r;
  char buf[512], msg[200];
  scopa_rules_init(&r);
  snprintf(buf, sizeof buf, "%s", words);
  for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
    char *eq = strchr(w, '=');
    *eq = 0;
    if (scopa_rules_set_text(&r, w, eq + 1, NULL, msg, sizeof msg) != SCOPA_OK)
      return 0;
  }
  return scopa_rules_check(&r, NULL, msg, sizeof msg) == SCOPA_OK;
}

/* A position at the round's first play (ace_first_play looks at it). */
static scopa_state first_play(const scopa_rules *r, const char *hand,
                              const char *table) {
  scopa_state s = position(r, hand, "", table, 0);
  s.plays = 0;
  return s;
}

static int legal_has(const scopa_state *s, const char *move) {
  char want[64], have[4096];
  snprintf(want, sizeof want, " %s ", move);
  snprintf(have, sizeof have, " %s ", legal_text(s));
  return strstr(have, want) != NULL;
}

static void seats_tests(void) {
  uint8_t deck[40];
  scopa_state s;
  for (int i = 0; i < 40; i++)
    deck[i] = (uint8_t)i;
  TEST("seats-2.1", "RULES.md The deal: players 6: 3 cards each, 4 on the "
                    "table; 6: 2 hands");
  R = rules_of("players=6");
  CHECK(scopa_state_deal(&s, &R, 5, deck, NULL, 0) == SCOPA_OK);
  CHECK_EQ_INT(scopa_state_stock(&s), 18);
  CHECK(s.hand[0] == cards_of("1d 2s 4d"));
  CHECK(s.table == cards_of("5s 5b 6d 6c"));
  CHECK_EQ_INT(scopa_rules_sides(&R), 6);
  int hands = 0;
  scopa_move moves[SCOPA_MAX_MOVES];
  while (!scopa_state_over(&s)) {
    if (s.plays % 18 == 0)
      hands++;
    scopa_state_play(&s,
                     moves[scopa_state_legal(&s, moves, SCOPA_MAX_MOVES) - 1]);
  }
  CHECK_EQ_INT(hands, 2);
  CHECK_EQ_INT(s.plays, 36);
  TEST("seats-2.2", "RULES.md Seats: 6 players, team_size 2: sides {0, 3}, "
                    "{1, 4}, {2, 5}");
  R = rules_of("players=6 teams=true");
  CHECK_EQ_INT(scopa_rules_sides(&R), 3);
  for (int seat = 0; seat < 6; seat++)
    CHECK_EQ_INT(scopa_rules_side_of(&R, seat), seat % 3);
  TEST("seats-2.3", "RULES.md Seats: team_size 3: sides {0, 2, 4} and "
                    "{1, 3, 5}; partners pool their captures");
  R = rules_of("players=6 teams=true team_size=3");
  CHECK_EQ_INT(scopa_rules_sides(&R), 2);
  CHECK_EQ_INT(scopa_rules_side_of(&R, 4), 0);
  CHECK_EQ_INT(scopa_rules_side_of(&R, 5), 1);
  s = position(&R, "7d", "", "3d 4c 9s", 0);
  s.hand[2] = s.hand[0]; /* seat 2, seat 0's partner, plays it */
  s.hand[0] = 0;
  s.to_play = 2;
  scopa_state_play(&s, move_of("7dx3d+4c"));
  CHECK_EQ_INT(s.last_capturer, 2);
  /* The last play: the leftover 9s goes to the capturer's side too. */
  CHECK(s.pile[0] == cards_of("7d 3d 4c 9s"));
  TEST("seats-2.4", "RULES.md Game records: teams without 4 or 6 players, "
                    "team_size 3 without 6 players in teams, 6 players "
                    "outside scopa are invalid; team_size 2 or 3 only");
  CHECK(!playable("players=3 teams=true"));
  CHECK(!playable("players=4 teams=true team_size=3"));
  CHECK(!playable("players=6 team_size=3"));
  CHECK(!playable("game=scopone players=6"));
  CHECK(!playable("players=5"));
  CHECK(!playable("players=6 teams=true team_size=4"));
  CHECK(playable("players=6 teams=false"));
  CHECK(playable("players=6 team_size=2"));
  TEST("seats-2.5", "RULES.md refill 1: with 6 players the 18 cards of the "
                    "stock give each seat three draws");
  R = rules_of("players=6 refill=1");
  for (int i = 0; i < 40; i++)
    deck[i] = (uint8_t)i;
  CHECK(scopa_state_deal(&s, &R, 0, deck, NULL, 0) == SCOPA_OK);
  while (!scopa_state_over(&s))
    scopa_state_play(&s,
                     moves[scopa_state_legal(&s, moves, SCOPA_MAX_MOVES) - 1]);
  for (int seat = 0; seat < 6; seat++)
    CHECK_EQ_INT(__builtin_popcountll(s.dealt[seat]), 6);
  CHECK_EQ_INT(s.plays, 36);
}

static void deal_bonus_tests(void) {
  uint8_t deck[40];
  scopa_state s;
  TEST("deal_bonus-1.1", "RULES.md deal_bonus: a table adding up to 15 is "
                         "the dealer's side's, with 1 scopa; the first "
                         "player plays to an empty table");
  R = rules_of("deal_bonus=fifteen");
  deck_with_table(&R, "1d 2c 3s 9b", deck);
  CHECK(scopa_state_deal(&s, &R, 1, deck, NULL, 0) == SCOPA_OK);
  CHECK(s.table == 0);
  CHECK(s.pile[1] == cards_of("1d 2c 3s 9b"));
  CHECK_EQ_INT(s.scope[1], 1);
  CHECK_EQ_INT(s.last_capturer, 1);
  CHECK(s.initial_table == cards_of("1d 2c 3s 9b"));
  CHECK_EQ_INT(s.plays, 0);
  CHECK_EQ_INT(scopa_state_to_play(&s), 0);
  CHECK_EQ_INT(scopa_state_total_plays(&s), 36);
  TEST("deal_bonus-1.2", "RULES.md deal_bonus: 30, 2 scope; in teams the "
                         "dealer's side");
  R = rules_of("deal_bonus=fifteen players=4 teams=true");
  deck_with_table(&R, "10d 9c 8s 3b", deck);
  CHECK(scopa_state_deal(&s, &R, 2, deck, NULL, 0) == SCOPA_OK);
  CHECK_EQ_INT(s.scope[0], 2);
  CHECK(s.pile[0] == cards_of("10d 9c 8s 3b"));
  TEST("deal_bonus-1.3", "RULES.md deal_bonus: any other sum does nothing; "
                         "off by default");
  R = rules_of("deal_bonus=fifteen");
  deck_with_table(&R, "1d 2c 3s 8b", deck);
  CHECK(scopa_state_deal(&s, &R, 0, deck, NULL, 0) == SCOPA_OK);
  CHECK(s.table == cards_of("1d 2c 3s 8b"));
  R = rules_of("");
  deck_with_table(&R, "1d 2c 3s 9b", deck);
  CHECK(scopa_state_deal(&s, &R, 0, deck, NULL, 0) == SCOPA_OK);
  CHECK(s.table == cards_of("1d 2c 3s 9b"));
  TEST("deal_bonus-1.4", "RULES.md deal_bonus: invalid with "
                         "scopone_scientifico; the escoba preset has it");
  CHECK(!playable("game=scopone_scientifico deal_bonus=fifteen"));
  CHECK(playable("game=scopone deal_bonus=fifteen"));
  scopa_rules_preset(&R, "escoba");
  CHECK_EQ_INT(R.deal_bonus, SCOPA_DEAL_BONUS_FIFTEEN);
}

static void capture_tests(void) {
  scopa_state s;
  TEST("single_match_first-1.1", "RULES.md single_match_first false: a 7 "
                                 "may take 3 + 4 while a 7 is on the table");
  R = rules_of("single_match_first=false");
  s = position(&R, "7d", "", "7c 3s 4b", 0);
  CHECK_EQ_STR(legal_text(&s), "7dx3s+4b 7dx7c");
  CHECK(scopa_state_check(&s, move_of("7dx3s+4b"), NULL, NULL, 0) == SCOPA_OK);
  TEST("single_match_first-1.2", "RULES.md single_match_first: "
                                 "fewest_cards true then allows only the "
                                 "smallest sets; the default is rule 1");
  R = rules_of("single_match_first=false fewest_cards=true");
  s = position(&R, "7d", "", "7c 3s 4b", 0);
  CHECK_EQ_STR(legal_text(&s), "7dx7c");
  R = rules_of("");
  s = position(&R, "7d", "", "7c 3s 4b", 0);
  CHECK_EQ_STR(legal_text(&s), "7dx7c");
  CHECK(scopa_state_check(&s, move_of("7dx3s+4b"), NULL, NULL, 0) ==
        SCOPA_EILLEGAL);
  TEST("single_match_first-1.3", "RULES.md single_match_first: only with "
                                 "capture match");
  CHECK(!playable("capture=quindici single_match_first=false"));
  TEST("max_capture-1.1", "RULES.md max_capture 2: a capture takes at most "
                          "two table cards");
  R = rules_of("max_capture=2");
  s = position(&R, "10d", "", "2c 3s 5b 1c 9s", 0);
  CHECK_EQ_STR(legal_text(&s), "10dx1c+9s");
  CHECK(scopa_state_check(&s, move_of("10dx2c+3s+5b"), NULL, NULL, 0) ==
        SCOPA_EILLEGAL);
  TEST("max_capture-1.2", "RULES.md max_capture: a larger set is not a "
                          "capture at all, so it cannot oblige a card to "
                          "capture: the card is laid");
  s = position(&R, "6d", "", "1c 2s 3b", 0);
  CHECK_EQ_STR(legal_text(&s), "6d");
  TEST("max_capture-1.3", "RULES.md max_capture: it applies to quindici, "
                          "never to an ace sweep");
  R = rules_of("max_capture=2 capture=quindici");
  s = position(&R, "5d", "", "1c 2s 7b 3c", 0);
  CHECK(!legal_has(&s, "5dx1c+2s+7b"));
  CHECK(legal_has(&s, "5dx3c+7b"));
  R = rules_of("max_capture=2 ace_sweeps=true");
  s = position(&R, "1d", "", "2c 3s 5b", 0);
  CHECK_EQ_STR(legal_text(&s), "1dx2c+3s+5b");
  TEST("max_capture-1.4", "RULES.md max_capture: only 0 and 2 are valid");
  CHECK(!playable("max_capture=1"));
  CHECK(!playable("max_capture=3"));
  CHECK(playable("max_capture=0"));
}

static void last_card_tests(void) {
  scopa_state s;
  TEST("last_card_scopa-1.1", "RULES.md Scopa: not with the last card "
                              "played in the round (default)");
  R = rules_of("");
  s = position(&R, "7d", "", "3c 4s", 0);
  CHECK_EQ_INT(s.plays, 35);
  CHECK(!scopa_state_is_scopa(&s, move_of("7dx3c+4s")));
  scopa_state_play(&s, move_of("7dx3c+4s"));
  CHECK_EQ_INT(s.scope[0], 0);
  TEST("last_card_scopa-1.2", "RULES.md last_card_scopa true: that last "
                              "capture scores a scopa too, a sweep only "
                              "under ace_sweep_scopa");
  R = rules_of("last_card_scopa=true");
  s = position(&R, "7d", "", "3c 4s", 0);
  CHECK(scopa_state_is_scopa(&s, move_of("7dx3c+4s")));
  scopa_state_play(&s, move_of("7dx3c+4s"));
  CHECK_EQ_INT(s.scope[0], 1);
  R = rules_of("last_card_scopa=true ace_sweeps=true ace_sweep_scopa=false");
  s = position(&R, "1d", "", "3c 4s", 0);
  scopa_state_play(&s, move_of("1dx3c+4s"));
  CHECK_EQ_INT(s.scope[0], 0);
}

static void ace_tests(void) {
  scopa_state s;
  TEST("ace_sweep_with_ace-1.1", "RULES.md ace_sweep_with_ace no: an ace on "
                                 "the table blocks the sweep; the ace takes "
                                 "one ace");
  R = rules_of("ace_sweeps=true");
  s = position(&R, "1d", "", "1c 5s 7b", 6);
  CHECK_EQ_STR(legal_text(&s), "1dx1c");
  TEST("ace_sweep_with_ace-1.2", "RULES.md ace_sweep_with_ace yes: the ace "
                                 "sweeps even with aces on the table, and "
                                 "the sweep is its only capture");
  R = rules_of("ace_sweeps=true ace_sweep_with_ace=yes");
  s = position(&R, "1d", "", "1c 5s 7b", 6);
  CHECK_EQ_STR(legal_text(&s), "1dx1c+5s+7b");
  CHECK(scopa_state_check(&s, move_of("1dx1c"), NULL, NULL, 0) ==
        SCOPA_EILLEGAL);
  TEST("ace_sweep_with_ace-1.3", "RULES.md ace_sweep_with_ace choice: with "
                                 "an ace on the table the ace may sweep or "
                                 "make any capture the rule in force allows");
  R = rules_of("ace_sweeps=true ace_sweep_with_ace=choice");
  s = position(&R, "1d", "", "1c 5s 7b", 6);
  CHECK_EQ_STR(legal_text(&s), "1dx1c 1dx1c+5s+7b");
  R = rules_of("ace_sweeps=true ace_sweep_with_ace=choice capture=quindici");
  s = position(&R, "1d", "", "1c 5s 9b", 6);
  CHECK_EQ_STR(legal_text(&s), "1dx1c+5s+9b 1dx5s+9b");
  TEST("ace_sweep_with_ace-1.4", "RULES.md: when the table held exactly "
                                 "one card, an ace, the capture is an "
                                 "ordinary one and scores a scopa");
  R = rules_of("ace_sweeps=true ace_sweep_with_ace=yes ace_sweep_scopa=false");
  s = position(&R, "1d", "", "1c", 6);
  CHECK(scopa_state_is_scopa(&s, move_of("1dx1c")));
  s = position(&R, "1d", "", "1c 4s", 6);
  CHECK(!scopa_state_is_scopa(&s, move_of("1dx1c+4s")));
  TEST("ace_first_play-1.1", "RULES.md ace_first_play no_sweep: an ace on "
                             "the first play plays as if ace_sweeps were "
                             "false");
  R = rules_of("ace_sweeps=true ace_first_play=no_sweep");
  s = first_play(&R, "1d 5c", "3s 4b");
  CHECK_EQ_STR(legal_text(&s), "1d 5c");
  s.plays = 1;
  CHECK(legal_has(&s, "1dx3s+4b"));
  TEST("ace_first_play-1.2", "RULES.md ace_first_play no_ace (regola del "
                             "vile): the first play may not be an ace "
                             "unless every card in that hand is one");
  R = rules_of("ace_sweeps=true ace_first_play=no_ace");
  s = first_play(&R, "1d 5c 6b", "3s 4b");
  CHECK_EQ_STR(legal_text(&s), "5c 6b");
  CHECK(scopa_state_check(&s, move_of("1d"), NULL, NULL, 0) == SCOPA_EILLEGAL);
  s = first_play(&R, "1d 1b 1s", "3s 4b");
  CHECK_EQ_STR(legal_text(&s), "1b 1d 1s");
  s = first_play(&R, "1d 1b 1s", "1c 4b");
  CHECK_EQ_STR(legal_text(&s), "1bx1c 1dx1c 1sx1c");
  TEST("ace_first_play-1.3", "RULES.md ace_first_play: first play under "
                             "no_sweep on an empty table: laid, whatever "
                             "ace_empty_table says");
  R = rules_of("ace_sweeps=true ace_first_play=no_sweep "
               "ace_empty_table=taken");
  s = first_play(&R, "1d 5c", "");
  scopa_state_play(&s, move_of("1d"));
  CHECK(s.table == cards_of("1d"));
  TEST("ace_empty_table-1.1", "RULES.md ace_empty_table taken: the ace goes "
                              "alone to the player's pile, a capture that "
                              "scores a scopa under ace_sweep_scopa");
  R = rules_of("ace_sweeps=true ace_empty_table=taken");
  s = position(&R, "1d 5c", "", "", 6);
  CHECK_EQ_STR(legal_text(&s), "1d 5c");
  CHECK(scopa_state_is_scopa(&s, move_of("1d")));
  scopa_state_play(&s, move_of("1d"));
  CHECK(s.table == 0);
  CHECK(s.pile[0] & SCOPA_BIT(card_of("1d")));
  CHECK_EQ_INT(s.scope[0], 1);
  CHECK_EQ_INT(s.last_capturer, 0);
  TEST("ace_empty_table-1.2", "RULES.md ace_empty_table: laid by default; "
                              "taken without a scopa when ace_sweep_scopa "
                              "is false; never both, even with "
                              "mandatory_capture false");
  R = rules_of("ace_sweeps=true");
  s = position(&R, "1d", "", "", 6);
  scopa_state_play(&s, move_of("1d"));
  CHECK(s.table == cards_of("1d"));
  R = rules_of("ace_sweeps=true ace_empty_table=taken ace_sweep_scopa=false "
               "mandatory_capture=false");
  s = position(&R, "1d", "", "", 6);
  CHECK_EQ_STR(legal_text(&s), "1d");
  scopa_state_play(&s, move_of("1d"));
  CHECK_EQ_INT(s.scope[0], 0);
  CHECK(s.pile[0] & SCOPA_BIT(card_of("1d")));
  TEST("ace_sweep_optional-1.1", "RULES.md ace_sweep_optional: an ace whose "
                                 "only capture is the sweep may be laid, "
                                 "even under mandatory_capture");
  R = rules_of("ace_sweeps=true ace_sweep_optional=true");
  s = position(&R, "1d", "", "3c 5s", 6);
  CHECK_EQ_STR(legal_text(&s), "1d 1dx3c+5s");
  R = rules_of("ace_sweeps=true");
  s = position(&R, "1d", "", "3c 5s", 6);
  CHECK_EQ_STR(legal_text(&s), "1dx3c+5s");
  TEST("ace_sweep_optional-1.2", "RULES.md ace_sweep_optional: not when the "
                                 "ace has another capture (choice with an "
                                 "ace on the table)");
  R = rules_of("ace_sweeps=true ace_sweep_optional=true "
               "ace_sweep_with_ace=choice");
  s = position(&R, "1d", "", "1c 5s", 6);
  CHECK_EQ_STR(legal_text(&s), "1dx1c 1dx1c+5s");
  TEST("ace_options-1.1", "RULES.md: each ace refinement is invalid at a "
                          "value other than its default without ace_sweeps");
  CHECK(!playable("ace_sweep_with_ace=yes"));
  CHECK(!playable("ace_first_play=no_ace"));
  CHECK(!playable("ace_empty_table=taken"));
  CHECK(!playable("ace_sweep_optional=true"));
  CHECK(playable("ace_sweep_with_ace=no ace_first_play=sweeps"));
}

/* Plays a position to the end with the first legal move each turn. */
static void play_out(scopa_state *s) {
  scopa_move moves[SCOPA_MAX_MOVES];
  while (!scopa_state_over(s)) {
    int n = scopa_state_legal(s, moves, SCOPA_MAX_MOVES);
    scopa_state_play(s, moves[n - 1]);
  }
}

static void leftovers_tests(void) {
  scopa_state s;
  scopa_score sc;
  TEST("leftovers-1.1", "RULES.md leftovers dealer: the dealer's side takes "
                        "them, even if nobody captured");
  R = rules_of("leftovers=dealer");
  s = position(&R, "9d", "", "7d 3c", 0);
  s.dealer = 1;
  s.last_capturer = SCOPA_NO_SEAT;
  play_out(&s);
  CHECK(s.pile[1] & cards_of("7d 3c 9d"));
  CHECK(s.table == 0);
  TEST("leftovers-1.2", "RULES.md leftovers nobody: they count for no "
                        "category, so the settebello may go to no one");
  R = rules_of("leftovers=nobody");
  s = position(&R, "9d", "", "7d 3c", 0);
  play_out(&s);
  CHECK(s.table == cards_of("7d 3c 9d"));
  CHECK(!(s.pile[0] & SCOPA_BIT(SCOPA_SETTEBELLO)));
  CHECK(!(s.pile[1] & SCOPA_BIT(SCOPA_SETTEBELLO)));
  scopa_state_score(&s, &sc);
  CHECK_EQ_INT(sc.side[0].settebello + sc.side[1].settebello, 0);
  CHECK_EQ_INT(sc.side[0].cards + sc.side[1].cards, 37);
}

static scopa_score score_of(const scopa_rules *r, const char *p0,
                            const char *p1) {
  scopa_cards pile[2] = {cards_of(p0), cards_of(p1)};
  uint8_t scope[2] = {0, 0};
  scopa_score s;
  scopa_score_piles(r, 2, pile, scope, &s);
  return s;
}

static void scoring_tests(void) {
  scopa_score s;
  TEST("primiera-2.1", "RULES.md primiera sum: each side adds up its best "
                       "card of each suit it holds, a missing suit adding "
                       "nothing");
  R = rules_of("primiera=sum");
  /* side 0: 7d 7c 7s = 63, no bastoni; side 1: 1d 1c 1s 1b = 64 */
  s = score_of(&R, "7d 7c 7s", "1d 1c 1s 1b");
  CHECK_EQ_INT(s.side[1].points[SCOPA_CAT_PRIMIERA], 1);
  s = score_of(&R, "7d 7c 7s 2b", "1d 1c 1s 1b");
  CHECK_EQ_INT(s.side[0].points[SCOPA_CAT_PRIMIERA], 1);
  s = score_of(&R, "7d 7c 7s", "1d 1c 1s 2b");
  CHECK_EQ_INT(s.side[0].points[SCOPA_CAT_PRIMIERA], 1); /* 63 > 60 */
  TEST("primiera-2.2", "RULES.md primiera complete_only: only a side "
                       "holding all four suits can score; none if no side "
                       "is complete");
  R = rules_of("primiera=complete_only");
  s = score_of(&R, "7d 7c 7s", "1d 1c 1s 2b");
  CHECK_EQ_INT(s.side[1].points[SCOPA_CAT_PRIMIERA], 1);
  s = score_of(&R, "7d 7c 7s", "1d 1c 1s");
  CHECK_EQ_INT(s.side[0].points[SCOPA_CAT_PRIMIERA] +
                   s.side[1].points[SCOPA_CAT_PRIMIERA],
               0);
  R = rules_of("");
  s = score_of(&R, "7d 7c 7s", "1d 1c 1s");
  CHECK_EQ_INT(s.side[0].points[SCOPA_CAT_PRIMIERA], 1);
  TEST("sevens-1.1", "RULES.md most_sevens: 1 to the side with strictly the "
                     "most sevens, none on a tie");
  R = rules_of("most_sevens=true");
  s = score_of(&R, "7d 7c 7s", "7b");
  CHECK_EQ_INT(s.side[0].points[SCOPA_CAT_SEVENS], 1);
  CHECK_EQ_INT(s.side[0].sevens[0], 3);
  s = score_of(&R, "7d 7c", "7b 7s");
  CHECK_EQ_INT(s.side[0].points[SCOPA_CAT_SEVENS] +
                   s.side[1].points[SCOPA_CAT_SEVENS],
               0);
  R = rules_of("");
  s = score_of(&R, "7d 7c 7s", "7b");
  CHECK_EQ_INT(s.side[0].points[SCOPA_CAT_SEVENS], 0);
  TEST("sevens-1.2", "RULES.md all_sevens: that many points to the side "
                     "holding all four sevens, on top of most_sevens");
  R = rules_of("all_sevens=2 most_sevens=true");
  s = score_of(&R, "7d 7c 7s 7b", "1d");
  CHECK_EQ_INT(s.side[0].points[SCOPA_CAT_ALL_SEVENS], 2);
  CHECK_EQ_INT(s.side[0].points[SCOPA_CAT_SEVENS], 1);
  R = rules_of("all_sevens=2");
  s = score_of(&R, "7d 7c 7s", "7b");
  CHECK_EQ_INT(s.side[0].points[SCOPA_CAT_ALL_SEVENS], 0);
  CHECK(!playable("all_sevens=-1"));
}

/* A round's score with the given totals, the points in one category. */
static scopa_score round_of(int sides, const int *points, int category) {
  scopa_score s;
  memset(&s, 0, sizeof s);
  s.sides = sides;
  for (int i = 0; i < sides; i++) {
    s.side[i].points[category] = points[i];
    s.side[i].total = points[i];
  }
  return s;
}

static void end_tests(void) {
  scopa_tally g;
  scopa_score s;
  TEST("all_coins_wins-1.1", "RULES.md all_coins_wins: a side holding all "
                             "ten coins wins at once, whatever the totals");
  R = rules_of("all_coins_wins=true target=21");
  scopa_tally_init(&g, &R, 0);
  s = score_of(&R, "1d 2d 3d 4d 5d 6d 7d 8d 9d 10d", "1c 2c 3c 4c 5c 6c 7c");
  scopa_tally_add(&g, &s);
  CHECK(g.finished);
  CHECK_EQ_INT(g.winner, 0);
  R = rules_of("target=21");
  scopa_tally_init(&g, &R, 0);
  scopa_tally_add(&g, &s);
  CHECK(!g.finished);
  TEST("all_coins_wins-1.2", "RULES.md End of the game: all_coins_wins is "
                             "checked before cappotto and the target");
  R = rules_of("all_coins_wins=true target=3 cappotto=1");
  scopa_tally_init(&g, &R, 0);
  int big[2] = {0, 5};
  s = round_of(2, big, SCOPA_CAT_SCOPE);
  s.side[0].denari = 10;
  scopa_tally_add(&g, &s);
  CHECK(g.finished);
  CHECK_EQ_INT(g.winner, 0);
  TEST("lowest_wins-1.1", "RULES.md lowest_wins: once some side has at "
                          "least target, the side with strictly the lowest "
                          "total wins");
  R = rules_of("lowest_wins=true target=5 players=3");
  scopa_tally_init(&g, &R, 0);
  int p1[3] = {5, 2, 1};
  s = round_of(3, p1, SCOPA_CAT_SCOPE);
  scopa_tally_add(&g, &s);
  CHECK(g.finished);
  CHECK_EQ_INT(g.winner, 2);
  TEST("lowest_wins-1.2", "RULES.md lowest_wins: if two or more share the "
                          "lowest total, another round; below the target "
                          "nothing ends");
  scopa_tally_init(&g, &R, 0);
  int p2[3] = {6, 1, 1};
  s = round_of(3, p2, SCOPA_CAT_SCOPE);
  scopa_tally_add(&g, &s);
  CHECK(!g.finished);
  int p3[3] = {0, 3, 2};
  s = round_of(3, p3, SCOPA_CAT_SCOPE);
  scopa_tally_add(&g, &s); /* 6 4 3 */
  CHECK(g.finished);
  CHECK_EQ_INT(g.winner, 2);
  scopa_tally_init(&g, &R, 0);
  int p4[3] = {4, 1, 0};
  s = round_of(3, p4, SCOPA_CAT_SCOPE);
  scopa_tally_add(&g, &s);
  CHECK(!g.finished);
  TEST("lowest_wins-1.3", "RULES.md: lowest_wins does not combine with "
                          "win_by_two, cappotto, all_coins_wins or a count "
                          "order tiebreak");
  CHECK(!playable("lowest_wins=true win_by_two=true"));
  CHECK(!playable("lowest_wins=true cappotto=7"));
  CHECK(!playable("lowest_wins=true all_coins_wins=true"));
  CHECK(!playable("lowest_wins=true tiebreak=count_order"));
  CHECK(!playable("lowest_wins=true tiebreak=count_order_on_tie"));
  CHECK(playable("lowest_wins=true tiebreak=extra_round cappotto=0"));
  TEST("count_order_on_tie-1.1", "RULES.md count_order_on_tie: as with "
                                 "extra_round, the highest total wins");
  R = rules_of("tiebreak=count_order_on_tie target=5 players=3");
  scopa_tally_init(&g, &R, 0);
  int q1[3] = {6, 5, 0};
  s = round_of(3, q1, SCOPA_CAT_SCOPE);
  scopa_tally_add(&g, &s);
  CHECK(g.finished);
  CHECK_EQ_INT(g.winner, 0);
  TEST("count_order_on_tie-1.2", "RULES.md count_order_on_tie: sides "
                                 "sharing the highest total are compared "
                                 "category by category in the count order");
  R = rules_of("tiebreak=count_order_on_tie target=3");
  scopa_tally_init(&g, &R, 0);
  memset(&s, 0, sizeof s);
  s.sides = 2;
  s.side[0].points[SCOPA_CAT_SCOPE] = 3; /* counted fifth */
  s.side[1].points[SCOPA_CAT_CARTE] = 1; /* counted first */
  s.side[1].points[SCOPA_CAT_DENARI] = 1;
  s.side[1].points[SCOPA_CAT_PRIMIERA] = 1;
  s.side[0].total = s.side[1].total = 3;
  scopa_tally_add(&g, &s);
  CHECK(g.finished);
  CHECK_EQ_INT(g.winner, 1);
  TEST("count_order_on_tie-1.3", "RULES.md count_order_on_tie: a side that "
                                 "ends the round lower never wins; if "
                                 "nothing decides, another round");
  R = rules_of("tiebreak=count_order_on_tie target=3 players=3");
  scopa_tally_init(&g, &R, 0);
  memset(&s, 0, sizeof s);
  s.sides = 3;
  s.side[2].points[SCOPA_CAT_CARTE] = 3; /* first there, but lower */
  s.side[2].total = 3;
  s.side[0].points[SCOPA_CAT_SCOPE] = 4;
  s.side[1].points[SCOPA_CAT_SCOPE] = 4;
  s.side[0].total = s.side[1].total = 4;
  scopa_tally_add(&g, &s);
  CHECK(!g.finished);
  R = rules_of("tiebreak=count_order target=3 players=3");
  scopa_tally_init(&g, &R, 0);
  scopa_tally_add(&g, &s);
  CHECK(g.finished);
  CHECK_EQ_INT(g.winner, 2);
  TEST("count_order_on_tie-1.4", "RULES.md: win_by_two and either count "
                                 "order tiebreak do not combine");
  CHECK(!playable("tiebreak=count_order_on_tie win_by_two=true"));
  CHECK(!playable("tiebreak=count_order win_by_two=true"));
}

static void preset_tests(void) {
  const char *const *names = scopa_rules_preset_names();
  const char *want[] = {"scopa",    "scopone", "scientifico", "assi",
                        "quindici", "escoba",  "trentuno",    "perdere"};
  TEST("presets-2.1", "RULES.md Presets: scopa, scopone, scientifico, assi, "
                      "quindici, escoba, trentuno, perdere");
  for (int i = 0; i < 8; i++) {
    CHECK(names[i] && strcmp(names[i], want[i]) == 0);
    CHECK(scopa_rules_preset(&R, want[i]) == SCOPA_OK);
  }
  CHECK(names[8] == NULL);
  TEST("presets-2.2", "RULES.md Presets: escoba, trentuno and perdere as "
                      "written");
  scopa_rules_preset(&R, "escoba");
  CHECK(R.capture == SCOPA_CAPTURE_QUINDICI &&
        R.primiera == SCOPA_PRIMIERA_OFF && R.most_sevens &&
        R.deal_bonus == SCOPA_DEAL_BONUS_FIFTEEN && R.target == 21 &&
        R.players == 2);
  scopa_rules_preset(&R, "trentuno");
  CHECK(R.game == SCOPA_GAME_SCIENTIFICO && R.ace_sweeps &&
        !R.ace_sweep_scopa && R.napola && R.target == 31 && R.all_coins_wins &&
        R.players == 4 && R.teams);
  scopa_rules_preset(&R, "perdere");
  CHECK(R.lowest_wins && R.target == 21 && R.players == 2);
  TEST("presets-2.3", "RULES.md Presets: each preset as the options it "
                      "sets, read back as a record's rules, is the preset");
  /* The server and the web client take the presets from here (issue 23:
   * one copy); what each sets is RULES.md's list, no more. */
  const char *as_written[] = {
      "{}",
      "{\"game\":\"scopone\"}",
      "{\"game\":\"scopone_scientifico\"}",
      "{\"ace_sweeps\":true}",
      "{\"capture\":\"quindici\"}",
      "{\"deal_bonus\":\"fifteen\",\"capture\":\"quindici\","
      "\"primiera\":\"off\",\"most_sevens\":true,\"target\":21}",
      "{\"game\":\"scopone_scientifico\",\"ace_sweeps\":true,"
      "\"ace_sweep_scopa\":false,\"napola\":true,\"target\":31,"
      "\"all_coins_wins\":true}",
      "{\"target\":21,\"lowest_wins\":true}"};
  for (int i = 0; i < 8; i++) {
    char *json = scopa_rules_preset_json(want[i]);
    scopa_rules from_json, preset;
    CHECK(json && scopa_rules_from_json(&from_json, json, strlen(json), NULL,
                                        NULL, 0) == SCOPA_OK);
    scopa_rules_preset(&preset, want[i]);
    CHECK(json && memcmp(&from_json, &preset, sizeof preset) == 0);
    CHECK_EQ_STR(json ? json : "", as_written[i]);
    scopa_free(json);
  }
  CHECK(scopa_rules_preset_json("nonsense") == NULL);
  TEST("presets-2.4", "the catalogue: every option with both labels, every "
                      "preset, every level");
  char *cat = scopa_rules_catalogue_json();
  CHECK(cat != NULL);
  for (int i = 0; cat && i < scopa_option_count(); i++) {
    char key[96];
    snprintf(key, sizeof key, "{\"name\":\"%s\",", scopa_option_get(i)->name);
    const char *at = strstr(cat, key);
    CHECK(at != NULL);
    /* labelled in both languages, not with its bare name */
    snprintf(key, sizeof key, "\"label\":{\"en\":\"%s\"",
             scopa_option_get(i)->name);
    CHECK(at && !strstr(at, key));
  }
  CHECK(cat && strstr(cat, "\"name\":\"target\",\"kind\":\"int\""));
  CHECK(cat && strstr(cat, "\"min\":1,\"max\":1000,\"default\":11"));
  CHECK(cat && strstr(cat, "\"name\":\"players\",\"kind\":\"int\""));
  CHECK(cat && strstr(cat, "\"values\":[2,3,4,6]"));
  CHECK(cat && strstr(cat, "{\"name\":\"campione\",\"english\":"
                           "\"champion\",\"bot\":\"best\""));
  for (int i = 0; i < 8; i++) {
    char key[64];
    snprintf(key, sizeof key, "{\"name\":\"%s\",\"label\"", want[i]);
    CHECK(cat && strstr(cat, key));
  }
  scopa_free(cat);
}

int main(void) {
  seats_tests();
  deal_bonus_tests();
  capture_tests();
  last_card_tests();
  ace_tests();
  leftovers_tests();
  scoring_tests();
  end_tests();
  preset_tests();
  return test_summary("variants");
}
