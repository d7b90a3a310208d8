/*
 * bots.h -- the bots' own small thread pool.  The event loop never thinks:
 * it hands a seat's view to the pool (bots_submit) and goes on; a worker
 * asks the library's bot for a move within the job's time, puts the answer
 * on the done queue and wakes the loop (lws_cancel_service through the
 * wake callback), and the loop takes the answers (bots_take) on its own
 * thread.  Workers never touch a table or a connection.
 */
#ifndef SCOPA_SERVER_BOTS_H
#define SCOPA_SERVER_BOTS_H

#include <stdint.h>

#include <scopa.h>

#include "proto.h"

enum {
  BOTJOB_PLAY,  /* a bot's seat, or a bot playing for an away person    */
  BOTJOB_CLOCK, /* a person's move clock ran out                        */
  BOTJOB_HINT,  /* a person asked for a hint (scopa_match_hint)        */
  BOTJOB_REVIEW /* every move of a finished game valued
                   (scopa_match_review_json) */
};

/* The moves of a hint kept and sent, best first. */
#define BOTJOB_HINTS 8

/* The bot whose memory hints and reviews use (scopa_bot_hint). */
#define HINT_BOT "best"

typedef struct bot_job {
  /* Set by the loop: where the answer goes and what it answers.       */
  uint64_t table; /* the table's id (a table reloaded gets a new one)   */
  char code[PROTO_CODE_MAX + 1];
  int number; /* the game's move number the job is for             */
  int seat;
  int kind;    /* BOTJOB_*                                          */
  char id[64]; /* a hint: the request's id as JSON text, or "" */
  char bot[PROTO_SEAT_MAX + 1];
  int movetime_ms;     /* 0: the bot's default; a hint's or a review's
                          work, as nodes (SCOPA_BOT_NODES_PER_MS)         */
  int64_t deadline_ns; /* scopa_clock_ns time by which it must answer:
                          waiting in the queue counts against the budget */
  uint64_t seed;
  scopa_view view;
  /* Set by the worker.                                                 */
  int rc;          /* SCOPA_OK or the bot's error                       */
  scopa_move move; /* the move chosen (best first for a hint)           */
  int nvalues;     /* a hint: hints[0..nvalues), best first              */
  scopa_hint hints[BOTJOB_HINTS];
  /* A hint or a review: the game (a copy the worker frees); a review's
   * answer (JSON text, malloc'd, the loop's to free).                  */
  scopa_match *match;
  char *result;
} bot_job;

typedef struct bots bots;

/* Starts `threads` workers.  Moves go before hints and reviews, and with
 * two or more threads at most threads - 1 think about hints and reviews
 * at once; at most slow_cap hints and reviews wait.  wake(arg) is called
 * from a worker after each answer (it must be thread-safe:
 * lws_cancel_service is).  NULL if the threads cannot start. */
bots *bots_new(int threads, int slow_cap, void (*wake)(void *), void *arg);

/* Stops the workers (jobs not started are dropped) and frees the pool. */
void bots_free(bots *b);

#define BOTS_BUSY (-2)

/* Queues a copy of *job.  Returns 0, -1 when out of memory, or BOTS_BUSY
 * for a hint or review when slow_cap of them wait already. */
int bots_submit(bots *b, const bot_job *job);

/* Moves every answer ready now into out[0..cap) and returns how many;
 * call again while it returns cap. */
int bots_take(bots *b, bot_job *out, int cap);

/* Jobs queued or being thought about (for /healthz and the sweep). */
int bots_pending(bots *b);

#endif
