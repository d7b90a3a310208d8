/*
 * test_sim.c -- random games under random option combinations, with the
 * invariants checked at every step (in the spirit of SQLite's
 * fuzzinvariants.c):
 *   - every card is in exactly one place (hands, table, piles, stock);
 *   - hands have the sizes the deal gives; a legal move exists until the
 *     round ends, and every listed move passes the checker, once;
 *   - moves that are not listed fail the checker;
 *   - a seat's view rebuilt from what it was told equals its view, and a
 *     world sampled from it agrees with everything the seat knows;
 *   - round points add up; parse(print(x)) == x for moves and for whole
 *     records, which replay to the same scores.
 */
#include "../test.h"
#include "helpers.h"
#include "internal.h"

#include <string.h>

static scopa_rng rng;

static scopa_rules random_rules(void) {
  static const char *const words[] = {
      "players=3", "players=4", "players=4 teams=true", "refill=1",
      "kings_redeal=false", "mandatory_capture=false", "fewest_cards=true",
      "ace_sweeps=true", "ace_sweep_scopa=false", "capture=quindici",
      "primiera=faces_zero", "primiera=sevens", "primiera=off", "re_bello=true",
      "napola=true", "target=5", "tiebreak=count_order", "win_by_two=true",
      "cappotto=4", "game=scopone", "game=scopone_scientifico",
      /* the variants of RULES.md */
      "players=6", "players=6 teams=true", "players=6 teams=true team_size=3",
      "deal_bonus=fifteen", "single_match_first=false", "max_capture=2",
      "last_card_scopa=true", "ace_sweeps=true ace_sweep_with_ace=yes",
      "ace_sweeps=true "
      "ace_sweep_with_ace=choice",
      "ace_sweeps=true ace_first_play=no_sweep",
      "ace_sweeps=true ace_first_play=no_ace",
      "ace_sweeps=true ace_empty_table=taken",
      "ace_sweeps=true ace_sweep_optional=true", "leftovers=dealer",
      "leftovers=nobody", "primiera=sum", "primiera=complete_only",
      "most_sevens=true", "all_sevens=2", "all_coins_wins=true",
      "lowest_wins=true", "tiebreak=count_order_on_tie",
      "game=scopone_scientifico ace_sweeps=true "
      "ace_sweep_scopa=false napola=true "
      "target=31 all_coins_wins=true",
      "capture=quindici primiera=off "
      "most_sevens=true deal_bonus=fifteen "
      "target=21"};
  for (;;) {
    scopa_rules r;
    scopa_rules_init(&r);
    int n = (int)scopa_rng_below(&rng, 5);
    for (int i = 0; i < n; i++) {
      char buf[128];
      snprintf(buf, sizeof buf, "%s",
               words[scopa_rng_below(&rng, sizeof words / sizeof words[0])]);
      for (char *w = strtok(buf, " "); w; w = strtok(NULL, " ")) {
        char *eq = strchr(w, '=');
        *eq = 0;
        scopa_rules_set_text(&r, w, eq + 1, NULL, NULL, 0);
      }
    }
    if (scopa_rules_check(&r, NULL, NULL, 0) == SCOPA_OK)
      return r;
  }
}

static void check_places(const scopa_state *s) {
  scopa_cards seen = s->table, stock = 0;
  int overlap = 0;
  for (int i = s->next; i < 40; i++)
    stock |= SCOPA_BIT(s->deck[i]);
  overlap |= (seen & stock) != 0;
  seen |= stock;
  for (int i = 0; i < s->players; i++) {
    overlap |= (seen & s->hand[i]) != 0;
    seen |= s->hand[i];
  }
  for (int i = 0; i < s->sides; i++) {
    overlap |= (seen & s->pile[i]) != 0;
    seen |= s->pile[i];
  }
  CHECK(!overlap);
  CHECK(seen == SCOPA_ALL_CARDS);
}

static void check_hands(const scopa_state *s) {
  if (scopa_state_over(s)) {
    for (int i = 0; i < s->players; i++)
      CHECK(s->hand[i] == 0);
    CHECK_EQ_INT(scopa_state_stock(s), 0);
    return;
  }
  int seat = s->to_play, sizes = 0;
  CHECK(s->hand[seat] != 0);
  for (int i = 0; i < s->players; i++) {
    int n = __builtin_popcountll(s->hand[i]);
    sizes += n;
    /* Seats that already played this turn round hold one card less. */
    int max = s->rules.refill == 1                ? 3
              : s->rules.game == SCOPA_GAME_SCOPA ? 3
                                                  : 10;
    CHECK(n <= max);
  }
  CHECK_EQ_INT(sizes,
               s->next - __builtin_popcountll(s->initial_table) - s->plays);
}

static void check_legal(const scopa_state *s, const scopa_move *moves, int n) {
  char msg[200];
  CHECK(n > 0);
  for (int i = 0; i < n; i++) {
    CHECK_EQ_INT(scopa_state_check(s, moves[i], NULL, msg, sizeof msg),
                 SCOPA_OK);
    for (int j = 0; j < i; j++)
      CHECK(moves[i] != moves[j]);
    char text[SCOPA_MOVE_TEXT];
    scopa_move back;
    scopa_move_str(moves[i], text);
    CHECK(scopa_move_parse(text, NULL, &back, NULL, 0) == SCOPA_OK &&
          back == moves[i]);
  }
  /* Random moves of a held card: legal iff listed (when all are). */
  if (n == SCOPA_MAX_MOVES)
    return;
  for (int k = 0; k < 6; k++) {
    scopa_cards hand = s->hand[s->to_play];
    int pick = (int)scopa_rng_below(&rng, (uint32_t)__builtin_popcountll(hand));
    while (pick--)
      hand &= hand - 1;
    scopa_cards takes = s->table & scopa_rng_next(&rng);
    scopa_move m = SCOPA_MOVE(__builtin_ctzll(hand), takes);
    int listed = 0;
    for (int i = 0; i < n; i++)
      listed |= moves[i] == m;
    int rc = scopa_state_check(s, m, NULL, msg, sizeof msg);
    CHECK_EQ_INT(rc == SCOPA_OK, listed);
    if (rc != SCOPA_OK)
      CHECK(msg[0] != 0);
  }
}

static void check_view(const scopa_state *s) {
  int seat = s->to_play;
  scopa_view v, w;
  char msg[200];
  scopa_view_of(s, seat, NULL, &v);
  /* What the seat was told: its dealt cards in deck order. */
  uint8_t dealt[40];
  int nd = 0;
  for (int i = 0; i < s->next; i++)
    if (s->dealt[seat] & SCOPA_BIT(s->deck[i]))
      dealt[nd++] = s->deck[i];
  int rc =
      scopa_view_build(&w, &s->rules, seat, s->dealer, s->initial_table, dealt,
                       nd, s->moves, s->plays, NULL, msg, sizeof msg);
  CHECK_EQ_INT(rc, SCOPA_OK);
  if (rc != SCOPA_OK)
    fprintf(stderr, "view_build: %s\n", msg);
  else
    CHECK(memcmp(&v, &w, sizeof v) == 0);
  CHECK(!(v.unseen & (v.hand | v.table)));
  scopa_state x;
  scopa_view_sample(&v, &rng, &x);
  check_places(&x);
  CHECK(x.hand[seat] == s->hand[seat]);
  CHECK(x.table == s->table);
  CHECK_EQ_INT(x.to_play, s->to_play);
  for (int i = 0; i < s->players; i++)
    CHECK_EQ_INT(__builtin_popcountll(x.hand[i]),
                 __builtin_popcountll(s->hand[i]));
  scopa_move a[SCOPA_MAX_MOVES], b[SCOPA_MAX_MOVES];
  CHECK_EQ_INT(scopa_state_legal(&x, a, SCOPA_MAX_MOVES),
               scopa_view_legal(&v, b, SCOPA_MAX_MOVES));
  /* The sampled world is one where the seat's view is the same. */
  scopa_view_of(&x, seat, NULL, &w);
  CHECK(memcmp(&v, &w, sizeof v) == 0);
}

static void check_score(const scopa_state *s, const scopa_score *sc) {
  int cards = 0;
  for (int i = 0; i < sc->sides; i++) {
    int sum = 0;
    for (int c = 0; c < SCOPA_CAT_COUNT; c++)
      sum += sc->side[i].points[c];
    CHECK_EQ_INT(sc->side[i].total, sum);
    cards += sc->side[i].cards;
  }
  CHECK_EQ_INT(cards + __builtin_popcountll(s->table), 40);
}

/* Plays one game with random moves; checks the record round-trips. */
static void play_game(int g) {
  scopa_rules r = random_rules();
  scopa_tally game;
  scopa_record *rec = scopa_record_new(&r, NULL);
  scopa_tally_init(&game, &r, (int)scopa_rng_below(&rng, (uint32_t)r.players));
  int rounds = 0;
  while (!game.finished && rounds < 8) {
    scopa_state s;
    scopa_move moves[SCOPA_MAX_MOVES];
    scopa_state_deal_random(&s, &r, game.dealer, &rng);
    scopa_record_round(rec, game.dealer, s.deck);
    while (!scopa_state_over(&s)) {
      check_places(&s);
      check_hands(&s);
      if (s.plays % 5 == g % 5)
        check_view(&s);
      int n = scopa_state_legal(&s, moves, SCOPA_MAX_MOVES);
      if (n > SCOPA_MAX_MOVES) /* tables built up past the buffer */
        n = SCOPA_MAX_MOVES;
      check_legal(&s, moves, n);
      scopa_move m = moves[scopa_rng_below(&rng, (uint32_t)n)];
      scopa_record_move(rec, m);
      CHECK_EQ_INT(scopa_state_apply(&s, m, NULL, 0), SCOPA_OK);
    }
    check_places(&s);
    check_hands(&s);
    CHECK_EQ_INT(s.plays, scopa_state_total_plays(&s));
    scopa_score sc;
    CHECK_EQ_INT(scopa_state_score(&s, &sc), SCOPA_OK);
    check_score(&s, &sc);
    scopa_tally_add(&game, &sc);
    rounds++;
  }
  /* parse(print(record)) replays to the same game. */
  char *text = scopa_record_json(rec);
  scopa_replay rp;
  scopa_fault f;
  int rc = scopa_replay_text(text, strlen(text), &rp, &f);
  CHECK_EQ_INT(rc, SCOPA_OK);
  if (rc != SCOPA_OK) {
    fprintf(stderr, "replay: round %d move %d: %s\n", f.round, f.move,
            f.message);
  } else {
    CHECK_EQ_INT(rp.nrounds, rounds);
    CHECK_EQ_INT(rp.game.finished, game.finished);
    CHECK_EQ_INT(rp.game.winner, game.winner);
    for (int i = 0; i < game.sides; i++)
      CHECK_EQ_INT(rp.game.totals[i], game.totals[i]);
    scopa_record *again = scopa_record_from_replay(&rp);
    char *text2 = scopa_record_json(again);
    CHECK_EQ_STR(text2, text);
    free(text2);
    scopa_record_free(again);
    scopa_replay_free(&rp);
  }
  free(text);
  scopa_record_free(rec);
}

/* A random set of n cards out of `from`. */
static scopa_cards random_cards(scopa_cards from, int n) {
  scopa_cards set = 0;
  while (n-- > 0 && from) {
    int pick = (int)scopa_rng_below(&rng, (uint32_t)__builtin_popcountll(from));
    scopa_cards rest = from;
    while (pick--)
      rest &= rest - 1;
    scopa_cards bit = rest & -rest;
    set |= bit;
    from &= ~bit;
  }
  return set;
}

/* Move generation for whole hands, whose default-rules loop takes
 * shortcuts (pairs and triples summed directly, stores without checks
 * when there is room), against the card-by-card search the checker
 * uses, on positions play rarely reaches: hands of up to ten cards,
 * tables of up to sixteen, and every room from none to enough. */
static void check_hand_moves(int cases) {
  for (int k = 0; k < cases; k++) {
    /* The default rules half the time (the lean loop), any rules else. */
    scopa_rules r = random_rules();
    if (scopa_rng_below(&rng, 2))
      scopa_rules_preset(&r, "scopa");
    r.mandatory_capture = scopa_rng_below(&rng, 4) != 0;
    int first = (int)scopa_rng_below(&rng, 2);
    scopa_cards hand =
        random_cards(SCOPA_ALL_CARDS, 1 + (int)scopa_rng_below(&rng, 10));
    scopa_cards table =
        random_cards(SCOPA_ALL_CARDS & ~hand, (int)scopa_rng_below(&rng, 17));
    scopa_move all[SCOPA_MAX_MOVES], some[SCOPA_MAX_MOVES + 1];
    int n = scopa__hand_moves(&r, hand, table, first, all, SCOPA_MAX_MOVES);
    if (n > SCOPA_MAX_MOVES) /* a table built on purpose: too many to list */
      continue;
    /* The same moves, card by card (in any order within a card). */
    int m = 0;
    FOR_EACH_CARD(c, hand) {
      int got = scopa__card_moves(&r, c, table, first, hand, some,
                                  SCOPA_MAX_MOVES - m);
      for (int i = 0; i < got && m + i < n; i++) {
        int found = 0;
        for (int j = 0; j < got && m + j < n; j++)
          found |= all[m + j] == some[i];
        CHECK(found);
      }
      m += got;
    }
    CHECK_EQ_INT(n, m);
    /* Less room: the same count, the first moves, nothing written past. */
    int cap = (int)scopa_rng_below(&rng, (uint32_t)n + 2);
    some[cap] = 0x5A5A;
    CHECK_EQ_INT(scopa__hand_moves(&r, hand, table, first, some, cap), n);
    for (int i = 0; i < cap && i < n; i++)
      CHECK(some[i] == all[i]);
    CHECK(some[cap] == 0x5A5A);
  }
}

/* scopa_state_playout plays the round the legal-and-play loop plays with
 * the same random draws, under random rules. */
static void check_playouts(int rounds) {
  for (int k = 0; k < rounds; k++) {
    scopa_rules r = random_rules();
    scopa_state a, b;
    scopa_state_deal_random(
        &a, &r, (int)scopa_rng_below(&rng, (uint32_t)r.players), &rng);
    b = a;
    scopa_rng ra = rng, rb = rng;
    int plays = scopa_state_playout(&a, &ra);
    scopa_move moves[SCOPA_MAX_MOVES];
    while (!scopa_state_over(&b)) {
      int n = scopa_state_legal(&b, moves, SCOPA_MAX_MOVES);
      if (n > SCOPA_MAX_MOVES)
        n = SCOPA_MAX_MOVES;
      scopa_state_play(&b, moves[scopa_rng_below(&rb, (uint32_t)n)]);
    }
    CHECK(scopa_state_over(&a));
    CHECK_EQ_INT(plays, b.plays);
    CHECK_EQ_INT(a.plays, b.plays);
    CHECK(memcmp(a.moves, b.moves, sizeof(scopa_move) * b.plays) == 0);
    for (int i = 0; i < b.sides; i++)
      CHECK(a.pile[i] == b.pile[i] && a.scope[i] == b.scope[i]);
    CHECK(memcmp(&ra, &rb, sizeof ra) == 0);
    CHECK_EQ_INT(scopa_state_playout(&a, &ra), 0);
    rng = ra;
  }
}

int main(int argc, char **argv) {
  int games = argc > 1 ? atoi(argv[1]) : 1000;
  scopa_rng_seed(&rng, argc > 2 ? strtoull(argv[2], NULL, 10) : 20261122);
  TEST("sim-1.1", "random games under random rules: invariants at every "
                  "step");
  for (int g = 0; g < games; g++)
    play_game(g);
  TEST("sim-1.2", "RULES.md \"A turn\": a whole hand's moves are the moves "
                  "of its cards, with any room for them");
  check_hand_moves(games * 20);
  TEST("sim-1.3", "scopa_state_playout: the round legal moves chosen by "
                  "the same draws would play");
  check_playouts(games);
  return test_summary("sim");
}
