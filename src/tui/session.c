/*
 * session.c -- one game of `scopa play`: who sits where, and the game
 * itself played through the library's whole-game object (scopa_match),
 * which deals every round from the game's seed, checks and plays the
 * moves, adds up the scores and ends the game.
 *
 * Keeps true: the record is saved to s->record_path after every deal and
 * every move, so the file on disk is never behind the game by more than
 * the move being chosen.  The game is a function of its seed (--seed, or
 * one from the operating system, kept in the record): a resumed game
 * deals what the straight game would have, and the bots' seeds follow
 * from it too (scopa_match_bot_seed).
 */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t play_stop;

/* mkdir -p for the directory part of path. */
static void make_dirs(char *path) {
  for (char *p = path + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(path, 0755);
      *p = '/';
    }
}

/* $XDG_DATA_HOME/scopa/games/DATE-TIME-SEED.json (or ~/.local/share). */
static void default_record_path(play_session *s) {
  const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
  char dir[PLAY_PATH - 64];
  if (xdg && *xdg == '/')
    snprintf(dir, sizeof dir, "%s/scopa/games", xdg);
  else if (home && *home)
    snprintf(dir, sizeof dir, "%s/.local/share/scopa/games", home);
  else
    snprintf(dir, sizeof dir, ".");
  char stamp[32];
  time_t now = time(NULL);
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime(&now));
  snprintf(s->record_path, sizeof s->record_path, "%s/%s-%.12s.json", dir,
           stamp, scopa_match_seed(s->match));
}

static const char *best_bot(void) {
  const char *const *names = scopa_bot_names();
  const char *best = NULL;
  for (int i = 0; names[i]; i++)
    if (strcmp(names[i], "best") == 0)
      return "best";
    else
      best = names[i];
  return best;
}

/* A level's name in the screen's language (the catalogue's: "esperto"
 * is "expert" on an English screen), or name itself. */
static const char *level_label(const play_session *s, const char *name) {
  const char *it, *en, *bot;
  int ms;
  for (int i = 0; scopa_bot_level_get(i, &it, &en, &bot, &ms) == SCOPA_OK; i++)
    if (strcmp(name, it) == 0 || strcmp(name, en) == 0)
      return s->cfg.italian ? it : en;
  return name;
}

/* A bot by name or by level name ("esperto"), else the best there is
 * (said on stderr).  --level sets the bot when no name is given, and the
 * time per move unless --movetime does. */
static void make_bot(play_session *s, play_seat *seat, const char *want) {
  const char *level_bot = NULL;
  int ms = 0;
  if (*s->cfg.level)
    scopa_bot_level(s->cfg.level, &level_bot, &ms);
  if (!*want)
    want = level_bot ? level_bot : best_bot();
  const char *bot = want;
  if (scopa_bot_new(want, &seat->bot) != SCOPA_OK &&
      (scopa_bot_level(want, &bot, &ms) != SCOPA_OK ||
       scopa_bot_new(bot, &seat->bot) != SCOPA_OK)) {
    char shown[PLAY_NAME];
    play_name_from_record(shown, want);
    fprintf(stderr,
            "scopa play: no bot named '%s' in this build; playing "
            "against '%s' instead\n",
            shown, best_bot());
    want = best_bot();
    scopa_bot_new(want, &seat->bot);
  }
  seat->movetime_ms = s->cfg.movetime_ms ? s->cfg.movetime_ms : ms;
  snprintf(seat->name, PLAY_NAME, "%s", want);
}

static int seat_is_partner(const play_session *s, int seat) {
  return s->rules.teams && seat == 2;
}

/* Who sat at a seat, from its name in a record this program wrote:
 * "You", "Player 2" are people, "Computer" the default bot, a bot or level
 * name (maybe numbered, "greedy 2") that bot, and any other name a person. */
static void kind_from_name(const char *name, char *kind) {
  char base[PLAY_NAME];
  snprintf(base, sizeof base, "%s", name);
  char *sp = strrchr(base, ' ');
  if (sp && sp[1] && strspn(sp + 1, "0123456789") == strlen(sp + 1))
    *sp = 0;
  if (!strcmp(base, "Computer"))
    kind[0] = 0;
  else if (scopa_bot_describe(base) || scopa_bot_level(base, NULL, NULL) == 0)
    snprintf(kind, PLAY_NAME, "%s", base);
  else
    snprintf(kind, PLAY_NAME, "human");
}

static void setup_seats(play_session *s) {
  const play_config *c = &s->cfg;
  int players = s->rules.players;
  s->humans = 0;
  for (int i = 0; i < players; i++) {
    play_seat *seat = &s->seat[i];
    char from_record[PLAY_NAME] = "";
    const char *kind = c->seat_kind[i];
    if (!*kind && s->resumed && s->record_kinds) {
      scopa_seat rs;
      scopa_match_seat(s->match, i, &rs, NULL);
      snprintf(from_record, PLAY_NAME, "%s",
               rs.kind == SCOPA_SEAT_BOT && rs.bot ? rs.bot : "human");
      kind = strcmp(from_record, "human") && *c->opponent ? "" : from_record;
    } else if (!*kind && s->resumed) {
      kind_from_name(s->record_names[i], from_record);
      kind = strcmp(from_record, "human") && *c->opponent ? "" : from_record;
    }
    if (!*kind && !s->resumed)
      kind = i < (c->humans ? c->humans : 1) ? "human" : "";
    if (strcmp(kind, "human") == 0) {
      seat->human = 1;
      s->humans++;
      continue;
    }
    if (!*kind)
      kind = seat_is_partner(s, i) && *c->partner ? c->partner : c->opponent;
    make_bot(s, seat, kind);
    if (!*kind) /* the default opponent, or one given by level */
      snprintf(seat->name, PLAY_NAME, "%s",
               *c->level ? level_label(s, c->level) : "Computer");
  }
  int k = 0;
  for (int i = 0; i < players; i++)
    if (s->seat[i].human) {
      k++;
      if (s->humans == 1)
        snprintf(s->seat[i].name, PLAY_NAME, "%s", TX(s, "You", "Tu"));
      else
        snprintf(s->seat[i].name, PLAY_NAME, "%s %d",
                 TX(s, "Player", "Giocatore"), k);
    }
  /* Bots of the same kind are numbered: "greedy 1", "greedy 2". */
  char base[SCOPA_MAX_SEATS][PLAY_NAME];
  for (int i = 0; i < players; i++)
    memcpy(base[i], s->seat[i].name, PLAY_NAME);
  for (int i = 0; i < players; i++) {
    int same = 0, before = 0;
    for (int j = 0; j < players; j++)
      if (!s->seat[i].human && strcmp(base[i], base[j]) == 0)
        same++, before += j < i;
    if (same > 1)
      snprintf(s->seat[i].name, PLAY_NAME, "%.20s %d", base[i], before + 1);
  }
  for (int i = 0; s->resumed && i < players; i++)
    memcpy(s->seat[i].name, s->record_names[i], PLAY_NAME);
}

const char *play_seat_name(const play_session *s, int seat) {
  return s->seat[seat].name;
}

const char *play_side_name(const play_session *s, int side, char *buf,
                           size_t n) {
  /* With teams a side is every seat `sides` apart (RULES.md "Seats"). */
  int sides = scopa_rules_sides(&s->rules);
  snprintf(buf, n, "%s", s->seat[side].name);
  for (int seat = side + sides; s->rules.teams && seat < s->rules.players;
       seat += sides)
    snprintf(buf + strlen(buf), n - strlen(buf), " & %s", s->seat[seat].name);
  return buf;
}

/* Rebuilds the game from a record: the match with its unfinished round,
 * the seat names, and who was a bot when the record says so. */
static int resume(play_session *s, char *msg, size_t msgsize) {
  size_t len;
  char *text;
  /* The library's reader: capped at 4 MiB, and a directory, a missing or
   * unreadable file, a pipe, no memory all get their own message. */
  if (scopa_record_read_file(s->cfg.resume, &text, &len, msg, msgsize) !=
      SCOPA_OK)
    return PLAY_EUSAGE;
  scopa_fault fault;
  int rc = scopa_match_from_record(text, len, &s->match, &fault);
  s->record_kinds = rc == SCOPA_OK && strstr(text, "\"bots\"") != NULL;
  scopa_free(text);
  if (rc != SCOPA_OK) {
    char shown[200];
    play_name_shown(shown, sizeof shown, s->cfg.resume);
    snprintf(msg, msgsize, "%s is not a good record: %s", shown, fault.message);
    return PLAY_EUSAGE;
  }
  s->rules = *scopa_match_rules(s->match);
  s->resumed = 1;
  for (int i = 0; i < s->rules.players; i++) {
    scopa_seat seat;
    scopa_match_seat(s->match, i, &seat, NULL);
    if (*seat.name)
      play_name_from_record(s->record_names[i], seat.name);
    else
      snprintf(s->record_names[i], PLAY_NAME, "%s", i ? "Computer" : "You");
  }
  return 0;
}

/* A new game: the seats as set up, and the seed given or a fresh one. */
static int start_new(play_session *s, char *msg, size_t msgsize) {
  scopa_seat seats[SCOPA_MAX_SEATS];
  for (int i = 0; i < s->rules.players; i++) {
    const play_seat *p = &s->seat[i];
    seats[i].kind = p->human ? SCOPA_SEAT_PERSON : SCOPA_SEAT_BOT;
    seats[i].name = p->name;
    seats[i].bot = p->bot ? scopa_bot_name(p->bot) : NULL;
    seats[i].level = !p->human && *s->cfg.level ? s->cfg.level : NULL;
  }
  return scopa_match_new(&s->rules, seats, *s->cfg.seed ? s->cfg.seed : NULL,
                         &s->match, msg, msgsize) == SCOPA_OK
             ? 0
             : -1;
}

/* The faces' copies of the game (session.h), after every deal and move. */
static void mirror(play_session *s) {
  const scopa_state *st = scopa_match_state(s->match);
  s->game = *scopa_match_tally(s->match);
  s->round_no = scopa_match_rounds(s->match);
  s->round_live = scopa_match_phase(s->match) == SCOPA_MATCH_PLAY;
  if (st)
    s->st = *st;
}

/* Where the record goes, checked before the game starts: never over a
 * file that holds another saved game (issue 14), never over anything but
 * a regular file.  Returns 0 or PLAY_EUSAGE with the reason. */
static int check_record_path(const play_session *s, char *msg, size_t msgsize) {
  const char *resumed = *s->cfg.resume ? s->cfg.resume : NULL;
  char why[600];
  if (scopa_record_target_check(s->record_path, resumed, why, sizeof why) ==
      SCOPA_OK)
    return 0;
  if (resumed && strcmp(resumed, s->record_path) == 0)
    snprintf(msg, msgsize,
             "%s (resume from a file, or give --record FILE "
             "for the continued game)",
             why);
  else
    snprintf(msg, msgsize, "%s", why);
  return PLAY_EUSAGE;
}

int play_session_open(play_session *s, const play_config *cfg, char *msg,
                      size_t msgsize) {
  memset(s, 0, sizeof *s);
  s->cfg = *cfg;
  s->rules = cfg->rules;
  if (*cfg->resume) {
    int rrc = resume(s, msg, msgsize);
    if (rrc)
      return rrc;
    if (cfg->rules_given)
      fprintf(stderr, "scopa play: resuming: the record's rules apply\n");
  }
  setup_seats(s);
  if (!*cfg->resume && start_new(s, msg, msgsize))
    return -1;
  mirror(s);
  if (*cfg->record)
    snprintf(s->record_path, sizeof s->record_path, "%s", cfg->record);
  else if (*cfg->resume)
    snprintf(s->record_path, sizeof s->record_path, "%s", cfg->resume);
  else
    default_record_path(s);
  int rc = check_record_path(s, msg, msgsize);
  if (rc)
    return rc;
  make_dirs(s->record_path);
  if (play_session_save(s)) {
    if (*cfg->record || *cfg->resume) {
      snprintf(msg, msgsize, "%s", s->save_msg);
      return -1;
    }
    /* The default place is not writable: play on, and say so. */
    fprintf(stderr,
            "scopa play: %s; this game will not be recorded (use --record "
            "FILE)\n",
            s->save_msg);
  }
  s->opened = 1;
  return 0;
}

void play_session_close(play_session *s) {
  if (s->opened) /* a refused game saves nothing */
    play_session_save(s);
  for (int i = 0; i < SCOPA_MAX_SEATS; i++)
    scopa_bot_free(s->seat[i].bot);
  scopa_bot_free(s->hint_bot);
  s->hint_bot = NULL;
  scopa_match_free(s->match);
  s->match = NULL;
}

int play_session_save(play_session *s) {
  if (!s->match)
    return -1;
  int rc = scopa_match_save(s->match, s->record_path, s->save_msg,
                            sizeof s->save_msg);
  s->save_failed = rc != SCOPA_OK;
  return rc == SCOPA_OK ? 0 : -1;
}

void play_session_deal(play_session *s) {
  if (scopa_match_deal(s->match, NULL) != SCOPA_OK)
    return; /* a round in play (resumed), or the game is over */
  s->has_last = 0;
  mirror(s);
  play_session_save(s);
}

int play_session_apply(play_session *s, scopa_move move, char *msg,
                       size_t msgsize) {
  scopa_event ev;
  int rc = scopa_match_apply(s->match, move, &ev, msg, msgsize);
  if (rc != SCOPA_OK)
    return rc;
  s->has_last = 1;
  s->last_seat = ev.seat;
  s->last_move = move;
  s->last_scopa = ev.scopa;
  s->last_table = ev.table_before;
  mirror(s);
  if (ev.round_over) {
    s->score = ev.score;
    memcpy(s->round_pile, s->st.pile, sizeof s->round_pile);
    for (int side = 0; side < ev.score.sides; side++)
      s->totals_before[side] = ev.totals[side] - ev.score.side[side].total;
  }
  play_session_save(s);
  return SCOPA_OK;
}

scopa_move play_session_bot_move(play_session *s) {
  int seat = scopa_match_to_play(s->match);
  scopa_view view;
  scopa_match_view(s->match, seat, &view);
  scopa_bot_limits lim = {0};
  lim.seed = scopa_match_bot_seed(s->match);
  lim.movetime_ms = s->seat[seat].movetime_ms;
  scopa_move move = 0;
  if (scopa_bot_choose(s->seat[seat].bot, &view, &lim, &move) != SCOPA_OK ||
      scopa_state_check(&s->st, move, NULL, NULL, 0) != SCOPA_OK) {
    scopa_move first; /* a bot that fails still must not stop the game */
    scopa_state_legal(&s->st, &first, 1);
    move = first;
  }
  return move;
}

/* The hint for the seat to play (scopa_bot_hint, best first) into
 * out[0..cap) and its view; the number of legal moves, or -1. */
static int session_hints(play_session *s, scopa_view *view, scopa_hint *out,
                         int cap) {
  if (!s->cfg.hints || !s->round_live ||
      (!s->hint_bot && scopa_bot_new("best", &s->hint_bot) != SCOPA_OK))
    return -1;
  /* The library's hint at a table: its seed, work and safety net. */
  scopa_bot_limits lim = {.movetime_ms = s->cfg.hint_ms};
  int n = scopa_match_hint(s->match, s->hint_bot, &lim, out, cap, view);
  return n > 0 ? n : -1;
}

int play_session_hint(play_session *s, scopa_move *move, double *value) {
  scopa_view view;
  scopa_hint best;
  if (session_hints(s, &view, &best, 1) < 0)
    return -1;
  *move = best.move;
  *value = best.value;
  return 0;
}

#define HINT_SHOWN 64

/* How the hinted move stands against the others, in the library's
 * words (scopa_hint_others_words), after a space. */
static void hint_compare(const play_session *s, const scopa_hint *h, int n,
                         char *buf, size_t size) {
  double loss[HINT_SHOWN], margin[HINT_SHOWN];
  int k = 0;
  for (int i = 1; i < n && k < HINT_SHOWN; i++, k++) {
    loss[k] = h[i].loss;
    margin[k] = h[i].loss_margin;
  }
  if (size)
    buf[0] = ' ';
  if (size > 1)
    scopa_hint_others_words(n > 0 ? h[0].value : NAN, loss, margin, k,
                            s->cfg.italian ? "it" : "en", buf + 1, size - 1);
}

char *play_hint_words(play_session *s, char *buf, size_t n) {
  if (!s->cfg.hints) {
    snprintf(buf, n, "%s",
             TX(s, "Hints are off (scopa play --hints turns them on).",
                "I consigli sono spenti (scopa play --hints li accende)."));
    return buf;
  }
  scopa_view view;
  scopa_hint h[HINT_SHOWN];
  int k = session_hints(s, &view, h, HINT_SHOWN);
  if (k < 0) {
    snprintf(buf, n, "%s", TX(s, "No hint now.", "Nessun consiglio ora."));
    return buf;
  }
  const char *lang = s->cfg.italian ? "it" : "en";
  char move[300], why[300], compare[200];
  scopa_why w;
  scopa_move_words(h[0].move, lang, NULL, move, sizeof move);
  scopa_move_why(&view, h[0].move, &w);
  scopa_why_words(&w, 2, lang, NULL, why, sizeof why);
  hint_compare(s, h, k < HINT_SHOWN ? k : HINT_SHOWN, compare, sizeof compare);
  snprintf(buf, n, "%s %s%s%s.%s", TX(s, "Hint:", "Consiglio:"), move,
           *why ? ": " : "", why, compare);
  return buf;
}

/* One turn: the person's choice or the bot's.  Nonzero: quit. */
static int one_turn(play_session *s, const play_ui *ui) {
  int seat = scopa_state_to_play(&s->st);
  scopa_move move;
  if (s->seat[seat].human) {
    if (ui->ask_move(ui->self, s, &move))
      return 1;
  } else {
    move = play_session_bot_move(s);
  }
  if (play_session_apply(s, move, NULL, 0) != SCOPA_OK)
    return 1; /* cannot happen: both sources give legal moves */
  return ui->show_move(ui->self, s);
}

int play_session_run(play_session *s, const play_ui *ui) {
  while (!s->game.finished && !play_stop) {
    play_session_deal(s); /* or go on with the resumed round */
    if (ui->begin_round(ui->self, s))
      return 1;
    while (s->round_live)
      if (play_stop || one_turn(s, ui))
        return 1;
    if (ui->end_round(ui->self, s))
      return s->game.finished ? 0 : 1;
  }
  if (!s->game.finished)
    return 1;
  ui->end_game(ui->self, s);
  return 0;
}
