/*
 * config.c -- the command line of `scopa play`.
 *
 * Every option of RULES.md is a flag named as the option ("--target 21",
 * "--ace_sweeps" or "--ace-sweeps true", "--no-re_bello"), taken from the
 * library's option table so a new option needs no change here.  Presets
 * set the game first; explicit options then override them, whatever their
 * order on the line.
 */
#include "session.h"

#include <stdlib.h>
#include <string.h>

static const char USAGE[] =
    "usage: scopa play [OPTIONS]\n"
    "\n"
    "  --preset NAME      a named rules set (listed below)\n"
    "  --opponent BOT     computer players (default: the strongest)\n"
    "  --partner BOT      your partner in a team game (default: --opponent)\n"
    "  --level L          a level by number (1 weakest) or by name, Italian\n"
    "                     or English (listed below)\n"
    "  --movetime MS      bot thinking time per move\n"
    "  --players N        2, 3, 4 or 6;  --teams  partners (4 or 6\n"
    "                     players; --team_size 3: six as two teams of 3)\n"
    "  --humans N         hot seat: N people share this terminal (seats 1..N)\n"
    "  --seats A,B,..     who sits where: human or a bot name, per seat\n"
    "  --seed S           fixes every deck and the first dealer (1 to 64\n"
    "                     hexadecimal digits; the game's record keeps it)\n"
    "  --record FILE      where the game record goes (default: data dir)\n"
    "  --resume FILE      continue an unfinished game from its record\n"
    "  --plain            line mode, even on a terminal\n"
    "  --lang it|en       language (default from LANG)\n"
    "  --ascii            no Unicode card symbols;  --no-color\n"
    "  --delay MS         pause after a computer's move (full screen)\n"
    "  --hints, --no-hints  the best move on request ('?' on the table,\n"
    "                     'hint' in line mode); on by default except at\n"
    "                     level campione\n"
    "\n";

/* "  --target             1 or more (default 11)" */
static void rules_option_usage(FILE *out, const scopa_option_info *o) {
  char vals[160] = "";
  const char *def = o->default_text;
  if (o->kind == SCOPA_OPT_BOOL) {
    snprintf(vals, sizeof vals, "true|false");
    def = !strcmp(def, "1") ? "true" : !strcmp(def, "0") ? "false" : def;
  } else if (o->kind == SCOPA_OPT_INT && o->max > 1000000)
    snprintf(vals, sizeof vals, "%lld or more", o->min);
  else if (o->kind == SCOPA_OPT_INT) {
    /* A small range: the values the library takes ("1|3", "2|3|4|6"). */
    scopa_rules scratch;
    scopa_rules_init(&scratch);
    for (long long v = o->min; v <= o->max; v++)
      if (scopa_rules_set(&scratch, o->name, v, NULL, NULL, 0) == SCOPA_OK)
        snprintf(vals + strlen(vals), sizeof vals - strlen(vals), "%s%lld",
                 *vals ? "|" : "", v);
  } else
    for (int k = 0; o->values[k]; k++)
      snprintf(vals + strlen(vals), sizeof vals - strlen(vals), "%s%s",
               k ? "|" : "", o->values[k]);
  fprintf(out, "  --%-18s %s (default %s)\n", o->name, vals, def);
  if (o->help)
    fprintf(out, "  %-20s %s\n", "", o->help);
}

/* RULES.md "Presets": the options each one sets. */
static void presets_usage(FILE *out) {
  const char *const *names = scopa_rules_preset_names();
  fprintf(out, "presets (--preset), then any option below overrides:\n");
  for (int i = 0; names[i]; i++) {
    scopa_rules r;
    char words[300];
    scopa_rules_preset(&r, names[i]);
    scopa_rules_str(&r, words, sizeof words);
    fprintf(out, "  %-12s %s\n", names[i], words);
  }
  fprintf(out, "\n");
}

static void usage(FILE *out) {
  fputs(USAGE, out);
  presets_usage(out);
  fprintf(out, "rules options (RULES.md), each as --NAME VALUE:\n");
  for (int i = 0; i < scopa_option_count(); i++)
    rules_option_usage(out, scopa_option_get(i));
  fprintf(out,
          "\nopponents (--opponent, --partner, --seats), weakest first:\n");
  const char *const *bots = scopa_bot_names();
  for (int i = 0; bots[i]; i++) {
    const char *what = scopa_bot_describe(bots[i]);
    fprintf(out, "  %-10s %s\n", bots[i], what ? what : "");
  }
  /* The levels of the library's catalogue (scopa_bot_level_get). */
  fprintf(out, "\nlevels (--level):\n");
  const char *it, *en, *bot;
  int ms;
  for (int i = 0; scopa_bot_level_get(i, &it, &en, &bot, &ms) == SCOPA_OK; i++)
    fprintf(out, "  %d %-12s %s%s\n", i + 1, it, bot,
            ms ? ", limited time" : "");
}

static int lang_from_env(void) {
  const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
  for (int i = 0; i < 3; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v)
      return strncmp(v, "it", 2) == 0;
  }
  return 0;
}

/* "ace-sweeps" -> "ace_sweeps"; NULL if no such option. */
static const scopa_option_info *find_option(const char *flag) {
  char name[64];
  snprintf(name, sizeof name, "%s", flag);
  for (char *p = name; *p; p++)
    if (*p == '-')
      *p = '_';
  for (int i = 0; i < scopa_option_count(); i++)
    if (strcmp(scopa_option_get(i)->name, name) == 0)
      return scopa_option_get(i);
  return NULL;
}

/* A numeric flag (the whole value, in range: scopa_parse_int); prints
 * the one-line reason and returns the exit status 2 when it is not. */
static int number_flag(const char *arg, const char *eq, const char *text,
                       long long min, long long max, long long *out) {
  char flag[64], msg[300];
  snprintf(flag, sizeof flag, "%.*s", (int)(eq ? eq - arg : (long)strlen(arg)),
           arg);
  if (!text) {
    fprintf(stderr, "scopa play: %s needs a value (scopa play --help)\n", flag);
    return 2;
  }
  if (scopa_parse_int(flag, text, min, max, out, msg, sizeof msg) == SCOPA_OK)
    return 0;
  fprintf(stderr, "scopa play: %s\n", msg);
  return 2;
}

static int split_seats(play_config *cfg, const char *list) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", list);
  int n = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    if (n == SCOPA_MAX_SEATS)
      return -1;
    snprintf(cfg->seat_kind[n++], PLAY_NAME, "%s", tok);
  }
  return n >= 2 ? n : -1;
}

/* A level by number (1 weakest: the library's order, scopa_bot_level_get)
 * or by name (scopa_bot_level). */
static int level_name(const char *text, char *out) {
  const char *it, *en, *bot;
  int ms;
  if (text[0] >= '1' && text[0] <= '9' && !text[1] &&
      scopa_bot_level_get(text[0] - '1', &it, &en, &bot, &ms) == SCOPA_OK)
    text = it;
  if (scopa_bot_level(text, NULL, NULL) != SCOPA_OK)
    return -1;
  snprintf(out, PLAY_NAME, "%s", text);
  return 0;
}

/* Whether name is the catalogue's last, strongest level ("campione"). */
static int strongest_level(const char *name) {
  const char *it, *en, *bot, *last_it = NULL, *last_en = NULL;
  int ms;
  for (int i = 0; scopa_bot_level_get(i, &it, &en, &bot, &ms) == SCOPA_OK; i++)
    last_it = it, last_en = en;
  return last_it && (strcmp(name, last_it) == 0 || strcmp(name, last_en) == 0);
}

typedef struct parser {
  play_config *cfg;
  int argc, i;
  char **argv;
  /* Rules options are applied after the preset. */
  const char *opt_name[64];
  const char *opt_value[64];
  int nopts;
  const char *preset;
} parser;

/* The value of the current flag: after '=' or the next argument. */
static const char *take_value(parser *p, const char *eq) {
  if (eq)
    return eq + 1;
  if (p->i + 1 < p->argc)
    return p->argv[++p->i];
  return NULL;
}

static int is_bool_word(const char *v) {
  return v && (!strcmp(v, "true") || !strcmp(v, "false"));
}

static int rules_flag(parser *p, const char *flag, const char *eq) {
  int negated = strncmp(flag, "no-", 3) == 0 || strncmp(flag, "no_", 3) == 0;
  char name[64];
  snprintf(name, sizeof name, "%.*s",
           (int)(eq ? eq - flag : (long)strlen(flag)), flag);
  const scopa_option_info *o = find_option(name);
  if (!o && negated) {
    o = find_option(name + 3);
    if (!o || o->kind != SCOPA_OPT_BOOL)
      return -1;
    if (p->nopts < 64) {
      p->opt_name[p->nopts] = o->name;
      p->opt_value[p->nopts++] = "false";
    }
    return 0;
  }
  if (!o)
    return -1;
  const char *value;
  if (o->kind == SCOPA_OPT_BOOL && !eq &&
      !(p->i + 1 < p->argc && is_bool_word(p->argv[p->i + 1])))
    value = "true"; /* "--napola" alone turns it on */
  else
    value = take_value(p, eq);
  if (!value)
    return -2;
  if (p->nopts < 64) {
    p->opt_name[p->nopts] = o->name;
    p->opt_value[p->nopts++] = value;
  }
  return 0;
}

/* A usage error in one line; the argument is shown escaped. */
static int bad(const char *what, const char *arg) {
  char shown[80];
  const char *a = arg ? arg : "";
  if (scopa_text_safe(shown, sizeof shown, a, strlen(a), 0) >= sizeof shown)
    memcpy(shown + sizeof shown - 4, "...", 4);
  fprintf(stderr, "scopa play: %s '%s' (scopa play --help)\n", what, shown);
  return 2;
}

/* One argument; returns 0, or an exit status. */
static int one_arg(parser *p) {
  play_config *cfg = p->cfg;
  const char *arg = p->argv[p->i];
  if (strncmp(arg, "--", 2) != 0)
    return bad("unexpected argument", arg);
  const char *flag = arg + 2, *eq = strchr(flag, '=');
  size_t len = eq ? (size_t)(eq - flag) : strlen(flag);
#define IS(name) (len == strlen(name) && strncmp(flag, name, len) == 0)
  long long v;
  const char *val;
  if (IS("help")) {
    usage(stdout);
    return -1;
  } else if (IS("plain")) {
    cfg->plain = 1;
  } else if (IS("hints") || IS("no-hints")) {
    cfg->hints = IS("hints");
  } else if (IS("ascii")) {
    cfg->ascii = 1;
  } else if (IS("no-color") || IS("no-colour")) {
    cfg->no_color = 1;
  } else if (IS("preset") || IS("rules")) {
    if (!(p->preset = take_value(p, eq)))
      return bad("missing value for", arg);
  } else if (IS("opponent") || IS("partner")) {
    if (!(val = take_value(p, eq)))
      return bad("missing value for", arg);
    snprintf(IS("opponent") ? cfg->opponent : cfg->partner, PLAY_NAME, "%s",
             val);
  } else if (IS("seats")) {
    if (!(val = take_value(p, eq)) || split_seats(cfg, val) < 0)
      return bad("--seats wants 2 to 4 names, comma separated:", val);
  } else if (IS("lang")) {
    if (!(val = take_value(p, eq)) || (strcmp(val, "it") && strcmp(val, "en")))
      return bad("--lang is it or en, not", val);
    cfg->italian = strcmp(val, "it") == 0;
  } else if (IS("record") || IS("resume")) {
    if (!(val = take_value(p, eq)))
      return bad("missing file for", arg);
    snprintf(IS("record") ? cfg->record : cfg->resume, PLAY_PATH, "%s", val);
  } else if (IS("seed")) {
    if (!(val = take_value(p, eq)) ||
        scopa_seed_check(val, NULL, 0) != SCOPA_OK)
      return bad("--seed wants 1 to 64 hexadecimal digits (0-9, a-f), not",
                 val);
    snprintf(cfg->seed, sizeof cfg->seed, "%s", val);
  } else if (IS("level")) {
    if (!(val = take_value(p, eq)) || level_name(val, cfg->level))
      return bad("unknown level", val);
  } else if (IS("movetime") || IS("delay") || IS("humans")) {
    long long max = IS("humans") ? SCOPA_MAX_SEATS : 600000;
    if (number_flag(arg, eq, take_value(p, eq), IS("humans"), max, &v))
      return 2;
    *(IS("movetime") ? &cfg->movetime_ms
      : IS("delay")  ? &cfg->delay_ms
                     : &cfg->humans) = (int)v;
  } else {
    int rc = rules_flag(p, flag, eq);
    if (rc == -2)
      return bad("missing value for", arg);
    if (rc)
      return bad("unknown option", arg);
  }
#undef IS
  return 0;
}

/* The preset, then the options in the order given, then the check. */
static int build_rules(parser *p) {
  play_config *cfg = p->cfg;
  char msg[256];
  if (p->preset) {
    if (scopa_rules_preset(&cfg->rules, p->preset) != SCOPA_OK)
      return bad("no preset is called", p->preset);
  }
  for (int k = 0; k < p->nopts; k++)
    if (scopa_rules_set_text(&cfg->rules, p->opt_name[k], p->opt_value[k], NULL,
                             msg, sizeof msg) != SCOPA_OK) {
      fprintf(stderr, "scopa play: %s\n", msg);
      return 2;
    }
  cfg->rules_given = p->preset || p->nopts;
  if (scopa_rules_check(&cfg->rules, NULL, msg, sizeof msg) != SCOPA_OK) {
    fprintf(stderr, "scopa play: %s\n", msg);
    return 2;
  }
  return 0;
}

/* A computer player's name as --opponent, --partner and --seats take it:
 * a bot of this build, or a level ("esperto"). */
static int is_bot(const char *name) {
  scopa_bot *bot = NULL;
  if (scopa_bot_new(name, &bot) == SCOPA_OK) {
    scopa_bot_free(bot);
    return 1;
  }
  return scopa_bot_level(name, NULL, NULL) == SCOPA_OK;
}

/* What the rules decide the people and the computers cannot be: a bot
 * this build does not have, more people than seats. */
static int check_seats(const play_config *cfg) {
  if (*cfg->opponent && !is_bot(cfg->opponent))
    return bad("--opponent: no computer player is called", cfg->opponent);
  if (*cfg->partner && !is_bot(cfg->partner))
    return bad("--partner: no computer player is called", cfg->partner);
  for (int i = 0; i < SCOPA_MAX_SEATS; i++)
    if (*cfg->seat_kind[i] && strcmp(cfg->seat_kind[i], "human") != 0 &&
        !is_bot(cfg->seat_kind[i]))
      return bad("--seats: neither 'human' nor a computer player:",
                 cfg->seat_kind[i]);
  if (!*cfg->resume && cfg->humans > cfg->rules.players) {
    fprintf(stderr,
            "scopa play: --humans %d: the game has %d seats (--players)\n",
            cfg->humans, cfg->rules.players);
    return 2;
  }
  return 0;
}

int play_config_parse(play_config *cfg, int argc, char **argv) {
  memset(cfg, 0, sizeof *cfg);
  scopa_rules_init(&cfg->rules);
  cfg->italian = lang_from_env();
  cfg->delay_ms = 700;
  cfg->humans = 1;
  cfg->hints = -1;
  parser p = {.cfg = cfg, .argc = argc, .argv = argv};
  for (p.i = 1; p.i < argc; p.i++) {
    int rc = one_arg(&p);
    if (rc)
      return rc < 0 ? -1 : rc;
  }
  if (cfg->hints < 0) /* the strongest level plays without help by default */
    cfg->hints = !strongest_level(cfg->level);
  int rc = build_rules(&p);
  return rc ? rc : check_seats(cfg);
}
