/*
 * limits.h -- what keeps one client from taking the server: message
 * credits per interval (a token bucket), and per address counts of
 * connections and buckets of new tables, of unknown table codes asked
 * for (guessing) and of HTTP requests.  Pure bookkeeping on numbers the loop
 * passes in (the time in milliseconds), so it is tested without sockets or
 * clocks.
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
  int misses_burst;    /* unknown codes an address may ask for at once */
  int miss_refill_ms;  /* then one more every this many milliseconds   */
  int http_burst;      /* HTTP requests an address may make at once    */
  int http_per_second; /* then this many a second                      */
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

/* Per-address counters: connections open now, and buckets that refill
 * evenly (a real time window, not a calendar minute): table creations
 * (tables_per_addr, back over a minute), unknown codes (misses_burst)
 * and HTTP requests (http_burst).
 *
 * Keys are exact addresses, not slots of a hash: an IPv4 address (an
 * IPv4-mapped IPv6 one, "::ffff:10.0.0.1", folded to it), or an IPv6
 * address's /64 (what one subscriber holds), so no client can poison
 * another's entry.  An entry is freed as soon as it counts nothing (no
 * connection open, every bucket full again).  When max_addrs entries
 * are held, a new address is allowed uncounted (LIMITS_UNCOUNTED) rather
 * than refused: a full table degrades to "allow", and the caller logs it. */
typedef struct limits_table limits_table;

enum { LIMITS_REFUSED = 0, LIMITS_COUNTED = 1, LIMITS_UNCOUNTED = 2 };

/* NULL when out of memory. */
limits_table *limits_table_new(int max_addrs);
void limits_table_free(limits_table *t); /* NULL: nothing */

/* The key of an address text as lws gives it (the peer's numeric address):
 * writes the normalised form ("10.0.0.1", "2001:db8:1:2::/64") into out
 * (LIMITS_KEY_TEXT bytes).  Text that is no address is kept as it is. */
#define LIMITS_KEY_TEXT 64
void limits_key_text(const char *addr, char out[LIMITS_KEY_TEXT]);

/* The exact numeric form of an address (IPv4, or IPv6 whole: no /64; an
 * IPv4-mapped IPv6 address as IPv4) into out: 0, or -1 when addr is no
 * address.  For comparing a peer with a trusted proxy (--trusted-proxy). */
int limits_exact_text(const char *addr, char out[LIMITS_KEY_TEXT]);

/* The last entry of an X-Forwarded-For value (the address the nearest
 * proxy saw; the entries left of it are whatever the client sent), in
 * exact form: 0, or -1 when it is empty or no address. */
int limits_forwarded(const char *xff, char out[LIMITS_KEY_TEXT]);

/* A connection opens: LIMITS_COUNTED (allowed, counted: call
 * limits_conn_close when it closes), LIMITS_REFUSED (over
 * conns_per_addr, not counted) or LIMITS_UNCOUNTED (allowed, the table is
 * full: do not call limits_conn_close). */
int limits_conn_open(limits_table *t, const limits_conf *c, const char *addr,
                     int64_t now);
void limits_conn_close(limits_table *t, const limits_conf *c, const char *addr,
                       int64_t now);

/* A table is about to be created from addr: LIMITS_COUNTED when allowed
 * (one taken from its bucket), LIMITS_REFUSED when the address created
 * tables_per_addr in the last minute, LIMITS_UNCOUNTED when allowed
 * because the table is full. */
int limits_table_create(limits_table *t, const limits_conf *c, const char *addr,
                        int64_t now);

/* Whether addr may ask for a table by its code now (a WebSocket join,
 * watch or resume, the record over HTTP): 1, or 0 when its unknown codes
 * are used up, with *retry_ms the wait for the next one.  Checked before
 * the code is looked up, so that past the budget a hit and a miss get the
 * same answer; takes nothing (limits_code_miss does).  An address without
 * an entry has its whole budget. */
int limits_code_check(limits_table *t, const limits_conf *c, const char *addr,
                      int64_t now, int *retry_ms);
/* The code addr asked for is no table: one miss taken from its bucket
 * (misses_burst of them, one back every miss_refill_ms). */
void limits_code_miss(limits_table *t, const limits_conf *c, const char *addr,
                      int64_t now);

/* An HTTP request from addr: 1 when allowed (one credit taken, or the
 * table full: uncounted), 0 when over http_burst / http_per_second, with
 * *retry_ms the wait for the next credit. */
int limits_http_take(limits_table *t, const limits_conf *c, const char *addr,
                     int64_t now, int *retry_ms);

/* Frees the entries that count nothing any more (buckets refilled since);
 * cheap enough to call every few seconds.  Returns the entries held. */
int limits_sweep(limits_table *t, const limits_conf *c, int64_t now);

#endif
