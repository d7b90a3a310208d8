/*
 * test_perft.c -- the perft correctness gate (Stockfish's perft, for
 * cards): for fixed decks of each game type, with all hands known, the
 * number of distinct move sequences to a fixed depth.  The counts live in
 * tests/data/perft.txt; the independent Python reference computes the same
 * counts (tests/oracle/perft.py), so a change that moves one says so.
 *
 *   test_perft                 check every line of tests/data/perft.txt
 *   test_perft --generate      print fresh lines for the cases below
 */
#include "../test.h"
#include "helpers.h"

static long long perft(const scopa_state *s, int depth) {
  if (depth == 0 || scopa_state_over(s))
    return 1;
  scopa_move moves[SCOPA_MAX_MOVES];
  int n = scopa_state_legal(s, moves, SCOPA_MAX_MOVES);
  long long total = 0;
  for (int i = 0; i < n; i++) {
    scopa_state next = *s;
    scopa_state_play(&next, moves[i]);
    total += perft(&next, depth - 1);
  }
  return total;
}

/* One case: name, rules words, dealer, depth, the seed of its deck. */
static const struct {
  const char *name, *rules;
  int dealer, depth;
  uint64_t seed;
} CASES[] = {
    {"scopa-2p", "", 0, 12, 1},
    {"scopa-2p-late", "", 1, 12, 2},
    {"scopa-3p-assi", "players=3 ace_sweeps=true", 2, 10, 3},
    {"scopa-4p-teams-quindici", "players=4 teams=true capture=quindici", 0, 7,
     4},
    {"scopa-free-lay", "mandatory_capture=false", 1, 7, 5},
    {"scopa-fewest", "fewest_cards=true refill=1", 0, 14, 6},
    {"scopone", "game=scopone", 3, 5, 7},
    {"scientifico", "game=scopone_scientifico", 2, 5, 8},
};

static void generate(void) {
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    scopa_rules r = rules_of(CASES[i].rules);
    scopa_rng rng;
    scopa_state s;
    scopa_rng_seed(&rng, CASES[i].seed);
    scopa_state_deal_random(&s, &r, CASES[i].dealer, &rng);
    char deck[200] = "", c[SCOPA_CARD_TEXT];
    for (int k = 0; k < 40; k++) {
      strcat(deck, k ? " " : "");
      strcat(deck, scopa_card_str(s.deck[k], c));
    }
    printf("%s|%s|%d|%d|%lld|%s\n", CASES[i].name, CASES[i].rules,
           CASES[i].dealer, CASES[i].depth, perft(&s, CASES[i].depth), deck);
  }
}

static void check_line(char *line) {
  char *f[6];
  for (int i = 0; i < 6; i++)
    f[i] = strsep(&line, "|");
  if (!f[5])
    return;
  f[5][strcspn(f[5], "\n")] = 0;
  TEST(f[0], "perft count kept in tests/data/perft.txt");
  scopa_rules r = rules_of(f[1]);
  uint8_t deck[40];
  int k = 0;
  for (char *w = strtok(f[5], " "); w && k < 40; w = strtok(NULL, " "))
    deck[k++] = (uint8_t)card_of(w);
  scopa_state s;
  CHECK_EQ_INT(k, 40);
  CHECK_EQ_INT(scopa_state_deal(&s, &r, atoi(f[2]), deck, NULL, 0), SCOPA_OK);
  CHECK_EQ_INT(perft(&s, atoi(f[3])), atoll(f[4]));
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--generate") == 0) {
    generate();
    return 0;
  }
  FILE *fp = fopen("tests/data/perft.txt", "r");
  char line[1024];
  TEST("perft-0", "the perft file is there");
  CHECK(fp != NULL);
  while (fp && fgets(line, sizeof line, fp))
    if (line[0] != '#')
      check_line(line);
  if (fp)
    fclose(fp);
  return test_summary("perft");
}
