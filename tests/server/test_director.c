/*
 * test_director.c -- the tournaments' director's pass (director.c) on a
 * real SQLite store: a due Swiss of 4 starts and gets a table for each
 * game, its seats the entries' accounts, nobody sitting; the games are
 * played to their end through the library's match and stored as the
 * server stores them; the next pass reads their results and makes the
 * next round's tables, never a repeated pairing; a duplicate round
 * deals every table the same seed.  Names: director-N (docs/serve.md
 * "Tournaments").
 */
#include "../../src/server/director.h"
#include "../../src/server/game.h"
#include "../../src/server/tourney_rules.h"
#include "../../src/server/tourney_state.h"
#include "../test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int next_code = 0;
static int code_of(char code[STORE_CODE_MAX + 1]) {
  snprintf(code, STORE_CODE_MAX + 1, "TC%04d", ++next_code);
  return 0;
}

static director_table seen[64];
static int nseen = 0;
static void made(void *arg, const director_table *t) {
  (void)arg;
  if (t->fresh && nseen < 64)
    seen[nseen++] = *t;
}

/* Game `code` played to its end with random legal moves, stored. */
static int play_out(store *st, const char *code) {
  store_game g;
  char msg[256];
  scopa_match *m = NULL;
  if (store_load(st, code, &g, msg, sizeof msg) ||
      game_load(&g, &m, msg, sizeof msg))
    return -1;
  unsigned x = 12345u + (unsigned)strlen(code) * 7u + (unsigned)code[5];
  int number = 0;
  while (scopa_match_phase(m) != SCOPA_MATCH_OVER && number < 4000) {
    if (scopa_match_phase(m) == SCOPA_MATCH_DEAL) {
      scopa_match_deal(m, NULL);
      continue;
    }
    scopa_move legal[SCOPA_MAX_MOVES];
    int n = scopa_state_legal(scopa_match_state(m), legal, SCOPA_MAX_MOVES);
    x = x * 1103515245u + 12345u;
    scopa_move mv = legal[(x >> 8) % (unsigned)n];
    if (scopa_match_apply(m, mv, NULL, msg, sizeof msg) ||
        store_add_move(st, code, number++, mv, 0, 0))
      return -1;
  }
  scopa_match_free(m);
  store_game_free(&g);
  return store_finish(st, code, 0) || store_commit(st, msg, sizeof msg);
}

static int add_tourney(store *st, const char *id, const char *create) {
  ts_error err;
  char msg[256];
  json_t *m = json_loads(create, 0, NULL);
  json_t *s =
      ts_new(id, m, "{\"game\":\"scopa\",\"players\":2}", 1, 1000, &err);
  json_decref(m);
  for (int i = 1; s && i <= 4; i++) {
    char name[8];
    snprintf(name, sizeof name, "p%d", i);
    ts_join(s, 100 + i, name, 1500, &err);
  }
  char *text = s ? json_dumps(s, JSON_COMPACT) : NULL;
  store_tourney t = {
      .status = STORE_T_UPCOMING, .created_ms = 1000, .state = text};
  snprintf(t.id, sizeof t.id, "%s", id);
  int rc =
      !text || store_tourney_put(st, &t) || store_commit(st, msg, sizeof msg);
  free(text);
  json_decref(s);
  return rc ? -1 : 0;
}

int main(void) {
  char path[] = "/tmp/scopa-test-director-XXXXXX", msg[256];
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  store *st = NULL;
  CHECK(store_open(path, &st, msg, sizeof msg) == 0);
  TEST("director-1", "a due Swiss starts: a table per game, the accounts' "
                     "seats");
  CHECK(add_tourney(st, "SW1",
                    "{\"format\":\"swiss\",\"rounds\":3,"
                    "\"starts_in\":10}") == 0);
  CHECK(director_pass(st, 5000, code_of, made, NULL) == 1 && nseen == 0);
  CHECK(director_pass(st, 11000, code_of, made, NULL) == 1 && nseen == 2);
  store_game g;
  CHECK(store_load(st, seen[0].code, &g, msg, sizeof msg) == 0);
  CHECK(!strcmp(g.tourney, "SW1") && g.nseats == 2 &&
        g.seat[0].kind == STORE_PERSON &&
        g.seat[0].account == seen[0].account[0] &&
        g.seat[1].account == seen[0].account[1] && g.seat[0].name[0] == 'p' &&
        g.seat[0].token_sha256[0] == 0 && g.nmoves == 0);
  store_game_free(&g);
  CHECK(director_pass(st, 12000, code_of, made, NULL) == 1 && nseen == 2);

  TEST("director-2", "the results read, the next rounds made, no repeats");
  long long met[3][2][2];
  for (int round = 0; round < 3; round++) {
    CHECK(nseen == 2);
    for (int k = 0; k < 2; k++) {
      met[round][k][0] = seen[k].account[0];
      met[round][k][1] = seen[k].account[1];
      CHECK(play_out(st, seen[k].code) == 0);
    }
    nseen = 0;
    CHECK(director_pass(st, 13000 + round, code_of, made, NULL) == 1);
  }
  CHECK(nseen == 0);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 2; k++)
      for (int q = 0; q < r; q++)
        for (int j = 0; j < 2; j++) {
          long long a = met[r][k][0], b = met[r][k][1];
          CHECK(!((a == met[q][j][0] && b == met[q][j][1]) ||
                  (a == met[q][j][1] && b == met[q][j][0])));
        }
  store_tourney row;
  CHECK(store_tourney_get(st, "SW1", &row) == 0 &&
        row.status == STORE_T_FINISHED);
  json_t *state = json_loads(row.state, 0, NULL);
  json_t *view = ts_view(state, 0);
  json_t *top = json_array_get(json_object_get(view, "standings"), 0);
  CHECK(json_number_value(json_object_get(top, "points")) >= 2.0);
  json_t *g0 = json_array_get(json_object_get(state, "games"), 0);
  CHECK(json_array_size(json_object_get(g0, "deals")) >= 1);
  json_decref(view);
  json_decref(state);
  free(row.state);

  TEST("director-3", "duplicate: every table of a round has one seed");
  CHECK(add_tourney(st, "DU1",
                    "{\"format\":\"duplicate\",\"rounds\":1,"
                    "\"starts_in\":0}") == 0);
  CHECK(director_pass(st, 20000, code_of, made, NULL) == 1 && nseen == 2);
  store_game a, b;
  CHECK(store_load(st, seen[0].code, &a, msg, sizeof msg) == 0 &&
        store_load(st, seen[1].code, &b, msg, sizeof msg) == 0);
  CHECK(a.seed[0] && !strcmp(a.seed, b.seed));
  store_game_free(&a);
  store_game_free(&b);
  store_close(st);
  unlink(path);
  char side[sizeof path + 8];
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
  return test_summary("test_director");
}
