/*
 * card.c -- card and move notation (RULES.md "Cards", "Game records"),
 * card names in words, and the error table.
 *
 * Parsers here are strict: "7d" and "10b" are cards; "07d", "7D", " 7d"
 * and "11d" are not.  Printing then parsing gives back the same value.
 */
#include "internal.h"

#include <stdio.h>
#include <string.h>

static const char SUIT_LETTERS[4] = {'d', 'c', 's', 'b'};

const char *scopa_strerror(int code) {
  switch (code) {
  case SCOPA_OK:
    return "ok";
#define XX(name, value, text)                                                  \
  case SCOPA_##name:                                                           \
    return text;
    SCOPA_ERRNO_MAP(XX)
#undef XX
  }
  return "unknown error";
}

void scopa__msg(char *msg, size_t msgsize, const char *fmt, ...) {
  if (!msg || msgsize == 0)
    return;
  /* Messages quote their input (a move, an option value): made safe to
   * print, so a message never carries a control byte or an override. */
  char raw[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  size_t len = n < 0 ? 0 : (size_t)n < sizeof raw ? (size_t)n : sizeof raw - 1;
  scopa_text_safe(msg, msgsize, raw, len, 0);
}

char *scopa_card_str(int card, char *buf) {
  int rank = SCOPA_RANK(card), n = 0;
  if (rank == 10)
    buf[n++] = '1', buf[n++] = '0';
  else
    buf[n++] = (char)('0' + rank);
  buf[n++] = SUIT_LETTERS[SCOPA_SUIT(card)];
  buf[n] = 0;
  return buf;
}

int scopa_card_parse_n(const char *text, size_t len) {
  int rank;
  if (len == 2 && text[0] >= '1' && text[0] <= '9')
    rank = text[0] - '0';
  else if (len == 3 && text[0] == '1' && text[1] == '0')
    rank = 10;
  else
    return SCOPA_ENOTATION;
  const char *suit = memchr(SUIT_LETTERS, text[len - 1], 4);
  if (!suit)
    return SCOPA_ENOTATION;
  return SCOPA_CARD(rank, (int)(suit - SUIT_LETTERS));
}

int scopa_card_parse(const char *text) {
  return scopa_card_parse_n(text, strlen(text));
}

size_t scopa__cards_join(scopa_cards set, const char *sep, char *buf,
                         size_t bufsize) {
  size_t n = 0, seplen = strlen(sep);
  if (bufsize == 0)
    return 0;
  buf[0] = 0;
  FOR_EACH_CARD(c, set) {
    char one[SCOPA_CARD_TEXT];
    scopa_card_str(c, one);
    size_t need = (n ? seplen : 0) + strlen(one);
    if (n + need + 1 > bufsize)
      break;
    if (n)
      memcpy(buf + n, sep, seplen), n += seplen;
    memcpy(buf + n, one, strlen(one) + 1);
    n += strlen(one);
  }
  return n;
}

size_t scopa_cards_str(scopa_cards cards, char *buf, size_t bufsize) {
  return scopa__cards_join(cards, " ", buf, bufsize);
}

char *scopa_move_str(scopa_move move, char *buf) {
  scopa_card_str(SCOPA_MOVE_CARD(move), buf);
  scopa_cards takes = SCOPA_MOVE_TAKES(move);
  if (takes) {
    size_t n = strlen(buf);
    buf[n++] = 'x';
    scopa__cards_join(takes, "+", buf + n, SCOPA_MOVE_TEXT - n);
  }
  return buf;
}

/* Parses one card of a move at text[0..len); names it in the message. */
static int move_card(const char *text, size_t len, const char *whole, int it,
                     char *msg, size_t msgsize) {
  int card = scopa_card_parse_n(text, len);
  if (card < 0)
    scopa__msg(msg, msgsize,
               SCOPA__TR(it, "'%.*s' in move '%.40s' is not a card",
                         "'%.*s' nella mossa '%.40s' non è una carta"),
               (int)len, text, whole);
  return card;
}

int scopa_move_parse(const char *text, const char *lang, scopa_move *move,
                     char *msg, size_t msgsize) {
  int it = scopa__italian(lang);
  if (!text || !*text) {
    scopa__msg(msg, msgsize, "%s", SCOPA__TR(it, "empty move", "mossa vuota"));
    return SCOPA_ENOTATION;
  }
  const char *x = strchr(text, 'x');
  size_t len = x ? (size_t)(x - text) : strlen(text);
  int card = move_card(text, len, text, it, msg, msgsize);
  if (card < 0)
    return SCOPA_ENOTATION;
  scopa_cards takes = 0;
  if (x) {
    const char *p = x + 1;
    for (;;) {
      const char *plus = strchr(p, '+');
      size_t n = plus ? (size_t)(plus - p) : strlen(p);
      int c = move_card(p, n, text, it, msg, msgsize);
      if (c < 0)
        return SCOPA_ENOTATION;
      if (takes & SCOPA_BIT(c) || c == card) {
        char name[SCOPA_CARD_TEXT];
        scopa__msg(msg, msgsize,
                   SCOPA__TR(it, "move '%.40s' names %s twice",
                             "la mossa '%.40s' nomina %s due volte"),
                   text, scopa_card_str(c, name));
        return SCOPA_ENOTATION;
      }
      takes |= SCOPA_BIT(c);
      if (!plus)
        break;
      p = plus + 1;
    }
  }
  *move = SCOPA_MOVE(card, takes);
  return SCOPA_OK;
}

int scopa__italian(const char *lang) {
  return lang && strncmp(lang, "it", 2) == 0;
}

static const char *const RANK_IT[11] = {"",        "asso",    "due", "tre",
                                        "quattro", "cinque",  "sei", "sette",
                                        "fante",   "cavallo", "re"};
static const char *const RANK_EN[11] = {"",      "ace",   "two", "three",
                                        "four",  "five",  "six", "seven",
                                        "knave", "horse", "king"};
static const char *const SUIT_IT[4] = {"denari", "coppe", "spade", "bastoni"};
static const char *const SUIT_EN[4] = {"coins", "cups", "swords", "clubs"};

char *scopa_card_name(int card, const char *lang, char *buf, size_t bufsize) {
  int rank = SCOPA_RANK(card), suit = SCOPA_SUIT(card);
  if (scopa__italian(lang))
    snprintf(buf, bufsize, "%s di %s", RANK_IT[rank], SUIT_IT[suit]);
  else
    snprintf(buf, bufsize, "%s of %s", RANK_EN[rank], SUIT_EN[suit]);
  return buf;
}
