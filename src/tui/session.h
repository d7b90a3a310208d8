/*
 * session.h -- the terminal game behind `scopa play`, shared by its two faces:
 * the line mode (CONTRACTS.md "`scopa play` without a terminal") and the
 * full-screen table (ncursesw).
 *
 * A play_session owns one game: the rules, who sits where (a person or a
 * bot), the round in progress, the shuffle, and the record being written.
 * It keeps true: the record on disk always holds every move played so far
 * (it is saved after each deal and each move), so quitting, Ctrl-C, a
 * closed terminal or the end of input never lose the game.
 *
 * The faces only talk to the library through include/scopa.h and to the
 * session through this header.
 */
#ifndef SCOPA_TUI_SESSION_H
#define SCOPA_TUI_SESSION_H

#include "scopa.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>

#define PLAY_NAME 32
#define PLAY_PATH 1024

/* What the command line asked for. */
typedef struct play_config {
  scopa_rules rules;
  int rules_given; /* any rules option or preset on the line     */
  char seat_kind[SCOPA_MAX_SEATS][PLAY_NAME]; /* "human" or a bot name;
                                                 empty = the default      */
  char opponent[PLAY_NAME];   /* bot for computer seats ("" = best)         */
  char partner[PLAY_NAME];    /* bot for the human's partner ("" = opp.)    */
  int humans;                 /* hot seat: seats 0..humans-1 are people     */
  char level[PLAY_NAME];      /* scopa_bot_level name, or 1..4 ("" none)    */
  int movetime_ms;            /* overrides level when > 0                   */
  char seed[SCOPA_SEED_TEXT]; /* --seed: the game's seed ("" = a fresh one) */
  int plain;                  /* --plain: line mode even on a terminal      */
  int italian;                /* --lang it                                  */
  int delay_ms;               /* pause after a bot's move (full screen)     */
  int ascii;                  /* --ascii: no Unicode suit symbols           */
  int no_color;
  char record[PLAY_PATH]; /* --record FILE ("" = data directory)        */
  char resume[PLAY_PATH]; /* --resume FILE                              */
  int hints;   /* --hints / --no-hints: 1 on, 0 off; on by default except
                  at the strongest level (campione)                       */
  int hint_ms; /* a hint's work in ms of nodes; 0: SCOPA_HINT_MS, the
                  default of every front end (tests set less)           */
} play_config;

typedef struct play_seat {
  int human;
  scopa_bot *bot;
  int movetime_ms; /* the bot's time per move, 0 its default     */
  char name[PLAY_NAME];
} play_seat;

/*
 * The game itself is `match` (the library's whole-game object): it deals,
 * checks, scores, rotates dealers and ends the game.  The fields from
 * `rules` to `round_pile` are read-only copies of it for the faces,
 * refreshed after every deal and move; the session never changes them
 * on its own.
 */
typedef struct play_session {
  play_config cfg;
  scopa_match *match;
  scopa_rules rules;
  scopa_tally game;
  scopa_state st; /* the round in progress (or just ended)     */
  int round_live; /* st holds a round that is not over          */
  int round_no;   /* 1-based number of the round in st          */
  int humans;     /* number of human seats                      */
  int resumed;    /* seat names come from the record            */
  char record_names[SCOPA_MAX_SEATS][PLAY_NAME];
  int record_kinds; /* the record said who was a bot ("bots")     */
  play_seat seat[SCOPA_MAX_SEATS];
  scopa_bot *hint_bot; /* lends the hints its memory, made at the first */
  char record_path[PLAY_PATH];
  int save_failed;
  char save_msg[PLAY_PATH + 200]; /* why the last save failed           */
  int opened;                     /* play_session_open succeeded        */
  /* The last move, for "last move and what it took". */
  int has_last, last_seat, last_scopa;
  scopa_move last_move;
  scopa_cards last_table; /* the table just before the last move       */
  /* The last finished round. */
  scopa_score score;
  int totals_before[SCOPA_MAX_SEATS];
  scopa_cards round_pile[SCOPA_MAX_SEATS];
} play_session;

/* The faces of the game: each callback returns 0 to go on, nonzero when
 * the person quit (or input ended): the session is then saved and closed. */
typedef struct play_ui {
  void *self;
  int (*begin_round)(void *self, play_session *s);
  /* Asks the human at the seat to play for a move (legal: checked). */
  int (*ask_move)(void *self, play_session *s, scopa_move *move);
  /* Shows the move just played (s->last_*), before the next. */
  int (*show_move)(void *self, play_session *s);
  int (*end_round)(void *self, play_session *s);
  int (*end_game)(void *self, play_session *s);
} play_ui;

/* Set by the signal handlers (SIGINT, SIGTERM, SIGHUP). */
extern volatile sig_atomic_t play_stop;

/* config.c: parses argv (argv[0] is the verb); returns 0, or the exit
 * status to leave with (usage printed). */
int play_config_parse(play_config *cfg, int argc, char **argv);

/* session.c.  play_session_open returns 0, PLAY_EUSAGE when a file given
 * on the command line cannot be used (exit status 2), or -1. */
#define PLAY_EUSAGE (-2)
int play_session_open(play_session *s, const play_config *cfg, char *msg,
                      size_t msgsize);
void play_session_close(play_session *s);
int play_session_save(play_session *s);
/* Deals the next round (if none is live). */
void play_session_deal(play_session *s);
/* Plays a legal move for the seat to play; ends the round when over. */
int play_session_apply(play_session *s, scopa_move move, char *msg,
                       size_t msgsize);
/* The move the bot at the seat to play chooses. */
scopa_move play_session_bot_move(play_session *s);
/* A hint for the person to play: the library's hint (scopa_bot_hint,
 * the same as the server's) from that seat's own view, its default work
 * and the game's hint seed (scopa_match_hint_seed): the best move and its
 * value in points over the rest of the round for the seat's side, minus
 * the others'.  0, or -1 when hints are off or no move could be
 * valued. */
int play_session_hint(play_session *s, scopa_move *move, double *value);
/* The hint in words for the person (scopa_move_words, scopa_why_words):
 * "Hint: Take the 7 of coins with your 7 of cups: takes the settebello.
 * Any other move costs about half a point on average." (or "Consiglio:
 * ..."), or why there is none; never notation. */
char *play_hint_words(play_session *s, char *buf, size_t n);
/* The driver: plays until the game ends or the UI quits.  Returns 0 when
 * the game ended, 1 when it was left unfinished. */
int play_session_run(play_session *s, const play_ui *ui);
/* The name shown for a side ("You", "greedy", "Anna & greedy"). */
const char *play_side_name(const play_session *s, int side, char *buf,
                           size_t n);
const char *play_seat_name(const play_session *s, int seat);

/* text.c: a name from outside (a record's "seats") as shown on the
 * screen and in line mode, made safe with scopa_text_safe: control bytes,
 * terminal escapes and bidirectional overrides appear escaped, never act.
 * out holds PLAY_NAME bytes. */
void play_name_from_record(char *out, const char *name);
/* The same into a buffer of n bytes ("..." at the end when cut), for file
 * names and other text from the command line. */
void play_name_shown(char *out, size_t n, const char *text);

/* text.c: words in the chosen language. */
#define TX(s, en, it) ((s)->cfg.italian ? (it) : (en))
/* "7d (sette di denari)" */
char *play_card_words(const play_session *s, int card, char *buf, size_t n);
/* "cinque di coppe takes cinque di spade" / "... laid on the table" */
char *play_move_words(const play_session *s, scopa_move m, char *buf, size_t n);
/* Why the card's moves are restricted ("5c must take 5s: a single card
 * comes first"); "" when nothing needs saying. */
char *play_explain_card(const play_session *s, int card, char *buf, size_t n);
/* Lines of text: PLAY_LINES of at most PLAY_LINE bytes. */
#define PLAY_LINES 24
#define PLAY_LINE 200
typedef char play_lines[PLAY_LINES][PLAY_LINE];
/* The itemised score of the last round (each category with the cards that
 * decided it, primiera suit by suit); returns the number of lines. */
int play_score_lines(const play_session *s, play_lines out);
/* The result of the game: winner, totals, the seed, the record. */
int play_result_lines(const play_session *s, play_lines out);
/* The active rules in a short line. */
char *play_rules_line(const play_session *s, char *buf, size_t n);

/* line.c, screen.c */
int play_line_run(play_session *s);
int play_screen_run(play_session *s);
/* Nonzero if the terminal can show the full-screen table. */
int play_screen_usable(void);

/* step.c: `scopa replay --step`. */
int play_step_replay(const scopa_replay *replay, int italian);

#endif
