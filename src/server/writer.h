/*
 * writer.h -- the store's writes, off the event loop.  The loop records
 * each turn's writes as a batch (writer_add_*, writer_rate), closes it
 * with writer_flush(batch number), and goes on serving; one thread of
 * our own commits the batches in order (several at once when they queue
 * up: group commit), each commit durable (store.h: WAL, synchronous=FULL)
 * before writer_committed() says so and the loop releases the messages
 * queued behind it (server.h, "the barrier").  So an fsync never blocks
 * the loop, and a move is still never announced before it is stored.
 */
#ifndef SCOPA_SERVER_WRITER_H
#define SCOPA_SERVER_WRITER_H

#include <stdint.h>

#include "store.h"

typedef struct writer writer;

/* A finished game to rate (rating.c): its sides' identities and, for
 * every pair, the score of side i against side j (1, 0.5 or 0). */
typedef struct rate_job {
  char pool[4];
  int sides;
  char key[PROTO_MAX_SEATS][PROTO_MAX_SEATS * 65];
  char name[PROTO_MAX_SEATS][PROTO_NAME_MAX + 1];
  double score[PROTO_MAX_SEATS][PROTO_MAX_SEATS];
  char code[PROTO_CODE_MAX + 1];
} rate_job;

/* Opens its own connection to the database at path and starts the
 * thread; wake(arg) is called from it after each commit (thread-safe,
 * lws_cancel_service).  NULL with a message on failure. */
writer *writer_new(const char *path, void (*wake)(void *), void *arg, char *msg,
                   size_t msgsize);

/* Commits what was flushed, stops the thread, closes.  NULL: no-op. */
void writer_free(writer *w);

/* Writes of the open batch (loop thread only; data is copied). */
void writer_add_game(writer *w, const store_game *game);
void writer_set_seat(writer *w, const char *code, int seat,
                     const store_seat *s);
void writer_add_move(writer *w, const char *code, int number, scopa_move move);
void writer_finish(writer *w, const char *code);
void writer_rate(writer *w, const rate_job *job);

/* Closes the open batch as number `batch` and hands it to the thread. */
void writer_flush(writer *w, uint64_t batch);

/* The last batch committed (any thread), and whether a commit failed. */
uint64_t writer_committed(writer *w);
int writer_failed(writer *w);

/* Commits so far and the microseconds they took (any thread). */
void writer_stats(writer *w, uint64_t *commits, uint64_t *us);

#endif
