/*
 * rules.c -- the option table of RULES.md: every option's name, kind,
 * values, default and help, in one place.  The rest of the engine reads
 * the fields of a checked scopa_rules; nothing else names an option.
 *
 * Invariant kept by scopa_rules_check: players is 2..4, teams only with 4
 * players, the scopone games have 4 players in teams, refill 1 only in
 * scopa, and win_by_two never meets tiebreak "count_order".
 */
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const GAMES[] = {"scopa", "scopone", "scopone_scientifico",
                                    NULL};
static const char *const CAPTURES[] = {"match", "quindici", NULL};
static const char *const PRIMIERAS[] = {"standard", "faces_zero", "sevens",
                                        "off", NULL};
static const char *const TIEBREAKS[] = {"extra_round", "count_order", NULL};

typedef struct option {
  scopa_option_info info;
  size_t offset; /* of the int32_t field in scopa_rules */
  int32_t initial;
} option;

#define FIELD(f) offsetof(scopa_rules, f)
#define BOOL_OPT(name, def, help)                                              \
  { {#name, SCOPA_OPT_BOOL, NULL, 0, 1, #def, help}, FIELD(name), def }

/* clang-format off */
static const option OPTIONS[] = {
  {{"game", SCOPA_OPT_ENUM, GAMES, 0, 2, "scopa",
    "scopa (3 cards, 4 on the table), scopone (9 each), "
    "scopone_scientifico (10 each)"}, FIELD(game), SCOPA_GAME_SCOPA},
  {{"players", SCOPA_OPT_INT, NULL, 2, 4, "2 (4 for scopone)",
    "number of players"}, FIELD(players), 0},
  {{"teams", SCOPA_OPT_BOOL, NULL, 0, 1, "false (true for scopone)",
    "4 players in two teams, seats 0+2 against 1+3"}, FIELD(teams), -1},
  {{"refill", SCOPA_OPT_INT, NULL, 1, 3, "3",
    "cards drawn when a hand is empty: 3 for everyone, or 1 at a time"},
   FIELD(refill), 3},
  BOOL_OPT(kings_redeal, 1, "three or four kings on the table void the deal"),
  BOOL_OPT(mandatory_capture, 1, "a card that can capture may not be laid"),
  BOOL_OPT(fewest_cards, 0, "only captures with the fewest cards are allowed"),
  BOOL_OPT(ace_sweeps, 0, "Scopa d'Assi: an ace sweeps the table"),
  BOOL_OPT(ace_sweep_scopa, 1, "an ace's sweep counts as a scopa"),
  {{"capture", SCOPA_OPT_ENUM, CAPTURES, 0, 1, "match",
    "match (rank, or a sum) or quindici (sum to 15 with the card played)"},
   FIELD(capture), SCOPA_CAPTURE_MATCH},
  {{"primiera", SCOPA_OPT_ENUM, PRIMIERAS, 0, 3, "standard",
    "standard, faces_zero, sevens (most sevens, then sixes...) or off"},
   FIELD(primiera), SCOPA_PRIMIERA_STANDARD},
  BOOL_OPT(re_bello, 0, "1 point for the king of coins"),
  BOOL_OPT(napola, 0, "3+ points for 1d 2d 3d and the coins that follow"),
  {{"target", SCOPA_OPT_INT, NULL, 1, LLONG_MAX, "11",
    "points to win the game"}, FIELD(target), 11},
  {{"tiebreak", SCOPA_OPT_ENUM, TIEBREAKS, 0, 1, "extra_round",
    "extra_round, or count_order (categories counted in order)"},
   FIELD(tiebreak), SCOPA_TIEBREAK_EXTRA_ROUND},
  BOOL_OPT(win_by_two, 0, "the winner must lead by two points"),
  {{"cappotto", SCOPA_OPT_INT, NULL, 0, LLONG_MAX, "0",
    "the game ends when one side has this many and the others none "
    "(0: off)"}, FIELD(cappotto), 0},
};
/* clang-format on */

#define NOPTIONS ((int)(sizeof OPTIONS / sizeof OPTIONS[0]))

int scopa_option_count(void) { return NOPTIONS; }

const scopa_option_info *scopa_option_get(int i) {
  return i >= 0 && i < NOPTIONS ? &OPTIONS[i].info : NULL;
}

static int32_t *field(scopa_rules *rules, const option *opt) {
  return (int32_t *)((char *)rules + opt->offset);
}

long long scopa_rules_value(const scopa_rules *rules, int i) {
  return i >= 0 && i < NOPTIONS ? *field((scopa_rules *)rules, &OPTIONS[i]) : 0;
}

static const option *find(const char *name) {
  for (int i = 0; i < NOPTIONS; i++)
    if (strcmp(OPTIONS[i].info.name, name) == 0)
      return &OPTIONS[i];
  return NULL;
}

void scopa_rules_init(scopa_rules *rules) {
  memset(rules, 0, sizeof *rules);
  for (int i = 0; i < NOPTIONS; i++)
    *field(rules, &OPTIONS[i]) = OPTIONS[i].initial;
}

int scopa_rules_set(scopa_rules *rules, const char *name, long long value,
                    char *msg, size_t msgsize) {
  const option *opt = find(name);
  if (!opt) {
    scopa__msg(msg, msgsize, "unknown rules option '%.40s'", name);
    return SCOPA_ERULES;
  }
  /* refill takes 1 or 3 only: the range check alone would allow 2. */
  if (value < opt->info.min || value > opt->info.max ||
      (opt->offset == FIELD(refill) && value == 2)) {
    scopa__msg(msg, msgsize, "rules option '%s' cannot be %lld", name, value);
    return SCOPA_ERULES;
  }
  /* No score reaches 2^31 points: a larger target or cappotto is the same
   * game as INT32_MAX. */
  *field(rules, opt) = (int32_t)(value > INT32_MAX ? INT32_MAX : value);
  return SCOPA_OK;
}

int scopa_rules_set_text(scopa_rules *rules, const char *name,
                         const char *value, char *msg, size_t msgsize) {
  const option *opt = find(name);
  if (!opt)
    return scopa_rules_set(rules, name, 0, msg, msgsize);
  if (opt->info.kind == SCOPA_OPT_BOOL) {
    if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0)
      return scopa_rules_set(rules, name, value[0] == 't', msg, msgsize);
  } else if (opt->info.kind == SCOPA_OPT_ENUM) {
    for (int i = 0; opt->info.values[i]; i++)
      if (strcmp(opt->info.values[i], value) == 0)
        return scopa_rules_set(rules, name, i, msg, msgsize);
  } else {
    char *end;
    errno = 0;
    long long n = strtoll(value, &end, 10);
    if (*value && !*end && errno == 0)
      return scopa_rules_set(rules, name, n, msg, msgsize);
  }
  scopa__msg(msg, msgsize, "rules option '%s' cannot be '%.40s'", name, value);
  return SCOPA_ERULES;
}

int scopa_rules_check(scopa_rules *rules, char *msg, size_t msgsize) {
  int scopone = rules->game != SCOPA_GAME_SCOPA;
  if (rules->players == 0)
    rules->players = scopone ? 4 : 2;
  if (rules->teams < 0)
    rules->teams = scopone;
  const char *game = GAMES[rules->game];
  if (rules->teams && rules->players != 4) {
    scopa__msg(msg, msgsize, "teams need 4 players, not %d", rules->players);
    return SCOPA_ERULES;
  }
  if (scopone && (rules->players != 4 || !rules->teams)) {
    scopa__msg(msg, msgsize, "%s is played by 4 players in two teams", game);
    return SCOPA_ERULES;
  }
  if (scopone && rules->refill == 1) {
    scopa__msg(msg, msgsize, "refill 1 is only for scopa, not %s", game);
    return SCOPA_ERULES;
  }
  if (rules->win_by_two && rules->tiebreak == SCOPA_TIEBREAK_COUNT_ORDER) {
    scopa__msg(msg, msgsize,
               "win_by_two and tiebreak count_order cannot be combined");
    return SCOPA_ERULES;
  }
  return SCOPA_OK;
}

int scopa_rules_preset(scopa_rules *rules, const char *name) {
  scopa_rules_init(rules);
  if (strcmp(name, "scopone") == 0)
    rules->game = SCOPA_GAME_SCOPONE;
  else if (strcmp(name, "scientifico") == 0 ||
           strcmp(name, "scopone_scientifico") == 0)
    rules->game = SCOPA_GAME_SCIENTIFICO;
  else if (strcmp(name, "assi") == 0 || strcmp(name, "scopa_d_assi") == 0)
    rules->ace_sweeps = 1;
  else if (strcmp(name, "quindici") == 0 ||
           strcmp(name, "scopa_a_quindici") == 0)
    rules->capture = SCOPA_CAPTURE_QUINDICI;
  else if (strcmp(name, "scopa") != 0)
    return SCOPA_EINVAL;
  return scopa_rules_check(rules, NULL, 0);
}

int scopa_rules_sides(const scopa_rules *rules) {
  return rules->teams ? 2 : rules->players;
}

int scopa_rules_side_of(const scopa_rules *rules, int seat) {
  return rules->teams ? seat % 2 : seat;
}

static void value_text(const option *opt, int32_t v, char *buf, size_t n) {
  if (opt->info.kind == SCOPA_OPT_BOOL)
    snprintf(buf, n, "%s", v ? "true" : "false");
  else if (opt->info.kind == SCOPA_OPT_ENUM)
    snprintf(buf, n, "%s", opt->info.values[v]);
  else
    snprintf(buf, n, "%d", (int)v);
}

size_t scopa_rules_str(const scopa_rules *rules, char *buf, size_t bufsize) {
  scopa_rules base;
  scopa_rules_init(&base);
  base.game = rules->game;
  scopa_rules_check(&base, NULL, 0);
  size_t n = 0;
  if (bufsize)
    buf[0] = 0;
  for (int i = 0; i < NOPTIONS; i++) {
    const option *opt = &OPTIONS[i];
    int32_t v = *field((scopa_rules *)rules, opt);
    if (i > 0 && v == *field(&base, opt))
      continue;
    char value[32];
    value_text(opt, v, value, sizeof value);
    int w = i == 0 ? snprintf(buf + n, bufsize - n, "%s", value)
                   : snprintf(buf + n, bufsize - n, " %s=%s", opt->info.name,
                              value);
    if (w < 0 || (size_t)w >= bufsize - n)
      break;
    n += (size_t)w;
  }
  return n;
}
