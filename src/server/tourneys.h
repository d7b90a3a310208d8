/*
 * tourneys.h -- the tournaments' thread (tourneys.c), one on every node,
 * with its own store connection: it does what the loop's tournament
 * messages ask (create, join, leave, start: each one batch under the
 * cluster's lock, store_tourney_lock) and twice a second runs the
 * director's pass (director.h), so that whichever node is alive steps
 * every tournament.  After each pass it tells the loop of every table
 * in play that this node has not yet told of, so that every node seats
 * the connections it has of those accounts (tourney_lobby.c): a table
 * made on one node reaches a player connected to another.
 *
 * The loop never waits for the store: it hands requests in
 * (tourneys_ask) and takes back what came of them (tourneys_take) when
 * wake(arg) says something is waiting, as the pairer's (pairer.h).
 */
#ifndef SCOPA_SERVER_TOURNEYS_H
#define SCOPA_SERVER_TOURNEYS_H

#include <stdint.h>

#include "director.h"
#include "store.h"

#define TOURNEYS_TICK_MS 500   /* a director's pass this often            */
#define TOURNEYS_ACTIVE_MAX 64 /* tournaments not finished, in all        */
#define TOURNEYS_PER_ACCOUNT 3 /* ... of them made by one account         */
#define TOURNEYS_QUEUE_MAX 256 /* requests waiting at most                */

typedef struct tourneys tourneys;

/* TQ_WHERE: the tables in play of a connection's account that came
 * (answered, after the thread's first pass, by a table news for that
 * connection for each: it missed their news while away). */
enum { TQ_CREATE, TQ_JOIN, TQ_LEAVE, TQ_START, TQ_WHERE };

/* A request of a connection (its serial) for account `account`. */
typedef struct tourneys_req {
  int op; /* TQ_* */
  uint64_t serial;
  long long account;
  char name[STORE_NAME_MAX + 1];
  char id[STORE_CODE_MAX + 1];      /* join, leave, start: the tournament  */
  char partner[STORE_NAME_MAX + 1]; /* join: a Scopone pair's other one */
  char *echo;                       /* the message's "id" as JSON, or NULL  */
  char *body;                       /* create: the message, JSON text        */
  char *rules_json;                 /* create: its rules, checked            */
} tourneys_req;

/* What came: an answer for connection `serial` (text: a whole message;
 * miss: the id was unknown, counted against the address's budget), or
 * a table in play (text NULL) the loop seats the connections of its
 * accounts at: every one (serial 0) or connection `serial` only. */
typedef struct tourneys_news {
  uint64_t serial;
  char *text;
  int miss;
  director_table table;
} tourneys_news;

/* Opens the store at `where` for the thread and starts it (random_code:
 * any thread's, as the lobby's).  NULL with a message. */
tourneys *tourneys_new(const char *where,
                       int (*random_code)(char code[STORE_CODE_MAX + 1]),
                       void (*wake)(void *), void *arg, char *msg,
                       size_t msgsize);
void tourneys_free(tourneys *t); /* NULL: no-op */

/* Hands a request over (its strings copied): 0, or -1 when the queue
 * is full or without memory. */
int tourneys_ask(tourneys *t, const tourneys_req *r);
/* What came, oldest first: how many, up to cap (each text the caller's
 * to free). */
int tourneys_take(tourneys *t, tourneys_news *out, int cap);

#endif
