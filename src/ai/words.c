/*
 * words.c -- moves in words and what they do (scopa.h "Moves in words"):
 * the reasons a hint or a review gives for a move, found by counting cards
 * from the mover's view (scopa_move_why), and the sentences every front
 * end shows: the move ("Take the 7 of coins with your 7 of cups"), its
 * reasons, an amount of points as a person says it, and what a loss
 * means with its doubt.  English and Italian; the French deck's suit and
 * court names where a person plays with that deck.
 *
 * What must stay true: a reason is a fact of the position, never a guess
 * about the hidden cards.  "opens" names a card the mover has not seen
 * (it may be in the next player's hand or not): "a king would make a
 * scopa", never "their king".  The move's effects are measured on one
 * world drawn from the view (its hidden cards do not change them: the
 * table, the piles and the plays are the view's own).
 */
#include "internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const WHY_CODE[SCOPA_WHY_COUNT] = {
#define SCOPA__WHY_CODE(name, code) code,
    SCOPA_WHY_MAP(SCOPA__WHY_CODE)
#undef SCOPA__WHY_CODE
};

const char *scopa_why_code(int bit) {
  return bit >= 0 && bit < SCOPA_WHY_COUNT ? WHY_CODE[bit] : NULL;
}

/* ------------------------------------------------------------------ */
/* Reasons                                                             */
/* ------------------------------------------------------------------ */

/* A card the mover has not seen, of this rank, that the next player (an
 * opponent) could play after the move on w to score a scopa (want 0) or
 * to take the card `want`.  Returns the lowest such rank, or 0. */
static int threat_rank(const scopa_state *w, scopa_cards unseen, int want) {
  int next = scopa_state_to_play(w);
  if (next < 0)
    return 0;
  for (int rank = 1; rank <= 10; rank++) {
    scopa_cards cands = unseen & SCOPA_RANK_CARDS(rank);
    FOR_EACH_CARD(c, cands) {
      scopa_state q = *w;
      for (int s = 0; s < q.players; s++)
        q.hand[s] &= ~SCOPA_BIT(c);
      q.hand[next] |= SCOPA_BIT(c);
      scopa_move moves[SCOPA_MAX_MOVES];
      int n = scopa_state_legal_card(&q, c, moves, SCOPA_MAX_MOVES);
      for (int i = 0; i < n && i < SCOPA_MAX_MOVES; i++)
        if (want < 0 ? scopa_state_is_scopa(&q, moves[i])
                     : (SCOPA_MOVE_TAKES(moves[i]) & SCOPA_BIT(want)) != 0)
          return rank;
    }
  }
  return 0;
}

/* w after the move, if the next player is an opponent; 0 if not. */
static int after_move(const scopa_view *v, const scopa_state *world,
                      scopa_move move, scopa_state *w) {
  *w = *world;
  scopa_state_play(w, move);
  int next = scopa_state_to_play(w);
  return next >= 0 && scopa_rules_side_of(&v->rules, next) !=
                          scopa_rules_side_of(&v->rules, v->seat);
}

/* The rank that would sweep the table after the move (0: none). */
static int opens_rank(const scopa_view *v, const scopa_state *world,
                      scopa_move move, scopa_state *w) {
  if (!after_move(v, world, move, w) || !w->table)
    return 0;
  return threat_rank(w, v->unseen, -1);
}

static int legal(const scopa_view *v, scopa_move move, scopa_move *moves,
                 int *n) {
  *n = scopa_view_legal(v, moves, SCOPA_MAX_MOVES);
  for (int i = 0; i < *n && i < SCOPA_MAX_MOVES; i++)
    if (moves[i] == move)
      return 1;
  return 0;
}

/* What the move puts in the pile: counts of cards, coins, sevens. */
static void pile_counts(scopa_move move, scopa_why *out) {
  scopa_cards takes = SCOPA_MOVE_TAKES(move);
  if (!takes)
    return;
  scopa_cards pile = takes | SCOPA_BIT(SCOPA_MOVE_CARD(move));
  out->cards = POPCOUNT(pile);
  out->coins = POPCOUNT(pile & SCOPA_DENARI_CARDS);
  out->sevens = POPCOUNT(pile & SCOPA_RANK_CARDS(7));
  if (pile & SCOPA_BIT(SCOPA_SETTEBELLO))
    out->reasons |= SCOPA_WHY_SETTEBELLO;
}

/* The lesser reasons of a capture: sevens (where primiera or most_sevens
 * counts them), coins and cards beyond the settebello's own. */
static void pile_reasons(const scopa_rules *r, scopa_why *out) {
  int settebello = (out->reasons & SCOPA_WHY_SETTEBELLO) != 0;
  if (out->sevens > settebello &&
      (r->primiera != SCOPA_PRIMIERA_OFF || r->most_sevens))
    out->reasons |= SCOPA_WHY_SEVENS;
  if (out->coins > settebello)
    out->reasons |= SCOPA_WHY_COINS;
  if (out->cards >= 3)
    out->reasons |= SCOPA_WHY_CARDS;
}

int scopa_move_why(const scopa_view *v, scopa_move move, scopa_why *out) {
  memset(out, 0, sizeof *out);
  scopa_move moves[SCOPA_MAX_MOVES];
  int n;
  if (v->to_play != v->seat || !legal(v, move, moves, &n))
    return SCOPA_EINVAL;
  if (v->rules.lowest_wins)
    return SCOPA_OK;
  scopa_state world, w;
  scopa_rng rng;
  scopa_rng_seed(&rng, 0); /* the hidden cards do not change the reasons */
  scopa_view_sample(v, &rng, &world);
  pile_counts(move, out);
  if (scopa_state_is_scopa(&world, move))
    out->reasons |= SCOPA_WHY_SCOPA;
  pile_reasons(&v->rules, out);
  out->rank = opens_rank(v, &world, move, &w);
  if (out->rank) {
    out->reasons |= SCOPA_WHY_OPENS;
    out->sum = cards_sum(w.table);
  } else {
    for (int i = 0; i < n && i < SCOPA_MAX_MOVES; i++)
      if (moves[i] != move && opens_rank(v, &world, moves[i], &w)) {
        out->reasons |= SCOPA_WHY_SAFE;
        break;
      }
    if (after_move(v, &world, move, &w) &&
        (w.table & SCOPA_BIT(SCOPA_SETTEBELLO))) {
      out->rank = threat_rank(&w, v->unseen, SCOPA_SETTEBELLO);
      if (out->rank) {
        out->reasons |= SCOPA_WHY_GIVES_SETTEBELLO;
        out->sum = cards_sum(w.table);
      }
    }
  }
  return SCOPA_OK;
}

/* ------------------------------------------------------------------ */
/* Words                                                               */
/* ------------------------------------------------------------------ */

/* Appends printf text to buf at *at, as snprintf counts. */
static void add(char *buf, size_t size, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t size, size_t *at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(*at < size ? buf + *at : NULL, *at < size ? size - *at : 0,
                    fmt, ap);
  va_end(ap);
  if (k > 0)
    *at += (size_t)k;
}

static int french(const char *deck) {
  return deck && strcmp(deck, SCOPA_DECK_FRENCH) == 0;
}

/* Suits in card order: denari, coppe, spade, bastoni. */
static const char *const SUIT[2][2][4] = {
    {{"coins", "cups", "swords", "clubs"},
     {"diamonds", "hearts", "spades", "clubs"}},
    {{"denari", "coppe", "spade", "bastoni"},
     {"quadri", "cuori", "picche", "fiori"}},
};
/* Court cards 8, 9, 10 and the ace. */
static const char *const COURT[2][2][4] = {
    {{"knave", "horse", "king", "ace"}, {"jack", "queen", "king", "ace"}},
    {{"fante", "cavallo", "re", "asso"}, {"fante", "donna", "re", "asso"}},
};

static const char *rank_word(int rank, int it, int fr, char *num) {
  if (rank == 1)
    return COURT[it][fr][3];
  if (rank >= 8 && rank <= 10)
    return COURT[it][fr][rank - 8];
  snprintf(num, 4, "%d", rank);
  return num;
}

/* "7 of coins", "asso di coppe": a card without its article. */
static void card_bare(int card, int it, int fr, char *buf, size_t n) {
  char num[4];
  snprintf(buf, n, "%s %s %s", rank_word(SCOPA_RANK(card), it, fr, num),
           it ? "di" : "of", SUIT[it][fr][SCOPA_SUIT(card)]);
}

/* The Italian article of a card: "l'asso", "la donna", "il 7". */
static const char *article_it(int card, int fr) {
  int rank = SCOPA_RANK(card);
  return rank == 1 ? "l'" : rank == 9 && fr ? "la " : "il ";
}

char *scopa_card_words(int card, const char *lang, const char *deck, char *buf,
                       size_t bufsize) {
  int it = scopa__italian(lang), fr = french(deck);
  char bare[40];
  card_bare(card, it, fr, bare, sizeof bare);
  snprintf(buf, bufsize, "%s%s", it ? article_it(card, fr) : "the ", bare);
  return buf;
}

/* "a king", "un re", "una donna", "an ace", "un 7". */
static const char *a_rank(int rank, int it, int fr, char *buf, size_t n) {
  char num[4];
  const char *r = rank_word(rank, it, fr, num);
  if (it)
    snprintf(buf, n, "%s %s", rank == 9 && fr ? "una" : "un", r);
  else
    snprintf(buf, n, "%s %s", rank == 1 ? "an" : "a", r);
  return buf;
}

/* A move in words: as a person is told to play it (done 0: "Take the 7
 * of coins with your 7 of cups") or as it was played (done 1: "takes the
 * 7 of coins with the 7 of cups"). */
static size_t move_words(scopa_move move, const char *lang, const char *deck,
                         int done, char *buf, size_t bufsize) {
  int it = scopa__italian(lang), fr = french(deck);
  int card = SCOPA_MOVE_CARD(move);
  char one[48], bare[40];
  size_t at = 0;
  if (bufsize)
    buf[0] = 0;
  scopa_card_words(card, lang, deck, one, sizeof one);
  scopa_cards takes = SCOPA_MOVE_TAKES(move);
  if (!takes) { /* "Cala il 5 di spade", "Lay the 5 of swords on the table" */
    add(buf, bufsize, &at,
        it ? (done ? "cala %s" : "Cala %s")
           : (done ? "lays %s on the table" : "Lay %s on the table"),
        one);
    return at;
  }
  add(buf, bufsize, &at, "%s",
      it ? (done ? "prende" : "Prendi") : (done ? "takes" : "Take"));
  int left = POPCOUNT(takes), first = 1;
  FOR_EACH_CARD(c, takes) {
    const char *sep = first ? " " : left == 1 ? (it ? " e " : " and ") : ", ";
    add(buf, bufsize, &at, "%s%s", sep,
        scopa_card_words(c, lang, deck, one, sizeof one));
    left--;
    first = 0;
  }
  if (done) /* "con il 7 di coppe", "with the 7 of cups" */
    add(buf, bufsize, &at, it ? " con %s" : " with %s",
        scopa_card_words(card, lang, deck, one, sizeof one));
  else if (it) { /* "con il tuo 7 di coppe", "con la tua donna di cuori" */
    card_bare(card, it, fr, bare, sizeof bare);
    add(buf, bufsize, &at, " con %s %s",
        SCOPA_RANK(card) == 9 && fr ? "la tua" : "il tuo", bare);
  } else {
    card_bare(card, it, fr, bare, sizeof bare);
    add(buf, bufsize, &at, " with your %s", bare);
  }
  return at;
}

size_t scopa_move_words(scopa_move move, const char *lang, const char *deck,
                        char *buf, size_t bufsize) {
  return move_words(move, lang, deck, 0, buf, bufsize);
}

size_t scopa_played_words(scopa_move move, const char *lang, const char *deck,
                          char *buf, size_t bufsize) {
  return move_words(move, lang, deck, 1, buf, bufsize);
}

/* One reason in words. */
static void reason(int bit, const scopa_why *why, int it, int fr, char *buf,
                   size_t size, size_t *at) {
  char r[32];
  int n;
  switch (bit) {
  case SCOPA_WHY_BIT_SCOPA:
    add(buf, size, at, "%s", it ? "fa scopa" : "makes a scopa");
    break;
  case SCOPA_WHY_BIT_SETTEBELLO:
    add(buf, size, at, "%s",
        it ? "prende il settebello" : "takes the settebello");
    break;
  case SCOPA_WHY_BIT_GIVES_SETTEBELLO:
    a_rank(why->rank, it, fr, r, sizeof r);
    add(buf, size, at,
        it ? "lascia il settebello in tavola: %s lo prenderebbe"
           : "leaves the settebello on the table: %s would take it",
        r);
    break;
  case SCOPA_WHY_BIT_OPENS:
    a_rank(why->rank, it, fr, r, sizeof r);
    add(buf, size, at,
        it ? "lascia %d in tavola: %s farebbe scopa"
           : "leaves %d on the table: %s would make a scopa",
        why->sum, r);
    break;
  case SCOPA_WHY_BIT_SAFE:
    add(buf, size, at, "%s",
        it ? "non lascia scopa a chi gioca dopo"
           : "leaves no scopa to the next player");
    break;
  case SCOPA_WHY_BIT_SEVENS:
    n = why->sevens - ((why->reasons & SCOPA_WHY_SETTEBELLO) != 0);
    if (n == 1)
      add(buf, size, at, "%s",
          it ? "prende un sette per la primiera"
             : "takes a seven for primiera");
    else
      add(buf, size, at,
          it ? "prende %d sette per la primiera"
             : "takes %d sevens for primiera",
          n);
    break;
  case SCOPA_WHY_BIT_COINS:
    n = why->coins;
    if (n == 1)
      add(buf, size, at, "%s", it ? "prende un denaro" : "takes a coin");
    else
      add(buf, size, at, it ? "prende %d denari" : "takes %d coins", n);
    break;
  case SCOPA_WHY_BIT_CARDS:
    add(buf, size, at, it ? "prende %d carte" : "takes %d cards", why->cards);
    break;
  }
}

/* The reasons that are risks, said after "but". */
#define WHY_RISKS (SCOPA_WHY_OPENS | SCOPA_WHY_GIVES_SETTEBELLO)

size_t scopa_why_words(const scopa_why *why, int max, const char *lang,
                       const char *deck, char *buf, size_t bufsize) {
  int it = scopa__italian(lang), fr = french(deck), said = 0;
  size_t at = 0;
  if (bufsize)
    buf[0] = 0;
  for (int bit = 0; bit < SCOPA_WHY_COUNT && said < max; bit++) {
    if (!(why->reasons & ~WHY_RISKS & (1u << bit)))
      continue;
    if (said++)
      add(buf, bufsize, &at, ", ");
    reason(bit, why, it, fr, buf, bufsize, &at);
  }
  for (int bit = 0; bit < SCOPA_WHY_COUNT; bit++) {
    if (!(why->reasons & WHY_RISKS & (1u << bit)))
      continue;
    if (said)
      add(buf, bufsize, &at, "%s", it ? ", ma " : ", but ");
    reason(bit, why, it, fr, buf, bufsize, &at);
    break;
  }
  return at;
}

/* "about 3/4 of a point", "circa 1 punto e mezzo". */
size_t scopa_card_reason_words(int reason, int card, const char *lang,
                               const char *deck, char *buf, size_t bufsize) {
  int it = scopa__italian(lang);
  char one[48], cap[48];
  scopa_card_words(card, lang, deck, one, sizeof one);
  snprintf(cap, sizeof cap, "%s", one);
  if (cap[0] >= 'a' && cap[0] <= 'z')
    cap[0] = (char)(cap[0] - 'a' + 'A'); /* "The 5", "Il 5", "L'asso" */
  switch (reason) {
  case SCOPA_CARD_REASON_NOT_PLAYABLE:
    return (size_t)snprintf(buf, bufsize, "%s",
                            it ? "Questa carta non si può giocare adesso."
                               : "This card cannot be played now.");
  case SCOPA_CARD_REASON_LAY:
    return (size_t)snprintf(buf, bufsize, "%s",
                            it ? "Nessuna presa: la carta va sul tavolo."
                               : "No capture: this card is laid on the "
                                 "table.");
  case SCOPA_CARD_REASON_MUST_TAKE:
    return (size_t)snprintf(
        buf, bufsize, "%s",
        it ? "Questa carta deve prendere: chi può prendere non può posare."
           : "This card must take: a card that can capture may not be laid.");
  case SCOPA_CARD_REASON_MATCH_FIRST:
    return (size_t)snprintf(
        buf, bufsize,
        it ? "Sul tavolo c'è una carta dello stesso valore: %s deve prendere "
             "quella, non una somma."
           : "A card of the same rank is on the table: %s must take it, not "
             "a sum.",
        one);
  case SCOPA_CARD_REASON_SWEEP:
    return (size_t)snprintf(buf, bufsize, "%s",
                            it ? "L'asso piglia tutto il tavolo."
                               : "An ace sweeps the whole table.");
  case SCOPA_CARD_REASON_ACE_TAKEN:
    return (size_t)snprintf(buf, bufsize, "%s",
                            it ? "Sul tavolo vuoto l'asso si prende da solo."
                               : "On an empty table the ace takes itself.");
  case SCOPA_CARD_REASON_CHOICE:
    return (size_t)snprintf(buf, bufsize,
                            it ? "%s può prendere gruppi diversi: scegli quale."
                               : "%s can take different sets: choose one.",
                            cap);
  default:
    if (bufsize)
      buf[0] = 0;
    return 0;
  }
}

size_t scopa_points_words(double p, const char *lang, char *buf,
                          size_t bufsize) {
  int it = scopa__italian(lang);
  size_t at = 0;
  if (bufsize)
    buf[0] = 0;
  if (!isfinite(p))
    p = 0;
  p = fabs(p);
  if (p > 1e6) /* more than any game holds (a value from outside) */
    p = 1e6;
  if (p < 0.125) {
    add(buf, bufsize, &at, "%s", it ? "quasi niente" : "almost nothing");
    return at;
  }
  /* quarters up to 2 points, halves beyond */
  long q = p < 2.125 ? lround(p * 4) : 2 * lround(p * 2);
  long whole = q / 4, frac = q % 4;
  static const char *const PART_EN[4] = {"", "a quarter", "a half", "3/4"};
  static const char *const PART_IT[4] = {"", "un quarto", "mezzo", "3/4"};
  add(buf, bufsize, &at, "%s ", it ? "circa" : "about");
  if (whole == 0 && frac == 2)
    add(buf, bufsize, &at, "%s", it ? "mezzo punto" : "half a point");
  else if (whole == 0)
    add(buf, bufsize, &at, it ? "%s di punto" : "%s of a point",
        it ? PART_IT[frac] : PART_EN[frac]);
  else if (whole == 1 && !frac)
    add(buf, bufsize, &at, "%s", it ? "un punto" : "a point");
  else if (it) /* "1 punto e mezzo", "2 punti" */
    add(buf, bufsize, &at, "%ld %s%s%s", whole, whole == 1 ? "punto" : "punti",
        frac ? " e " : "", PART_IT[frac]);
  else /* "1 and a half points", "2 points" */
    add(buf, bufsize, &at, "%ld%s%s points", whole, frac ? " and " : "",
        PART_EN[frac]);
  return at;
}

size_t scopa_hint_others_words(double best, const double *loss,
                               const double *margin, int n, const char *lang,
                               char *buf, size_t bufsize) {
  int it = scopa__italian(lang), next = -1;
  size_t at = 0;
  char amount[64];
  if (bufsize)
    buf[0] = 0;
  for (int i = 0; i < n; i++)
    if (isfinite(loss[i]) && (next < 0 || loss[i] < loss[next]))
      next = i;
  if (n == 0) {
    add(buf, bufsize, &at, "%s",
        it ? "È l'unica mossa possibile." : "It is your only move.");
  } else if (next < 0 || !isfinite(best)) {
    add(buf, bufsize, &at, "%s",
        it ? "Questa volta senza stima di quanto sia meglio."
           : "No estimate of how much better it is this time.");
  } else if (loss[next] >= 0.1) {
    double m = isfinite(margin[next]) ? margin[next] : 0;
    scopa_points_words(loss[next], lang, amount, sizeof amount);
    add(buf, bufsize, &at,
        it ? "Ogni altra mossa costa %s in media"
           : "Any other move costs %s "
             "on average",
        amount);
    if (m >= loss[next])
      add(buf, bufsize, &at, it ? ", più o meno %.2f" : ", give or take %.2f",
          m);
    add(buf, bufsize, &at, ".");
  } else {
    add(buf, bufsize, &at, "%s",
        it ? "Un'altra mossa vale più o meno lo stesso: è una scelta "
             "difficile."
           : "Another move is about as good: a close call.");
  }
  return at;
}

size_t scopa_loss_words(double loss, double margin, int mark, const char *lang,
                        char *buf, size_t bufsize) {
  int it = scopa__italian(lang);
  char amount[64];
  size_t at = 0;
  if (bufsize)
    buf[0] = 0;
  if (!isfinite(loss)) {
    add(buf, bufsize, &at, "%s",
        it ? "Nessuna stima per questa mossa" : "No estimate for this move");
    return at;
  }
  scopa_points_words(loss, lang, amount, sizeof amount);
  if (mark == SCOPA_MARK_BLUNDER)
    add(buf, bufsize, &at,
        it ? "Un errore grave (?\?): quasi certamente è costata un punto o "
             "più, %s in media"
           : "A blunder (?\?): it almost surely cost a point or more, %s on "
             "average",
        amount);
  else if (mark == SCOPA_MARK_SLIP)
    add(buf, bufsize, &at,
        it ? "Una svista (?): molto probabilmente è costata 0,3 punti o più, "
             "%s in media"
           : "A slip (?): it very likely cost 0.3 points or more, %s on "
             "average",
        amount);
  else if (loss >= 0.1)
    add(buf, bufsize, &at,
        it ? "Forse è costata %s, ma è dentro il margine della stima "
             "(±%.2f)"
           : "It may have cost %s, but that is within the estimate's "
             "margin (±%.2f)",
        amount, isfinite(margin) ? margin : 0);
  else
    add(buf, bufsize, &at, "%s",
        it ? "Buona quanto la mossa migliore" : "As good as the best move");
  return at;
}
