/*
 * support.c -- the functions of scopa.h's "JSON shapes" section that are
 * neither a reader nor a writer: struct sizes (of every layer's structs,
 * so it sits at the top), scopa_free, legal moves as text.  The readers
 * and writers are in src/json (read.c, write.c).
 */
#include "engine.h"
#include "json_shapes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t scopa_sizeof(const char *type) {
  static const struct {
    const char *name;
    size_t size;
  } SIZES[] = {
      {"rules", sizeof(scopa_rules)},
      {"state", sizeof(scopa_state)},
      {"view", sizeof(scopa_view)},
      {"score", sizeof(scopa_score)},
      {"tally", sizeof(scopa_tally)},
      {"game", sizeof(scopa_tally)},
      {"rng", sizeof(scopa_rng)},
      {"replay", sizeof(scopa_replay)},
      {"fault", sizeof(scopa_fault)},
      {"bot_limits", sizeof(scopa_bot_limits)},
      {"hint", sizeof(scopa_hint)},
      {"hint_info", sizeof(scopa_hint_info)},
      {"env_config", sizeof(scopa_env_config)},
      {"why", sizeof(scopa_why)}, /* what a move does (scopa_move_why) */
  };
  for (size_t i = 0; type && i < sizeof SIZES / sizeof *SIZES; i++)
    if (strcmp(SIZES[i].name, type) == 0)
      return SIZES[i].size;
  return 0;
}

void scopa_free(void *p) { free(p); }

char *scopa_state_legal_text(const scopa_state *state) {
  int cap = 256, n;
  scopa_move *moves = malloc(sizeof *moves * (size_t)cap);
  if (!moves)
    return NULL;
  n = scopa_state_legal(state, moves, cap);
  if (n > cap) {
    scopa_move *more = realloc(moves, sizeof *moves * (size_t)n);
    if (!more) {
      free(moves);
      return NULL;
    }
    moves = more;
    scopa_state_legal(state, moves, n);
  }
  char *text = malloc((size_t)n * SCOPA_MOVE_TEXT + 1), *p = text;
  if (text) {
    *p = 0;
    for (int i = 0; i < n; i++) {
      if (i)
        *p++ = ' ';
      scopa_move_str(moves[i], p);
      p += strlen(p);
    }
  }
  free(moves);
  return text;
}
