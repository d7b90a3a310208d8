/*
 * pairer.h -- Play now's thread (pairer.c): a node's seeks go into the
 * store, where every node's pairer can see them, and twice a second,
 * while this node has seeks, a pairing pass (pairing.h) seats the seeks
 * of the whole cluster that fit at new tables, every seat open, in one
 * transaction that only one node runs at a time (store.h "Play now").
 * Each node then takes its own paired seeks back and hands them to the
 * loop (seek.h), which seats each person with a join of the new table.
 *
 * The loop never waits for the store: it hands seeks in and drops them
 * (pairer_add, pairer_drop) and takes back what happened to them
 * (pairer_take) when wake(arg) tells it something is waiting.
 */
#ifndef SCOPA_SERVER_PAIRER_H
#define SCOPA_SERVER_PAIRER_H

#include "store.h"

#define PAIRER_TICK_MS 500   /* a pass this often while a seek waits here */
#define PAIRER_STALE_MS 1500 /* a seek not beaten this long is not paired */
#define PAIRER_GONE_MS 5000  /* ... and leaves the store after this       */
#define PAIRER_READ 512      /* a pass reads this many seeks, oldest first */
#define PAIRER_GUEST 1500.0  /* a guest's rating, and a new account's     */

typedef struct pairer pairer;

/* What happened to a seek: paired at table `code`, or (code "") its
 * rating read, which the loop uses to offer a bot of a matching level. */
typedef struct pairer_news {
  char id[33];
  char code[STORE_CODE_MAX + 1];
  double rating;
} pairer_news;

/* Opens the store at `where` for the thread (node: this node's name, ""
 * on SQLite, where every seek left in the file is a dead process's and
 * goes) and starts it; random_code (any thread: 0, or -1) makes the new
 * tables' codes, the lobby's (relay_hooks.random_code).  NULL with a
 * message. */
pairer *pairer_new(const char *where, const char *node,
                   int (*random_code)(char code[STORE_CODE_MAX + 1]),
                   void (*wake)(void *), void *arg, char *msg, size_t msgsize);
void pairer_free(pairer *p); /* NULL: no-op */

/* A new seek (copied, rules_json too; s->node, beat and rating are the
 * thread's to fill): 0, or -1 without memory. */
int pairer_add(pairer *p, const store_seek *s);
/* Seek id withdrawn (unseek, or its connection closed). */
void pairer_drop(pairer *p, const char *id);
/* What happened, oldest first: how many, up to cap. */
int pairer_take(pairer *p, pairer_news *out, int cap);

#endif
