/*
 * screen.h -- the full-screen face of `scopa play` (ncursesw), shared by
 * draw.c (what is on the screen) and screen.c (keys, mouse, the game's
 * callbacks).
 *
 * Keeps true: the screen is drawn from the session and this struct alone,
 * at any size, so a resize only needs a redraw; the hand of a person is
 * only drawn while that person is to play, or when one person plays alone
 * (hot seat: hands hidden between turns).
 */
#ifndef SCOPA_TUI_SCREEN_H
#define SCOPA_TUI_SCREEN_H

#include "session.h"

typedef struct rect {
  int y, x, h, w;
} rect;

typedef struct screen {
  play_session *s;
  int utf8, color;
  int viewer; /* seat whose hand is face up, -1: none          */
  /* The choice in progress: the hand's cards in order, the selected one,
   * and which of its legal moves is shown. */
  int ncards, cards[10];
  int sel, opt;
  int picked; /* card picked once already (-1: none): picking
                 it again cycles through its captures        */
  int nmoves;
  scopa_move moves[SCOPA_MAX_MOVES];
  int choosing;            /* a person is choosing a move now               */
  scopa_cards flash;       /* table cards to mark (the last capture)        */
  int flash_card;          /* the card just played (-1 none)                */
  scopa_cards shown_table; /* the table drawn (before a bot's capture) */
  char message[600];       /* explanation or error, in the message line     */
  /* What is up: 0 the board, 1 a panel, 2 the hand-over screen. */
  int mode;
  const char *ptitle, *pfooter;
  play_lines plines;
  int pn, handover_seat;
  int pfirst, pmore; /* a panel taller than the screen: its first row
                        shown, and whether rows are left below it   */
  /* Where things were drawn, for the mouse. */
  rect hand_at[10];
  rect play_at;
} screen;

/* The legal moves of the selected card (pointers into sc->moves). */
int screen_card_moves(const screen *sc, int card, scopa_move *out, int cap);
/* The move now shown for the selection. */
scopa_move screen_current_move(const screen *sc);

/* Colours: the suits, card backs, messages (none with --no-color). */
void draw_init_colors(screen *sc);
void draw_board(screen *sc);
/* A panel of lines in the middle of the board, with a last line. */
void draw_panel(screen *sc, const char *title, play_lines lines, int n,
                const char *footer);
/* "Pass the terminal to ...": the board without any hand. */
void draw_handover(screen *sc, int seat);

#endif
