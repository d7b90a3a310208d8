/*
 * draw.c -- what the full-screen table shows: the title and scores, the
 * active rules, the other seats (card backs, captures, scope), the stock,
 * the last move, the table cards, the hand, the move being chosen, and
 * the panels at the end of a round and of the game.
 *
 * Cards are boxes with the rank, a suit symbol in the suit's colour and
 * the suit's name, so they read without colour too; a screen too small
 * for boxes gets one-line cards ("[7d]").  Everything is drawn from the
 * session and the screen struct: a redraw after a resize is the whole
 * resize handling.
 */
#include "screen.h"

#include <curses.h>
#include <string.h>

enum { PAIR_SUIT = 1, PAIR_BACK = 5, PAIR_TITLE, PAIR_GOOD };
#define CARD_W 6
#define CARD_H 4

static const char *const SUIT_UTF8[4] = {"\xe2\x99\xa6", "\xe2\x99\xa5",
                                         "\xe2\x99\xa0", "\xe2\x99\xa3"};
static const char *const SUIT_LETTER[4] = {"d", "c", "s", "b"};
/* A card's second line, four wide, in the screen's language: the face of
 * a court card (the words say "the knave of clubs": the box says so
 * beside its 8), else the suit. */
static const char *const SUIT_SHORT[2][4] = {{"coin", "cups", "swrd", "club"},
                                             {" den", " cop", " spa", " bas"}};
static const char *const FACE_SHORT[2][3] = {{"knav", "hors", "king"},
                                             {"fant", "cav.", " re "}};

static const char *suit_symbol(const screen *sc, int suit) {
  return sc->utf8 ? SUIT_UTF8[suit] : SUIT_LETTER[suit];
}

static attr_t suit_attr(const screen *sc, int card) {
  return sc->color ? COLOR_PAIR(PAIR_SUIT + SCOPA_SUIT(card)) | A_BOLD : A_BOLD;
}

/* Text clipped to the screen's width. */
static void put(int y, int x, const char *text) {
  if (y < 0 || y >= LINES || x >= COLS)
    return;
  mvaddnstr(y, x, text, COLS - x);
}

/* Text from row y, wrapped at spaces: `first` columns on its first row,
 * the screen's width on the others, down to row `last` at most; returns
 * the next free row. */
static int put_wrapped(int y, const char *p, size_t first, int last) {
  size_t width = first > 0 ? first : 1;
  while (*p && y <= last) {
    size_t cut = strlen(p);
    if (cut > width) {
      cut = width;
      while (cut > width / 2 && p[cut] != ' ')
        cut--;
      if (p[cut] != ' ') /* no space: cut at a whole UTF-8 character */
        for (cut = width; cut > 1 && ((unsigned char)p[cut] & 0xC0) == 0x80;)
          cut--;
    }
    mvaddnstr(y++, 0, p, (int)cut);
    p += cut;
    while (*p == ' ')
      p++;
    width = (size_t)COLS;
  }
  return y;
}

/* Box lines: Unicode in a UTF-8 locale (the terminal's alternate
 * character set is often mis-set, inside tmux or screen), plain ASCII with
 * --ascii, else the terminal's line drawing (ACS). */
static void box_char(const screen *sc, int y, int x, const char *utf8,
                     chtype acs) {
  if (sc->utf8)
    mvaddstr(y, x, utf8);
  else if (sc->s->cfg.ascii)
    mvaddch(y, x, acs == ACS_HLINE ? '-' : acs == ACS_VLINE ? '|' : '+');
  else
    mvaddch(y, x, acs);
}

static void card_box(const screen *sc, int y, int x, int card, attr_t mark,
                     const char *label) {
  if (y < 0 || y + CARD_H > LINES || x + CARD_W > COLS)
    return;
  char rank[8];
  snprintf(rank, sizeof rank, "%-2d ", SCOPA_RANK(card));
  attron(mark);
  box_char(sc, y, x, "\xe2\x94\x8c", ACS_ULCORNER);
  for (int i = 1; i < CARD_W - 1; i++) {
    box_char(sc, y, x + i, "\xe2\x94\x80", ACS_HLINE);
    box_char(sc, y + CARD_H - 1, x + i, "\xe2\x94\x80", ACS_HLINE);
  }
  box_char(sc, y, x + CARD_W - 1, "\xe2\x94\x90", ACS_URCORNER);
  box_char(sc, y + CARD_H - 1, x, "\xe2\x94\x94", ACS_LLCORNER);
  box_char(sc, y + CARD_H - 1, x + CARD_W - 1, "\xe2\x94\x98", ACS_LRCORNER);
  if (label)
    mvaddstr(y, x + 2, label);
  for (int r = 1; r < CARD_H - 1; r++) {
    box_char(sc, y + r, x, "\xe2\x94\x82", ACS_VLINE);
    box_char(sc, y + r, x + CARD_W - 1, "\xe2\x94\x82", ACS_VLINE);
  }
  attroff(mark);
  attron(suit_attr(sc, card) | mark);
  mvaddstr(y + 1, x + 1, rank);
  addstr(suit_symbol(sc, SCOPA_SUIT(card)));
  int it = sc->s->cfg.italian != 0, rank_of = SCOPA_RANK(card);
  mvaddstr(y + 2, x + 1,
           rank_of >= 8 ? FACE_SHORT[it][rank_of - 8]
                        : SUIT_SHORT[it][SCOPA_SUIT(card)]);
  attroff(suit_attr(sc, card) | mark);
}

/* "[7♦]" on one line; returns the width used. */
static int card_token(const screen *sc, int y, int x, int card, attr_t mark) {
  char rank[4];
  snprintf(rank, sizeof rank, "%d", SCOPA_RANK(card));
  attron(suit_attr(sc, card) | mark);
  mvaddstr(y, x, "[");
  addstr(rank);
  addstr(suit_symbol(sc, SCOPA_SUIT(card)));
  addstr("]");
  attroff(suit_attr(sc, card) | mark);
  return (int)strlen(rank) + 3;
}

static int list_cards(scopa_cards cards, int *out) {
  int n = 0;
  for (int c = 0; c < 40; c++)
    if (cards & SCOPA_BIT(c))
      out[n++] = c;
  return n;
}

/* Rows the table needs in box mode at this width. */
static int table_rows(int ncards) {
  int per_row = (COLS - 2) / (CARD_W + 1);
  if (per_row < 1)
    per_row = 1;
  return ncards ? (ncards + per_row - 1) / per_row : 1;
}

static int others(const screen *sc) {
  int n = 0;
  for (int seat = 0; seat < sc->s->rules.players; seat++)
    n += seat != sc->viewer;
  return n;
}

/* Box mode needs this many rows (see draw_board). */
static int last_rows(const screen *sc);

static int rows_needed(const screen *sc, int ntable) {
  int before = sc->s->rules.players > 2;
  return 2 + others(sc) + 1 + before + last_rows(sc) +
         table_rows(ntable) * CARD_H + 1 + 1 + CARD_H + 1 + 1 + 1 + 1;
}

/* The top line: the round and every side's score.  When they do not fit
 * (six players in 80 columns) the target goes first (the rules line below
 * says it too), then the word "Scopa". */
static void title_line(const screen *sc) {
  const play_session *s = sc->s;
  char left[64], right[240] = "", name[80], target[40];
  for (int side = 0; side < s->game.sides; side++)
    snprintf(right + strlen(right), sizeof right - strlen(right), "%s%s %d",
             side ? " - " : "", play_side_name(s, side, name, sizeof name),
             s->game.totals[side]);
  snprintf(target, sizeof target, "  (%s %d) ", TX(s, "target", "ai"),
           s->rules.target);
  snprintf(left, sizeof left, " Scopa - %s %d ", TX(s, "round", "mano"),
           s->round_no);
  size_t width = (size_t)(COLS > 0 ? COLS : 0);
  if (strlen(left) + strlen(right) + strlen(target) <= width)
    snprintf(right + strlen(right), sizeof right - strlen(right), "%s", target);
  else
    snprintf(right + strlen(right), sizeof right - strlen(right), " ");
  if (strlen(left) + strlen(right) > width)
    snprintf(left, sizeof left, " %s %d ", TX(s, "Round", "Mano"), s->round_no);
  attron(A_REVERSE);
  mvhline(0, 0, ' ', COLS);
  put(0, 0, left);
  int x = COLS - (int)strlen(right);
  put(0, x > (int)strlen(left) ? x : (int)strlen(left), right);
  attroff(A_REVERSE);
  char rules[400];
  put(1, 0, play_rules_line(s, rules, sizeof rules));
}

/* "taken 12 cards, 1 scopa" of a seat's side */
static char *taken(const play_session *s, int seat, char *buf, size_t n) {
  int side = scopa_rules_side_of(&s->rules, seat);
  snprintf(buf, n, "%s %d %s, %d %s", TX(s, "taken", "prese"),
           __builtin_popcountll(s->st.pile[side]), TX(s, "cards", "carte"),
           s->st.scope[side], s->st.scope[side] == 1 ? "scopa" : "scope");
  return buf;
}

/* Characters of UTF-8 text (a name's columns, near enough). */
static int utf8_chars(const char *p) {
  int n = 0;
  for (; *p; p++)
    n += ((unsigned char)*p & 0xC0) != 0x80;
  return n;
}

/* The other seats' names column: the longest name, 12 to 20 characters,
 * so "principiante 1" and "principiante 2" are not both "principiante". */
static int names_width(const screen *sc) {
  int w = 12;
  for (int seat = 0; seat < sc->s->rules.players; seat++) {
    int n = utf8_chars(play_seat_name(sc->s, seat));
    if (seat != sc->viewer && n > w)
      w = n;
  }
  return w > 20 ? 20 : w;
}

/* "> name" padded or cut to w characters (never inside a character). */
static void name_cell(const char *name, int turn, int w, char *buf, size_t n) {
  size_t at = (size_t)snprintf(buf, n, "%s ", turn ? ">" : " ");
  int chars = 0;
  for (const char *p = name; *p && at + 1 < n; p++) {
    int starts = ((unsigned char)*p & 0xC0) != 0x80;
    if (starts && chars == w)
      break;
    chars += starts;
    buf[at++] = *p;
  }
  for (; chars < w && at + 1 < n; chars++)
    buf[at++] = ' ';
  buf[at] = 0;
}

static void seat_line(const screen *sc, int y, int seat) {
  const play_session *s = sc->s;
  int turn = scopa_state_to_play(&s->st) == seat;
  int partner = s->rules.teams && sc->viewer >= 0 &&
                scopa_rules_side_of(&s->rules, seat) ==
                    scopa_rules_side_of(&s->rules, sc->viewer);
  char text[200], pile[80];
  int w = names_width(sc);
  attr_t a = turn ? A_BOLD : A_NORMAL;
  attron(a);
  name_cell(play_seat_name(s, seat), turn, w, text, sizeof text);
  put(y, 0, text);
  attroff(a);
  int x = w + 3, k = __builtin_popcountll(s->st.hand[seat]);
  attron(sc->color ? COLOR_PAIR(PAIR_BACK) : A_DIM);
  for (int i = 0; i < k && x < COLS - 2; i++, x++)
    put(y, x, sc->utf8 ? "\xe2\x96\x92" : "#");
  attroff(sc->color ? COLOR_PAIR(PAIR_BACK) : A_DIM);
  snprintf(text, sizeof text, "%d %s  %s%s%s", k, TX(s, "in hand", "in mano"),
           taken(s, seat, pile, sizeof pile),
           partner ? TX(s, "  partner", "  compagno") : "",
           seat == s->st.dealer ? TX(s, "  dealer", "  mazziere") : "");
  put(y, w + 3 + 11, text);
}

/* The moves of the round before the last one, back to the viewer's own
 * (or players-2 of them), in words: what happened since your turn.  When
 * they do not fit, the oldest give way ("Before: ... Bruno: ..."). */
static void before_line(const screen *sc, int y) {
  const play_session *s = sc->s;
  char text[1200] = "", words[400];
  int players = s->rules.players, n = s->st.plays;
  int first = n - 1 - (players - 2) > 0 ? n - 1 - (players - 2) : 0;
  for (int i = first; i < n - 1 && s->round_live; i++) {
    int seat = (s->st.dealer + 1 + i) % players;
    snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s: %s",
             *text ? "; " : "", play_seat_name(s, seat),
             play_move_words(s, s->st.moves[i], words, sizeof words));
  }
  if (!*text)
    return;
  const char *head = TX(s, "Before: ", "Prima: "), *p = text;
  size_t room = COLS > (int)strlen(head) + 4 ? COLS - strlen(head) : 4;
  int cut = 0;
  while (strlen(p) > room && strchr(p, ';'))
    p = strchr(p, ';') + 2, cut = 1;
  char line[1300];
  snprintf(line, sizeof line, "%s%s%s", head, cut ? "... " : "", p);
  attron(A_DIM);
  put(y, 0, line);
  attroff(A_DIM);
}

/* "Stock: 27   Last: Bruno: six of coins takes two of coins and four of
 * cups". */
static char *last_text(const screen *sc, char *text, size_t n) {
  const play_session *s = sc->s;
  char words[400];
  snprintf(text, n, "%s: %d   ", TX(s, "Stock", "Mazzo"),
           scopa_state_stock(&s->st));
  if (s->has_last)
    snprintf(text + strlen(text), n - strlen(text), "%s %s: %s%s",
             TX(s, "Last:", "Ultima:"), play_seat_name(s, s->last_seat),
             play_move_words(s, s->last_move, words, sizeof words),
             s->last_scopa ? "  SCOPA!" : "");
  return text;
}

/* Rows the last move takes: two when it is wider than the screen (it is
 * never cut: what was taken is at its end). */
static int last_rows(const screen *sc) {
  char text[600];
  return (int)strlen(last_text(sc, text, sizeof text)) > COLS ? 2 : 1;
}

static int last_line(const screen *sc, int y) {
  char text[600];
  return put_wrapped(y, last_text(sc, text, sizeof text), (size_t)COLS,
                     y + last_rows(sc) - 1);
}

/* The table's cards from y; returns the next free row. */
static int table_cards(const screen *sc, int y, int boxes) {
  int cards[40], n = list_cards(sc->shown_table, cards);
  scopa_move current = sc->choosing ? screen_current_move(sc) : 0;
  char label[80];
  snprintf(label, sizeof label, "%s (%d)", TX(sc->s, "Table", "Tavolo"), n);
  put(y++, 0, label);
  if (!n)
    put(y, 2, TX(sc->s, "(empty)", "(vuoto)"));
  int x = 2;
  for (int i = 0; i < n; i++) {
    attr_t mark = (SCOPA_MOVE_TAKES(current) | sc->flash) & SCOPA_BIT(cards[i])
                      ? A_REVERSE
                      : A_NORMAL;
    int w = boxes ? CARD_W : 5;
    if (x + w > COLS) {
      x = 2;
      y += boxes ? CARD_H : 1;
    }
    if (boxes)
      card_box(sc, y, x, cards[i], mark, NULL);
    else
      w = card_token(sc, y, x, cards[i], mark);
    x += w + 1;
  }
  return y + (boxes ? CARD_H : 1);
}

static void hand_label(const screen *sc, int y) {
  const play_session *s = sc->s;
  char label[200], pile[80];
  if (sc->viewer < 0)
    snprintf(label, sizeof label, "%s",
             TX(s, "(hands hidden)", "(mani coperte)"));
  else
    snprintf(label, sizeof label, "%s   %s",
             s->humans == 1 ? TX(s, "Your hand", "La tua mano")
                            : play_seat_name(s, sc->viewer),
             taken(s, sc->viewer, pile, sizeof pile));
  put(y, 0, label);
}

/* The viewer's hand from y; returns the next free row.  Each card has its
 * key (1..9, 0) in its top border; the selected one stands out a row. */
static int hand_cards(screen *sc, int y, int boxes) {
  memset(sc->hand_at, 0, sizeof sc->hand_at);
  hand_label(sc, y++);
  if (sc->viewer < 0)
    return y + (boxes ? CARD_H + 1 : 1);
  int cards[40], n = list_cards(sc->s->st.hand[sc->viewer], cards);
  int x = 2;
  for (int i = 0; i < n && i < 10; i++) {
    int selected = sc->choosing && i == sc->sel;
    attr_t mark = selected ? A_REVERSE | A_BOLD : A_NORMAL;
    char digit[4];
    snprintf(digit, sizeof digit, "%d", (i + 1) % 10);
    int w;
    if (boxes) {
      card_box(sc, y + 1 - selected, x, cards[i], mark,
               sc->choosing ? digit : NULL);
      w = CARD_W;
      sc->hand_at[i] = (rect){y, x, CARD_H + 1, CARD_W};
    } else {
      put(y, x, sc->choosing ? digit : " ");
      w = 1 + card_token(sc, y, x + 1, cards[i], mark);
      sc->hand_at[i] = (rect){y, x, 1, w};
    }
    x += w + 1;
  }
  return y + (boxes ? CARD_H + 1 : 1);
}

/* "(1/2) Take the 5 of swords with your 5 of cups  (pick again for the
 * next)   [ Play ]": the move in the library's words (scopa_move_words,
 * as the hints say it), never its notation.  On a narrow terminal the
 * move goes on under itself (two rows), never cut; returns the next free
 * row. */
static int choice_line(screen *sc, int y) {
  const play_session *s = sc->s;
  sc->play_at = (rect){-1, -1, 0, 0};
  if (!sc->choosing || !sc->ncards)
    return y + 1;
  scopa_move opts[SCOPA_MAX_MOVES];
  int k = screen_card_moves(sc, sc->cards[sc->sel], opts, SCOPA_MAX_MOVES);
  char text[600], words[400], next[80] = "";
  scopa_move cur = screen_current_move(sc);
  scopa_move_words(cur, s->cfg.italian ? "it" : "en", NULL, words,
                   sizeof words);
  text[0] = 0;
  if (k > 1) { /* first: a long move would push it past the [ Play ] */
    snprintf(text, sizeof text, "(%d/%d) ", sc->opt + 1, k);
    snprintf(next, sizeof next, "  (%s)",
             TX(s, "pick again for the next", "di nuovo: la prossima"));
  }
  snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", words,
           scopa_state_is_scopa(&s->st, cur) ? " - scopa!" : "");
  int x = COLS - 10;
  size_t room = x > 1 ? (size_t)(x - 1) : (size_t)COLS;
  if (strlen(text) + strlen(next) <= room) /* the help "next" only if it fits */
    snprintf(text + strlen(text), sizeof text - strlen(text), "%s", next);
  attron(A_BOLD);
  int after = put_wrapped(y, text, room, y + 1 < LINES - 2 ? y + 1 : y);
  attroff(A_BOLD);
  if (x > 0) {
    attron(A_REVERSE);
    put(y, x, TX(s, "[ Play ]", "[ Gioca ]"));
    attroff(A_REVERSE);
    sc->play_at = (rect){y, x, 1, 9};
  }
  return after;
}

/* The keys, the longest form that fits: a narrow terminal still says how
 * to play and how to leave. */
static void help_line(const screen *sc) {
  const play_session *s = sc->s;
  const char *full[] = {
      TX(s,
         "<- -> 1-0 choose  Up/Down: other capture  Enter: play  ?: hint"
         "  q: save & quit",
         "<- -> 1-0 scegli  Su/Giu: altra presa  Invio: gioca  ?: "
         "consiglio  q: esci"),
      TX(s, "1-0 choose  Enter: play  ?: hint  q: save & quit",
         "1-0 scegli  Invio: gioca  ?: consiglio  q: esci"),
      TX(s, "1-0 card  Enter play  ? hint  q quit",
         "1-0 carta Invio gioca ? consiglio q esci")};
  int i = 0;
  while (i < 2 && (int)strlen(full[i]) > COLS)
    i++;
  const char *help =
      sc->choosing ? full[i] : TX(s, "q: save & quit", "q: salva ed esci");
  attron(A_DIM);
  put(LINES - 1, 0, help);
  attroff(A_DIM);
}

/* The message from line y, wrapped at spaces, above the help line (a
 * hint in words takes two or three lines of a narrow terminal). */
static void message_lines(const screen *sc, int y) {
  put_wrapped(y > LINES - 2 ? LINES - 2 : y, sc->message, (size_t)COLS,
              LINES - 2);
}

void draw_board(screen *sc) {
  const play_session *s = sc->s;
  erase();
  if (COLS < 40 || LINES < 14) { /* said whole, however narrow */
    put_wrapped(0,
                TX(s, "Terminal too small: 40x14 at least.",
                   "Terminale troppo piccolo: almeno 40x14."),
                (size_t)COLS, LINES - 1);
    refresh();
    return;
  }
  int ntable = __builtin_popcountll(sc->shown_table);
  int boxes = rows_needed(sc, ntable) <= LINES && COLS >= 62;
  title_line(sc);
  int y = 2;
  for (int seat = 0; seat < s->rules.players; seat++)
    if (seat != sc->viewer)
      seat_line(sc, y++, seat);
  if (s->rules.players > 2)
    before_line(sc, y++);
  y = last_line(sc, y);
  y = table_cards(sc, y, boxes) + 1;
  y = hand_cards(sc, y, boxes);
  y = choice_line(sc, y);
  if (*sc->message) {
    attron(A_BOLD | (sc->color ? COLOR_PAIR(PAIR_GOOD) : 0));
    message_lines(sc, y);
    attroff(A_BOLD | (sc->color ? COLOR_PAIR(PAIR_GOOD) : 0));
  }
  help_line(sc);
  refresh();
}

/* Where line (len bytes) breaks to fit width columns: after the last
 * comma that fits (between two sides' names), else at the last space,
 * else at the last whole UTF-8 character that fits. */
static size_t break_at(const char *line, size_t len, size_t width) {
  if (len <= width)
    return len;
  for (size_t i = width - 1; i > width / 2; i--)
    if (line[i] == ',' && line[i + 1] == ' ')
      return i + 1;
  for (size_t i = width; i > width / 3; i--)
    if (line[i] == ' ')
      return i;
  size_t i = width;
  while (i > 1 && ((unsigned char)line[i] & 0xC0) == 0x80)
    i--;
  return i;
}

/* The panel's lines cut to the screen's width: a line too long goes on
 * under itself, indented past its title (11 columns) or its own indent. */
static int wrap_rows(play_lines lines, int n, int width, char rows[][PLAY_LINE],
                     int cap) {
  int k = 0;
  for (int i = 0; i < n && k < cap; i++) {
    const char *p = lines[i];
    size_t lead = strspn(p, " ");
    int indent = lead ? (int)lead + 2 : 11;
    int first = 1;
    while (k < cap) {
      int pad = first ? 0 : indent;
      size_t room = width - pad > 8 ? (size_t)(width - pad) : 8;
      size_t cut = break_at(p, strlen(p), room);
      snprintf(rows[k++], PLAY_LINE, "%*s%.*s", pad, "", (int)cut, p);
      p += cut;
      p += strspn(p, " ");
      if (!*p)
        break;
      first = 0;
    }
  }
  return k;
}

void draw_panel(screen *sc, const char *title, play_lines lines, int n,
                const char *footer) {
  erase();
  title_line(sc);
  static char rows[PLAY_LINES * 4][PLAY_LINE];
  int nrows =
      wrap_rows(lines, n, COLS > 12 ? COLS - 2 : 10, rows, PLAY_LINES * 4);
  /* Rows 0-1 the title line, then the panel's title, a blank, its rows,
   * a blank and the footer: what does not fit scrolls (Up/Down). */
  int room = LINES - 6 > 1 ? LINES - 6 : 1;
  int shown = nrows < room ? nrows : room;
  if (sc->pfirst > nrows - shown)
    sc->pfirst = nrows - shown;
  if (sc->pfirst < 0)
    sc->pfirst = 0;
  sc->pmore = sc->pfirst + shown < nrows;
  int w = 0;
  for (int i = 0; i < nrows; i++)
    if ((int)strlen(rows[i]) > w)
      w = (int)strlen(rows[i]);
  int x = (COLS - w) / 2 > 1 ? (COLS - w) / 2 : 1;
  int y = (LINES - shown - 4) / 2 > 2 ? (LINES - shown - 4) / 2 : 2;
  attron(A_BOLD);
  put(y, x, title);
  attroff(A_BOLD);
  for (int i = 0; i < shown; i++)
    put(y + 2 + i, x, rows[sc->pfirst + i]);
  char foot[240];
  if (shown < nrows)
    snprintf(foot, sizeof foot, " %d-%d/%d %s", sc->pfirst + 1,
             sc->pfirst + shown, nrows, TX(sc->s, "(Up/Down)", "(Su/Giu)"));
  else
    foot[0] = 0;
  snprintf(foot + strlen(foot), sizeof foot - strlen(foot), "%s", footer);
  attron(A_REVERSE);
  put(y + 3 + shown < LINES ? y + 3 + shown : LINES - 1, x, foot);
  attroff(A_REVERSE);
  refresh();
}

void draw_handover(screen *sc, int seat) {
  int viewer = sc->viewer;
  sc->viewer = -1;
  int choosing = sc->choosing;
  sc->choosing = 0;
  draw_board(sc);
  char text[200];
  snprintf(
      text, sizeof text, "%s %s: %s",
      TX(sc->s, "Pass the terminal to", "Passa il terminale a"),
      play_seat_name(sc->s, seat),
      TX(sc->s, "press Enter when ready.", "premi Invio quando sei pronto."));
  attron(A_REVERSE | A_BOLD);
  if ((int)strlen(text) <= COLS)
    put(LINES / 2, (COLS - (int)strlen(text)) / 2, text);
  else /* a narrow terminal: whole, on the rows below (which key to press) */
    put_wrapped(LINES / 2, text, (size_t)COLS, LINES / 2 + 2);
  attroff(A_REVERSE | A_BOLD);
  refresh();
  sc->viewer = viewer;
  sc->choosing = choosing;
}

void draw_init_colors(screen *sc) {
  sc->color = has_colors() && !sc->s->cfg.no_color;
  if (!sc->color)
    return;
  start_color();
  use_default_colors();
  init_pair(PAIR_SUIT + SCOPA_SUIT_DENARI, COLOR_YELLOW, -1);
  init_pair(PAIR_SUIT + SCOPA_SUIT_COPPE, COLOR_RED, -1);
  init_pair(PAIR_SUIT + SCOPA_SUIT_SPADE, COLOR_CYAN, -1);
  init_pair(PAIR_SUIT + SCOPA_SUIT_BASTONI, COLOR_GREEN, -1);
  init_pair(PAIR_BACK, COLOR_MAGENTA, -1);
  init_pair(PAIR_TITLE, COLOR_BLACK, COLOR_GREEN);
  init_pair(PAIR_GOOD, COLOR_YELLOW, -1);
}
