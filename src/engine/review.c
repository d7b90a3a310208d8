/*
 * review.c -- the post-game review (scopa.h scopa_match_review_json):
 * every move of a game valued from its player's view (what that seat knew
 * then, never the hidden cards) by the library's hint (scopa_bot_hint),
 * next to the best move there was; the points a choice cost are the
 * hint's loss of the move played, and a move is marked only when that
 * loss is beyond its uncertainty (scopa.h, "Hints").
 *
 * The game is played again through a fresh scopa_match, so each position
 * is seen exactly as it was.  Every hint works by a node budget with the
 * seed of the record's seed, the round and the ply (scopa_hint_seed: of
 * the position itself when the record has no seed), so the same record
 * and budget give the same review on every run and machine.  `scopa
 * review` prints it; `scopa serve` sends it to the web client.
 */
#include "engine.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* In a 2-player round with the stock empty, the mover can count every
 * card: the values are then exact. */
static int exact_view(const scopa_view *v) {
  return v->players == 2 && v->stock == 0;
}

static json_t *number(double v) {
  return isfinite(v) ? json_real(v) : json_null();
}

/* A set of cards as a JSON array in card order ("1d", "1c", ...). */
static json_t *cards_json(scopa_cards set) {
  json_t *arr = json_array();
  char text[SCOPA_CARD_TEXT];
  for (int c = 0; c < 40; c++)
    if (set & SCOPA_BIT(c))
      json_array_append_new(arr, json_string(scopa_card_str(c, text)));
  return arr;
}

/* What a move does (scopa_move_why) as the "why" object of hints and
 * reviews: {"codes": [...], "cards", "coins", "sevens", "sum", "rank"}. */
static json_t *why_json(const scopa_view *v, scopa_move move) {
  scopa_why w;
  scopa_move_why(v, move, &w); /* zeroed (no reason) if not legal */
  json_t *codes = json_array();
  for (int bit = 0; bit < SCOPA_WHY_COUNT; bit++)
    if (w.reasons & (1u << bit))
      json_array_append_new(codes, json_string(scopa_why_code(bit)));
  return json_pack("{s:o, s:i, s:i, s:i, s:i, s:i}", "codes", codes, "cards",
                   w.cards, "coins", w.coins, "sevens", w.sevens, "sum", w.sum,
                   "rank", w.rank);
}

char *scopa_move_why_json(const scopa_view *view, scopa_move move) {
  json_t *o = why_json(view, move);
  char *text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
  json_decref(o);
  return text;
}

/* The review of one move: the hint (scopa_bot_hint) from the view of the
 * seat to play, with the seed of the record's seed, the round and the
 * ply; NULL when out of memory. */
static json_t *value_move(scopa_bot *bot, const scopa_match *game, int round,
                          const scopa_match *m, const scopa_bot_limits *l,
                          scopa_move played, int ply, double *cost, int *mark) {
  scopa_hint *h = malloc(SCOPA_MAX_MOVES * sizeof *h);
  json_t *out = NULL;
  scopa_view v;
  int seat = scopa_match_to_play(m);
  scopa_match_view(m, seat, &v);
  scopa_bot_limits lim = *l;
  lim.seed = scopa_hint_seed(scopa_match_seed(game), round, &v);
  int n = h ? scopa_bot_hint(bot, &v, &lim, h, SCOPA_MAX_MOVES, NULL) : -1;
  if (n > 0) {
    const scopa_hint *mine = NULL;
    for (int i = 0; i < n && i < SCOPA_MAX_MOVES && !mine; i++)
      if (h[i].move == played)
        mine = &h[i];
    /* No estimate (NAN): no cost is claimed. */
    int estimated = mine && isfinite(mine->value) && isfinite(h[0].value);
    *cost = estimated ? mine->loss : 0;
    *mark = estimated ? mine->mark : SCOPA_MARK_NONE;
    char a[SCOPA_MOVE_TEXT], b[SCOPA_MOVE_TEXT];
    out = json_pack(
        "{s:i, s:i, s:s, s:o, s:s, s:o, s:f, s:f, s:s, s:i, s:b, s:b, s:o, "
        "s:o, s:o}",
        "ply", ply, "seat", seat, "move", scopa_move_str(played, a), "value",
        number(estimated ? mine->value : NAN), "best",
        scopa_move_str(h[0].move, b), "best_value",
        number(estimated ? h[0].value : NAN), "cost", *cost, "loss", *cost,
        "mark", scopa_hint_mark_text(*mark), "choices", n, "exact",
        exact_view(&v), "estimated", estimated, "margin",
        number(estimated ? mine->margin : NAN), "best_margin",
        number(estimated ? h[0].margin : NAN), "loss_margin",
        number(estimated ? mine->loss_margin : NAN));
    if (out) {
      /* what a reader draws at this step (issue 33): the table the move
       * was played on, public in every view */
      json_object_set_new(out, "table", cards_json(v.table));
      json_object_set_new(out, "why", why_json(&v, played));
      json_object_set_new(out, "best_why", why_json(&v, h[0].move));
    }
  }
  free(h);
  return out;
}

static int review_rounds(const scopa_match *game, scopa_bot *bot,
                         const scopa_bot_limits *l, int seat, json_t *rounds,
                         double *cost, int *marked) {
  scopa_match *m = NULL;
  int nrounds = scopa_match_rounds(game), rc = SCOPA_ENOMEM;
  /* The decks come from the record: the seed here only spares the
   * operating system a fresh one. */
  if (scopa_match_new(scopa_match_rules(game), NULL, "0", &m, NULL, 0))
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
      int mark = SCOPA_MARK_NONE;
      if (seat < 0 || seat == mover) {
        json_t *one =
            value_move(bot, game, r, m, l, rr->moves[i], i, &c, &mark);
        if (!one)
          goto done;
        json_array_append_new(moves, one);
        cost[mover] += c;
        marked[mover] += mark != SCOPA_MARK_NONE;
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

char *scopa_match_review(const scopa_match *game, scopa_bot *bot,
                         const scopa_bot_limits *limits, int seat, char *msg,
                         size_t msgsize) {
  int players = scopa_match_rules(game)->players;
  double cost[SCOPA_MAX_SEATS] = {0};
  int marked[SCOPA_MAX_SEATS] = {0};
  uint64_t nodes = limits->nodes;
  if (!nodes || seat < -1 || seat >= players) {
    scopa__json_msg(msg, msgsize, "%s",
                    !nodes ? "the review needs a node budget"
                           : "the game has no such seat");
    return NULL;
  }
  json_t *rounds = json_array(), *seats = json_array();
  int rc = review_rounds(game, bot, limits, seat, rounds, cost, marked);
  for (int s = 0; s < players; s++)
    json_array_append_new(seats, json_pack("{s:i, s:f, s:i}", "seat", s, "cost",
                                           cost[s], "marked", marked[s]));
  json_t *doc =
      json_pack("{s:s, s:I, s:f, s:f, s:o, s:o}", "bot", scopa_bot_name(bot),
                "nodes", (json_int_t)nodes, "slip", SCOPA_HINT_SLIP, "blunder",
                SCOPA_HINT_BLUNDER, "rounds", rounds, "seats", seats);
  char *text = rc == SCOPA_OK && doc
                   ? json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER)
                   : NULL;
  json_decref(doc);
  if (!text)
    scopa__json_msg(msg, msgsize, "out of memory");
  return text;
}

char *scopa_match_review_json(const scopa_match *game, scopa_bot *bot,
                              uint64_t nodes, int seat, char *msg,
                              size_t msgsize) {
  scopa_bot_limits l = {.nodes = nodes, .threads = 1};
  return scopa_match_review(game, bot, &l, seat, msg, msgsize);
}
