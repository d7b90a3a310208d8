/*
 * bots.h -- what the bots of src/ai share: the bot object and each bot's
 * entry points.  Not API: the API is scopa_bot_* in scopa.h.
 */
#ifndef SCOPA_AI_BOTS_H
#define SCOPA_AI_BOTS_H

#include "scopa.h"

typedef int (*bot_choose_fn)(scopa_bot *bot, const scopa_view *view,
                             const scopa_bot_limits *limits,
                             scopa_move *move);
typedef int (*bot_evaluate_fn)(scopa_bot *bot, const scopa_view *view,
                               const scopa_bot_limits *limits,
                               scopa_move *moves, double *values, int cap);

typedef struct bot_kind {
  const char *name;
  const char *help;
  bot_choose_fn choose;
  bot_evaluate_fn evaluate; /* NULL: derived from choose */
} bot_kind;

struct scopa_bot {
  const bot_kind *kind;
  void *scratch; /* the bot's own memory (freed with free()) */
};

int bot_random_choose(scopa_bot *bot, const scopa_view *view,
                      const scopa_bot_limits *limits, scopa_move *move);

#endif
