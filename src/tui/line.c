/*
 * line.c -- `scopa play` line by line (CONTRACTS.md "`scopa play` without a
 * terminal"), for scripts and screen readers.
 *
 * Before each move of a person it prints the state in plain text, then the
 * numbered list of the legal moves (from 1), then reads one line: a listed
 * number or a move in record notation.  A line it cannot use gets a clear
 * message and the question again; `hint` (`consiglio`) shows the
 * strongest bot's move in words, with why, when hints are on.  End of
 * input (or a signal) stops the game cleanly: the session has already
 * saved the record.  Cards are announced by name ("7d (sette di denari)"),
 * the legal moves as sentences ("Take the 7 of coins with your 7 of
 * cups") after their notation, nothing is drawn.
 */
#include "session.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_cards(const play_session *s, const char *title,
                        scopa_cards cards) {
  char words[64];
  printf("%s (%d):", title, __builtin_popcountll(cards));
  int first = 1;
  for (int c = 0; c < 40; c++)
    if (cards & SCOPA_BIT(c)) {
      printf("%s %s", first ? "" : ",",
             play_card_words(s, c, words, sizeof words));
      first = 0;
    }
  printf("%s\n", first ? TX(s, " none", " nessuna") : "");
}

static void print_scores(const play_session *s) {
  char name[80];
  printf("%s", TX(s, "Score:", "Punteggio:"));
  for (int side = 0; side < s->game.sides; side++)
    printf("%s %s %d", side ? "," : "",
           play_side_name(s, side, name, sizeof name), s->game.totals[side]);
  printf(" (%s %d)\n", TX(s, "target", "ai"), s->rules.target);
}

static void print_others(const play_session *s, int me) {
  printf("%s: %d.", TX(s, "Stock", "Mazzo"), scopa_state_stock(&s->st));
  for (int seat = 0; seat < s->rules.players; seat++)
    if (seat != me) {
      int k = __builtin_popcountll(s->st.hand[seat]);
      printf(" %s: %d %s.", play_seat_name(s, seat), k,
             k == 1 ? TX(s, "card in hand", "carta in mano")
                    : TX(s, "cards in hand", "carte in mano"));
    }
  printf("\n%s", TX(s, "Captured:", "Prese:"));
  for (int side = 0; side < s->st.sides; side++) {
    char name[80];
    printf("%s %s %d %s, %d %s", side ? ";" : "",
           play_side_name(s, side, name, sizeof name),
           __builtin_popcountll(s->st.pile[side]), TX(s, "cards", "carte"),
           s->st.scope[side], s->st.scope[side] == 1 ? "scopa" : "scope");
  }
  printf("\n");
}

static void print_state(const play_session *s, int seat) {
  char name[64];
  printf("\n%s %d, %s %d/%d. ", TX(s, "Round", "Mano"), s->round_no,
         TX(s, "play", "giocata"), s->st.plays + 1,
         scopa_state_total_plays(&s->st));
  print_scores(s);
  print_others(s, seat);
  print_cards(s, TX(s, "Table", "Tavolo"), s->st.table);
  snprintf(name, sizeof name, "%s %s", TX(s, "Hand of", "Mano di"),
           play_seat_name(s, seat));
  print_cards(s, s->humans == 1 ? TX(s, "Your hand", "La tua mano") : name,
              s->st.hand[seat]);
  for (int c = 0; c < 40; c++)
    if (s->st.hand[seat] & SCOPA_BIT(c)) {
      char why[200];
      if (*play_explain_card(s, c, why, sizeof why))
        printf("  %s: %s\n", TX(s, "note", "nota"), why);
    }
}

static void print_moves(const play_session *s, const scopa_move *moves, int n) {
  printf("%s\n", TX(s, "Legal moves:", "Mosse possibili:"));
  for (int i = 0; i < n; i++) {
    char m[SCOPA_MOVE_TEXT], words[400];
    scopa_move_words(moves[i], s->cfg.italian ? "it" : "en", NULL, words,
                     sizeof words);
    printf("  %d. %-10s %s%s\n", i + 1, scopa_move_str(moves[i], m), words,
           scopa_state_is_scopa(&s->st, moves[i]) ? " - scopa!" : "");
  }
}

/* Input, read straight from fd 0 with poll: a signal may be delivered to
 * a bot's thread rather than to a blocked read, so the wait wakes up four
 * times a second to look at play_stop. */
static char inbuf[4096];
static size_t inlen;
static int ineof;

/* Reads one line into buf (n bytes) without its end and trailing spaces.
 * A line that does not fit is never cut into pieces (its tail would be
 * read as the next answer, "aaaa...a1" playing move 1): it is dropped
 * whole, up to its newline, and reported.  Returns 0, LINE_TOO_LONG, or
 * -1 at end of input or on a signal. */
#define LINE_TOO_LONG 1
static int read_line(char *buf, size_t n) {
  int dropping = 0; /* inside a line that was too long */
  fflush(stdout);
  for (;;) {
    char *nl = memchr(inbuf, '\n', inlen);
    if (!nl && (inlen == sizeof inbuf || (dropping && inlen))) {
      dropping = 1; /* no room for the end of this line: drop it all */
      inlen = 0;
      continue;
    }
    if (nl || (ineof && inlen)) {
      size_t take = nl ? (size_t)(nl - inbuf) : inlen;
      size_t used = nl ? take + 1 : take;
      int too_long = dropping || take > n - 1;
      if (!too_long) {
        memcpy(buf, inbuf, take);
        buf[take] = 0;
      }
      memmove(inbuf, inbuf + used, inlen - used);
      inlen -= used;
      if (too_long)
        return LINE_TOO_LONG;
      while (take && isspace((unsigned char)buf[take - 1]))
        buf[--take] = 0;
      return 0;
    }
    if (ineof || play_stop)
      return dropping ? LINE_TOO_LONG : -1;
    struct pollfd pfd = {STDIN_FILENO, POLLIN, 0};
    if (poll(&pfd, 1, 250) <= 0)
      continue;
    ssize_t got = read(STDIN_FILENO, inbuf + inlen, sizeof inbuf - inlen);
    if (got > 0)
      inlen += (size_t)got;
    else if (got == 0 || errno != EINTR)
      ineof = 1;
  }
}

/* The listed move a line names, or -1 with a message for the person. */
static int match_line(const play_session *s, const char *text,
                      const scopa_move *moves, int n, char *msg, size_t size) {
  char *end, shown[120]; /* the line as typed, made safe to echo */
  if (scopa_text_safe(shown, sizeof shown, text, strlen(text), 0) >=
      sizeof shown)
    memcpy(shown + sizeof shown - 4, "...", 4);
  long k = strtol(text, &end, 10);
  if (*text && !*end) {
    if (k >= 1 && k <= n)
      return (int)k - 1;
    snprintf(msg, size,
             TX(s, "There is no move %s: choose 1 to %d.",
                "Non c'è la mossa %s: scegli da 1 a %d."),
             shown, n);
    return -1;
  }
  scopa_move move;
  char why[256];
  const char *lang = TX(s, "en", "it");
  if (scopa_move_parse(text, lang, &move, why, sizeof why) != SCOPA_OK) {
    snprintf(msg, size, "%s '%s': %s. %s", TX(s, "Cannot read", "Non capisco"),
             shown, why,
             TX(s, "Write a number from the list or a move like 5cx5s.",
                "Scrivi un numero della lista o una mossa come 5cx5s."));
    return -1;
  }
  for (int i = 0; i < n; i++)
    if (moves[i] == move)
      return i;
  if (scopa_state_check(&s->st, move, lang, why, sizeof why) == SCOPA_OK)
    snprintf(why, sizeof why, "?");
  snprintf(msg, size, "%s %s: %s.", TX(s, "Not allowed:", "Non si può:"), shown,
           why);
  return -1;
}

static int ask_move(void *self, play_session *s, scopa_move *out) {
  (void)self;
  static scopa_move moves[SCOPA_MAX_MOVES];
  int seat = scopa_state_to_play(&s->st);
  int n = scopa_state_legal(&s->st, moves, SCOPA_MAX_MOVES);
  if (n > SCOPA_MAX_MOVES)
    n = SCOPA_MAX_MOVES;
  if (s->humans > 1)
    printf("\n%s %s.\n", TX(s, "Turn of", "Tocca a"), play_seat_name(s, seat));
  print_state(s, seat);
  print_moves(s, moves, n);
  for (;;) {
    char line[1024], msg[600];
    printf("%s\n",
           s->cfg.hints
               ? TX(s,
                    "Your move? (a number, or a move like 5cx5s; hint "
                    "suggests one; q stops)",
                    "La tua mossa? (un numero o una mossa come 5cx5s; "
                    "consiglio ne suggerisce una; q per uscire)")
               : TX(s, "Your move? (a number, or a move like 5cx5s; q stops)",
                    "La tua mossa? (un numero o una mossa come 5cx5s; q "
                    "per uscire)"));
    int got = read_line(line, sizeof line);
    if (got < 0 || play_stop)
      return 1;
    if (got == LINE_TOO_LONG) {
      printf("%s\n", TX(s, "That line is too long: nothing was played.",
                        "Riga troppo lunga: non si gioca niente."));
      continue;
    }
    if (!strcmp(line, "q") || !strcmp(line, "quit") || !strcmp(line, "esci"))
      return 1;
    if (!strcmp(line, "hint") || !strcmp(line, "consiglio")) {
      char hint[700];
      printf("%s\n", play_hint_words(s, hint, sizeof hint));
      continue;
    }
    if (!strcmp(line, "?") || !strcmp(line, "help") || !*line) {
      print_state(s, seat);
      print_moves(s, moves, n);
      continue;
    }
    int i = match_line(s, line, moves, n, msg, sizeof msg);
    if (i >= 0) {
      *out = moves[i];
      return 0;
    }
    printf("%s\n", msg);
  }
}

static int begin_round(void *self, play_session *s) {
  (void)self;
  char rules[400];
  printf("\n=== %s %d. %s: %s. %s ===\n", TX(s, "Round", "Mano"), s->round_no,
         TX(s, "Dealer", "Mazziere"), play_seat_name(s, s->st.dealer),
         play_rules_line(s, rules, sizeof rules));
  /* deal_bonus: the dealt table went to the dealer before the first play. */
  if (s->st.plays == 0 && s->st.initial_table && !s->st.table) {
    char cards[80];
    scopa_cards_str(s->st.initial_table, cards, sizeof cards);
    int side = scopa_rules_side_of(&s->rules, s->st.dealer);
    printf("%s %s (%s): %d %s.\n", play_seat_name(s, s->st.dealer),
           TX(s, "takes the table as dealt", "prende il tavolo servito"), cards,
           s->st.scope[side], s->st.scope[side] == 1 ? "scopa" : "scope");
  }
  return 0;
}

static int show_move(void *self, play_session *s) {
  (void)self;
  char words[400];
  printf("%s: %s%s\n", play_seat_name(s, s->last_seat),
         play_move_words(s, s->last_move, words, sizeof words),
         s->last_scopa ? ". Scopa!" : ".");
  return 0;
}

static int end_round(void *self, play_session *s) {
  (void)self;
  play_lines lines;
  int n = play_score_lines(s, lines);
  printf("\n");
  for (int i = 0; i < n; i++)
    printf("%s\n", lines[i]);
  return 0;
}

static void print_result(const play_session *s) {
  play_lines lines;
  int n = play_result_lines(s, lines);
  printf("\n");
  for (int i = 0; i < n; i++)
    printf("%s\n", lines[i]);
}

static int end_game(void *self, play_session *s) {
  (void)self;
  print_result(s);
  return 0;
}

/* Who plays, and where the record goes. */
static void welcome(const play_session *s) {
  printf("%s", s->resumed ? TX(s, "Scopa, resumed:", "Scopa, si riprende:")
                          : "Scopa:");
  for (int seat = 0; seat < s->rules.players; seat++)
    printf("%s %s (%s %d)", seat ? "," : "", play_seat_name(s, seat),
           TX(s, "seat", "posto"), seat);
  char path[PLAY_PATH];
  play_name_shown(path, sizeof path, s->record_path);
  printf(".\n%s %s\n", TX(s, "Record:", "Registrazione:"), path);
}

int play_line_run(play_session *s) {
  welcome(s);
  play_ui ui = {NULL, begin_round, ask_move, show_move, end_round, end_game};
  if (play_session_run(s, &ui)) {
    printf("\n%s\n", play_stop ? TX(s, "Stopped.", "Interrotto.")
                               : TX(s, "End of input.", "Fine dell'input."));
    print_result(s);
  }
  fflush(stdout);
  return 0;
}
