/*
 * proto.h -- the wire protocol: the messages of `scopa serve`
 * (docs/CONTRACTS.md "scopa serve"), which the browser's local table
 * (src/wasm) speaks too, as plain values: a pure parser for what clients
 * send and writers for what the server sends.  Below the server and the
 * local table; it includes nothing of either.  No sockets, no tables, no
 * globals: the fuzz target (fuzz/fuzz_proto.c) feeds proto_parse any bytes.
 *
 * Every text a person reads goes out in English ("message") and Italian
 * ("message_it"), with a stable "code" a client may translate itself.
 */
#ifndef SCOPA_PROTO_H
#define SCOPA_PROTO_H

#include <jansson.h>
#include <stddef.h>

#include <scopa.h>

#define PROTO_VERSION 1
#define PROTO_MAX_SEATS 6     /* what a create may ask for; the rules decide */
#define PROTO_NAME_MAX 64     /* bytes of a nickname, UTF-8, after cleaning */
#define PROTO_CODE_MAX 16     /* a table code                               */
#define PROTO_TOKEN_MAX 80    /* a seat or player token                      */
#define PROTO_SEAT_MAX 32     /* "me", "open", a bot or level name           */
#define PROTO_REACTION_MAX 16 /* a reaction's id                           */
#define PROTO_TALK_CHARS 200  /* characters of a line of table talk          */
#define PROTO_TALK_MAX (4 * PROTO_TALK_CHARS) /* ... and its bytes, UTF-8 */

/*
 * The messages a client sends, one line each: XX(TYPE, "name", fields).
 * This list makes the type enum, the names the parser knows and the
 * parser's dispatch (fields: a parse_* function of proto.c that reads
 * the message's own fields).  What each does is its reader's: the
 * server's handlers (src/server/dispatch.c), the local table's
 * (src/wasm/local.c).  Adding a message is a line here, its fields
 * function and its handlers (HACKING.md).
 */
#define PROTO_MESSAGES(XX)                                                     \
  XX(CREATE, "create", parse_create)                                           \
  XX(JOIN, "join", parse_code)                                                 \
  XX(RESUME, "resume", parse_resume)                                           \
  XX(WATCH, "watch", parse_code)                                               \
  XX(MOVE, "move", parse_move)                                                 \
  XX(HINT, "hint", parse_nothing)                                              \
  XX(PING, "ping", parse_nothing)                                              \
  XX(REVIEW, "review", parse_review)                                           \
  XX(REMATCH, "rematch", parse_rematch)                                        \
  XX(REACT, "react", parse_react)                                              \
  XX(SEEK, "seek", parse_seek)                                                 \
  XX(UNSEEK, "unseek", parse_nothing)                                          \
  XX(SAY, "say", parse_say)                                                    \
  XX(REPORT, "report", parse_report)                                           \
  XX(TOURNAMENT_CREATE, "tournament_create", parse_tourney_create)             \
  XX(TOURNAMENT_JOIN, "tournament_join", parse_tourney_join)                   \
  XX(TOURNAMENT_LEAVE, "tournament_leave", parse_tourney)                      \
  XX(TOURNAMENT_START, "tournament_start", parse_tourney)

enum proto_type {
  PROTO_UNKNOWN, /* a type this server does not know: ignored            */
#define PROTO__TYPE(type, name, fields) PROTO_##type,
  PROTO_MESSAGES(PROTO__TYPE)
#undef PROTO__TYPE
      PROTO_NTYPES
};

/* One client message.  Strings are NUL-terminated copies; json fields are
 * references owned by the message (proto_msg_free). */
typedef struct proto_msg {
  int type;
  json_t *id;    /* echoed in the direct answer, NULL if absent         */
  json_t *rules; /* create, seek: an object (as in a record) or a preset */
  json_t *clock; /* seek: its "clock" object, NULL when absent          */
  json_t *body;  /* tournament_create: the whole message, its fields
                    checked by the server (tourney_state.h)            */
  char code[PROTO_CODE_MAX + 1];    /* tournament_*: the tournament's id */
  char token[PROTO_TOKEN_MAX + 1];  /* resume                            */
  char player[PROTO_TOKEN_MAX + 1]; /* optional player token (ratings)   */
  char name[PROTO_NAME_MAX + 1];
  /* tournament_join: "partner", the account name of a Scopone pair's
   * other one, or "" */
  char partner[PROTO_NAME_MAX + 1];
  char move[SCOPA_MOVE_TEXT];
  int nseats;
  char seats[PROTO_MAX_SEATS][PROTO_SEAT_MAX + 1];
  int ply;     /* move: -1 when absent                                   */
  int seat;    /* move: the seat the client means, -1 when absent        */
  int away_s;  /* create, seek's clock: seconds before a bot plays for an
                  away seat, -1 absent                                  */
  int clock_s; /* create, seek's clock: seconds per move (0 = no clock),
                  -1 absent                                             */
  int bank_s;  /* create: "bank", each seat's time bank in seconds, -1
                  absent (docs/serve.md "The time bank")                */
  int inc_s;   /* create: "increment", seconds added after each move, -1 */
  int listed;  /* create: "public": true, the table is in the lobby      */
  int talk;    /* create: "talk": 1 on, 0 off, -1 absent (on at a private
                  table, off at a public one: docs/serve.md "Table talk") */
  int accept;  /* rematch: 1 to play again (the default), 0 to decline   */
  char reaction[PROTO_REACTION_MAX + 1]; /* react: a phrase's id          */
  /* say: the line, cleaned (proto_clean_talk), 1 to PROTO_TALK_CHARS
   * characters; report: why, cleaned the same way, maybe "" */
  char text[PROTO_TALK_MAX + 1];
  /* Any message: the sender's language and deck for the sentences the
   * table sends it (proto_words); "" when absent or not understood. */
  char lang[3];  /* "en" or "it"                                        */
  char deck[16]; /* SCOPA_DECK_FRENCH, or "italiane" for any other deck */
} proto_msg;

/* Why a message was refused: a stable code and the two texts. */
typedef struct proto_error {
  const char *code;
  char en[200];
  char it[200];
  /* bad_rules: the options the refusal is about, by name (static
   * strings, scopa_rules_check_options; NULL where none), sent as the
   * error's "options" for programs, the texts naming them by label */
  const char *options[2];
} proto_error;

/* Parses one client message (one WebSocket text frame).  Returns 0 and
 * fills *out, or -1 with *err filled; then out holds only the message's
 * "id" when it was a JSON object with one (NULL otherwise), so the
 * refusal echoes it (CONTRACTS.md: every answer to a readable message
 * carries its id).  Either way the caller ends with proto_msg_free(out).
 * Unknown fields are ignored; an unknown "type" gives PROTO_UNKNOWN, not
 * an error. */
int proto_parse(const char *text, size_t len, proto_msg *out, proto_error *err);

/* A line of table talk as it is kept and sent: what a name may not hold
 * left out (proto_clean_name's rule), every run of white space one
 * space, none at either end.  out holds PROTO_TALK_MAX + 1 bytes; the
 * result's length in characters, or -1 past PROTO_TALK_CHARS. */
int proto_clean_talk(const char *in, char *out);

/* Releases what a parsed message holds; accepts a zeroed one. */
void proto_msg_free(proto_msg *msg);

/* The name of a person who gave none, in the language of the page that
 * seated it ("it": "Giocatore 2"; else "Player 2"), seat counted from 0;
 * both tables name so.  Returns out. */
char *proto_default_name(int seat, const char *lang, char *out, size_t size);

/* Fills *err with a code and its two texts (printf formats with one %s,
 * the detail, in each): detail in English, detail_it in Italian, or NULL
 * where the detail is the library's text (English only, as a rule
 * message or a number's error is). */
void proto_error_set(proto_error *err, const char *code, const char *detail,
                     const char *detail_it);

/* Writers: compact JSON text, malloc'd (free()), NULL if out of memory.
 * id may be NULL. */
/* hello, naming the connection's account (NULL or "": a guest). */
char *proto_hello(const char *account);
char *proto_error_json(const json_t *id, const proto_error *err);
char *proto_seated(const json_t *id, const char *code, int seat,
                   const char *token, const char *player);
/* A notice about seat `seat`; detail fills the text's %s (a person's
 * name, or a seat's number). */
char *proto_notice(const char *code, int seat, const char *detail);

/* Adds "id" to an object when id is not NULL, then dumps it compactly and
 * releases it.  NULL if out of memory. */
char *proto_finish(json_t *obj, const json_t *id);

/* The seats and rules of a create, checked: the seats are "me" once,
 * "open", bots and levels; the rules a preset name or an object, whose
 * "players" follows the seats when it does not say.  Returns 0 with *me
 * (the creator's seat) and *rules set, or -1 with *err ("bad_seats" or
 * "bad_rules", the fault in both languages).  The server's tables and the
 * browser's local table (src/wasm) check a create here, the same way. */
int proto_create_check(const proto_msg *msg, int *me, scopa_rules *rules,
                       proto_error *err);

/* The rules of a seek (quick pairing, docs/serve.md "Play now"): a
 * preset name or an object as create takes, whose "players" is the
 * rules' own (2 when neither says).  0 with *rules set, or -1 with *err
 * ("bad_rules"). */
int proto_seek_check(const proto_msg *msg, scopa_rules *rules,
                     proto_error *err);

/* A `move` from the person at `seat` of a table playing `match`
 * (waiting: seats are still open), checked as the server checks it: the
 * sender's own seat, a game in play, its turn, the round's ply (a
 * duplicate or a late resend is stale), the notation, then the rules.
 * Returns 0 with *move set, or -1 with *err; a refusal never names a
 * card the sender cannot know. */
int proto_move_check(const proto_msg *msg, const scopa_match *match, int seat,
                     int waiting, scopa_move *move, proto_error *err);

/* A `hint` from the person at `seat` (-1: watching) of a table playing
 * `match` (NULL: not at a table; playing: the game is on, neither
 * waiting nor over): 0 when it is that seat's turn, else -1 with *err
 * (not_seated, not_your_turn), the same refusal at every table. */
int proto_hint_check(const scopa_match *match, int seat, int playing,
                     proto_error *err);
/* A `review` from a connection at the table `code` (NULL: at none):
 * msg->code, when given, must name it, and the game must be over
 * (finished).  0, or -1 with *err (not_seated, not_playing). */
int proto_review_check(const proto_msg *msg, const char *code, int finished,
                       proto_error *err);
/* No memory for the answer to a message of `type` (PROTO_HINT,
 * PROTO_REVIEW): *err set to the refusal ("server"). */
void proto_no_memory(proto_error *err, int type);

/* The messages a table sends, the same from the server and from the
 * browser's local table (src/wasm), each with "type" first.
 *
 * proto_state: a `state` object for seat (-1: a spectator) of `code`:
 * the library's view (scopa_match_view_json: rules, seat, scores, round),
 * to_play (-1: none awaited, null), ply, for a seat its hand and, when
 * it is to play, its legal moves, and "drawn" (what a client draws: the
 * table, hand counts, stock, piles, scope cards, last move, and with
 * legal "reasons": why each hand card plays as it does), all of one
 * scopa_match_view of that recipient.  The caller adds the table's fields
 * (status, seats, presence, ...) and ends it with proto_finish.  NULL if
 * out of memory. */
json_t *proto_state(const scopa_match *match, const char *code, int seat,
                    int to_play);
/* round_over: the sides' scores and totals of the move that ended it. */
char *proto_round_over(const char *code, const scopa_event *ev);
/* game_over: totals, winner (or null), the seed and its commitment. */
char *proto_game_over(const char *code, const scopa_event *ev, const char *seed,
                      const char *seed_sha256);
/* hint: hints[0..n) best first (scopa_bot_hint): each move's value,
 * margin, loss, loss_margin (NAN: no estimate, null), mark and "why"
 * (scopa_move_why_json from view, the asking seat's; null without a
 * view); "move", "value", "margin" and "why" of the best; the round's
 * ply; id may be NULL. */
char *proto_hint(const char *code, int ply, const scopa_view *view,
                 const scopa_hint *hints, int n, const json_t *id);

/* review: the text of scopa_match_review_json with the type and code. */
char *proto_review(const char *code, const char *review, const json_t *id);

/* The library's sentences (include/scopa.h "Moves in words") added to a
 * state, hint or review object, in lang ("en", "it"; NULL or "": "en")
 * and deck's card names (SCOPA_DECK_FRENCH, else Italian), for a reader
 * that draws and says nothing of its own (issue 33):
 *   state   "legal_words": scopa_move_words of each of "legal", in its
 *           order; drawn.last "words": scopa_played_words; each of
 *           drawn.reasons "words": scopa_card_reason_words;
 *   hint    each move's (and the best's) "words": the move and what it
 *           does ("Take ...: makes a scopa"), "loss_words"
 *           (scopa_loss_words) and "cost_words" (scopa_points_words of
 *           its loss);
 *   review  each move's "words" (the move played and what it does),
 *           "move_words" (the move alone), "best_words" (the best move
 *           and what it does), "loss_words" and "cost_words" of its cost.
 * Only what the object already names is said: no card it does not hold.
 * Another type is left as it is. */
void proto_add_words(json_t *msg, const char *lang, const char *deck);

/* A "why" object (scopa_move_why_json, in hints and reviews) back as
 * the library's struct, for scopa_why_words; codes this build does not
 * know are left out, a missing object or field reads as 0.  The server,
 * the local table and `scopa review` all read it so. */
void proto_why_of(const json_t *o, scopa_why *w);

/* proto_add_words on the text of a message: the new text with "id" set
 * to id when id is not NULL (malloc'd; NULL if out of memory or text is
 * not an object). */
char *proto_words(const char *text, const json_t *id, const char *lang,
                  const char *deck);

/* Cleans a nickname: valid UTF-8 (jansson checked it), control characters
 * and leading/trailing spaces removed, cut at PROTO_NAME_MAX bytes on a
 * character boundary.  Writes into out (PROTO_NAME_MAX + 1 bytes). */
void proto_clean_name(const char *in, char *out);

#endif
