/*
 * screen.c -- the full-screen face of `scopa play`: the terminal set-up,
 * keys and mouse, and the game's callbacks (see play_ui in session.h).
 *
 * Choosing a move: a card is picked with the arrow keys, a digit (1..9,
 * 0 for the tenth) or a click.  Picking the same card again cycles through
 * its legal captures (seed 004: "click again on the card to choose the
 * combination"), or plays it when it has only one; Enter or [ Play ] plays
 * the move shown.  Only legal moves are ever shown, and a card whose
 * choice is forced says why in the message line.
 *
 * Keeps true: every wait for a key wakes up at least four times a second,
 * so a signal (Ctrl-C, a closed terminal) stops the game promptly; the
 * record is already on disk (session.c).
 */
#include "screen.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <time.h>

int play_screen_usable(void) {
  const char *term = getenv("TERM");
  if (!term || !*term || strcmp(term, "dumb") == 0)
    return 0;
  int err = 0;
  if (setupterm(NULL, 1, &err) != OK)
    return 0;
  del_curterm(cur_term);
  return 1;
}

static void redraw(screen *sc) {
  if (sc->mode == 1)
    draw_panel(sc, sc->ptitle, sc->plines, sc->pn, sc->pfooter);
  else if (sc->mode == 2)
    draw_handover(sc, sc->handover_seat);
  else
    draw_board(sc);
}

static long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* The next key, redrawing on resizes; -1 when the game must stop (a
 * signal, or the terminal gone: getch failing at once, again and again).
 * With ms >= 0, 0 after that long without a key. */
static int next_key(screen *sc, int ms) {
  long start = now_ms();
  int fast_errors = 0;
  for (;;) {
    long t0 = now_ms();
    timeout(ms >= 0 && ms < 250 ? ms : 250);
    int ch = getch();
    if (play_stop)
      return -1;
    if (ch == KEY_RESIZE) {
      redraw(sc);
      continue;
    }
    if (ch != ERR)
      return ch;
    if (now_ms() - t0 < 20 && (ms < 0 || ms >= 20) && ++fast_errors > 50)
      return -1;
    if (ms >= 0 && now_ms() - start >= ms)
      return 0;
  }
}

int screen_card_moves(const screen *sc, int card, scopa_move *out, int cap) {
  int n = 0;
  for (int i = 0; i < sc->nmoves && n < cap; i++)
    if (SCOPA_MOVE_CARD(sc->moves[i]) == card)
      out[n++] = sc->moves[i];
  return n;
}

scopa_move screen_current_move(const screen *sc) {
  scopa_move opts[SCOPA_MAX_MOVES];
  int k = screen_card_moves(sc, sc->cards[sc->sel], opts, SCOPA_MAX_MOVES);
  return k ? opts[sc->opt % k] : 0;
}

static int options_of_selected(const screen *sc) {
  scopa_move opts[SCOPA_MAX_MOVES];
  return screen_card_moves(sc, sc->cards[sc->sel], opts, SCOPA_MAX_MOVES);
}

static void explain_selected(screen *sc) {
  play_explain_card(sc->s, sc->cards[sc->sel], sc->message, sizeof sc->message);
}

/* Fills the choice: the cards of the hand that have legal moves. */
static void start_choice(screen *sc, int seat) {
  play_session *s = sc->s;
  sc->nmoves = scopa_state_legal(&s->st, sc->moves, SCOPA_MAX_MOVES);
  if (sc->nmoves > SCOPA_MAX_MOVES)
    sc->nmoves = SCOPA_MAX_MOVES;
  sc->ncards = 0;
  for (int c = 0; c < 40 && sc->ncards < 10; c++)
    if (s->st.hand[seat] & SCOPA_BIT(c))
      sc->cards[sc->ncards++] = c;
  if (sc->sel >= sc->ncards)
    sc->sel = sc->ncards - 1;
  if (sc->sel < 0)
    sc->sel = 0;
  sc->opt = 0;
  sc->picked = -1;
  sc->viewer = seat;
  sc->choosing = 1;
  sc->shown_table = s->st.table;
  sc->flash = 0;
  explain_selected(sc);
}

/* The same card again: the next capture, or play when there is one. */
static int pick(screen *sc, int i) {
  if (i < 0 || i >= sc->ncards)
    return 0;
  if (i != sc->sel || i != sc->picked) {
    sc->sel = sc->picked = i;
    sc->opt = 0;
    explain_selected(sc);
    return 0;
  }
  int k = options_of_selected(sc);
  if (k <= 1)
    return k; /* the only move: play it */
  sc->opt = (sc->opt + 1) % k;
  return 0;
}

static int inside(rect r, int y, int x) {
  return r.h && y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w;
}

/* A click: a hand card is picked; [ Play ] plays.  1: play. */
static int click(screen *sc) {
  MEVENT ev;
  if (getmouse(&ev) != OK || !(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
    return 0;
  if (inside(sc->play_at, ev.y, ev.x))
    return 1;
  for (int i = 0; i < sc->ncards; i++)
    if (inside(sc->hand_at[i], ev.y, ev.x))
      return pick(sc, i);
  return 0;
}

/* One key while choosing: 1 play the move shown, -1 quit, 0 go on. */
static int choice_key(screen *sc, int ch) {
  int k = options_of_selected(sc);
  switch (ch) {
  case 'q':
  case 'Q':
    return -1;
  case KEY_LEFT:
  case 'h':
    sc->sel = (sc->sel + sc->ncards - 1) % sc->ncards, sc->opt = 0;
    sc->picked = -1;
    explain_selected(sc);
    return 0;
  case KEY_RIGHT:
  case 'l':
    sc->sel = (sc->sel + 1) % sc->ncards, sc->opt = 0;
    sc->picked = -1;
    explain_selected(sc);
    return 0;
  case KEY_UP:
  case 'k':
    sc->opt = (sc->opt + k - 1) % (k ? k : 1);
    return 0;
  case KEY_DOWN:
  case 'j':
  case '\t':
    sc->opt = (sc->opt + 1) % (k ? k : 1);
    return 0;
  case '\n':
  case '\r':
  case KEY_ENTER:
    return k > 0;
  case KEY_MOUSE:
    return click(sc);
  case '?':
    play_hint_words(sc->s, sc->message, sizeof sc->message);
    return 0;
  }
  if (ch >= '0' && ch <= '9')
    return pick(sc, ch == '0' ? 9 : ch - '1');
  return 0;
}

/* Hot seat: the next person must take the terminal before seeing a hand. */
static int hand_over(screen *sc, int seat) {
  if (sc->s->humans < 2 || sc->viewer == seat)
    return 0;
  sc->mode = 2;
  sc->handover_seat = seat;
  for (;;) {
    redraw(sc);
    int ch = next_key(sc, -1);
    if (ch < 0 || ch == 'q' || ch == 'Q')
      return 1;
    if (ch == '\n' || ch == '\r' || ch == KEY_ENTER || ch == ' ')
      break;
  }
  sc->mode = 0;
  return 0;
}

static int ask_move(void *self, play_session *s, scopa_move *move) {
  screen *sc = self;
  int seat = scopa_state_to_play(&s->st);
  if (hand_over(sc, seat))
    return 1;
  start_choice(sc, seat);
  for (;;) {
    draw_board(sc);
    int ch = next_key(sc, -1);
    int act = ch < 0 ? -1 : choice_key(sc, ch);
    if (act < 0)
      return 1;
    if (act > 0)
      break;
  }
  *move = screen_current_move(sc);
  sc->choosing = 0;
  sc->message[0] = 0;
  return 0;
}

/* After a move: a computer's move is shown on the table as it was, the
 * card played and the cards it takes marked, for a moment. */
static int show_move(void *self, play_session *s) {
  screen *sc = self;
  sc->viewer = s->humans == 1 ? sc->viewer : -1;
  for (int seat = 0; s->humans == 1 && seat < s->rules.players; seat++)
    if (s->seat[seat].human)
      sc->viewer = seat;
  if (!s->seat[s->last_seat].human && s->cfg.delay_ms > 0) {
    sc->shown_table = s->last_table | SCOPA_BIT(SCOPA_MOVE_CARD(s->last_move));
    sc->flash = SCOPA_MOVE_TAKES(s->last_move) |
                SCOPA_BIT(SCOPA_MOVE_CARD(s->last_move));
    draw_board(sc);
    int ch = next_key(sc, s->cfg.delay_ms);
    if (ch < 0 || ch == 'q' || ch == 'Q')
      return 1;
  }
  sc->shown_table = s->st.table;
  sc->flash = 0;
  draw_board(sc);
  return 0;
}

static int begin_round(void *self, play_session *s) {
  screen *sc = self;
  sc->shown_table = s->st.table;
  sc->flash = 0;
  snprintf(sc->message, sizeof sc->message, "%s %d: %s %s.",
           TX(s, "Round", "Mano"), s->round_no, TX(s, "dealer", "mazziere"),
           play_seat_name(s, s->st.dealer));
  draw_board(sc);
  return 0;
}

/* A panel until a key; 1 when the person quits. */
static int panel(screen *sc, const char *title, const char *footer) {
  sc->mode = 1;
  sc->ptitle = title;
  sc->pfooter = footer;
  sc->pfirst = 0;
  int ch;
  for (;;) {
    redraw(sc);
    ch = next_key(sc, -1);
    /* Up, Down, PgUp and PgDn scroll a panel taller than the screen
     * (draw_panel keeps it in range); any other key goes on. */
    int step = ch == KEY_UP      ? -1
               : ch == KEY_DOWN  ? 1
               : ch == KEY_PPAGE ? -(LINES / 2)
               : ch == KEY_NPAGE ? LINES / 2
                                 : 0;
    if (!step || !(sc->pmore || sc->pfirst > 0))
      break;
    sc->pfirst += step;
  }
  sc->mode = 0;
  return ch < 0 || ch == 'q' || ch == 'Q';
}

static int end_round(void *self, play_session *s) {
  screen *sc = self;
  sc->pn = play_score_lines(s, sc->plines);
  sc->message[0] = 0;
  return panel(sc, TX(s, "End of the round", "Fine della mano"),
               s->game.finished
                   ? TX(s, " Press a key ", " Premi un tasto ")
                   : TX(s, " Press a key for the next round (q: save & quit) ",
                        " Premi un tasto per la prossima mano (q: salva ed "
                        "esci) "));
}

static int end_game(void *self, play_session *s) {
  screen *sc = self;
  sc->pn = play_result_lines(s, sc->plines);
  return panel(sc, TX(s, "End of the game", "Fine della partita"),
               TX(s, " Press a key to leave ", " Premi un tasto per uscire "));
}

static void setup_terminal(screen *sc) {
  /* No locale set at all (a bare container): terminals today are UTF-8,
   * and Debian always has C.UTF-8. */
  const char *ctype = setlocale(LC_CTYPE, "");
  if (!ctype || !strcmp(ctype, "C") || !strcmp(ctype, "POSIX"))
    setlocale(LC_CTYPE, "C.UTF-8");
  sc->utf8 = !sc->s->cfg.ascii && strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
  initscr();
  cbreak();
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  curs_set(0);
  mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL);
  mouseinterval(0);
  draw_init_colors(sc);
}

int play_screen_run(play_session *s) {
  static screen sc; /* large (move list): not on the stack */
  memset(&sc, 0, sizeof sc);
  sc.s = s;
  sc.viewer = -1;
  for (int seat = 0; s->humans == 1 && seat < s->rules.players; seat++)
    if (s->seat[seat].human)
      sc.viewer = seat;
  setup_terminal(&sc);
  int unfinished =
      play_session_run(s, &(play_ui){&sc, begin_round, ask_move, show_move,
                                     end_round, end_game});
  endwin();
  play_lines result;
  int n = play_result_lines(s, result);
  if (unfinished)
    printf("%s\n", TX(s, "Game saved.", "Partita salvata."));
  for (int i = 0; i < n; i++)
    printf("%s\n", result[i]);
  return 0;
}
