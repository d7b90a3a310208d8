/*
 * bot.c -- the bot registry: names, descriptions, and dispatch to each
 * bot's functions.  Every bot works from a scopa_view only.
 *
 * To add a bot: write its choose (and optionally evaluate) function in its
 * own file, declare it in bots.h, and add a line to BOTS below.  A bot
 * kept for experiments only goes to research/ instead, which adds its
 * kinds with ai_bot_add: they are never in libscopa.
 */
#include "bots.h"
#include "heur.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Weakest first, the strongest last: "best". */
static const bot_kind BOTS[] = {
    {"random", "plays a uniformly random legal move", bot_random_choose, NULL,
     0, 0, 0},
    {"greedy",
     "takes the most valuable capture; lays so as not to leave a sweep or "
     "expose sevens",
     bot_greedy_choose, NULL, 0, 0, 0},
    {"rules",
     "traditional play: counts the unseen cards, safe totals, pairs, decided "
     "majorities; plays the known last deal perfectly",
     bot_rules_choose, NULL, 0, SCOPA_BOT_MEMORY_MIN, 0},
    {"chitarrella",
     "the traditional precepts of scopone (Chitarrella, Saracino): scopa, "
     "no sweep left, capture sevens and coins, spariglio against the "
     "dealer, lay doubles and dead ranks; no search",
     bot_chitarrella_choose, NULL, 0, SCOPA_BOT_MEMORY_MIN, 0},
    {"pimc",
     "samples worlds uniformly from what it has seen and solves each "
     "exactly (playouts where the tree is too big, as in early scopone)",
     bot_pimc_choose, bot_pimc_evaluate, 30, SCOPA_BOT_MEMORY_DEFAULT, 1},
    {"infer",
     "weighs each world by how likely the others' moves are "
     "in it; in 2-player scopa counts cards like rules, then solves every "
     "world of the last two deals",
     bot_infer_choose, bot_infer_evaluate, 100, SCOPA_BOT_MEMORY_DEFAULT, 1},
    {"best",
     "the strongest: in 2-player scopa one search over all the worlds of "
     "the deal (the opponent's possible hands, weighed by a learned model "
     "of its play fitted to the project's bots), each deal's end valued by "
     "a learned network, the last deal searched against the model; infer "
     "in the fifth deal, in other games and for its values",
     bot_best_choose, bot_infer_evaluate, 100, SCOPA_BOT_MEMORY_DEFAULT, 1},
};
#define NBOTS ((int)(sizeof BOTS / sizeof BOTS[0]))

/* Former names of the bots above, kept so that saved command lines,
 * records and server tables that name them still work: each makes the
 * bot it names now.  Listed after the bots. */
typedef struct bot_alias {
  const char *name, *now, *help;
} bot_alias;
static const bot_alias ALIASES[] = {
    {"dealopp", "best", "best's former name: the same bot"},
};
#define NALIASES ((int)(sizeof ALIASES / sizeof ALIASES[0]))

/* The names of BOTS (weakest first, "best" last), then the aliases: a
 * constant, so it is safe to read from any thread.  test_ai checks it. */
static const char *const NAMES[] = {"random",      "greedy",  "rules",
                                    "chitarrella", "pimc",    "infer",
                                    "best",        "dealopp", NULL};
_Static_assert(sizeof NAMES / sizeof NAMES[0] == NBOTS + NALIASES + 1,
               "NAMES lists every bot of BOTS, then the aliases");

/* Kinds a program adds to the registry (ai_bot_add: the research bots of
 * research/), and the names with them.  Written only before the program
 * starts a thread, read-only after. */
#define MAX_ADDED 8
static const bot_kind *added[MAX_ADDED];
static int nadded;
static const char *with_added[NBOTS + MAX_ADDED + NALIASES + 1];
static const char *const *names = NAMES;

const char *const *scopa_bot_names(void) { return names; }

static const bot_alias *alias_of(const char *name) {
  for (int i = 0; name && i < NALIASES; i++)
    if (strcmp(ALIASES[i].name, name) == 0)
      return &ALIASES[i];
  return NULL;
}

static const bot_kind *find(const char *name) {
  const bot_alias *alias = alias_of(name);
  if (alias)
    name = alias->now;
  for (int i = 0; name && i < NBOTS; i++)
    if (strcmp(BOTS[i].name, name) == 0)
      return &BOTS[i];
  for (int i = 0; name && i < nadded; i++)
    if (strcmp(added[i]->name, name) == 0)
      return added[i];
  return NULL;
}

int ai_bot_add(const bot_kind *kind) {
  const bot_kind *known = find(kind->name);
  if (known)
    return known == kind ? SCOPA_OK : SCOPA_EINVAL;
  if (nadded == MAX_ADDED)
    return SCOPA_EINVAL;
  added[nadded++] = kind;
  /* The library's bots but "best", the added ones, "best", the aliases. */
  int n = 0;
  for (int i = 0; i < NBOTS - 1; i++)
    with_added[n++] = BOTS[i].name;
  for (int i = 0; i < nadded; i++)
    with_added[n++] = added[i]->name;
  with_added[n++] = BOTS[NBOTS - 1].name;
  for (int i = 0; i < NALIASES; i++)
    with_added[n++] = ALIASES[i].name;
  with_added[n] = NULL;
  names = with_added;
  return SCOPA_OK;
}

const char *scopa_bot_describe(const char *name) {
  const bot_alias *alias = alias_of(name);
  const bot_kind *k = find(name);
  return alias ? alias->help : k ? k->help : NULL;
}

int scopa_bot_new(const char *name, scopa_bot **out) {
  const bot_kind *k = find(name);
  *out = NULL;
  if (!k)
    return SCOPA_EINVAL;
  scopa_bot *bot = calloc(1, sizeof *bot);
  if (!bot)
    return SCOPA_ENOMEM;
  bot->kind = k;
  int rc = ai_bot_memory_init(bot, 0); /* once, here: never per move */
  if (rc != SCOPA_OK) {
    free(bot);
    return rc;
  }
  *out = bot;
  return SCOPA_OK;
}

void scopa_bot_free(scopa_bot *bot) {
  if (!bot)
    return;
  if (bot->scratch_free)
    bot->scratch_free(bot->scratch);
  else
    free(bot->scratch);
  free(bot);
}

const char *scopa_bot_name(const scopa_bot *bot) { return bot->kind->name; }

int scopa_bot_movetime(const scopa_bot *bot) { return bot->kind->default_ms; }

/* The limits of a call, its clock started now. */
static scopa_bot_limits start(scopa_bot *bot, const scopa_bot_limits *limits) {
  scopa_bot_limits l = {0, 0, 1, 0, 0, NULL};
  if (limits)
    l = *limits;
  ai_clock_start(&bot->clock, &l, bot->kind->default_ms);
  return l;
}

int scopa_bot_choose(scopa_bot *bot, const scopa_view *view,
                     const scopa_bot_limits *limits, scopa_move *move) {
  assert(bot && view && move);
  if (view->to_play != view->seat)
    return SCOPA_EINVAL;
  scopa_bot_limits l = start(bot, limits);
  return bot->kind->choose(bot, view, &l, move);
}

int scopa_bot_evaluate(scopa_bot *bot, const scopa_view *view,
                       const scopa_bot_limits *limits, scopa_move *moves,
                       double *values, int cap) {
  assert(bot && view);
  if (view->to_play != view->seat)
    return SCOPA_EINVAL;
  scopa_bot_limits l = start(bot, limits);
  if (bot->kind->evaluate)
    return bot->kind->evaluate(bot, view, &l, moves, values, cap);
  /* A bot without values: its choice first, the rest after, no estimate
   * (NAN). */
  scopa_move all[SCOPA_MAX_MOVES], best;
  int n = scopa_view_legal(view, all, SCOPA_MAX_MOVES);
  int rc = bot->kind->choose(bot, view, &l, &best);
  if (rc != SCOPA_OK)
    return rc;
  int k = 0;
  if (cap > 0)
    moves[k] = best, values[k++] = NAN;
  for (int i = 0; i < n && i < SCOPA_MAX_MOVES; i++)
    if (all[i] != best && k < cap)
      moves[k] = all[i], values[k++] = NAN;
  return n;
}

/* ---- random ---------------------------------------------------------- */

int bot_random_choose(scopa_bot *bot, const scopa_view *view,
                      const scopa_bot_limits *limits, scopa_move *move) {
  (void)bot;
  scopa_move buf[SCOPA_MAX_MOVES], *moves = buf;
  scopa_rng rng;
  int n = scopa_view_legal(view, moves, SCOPA_MAX_MOVES);
  if (n <= 0)
    return SCOPA_EINVAL;
  /* Huge tables (mandatory_capture false) can have more moves than the
   * buffer: list them all, so every one stays equally likely. */
  if (n > SCOPA_MAX_MOVES) {
    moves = malloc(sizeof *moves * (size_t)n);
    if (!moves)
      return SCOPA_ENOMEM;
    scopa_view_legal(view, moves, n);
  }
  /* Seed from the limits and the position, so one seed gives different
   * choices in different positions but the same in the same one. */
  scopa_rng_seed(&rng, limits->seed ^ (view->plays * 0x9E3779B97F4A7C15ull) ^
                           view->hand ^ (view->table << 7));
  *move = moves[scopa_rng_below(&rng, (uint32_t)n)];
  if (moves != buf)
    free(moves);
  return SCOPA_OK;
}

int ai_deal_choose(scopa_bot *bot, const scopa_view *v,
                   const scopa_bot_limits *l, scopa_move *move, int applies,
                   int max_moves, ai_deal_values values) {
  scopa_move moves[SCOPA_MAX_MOVES];
  double value[SCOPA_MAX_MOVES];
  int n = scopa_view_legal(v, moves, SCOPA_MAX_MOVES);
  if (n <= 0)
    return SCOPA_EINVAL;
  if (n > max_moves || n > SCOPA_MAX_MOVES || !applies)
    return bot_infer_choose(bot, v, l, move);
  *move = moves[0];
  if (n == 1)
    return SCOPA_OK;
  if (values(bot, v, l, moves, n, value) != 0)
    return bot_rules_choose(bot, v, l, move);
  *move = moves[ai_best_index(value, n)];
  return SCOPA_OK;
}
