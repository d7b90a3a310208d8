/*
 * review.c -- review.h.  The game is dealt again from its rounds' decks
 * on a new match and every move applied in order; before each, the
 * mover's view is valued by the bot (scopa_bot_evaluate), so the review
 * sees each position exactly as the mover did.
 */
#include "review.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static json_t *one_move(scopa_match *m, scopa_bot *bot, uint64_t nodes,
                        scopa_move played) {
  static _Thread_local scopa_move moves[SCOPA_MAX_MOVES];
  static _Thread_local double values[SCOPA_MAX_MOVES];
  char a[SCOPA_MOVE_TEXT], b[SCOPA_MOVE_TEXT];
  scopa_view v;
  int seat = scopa_match_to_play(m);
  scopa_match_view(m, seat, &v);
  scopa_bot_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.seed = scopa_match_bot_seed(m);
  lim.nodes = nodes;
  int n = scopa_bot_evaluate(bot, &v, &lim, moves, values, SCOPA_MAX_MOVES);
  double best = n > 0 ? values[0] : 0, value = best;
  for (int i = 0; i < n && i < SCOPA_MAX_MOVES; i++)
    if (moves[i] == played)
      value = values[i];
  return json_pack("{s:i, s:s, s:s, s:f, s:f}", "seat", seat, "move",
                   scopa_move_str(played, a), "best",
                   n > 0 ? scopa_move_str(moves[0], b) : a, "value", value,
                   "loss", best - value > 0 ? best - value : 0.0);
}

char *review_json(const scopa_match *game, scopa_bot *bot, uint64_t nodes) {
  const scopa_rules *rules = scopa_match_rules(game);
  scopa_seat seats[SCOPA_MAX_SEATS];
  for (int i = 0; i < rules->players; i++)
    scopa_match_seat(game, i, &seats[i], NULL);
  scopa_match *m = NULL;
  const char *seed = scopa_match_seed(game);
  if (scopa_match_new(rules, seats, seed[0] ? seed : NULL, &m, NULL, 0))
    return NULL;
  json_t *rounds = json_array();
  for (int r = 0; rounds && r < scopa_match_rounds(game); r++) {
    const scopa_replay_round *rr = scopa_match_round(game, r);
    if (scopa_match_deal_deck(m, rr->deck, NULL, NULL, 0) != SCOPA_OK)
      break;
    json_t *moves = json_array();
    for (int k = 0; k < rr->nmoves; k++) {
      json_array_append_new(moves, one_move(m, bot, nodes, rr->moves[k]));
      if (scopa_match_apply(m, rr->moves[k], NULL, NULL, 0) != SCOPA_OK)
        break;
    }
    json_array_append_new(
        rounds, json_pack("{s:i, s:o}", "dealer", rr->dealer, "moves", moves));
  }
  scopa_match_free(m);
  json_t *o = json_pack("{s:o*}", "rounds", rounds);
  char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
  json_decref(o);
  return text;
}
