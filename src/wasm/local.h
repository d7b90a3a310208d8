/*
 * local.h -- a table of one person and bots played in this process: the
 * game the browser plays without a server, with the library compiled to
 * WebAssembly (docs/wasm.md).  It speaks the messages of `scopa serve`
 * (CONTRACTS.md "scopa serve", docs/serve.md): a client's message in, the
 * server's messages out, written by the same code (src/proto/proto.c),
 * so one client reducer reads both.  The game is the library's scopa_match
 * (the one game loop): no rule lives here.
 *
 * Single-threaded and synchronous: scopa_local_send answers a message at
 * once; a bot's move is made only by scopa_local_step, one move a call,
 * so the caller (a Web Worker) posts each state before the next bot
 * thinks.  Bots play by node budgets (scopa.h "Determinism"): a level's
 * time, or the server's default --bot-ms for a bot named directly, times
 * SCOPA_BOT_NODES_PER_MS, with the seed scopa_match_bot_seed, so a seat
 * plays what `scopa engine` answers to the same view, seed and nodes.
 *
 * Compiled natively too, for its tests under the sanitizers
 * (tests/wasm); nothing in it knows about WebAssembly.
 */
#ifndef SCOPA_WASM_LOCAL_H
#define SCOPA_WASM_LOCAL_H

#include <stddef.h>

/* The table's code in every message. */
#define SCOPA_LOCAL_CODE "LOCAL"

/* Think time of a bot named directly ("best"): the server's --bot-ms. */
#define SCOPA_LOCAL_BOT_MS 100

/* The bot that lends hints and reviews its memory (scopa_bot_hint), as
 * the server's. */
#define SCOPA_LOCAL_HINT_BOT "best"

/* A hint's and a review move's work, in ms of nodes: the server's
 * default --hint-ms, so a local table's hints and review are the
 * server's and the terminal's for the same game. */
#define SCOPA_LOCAL_HINT_MS SCOPA_HINT_MS

typedef struct scopa_local scopa_local;

/* A table with nobody seated yet; NULL if out of memory. */
scopa_local *scopa_local_new(void);

/* NULL is a no-op. */
void scopa_local_free(scopa_local *local);

/* The server's first message on a connection: {"type": "hello", ...}.
 * malloc'd (free), NULL if out of memory. */
char *scopa_local_hello(void);

/*
 * Answers one client message (len bytes of text, any bytes): the messages
 * the server would send to this connection, in order, as the text of one
 * JSON array, malloc'd (free); NULL only when out of memory.
 *
 *   create  {"type": "create", "rules", "seats", "name", "seed"}: seats
 *           "me" once and bots or levels (no "open": games with friends
 *           are on the server).  "seed" (1 to 64 hex digits; a local-table
 *           extension) is the game's seed: the page draws 256 bits with
 *           crypto.getRandomValues; without it the library draws them.
 *           -> seated (code "LOCAL", token ""), state.  A second create
 *           starts a new game in place of the old one.
 *   move    -> state (then round_over, state or game_over), or an error
 *           with the server's code and texts.
 *   hint    -> hint (scopa_bot_hint, as the server's).
 *   review  -> review, once the game is over (made once, then kept).
 *   ping    -> pong.
 *   restore {"type": "restore", "record": TEXT} (a local-table extension):
 *           the game of a full record (scopa_local_record's, saved by the
 *           page) goes on where it stopped: the same seats, levels and
 *           seed, so the rest of the game is the straight game's.
 *           -> seated, state; or "table_damaged" (no seed, not one person
 *           and bots, not a valid record), the table unchanged.
 * Anything else known to the server (join, resume, watch) gets an error;
 * an unknown type is ignored (an empty array), as the server ignores it.
 */
char *scopa_local_send(scopa_local *local, const char *text, size_t len);

/* Plays the move of the bot to play, if a bot is to play: its messages as
 * scopa_local_send's (state, and round_over, state or game_over).  "[]"
 * when no bot is to play (a person's turn, no game, the game over). */
char *scopa_local_step(scopa_local *local);

/* The game's full record (RULES.md "Game records", with the seed), which
 * `scopa replay` checks; malloc'd (free).  NULL before a create.  Only a
 * finished game's record may be shown to the player: it names every
 * card of the live round. */
char *scopa_local_record(const scopa_local *local);

#endif
