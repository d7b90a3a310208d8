/*
 * table.h -- a table in memory, shared by table.c (seats, presence,
 * views, the registry) and moves.c (moves, announcements, bots, ratings).
 *
 * Invariants: the match holds every move stored for this table (nmoves
 * of them) and nothing else; status follows the seats and the match
 * (waiting while a seat is open, finished once the match is over);
 * job_number is the move number a bot job is out for, or -1, so at most
 * one bot ever thinks for a table.
 */
#ifndef SCOPA_SERVER_TABLE_H
#define SCOPA_SERVER_TABLE_H

#include "server.h"

enum { T_WAITING, T_PLAYING, T_FINISHED };

/* What the protocol accepts is what the store keeps. */
_Static_assert(PROTO_NAME_MAX == STORE_NAME_MAX, "names");
_Static_assert(PROTO_SEAT_MAX == STORE_SEAT_MAX, "seat names");
_Static_assert(PROTO_CODE_MAX == STORE_CODE_MAX, "table codes");
_Static_assert(PROTO_MAX_SEATS == STORE_MAX_SEATS, "seats");

#define HINT_WAITERS 4 /* requests of one seat's turn answered by one job */

typedef struct seat_info {
  store_seat s;          /* kind, name, bot, token and player hashes     */
  int think_ms;          /* a bot seat's time per move                   */
  int nconns;            /* connections sitting here now                 */
  int64_t away_since_ms; /* a person with no connection: since when      */
  int taken_over;        /* a bot plays for this away person             */
  uint64_t taken_by;     /* the connection that took it by create or join
                            (conn.serial; 0: none since loaded): one seat
                            per connection                               */
  /* This seat's hint: one job per seat and move, whoever asks how often
   * (moves.c).  hint_for is the move number + 1 it is for (0: none).   */
  int hint_for;
  int hint_out;                    /* its job is out                  */
  char *hint_text;                 /* the answer once back (no id)    */
  int nhint_ids;                   /* the requests waiting for it     */
  char hint_ids[HINT_WAITERS][64]; /* their ids as JSON text ("": none) */
} seat_info;

struct table {
  uint64_t id;
  char code[PROTO_CODE_MAX + 1];
  char seed[SCOPA_SEED_TEXT];
  char seed_sha256[65];
  char *rules_json;
  scopa_rules rules;
  int away_s, clock_s;
  int nseats;
  seat_info seat[PROTO_MAX_SEATS];
  scopa_match *match;
  int status;
  int nmoves;     /* moves of the whole game, all stored              */
  int job_number; /* a bot job is out for this move number, or -1     */
  int rated;
  uint64_t last_batch; /* the last store batch with writes of this table */
  long long epoch;     /* its lease's epoch (relay.h; 0: no lease, SQLite) */
  char *review;        /* the finished game's review (JSON), once made  */
  int review_pending;  /* a review job is out                           */
  int64_t turn_since_ms, empty_since_ms;
  /* Play again (rematch.c), once the game is over: asked by someone,
   * who said yes (bots at once), and the next table's code once it is
   * made (then the offer is closed). */
  int rematch_asked;
  int rematch_yes[PROTO_MAX_SEATS];
  char next_code[PROTO_CODE_MAX + 1];
  conn *conns;
  int nconns;
  table *next, *prev; /* the server's list of tables in memory          */
};

/* table.c: the registry */
table *table_alloc(server *srv);
void table_free(table *t);
int table_insert(server *srv, table *t); /* 0, or -1 out of memory */
void table_seat_defaults(server *srv, seat_info *si);
/* waiting while a seat is open, finished once the match is over */
void table_set_status(table *t);

/* views.c: the state message for one recipient (seat, or -1 watching) */
char *table_state_json(const table *t, int seat, const json_t *id);

/* lobby.c: the lobby's handlers of the message table (proto.h) */
int lobby_create(conn *c, const proto_msg *msg);
int lobby_join(conn *c, const proto_msg *msg);
int lobby_resume(conn *c, const proto_msg *msg);
int lobby_watch(conn *c, const proto_msg *msg);
/* Takes c off its table's list, telling nobody (a table that stops). */
void table_unlink_conn(conn *c);
/* What the lobby lends rematch.c: c joins t at seat (-1 watching), after
 * leaving its table; a fresh token (32 hex digits), its SHA-256 as hex,
 * and an unused table code.  The last three return 0, or -1. */
void lobby_attach(conn *c, table *t, int seat);
int lobby_token(char out[33]);
void lobby_sha256_hex(const char *text, char out[65]);
int lobby_new_code(server *srv, char code[PROTO_CODE_MAX + 1]);

/* react.c: a reaction (a fixed phrase, by id) to the people seated */
int react_send(conn *c, const proto_msg *msg);

/* rematch.c: play again with the same people and rules */
int rematch_answer(conn *c, const proto_msg *msg);
/* The last connection of seat left a finished table: a no to an open
 * offer. */
void rematch_left(table *t, int seat);

/* table.c */
/* A deleted account: its seats at the tables in memory are named anon,
 * and the tables nobody is at leave memory (their matches, which name
 * the seats, load again from the store).  A table in play keeps the old
 * name in its match until it leaves memory. */
void table_forget_account(server *srv, long long account, const char *anon);
/* Memory, else the store; NULL with *fault the error code to answer
 * ("no_table", "table_damaged" or "server"). */
table *table_get(server *srv, const char *code, const char **fault);
table *table_find(server *srv, const char *code); /* memory only      */
void table_broadcast(table *t, conn *to, const json_t *id);
void table_send_all(table *t, const char *text);
int table_bot_may_play(const table *t, int seat);
/* Hints are given where a bot sits: at a table of people only (rated) a
 * hint would be help the others cannot know of. */
int table_hints_allowed(const table *t);
/* 1 when a person other than seat `except` (-1: any) is connected. */
int table_someone_here(const table *t, int except);
/* A new match from the seed with the seats as they are now, dealt.
 * Returns 0, or -1 with a message. */
int table_new_match(table *t, scopa_match **out, char *msg, size_t msgsize);

/* moves.c */
/* 1 when the game changes ratings: people of distinct accounts in every
 * seat (no bot, no guest, no account in two seats). */
int table_rated(const table *t);
/* 1 when the move was played, 0 when refused (with an error sent). */
int play_move(conn *c, const proto_msg *msg);
int play_hint(conn *c, const proto_msg *msg);
int play_review(conn *c, const proto_msg *msg);
/* Asks the pool for the move of the seat to play when a bot plays it. */
void play_kick(server *srv, table *t);
/* The move clock: a bot plays for a person whose time is up. */
void play_clock(server *srv, table *t, int64_t now);
/* Seconds left on the move clock of the seat to play, or -1 when no
 * clock runs (none at this table, nobody here, a bot to play). */
int play_clock_left(const table *t, int64_t now);

#endif
