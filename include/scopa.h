/*
 * scopa.h -- the public API of libscopa, and its manual.
 *
 * libscopa plays the Italian card game Scopa and its family (Scopone,
 * Scopone Scientifico, Scopa d'Assi, Scopa a Quindici and the regional
 * scoring options) exactly as docs/RULES.md says.  Anything not declared
 * here is not API.
 *
 * Layers, bottom up, as HACKING.md "The layers" draws them; the sections
 * follow in this order, and a section uses only the ones above it:
 *
 *   core     errors, text   error codes and their words; outside text shown
 *                           safely, numbers read strictly
 *            cards, moves   plain integers with documented encodings
 *            scopa_rules    the option table of RULES.md, validated; presets
 *            scopa_rng      the random numbers of shuffles and bots
 *            scopa_state    one round: deal, legal moves, apply
 *            scopa_score    a round scored; scopa_tally: rounds added up to
 *                           a game's score, with every end rule
 *            scopa_view     what one seat may know; resampling of the unseen
 *   seed     seeds          one seed deals every deck of a game
 *   json     JSON shapes    rules, views and scores as JSON, read and written
 *   ai       scopa_bot      the bots, their levels for people, the one hint
 *                           procedure; moves in words, for hints and reviews
 *   game     scopa_match    the whole game: seats, rounds from the seed,
 *                           totals
 *   record   scopa_replay   game records read, checked, replayed, written;
 *                           files saved whole or not at all; a scopa_match's
 *                           record, and a match restored from one
 *   engine   front ends     struct sizes, the catalogue, the post-game review
 *            scopa_engine   the `scopa engine` line protocol
 *            scopa_env      learning features: views and moves as fixed-size
 *                           numbers, environments
 *            deprecated     old names kept as aliases
 *
 * Conventions
 *   - Functions return 0 (SCOPA_OK) or a negative SCOPA_E* code; counts
 *     are returned as non-negative ints.  scopa_strerror() names a code.
 *   - Where bad input from a person or a file is possible, a function takes
 *     `char *msg, size_t msgsize` and writes a sentence a player can read
 *     ("5c cannot capture 2s+3s while 5s is on the table").  msg may be
 *     NULL.  Programmer misuse (a NULL state, a seat out of range) is an
 *     assert, not an error code.
 *   - scopa_state, scopa_view, scopa_rules and scopa_tally are fixed-size
 *     plain structs: copy them with memcpy or assignment, keep them on the
 *     stack.  Their fields are documented so they can be read; change them
 *     only through these functions.
 *   - Nothing in the core allocates, does I/O or keeps global state; it is
 *     safe to use from many threads on separate objects.
 */
#ifndef SCOPA_H
#define SCOPA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libscopa is compiled with hidden visibility (-fvisibility=hidden): of
 * its functions only those declared between this push and its pop below
 * are exported by libscopa.so (tests/layers/exports.py checks it). */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default)
#endif

#define SCOPA_VERSION "0.1.0"

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* XX(name, value, text): one table, so scopa_strerror() comes free. */
#define SCOPA_ERRNO_MAP(XX)                                                    \
  XX(EINVAL, -1, "invalid argument")                                           \
  XX(ENOTATION, -2, "bad card or move notation")                               \
  XX(ERULES, -3, "rules that cannot be played")                                \
  XX(EDECK, -4, "bad deck")                                                    \
  XX(EVOID, -5, "void deal: three or more kings on the table")                 \
  XX(EILLEGAL, -6, "illegal move")                                             \
  XX(EOVER, -7, "the round is over")                                           \
  XX(EVIEW, -8, "a view that cannot happen")                                   \
  XX(ERECORD, -9, "bad game record")                                           \
  XX(EJSON, -10, "not valid JSON")                                             \
  XX(ENOMEM, -11, "out of memory")                                             \
  XX(EIO, -12, "input/output error")                                           \
  XX(ENOSPACE, -13, "buffer too small")                                        \
  XX(ESTOPPED, -14, "stopped by the clock or the cancel flag")

enum {
  SCOPA_OK = 0,
#define SCOPA__XX(name, value, text) SCOPA_##name = value,
  SCOPA_ERRNO_MAP(SCOPA__XX)
#undef SCOPA__XX
};

/* A static English description of an error code ("unknown error" for an
 * unknown one).  Never NULL. */
const char *scopa_strerror(int code);

/* ------------------------------------------------------------------ */
/* Text from outside: shown safely, numbers read strictly              */
/* ------------------------------------------------------------------ */

/* Flags of scopa_text_safe. */
#define SCOPA_SAFE_ASCII 1u /* escape every non-ASCII character too */
#define SCOPA_SAFE_DROP 2u  /* leave out what would be escaped (names) */

/*
 * Makes text that came from outside (a record, a request, a command line,
 * a player's name) safe to print on a terminal, write to a log or send to
 * a page.  The first len bytes of text (NUL bytes included) are written to
 * out with:
 *   - C0 control bytes 0x00..0x1F, DEL 0x7F, and every byte that is not
 *     part of valid UTF-8, as \xNN ("\x1b"),
 *   - C1 controls U+0080..U+009F, the bidirectional marks, embeddings,
 *     overrides and isolates (U+061C, U+200E, U+200F, U+202A..U+202E,
 *     U+2066..U+2069) and the separators U+2028, U+2029 as \uXXXX,
 *   - under SCOPA_SAFE_ASCII, every other non-ASCII character as \uXXXX
 *     (\UXXXXXXXX past U+FFFF), so the result is printable ASCII,
 * and everything else unchanged.  Under SCOPA_SAFE_DROP what would be
 * escaped is left out instead (a name a person chose: "An\x07na" becomes
 * "Anna"), and a terminal control sequence is left out whole, not only
 * its ESC or C1 introducer ("\x1b[31mAnna\x1b]0;x\x07" becomes "Anna").  out
 * holds outsize bytes and is always NUL-terminated (when outsize > 0); a result
 * that does not fit is cut between two characters or escapes, never inside one.
 * out may be NULL when outsize is 0.  Returns the length of the whole result,
 * as snprintf does: outsize too small if the return value is >= outsize.
 */
size_t scopa_text_safe(char *out, size_t outsize, const char *text, size_t len,
                       unsigned flags);

/*
 * Reads the whole of text as a whole number in min..max: an optional '-'
 * and decimal digits, nothing else (not "", " 3", "+3", "3x", "0x10", nor
 * a value that overflows).  name is what the number is for, as the person
 * wrote it ("--deals").  Returns SCOPA_OK and sets *out, or SCOPA_EINVAL
 * with a one-line message that names it and the value given (made safe):
 * "--deals must be a whole number from 1 to 100000000, not \"3x\"".
 */
int scopa_parse_int(const char *name, const char *text, long long min,
                    long long max, long long *out, char *msg, size_t msgsize);

/* The same for a decimal number with an optional fraction ("2.5"; no
 * exponent, "inf" or "nan"), in min..max. */
int scopa_parse_real(const char *name, const char *text, double min, double max,
                     double *out, char *msg, size_t msgsize);

/* ------------------------------------------------------------------ */
/* Cards, card sets, moves                                             */
/* ------------------------------------------------------------------ */

/*
 * A card is an int 0..39, rank-major:  card = (rank - 1) * 4 + suit.
 *   rank 1..10  (1 asso, 2..7, 8 fante, 9 cavallo, 10 re);
 *   suit 0 denari (d), 1 coppe (c), 2 spade (s), 3 bastoni (b).
 * So the four cards of a rank are four adjacent bits of a card set, and
 * the settebello 7d is card 24.
 *
 * A card set is a uint64_t with bit `card` set for each card in it; bits
 * 40..63 are always zero.
 */
typedef uint64_t scopa_cards;

#define SCOPA_SUIT_DENARI 0
#define SCOPA_SUIT_COPPE 1
#define SCOPA_SUIT_SPADE 2
#define SCOPA_SUIT_BASTONI 3

#define SCOPA_CARD(rank, suit) (((rank)-1) * 4 + (suit))
#define SCOPA_RANK(card) ((card) / 4 + 1)
#define SCOPA_SUIT(card) ((card) % 4)
#define SCOPA_BIT(card) ((scopa_cards)1 << (card))
#define SCOPA_ALL_CARDS ((scopa_cards)0xFFFFFFFFFFull)
#define SCOPA_RANK_CARDS(rank) ((scopa_cards)0xF << (4 * ((rank)-1)))
#define SCOPA_DENARI_CARDS ((scopa_cards)0x1111111111ull)
#define SCOPA_SETTEBELLO SCOPA_CARD(7, SCOPA_SUIT_DENARI)
#define SCOPA_RE_BELLO SCOPA_CARD(10, SCOPA_SUIT_DENARI)

/*
 * A move is the played card plus the exact set of table cards it takes:
 *   bits  0..39  the captured cards (0: the card is laid on the table);
 *   bits 48..53  the played card.
 * Build and read it with these macros; two moves are equal iff their
 * integers are equal.
 */
typedef uint64_t scopa_move;

#define SCOPA_MOVE(card, captured)                                             \
  (((scopa_move)(card) << 48) | ((scopa_move)(captured)&SCOPA_ALL_CARDS))
#define SCOPA_MOVE_CARD(move) ((int)(((move) >> 48) & 0x3F))
#define SCOPA_MOVE_TAKES(move) ((scopa_cards)((move)&SCOPA_ALL_CARDS))

/* Longest text of a card ("10b") and of a move, with the NUL. */
#define SCOPA_CARD_TEXT 4
#define SCOPA_MOVE_TEXT 176

/* Writes the canonical notation of a card ("7d", "10b") into buf, which
 * holds SCOPA_CARD_TEXT bytes.  Returns buf. */
char *scopa_card_str(int card, char *buf);

/* Parses exactly one card in canonical notation (RULES.md "Cards"): rank
 * digits 1..10 without leading zeros, then a lowercase suit letter.
 * Returns the card 0..39, or SCOPA_ENOTATION. */
int scopa_card_parse(const char *text);

/* Like scopa_card_parse on the first len bytes of text. */
int scopa_card_parse_n(const char *text, size_t len);

/* Writes the record notation of a move ("10bx3c+7b", "7s") into buf, which
 * holds SCOPA_MOVE_TEXT bytes; captured cards are listed in card order.
 * Returns buf. */
char *scopa_move_str(scopa_move move, char *buf);

/* Parses a move in record notation: a card, or a card, 'x' and one or more
 * cards joined by '+'.  Checks only the notation (no card twice), not the
 * rules.  Returns SCOPA_OK and sets *move, or SCOPA_ENOTATION with a
 * message, in Italian when lang is "it" (as scopa_card_name reads lang;
 * NULL or anything else means English). */
int scopa_move_parse(const char *text, const char *lang, scopa_move *move,
                     char *msg, size_t msgsize);

/* Writes "7d 3c 10b" (cards in card order, space separated) into buf of
 * size bufsize; returns the length written (truncated to fit). */
size_t scopa_cards_str(scopa_cards cards, char *buf, size_t bufsize);

/* The name of a card in words, "sette di denari" (lang "it") or "seven of
 * coins" (lang "en"); any other lang means English.  Returns buf, which
 * holds bufsize bytes (40 is enough). */
char *scopa_card_name(int card, const char *lang, char *buf, size_t bufsize);

/* ------------------------------------------------------------------ */
/* Rules                                                               */
/* ------------------------------------------------------------------ */

enum { SCOPA_GAME_SCOPA, SCOPA_GAME_SCOPONE, SCOPA_GAME_SCIENTIFICO };
enum { SCOPA_CAPTURE_MATCH, SCOPA_CAPTURE_QUINDICI };
enum {
  SCOPA_PRIMIERA_STANDARD,
  SCOPA_PRIMIERA_FACES_ZERO,
  SCOPA_PRIMIERA_SEVENS,
  SCOPA_PRIMIERA_OFF,
  SCOPA_PRIMIERA_SUM,          /* plain sum, a missing suit adds 0   */
  SCOPA_PRIMIERA_COMPLETE_ONLY /* only complete sides compete        */
};
enum {
  SCOPA_TIEBREAK_EXTRA_ROUND,
  SCOPA_TIEBREAK_COUNT_ORDER,
  SCOPA_TIEBREAK_COUNT_ORDER_ON_TIE
};
/* ace_sweep_with_ace, ace_first_play, ace_empty_table (RULES.md "A
 * turn", ace_sweeps). */
enum {
  SCOPA_ACE_WITH_ACE_NO,
  SCOPA_ACE_WITH_ACE_YES,
  SCOPA_ACE_WITH_ACE_CHOICE
};
enum {
  SCOPA_ACE_FIRST_SWEEPS,
  SCOPA_ACE_FIRST_NO_SWEEP,
  SCOPA_ACE_FIRST_NO_ACE
};
enum { SCOPA_ACE_EMPTY_LAID, SCOPA_ACE_EMPTY_TAKEN };
/* leftovers (RULES.md "End of the round"). */
enum {
  SCOPA_LEFTOVERS_LAST_CAPTURE,
  SCOPA_LEFTOVERS_DEALER,
  SCOPA_LEFTOVERS_NOBODY
};
/* deal_bonus (RULES.md "The deal"). */
enum { SCOPA_DEAL_BONUS_OFF, SCOPA_DEAL_BONUS_FIFTEEN };

/* The largest target and all_sevens (RULES.md "End of the game"): a game
 * to more than a thousand points would not end in any sitting, and with
 * these bounds no total can come near overflowing. */
#define SCOPA_TARGET_MAX 1000
#define SCOPA_ALL_SEVENS_MAX 100

/*
 * The options of RULES.md, one field each, named as the option is named
 * in a record's "rules" object.  Fill it with scopa_rules_init() and
 * scopa_rules_set(), then scopa_rules_check() before use: the round and
 * game functions assume checked rules.  The options added with the
 * variants come last, so the older fields keep their offsets; the option
 * table (scopa_option_get) lists them all in the order of RULES.md.
 */
typedef struct scopa_rules {
  int32_t game;               /* SCOPA_GAME_*                         */
  int32_t players;            /* 2, 3, 4 or 6; 0 = the game's default */
  int32_t teams;              /* 0/1; -1 = the game's default         */
  int32_t refill;             /* 3, or 1 (scopa only)                 */
  int32_t kings_redeal;       /* 0/1                                  */
  int32_t mandatory_capture;  /* 0/1                                  */
  int32_t fewest_cards;       /* 0/1                                  */
  int32_t ace_sweeps;         /* 0/1                                  */
  int32_t ace_sweep_scopa;    /* 0/1                                  */
  int32_t capture;            /* SCOPA_CAPTURE_*                      */
  int32_t primiera;           /* SCOPA_PRIMIERA_*                     */
  int32_t re_bello;           /* 0/1                                  */
  int32_t napola;             /* 0/1                                  */
  int32_t target;             /* 1..SCOPA_TARGET_MAX                  */
  int32_t tiebreak;           /* SCOPA_TIEBREAK_*                     */
  int32_t win_by_two;         /* 0/1                                  */
  int32_t cappotto;           /* >= 0; 0 = off                        */
  int32_t team_size;          /* 2 or 3 (3: 6 players in teams)       */
  int32_t deal_bonus;         /* SCOPA_DEAL_BONUS_*                   */
  int32_t single_match_first; /* 0/1                                 */
  int32_t max_capture;        /* 0 (no limit) or 2                    */
  int32_t last_card_scopa;    /* 0/1                                  */
  int32_t ace_sweep_with_ace; /* SCOPA_ACE_WITH_ACE_*                */
  int32_t ace_first_play;     /* SCOPA_ACE_FIRST_*                    */
  int32_t ace_empty_table;    /* SCOPA_ACE_EMPTY_*                    */
  int32_t ace_sweep_optional; /* 0/1                                 */
  int32_t leftovers;          /* SCOPA_LEFTOVERS_*                    */
  int32_t most_sevens;        /* 0/1                                  */
  int32_t all_sevens;         /* 0..SCOPA_ALL_SEVENS_MAX; 0 = off     */
  int32_t all_coins_wins;     /* 0/1                                  */
  int32_t lowest_wins;        /* 0/1                                  */
} scopa_rules;

/* The kind of value an option takes. */
enum { SCOPA_OPT_BOOL, SCOPA_OPT_INT, SCOPA_OPT_ENUM };

/* Describes one option: its name, kind, the names of its values (ENUM,
 * NULL-terminated), its range (INT) and its default as text. */
typedef struct scopa_option_info {
  const char *name;
  int kind;
  const char *const *values;
  long long min, max;
  const char *default_text;
  const char *help;
} scopa_option_info;

/* The number of options, and the description of option i (0..count-1), in
 * the order of RULES.md. */
int scopa_option_count(void);
const scopa_option_info *scopa_option_get(int i);

/* The value of option i (0..scopa_option_count()-1) in rules, encoded as
 * scopa_rules_set takes it. */
long long scopa_rules_value(const scopa_rules *rules, int i);

/* Sets every option to its default, with players and teams left to the
 * game's defaults (resolved by scopa_rules_check). */
void scopa_rules_init(scopa_rules *rules);

/* Sets option `name`.  For a BOOL option pass 0/1, for an INT option the
 * number, for an ENUM option the index of its value in info->values.
 * Returns SCOPA_OK, or SCOPA_ERULES for an unknown name or a value out of
 * range, with a message.
 *
 * Here and in scopa_rules_set_text and scopa_rules_check, the message is
 * in Italian when lang is "it" (as scopa_card_name reads lang; NULL or
 * anything else means English).  Option names and values stay as
 * RULES.md spells them in both languages. */
int scopa_rules_set(scopa_rules *rules, const char *name, long long value,
                    const char *lang, char *msg, size_t msgsize);

/* Like scopa_rules_set with the value as text: "true"/"false", a decimal
 * integer, or an enum value's name. */
int scopa_rules_set_text(scopa_rules *rules, const char *name,
                         const char *value, const char *lang, char *msg,
                         size_t msgsize);

/* Resolves the game-dependent defaults (players: 2 for scopa, 4 for the
 * scopone games; teams: true for the scopone games) and checks that the
 * rules can be played (RULES.md "Game records", last paragraph).  Returns
 * SCOPA_OK or SCOPA_ERULES with a message in lang that names the
 * options by their labels (scopa_option_label; their names come from
 * scopa_rules_check_options). */
int scopa_rules_check(scopa_rules *rules, const char *lang, char *msg,
                      size_t msgsize);

/* The options a refusal of scopa_rules_check is about, by name (as in
 * records: "ace_empty_table", "ace_sweeps"), the first the one to change:
 * writes names[0] and names[1] (static strings, NULL where none) and
 * returns how many (0 when the rules can be played).  The refusal's
 * message names them by scopa_option_label in its language ("'Ace on an
 * empty table' needs 'Ace sweeps (asso piglia tutto)' on"), so a program
 * reads the names here, never from the message. */
int scopa_rules_check_options(const scopa_rules *rules, const char *names[2]);

/* An option's label for a person (a form, a rules box, a refusal), in
 * lang ("it": Italian, else English): "Ace on an empty table", "Asso a
 * tavolo vuoto"; the name itself for an option without one.  And the
 * part of RULES.md it belongs to ("game", "play", "aces", "score",
 * "end"; "game" for one without).  Static strings. */
const char *scopa_option_label(const char *name, const char *lang);
const char *scopa_option_group(const char *name);

/* The rules of a named preset (RULES.md "Presets"): "scopa", "scopone",
 * "scientifico" (also "scopone_scientifico"), "assi" (Scopa d'Assi),
 * "quindici" (Scopa a Quindici), "escoba", "trentuno" (Scopone a
 * trentuno), "perdere" (Scopa a perdere).  Checked.  Returns SCOPA_OK or
 * SCOPA_EINVAL. */
int scopa_rules_preset(scopa_rules *rules, const char *name);

/* The preset names scopa_rules_preset knows, NULL-terminated, in the
 * order of RULES.md (aliases left out). */
const char *const *scopa_rules_preset_names(void);

/* Number of sides: players / team_size with teams, else the number of
 * players. */
int scopa_rules_sides(const scopa_rules *rules);

/* The side a seat belongs to: seat % sides (RULES.md "Seats, sides,
 * order": with teams partners alternate with opponents; without, each
 * seat is its own side). */
int scopa_rules_side_of(const scopa_rules *rules, int seat);

/* Writes the options that differ from the game's defaults as "key=value"
 * words ("players=3 ace_sweeps=true"), always starting with the game.
 * Returns the length written (truncated to fit bufsize). */
size_t scopa_rules_str(const scopa_rules *rules, char *buf, size_t bufsize);

/* ------------------------------------------------------------------ */
/* Random numbers                                                      */
/* ------------------------------------------------------------------ */

/* A small fast generator (xoshiro256**), seeded with splitmix64.  The same
 * seed gives the same sequence on every platform. */
typedef struct scopa_rng {
  uint64_t s[4];
} scopa_rng;

void scopa_rng_seed(scopa_rng *rng, uint64_t seed);
uint64_t scopa_rng_next(scopa_rng *rng);
/* Uniform in 0..n-1 (n >= 1), without modulo bias. */
uint32_t scopa_rng_below(scopa_rng *rng, uint32_t n);
/* A uniformly shuffled deck of the 40 cards, deck[0] on top. */
void scopa_rng_deck(scopa_rng *rng, uint8_t deck[40]);

/* ------------------------------------------------------------------ */
/* A round                                                             */
/* ------------------------------------------------------------------ */

#define SCOPA_MAX_SEATS 6
#define SCOPA_NO_SEAT 0xFF
/* Enough room for the legal moves of any position reached in real play.
 * Positions built on purpose (mandatory_capture false and a table of 30
 * cards) can have more: scopa_state_legal then says how many. */
#define SCOPA_MAX_MOVES 1024

/*
 * One round, from the deal to the last play.  Invariant: every one of the
 * 40 cards is in exactly one place: a hand, the table, a side's pile, or
 * the stock (deck[next..39]).  Plain data: copy with memcpy.
 */
typedef struct scopa_state {
  scopa_rules rules; /* checked rules                       */
  scopa_cards hand[SCOPA_MAX_SEATS];
  scopa_cards table;
  scopa_cards
      pile[SCOPA_MAX_SEATS]; /* per side, leftovers included at the end */
  uint8_t deck[40];          /* this round's deck, top first        */
  uint8_t next;              /* deck[next..39] is the stock         */
  uint8_t dealer;
  uint8_t to_play;       /* seat to play, SCOPA_NO_SEAT at end  */
  uint8_t last_capturer; /* seat, SCOPA_NO_SEAT if none yet     */
  uint8_t plays;         /* cards played so far                 */
  uint8_t players, sides;
  uint8_t plain; /* 1: the default capture rule (match, no ace sweeps,
                    fewest_cards, max_capture or single_match_first
                    false), for the lean move loop; 0 is always safe */
  uint8_t scope[SCOPA_MAX_SEATS];     /* scope per side                      */
  scopa_cards initial_table;          /* the table as first dealt            */
  scopa_cards dealt[SCOPA_MAX_SEATS]; /* every card each seat got so far */
  scopa_move moves[40];               /* moves[0..plays): the round so far   */
} scopa_state;

/* Deals a round from the given deck (top first) in the canonical order of
 * RULES.md "The deal".  Errors: SCOPA_EDECK (not 40 distinct cards 0..39),
 * SCOPA_EVOID (three or more kings among the table cards under
 * kings_redeal), with a message.  dealer is 0..players-1. */
int scopa_state_deal(scopa_state *state, const scopa_rules *rules, int dealer,
                     const uint8_t deck[40], char *msg, size_t msgsize);

/* Deals from decks shuffled with rng until the deal is not void; the deck
 * used is in state->deck. */
void scopa_state_deal_random(scopa_state *state, const scopa_rules *rules,
                             int dealer, scopa_rng *rng);

/* The seat to play, or -1 once the round is over. */
int scopa_state_to_play(const scopa_state *state);

/* Nonzero once every card has been played and the leftovers taken. */
int scopa_state_over(const scopa_state *state);

/* Total plays in a whole round (36 for scopa and scopone, 40 for
 * scientifico). */
int scopa_state_total_plays(const scopa_state *state);

/* Cards left in the stock. */
int scopa_state_stock(const scopa_state *state);

/* Writes the legal moves of the seat to play into moves[0..cap-1] and
 * returns how many there are in all (0 once the round is over).  If that
 * is more than cap, only the first cap were written.  No allocation. */
int scopa_state_legal(const scopa_state *state, scopa_move *moves, int cap);

/* The legal moves of one card of the seat to play (which must hold it),
 * as scopa_state_legal. */
int scopa_state_legal_card(const scopa_state *state, int card,
                           scopa_move *moves, int cap);

/* Checks that `move` is legal for the seat to play, without listing the
 * legal moves.  Returns SCOPA_OK, SCOPA_EOVER, or SCOPA_EILLEGAL with a
 * message that says why ("5c cannot capture 2s+3s while 5s is on the
 * table"), in Italian when lang is "it" ("5c non può prendere 2s+3s
 * finché in tavola c'è 5s"); NULL or anything else means English.  The
 * messages of both languages name the same cards and the same rule
 * option. */
int scopa_state_check(const scopa_state *state, scopa_move move,
                      const char *lang, char *msg, size_t msgsize);

/* Checks the move as scopa_state_check, then plays it: the cards move, a
 * scopa is counted, hands are refilled from the stock, and after the last
 * play the leftovers go to the last capturer.  On error the state is
 * unchanged. */
int scopa_state_apply(scopa_state *state, scopa_move move, char *msg,
                      size_t msgsize);

/* Plays a move known to be legal (one from scopa_state_legal), without the
 * check: for search.  An illegal move here is a programmer error. */
void scopa_state_play(scopa_state *state, scopa_move move);

/* Nonzero if playing this (legal) move now scores a scopa. */
int scopa_state_is_scopa(const scopa_state *state, scopa_move move);

/* Plays the round to its end with random moves, for Monte Carlo rollouts
 * and benchmarks: at each turn the move is moves[scopa_rng_below(rng, n)]
 * of the n moves scopa_state_legal lists, so the round is the one those
 * two calls and scopa_state_play in a loop would play, with the same rng
 * draws, only faster (one call, compiled as one loop).  In a position with
 * more legal moves than SCOPA_MAX_MOVES (see there) the draw is among the
 * first SCOPA_MAX_MOVES.  Returns the number of moves played (0 if the
 * round was over). */
int scopa_state_playout(scopa_state *state, scopa_rng *rng);

/* ------------------------------------------------------------------ */
/* Scoring                                                             */
/* ------------------------------------------------------------------ */

/* Categories, in the count order of RULES.md "End of the game" (the order
 * the count_order tiebreaks add them up).  A category that is off scores 0
 * points. */
enum {
  SCOPA_CAT_CARTE,
  SCOPA_CAT_DENARI,
  SCOPA_CAT_SETTEBELLO,
  SCOPA_CAT_PRIMIERA,
  SCOPA_CAT_SCOPE,
  SCOPA_CAT_RE_BELLO,
  SCOPA_CAT_NAPOLA,
  SCOPA_CAT_SEVENS,     /* most_sevens                               */
  SCOPA_CAT_ALL_SEVENS, /* all_sevens                                */
  SCOPA_CAT_COUNT
};

/* The record/JSON key of a category ("carte", "re_bello", ...). */
const char *scopa_category_name(int category);

typedef struct scopa_side_score {
  int cards;      /* cards in the side's pile                           */
  int denari;     /* coins among them                                   */
  int settebello; /* 0/1: holds 7d                                      */
  int primiera;   /* sum of the best card of each suit held, on the
                     active scale (faces 0 under faces_zero)            */
  int suits;      /* suits held (primiera completeness)                 */
  int sevens[8];  /* counts for primiera "sevens": 7,6,1,5,4,3,2,faces  */
  int scope;      /* scope made                                         */
  int napola;     /* length of the 1d-2d-3d... run (0 if under 3)       */
  int points[SCOPA_CAT_COUNT];
  int total; /* sum of points                                      */
} scopa_side_score;

typedef struct scopa_score {
  int sides;
  scopa_side_score side[SCOPA_MAX_SEATS];
} scopa_score;

/* Scores a finished round (RULES.md "Scoring a round").  Returns SCOPA_OK,
 * or SCOPA_EINVAL if the round is not over. */
int scopa_state_score(const scopa_state *state, scopa_score *score);

/* Scores piles directly: pile[side] and scope[side] for each side. */
void scopa_score_piles(const scopa_rules *rules, int sides,
                       const scopa_cards *pile, const uint8_t *scope,
                       scopa_score *score);

/* ------------------------------------------------------------------ */
/* A game's tally: round scores added up, the end rules               */
/* ------------------------------------------------------------------ */

/*
 * The score of a game in progress: each side's total, the rounds scored,
 * the next dealer and, once an end rule of RULES.md "End of the game"
 * applies, the winner.  A whole game with its seats, seed and record is a
 * scopa_match (below), which keeps one of these.
 */
typedef struct scopa_tally {
  scopa_rules rules;
  int sides;
  int totals[SCOPA_MAX_SEATS]; /* game score of each side             */
  int rounds;                  /* rounds scored so far                */
  int dealer;                  /* dealer of the next round            */
  int finished;                /* 0/1                                 */
  int winner;                  /* winning side, -1 if none (yet)      */
} scopa_tally;

/* Starts a game's tally; rules must be checked.  first_dealer
 * 0..players-1. */
void scopa_tally_init(scopa_tally *tally, const scopa_rules *rules,
                      int first_dealer);

/* Adds a finished round's score, then applies the end rules of RULES.md
 * "End of the game" in their order (all_coins_wins, cappotto, then the
 * target with lowest_wins, tiebreak and win_by_two); moves the deal to the
 * next seat.  all_coins_wins reads the side's pile as the score describes
 * it (denari == 10).  Returns SCOPA_OK, or SCOPA_EOVER if the game had
 * already ended. */
int scopa_tally_add(scopa_tally *tally, const scopa_score *score);

/* ------------------------------------------------------------------ */
/* A seat's view, and resampling                                       */
/* ------------------------------------------------------------------ */

/*
 * What one seat may know during a round, and nothing more: its hand, the
 * table, every pile (captures are public), the counts of the other hands
 * and of the stock, and every move of the round so far.  Bots, hints and
 * clients work from a view, never from a scopa_state.  Fixed size.
 */
typedef struct scopa_view {
  scopa_rules rules;
  uint8_t seat;            /* whose view                             */
  uint8_t dealer, to_play; /* to_play: SCOPA_NO_SEAT at the end      */
  uint8_t last_capturer;
  uint8_t players, sides;
  uint8_t plays; /* moves so far                           */
  uint8_t stock; /* cards in the stock                     */
  uint8_t hand_count[SCOPA_MAX_SEATS];
  uint8_t scope[SCOPA_MAX_SEATS];
  scopa_cards hand; /* this seat's hand                        */
  scopa_cards table;
  scopa_cards pile[SCOPA_MAX_SEATS];
  scopa_cards initial_table;
  scopa_cards dealt;               /* every card dealt to this seat          */
  scopa_cards unseen;              /* in other hands or the stock             */
  scopa_move moves[40];            /* the round's moves, in order            */
  int32_t scores[SCOPA_MAX_SEATS]; /* game score of each side before it  */
} scopa_view;

/* The view of `seat` of a round.  scores may be NULL (all zero). */
void scopa_view_of(const scopa_state *state, int seat, const int *scores,
                   scopa_view *view);

/* Rebuilds a view from what a seat was told, as in an engine request
 * (CONTRACTS.md "scopa engine"): the table as first dealt, the cards dealt
 * to this seat in the order received, the moves so far.  Checks that the
 * view can happen: no card seen twice, every move legal on the visible
 * table, cards the seat played were its own, the dealt cards fit the deal.
 * Returns SCOPA_OK or SCOPA_EVIEW with a message. */
int scopa_view_build(scopa_view *view, const scopa_rules *rules, int seat,
                     int dealer, scopa_cards table, const uint8_t *dealt,
                     int ndealt, const scopa_move *moves, int nmoves,
                     const int *scores, char *msg, size_t msgsize);

/* The legal moves of the viewing seat when it is to play (as
 * scopa_state_legal), 0 otherwise. */
int scopa_view_legal(const scopa_view *view, scopa_move *moves, int cap);

/*
 * Why a card of the viewing seat's hand plays as it does now (RULES.md
 * "A turn"), so that a front end says it without knowing the rules (the
 * web client shows it under the hand: issue 33).  XX(NAME, code): code
 * is the reason's name in JSON (a state's drawn "reasons",
 * docs/serve.md); scopa_card_reason_words says it.
 *   NOT_PLAYABLE  the seat is not to play, the card is not in its hand,
 *                 or it has no legal move (ace_first_play no_ace);
 *   LAY           its one move lays it on the table (it takes nothing);
 *   MUST_TAKE     its one move is a capture: it may not be laid
 *                 (mandatory_capture);
 *   MATCH_FIRST   as MUST_TAKE, the card of its rank on the table, while
 *                 a sum of table cards would have made its rank too
 *                 (single_match_first);
 *   SWEEP         its one move is an ace sweeping the table (ace_sweeps);
 *   ACE_TAKEN     its one move takes the ace alone from the empty table
 *                 (ace_empty_table taken);
 *   CHOICE        it has several legal moves: the player picks one.
 */
#define SCOPA_CARD_REASON_MAP(XX)                                              \
  XX(NOT_PLAYABLE, "not_playable")                                             \
  XX(LAY, "lay")                                                               \
  XX(MUST_TAKE, "must_take")                                                   \
  XX(MATCH_FIRST, "match_first")                                               \
  XX(SWEEP, "sweep")                                                           \
  XX(ACE_TAKEN, "ace_taken")                                                   \
  XX(CHOICE, "choice")

enum {
#define SCOPA__CARD_REASON(name, code) SCOPA_CARD_REASON_##name,
  SCOPA_CARD_REASON_MAP(SCOPA__CARD_REASON)
#undef SCOPA__CARD_REASON
      SCOPA_CARD_REASON_COUNT
};

/* The SCOPA_CARD_REASON_* of `card` (0..39) for the viewing seat, from
 * the same moves as scopa_view_legal. */
int scopa_view_card_reason(const scopa_view *view, int card);

/* The JSON code of a SCOPA_CARD_REASON_* ("lay", ...); NULL out of
 * range. */
const char *scopa_card_reason_code(int reason);

/* A full round state consistent with the view: the unseen cards dealt at
 * random to the other hands (with their counts) and the stock.  The
 * result plays on exactly as the real round would if the world were so. */
void scopa_view_sample(const scopa_view *view, scopa_rng *rng,
                       scopa_state *out);

/* The full round state of one world: hands[seat] for every other seat
 * (the viewing seat's entry is ignored) and stock[0..view->stock) the
 * stock from the top.  Returns SCOPA_OK, or SCOPA_EVIEW if the world does
 * not fit the view (a card it has seen, a wrong count, a card twice). */
int scopa_view_world(const scopa_view *view, const scopa_cards *hands,
                     const uint8_t *stock, scopa_state *out);

/* A deck that deals this round: scopa_state_deal with the state's rules,
 * dealer and this deck, then its moves replayed, gives the same hands,
 * table, piles, scope and stock order as `state`.  For a world of
 * scopa_view_sample or scopa_view_world (whose deck field holds only the
 * stock in order), so that a world can be stored as its deck and moves
 * and rebuilt, or replayed from the deal.  The order of the cards within
 * one seat's deal may differ from the real deck's (nothing shows it).
 * Returns SCOPA_OK, or SCOPA_EINVAL for a state no deal leads to. */
int scopa_state_deck(const scopa_state *state, uint8_t deck[40]);

/* ------------------------------------------------------------------ */
/* Seeds: one seed deals every deck of a game                          */
/* ------------------------------------------------------------------ */

/*
 * A game's seed is a text of 1 to SCOPA_SEED_MAX lowercase hexadecimal
 * digits (RULES.md "Game records", `seed`).  Round k's deck (k = 0 for the
 * first round) depends on the seed, k and the rules alone:
 *
 *   1. The seed is read as a number, most significant digit first, into
 *      four 64-bit words w[0..3] (w[3] holds the last 16 digits, w[2] the
 *      16 before them, ...; missing digits are zeros).
 *   2. The generator's four state words are s[i] = mix(w[i] ^ mix(k * 4 +
 *      i + 1)), where mix(z) is splitmix64's output function (z +=
 *      0x9e3779b97f4a7c15; z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9; z = (z
 *      ^ (z >> 27)) * 0x94d049bb133111eb; z ^ (z >> 31)).
 *   3. Decks are drawn with scopa_rng_deck until one is not a void deal
 *      under the rules (kings_redeal); that deck is round k's.
 *
 * The first dealer is the seat scopa_rng_below(players) of the generator
 * built the same way with k = -1 (mix(-4 + i + 1) as a 64-bit unsigned
 * value).  Later dealers follow the rules (the seat after the previous
 * dealer), so a whole game's decks and dealers follow from its seed.
 */
#define SCOPA_SEED_MAX 64
#define SCOPA_SEED_TEXT (SCOPA_SEED_MAX + 1)

/* SCOPA_OK if text is a valid seed (1..SCOPA_SEED_MAX lowercase hex
 * digits), else SCOPA_EINVAL with a message. */
int scopa_seed_check(const char *text, char *msg, size_t msgsize);

/* The generator of round `round` of a game with this seed (round -1: the
 * one that picks the first dealer).  seed must be valid. */
void scopa_seed_rng(const char *seed, int round, scopa_rng *rng);

/* Round `round`'s deck (void deals skipped) under checked rules. */
void scopa_seed_deck(const char *seed, int round, const scopa_rules *rules,
                     uint8_t deck[40]);

/* The first dealer of a game with this seed, 0..players-1. */
int scopa_seed_dealer(const char *seed, int players);

/* A fresh seed of 64 hex digits (256 bits) from the operating system
 * (getentropy: getrandom on Linux, crypto.getRandomValues in
 * WebAssembly).  Returns SCOPA_OK or SCOPA_EIO. */
int scopa_seed_random(char seed[SCOPA_SEED_TEXT]);

/* The lowercase hex SHA-256 of the seed's ASCII bytes: a commitment that
 * can be shown before the game and checked after it (CONTRACTS.md
 * `seed_sha256`).  out holds 65 bytes.  Returns SCOPA_OK or SCOPA_EIO if
 * the digest library failed. */
int scopa_seed_sha256(const char *seed, char out[65]);

/* ------------------------------------------------------------------ */
/* JSON shapes: rules, views and scores written and read              */
/* ------------------------------------------------------------------ */

/*
 * For other languages (bindings/python uses these through ctypes) and for
 * the `scopa engine` protocol (CONTRACTS.md): JSON in and out in the
 * shapes of the records and of engine requests.  A char * returned here
 * is malloc'd and NUL-terminated; free it with scopa_free() (section
 * "For bindings and front ends").  NULL means out of memory unless said.
 */

/* Rules from the text of a JSON object as a record's "rules" (exact JSON
 * types, unknown option = error), checked.  Returns SCOPA_OK,
 * SCOPA_EJSON or SCOPA_ERULES with a message: printable ASCII in English
 * (lang NULL or not "it"), in Italian when lang is "it" (the JSON
 * parser's own words stay English). */
int scopa_rules_from_json(scopa_rules *rules, const char *json, size_t len,
                          const char *lang, char *msg, size_t msgsize);

/* Every option of checked rules as a JSON object, in option order. */
char *scopa_rules_to_json(const scopa_rules *rules);

/* What `seat` knows of a round, as the fields of an engine request:
 * {"rules": {...}, "seat": S, "scores": [...], "round": {"dealer": D,
 * "table": [as first dealt], "dealt": [in the order received], "moves":
 * [...]}}.  scores (one per side) may be NULL (all zero). */
char *scopa_state_view_json(const scopa_state *state, int seat,
                            const int *scores);

/* Checks a view given as the JSON text of an engine request's fields
 * (rules, seat, scores, round; other keys are ignored) and builds it with
 * scopa_view_build.  The seat need not be the one to play.  Returns
 * SCOPA_OK, or SCOPA_EJSON / SCOPA_ERULES / SCOPA_EVIEW with a message. */
int scopa_view_from_json(scopa_view *view, const char *json, size_t len,
                         char *msg, size_t msgsize);

/* A round's score as a JSON list of sides, each exactly as in `scopa
 * replay --json`. */
char *scopa_score_json(const scopa_score *score);

/* A finished round's score as a JSON list of sides, each exactly as in
 * `scopa replay --json` ("cards", "denari", "settebello", "primiera",
 * "scope", "points": {...}, "round_total").  NULL if not over. */
char *scopa_state_score_json(const scopa_state *state);

/* ------------------------------------------------------------------ */
/* Computer players                                                    */
/* ------------------------------------------------------------------ */

/*
 * A bot chooses a move from a seat's view, never from the full state, so
 * it plays fair.  A bot object holds its memory (transposition tables, the
 * worlds it weighs), allocated once when it is made, never per move, and
 * bounded by a limit the caller may set (scopa_bot_set_memory); use one
 * bot per thread.
 *
 * Time.  A searching bot (pimc, infer, best) keeps to the clock: it plans
 * its work for movetime_ms (SCOPA_BOT_NODES_PER_MS nodes a millisecond)
 * and stops at whichever comes first of the end of that plan, movetime_ms
 * of wall-clock time after the call began (CLOCK_MONOTONIC), deadline_ns,
 * and *cancel becoming nonzero.  It checks them every few dozen search
 * nodes, inside the solver, the playouts and the building of worlds, so it
 * returns within a few milliseconds of the stop, and always with a legal
 * move: the best over the worlds it finished, or the rules bot's move
 * when it finished none.  A move chosen by the clock can depend on the
 * machine's speed and load.
 *
 * Determinism.  With nodes set, the work is fixed by counts (worlds,
 * nodes) and the clock is not read for the budget: the same view, limits,
 * seed and memory give the same move on any machine (tests, tournaments).
 * deadline_ns and cancel still stop such a search if they come first (a
 * safety net); only then does the move depend on timing.  The bots that
 * do not search (random, greedy, rules) are always deterministic.
 *
 * Cancelling from another thread.  cancel points to an int that the
 * caller owns and keeps valid until the call returns; the bot only reads
 * it, with __atomic_load_n(cancel, __ATOMIC_RELAXED).  Another thread
 * stops the search by storing a nonzero value, e.g.
 * __atomic_store_n(&flag, 1, __ATOMIC_RELAXED) (or atomic_store on an
 * atomic_int, which has the same size and representation on the
 * platforms we build on).  The call then returns SCOPA_OK with its best
 * move so far within a few milliseconds.  A flag already set when the
 * call begins makes it answer at once (still a legal move).  Reset the
 * flag to 0 before reusing it.
 *
 * Every field's 0 means the default, so a zeroed struct is valid, and so
 * is an initialiser of the first three fields {movetime_ms, seed,
 * threads} (-Wextra warns about the fields it leaves out: prefer
 * designated initialisers).
 */
typedef struct scopa_bot scopa_bot;

/* Search nodes a bot plans per millisecond of movetime_ms (the solver's
 * speed on the reference 2-core machine).  A caller that wants the work of
 * a time budget without the clock sets nodes = ms * SCOPA_BOT_NODES_PER_MS. */
#define SCOPA_BOT_NODES_PER_MS 2500

typedef struct scopa_bot_limits {
  int movetime_ms;     /* wall-clock budget of this call, from its start;
                          0 = the bot's default (scopa_bot_movetime);
                          ignored when nodes is set                       */
  uint64_t seed;       /* for every random choice the bot makes          */
  int threads;         /* threads it may use; 0 or 1 = one               */
  uint64_t nodes;      /* nonzero: a node budget per thread instead of the
                          clock (deterministic, see above)                */
  int64_t deadline_ns; /* nonzero: stop by this CLOCK_MONOTONIC time in
                          nanoseconds (scopa_clock_ns), whatever the mode */
  const int *cancel;   /* NULL, or a flag another thread may set (above) */
} scopa_bot_limits;

/* CLOCK_MONOTONIC now, in nanoseconds: the clock of deadline_ns. */
int64_t scopa_clock_ns(void);

/* The names of the bots this build has, NULL-terminated, weakest first;
 * "best" is always among them and means the strongest.  Former names
 * that still work come last ("dealopp": best). */
const char *const *scopa_bot_names(void);

/* A one-line description of a bot ("greedy: takes the most valuable
 * capture..."), or NULL for an unknown name. */
const char *scopa_bot_describe(const char *name);

/* Creates a bot by name, with its default memory (see below).  Returns
 * SCOPA_OK and sets *out, SCOPA_EINVAL for an unknown name, SCOPA_ENOMEM. */
int scopa_bot_new(const char *name, scopa_bot **out /* OUT */);

/* Frees a bot; NULL is a no-op. */
void scopa_bot_free(scopa_bot *bot);

/* The bot's name (a former name gives the bot's name now: a bot made as
 * "dealopp" is "best"). */
const char *scopa_bot_name(const scopa_bot *bot);

/*
 * Memory.  scopa_bot_new gives a bot its default: SCOPA_BOT_MEMORY_DEFAULT
 * for pimc, infer and best (2,000 worlds, about 1.3 MiB, and one
 * transposition table), SCOPA_BOT_MEMORY_MIN for rules (a table for its
 * exact last deal), nothing for random and greedy.  A call that uses
 * several threads splits the table among them.  Small tables are fast (the
 * solver's working set fits the caches): the default was chosen so.
 */
#define SCOPA_BOT_MEMORY_MIN ((size_t)256 * 1024)
#define SCOPA_BOT_MEMORY_DEFAULT ((size_t)4 * 1024 * 1024)

/* Gives the bot at most `bytes` of memory instead (0: its default),
 * allocated now, in one go; the old memory is freed.  Returns SCOPA_OK;
 * SCOPA_EINVAL for a nonzero limit below SCOPA_BOT_MEMORY_MIN;
 * SCOPA_ENOMEM, and the bot keeps its old memory.  A bot that does not
 * search holds nothing whatever the limit.  Below about 2.7 MiB a
 * searching bot holds fewer worlds (infer then samples where it would have
 * listed every world); the move then depends on the limit (see
 * "Determinism" above).  Never while the bot is choosing. */
int scopa_bot_set_memory(scopa_bot *bot, size_t bytes);

/* The bytes of memory the bot holds now (at most its limit). */
size_t scopa_bot_memory(const scopa_bot *bot);

/* The bot's default time budget in milliseconds (what movetime_ms 0
 * means): 30 for pimc, 100 for infer and best; 0 for the bots that do not
 * search. */
int scopa_bot_movetime(const scopa_bot *bot);

/* Chooses a move for the viewing seat, which must be the seat to play,
 * within the limits (see above).  limits may be NULL (defaults, seed 0).
 * Returns SCOPA_OK with a legal move, or SCOPA_EINVAL when it is not the
 * view's seat's turn. */
int scopa_bot_choose(scopa_bot *bot, const scopa_view *view,
                     const scopa_bot_limits *limits,
                     scopa_move *move /* OUT */);

/* Values the legal moves of the viewing seat, in expected points for its
 * side (relative to the other side(s)), best first, within the limits as
 * scopa_bot_choose.  Where there is no estimate, every value is NAN (test
 * with isnan) and the moves are still in the bot's order of preference:
 * a bot that does not value moves (random, greedy, rules), or a searching
 * bot stopped before any world was valued (its rules bot's move first).
 * Writes up to cap moves and values and returns how many legal moves
 * there are, or a negative error as scopa_bot_choose. */
int scopa_bot_evaluate(scopa_bot *bot, const scopa_view *view,
                       const scopa_bot_limits *limits, scopa_move *moves,
                       double *values, int cap);

/* Difficulty levels for people: "principiante", "intermedio",
 * "esperto", "campione" (or "beginner", "intermediate", "expert",
 * "champion"), weakest first.  Sets *bot to the bot's name and
 * *movetime_ms to its time budget (0: the bot's default); either pointer
 * may be NULL.  Returns SCOPA_OK, or SCOPA_EINVAL for an unknown level. */
int scopa_bot_level(const char *level, const char **bot, int *movetime_ms);

/* Level i (0 = the easiest): its Italian name, English name, bot and time
 * per move in ms (0: the bot's own).  SCOPA_OK, or SCOPA_EINVAL past the
 * last level. */
int scopa_bot_level_get(int i, const char **name, const char **english,
                        const char **bot, int *movetime_ms);

/* ------------------------------------------------------------------ */
/* Hints and the review's values                                       */
/* ------------------------------------------------------------------ */

/*
 * The one hint procedure: the terminal's hint, the server's hints and
 * reviews, the engine's "hint", `scopa review` and Python all call
 * scopa_bot_hint (at a table through scopa_match_hint, section "A whole
 * game"), so one position, seed and budget give one answer everywhere
 * (docs/ai.md, "Hints").
 *
 * How.  Worlds are drawn uniformly from what the seat knows (the unseen
 * cards dealt at random to the other hands and the stock, as
 * scopa_view_sample), or all listed when there are few (the last two
 * deals of 2-player scopa, where the values are then exact).  In each
 * world every legal move is valued: in 2-player scopa with refill 3, by a
 * search to the end of the current deal with the learned value of the
 * deal's boundary; elsewhere by the rules bot playing every seat to the
 * end of the round (the last deal of two players solved exactly).  A
 * move's value is its mean over the worlds, with its uncertainty (the
 * spread over the worlds).  A move's loss is measured on worlds that did
 * not choose the best move (the best is chosen on half of them and the
 * loss measured on the other half, both ways), so the noise that makes a
 * move look best does not make the others look worse.
 *
 * Work.  limits->nodes (else movetime_ms, else SCOPA_HINT_MS, times
 * SCOPA_BOT_NODES_PER_MS) is always a node budget, never the clock: the
 * answer is a function of the view, the rules, the budget and the seed,
 * the same on any machine and with any limits->threads.  deadline_ns and
 * cancel stop it early (a safety net; the answer then depends on timing).
 * The bot only lends its memory (a searching bot: pimc, infer or best,
 * with the same memory limit for the same answers); use it from one
 * thread at a time.
 */

/* The hint's default work, in ms at SCOPA_BOT_NODES_PER_MS. */
#define SCOPA_HINT_MS 100

/* The marks of the review, by what a move surely loses (its loss minus
 * its uncertainty): "?" from SCOPA_HINT_SLIP points, "??" from
 * SCOPA_HINT_BLUNDER. */
#define SCOPA_HINT_SLIP 0.3
#define SCOPA_HINT_BLUNDER 1.0
enum { SCOPA_MARK_NONE, SCOPA_MARK_SLIP, SCOPA_MARK_BLUNDER };

typedef struct scopa_hint {
  scopa_move move;
  double value;       /* expected points of the rest of the round for the
                         mover's side minus the others' (scope made before
                         left out), calibrated (docs/ai.md)               */
  double margin;      /* value's uncertainty: 1.96 standard errors over
                         the worlds (a 95% interval); 0 when exact        */
  double loss;        /* what the move costs against the best one, at
                         least 0 (0, or near it, for the first)           */
  double loss_margin; /* loss's uncertainty, as margin, and the playouts'
                         own error (docs/ai.md)                         */
  int mark;           /* SCOPA_MARK_*: loss - loss_margin against the
                         thresholds                                       */
} scopa_hint;

typedef struct scopa_hint_info {
  int worlds;     /* worlds valued                                     */
  int exact;      /* 1: they are every world there is                  */
  uint64_t nodes; /* the work done, in nodes                           */
} scopa_hint_info;

/* Values the legal moves of the viewing seat (the seat to play), best
 * first, within limits (may be NULL: the defaults, seed 0).  Writes up to
 * cap entries and returns how many legal moves there are; info (may be
 * NULL) says how much was done.  Where there is no estimate (a position
 * too big to search: more than 64 legal moves or 12 table cards; a bot
 * without memory; the safety net stopped it before any world) the rules
 * bot's move comes first and every number is NAN.  SCOPA_EINVAL when the
 * seat is not to play. */
int scopa_bot_hint(scopa_bot *bot, const scopa_view *view,
                   const scopa_bot_limits *limits, scopa_hint *out, int cap,
                   scopa_hint_info *info /* OUT, may be NULL */);

/* "", "?" or "??" for a SCOPA_MARK_*. */
const char *scopa_hint_mark_text(int mark);

/* The seed of the hint (and of the review's values) at a position, so
 * that a record gives the same review on every run: with a game seed
 * (hex, as scopa_match_seed), a function of it, the round (0-based) and
 * the view's ply; without one (NULL or ""), of the position itself (the
 * view's rules, seats, cards and moves).  Derived with SHA-256, so the
 * game's seed cannot be read back from it. */
uint64_t scopa_hint_seed(const char *game_seed, int round,
                         const scopa_view *view);

/* ------------------------------------------------------------------ */
/* The exact solver                                                    */
/* ------------------------------------------------------------------ */

/*
 * The value of a fully known round (a scopa_state: every hand and the
 * stock order known, e.g. a world of scopa_view_sample or
 * scopa_view_world): every legal move of the seat to play searched to the
 * end of the round by the bots' solver (alpha-beta with a transposition
 * table, MTD(f)), for research: perfect-information values, targets for
 * value networks, the upper bound a player who saw every card would
 * reach.  Not a fair player: it reads every hidden card.
 *
 * A value is in points for the side of the seat to play: the points that
 * side still makes in this round (scope made from here on, and the
 * categories of its end) minus the mean of the other sides' (with two
 * sides, the point difference), when every seat plays to maximise its
 * own side's value (with three sides or more, each side against the
 * others together: the "paranoid" value).  So with two sides, the
 * environment's reward of the round (scopa_env) is the scope difference
 * so far plus the best move's value, under perfect play.  Under
 * lowest_wins a point counts against its side; all_coins_wins adds the
 * points still missing to the target (at most 11) for the side with all
 * ten coins.
 *
 * The bot lends its memory (its transposition table): a searching bot,
 * or "rules"; use it from one thread at a time.  limits (may be NULL):
 * movetime_ms, deadline_ns and cancel stop the solve (0: no time limit;
 * nodes is ignored: a solve is exact or nothing).  The whole of a 2-player
 * round from its first move takes milliseconds to a second; four seats
 * with nine cards each, far longer (docs/env.md "States").
 *
 * Writes up to cap moves and their values (values may be NULL), best
 * first (ties in the order of scopa_state_legal), and returns how many
 * legal moves there are: 0 once the round is over.  *nodes (may be NULL)
 * gets the search nodes visited.  Errors: SCOPA_ESTOPPED (the clock or
 * the cancel flag stopped it: nothing written), SCOPA_EINVAL (a bot that
 * holds no memory: random, greedy), SCOPA_ENOSPACE (more than
 * SCOPA_MAX_MOVES legal moves: only positions built on purpose).
 */
int scopa_bot_solve(scopa_bot *bot, const scopa_state *state,
                    const scopa_bot_limits *limits, scopa_move *moves,
                    double *values, int cap, uint64_t *nodes /* OUT */);

/* ------------------------------------------------------------------ */
/* Moves in words, and what they do                                    */
/* ------------------------------------------------------------------ */

/*
 * What a hint or a review tells a person: the move as a sentence ("Take
 * the 7 of coins with your 7 of cups") and the reasons the library can
 * justify from the mover's view alone, by counting cards, never by
 * guessing (the values say how much a move is worth; the reasons say
 * what it does).  Every front end (the terminal, `scopa review`, the
 * server's hint and review messages, the web client) shows these, so
 * they all say the same thing.
 *
 * XX(NAME, code): the reasons in order of importance (a front end shows
 * the first one or two); code is the reason's name in JSON ("why" in
 * hints and reviews, docs/serve.md); scopa_why_words says them.
 */
#define SCOPA_WHY_MAP(XX)                                                      \
  XX(SCOPA, "scopa")                                                           \
  XX(SETTEBELLO, "settebello")                                                 \
  XX(GIVES_SETTEBELLO, "gives_settebello")                                     \
  XX(OPENS, "opens")                                                           \
  XX(SAFE, "safe")                                                             \
  XX(SEVENS, "sevens")                                                         \
  XX(COINS, "coins")                                                           \
  XX(CARDS, "cards")

enum {
#define SCOPA__WHY_BIT(name, code) SCOPA_WHY_BIT_##name,
  SCOPA_WHY_MAP(SCOPA__WHY_BIT)
#undef SCOPA__WHY_BIT
      SCOPA_WHY_COUNT
};
enum {
#define SCOPA__WHY(name, code) SCOPA_WHY_##name = 1u << SCOPA_WHY_BIT_##name,
  SCOPA_WHY_MAP(SCOPA__WHY)
#undef SCOPA__WHY
};

typedef struct scopa_why {
  unsigned reasons; /* SCOPA_WHY_* bits; bit i is SCOPA_WHY_MAP's i-th     */
  int cards;        /* cards the move puts in the pile, the played one
                       included (0: laid on the table)                      */
  int coins;        /* coins among them                                      */
  int sevens;       /* sevens among them                                     */
  int sum;          /* OPENS, GIVES_SETTEBELLO: the sum left on the table    */
  int rank;         /* OPENS, GIVES_SETTEBELLO: the lowest rank the mover has
                       not seen that would take the whole table (OPENS) or
                       the settebello (7) with it                            */
} scopa_why;

/*
 * What the legal move `move` of the seat to play does, from its view:
 *   SCOPA       it scores a scopa (scopa_state_is_scopa);
 *   SETTEBELLO  it takes the 7 of coins;
 *   GIVES_SETTEBELLO  the settebello is on the table after it and the next
 *               player, an opponent, may take it with a 7 the mover has
 *               not seen (not at the round's last play);
 *   OPENS       after it a card the mover has not seen, played by the next
 *               player (an opponent), would take the whole table and
 *               score a scopa (sum: the table's sum; rank: that card's);
 *   SAFE        it does not open so, while another legal move would;
 *   SEVENS      it takes sevens (primiera counts), coins, COINS; CARDS:
 *               three cards or more into the pile.
 * Under lowest_wins (Scopa a perdere) nothing is a reason.  Returns
 * SCOPA_OK, or SCOPA_EINVAL when the seat is not to play or the move is
 * not legal (out is then zeroed).
 */
int scopa_move_why(const scopa_view *view, scopa_move move,
                   scopa_why *out /* OUT */);

/* scopa_move_why as the JSON text of the "why" of hints and reviews:
 * {"codes": ["settebello", "opens"], "cards", "coins", "sevens", "sum",
 * "rank"} (codes in SCOPA_WHY_MAP's order; no codes for an illegal move).
 * malloc'd (scopa_free); NULL if out of memory. */
char *scopa_move_why_json(const scopa_view *view, scopa_move move);

/* The JSON code of reason bit i (0..SCOPA_WHY_COUNT-1), "scopa"...; NULL
 * out of range. */
const char *scopa_why_code(int bit);

/* The card styles a person may choose (the web client's decks): the
 * Neapolitan and Piacentine decks name the Italian suits (coins, cups,
 * swords, clubs; denari, coppe, spade, bastoni) and the knave, horse and
 * king; the French deck ("francesi") its own: diamonds for coins, hearts
 * for cups, spades for swords, clubs for clubs (quadri, cuori, picche,
 * fiori) and jack, queen, king.  NULL or any other name: Italian. */
#define SCOPA_DECK_FRENCH "francesi"

/* A card for a sentence: "the 7 of coins" ("il 7 di denari", "l'asso di
 * coppe"), ranks 2..7 as digits, in lang ("it", else English) and deck's
 * names.  Returns buf (bufsize bytes; 48 is enough). */
char *scopa_card_words(int card, const char *lang, const char *deck, char *buf,
                       size_t bufsize);

/* A move as an imperative sentence, without a full stop: "Take the 7 of
 * coins with your 7 of cups", "Prendi il 3 di coppe e il 4 di spade con il
 * tuo 7 di bastoni", "Lay the 5 of swords on the table".  Returns the
 * length of the whole sentence, as snprintf (buf always NUL-terminated
 * when bufsize > 0). */
size_t scopa_move_words(scopa_move move, const char *lang, const char *deck,
                        char *buf, size_t bufsize);

/* A move as it was played, for "what happened" after the player's name,
 * without a full stop: "takes the 7 of coins with the 7 of cups", "prende
 * il 3 di coppe e il 4 di spade con il 7 di bastoni", "lays the 5 of
 * swords on the table" ("cala il 5 di spade").  Returns the length as
 * snprintf. */
size_t scopa_played_words(scopa_move move, const char *lang, const char *deck,
                          char *buf, size_t bufsize);

/* The reasons of why in lang and deck's names, for a sentence: at most
 * `max` of what the move does for its side, in SCOPA_WHY_MAP's order,
 * then its first risk (OPENS, GIVES_SETTEBELLO) after "but": "takes the
 * settebello, but leaves 9 on the table: a horse would make a scopa".
 * Returns the length as snprintf; "" when there is none. */
size_t scopa_why_words(const scopa_why *why, int max, const char *lang,
                       const char *deck, char *buf, size_t bufsize);

/* Why a card plays as it does (scopa_view_card_reason) as a sentence
 * with its full stop, in lang and deck's names: "This card must take: a
 * card that can capture may not be laid.", "The 5 of swords must take
 * the card of its rank on the table, not a sum."; "" for an unknown
 * reason.  Returns the length as snprintf. */
size_t scopa_card_reason_words(int reason, int card, const char *lang,
                               const char *deck, char *buf, size_t bufsize);

/* An amount of points as a person says it: "about 3/4 of a point",
 * "about half a point", "about 1 1/2 points", "almost nothing" (under
 * 1/8, or not a number), in lang; past a million points, as a million.
 * Returns the length as snprintf. */
size_t scopa_points_words(double points, const char *lang, char *buf,
                          size_t bufsize);

/* What a move's loss means (scopa_hint: loss, loss_margin, mark), as a
 * sentence with its honest doubt: "??" "A blunder (??): it almost surely
 * cost a point or more, about 1 and a quarter points on average"; "?" "A
 * slip (?): it very likely cost 0.3 points or more, ..."; unmarked from
 * 0.1 points "It may have cost about a quarter of a point, but that is
 * within the estimate's margin (±0.25)"; below that "As good as the best
 * move".  NAN loss: "No estimate for this move".  Returns the
 * length as snprintf. */
size_t scopa_loss_words(double loss, double loss_margin, int mark,
                        const char *lang, char *buf, size_t bufsize);

/* What a hint says of the moves it did not choose (loss[i] and
 * margin[i] of each of the n others, NAN when not estimated; best, the
 * value of the move it gives, NAN when it has none): "It is your only
 * move." (n 0); from the nearest one's loss, "Any other move
 * costs about half a point on average." (0.1 points or more; "..., give
 * or take 0.40" when its margin is as large as the loss), "Another move
 * is about as good: a close call." (less), or "No estimate of how much
 * better it is this time."  The same thresholds as scopa_loss_words,
 * whose unmarked doubt the hint shares.  Returns the length as
 * snprintf. */
size_t scopa_hint_others_words(double best, const double *loss,
                               const double *margin, int n, const char *lang,
                               char *buf, size_t bufsize);

/* ------------------------------------------------------------------ */
/* A whole game: seats, rounds, scores, the record                     */
/* ------------------------------------------------------------------ */

/*
 * scopa_match is the one game loop every front end uses (the terminal
 * game, the arena, replay, Python, the server): the rules, the seats, the
 * rounds dealt from the seed, the live round, the totals, dealer rotation
 * and the end of the game by every rule of RULES.md, and the history from
 * which its record is written.  Its life:
 *
 *     scopa_match_new (or scopa_match_from_record)
 *     while (!over)   scopa_match_deal, then scopa_match_apply until the
 *                     round is over (each apply says what the move did)
 *     scopa_match_record_json / scopa_match_save at any moment
 *
 * It does no I/O (except scopa_match_save) and runs no bots: a front end
 * asks a bot for the move of a bot seat from scopa_match_view and applies
 * it like anybody's.  An opaque handle that owns its memory (it grows by
 * one round's worth per round); copy it with scopa_match_copy.
 */
typedef struct scopa_match scopa_match;

/* Where a record's first fault is: round and move are 0-based, -1 when the
 * fault is not in a round (or not in a move). */
typedef struct scopa_fault {
  int round, move;
  char message[256];
} scopa_fault;

/* One round of a game as played (scopa_match_round), or of a replayed
 * record (scopa_replay). */
typedef struct scopa_replay_round {
  int dealer;
  int complete; /* 0 for an unfinished last round          */
  uint8_t deck[40];
  int nmoves;
  scopa_move moves[40];
  scopa_score score;           /* when complete                           */
  int totals[SCOPA_MAX_SEATS]; /* cumulative, when complete            */
} scopa_replay_round;

/* Who sits at a seat. */
enum { SCOPA_SEAT_PERSON, SCOPA_SEAT_BOT };

typedef struct scopa_seat {
  int kind;          /* SCOPA_SEAT_PERSON or SCOPA_SEAT_BOT              */
  const char *name;  /* the name shown and recorded; NULL = ""            */
  const char *bot;   /* a bot: its name for scopa_bot_new ("best")        */
  const char *level; /* a bot: its level for people ("esperto"), or NULL */
} scopa_seat;

/* Where a game is. */
enum {
  SCOPA_MATCH_DEAL, /* no round in play: scopa_match_deal comes next      */
  SCOPA_MATCH_PLAY, /* a round in play: scopa_match_apply                 */
  SCOPA_MATCH_OVER  /* the game has ended                                 */
};

/* What a deal or a move did, so a front end can announce it without
 * working it out again. */
typedef struct scopa_event {
  int round; /* 0-based index of the round                            */
  int ply;   /* index of the move in the round (-1 for a deal)         */
  int seat;  /* who played (the dealer for a deal)                     */
  scopa_move move;
  scopa_cards table_before; /* the table just before the move           */
  scopa_cards taken;        /* table cards taken (0: laid)             */
  int scopa;                /* 1 if the move scored a scopa               */
  int refilled;   /* cards dealt from the stock after it (a new hand)    */
  int round_over; /* this move ended the round                  */
  scopa_cards leftovers;       /* then: the table cards left at the end     */
  int leftovers_side;          /* the side that took them, -1 for nobody      */
  scopa_score score;           /* then: the round's score                    */
  int totals[SCOPA_MAX_SEATS]; /* then: the game's totals after it       */
  int game_over;               /* the game ended with this round             */
  int winner;                  /* then: the winning side, -1 for none       */
} scopa_event;

/* Starts a game.  rules must be checked; seats lists rules->players seats
 * (NULL: people without names); seed is a valid seed, or NULL for one
 * from scopa_seed_random.  The first dealer follows from the seed.
 * Returns SCOPA_OK and sets *out, SCOPA_EINVAL (a bad seed or seat, with
 * a message), SCOPA_EIO (no random seed) or SCOPA_ENOMEM. */
int scopa_match_new(const scopa_rules *rules, const scopa_seat *seats,
                    const char *seed, scopa_match **out /* OUT */, char *msg,
                    size_t msgsize);

/* Frees a game; NULL is a no-op. */
void scopa_match_free(scopa_match *match);

/* A deep copy.  Returns SCOPA_OK and sets *out, or SCOPA_ENOMEM. */
int scopa_match_copy(const scopa_match *match, scopa_match **out /* OUT */);

/* SCOPA_MATCH_DEAL, _PLAY or _OVER. */
int scopa_match_phase(const scopa_match *match);

const scopa_rules *scopa_match_rules(const scopa_match *match);

/* The seed ("" for a game restored from a record that had none: its new
 * rounds are dealt from a seed drawn at restore, which is not recorded). */
const char *scopa_match_seed(const scopa_match *match);

/* Seat `seat`'s description (the strings are owned by the match).  A
 * name may hold NUL bytes (a record can say "An\u0000na"): *name_len,
 * when name_len is not NULL, gets its length in bytes. */
void scopa_match_seat(const scopa_match *match, int seat, scopa_seat *out,
                      size_t *name_len);

/* The scores: totals, the next dealer, finished and winner. */
const scopa_tally *scopa_match_tally(const scopa_match *match);

/* The number of rounds dealt so far (the live or last one is index
 * rounds - 1). */
int scopa_match_rounds(const scopa_match *match);

/* Round r (0..rounds-1) as played so far: dealer, deck, moves, and once
 * complete its score and the totals after it. */
const scopa_replay_round *scopa_match_round(const scopa_match *match, int r);

/* The live round, or the last one once it is over; NULL before the first
 * deal. */
const scopa_state *scopa_match_state(const scopa_match *match);

/* The seat to play, or -1 when no move is awaited. */
int scopa_match_to_play(const scopa_match *match);

/* Sets who deals first, in place of the seed's choice (a record or a
 * person says so).  Returns SCOPA_OK, or SCOPA_EOVER once a round has been
 * dealt. */
int scopa_match_set_first_dealer(scopa_match *match, int dealer);

/* Deals the next round from the seed.  Returns SCOPA_OK (ev, which may be
 * NULL, says who dealt), or SCOPA_EOVER when a round is in play or the
 * game is over. */
int scopa_match_deal(scopa_match *match, scopa_event *ev);

/* Deals the next round from a given deck (replaying a record; the deck is
 * then not the seed's).  Errors as scopa_state_deal, and SCOPA_EOVER. */
int scopa_match_deal_deck(scopa_match *match, const uint8_t deck[40],
                          scopa_event *ev, char *msg, size_t msgsize);

/* Plays a move for the seat to play: checked as scopa_state_check (the
 * same messages), then played; at the end of the round the score is
 * added and the end rules applied.  ev (may be NULL) says what the move
 * did.  On error nothing changes.  Errors: SCOPA_EILLEGAL with a message,
 * SCOPA_EOVER when no round is in play. */
int scopa_match_apply(scopa_match *match, scopa_move move, scopa_event *ev,
                      char *msg, size_t msgsize);

/* Seat `seat`'s view of the current round with the scores before it, or
 * with seat -1 the public view for spectators: the same fields with seat
 * SCOPA_NO_SEAT, no hand and no dealt cards (every card in a hand or the
 * stock is unseen).  Before the first deal the view is of an empty round. */
void scopa_match_view(const scopa_match *match, int seat, scopa_view *out);

/* A seed for a bot's choice at the current move: a function of the game's
 * seed, the round and the move, so a seeded game plays the same again. */
uint64_t scopa_match_bot_seed(const scopa_match *match);

/* The seed of a hint for the seat to play now: scopa_hint_seed of the
 * game's seed, the current round and the view of the seat to play. */
uint64_t scopa_match_hint_seed(const scopa_match *match);

/* The wall-clock safety net of a hint at a table (scopa_match_hint). */
#define SCOPA_HINT_DEADLINE_MS 3000

/*
 * The hint at a table, the one call every front end makes (the terminal,
 * the server, the browser's local table): scopa_bot_hint for the seat to
 * play, from its view (written to *view when view is not NULL), with the
 * game's hint seed (scopa_match_hint_seed, whatever limits->seed says),
 * so the same position of the same game gets the same hint everywhere.
 * limits may be NULL; its work is scopa_bot_hint's (limits->nodes, else
 * movetime_ms, else SCOPA_HINT_MS, at SCOPA_BOT_NODES_PER_MS: a node
 * budget, never the clock); threads and cancel are used as given; a
 * deadline_ns of 0 becomes SCOPA_HINT_DEADLINE_MS from now.  bot lends
 * its memory ("best").  Returns what scopa_bot_hint returns (the number
 * of legal moves, out[0..cap) best first), or SCOPA_EOVER when no move is
 * awaited.
 */
int scopa_match_hint(const scopa_match *match, scopa_bot *bot,
                     const scopa_bot_limits *limits, scopa_hint *out, int cap,
                     scopa_view *view /* OUT, may be NULL */);

/* ------------------------------------------------------------------ */
/* Game records                                                        */
/* ------------------------------------------------------------------ */

/* A record read and checked move by move (RULES.md "Game records"). */
typedef struct scopa_replay {
  scopa_rules rules;
  int nseats; /* names given (0 when "seats" is absent)  */
  char *seats[SCOPA_MAX_SEATS];
  int nrounds;
  scopa_replay_round *rounds;
  scopa_tally game; /* the tally: totals, finished, winner; named
                       before scopa_tally was (see Deprecated names) */
} scopa_replay;

/* Reads and checks a whole record from JSON text.  Returns SCOPA_OK with
 * *out filled (free it with scopa_replay_free), or a negative code with
 * *fault saying where and what (the first fault met reading in the order
 * of RULES.md).  On error *out is left empty.  Never crashes on any
 * input. */
int scopa_replay_text(const char *text, size_t len, scopa_replay *out,
                      scopa_fault *fault);

/* Frees what a replay holds; accepts an empty or zeroed one. */
void scopa_replay_free(scopa_replay *replay);

/* A record being written, for a game in progress. */
typedef struct scopa_record scopa_record;

/* Starts a record.  names may be NULL (no "seats").  rules must be
 * checked.  Returns NULL when out of memory. */
scopa_record *scopa_record_new(const scopa_rules *rules,
                               const char *const *names);
void scopa_record_free(scopa_record *record);
/* Starts a new round with its deck and dealer. */
int scopa_record_round(scopa_record *record, int dealer,
                       const uint8_t deck[40]);
/* Adds a move to the current round. */
int scopa_record_move(scopa_record *record, scopa_move move);
/* The record as JSON text (malloc'd, NUL-terminated, caller frees). */
char *scopa_record_json(const scopa_record *record);
/* Writes the record to a file with scopa_file_save.  Returns SCOPA_OK,
 * SCOPA_ENOMEM or SCOPA_EIO. */
int scopa_record_save(const scopa_record *record, const char *path);
/* The same, with a message that names the file, the step that failed and
 * the system's reason. */
int scopa_record_write_file(const scopa_record *record, const char *path,
                            char *msg, size_t msgsize);
/* A record that continues a replayed one.  It holds only what a replay
 * keeps (no unknown fields; a name is cut at a NUL): to resume a game
 * from its file, use scopa_match_from_record, which keeps them. */
scopa_record *scopa_record_from_replay(const scopa_replay *replay);
/* ------------------------------------------------------------------ */
/* Files                                                               */
/* ------------------------------------------------------------------ */

/* The largest record read (scopa_replay_text, scopa_record_read_file):
 * 4 MiB, many times the longest real game.  Longer input is refused
 * before it is parsed. */
#define SCOPA_RECORD_MAX (4 << 20)

/* Reads a whole record file ("-": standard input) into *text (malloc'd,
 * NUL-terminated, free with scopa_free) and its length into *len.  Never
 * reads more than SCOPA_RECORD_MAX bytes, whatever the file is (a pipe, a
 * device).  Returns SCOPA_OK, or with a message that names the file:
 * SCOPA_EIO (missing, unreadable, a directory: the reason said),
 * SCOPA_ERECORD (longer than SCOPA_RECORD_MAX), SCOPA_ENOMEM. */
int scopa_record_read_file(const char *path, char **text /* OUT */,
                           size_t *len /* OUT */, char *msg, size_t msgsize);

/* Replaces the file at path with len bytes of data, so that a crash or a
 * power failure at any moment leaves either the old file or the new one,
 * whole: the data goes to a new temporary file beside it (path.tmpXXXXXX,
 * made by mkstemp, keeping the old file's mode), which is fsync'd and
 * renamed over path; then temporary files that earlier saves of path
 * left behind (killed midway) are removed, and the directory is fsync'd.
 * Returns SCOPA_OK, or SCOPA_EIO / SCOPA_ENOMEM with a message naming the
 * file, the step and the system's reason; on error path is unchanged and
 * no temporary file is left. */
int scopa_file_save(const char *path, const void *data, size_t len, char *msg,
                    size_t msgsize);

/* Whether a game may write its record to path without destroying another
 * game: yes when nothing is there or the file is empty, or when path is
 * the very file the game was resumed from (resumed_from, NULL for a new
 * game).  Otherwise SCOPA_EINVAL with a message that says so and how to
 * continue the saved game (--resume); a directory or anything but a
 * regular file is refused the same way. */
int scopa_record_target_check(const char *path, const char *resumed_from,
                              char *msg, size_t msgsize);

/* ------------------------------------------------------------------ */
/* A whole game's record                                              */
/* ------------------------------------------------------------------ */

/* A scopa_match's record and its view as JSON, and a match restored from
 * a record: built on the two sections above (src/record). */

/* Seat `seat`'s view (scopa_match_view) as the fields of a `scopa engine`
 * request (CONTRACTS.md):
 * {"rules", "seat", "scores", "round": {"dealer", "table", "dealt",
 * "moves"}}; for seat -1 "seat" is null and "round" has no "dealt".
 * malloc'd (scopa_free), NULL if out of memory or before the first deal. */
char *scopa_match_view_json(const scopa_match *match, int seat);

/* Who may read a record. */
#define SCOPA_RECORD_FULL (-2)   /* everything: every deck and the seed  */
#define SCOPA_RECORD_SEEN (-3)   /* what some seat has seen               */
#define SCOPA_RECORD_PUBLIC (-1) /* what every seat has seen              */

/*
 * The game's record (RULES.md "Game records") as JSON text, malloc'd
 * (scopa_free).  viewer SCOPA_RECORD_FULL gives the full record with the
 * seed and its "seed_sha256"; any other viewer (a seat 0..players-1, or
 * SCOPA_RECORD_SEEN or _PUBLIC) gives the record of a game in progress
 * that can be shown while it goes on: no seed, and in the live round's
 * deck every card the viewer may not know yet is null.  Seats where a bot
 * sat carry "bots": [null, {"bot": "best", "level": "esperto"}] (one entry
 * per seat); top-level fields of a restored record that this library does
 * not know are written back as they were.  NULL if out of memory.
 */
char *scopa_match_record_json(const scopa_match *match, int viewer);

/* Writes the full record to path so that a crash at any point leaves
 * either the old file or the new one (scopa_record_save).  Returns
 * SCOPA_OK or SCOPA_EIO with a message. */
int scopa_match_save(const scopa_match *match, const char *path, char *msg,
                     size_t msgsize);

/* Restores a game from the text of a record, the unfinished round
 * included, checked as scopa_replay_text does (same faults).  A record
 * with a "seed" deals its next rounds from it, so a resumed game deals
 * exactly what the straight game would have.  Returns SCOPA_OK and sets
 * *out, or an error with *fault. */
int scopa_match_from_record(const char *text, size_t len,
                            scopa_match **out /* OUT */, scopa_fault *fault);

/* ------------------------------------------------------------------ */
/* For bindings and front ends: sizes, the catalogue, reviews         */
/* ------------------------------------------------------------------ */

/* The top of the library (src/engine), over every section above. */

/* sizeof of a public struct by its name without "scopa_": "rules",
 * "state", "view", "score", "tally" ("game", its old name, still
 * answers), "rng", "replay", "fault", "bot_limits", "env_config", "hint",
 * "hint_info", "why".  0 for an unknown name. */
size_t scopa_sizeof(const char *type);

/* free(), for every char * and buffer the library returns malloc'd. */
void scopa_free(void *p);

/* The options the preset `name` sets (scopa_rules_preset), as a "rules"
 * object: scopa_rules_from_json of it gives that preset's rules.  NULL for
 * an unknown name (or out of memory). */
char *scopa_rules_preset_json(const char *name);

/* What a front end offers a person setting up a game, as one JSON object
 * (free with scopa_free): "options" (each rules option in the order of
 * RULES.md: name, kind "bool"/"int"/"enum", "values" (enum names, or an
 * integer option's allowed values when few) or "min"/"max", "default",
 * "label": {"en", "it"}, "help"), "presets" (name, "label", "rules" as
 * scopa_rules_preset_json) and "levels" (name, english, bot,
 * movetime_ms).  scopa serve answers GET /api/rules with it. */
char *scopa_rules_catalogue_json(void);

/* Every legal move of the seat to play in record notation, separated by
 * single spaces ("" once the round is over), however many there are. */
char *scopa_state_legal_text(const scopa_state *state);

/*
 * The post-game review of a game (finished or in progress; show a person
 * only a finished game's, since it values every seat's moves): every move
 * valued from its player's view at that moment (never the hidden cards)
 * by the hint (scopa_bot_hint, `bot` lending its memory: "best") with a
 * budget of `nodes` per move (SCOPA_BOT_NODES_PER_MS times the
 * milliseconds wanted; SCOPA_HINT_MS is the hints' default) and the seed
 * scopa_hint_seed of the game's seed, the round and the ply: the same
 * record and budget give the same review on every run and machine.  seat
 * -1 reviews every seat, else only that seat's moves.  JSON text,
 * malloc'd (scopa_free):
 *   {"bot", "nodes", "slip": 0.3, "blunder": 1.0,
 *    "rounds": [{"round", "dealer", "moves": [{"ply", "seat", "move",
 *       "value", "best", "best_value", "cost", "loss", "mark", "choices",
 *       "exact", "estimated", "margin", "best_margin", "loss_margin",
 *       "table", "why", "best_why"}]}],
 *    "seats": [{"seat", "cost", "marked"}]}
 * value and best_value in expected points of the round for the mover's
 * side, margin and best_margin their uncertainties (scopa_hint); cost (=
 * loss) the hint's loss of the move played, at least 0, loss_margin its
 * uncertainty; mark "?" when cost - loss_margin is slip points or more,
 * "??" from blunder (scopa_hint.mark); choices the number of legal moves;
 * exact when the mover could count every card (2 players, stock empty);
 * estimated false where there was no estimate (the numbers null, cost
 * 0); why and best_why what the move played and the best move do
 * (scopa_move_why_json), for words a person reads; seat the mover and
 * table the table cards just before the move (card order), so a reader
 * draws each step without replaying the rules.  NULL with a message
 * for a zero budget, a bad seat, or out of memory.
 */
char *scopa_match_review_json(const scopa_match *match, scopa_bot *bot,
                              uint64_t nodes, int seat, char *msg,
                              size_t msgsize);

/* The same with the hints' other limits: limits->nodes the budget of a
 * move (required), threads (the review is the same with any number),
 * deadline_ns and cancel (a safety net, as scopa_bot_hint's); the seed is
 * always the record's (scopa_hint_seed), never limits->seed. */
char *scopa_match_review(const scopa_match *match, scopa_bot *bot,
                         const scopa_bot_limits *limits, int seat, char *msg,
                         size_t msgsize);

/* ------------------------------------------------------------------ */
/* The `scopa engine` protocol                                        */
/* ------------------------------------------------------------------ */

/* `scopa engine`, the line protocol of CONTRACTS.md.  An engine keeps its
 * bots between requests; the answers depend on the request only. */
typedef struct scopa_engine scopa_engine;

/* Returns SCOPA_OK and sets *out, or SCOPA_ENOMEM. */
int scopa_engine_new(scopa_engine **out /* OUT */);
/* NULL is a no-op. */
void scopa_engine_free(scopa_engine *engine);

/* Answers one request line (without its newline; any bytes) with one
 * JSON object text (no newline), {"error": "..."} for a wrong request.
 * For "quit" it sets *quit to 1 and returns NULL (no answer). */
char *scopa_engine_answer(scopa_engine *engine, const char *line, size_t len,
                          int *quit);

/* ------------------------------------------------------------------ */
/* Learning features: views and moves as numbers, environments        */
/* ------------------------------------------------------------------ */

/*
 * Learning agents.  A view becomes SCOPA_FEATURES floats (layout in
 * docs/env.md: hand, table, piles, unseen cards, cards each seat played,
 * then counts, scores and the rules, all seat- and side-relative; every
 * value in 0..1), and a move one of SCOPA_ACTIONS fixed actions:
 *   action = card * SCOPA_ACTION_SLOTS + slot
 * with the slots of a card in the seat's hand given out as follows:
 *   slot 0         lays the card (when laying it is legal);
 *   slots 1..4     capture exactly one card, of suit slot - 1 (its rank is
 *                  set by the rules: the played card's rank, 15 minus it
 *                  under quindici, or the lone table card of an ace
 *                  sweep);
 *   slots 5..31    the captures of two or more cards, in increasing order
 *                  of the move's integer (not stable: a card can take
 *                  hundreds of different sets, 27 slots cannot name them);
 * A card with more moves than its slots (only on big tables under
 * mandatory_capture false or single_match_first false) puts the rest, in
 * the same order, on the free actions: the slots of the cards the seat
 * does not hold, in increasing order.  A position with more moves than
 * that (thousands: quindici without mandatory capture on a huge table) is
 * shown in pages: the last free action is then SCOPA_ACTION_MORE, which
 * shows the next page instead of playing.  So every legal move has an
 * action, on exactly one page.
 */
#define SCOPA_FEATURES 672
#define SCOPA_ACTION_SLOTS 32
#define SCOPA_ACTIONS (40 * SCOPA_ACTION_SLOTS)
/* The table entry of the "next page" action. */
#define SCOPA_ACTION_MORE (~(scopa_move)0)
/* Room for the legal moves of one card in any position (quindici: at most
 * 10,598), the work buffer of scopa_state_actions_page. */
#define SCOPA_ACTION_WORK 16384

/* Writes the features of a view into out[0..SCOPA_FEATURES-1]; returns
 * SCOPA_FEATURES, or SCOPA_ENOSPACE if cap is smaller. */
int scopa_view_features(const scopa_view *view, float *out, int cap);

/* The same features as SCOPA_FEATURES int8 values, 4 times smaller (the
 * compact observation of scopa_vecenv_step_compact): 1 for a 0/1 feature
 * and, for a ratio, its count (cards in a hand, stock, plays, scope, a
 * game score, the target, all_sevens), clamped as the ratio is, so that
 * features[i] == (float)compact[i] / divisors[i] exactly, divisors from
 * scopa_features_divisors.  One exception: under a target past
 * SCOPA_COMPACT_MAX, the game scores are score * SCOPA_COMPACT_MAX /
 * target, rounded down (their divisor SCOPA_COMPACT_MAX).  Returns
 * SCOPA_FEATURES, or SCOPA_ENOSPACE if cap is smaller. */
#define SCOPA_COMPACT_MAX 127
int scopa_view_features_compact(const scopa_view *view, int8_t *out, int cap);

/* The divisor of each compact feature under rules, into
 * out[0..SCOPA_FEATURES-1]: 1 for a 0/1 feature, 10 for hand counts and
 * scope, 40 for the stock and plays, the target for game scores, 32 for
 * the target, 4 for all_sevens. */
void scopa_features_divisors(const scopa_rules *rules, float *out);

/* The legal moves of the seat to play on page `page` (0 first), by action:
 * table[a] is the move of action a (SCOPA_ACTION_MORE for the next-page
 * action) and mask[a] is 1 when a can be played, for a in
 * 0..SCOPA_ACTIONS-1; actions[0..n-1] lists those actions in increasing
 * order.  work holds SCOPA_ACTION_WORK moves (scratch).  table and actions
 * may be NULL.  Returns n (0 once the round is over or past the last
 * page). */
int scopa_state_actions_page(const scopa_state *state, int page,
                             scopa_move *work, scopa_move *table, uint8_t *mask,
                             int *actions);

/* Page 0 of scopa_state_actions_page with scratch of its own on the stack
 * (SCOPA_MAX_MOVES moves: a card's moves past that many are left out; use
 * scopa_state_actions_page where that can matter). */
int scopa_state_actions(const scopa_state *state, scopa_move *table,
                        uint8_t *mask, int *actions);

/*
 * A learning environment: episodes of one round (or of a whole game) for
 * every seat in turn (the multi-agent face), or for one learner's seat
 * with the other seats played by a library bot inside the step (the
 * single-agent face).  It owns its round, the action table of the
 * position and its scratch; it never allocates after scopa_env_new.
 *
 * Seeds.  scopa_env_reset(env, seed, ...) starts a stream: the episode's
 * dealer and decks and every bot's seed are drawn from it, and each later
 * scopa_env_reset without a seed (SCOPA_ENV_NEXT) draws the next episode
 * of the same stream.  So one seed gives the same sequence of episodes to
 * the same actions, in scopa_env and in scopa_vecenv alike.
 *
 * Rewards come at the end of each round: each seat gets its side's round
 * points minus the mean of the other sides' (zero-sum).  An action that
 * is not legal ends the episode: its seat gets illegal_reward, the others
 * nothing.
 */
typedef struct scopa_env scopa_env;

typedef struct scopa_env_config {
  int learner;           /* the single-agent face's seat; -1: every seat */
  const char *opponent;  /* bot or level name for the other seats (the
                            single-agent face); NULL: "random"           */
  int movetime_ms;       /* the opponent's budget; 0: its default        */
  uint64_t nodes;        /* nonzero: a node budget (deterministic)       */
  int whole_game;        /* 1: an episode is a whole game, not one round */
  double illegal_reward; /* the reward of an illegal action              */
  uint32_t external;     /* seats (bit s: seat s) the caller plays in the
                            single-agent face, not the bot: reset and
                            step stop at their turn (the learner's bit
                            is ignored; scopa_vecenv_opponents)         */
} scopa_env_config;

/* Pass as the seed to go on with the episode stream. */
#define SCOPA_ENV_NEXT (~(uint64_t)0)

/* What scopa_env_step did. */
enum {
  SCOPA_ENV_PLAYED,  /* the move was played; the episode goes on        */
  SCOPA_ENV_ROUND,   /* it ended a round of a whole game (rewards are
                        set) and the next round is dealt               */
  SCOPA_ENV_PAGE,    /* SCOPA_ACTION_MORE: the same seat, the next page  */
  SCOPA_ENV_OVER,    /* the episode has ended (rewards are set)         */
  SCOPA_ENV_ILLEGAL, /* an illegal action ended the episode             */
};

/* Creates an environment under checked rules (see scopa_rules_check).
 * Returns SCOPA_OK and sets *out; SCOPA_EINVAL for a learner seat out of
 * range or an unknown opponent; SCOPA_ENOMEM. */
int scopa_env_new(const scopa_rules *rules, const scopa_env_config *config,
                  scopa_env **out /* OUT */);
/* NULL is a no-op. */
void scopa_env_free(scopa_env *env);

/* Starts an episode: seed starts a new stream (SCOPA_ENV_NEXT goes on
 * with the current one; the first stream is seed 0).  dealer is the first
 * dealer, or -1 to draw it; scores (NULL: zeros) are each side's game
 * score that observations show before the first round.  The single-agent
 * face then plays the other seats up to the learner's turn. */
void scopa_env_reset(scopa_env *env, uint64_t seed, int dealer,
                     const int *scores);

/* Plays action for the seat to play (the learner in the single-agent
 * face, then the bots until its turn again).  rewards[seat] (players
 * doubles, may be NULL) get this step's rewards.  Returns SCOPA_ENV_*, or
 * SCOPA_EOVER when the episode had already ended. */
int scopa_env_step(scopa_env *env, int action, double *rewards);

/* The seat to play, or -1 once the episode is over. */
int scopa_env_to_play(const scopa_env *env);

/* The round being played (the last one once the episode is over). */
const scopa_state *scopa_env_state(const scopa_env *env);

/* Each side's game score before the current round. */
const int *scopa_env_scores(const scopa_env *env);

/* The page of actions shown now (0 unless SCOPA_ACTION_MORE was played). */
int scopa_env_page(const scopa_env *env);

/* Sets *move to the move of action a now (SCOPA_ACTION_MORE for the
 * next-page action).  Returns SCOPA_OK, or SCOPA_EILLEGAL when a is not
 * legal now. */
int scopa_env_move(const scopa_env *env, int action, scopa_move *move);

/* Not a move: what scopa_vecenv_moves and scopa_vecenv_legal_moves write
 * where there is none (bit 62 is never set in a move). */
#define SCOPA_MOVE_NONE ((scopa_move)1 << 62)

/* The legal actions of the seat to play now, increasing, into
 * actions[0..cap) and their moves into moves[0..cap) (either may be
 * NULL; SCOPA_ACTION_MORE for the next-page action): the move encoding a
 * network can learn, one move one meaning in every position (the played
 * card and the captured set; docs/env.md "Moves as features").  Returns
 * how many there are (0 once the episode is over). */
int scopa_env_legal_moves(const scopa_env *env, int *actions, scopa_move *moves,
                          int cap);

/* A seat's information state with perfect recall, as SCOPA_INFOSTATE
 * int8 values of 0 or 1 (the scores 0..127): everything the seat has
 * seen this round, in order (layout in docs/env.md):
 *   0..39   the table as dealt       40..79  its hand as dealt
 *   80..85  its place in play order (0 plays first), one-hot
 *   86..91  each side's game score before the round, own side first
 * then SCOPA_INFOSTATE_PLAY values for each play t = 0..39 so far:
 *   0..5 who played (k-th seat after this one), 6..45 the card,
 *   46..85 the cards it took, 86..125 the cards this seat received
 *   after it.
 * Two histories give the same tensor iff the seat cannot tell them
 * apart.  Returns SCOPA_INFOSTATE. */
#define SCOPA_INFOSTATE_HEADER 92
#define SCOPA_INFOSTATE_PLAY 126
#define SCOPA_INFOSTATE (SCOPA_INFOSTATE_HEADER + 40 * SCOPA_INFOSTATE_PLAY)
int scopa_env_infostate(const scopa_env *env, int seat, int8_t *out);

/* The same information state as text, for tabular methods: equal texts
 * iff equal tensors.  "o1 s0,3 | t 1d 5c 6s 9d | h 2d 5s 7b | 1:7dx6s |
 * 0:2dx1d +4b 8c 10s ...": place in play order, scores, table, hand,
 * then each play (k-th seat after this one, move, cards received).
 * Writes at most size bytes with the NUL and returns the length written
 * (truncated to fit; 4,096 bytes always suffice). */
size_t scopa_env_infostate_text(const scopa_env *env, int seat, char *buf,
                                size_t size);

/* The same two for any round state, not only an environment's (a
 * sampled world, a state being searched): what each seat received when
 * is recovered by dealing the round again (scopa_state_deck) and
 * replaying it; scores (one per side, may be NULL: zeros) are the game
 * scores before the round.  scopa_state_infostate returns
 * SCOPA_INFOSTATE, or SCOPA_EINVAL for a seat out of range or a state no
 * deal leads to; scopa_state_infostate_text returns the length written
 * (0 then). */
int scopa_state_infostate(const scopa_state *state, int seat, const int *scores,
                          int8_t *out);
size_t scopa_state_infostate_text(const scopa_state *state, int seat,
                                  const int *scores, char *buf, size_t size);

/* The whole state, for centralised critics: SCOPA_GLOBAL floats in 0..1,
 * in absolute seats and sides (layout in docs/env.md): 0..239 the hand of
 * seat 0..5, 240..279 the table, 280..519 the pile of side 0..5,
 * 520..559 the stock, 560..565 the seat to play, 566..571 the dealer,
 * 572..577 scope / 10, 578..583 game score / target, 584 plays / 40.
 * Returns SCOPA_GLOBAL. */
#define SCOPA_GLOBAL 585
int scopa_env_global(const scopa_env *env, float *out);

/* Writes seat's observation: its features into obs (SCOPA_FEATURES
 * floats; may be NULL) and into mask (SCOPA_ACTIONS bytes; may be NULL)
 * the actions it can take now (all zero when it is not its turn).
 * Returns the number of legal actions shown to it. */
int scopa_env_observe(const scopa_env *env, int seat, float *obs,
                      uint8_t *mask);
/* The same with the compact features (scopa_view_features_compact). */
int scopa_env_observe_compact(const scopa_env *env, int seat, int8_t *obs,
                              uint8_t *mask);

/*
 * Many single-agent environments stepped together in C, for training at
 * speed: environment i is exactly a scopa_env with the same rules and
 * config, reset with seed + i; `threads` threads (the caller's is one)
 * take chunks of them as they come free, and every batch writes into the
 * caller's arrays: obs[num_envs][SCOPA_FEATURES], mask[num_envs]
 * [SCOPA_ACTIONS] (the learner's legal actions), rewards[num_envs],
 * terminated[num_envs], truncated[num_envs] (always 0).  Auto-reset as
 * Gymnasium's vector environments do by default (next step): an
 * environment whose episode ended at one step starts the next episode of
 * its stream at the following step, ignoring its action, with reward 0
 * and both flags 0.  The learner's seat is config->learner (>= 0).
 */
typedef struct scopa_vecenv scopa_vecenv;

/* Creates num_envs environments and threads - 1 worker threads (threads
 * is clamped to 1..num_envs).  Returns SCOPA_OK and sets *out;
 * SCOPA_EINVAL (no learner seat, num_envs < 1, an unknown opponent);
 * SCOPA_ENOMEM. */
int scopa_vecenv_new(const scopa_rules *rules, const scopa_env_config *config,
                     int num_envs, int threads, scopa_vecenv **out /* OUT */);
/* Stops the threads and frees everything; NULL is a no-op. */
void scopa_vecenv_free(scopa_vecenv *vec);

/* The number of environments, and environment i (0..n-1; NULL outside),
 * to read between batches (never while a batch runs). */
int scopa_vecenv_size(const scopa_vecenv *vec);
scopa_env *scopa_vecenv_env(scopa_vecenv *vec, int i);

/* Resets environment i with seed + i (SCOPA_ENV_NEXT: each goes on with
 * its own stream) and writes every observation and mask. */
void scopa_vecenv_reset(scopa_vecenv *vec, uint64_t seed, float *obs,
                        uint8_t *mask);

/* Steps environment i with actions[i] (any value: one that is not legal
 * ends the episode with illegal_reward) and writes the arrays above. */
void scopa_vecenv_step(scopa_vecenv *vec, const int64_t *actions, float *obs,
                       uint8_t *mask, double *rewards, uint8_t *terminated,
                       uint8_t *truncated);

/* The two above with the compact observation: obs[num_envs]
 * [SCOPA_FEATURES] int8 values of scopa_view_features_compact (4 times
 * fewer bytes to write and to read; the same environments). */
void scopa_vecenv_reset_compact(scopa_vecenv *vec, uint64_t seed, int8_t *obs,
                                uint8_t *mask);
void scopa_vecenv_step_compact(scopa_vecenv *vec, const int64_t *actions,
                               int8_t *obs, uint8_t *mask, double *rewards,
                               uint8_t *terminated, uint8_t *truncated);

/*
 * Seats played by the caller (their bits in config->external): a
 * batch's reset or step stops each environment where one of them is to
 * play (the bot plays the other seats inside the step), and the caller
 * plays those seats, a round of
 * them at a time, until every environment is at the learner's turn or
 * over:
 *   scopa_vecenv_step(...);                 (or scopa_vecenv_reset)
 *   while ((k = scopa_vecenv_opponents(vec, envs, seats, obs, mask)))
 *     choose actions[0..k) from the k observations and masks;
 *     scopa_vecenv_play(vec, k, envs, actions, rewards, terminated);
 *   scopa_vecenv_observe(vec, obs, mask);   (the learners' observations)
 * rewards and terminated are those of the step, added to on the way.
 */

/* The environments where a seat of config->external is to play, increasing,
 * into envs[0..k) and that seat into seats[0..k); row j of obs[k]
 * [SCOPA_FEATURES] and mask[k][SCOPA_ACTIONS] gets seat seats[j]'s
 * observation and legal actions (obs and mask may be NULL; each array
 * has room for num_envs rows).  Returns k (0: none waits). */
int scopa_vecenv_opponents(scopa_vecenv *vec, int32_t *envs, int32_t *seats,
                           float *obs, uint8_t *mask);
int scopa_vecenv_opponents_compact(scopa_vecenv *vec, int32_t *envs,
                                   int32_t *seats, int8_t *obs, uint8_t *mask);

/* Plays actions[j] for the seat to play in environment envs[j], for j in
 * 0..count-1 (an action that is not legal ends the episode, the learner's
 * reward 0): the learner's rewards on the way are added into
 * rewards[envs[j]], and terminated[envs[j]] is set when the episode ends
 * (its next step auto-resets, as a step's). */
void scopa_vecenv_play(scopa_vecenv *vec, int count, const int32_t *envs,
                       const int64_t *actions, double *rewards,
                       uint8_t *terminated);

/* Writes every environment's learner observation and mask, as a step
 * does (for after the opponents' plays). */
void scopa_vecenv_observe(scopa_vecenv *vec, float *obs, uint8_t *mask);
void scopa_vecenv_observe_compact(scopa_vecenv *vec, int8_t *obs,
                                  uint8_t *mask);

/* The scores of the rounds just ended, for the environments i with
 * which[i] set, in increasing i: one JSON array of scopa_state_score_json
 * values (null for an environment whose round is not over, as after an
 * illegal action).  One call for a batch, not one per environment.
 * malloc'd (scopa_free); NULL if out of memory. */
char *scopa_vecenv_scores_json(scopa_vecenv *vec, const uint8_t *which);

/* Environment i's legal actions and their moves (scopa_env_legal_moves)
 * into row i of actions[num_envs][cap] and moves[num_envs][cap], padded
 * with -1 and SCOPA_MOVE_NONE.  Returns the largest count of any
 * environment (more than cap: rows were cut; call again with more). */
int scopa_vecenv_legal_moves(scopa_vecenv *vec, int cap, int64_t *actions,
                             scopa_move *moves);

/* The move of actions[i] in environment i now into moves[i]
 * (SCOPA_MOVE_NONE where it is not legal, SCOPA_ACTION_MORE for the
 * next-page action): the decoding of a batch of actions. */
void scopa_vecenv_moves(scopa_vecenv *vec, const int64_t *actions,
                        scopa_move *moves);

/* ------------------------------------------------------------------ */
/* Deprecated names                                                   */
/* ------------------------------------------------------------------ */

/* Deprecated names, kept for programs written against earlier drafts of
 * this header (0.1.0 is the first version): the tally was called
 * scopa_game, a name that read as the whole game (scopa_match).  New code
 * uses scopa_tally.  The field scopa_replay.game (a scopa_tally) keeps its
 * name so that such programs still build; it holds the record's tally. */
#define scopa_game scopa_tally
#define scopa_game_init scopa_tally_init
#define scopa_game_add scopa_tally_add
#define scopa_match_game scopa_match_tally
/* The message language was a second function, name_lang; it is now the
 * lang argument of the one function, with the same arguments. */
#define scopa_move_parse_lang scopa_move_parse
#define scopa_rules_set_lang scopa_rules_set
#define scopa_rules_set_text_lang scopa_rules_set_text
#define scopa_rules_check_lang scopa_rules_check
#define scopa_state_check_lang scopa_state_check
#define scopa_rules_from_json_lang scopa_rules_from_json

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* SCOPA_H */
