/*
 * test_rules.c -- one named test per rule and option of RULES.md, with the
 * seeds' own examples.  Each TEST names the section or option it checks.
 */
#include "../test.h"
#include "helpers.h"

static scopa_rules R;

static void cards_tests(void) {
  char buf[SCOPA_CARD_TEXT];
  TEST("cards-1.1", "RULES.md Cards: canonical notation round-trips");
  for (int c = 0; c < 40; c++)
    CHECK_EQ_INT(scopa_card_parse(scopa_card_str(c, buf)), c);
  CHECK_EQ_STR(scopa_card_str(SCOPA_SETTEBELLO, buf), "7d");
  CHECK_EQ_STR(scopa_card_str(SCOPA_CARD(10, SCOPA_SUIT_BASTONI), buf), "10b");
  TEST("cards-1.2", "RULES.md Cards: parsers are strict");
  const char *bad[] = {"07d", "7D",  "11d",  "0d", "7", "d",  "7dd",
                       " 7d", "7d ", "1 0b", "10", "",  "7x", "010b"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    CHECK_EQ_INT(scopa_card_parse(bad[i]), SCOPA_ENOTATION);
  TEST("cards-1.3", "RULES.md Game records: move notation");
  scopa_move m;
  char mt[SCOPA_MOVE_TEXT];
  CHECK(scopa_move_parse("10bx3c+7b", NULL, &m, NULL, 0) == SCOPA_OK);
  CHECK_EQ_INT(SCOPA_MOVE_CARD(m), card_of("10b"));
  CHECK(SCOPA_MOVE_TAKES(m) == cards_of("3c 7b"));
  CHECK_EQ_STR(scopa_move_str(m, mt), "10bx3c+7b");
  CHECK(scopa_move_parse("10bx7b+3c", NULL, &m, NULL, 0) == SCOPA_OK);
  CHECK_EQ_STR(scopa_move_str(m, mt), "10bx3c+7b");
  const char *badm[] = {"7dx",    "7dx3c+", "7dx3c+3c",  "7dx7d",    "x3c",
                        "7d x3c", "7dX3c",  "7dx3c++4s", "7dx3cx4s", ""};
  for (size_t i = 0; i < sizeof badm / sizeof badm[0]; i++)
    CHECK_EQ_INT(scopa_move_parse(badm[i], NULL, &m, NULL, 0), SCOPA_ENOTATION);
  TEST("cards-1.4", "card names in Italian and English");
  CHECK_EQ_STR(scopa_card_name(SCOPA_SETTEBELLO, "it", mt, sizeof mt),
               "sette di denari");
  CHECK_EQ_STR(scopa_card_name(card_of("8c"), "en", mt, sizeof mt),
               "knave of cups");
}

static void deal_tests(void) {
  uint8_t deck[40];
  scopa_state s;
  for (int i = 0; i < 40; i++)
    deck[i] = (uint8_t)((i * 7) % 40); /* 7 is coprime with 40 */
  TEST("deal-1.1", "RULES.md The deal: one card at a time from the seat "
                   "after the dealer, then the table");
  R = rules_of("");
  CHECK(scopa_state_deal(&s, &R, 1, deck, NULL, 0) == SCOPA_OK);
  /* dealer 1: seat 0 gets deck[0], deck[2], deck[4]. */
  CHECK(s.hand[0] ==
        (SCOPA_BIT(deck[0]) | SCOPA_BIT(deck[2]) | SCOPA_BIT(deck[4])));
  CHECK(s.hand[1] ==
        (SCOPA_BIT(deck[1]) | SCOPA_BIT(deck[3]) | SCOPA_BIT(deck[5])));
  CHECK(s.table == (SCOPA_BIT(deck[6]) | SCOPA_BIT(deck[7]) |
                    SCOPA_BIT(deck[8]) | SCOPA_BIT(deck[9])));
  CHECK_EQ_INT(scopa_state_to_play(&s), 0);
  CHECK_EQ_INT(scopa_state_stock(&s), 30);
  TEST("deal-1.2", "RULES.md The deal: 3 and 4 players");
  R = rules_of("players=3");
  CHECK(scopa_state_deal(&s, &R, 2, deck, NULL, 0) == SCOPA_OK);
  CHECK_EQ_INT(scopa_state_stock(&s), 27);
  CHECK(s.hand[0] & SCOPA_BIT(deck[0]));
  R = rules_of("players=4 teams=true");
  CHECK(scopa_state_deal(&s, &R, 0, deck, NULL, 0) == SCOPA_OK);
  CHECK_EQ_INT(scopa_state_stock(&s), 24);
  CHECK(s.hand[1] & SCOPA_BIT(deck[0]));
  CHECK_EQ_INT(scopa_state_total_plays(&s), 36);
  TEST("deal-1.3", "RULES.md The deal: scopone, 9 each and 4 on the table");
  R = rules_of("game=scopone");
  CHECK_EQ_INT(R.players, 4);
  CHECK_EQ_INT(R.teams, 1);
  for (int i = 0; i < 40; i++)
    deck[i] = (uint8_t)i; /* table = deck[36..39] = the four kings */
  CHECK(scopa_state_deal(&s, &R, 3, deck, NULL, 0) == SCOPA_EVOID);
  /* Swap two kings out of the table: two kings left there. */
  deck[36] = 0, deck[0] = 36, deck[37] = 1, deck[1] = 37;
  CHECK(scopa_state_deal(&s, &R, 3, deck, NULL, 0) == SCOPA_OK);
  for (int i = 0; i < 4; i++)
    CHECK_EQ_INT(__builtin_popcountll(s.hand[i]), 9);
  CHECK_EQ_INT(__builtin_popcountll(s.table), 4);
  CHECK_EQ_INT(scopa_state_stock(&s), 0);
  TEST("deal-1.4", "RULES.md The deal: scientifico, 10 each, empty table");
  R = rules_of("game=scopone_scientifico");
  CHECK(scopa_state_deal(&s, &R, 0, deck, NULL, 0) == SCOPA_OK);
  CHECK(s.table == 0);
  CHECK_EQ_INT(__builtin_popcountll(s.hand[2]), 10);
  CHECK_EQ_INT(scopa_state_total_plays(&s), 40);
  TEST("deal-2.1", "RULES.md kings_redeal: three kings on the table void "
                   "the deal");
  for (int i = 0; i < 40; i++)
    deck[i] = (uint8_t)(39 - i); /* 2p: table = deck[6..9]: 10b.. */
  /* deck[6..9] = cards 33..30: 9c 9d 8b 8s: no kings; make three. */
  deck[6] = 39, deck[7] = 38, deck[8] = 37, deck[0] = 33, deck[1] = 32,
  deck[2] = 31;
  R = rules_of("");
  CHECK(scopa_state_deal(&s, &R, 0, deck, NULL, 0) == SCOPA_EVOID);
  R = rules_of("kings_redeal=false");
  CHECK(scopa_state_deal(&s, &R, 0, deck, NULL, 0) == SCOPA_OK);
  TEST("deal-2.2", "RULES.md kings_redeal: a random deal is never void");
  R = rules_of("");
  scopa_rng rng;
  scopa_rng_seed(&rng, 5);
  for (int i = 0; i < 2000; i++) {
    scopa_state_deal_random(&s, &R, i % 2, &rng);
    CHECK(__builtin_popcountll(s.table & SCOPA_RANK_CARDS(10)) < 3);
  }
  TEST("deal-3.1", "RULES.md The deal: bad decks are refused");
  for (int i = 0; i < 40; i++)
    deck[i] = (uint8_t)i;
  deck[5] = 4;
  CHECK(scopa_state_deal(&s, &R, 0, deck, NULL, 0) == SCOPA_EDECK);
  deck[5] = 40;
  CHECK(scopa_state_deal(&s, &R, 0, deck, NULL, 0) == SCOPA_EDECK);
}

static void capture_tests(void) {
  scopa_state s;
  R = rules_of("");
  TEST("capture-1.1", "RULES.md A turn, rule 1: the 1-3-4-8 table and the "
                      "knave (seed 000)");
  s = position(&R, "8c", "", "1d 3s 4b 8s", 0);
  CHECK_EQ_STR(legal_text(&s), "8cx8s");
  char msg[200];
  CHECK(scopa_state_check(&s, move_of("8cx1d+3s+4b"), NULL, msg, sizeof msg) ==
        SCOPA_EILLEGAL);
  CHECK(strstr(msg, "while 8s is on the table") != NULL);
  TEST("capture-1.2", "RULES.md A turn, rule 1: the player chooses which of "
                      "several");
  s = position(&R, "5c", "", "5s 5b 2d", 0);
  CHECK_EQ_STR(legal_text(&s), "5cx5b 5cx5s");
  TEST("capture-2.1", "RULES.md A turn, rule 2: 2d 5s 7b against 1d 5c 6s "
                      "(seed 000)");
  s = position(&R, "2d 5s 7b", "", "1d 5c 6s", 0);
  CHECK_EQ_STR(legal_text(&s), "2d 5sx5c 7bx1d+6s");
  TEST("capture-2.2", "RULES.md A turn, rule 2: the player chooses the set; "
                      "seed 001's 1-3-4-6-10 table");
  s = position(&R, "10c 7c 8c", "", "1d 3s 4b 6s 10d", 0);
  CHECK_EQ_STR(legal_text(&s), "10cx10d 7cx1d+6s 7cx3s+4b 8cx1d+3s+4b");
  TEST("capture-2.3", "RULES.md A turn, rule 2: two or more cards, and a "
                      "card that cannot capture is laid");
  s = position(&R, "9c", "", "10d 4s", 0);
  CHECK_EQ_STR(legal_text(&s), "9c");
  TEST("capture-3.1", "RULES.md fewest_cards");
  s = position(&R, "9c", "", "1d 3s 5b 4c", 0);
  CHECK_EQ_STR(legal_text(&s), "9cx1d+3s+5b 9cx4c+5b");
  R = rules_of("fewest_cards=true");
  s = position(&R, "9c", "", "1d 3s 5b 4c", 0);
  CHECK_EQ_STR(legal_text(&s), "9cx4c+5b");
  CHECK(scopa_state_check(&s, move_of("9cx1d+3s+5b"), NULL, msg, sizeof msg) ==
        SCOPA_EILLEGAL);
  CHECK(strstr(msg, "fewest") != NULL);
  TEST("capture-4.1", "RULES.md mandatory_capture true: a capturing card "
                      "may not be laid, another card may be played");
  R = rules_of("");
  s = position(&R, "6c 9b", "", "2d 4s", 0);
  CHECK_EQ_STR(legal_text(&s), "6cx2d+4s 9b");
  CHECK(scopa_state_check(&s, move_of("6c"), NULL, msg, sizeof msg) ==
        SCOPA_EILLEGAL);
  CHECK(strstr(msg, "cannot be laid") != NULL);
  TEST("capture-4.2", "RULES.md mandatory_capture false (seed 002)");
  R = rules_of("mandatory_capture=false");
  s = position(&R, "6c 9b", "", "2d 4s", 0);
  CHECK_EQ_STR(legal_text(&s), "6c 6cx2d+4s 9b");
  TEST("capture-5.1", "RULES.md A turn: cards not on the table, not in hand");
  R = rules_of("");
  s = position(&R, "6c", "", "2d 4s", 0);
  CHECK(scopa_state_check(&s, move_of("6cx2d+4b"), NULL, msg, sizeof msg) ==
        SCOPA_EILLEGAL);
  CHECK(scopa_state_check(&s, move_of("7cx2d"), NULL, msg, sizeof msg) ==
        SCOPA_EILLEGAL);
  CHECK(scopa_state_check(&s, move_of("6cx2d"), NULL, msg, sizeof msg) ==
        SCOPA_EILLEGAL);
  CHECK(strstr(msg, "add up to 2, not 6") != NULL);
  TEST("capture-6.1", "RULES.md A turn: a capture takes the cards to the "
                      "side's pile");
  s = position(&R, "6c 1b", "3c 2b", "2d 4s 9b", 3);
  CHECK(scopa_state_apply(&s, move_of("6cx2d+4s"), msg, sizeof msg) == 0);
  CHECK(s.table == cards_of("9b"));
  CHECK((s.pile[0] & cards_of("6c 2d 4s")) == cards_of("6c 2d 4s"));
  CHECK_EQ_INT(s.last_capturer, 0);
  CHECK_EQ_INT(scopa_state_to_play(&s), 1);
}

static void scopa_tests(void) {
  scopa_state s;
  char msg[200];
  R = rules_of("");
  TEST("scopa-1.1", "RULES.md A turn, Scopa: a capture that empties the "
                    "table");
  s = position(&R, "7c 1b", "3c 2b", "3d 4s", 6);
  CHECK(scopa_state_is_scopa(&s, move_of("7cx3d+4s")));
  scopa_state_apply(&s, move_of("7cx3d+4s"), msg, sizeof msg);
  CHECK_EQ_INT(s.scope[0], 1);
  TEST("scopa-1.2", "RULES.md A turn, Scopa: not with the last card played "
                    "in the round (seeds 003, 004)");
  s = position(&R, "7c", "", "3d 4s", 0);
  CHECK(!scopa_state_is_scopa(&s, move_of("7cx3d+4s")));
  scopa_state_apply(&s, move_of("7cx3d+4s"), msg, sizeof msg);
  CHECK_EQ_INT(s.scope[0], 0);
  CHECK(scopa_state_over(&s));
  TEST("scopa-1.3", "RULES.md A turn, Scopa: the last card of a hand of 3 "
                    "(before the next deal) does score");
  s = position(&R, "7c", "", "3d 4s", 6);
  scopa_state_apply(&s, move_of("7cx3d+4s"), msg, sizeof msg);
  CHECK_EQ_INT(s.scope[0], 1);
  CHECK(!scopa_state_over(&s));
  CHECK_EQ_INT(__builtin_popcountll(s.hand[1]), 3); /* dealt again */
  CHECK_EQ_INT(__builtin_popcountll(s.hand[0]), 3);
  TEST("end-1.1", "RULES.md End of the round: leftovers to the last "
                  "capturer, never a scopa");
  s = position(&R, "9c", "", "3d 4s", 0);
  s.last_capturer = 0;
  scopa_state_apply(&s, move_of("9c"), msg, sizeof msg);
  CHECK(scopa_state_over(&s));
  CHECK(s.table == 0);
  CHECK((s.pile[0] & cards_of("3d 4s 9c")) == cards_of("3d 4s 9c"));
  CHECK_EQ_INT(s.scope[0], 0);
  TEST("end-1.2", "RULES.md End of the round: nobody captured, the table "
                  "goes to no one");
  s = position(&R, "9c", "", "3d 4s", 0);
  s.last_capturer = SCOPA_NO_SEAT;
  scopa_state_apply(&s, move_of("9c"), msg, sizeof msg);
  CHECK(s.table == cards_of("3d 4s 9c"));
}

static void assi_tests(void) {
  scopa_state s;
  char msg[200];
  R = rules_of("ace_sweeps=true");
  TEST("assi-1.1", "RULES.md ace_sweeps: an ace sweeps a table with no ace");
  s = position(&R, "1c 5d", "2b", "3d 4s 9b", 3);
  CHECK_EQ_STR(legal_text(&s), "1cx3d+4s+9b 5d");
  scopa_state_apply(&s, move_of("1cx3d+4s+9b"), msg, sizeof msg);
  CHECK_EQ_INT(s.scope[0], 1);
  TEST("assi-1.2", "RULES.md ace_sweeps: with an ace on the table it is an "
                   "ordinary capture of that ace");
  s = position(&R, "1c", "2b", "1d 4s 9b", 3);
  CHECK_EQ_STR(legal_text(&s), "1cx1d");
  TEST("assi-1.3", "RULES.md ace_sweeps: the only ace on the table, taken, "
                   "is an ordinary scopa");
  s = position(&R, "1c", "2b", "1d", 3);
  CHECK_EQ_STR(legal_text(&s), "1cx1d");
  scopa_state_apply(&s, move_of("1cx1d"), msg, sizeof msg);
  CHECK_EQ_INT(s.scope[0], 1);
  TEST("assi-1.4", "RULES.md ace_sweeps: on an empty table the ace is laid");
  s = position(&R, "1c", "2b", "", 3);
  CHECK_EQ_STR(legal_text(&s), "1c");
  TEST("assi-2.1", "RULES.md ace_sweep_scopa false: the sweep is no scopa");
  R = rules_of("ace_sweeps=true ace_sweep_scopa=false");
  s = position(&R, "1c", "2b", "3d 4s", 3);
  scopa_state_apply(&s, move_of("1cx3d+4s"), msg, sizeof msg);
  CHECK_EQ_INT(s.scope[0], 0);
  CHECK(s.pile[0] & cards_of("3d"));
  TEST("assi-2.2", "RULES.md ace_sweeps with mandatory_capture false: the "
                   "ace may also be laid");
  R = rules_of("ace_sweeps=true mandatory_capture=false");
  s = position(&R, "1c", "2b", "3d 4s", 3);
  CHECK_EQ_STR(legal_text(&s), "1c 1cx3d+4s");
  TEST("assi-2.3", "RULES.md ace_sweeps: the sweep must take everything");
  R = rules_of("ace_sweeps=true");
  s = position(&R, "1c", "2b", "3d 4s", 3);
  CHECK(scopa_state_check(&s, move_of("1cx3d"), NULL, msg, sizeof msg) ==
        SCOPA_EILLEGAL);
  CHECK(strstr(msg, "sweeps") != NULL);
}

static void quindici_tests(void) {
  scopa_state s;
  char msg[200];
  R = rules_of("capture=quindici");
  TEST("quindici-1.1", "RULES.md capture quindici: sets making 15 with the "
                       "card, single cards included (seed 001: a king "
                       "takes a two and a three, or a five)");
  s = position(&R, "10c", "2b", "2d 3s 5b 9c", 3);
  CHECK_EQ_STR(legal_text(&s), "10cx2d+3s 10cx5b");
  TEST("quindici-1.2", "RULES.md capture quindici: the same rank is no "
                       "capture by itself");
  s = position(&R, "5c", "2b", "5d", 3);
  CHECK_EQ_STR(legal_text(&s), "5c");
  TEST("quindici-1.3", "RULES.md capture quindici with fewest_cards");
  R = rules_of("capture=quindici fewest_cards=true");
  s = position(&R, "10c", "2b", "2d 3s 5b 9c", 3);
  CHECK_EQ_STR(legal_text(&s), "10cx5b");
  TEST("quindici-1.4", "RULES.md capture quindici with mandatory_capture "
                       "false");
  R = rules_of("capture=quindici mandatory_capture=false");
  s = position(&R, "10c", "2b", "5b", 3);
  CHECK_EQ_STR(legal_text(&s), "10c 10cx5b");
  TEST("quindici-2.1", "RULES.md quindici with ace_sweeps: an ace that can "
                       "sweep only sweeps");
  R = rules_of("capture=quindici ace_sweeps=true");
  s = position(&R, "1c", "2b", "4d 10s 3b", 3);
  CHECK_EQ_STR(legal_text(&s), "1cx3b+4d+10s");
  TEST("quindici-2.2", "RULES.md quindici with ace_sweeps: with an ace on "
                       "the table, the quindici rule");
  s = position(&R, "1c", "2b", "1d 4d 10s 3b", 3);
  CHECK_EQ_STR(legal_text(&s), "1cx1d+3b+10s 1cx4d+10s");
  CHECK(scopa_state_check(&s, move_of("1cx1d"), NULL, msg, sizeof msg) ==
        SCOPA_EILLEGAL);
  CHECK(strstr(msg, "not 15") != NULL);
}

static void refill_tests(void) {
  scopa_state s;
  uint8_t deck[40];
  scopa_move moves[SCOPA_MAX_MOVES];
  TEST("refill-1.1", "RULES.md refill 1: after the first hand a seat draws "
                     "one card at the start of its turn and plays it");
  R = rules_of("refill=1");
  for (int i = 0; i < 40; i++)
    deck[i] = (uint8_t)i;
  scopa_state_deal(&s, &R, 1, deck, NULL, 0);
  for (int k = 0; k < 6; k++) {
    int n = scopa_state_legal(&s, moves, SCOPA_MAX_MOVES);
    CHECK(n > 0);
    scopa_state_play(&s, moves[0]);
  }
  /* Seat 0 leads again and has drawn deck[10], the top of the stock. */
  CHECK_EQ_INT(scopa_state_to_play(&s), 0);
  CHECK(s.hand[0] == SCOPA_BIT(deck[10]));
  CHECK(s.hand[1] == 0);
  CHECK_EQ_INT(scopa_state_stock(&s), 29);
  int n = scopa_state_legal(&s, moves, SCOPA_MAX_MOVES);
  for (int i = 0; i < n; i++)
    CHECK_EQ_INT(SCOPA_MOVE_CARD(moves[i]), deck[10]);
  scopa_state_play(&s, moves[0]);
  CHECK(s.hand[1] == SCOPA_BIT(deck[11]));
  TEST("refill-1.2", "RULES.md refill 1: the round still has 36 plays");
  while (!scopa_state_over(&s)) {
    n = scopa_state_legal(&s, moves, SCOPA_MAX_MOVES);
    scopa_state_play(&s, moves[n - 1]);
  }
  CHECK_EQ_INT(s.plays, 36);
}

/* One illegal move, or one unreadable one, and what the library says of
 * it in each language. */
typedef struct worded {
  const char *options, *hand, *table, *move; /* move NULL: the round over */
  int first;                                 /* the round's first play   */
  const char *en, *it;
} worded;

static const worded WORDED[] = {
    {"", "8c", "1d 3s 4b 8s", "8cx1d+3s+4b", 0,
     "8c cannot capture 1d+3s+4b while 8s is on the table",
     "8c non può prendere 1d+3s+4b finché in tavola c'è 8s"},
    {"", "8c", "8d 8s 2b", "8cx2b", 0,
     "8c cannot capture 2b while 8d or 8s is on the table",
     "8c non può prendere 2b finché in tavola c'è 8d o 8s"},
    {"", "6c", "2d 4s", "6cx2d", 0,
     "6c cannot capture 2d: they add up to 2, not 6",
     "6c non può prendere 2d: la somma fa 2, non 6"},
    {"fewest_cards=true", "9c", "1d 3s 5b 4c", "9cx1d+3s+5b", 0,
     "9c must capture with the fewest cards (2), not 3 (fewest_cards)",
     "9c deve prendere il minor numero di carte (2), non 3 (fewest_cards)"},
    {"max_capture=2", "9c", "1d 3s 5b", "9cx1d+3s+5b", 0,
     "9c cannot capture 1d+3s+5b: a capture takes at most 2 cards "
     "(max_capture)",
     "9c non può prendere 1d+3s+5b: una presa prende al più 2 carte "
     "(max_capture)"},
    {"", "6c", "2d 4s", "6c", 0,
     "6c can capture (6cx2d+4s), so it cannot be laid on the table",
     "6c può prendere (6cx2d+4s), quindi non si può lasciare sul tavolo"},
    {"", "6c", "2d 4s", "6cx2d+4b+5b", 0,
     "6c cannot capture 4b and 5b: not on the table",
     "6c non può prendere 4b e 5b: non è in tavola"},
    {"", "6c", "2d 4s", "7cx2d", 0, "7c is not in the hand of the seat to play",
     "7c non è nella mano di chi gioca"},
    {"ace_sweeps=true", "1c", "3d 4s", "1cx3d", 0,
     "1c is an ace that sweeps the whole table (ace_sweeps), not 3d",
     "1c è un asso che prende tutto il tavolo (ace_sweeps), non 3d"},
    {"ace_sweeps=true ace_sweep_with_ace=choice", "1c", "1d 3d 4s", "1cx3d", 0,
     "1c is an ace that sweeps the whole table (ace_sweeps) or captures by "
     "the rule in force, not 3d",
     "1c è un asso che prende tutto il tavolo (ace_sweeps) o prende secondo "
     "la regola in vigore, non 3d"},
    {"ace_sweeps=true ace_first_play=no_ace", "1c 5b", "3d 4s", "1cx3d+4s", 1,
     "1c: the first play may not be an ace unless every card in the hand is "
     "one (ace_first_play no_ace)",
     "1c: la prima giocata non può essere un asso, a meno che in mano non ci "
     "siano solo assi (ace_first_play no_ace)"},
    {"capture=quindici", "10c", "2d 4s", "10cx2d", 0,
     "10c cannot capture 2d: with 10c they make 12, not 15",
     "10c non può prendere 2d: con 10c fanno 12, non 15"},
    {"", "6c", "2d 4s", NULL, 0, "the round is over: no more moves",
     "la mano è finita: non ci sono altre mosse"},
};

/* Text that is no move, and what the parser says of it. */
static const char *const UNREADABLE[][3] = {
    {"", "empty move", "mossa vuota"},
    {"7zx1c", "'7z' in move '7zx1c' is not a card",
     "'7z' nella mossa '7zx1c' non è una carta"},
    {"7dx3c+3c", "move '7dx3c+3c' names 3c twice",
     "la mossa '7dx3c+3c' nomina 3c due volte"},
};

/* Rules that cannot be played, as a record or a server's create gives
 * them, and what the library says of them (RULES.md "Game records", last
 * paragraph; "End of the game"). */
static const char *const UNPLAYABLE[][3] = {
    {"[]", "\"rules\" must be a JSON object",
     "\"rules\" deve essere un oggetto JSON"},
    {"{\"speed\":1}", "unknown rules option \"speed\"",
     "non c'è un'opzione delle regole \"speed\""},
    {"{\"napola\":1}", "rules option \"napola\" must be true or false",
     "l'opzione delle regole \"napola\" vale true o false"},
    {"{\"target\":\"11\"}", "rules option \"target\" must be a whole number",
     "l'opzione delle regole \"target\" vale un numero intero"},
    {"{\"leftovers\":\"me\"}",
     "rules option \"leftovers\" must be one of \"last_capture\", "
     "\"dealer\", \"nobody\"",
     "l'opzione delle regole \"leftovers\" vale uno fra \"last_capture\", "
     "\"dealer\", \"nobody\""},
    {"{\"players\":5}", "rules option 'players' cannot be 5",
     "l'opzione delle regole 'players' non può valere 5"},
    /* A game that would not end in any sitting (issue 22, item 10: a
     * target of 1,000,000,000 was taken before). */
    {"{\"target\":1000000000}",
     "rules option 'target' cannot be 1000000000: it goes from 1 to 1000",
     "l'opzione delle regole 'target' non può valere 1000000000: va da 1 "
     "a 1000"},
    {"{\"all_sevens\":2147483647}",
     "rules option 'all_sevens' cannot be 2147483647: it goes from 0 to 100",
     "l'opzione delle regole 'all_sevens' non può valere 2147483647: va da "
     "0 a 100"},
    {"{\"players\":3,\"teams\":true}", "'Teams' needs 4 or 6 players, not 3",
     "'A squadre' vuole 4 o 6 giocatori, non 3"},
    {"{\"players\":4,\"teams\":true,\"team_size\":3}",
     "'Team size' 3 needs 6 players in teams",
     "'Giocatori per squadra' 3 vuole 6 giocatori in squadre"},
    {"{\"game\":\"scopone\",\"players\":6,\"teams\":true}",
     "6 players only play scopa, not scopone",
     "in 6 si gioca solo a scopa, non a scopone"},
    {"{\"game\":\"scopone\",\"teams\":false}",
     "scopone is played by 4 players in two teams",
     "a scopone si gioca in 4, in due squadre"},
    {"{\"game\":\"scopone\",\"refill\":1}",
     "'Cards drawn' 1 is only for scopa, not scopone",
     "'Carte pescate' 1 vale solo per la scopa, non per scopone"},
    {"{\"ace_first_play\":\"no_ace\"}",
     "'Ace on the first play' needs 'Ace sweeps (asso piglia tutto)' on",
     "'Asso alla prima giocata' vuole 'Asso piglia tutto' attivo"},
    {"{\"single_match_first\":false,\"capture\":\"quindici\"}",
     "'Same rank first' off is only for 'Capture' match",
     "'Prima la carta uguale' spento vale solo con 'Presa' match"},
    {"{\"game\":\"scopone_scientifico\",\"deal_bonus\":\"fifteen\"}",
     "'Deal bonus (15)' needs table cards: not with scopone_scientifico",
     "'Bonus di mano (15)' vuole carte in tavola: non con "
     "scopone_scientifico"},
    {"{\"win_by_two\":true,\"tiebreak\":\"count_order\"}",
     "'Win by two' and 'Tie-break' count_order cannot be combined",
     "'Vincere di due' e 'Spareggio' count_order non vanno insieme"},
    {"{\"lowest_wins\":true,\"cappotto\":21}",
     "'Lowest wins (a perdere)' cannot be combined with 'Cappotto'",
     "'Vince chi ha meno (a perdere)' non va insieme a 'Cappotto'"},
    {"{\"lowest_wins\":true,\"tiebreak\":\"count_order_on_tie\"}",
     "'Lowest wins (a perdere)' cannot be combined with 'Tie-break' "
     "count_order_on_tie",
     "'Vince chi ha meno (a perdere)' non va insieme a 'Spareggio' "
     "count_order_on_tie"},
};

static void words_tests(void) {
  char msg[256];
  scopa_move m;
  TEST("words-1.1", "RULES.md A turn: a move against the rules is refused "
                    "with the reason, in English and in Italian");
  for (size_t i = 0; i < sizeof WORDED / sizeof WORDED[0]; i++) {
    const worded *w = &WORDED[i];
    R = rules_of(w->options);
    scopa_state s = position(&R, w->hand, "", w->table, 3);
    if (w->first)
      s.plays = 0;
    if (!w->move)
      s.to_play = SCOPA_NO_SEAT;
    scopa_move mv = w->move ? move_of(w->move) : 0;
    int rc = scopa_state_check(&s, mv, NULL, msg, sizeof msg);
    CHECK(rc != SCOPA_OK);
    CHECK_EQ_STR(msg, w->en);
    CHECK(scopa_state_check(&s, mv, "en", msg, sizeof msg) == rc);
    CHECK_EQ_STR(msg, w->en);
    CHECK(scopa_state_check(&s, mv, "it", msg, sizeof msg) == rc);
    CHECK_EQ_STR(msg, w->it);
  }
  TEST("words-1.2", "RULES.md Game records: move notation; a move that "
                    "cannot be read is named, in English and in Italian");
  for (size_t i = 0; i < sizeof UNREADABLE / sizeof UNREADABLE[0]; i++) {
    CHECK(scopa_move_parse(UNREADABLE[i][0], NULL, &m, msg, sizeof msg) ==
          SCOPA_ENOTATION);
    CHECK_EQ_STR(msg, UNREADABLE[i][1]);
    CHECK(scopa_move_parse(UNREADABLE[i][0], "it", &m, msg, sizeof msg) ==
          SCOPA_ENOTATION);
    CHECK_EQ_STR(msg, UNREADABLE[i][2]);
  }
  CHECK(scopa_move_parse("7dx3c+4s", "it", &m, msg, sizeof msg) == SCOPA_OK);
  CHECK(m == move_of("7dx3c+4s"));
  TEST("words-1.3", "RULES.md Game records: rules that cannot be played are "
                    "refused with the reason, in English and in Italian");
  for (size_t i = 0; i < sizeof UNPLAYABLE / sizeof UNPLAYABLE[0]; i++) {
    const char *json = UNPLAYABLE[i][0];
    scopa_rules r;
    CHECK(scopa_rules_from_json(&r, json, strlen(json), NULL, msg,
                                sizeof msg) == SCOPA_ERULES);
    CHECK_EQ_STR(msg, UNPLAYABLE[i][1]);
    CHECK(scopa_rules_from_json(&r, json, strlen(json), "en", msg,
                                sizeof msg) == SCOPA_ERULES);
    CHECK_EQ_STR(msg, UNPLAYABLE[i][1]);
    CHECK(scopa_rules_from_json(&r, json, strlen(json), "it", msg,
                                sizeof msg) == SCOPA_ERULES);
    CHECK_EQ_STR(msg, UNPLAYABLE[i][2]);
  }
  scopa_rules r;
  scopa_rules_init(&r);
  CHECK(scopa_rules_set_text(&r, "refill", "2", "it", msg, sizeof msg) ==
        SCOPA_ERULES);
  CHECK_EQ_STR(msg, "l'opzione delle regole 'refill' non può valere 2");
  CHECK(scopa_rules_set_text(&r, "napola", "yes", "it", msg, sizeof msg) ==
        SCOPA_ERULES);
  CHECK_EQ_STR(msg, "l'opzione delle regole 'napola' non può valere 'yes'");
  CHECK(scopa_rules_set(&r, "speed", 1, "it", msg, sizeof msg) == SCOPA_ERULES);
  CHECK_EQ_STR(msg, "non c'è un'opzione delle regole 'speed'");
  CHECK(scopa_rules_from_json(&r, "{", 1, "it", msg, sizeof msg) ==
        SCOPA_EJSON);
  CHECK(strncmp(msg, "non è JSON valido: ", 20) == 0);
  /* lang is read as scopa_card_name reads it: "it-IT" is Italian too, in
   * the JSON reader's words as in the rules checks' */
  CHECK(scopa_rules_from_json(&r, "{\"speed\":1}", 11, "it-IT", msg,
                              sizeof msg) == SCOPA_ERULES);
  CHECK_EQ_STR(msg, "non c'è un'opzione delle regole \"speed\"");
  CHECK(scopa_rules_from_json(&r, UNPLAYABLE[0][0], strlen(UNPLAYABLE[0][0]),
                              "it-IT", msg, sizeof msg) == SCOPA_ERULES);
  CHECK_EQ_STR(msg, UNPLAYABLE[0][2]);
  /* and the good rules still read, in either language */
  CHECK(scopa_rules_from_json(&r, "{\"target\":21}", 13, "it", msg,
                              sizeof msg) == SCOPA_OK);
  CHECK_EQ_INT(r.target, 21);
  TEST("words-1.4", "a refusal names the options by label for people, by "
                    "name for programs (scopa_rules_check_options)");
  static const char *const ABOUT[][3] = {
      {"{\"ace_first_play\":\"no_ace\"}", "ace_first_play", "ace_sweeps"},
      {"{\"ace_empty_table\":\"taken\"}", "ace_empty_table", "ace_sweeps"},
      {"{\"lowest_wins\":true,\"cappotto\":21}", "lowest_wins", "cappotto"},
      {"{\"players\":3,\"teams\":true}", "teams", "players"},
      {"{\"game\":\"scopone\",\"refill\":1}", "refill", "game"},
  };
  for (size_t i = 0; i < sizeof ABOUT / sizeof ABOUT[0]; i++) {
    const char *names[2] = {"x", "x"};
    CHECK(scopa_rules_from_json(&r, ABOUT[i][0], strlen(ABOUT[i][0]), NULL, msg,
                                sizeof msg) == SCOPA_ERULES);
    CHECK_EQ_INT(scopa_rules_check_options(&r, names), 2);
    CHECK_EQ_STR(names[0], ABOUT[i][1]);
    CHECK_EQ_STR(names[1], ABOUT[i][2]);
    /* the message has the labels, not the names */
    CHECK(strstr(msg, scopa_option_label(names[0], "en")) != NULL);
    CHECK(strstr(msg, names[0]) == NULL);
  }
  {
    const char *names[2] = {"x", "x"};
    scopa_rules_init(&r);
    CHECK_EQ_INT(scopa_rules_check_options(&r, names), 0);
    CHECK(names[0] == NULL && names[1] == NULL);
  }
  CHECK_EQ_STR(scopa_option_label("ace_sweeps", "it"), "Asso piglia tutto");
  CHECK_EQ_STR(scopa_option_label("ace_sweeps", NULL),
               "Ace sweeps (asso piglia tutto)");
  CHECK_EQ_STR(scopa_option_label("speed", "it"), "speed");
  CHECK_EQ_STR(scopa_option_group("ace_sweeps"), "aces");
  CHECK_EQ_STR(scopa_option_group("speed"), "game");
  for (int i = 0; i < scopa_option_count(); i++) {
    const char *name = scopa_option_get(i)->name;
    CHECK(strcmp(scopa_option_label(name, "en"), name) != 0);
    CHECK(strcmp(scopa_option_label(name, "it"), name) != 0 ||
          !strcmp(name, "primiera") || !strcmp(name, "napola") ||
          !strcmp(name, "cappotto"));
  }
}

int main(void) {
  words_tests();
  cards_tests();
  deal_tests();
  capture_tests();
  scopa_tests();
  assi_tests();
  quindici_tests();
  refill_tests();
  return test_summary("rules");
}
