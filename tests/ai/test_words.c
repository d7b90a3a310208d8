/*
 * test_words.c -- moves in words (scopa.h "Moves in words"): the reasons
 * scopa_move_why finds on positions built by hand (a scopa, the
 * settebello, a table left open to a sweep, a move that leaves none, the
 * settebello left to a 7), the sentences of a move in English and
 * Italian with both decks' names, amounts of points and what a loss
 * means.
 */
#include "scopa.h"
#include "test.h"

#include <math.h>
#include <string.h>

/* Seat 0's view at the first play of a 2-player round (dealer 1): the
 * table and the hand as given, in notation. */
static void view_of(scopa_view *v, const char *const table[4],
                    const char *const hand[3]) {
  scopa_rules r;
  scopa_rules_preset(&r, "scopa");
  scopa_cards t = 0;
  uint8_t dealt[3];
  for (int i = 0; i < 4; i++)
    t |= SCOPA_BIT(scopa_card_parse(table[i]));
  for (int i = 0; i < 3; i++)
    dealt[i] = (uint8_t)scopa_card_parse(hand[i]);
  char msg[200] = "";
  int rc = scopa_view_build(v, &r, 0, 1, t, dealt, 3, NULL, 0, NULL, msg,
                            sizeof msg);
  if (rc != SCOPA_OK)
    fprintf(stderr, "view: %s\n", msg);
  CHECK(rc == SCOPA_OK);
}

static scopa_move mv(const char *text) {
  scopa_move m = 0;
  CHECK(scopa_move_parse(text, NULL, &m, NULL, 0) == SCOPA_OK);
  return m;
}

static void check_words(scopa_move m, const char *lang, const char *deck,
                        const char *want) {
  char buf[200];
  size_t n = scopa_move_words(m, lang, deck, buf, sizeof buf);
  if (strcmp(buf, want))
    fprintf(stderr, "got \"%s\", want \"%s\"\n", buf, want);
  CHECK(!strcmp(buf, want));
  CHECK(n == strlen(want));
}

static const char *const TABLE[4] = {"7d", "3c", "5s", "1b"};
static const char *const HAND[3] = {"7c", "8b", "4d"};

static void test_reasons(void) {
  scopa_view v;
  scopa_why w;
  view_of(&v, TABLE, HAND);

  TEST("words-1.1", "the settebello taken, the table left open to a 9");
  CHECK(scopa_move_why(&v, mv("7cx7d"), &w) == SCOPA_OK);
  CHECK(w.reasons ==
        (SCOPA_WHY_SETTEBELLO | SCOPA_WHY_SEVENS | SCOPA_WHY_OPENS));
  CHECK(w.sum == 9 && w.rank == 9 && w.cards == 2 && w.coins == 1 &&
        w.sevens == 2);
  char buf[300];
  scopa_why_words(&w, 1, "en", NULL, buf, sizeof buf);
  CHECK(!strcmp(buf, "takes the settebello, but leaves 9 on the table: a "
                     "horse would make a scopa"));
  scopa_why_words(&w, 0, "it", SCOPA_DECK_FRENCH, buf, sizeof buf);
  CHECK(!strcmp(buf, "lascia 9 in tavola: una donna farebbe scopa"));
  scopa_why_words(&w, 9, "it", NULL, buf, sizeof buf);
  CHECK(!strcmp(buf, "prende il settebello, prende un sette per la "
                     "primiera, ma lascia 9 in tavola: un cavallo farebbe "
                     "scopa"));

  TEST("words-1.2", "no sweep left while others would: safe; the "
                    "settebello left to a 7");
  CHECK(scopa_move_why(&v, mv("4dx3c+1b"), &w) == SCOPA_OK);
  CHECK(w.reasons == (SCOPA_WHY_SAFE | SCOPA_WHY_GIVES_SETTEBELLO |
                      SCOPA_WHY_COINS | SCOPA_WHY_CARDS));
  CHECK(w.rank == 7 && w.coins == 1 && w.cards == 3);
  CHECK(scopa_move_why(&v, mv("4d"), &w) == SCOPA_EINVAL); /* must take */

  TEST("words-1.3", "a scopa is a scopa; an illegal move is refused");
  static const char *const T2[4] = {"2c", "3s", "1b", "4d"};
  static const char *const H2[3] = {"10c", "6b", "9s"};
  view_of(&v, T2, H2);
  CHECK(scopa_move_why(&v, mv("10cx1b+2c+3s+4d"), &w) == SCOPA_OK);
  CHECK(w.reasons & SCOPA_WHY_SCOPA);
  CHECK(!(w.reasons & SCOPA_WHY_OPENS));
  CHECK(scopa_move_why(&v, mv("10cx4d"), &w) == SCOPA_EINVAL);
  CHECK(w.reasons == 0);
  CHECK(!strcmp(scopa_why_code(SCOPA_WHY_BIT_OPENS), "opens"));
  CHECK(scopa_why_code(SCOPA_WHY_COUNT) == NULL);
}

static void test_sentences(void) {
  TEST("words-2.1", "moves as sentences, both languages, both decks");
  check_words(mv("7cx7d"), "en", NULL,
              "Take the 7 of coins with your 7 of cups");
  check_words(mv("7cx7d"), "it", NULL,
              "Prendi il 7 di denari con il tuo 7 di coppe");
  check_words(mv("4dx3c+1b"), "it", NULL,
              "Prendi l'asso di bastoni e il 3 di coppe con il tuo 4 di "
              "denari");
  check_words(mv("4dx3c+1b"), "en", SCOPA_DECK_FRENCH,
              "Take the ace of clubs and the 3 of hearts with your 4 of "
              "diamonds");
  check_words(mv("9cx2s+3c+4b"), "it", SCOPA_DECK_FRENCH,
              "Prendi il 2 di picche, il 3 di cuori e il 4 di fiori con la "
              "tua donna di cuori");
  check_words(mv("5s"), "en", NULL, "Lay the 5 of swords on the table");
  check_words(mv("10b"), "it", "napoletane", "Cala il re di bastoni");

  TEST("words-2.2", "moves as played, for the last move's line");
  char said[200];
  CHECK(scopa_played_words(mv("7cx7d"), "en", NULL, said, sizeof said) ==
        strlen("takes the 7 of coins with the 7 of cups"));
  CHECK(!strcmp(said, "takes the 7 of coins with the 7 of cups"));
  scopa_played_words(mv("9cx2s+3c+4b"), "it", SCOPA_DECK_FRENCH, said,
                     sizeof said);
  CHECK(!strcmp(said, "prende il 2 di picche, il 3 di cuori e il 4 di fiori "
                      "con la donna di cuori"));
  scopa_played_words(mv("1b"), "it", NULL, said, sizeof said);
  CHECK(!strcmp(said, "cala l'asso di bastoni"));
  scopa_played_words(mv("5s"), "en", NULL, said, sizeof said);
  CHECK(!strcmp(said, "lays the 5 of swords on the table"));
  char small[8];
  size_t n = scopa_move_words(mv("7cx7d"), "en", NULL, small, sizeof small);
  CHECK(n == strlen("Take the 7 of coins with your 7 of cups"));
  CHECK(strlen(small) == 7);
}

static void check_points(double p, const char *lang, const char *want) {
  char buf[80];
  scopa_points_words(p, lang, buf, sizeof buf);
  if (strcmp(buf, want))
    fprintf(stderr, "%g: got \"%s\", want \"%s\"\n", p, buf, want);
  CHECK(!strcmp(buf, want));
}

static void test_amounts(void) {
  TEST("words-3.1", "points as a person says them");
  check_points(0.75, "en", "about 3/4 of a point");
  check_points(0.74, "it", "circa 3/4 di punto");
  check_points(0.5, "en", "about half a point");
  check_points(0.27, "it", "circa un quarto di punto");
  check_points(1.02, "en", "about a point");
  check_points(1.5, "en", "about 1 and a half points");
  check_points(1.5, "it", "circa 1 punto e mezzo");
  check_points(2.6, "en", "about 2 and a half points");
  check_points(3.0, "it", "circa 3 punti");
  check_points(0.05, "en", "almost nothing");
  check_points(NAN, "en", "almost nothing");
  /* a rank from outside (a message's "why") that no card has: said as a
   * number, never read past the names */
  char said[160];
  scopa_why odd = {.reasons = SCOPA_WHY_OPENS, .sum = 9, .rank = 40};
  scopa_why_words(&odd, 2, "en", NULL, said, sizeof said);
  CHECK(strstr(said, "a 40 would make a scopa") != NULL);
  odd.rank = 12;
  scopa_why_words(&odd, 2, "it", "francesi", said, sizeof said);
  CHECK(strstr(said, "un 12 farebbe scopa") != NULL);
  /* a value from outside (a message's cost), past any game: bounded */
  check_points(6.7e18, "en", "about 1000000 points");
  check_points(-1e300, "it", "circa 1000000 punti");

  TEST("words-3.2", "a loss in words, with its doubt");
  char buf[300];
  scopa_loss_words(1.3, 0.2, SCOPA_MARK_BLUNDER, "en", buf, sizeof buf);
  CHECK(strstr(buf, "blunder") && strstr(buf, "almost surely") &&
        strstr(buf, "about 1 and a quarter points on average"));
  scopa_loss_words(0.6, 0.2, SCOPA_MARK_SLIP, "it", buf, sizeof buf);
  CHECK(strstr(buf, "svista") && strstr(buf, "circa mezzo punto"));
  scopa_loss_words(0.3, 0.25, SCOPA_MARK_NONE, "en", buf, sizeof buf);
  CHECK(strstr(buf, "It may have cost about a quarter of a point") &&
        strstr(buf, "margin"));
  scopa_loss_words(0.02, 0.1, SCOPA_MARK_NONE, "en", buf, sizeof buf);
  CHECK(!strcmp(buf, "As good as the best move"));
  scopa_loss_words(NAN, NAN, SCOPA_MARK_NONE, "it", buf, sizeof buf);
  CHECK(strstr(buf, "Nessuna stima") != NULL);

  /* issue 34: a hint said "a close call" of a next move losing 0.40 to
   * 0.47 points, because it weighed the loss less its margin */
  TEST("words-3.3", "a hint's other moves in words, by their loss");
  double loss[] = {0.47, 0.42, NAN}, margin[] = {0.3, 0.45, NAN};
  scopa_hint_others_words(0.2, loss, margin, 3, "en", buf, sizeof buf);
  CHECK(!strcmp(buf, "Any other move costs about half a point on average, "
                     "give or take 0.45."));
  scopa_hint_others_words(0.2, loss, margin, 1, "it", buf, sizeof buf);
  CHECK(!strcmp(buf, "Ogni altra mossa costa circa mezzo punto in media."));
  double near[] = {0.05}, wide[] = {0.5};
  scopa_hint_others_words(0.2, near, wide, 1, "en", buf, sizeof buf);
  CHECK(strstr(buf, "a close call") != NULL);
  scopa_hint_others_words(NAN, NULL, NULL, 0, "en", buf, sizeof buf);
  CHECK(!strcmp(buf, "It is your only move."));
  scopa_hint_others_words(0.2, loss + 2, margin + 2, 1, "en", buf, sizeof buf);
  CHECK(strstr(buf, "No estimate") != NULL);
  scopa_hint_others_words(NAN, loss, margin, 1, "en", buf, sizeof buf);
  CHECK(strstr(buf, "No estimate") != NULL);
}

int main(void) {
  test_reasons();
  test_sentences();
  test_amounts();
  return test_summary("words");
}
