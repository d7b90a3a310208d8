/*
 * review.c -- the post-game review (scopa.h scopa_match_review_json):
 * every move of a game valued from its player's view (what that seat knew
 * then, never the hidden cards) by a bot's evaluation, next to the best
 * move there was; the points a choice cost are the best move's value
 * minus the value of the move played.  Costly moves are marked.
 *
 * The game is played again through a fresh scopa_match, so each position
 * is seen exactly as it was.  The bot works by a node budget, so the same
 * game and options give the same review on any machine.  `scopa review`
 * prints it; `scopa serve` sends it to the web client.
 */
#include "engine.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Marks: a move that cost at least SLIP is "?", at least BLUNDER "??".
 * Values are expected points of the round for the mover's side. */
#define SLIP 0.3
#define BLUNDER 1.0

static const char *mark_of(double cost) {
  return cost >= BLUNDER ? "??" : cost >= SLIP ? "?" : "";
}

/* In a 2-player round with the stock empty, the mover can count every
 * card: the evaluation then sees the one world there is. */
static int exact_view(const scopa_view *v) {
  return v->players == 2 && v->stock == 0;
}

/* The value of the move played and of the best one, from the view of the
 * seat to play; NULL when the bot cannot answer. */
static json_t *value_move(scopa_bot *bot, const scopa_match *m, uint64_t nodes,
                          scopa_move played, int ply, double *cost) {
  scopa_move *moves = malloc(SCOPA_MAX_MOVES * sizeof *moves);
  double *values = malloc(SCOPA_MAX_MOVES * sizeof *values);
  json_t *out = NULL;
  scopa_view v;
  int seat = scopa_match_to_play(m);
  scopa_match_view(m, seat, &v);
  scopa_bot_limits lim = {.seed = scopa_match_bot_seed(m), .nodes = nodes};
  int n = moves && values ? scopa_bot_evaluate(bot, &v, &lim, moves, values,
                                               SCOPA_MAX_MOVES)
                          : -1;
  if (n > 0) {
    double value = values[0];
    for (int i = 0; i < n && i < SCOPA_MAX_MOVES; i++)
      if (moves[i] == played)
        value = values[i];
    /* No estimate (NAN: the bot valued no world): no cost is claimed. */
    int estimated = isfinite(value) && isfinite(values[0]);
    *cost = estimated && values[0] - value > 0 ? values[0] - value : 0;
    char a[SCOPA_MOVE_TEXT], b[SCOPA_MOVE_TEXT];
    out = json_pack(
        "{s:i, s:i, s:s, s:o, s:s, s:o, s:f, s:f, s:s, s:i, s:b, s:b}", "ply",
        ply, "seat", seat, "move", scopa_move_str(played, a), "value",
        estimated ? json_real(value) : json_null(), "best",
        scopa_move_str(moves[0], b), "best_value",
        estimated ? json_real(values[0]) : json_null(), "cost", *cost, "loss",
        *cost, "mark", mark_of(*cost), "choices", n, "exact", exact_view(&v),
        "estimated", estimated);
  }
  free(moves);
  free(values);
  return out;
}

static int review_rounds(const scopa_match *game, scopa_bot *bot,
                         uint64_t nodes, int seat, json_t *rounds, double *cost,
                         int *marked) {
  scopa_match *m = NULL;
  int nrounds = scopa_match_rounds(game), rc = SCOPA_ENOMEM;
  if (scopa_match_new(scopa_match_rules(game), NULL, NULL, &m, NULL, 0))
    return rc;
  if (nrounds)
    scopa_match_set_first_dealer(m, scopa_match_round(game, 0)->dealer);
  for (int r = 0; r < nrounds; r++) {
    const scopa_replay_round *rr = scopa_match_round(game, r);
    json_t *moves = json_array();
    json_array_append_new(rounds,
                          json_pack("{s:i, s:i, s:o}", "round", r, "dealer",
                                    rr->dealer, "moves", moves));
    if (scopa_match_deal_deck(m, rr->deck, NULL, NULL, 0) != SCOPA_OK)
      goto done;
    for (int i = 0; i < rr->nmoves; i++) {
      int mover = scopa_match_to_play(m);
      double c = 0;
      if (seat < 0 || seat == mover) {
        json_t *one = value_move(bot, m, nodes, rr->moves[i], i, &c);
        if (!one)
          goto done;
        json_array_append_new(moves, one);
        cost[mover] += c;
        marked[mover] += c >= SLIP;
      }
      if (scopa_match_apply(m, rr->moves[i], NULL, NULL, 0) != SCOPA_OK)
        goto done;
    }
  }
  rc = SCOPA_OK;
done:
  scopa_match_free(m);
  return rc;
}

char *scopa_match_review_json(const scopa_match *game, scopa_bot *bot,
                              uint64_t nodes, int seat, char *msg,
                              size_t msgsize) {
  int players = scopa_match_rules(game)->players;
  double cost[SCOPA_MAX_SEATS] = {0};
  int marked[SCOPA_MAX_SEATS] = {0};
  if (!nodes || seat < -1 || seat >= players) {
    scopa__engine_msg(msg, msgsize, "%s",
                      !nodes ? "the review needs a node budget"
                             : "the game has no such seat");
    return NULL;
  }
  json_t *rounds = json_array(), *seats = json_array();
  int rc = review_rounds(game, bot, nodes, seat, rounds, cost, marked);
  for (int s = 0; s < players; s++)
    json_array_append_new(seats, json_pack("{s:i, s:f, s:i}", "seat", s, "cost",
                                           cost[s], "marked", marked[s]));
  json_t *doc =
      json_pack("{s:s, s:I, s:f, s:f, s:o, s:o}", "bot", scopa_bot_name(bot),
                "nodes", (json_int_t)nodes, "slip", SLIP, "blunder", BLUNDER,
                "rounds", rounds, "seats", seats);
  char *text = rc == SCOPA_OK && doc
                   ? json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER)
                   : NULL;
  json_decref(doc);
  if (!text)
    scopa__engine_msg(msg, msgsize, "out of memory");
  return text;
}
