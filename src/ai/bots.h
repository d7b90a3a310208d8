/*
 * bots.h -- what the bots of src/ai share: the bot object and each bot's
 * entry points.  Not API: the API is scopa_bot_* in scopa.h.
 */
#ifndef SCOPA_AI_BOTS_H
#define SCOPA_AI_BOTS_H

#include "clock.h"
#include "scopa.h"

typedef int (*bot_choose_fn)(scopa_bot *bot, const scopa_view *view,
                             const scopa_bot_limits *limits, scopa_move *move);
typedef int (*bot_evaluate_fn)(scopa_bot *bot, const scopa_view *view,
                               const scopa_bot_limits *limits,
                               scopa_move *moves, double *values, int cap);

typedef struct bot_kind {
  const char *name;
  const char *help;
  bot_choose_fn choose;
  bot_evaluate_fn evaluate; /* NULL: derived from choose */
  int default_ms;           /* movetime_ms 0 means this; 0: no search  */
  size_t memory;            /* default memory (search.c); 0: none      */
  int worlds;               /* nonzero: its memory holds worlds        */
} bot_kind;

/* Adds a kind to the registry, after the library's own (its name then
 * works wherever a bot name does, and scopa_bot_names lists it before
 * "best"): for programs that link bots of their own, the research bots of
 * research/.  Call before starting any thread; the kind must outlive the
 * program.  SCOPA_OK (also when that kind is already there), SCOPA_EINVAL
 * when another kind has the name or the registry is full. */
int ai_bot_add(const bot_kind *kind);

struct scopa_bot {
  const bot_kind *kind;
  void *scratch; /* the bot's memory (search.c), or NULL          */
  void (*scratch_free)(void *scratch); /* NULL: free()             */
  ai_clock clock; /* of the call in progress (scopa_bot_choose/evaluate
                     start it; every search of the call checks it)   */
};

int bot_random_choose(scopa_bot *bot, const scopa_view *view,
                      const scopa_bot_limits *limits, scopa_move *move);

int bot_greedy_choose(scopa_bot *bot, const scopa_view *view,
                      const scopa_bot_limits *limits, scopa_move *move);
int bot_rules_choose(scopa_bot *bot, const scopa_view *view,
                     const scopa_bot_limits *limits, scopa_move *move);
int bot_chitarrella_choose(scopa_bot *bot, const scopa_view *view,
                           const scopa_bot_limits *limits, scopa_move *move);
int bot_pimc_choose(scopa_bot *bot, const scopa_view *view,
                    const scopa_bot_limits *limits, scopa_move *move);
int bot_pimc_evaluate(scopa_bot *bot, const scopa_view *view,
                      const scopa_bot_limits *limits, scopa_move *moves,
                      double *values, int cap);
int bot_best_choose(scopa_bot *bot, const scopa_view *view,
                    const scopa_bot_limits *limits, scopa_move *move);
int bot_infer_choose(scopa_bot *bot, const scopa_view *view,
                     const scopa_bot_limits *limits, scopa_move *move);

/* The values (points) of the n legal moves of a per-deal search into
 * values; non-zero when it found none (no world finished). */
typedef int (*ai_deal_values)(scopa_bot *bot, const scopa_view *view,
                              const scopa_bot_limits *limits,
                              const scopa_move *moves, int n, double *values);
/* The move of a bot that searches the rest of the deal (best, and the
 * research bots): infer's where the search does not apply (applies 0, or
 * more than max_moves legal moves), the only move, else the move of best
 * value, or the rules bot's when the search found no value. */
int ai_deal_choose(scopa_bot *bot, const scopa_view *view,
                   const scopa_bot_limits *limits, scopa_move *move,
                   int applies, int max_moves, ai_deal_values values);
/* pimc.c: infer with its worlds weighed by the learned opponent model
 * (oppmodel.h): best's move in the fifth deal and in other games. */
int ai_infer_learned_choose(scopa_bot *bot, const scopa_view *view,
                            const scopa_bot_limits *limits, scopa_move *move);
int bot_infer_evaluate(scopa_bot *bot, const scopa_view *view,
                       const scopa_bot_limits *limits, scopa_move *moves,
                       double *values, int cap);

/* search.c: the bot's memory (scopa_bot_set_memory), allocated at once:
 * bytes 0 is the kind's default.  SCOPA_OK, SCOPA_EINVAL (below
 * SCOPA_BOT_MEMORY_MIN) or SCOPA_ENOMEM (the old memory is kept). */
int ai_bot_memory_init(scopa_bot *bot, size_t bytes);

/* The solver of thread `thread` (0..threads-1) when a call uses `threads`
 * threads (0: however many the last call used), its clock the bot's; its
 * table is a slice of the bot's memory.  NULL for a bot without memory.
 * Call from the bot's own thread only, before starting the others. */
struct ai_solver;
struct ai_solver *ai_bot_solver(scopa_bot *bot, int thread, int threads);

/* The searching bots' buffer of worlds: states, their weights and a
 * ranking, cap of each; NULL for a bot without one. */
typedef struct ai_ranked {
  double weight;
  int index;
} ai_ranked;

typedef struct ai_worlds {
  scopa_state *state;
  double *weight;
  ai_ranked *rank;
  int cap;
} ai_worlds;

ai_worlds *ai_bot_worlds(scopa_bot *bot);

/* endgame.c: when the view leaves nothing unknown (2 players, stock
 * empty), the move of an exact solve; returns 1 and sets *move, else 0
 * (also when the bot's clock stopped the solve). */
int ai_endgame_move(scopa_bot *bot, const scopa_view *view, scopa_move *move);

#endif
