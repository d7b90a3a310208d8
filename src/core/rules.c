/*
 * rules.c -- the option table of RULES.md: every option's name, kind,
 * values, default and help, in one place.  The rest of the engine reads
 * the fields of a checked scopa_rules; nothing else names an option.
 *
 * Invariant kept by scopa_rules_check (RULES.md "Game records", rules that
 * cannot be played): players is 2, 3, 4 or 6; teams only with 4 or 6
 * players; team_size 3 only with 6 players in teams; 6 players only in
 * scopa; the scopone games have 4 players in teams; refill 1 only in
 * scopa; the four ace refinements keep their defaults without ace_sweeps;
 * single_match_first false only with capture match; deal_bonus never with
 * scopone_scientifico; win_by_two never meets a count order tiebreak; and
 * lowest_wins meets none of win_by_two, cappotto, all_coins_wins or a
 * tiebreak other than extra_round.
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
static const char *const PRIMIERAS[] = {
    "standard", "faces_zero", "sevens", "off", "sum", "complete_only", NULL};
static const char *const TIEBREAKS[] = {"extra_round", "count_order",
                                        "count_order_on_tie", NULL};
static const char *const WITH_ACE[] = {"no", "yes", "choice", NULL};
static const char *const FIRST_PLAY[] = {"sweeps", "no_sweep", "no_ace", NULL};
static const char *const EMPTY_TABLE[] = {"laid", "taken", NULL};
static const char *const LEFTOVERS[] = {"last_capture", "dealer", "nobody",
                                        NULL};
static const char *const DEAL_BONUS[] = {"off", "fifteen", NULL};

typedef struct option {
  scopa_option_info info;
  size_t offset; /* of the int32_t field in scopa_rules */
  int32_t initial;
  int32_t hole; /* a value inside min..max that is not allowed (0: none) */
} option;

#define FIELD(f) offsetof(scopa_rules, f)
#define BOOL_OPT(name, def, help)                                              \
  { {#name, SCOPA_OPT_BOOL, NULL, 0, 1, #def, help}, FIELD(name), def, 0 }

/* clang-format off */
/* In the order of RULES.md, by section; each row is one option. */
static const option OPTIONS[] = {
  /* Seats, sides, order */
  {{"game", SCOPA_OPT_ENUM, GAMES, 0, 2, "scopa",
    "scopa (3 cards, 4 on the table), scopone (9 each), "
    "scopone_scientifico (10 each)"}, FIELD(game), SCOPA_GAME_SCOPA, 0},
  {{"players", SCOPA_OPT_INT, NULL, 2, 6, "2 (4 for scopone)",
    "number of players: 2, 3, 4 or 6 (6 only in scopa)"},
   FIELD(players), 0, 5},
  {{"teams", SCOPA_OPT_BOOL, NULL, 0, 1, "false (true for scopone)",
    "4 or 6 players in teams of team_size partners who alternate around "
    "the table (4: seats 0+2 against 1+3)"}, FIELD(teams), -1, 0},
  {{"team_size", SCOPA_OPT_INT, NULL, 2, 3, "2",
    "partners per team: 2, or 3 (6 players as two teams of three)"},
   FIELD(team_size), 2, 0},
  /* The deal */
  {{"refill", SCOPA_OPT_INT, NULL, 1, 3, "3",
    "cards drawn when a hand is empty: 3 for everyone, or 1 at a time"},
   FIELD(refill), 3, 2},
  BOOL_OPT(kings_redeal, 1, "three or four kings on the table void the deal"),
  {{"deal_bonus", SCOPA_OPT_ENUM, DEAL_BONUS, 0, 1, "off",
    "fifteen: a first table adding up to 15 (30) is the dealer's, with 1 "
    "(2) scope"}, FIELD(deal_bonus), SCOPA_DEAL_BONUS_OFF, 0},
  /* A turn */
  BOOL_OPT(mandatory_capture, 1, "a card that can capture may not be laid"),
  BOOL_OPT(fewest_cards, 0, "only captures with the fewest cards are allowed"),
  BOOL_OPT(single_match_first, 1,
           "a card of the same rank must be taken before any sum (false: any "
           "set adding up to the card)"),
  {{"max_capture", SCOPA_OPT_INT, NULL, 0, 2, "0",
    "2: a capture takes at most two table cards (0: no limit)"},
   FIELD(max_capture), 0, 1},
  BOOL_OPT(last_card_scopa, 0,
           "a capture emptying the table with the round's last card is a "
           "scopa too"),
  BOOL_OPT(ace_sweeps, 0, "Scopa d'Assi: an ace sweeps the table"),
  BOOL_OPT(ace_sweep_scopa, 1, "an ace's sweep counts as a scopa"),
  {{"ace_sweep_with_ace", SCOPA_OPT_ENUM, WITH_ACE, 0, 2, "no",
    "an ace on the table: no (blocks the sweep), yes (sweeps anyway), "
    "choice (sweep or an ordinary capture)"},
   FIELD(ace_sweep_with_ace), SCOPA_ACE_WITH_ACE_NO, 0},
  {{"ace_first_play", SCOPA_OPT_ENUM, FIRST_PLAY, 0, 2, "sweeps",
    "the round's first play: sweeps, no_sweep (an ace does not sweep), "
    "no_ace (no ace unless the hand is all aces)"},
   FIELD(ace_first_play), SCOPA_ACE_FIRST_SWEEPS, 0},
  {{"ace_empty_table", SCOPA_OPT_ENUM, EMPTY_TABLE, 0, 1, "laid",
    "an ace played to an empty table is laid, or taken into the pile"},
   FIELD(ace_empty_table), SCOPA_ACE_EMPTY_LAID, 0},
  BOOL_OPT(ace_sweep_optional, 0,
           "an ace whose only capture is the sweep may be laid instead"),
  {{"capture", SCOPA_OPT_ENUM, CAPTURES, 0, 1, "match",
    "match (rank, or a sum) or quindici (sum to 15 with the card played)"},
   FIELD(capture), SCOPA_CAPTURE_MATCH, 0},
  /* End of the round */
  {{"leftovers", SCOPA_OPT_ENUM, LEFTOVERS, 0, 2, "last_capture",
    "who takes the cards left on the table: last_capture, dealer or "
    "nobody"}, FIELD(leftovers), SCOPA_LEFTOVERS_LAST_CAPTURE, 0},
  /* Scoring a round */
  {{"primiera", SCOPA_OPT_ENUM, PRIMIERAS, 0, 5, "standard",
    "standard, faces_zero, sevens (most sevens, then sixes...), off, sum "
    "(plain sum) or complete_only"},
   FIELD(primiera), SCOPA_PRIMIERA_STANDARD, 0},
  BOOL_OPT(re_bello, 0, "1 point for the king of coins"),
  BOOL_OPT(napola, 0, "3+ points for 1d 2d 3d and the coins that follow"),
  BOOL_OPT(most_sevens, 0, "1 point for the most sevens (Escoba)"),
  /* The bounds of all_sevens and target (RULES.md "End of the game"):
   * a game to more than SCOPA_TARGET_MAX would not end in a sitting (a
   * round brings a side about 5 points), and no total can then come near
   * overflowing an int (a round is worth at most about 150 points). */
  {{"all_sevens", SCOPA_OPT_INT, NULL, 0, SCOPA_ALL_SEVENS_MAX, "0",
    "points for holding all four sevens (0: off)"}, FIELD(all_sevens), 0, 0},
  /* End of the game */
  {{"target", SCOPA_OPT_INT, NULL, 1, SCOPA_TARGET_MAX, "11",
    "points to win the game"}, FIELD(target), 11, 0},
  {{"tiebreak", SCOPA_OPT_ENUM, TIEBREAKS, 0, 2, "extra_round",
    "extra_round, count_order (categories counted in order) or "
    "count_order_on_tie (only between sides tied at the top)"},
   FIELD(tiebreak), SCOPA_TIEBREAK_EXTRA_ROUND, 0},
  BOOL_OPT(win_by_two, 0, "the winner must lead by two points"),
  {{"cappotto", SCOPA_OPT_INT, NULL, 0, LLONG_MAX, "0",
    "the game ends when one side has this many and the others none "
    "(0: off)"}, FIELD(cappotto), 0, 0},
  BOOL_OPT(all_coins_wins, 0, "a side taking all ten coins wins the game"),
  BOOL_OPT(lowest_wins, 0,
           "Scopa a perdere: once a side reaches the target, the lowest "
           "total wins"),
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
                    const char *lang, char *msg, size_t msgsize) {
  int it = scopa__italian(lang);
  const option *opt = find(name);
  if (!opt) {
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "unknown rules option '%.40s'",
                         "non c'è un'opzione delle regole '%.40s'"),
               name);
    return SCOPA_ERULES;
  }
  /* refill takes 1 or 3, players 2..4 or 6, max_capture 0 or 2: the
   * range check alone would allow the hole between. */
  if (opt->info.kind == SCOPA_OPT_INT && opt->info.max != LLONG_MAX &&
      (value < opt->info.min || value > opt->info.max)) {
    scopa__msg(msg, msgsize,
               SCOPA__TR(it,
                         "rules option '%s' cannot be %lld: it goes "
                         "from %lld to %lld",
                         "l'opzione delle regole '%s' non può valere %lld: "
                         "va da %lld a %lld"),
               name, value, opt->info.min, opt->info.max);
    return SCOPA_ERULES;
  }
  if (value < opt->info.min || value > opt->info.max ||
      (opt->hole && value == opt->hole)) {
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "rules option '%s' cannot be %lld",
                         "l'opzione delle regole '%s' non può valere %lld"),
               name, value);
    return SCOPA_ERULES;
  }
  /* No score reaches 2^31 points: a larger target or cappotto is the same
   * game as INT32_MAX. */
  *field(rules, opt) = (int32_t)(value > INT32_MAX ? INT32_MAX : value);
  return SCOPA_OK;
}

int scopa_rules_set_text(scopa_rules *rules, const char *name,
                         const char *value, const char *lang, char *msg,
                         size_t msgsize) {
  const option *opt = find(name);
  if (!opt)
    return scopa_rules_set(rules, name, 0, lang, msg, msgsize);
  if (opt->info.kind == SCOPA_OPT_BOOL) {
    if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0)
      return scopa_rules_set(rules, name, value[0] == 't', lang, msg, msgsize);
  } else if (opt->info.kind == SCOPA_OPT_ENUM) {
    for (int i = 0; opt->info.values[i]; i++)
      if (strcmp(opt->info.values[i], value) == 0)
        return scopa_rules_set(rules, name, i, lang, msg, msgsize);
  } else {
    long long n; /* the whole value, digits only (text.c) */
    if (scopa_parse_int(name, value, LLONG_MIN, LLONG_MAX, &n, NULL, 0) ==
        SCOPA_OK)
      return scopa_rules_set(rules, name, n, lang, msg, msgsize);
  }
  scopa__msg(msg, msgsize,
             SCOPA__TR(scopa__italian(lang),
                       "rules option '%s' cannot be '%.40s'",
                       "l'opzione delle regole '%s' non può valere '%.40s'"),
             name, value);
  return SCOPA_ERULES;
}

/* Labels for a form, a rules box or a refusal (scopa_option_label):
 * short, in both languages, and the part of RULES.md each option belongs
 * to (a form's sections: the catalogue's "group").  One row per option
 * of OPTIONS (test_engine checks every option has one). */
static const struct {
  const char *name, *group, *en, *it;
} LABELS[] = {
    {"game", "game", "Game", "Gioco"},
    {"players", "game", "Players", "Giocatori"},
    {"teams", "game", "Teams", "A squadre"},
    {"team_size", "game", "Team size", "Giocatori per squadra"},
    {"refill", "game", "Cards drawn", "Carte pescate"},
    {"kings_redeal", "game", "Three kings: deal again", "Tre re: si ridà"},
    {"deal_bonus", "game", "Deal bonus (15)", "Bonus di mano (15)"},
    {"capture", "play", "Capture", "Presa"},
    {"single_match_first", "play", "Same rank first", "Prima la carta uguale"},
    {"fewest_cards", "play", "Fewest cards", "Meno carte"},
    {"max_capture", "play", "Max captured", "Massimo prese"},
    {"mandatory_capture", "play", "Must capture", "Presa obbligatoria"},
    {"last_card_scopa", "play", "Scopa on the last card",
     "Scopa all’ultima carta"},
    {"ace_sweeps", "aces", "Ace sweeps (asso piglia tutto)",
     "Asso piglia tutto"},
    {"ace_sweep_scopa", "aces", "Ace sweep is a scopa", "L’asso fa scopa"},
    {"ace_sweep_with_ace", "aces", "Ace sweeps over an ace", "Asso su asso"},
    {"ace_first_play", "aces", "Ace on the first play",
     "Asso alla prima giocata"},
    {"ace_empty_table", "aces", "Ace on an empty table", "Asso a tavolo vuoto"},
    {"ace_sweep_optional", "aces", "Ace may be laid", "Asso posabile"},
    {"leftovers", "score", "Leftover cards go to", "Carte rimaste a"},
    {"primiera", "score", "Primiera", "Primiera"},
    {"re_bello", "score", "Re bello", "Re bello"},
    {"napola", "score", "Napola", "Napola"},
    {"most_sevens", "score", "Most sevens", "Più sette"},
    {"all_sevens", "score", "All sevens bonus", "Bonus tutti i sette"},
    {"target", "end", "Target", "Punti per vincere"},
    {"tiebreak", "end", "Tie-break", "Spareggio"},
    {"win_by_two", "end", "Win by two", "Vincere di due"},
    {"cappotto", "end", "Cappotto", "Cappotto"},
    {"all_coins_wins", "end", "All coins wins", "Tutti i denari vince"},
    {"lowest_wins", "end", "Lowest wins (a perdere)",
     "Vince chi ha meno (a perdere)"},
};

static int label_of(const char *name) {
  for (size_t i = 0; name && i < sizeof LABELS / sizeof LABELS[0]; i++)
    if (strcmp(LABELS[i].name, name) == 0)
      return (int)i;
  return -1;
}

const char *scopa_option_label(const char *name, const char *lang) {
  int k = label_of(name);
  return k < 0 ? name : scopa__italian(lang) ? LABELS[k].it : LABELS[k].en;
}

const char *scopa_option_group(const char *name) {
  int k = label_of(name);
  return k < 0 ? "game" : LABELS[k].group;
}

/* A refusal names the options it is about: their labels in the message
 * (in its language), their names in *opts (scopa_rules_check_options). */
static void about(const char **opts, const char *a, const char *b) {
  if (opts) {
    opts[0] = a;
    opts[1] = b;
  }
}

/* The label of option `name` in the refusal's language. */
#define LABEL(name) scopa_option_label(name, it ? "it" : "en")

/* RULES.md "Game records": who may sit at the table. */
static int check_seats(const scopa_rules *r, int it, char *msg, size_t msgsize,
                       const char **opts) {
  int scopone = r->game != SCOPA_GAME_SCOPA;
  const char *game = GAMES[r->game];
  if (r->teams && r->players != 4 && r->players != 6) {
    about(opts, "teams", "players");
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "'%s' needs 4 or 6 players, not %d",
                         "'%s' vuole 4 o 6 giocatori, non %d"),
               LABEL("teams"), r->players);
    return SCOPA_ERULES;
  }
  if (r->team_size == 3 && !(r->teams && r->players == 6)) {
    about(opts, "team_size", "players");
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "'%s' 3 needs 6 players in teams",
                         "'%s' 3 vuole 6 giocatori in squadre"),
               LABEL("team_size"));
    return SCOPA_ERULES;
  }
  if (r->players == 6 && scopone) {
    about(opts, "players", "game");
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "6 players only play scopa, not %s",
                         "in 6 si gioca solo a scopa, non a %s"),
               game);
    return SCOPA_ERULES;
  }
  if (scopone && (r->players != 4 || !r->teams)) {
    about(opts, "game", r->players != 4 ? "players" : "teams");
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "%s is played by 4 players in two teams",
                         "a %s si gioca in 4, in due squadre"),
               game);
    return SCOPA_ERULES;
  }
  return SCOPA_OK;
}

/* RULES.md "Game records": options that only mean something together. */
static int check_play(const scopa_rules *r, int it, char *msg, size_t msgsize,
                      const char **opts) {
  const char *game = GAMES[r->game];
  if (r->game != SCOPA_GAME_SCOPA && r->refill == 1) {
    about(opts, "refill", "game");
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "'%s' 1 is only for scopa, not %s",
                         "'%s' 1 vale solo per la scopa, non per %s"),
               LABEL("refill"), game);
    return SCOPA_ERULES;
  }
  if (!r->ace_sweeps) {
    static const size_t ACE_OPTIONS[] = {
        FIELD(ace_sweep_with_ace), FIELD(ace_first_play),
        FIELD(ace_empty_table), FIELD(ace_sweep_optional)};
    for (size_t i = 0; i < sizeof ACE_OPTIONS / sizeof ACE_OPTIONS[0]; i++)
      for (int k = 0; k < NOPTIONS; k++)
        if (OPTIONS[k].offset == ACE_OPTIONS[i] &&
            *field((scopa_rules *)r, &OPTIONS[k]) != OPTIONS[k].initial) {
          about(opts, OPTIONS[k].info.name, "ace_sweeps");
          scopa__msg(
              msg, msgsize,
              SCOPA__TR(it, "'%s' needs '%s' on", "'%s' vuole '%s' attivo"),
              LABEL(OPTIONS[k].info.name), LABEL("ace_sweeps"));
          return SCOPA_ERULES;
        }
  }
  if (!r->single_match_first && r->capture == SCOPA_CAPTURE_QUINDICI) {
    about(opts, "single_match_first", "capture");
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "'%s' off is only for '%s' match",
                         "'%s' spento vale solo con '%s' match"),
               LABEL("single_match_first"), LABEL("capture"));
    return SCOPA_ERULES;
  }
  if (r->deal_bonus != SCOPA_DEAL_BONUS_OFF &&
      r->game == SCOPA_GAME_SCIENTIFICO) {
    about(opts, "deal_bonus", "game");
    scopa__msg(msg, msgsize,
               SCOPA__TR(it,
                         "'%s' needs table cards: not with "
                         "scopone_scientifico",
                         "'%s' vuole carte in tavola: non con "
                         "scopone_scientifico"),
               LABEL("deal_bonus"));
    return SCOPA_ERULES;
  }
  return SCOPA_OK;
}

/* RULES.md "End of the game", last paragraph. */
static int check_end(const scopa_rules *r, int it, char *msg, size_t msgsize,
                     const char **opts) {
  if (r->win_by_two && r->tiebreak != SCOPA_TIEBREAK_EXTRA_ROUND) {
    about(opts, "win_by_two", "tiebreak");
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "'%s' and '%s' %s cannot be combined",
                         "'%s' e '%s' %s non vanno insieme"),
               LABEL("win_by_two"), LABEL("tiebreak"), TIEBREAKS[r->tiebreak]);
    return SCOPA_ERULES;
  }
  if (r->lowest_wins && (r->win_by_two || r->cappotto || r->all_coins_wins ||
                         r->tiebreak != SCOPA_TIEBREAK_EXTRA_ROUND)) {
    const char *other = r->win_by_two       ? "win_by_two"
                        : r->cappotto       ? "cappotto"
                        : r->all_coins_wins ? "all_coins_wins"
                                            : "tiebreak";
    about(opts, "lowest_wins", other);
    if (strcmp(other, "tiebreak") == 0)
      scopa__msg(msg, msgsize,
                 SCOPA__TR(it, "'%s' cannot be combined with '%s' %s",
                           "'%s' non va insieme a '%s' %s"),
                 LABEL("lowest_wins"), LABEL("tiebreak"),
                 TIEBREAKS[r->tiebreak]);
    else
      scopa__msg(msg, msgsize,
                 SCOPA__TR(it, "'%s' cannot be combined with '%s'",
                           "'%s' non va insieme a '%s'"),
                 LABEL("lowest_wins"), LABEL(other));
    return SCOPA_ERULES;
  }
  return SCOPA_OK;
}

#undef LABEL

static int check_all(scopa_rules *rules, const char *lang, char *msg,
                     size_t msgsize, const char **opts) {
  int it = scopa__italian(lang);
  int scopone = rules->game != SCOPA_GAME_SCOPA;
  about(opts, NULL, NULL);
  if (rules->players == 0)
    rules->players = scopone ? 4 : 2;
  if (rules->teams < 0)
    rules->teams = scopone;
  int rc = check_seats(rules, it, msg, msgsize, opts);
  if (rc == SCOPA_OK)
    rc = check_play(rules, it, msg, msgsize, opts);
  if (rc == SCOPA_OK)
    rc = check_end(rules, it, msg, msgsize, opts);
  return rc;
}

int scopa_rules_check(scopa_rules *rules, const char *lang, char *msg,
                      size_t msgsize) {
  return check_all(rules, lang, msg, msgsize, NULL);
}

int scopa_rules_check_options(const scopa_rules *rules, const char *names[2]) {
  scopa_rules copy = *rules;
  const char *opts[2];
  check_all(&copy, NULL, NULL, 0, opts);
  names[0] = opts[0];
  names[1] = opts[1];
  return (opts[0] != NULL) + (opts[1] != NULL);
}

/* RULES.md "Presets": each is a few options over the defaults. */
typedef struct preset {
  const char *name, *alias;
  void (*apply)(scopa_rules *r);
} preset;

static void p_scopa(scopa_rules *r) { (void)r; }
static void p_scopone(scopa_rules *r) { r->game = SCOPA_GAME_SCOPONE; }
static void p_scientifico(scopa_rules *r) { r->game = SCOPA_GAME_SCIENTIFICO; }
static void p_assi(scopa_rules *r) { r->ace_sweeps = 1; }
static void p_quindici(scopa_rules *r) { r->capture = SCOPA_CAPTURE_QUINDICI; }
static void p_escoba(scopa_rules *r) {
  r->capture = SCOPA_CAPTURE_QUINDICI;
  r->primiera = SCOPA_PRIMIERA_OFF;
  r->most_sevens = 1;
  r->deal_bonus = SCOPA_DEAL_BONUS_FIFTEEN;
  r->target = 21;
}
static void p_trentuno(scopa_rules *r) {
  r->game = SCOPA_GAME_SCIENTIFICO;
  r->ace_sweeps = 1;
  r->ace_sweep_scopa = 0;
  r->napola = 1;
  r->target = 31;
  r->all_coins_wins = 1;
}
static void p_perdere(scopa_rules *r) {
  r->lowest_wins = 1;
  r->target = 21;
}

static const preset PRESETS[] = {
    {"scopa", NULL, p_scopa},
    {"scopone", NULL, p_scopone},
    {"scientifico", "scopone_scientifico", p_scientifico},
    {"assi", "scopa_d_assi", p_assi},
    {"quindici", "scopa_a_quindici", p_quindici},
    {"escoba", NULL, p_escoba},
    {"trentuno", "scopone_a_trentuno", p_trentuno},
    {"perdere", "scopa_a_perdere", p_perdere},
};
#define NPRESETS ((int)(sizeof PRESETS / sizeof PRESETS[0]))

const char *const *scopa_rules_preset_names(void) {
  static const char *const NAMES[NPRESETS + 1] = {
      "scopa",  "scopone",  "scientifico", "assi", "quindici",
      "escoba", "trentuno", "perdere",     NULL};
  return NAMES;
}

int scopa_rules_preset(scopa_rules *rules, const char *name) {
  scopa_rules_init(rules);
  for (int i = 0; i < NPRESETS; i++)
    if (strcmp(name, PRESETS[i].name) == 0 ||
        (PRESETS[i].alias && strcmp(name, PRESETS[i].alias) == 0)) {
      PRESETS[i].apply(rules);
      return scopa_rules_check(rules, NULL, NULL, 0);
    }
  return SCOPA_EINVAL;
}

int scopa_rules_sides(const scopa_rules *rules) {
  /* team_size is 2 or 3 in checked rules; unchecked ones count as 2. */
  return rules->teams ? rules->players / (rules->team_size == 3 ? 3 : 2)
                      : rules->players;
}

int scopa_rules_side_of(const scopa_rules *rules, int seat) {
  return seat % scopa_rules_sides(rules);
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
  scopa_rules_check(&base, NULL, NULL, 0);
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
