/*
 * store.h -- where tables are kept for good.  The server's only storage
 * interface, with two implementations behind it (store_impl.h: a table
 * of functions, chosen at open by the text of `where`): store_sqlite.c
 * on an SQLite file (a path, or `sqlite:FILE`: the default) and
 * store_pg.c on PostgreSQL (a postgresql:// URL), which several server
 * processes share (docs/serve.md, "More than one machine").
 *
 * A game is its seed, its rules and seats, and its numbered moves: the
 * deals follow from the seed, so the moves are all that changes.  A move's
 * key is (game, number), so a move can never be stored twice.
 *
 * Writes are batched: store_begin opens a transaction (SQLite: BEGIN
 * IMMEDIATE; PostgreSQL: BEGIN) if none is open, every write joins it,
 * and store_commit makes the whole batch durable (SQLite: WAL with
 * synchronous=FULL; PostgreSQL: synchronous_commit = on) before the
 * server lets any connection hear of it.  Reads never need a transaction.
 */
#ifndef SCOPA_SERVER_STORE_H
#define SCOPA_SERVER_STORE_H

#include <scopa.h>

/* The sizes of what is stored: a nickname, a seat's bot or level name, a
 * table code, the seats of a table.  The protocol accepts no more (proto.h
 * has the same numbers; table.h checks they agree), but the store does
 * not depend on the wire format. */
#define STORE_NAME_MAX 64
#define STORE_SEAT_MAX 32
#define STORE_CODE_MAX 16
#define STORE_MAX_SEATS 6

typedef struct store store;

enum { STORE_OPEN, STORE_PERSON, STORE_BOT }; /* who sits at a seat */

typedef struct store_seat {
  int kind;                      /* STORE_*                                */
  char name[STORE_NAME_MAX + 1]; /* a person's nickname; a bot's label    */
  char bot[STORE_SEAT_MAX + 1];  /* a bot seat: its bot or level name     */
  char token_sha256[65];         /* a person: SHA-256 of the seat token   */
  char player[65];               /* a person: SHA-256 of the player token,
                                    or "a:ID" for an account's seat      */
  long long account;             /* a person signed in: the account's id
                                    (0: a guest)                         */
} store_seat;

typedef struct store_game {
  char code[STORE_CODE_MAX + 1];
  char seed[SCOPA_SEED_TEXT];
  char *rules_json; /* malloc'd: the checked rules as a record has them */
  int nseats;
  store_seat seat[STORE_MAX_SEATS];
  int away_s, clock_s;
  /* The time bank (docs/serve.md "The time bank"): each seat's seconds
   * at the start and the seconds added after each of its moves; 0 0:
   * none (then clock_s, the move clock, may run). */
  int bank_s, inc_s;
  int finished; /* the game has ended                                */
  int listed;   /* store_add_game: a public table, in the lobby     */
  int talk_on;  /* table talk is on (docs/serve.md "Table talk")    */
  /* A tournament's game (docs/serve.md "Tournaments"): its id, "" for
   * none; and once finished, a bit per side that abandoned it. */
  char tourney[STORE_CODE_MAX + 1];
  int abandoned;
  int nmoves;        /* moves[0..nmoves): every move of the game, in order */
  scopa_move *moves; /* malloc'd                                        */
  /* store_load: when each move was stored, ms since the epoch (the wall
   * clock; 0 for a move from before schema 5) and how long its turn
   * took (move_took), malloc'd as moves */
  int64_t *move_at;
  int *move_took;
  /* store_load: what was said at the table, in order (store_talk_load) */
  int ntalk;
  struct store_talk *talk;
} store_game;

/* A line of table talk: the table's n-th (from 0), by whom (a seat),
 * when (ms since the epoch) and what (cleaned, proto_clean_talk: at most
 * STORE_TALK_MAX bytes). */
#define STORE_TALK_MAX 800
typedef struct store_talk {
  int n, seat;
  int64_t at_ms;
  char *text; /* malloc'd where a store read it */
} store_talk;

/* A report of a person at a table (docs/serve.md "Table talk"): who
 * reported whom (seats, and the reporter's account, 0 for a guest),
 * when, why, and how many lines had been said by then (the ones the
 * report is about). */
typedef struct store_report {
  char code[STORE_CODE_MAX + 1];
  int by, seat, through;
  long long account;
  int64_t at_ms;
  char reason[STORE_TALK_MAX + 1];
} store_report;

/* 1 when `where` names a PostgreSQL database (postgresql:// or
 * postgres://), 0 for an SQLite file. */
int store_is_postgres(const char *where);

/* Claims the store at `where` for this process and checks it, before the
 * server listens (docs/serve.md "The database").  An SQLite file, in
 * this order:
 *  - an exclusive lock on the file itself, held for the process's life
 *    (store_release): a second server on the same file, by whatever
 *    path or link, is refused with the holder's pid;
 *  - the file opens read-write (a read-only file or mount is refused);
 *  - it is an SQLite database and PRAGMA quick_check says "ok";
 *  - it is a scopa database of a schema version this server knows (an
 *    empty file gets the schema and the version);
 *  - a real commit goes through (the version written again: a WAL
 *    append and an fsync), so a file that cannot be written, or a folder
 *    where the WAL cannot be made, is refused now and not at the first
 *    move.
 * PostgreSQL: no lock (several nodes share a database by design); the
 * server answers, the database is a scopa database of a known schema
 * version or has none of scopa's tables (it gets them), and the schema
 * is written in a real, synchronously committed transaction.
 * Returns 0 and sets *lock (the SQLite file's lock, -1 for none), or -1
 * with one line in msg naming the store and what is wrong. */
int store_claim(const char *where, int *lock, char *msg, size_t msgsize);
/* Lets the file go: only once every connection to it is closed (closing
 * a descriptor of the file would drop SQLite's own locks).  -1: no-op. */
void store_release(int lock);

/* Opens the store at `where` (creating the schema if it has none).
 * Returns 0 and sets *out, or -1 with a message. */
int store_open(const char *where, store **out, char *msg, size_t msgsize);
void store_close(store *st);

/* The batch: begin is a no-op when a batch is open; commit makes it
 * durable (0) or rolls it back and returns -1 with a message; rollback
 * drops it. */
int store_begin(store *st);
int store_commit(store *st, char *msg, size_t msgsize);
void store_rollback(store *st);
int store_in_batch(const store *st);

/* Why the last write failed, in a few words for players: English and
 * Italian, static ("the disk is full").  store_failure_is_local is 1
 * when the fault is the write's own (a constraint), so the batch's other
 * writes may be tried again without it, 0 when it is the database's (the
 * disk, the file, the lock), which every write would meet. */
void store_why(const store *st, const char **en, const char **it);
int store_failure_is_local(const store *st);

/* Writes (each joins the open batch; 0 or -1). */
int store_add_game(store *st, const store_game *game);
int store_set_seat(store *st, const char *code, int seat, const store_seat *s);
/* A move, when it was made (at_ms: ms since the epoch, wall clock) and
 * how long its turn took by the time bank's rules (bank.h). */
int store_add_move(store *st, const char *code, int number, scopa_move move,
                   int64_t at_ms, int took_ms);
/* The game has ended; abandoned: a bit per side that had left it (its
 * people away or played for by a bot at the end: they lost). */
int store_finish(store *st, const char *code, int abandoned);
/* Table talk: a line (a second one with the same n fails, a constraint)
 * and a report (a second of the same seat by the same seat of a table is
 * ignored); both join the batch. */
int store_add_talk(store *st, const char *code, const store_talk *line);
int store_add_report(store *st, const store_report *r);
/* What was said at table `code`, in order, into *out (malloc'd, each
 * text too: store_talk_free), *n lines; 0 or -1. */
int store_talk_load(store *st, const char *code, store_talk **out, int *n);
void store_talk_free(store_talk *lines, int n);
/* Every report, oldest first, with the reported table's seats and what
 * had been said there by then, as a JSON array text (docs/serve.md
 * "Table talk": `scopa serve --reports`), malloc'd; NULL on error. */
char *store_reports(store *st);

/* Leases: one node owns a table at a time (docs/serve.md "Any node
 * serves any table"; the first piece: the server does not take them
 * yet).  A lease is (node, epoch, expiry); the epoch grows by one each
 * time the owner changes, and a fenced write commits only while its
 * node and epoch still hold the lease, so a node that lost it can never
 * write.  On SQLite the file's lock already makes this process the only
 * node: a lease is always taken (epoch 1) and always held.
 *
 * store_lease_take: 0 when `node` holds the lease for ttl_s seconds from
 * now (*epoch set: one more than before when it came from another node,
 * the same when it was this node's), 1 when another node holds a live
 * one, -1 on error.  store_lease_renew: node's leases of codes[i] at
 * epochs[i], i < n, that have not expired, live ttl_s seconds from now,
 * in one statement (a node renews all its leases at once, relay.c):
 * held[i] 1 when renewed, 0 when lost (expired, or another node's or
 * epoch's); 0, or -1 (held untouched).
 * store_lease_release: lets it expire now, keeping the epoch.
 * store_add_move_fenced: store_add_move that first locks the lease (a
 * takeover waits for the batch) and checks node and epoch: -1 when they
 * no longer hold it, a failure local to the table (store_why: "another
 * server took the table over"). */
int store_lease_take(store *st, const char *code, const char *node, int ttl_s,
                     long long *epoch);
int store_lease_renew(store *st, const char *node, const char *const *codes,
                      const long long *epochs, int n, int ttl_s, int *held);
int store_lease_release(store *st, const char *code, const char *node,
                        long long epoch);
int store_add_move_fenced(store *st, const char *code, int number,
                          scopa_move move, int64_t at_ms, int took_ms,
                          const char *node, long long epoch);
/* The fence alone, for every other write of a table (its game, a seat,
 * its end, its ratings): joins the batch, locks the lease as
 * store_add_move_fenced does and checks node and epoch; 0, or -1 (the
 * batch failed, "another server took the table over"). */
int store_fence(store *st, const char *code, const char *node, long long epoch);

/* 1 if a game with this code exists, 0 if not, -1 on error. */
int store_has_code(store *st, const char *code);

/* Loads a game with its moves.  Returns 0, 1 when there is no such game,
 * -1 when it is stored but cannot be read (a damaged page, a missing or
 * unreadable move, a seat out of range; msg says which).  Free with
 * store_game_free. */
int store_load(store *st, const char *code, store_game *out, char *msg,
               size_t msgsize);
void store_game_free(store_game *game);

/* The lobby (docs/serve.md "The lobby"): a public table's code is listed
 * from its creation (store_add_game with `listed`, in the same batch);
 * store_lobby gives the newest `limit` listed codes into codes[0, *n),
 * and store_lobby_drop takes a code off the list (autocommit: the
 * lobby's reader drops the tables that filled or ended). */
int store_lobby(store *st, int limit, char (*codes)[STORE_CODE_MAX + 1],
                int *n);
int store_lobby_drop(store *st, const char *code);

/* Play now (docs/serve.md "Play now"): the seeks of every node, one row
 * each, written by the pairer's thread of the seek's node (pairer.h) on
 * its own connection.  store_seek_add, _drop and _beat commit at once;
 * a pairing pass is a batch (store_begin ... store_commit) that
 * store_seek_lock makes the only one in the cluster at a time, in which
 * store_seek_waiting reads, the tables are added (store_add_game) and
 * store_seek_pair marks each paired seek with its table.  The seek's own
 * node then takes its paired seeks off (store_seek_paired). */
typedef struct store_seek {
  char id[33];      /* 32 hex digits, random                              */
  char node[24];    /* the node whose connection seeks ("" on SQLite)     */
  char key[65];     /* SHA-256 (hex) of the rules and clock asked: only
                       equal keys are paired                              */
  char *rules_json; /* the checked rules (malloc'd in _waiting's rows) */
  int players, away_s, clock_s;
  int bank_s, inc_s;  /* a time bank instead of the move clock (0 0: none) */
  double rating;      /* the account's in the rules' pool, or 1500       */
  long long account;  /* 0: a guest                                      */
  long long since_ms; /* unix milliseconds                               */
  long long beat_ms;  /* its node's last heartbeat                       */
} store_seek;
int store_seek_add(store *st, const store_seek *s);
int store_seek_drop(store *st, const char *id);
/* The unpaired seeks of `node` beat at now_ms; every seek whose beat is
 * older than stale_ms goes (a node that died).  0, or -1. */
int store_seek_beat(store *st, const char *node, long long now_ms,
                    long long stale_ms);
/* In the open batch: waits for any other pairing pass to end. */
int store_seek_lock(store *st);
/* The unpaired seeks, oldest first, into out[0, *n) (at most cap; each
 * rules_json malloc'd: store_seek_free_all). */
int store_seek_waiting(store *st, store_seek *out, int cap, int *n);
void store_seek_free_all(store_seek *s, int n);

/* Tournaments (docs/serve.md "Tournaments"): a row each, its whole state
 * a JSON text (tourney_state.h) that the director rewrites in its
 * batches (director.h), one batch at a time in the cluster
 * (store_tourney_lock, as store_seek_lock).  A game of a tournament is an
 * ordinary game whose `tourney` names it. */
enum { STORE_T_UPCOMING, STORE_T_RUNNING, STORE_T_FINISHED };
typedef struct store_tourney {
  char id[STORE_CODE_MAX + 1];
  int status; /* STORE_T_*                                            */
  long long created_ms;
  char *state; /* JSON text; malloc'd where a store read it          */
} store_tourney;
/* Written whole (added or replaced), in the open batch. */
int store_tourney_put(store *st, const store_tourney *t);
/* Tournament id into *out: 0, 1 when there is none, -1. */
int store_tourney_get(store *st, const char *id, store_tourney *out);
/* Those not finished (active: 1) or every one, newest first, at most
 * limit, into *out (malloc'd: store_tourney_free_all), *n of them. */
int store_tourney_list(store *st, int active, int limit, store_tourney **out,
                       int *n);
/* In the open batch: waits for any other director's batch to end. */
int store_tourney_lock(store *st);
void store_tourney_free_all(store_tourney *t, int n);
/* How game `code` stands: *finished (0/1) and *abandoned (the sides'
 * bits, store_finish's): 0, 1 when there is no such game, -1. */
int store_game_end(store *st, const char *code, int *finished, int *abandoned);
/* In the open batch: seek `id` is paired to table `code`. */
int store_seek_pair(store *st, const char *id, const char *code);
/* node's paired seeks, taken off the store: ids[i] with codes[i], i < *n
 * (at most cap). */
int store_seek_paired(store *st, const char *node, char (*ids)[33],
                      char (*codes)[STORE_CODE_MAX + 1], int cap, int *n);
/* Ratings (rating.c): one row per (pool, player); an account's player is
 * "a:ID" and its row carries the account (0 for the rows of the guests
 * of old, kept but never listed). */
#define STORE_PROVISIONAL_RD 110.0 /* a rating is provisional above it */

typedef struct store_rating {
  double rating, rd, vol;
  int games;
  long long account;
} store_rating;

/* 0 (found), 1 (none: *r untouched), -1. */
int store_rating_get(store *st, const char *pool, const char *player,
                     store_rating *r);
int store_rating_put(store *st, const char *pool, const char *player,
                     const char *name, const store_rating *r);
/* 1 once a finished game's ratings were counted (so a restart never
 * counts them twice); store_set_rated marks it. */
int store_is_rated(store *st, const char *code);
int store_set_rated(store *st, const char *code);

/* The best `limit` accounts of a pool as a JSON array text of {"name",
 * "rating", "rd", "games", "provisional"}, malloc'd; NULL on error. */
char *store_leaderboard(store *st, const char *pool, int limit);

/* A rated game's new rating of one account, for its history (the
 * account page's chart); joins the batch. */
int store_rating_log(store *st, const char *pool, long long account,
                     const char *code, const store_rating *r);
/* Games of `pool` rated since `since` (unix seconds) with accounts a and
 * b on different sides: a count, or -1. */
int store_pair_games(store *st, const char *pool, long long a, long long b,
                     long long since);

/* ------------------------------------------------------------------ */
/* Accounts and sessions (auth.c; docs/serve.md "Accounts")            */
/* ------------------------------------------------------------------ */

/* These are written outside the batches, each at once (autocommit), by
 * the accounts' own thread on its own connection; a session is read
 * (store_session_get) when a WebSocket opens, by the loop on SQLite and
 * by the cluster's courier on PostgreSQL (relay.h). */

#define STORE_HASH_MAX 160 /* an Argon2id string (crypto_pwhash_STRBYTES) */

typedef struct store_account {
  long long id;
  char name[STORE_NAME_MAX + 1]; /* as it was signed up */
  char hash[STORE_HASH_MAX + 1]; /* the password's Argon2id string */
  long long created;             /* unix seconds */
} store_account;

/* A new account (name unique without case): 0 (*id set), 1 when the
 * name is taken, -1. */
int store_account_add(store *st, const char *name, const char *hash,
                      long long *id);
/* By name, without case: 0, 1 (none), -1. */
int store_account_get(store *st, const char *name, store_account *out);
int store_account_set_hash(store *st, long long id, const char *hash);
/* Deletes an account: its name and password go (the name may be taken
 * again), its sessions and ratings with them; its games stay, its seats
 * named `anon`. */
int store_account_delete(store *st, long long id, const char *anon);

/* Sessions: only the token's SHA-256 is kept. */
int store_session_add(store *st, const char *sha256, long long account,
                      long long expires);
/* The account of a live session (expires after now): 0, 1 (none or
 * expired), -1. */
int store_session_get(store *st, const char *sha256, long long now,
                      store_account *out);
int store_session_end(store *st, const char *sha256);
/* Every session of an account but `keep` (NULL: every one). */
int store_sessions_end(store *st, long long account, const char *keep);

/* Failed logins, by key ("name:anna", "addr:10.0.0.1"): how many since
 * `since`, and one more now (the old ones forgotten). */
int store_tries_count(store *st, const char *key, long long since);
int store_tries_add(store *st, const char *key, long long now);

/* What the account page reads, as JSON texts (malloc'd; NULL on error):
 * the account's ratings {"2p": {"rating", "rd", "games"}}, their history
 * {"2p": [{"at", "rating", "rd", "code"}]}, and its newest `limit` games
 * [{"code", "at", "seat", "finished", "rated"}]. */
char *store_account_ratings(store *st, long long account);
char *store_account_history(store *st, long long account);
char *store_account_games(store *st, long long account, int limit);

#endif
