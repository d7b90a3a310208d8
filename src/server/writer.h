/*
 * writer.h -- the store's writes, off the event loop.  The loop records
 * each turn's writes as a batch (writer_add_*, writer_rate), closes it
 * with writer_flush(batch number), and goes on serving; one thread of
 * our own commits the batches in order (several at once when they queue
 * up: group commit), each commit durable (store.h: WAL, synchronous=FULL)
 * before writer_committed() says so and the loop releases the messages
 * queued behind it (server.h, "the barrier").  So an fsync never blocks
 * the loop, and a move is still never announced before it is stored.
 *
 * A write that fails stops its table, not the server.  Every write names
 * the table in memory it belongs to (table.h's id, new at each load).
 * When a write fails, the group is rolled back and, if the fault was the
 * write's own (a constraint), committed again without that table's
 * writes; if it was the database's (a full disk, an I/O error), every
 * table with writes in the group fails.  A failed table's later writes
 * are dropped (they would build on what was not stored) until the loop
 * says writer_forget.  writer_committed() then counts the group as
 * settled: the loop first takes the failures (writer_take_failed),
 * drops what is held for those tables, and only then releases the rest.
 */
#ifndef SCOPA_SERVER_WRITER_H
#define SCOPA_SERVER_WRITER_H

#include <stdint.h>

#include "store.h"

typedef struct writer writer;

/* A finished game to rate (rating.c): every seat's account (all
 * distinct: moves.c rates no other game), name and side, and for every
 * pair of sides the score of side i against side j (1, 0.5 or 0). */
typedef struct rate_job {
  char pool[4];
  int sides, nseats;
  long long account[STORE_MAX_SEATS];
  char name[STORE_MAX_SEATS][STORE_NAME_MAX + 1];
  double score[STORE_MAX_SEATS][STORE_MAX_SEATS];
  int abandoned[STORE_MAX_SEATS]; /* by side: a bot played for its people */
  char code[STORE_CODE_MAX + 1];
} rate_job;

/* Rated games between the same two accounts within a day that change
 * their ratings: the later ones change nothing (docs/serve.md
 * "Ratings"). */
#define RATE_PAIR_PER_DAY 3

/* Opens its own connection to the database at path and starts the
 * thread; wake(arg) is called from it after each commit (thread-safe,
 * lws_cancel_service).  NULL with a message on failure. */
writer *writer_new(const char *path, void (*wake)(void *), void *arg, char *msg,
                   size_t msgsize);

/* Commits what was flushed, stops the thread, closes.  NULL: no-op. */
void writer_free(writer *w);

/* Writes of the open batch (loop thread only; data is copied).  `table_id`
 * is the id of the table in memory the write is for; node and epoch its
 * lease (relay.h): with an epoch above 0 the write goes through the
 * lease's fence (store_fence), and fails, its table stopping, unless
 * node still holds the lease at epoch (epoch 0: no lease, SQLite). */
void writer_add_game(writer *w, uint64_t table_id, const store_game *game,
                     const char *node, long long epoch);
void writer_set_seat(writer *w, uint64_t table_id, const char *code, int seat,
                     const store_seat *s, const char *node, long long epoch);
/* A move: with an epoch, through the table's lease in its own statement
 * (store_add_move_fenced). */
void writer_add_move(writer *w, uint64_t table_id, const char *code, int number,
                     scopa_move move, int64_t at_ms, int took_ms,
                     const char *node, long long epoch);
/* The game's end; abandoned: a bit for each side that left it (rating.h's
 * table_abandoned). */
void writer_finish(writer *w, uint64_t table_id, const char *code,
                   int abandoned, const char *node, long long epoch);
void writer_rate(writer *w, uint64_t table_id, const rate_job *job,
                 const char *node, long long epoch);

/* Table talk (talk.c): a line, and a report (data copied). */
void writer_add_talk(writer *w, uint64_t table_id, const char *code,
                     const store_talk *line, const char *node, long long epoch);
void writer_add_report(writer *w, uint64_t table_id, const store_report *r,
                       const char *node, long long epoch);

/* Closes the open batch as number `batch` and hands it to the thread. */
void writer_flush(writer *w, uint64_t batch);

/* The last batch settled (any thread): committed, except the writes of
 * the tables writer_take_failed lists.  Read it before taking them: a
 * failure is listed before its batch counts as settled. */
uint64_t writer_committed(writer *w);

/* A table whose writes failed: its id, its code and why, in a player's
 * words (static strings, store_why). */
typedef struct writer_failure {
  uint64_t table;
  char code[STORE_CODE_MAX + 1];
  const char *why_en, *why_it;
} writer_failure;

/* Takes up to cap failures, oldest first (loop thread); returns how many. */
int writer_take_failed(writer *w, writer_failure *out, int cap);

/* The loop has let go of a failed table: the writer forgets its id once
 * every write queued before this call is settled (loop thread). */
void writer_forget(writer *w, uint64_t table_id);

/* 1 once a write could not even be recorded (out of memory on the loop
 * thread): the server stops, announcing nothing of that batch. */
int writer_failed(writer *w);

/* Commits so far and the microseconds they took (any thread). */
void writer_stats(writer *w, uint64_t *commits, uint64_t *us);

#endif
