/*
 * table.h -- a table in memory and the registry of them (table.c): by
 * code, loaded from the store, evicted when nobody is there, the record,
 * a table stopped by a failed write or a lost lease.  The files above it
 * (views, moves, lobby, rematch) share the struct.
 *
 * Invariants: the match holds every move stored for this table (nmoves
 * of them) and nothing else; status follows the seats and the match
 * (waiting while a seat is open, finished once the match is over);
 * job_number is the move number a bot job is out for, or -1, so at most
 * one bot ever thinks for a table.
 */
#ifndef SCOPA_SERVER_TABLE_H
#define SCOPA_SERVER_TABLE_H

#include "bank.h"
#include "conn.h"

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
  int64_t react_ms;      /* when its last reaction went out (react.c)    */
  /* Table talk (talk.c): the seat's lines left to say now (a bucket
   * filled one line every TALK_REFILL_MS up to TALK_BURST), when it was
   * last filled, and the seats it reported (bits). */
  int talk_tokens;
  int64_t talk_ms;
  unsigned reported;
  uint64_t taken_by; /* the connection that took it by create or join
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
  /* A tournament's table (docs/serve.md "Tournaments"): its id, "" for
   * none.  Its people's seats are reserved for their accounts (lobby.c),
   * a bot plays for an away seat and the clock runs even while nobody
   * is here (a no-show loses), it stays in memory until it ends, and a
   * duplicate one (an id starting with 'D') is never watched. */
  char tourney[PROTO_CODE_MAX + 1];
  char *rules_json;
  scopa_rules rules;
  int away_s, clock_s;
  /* The time bank (bank.h; 0 0: none): seconds each seat starts with
   * and gains after each move; bank[k] every move's time and seat (as
   * stored: nmoves of them, room for bank_cap), bank_start_ms the wall
   * time the game's first turn began (0: unknown, loaded after it). */
  int bank_s, inc_s;
  bank_move *bank;
  int bank_cap;
  int64_t bank_start_ms;
  int nseats;
  seat_info seat[PROTO_MAX_SEATS];
  /* Table talk (talk.c): on or off, and every line said, in order (the
   * n-th at talk[n]; as stored). */
  int talk_on;
  store_talk *talk;
  int ntalk, talk_cap;
  scopa_match *match;
  int status;
  int nmoves;     /* moves of the whole game, all stored              */
  int job_number; /* a bot job is out for this move number, or -1     */
  int rated;
  int unrated; /* an unrated tournament's: rates nobody (table_unrated) */
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

table *table_alloc(server *srv);
void table_free(table *t);
int table_insert(server *srv, table *t); /* 0, or -1 out of memory */
void table_seat_defaults(server *srv, seat_info *si);
/* waiting while a seat is open, finished once the match is over */
void table_set_status(table *t);
/* A new match from the seed with the seats as they are now, dealt.
 * Returns 0, or -1 with a message. */
int table_new_match(table *t, scopa_match **out, char *msg, size_t msgsize);

/* Memory, else the store; NULL with *fault the error code to answer
 * ("no_table", "table_damaged" or "server").  A table loaded here may
 * need a bot to move: the caller kicks it (play_kick, moves.h). */
table *table_get(server *srv, const char *code, const char **fault);
table *table_find(server *srv, const char *code); /* memory only      */
/* Takes c off its table's list, telling nobody (a table that stops). */
void table_unlink_conn(conn *c);
int table_bot_may_play(const table *t, int seat);
/* Hints are given where a bot sits: at a table of people only (rated) a
 * hint would be help the others cannot know of. */
int table_hints_allowed(const table *t);
/* 1 when a person other than seat `except` (-1: any) is connected. */
int table_someone_here(const table *t, int except);
/* Seconds left on the move clock of the seat to play, or -1 when no
 * clock runs (none at this table, nobody here, a bot to play). */
int table_clock_left(const table *t, int64_t now);
/* A time bank table: every seat's time left now, ms (bank.h); 0 when
 * the table has no bank (left_ms untouched). */
int table_banks(const table *t, int64_t *left_ms);
/* Notes move number t->nmoves as the bank sees it: seat, whether it
 * opens a round, its time and its turn's; 0, or -1 out of memory. */
int table_note_move(table *t, int seat, int first, int64_t at_ms, int took_ms);
/* How long the turn of the seat to play has run (bank.h), ms. */
int table_turn_ms(const table *t);
/* How long before that turn starts to run (a round's grace), ms. */
int table_bank_wait_ms(const table *t);

/* A deleted account: its seats at the tables in memory are named anon,
 * and the tables nobody is at leave memory (their matches, which name
 * the seats, load again from the store).  A table in play keeps the old
 * name in its match until it leaves memory. */
void table_forget_account(server *srv, long long account, const char *anon);
/* Table `code` is an unrated tournament's (the tournaments' news): it
 * rates nobody, loaded now or later.  table_unrated_free at the end. */
void table_unrated(server *srv, const char *code);
void table_unrated_free(server *srv);
/* Tables nobody is at, with nothing out and everything stored, leave
 * memory (finished ones after 5 s, others after conf.idle_s). */
void table_sweep(server *srv, int64_t now);
void tables_free(server *srv);
/* A table this node no longer owns (its lease was lost): its
 * connections are told and closed, and it leaves memory. */
void table_lost(server *srv, table *t);
/* The record of a game as JSON text for GET /api/tables/CODE/record:
 * 200 with the record, 403 while in play, 404 unknown, 500 damaged.  A
 * cluster asks the accounts' thread for a table not in memory instead
 * (http.c: auth.h's AUTH_RECORD), so as not to take it here. */
char *table_record(server *srv, const char *code, int *status);
/* A write of a table failed (writer_take_failed): it stops there. */
void table_store_failed(server *srv, const writer_failure *f);

#endif
