/*
 * text.c -- what the terminal game says, in Italian or English: cards and
 * moves in words, why a card must capture, the itemised score of a round
 * and the result of the game.  Both faces (line mode, full screen) print
 * these same sentences, so a screen-reader user and a full-screen user
 * are told the same things.
 */
#include "session.h"

#include <string.h>

static const char *lang(const play_session *s) {
  return s->cfg.italian ? "it" : "en";
}

char *play_card_words(const play_session *s, int card, char *buf, size_t n) {
  char c[SCOPA_CARD_TEXT], name[48];
  scopa_card_name(card, lang(s), name, sizeof name);
  snprintf(buf, n, "%s (%s)", scopa_card_str(card, c), name);
  return buf;
}

/* A card as the library says it in a sentence ("the 7 of coins", "l'asso
 * di coppe"), with a capital first letter when `cap`. */
static char *card_the(const play_session *s, int card, int cap, char *buf,
                      size_t n) {
  scopa_card_words(card, lang(s), NULL, buf, n);
  if (cap && buf[0] >= 'a' && buf[0] <= 'z')
    buf[0] = (char)(buf[0] - 'a' + 'A');
  return buf;
}

/* The same without its article: "7 of coins", "asso di coppe". */
static const char *card_bare(const play_session *s, int card, char *buf,
                             size_t n) {
  card_the(s, card, 0, buf, n);
  const char *p = buf;
  if (strncmp(p, "the ", 4) == 0)
    return p + 4;
  if (strncmp(p, "l'", 2) == 0)
    return p + 2;
  const char *space = strchr(p, ' ');
  return s->cfg.italian && space ? space + 1 : p;
}

/* "cinque di spade e due di coppe", or with `the` as a sentence says
 * them: "the 7 of coins and the 3 of cups". */
static char *cards_words(const play_session *s, scopa_cards cards, int the,
                         char *buf, size_t n) {
  buf[0] = 0;
  int left = __builtin_popcountll(cards);
  for (int c = 0; c < 40; c++) {
    if (!(cards & SCOPA_BIT(c)))
      continue;
    char name[48];
    size_t used = strlen(buf);
    const char *sep = !used ? "" : left == 1 ? TX(s, " and ", " e ") : ", ";
    snprintf(buf + used, n - used, "%s%s", sep,
             the ? card_the(s, c, 0, name, sizeof name)
                 : scopa_card_name(c, lang(s), name, sizeof name));
    left--;
  }
  return buf;
}

char *play_move_words(const play_session *s, scopa_move m, char *buf,
                      size_t n) {
  char card[48], takes[400];
  scopa_card_name(SCOPA_MOVE_CARD(m), lang(s), card, sizeof card);
  if (SCOPA_MOVE_TAKES(m))
    snprintf(buf, n, "%s %s %s", card, TX(s, "takes", "prende"),
             cards_words(s, SCOPA_MOVE_TAKES(m), 0, takes, sizeof takes));
  else
    snprintf(buf, n, "%s, %s", card,
             TX(s, "laid on the table", "lasciata sul tavolo"));
  return buf;
}

/* Some set of two or more table cards adding up to `sum` (small tables
 * only: this is for an explanation, not for the rules). */
static int has_sum_set(scopa_cards table, int sum) {
  int cards[40], k = 0;
  for (int c = 0; c < 40; c++)
    if (table & SCOPA_BIT(c))
      cards[k++] = c;
  if (k > 16)
    return 0;
  for (unsigned mask = 1; mask < (1u << k); mask++) {
    if (__builtin_popcount(mask) < 2)
      continue;
    int total = 0;
    for (int i = 0; i < k; i++)
      if (mask & (1u << i))
        total += SCOPA_RANK(cards[i]);
    if (total == sum)
      return 1;
  }
  return 0;
}

char *play_explain_card(const play_session *s, int card, char *buf, size_t n) {
  scopa_move moves[SCOPA_MAX_MOVES];
  int k = scopa_state_legal_card(&s->st, card, moves, SCOPA_MAX_MOVES);
  buf[0] = 0;
  for (int i = 0; i < k && i < SCOPA_MAX_MOVES; i++)
    if (!SCOPA_MOVE_TAKES(moves[i]))
      return buf; /* it may be laid: nothing forced */
  if (k == 0 || !s->st.table)
    return buf;
  char c[48], t[300];
  card_the(s, card, 1, c, sizeof c);
  scopa_cards same = s->st.table & SCOPA_RANK_CARDS(SCOPA_RANK(card));
  if (s->rules.ace_sweeps && SCOPA_RANK(card) == 1 &&
      SCOPA_MOVE_TAKES(moves[0]) == s->st.table && !same) {
    snprintf(buf, n, "%s %s", c,
             TX(s,
                "must sweep the table: an ace on a table without aces "
                "takes it all",
                "deve prendere tutto: un asso su un tavolo senza assi "
                "prende tutte le carte"));
  } else if (s->rules.capture == SCOPA_CAPTURE_MATCH && same &&
             has_sum_set(s->st.table, SCOPA_RANK(card))) {
    cards_words(s, same, 1, t, sizeof t);
    snprintf(buf, n, "%s %s %s: %s", c, TX(s, "must take", "deve prendere"), t,
             TX(s, "a single card comes first",
                "la carta singola ha la precedenza"));
  } else {
    snprintf(buf, n, "%s %s", c,
             TX(s, "must capture: a card that can take may not be laid",
                "deve prendere: una carta che può prendere non si può "
                "lasciare sul tavolo"));
  }
  return buf;
}

/* "Rules: scopa, 3 players, ace_sweeps=true, target 1": the game, the
 * players when not the game's usual number, the other options that
 * differ as their flags say them, then the target, said once (the
 * library's "players=3 target=1" read as notation). */
char *play_rules_line(const play_session *s, char *buf, size_t n) {
  char words[300], rest[300] = "", who[40] = "";
  scopa_rules_str(&s->rules, words, sizeof words);
  /* words: the game, then "key=value" words, one space apart */
  char *w = strchr(words, ' ');
  if (w)
    *w++ = 0;
  while (w && *w) {
    char *next = strchr(w, ' ');
    if (next)
      *next++ = 0;
    if (strncmp(w, "players=", 8) == 0)
      snprintf(who, sizeof who, ", %d %s", s->rules.players,
               TX(s, "players", "giocatori"));
    else if (strncmp(w, "target=", 7) != 0)
      snprintf(rest + strlen(rest), sizeof rest - strlen(rest), ", %s", w);
    w = next;
  }
  snprintf(buf, n, "%s: %s%s%s, %s %d", TX(s, "Rules", "Regole"), words, who,
           rest, TX(s, "target", "si gioca ai"), s->rules.target);
  return buf;
}

/* ---- the itemised score ------------------------------------------- */

static const int PRIMIERA[11] = {0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10};

static int primiera_value(const play_session *s, int card) {
  int r = SCOPA_RANK(card);
  if (r >= 8 && s->rules.primiera == SCOPA_PRIMIERA_FACES_ZERO)
    return 0;
  return PRIMIERA[r];
}

/* "7 of coins 21 + 6 of cups 18 + ace of swords 16 + 5 of clubs 15 = 70" */
static void primiera_breakdown(const play_session *s, scopa_cards pile,
                               char *buf, size_t n) {
  buf[0] = 0;
  int total = 0;
  for (int suit = 0; suit < 4; suit++) {
    int best = -1, value = -1;
    for (int c = suit; c < 40; c += 4)
      if ((pile & SCOPA_BIT(c)) && primiera_value(s, c) > value)
        best = c, value = primiera_value(s, c);
    if (best < 0)
      continue;
    char c[48];
    size_t used = strlen(buf);
    snprintf(buf + used, n - used, "%s%s %d", used ? " + " : "",
             card_bare(s, best, c, sizeof c), value);
    total += value;
  }
  size_t used = strlen(buf);
  snprintf(buf + used, n - used, " = %d", total);
}

typedef struct lines {
  char (*l)[PLAY_LINE];
  int n;
} lines;

static char *next_line(lines *L) {
  if (L->n >= PLAY_LINES)
    return NULL;
  L->l[L->n][0] = 0;
  return L->l[L->n++];
}

static void addf(char *line, const char *text) {
  if (line)
    snprintf(line + strlen(line), PLAY_LINE - strlen(line), "%s", text);
}

/* "  You +1" / "  no one" for a category. */
static void winners(const play_session *s, int cat, char *line) {
  int any = 0;
  char name[80], part[120];
  for (int side = 0; side < s->score.sides; side++)
    if (s->score.side[side].points[cat]) {
      snprintf(part, sizeof part, "%s%s +%d", any ? ", " : "  -> ",
               play_side_name(s, side, name, sizeof name),
               s->score.side[side].points[cat]);
      addf(line, part);
      any = 1;
    }
  if (!any)
    addf(line, TX(s, "  -> no point (tie)", "  -> nessun punto (pari)"));
}

static void count_line(const play_session *s, lines *L, int cat,
                       const char *title, int denari) {
  char *line = next_line(L), part[200], name[80];
  if (!line)
    return;
  snprintf(line, PLAY_LINE, "%-11s", title);
  for (int side = 0; side < s->score.sides; side++) {
    const scopa_side_score *sc = &s->score.side[side];
    snprintf(part, sizeof part, "%s%s %d", side ? ", " : "",
             play_side_name(s, side, name, sizeof name),
             denari                    ? sc->denari
             : cat == SCOPA_CAT_SCOPE  ? sc->scope
             : cat == SCOPA_CAT_SEVENS ? sc->sevens[0]
                                       : sc->cards);
    addf(line, part);
  }
  winners(s, cat, line);
}

/* "Settebello You  -> You +1": the category names its card. */
static void holder_line(const play_session *s, lines *L, int cat,
                        const char *title, int card) {
  char *line = next_line(L), name[80];
  if (!line)
    return;
  snprintf(line, PLAY_LINE, "%-11s", title);
  int holder = -1;
  for (int side = 0; side < s->score.sides; side++)
    if (s->round_pile[side] & SCOPA_BIT(card))
      holder = side;
  addf(line, holder >= 0 ? play_side_name(s, holder, name, sizeof name)
                         : TX(s, "no one", "nessuno"));
  winners(s, cat, line);
}

/* "You: ace, 5, 7, king" (of coins: the line above says so). */
static void coins_detail(const play_session *s, lines *L) {
  for (int side = 0; side < s->score.sides; side++) {
    char *line = next_line(L), cards[200] = "", name[80];
    if (!line)
      return;
    for (int c = 0; c < 40; c++) {
      if (!(s->round_pile[side] & SCOPA_DENARI_CARDS & SCOPA_BIT(c)))
        continue;
      char one[48], *of;
      const char *rank = card_bare(s, c, one, sizeof one);
      if ((of = strstr(rank, s->cfg.italian ? " di " : " of ")) != NULL)
        *of = 0;
      snprintf(cards + strlen(cards), sizeof cards - strlen(cards), "%s%s",
               *cards ? ", " : "", rank);
    }
    snprintf(line, PLAY_LINE, "            %s: %s",
             play_side_name(s, side, name, sizeof name),
             *cards ? cards : TX(s, "none", "nessuno"));
  }
}

static void primiera_lines(const play_session *s, lines *L) {
  if (s->rules.primiera == SCOPA_PRIMIERA_OFF)
    return;
  char *line = next_line(L);
  addf(line, "Primiera   ");
  winners(s, SCOPA_CAT_PRIMIERA, line);
  for (int side = 0; side < s->score.sides; side++) {
    char detail[160], name[80];
    line = next_line(L);
    if (!line)
      return;
    if (s->rules.primiera == SCOPA_PRIMIERA_SEVENS) {
      const int *k = s->score.side[side].sevens;
      snprintf(detail, sizeof detail,
               "7:%d 6:%d 1:%d 5:%d 4:%d 3:%d 2:%d %s:%d", k[0], k[1], k[2],
               k[3], k[4], k[5], k[6], TX(s, "faces", "figure"), k[7]);
    } else {
      primiera_breakdown(s, s->round_pile[side], detail, sizeof detail);
      if (s->score.side[side].suits < 4)
        snprintf(detail + strlen(detail), sizeof detail - strlen(detail),
                 " (%s)", TX(s, "not all suits", "manca un seme"));
    }
    snprintf(line, PLAY_LINE, "            %s: %s",
             play_side_name(s, side, name, sizeof name), detail);
  }
}

static void totals_line(const play_session *s, lines *L) {
  char *line = next_line(L), part[200], name[80];
  if (!line)
    return;
  addf(line, TX(s, "This round:", "Questa mano:"));
  for (int side = 0; side < s->score.sides; side++) {
    snprintf(part, sizeof part, "%s %s +%d", side ? "," : "",
             play_side_name(s, side, name, sizeof name),
             s->score.side[side].total);
    addf(line, part);
  }
  line = next_line(L);
  addf(line, TX(s, "Game:", "Partita:"));
  for (int side = 0; side < s->score.sides; side++) {
    snprintf(part, sizeof part, "%s %s %d", side ? "," : "",
             play_side_name(s, side, name, sizeof name), s->game.totals[side]);
    addf(line, part);
  }
  snprintf(part, sizeof part, " (%s %d)", TX(s, "target", "ai"),
           s->rules.target);
  addf(line, part);
}

int play_score_lines(const play_session *s, play_lines out) {
  lines L = {out, 0};
  char *line = next_line(&L);
  snprintf(line, PLAY_LINE, "%s %d",
           TX(s, "Score of round", "Punti della mano"), s->round_no);
  count_line(s, &L, SCOPA_CAT_CARTE, TX(s, "Cards", "Carte"), 0);
  count_line(s, &L, SCOPA_CAT_DENARI, TX(s, "Coins", "Denari"), 1);
  coins_detail(s, &L);
  holder_line(s, &L, SCOPA_CAT_SETTEBELLO, "Settebello", SCOPA_SETTEBELLO);
  primiera_lines(s, &L);
  count_line(s, &L, SCOPA_CAT_SCOPE, TX(s, "Scope", "Scope"), 0);
  if (s->rules.re_bello)
    holder_line(s, &L, SCOPA_CAT_RE_BELLO, "Re bello", SCOPA_RE_BELLO);
  if (s->rules.napola) {
    line = next_line(&L);
    addf(line, "Napola     ");
    winners(s, SCOPA_CAT_NAPOLA, line);
  }
  /* most_sevens, all_sevens (RULES.md "Scoring a round"). */
  if (s->rules.most_sevens)
    count_line(s, &L, SCOPA_CAT_SEVENS, TX(s, "Sevens", "Sette"), 0);
  if (s->rules.all_sevens) {
    line = next_line(&L);
    addf(line, TX(s, "All sevens ", "Tutti i 7  "));
    winners(s, SCOPA_CAT_ALL_SEVENS, line);
  }
  totals_line(s, &L);
  return L.n;
}

int play_result_lines(const play_session *s, play_lines out) {
  lines L = {out, 0};
  char name[80];
  char *line = next_line(&L);
  if (s->game.finished && s->game.winner >= 0) {
    int human_won = 0;
    for (int seat = 0; seat < s->rules.players; seat++)
      if (s->seat[seat].human &&
          scopa_rules_side_of(&s->rules, seat) == s->game.winner)
        human_won = 1;
    snprintf(line, PLAY_LINE, "%s %s%s",
             TX(s, "The game is over. Winner:", "Partita finita. Vince:"),
             play_side_name(s, s->game.winner, name, sizeof name),
             human_won && s->humans == 1 ? TX(s, " - well played!", " - bravo!")
                                         : "");
  } else if (!s->save_failed) {
    snprintf(line, PLAY_LINE, "%s",
             TX(s, "The game is not finished; it is saved and can be resumed.",
                "La partita non è finita; è salvata e si può riprendere."));
  } else {
    snprintf(line, PLAY_LINE, "%s",
             TX(s, "The game is not finished.", "La partita non è finita."));
  }
  line = next_line(&L);
  addf(line, TX(s, "Totals:", "Totale:"));
  for (int side = 0; side < s->game.sides; side++) {
    char part[120];
    snprintf(part, sizeof part, "%s %s %d", side ? "," : "",
             play_side_name(s, side, name, sizeof name), s->game.totals[side]);
    addf(line, part);
  }
  if (*scopa_match_seed(s->match)) {
    line = next_line(&L);
    snprintf(line, PLAY_LINE, "%s %s",
             TX(s, "Shuffle seed:", "Seme del mazzo:"),
             scopa_match_seed(s->match));
  }
  line = next_line(&L);
  char path[PLAY_LINE / 2];
  play_name_shown(path, sizeof path, s->record_path);
  snprintf(line, PLAY_LINE, "%s %s%s", TX(s, "Record:", "Registrazione:"), path,
           s->save_failed
               ? TX(s, " (could not be written)", " (non si è potuta scrivere)")
               : "");
  if (!s->game.finished && !s->save_failed) {
    line = next_line(&L);
    snprintf(line, PLAY_LINE, "%s scopa play --resume %s",
             TX(s, "To go on:", "Per continuare:"), path);
  }
  if (s->game.finished && !s->save_failed) {
    line = next_line(&L);
    snprintf(line, PLAY_LINE, "%s scopa review %s%s",
             TX(s, "Review the game, move by move:",
                "Rivedi la partita, mossa per mossa:"),
             s->record_path, s->cfg.italian ? " --lang it" : "");
  }
  return L.n;
}

void play_name_from_record(char *out, const char *name) {
  scopa_text_safe(out, PLAY_NAME, name, strlen(name), 0);
}

void play_name_shown(char *out, size_t n, const char *text) {
  if (scopa_text_safe(out, n, text, strlen(text), 0) >= n && n > 4)
    memcpy(out + n - 4, "...", 4);
}
