/*
 * review.h -- the review of a finished game for the web client's
 * `review` message (docs/serve.md): every move valued from its mover's
 * view at that moment (never the hidden cards) by a bot, next to the best
 * move there was.  Runs on a bot worker; pure apart from the bot.
 */
#ifndef SCOPA_SERVER_REVIEW_H
#define SCOPA_SERVER_REVIEW_H

#include <stdint.h>

#include <scopa.h>

/* {"rounds": [{"dealer": D, "moves": [{"seat", "move", "best", "value",
 * "loss"}, ...]}, ...]} as JSON text (malloc'd), valued by `bot` with
 * `nodes` search nodes per move (reproducible on any machine); NULL if
 * out of memory or the game does not replay. */
char *review_json(const scopa_match *game, scopa_bot *bot, uint64_t nodes);

#endif
