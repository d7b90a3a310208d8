/*
 * test_view.c -- hidden information (STYLE.md habit 6): a seat's view holds
 * nothing the seat may not know, a view rebuilt from what the seat was told
 * is checked (a view that cannot happen is an error), and sampled worlds
 * vary only in what the seat cannot see.
 */
#include "../test.h"
#include "helpers.h"

/* A 2-player round, dealer 1, a few moves in. */
static scopa_state started(int plays, scopa_rng *rng) {
  scopa_rules r = rules_of("");
  scopa_state s;
  scopa_move moves[SCOPA_MAX_MOVES];
  scopa_state_deal_random(&s, &r, 1, rng);
  while (s.plays < plays) {
    int n = scopa_state_legal(&s, moves, SCOPA_MAX_MOVES);
    scopa_state_play(&s, moves[scopa_rng_below(rng, (uint32_t)n)]);
  }
  return s;
}

static int dealt_of(const scopa_state *s, int seat, uint8_t *out) {
  int n = 0;
  for (int i = 0; i < s->next; i++)
    if (s->dealt[seat] & SCOPA_BIT(s->deck[i]))
      out[n++] = s->deck[i];
  return n;
}

/* The reason of `card` for seat 0 of position(rules, hand, "", table). */
static int reason_at(const char *rules, const char *hand, const char *table,
                     const char *card) {
  scopa_rules r = rules_of(rules);
  scopa_state s = position(&r, hand, "", table, 0);
  scopa_view v;
  scopa_view_of(&s, 0, NULL, &v);
  return scopa_view_card_reason(&v, card_of(card));
}

/* view-3.*: why a hand card plays as it does (scopa.h
 * scopa_view_card_reason), the library's and no front end's (issue 33;
 * the web client's choices() once decided these). */
static void card_reasons(scopa_rng *rng) {
  char buf[200];
  TEST("view-3.1", "RULES.md capture: a card of the same rank on the table "
                   "must be taken, not a sum: match_first; a card that "
                   "takes nothing is laid");
  CHECK_EQ_INT(reason_at("", "5s 2c", "5b 1c 4d 9s", "5s"),
               SCOPA_CARD_REASON_MATCH_FIRST);
  CHECK_EQ_INT(reason_at("", "5s 2c", "5b 1c 4d 9s", "2c"),
               SCOPA_CARD_REASON_LAY);
  /* no sum of table cards makes 5: the match is just a capture */
  CHECK_EQ_INT(reason_at("", "5s 2c", "5b 9s", "5s"),
               SCOPA_CARD_REASON_MUST_TAKE);
  /* single_match_first false: the sum is offered too, a choice */
  CHECK_EQ_INT(reason_at("single_match_first=false", "5s", "5b 1c 4d 9s", "5s"),
               SCOPA_CARD_REASON_CHOICE);
  TEST("view-3.2", "RULES.md mandatory_capture: a card that can take must "
                   "take; with false, taking or laying is a choice");
  CHECK_EQ_INT(reason_at("", "7d", "3c 4s", "7d"), SCOPA_CARD_REASON_MUST_TAKE);
  CHECK_EQ_INT(reason_at("mandatory_capture=false", "7d", "3c 4s", "7d"),
               SCOPA_CARD_REASON_CHOICE);
  CHECK_EQ_INT(reason_at("", "9d", "5c 1s 3b 4b", "9d"),
               SCOPA_CARD_REASON_CHOICE);
  TEST("view-3.3", "RULES.md ace_sweeps: an ace sweeps the table; on an "
                   "empty table under ace_empty_table taken it takes itself");
  CHECK_EQ_INT(reason_at("ace_sweeps=true", "1d", "5c 6s", "1d"),
               SCOPA_CARD_REASON_SWEEP);
  CHECK_EQ_INT(
      reason_at("ace_sweeps=true ace_empty_table=taken", "1d", "", "1d"),
      SCOPA_CARD_REASON_ACE_TAKEN);
  CHECK_EQ_INT(reason_at("ace_sweeps=true", "1d", "", "1d"),
               SCOPA_CARD_REASON_LAY);
  /* an ace under plain rules taking the ace alone: a capture, no sweep */
  CHECK_EQ_INT(reason_at("", "1d", "1c", "1d"), SCOPA_CARD_REASON_MUST_TAKE);
  TEST("view-3.4", "not playable: not in hand, not to play, or barred "
                   "(ace_first_play no_ace on the first play)");
  CHECK_EQ_INT(reason_at("", "7d", "3c 4s", "7c"),
               SCOPA_CARD_REASON_NOT_PLAYABLE);
  {
    scopa_rules r = rules_of("");
    scopa_state s = position(&r, "7d", "", "3c 4s", 0);
    scopa_view v;
    scopa_view_of(&s, 1, NULL, &v); /* seat 1 is not to play */
    int any = v.hand ? __builtin_ctzll(v.hand) : 0;
    CHECK_EQ_INT(scopa_view_card_reason(&v, any),
                 SCOPA_CARD_REASON_NOT_PLAYABLE);
    CHECK_EQ_INT(scopa_view_card_reason(&v, -1),
                 SCOPA_CARD_REASON_NOT_PLAYABLE);
    CHECK_EQ_INT(scopa_view_card_reason(&v, 40),
                 SCOPA_CARD_REASON_NOT_PLAYABLE);
  }
  {
    scopa_rules r = rules_of("ace_sweeps=true ace_first_play=no_ace");
    int barred = 0;
    for (int k = 0; k < 400 && !barred; k++) {
      scopa_state s;
      scopa_state_deal_random(&s, &r, 1, rng);
      scopa_cards h = s.hand[s.to_play], aces = h & SCOPA_RANK_CARDS(1);
      if (!aces || aces == h)
        continue;
      scopa_view v;
      scopa_view_of(&s, s.to_play, NULL, &v);
      CHECK_EQ_INT(scopa_view_card_reason(&v, __builtin_ctzll(aces)),
                   SCOPA_CARD_REASON_NOT_PLAYABLE);
      barred = 1;
    }
    CHECK(barred);
  }
  TEST("view-3.5", "every reason agrees with the legal moves of its card, "
                   "on 3000 random positions of every preset");
  static const char *const presets[] = {"scopa",    "scopone",  "scientifico",
                                        "assi",     "quindici", "escoba",
                                        "trentuno", "perdere"};
  int seen[SCOPA_CARD_REASON_COUNT] = {0};
  for (int k = 0; k < 3000; k++) {
    scopa_rules r;
    scopa_rules_preset(&r, presets[k % 8]);
    if (k % 3 == 1)
      r.mandatory_capture = 0;
    scopa_state s;
    scopa_move moves[SCOPA_MAX_MOVES];
    scopa_state_deal_random(&s, &r, 0, rng);
    for (int p = (int)scopa_rng_below(rng, 20);
         p > 0 && s.to_play != SCOPA_NO_SEAT; p--) {
      int n = scopa_state_legal(&s, moves, SCOPA_MAX_MOVES);
      scopa_state_play(&s, moves[scopa_rng_below(rng, (uint32_t)n)]);
    }
    if (s.to_play == SCOPA_NO_SEAT)
      continue;
    scopa_view v;
    scopa_view_of(&s, s.to_play, NULL, &v);
    int n = scopa_view_legal(&v, moves, SCOPA_MAX_MOVES);
    for (int c = 0; c < 40; c++) {
      if (!(v.hand & SCOPA_BIT(c)))
        continue;
      int mine = 0, takes = 0;
      for (int i = 0; i < n; i++)
        if (SCOPA_MOVE_CARD(moves[i]) == c) {
          mine++;
          takes += SCOPA_MOVE_TAKES(moves[i]) != 0;
        }
      int why = scopa_view_card_reason(&v, c);
      seen[why]++;
      int ok = mine == 0  ? why == SCOPA_CARD_REASON_NOT_PLAYABLE
               : mine > 1 ? why == SCOPA_CARD_REASON_CHOICE
               : takes    ? why == SCOPA_CARD_REASON_MUST_TAKE ||
                             why == SCOPA_CARD_REASON_MATCH_FIRST ||
                             why == SCOPA_CARD_REASON_SWEEP
                       : why == SCOPA_CARD_REASON_LAY ||
                             why == SCOPA_CARD_REASON_ACE_TAKEN;
      CHECK(ok);
    }
  }
  /* no preset bars an ace nor takes one alone (view-3.3, 3.4 do) */
  for (int i = SCOPA_CARD_REASON_LAY; i < SCOPA_CARD_REASON_COUNT; i++)
    if (i != SCOPA_CARD_REASON_ACE_TAKEN)
      CHECK(seen[i] > 0);
  TEST("view-3.6", "each reason has a code and words in both languages");
  for (int i = 0; i < SCOPA_CARD_REASON_COUNT; i++) {
    CHECK(scopa_card_reason_code(i) != NULL);
    CHECK(scopa_card_reason_words(i, card_of("5s"), "en", NULL, buf,
                                  sizeof buf) > 10);
    CHECK(buf[strlen(buf) - 1] == '.');
    CHECK(scopa_card_reason_words(i, card_of("5s"), "it", NULL, buf,
                                  sizeof buf) > 10);
  }
  CHECK(scopa_card_reason_code(SCOPA_CARD_REASON_COUNT) == NULL);
  CHECK(scopa_card_reason_code(-1) == NULL);
  CHECK_EQ_STR(scopa_card_reason_code(SCOPA_CARD_REASON_MATCH_FIRST),
               "match_first");
  scopa_card_reason_words(SCOPA_CARD_REASON_MATCH_FIRST, card_of("5s"), "en",
                          NULL, buf, sizeof buf);
  CHECK_EQ_STR(buf, "A card of the same rank is on the table: the 5 of "
                    "swords must take it, not a sum.");
  scopa_card_reason_words(SCOPA_CARD_REASON_MATCH_FIRST, card_of("5s"), "it",
                          "francesi", buf, sizeof buf);
  CHECK_EQ_STR(buf, "Sul tavolo c'è una carta dello stesso valore: il 5 di "
                    "picche deve prendere quella, non una somma.");
  CHECK_EQ_INT((int)scopa_card_reason_words(99, 0, "en", NULL, buf, sizeof buf),
               0);
  CHECK_EQ_STR(buf, "");
}

int main(void) {
  scopa_rng rng;
  scopa_rng_seed(&rng, 99);
  char msg[200];
  TEST("view-1.1", "a view does not change when hidden cards change");
  for (int k = 0; k < 200; k++) {
    scopa_state s = started(1 + k % 30, &rng), t = s;
    int seat = s.to_play;
    /* Swap the other hand with cards from the stock: unseen to `seat`. */
    int other = 1 - seat;
    scopa_cards stock = 0;
    for (int i = t.next; i < 40; i++)
      stock |= SCOPA_BIT(t.deck[i]);
    if (!stock || !t.hand[other])
      continue;
    int a = __builtin_ctzll(t.hand[other]), b = __builtin_ctzll(stock);
    t.hand[other] ^= SCOPA_BIT(a) | SCOPA_BIT(b);
    for (int i = t.next; i < 40; i++)
      if (t.deck[i] == b)
        t.deck[i] = (uint8_t)a;
    scopa_view v, w;
    scopa_view_of(&s, seat, NULL, &v);
    scopa_view_of(&t, seat, NULL, &w);
    CHECK(memcmp(&v, &w, sizeof v) == 0);
    CHECK(!(v.hand & v.unseen));
    CHECK(v.unseen & SCOPA_BIT(a));
  }
  TEST("view-2.1", "a view that cannot happen is an error: a card seen "
                   "twice");
  scopa_state s = started(4, &rng);
  uint8_t dealt[40];
  int nd = dealt_of(&s, s.to_play, dealt);
  scopa_view v;
  scopa_rules r = s.rules;
  CHECK_EQ_INT(scopa_view_build(&v, &r, s.to_play, s.dealer, s.initial_table,
                                dealt, nd, s.moves, s.plays, NULL, msg,
                                sizeof msg),
               SCOPA_OK);
  uint8_t twice[40];
  memcpy(twice, dealt, sizeof twice);
  twice[1] = twice[0];
  CHECK_EQ_INT(scopa_view_build(&v, &r, s.to_play, s.dealer, s.initial_table,
                                twice, nd, s.moves, s.plays, NULL, msg,
                                sizeof msg),
               SCOPA_EVIEW);
  CHECK(strstr(msg, "twice") != NULL);
  TEST("view-2.2", "a view that cannot happen is an error: a dealt card "
                   "on the table");
  twice[1] = (uint8_t)__builtin_ctzll(s.initial_table);
  CHECK_EQ_INT(scopa_view_build(&v, &r, s.to_play, s.dealer, s.initial_table,
                                twice, nd, s.moves, s.plays, NULL, msg,
                                sizeof msg),
               SCOPA_EVIEW);
  TEST("view-2.3", "a view that cannot happen is an error: too few or too "
                   "many dealt cards");
  CHECK_EQ_INT(scopa_view_build(&v, &r, s.to_play, s.dealer, s.initial_table,
                                dealt, nd - 1, s.moves, s.plays, NULL, msg,
                                sizeof msg),
               SCOPA_EVIEW);
  TEST("view-2.4", "a view that cannot happen is an error: an illegal move");
  scopa_move bad[40];
  memcpy(bad, s.moves, sizeof bad);
  /* The first move laid a card that could have captured, or took cards
   * that are not there: rewrite it to take a card not on the table. */
  bad[0] = SCOPA_MOVE(SCOPA_MOVE_CARD(bad[0]),
                      ~s.initial_table & ~SCOPA_BIT(SCOPA_MOVE_CARD(bad[0])) &
                          SCOPA_ALL_CARDS & (~0ull << 36));
  CHECK_EQ_INT(scopa_view_build(&v, &r, s.to_play, s.dealer, s.initial_table,
                                dealt, nd, bad, s.plays, NULL, msg, sizeof msg),
               SCOPA_EVIEW);
  TEST("view-2.5", "a view that cannot happen is an error: a table of the "
                   "wrong size, a seat out of range");
  CHECK_EQ_INT(scopa_view_build(&v, &r, s.to_play, s.dealer,
                                s.initial_table & (s.initial_table - 1), dealt,
                                nd, s.moves, s.plays, NULL, msg, sizeof msg),
               SCOPA_EVIEW);
  CHECK_EQ_INT(scopa_view_build(&v, &r, 2, s.dealer, s.initial_table, dealt, nd,
                                s.moves, s.plays, NULL, msg, sizeof msg),
               SCOPA_EVIEW);
  TEST("view-2.6", "random garbage views never crash and are refused or "
                   "consistent");
  for (int k = 0; k < 3000; k++) {
    uint8_t d[40];
    scopa_move m[40];
    int nd2 = (int)scopa_rng_below(&rng, 12),
        nm = (int)scopa_rng_below(&rng, 12);
    for (int i = 0; i < nd2; i++)
      d[i] = (uint8_t)scopa_rng_below(&rng, 41);
    for (int i = 0; i < nm; i++)
      m[i] = SCOPA_MOVE(scopa_rng_below(&rng, 40),
                        scopa_rng_next(&rng) & scopa_rng_next(&rng));
    scopa_cards table = scopa_rng_next(&rng) & SCOPA_ALL_CARDS;
    int rc = scopa_view_build(&v, &r, (int)scopa_rng_below(&rng, 3) - 0,
                              (int)scopa_rng_below(&rng, 2), table, d, nd2, m,
                              nm, NULL, msg, sizeof msg);
    CHECK(rc == SCOPA_OK || rc == SCOPA_EVIEW);
    if (rc != SCOPA_OK)
      CHECK(msg[0] != 0);
  }
  TEST("view-3.1", "sampled worlds keep the seat's hand, vary the rest");
  s = started(2, &rng);
  scopa_view_of(&s, s.to_play, NULL, &v);
  scopa_cards seen_other = 0;
  for (int k = 0; k < 100; k++) {
    scopa_state w;
    scopa_view_sample(&v, &rng, &w);
    CHECK(w.hand[s.to_play] == s.hand[s.to_play]);
    seen_other |= w.hand[1 - s.to_play];
  }
  /* Over 100 samples the other hand takes many different cards. */
  CHECK(__builtin_popcountll(seen_other) > 10);
  TEST("view-3.2", "a world that does not fit the view is refused");
  {
    scopa_state w;
    scopa_view_sample(&v, &rng, &w);
    int other = 1 - v.seat;
    scopa_cards hands[SCOPA_MAX_SEATS] = {0};
    uint8_t stock[40];
    hands[other] = w.hand[other];
    memcpy(stock, w.deck + w.next, v.stock);
    scopa_state x;
    CHECK_EQ_INT(scopa_view_world(&v, hands, stock, &x), SCOPA_OK);
    CHECK(memcmp(x.hand, w.hand, sizeof x.hand) == 0);
    hands[other] ^= SCOPA_BIT(__builtin_ctzll(hands[other]));
    CHECK_EQ_INT(scopa_view_world(&v, hands, stock, &x), SCOPA_EVIEW);
    hands[other] |= SCOPA_BIT(__builtin_ctzll(v.hand)); /* a card it holds */
    CHECK_EQ_INT(scopa_view_world(&v, hands, stock, &x), SCOPA_EVIEW);
    hands[other] = w.hand[other];
    stock[0] = stock[1];
    CHECK_EQ_INT(scopa_view_world(&v, hands, stock, &x), SCOPA_EVIEW);
  }
  card_reasons(&rng);
  return test_summary("view");
}
