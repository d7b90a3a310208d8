/*
 * relay_impl.h -- what relay.c (routing, leases, liveness, the limits of
 * the cluster, the loop's side of every question) and relay_bus.c (the
 * bus: the rows between the nodes, and the courier thread that runs
 * every statement) share: the relay's state.  Private to those two.
 */
#ifndef SCOPA_SERVER_RELAY_IMPL_H
#define SCOPA_SERVER_RELAY_IMPL_H

#include "relay.h"
#include "store_pg_relay.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

enum { K_CLIENT_MSG, K_CLIENT_GONE, K_SERVER_MSG, K_SERVER_CLOSE };

#define ROWS_PER_INSERT 500 /* 6 parameters each; PostgreSQL takes 65,535 */
#define ROWS_PER_READ 2000
#define OUT_CAP 200000 /* rows queued at most while the database is away */

typedef spr_row row;

typedef struct rows {
  row *v;
  size_t n, cap;
} rows;

/* A question of the loop for the courier, and its answer. */
enum { ASK_OPEN, ASK_CLAIM, ASK_CREATE, ASK_CODE, ASK_RELEASE, ASK_TICK };

typedef struct ask {
  int kind;
  uint64_t serial;               /* the connection asking (0: the tick)  */
  char code[PROTO_CODE_MAX + 1]; /* CLAIM, RELEASE                       */
  char addr[128];                /* OPEN, CREATE                         */
  int count;                     /* OPEN: the address counted too        */
  char session[65];              /* OPEN: its session's SHA-256, or ""   */
  char *closed;                  /* OPEN, TICK: closes to report first   */
  int purge;                     /* TICK: the purge too                  */
  /* The answer. */
  int rc;
  long long epoch;
  char holder[24];
  char (*alive)[24]; /* TICK: NULL when the heartbeat failed         */
  int nalive;
  char **held; /* TICK: those of sent renewed (NULL: renewal failed)  */
  int nheld;
  char **sent; /* TICK: "CODE:EPOCH" asked for, sorted (one block)    */
  int nsent;
  int64_t renew_ms; /* TICK: when the renewal was sent                 */
  /* CLAIM taken here: the table read by the courier, after the lease, so
   * that the loop never waits for it (loaded 1: game is the answer of
   * store_load, load_rc, with load_msg). */
  int loaded, load_rc;
  store_game game;
  char load_msg[256];
  store_account account; /* OPEN: the session's (id 0: a guest)         */
  /* CREATE, CODE: a code unused in the store, its lease taken ("": none
   * found), at fresh_epoch. */
  char fresh[PROTO_CODE_MAX + 1];
  long long fresh_epoch;
  struct ask *next;
} ask;

typedef struct askq {
  ask *head, *tail;
} askq;

/* A message held while its connection waits for an answer. */
typedef struct held {
  struct held *next;
  size_t len;
  char text[];
} held;

/* conn.wait: a local connection with a question out (asking), the
 * messages it holds meanwhile, and the answer its next entry or
 * creation takes (the verdict). */
struct relay_wait {
  int asking; /* ASK_*, -1 when none                                     */
  held *head, *tail;
  int verdict; /* ASK_CLAIM, ASK_CREATE or ASK_CODE, -1 when none        */
  char code[PROTO_CODE_MAX + 1];
  int rc;
  long long epoch;
  char holder[24];
  int loaded, load_rc; /* the claim's load, as the ask had it           */
  store_game game;
  char load_msg[256];
  char fresh[PROTO_CODE_MAX + 1]; /* CREATE, CODE: its code, until taken  */
  long long fresh_epoch;
  int fresh_taken; /* relay_fresh_code gave it: the new table's        */
};

struct relay {
  server *srv;
  pthread_t thread;
  int thread_started;
  int stop; /* atomic                                                   */
  int efd;  /* eventfd: the loop wakes the courier                     */
  /* Between the loop and the courier, under mu. */
  pthread_mutex_t mu;
  rows sendq;        /* to write, in order                                  */
  rows inq;          /* read, in id order                                   */
  askq asks;         /* to answer, in order                                 */
  askq answers;      /* answered, in order                                  */
  int want_read;     /* atomic: rows may be waiting for this node           */
  int io_reset;      /* atomic: the courier's connection was reset          */
  store *courier_db; /* opened at the start, handed to the courier     */
  /* The courier's own. */
  char *unreported; /* closes a failed statement did not report        */
  /* The loop's own. */
  void *tree;    /* connections by (serial, node): relayed and remote  */
  void *waiting; /* local connections with a question out, by serial   */
  rows out;      /* queued in this turn                                */
  int rclose;    /* remote connections marked to close at the turn     */
  int reset;     /* a connection was reset: rows may have been lost     */
  int ticking;   /* the tick's question is out                         */
  int64_t tick_ms, renewed_ms, purged_ms;
  char *closed;      /* addresses of this node's counted connections closed
                        since the last report, one a line */
  char (*alive)[24]; /* the live nodes at the last tick                */
  int nalive;
  /* The verdict the next relay_claim or relay_table_create takes: set
   * while a held message is handled again (on the loop, at once). */
  struct relay_wait *now;
  /* What relay_conn_open hands ask_for for the open it asks. */
  struct {
    int count;
    char session[65];
  } opening;
};

/* relay_bus.c.  Any thread: the courier looks at its queues now. */
void bus_poke(relay *r);
/* The loop: a row for node dst (not sent before the turn's end). */
void bus_queue_row(relay *r, const char *dst, uint64_t serial, int kind,
                   const char *addr, const char *body, size_t len);
/* The loop's rows of this turn go to the courier. */
void bus_hand_over(relay *r);
void bus_rows_free(rows *q);
/* The loop: a question for the courier (its answer comes back in
 * r->answers, in the order asked). */
void bus_ask(relay *r, ask *a);
void bus_ask_free(ask *a);
/* The courier thread (arg: the relay; r->courier_db its first store). */
void *bus_courier(void *arg);

#endif
