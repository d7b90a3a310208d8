/*
 * test_tourney_game.c -- what a finished game counts for in a tournament
 * (tourney_game.c): random games played through the library's match to
 * their end, stored as the store keeps them, read back: the winner is
 * the match's, each deal's points add up to the totals, and a side that
 * abandoned lost whatever the score.  Names: tourney-game-N
 * (docs/serve.md "Tournaments"; RULES.md "End of the game").
 */
#include "../../src/server/game.h"
#include "../../src/server/tourney_game.h"
#include "../../src/server/tourney_rules.h"
#include "../test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole random game of seed `seed` into g (moves malloc'd). */
static int play(const char *seed, store_game *g, int *winner) {
  scopa_rules rules;
  char msg[256];
  memset(g, 0, sizeof *g);
  snprintf(g->code, sizeof g->code, "G%s", seed);
  snprintf(g->seed, sizeof g->seed, "%s", seed);
  g->rules_json = "{\"game\":\"scopa\",\"players\":2}";
  g->nseats = 2;
  g->seat[0].kind = g->seat[1].kind = STORE_PERSON;
  if (scopa_rules_from_json(&rules, g->rules_json, strlen(g->rules_json), NULL,
                            msg, sizeof msg) != SCOPA_OK)
    return -1;
  scopa_match *m = NULL;
  if (game_match(&rules, seed, g->seat, 2, &m, msg, sizeof msg))
    return -1;
  g->moves = calloc(4000, sizeof *g->moves);
  unsigned x = (unsigned)strtoul(seed, NULL, 16) | 1;
  while (g->moves && scopa_match_phase(m) != SCOPA_MATCH_OVER &&
         g->nmoves < 4000) {
    if (scopa_match_phase(m) == SCOPA_MATCH_DEAL) {
      scopa_match_deal(m, NULL);
      continue;
    }
    scopa_move legal[SCOPA_MAX_MOVES];
    int n = scopa_state_legal(scopa_match_state(m), legal, SCOPA_MAX_MOVES);
    x = x * 1103515245u + 12345u;
    scopa_move mv = legal[(x >> 8) % (unsigned)n];
    if (scopa_match_apply(m, mv, NULL, msg, sizeof msg))
      break;
    g->moves[g->nmoves++] = mv;
  }
  *winner = scopa_match_tally(m)->winner;
  int over = scopa_match_phase(m) == SCOPA_MATCH_OVER;
  scopa_match_free(m);
  g->finished = over;
  return over ? 0 : -1;
}

int main(void) {
  char msg[256];
  TEST("tourney-game-1", "RULES.md End of the game: the match's winner, "
                         "deal by deal");
  int wins[2] = {0, 0};
  for (int i = 0; i < 40; i++) {
    char seed[33];
    snprintf(seed, sizeof seed, "%08x%08x", 0x5c0fa000u + i, 7u * i + 1);
    store_game g;
    int winner = -2;
    CHECK(play(seed, &g, &winner) == 0);
    tg_result r;
    CHECK(tg_read(&g, &r, msg, sizeof msg) == 0);
    CHECK(r.result == (winner == 0 ? TR_A_WON : TR_B_WON));
    wins[winner == 0 ? 0 : 1]++;
    int sum[2] = {0, 0};
    for (int d = 0; d < r.ndeals; d++)
      for (int s = 0; s < 2; s++) {
        CHECK(r.points[d][s] >= 0);
        sum[s] += r.points[d][s];
      }
    CHECK(sum[0] == r.totals[0] && sum[1] == r.totals[1]);
    CHECK(r.totals[winner] >= 11 && r.totals[winner] > r.totals[1 - winner]);
    TEST("tourney-game-2", "a side that abandoned lost, whatever the score");
    g.abandoned = 1 << winner;
    CHECK(tg_read(&g, &r, msg, sizeof msg) == 0 &&
          r.result == (winner == 0 ? TR_B_WON : TR_A_WON));
    g.abandoned = 3;
    CHECK(tg_read(&g, &r, msg, sizeof msg) == 0 && r.result == TR_BOTH_LOST);
    g.finished = 0;
    CHECK(tg_read(&g, &r, msg, sizeof msg) == -1 && strstr(msg, "finished"));
    g.finished = 1;
    g.nmoves -= 1; /* its last move lost: the game does not end */
    CHECK(tg_read(&g, &r, msg, sizeof msg) == -1);
    free(g.moves);
  }
  CHECK(wins[0] > 0 && wins[1] > 0);
  return test_summary("test_tourney_game");
}
