/*
 * limits.h -- what keeps one client from taking the server: message
 * credits per interval (a token bucket), and counts of connections and of
 * new tables per address.  Pure bookkeeping on numbers the loop passes in
 * (the time in milliseconds), so it is tested without sockets or clocks.
 */
#ifndef SCOPA_SERVER_LIMITS_H
#define SCOPA_SERVER_LIMITS_H

#include <stdint.h>

typedef struct limits_conf {
  int burst;           /* messages a connection may send at once       */
  int per_second;      /* credits back per second                      */
  int strikes;         /* refused messages in a row before a close     */
  int conns_per_addr;  /* connections open at once from one address    */
  int tables_per_addr; /* tables one address may create per minute     */
} limits_conf;

/* A connection's bucket. */
typedef struct limits_bucket {
  double credits;
  int64_t last_ms;
  int strikes; /* consecutive refusals */
} limits_bucket;

void limits_bucket_init(limits_bucket *b, const limits_conf *c, int64_t now);

/* Takes one credit: 1 when the message may go on, 0 when it is refused
 * (too fast), -1 when the client kept going past c->strikes refusals and
 * the connection should close. */
int limits_take(limits_bucket *b, const limits_conf *c, int64_t now);

/* Gives back the credit of a message that moved a game on (an accepted
 * move): play is bounded by the game itself, so a fast player against a
 * fast bot is never throttled; only what does not advance a game costs. */
void limits_refund(limits_bucket *b, const limits_conf *c);

/* Per-address counters.  addr is the peer's address text. */
typedef struct limits_table limits_table;

limits_table *limits_table_new(void);
void limits_table_free(limits_table *t);

/* A connection opens (1: allowed, 0: over the limit, not counted) or
 * closes (always after an allowed open). */
int limits_conn_open(limits_table *t, const limits_conf *c, const char *addr);
void limits_conn_close(limits_table *t, const char *addr);

/* A table is about to be created from addr: 1 when allowed (and
 * counted), 0 when the address created too many this minute. */
int limits_table_create(limits_table *t, const limits_conf *c, const char *addr,
                        int64_t now);

#endif
